"""Vulkan's VkResult, HIP's hipError_t and HSA's status codes (benchmarks/data/vulkan_hip_errors.json) and the
families that name them.

Why: llama.cpp's Vulkan and HIP builds and vLLM on ROCm fail with one of these codes as the only clue, in
vulkan.hpp's exception wording, ggml's 'ROCm error: ' (ROCm 6's description or ROCm 5's code name), PyTorch's
'HIP error: ' or rocclr's queue callback; each must be named in each wording, a consequence (a lost device, a
kernel fault) must never be a confident answer, and libdrm's harmless amdgpu.ids line must not be blamed.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from servebox.doctor.signatures import load_signatures
from tests.conftest import load_script
from tests.doctor_text import run, top_cause

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "benchmarks" / "data" / "vulkan_hip_errors.json"
OURS_FILES = [ROOT / "servebox" / "doctor" / "knowledge" / f for f in ("vulkan-hip.toml", "sycl.toml")]
ROCM_ABORT = (
    ":0:rocdevice.cpp            :2999: 1706262233 us: [pid:4711  tid:0x7f3c5bfff640] Callback: Queue 0x7f3a24000000 "
    "aborting with error : {} code: 0x{:x}\n"
)


@pytest.mark.parametrize(
    "text, family",
    [
        # the TDR / GPU reset: a symptom, above the bare abort
        ("terminate called after throwing an instance of 'vk::DeviceLostError'\n  what():  vk::Device::waitForFences: ErrorDeviceLost\n", "vulkan-device-lost"),
        ("terminate called after throwing an instance of 'vk::OutOfDeviceMemoryError'\n  what():  vk::Queue::submit: ErrorOutOfDeviceMemory\n", "vulkan-out-of-device-memory"),
        # ggml-vulkan's own allocation path stays the OOM family that already knew it
        ("ggml_vulkan: Device memory allocation of size 2166360064 failed.\nggml_vulkan: vk::Device::allocateMemory: ErrorOutOfDeviceMemory\n", "llamacpp-cuda-oom"),
        # vkCreateInstance's refusal stays the no-driver cause; past it, initialization failed is a symptom
        ("terminate called after throwing an instance of 'vk::InitializationFailedError'\n  what():  vk::createInstance: ErrorInitializationFailed\n", "llamacpp-vulkan-no-driver"),
        ("terminate called after throwing an instance of 'vk::InitializationFailedError'\n  what():  vk::PhysicalDevice::createDevice: ErrorInitializationFailed\n", "vulkan-initialization-failed"),
        ("terminate called after throwing an instance of 'vk::FeatureNotPresentError'\n  what():  vk::PhysicalDevice::createDevice: ErrorFeatureNotPresent\n", "vulkan-feature-missing"),
        # HIP: ROCm 6's descriptions and ROCm 5's names, ggml's and PyTorch's prefixes
        ("ROCm error: out of memory\n  current device: 0, in function alloc at /app/ggml/src/ggml-cuda/ggml-cuda.cu:430\n", "hip-out-of-memory"),
        ("ROCm error: hipErrorOutOfMemory\n", "hip-out-of-memory"),
        ("RuntimeError: HIP error: no ROCm-capable device is detected\n", "hip-no-device"),
        ("RuntimeError: HIP error: driver version is insufficient for runtime version\n", "hip-insufficient-driver"),
        ("ROCm error: hipErrorNoBinaryForGpu\n", "rocm-gfx-unsupported"),
        ("hipErrorNoBinaryForGpu: Unable to find code object for all current devices!\n", "rocm-gfx-unsupported"),
        ("ROCm error: hipErrorInvalidDevice\n", "cuda-invalid-device-ordinal"),
        ("RuntimeError: HIP error: device-side assert triggered\n", "cuda-device-assert"),
        ("ROCm error: shared object initialization failed\n", "hip-code-object-load"),
        # HSA's queue errors through rocclr's callback
        (ROCM_ABORT.format("HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime failed to allocate the necessary resources.", 0x1008), "hsa-out-of-resources"),
        (ROCM_ABORT.format("HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION: The agent attempted to access memory beyond the largest legal address.", 0x29), "hip-kernel-fault"),
        (ROCM_ABORT.format("HSA_STATUS_ERROR_INVALID_ISA: The instruction set architecture is invalid.", 0x100F), "hip-code-object-load"),
        # oneAPI: DPC++'s 'Native API failed' with UR's names, and older DPC++'s PI names
        ("RuntimeError: Native API failed. Native API returns: 39 (UR_RESULT_ERROR_OUT_OF_DEVICE_MEMORY)\n", "sycl-out-of-device-memory"),
        ("terminate called after throwing an instance of 'sycl::_V1::runtime_error'\n  what():  Native API failed. Native API returns: -1 (PI_ERROR_DEVICE_NOT_FOUND) -1 (PI_ERROR_DEVICE_NOT_FOUND)\n", "sycl-device-not-found"),
        ("Native API failed. Native API returns: 20 (UR_RESULT_ERROR_DEVICE_LOST)\nException caught at file:/app/ggml/src/ggml-sycl/ggml-sycl.cpp, line:3438, func:operator()\n", "sycl-device-lost"),
        ("Native API failed. Native API returns: -5 (PI_ERROR_OUT_OF_RESOURCES) -5 (PI_ERROR_OUT_OF_RESOURCES)\n", "sycl-out-of-resources"),
    ],
)  # fmt: skip
def test_the_code_is_named_in_the_wording_the_log_shows(text, family):
    d = top_cause(run(text))
    assert d is not None and d.id == family, (text, d and (d.id, d.role, d.confidence))


@pytest.mark.parametrize("path", ["/opt/amdgpu/share/libdrm/amdgpu.ids", "/usr/share/libdrm/amdgpu.ids"])
def test_libdrm_missing_ids_table_is_a_note_not_the_failure(path):
    r = run(f"{path}: No such file or directory\n")
    assert top_cause(r) is None and [d.id for d in r.diagnoses] == ["libdrm-amdgpu-ids-missing"]
    r = run(f"{path}: No such file or directory\nROCm error: out of memory\n")
    assert top_cause(r).id == "hip-out-of-memory"


def test_consequences_are_never_confident():
    """The confidence policy: symptoms at <= 0.60, causes at >= 0.70 only where the code has one reading."""
    ours = {
        line.split('"')[1]
        for f in OURS_FILES
        for line in f.read_text().splitlines()
        if line.startswith("id = ")
    }
    sigs = [s for s in load_signatures() if s.id in ours]
    assert len(sigs) == len(ours) == 25
    for s in sigs:
        assert (
            (s.role == "symptom" and s.confidence <= 0.60)
            or (s.role == "cause" and s.confidence >= 0.70)
            or (s.role == "note" and not s.fatal)
        ), s.id
    assert {s.id for s in sigs if s.generic} == {
        "vulkan-unknown-error",
        "hip-runtime-error",
        "sycl-runtime-error",
    }


def test_the_catalogue_is_the_libraries_vocabulary():
    doc = json.loads(DATA.read_text())
    by = {(e["lib"], e["code"]): e for e in doc["entries"]}
    assert (
        by[("vulkan", -4)]["cls"] == "DeviceLostError" and by[("vulkan", -4)]["message"] == "ErrorDeviceLost"
    )
    assert (
        by[("hip", 100)]["message"] == "no ROCm-capable device is detected"
        and by[("hip", 100)]["old"] == "hipErrorNoDevice"
    )
    assert by[("hsa", 0x1008)]["name"] == "HSA_STATUS_ERROR_OUT_OF_RESOURCES"
    assert any(s.startswith("debian libvulkan-dev 1.3.239") for s in doc["sources"])
    assert by[("ur", 39)]["name"] == "UR_RESULT_ERROR_OUT_OF_DEVICE_MEMORY"
    assert len(doc["entries"]) == 218


def test_the_coverage_benchmark_runs_offline_and_leaves_no_plausible_entry_unanswered(capsys):
    bench = load_script("benchmarks/doctor_coverage_vulkan_hip_errors.py")
    rows = bench.measure(json.loads(DATA.read_text()))
    assert not [r["name"] for r in rows if not r["skipped"] and r["verdict"] == "none"]
    named = sum(r["verdict"] in ("named", "symptom") for r in rows if not r["skipped"])
    assert named >= 40
    assert bench.main(["--uncovered", "3"]) == 0
    assert "plausible (not skipped)" in capsys.readouterr().out


def test_ggml_rocm_build_failure_gets_an_amd_fix_not_only_nvidia_smi() -> None:
    """ggml's HIP build compiles ggml-cuda.cu and prints 'ROCm error:' above the same 'current device' line:
    its fix must name AMD's tool and architecture flag, not only nvidia-smi and CMAKE_CUDA_ARCHITECTURES."""
    log = (
        "ROCm error: an illegal memory access was encountered\n"
        "  current device: 1, in function ggml_backend_cuda_synchronize at /src/ggml/src/ggml-cuda/ggml-cuda.cu:2617\n"
    )
    top = top_cause(run(log))
    assert top is not None and "rocm-smi" in top.fix and "AMDGPU_TARGETS" in top.fix, top and top.fix
