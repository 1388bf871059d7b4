"""What the scored batch fresh-247 (llama-server request fields drawn at random) taught after scoring.

- llamacpp-request-field-defaulted (new as llamacpp-request-field-ignored, a note; renamed by learn42a): llama.cpp b11434's json_value helper (tools/server/server-common.h)
  logs "Wrong type supplied for parameter '%s', using default value: %s" and goes on with the default: the request is
  served without the value, a healthy log's note, never its failure.
- request-field-wrong-type: that warning is its cause only where the log shows the request refused (llama-server's
  invalid_request_error body or the 4xx status: rerank documents/texts read as [] -> HTTP 400); params_from_json's own
  400 "Field 'F': [json.exception.type_error.302] ..." stays its plain wording.
Messages marked 'rendered' are the source's format string filled with a value; the others are as a log showed them.
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

START = (
    "$ llama-server -m /models/qwen3-4b-q4_k_m.gguf --port 8080 -c 4096\n"
    "0.00.628.317 I srv  llama_server: listening on http://127.0.0.1:8080\n"
)
SERVED = (
    "0.02.502.598 I slot print_timing: id  0 | task 0 |       total time =     176.34 ms /    12 tokens\n"
    "0.02.502.623 I slot      release: id  0 | task 0 | stop processing: n_tokens = 11, truncated = 0\n"
)


def warned(field: str, want: str, got: str) -> str:
    """json_value's warning (rendered from server-common.h's format string and nlohmann's type_error.302)."""
    return (
        f"0.02.325.718 W Wrong type supplied for parameter '{field}', using default value:"
        f" [json.exception.type_error.302] type must be {want}, but is {got}\n"
    )


CASES = [
    # TEI-form /rerank with texts as objects: json_value falls back to [], then post_rerank refuses (rendered), as curl
    # -i prints the reply
    (
        "request-field-wrong-type",
        START
        + warned("texts", "string", "object")
        + "HTTP/1.1 400 Bad Request\n"
        + '{"error":{"code":400,"message":"\\"documents\\" must be a non-empty string array",'
        '"type":"invalid_request_error"}}\n',
    ),
    # an older build's wording of the helper (utils.hpp, 'Expected ...' with no exception text; rendered) before a refusal
    (
        "request-field-wrong-type",
        START
        + "W Wrong type supplied for parameter 'documents'. Expected 'array', using default value\n"
        + "openai.BadRequestError: Error code: 400\n",
    ),
    # params_from_json's own refusal, no warning (rendered for another field)
    (
        "request-field-wrong-type",
        START
        + "HTTP/1.1 400 Bad Request\n"
        + '{"error":{"code":400,"message":"Field \'top_k\': [json.exception.type_error.302] type must be number,'
        ' but is string","type":"invalid_request_error"}}\n',
    ),
]

NEAR_MISSES = [
    # the chat route's logprobs "true" dropped and the request answered 200: not a refusal
    (
        "request-field-wrong-type",
        START + warned("logprobs", "boolean", "string") + SERVED + "HTTP/1.1 200 OK\n",
    ),
    # the warning alone, no reply shown: the server went on; nothing says a request was refused
    ("request-field-wrong-type", START + warned("stream", "boolean", "string") + SERVED),
]

test_family_reads_other_wording, test_near_miss_is_not_confident = family_tests(CASES, NEAR_MISSES)


def test_dropped_field_is_a_note_of_a_healthy_log() -> None:
    """A named (object) tool_choice dropped and answered 200: no cause, the warning explained as a note."""
    result = run(START + warned("tool_choice", "string", "object") + SERVED + "HTTP/1.1 200 OK\n")
    assert top_cause(result) is None
    note = next(d for d in result.diagnoses if d.id == "llamacpp-request-field-defaulted")
    assert note.role == "note" and not note.fatal and "tool_choice" in note.cause


def test_older_wording_is_a_note_too() -> None:
    """An older build's 'Wrong type supplied for parameter 'n_probs'. Expected 'number', using default value' (rendered)
    before a served request: a note, with the default reason."""
    result = run(
        START
        + "wrong type supplied for parameter 'n_probs'. Expected 'number', using default value\n"
        + SERVED
    )
    assert top_cause(result) is None
    assert any(d.id == "llamacpp-request-field-defaulted" and "n_probs" in d.cause for d in result.diagnoses)


def test_refusal_hides_the_note() -> None:
    """Where the request was refused, the wrong type is the cause and the note is not shown beside it."""
    result = run(
        START
        + warned("documents", "string", "object")
        + '{"error":{"code":400,"message":"\\"documents\\" must be a non-empty string array","type":"invalid_request_error"}}\n'
    )
    top = top_cause(result)
    assert top is not None and top.id == "request-field-wrong-type" and "documents" in top.cause
    assert all(
        d.id not in ("llamacpp-request-field-ignored", "llamacpp-request-field-defaulted")
        for d in result.diagnoses
    )
