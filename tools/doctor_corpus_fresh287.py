"""The 287th fresh batch of doctor's corpus (batch "fresh-287", made here): HARDENED SERVICE UNITS FOR AN LLM ENGINE,
TWO HARDENING OR RESOURCE DIRECTIVES COMBINED, a fourth round after fresh-228, fresh-236 and fresh-277 (of which only
their CONDITIONS lists and base units were read; the base units VLLM, LLAMA, SWAP and DROPINS are fresh-228's,
imported unchanged, and fresh-277's root builder is reused). Checked with this machine's real systemd 252
(252.39-1~deb12u2): `systemd-analyze verify` and `systemd-analyze security --offline=yes`, no running systemd.

CONDITIONS are written from man 5 systemd.exec and man 5 systemd.resource-control on this machine and the wording
compiled into /usr/lib/x86_64-linux-gnu/systemd/libsystemd-core-252.so and libsystemd-shared-252.so ('Ambient
capability %s requested but missing from bounding set, suppressing automatically.', 'Failed to parse system call,
ignoring: %s', 'Unknown system call group, ignoring: %s', 'Address family not supported, ignoring: %s', 'Failed to
parse device policy, ignoring: %s'; the man pages' rules that a SystemCallFilter=/RestrictAddressFamilies= line of
the other kind edits the list the first line began, that an empty assignment resets a list, that ~ is only valid as
the first character, that paths must be absolute, that SupplementaryGroups= is space-separated). Each condition is a
pair: a hardening or resource directive and the second directive that, with it, makes it wrong in a way the offline
tools can see (a parse warning of verify, or an exposure line of security where the user thought it hardened).

Procedure (fixed before the draw was printed and before any case ran): draw_distinct_conditions(2287, CONDITIONS, 11)
(r = random.Random(2287): condition = r.choice(list(CONDITIONS)), value = r.choice(its values); a condition drawn
before is drawn anew). Draw i (1-based) hardens base unit BASES[(i - 1) % 3]. Each case is a fresh root
/tmp/fresh287/<case id> (fresh-277's build_root: a copy of /usr/lib/systemd/system, the unit and drop-ins, stub
executables, passwd/group). The log is `$ cat` of each file written, then `systemd-analyze verify --man=no
--root=ROOT UNIT` and `systemd-analyze security --offline=yes --root=ROOT UNIT`, each with its whole output and
`# exit: N`. No ports, no engine started.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh287.py [--draws | --inputs | CASE_ID ...]
"""

from __future__ import annotations

import sys
from pathlib import Path

from corpus_tools import draw_distinct_conditions  # tools/ is on sys.path
from doctor_corpus_fresh228 import BASES, DROPINS, add_after, slug
from doctor_corpus_fresh277 import build_root, facts, sh

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
WORK = Path("/tmp/fresh287")
SA = "/usr/bin/systemd-analyze"
ETC = "/etc/systemd/system"

CONDITIONS = {
    "systemd.exec: SystemCallFilter= @system-service allow list with a ~ deny part": [
        "one line '@system-service ~@privileged @resources'",
        "first line '~@privileged @resources', drop-in line '@system-service'",
    ],
    "systemd.exec: AmbientCapabilities=CAP_IPC_LOCK (for --mlock) outside CapabilityBoundingSet=": [
        "CapabilityBoundingSet=CAP_NET_BIND_SERVICE",
        "CapabilityBoundingSet=~CAP_SYS_ADMIN CAP_IPC_LOCK",
    ],
    "systemd.exec: a drop-in adding CAP_IPC_LOCK empties CapabilityBoundingSet=": [
        "drop-in 'CapabilityBoundingSet=' then 'AmbientCapabilities=CAP_IPC_LOCK'",
        "drop-in 'CapabilityBoundingSet=' then 'CapabilityBoundingSet=+CAP_IPC_LOCK'",
    ],
    "systemd.exec: RestrictAddressFamilies= a ~ deny line then an allow line for AF_UNIX": [
        "unit '~AF_PACKET', drop-in 'AF_UNIX AF_INET AF_INET6'",
        "unit '~AF_PACKET AF_NETLINK', same unit 'AF_UNIX'",
    ],
    "systemd.resource-control: IPAddressDeny=any with IPAddressAllow= not a prefix": [
        "IPAddressAllow=127.0.0.1:PORT",
        "IPAddressAllow=192.168.1.0/24,127.0.0.1 (commas)",
    ],
    "systemd.resource-control: CPUQuota= with AllowedCPUs= written wrong": [
        "AllowedCPUs=0..7, CPUQuota=800%",
        "AllowedCPUs=0-7, CPUQuota=800 (no %)",
    ],
    "systemd.resource-control: Slice= of an LLM slice given without its suffix": [
        "Slice=llm (no .slice)",
        "Slice=llm-engines.service",
    ],
    "systemd.exec: LoadCredential= of the HF token with EnvironmentFile= in the credentials directory": [
        "EnvironmentFile=$CREDENTIALS_DIRECTORY/hf.env",
        "EnvironmentFile=${CREDENTIALS_DIRECTORY}/hf_token",
    ],
    "systemd.exec: PrivateDevices=yes with DeviceAllow= for the GPU written wrong": [
        "DeviceAllow=nvidia0 rw (no /dev/)",
        "DevicePolicy=strict-closed, DeviceAllow=/dev/nvidiactl rw",
    ],
    "systemd.exec: ProtectSystem=strict with ReadWritePaths= for the cache not absolute": [
        "ReadWritePaths=~/.cache/huggingface",
        "ReadWritePaths=$HF_HOME",
    ],
    "systemd.exec: NoNewPrivileges=yes with SupplementaryGroups= for the GPU written wrong": [
        "SupplementaryGroups=video,render",
        "SupplementaryGroups=video;render",
    ],
    "systemd.exec: DynamicUser=yes with StateDirectory=/CacheDirectory= climbing out": [
        "StateDirectory=NAME/../models",
        "CacheDirectory=../cache/NAME",
    ],
}


