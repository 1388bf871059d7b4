"""The 277th fresh batch of doctor's corpus (batch "fresh-277", made here): SERVICE UNITS FOR AN LLM ENGINE, a THIRD
round after fresh-228 and fresh-236, now TWO SETTINGS THAT MEET: the unit with its drop-ins, its EnvironmentFile=, a
companion unit (a .socket, a Type=oneshot model download, the other engine), where each setting alone is fine and the
pair is the fault. The three base units and drop-ins are fresh-228's, imported unchanged (VLLM, LLAMA, SWAP, DROPINS,
BASES); checked with this machine's real systemd 252 (252.39-1~deb12u2) `systemd-analyze verify`.

CONDITIONS are written from systemd 252's own wording: the man pages on this machine (man 5 systemd.service,
systemd.exec, systemd.unit, systemd.socket, systemd.kill) and the refusals compiled into this machine's
/usr/lib/x86_64-linux-gnu/systemd/libsystemd-core-252.so (service_verify's 'more than one ExecStart=', 'no ExecStart=',
'PAM enabled. Kill mode', 'RuntimeMaxSec= ... Type=oneshot', 'RestartForceExitStatus= ... oneshot',
'RuntimeRandomizedExtraSec= ... no RuntimeMaxSec='; unit.c's 'JobRunningTimeoutSec= is greater than JobTimeoutSec=',
'More than one %s dependencies specified but %sisolate set'; socket.c's 'symlinks set but none or more than one
node'; transaction.c's 'conflicting jobs'). Three conditions (DynamicUser= with User=, ProtectHome= with a model under
/home, an EnvironmentFile= line overriding Environment=) only bite at run time, which a root-less verify cannot show.
Of fresh-228 and fresh-236 only their CONDITIONS lists and base units were read; no pair here is one of theirs (nor
one of the earlier made-here systemd cases fresh-228's docstring lists by name: the second ExecStart= here comes from
two drop-ins, one of which does clear it).

Procedure (fixed before the draw was printed and before any case ran): draw_distinct_conditions(2277, CONDITIONS, 12)
(r = random.Random(2277): condition = r.choice(list(CONDITIONS)), value = r.choice(its values); a condition drawn
before is drawn anew). Draw i (1-based) breaks base unit BASES[(i - 1) % 3]. Each case is a fresh root
/tmp/fresh277/<case id>: a copy of /usr/lib/systemd/system, the unit and its drop-ins under etc/systemd/system, the
companion files, stub executables at every absolute Exec path, the EnvironmentFile=, an etc/passwd and etc/group with
the engine user. The log is `$ cat` of each file written, then `systemd-analyze verify --man=no --root=ROOT` on the
unit files with its whole output and `# exit: N`. No ports, no engine started.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh277.py [--draws | --inputs | base | CASE_ID ...]
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from corpus_tools import draw_distinct_conditions  # tools/ is on sys.path
from doctor_corpus_fresh228 import BASES, DROPINS, add_after, slug, stub

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
WORK = Path("/tmp/fresh277")
SA = "/usr/bin/systemd-analyze"
ETC = "/etc/systemd/system"

CONDITIONS = {
    "systemd.service: a second drop-in adds ExecStart= after the first one cleared it": [
        "override.conf clears and sets, port.conf adds ExecStart=",
        "10-engine.conf clears and sets, override.conf adds ExecStart=",
    ],
    "systemd.service: a drop-in empties ExecStart= but its new command never lands": [
        "new ExecStart= above the empty reset",
        "new line misspelt ExecStrat=",
    ],
    "systemd.kill: PAMName= (for limits.conf memlock) with a KillMode= that spares children": [
        "KillMode=process",
        "KillMode=none",
    ],
    "systemd.service: a Type=oneshot model-download unit given a server's settings": [
        "RuntimeMaxSec=2h",
        "RestartForceExitStatus=1",
    ],
    "systemd.service: RuntimeRandomizedExtraSec= where RuntimeMaxSec= is unset": [
        "RuntimeMaxSec=24h, override.conf RuntimeMaxSec=infinity",
        "RuntimeRandomizedExtraSec=1h alone",
    ],
    "systemd.unit: JobRunningTimeoutSec= above JobTimeoutSec=": [
        "JobTimeoutSec=5min JobRunningTimeoutSec=15min",
        "JobTimeoutSec=10min, override.conf JobRunningTimeoutSec=1h",
    ],
    "systemd.socket: Symlinks= on a socket with no file-system node": [
        "ListenStream=127.0.0.1:PORT Symlinks=/run/NAME.sock",
        "ListenStream=PORT Symlinks=/run/llm/NAME.sock",
    ],
    "systemd.socket: the socket's ListenStream= written into the .service": [
        "ListenStream=PORT in [Service]",
        "a [Socket] section appended to the .service",
    ],
    "systemd.unit: Conflicts= on the other engine it also Requires= (one GPU)": [
        "unit Requires=OTHER, override.conf Conflicts=OTHER",
        "BindsTo=OTHER and Conflicts=OTHER in the unit",
    ],
    "systemd.unit: OnFailure= two units with OnFailureJobMode=isolate": [
        "OnFailure=notify-failure@%n.service rescue.target, OnFailureJobMode=isolate",
        "unit OnFailure=notify-failure@%n.service, override.conf OnFailure=rescue.target + isolate",
    ],
    "systemd.exec: DynamicUser=yes beside User= of a static engine user (run time)": [
        "DynamicUser=yes in the unit",
        "DynamicUser=yes in override.conf",
    ],
    "systemd.exec: ProtectHome= with the model or cache under /home (run time)": [
        "ProtectHome=yes, model under /home/alice",
        "ProtectHome=read-only, cache under /home/alice",
    ],
    "systemd.exec: an EnvironmentFile= line meant to override Environment= (run time)": [
        "export KEY=VALUE",
        "KEY = VALUE (spaces around '=')",
    ],
}

OTHER = {"vllm.service": "llama-server.service", "llama-server.service": "vllm.service"}
OTHER["llama-swap.service"] = "llama-server.service"
ENVVAR = {  # the variable the EnvironmentFile= is meant to override, and its new value
    "vllm.service": ("HF_HOME", "/srv/hf-cache"),
    "llama-server.service": ("LLAMA_ARG_THREADS", "16"),
    "llama-swap.service": ("PATH", "/opt/llama.cpp/bin:/usr/local/bin:/usr/bin:/bin"),
}


def draws():
    return draw_distinct_conditions(2277, CONDITIONS, 12)


def case_id(i: int, condition: str, value: str) -> str:
    name = BASES[(i - 1) % 3][0].removesuffix(".service")
    key = condition.split(": ", 1)[1]
    return f"fresh277-systemd-{name}-{slug(key)[:30].rstrip('-')}-{slug(value)[:20].rstrip('-')}"


def facts(name: str, unit: str):
    """The base's stem, port, user and its ExecStart= as one line (continuations joined)."""
    stem = name.removesuffix(".service")
    port = re.search(r"(?:--port |--listen \S+:)(\d+)", unit).group(1)
    user = re.search(r"^User=(\S+)", unit, re.M).group(1)
    cmd = re.search(r"^ExecStart=(.*?)(?<!\\)\n", unit, re.M | re.S).group(1)
    return stem, port, user, re.sub(r"\s*\\\n\s*", " ", cmd)


