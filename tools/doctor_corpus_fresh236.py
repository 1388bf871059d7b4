"""The 236th fresh batch of doctor's corpus (batch "fresh-236", made here): SERVICE UNITS A USER WRITES BY HAND FOR
AN LLM ENGINE, a SECOND round after fresh-228: the same three base units (vllm.service, llama-server.service,
llama-swap.service, each with its drop-in override.conf), imported unchanged from tools/doctor_corpus_fresh228.py
(VLLM, LLAMA, SWAP, DROPINS, BASES), now with the files a user writes beside them (a .socket for socket activation, a
.path, a .timer, a .mount, a tmpfiles.d line for the model cache, a sysusers.d line for the engine user), one
directive wrong per case, checked with this machine's real tools (systemd 252 (252.39-1~deb12u2)).

CONDITIONS come from systemd 252's man pages on this machine (man 5 systemd.socket, systemd.path, systemd.timer,
systemd.unit, systemd.service, systemd.exec, systemd.resource-control, tmpfiles.d, sysusers.d); each is one thing
a user sets wrong, with value classes. Of fresh-228 only its CONDITIONS list, base units and draw
(tools/doctor_corpus_fresh228_draw.txt) were read; no condition here is one it had, drawn or not (nor one of the
earlier systemd cases its docstring lists by file name).

Procedure (fixed before the draw was printed and before any case ran): draw_distinct_conditions(2236, CONDITIONS, 10)
(r = random.Random(2236): condition = r.choice(list(CONDITIONS)), value = r.choice(its values); a condition drawn
before is drawn anew). Draw i (1-based) breaks base unit BASES[(i - 1) % 3]. Each case is a fresh root
/tmp/fresh236/<case id>: a copy of /usr/lib/systemd/system, the unit and drop-in and the companion files under etc/,
stub executables, an etc/passwd and etc/group holding the engine user (not for the sysusers.d cases, whose line makes
it). The log is `$ cat` of each file written, then each command as run (shlex.join) with its whole output and `#
exit: N`: `systemd-analyze verify --man=no --root=ROOT` on the unit files, then for a fault that only shows elsewhere
the command a user runs (systemd-tmpfiles --create --root, systemd-sysusers --dry-run --root, each given the file's
base name, which they look up under the root's config dirs; systemd-escape --path --suffix=mount). No ports, no engine started.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh236.py [--draws | --inputs | base | CASE_ID ...]
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from corpus_tools import draw_distinct_conditions  # tools/ is on sys.path
from doctor_corpus_fresh228 import BASES, DROPINS, add_after, set_line, slug, stub

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
WORK = Path("/tmp/fresh236")
SA = "/usr/bin/systemd-analyze"

CONDITIONS = {
    "systemd.socket: ListenStream= not an address the parser takes": ["localhost:PORT", "127.0.0.1:PORT0"],
    "systemd.socket: Accept=yes in front of a plain (non-template) service": [
        "Accept=yes",
        "Accept=yes with Service=NAME.service",
    ],
    "systemd.socket: the socket's service name does not match": [
        "NAME-api.socket with no Service=",
        "Service=NAME (no .service)",
    ],
    "tmpfiles.d: the model-cache line a parser refuses": ["mode rwxrwxr-x", "age 30 days (a space)"],
    "sysusers.d: the engine user's line refused": ["GECOS with spaces unquoted", "ID column a user name"],
    "systemd.exec: Environment= written expecting $VAR expansion": [
        "Environment=PATH=$PATH:/opt/bin",
        "Environment=HF_HOME=${HOME}/.cache/huggingface",
    ],
    "systemd.service: ExecStartPre= a relative path": ["scripts/fetch-model.sh", "./download-model.sh"],
    "systemd.unit: a mount unit named without systemd-escape --path": [
        "mount unit file mnt-llm-models.mount for Where=/mnt/llm-models",
        "Requires=mnt-llm-models.mount beside the escaped mount unit",
    ],
    "systemd.unit: OnFailure= a template without an instance": [
        "OnFailure=notify-failure@.service",
        "OnFailure=notify-failure@",
    ],
    "systemd.service: Type= notify for an engine that never notifies": ["Type=notify", "Type=notify-reload"],
    "systemd.exec: LoadCredential= written wrong": [
        "/etc/llm/hf_token (no ID)",
        "HF_TOKEN=/etc/llm/hf_token ('=' for ':')",
    ],
    "systemd.path: the model-watch .path unit's path written wrong": [
        "PathModified=/opt/models/*.gguf (a glob)",
        "PathChanged=models (relative)",
    ],
    "systemd.exec: CacheDirectory=/StateDirectory= an absolute path": [
        "CacheDirectory=/var/cache/NAME",
        "StateDirectory=/var/lib/NAME",
    ],
    "systemd.exec: ProtectHome= a value it does not have": ["read_only", "readonly"],
    "systemd.resource-control: TasksMax= a word it does not take": ["unlimited", "none"],
    "systemd.timer: the restart timer has no trigger": [
        "Persistent=true without OnCalendar=",
        "OnCalendar= empty",
    ],
    "systemd.unit: RequiresMountsFor= a relative path": ["models", "opt/models"],
}

HOME = {
    "vllm.service": "/opt/vllm",
    "llama-server.service": "/opt/llama.cpp",
    "llama-swap.service": "/opt/llama-swap",
}
MOUNT_OK = "mnt-llm\\x2dmodels.mount"


def draws():
    return draw_distinct_conditions(2236, CONDITIONS, 10)


def case_id(i: int, condition: str, value: str) -> str:
    name = BASES[(i - 1) % 3][0].removesuffix(".service")
    key = condition.split(": ", 1)[1]
    return f"fresh236-systemd-{name}-{slug(key)[:30].rstrip('-')}-{slug(value)[:20].rstrip('-')}"


def facts(name: str, unit: str):
    """The base's stem, port and user, read off its own text."""
    stem = name.removesuffix(".service")
    port = re.search(r"(?:--port |--listen \S+:)(\d+)", unit).group(1)
    user = re.search(r"^User=(\S+)", unit, re.M).group(1)
    return stem, port, user