def draws():
    return draw_distinct_conditions(2287, CONDITIONS, 11)


def case_id(i: int, condition: str, value: str) -> str:
    name = BASES[(i - 1) % 3][0].removesuffix(".service")
    key = condition.split(": ", 1)[1]
    return f"fresh287-systemd-{name}-{slug(key)[:30].rstrip('-')}-{slug(value)[:20].rstrip('-')}"


def mutate(name: str, unit: str, condition: str, value: str):
    """The unit, its drop-ins (file name -> text), the other files shown (path -> text)."""
    stem, port, _user, _cmd = facts(name, unit)
    drop = {"override.conf": DROPINS[name]}
    shown: dict[str, str] = {}
    at = "Group"  # hardening lines go after Group=

    def add(text: str) -> None:
        nonlocal unit
        unit = add_after(unit, at, text)

    if "SystemCallFilter" in condition:
        if value.startswith("one line"):
            add("SystemCallFilter=@system-service ~@privileged @resources")
        else:
            add("SystemCallFilter=~@privileged @resources")
            drop["override.conf"] += "SystemCallFilter=@system-service\n"
    elif "outside CapabilityBoundingSet" in condition:
        add(f"{value}\nAmbientCapabilities=CAP_IPC_LOCK")
    elif "empties CapabilityBoundingSet" in condition:
        add("CapabilityBoundingSet=CAP_NET_BIND_SERVICE")
        second = value.split("then ")[1].strip("'")
        drop["override.conf"] += f"CapabilityBoundingSet=\n{second}\n"
    elif "RestrictAddressFamilies" in condition:
        if value.startswith("unit '~AF_PACKET',"):
            add("RestrictAddressFamilies=~AF_PACKET")
            drop["override.conf"] += "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6\n"
        else:
            add("RestrictAddressFamilies=~AF_PACKET AF_NETLINK\nRestrictAddressFamilies=AF_UNIX")
    elif "IPAddressDeny" in condition:
        allow = value.split(" (")[0].replace("PORT", port)
        add(f"IPAddressDeny=any\n{allow}")
    elif "CPUQuota" in condition:
        cpus, quota = value.split(" (")[0].split(", ")
        add(f"{quota}\n{cpus}")
    elif "Slice=" in condition:
        add(value.split(" (")[0])
        shown[f"{ETC}/llm.slice"] = (
            "[Unit]\nDescription=LLM engines\n\n[Slice]\nMemoryMax=90%\nCPUWeight=200\n"
        )
    elif "LoadCredential" in condition:
        add(f"LoadCredential=hf_token:/etc/llm/{stem}-hf.env\n{value}")
        shown[f"/etc/llm/{stem}-hf.env"] = "HF_TOKEN=hf_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n"
    elif "PrivateDevices" in condition:
        if value.startswith("DeviceAllow=nvidia0"):
            add("PrivateDevices=yes\nDeviceAllow=nvidia0 rw\nDeviceAllow=nvidiactl rw")
        else:
            add("PrivateDevices=yes\nDevicePolicy=strict-closed\nDeviceAllow=/dev/nvidiactl rw")
    elif "ProtectSystem" in condition:
        add(f"ProtectSystem=strict\n{value}")
    elif "SupplementaryGroups" in condition:
        add(f"NoNewPrivileges=yes\n{value}")
    elif "DynamicUser" in condition:
        unit = unit.replace("User=vllm\n", "").replace("User=llama\n", "").replace("Group=vllm\n", "")
        unit = unit.replace("Group=llama\n", "")
        at = "Type"
        add("DynamicUser=yes\n" + value.replace("NAME", stem))
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
        text = log_for(root, name, unit, drop, shown)
        (OUT / f"{cid}.log").write_text(text.rstrip() + "\n")
        print(f"{cid}: {len(text.splitlines())} lines", flush=True)


if __name__ == "__main__":
    main()
