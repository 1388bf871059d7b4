"""The 228th fresh batch of doctor's corpus (batch "fresh-228", made here): SERVICE UNITS A USER WRITES BY HAND FOR
AN LLM ENGINE (vLLM's api_server, llama-server, llama-swap), ONE DIRECTIVE WRONG, checked with the real
`systemd-analyze verify` of this machine (/usr/bin/systemd-analyze, systemd 252 (252.39-1~deb12u2)).

Three base units (vllm.service, llama-server.service, llama-swap.service, each with a drop-in override.conf) are
written as a user writes them; each verifies clean first (`--draws` does not run them; `base` does). CONDITIONS are
directives of systemd's own man pages on this machine (man 5 systemd.unit, systemd.service, systemd.exec,
systemd.kill, systemd.resource-control, systemd.timer; installed with man-db), each with value classes a user gets
wrong; they leave out what the earlier made-here systemd cases already hold (their file names only, `ls
tests/fixtures/doctor-corpus | grep -i systemd`: bad memory value, quoting, Restart= value, BindsTo= suffix,
CPUAffinity=, CPUQuota=, DeviceAllow=, a drop-in's second ExecStart=, DynamicUser StateDirectory=, Environment=
assignments / quotes / spaces, EnvironmentFile= relative, a missing or relative or bare ExecStart=, a lost
backslash, ${VAR} paths, ~ in ExecStartPre= / ReadWritePaths=, inline comments, KillSignal=, LimitNOFILE= typo,
LimitMEMLOCK= value, MemoryLimit=, a misspelt key, Nice=, OOMScoreAdjust=, Requires=/WantedBy= in a wrong section,
a lowercase section name, [Service] keys in [Unit], StandardOutput= relative, SupplementaryGroups= commas,
TimeoutStartSec=infinite, User= missing/invalid, WorkingDirectory= missing/relative, Type=oneshot Restart=always).

Procedure (fixed before the draw was printed and before any case ran): draw_distinct_conditions(2228, CONDITIONS, 10)
(r = random.Random(2228): condition = r.choice(list(CONDITIONS)), value = r.choice(its values); a condition drawn
before is drawn anew). Draw i (1-based) breaks base unit BASES[(i - 1) % 3]. Each case is a fresh root
/tmp/fresh228/<case id> holding a copy of /usr/lib/systemd/system, the unit and its drop-in under etc/systemd/system,
stub executables (`#!/bin/sh`) at the unit's absolute Exec paths and the EnvironmentFile=; systemd-analyze runs with
--root on it (no unit of this machine is touched; verify does not look users up). The log is `$ cat` of the unit
(and drop-in, and timer), `$ systemd-analyze verify --man=no --root=... /etc/systemd/system/NAME` and its whole
output, `# exit: N`; for a fault that only shows at run time, the systemd-analyze command a user would run next
(timespan, calendar, condition). No ports.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh228.py [--draws | --inputs | base | CASE_ID ...]
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from corpus_tools import draw_distinct_conditions  # tools/ is on sys.path

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
WORK = Path("/tmp/fresh228")
SA = "/usr/bin/systemd-analyze"

CONDITIONS = {
    "systemd.unit: dependency named without its unit suffix": [
        "After=network-online (no .target)",
        "Wants=nvidia-persistenced (no .service)",
    ],
    "systemd.unit: [Unit] section header misspelt": ["[Uint]", "[Units]"],
    "systemd.unit: drop-in override.conf without its [Service] header": [
        "Environment=CUDA_VISIBLE_DEVICES=0,1 alone",
        "LimitMEMLOCK=infinity alone",
    ],
    "systemd.unit: a % left unescaped (specifier)": [
        "--api-key Pa%5word in ExecStart=",
        "ExecStartPre=/bin/sh -c with date +%F",
    ],
    "systemd.unit: StartLimitIntervalSec= put in [Service]": [
        "StartLimitIntervalSec=300",
        "StartLimitIntervalSec=10min",
    ],
    "systemd.unit: ConditionPathExists= on a model path with a typo (run time)": [
        "the GGUF's name in the wrong case",
        "an HF snapshot directory without its models-- prefix",
    ],
    "systemd.timer: OnCalendar= of a nightly restart timer the parser refuses": [
        "OnCalendar=daily 03:00",
        "OnCalendar=Mon..Fri 3am",
    ],
    "systemd.service: TimeoutStartSec= in a wrong unit": [
        "30M (M is months; meant minutes)",
        "15 mins",
    ],
    "systemd.service: RestartSec= with a unit systemd does not know": ["5sek", "10 secs"],
    "systemd.exec: a boolean word systemd does not take": ["NoNewPrivileges=enabled", "PrivateTmp=True"],
    "systemd.exec: CPUSchedulingPolicy= a policy it does not have": ["realtime", "round-robin"],
    "systemd.exec: AmbientCapabilities= capability name misspelt (for mlock)": [
        "CAP_IPC_LOK",
        "IPC_LOCK (no CAP_ prefix)",
    ],
    "systemd.exec: ReadWritePaths= a relative path": ["models", "./cache"],
    "systemd.exec: UMask= not in octal": ["u=rwx,g=rx,o=", "0o022"],
    "systemd.exec: LimitMEMLOCK= soft above hard": ["infinity:64M", "64G:8G"],
    "systemd.kill: KillMode= a mode it does not have": ["graceful", "group"],
    "systemd.resource-control: CPUWeight= out of range": ["0", "20000"],
    "systemd.resource-control: MemoryMax=/MemoryHigh= percent over 100": [
        "MemoryMax=120%",
        "MemoryHigh=150%",
    ],
}

VLLM = """[Unit]
Description=vLLM OpenAI-compatible server (Qwen2.5-7B-Instruct)
After=network-online.target
Wants=network-online.target