def companions(name: str, unit: str) -> dict[str, str]:
    """The clean files a user writes beside the unit (path under the root -> text); `base` checks them clean."""
    stem, port, user = facts(name, unit)
    restart = f"[Unit]\nDescription=Restart {name}\n\n[Service]\nType=oneshot\nExecStart=/bin/systemctl restart {name}\n"
    return {
        f"/etc/systemd/system/{stem}.socket": (
            f"[Unit]\nDescription=Socket for {stem}\n\n[Socket]\nListenStream=127.0.0.1:{port}\n\n"
            "[Install]\nWantedBy=sockets.target\n"
        ),
        f"/etc/systemd/system/{stem}-models.path": (
            f"[Unit]\nDescription=Restart {stem} when a model changes\n\n[Path]\nPathModified=/opt/models\n"
            f"Unit={stem}-restart.service\n\n[Install]\nWantedBy=multi-user.target\n"
        ),
        f"/etc/systemd/system/{stem}-restart.timer": (
            f"[Unit]\nDescription=Restart {stem} every night\n\n[Timer]\nOnCalendar=*-*-* 03:00:00\n"
            f"Persistent=true\nUnit={stem}-restart.service\n\n[Install]\nWantedBy=timers.target\n"
        ),
        f"/etc/systemd/system/{stem}-restart.service": restart,
        f"/etc/systemd/system/{MOUNT_OK}": (
            "[Unit]\nDescription=Model disk\n\n[Mount]\nWhat=/dev/disk/by-label/models\nWhere=/mnt/llm-models\n"
            "Type=ext4\nOptions=ro\n\n[Install]\nWantedBy=multi-user.target\n"
        ),
        "/etc/systemd/system/notify-failure@.service": (
            "[Unit]\nDescription=Mail about a failed %i\n\n[Service]\nType=oneshot\n"
            "ExecStart=/usr/local/bin/notify-failure %i\n"
        ),
        f"/etc/tmpfiles.d/{stem}.conf": f"d /var/cache/{stem} 0775 {user} {user} 30d\n",
        f"/etc/sysusers.d/{stem}.conf": f'u {user} - "{stem} engine" {HOME[name]}\n',
    }


