"""What fresh-502 and fresh-503 (first contact, stop 53) taught learn53g, each cause on logs written here from the
engines' own source (llama.cpp b11434's common/preset.cpp, vLLM 0.32's entrypoints), not copies of the batches' logs.

- llamacpp-router-draft-prefix-file-skipped (widened): load_from_models_dir takes a .gguf whose name begins with
  mtp-, dspark- or dflash- for a draft companion, so a folder (or a models dir) whose only .gguf is such a file has no
  model; the router lists 'Available models (0)' without a word about the file. Where the log shows that file's name
  (a listing, a path) with the empty list, the skipped file is the cause, not an empty models dir (fresh-502 draw 10:
  a confident llamacpp-router-no-models).
- anthropic-tool-use-input-not-object (new): vLLM's /v1/messages converter builds the response's tool_use block with
  input=json.loads(arguments); arguments that are no JSON object make its own AnthropicContentBlock raise a pydantic
  ValidationError, answered as HTTP 400 though the request was valid (fresh-503 draw 2: a confident
  request-field-wrong-type). A request's wrong type is raised by the request model and stays that family's.
- responses-max-tokens-field-ignored (new): /v1/responses has max_output_tokens, no max_tokens; vLLM ignores the
  chat name (logged at DEBUG at most) and generates to the context's end (fresh-503 draw 7: none). Confident on the
  ignored-fields line beside a /v1/responses request; a hint on the request or the reply otherwise.
"""

from __future__ import annotations

from tests.doctor_text import answer_ids, family_tests, run, top_cause

SKIPPED = "llamacpp-router-draft-prefix-file-skipped"
NO_MODELS = "llamacpp-router-no-models"
TOOL_INPUT = "anthropic-tool-use-input-not-object"
WRONG_TYPE = "request-field-wrong-type"
MAX_TOKENS = "responses-max-tokens-field-ignored"


def _router(listing: str, count: int, request_model: str) -> str:
    """A b11434 router's log: a listing of the models dir, its start (log_models' list) and a chat refused by name."""
    empty = (
        "0.00.021.655 I srv    operator():   no models found on the system (visit https://llama.app/models)\n"
    )
    return (
        f"{listing}$ llama-server --models-dir /srv/models --port 8080\n"
        "0.00.014.306 I srv  llama_server: initializing ...\n"
        f"0.00.021.637 I srv    operator(): Available models ({count}):\n{empty if count == 0 else ''}"
        "0.00.021.729 I srv  llama_server: starting server in router mode. models will be automatically loaded on-demand\n"
        "0.00.029.356 I srv  llama_server: listening on http://127.0.0.1:8080\n"
        f'# request: POST http://127.0.0.1:8080/v1/chat/completions {{"model": "{request_model}", "messages": []}}\n'
        f'HTTP/1.1 400 Bad Request\n{{"error":{{"code":400,"message":"model \'{request_model}\' not found",'
        '"type":"invalid_request_error"}}\n'
    )


VLLM = "(APIServer pid=77) ERROR 12-07 10:01:02 [api_router.py:75] "


def _converter_error(value: str, got: str) -> str:
    """vLLM 0.32's create_messages logging the converter's ValidationError (logger.exception), then the access line."""
    lines = [
        "Error in create_messages: 1 validation error for AnthropicContentBlock",
        "input",
        f"  Input should be a valid dictionary [type=dict_type, input_value={value}, input_type={got}]",
        "    For further information visit https://errors.pydantic.dev/2.11/v/dict_type",
        "Traceback (most recent call last):",
        '  File "/opt/venv/lib/python3.12/site-packages/vllm/entrypoints/anthropic/serving.py", line 864, in '
        "messages_full_converter",
        "    anthropic_tool_call = AnthropicContentBlock(",
        "pydantic_core._pydantic_core.ValidationError: 1 validation error for AnthropicContentBlock",
        "input",
        f"  Input should be a valid dictionary [type=dict_type, input_value={value}, input_type={got}]",
    ]
    return "".join(VLLM + line + "\n" for line in lines) + (
        'INFO:     10.0.0.5:51234 - "POST /v1/messages HTTP/1.1" 400 Bad Request\n'
    )


