"""Families the lead widened in stop 42, each on wordings other than the corpus log's (pydantic-core's message
rendered for other classes, marked so), with near misses that must not match."""

from __future__ import annotations

from tests.doctor_text import family_tests

CASES = [
    # rendered: pydantic-core's model_type 'Input should be a valid dictionary or instance of {class_name}', in an
    # OpenAI client's relayed 400 (one line) and in a curl reply's JSON body
    (
        "request-field-wrong-type",
        "openai.BadRequestError: Error code: 400 - {'error': {'message': '1 validation error for ChatCompletionRequest\\n"
        "messages.0.content.0\\n  Input should be a valid dictionary or instance of ChatCompletionContentPartParam "
        "[type=model_type, input_value='hello', input_type=str]'}}",
    ),
    (
        "request-field-wrong-type",
        "$ curl -s localhost:8000/v1/chat/completions -d @req.json\n"
        '{"error":{"message":"1 validation error for ChatCompletionRequest\\nmessages.1.tool_calls.0\\n  Input should be '
        "a valid dictionary or instance of ToolCall [type=model_type, input_value='get_weather', input_type=str]\","
        '"type":"BadRequestError","param":null,"code":400}}\n',
    ),
]

NEAR_MISSES = [
    # the same words in a script's own model validation, no refused request around it
    (
        "request-field-wrong-type",
        "pydantic_core._pydantic_core.ValidationError: 1 validation error for Settings\nserver\n"
        "  Input should be a valid dictionary or instance of ServerSettings [type=model_type, input_value=None]\n",
    ),
]

test_names_the_cause, test_near_miss_not_confident = family_tests(CASES, NEAR_MISSES)