def new_cmd(name: str, cmd: str) -> str:
    """The command a user's drop-in puts in place of the base's (a longer context, or another config)."""
    if name == "llama-swap.service":
        return cmd.replace("config.yaml", "models.yaml")
    return cmd.replace("8192", "16384")


def mutate(name: str, unit: str, condition: str, value: str):
    """The unit, its drop-ins (file name -> text), the other files shown (path -> text), the unit files verified."""
    stem, port, user, cmd = facts(name, unit)
    drop = {"override.conf": DROPINS[name]}
    shown: dict[str, str] = {}
    verify = [f"{ETC}/{name}"]
    if "second drop-in adds ExecStart" in condition:
        other = cmd.replace(port, str(int(port) + 1))
        if value.startswith("override.conf"):
            drop["override.conf"] += f"ExecStart=\nExecStart={new_cmd(name, cmd)}\n"
            drop["port.conf"] = f"[Service]\nExecStart={other}\n"
        else:
            drop = {"10-engine.conf": f"[Service]\nExecStart=\nExecStart={new_cmd(name, cmd)}\n"}
            drop["override.conf"] = DROPINS[name] + f"ExecStart={other}\n"
    elif "empties ExecStart" in condition:
        if value.startswith("new ExecStart="):
            drop["override.conf"] += f"ExecStart={new_cmd(name, cmd)}\nExecStart=\n"
        else:
            drop["override.conf"] += f"ExecStart=\nExecStrat={new_cmd(name, cmd)}\n"
    elif "PAMName" in condition:
        unit = add_after(unit, "Group", "PAMName=login")
        unit = add_after(unit, "TimeoutStartSec", value)
    elif "model-download unit" in condition:
        fetch = f"{ETC}/{stem}-fetch-model.service"
        shown[fetch] = (
            f"[Unit]\nDescription=Download the model for {name}\nBefore={name}\n\n[Service]\nType=oneshot\n"
            f"RemainAfterExit=yes\nUser={user}\nExecStart=/usr/local/bin/fetch-model {stem}\n{value}\n"
        )
        unit = add_after(unit, "Wants", f"Requires={stem}-fetch-model.service")
        unit = add_after(unit, "Requires", f"After={stem}-fetch-model.service")
        verify.append(fetch)
    elif "RuntimeRandomizedExtraSec" in condition:
        if value.startswith("RuntimeMaxSec"):
            unit = add_after(unit, "RestartSec", "RuntimeMaxSec=24h\nRuntimeRandomizedExtraSec=30min")
            drop["override.conf"] += "RuntimeMaxSec=infinity\n"
        else:
            unit = add_after(unit, "RestartSec", "RuntimeRandomizedExtraSec=1h")
    elif "JobRunningTimeoutSec" in condition:
        if value.startswith("JobTimeoutSec=5min"):
            unit = add_after(unit, "Wants", "JobTimeoutSec=5min\nJobRunningTimeoutSec=15min")
        else:
            unit = add_after(unit, "Wants", "JobTimeoutSec=10min")
            drop["override.conf"] = "[Unit]\nJobRunningTimeoutSec=1h\n\n" + DROPINS[name]
    elif "Symlinks=" in condition:
        sock = f"{ETC}/{stem}.socket"
        listen, link = value.replace("PORT", port).replace("NAME", stem).split(" ")
        shown[sock] = (
            f"[Unit]\nDescription=Socket for {stem}\n\n[Socket]\n{listen}\n{link}\n\n"
            "[Install]\nWantedBy=sockets.target\n"
        )
        verify.append(sock)
    elif "written into the .service" in condition:
        if value.startswith("ListenStream"):
            unit = add_after(unit, "RestartSec", f"ListenStream={port}")
        else:
            unit += f"\n[Socket]\nListenStream=127.0.0.1:{port}\n"
    elif "Conflicts=" in condition:
        other = OTHER[name]
        shown[f"{ETC}/{other}"] = dict(BASES)[other]
        if value.startswith("unit Requires"):
            unit = add_after(unit, "Wants", f"Requires={other}\nAfter={other}")
            drop["override.conf"] = f"[Unit]\nConflicts={other}\n\n" + DROPINS[name]
        else:
            unit = add_after(unit, "Wants", f"BindsTo={other}\nAfter={other}\nConflicts={other}")
    elif "OnFailure=" in condition:
        shown[f"{ETC}/notify-failure@.service"] = (
            "[Unit]\nDescription=Mail about a failed %i\n\n[Service]\nType=oneshot\n"
            "ExecStart=/usr/local/bin/notify-failure %i\n"
        )
        if value.startswith("OnFailure="):
            unit = add_after(unit, "Wants", "OnFailure=notify-failure@%n.service rescue.target")
            unit = add_after(unit, "OnFailure", "OnFailureJobMode=isolate")
        else:
            unit = add_after(unit, "Wants", "OnFailure=notify-failure@%n.service")
            drop["override.conf"] = (
                "[Unit]\nOnFailure=rescue.target\nOnFailureJobMode=isolate\n\n" + DROPINS[name]
            )
    elif "DynamicUser" in condition:
        if value.endswith("in the unit"):
            unit = add_after(unit, "Group", "DynamicUser=yes")
        else:
            drop["override.conf"] += "DynamicUser=yes\n"
    elif "ProtectHome" in condition:
        mode = value.split(",")[0]
        if "model" in value:
            if name == "vllm.service":
                unit = unit.replace("--model Qwen/", "--model /home/alice/models/")
            elif name == "llama-server.service":
                unit = unit.replace("-m /opt/models/", "-m /home/alice/models/")
            else:
                unit = unit.replace("--config /etc/llama-swap/", "--config /home/alice/llama-swap/")
        elif name == "vllm.service":
            unit = unit.replace("HF_HOME=/opt/vllm/hf-cache", "HF_HOME=/home/alice/.cache/huggingface")
        else:
            unit = add_after(unit, "Environment", "Environment=LLAMA_CACHE=/home/alice/.cache/llama.cpp")
        unit = add_after(unit, "Group", mode)
    elif "EnvironmentFile=" in condition:
        key, val = ENVVAR[name]
        envfile = f"/etc/default/{stem}"
        if name != "vllm.service":
            unit = add_after(unit, "Environment", f"EnvironmentFile={envfile}")
        line = f"export {key}={val}" if value.startswith("export") else f"{key} = {val}"
        shown[envfile] = f"# {stem}: local settings\n{line}\n"
    else:
        raise ValueError(condition)
    return unit, drop, shown, verify


