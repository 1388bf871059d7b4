"""Harvest Vulkan's VkResult codes, HIP's hipError_t strings and the HSA runtime's status strings into a catalogue.

Why: llama.cpp users on AMD and Intel GPUs meet failures whose only clue is a Vulkan result
('vk::DeviceLostError ... ErrorDeviceLost'), a HIP error string ('ROCm error: ...', 'HIP error: ...') or an
HSA status; doctor names them only if a family knows them, and covering the vocabulary completely needs the
vocabulary itself. Sources (downloaded into a scratch folder, never committed):
  - Debian bookworm's libvulkan-dev (1.3.239.0-1): VkResult in vulkan_core.h; vulkan.hpp's exception class per
    code (throwResultException) and vulkan_to_string.hpp's to_string(Result), which is what
    vk::SystemError::what() appends after the call's name (std::system_error: 'what_arg: message').
  - Debian bookworm's libamdhip64-5 (5.2.3-8): hipGetErrorName / hipGetErrorString asked through ctypes for every
    code in hip_runtime_api.h (pure table lookups, no GPU needed); ROCm 5.x returns the name as the string.
  - ROCm/clr (hipamd/src/hip_error.cpp at a commit given by --clr, a git directory): ihipGetErrorString's
    descriptive strings, which ROCm 6 prints ('no ROCm-capable device is detected').
  - Debian's libhsa-runtime64-1 (5.2.3): hsa_status_string for each HSA status code.
  - Intel's oneAPI Unified Runtime from PyPI (intel-cmplr-lib-ur 2026.2.0, with intel-cmplr-lib-rt for its math
    libraries): urPrintResult asked through ctypes for each ur_result_t, the name DPC++ prints in 'Native API
    failed. Native API returns: %d (%s)' (ggml-sycl, PyTorch-XPU / vLLM on Intel GPUs).
  - Whole lines the AMD stack prints by itself: ROCm/clr's code-object loader ('hipErrorNoBinaryForGpu: Unable to
    find code object ...', git grep in --clr) and libdrm-amdgpu1 (2.4.114)'s '%s: %s' for its missing amdgpu.ids
    table, a harmless line (`expect` "note": doctor must not call it the failure).
Run: python tools/harvest_vulkan_hip_errors.py --scratch /tmp/vkhip --clr /work/.mirror/ROCm+clr/repo
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "benchmarks" / "data" / "vulkan_hip_errors.json"
DEBS = (
    "libvulkan-dev",
    "libamdhip64-dev",
    "libamdhip64-5",
    "libhsa-runtime64-1",
    "libamd-comgr2",
    "libhsakmt1",
)
LIBDIR = "usr/lib/x86_64-linux-gnu"

# How programs print these in a log; {msg} is the entry's message, {code}/{name}/{cls}/{old} its other fields.
# `lib` says which vocabulary a format prints, `codes` (when given) the only codes its path meets; `path` "init"
# marks one printed only while the backend starts.
FORMATS = [
    {
        "id": "vkhpp-terminate",
        "lib": "vulkan",
        "source": "vulkan.hpp resultCheck -> throwResultException (class per code; what() = 'vk::Class::call: "
        "ErrorX'), uncaught in llama.cpp b11434's ggml-vulkan.cpp (fence waits, queue submits): libstdc++'s "
        "verbose terminate handler",
        "template": "terminate called after throwing an instance of 'vk::{cls}'\n  what():  vk::Queue::submit: {msg}",
    },
    {
        "id": "ggml-vulkan-catch",
        "lib": "vulkan",
        "source": "llama.cpp ggml/src/ggml-vulkan/ggml-vulkan.cpp ggml_vk_create_buffer: catches vk::SystemError, "
        "prints 'ggml_vulkan: ' + e.what() after 'Device memory allocation of size N failed.'",
        "codes": [-1, -2],  # what vkAllocateMemory returns (ggml's catch prints any; only these reach it)
        "template": "ggml_vulkan: Device memory allocation of size 2166360064 failed.\n"
        "ggml_vulkan: vk::Device::allocateMemory: {msg}",
    },
    {
        "id": "ggml-rocm-check",
        "lib": "hip",
        "source": "llama.cpp b11434 ggml/src/ggml-cuda/ggml-cuda.cu ggml_cuda_error (GGML_CUDA_NAME is 'ROCm' in the "
        "HIP build; vendors/hip.h maps cudaGetErrorString to hipGetErrorString), ROCm 6 strings",
        "template": "ROCm error: {msg}\n  current device: 0, in function ggml_backend_cuda_synchronize at "
        "/app/ggml/src/ggml-cuda/ggml-cuda.cu:2873\n  hipStreamSynchronize(cuda_ctx->stream())\n"
        "/app/ggml/src/ggml-cuda/ggml-cuda.cu:101: ROCm error",
    },
    {
        "id": "ggml-rocm5-check",
        "lib": "hip",
        "source": "the same, linked against ROCm 5.x, whose hipGetErrorString returns the code's name (Debian 5.2.3)",
        "template": "ROCm error: {old}\n  current device: 0, in function ggml_backend_cuda_synchronize at "
        "/app/ggml/src/ggml-cuda/ggml-cuda.cu:2873\n  hipStreamSynchronize(cuda_ctx->stream())\n"
        "/app/ggml/src/ggml-cuda/ggml-cuda.cu:101: ROCm error",
    },
    {
        "id": "torch-hip-check",
        "lib": "hip",
        "source": "PyTorch-ROCm's hipified c10/cuda/CUDAException.cpp c10_cuda_check_implementation ('HIP error: %s', "
        "the HIP wording of the async note and AMD_SERIALIZE_KERNEL)",
        "template": "RuntimeError: HIP error: {msg}\nHIP kernel errors might be asynchronously reported at some other "
        "API call, so the stacktrace below might be incorrect.\nFor debugging consider passing AMD_SERIALIZE_KERNEL=3\n"
        "Compile with `TORCH_USE_HIP_DSA` to enable device-side assertions.",
    },
    {
        "id": "ggml-rocm-init",
        "lib": "hip",
        "source": "llama.cpp b11434 ggml-cuda.cu ggml_cuda_init ('%s: failed to initialize "
        + "%s: %s', ROCm build)",
        "template": "ggml_cuda_init: failed to initialize ROCm: {msg}",
        "path": "init",
    },
    {
        "id": "rocclr-queue-abort",
        "lib": "hsa",
        "source": "ROCm/clr rocclr/device/rocm/rocdevice.cpp the queue error callback ('Callback: Queue %p aborting "
        "with error : %s code: 0x%x', hsa_status_string's text), printed through ClPrint's ':0:file:line' prefix",
        "template": ":0:rocdevice.cpp            :2999: 1706262233 us: [pid:4711  tid:0x7f3c5bfff640] Callback: Queue "
        "0x7f3a24000000 aborting with error : {msg} code: 0x{code:x}",
    },
    {
        "id": "ggml-sycl-native-api",
        "lib": "ur",
        "source": "DPC++'s detail::ur::checkUrResult ('Native API failed. Native API returns: ' + '%d (%s)'), caught "
        "by llama.cpp ggml/src/ggml-sycl's SYCL_CHECK / catch blocks ('Exception caught at file:%s, line:%d')",
        "template": "Native API failed. Native API returns: {code} ({name})\nException caught at "
        "file:/app/ggml/src/ggml-sycl/ggml-sycl.cpp, line:3438, func:operator()\nSYCL error: CHECK_TRY_ERROR(...): "
        "Exception caught in this line of code.",
    },
    {
        "id": "torch-xpu-native-api",
        "lib": "ur",
        "source": "the same DPC++ exception raised into Python by PyTorch-XPU (sycl::exception -> RuntimeError)",
        "template": "RuntimeError: Native API failed. Native API returns: {code} ({name})",
    },
    {
        "id": "bare-line",
        "lib": "lines",
        "source": "the line as its program prints it (the entry's `source`)",
        "template": "{msg}",
    },
]


def extract(scratch: Path) -> Path:
    """apt-get download the packages into scratch (once) and unpack them; return the unpacked root."""
    root = scratch / "root"
    if not (root / LIBDIR / "libamdhip64.so.5").exists():
        scratch.mkdir(parents=True, exist_ok=True)
        subprocess.run(["apt-get", "download", *DEBS], cwd=scratch, check=True)
        for deb in scratch.glob("*.deb"):
            subprocess.run(["dpkg-deb", "-x", str(deb), str(root)], check=True)
    return root


def deb_versions(scratch: Path) -> list[str]:
    names = sorted(p.name.split("_")[:2] for p in scratch.glob("*.deb"))
    return [
        f"debian {n} {v}"
        for n, v in names
        if n in ("libvulkan-dev", "libamdhip64-5", "libhsa-runtime64-1", "libdrm-amdgpu1")
    ]


def vulkan(root: Path) -> list[dict]:
    """Every VkResult error code with vulkan.hpp's exception class and to_string text."""
    inc = root / "usr/include/vulkan"
    core = (inc / "vulkan_core.h").read_text()
    body = core[core.index("typedef enum VkResult {") :]
    body = body[: body.index("} VkResult;")]
    codes = {m[1]: int(m[2]) for m in re.finditer(r"^\s+(VK_\w+) = (-?\d+),", body, re.M)}
    hpp = (inc / "vulkan.hpp").read_text()
    cls = dict(re.findall(r"case Result::(e\w+): throw (\w+)\( message \);", hpp))
    text = dict(
        re.findall(r'case Result::(e\w+) ?: return "(\w+)";', (inc / "vulkan_to_string.hpp").read_text())
    )
    out = []
    for name, code in codes.items():
        if code >= 0:
            continue  # success and status codes: never thrown as errors
        enum = "e" + "".join(w.capitalize() for w in name[3:].split("_"))
        enum = next((k for k in text if k.lower() == enum.lower()), enum)
        out.append(
            {
                "lib": "vulkan",
                "code": code,
                "name": name,
                "cls": cls.get(enum, "SystemError"),
                "message": text[enum],
            }
        )
    return out


