"""Harvest the CUDA runtime's and NCCL's error vocabulary from the real libraries into a catalogue.

Why: doctor misses logs whose only clue is a CUDA or NCCL error string no family knew; covering the
vocabulary completely needs the vocabulary itself, not the strings someone happened to report. The
source is NVIDIA's own libraries from PyPI (downloaded into a scratch folder, never committed):
cudaGetErrorName / cudaGetErrorString of libcudart (CUDA 12 and 13) and ncclGetErrorString of libnccl
are pure table lookups, so they answer on a machine without a GPU or a driver. Each code 0..1000 is
asked; the library's "unrecognized error code" (cudart) / "unknown result code" (NCCL) marks a gap.
The formats say how programs print a message in a log; each names the source it was read from.
Run: python tools/harvest_cuda_errors.py [--scratch /tmp/cuda-errors] [--out benchmarks/data/cuda_errors.json]
"""

from __future__ import annotations

import argparse
import ctypes
import json
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "benchmarks" / "data" / "cuda_errors.json"
# (PyPI package, library file inside the wheel); the cu13 runtime is published without a suffix
PACKAGES = (
    ("nvidia-cuda-runtime-cu12", "libcudart.so.12"),
    ("nvidia-cuda-runtime", "libcudart.so.13"),
    ("nvidia-nccl-cu12", "libnccl.so.2"),
)
GAP = {"cudart": "unrecognized error code", "nccl": "unknown result code"}

# How programs print these strings in a log. {msg} is the library's string, {code} its number, {name}
# cudaGetErrorName's. Each format was read in the program's source (file named); `lib` says which
# vocabulary it prints and `codes_except` the codes the printing path handles with its own words; `path` "init"
# marks a format printed only when CUDA starts (cudaGetDeviceCount), where a kernel's error cannot come.
FORMATS = [
    {
        "id": "torch-cuda-check",
        "lib": "cudart",
        "source": "pytorch c10/cuda/CUDAException.cpp c10_cuda_check_implementation + CUDAMiscFunctions.cpp (torch 2.x; "
        "raised as RuntimeError before 2.8, torch.AcceleratorError since)",
        "template": "RuntimeError: CUDA error: {msg}\nCUDA kernel errors might be asynchronously reported at some other "
        "API call, so the stacktrace below might be incorrect.\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1\n"
        "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.",
    },
    {
        "id": "torch-device-count",
        "lib": "cudart",
        "source": "pytorch c10/cuda/CUDAFunctions.cpp device_count_impl (default branch; warned once by device_count() "
        "as 'CUDA initialization: ...')",
        "template": "UserWarning: CUDA initialization: Unexpected error from cudaGetDeviceCount(). Did you run some "
        "cuda functions before calling NumCudaDevices() that might have already set an error? Error {code}: {msg} "
        "(Triggered internally at /pytorch/c10/cuda/CUDAFunctions.cpp:109.)",
        # device_count_impl words these itself: no device (count 0), no/old driver, init failure, unknown
        "codes_except": [3, 35, 100, 999],
        "path": "init",
    },
    {
        "id": "ggml-cuda-check",
        "lib": "cudart",
        "source": "llama.cpp b11434 ggml/src/ggml-cuda/ggml-cuda.cu ggml_cuda_error (CUDA_CHECK in common.cuh), "
        "then ggml_abort's 'file:line: msg'",
        "template": "CUDA error: {msg}\n  current device: 0, in function ggml_backend_cuda_synchronize at "
        "/app/ggml/src/ggml-cuda/ggml-cuda.cu:2873\n  cudaStreamSynchronize(cuda_ctx->stream())\n"
        "/app/ggml/src/ggml-cuda/ggml-cuda.cu:101: CUDA error",
    },
    {
        "id": "ggml-cuda-check-old",
        "lib": "cudart",
        "source": "llama.cpp before the CUDA_CHECK rework (ggml-cuda.cu's 'CUDA error %d at %s:%d: %s'; a corpus log "
        "shows 'CUDA error 102 at .../ggml-cuda.cu:7100: device doesn't have valid Grid license')",
        "template": "CUDA error {code} at /build/llama.cpp/ggml-cuda.cu:7100: {msg}",
    },
    {
        "id": "ggml-cuda-init",
        "lib": "cudart",
        "source": "llama.cpp b11434 ggml/src/ggml-cuda/ggml-cuda.cu ggml_cuda_init ('%s: failed to initialize "
        "CUDA: %s' on cudaGetDeviceCount's error)",
        "template": "ggml_cuda_init: failed to initialize CUDA: {msg}",
        "path": "init",
    },
    {
        "id": "vllm-cudart-check",
        "lib": "cudart",
        "source": "vLLM 0.32 vllm/distributed/device_communicators/cuda_wrapper.py CudaRTLibrary.CUDART_CHECK",
        "template": "RuntimeError: CUDART error: {msg}",
    },
    {
        "id": "vllm-custom-allreduce",
        "lib": "cudart",
        "source": "vLLM csrc/custom_all_reduce.cuh CUDACHECK (printf to stdout, then exit), around cudaIpcOpenMemHandle",
        "template": "Failed: Cuda error /workspace/csrc/custom_all_reduce.cuh:455 '{msg}'",
    },
    {
        "id": "torch-nccl-check",
        "lib": "nccl",
        "source": "pytorch torch/csrc/distributed/c10d/NCCLUtils.hpp C10D_NCCL_CHECK ('NCCL error in: FILE:LINE, "
        "' + ncclGetErrorWithVersion, then getNcclErrorDetailStr), raised as DistBackendError",
        "template": "torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/"
        "NCCLUtils.cpp:77, {msg}, NCCL version 2.27.3",
    },
    {
        "id": "vllm-pynccl-check",
        "lib": "nccl",
        "source": "vLLM 0.32 vllm/distributed/device_communicators/pynccl_wrapper.py NCCLLibrary.NCCL_CHECK",
        "template": "RuntimeError: NCCL error: {msg}",
    },
]


