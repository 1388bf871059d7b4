"""PyTorch's and Triton's own refusals (benchmarks/data/torch_triton_errors.json) and the families that name them.

Why: above the CUDA runtime, torch and Triton refuse in their own words (a GPU too old for this torch or for
Triton, Triton's shared-memory limit on a T4 / V100, a TCPStore that cannot be reached); each must be named in the
wording a vLLM log shows, and a message that is a consequence (a barrier timeout, a stuck watchdog, a failed MLIR
pass) must never be a confident answer.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from servebox.doctor.signatures import load_signatures
from tests.conftest import load_script
from tests.doctor_text import run, top_cause

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "benchmarks" / "data" / "torch_triton_errors.json"
OURS = {
    "torch-load-cuda-unavailable", "triton-passmanager-failed", "triton-missing", "triton-tool-missing",
    "dist-store-barrier-timeout", "nccl-watchdog-stuck",
}  # fmt: skip


@pytest.mark.parametrize(
    "text, family",
    [
        # torch 2.13's capability warning (P100 on a torch built from sm_75) and torch <= 2.7's old_gpu_warn
        ("UserWarning: Found GPU0 Tesla P100-PCIE-16GB which is of compute capability (CC) 6.0.\n", "compute-capability-unsupported"),
        ("UserWarning:\n    Found GPU0 Tesla K80 which is of cuda capability 3.7.\n    PyTorch no longer supports this GPU because it is too old.\n", "compute-capability-unsupported"),
        ("torch._inductor.exc.GPUTooOldForTriton: Found Tesla P100-PCIE-16GB which is too old to be supported by the triton GPU compiler, which is used as the backend. Triton only supports devices of CUDA Capability >= 7.0, but your device is of CUDA capability 6.0\n", "compute-capability-unsupported"),
        # Triton's message without the class name (a wrapper's or a logger's text)
        ("(EngineCore_DP0 pid=7) ERROR 12-03 20:41:07 [core.py:866] RuntimeError: out of resource: shared memory, Required: 98304, Hardware limit: 65536. Reducing block sizes or `num_stages` may help.\n", "triton-out-of-resources"),
        ("torch.distributed.DistNetworkError: The client socket has failed to connect to any network address of (10.0.0.2, 29500).\n", "master-addr-unreachable"),
        ("torch.distributed.DistNetworkError: The client socket has failed to connect to [gpu-box]:29500 (errno: 111 - Connection refused).\n", "master-addr-unreachable"),
        ("torch._inductor.exc.TritonMissing: Cannot find a working triton installation. Either the package is not installed or it is too old.\n", "triton-missing"),
        ("RuntimeError: Cannot find ptxas\n", "triton-tool-missing"),
        ("RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU.\n", "torch-load-cuda-unavailable"),
        # consequences: a symptom that says where to look
        ("torch.distributed.DistStoreError: Timed out initializing process group in store based barrier on rank 1, for key: store_based_barrier_key:1 (world_size=2, num_workers_joined=1, timeout=0:30:00 error=Socket Timeout)\n", "dist-store-barrier-timeout"),
        ("RuntimeError: PassManager::run failed\n", "triton-passmanager-failed"),
    ],
)  # fmt: skip
def test_the_refusal_is_named_in_a_vllm_log(text, family):
    d = top_cause(run(text))
    assert d is not None and d.id == family, (text, d and (d.id, d.role, d.confidence))


def test_a_stuck_watchdog_yields_to_the_timeout_that_names_the_collective():
    text = (
        "[rank1]:[E1203 20:31:07.1 ProcessGroupNCCL.cpp:632] [Rank 1] Watchdog caught collective operation timeout: "
        "WorkNCCL(SeqNum=57, OpType=ALLREDUCE, NumelIn=4096, NumelOut=4096, Timeout(ms)=600000) ran for 600087 "
        "milliseconds before timing out.\n"
        "[rank1]:[F1203 20:41:07.1 ProcessGroupNCCL.cpp:1561] [Rank 1] ProcessGroupNCCL's watchdog got stuck for 480 "
        "seconds without making progress in monitoring enqueued collectives.\n"
    )
    assert top_cause(run(text)).id == "nccl-watchdog-timeout"


def test_consequences_are_never_confident():
    """The confidence policy: symptoms at <= 0.60, causes at >= 0.70 only where the message has one reading."""
    for s in load_signatures():
        if s.id in OURS:
            assert (s.role == "symptom" and s.confidence <= 0.60) or (
                s.role == "cause" and s.confidence >= 0.70
            ), s.id


def test_the_catalogue_is_built_by_the_installed_code():
    doc = json.loads(DATA.read_text())
    by = {e["id"]: e for e in doc["entries"]}
    assert by["triton-smem-T4"]["message"].startswith(
        "out of resource: shared memory, Required: 98304, Hardware limit: 65536"
    )
    assert by["torch-cc-unsupported"]["message"].startswith(
        "Found GPU0 Tesla P100-PCIE-16GB which is of compute"
    )
    assert any(s.startswith("torch 2.13") for s in doc["sources"]) and len(doc["entries"]) == 34
    assert all(e["source"] and e["message"] for e in doc["entries"])


def test_the_coverage_benchmark_runs_offline_and_leaves_no_plausible_entry_unanswered(capsys):
    bench = load_script("benchmarks/doctor_coverage_torch_triton_errors.py")
    rows = bench.measure(json.loads(DATA.read_text()))
    assert not [r["id"] for r in rows if not r["skipped"] and r["verdict"] in ("none", "generic")]
    assert bench.main(["--uncovered", "3"]) == 0
    assert "plausible (not skipped)" in capsys.readouterr().out