[Service]
Type=simple
User=vllm
Group=vllm
WorkingDirectory=/opt/vllm
EnvironmentFile=/etc/default/vllm
Environment=HF_HOME=/opt/vllm/hf-cache
Environment=VLLM_NO_USAGE_STATS=1
ExecStart=/opt/vllm/.venv/bin/python -m vllm.entrypoints.openai.api_server \\
    --model Qwen/Qwen2.5-7B-Instruct \\
    --served-model-name qwen2.5-7b \\
    --host 0.0.0.0 --port 8000 \\
    --max-model-len 8192 \\
    --gpu-memory-utilization 0.90
Restart=on-failure
RestartSec=10
TimeoutStartSec=900
LimitMEMLOCK=infinity
LimitNOFILE=65536

[Install]
WantedBy=multi-user.target
"""

LLAMA = """[Unit]
Description=llama.cpp server (Qwen2.5-7B-Instruct Q4_K_M)
After=network-online.target
Wants=network-online.target

[Service]
Type=simple
User=llama
Group=llama
WorkingDirectory=/opt/llama.cpp
Environment=LLAMA_ARG_THREADS=8
ExecStart=/opt/llama.cpp/build/bin/llama-server \\
    -m /opt/models/qwen2.5-7b-instruct-q4_k_m.gguf \\
    --host 127.0.0.1 --port 8080 \\
    -c 8192 -ngl 99 --mlock
Restart=always
RestartSec=5
TimeoutStartSec=300
LimitMEMLOCK=infinity

[Install]
WantedBy=multi-user.target
"""

SWAP = """[Unit]
Description=llama-swap model router
After=network-online.target
Wants=network-online.target

[Service]
Type=simple
User=llama
Group=llama
WorkingDirectory=/opt/llama-swap
Environment=PATH=/opt/llama.cpp/build/bin:/usr/local/bin:/usr/bin:/bin
ExecStart=/usr/local/bin/llama-swap --config /etc/llama-swap/config.yaml --listen 127.0.0.1:9292
Restart=on-failure
RestartSec=5
TimeoutStartSec=120
LimitMEMLOCK=infinity