def mutate(name: str, unit: str, condition: str, value: str):
    """The unit, the companion files shown (path -> text), the unit files verified and the extra argv lists."""
    stem, port, user = facts(name, unit)
    comp = companions(name, unit)
    shown: dict[str, str] = {}
    verify = [f"/etc/systemd/system/{name}"]
    extra: list[list[str]] = []
    sock = f"/etc/systemd/system/{stem}.socket"
    if "ListenStream" in condition:
        addr = value.replace("PORT", port)
        shown[sock] = comp[sock].replace(f"ListenStream=127.0.0.1:{port}", f"ListenStream={addr}")
    elif "Accept=yes" in condition:
        add = "Accept=yes" + (f"\nService={name}" if "Service=" in value else "")
        shown[sock] = comp[sock].replace("\n\n[Install]", f"\n{add}\n\n[Install]")
    elif "service name does not match" in condition:
        if value.startswith("NAME-api"):
            shown[f"/etc/systemd/system/{stem}-api.socket"] = comp.pop(sock)
        else:
            shown[sock] = comp[sock].replace("\n\n[Install]", f"\nService={stem}\n\n[Install]")
    elif condition.startswith("tmpfiles.d"):
        path = f"/etc/tmpfiles.d/{stem}.conf"
        if value.startswith("mode"):
            shown[path] = comp[path].replace("0775", "rwxrwxr-x")
        else:
            shown[path] = comp[path].replace("30d", "30 days")
        extra.append(["/usr/bin/systemd-tmpfiles", "--create", "--root=ROOT", f"{stem}.conf"])
    elif condition.startswith("sysusers.d"):
        path = f"/etc/sysusers.d/{stem}.conf"
        if value.startswith("GECOS"):
            shown[path] = comp[path].replace(f'"{stem} engine"', f"{stem} engine")
        else:
            shown[path] = comp[path].replace(f"u {user} - ", f"u {user} {user} ")
        extra.append(["/usr/bin/systemd-sysusers", "--dry-run", "--root=ROOT", f"{stem}.conf"])
    elif "Environment=" in condition:
        unit = add_after(unit, "Group", value)
    elif "ExecStartPre" in condition:
        unit = add_after(unit, "WorkingDirectory", f"ExecStartPre={value}")
    elif "mount unit" in condition:
        if value.startswith("mount unit file"):
            mount = "/etc/systemd/system/mnt-llm-models.mount"
            shown[mount] = comp[f"/etc/systemd/system/{MOUNT_OK}"]
        else:
            mount = f"/etc/systemd/system/{MOUNT_OK}"
            shown[mount] = comp[mount]
        unit = add_after(unit, "Wants", "Requires=mnt-llm-models.mount")
        unit = add_after(unit, "Requires", "After=mnt-llm-models.mount")
        verify.append(mount)
        extra.append(["/usr/bin/systemd-escape", "--path", "--suffix=mount", "/mnt/llm-models"])
    elif "OnFailure" in condition:
        tpl = "/etc/systemd/system/notify-failure@.service"
        shown[tpl] = comp[tpl]
        unit = add_after(unit, "Wants", value)
    elif "Type=" in condition:
        unit = set_line(unit, "Type", value)
    elif "LoadCredential" in condition:
        unit = add_after(unit, "Group", f"LoadCredential={value.split(' (')[0]}")
    elif condition.startswith("systemd.path"):
        path = f"/etc/systemd/system/{stem}-models.path"
        rs = f"/etc/systemd/system/{stem}-restart.service"
        shown[path] = comp[path].replace("PathModified=/opt/models", value.split(" (")[0])
        shown[rs] = comp[rs]
        verify.append(path)
    elif "CacheDirectory" in condition:
        unit = add_after(unit, "Group", value.replace("NAME", stem))
    elif "ProtectHome" in condition:
        unit = add_after(unit, "Group", f"ProtectHome={value}")
    elif "TasksMax" in condition:
        unit = add_after(unit, "LimitMEMLOCK", f"TasksMax={value}")
    elif condition.startswith("systemd.timer"):
        timer = f"/etc/systemd/system/{stem}-restart.timer"
        rs = f"/etc/systemd/system/{stem}-restart.service"
        new = "" if value.startswith("Persistent") else "OnCalendar=\n"
        shown[timer] = comp[timer].replace("OnCalendar=*-*-* 03:00:00\n", new)
        shown[rs] = comp[rs]
        verify.append(timer)
    elif "RequiresMountsFor" in condition:
        unit = add_after(unit, "Wants", f"RequiresMountsFor={value}")
    else:
        raise ValueError(condition)
    if "socket" in condition.split(":")[0]:
        verify += [p for p in shown if p.endswith(".socket")]
    return unit, shown, verify, extra


def write(root: Path, path: str, text: str) -> None:
    f = root / path.lstrip("/")
    f.parent.mkdir(parents=True, exist_ok=True)
    f.write_text(text)