def hip(root: Path, clr: Path | None) -> tuple[list[dict], str]:
    """Every hipError_t code: ROCm 5.2's strings from the library, ROCm 6's from clr's hip_error.cpp."""
    api = (root / "usr/include/hip/hip_runtime_api.h").read_text()
    codes = {m[1]: int(m[2]) for m in re.finditer(r"^\s+(hipError\w+)\s*=\s*(\d+)", api, re.M)}
    lib = ctypes.CDLL(str(root / LIBDIR / "libamdhip64.so.5"))
    for f in ("hipGetErrorName", "hipGetErrorString"):
        getattr(lib, f).restype, getattr(lib, f).argtypes = ctypes.c_char_p, [ctypes.c_int]
    new, where = {}, ""
    if clr is not None:
        commit = subprocess.run(
            ["git", "--git-dir", str(clr), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()
        src = subprocess.run(
            ["git", "--git-dir", str(clr), "show", "HEAD:hipamd/src/hip_error.cpp"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        src = src[src.index("ihipGetErrorString") :]
        # a run of `case X:` labels shares the string that follows them
        pending: list[str] = []
        for m in re.finditer(r'case (hip\w+):|return "([^"]*)";', src):
            if m[1]:
                pending.append(m[1])
            else:
                new.update(dict.fromkeys(pending, m[2]))
                pending = []
        where = f"ROCm/clr {commit[:12]} hipamd/src/hip_error.cpp"
    out, seen = [], set()
    for name, code in codes.items():
        if code == 0 or name == "hipErrorTbd" or code in seen:
            continue  # success, the end marker, and deprecated aliases (hipErrorMemoryAllocation = 2)
        seen.add(code)
        old = lib.hipGetErrorString(code).decode()
        out.append(
            {"lib": "hip", "code": code, "name": name, "message": new.get(name, old), "old": old,
             "in_clr": name in new}
        )  # fmt: skip
    return out, where


def hsa(root: Path) -> list[dict]:
    """Every HSA status error code hsa_status_string knows (0x1000 upward), text as the runtime prints it."""
    lib = ctypes.CDLL(str(root / LIBDIR / "libhsa-runtime64.so.1"))
    f = lib.hsa_status_string
    f.restype, f.argtypes = ctypes.c_int, [ctypes.c_int, ctypes.POINTER(ctypes.c_char_p)]
    out = []
    for code in range(0x1000, 0x1100):
        s = ctypes.c_char_p()
        if f(code, ctypes.byref(s)) == 0 and s.value:
            text = s.value.decode()
            out.append({"lib": "hsa", "code": code, "name": text.split(":")[0], "message": text})
    return out


SYCL_WHEELS = (("intel-cmplr-lib-ur", "2026.2.0"), ("intel-cmplr-lib-rt", "2026.2.0"))


def sycl_libs(scratch: Path) -> list[Path]:
    """pip download the oneAPI wheels into scratch/sycl (once), unpack them; the folders holding their libraries."""
    where = scratch / "sycl"
    if not list(where.glob("intel_cmplr_lib_ur-*.whl")):
        for name, version in SYCL_WHEELS:
            cmd = [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--no-deps",
                f"{name}=={version}",
                "-d",
                str(where),
            ]
            subprocess.run(cmd, check=True)
    for whl in where.glob("*.whl"):
        if not (where / whl.stem).exists():
            zipfile.ZipFile(whl).extractall(where / whl.stem)
    return sorted({p.parent for p in where.glob("*/*.data/data/lib/*.so*")})


def sycl(libdirs: list[Path]) -> list[dict]:
    """Every ur_result_t error code urPrintResult names (0..200 and UR_RESULT_ERROR_UNKNOWN)."""
    loader = next(d / "libur_loader.so.0" for d in libdirs if (d / "libur_loader.so.0").exists())
    f = ctypes.CDLL(str(loader)).urPrintResult
    f.restype = ctypes.c_int
    f.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t, ctypes.POINTER(ctypes.c_size_t)]
    out = []
    for code in (*range(1, 200), 0x7FFFFFFE):
        buf, n = ctypes.create_string_buffer(256), ctypes.c_size_t()
        f(code, buf, 256, ctypes.byref(n))
        if (name := buf.value.decode()).startswith("UR_RESULT_ERROR"):
            out.append({"lib": "ur", "code": code, "name": name, "message": name})
    return out


def lines(root: Path, clr: Path | None) -> list[dict]:
    """Whole lines the AMD stack prints by itself, each read from its source."""
    out = []
    drm = next((root / LIBDIR).glob("libdrm_amdgpu.so.1.*")).read_bytes()
    table = re.search(rb"(/[\w/]+/amdgpu\.ids)\0", drm)[1].decode()
    assert (
        b"%s: %s\n\0" in drm
    )  # amdgpu_parse_asic_ids: fprintf(stderr, "%s: %s\n", AMDGPU_ASIC_ID_TABLE, strerror(errno))
    for path in (table, "/opt/amdgpu/share/libdrm/amdgpu.ids"):  # Debian's table, ROCm's bundled libdrm's
        out.append(
            {"lib": "lines", "code": f"libdrm-ids {path}", "name": "amdgpu.ids missing", "expect": "note",
             "message": f"{path}: {os.strerror(2)}", "source": "libdrm amdgpu_asic_id.c amdgpu_parse_asic_ids"}
        )  # fmt: skip
    if clr is not None:
        grep = subprocess.run(
            [
                "git",
                "--git-dir",
                str(clr),
                "grep",
                "-h",
                "hipErrorNoBinaryForGpu: ",
                "HEAD",
                "--",
                "hipamd/src",
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        text = re.search(r'"(hipErrorNoBinaryForGpu: [^"]+)"', grep)[1]
        out.append(
            {"lib": "lines", "code": "clr-no-binary", "name": "hipErrorNoBinaryForGpu", "expect": "cause",
             "message": text, "source": "ROCm/clr hipamd/src/hip_code_object.cpp (LogPrintfError)"}
        )  # fmt: skip
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scratch", type=Path, default=Path("/tmp/vkhip"))
    ap.add_argument("--clr", type=Path, default=None, help="git directory of ROCm/clr (ROCm 6 strings)")
    ap.add_argument("--out", type=Path, default=OUT)
    a = ap.parse_args(argv)
    root = extract(a.scratch)
    libdirs = sycl_libs(a.scratch)
    if os.environ.get("_VKHIP_CHILD") != "1":  # the libraries need their siblings on the loader path
        path = ":".join(str(d) for d in (root / LIBDIR, *libdirs))
        env = {**os.environ, "_VKHIP_CHILD": "1", "LD_LIBRARY_PATH": path}
        return subprocess.run([sys.executable, __file__, *(argv or sys.argv[1:])], env=env).returncode
    hip_entries, clr_where = hip(root, a.clr)
    entries = vulkan(root) + hip_entries + hsa(root) + sycl(libdirs) + lines(root, a.clr)
    doc = {
        "about": "Vulkan's VkResult, HIP's hipError_t and HSA's status strings (facts the libraries print, for "
        "benchmarks/doctor_coverage_vulkan_hip_errors.py); made by tools/harvest_vulkan_hip_errors.py.",
        "sources": deb_versions(a.scratch)
        + [f"pypi {n} {v}" for n, v in SYCL_WHEELS]
        + ([clr_where] if clr_where else []),
        "formats": FORMATS,
        "entries": entries,
    }
    a.out.write_text(json.dumps(doc, indent=1) + "\n")
    print(f"{len(entries)} entries -> {a.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
