"""The 295th fresh batch of doctor's corpus (batch "fresh-295", made here): HARDENED SERVICE UNITS AGAINST WHAT AN LLM
ENGINE NEEDS, a fifth systemd round after fresh-228, fresh-236, fresh-277 and fresh-287: a hardening, sandboxing or
resource directive set on an engine's unit (vLLM's api_server, llama-server, llama-swap) that collides with one thing
the engine needs at run time: the GPU's device nodes, a JIT's writable+executable memory, /dev/shm, a model or cache
directory, /proc entries and kernel modules, NUMA placement, locked memory, a low port, a socket family, the GPU
device group, a cache path from the EnvironmentFile=, its threads. The base units VLLM, LLAMA, SWAP and DROPINS are
fresh-228's, imported unchanged; fresh-277's root builder and runner are reused. Checked with this machine's real
systemd 252 (252.39-1~deb12u2), offline only (no running systemd): `systemd-analyze verify --man=no --root=ROOT` and
`systemd-analyze security --offline=yes --root=ROOT`, as fresh-287 ran them. Most of these collisions bite only when
the engine runs under the sandbox; the log is then what the offline tools show, and the manifest's `expected` says
what they show (a clean verify is "none" unless a tool states the problem); the entry's `cause` says what would happen.

Sources read before anything ran: man 5 systemd.exec and man 5 systemd.resource-control on this machine
(MemoryDenyWriteExecute='s "incompatible with programs and libraries that generate program code dynamically at
runtime, including JIT execution engines" and its advice "InaccessiblePaths=/dev/shm"; PrivateDevices='s new /dev
with "only API pseudo devices" and "DevicePolicy=closed"; PrivateIPC='s "no effect on POSIX shared memory (which is
subject to mount namespacing)"; ProtectSystem=strict's "except for the API file system subtrees /dev/, /proc/ and
/sys/"; DynamicUser='s implied ProtectSystem=strict; ProcSubset=pid's "not suitable for most non-trivial programs";
ProtectKernelModules='s "explicit module loading will be denied"; NUMAMask='s "must be specified"; CPUAffinity=numa
"derives allowed CPU range based on the value of NUMAMask="; TemporaryFileSystem='s BindReadOnlyPaths= example;
DevicePolicy=strict/closed; TasksMax=), the strings of /usr/lib/x86_64-linux-gnu/systemd/libsystemd-core-252.so and
libsystemd-shared-252.so ('Can't derive CPU affinity mask from NUMA mask because NUMA mask is not set, ignoring',
'Failed to set NUMA memory policy: %m', 'Failed to parse NUMA node mask, ignoring: %s', 'Failed to install any
seccomp rules for MemoryDenyWriteExecute=.', 'PrivateIPC=yes is configured, but ...', 'DeviceAllow= requires device
node or pattern'), and vLLM 0.32's own sources in .venv-vllm (distributed/device_communicators/shm_broadcast.py:
multiprocessing.shared_memory.SharedMemory, i.e. /dev/shm; utils/network_utils.py: ipc:// ZMQ sockets, AF_UNIX;
psutil.virtual_memory(), i.e. /proc/meminfo).

Earlier makers checked (their tools' docstrings and CONDITIONS, and their manifest headers, only): fresh-228,
fresh-236, fresh-277, fresh-287; no pair here is one of theirs (fresh-287's PrivateDevices= with DeviceAllow= written
wrong is not here: PrivateDevices= here is alone or beside SupplementaryGroups=, and DevicePolicy= here is a valid word
without PrivateDevices=; fresh-287's ProtectSystem=strict with ReadWritePaths= and fresh-277's ProtectHome= are not
here; LimitMEMLOCK= here parses and is only too small; fresh-228's and the older cases' CPUAffinity= was not a CPU).

Procedure (fixed before the draw was printed and before any case ran): draw_distinct_conditions(2295, CONDITIONS, 11)
(r = random.Random(2295): condition = r.choice(list(CONDITIONS)), value = r.choice(its values); a condition drawn
before is drawn anew). Draw i (1-based) hardens base unit BASES[(i - 1) % 3]. Each case is a fresh root
/tmp/fresh295/<case id> (fresh-277's build_root: a copy of /usr/lib/systemd/system, the unit and drop-ins, stub
executables, the EnvironmentFile=, passwd/group with the vllm and llama users; here the group file also gets
video and render, as a GPU host has them). The log is `$ cat` of each file
written, then `systemd-analyze verify --man=no --root=ROOT UNIT` and `systemd-analyze security --offline=yes
--root=ROOT UNIT`, each with its whole output and `# exit: N`. No ports, no engine started.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh295.py [--draws | --inputs | CASE_ID ...]
"""

