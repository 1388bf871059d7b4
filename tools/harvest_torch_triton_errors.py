"""Harvest what PyTorch and Triton raise when the machine, driver or GPU does not fit, into a catalogue.

Why: a vLLM log whose only clue is one of torch's or Triton's own refusals (no driver, a GPU too old, a
TCPStore port taken, Triton's shared-memory limit on a T4/V100) is named only if a family knows the words.
The source is the installed packages in .venv-vllm (torch 2.13.0+cpu, triton 3.9.0): where the message is
built by Python code the real code builds it (the exception class, the warning function); elsewhere each
message's anchor (a literal piece of it) is checked in the installed file, so a wording change fails the
harvest. The CUDA-only C++ strings (c10/cuda, ProcessGroupNCCL) are not in the CPU wheel's libraries:
they come from PyTorch's source (file named per entry), and a CUDA wheel's Python files are the same as
the CPU one's for the Python-built messages (torch/cuda/__init__.py, serialization.py, _inductor/exc.py
ship identical in both builds of one release).
Run: .venv-vllm/bin/python tools/harvest_torch_triton_errors.py [--out benchmarks/data/torch_triton_errors.json]
"""

from __future__ import annotations

import argparse
import json
import sys
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "benchmarks" / "data" / "torch_triton_errors.json"
SRC = "pytorch source (not in the CPU wheel)"

# How each kind of message reaches a vLLM log. {exc} is the exception's printed type, {msg} the message
# (each of its lines gets the prefix). Sources: vLLM 0.32 prefixes every line of a child process with
# "(EngineCore_DP0 pid=N) " (vllm/utils/system_utils.py _add_prefix); an engine that fails to start logs
# the traceback through logger.exception in vllm/v1/engine/core.py; Python's warnings module prints
# "file:line: Category: message" then the source line; c10's LOG(ERROR) prints "[rankN]:[E<mmdd hh:mm:ss>
# file:line] msg" (c10/util/Logging.cpp with TORCH_CPP_LOG_LEVEL's glog-style prefix).
FORMATS = [
    {"id": "engine-raise", "kind": "raise", "prefix": "(EngineCore_DP0 pid=4242) ERROR 12-03 20:41:07 [core.py:866] ",
     "template": "EngineCore failed to start.\nTraceback (most recent call last):\n  File \"{where}\", line 1, in "
     "<module>\n{exc}: {msg}"},
    {"id": "plain-raise", "kind": "raise", "prefix": "",
     "template": "Traceback (most recent call last):\n  File \"{where}\", line 1, in <module>\n{exc}: {msg}"},
    {"id": "engine-warn", "kind": "warn", "prefix": "(EngineCore_DP0 pid=4242) ",
     "template": "{where}: UserWarning: {msg}\n  warnings.warn("},
    {"id": "worker-log", "kind": "log", "prefix": "(Worker_TP1 pid=4243) ",
     "template": "[rank1]:[E1203 20:41:07.123456000 {where}] {msg}"},
]  # fmt: skip


def site_packages() -> Path:
    import torch

    return Path(torch.__file__).resolve().parent.parent


def python_built() -> dict[str, str]:
    """Messages the installed Python code builds itself, keyed by entry id."""
    import torch.cuda as tc
    from torch._inductor import exc as ind
    from triton.runtime.errors import OutOfResources, PTXASError

    out = {}
    for name, limit, need in (("T4", 65536, 98304), ("V100", 98304, 131072)):
        out[f"triton-smem-{name}"] = str(OutOfResources(need, limit, "shared memory"))
    out["triton-ptxas-failed"] = str(PTXASError("`ptxas` failed with error code 255\n`ptxas` stderr:\n"
                                                "ptxas fatal   : Value 'sm_120a' is not defined for option 'gpu-name'"))  # fmt: skip

    class Props:  # what GPUTooOldForTriton reads of torch.cuda.get_device_properties (a P100)
        name, major, minor = "Tesla P100-PCIE-16GB", 6, 0

    out["inductor-gpu-too-old"] = str(ind.GPUTooOldForTriton(Props, None))
    out["inductor-triton-missing"] = str(ind.TritonMissing(None))
    out["inductor-no-cxx"] = str(ind.InvalidCxxCompiler())
    out["inductor-python-h"] = str(
        ind.InductorError(
            ind.CppCompileError(["g++", "/tmp/torchinductor_root/ab/cab.cpp", "-shared", "-fPIC", "-o", "cab.so"],
                                "/tmp/torchinductor_root/ab/cab.cpp:1:10: fatal error: Python.h: No such file or "
                                "directory\ncompilation terminated."), None))  # fmt: skip
    # torch/cuda/__init__.py's capability warning, built by the real function for a P100 on a torch whose
    # builds start at sm_75 (get_device_name is the only GPU call it makes)
    tc.get_device_name = lambda d=None: "Tesla P100-PCIE-16GB"
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        tc._warn_unsupported_code(0, 60, [75, 80, 86, 90, 100, 120])
    out["torch-cc-unsupported"] = str(w[-1].message)
    return out