def write(root: Path, path: str, text: str) -> None:
    f = root / path.lstrip("/")
    f.parent.mkdir(parents=True, exist_ok=True)
    f.write_text(text)


def build_root(root: Path, name: str, unit: str, drop: dict[str, str], shown: dict[str, str]) -> None:
    if root.exists():
        shutil.rmtree(root)
    (root / "usr/lib/systemd").mkdir(parents=True)
    shutil.copytree("/usr/lib/systemd/system", root / "usr/lib/systemd/system", symlinks=True)
    write(root, f"{ETC}/{name}", unit)
    for fname, text in drop.items():
        write(root, f"{ETC}/{name}.d/{fname}", text)
    texts = [unit, *drop.values(), *shown.values()]
    for m in re.finditer(r"^Exec\w*=[-@:+!]*(/\S+)", "\n".join(texts), re.M):
        stub(root / m.group(1).lstrip("/"))
    for m in re.finditer(r"^EnvironmentFile=-?(/\S+)", "\n".join(texts), re.M):
        write(root, m.group(1), "VLLM_LOGGING_LEVEL=INFO\n")
    for path, text in shown.items():  # after the default EnvironmentFile=, so a shown one replaces it
        write(root, path, text)
    users = "".join(
        f"{u}:x:{990 + i}:{990 + i}::/opt/{u}:/usr/sbin/nologin\n" for i, u in enumerate(["vllm", "llama"])
    )
    groups = "".join(f"{u}:x:{990 + i}:\n" for i, u in enumerate(["vllm", "llama"]))
    write(root, "/etc/passwd", "root:x:0:0:root:/root:/bin/bash\n" + users)
    write(root, "/etc/group", "root:x:0:\n" + groups)