from __future__ import annotations

import sys
from pathlib import Path

from corpus_tools import draw_distinct_conditions  # tools/ is on sys.path
from doctor_corpus_fresh228 import BASES, DROPINS, add_after, set_line, slug
from doctor_corpus_fresh277 import build_root, facts, sh

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
WORK = Path("/tmp/fresh295")
SA = "/usr/bin/systemd-analyze"
ETC = "/etc/systemd/system"

CONDITIONS = {
    "systemd.exec: PrivateDevices=yes on an engine that opens the GPU's device nodes": [
        "PrivateDevices=yes (NVIDIA: /dev/nvidia0, /dev/nvidiactl, /dev/nvidia-uvm)",
        "PrivateDevices=yes with SupplementaryGroups=render video (ROCm: /dev/kfd, /dev/dri)",
    ],
    "systemd.resource-control: DevicePolicy= closed or strict with the GPU's nodes partly allowed": [
        "DevicePolicy=closed, DeviceAllow= nvidiaN and nvidiactl only (no nvidia-uvm)",
        "DevicePolicy=strict, DeviceAllow=char-nvidia-frontend rw (no /dev/null, no nvidia-uvm)",
    ],
    "systemd.exec: MemoryDenyWriteExecute=yes on an engine process that may JIT": [
        "MemoryDenyWriteExecute=yes in the unit",
        "MemoryDenyWriteExecute=yes with SystemCallArchitectures=native in the drop-in",
    ],
    "systemd.exec: /dev/shm closed or shrunk (vLLM's shared-memory queue, multiprocessing semaphores)": [
        "InaccessiblePaths=/dev/shm (as man systemd.exec advises beside MemoryDenyWriteExecute=)",
        "TemporaryFileSystem=/dev/shm:size=64M",
    ],
    "systemd.exec: IPC isolation beside the engine's /dev/shm segments": [
        "PrivateIPC=yes",
        "PrivateTmp=yes with RemoveIPC=yes",
    ],
    "systemd.exec: the cache the engine writes made read-only": [
        "ReadOnlyPaths=/opt (model and cache under it)",
        "ProtectSystem=strict alone (the cache under /opt)",
    ],
    "systemd.exec: the model or the engine's files hidden by a path sandbox": [
        "TemporaryFileSystem=/opt:ro with BindReadOnlyPaths= of the WorkingDirectory= only",
        "InaccessiblePaths=/opt/models /srv (other engines' model stores)",
    ],
    "systemd.exec: ProcSubset=/ProtectProc= hiding /proc files the engine or CUDA reads": [
        "ProcSubset=pid (no /proc/meminfo, /proc/cpuinfo, /proc/driver/nvidia)",
        "ProtectProc=invisible with ProcSubset=pid",
    ],
    "systemd.exec: ProtectKernelModules=yes while nvidia_uvm loads on the first CUDA call": [
        "ProtectKernelModules=yes",
        "ProtectKernelModules=yes, ProtectKernelTunables=yes, NoNewPrivileges=yes",
    ],
    "systemd.exec: NUMAPolicy= placement the host cannot give": [
        "NUMAPolicy=bind, NUMAMask=1 (a node a one-socket host lacks)",
        "NUMAPolicy=interleave, CPUAffinity=numa, no NUMAMask=",
    ],
    "systemd.exec: LimitMEMLOCK= below what --mlock or pinned memory locks": [
        "LimitMEMLOCK=64M",
        "LimitMEMLOCK=8M:infinity (the soft limit binds)",
    ],
    "systemd.exec: a port below 1024 for an engine run as User=": [
        "port 443, no capability",
        "port 80, AmbientCapabilities=CAP_NET_BIND_SERVICE with PrivateUsers=yes",
    ],
    "systemd.exec: RestrictAddressFamilies= allow list without a family the engine opens": [
        "RestrictAddressFamilies=AF_INET AF_INET6 (no AF_UNIX)",
        "RestrictAddressFamilies=AF_UNIX AF_INET (no AF_INET6, no AF_NETLINK)",
    ],
    "systemd.exec: the unit's user and the GPU's device group (ROCm render nodes)": [
        "User=/Group= the engine's own, no SupplementaryGroups=",
        "DynamicUser=yes with SupplementaryGroups=render video",
    ],
    "systemd.exec: an EnvironmentFile= pointing a cache where the sandbox makes it read-only": [
        "cache under /var/cache/NAME, ProtectSystem=strict with no CacheDirectory=",
        "cache under /srv/NAME, ProtectSystem=strict with StateDirectory=NAME",
    ],
    "systemd.resource-control: TasksMax=/LimitNPROC= below the engine's thread count": [
        "TasksMax=64",
        "LimitNPROC=64",
    ],
}