REPLY_ONLY = (
    "$ curl -s localhost:8000/v1/messages -H 'anthropic-version: 2023-06-01' -d @req.json\n"
    '{"type":"error","error":{"type":"BadRequestError","message":"1 validation error for AnthropicContentBlock\\ninput\\n'
    "  Input should be a valid dictionary [type=dict_type, input_value=42, input_type=int]\\n    For further "
    'information visit https://errors.pydantic.dev/2.14/v/dict_type"}}\n'
)

# the request's own tool_use block of the wrong type, as FastAPI hands it to vLLM's validation handler (0.32)
REQUEST_SIDE = (
    "{\"error\":{\"message\":\"1 validation error:\\n  {'type': 'dict_type', 'loc': "
    "'body.messages.1.content.0.input', 'msg': 'Input should be a valid dictionary', 'input': '<list of 2 items>'}\","
    '"type":"Bad Request","param":"body.messages.1.content.0.input","code":400}}\n'
    'INFO:     127.0.0.1:40000 - "POST /v1/messages HTTP/1.1" 400 Bad Request\n'
)

# pydantic's own print of the request model refusing the same block (an app validating the body itself)
REQUEST_MODEL = (
    "pydantic_core._pydantic_core.ValidationError: 1 validation error for AnthropicMessagesRequest\n"
    "messages.1.content.list[function-after[validate_tool_change(), AnthropicContentBlock]].0.input\n"
    "  Input should be a valid dictionary [type=dict_type, input_value=[1, 2], input_type=list]\n"
)

RESPONSES_OK = 'INFO:     127.0.0.1:43776 - "POST /v1/responses HTTP/1.1" 200 OK\n'


def _reply(limit: int, status: str = "completed") -> str:
    """A Responses object as vLLM 0.32 serialises it (ResponsesResponse's field order), short output."""
    head = '{"id":"resp_9","created_at":1796669056,'
    head += (
        '"incomplete_details":{"reason":"max_output_tokens"},'
        if status == "incomplete"
        else '"incomplete_details":null,'
    )
    return (
        head + '"instructions":null,"metadata":null,"model":"m","object":"response","output":[{"id":"msg_1",'
        '"content":[{"annotations":[],"text":"Blue.","type":"output_text","logprobs":null}],"role":"assistant",'
        '"status":"completed","type":"message"}],"parallel_tool_calls":true,"temperature":1.0,"tool_choice":"auto",'
        f'"tools":[],"top_p":1.0,"background":false,"max_output_tokens":{limit},"max_tool_calls":null,'
        f'"previous_response_id":null,"status":"{status}"}}\n'
    )


def _body(field: str, value: int) -> str:
    return f'$ cat body.json\n{{\n  "model": "m",\n  "input": "Name a color.",\n  "{field}": {value}\n}}\n'


CASES = [
    # a subfolder whose only .gguf is a dflash- file, shown by find; the chat asks for the folder's name
    (
        SKIPPED,
        _router("$ find /srv/models -name '*.gguf'\n/srv/models/qwen3/dflash-qwen3-8b.gguf\n", 0, "qwen3"),
    ),
    # the top level holding only an mtp- file (ls -1), asked by a name of the user's own
    (SKIPPED, _router("$ ls -1 /srv/models\nmtp-llama-3.2-1b.gguf\nREADME.md\n", 0, "llama")),
    # the file named in the command that put it there, no listing
    (SKIPPED, _router("$ cp ~/dl/model.gguf /srv/models/gemma/mtp-gemma.gguf\n", 0, "gemma")),
    # the converter's error as vLLM logs it, arguments a JSON string
    (TOOL_INPUT, _converter_error("'Paris'", "str")),
    # the reply alone (the client's side): arguments a number
    (TOOL_INPUT, REPLY_ONLY),
    # the ignored-fields line (vLLM before 0.12 at WARNING, 0.32 at DEBUG) beside a /v1/responses request
    (
        MAX_TOKENS,
        "(APIServer pid=5) DEBUG 12-07 18:44:16 [protocol.py:72] The following fields were present in the request but "
        "ignored: {'max_completion_tokens'}\n" + RESPONSES_OK,
    ),
    (
        MAX_TOKENS,
        "WARNING 03-02 10:11:12 [protocol.py:58] The following fields were present in the request but ignored: "
        "{'max_tokens', 'stop_sequences'}\n" + RESPONSES_OK,
    ),
    # a one-line request to /v1/responses with max_tokens (a hint)
    (
        MAX_TOKENS,
        "$ curl -s http://127.0.0.1:8000/v1/responses -H 'Content-Type: application/json' "
        """-d '{"model": "m", "input": "hi", "max_tokens": 32}'\n""" + _reply(480),
    ),
    # a pretty-printed body with max_tokens, the reply's echoed limit far above it (a hint)
    (MAX_TOKENS, _body("max_tokens", 64) + RESPONSES_OK + _reply(1984)),
    # ... or a reply cut at its output limit whose echo lies past the line's keywords
    (
        MAX_TOKENS,
        _body("max_tokens", 64)
        + RESPONSES_OK
        + _reply(64, "incomplete").replace('"max_output_tokens":64,', ""),
    ),
]

