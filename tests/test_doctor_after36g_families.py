"""What the scored batch fresh-230 (vLLM 0.32's other API surfaces: /v1/messages, /v1/responses, the dev routes,
/v1/models/{id}) taught after scoring, with the neighbourhood of each miss's check in vLLM 0.32's own source.

- request-field-wrong-type, request-sampling-param-out-of-range, request-field-value-not-allowed: a route's QUERY
  parameter, as FastAPI validates Query() arguments ('loc': 'query.F'; ('query', 'F'); ["query","F"]): the dev routes'
  /reset_prefix_cache flags (bool), /sleep level (int, 0..2) and mode (PauseMode).
- exceptions.toml: FastAPI's RequestValidationError (logged with its traceback under VLLM_SERVER_DEV_MODE=1) is a
  wrapper of the error lines below it, not an engine bug.
- request-sampling-param-out-of-range: the Anthropic request's 'max_tokens must be positive'.
- request-structured-output-constraints-conflict: the Responses API's structured_outputs beside text.format.
- request-tool-field-wrong-type: the Anthropic tool's 'input_schema must be a dictionary'.
- request-field-missing: the Anthropic tool_choice's "tool_choice.name is required when type is 'tool'".
- chat-content-part-type-unknown: the Anthropic content block's type literal (messages[].content[] and system[]).
- dev-route-needs-server-dev-mode (new): a 404 on a route vLLM registers only under VLLM_SERVER_DEV_MODE=1.
- models-retrieve-route-absent (new): a 404 on GET /v1/models/{id}, which vLLM never registers.
Messages marked 'rendered' are the source's format string filled with a value; the others are as a log showed them.
"""

from __future__ import annotations

from tests.doctor_text import assert_named, family_tests

VLLM = "(APIServer pid=77) INFO 12-05 10:00:01 [entry.py:136] Supported tasks: ['generate']\n"
OLDER = "INFO 03-02 10:00:01 api_server.py:712] vLLM API server version 0.8.5\n"  # an older release's start


def reply(msg: str, param: str) -> str:
    """vLLM 0.32's 400 body for a validation error (the handler flattens loc to a dotted string)."""
    return (
        '{"error":{"message":"1 validation error:\\n  '
        + msg
        + '","type":"Bad Request","param":"'
        + param
        + '",'
        '"code":400}}\n'
    )


def logged(entry: str) -> str:
    """The RequestValidationError traceback vLLM logs when log_error_stack is on (VLLM_SERVER_DEV_MODE=1)."""
    p = "(APIServer pid=77) ERROR 12-05 10:00:05 [validation.py:151] "
    return (
        VLLM
        + p
        + "RequestValidationError caught. Request id: None\n"
        + p
        + "Traceback (most recent call last):\n"
        + p
        + '  File "/opt/venv/lib/python3.12/site-packages/fastapi/routing.py", line 723, in app\n'
        + p
        + "    raise validation_error\n"
        + p
        + "fastapi.exceptions.RequestValidationError: 1 validation error:\n"
        + p
        + "  "
        + entry
        + "\n"
    )


