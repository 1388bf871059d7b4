"""Families learnt or narrowed by after33e from fresh-157's misses (vLLM 0.32's pooling server refusing or failing a
request), each on a wording other than its corpus log's: pydantic 2.14's own errors for a union request model (run
here on a two-member union like vLLM's embeddings request), vLLM's 400 body before 0.32 (the errors list with tuple
locs), CPython's json encoder and Go's encoding/json refusing NaN."""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

_OPENAI = (
    "Traceback (most recent call last):\n"
    '  File "/srv/app/embed.py", line 14, in <module>\n    out = client.embeddings.create(\n'
    '  File "/venv/lib/python3.12/site-packages/openai/_base_client.py", line 1248, in request\n'
    "    raise self._make_status_error_from_response(err.response) from None\n"
    "openai.BadRequestError: Error code: 400 - {{'object': 'error', 'message': \"{msg}\", 'type': 'BadRequestError',"
    " 'param': None, 'code': 400}}\n"
)
# pydantic's errors() for Union[EmbeddingCompletionRequest, EmbeddingChatRequest] on {"input": "x", "encoding_format":
# "int8"}: the completion member refuses the value, the chat member also lacks `messages`
_UNION_BAD_VALUE = (
    "[{'type': 'literal_error', 'loc': ('body', 'EmbeddingCompletionRequest', 'encoding_format'), 'msg': \\\"Input"
    " should be 'float' or 'base64'\\\", 'input': 'int8'}, {'type': 'missing', 'loc': ('body', 'EmbeddingChatRequest',"
    " 'messages'), 'msg': 'Field required', 'input': {'input': 'x', 'encoding_format': 'int8'}}]"
)
# the same union on {"model": "m"}: neither form's distinguishing field was sent
_UNION_NEITHER = (
    "[{'type': 'missing', 'loc': ('body', 'EmbeddingCompletionRequest', 'input'), 'msg': 'Field required', 'input':"
    " {'model': 'm'}}, {'type': 'missing', 'loc': ('body', 'EmbeddingChatRequest', 'messages'), 'msg': 'Field"
    " required', 'input': {'model': 'm'}}]"
)
# vLLM 0.32's flattened loc (serve/exception_handling/handlers/validation.py clean_loc_for_param), a /v1/chat/completions
# body that sent `prompt` and no `messages`: one error, a real missing field
_CHAT_NO_MESSAGES = (
    "{\"error\":{\"message\":\"1 validation error:\\n  {'type': 'missing', 'loc': 'body.messages', 'msg': 'Field"
    ' required\', \'input\': \'<dict of 2 items>\'}","type":"Bad Request","param":"body.messages","code":400}}\n'
)
# 0.32's flattened form of a union: a value error on a field the body sent beside the other member's missing field
_FLAT_UNION = (
    "{\"error\":{\"message\":\"3 validation errors:\\n  {'type': 'int_parsing', 'loc': 'body.dimensions', 'msg':"
    " 'Input should be a valid integer, unable to parse string as an integer', 'input': 'half'}\\n  {'type': 'missing',"
    " 'loc': 'body.messages', 'msg': 'Field required', 'input': '<dict of 3 items>'}\\n  {'type': 'int_parsing', 'loc':"
    " 'body.dimensions', 'msg': 'Input should be a valid integer, unable to parse string as an integer', 'input':"
    ' \'half\'}","type":"Bad Request","param":"body.dimensions","code":400}}\n'
)

CASES = [
    # vLLM before 0.32 (the errors list in the 400 body, through the openai client): the other member's `messages`
    # is noise, the refused encoding_format is the cause (after33d's family for a value outside a field's choices,
    # pydantic's literal_error, names it; the generic request-refused did before that family was merged)
    ("request-field-value-not-allowed", _OPENAI.format(msg=_UNION_BAD_VALUE)),
    # 0.32's flattened locs: int_parsing on body.dimensions beside the chat member's missing messages: the sent field's
    # family (a value of the wrong JSON type) takes it
    ("request-field-wrong-type", _FLAT_UNION),
    # a body of neither form: only 'missing' errors, so the family stays
    ("request-field-missing", _OPENAI.format(msg=_UNION_NEITHER)),
    # CPython's json encoder, pure-Python path (json/encoder.py floatstr), under vLLM before 0.32: HTTP 500 traceback
    (
        "model-output-non-finite",
        'INFO:     10.0.0.5:51234 - "POST /v1/embeddings HTTP/1.1" 500 Internal Server Error\n'
        "ERROR:    Exception in ASGI application\n"
        "Traceback (most recent call last):\n"
        '  File "/usr/lib/python3.13/json/encoder.py", line 260, in floatstr\n'
        "    raise ValueError(\n"
        "ValueError: Out of range float values are not JSON compliant: nan\n",
    ),
    # Go's encoding/json (UnsupportedValueError) under Ollama's embedding handler
    (
        "model-output-non-finite",
        'time=2025-03-11T09:41:42.948+05:30 level=INFO source=server.go:915 msg="llm embedding error: failed to encode'
        ' response: json: unsupported value: NaN"\n',
    ),
]

NEAR_MISSES = [
    # Go's encoding/json refusing a type, not a non-finite value
    (
        "model-output-non-finite",
        'time=2025-03-11T09:41:42.948+05:30 level=ERROR source=routes.go:88 msg="json: unsupported type: chan int"\n',
    ),
    # the union's value error alone is no missing field
    ("request-field-missing", _OPENAI.format(msg=_UNION_BAD_VALUE)),
]

test_family_reads_other_wording, test_near_miss_is_not_confident = family_tests(CASES, NEAR_MISSES)


def test_union_member_name_is_skipped_to_the_field() -> None:
    """A member's name in the tuple loc ('EmbeddingCompletionRequest') is not the missing field; `input` is."""
    top = top_cause(run(_OPENAI.format(msg=_UNION_NEITHER)))
    assert top is not None and top.id == "request-field-missing"
    assert "`input`" in top.cause and "EmbeddingCompletionRequest" not in top.cause


def test_chat_request_truly_lacking_messages_keeps_the_family() -> None:
    """Near miss of the union rule: a chat body without messages (one 'missing', nothing else) is still this family."""
    top = top_cause(run(_CHAT_NO_MESSAGES))
    assert top is not None and top.id == "request-field-missing" and "`messages`" in top.cause


def test_non_finite_output_stays_below_confident() -> None:
    """The reply names only the symptom (NaN/inf), not which of its causes: never a confident answer."""
    top = top_cause(
        run(
            '{"error":{"message":"Out of range float values are not JSON compliant","type":"BadRequestError",'
            '"param":null,"code":400}}\n'
        )
    )
    assert top is not None and top.id == "model-output-non-finite" and top.confidence < 0.70


_CUT_BODY = (
    '{"error":{"message":"'
    + "11 validation errors:\\n  {'type': 'literal_error', 'loc': 'body.embed_dtype'} " * 8
)


def test_cut_long_refusal_after_a_4xx_status_is_a_refusal() -> None:
    """A bare error body whose long message the client cut (no closing quote, no code) is a refusal after a 4xx."""
    top = top_cause(run("HTTP/1.1 400 Bad Request\n" + _CUT_BODY + "\n"))
    assert top is not None and top.id == "request-refused"


def test_cut_long_body_after_a_503_is_no_refusal() -> None:
    """Near miss: the same cut body after HTTP 503 (a proxy whose engine is down) is not read as a refused request."""
    top = top_cause(run("HTTP/1.1 503 Service Unavailable\n" + _CUT_BODY + "\n"))
    assert top is None or top.id != "request-refused"
