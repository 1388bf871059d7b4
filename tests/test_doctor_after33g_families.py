"""What the scored batch fresh-160 (chat templates on vLLM 0.32, made here) taught after scoring: a template broken
for every request (vLLM's start-up warmup on one user message already failed with the same error) is the template's
fault, not the conversation's; jinja2's compile-time refusals and llama.cpp's jinja engine's are chat-template-invalid;
a template that iterates `tools` unguarded is its own family.

Each log is written in another wording than its corpus log (other functions, filters, attributes, programs).
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

W = "(APIServer pid=77) WARNING 12-05 10:00:00 [base.py:380] "
R = "(APIServer pid=77) WARNING 12-05 10:00:00 [hf.py:839] Chat template rejected the request: "


def _warmup(exc_line: str, why: str) -> str:
    """vLLM 0.32's start-up warmup failing (renderers/base.py), then a request rejected with the same error."""
    return f"{R}{why}\n{W}Chat template warmup failed\n{W}Traceback (most recent call last):\n{W}{exc_line}\n{R}{why}\n"


CASES = [
    # chat-template-invalid: an undefined function at warmup (jinja2 UndefinedError), another name than format_date
    (
        "chat-template-invalid",
        _warmup(
            "jinja2.exceptions.UndefinedError: 'strftime_now' is undefined", "'strftime_now' is undefined"
        ),
    ),
    # chat-template-invalid: the immutable sandbox (jinja2 SecurityError), dict.update instead of list.append
    (
        "chat-template-invalid",
        _warmup(
            "jinja2.exceptions.SecurityError: access to attribute 'update' of 'dict' object is unsafe.",
            "access to attribute 'update' of 'dict' object is unsafe.",
        ),
    ),
    # chat-template-invalid: an unknown TEST inside an `if`, which jinja2 3.x resolves at render time (printed by the
    # installed jinja2 of .venv-vllm: TemplateRuntimeError "No test named 'palindrome' found.")
    (
        "chat-template-invalid",
        "jinja2.exceptions.TemplateRuntimeError: No test named 'palindrome' found.\n",
    ),
    # chat-template-invalid: the bare wording in vLLM's 400 body, an unknown filter
    (
        "chat-template-invalid",
        'HTTP/1.1 400 Bad Request\n{"error":{"message":"No filter named \'reverse_words\'.\\n  File \\"<introspection>\\", '
        'line 1","type":"BadRequestError","param":null,"code":400}}\n',
    ),
    # chat-template-invalid: llama.cpp's own jinja engine (common/jinja runtime.cpp) in llama-server's start-up check,
    # a filter it lacks for a type (a public note on a Rosetta template: 'default' on an object; the server aborts)
    (
        "chat-template-invalid",
        "srv          init: init: chat template parsing error: Unable to generate parser for this template. "
        "Automatic parser generation failed:\n"
        "While executing FilterExpression at line 3, column 20 in source:\n"
        "Error: Unknown (built-in) filter 'default' for type Object\n"
        "srv          init: init: please consider disabling jinja via --no-jinja, or use a custom chat template via "
        "--chat-template\n",
    ),
    # chat-template-fails-without-tools: `tools|length` unguarded at warmup (no tools there)
    (
        "chat-template-fails-without-tools",
        _warmup(
            "TypeError: object of type 'NoneType' has no len()", "object of type 'NoneType' has no len()"
        ),
    ),
    # chat-template-fails-without-tools: llama.cpp's jinja engine names the variable (a public note on Olmo-3.1)
    (
        "chat-template-fails-without-tools",
        "error: Unable to generate parser for this template. Automatic parser generation failed:\n"
        "Error: Unknown (built-in) filter 'tojson' for type Undefined (hint: 'tools')\n",
    ),
    # chat-template-content-type-mismatch over a warmup failure: the content format is the fix
    (
        "chat-template-content-type-mismatch",
        _warmup(
            'TypeError: can only concatenate str (not "list") to str',
            'can only concatenate str (not "list") to str',
        ),
    ),
]

test_the_family_names_the_cause, _ = family_tests(CASES)


def test_a_raise_exception_after_a_clean_warmup_keeps_the_conversation_shape():
    """Near miss: the template's own raise_exception() on role order, no warmup failure: the request's shape."""
    cause = top_cause(run(f"{R}After the optional system message, roles must alternate user/assistant\n"))
    assert cause is not None and cause.id == "chat-template-rejects-request"


def test_a_raise_exception_at_warmup_is_not_a_broken_template():
    """Near miss: a template that asks for a system message raises at warmup too (jinja2's plain TemplateError): the
    template wants a shape, so the conversation-shape family keeps it."""
    why = "A system message is required."
    cause = top_cause(run(_warmup(f"jinja2.exceptions.TemplateError: {why}", why)))
    assert cause is not None and cause.id == "chat-template-rejects-request"


def test_a_typeerror_without_a_warmup_failure_is_not_a_broken_template():
    """Near miss: 'NoneType' object is not iterable with no warmup failure (a request's own null field) names neither
    the tools family nor a broken template."""
    cause = top_cause(run(f"{R}'NoneType' object is not iterable\n"))
    assert cause is None or cause.id not in ("chat-template-fails-without-tools", "chat-template-invalid")


UP = "(APIServer pid=77) INFO:     Application startup complete.\n"
REFUSED = 'INFO:     127.0.0.1:40000 - "POST /v1/chat/completions HTTP/1.1" 400 Bad Request\n'
BROKEN = _warmup("jinja2.exceptions.UndefinedError: 'now' is undefined", "'now' is undefined")


def test_a_warmup_failure_then_refused_requests_stays_a_cause():
    """refused_after (signatures.toml): vLLM logs the warmup failure as a WARNING and serves on; a request refused
    after it came up keeps the broken template the cause, not 'only a warning, the server came up'."""
    lines = BROKEN.splitlines(keepends=True)
    cause = top_cause(run("".join(lines[:4]) + UP + "".join(lines[4:]) + REFUSED))
    assert cause is not None and cause.id == "chat-template-invalid" and cause.confidence >= 0.7


def test_a_warmup_failure_with_no_request_refused_is_only_a_warning():
    """Near miss: the same warmup failure, the server up and no request refused: nothing failed yet (a note)."""
    result = run(BROKEN.splitlines(keepends=True)[1] + BROKEN.splitlines(keepends=True)[3] + UP)
    assert top_cause(result) is None


def test_llama_servers_filter_refusal_at_request_time_stays_the_requests():
    """Near miss: the same llama.cpp filter wording for one request (no start-up check): the request gave a value in
    another shape (chat-template-filter-fails-on-request), not a template broken for every request."""
    cause = top_cause(
        run(
            'srv    operator(): got exception: {"error":{"code":500,"message":"Error: Unknown (built-in) filter '
            '\'items\' for type String","type":"server_error"}}\n'
        )
    )
    assert cause is not None and cause.id == "chat-template-filter-fails-on-request"