CASES = [
    # /sleep?level=abc (serve/dev/sleep/api_router.py level: int; rendered by pydantic)
    (
        "request-field-wrong-type",
        "# request: POST http://127.0.0.1:8000/sleep?level=abc\nHTTP/1.1 400 Bad Request\n"
        + reply(
            "{'type': 'int_parsing', 'loc': 'query.level', 'msg': 'Input should be a valid integer, unable to parse "
            "string as an integer', 'input': 'abc'}",
            "query.level",
        ),
    ),
    # /reset_prefix_cache?reset_external=yes as the logged traceback shows it (loc a tuple), no reply in the log
    (
        "request-field-wrong-type",
        logged(
            "{'type': 'bool_parsing', 'loc': ('query', 'reset_external'), 'msg': 'Input should be a valid boolean, "
            "unable to interpret input', 'input': 'yes'}"
        )
        + 'INFO:     127.0.0.1:34948 - "POST /reset_prefix_cache?reset_external=yes HTTP/1.1" 400 Bad Request\n',
    ),
    # FastAPI's own 422 for a query flag (another FastAPI server, or a client that prints it)
    (
        "request-field-wrong-type",
        '{"detail":[{"type":"bool_parsing","loc":["query","reset_running_requests"],"msg":"Input should be a valid '
        'boolean, unable to interpret input","input":"2"}]}\n',
    ),
    # /sleep?level=3 (Query(ge=0, le=2); rendered)
    (
        "request-sampling-param-out-of-range",
        reply(
            "{'type': 'less_than_equal', 'loc': 'query.level', 'msg': 'Input should be less than or equal to 2', "
            "'input': '3', 'ctx': {'le': 2}}",
            "query.level",
        ),
    ),
    # anthropic/protocol.py validate_max_tokens with a negative value (rendered)
    (
        "request-sampling-param-out-of-range",
        "# request: POST http://127.0.0.1:8000/v1/messages {...}\nHTTP/1.1 400 Bad Request\n"
        + reply(
            "{'type': 'value_error', 'loc': 'body.max_tokens', 'msg': 'Value error, max_tokens must be positive', "
            "'input': -5, 'ctx': {'error': ValueError('max_tokens must be positive')}}",
            "body.max_tokens",
        ),
    ),
    # /sleep?mode=pause (PauseMode = Literal['abort', 'wait', 'keep']; rendered)
    (
        "request-field-value-not-allowed",
        reply(
            "{'type': 'literal_error', 'loc': 'query.mode', 'msg': \\\"Input should be 'abort', 'wait' or 'keep'\\\", "
            "'input': 'pause', 'ctx': {'expected': \\\"'abort', 'wait' or 'keep'\\\"}}",
            "query.mode",
        ),
    ),
    # anthropic/protocol.py AnthropicToolChoice.validate_name_required_for_tool (rendered)
    (
        "request-field-missing",
        reply(
            "{'type': 'value_error', 'loc': 'body.tool_choice', 'msg': \\\"Value error, tool_choice.name is required "
            "when type is 'tool'\\\", 'input': {'type': 'tool'}}",
            "body.tool_choice",
        ),
    ),
    # a system block of a type the Anthropic protocol lacks (system: list[AnthropicContentBlock]; rendered)
    (
        "chat-content-part-type-unknown",
        reply(
            "{'type': 'literal_error', 'loc': 'body.system.0.type', 'msg': \\\"Input should be 'text', 'image', "
            "'tool_use', 'tool_result', 'tool_reference', 'thinking', 'redacted_thinking', 'tool_addition' or "
            "'tool_removal'\\\", 'input': 'document'}",
            "body.system.0.type",
        ),
    ),
    # ... a message block, with the content union's string_type beside it, in an older release's tuple form
    (
        "chat-content-part-type-unknown",
        "{'type': 'string_type', 'loc': ('body', 'messages', 0, 'content'), 'msg': 'Input should be a valid string'}, "
        "{'type': 'literal_error', 'loc': ('body', 'messages', 0, 'content', 0, 'type'), 'msg': \"Input should be "
        "'text', 'image', 'tool_use' or 'tool_result'\", 'input': 'search_result'}\n",
    ),
    # the other dev routes without VLLM_SERVER_DEV_MODE (uvicorn's access line)
    (
        "dev-route-needs-server-dev-mode",
        VLLM + 'INFO:     10.0.0.5:51000 - "GET /is_sleeping HTTP/1.1" 404 Not Found\n',
    ),
    (
        "dev-route-needs-server-dev-mode",
        VLLM
        + 'INFO:     10.0.0.5:51002 - "POST /reset_prefix_cache?reset_external=true HTTP/1.1" 404 Not Found\n',
    ),
    (
        "dev-route-needs-server-dev-mode",
        VLLM + 'INFO:     10.0.0.5:51004 - "POST /update_weights HTTP/1.1" 404 Not Found\n',
    ),
    # an older release's start line, and a client's reply alone (FastAPI's no-route body)
    (
        "dev-route-needs-server-dev-mode",
        OLDER + 'INFO:     10.0.0.5:51012 - "POST /wake_up HTTP/1.1" 404 Not Found\n',
    ),
    (
        "models-retrieve-route-absent",
        'INFO:     10.0.0.5:52008 - "GET /v1/models/qwen3-8b HTTP/1.1" 404 Not Found\n'
        "$ curl -s http://10.0.0.9:8000/v1/models/qwen3-8b\n"
        '{"detail":"Not Found"}\n',
    ),
    # the Responses API's structured_outputs beside text.format (openai/responses/protocol.py; rendered)
    (
        "request-structured-output-constraints-conflict",
        '{"error":{"message":"Cannot specify both structured_outputs and text.format (parameter=structured_outputs)",'
        '"type":"BadRequestError","param":"structured_outputs","code":400}}\n',
    ),
    # the Anthropic tool's input_schema of another type (anthropic/protocol.py AnthropicTool; rendered)
    (
        "request-tool-field-wrong-type",
        reply(
            "{'type': 'value_error', 'loc': 'body.tools.0.input_schema', 'msg': 'Value error, input_schema must be a "
            "dictionary', 'input': 'x'}",
            "body.tools.0.input_schema",
        ),
    ),
    # GET /v1/models/{id} with an id holding a slash (a Hugging Face name)
    (
        "models-retrieve-route-absent",
        VLLM
        + 'INFO:     10.0.0.5:52000 - "GET /v1/models/meta-llama/Llama-3.1-8B-Instruct HTTP/1.1" 404 Not Found\n',
    ),
]