# id, layer, printed exception type (or the warning/log kind), the message ({py} = built by the Python code
# above), where it is printed from, its source and an anchor checked in that file ('' when SRC)
E = [
    ("torch-not-compiled-cuda", "torch-cuda", "AssertionError", "Torch not compiled with CUDA enabled",
     "torch/cuda/__init__.py", "Torch not compiled with CUDA enabled"),
    ("torch-no-driver", "torch-cuda", "RuntimeError", "Found no NVIDIA driver on your system. Please check that you "
     "have an NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx",
     SRC + ": c10/cuda/CUDAFunctions.cpp device_count_impl", ""),
    ("torch-driver-too-old", "torch-cuda", "RuntimeError", "The NVIDIA driver on your system is too old (found version "
     "11040). Please update your GPU driver by downloading and installing a new version from the URL: "
     "http://www.nvidia.com/Download/index.aspx Alternatively, go to: https://pytorch.org to install a PyTorch version "
     "that has been compiled with your version of the CUDA driver.", SRC + ": c10/cuda/CUDAFunctions.cpp", ""),
    ("torch-init-warn-no-driver", "torch-cuda", "warn", "CUDA initialization: Found no NVIDIA driver on your system. "
     "Please check that you have an NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx "
     "(Triggered internally at /pytorch/c10/cuda/CUDAFunctions.cpp:119.)",
     SRC + ": c10/cuda/CUDAFunctions.cpp device_count (TORCH_WARN 'CUDA initialization: ')", ""),
    ("torch-init-warn-driver-too-old", "torch-cuda", "warn", "CUDA initialization: The NVIDIA driver on your system "
     "is too old (found version 11040). Please update your GPU driver by downloading and installing a new version "
     "from the URL: http://www.nvidia.com/Download/index.aspx Alternatively, go to: https://pytorch.org to install a "
     "PyTorch version that has been compiled with your version of the CUDA driver. (Triggered internally at "
     "/pytorch/c10/cuda/CUDAFunctions.cpp:119.)", SRC + ": c10/cuda/CUDAFunctions.cpp device_count", ""),
    ("torch-init-driver-failed", "torch-cuda", "RuntimeError", "CUDA driver initialization failed, you might not "
     "have a CUDA gpu.", SRC + ": c10/cuda/CUDAFunctions.cpp (cudaErrorInitializationError)", ""),
    ("torch-init-unknown", "torch-cuda", "warn", "CUDA initialization: CUDA unknown error - this may be due to an "
     "incorrectly set up environment, e.g. changing env variable CUDA_VISIBLE_DEVICES after program start. Setting "
     "the available devices to be zero. (Triggered internally at /pytorch/c10/cuda/CUDAFunctions.cpp:119.)",
     SRC + ": c10/cuda/CUDAFunctions.cpp (cudaErrorUnknown)", ""),
    ("torch-no-gpus", "torch-cuda", "RuntimeError", "No CUDA GPUs are available",
     SRC + ": c10/cuda/CUDAFunctions.cpp device_count_ensure_non_zero", ""),
    ("torch-deserialize-no-cuda", "torch-cuda", "RuntimeError", "Attempting to deserialize object on a CUDA device "
     "but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with "
     "map_location=torch.device('cpu') to map your storages to the CPU.", "torch/serialization.py",
     "Attempting to deserialize object on a "),
    ("torch-deserialize-device-count", "torch-cuda", "RuntimeError", "Attempting to deserialize object on CUDA device "
     "1 but torch.cuda.device_count() is 1. Please use torch.load with map_location to map your storages to an "
     "existing device.", "torch/serialization.py", "Please use torch.load with map_location to map your storages"),
    ("torch-sm-not-compatible", "torch-cuda", "warn", "\nTesla P100-PCIE-16GB with CUDA capability sm_60 is not "
     "compatible with the current PyTorch installation.\nThe current PyTorch install supports CUDA capabilities "
     "sm_75 sm_80 sm_86 sm_90 sm_100 sm_120.\nIf you want to use the Tesla P100-PCIE-16GB GPU with PyTorch, please "
     "check the instructions at https://pytorch.org/get-started/locally/\n", "torch/cuda/__init__.py",
     "is not compatible with the current PyTorch installation."),
    ("torch-cc-unsupported", "torch-cuda", "warn", "{py}", "torch/cuda/__init__.py",
     "which is of compute capability (CC)"),
    ("torch-gpu-too-old-legacy", "torch-cuda", "warn", "\n    Found GPU0 Tesla K80 which is of cuda capability 3.7.\n"
     "    PyTorch no longer supports this GPU because it is too old.\n    The minimum cuda capability supported by "
     "this library is 5.0.\n", SRC + ": torch/cuda/__init__.py old_gpu_warn (torch <= 2.7; replaced by "
     "torch-cc-unsupported)", ""),
    ("dist-port-in-use", "torch-distributed", "torch.distributed.DistNetworkError", "The server socket has failed to "
     "listen on any local network address. port: 29500, useIpv6: false, code: -98, name: EADDRINUSE, message: "
     "address already in use", "torch/lib/libtorch_cpu.so",
     "The server socket has failed to listen on any local network address. port: "),
    ("dist-connect-timeout", "torch-distributed", "torch.distributed.DistNetworkError", "The client socket has timed "
     "out after 600000ms while trying to connect to (10.0.0.2, 29500).", "torch/lib/libtorch_cpu.so",
     "The client socket has timed out after "),
    ("dist-connect-failed", "torch-distributed", "torch.distributed.DistNetworkError", "The client socket has failed "
     "to connect to any network address of (10.0.0.2, 29500).", "torch/lib/libtorch_cpu.so",
     "The client socket has failed to connect to any network address of"),
    ("dist-store-barrier-timeout", "torch-distributed", "torch.distributed.DistStoreError", "Timed out initializing "
     "process group in store based barrier on rank 1, for key: store_based_barrier_key:1 (world_size=2, "
     "num_workers_joined=1, timeout=0:30:00 error=Socket Timeout)", "torch/distributed/distributed_c10d.py",
     "Timed out initializing process group in store based barrier on "),
    ("dist-nccl-watchdog-timeout", "torch-distributed", "log", "[PG ID 0 PG GUID 0(default_pg) Rank 1] Watchdog "
     "caught collective operation timeout: WorkNCCL(SeqNum=57, OpType=ALLREDUCE, NumelIn=4096, NumelOut=4096, "
     "Timeout(ms)=600000) ran for 600087 milliseconds before timing out.",
     SRC + ": torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp checkTimeout", ""),
    ("dist-nccl-watchdog-stuck", "torch-distributed", "log", "[PG ID 0 PG GUID 0(default_pg) Rank 1] "
     "ProcessGroupNCCL's watchdog got stuck for 480 seconds without making progress in monitoring enqueued "
     "collectives. This typically indicates a NCCL/CUDA API (e.g., CudaEventDestroy) hang blocking the watchdog, and "
     "could be triggered by another thread holding the GIL inside a CUDA api (for example, CudaEventDestroy), or "
     "other deadlock-prone behaviors.", SRC + ": torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp HeartbeatMonitor",
     ""),
    ("inductor-gpu-too-old", "inductor", "torch._inductor.exc.GPUTooOldForTriton", "{py}",
     "torch/_inductor/exc.py", "too old to be supported by the triton GPU compiler"),
    ("inductor-triton-missing", "inductor", "torch._inductor.exc.TritonMissing", "{py}", "torch/_inductor/exc.py",
     "Cannot find a working triton installation. "),
    ("inductor-no-cxx", "inductor", "torch._inductor.exc.InductorError", "InvalidCxxCompiler: {py}",
     "torch/_inductor/exc.py", "No working C++ compiler found in "),
    ("inductor-python-h", "inductor", "torch._inductor.exc.InductorError", "{py}", "torch/_inductor/exc.py",
     "C++ compile error"),
    ("dynamo-backend-failed", "inductor", "torch._dynamo.exc.BackendCompilerFailed", "backend='inductor' raised:\n"
     "RuntimeError: Failed to find C compiler. Please specify via CC environment variable or set "
     "triton.knobs.build.impl.", "torch/_dynamo/exc.py", "raised:\\n{type(inner_exception).__name__}"),
    ("triton-smem-T4", "triton", "triton.runtime.errors.OutOfResources", "{py}", "triton/runtime/errors.py",
     "out of resource: {self.name}, Required: "),
    ("triton-smem-V100", "triton", "triton.runtime.errors.OutOfResources", "{py}", "triton/runtime/errors.py",
     "Hardware limit: {self.limit}"),
    ("triton-no-cc", "triton", "RuntimeError", "Failed to find C compiler. Please specify via CC environment variable "
     "or set triton.knobs.build.impl.", "triton/runtime/build.py", "Failed to find C compiler. Please specify via CC"),
    ("triton-python-h", "triton", "subprocess.CalledProcessError",
     "Command '['/usr/bin/gcc', '/tmp/tmpk3x/cuda_utils.c', '-O3', '-shared', '-fPIC', '-Wno-psabi', '-o', "
     "'/tmp/tmpk3x/cuda_utils.cpython-311-x86_64-linux-gnu.so', '-lcuda', '-I/usr/include/python3.11']' returned "
     "non-zero exit status 1.", "triton/runtime/build.py", "subprocess.check_call(cc_cmd"),
    ("triton-libcuda", "triton", "AssertionError", "libcuda.so cannot found!\nPlease make sure GPU is set up and then "
     "run \"/sbin/ldconfig\" (requires sudo) to refresh the linker cache.", "triton/backends/nvidia/driver.py",
     "libcuda.so cannot found!"),
    ("triton-no-ptxas", "triton", "RuntimeError", "Cannot find ptxas", "triton/knobs.py",
     'raise RuntimeError(f"Cannot find {self.binary}")'),
    ("triton-ptxas-failed", "triton", "triton.runtime.errors.PTXASError", "{py}", "triton/runtime/errors.py",
     "PTXAS error: {error_message}"),
    ("triton-passmanager", "triton", "RuntimeError", "PassManager::run failed", "triton/_C/libtriton.so",
     "PassManager::run failed"),
    ("triton-fp8-arch", "triton", "ValueError", "type fp8e4nv not supported in this architecture. The supported fp8 "
     "dtypes are ('fp8e4b15', 'fp8e5')", "triton/language/core.py", "not supported in this architecture. "),
    ("triton-arch-variant", "triton", "log", "tcgen05.ld is not supported on this architecture variant",
     "triton/_C/libtriton.so", "tcgen05.ld is not supported on this architecture variant"),
]  # fmt: skip