GPU = {"vllm.service": "0", "llama-server.service": "1", "llama-swap.service": "0"}
CACHE_VAR = {"vllm.service": "HF_HOME", "llama-server.service": "LLAMA_CACHE"}
CACHE_VAR["llama-swap.service"] = "XDG_CACHE_HOME"


def draws():
    return draw_distinct_conditions(2295, CONDITIONS, 11)


def case_id(i: int, condition: str, value: str) -> str:
    name = BASES[(i - 1) % 3][0].removesuffix(".service")
    key = condition.split(": ", 1)[1]
    return f"fresh295-systemd-{name}-{slug(key)[:30].rstrip('-')}-{slug(value)[:20].rstrip('-')}"


def rocm(name: str, dropin: str) -> str:
    """The drop-in of a ROCm build: HIP_VISIBLE_DEVICES in place of CUDA_VISIBLE_DEVICES."""
    if "CUDA_VISIBLE_DEVICES" in dropin:
        return dropin.replace("CUDA_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES")
    return dropin + f"Environment=HIP_VISIBLE_DEVICES={GPU[name]}\n"


def with_port(name: str, unit: str, port: str, new: str) -> str:
    if name == "llama-swap.service":
        return unit.replace(f"--listen 127.0.0.1:{port}", f"--listen :{new}")
    return unit.replace(f"--port {port}", f"--port {new}")