def fetch(scratch: Path) -> dict[str, tuple[Path, str]]:
    """Download (once) and unpack each wheel; return {soname: (library path, 'package version')}."""
    found = {}
    for package, soname in PACKAGES:
        folder = scratch / package
        if not list(folder.glob("*.whl")):
            folder.mkdir(parents=True, exist_ok=True)
            cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "-q", package, "-d", str(folder)]
            subprocess.run(cmd, check=True)
        wheel = sorted(folder.glob("*.whl"))[-1]
        with zipfile.ZipFile(wheel) as z:
            z.extractall(folder / "unpacked")
        lib = next((folder / "unpacked").rglob(soname))
        version = wheel.name.split("-")[1]
        found[soname] = (lib, f"{package} {version}")
    return found


def cudart_table(lib: Path) -> dict[int, tuple[str, str]]:
    cdll = ctypes.CDLL(str(lib))
    cdll.cudaGetErrorName.restype = ctypes.c_char_p
    cdll.cudaGetErrorString.restype = ctypes.c_char_p
    table = {}
    for code in range(1, 1001):  # 0 is cudaSuccess
        name = cdll.cudaGetErrorName(code).decode()
        if name != GAP["cudart"]:
            table[code] = (name, cdll.cudaGetErrorString(code).decode())
    return table


def nccl_table(lib: Path) -> dict[int, tuple[str, str]]:
    cdll = ctypes.CDLL(str(lib))
    cdll.ncclGetErrorString.restype = ctypes.c_char_p
    # names are nccl.h's ncclResult_t (the library has no name lookup); 0 is ncclSuccess
    names = {
        1: "ncclUnhandledCudaError", 2: "ncclSystemError", 3: "ncclInternalError", 4: "ncclInvalidArgument",
        5: "ncclInvalidUsage", 6: "ncclRemoteError", 7: "ncclInProgress", 8: "ncclTimeout",
    }  # fmt: skip
    table = {}
    for code in range(1, 1001):
        text = cdll.ncclGetErrorString(code).decode()
        if text != GAP["nccl"]:
            table[code] = (names.get(code, f"ncclResult{code}"), text)
    return table


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scratch", type=Path, default=Path("/tmp/cuda-errors"))
    ap.add_argument("--out", type=Path, default=OUT)
    a = ap.parse_args(argv)
    libs = fetch(a.scratch)
    entries: dict[tuple[str, int], dict] = {}
    for soname in ("libcudart.so.12", "libcudart.so.13"):
        lib, origin = libs[soname]
        for code, (name, text) in cudart_table(lib).items():
            e = entries.setdefault(("cudart", code), {"lib": "cudart", "code": code, "name": name, "in": []})
            e["message"] = text  # the newest runtime's wording wins (13 after 12)
            e["in"].append(origin)
    lib, origin = libs["libnccl.so.2"]
    for code, (name, text) in nccl_table(lib).items():
        entries[("nccl", code)] = {"lib": "nccl", "code": code, "name": name, "message": text, "in": [origin]}
    doc = {
        "about": "The CUDA runtime's and NCCL's error strings (facts the libraries print, for "
        "benchmarks/doctor_coverage_cuda_errors.py); made by tools/harvest_cuda_errors.py.",
        "sources": sorted({origin for _, origin in libs.values()}),
        "formats": FORMATS,
        "entries": [entries[k] for k in sorted(entries)],
    }
    head = json.dumps({k: v for k, v in doc.items() if k != "entries"}, indent=1)[:-2]
    rows = ",\n".join(json.dumps(e) for e in doc["entries"])
    a.out.write_text(f'{head},\n "entries": [\n{rows}\n]}}\n')  # one line per entry: readable diffs
    print(f"{len(doc['entries'])} entries from {', '.join(doc['sources'])} -> {a.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
