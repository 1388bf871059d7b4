"""What fresh-283's miss (a VLLM_MAX_STOP_STRINGS limit read as a wrong type) taught after scoring, with the
neighbourhood of vLLM 0.32's request limits taken from an environment variable.

- request-field-wrong-type: a string_type beside the same field's too_long is StopParam's union (str | list[str])
  refusing a list for its length, not a wrong type: left to the length's families.
- vllm-request-limit-env-too-low: the stop limit with the variable set in the log (chat, completions, the Anthropic
  route's stop_sequences), and the derender route's VLLM_MAX_N_SEQUENCES bound.
- request-sampling-param-out-of-range: the same limits where nothing in the log set them (vLLM's defaults).
Messages marked 'rendered' are the source's format string filled with a value; the errors are as pydantic 2.14 gave
them for vLLM 0.32's ChatCompletionRequest / AnthropicMessagesRequest, through its validation handler's format.
"""

from __future__ import annotations

from tests.doctor_text import family_tests


def reply(*errors: str, param: str) -> str:
    n = len(errors)
    body = f"{n} validation error{'s' if n > 1 else ''}:\\n  " + "\\n  ".join(errors)
    return '{"error":{"message":"' + body + '","type":"Bad Request","param":"' + param + '","code":400}}\n'


def string_type(loc: str, n: int) -> str:
    return f"{{'type': 'string_type', 'loc': '{loc}', 'msg': 'Input should be a valid string', 'input': '<list of {n} items>'}}"


def too_long(loc: str, limit: int, n: int) -> str:
    return (
        f"{{'type': 'too_long', 'loc': '{loc}', 'msg': 'List should have at most {limit} items after validation, "
        f"not {n}', 'input': '<list of {n} items>', 'ctx': {{'field_type': 'List', 'max_length': {limit}, "
        f"'actual_length': {n}}}}}"
    )


COMPLETIONS = (
    '# request: POST http://127.0.0.1:8000/v1/completions {"model": "m", "prompt": "hi", "stop": [...]}\n'
)
MESSAGES = (
    '# request: POST http://127.0.0.1:8000/v1/messages {"model": "m", "max_tokens": 8, "messages": [...]}\n'
)
STATUS = "HTTP/1.1 400 Bad Request\n"

CASES = [
    # the completions route, the variable in a unit's environment (the batch's was a chat request after an export)
    (
        "vllm-request-limit-env-too-low",
        "Environment=VLLM_MAX_STOP_STRINGS=1\n"
        + COMPLETIONS
        + STATUS
        + reply(string_type("body.stop", 2), too_long("body.stop", 1, 2), param="body.stop"),
    ),
    # the Anthropic route's stop_sequences (list[str] with the same max_length: too_long alone), docker -e
    (
        "vllm-request-limit-env-too-low",
        "$ docker run -e VLLM_MAX_STOP_STRINGS=2 vllm/vllm-openai --model m\n"
        + MESSAGES
        + STATUS
        + reply(too_long("body.stop_sequences", 2, 3), param="body.stop_sequences"),
    ),
    # scale_out/derender/serving.py's bound (rendered), the variable exported
    (
        "vllm-request-limit-env-too-low",
        "$ export VLLM_MAX_N_SEQUENCES=2\n"
        '{"error":{"message":"generate_responses count (3) exceeds server maximum (2). Set VLLM_MAX_N_SEQUENCES to '
        'increase this limit.","type":"BadRequestError","param":null,"code":400}}\n',
    ),
    # nothing set the limit: vLLM's default 4 stop strings, a request of 5 (the request asked too many)
    (
        "request-sampling-param-out-of-range",
        COMPLETIONS
        + STATUS
        + reply(string_type("body.stop", 5), too_long("body.stop", 4, 5), param="body.stop"),
    ),
    (
        "request-sampling-param-out-of-range",
        MESSAGES + STATUS + reply(too_long("body.stop_sequences", 4, 6), param="body.stop_sequences"),
    ),
    # completion/protocol.py's prompt list at its default 1024 (rendered)
    (
        "request-sampling-param-out-of-range",
        '{"error":{"message":"prompt list length 1500 exceeds the maximum allowed count of 1024. To increase this '
        'limit, set the VLLM_MAX_COMPLETION_PROMPTS environment variable. (parameter=prompt)","type":"BadRequestError",'
        '"param":"prompt","code":400}}\n',
    ),
    # a stop of the wrong type stays request-field-wrong-type's (no length error beside it)
    (
        "request-field-wrong-type",
        COMPLETIONS
        + STATUS
        + reply(
            "{'type': 'string_type', 'loc': 'body.stop', 'msg': 'Input should be a valid string', 'input': 5}",
            "{'type': 'list_type', 'loc': 'body.stop', 'msg': 'Input should be a valid list', 'input': 5}",
            param="body.stop",
        ),
    ),
]

NEAR_MISSES = [
    # the batch's union artifact: the string_type is not the cause where the same field's length was refused
    (
        "request-field-wrong-type",
        "$ export VLLM_MAX_STOP_STRINGS=2\n"
        + COMPLETIONS
        + STATUS
        + reply(string_type("body.stop", 3), too_long("body.stop", 2, 3), param="body.stop"),
    ),
    # no variable set: the default limit is the request's excess, not a server setting
    (
        "vllm-request-limit-env-too-low",
        MESSAGES + STATUS + reply(too_long("body.stop_sequences", 4, 5), param="body.stop_sequences"),
    ),
    # a too_long on another field (cache_salt's max_length 1024 is no variable's) is not the stop limit
    (
        "vllm-request-limit-env-too-low",
        "$ export VLLM_MAX_STOP_STRINGS=2\n"
        + COMPLETIONS
        + STATUS
        + reply(
            "{'type': 'string_too_long', 'loc': 'body.cache_salt', 'msg': 'String should have at most 1024 "
            "characters', 'input': 'xxxx'}",
            param="body.cache_salt",
        ),
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)