def mutate(name: str, unit: str, condition: str, value: str):
    """The unit, its drop-ins (file name -> text), the other files shown (path -> text)."""
    stem, port, _user, _cmd = facts(name, unit)
    drop = {"override.conf": DROPINS[name]}
    shown: dict[str, str] = {}
    second = value == CONDITIONS[condition][1]
    at = "Group"  # hardening lines go after Group=

    def add(text: str) -> None:
        nonlocal unit
        unit = add_after(unit, at, text)

    if "PrivateDevices" in condition:
        if second:
            drop["override.conf"] = rocm(name, drop["override.conf"])
            add("PrivateDevices=yes\nSupplementaryGroups=render video")
        else:
            add("PrivateDevices=yes")
    elif "DevicePolicy" in condition:
        if second:
            add("DevicePolicy=strict\nDeviceAllow=char-nvidia-frontend rw")
        else:
            add(f"DevicePolicy=closed\nDeviceAllow=/dev/nvidia{GPU[name]} rw\nDeviceAllow=/dev/nvidiactl rw")
    elif "MemoryDenyWriteExecute" in condition:
        if second:
            drop["override.conf"] += "MemoryDenyWriteExecute=yes\nSystemCallArchitectures=native\n"
        else:
            add("MemoryDenyWriteExecute=yes")
    elif "/dev/shm closed" in condition:
        add("TemporaryFileSystem=/dev/shm:size=64M" if second else "InaccessiblePaths=/dev/shm")
    elif "IPC isolation" in condition:
        add("PrivateTmp=yes\nRemoveIPC=yes" if second else "PrivateIPC=yes")
    elif "made read-only" in condition:
        add("ProtectSystem=strict" if second else "ReadOnlyPaths=/opt")
    elif "path sandbox" in condition:
        if second:
            add("InaccessiblePaths=/opt/models /srv")
        else:
            workdir = next(ln for ln in unit.split("\n") if ln.startswith("WorkingDirectory="))
            add(f"TemporaryFileSystem=/opt:ro\nBindReadOnlyPaths={workdir.split('=', 1)[1]}")
    elif "ProcSubset" in condition:
        add("ProtectProc=invisible\nProcSubset=pid" if second else "ProcSubset=pid")
    elif "ProtectKernelModules" in condition:
        if second:
            add("ProtectKernelModules=yes\nProtectKernelTunables=yes\nNoNewPrivileges=yes")
        else:
            add("ProtectKernelModules=yes")
    elif "NUMAPolicy" in condition:
        add("NUMAPolicy=interleave\nCPUAffinity=numa" if second else "NUMAPolicy=bind\nNUMAMask=1")
    elif "LimitMEMLOCK" in condition:
        unit = set_line(unit, "LimitMEMLOCK", "LimitMEMLOCK=" + value.split(" ")[0].split("=")[1])
    elif "below 1024" in condition:
        if second:
            unit = with_port(name, unit, port, "80")
            add("AmbientCapabilities=CAP_NET_BIND_SERVICE\nPrivateUsers=yes")
        else:
            unit = with_port(name, unit, port, "443")
    elif "RestrictAddressFamilies" in condition:
        add(value.split(" (")[0])
    elif "device group" in condition:
        drop["override.conf"] = rocm(name, drop["override.conf"])
        if second:
            unit = unit.replace("User=vllm\n", "").replace("User=llama\n", "")
            unit = unit.replace("Group=vllm\n", "").replace("Group=llama\n", "")
            at = "Type"
            add("DynamicUser=yes\nSupplementaryGroups=render video")
    elif "EnvironmentFile" in condition:
        envfile = f"/etc/default/{stem}"
        if name != "vllm.service":
            unit = add_after(unit, "Environment", f"EnvironmentFile={envfile}")
        where = f"/srv/{stem}" if second else f"/var/cache/{stem}"
        shown[envfile] = f"# {stem}: local settings\n{CACHE_VAR[name]}={where}\n"
        add(f"ProtectSystem=strict\nStateDirectory={stem}" if second else "ProtectSystem=strict")
    elif "TasksMax" in condition:
        add(value)
    else:
        raise ValueError(condition)
    return unit, drop, shown


def log_for(root: Path, name: str, unit: str, drop: dict[str, str], shown: dict[str, str]) -> str:
    text = f"$ cat {ETC}/{name}\n{unit}"
    for fname, body in drop.items():
        text += f"$ cat {ETC}/{name}.d/{fname}\n{body}"
    for path, body in shown.items():
        text += f"$ cat {path}\n{body}"
    text += sh([SA, "verify", "--man=no", f"--root={root}", f"{ETC}/{name}"])
    return text + sh([SA, "security", "--offline=yes", f"--root={root}", f"{ETC}/{name}"])


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {case_id(i, c, v)}: {BASES[(i - 1) % 3][0]} | {c} | {v}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} | {why}")
        return
    if sys.argv[1:2] == ["--inputs"]:  # each case's files, written before any case ran
        for i, (c, v) in enumerate(kept, 1):
            name, base = BASES[(i - 1) % 3]
            unit, drop, shown = mutate(name, base, c, v)
            print(f"==== {case_id(i, c, v)}\n--- {name}\n{unit}", end="")
            for fname, body in drop.items():
                print(f"--- {name}.d/{fname}\n{body}", end="")
            for path, body in shown.items():
                print(f"--- {path}\n{body}", end="")
            print()
        return
    WORK.mkdir(exist_ok=True)
    wanted = set(sys.argv[1:])
    for i, (c, v) in enumerate(kept, 1):
        cid = case_id(i, c, v)
        if wanted and cid not in wanted:
            continue
        name, base = BASES[(i - 1) % 3]
        unit, drop, shown = mutate(name, base, c, v)
        root = WORK / cid
        build_root(root, name, unit, drop, shown)
        with open(root / "etc/group", "a") as groups:  # a GPU host's device groups (Debian's ids)
            groups.write("video:x:44:\nrender:x:105:\n")
        text = log_for(root, name, unit, drop, shown)
        (OUT / f"{cid}.log").write_text(text.rstrip() + "\n")
        print(f"{cid}: {len(text.splitlines())} lines", flush=True)


if __name__ == "__main__":
    main()