NEAR_MISSES = [
    # an empty models dir whose listing shows no draft-prefixed file: the empty list is the cause
    (SKIPPED, _router("$ ls -1 /srv/models\nREADME.md\nllama-mtp.gguf.part\n", 0, "llama")),
    # a draft companion beside its model: the router lists the model, and an unknown name is just unknown
    (SKIPPED, _router("$ ls -1 /srv/models/alpha\nalpha.gguf\nmtp-alpha.gguf\n", 1, "gpt-4o")),
    # the prefix test is case-sensitive: MTP-alpha.gguf is no draft file to b11434
    (SKIPPED, _router("$ ls -1 /srv/other\nMTP-alpha.gguf\n", 0, "alpha")),
    # the request's own tool_use block of the wrong type: the request model refused it
    (TOOL_INPUT, REQUEST_SIDE),
    (TOOL_INPUT, REQUEST_MODEL),
    # the ignored-fields line on a route that is not /v1/responses: no Responses request in view
    (
        MAX_TOKENS,
        "DEBUG 12-07 18:44:16 [protocol.py:72] The following fields were present in the request but ignored: "
        "{'max_tokens'}\n" + 'INFO:     127.0.0.1:1 - "POST /v1/embeddings HTTP/1.1" 200 OK\n',
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_empty_models_dir_stays_no_models():
    """No draft-prefixed file in view: the router's empty list keeps its own cause."""
    top = top_cause(run(_router("$ ls -1 /srv/models\nREADME.md\n", 0, "llama")))
    assert top is not None and top.id == NO_MODELS


def test_skipped_file_is_named_and_rename_is_the_fix():
    top = top_cause(run(_router("$ ls -1 /srv/models/alpha\nmtp-alpha.gguf\n", 0, "alpha")))
    assert top is not None and top.id == SKIPPED and top.confidence >= 0.7
    assert "'mtp-alpha'" in top.cause and "rename" in top.fix


def test_converter_error_blames_the_model_not_the_request():
    top = top_cause(run(_converter_error("[[-3, 35, -6], inf]", "list")))
    assert top is not None and top.id == TOOL_INPUT and top.confidence >= 0.7
    assert "MODEL's tool call" in top.cause and "list" in top.cause and "tool_choice auto" in top.fix
    assert WRONG_TYPE not in answer_ids(_converter_error("[1]", "list"))


def test_request_side_wrong_type_stays_request_field_wrong_type():
    top = top_cause(run(REQUEST_SIDE))
    assert top is not None and top.id == WRONG_TYPE


def test_ignored_field_line_is_confident_and_names_max_output_tokens():
    log = (
        "DEBUG 12-07 18:44:16 [protocol.py:72] The following fields were present in the request but ignored: "
        "{'max_tokens'}\n" + RESPONSES_OK
    )
    top = top_cause(run(log))
    assert (
        top is not None and top.id == MAX_TOKENS and top.confidence >= 0.7 and "max_output_tokens" in top.fix
    )


def test_reply_hint_stays_below_the_confident_line():
    top = top_cause(run(_body("max_tokens", 64) + RESPONSES_OK + _reply(1984)))
    assert top is not None and top.id == MAX_TOKENS and top.confidence < 0.7


def test_max_output_tokens_sent_is_no_max_tokens_miss():
    """The right field sent (its echo is the limit asked), or sent after a chat body's max_tokens: nothing ignored."""
    assert MAX_TOKENS not in answer_ids(_body("max_output_tokens", 64) + RESPONSES_OK + _reply(64))
    log = _body("max_tokens", 16) + _body("max_output_tokens", 600) + RESPONSES_OK + _reply(600)
    assert MAX_TOKENS not in answer_ids(log)
