"""Environment probes: check for real what a JIT inference engine needs from the machine and its unit.

Each probe performs the operation the engine will perform (map a page executable in a cache
directory, map a writable+executable page, open each socket family, bind the port, load the
libraries) rather than reading configuration, so a sandbox, mount option or limit shows up exactly
as the engine would meet it. Every probe returns pass / fail / n/a with its evidence.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import glob
import mmap
import os
import re
import resource
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

from pydantic import BaseModel

from servebox.units import GiB, MiB


class Probe(BaseModel):
    name: str
    status: str  # pass, fail, n/a
    evidence: str
    fix: str | None = None


def _ok(name: str, evidence: str) -> Probe:
    return Probe(name=name, status="pass", evidence=evidence)


def _fail(name: str, evidence: str, fix: str) -> Probe:
    return Probe(name=name, status="fail", evidence=evidence, fix=fix)


def _na(name: str, evidence: str) -> Probe:
    return Probe(name=name, status="n/a", evidence=evidence)


def has_nvidia_driver() -> bool:
    return bool(glob.glob("/dev/nvidia[0-9]*")) or Path("/proc/driver/nvidia/version").exists()


def probe_c_compiler() -> Probe:
    cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if not cc:
        return _fail(
            "c compiler",
            "no $CC and no cc/gcc/clang on PATH",
            "install gcc and set CC/CXX for the engine (Triton compiles a launcher)",
        )
    try:
        out = subprocess.run([cc, "--version"], capture_output=True, text=True, timeout=20)
    except OSError as exc:
        return _fail("c compiler", f"{cc}: {exc}", "point CC at a working compiler")
    return _ok("c compiler", f"{cc}: {out.stdout.splitlines()[0] if out.stdout else 'runs'}")


def _nvcc_include_dirs(nvcc: str) -> list[Path]:
    """Where nvcc itself looks for headers: its --dryrun prints INCLUDES (relative to the real binary,
    whatever wrapper or symlink PATH found), which is exactly what a JIT compile will use."""
    try:
        out = subprocess.run(
            [nvcc, "--dryrun", "-x", "cu", "-E", os.devnull, "-o", os.devnull],
            capture_output=True,
            text=True,
            timeout=30,
        )
    except (OSError, subprocess.TimeoutExpired):
        return []
    dirs = []
    for line in (out.stdout + out.stderr).splitlines():
        if "INCLUDES=" in line:
            dirs += [Path(p) for p in re.findall(r'-I"?([^"\s]+)', line)]
    return dirs


def probe_cuda_toolkit() -> Probe:
    home = os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH")
    nvcc = shutil.which("nvcc") or (
        str(Path(home) / "bin" / "nvcc") if home and (Path(home) / "bin" / "nvcc").exists() else None
    )
    if not nvcc:
        if not home and not has_nvidia_driver():
            return _na("cuda toolkit", "no NVIDIA driver, no CUDA_HOME and no nvcc: not a CUDA host")
        return _fail(
            "cuda toolkit",
            f"CUDA_HOME={home!r}, no nvcc on PATH",
            "set CUDA_HOME to a toolkit with nvcc, cudart and cccl (tilelang and other JIT kernels need it)",
        )
    includes = _nvcc_include_dirs(nvcc)
    extra = [Path(p[2:]) for p in os.environ.get("NVCC_PREPEND_FLAGS", "").split() if p.startswith("-I")]
    found = next((d for d in includes + extra if (d / "cuda_runtime.h").exists()), None)
    if found is None:
        return _fail(
            "cuda toolkit",
            f"nvcc {nvcc} searches {', '.join(map(str, includes)) or 'no include dirs'}: no cuda_runtime.h",
            "set NVCC_PREPEND_FLAGS='-I<toolkit>/include' (nvcc ignores CUDA_HOME for headers)",
        )
    return _ok(
        "cuda toolkit",
        f"nvcc {nvcc} finds cuda_runtime.h in {found.resolve()}" + (f"; CUDA_HOME={home}" if home else ""),
    )


def probe_libcuda() -> Probe:
    explicit = os.environ.get("TRITON_LIBCUDA_PATH")
    if explicit:
        path = Path(explicit)
        lib = path / "libcuda.so.1" if path.is_dir() else path
        if lib.exists() or (path / "libcuda.so").exists():
            return _ok("libcuda", f"TRITON_LIBCUDA_PATH={explicit}")
        return _fail(
            "libcuda",
            f"TRITON_LIBCUDA_PATH={explicit} holds no libcuda.so",
            "point it at the driver's library directory",
        )
    if not has_nvidia_driver():
        return _na("libcuda", "no NVIDIA driver on this machine")
    found = ctypes.util.find_library("cuda")
    ldconfig = shutil.which("ldconfig") or ("/sbin/ldconfig" if Path("/sbin/ldconfig").exists() else None)
    if not ldconfig:
        return _fail(
            "libcuda",
            f"no ldconfig for Triton to ask (find_library says {found!r})",
            "set TRITON_LIBCUDA_PATH to the driver's library directory",
        )
    return (
        _ok("libcuda", f"find_library('cuda') = {found}")
        if found
        else _fail(
            "libcuda",
            "ldconfig does not list libcuda.so",
            "set TRITON_LIBCUDA_PATH to the driver's library directory",
        )
    )


def probe_library(soname: str) -> Probe:
    try:
        ctypes.CDLL(soname)
    except OSError as exc:
        return _fail(soname, str(exc), "add its directory to LD_LIBRARY_PATH in the engine's environment")
    return _ok(soname, "loads")


def probe_exec_mappable(directory: Path) -> Probe:
    """Write a page into DIRECTORY and map it PROT_EXEC, as a JIT .so load does (noexec, symlink traps)."""
    name = f"cache dir {directory}"
    detail = ""
    if directory.is_symlink():
        detail = f" (a symlink to {directory.resolve()})"
    try:
        directory.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=directory, prefix=".servebox-probe-", suffix=".bin") as handle:
            handle.write(b"\xc3" * mmap.PAGESIZE)  # a page of 'ret' instructions
            handle.flush()
            try:
                region = mmap.mmap(handle.fileno(), mmap.PAGESIZE, prot=mmap.PROT_READ | mmap.PROT_EXEC)
                region.close()
            except OSError as exc:
                return _fail(
                    name,
                    f"writable, but mapping a file executable fails: {exc}{detail}",
                    "use a cache directory on an exec-mountable filesystem, not behind a symlink into a private tree "
                    "(a StateDirectory of the engine's unit)",
                )
    except OSError as exc:
        return _fail(
            name,
            f"not writable: {exc}{detail}",
            "make it writable for the engine's user (StateDirectory / ReadWritePaths)",
        )
    return _ok(name, f"writable and exec-mappable{detail}")


def probe_write_execute() -> Probe:
    """A writable+executable page, as torch.compile / Triton / a JIT need; MemoryDenyWriteExecute forbids it."""
    try:
        region = mmap.mmap(-1, mmap.PAGESIZE, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
        region.close()
    except OSError as exc:
        return _fail(
            "W^X",
            f"mmap(PROT_WRITE|PROT_EXEC) refused: {exc}",
            "run the engine in a unit without MemoryDenyWriteExecute (and without PR_SET_MDWE)",
        )
    return _ok("W^X", "writable+executable pages allowed (a JIT can run)")


def probe_memlock(need_bytes: int) -> Probe:
    soft, hard = resource.getrlimit(resource.RLIMIT_MEMLOCK)
    shown = "unlimited" if soft == resource.RLIM_INFINITY else f"{soft / MiB:.0f} MiB"
    if soft != resource.RLIM_INFINITY and soft < need_bytes:
        return _fail(
            "memlock",
            f"RLIMIT_MEMLOCK {shown} < {need_bytes / MiB:.0f} MiB needed for pinned host memory",
            "raise LimitMEMLOCK in the engine's unit (infinity, or at least the KV spill size)",
        )
    return _ok("memlock", f"RLIMIT_MEMLOCK {shown}")


def probe_dev_shm(need_bytes: int) -> Probe:
    try:
        st = os.statvfs("/dev/shm")
    except OSError as exc:
        return _fail("/dev/shm", str(exc), "mount a tmpfs on /dev/shm")
    size = st.f_blocks * st.f_frsize
    if size < need_bytes:
        return _fail(
            "/dev/shm",
            f"{size / MiB:.0f} MiB < {need_bytes / MiB:.0f} MiB",
            "enlarge /dev/shm (container --shm-size, or --ipc=host)",
        )
    return _ok("/dev/shm", f"{size / GiB:.1f} GiB")


FAMILIES = {
    "AF_UNIX": socket.AF_UNIX,
    "AF_INET": socket.AF_INET,
    "AF_INET6": socket.AF_INET6,
    "AF_NETLINK": getattr(socket, "AF_NETLINK", 16),
}


def probe_socket_families() -> list[Probe]:
    results = []
    for name, family in FAMILIES.items():
        kind = socket.SOCK_RAW if name == "AF_NETLINK" else socket.SOCK_STREAM
        try:
            socket.socket(family, kind).close()
        except OSError as exc:
            results.append(
                _fail(
                    f"socket {name}",
                    str(exc),
                    "allow AF_UNIX AF_INET AF_INET6 AF_NETLINK in RestrictAddressFamilies",
                )
            )
        else:
            results.append(_ok(f"socket {name}", "opens"))
    return results


def probe_port(port: int, host: str = "127.0.0.1") -> Probe:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        try:
            s.bind((host, port))
        except OSError as exc:
            return _fail(
                f"port {port}",
                f"cannot bind {host}:{port}: {exc}",
                "stop what holds it (ss -ltnp) or choose another port",
            )
    return _ok(f"port {port}", f"{host}:{port} is free")


def probe_gpus() -> Probe:
    try:
        import pynvml  # nvidia-ml-py
    except ImportError:
        return _na(
            "gpu", "nvidia-ml-py not installed" + ("" if has_nvidia_driver() else "; no NVIDIA driver either")
        )
    try:
        pynvml.nvmlInit()
    except Exception as exc:  # NVMLError_LibraryNotFound, DriverNotLoaded
        return (
            _na("gpu", f"NVML unavailable: {exc}")
            if not has_nvidia_driver()
            else _fail("gpu", f"NVML: {exc}", "check the driver")
        )
    try:
        count = pynvml.nvmlDeviceGetCount()
        driver = pynvml.nvmlSystemGetDriverVersion()
        names = [pynvml.nvmlDeviceGetName(pynvml.nvmlDeviceGetHandleByIndex(i)) for i in range(count)]
    finally:
        pynvml.nvmlShutdown()
    if not count:
        return _fail(
            "gpu", f"driver {driver}, no GPU visible", "check CUDA_VISIBLE_DEVICES and the unit's DeviceAllow"
        )
    return _ok("gpu", f"driver {driver}; {count} GPU(s): {', '.join(map(str, names))}")


def run_probes(
    cache_dirs: list[Path], port: int | None, memlock_need: int = GiB, shm_need: int = GiB
) -> list[Probe]:
    probes = [
        probe_c_compiler(),
        probe_cuda_toolkit(),
        probe_libcuda(),
        probe_library("libstdc++.so.6"),
        probe_library("libz.so.1"),
    ]
    probes += [probe_exec_mappable(d) for d in cache_dirs]
    probes += [probe_write_execute(), probe_memlock(memlock_need), probe_dev_shm(shm_need)]
    probes += probe_socket_families()
    if port is not None:
        probes.append(probe_port(port))
    probes.append(probe_gpus())
    return probes


def default_cache_dirs() -> list[Path]:
    """The caches a JIT engine writes, where its environment says they are."""
    home = Path(os.environ.get("HOME") or "/root")
    xdg = Path(os.environ.get("XDG_CACHE_HOME") or home / ".cache")
    dirs = [
        Path(os.environ[v])
        for v in ("TRITON_CACHE_DIR", "TORCHINDUCTOR_CACHE_DIR", "VLLM_CACHE_ROOT")
        if os.environ.get(v)
    ]
    return dirs or [xdg]