# what a program prints before the exception (gcc's stderr for the compiles that fail on a missing header)
BEFORE = {
    "triton-python-h": "/tmp/tmpk3x/cuda_utils.c:6:10: fatal error: Python.h: No such file or directory\n"
    "    6 | #include <Python.h>\n      |          ^~~~~~~~~~\ncompilation terminated.",
}


def check_anchor(sp: Path, where: str, anchor: str) -> None:
    """Fail when the anchor is not in the installed file: the vocabulary moved and the catalogue would lie."""
    if where.startswith(SRC):
        return
    data = (sp / where).read_bytes()
    if anchor.encode() not in data:
        raise SystemExit(f"anchor not found in {where}: {anchor!r}")


def versions() -> list[str]:
    from importlib.metadata import version

    return [f"torch {version('torch')}", f"triton {version('triton')}"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=OUT)
    a = ap.parse_args(argv)
    sp = site_packages()
    built = python_built()
    entries = []
    for eid, layer, exc, msg, where, anchor in E:
        check_anchor(sp, where, anchor)
        msg = msg.replace("{py}", built[eid]) if "{py}" in msg else msg
        kind = exc if exc in ("warn", "log") else "raise"
        entries.append({"id": eid, "layer": layer, "kind": kind, "exc": "" if kind != "raise" else exc,
                        "message": msg, "before": BEFORE.get(eid, ""), "source": where})  # fmt: skip
    doc = {
        "about": "What PyTorch and Triton raise when the machine, driver or GPU does not fit (facts the "
        "packages print, for benchmarks/doctor_coverage_torch_triton_errors.py); made by "
        "tools/harvest_torch_triton_errors.py.",
        "sources": versions() + ["pytorch source for the CUDA-only C++ strings (c10/cuda, ProcessGroupNCCL)"],
        "formats": FORMATS,
        "entries": entries,
    }
    a.out.write_text(json.dumps(doc, indent=1) + "\n")
    print(f"{len(entries)} entries from {', '.join(doc['sources'])} -> {a.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
