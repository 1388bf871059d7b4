"""Request refusals llama-server words its own way (the lead, stop 30, after scoring fresh-108): a JSON field of the
wrong type as nlohmann::json throws it, and the request-parsing refusals it answers with HTTP 500. Each tested on
another wording of its class than the batch's, and a near miss.
"""

from __future__ import annotations

from tests.doctor_text import family_tests

CASES = [
    # another field, an older build's body without the field's name (common/json-partial, server utils)
    (
        "request-field-wrong-type",
        '# client: POST /completion {"prompt": "hi", "n_predict": "8"}\nHTTP/1.1 400 Bad Request\n'
        '{"error":{"code":400,"message":"[json.exception.type_error.302] type must be number, but is string",'
        '"type":"invalid_request_error"}}\n',
    ),
    # the handler's warning line for a tool_choice it cannot parse (after33d: now named by the specific
    # request-field-value-not-allowed, a value outside auto/none/required, which supersedes the generic refusal)
    (
        "request-field-value-not-allowed",
        '0.00.4 W srv    operator(): got exception: {"error":{"code":500,"message":"Invalid tool_choice: auto-ish",'
        '"type":"server_error"}}\n',
    ),
    # a messages array it cannot read, as the openai client raises it
    (
        "request-refused",
        "openai.InternalServerError: Error code: 500 - {'error': {'code': 500, 'message': \"Failed to parse messages: "
        "Expected 'content' (ref: https://github.com/ggml-org/llama.cpp/issues/8367)\", 'type': 'server_error'}}\n",
    ),
]

NEAR_MISSES = [
    # a chat template's own exception is a 500 of the server's template, not a refused request
    (
        "request-refused",
        '0.00.4 W srv    operator(): got exception: {"error":{"code":500,"message":"\\n------------\\nWhile executing '
        'CallExpression at line 85, column 32 in source:\\n...","type":"server_error"}}\n',
    ),
    # a model that failed to load (router mode) is not a request's fault
    (
        "request-refused",
        '{"error":{"code":500,"message":"model name=tiny failed to load","type":"server_error"}}\n',
    ),
]

test_the_family_names_the_cause, test_a_near_miss_is_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_a_template_exception_is_not_read_as_a_refused_request():
    """The near miss above must not be request-refused at all (assert_not_confident lets a 0.50 guess stand)."""
    from tests.doctor_text import run, top_cause

    top = top_cause(run(NEAR_MISSES[0][1]))
    assert top is None or top.id != "request-refused"


def test_a_terminal_ui_box_is_read_as_its_text():
    """A coding agent's boxed error (qwen-code, gemini-cli): the bars and padding go, the line count stays, and a
    wording anchored at the line's end meets the text; a table's inner bar is left alone."""
    from servebox.doctor.unwrap import unwrap

    boxed = (
        "│ ✖  OpenAI API Streaming Error: 500 Unexpected end of template at row 3, column 9:      │\n"
        "│   {%- if messages %}                                   │\n"
        "  name │ value\n"
    )
    out = unwrap(boxed.encode()).decode()
    assert out.splitlines() == [
        "✖  OpenAI API Streaming Error: 500 Unexpected end of template at row 3, column 9:",
        "  {%- if messages %}",
        "  name │ value",
    ]
    from tests.doctor_text import run, top_cause

    assert top_cause(run(boxed)).id == "chat-template-invalid"