def sh(argv: list[str]) -> str:
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120, check=False)
    out = p.stdout.decode("utf-8", "replace")
    nl = "" if out.endswith("\n") or not out else "\n"
    return f"$ {shlex.join(argv).replace(SA, 'systemd-analyze')}\n{out}{nl}# exit: {p.returncode}\n"


def log_for(
    root: Path, name: str, unit: str, drop: dict[str, str], shown: dict[str, str], verify: list[str]
) -> str:
    text = f"$ cat {ETC}/{name}\n{unit}"
    for fname, body in drop.items():
        text += f"$ cat {ETC}/{name}.d/{fname}\n{body}"
    for path, body in shown.items():
        text += f"$ cat {shlex.quote(path)}\n{body}"
    return text + sh([SA, "verify", "--man=no", f"--root={root}", *verify])


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
            unit, drop, shown, verify = mutate(name, base, c, v)
            print(f"==== {case_id(i, c, v)}\n--- {name}\n{unit}", end="")
            for fname, body in drop.items():
                print(f"--- {name}.d/{fname}\n{body}", end="")
            for path, body in shown.items():
                print(f"--- {path}\n{body}", end="")
            print(f"--- verify: {verify}\n")
        return
    WORK.mkdir(exist_ok=True)
    if sys.argv[1:2] == ["base"]:  # the clean bases, before any case ran
        for name, unit in BASES:
            root = WORK / f"base-{name}"
            build_root(root, name, unit, {"override.conf": DROPINS[name]}, {})
            print(log_for(root, name, unit, {"override.conf": DROPINS[name]}, {}, [f"{ETC}/{name}"]))
        return
    wanted = set(sys.argv[1:])
    for i, (c, v) in enumerate(kept, 1):
        cid = case_id(i, c, v)
        if wanted and cid not in wanted:
            continue
        name, base = BASES[(i - 1) % 3]
        unit, drop, shown, verify = mutate(name, base, c, v)
        root = WORK / cid
        build_root(root, name, unit, drop, shown)
        text = log_for(root, name, unit, drop, shown, verify)
        (OUT / f"{cid}.log").write_text(text.rstrip() + "\n")
        print(f"{cid}: {len(text.splitlines())} lines", flush=True)


if __name__ == "__main__":
    main()
