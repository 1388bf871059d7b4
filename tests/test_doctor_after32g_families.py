"""Families learnt or sharpened by after32g from the misses of fresh-139 (another process on the same machine),
fresh-141 (failures as the client sees them) and fresh-142 (vLLM's own checks on its inputs), each asserted on a
wording other than its corpus log's (Python's json/decoder.py and urllib, requests, curl's own exit messages, bash's
and zsh's signal reports, vLLM 0.10-0.32 engine/arg_utils.py), with a near miss where it matters."""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

_EMBED = (
    "Traceback (most recent call last):\n"
    '  File "/srv/app/index.py", line 9, in <module>\n'
    "    vecs = client.embeddings.create(model='BAAI/bge-m3', input=docs)\n"
    '  File "/venv/lib/python3.12/site-packages/openai/resources/embeddings.py", line 113, in create\n'
    "    return self._post(\n"
    '  File "/venv/lib/python3.12/site-packages/openai/_base_client.py", line 1248, in request\n'
    "    raise self._make_status_error_from_response(err.response) from None\n"
)

CASES = [
    # requests' Response.json() on an empty body (requests/models.py relays json's JSONDecodeError)
    (
        "json-input-empty",
        "Traceback (most recent call last):\n"
        '  File "/srv/app/probe.py", line 3, in <module>\n    print(requests.get(URL).json())\n'
        "requests.exceptions.JSONDecodeError: Expecting value: line 1 column 1 (char 0)\n",
    ),
    # json.tool on an empty file (Lib/json/tool.py raises SystemExit(e): the message alone)
    (
        "json-input-empty",
        "$ python3 -m json.tool /models/m/config.json\nExpecting value: line 1 column 1 (char 0)\n",
    ),
    # curl's exit 18 for a Content-Length body cut short, and exit 52 for a connection closed before any answer
    ("peer-connection-reset", "curl: (18) transfer closed with 5120 bytes remaining to read\n"),
    (
        "peer-connection-reset",
        "$ curl -s http://127.0.0.1:8080/v1/models\ncurl: (52) Empty reply from server\n",
    ),
    # bash's job control and zsh's report of a job ended by SIGUSR2 / SIGUSR1
    (
        "engine-killed-from-outside",
        "[1]+  User defined signal 2  llama-server -m /srv/m/q.gguf --port 8080\n",
    ),
    ("engine-killed-from-outside", "zsh: user-defined signal 1  vllm serve Qwen/Qwen3-8B --port 8000\n"),
    # urllib's read timeout as Python < 3.10 raised it (socket.timeout), the last line of the client's traceback
    (
        "client-read-timeout",
        "Traceback (most recent call last):\n"
        '  File "/usr/lib/python3.8/http/client.py", line 276, in _read_status\n'
        '    line = str(self.fp.readline(_MAXLINE + 1), "iso-8859-1")\n'
        "socket.timeout: timed out\n",
    ),
    # the openai client's bare 404 from an embeddings call of another script (openai 1.x, Python 3.12)
    ("endpoint-not-served-by-runner", _EMBED + "openai.NotFoundError: Error code: 404\n"),
    # vLLM's offline LLM(...) refusing --default-mm-loras on a text model (the same check, engine/arg_utils.py)
    (
        "default-mm-loras-on-text-model",
        '  File "/venv/lib/python3.10/site-packages/vllm/engine/arg_utils.py", line 1399, in create_engine_config\n'
        "    raise ValueError(\n"
        "ValueError: Default modality-specific LoRA(s) were provided for a non multimodal model\n",
    ),
]

NEAR_MISSES = [
    # a real malformed config (a trailing comma at line 12) is not empty input
    (
        "json-input-empty",
        "$ python -m json.tool config.json\nExpecting property name enclosed in double quotes: line 12 column 1 (char 301)\n",
    ),
    # a connect timeout (urllib wraps it in URLError) is not the client giving up on an answer
    ("client-read-timeout", "urllib.error.URLError: <urlopen error timed out>\n"),
    # a chat call's bare 404 is not an embeddings route
    (
        "endpoint-not-served-by-runner",
        _EMBED.replace(
            "client.embeddings.create(model='BAAI/bge-m3', input=docs)", "client.chat.completions.create("
        ).replace("resources/embeddings.py", "resources/chat/completions/completions.py")
        + "openai.NotFoundError: Error code: 404\n",
    ),
    # another LoRA refusal of vLLM is not this option's
    ("default-mm-loras-on-text-model", "ValueError: LoRA rank 64 is greater than max_lora_rank 16.\n"),
]

test_family_reads_other_wording, test_near_miss_is_not_confident = family_tests(CASES, NEAR_MISSES)


def test_malformed_config_keeps_its_family() -> None:
    log = "$ python -m json.tool config.json\nExpecting property name enclosed in double quotes: line 12 column 1 (char 301)\n"
    assert top_cause(run(log)).id == "config-json-invalid"


def test_empty_input_under_curl_silent_is_not_a_malformed_file() -> None:
    top = top_cause(
        run(
            "$ curl -s http://127.0.0.1:8000/v1/models | python -m json.tool\nExpecting value: line 1 column 1 (char 0)\n"
        )
    )
    assert top.id == "json-input-empty" and top.confidence < 0.7 and "curl -s" in top.cause


def test_relative_model_path_is_not_confident() -> None:
    # gguf.cpp prints the path as given: a wrong working directory and a file not there read the same
    # (learn41a: a bare name is the relative lookup's; a './' path, the working directory named on purpose, is
    # model-file-missing's from a shell and the relative lookup's only under a router, a unit or a container)
    top = top_cause(
        run("E gguf_init_from_file: failed to open GGUF file 'model.gguf' (No such file or directory)\n")
    )
    assert top.id == "llamacpp-relative-model-path" and top.confidence < 0.7 and "not there" in top.cause
    dot = top_cause(
        run("E gguf_init_from_file: failed to open GGUF file './model.gguf' (No such file or directory)\n")
    )
    assert dot.id == "llamacpp-model-file-missing"
    absolute = top_cause(
        run(
            "E gguf_init_from_file: failed to open GGUF file '/srv/m/model.gguf' (No such file or directory)\n"
        )
    )
    assert absolute.id == "llamacpp-model-file-missing"


def test_curl_connect_and_timeout_errors_are_not_a_reset() -> None:
    for line in (
        "curl: (7) Failed to connect to 127.0.0.1 port 8080 after 0 ms: Couldn't connect to server\n",
        "curl: (28) Operation timed out after 30001 milliseconds with 0 bytes received\n",
    ):
        top = top_cause(run(line))
        assert top is None or top.id != "peer-connection-reset"


def test_a_sigusr1_the_engine_handles_is_not_a_death() -> None:
    top = top_cause(run("I srv  main: received SIGUSR1, reopening the log file\n"))
    assert top is None or top.id != "engine-killed-from-outside"


def test_embeddings_route_404_with_fastapi_body_is_only_a_hint() -> None:
    top = top_cause(run(_EMBED + "openai.NotFoundError: Error code: 404 - {'detail': 'Not Found'}\n"))
    assert top.id in ("endpoint-not-served-by-runner", "openai-base-url-missing-v1") and top.confidence < 0.7
