"""The CUDA runtime's and NCCL's error vocabulary (knowledge/cuda-runtime.toml, benchmarks/data/cuda_errors.json).

Why: the strings are short and some are everyday words ('operation not supported', 'timeout'), so a family must
name them in every printer's wording (torch, ggml old and new, vLLM's ctypes wrappers) and stay silent where the
same words come from somewhere else; and a code that is a consequence must never be a confident answer.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from tests.conftest import load_script
from tests.doctor_text import run, top_cause

ROOT = Path(__file__).resolve().parent.parent
KB = ROOT / "servebox" / "doctor" / "knowledge" / "cuda-runtime.toml"
DATA = ROOT / "benchmarks" / "data" / "cuda_errors.json"
GGML = "\n  current device: 0, in function ggml_backend_cuda_synchronize at /app/ggml/src/ggml-cuda/ggml-cuda.cu:2873\n"


@pytest.mark.parametrize(
    "text, family",
    [
        ("RuntimeError: CUDA error: uncorrectable ECC error encountered\n", "cuda-ecc-uncorrectable"),
        ("torch.AcceleratorError: CUDA error: uncorrectable ECC error encountered\n", "cuda-ecc-uncorrectable"),
        ("CUDA error 214 at /b/ggml-cuda.cu:7100: uncorrectable ECC error encountered\n", "cuda-ecc-uncorrectable"),
        ("CUDA error: the launch timed out and was terminated" + GGML, "cuda-launch-timeout-watchdog"),
        ("RuntimeError: CUDART error: peer access is not supported between these two devices\n", "cuda-peer-access-unsupported"),
        ("RuntimeError: CUDA error: PTX JIT compiler library not found\n", "cuda-ptx-jit-compiler-missing"),
        ("CUDA error: the MPS client has been terminated by the server" + GGML, "cuda-mps-failure"),
        # consequences: the symptom that says where to look outranks ggml's CUDA_CHECK catch-all
        ("CUDA error: unspecified launch failure" + GGML, "cuda-kernel-fault"),
        ("RuntimeError: CUDA error: operation not permitted when stream is capturing\n", "cuda-graph-capture-failed"),
        ("RuntimeError: CUDA error: invalid configuration argument\n", "cuda-api-misuse"),
        ("RuntimeError: CUDA error: driver shutting down\n", "cuda-teardown-error"),
        ("RuntimeError: NCCL error: unhandled cuda error (run with NCCL_DEBUG=INFO for details)\n", "nccl-unhandled-cuda-error"),
        # existing families now take the runtime's text in the other printers
        ("RuntimeError: CUDART error: invalid device ordinal\n", "cuda-invalid-device-ordinal"),
        ("CUDA error 101 at /b/ggml-cuda.cu:7100: invalid device ordinal\n", "cuda-invalid-device-ordinal"),
        ("CUDA error: API call is not supported in the installed CUDA driver" + GGML, "driver-too-old"),
        ("RuntimeError: CUDA error: GPU fabric is not ready within the probe wait budget\n", "cuda-system-not-ready-fabric-manager"),
        # the corpus log this vocabulary was checked against (learnt last stop)
        ("CUDA error 102 at /src/ggml-cuda.cu:7100: device doesn't have valid Grid license\n", "vgpu-not-licensed"),
        # ggml_cuda_init's line keeps its own cause for a failed start
        ("ggml_cuda_init: failed to initialize CUDA: initialization error\n", "llamacpp-cuda-init-failed"),
    ],
)  # fmt: skip
def test_the_code_is_named_in_each_printers_wording(text, family):
    d = top_cause(run(text))
    assert d is not None and d.id == family, (text, d and (d.id, d.role, d.confidence))


@pytest.mark.parametrize(
    "text",
    [
        "OSError: [Errno 95] Operation not supported: '/dev/shm/x'\n",
        "requests.exceptions.ReadTimeout: timeout\n",
        "ValueError: invalid argument for --max-model-len\n",
        "open /srv/models/x.gguf: file not found\n",
        "RuntimeError: unknown error in tokenizer\n",
    ],
)
def test_everyday_words_without_a_cuda_printer_wake_no_cuda_family(text):
    ours = {e["id"] for e in tomllib.loads(KB.read_text())["signature"]}
    assert not ours & {d.id for d in run(text).diagnoses}, text


def test_consequences_are_never_confident():
    """The confidence policy: symptoms at <= 0.60, causes at >= 0.70 only where the code has one reading."""
    for e in tomllib.loads(KB.read_text())["signature"]:
        if e["role"] == "symptom":
            assert e["confidence"] <= 0.60, e["id"]
        else:
            assert e["role"] == "cause" and e["confidence"] >= 0.70, e["id"]


def test_the_catalogue_is_the_libraries_own_table():
    doc = json.loads(DATA.read_text())
    by = {(e["lib"], e["code"]): e for e in doc["entries"]}
    assert by[("cudart", 102)]["message"] == "device doesn't have valid Grid license"
    assert by[("cudart", 700)]["name"] == "cudaErrorIllegalAddress"
    assert by[("nccl", 2)]["message"].startswith("unhandled system error")
    assert ("cudart", 0) not in by and len(doc["entries"]) == 145
    assert all(f["source"] and "{msg}" in f["template"] for f in doc["formats"])


def test_the_coverage_benchmark_runs_offline_and_leaves_no_plausible_code_unanswered(capsys):
    bench = load_script("benchmarks/doctor_coverage_cuda_errors.py")
    rows = bench.measure(json.loads(DATA.read_text()))
    plausible = [r for r in rows if not r["skipped"]]
    assert not [r["code"] for r in plausible if r["verdict"] == "none"]
    assert bench.main(["--uncovered", "3"]) == 0
    assert "plausible (not skipped)" in capsys.readouterr().out