NEAR_MISSES = [
    # a body field out of range is not a wrong type
    (
        "request-field-wrong-type",
        reply(
            "{'type': 'less_than_equal', 'loc': 'query.level', 'msg': 'Input should be less than or equal to 2', "
            "'input': '3'}",
            "query.level",
        ),
    ),
    # a message's role outside its literal is a field's value, not a content block's type
    (
        "chat-content-part-type-unknown",
        reply(
            "{'type': 'literal_error', 'loc': 'body.messages.0.role', 'msg': \\\"Input should be 'user', 'assistant' "
            "or 'system'\\\", 'input': 'tool'}",
            "body.messages.0.role",
        ),
    ),
    # the profiler routes hang on the profiler config, not on VLLM_SERVER_DEV_MODE
    (
        "dev-route-needs-server-dev-mode",
        VLLM + 'INFO:     10.0.0.5:51006 - "POST /start_profile HTTP/1.1" 404 Not Found\n',
    ),
    # a dev route that answered is no missing route
    (
        "dev-route-needs-server-dev-mode",
        VLLM + 'INFO:     10.0.0.5:51008 - "POST /collective_rpc HTTP/1.1" 200 OK\n',
    ),
    # the access line alone, with nothing that shows vLLM (another FastAPI server)
    ("dev-route-needs-server-dev-mode", 'INFO:     10.0.0.5:51010 - "POST /sleep HTTP/1.1" 404 Not Found\n'),
    # the list route answering, and a doubled slash (client-base-url-trailing-slash's)
    ("models-retrieve-route-absent", VLLM + 'INFO:     10.0.0.5:52002 - "GET /v1/models HTTP/1.1" 200 OK\n'),
    (
        "models-retrieve-route-absent",
        VLLM + 'INFO:     10.0.0.5:52004 - "GET /v1/models//x HTTP/1.1" 404 Not Found\n',
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_doubled_slash_stays_the_base_url_family():
    assert_named(
        "client-base-url-trailing-slash",
        VLLM + 'INFO:     10.0.0.5:52006 - "GET /v1//models HTTP/1.1" 404 Not Found\n',
    )


def test_request_validation_error_is_no_engine_bug():
    """Its traceback wraps the error lines below it: an error kind no family reads leaves the refusal, not a bug."""
    from tests.doctor_text import run, top_cause

    top = top_cause(
        run(
            logged("{'type': 'url_parsing', 'loc': ('body', 'image'), 'msg': 'Input should be a valid URL'}")
            + 'INFO:     127.0.0.1:34948 - "POST /v1/foo HTTP/1.1" 400 Bad Request\n'
        )
    )
    assert top is not None and top.id != "uncaught-exception", top
