"""Families the lead widened in stop 42, each on wordings other than the corpus log's (pydantic-core's message
rendered for other classes, marked so) and vLLM 0.32's scale-out refusal, with near misses that must not match."""

from __future__ import annotations

from tests.doctor_text import family_tests

STARTED = (
    "(APIServer pid=4178) INFO 12-06 06:57:58 [factories.py:89] Scale-out endpoints are disabled. Restart vllm serve "
    "with --enable-scale-out to enable them.\n"
    "(APIServer pid=4178) INFO:     Application startup complete.\n"
)

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
    # rendered: vLLM 0.32's scale_out/factories.py refusal, on another route: the client's body, and the access line of
    # a log that holds the start's INFO line
    (
        "scale-out-endpoints-disabled",
        "openai.PermissionDeniedError: Error code: 403 - {'error': {'message': 'Scale-out endpoints are disabled. Restart "
        "vllm serve with --enable-scale-out to enable them.', 'type': 'PermissionDeniedError', 'param': None, 'code': 403}}",
    ),
    (
        "scale-out-endpoints-disabled",
        STARTED + 'INFO:     10.0.0.7:40112 - "POST /v1/completions/derender HTTP/1.1" 403 Forbidden\n',
    ),
]

NEAR_MISSES = [
    # every start logs the sentence at INFO: a healthy log with an ordinary request is not this cause
    (
        "scale-out-endpoints-disabled",
        STARTED + 'INFO:     127.0.0.1:40112 - "POST /v1/chat/completions HTTP/1.1" 200 OK\n',
    ),
    # the same words in a script's own model validation, no refused request around it
    (
        "request-field-wrong-type",
        "pydantic_core._pydantic_core.ValidationError: 1 validation error for Settings\nserver\n"
        "  Input should be a valid dictionary or instance of ServerSettings [type=model_type, input_value=None]\n",
    ),
]

test_names_the_cause, test_near_miss_not_confident = family_tests(CASES, NEAR_MISSES)