def build_root(root: Path, name: str, unit: str, shown: dict[str, str], condition: str) -> None:
    if root.exists():
        shutil.rmtree(root)
    (root / "usr/lib/systemd").mkdir(parents=True)
    shutil.copytree("/usr/lib/systemd/system", root / "usr/lib/systemd/system", symlinks=True)
    write(root, f"/etc/systemd/system/{name}", unit)
    write(root, f"/etc/systemd/system/{name}.d/override.conf", DROPINS[name])
    for path, text in shown.items():
        write(root, path, text)
    for m in re.finditer(r"^Exec\w*=[-@:+!]*(/\S+)", "\n".join([unit, *shown.values()]), re.M):
        stub(root / m.group(1).lstrip("/"))
    stub(root / "bin/systemctl")
    for m in re.finditer(r"^EnvironmentFile=-?(/\S+)", unit, re.M):
        write(root, m.group(1), "VLLM_LOGGING_LEVEL=INFO\n")
    user = facts(name, unit)[2]
    users = (
        "" if condition.startswith("sysusers.d") else f"{user}:x:990:990::{HOME[name]}:/usr/sbin/nologin\n"
    )
    groups = "" if condition.startswith("sysusers.d") else f"{user}:x:990:\n"
    write(root, "/etc/passwd", "root:x:0:0:root:/root:/bin/bash\n" + users)
    write(root, "/etc/group", "root:x:0:\n" + groups)


def sh(argv: list[str]) -> str:
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120, check=False)
    out = p.stdout.decode("utf-8", "replace")
    nl = "" if out.endswith("\n") or not out else "\n"
    return f"$ {shlex.join(argv)}\n{out}{nl}# exit: {p.returncode}\n"


def log_for(root: Path, name: str, unit: str, shown: dict[str, str], verify: list[str], extra: list) -> str:
    text = f"$ cat /etc/systemd/system/{name}\n{unit}"
    text += f"$ cat /etc/systemd/system/{name}.d/override.conf\n{DROPINS[name]}"
    for path, body in shown.items():
        text += f"$ cat {shlex.quote(path)}\n{body}"
    text += sh([SA, "verify", "--man=no", f"--root={root}", *verify])
    for argv in extra:
        text += sh([a.replace("ROOT", str(root)) for a in argv])
    return text


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {case_id(i, c, v)}: {BASES[(i - 1) % 3][0]} | {c} | {v}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} | {why}")
        return
    if sys.argv[1:2] == ["--inputs"]:  # each case's files and commands, written before any case ran
        for i, (c, v) in enumerate(kept, 1):
            name, base = BASES[(i - 1) % 3]
            unit, shown, verify, extra = mutate(name, base, c, v)
            print(f"==== {case_id(i, c, v)}\n--- {name}\n{unit}", end="")
            for path, body in shown.items():
                print(f"--- {path}\n{body}", end="")
            print(f"--- verify: {verify}\n--- commands: {extra}\n")
        return
    WORK.mkdir(exist_ok=True)
    if sys.argv[1:2] == ["base"]:  # the clean bases and every clean companion, before any case ran
        for name, unit in BASES:
            root = WORK / f"base-{name}"
            comp = companions(name, unit)
            build_root(root, name, unit, comp, "")
            stem = name.removesuffix(".service")
            units = [p for p in comp if p.startswith("/etc/systemd/system/") and "@" not in p]
            extra = [
                ["/usr/bin/systemd-tmpfiles", "--create", "--root=ROOT", f"{stem}.conf"],
                ["/usr/bin/systemd-sysusers", "--dry-run", "--root=ROOT", f"{stem}.conf"],
            ]
            print(log_for(root, name, unit, {}, [f"/etc/systemd/system/{name}", *units], extra))
        return
    wanted = set(sys.argv[1:])
    for i, (c, v) in enumerate(kept, 1):
        cid = case_id(i, c, v)
        if wanted and cid not in wanted:
            continue
        name, base = BASES[(i - 1) % 3]
        unit, shown, verify, extra = mutate(name, base, c, v)
        root = WORK / cid
        build_root(root, name, unit, shown, c)
        text = log_for(root, name, unit, shown, verify, extra)
        (OUT / f"{cid}.log").write_text(text.rstrip() + "\n")
        print(f"{cid}: {len(text.splitlines())} lines", flush=True)


if __name__ == "__main__":
    main()