[Install]
WantedBy=multi-user.target
"""

DROPINS = {
    "vllm.service": "[Service]\nEnvironment=CUDA_VISIBLE_DEVICES=0\n",
    "llama-server.service": "[Service]\nEnvironment=CUDA_VISIBLE_DEVICES=1\nRestartSec=15\n",
    "llama-swap.service": "[Service]\nTimeoutStopSec=60\n",
}
BASES = [("vllm.service", VLLM), ("llama-server.service", LLAMA), ("llama-swap.service", SWAP)]
MODEL_FILES = {  # what exists on disk, for the ConditionPathExists= cases
    "gguf": "/opt/models/Qwen2.5-7B-Instruct-Q4_K_M.gguf",
    "snapshot": "/opt/hf/hub/models--Qwen--Qwen2.5-7B-Instruct",
}


def draws():
    return draw_distinct_conditions(2228, CONDITIONS, 10)


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def case_id(i: int, condition: str, value: str) -> str:
    name = BASES[(i - 1) % 3][0].removesuffix(".service")
    key = condition.split(": ", 1)[1]
    return f"fresh228-systemd-{name}-{slug(key)[:30].rstrip('-')}-{slug(value)[:20].rstrip('-')}"


def set_line(text: str, key: str, new: str) -> str:
    """Replace the first KEY= line with NEW (or drop it when NEW is empty)."""
    lines = text.split("\n")
    at = next(i for i, ln in enumerate(lines) if ln.startswith(key + "="))
    lines[at : at + 1] = [new] if new else []
    return "\n".join(lines)


def add_after(text: str, key: str, new: str) -> str:
    lines = text.split("\n")
    at = next(i for i, ln in enumerate(lines) if ln.startswith(key + "="))
    lines.insert(at + 1, new)
    return "\n".join(lines)


def mutate(name: str, unit: str, dropin: str, condition: str, value: str):
    """The unit, drop-in, optional timer text and the run-time commands (argv lists) for one drawn fault."""
    timer, extra, made = None, [], []
    first = value.split(" ")[0]
    if "unit suffix" in condition:
        if value.startswith("After="):
            unit = set_line(unit, "After", "After=network-online")
        else:
            unit = add_after(unit, "Wants", "Wants=nvidia-persistenced")
            unit = add_after(unit, "After", "After=nvidia-persistenced")
    elif "[Unit] section header" in condition:
        unit = unit.replace("[Unit]\n", first + "\n", 1)
    elif "drop-in" in condition:
        dropin = first + "\n"
    elif "unescaped" in condition:
        if "api-key" in value:
            unit = re.sub(
                r"(ExecStart=.*?)(\n\S)", r"\1 \\\n    --api-key Pa%5word\2", unit, count=1, flags=re.S
            )
        else:
            unit = add_after(
                unit,
                "WorkingDirectory",
                "ExecStartPre=/bin/sh -c 'mkdir -p /var/log/llm/$(date +%F)'",
            )
    elif "StartLimitIntervalSec" in condition:
        unit = add_after(unit, "RestartSec", value)
        unit = add_after(unit, value.split("=")[0], "StartLimitBurst=5")
    elif "ConditionPathExists" in condition:
        if "GGUF" in value:
            cond, made = "/opt/models/qwen2.5-7b-instruct-q4_k_m.gguf", [MODEL_FILES["gguf"]]
        else:
            cond, made = "/opt/hf/hub/Qwen--Qwen2.5-7B-Instruct", [MODEL_FILES["snapshot"] + "/"]
        unit = add_after(unit, "Wants", f"ConditionPathExists={cond}")
        extra = [[SA, "condition", f"ConditionPathExists={cond}"]]
    elif "OnCalendar" in condition:
        spec = value.split("=", 1)[1]
        timer = (
            "[Unit]\nDescription=Restart the engine every night\n\n[Timer]\n"
            f"OnCalendar={spec}\nPersistent=true\nUnit=engine-restart.service\n\n"
            "[Install]\nWantedBy=timers.target\n"
        )
        extra = [[SA, "calendar", spec]]
    elif "TimeoutStartSec" in condition:
        spec = value.split(" (")[0]
        unit = set_line(unit, "TimeoutStartSec", f"TimeoutStartSec={spec}")
        extra = [[SA, "timespan", spec]]
    elif "RestartSec" in condition:
        unit = set_line(unit, "RestartSec", f"RestartSec={value}")
    elif "boolean" in condition:
        unit = add_after(unit, "LimitMEMLOCK", value)
    elif "CPUSchedulingPolicy" in condition:
        unit = add_after(unit, "LimitMEMLOCK", f"CPUSchedulingPolicy={first}")
    elif "AmbientCapabilities" in condition:
        unit = add_after(unit, "LimitMEMLOCK", f"AmbientCapabilities={first}")
    elif "ReadWritePaths" in condition:
        unit = add_after(unit, "WorkingDirectory", "ProtectSystem=strict")
        unit = add_after(unit, "ProtectSystem", f"ReadWritePaths={value}")
    elif "UMask" in condition:
        unit = add_after(unit, "Group", f"UMask={value}")
    elif "soft above hard" in condition:
        unit = set_line(unit, "LimitMEMLOCK", f"LimitMEMLOCK={value}")
    elif "KillMode" in condition:
        unit = add_after(unit, "TimeoutStartSec", f"KillMode={value}")
    elif "CPUWeight" in condition:
        unit = add_after(unit, "LimitMEMLOCK", f"CPUWeight={value}")
    elif "percent over 100" in condition:
        unit = add_after(unit, "LimitMEMLOCK", value)
    else:
        raise ValueError(condition)
    return unit, dropin, timer, extra, made


def stub(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\nexit 0\n")
    path.chmod(0o755)


def build_root(root: Path, name: str, unit: str, dropin: str, timer: str | None, made: list[str]) -> None:
    if root.exists():
        shutil.rmtree(root)
    (root / "usr/lib/systemd").mkdir(parents=True)
    shutil.copytree("/usr/lib/systemd/system", root / "usr/lib/systemd/system", symlinks=True)
    etc = root / "etc/systemd/system"
    (etc / f"{name}.d").mkdir(parents=True)
    (etc / name).write_text(unit)
    (etc / f"{name}.d" / "override.conf").write_text(dropin)
    if timer:
        (etc / "engine-restart.timer").write_text(timer)
        (etc / "engine-restart.service").write_text(
            f"[Unit]\nDescription=Restart {name}\n\n[Service]\nType=oneshot\n"
            f"ExecStart=/bin/systemctl restart {name}\n"
        )
    for m in re.finditer(r"^ExecStart\w*=[-@:+!]*(/\S+)", unit + "\n" + (timer or ""), re.M):
        stub(root / m.group(1).lstrip("/"))
    stub(root / "bin/systemctl")
    for m in re.finditer(r"^EnvironmentFile=-?(/\S+)", unit, re.M):
        f = root / m.group(1).lstrip("/")
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text("VLLM_LOGGING_LEVEL=INFO\n")
    for p in made:
        (root / p.lstrip("/")).parent.mkdir(parents=True, exist_ok=True)
        if p.endswith("/"):
            (root / p.lstrip("/")).mkdir(parents=True, exist_ok=True)
        else:
            (root / p.lstrip("/")).write_bytes(b"GGUF")


def sh(argv: list[str]) -> str:
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120, check=False)
    out = p.stdout.decode("utf-8", "replace")
    nl = "" if out.endswith("\n") or not out else "\n"
    return f"$ {shlex.join(argv).replace(SA, 'systemd-analyze')}\n{out}{nl}# exit: {p.returncode}\n"


def log_for(root: Path, name: str, unit: str, dropin: str, timer: str | None, extra: list) -> str:
    text = f"$ cat /etc/systemd/system/{name}\n{unit}"
    text += f"$ cat /etc/systemd/system/{name}.d/override.conf\n{dropin}"
    files = [f"/etc/systemd/system/{name}"]
    if timer:
        text += f"$ cat /etc/systemd/system/engine-restart.timer\n{timer}"
        files.append("/etc/systemd/system/engine-restart.timer")
    text += sh([SA, "verify", "--man=no", f"--root={root}", *files])
    for argv in extra:
        if argv[1] == "condition":
            argv = [argv[0], "condition", f"--root={root}", *argv[2:]]
        text += sh(argv)
    return text


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {case_id(i, c, v)}: {BASES[(i - 1) % 3][0]} | {c} | {v}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} | {why}")
        return
    if sys.argv[1:2] == ["--inputs"]:  # each case's files and run-time commands, written before any case ran
        for i, (c, v) in enumerate(kept, 1):
            name, base = BASES[(i - 1) % 3]
            unit, dropin, timer, extra, made = mutate(name, base, DROPINS[name], c, v)
            print(f"==== {case_id(i, c, v)}\n--- {name}\n{unit}--- {name}.d/override.conf\n{dropin}", end="")
            print(f"--- timer\n{timer}" if timer else "", end="")
            print(f"--- run-time commands: {extra}\n--- files made: {made}\n")
        return
    WORK.mkdir(exist_ok=True)
    if sys.argv[1:2] == ["base"]:
        for name, unit in BASES:
            root = WORK / f"base-{name}"
            build_root(root, name, unit, DROPINS[name], None, [])
            print(log_for(root, name, unit, DROPINS[name], None, []))
        return
    wanted = set(sys.argv[1:])
    for i, (c, v) in enumerate(kept, 1):
        cid = case_id(i, c, v)
        if wanted and cid not in wanted:
            continue
        name, base = BASES[(i - 1) % 3]
        unit, dropin, timer, extra, made = mutate(name, base, DROPINS[name], c, v)
        root = WORK / cid
        build_root(root, name, unit, dropin, timer, made)
        text = log_for(root, name, unit, dropin, timer, extra)
        (OUT / f"{cid}.log").write_text(text.rstrip() + "\n")
        print(f"{cid}: {len(text.splitlines())} lines", flush=True)


if __name__ == "__main__":
    main()
