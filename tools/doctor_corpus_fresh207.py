"""The 207th fresh batch of doctor's corpus (batch "fresh-207", made here): THINGS THAT HAPPEN TO A RUNNING
llama-server, a THIRD round, on the real llama-server 11434.0.0 (.llama-cpp/bin/llama-server's binary, copied to
/tmp/fresh207/bin/llama-server so that a user other than root (nobody, through setpriv) may run it and the shell's lines
name it as a user's PATH would) with the tiny GGUF (corpus_tools.tiny_gguf('/tmp/fresh207')).

Batches fresh-180 and fresh-184 drew from this dimension and doctor has learnt from their misses since; this batch
draws ONLY conditions they did not have. Draw lists read (ONLY the CONDITIONS lists and the drawn keys / file names):
tools/doctor_corpus_fresh180.py and fresh184.py, and the drawn file names of fresh-129 / fresh-139 / fresh-161 in the
manifest (plus a grep of fresh161's maker for signal / kill / chmod). Left out therefore: SIGKILL, SIGSTOP, SIGTSTP,
SIGTERM / SIGINT sent by kill (idle, mid-generation, during load, during a long prompt), SIGHUP, SIGUSR1/2, SIGPIPE,
SIGQUIT, SIGABRT, SIGSEGV, SIGALRM, SIGWINCH, SIGXCPU (ulimit -t), the GGUF truncated / overwritten / deleted / renamed /
replaced by rename, its folder renamed, --slot-save-path or --log-file folders removed or replaced, shared log / slot
paths, a client closing its stream, over --parallel with a short --timeout, filling the context, the log piped into
head, the port taken before the start, timeout(1)'s child sent SIGTERM by kill.

Drawn here instead: other signals and who sends them (timeout(1) expiring, a systemd-run-like wrapper of this script's
own, /tmp/fresh207/bin/svc-run, stopping at its runtime limit, a parent shell's job control `kill %1`, timer / IO /
power signals, core-dumping signals sent by kill), the model file or its folder made unreadable while serving and the
server then restarted, ulimit -v / -n lowered for a restarted server, the disk full under --slot-save-path, --log-file
on a full device, stdout or stderr closed, a client's own timeout cutting a non-streamed request, many requests at once
beyond --parallel.

Procedure (fixed and committed with the concrete inputs before the draw was printed and before any case ran):
draw_distinct_conditions(2207, CONDITIONS, 10): r = random.Random(2207), condition = r.choice(list(CONDITIONS)),
value = r.choice(its values); a condition drawn before is drawn anew. Each case: a fresh folder /tmp/fresh207/run/<id>
with model.gguf (models/model.gguf for the permission cases) copied from /tmp/fresh207/tiny-f32.gguf; the case's shell
line started as `bash -c LINE` by corpus_tools.serve_and_ask (own group, cwd the case folder, PATH with /tmp/fresh207/bin
first, start bound 120 s), which sends the case's CALLS once /health answers (1 s later; `after` seconds between calls)
and then SIGTERMs the group. The EVENT is done by a thread of this script: "idle" once /health answers; "mid" when GET
/slots shows a slot processing (during serve_and_ask's long request); "restart" 3 s after /health (after serve_and_ask's
first request was answered): a shell command in the case folder, then SIGTERM to the first llama-server so that the
case's line starts the second one; "client": this script's own requests, sent once /health answers, while serve_and_ask's GET /health
and 3 s wait come before its short request. Case log = `$ ` and
the user's line, the whole stdout+stderr as the shell printed it, then this script's client lines and serve_and_ask's
`# request:` lines and replies. The event's own command is not in the log (only what a user sees of it); `how` says
what was done. One server at a time. Ports 21020-21039 (21021 used).
Usage (repository root): PYTHONPATH=$PWD/tools .venv/bin/python tools/doctor_corpus_fresh207.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
from corpus_tools import draw_distinct_conditions, serve_and_ask, tiny_gguf  # tools/ is on sys.path

PORT = 21021
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
WORK = Path("/tmp/fresh207")
BIN = WORK / "bin"
RUN = WORK / "run"
NOBODY = "setpriv --reuid 65534 --regid 65534 --clear-groups"

PROMPT = "The quick brown fox jumps over the lazy dog near the river bank, and then it"
SHORT = {"prompt": PROMPT, "n_predict": 8}
LONG = {"prompt": PROMPT, "n_predict": 30000, "ignore_eos": True}  # on -c 32768: seconds of generation
C4 = "-c 4096"
C32 = "-c 32768 --parallel 1"

CONDITIONS: dict[str, list[str]] = {
    "timeout(1) expiring while serving": [
        "timeout 10 llama-server (SIGTERM at 10 s); a request before and one after",
        "timeout -s KILL 10 llama-server; a request before and one after",
    ],
    "a systemd-run-like wrapper's runtime limit": [
        "svc-run --runtime-max-sec 10 (SIGTERM, then SIGKILL after 5 s); a request before and one after",
        "svc-run --runtime-max-sec 10 --kill-signal SIGKILL; a request before and one after",
    ],
    "the parent shell's job control": [
        "set -m; llama-server & ... kill %1 (SIGTERM) 8 s later; a request before and one after",
        "set -m; llama-server & ... kill -INT %1 8 s later; a request before and one after",
    ],
    "a terminating signal nobody catches (timers, I/O, power)": [
        "kill -PROF during a /completion n_predict 30000",
        "kill -VTALRM after /health, then a request",
        "kill -PWR after /health, then a request",
        "kill -IO during a /completion n_predict 30000",
    ],
    "a core-dumping signal sent by kill": [
        "kill -FPE during a /completion n_predict 30000",
        "kill -ILL after /health, then a request",
        "kill -TRAP after /health, then a request",
        "kill -SYS during a /completion n_predict 30000",
    ],
    "the model made unreadable while serving, then the server restarted (as nobody)": [
        "chmod 000 models/model.gguf, then SIGTERM and the line's restart",
        "chmod 000 models/ (the model's folder), then SIGTERM and the line's restart",
    ],
    "ulimit -v lowered for a restarted server": [
        "ulimit -v 200000 (195 MiB) before the restart",
        "ulimit -v 60000 (59 MiB) before the restart",
    ],
    "ulimit -n lowered for a restarted server": [
        "ulimit -n 6 before the restart",
        "ulimit -n 10 before the restart",
    ],
    "the disk full under --slot-save-path": [
        "slots/slot0.bin a symlink to /dev/full (ENOSPC on write), POST /slots/0?action=save after a completion",
    ],
    "--log-file on a full device": ["--log-file /dev/full; a request"],
    "stdout or stderr closed": [
        "llama-server ... >&- (stdout closed); a request",
        "llama-server ... 2>&- (stderr closed); a request",
    ],
    "a client's own timeout cutting a non-streamed request": [
        "/completion n_predict 30000 with a 1 s client read timeout, then a short request",
        "/v1/chat/completions max_tokens 30000 with a 2 s client read timeout, then a short request",
    ],
    "many requests at once beyond --parallel": [
        "--parallel 1: eight concurrent /completion n_predict 64 (no --timeout)",
        "--parallel 2: twelve concurrent /v1/completions max_tokens 32 (no --timeout)",
    ],
}

NAMES = {
    "timeout(1) expiring while serving": "timeout-expires",
    "a systemd-run-like wrapper's runtime limit": "wrapper-runtime-limit",
    "the parent shell's job control": "shell-job-control-kill",
    "a terminating signal nobody catches (timers, I/O, power)": "signal",
    "a core-dumping signal sent by kill": "signal",
    "the model made unreadable while serving, then the server restarted (as nobody)": "unreadable-then-restart",
    "ulimit -v lowered for a restarted server": "restart-ulimit-v",
    "ulimit -n lowered for a restarted server": "restart-ulimit-n",
    "the disk full under --slot-save-path": "slot-save-disk-full",
    "--log-file on a full device": "log-file-dev-full",
    "stdout or stderr closed": "closed",
    "a client's own timeout cutting a non-streamed request": "client-timeout-non-streamed",
    "many requests at once beyond --parallel": "over-parallel-queued",
}
assert set(NAMES) == set(CONDITIONS)

SERVER = f"llama-server -m model.gguf --port {PORT}"
SERVER_NB = f"{NOBODY} llama-server -m models/model.gguf --port {PORT}"
ECHO = 'echo "exit status $?"'
SAVE0 = ("/slots/0?action=save", {"filename": "slot0.bin"})
COMPLETION = ("/completion", SHORT)
COMPLETION_LONG = ("/completion", LONG)

# (condition, value) -> dict(line, calls, after, event, setup)
# event: None | ("idle", signal) | ("mid", signal) | ("restart", shell command) | ("client", kind)
CASES: dict[tuple[str, str], dict] = {}


def case(cond: str, i: int, line: str, calls, after: float = 2, event=None, setup=None, name=None):
    CASES[(cond, CONDITIONS[cond][i])] = dict(
        line=line, calls=calls, after=after, event=event, setup=setup, name=name
    )


c = "timeout(1) expiring while serving"
case(c, 0, f"timeout 10 {SERVER} {C4}; {ECHO}", [COMPLETION, COMPLETION], after=12, name="v1")
case(c, 1, f"timeout -s KILL 10 {SERVER} {C4}; {ECHO}", [COMPLETION, COMPLETION], after=12, name="v2")
c = "a systemd-run-like wrapper's runtime limit"
case(
    c,
    0,
    f"svc-run --unit llama-server --runtime-max-sec 10 -- {SERVER} {C4}; {ECHO}",
    [COMPLETION, COMPLETION],
    after=12,
    name="v1",
)
case(
    c,
    1,
    f"svc-run --unit llama-server --runtime-max-sec 10 --kill-signal SIGKILL -- {SERVER} {C4}; {ECHO}",
    [COMPLETION, COMPLETION],
    after=12,
    name="v2",
)
c = "the parent shell's job control"
case(
    c,
    0,
    f"set -m; {SERVER} {C4} & sleep 8; kill %1; wait %1; {ECHO}",
    [COMPLETION, COMPLETION],
    10,
    name="v1",
)
case(
    c,
    1,
    f"set -m; {SERVER} {C4} & sleep 8; kill -INT %1; wait %1; {ECHO}",
    [COMPLETION, COMPLETION],
    10,
    name="v2",
)
c = "a terminating signal nobody catches (timers, I/O, power)"
case(c, 0, f"{SERVER} {C32}; {ECHO}", [COMPLETION_LONG], event=("mid", "PROF"), name="sigprof-mid-generation")
case(c, 1, f"{SERVER} {C4}; {ECHO}", [COMPLETION], event=("idle", "VTALRM"), name="sigvtalrm-idle")
case(c, 2, f"{SERVER} {C4}; {ECHO}", [COMPLETION], event=("idle", "PWR"), name="sigpwr-idle")
case(c, 3, f"{SERVER} {C32}; {ECHO}", [COMPLETION_LONG], event=("mid", "IO"), name="sigio-mid-generation")
c = "a core-dumping signal sent by kill"
case(
    c,
    0,
    f"{SERVER} {C32}; {ECHO}",
    [COMPLETION_LONG],
    event=("mid", "FPE"),
    name="sigfpe-sent-mid-generation",
)
case(c, 1, f"{SERVER} {C4}; {ECHO}", [COMPLETION], event=("idle", "ILL"), name="sigill-sent-idle")
case(c, 2, f"{SERVER} {C4}; {ECHO}", [COMPLETION], event=("idle", "TRAP"), name="sigtrap-sent-idle")
case(
    c,
    3,
    f"{SERVER} {C32}; {ECHO}",
    [COMPLETION_LONG],
    event=("mid", "SYS"),
    name="sigsys-sent-mid-generation",
)
c = "the model made unreadable while serving, then the server restarted (as nobody)"
RESTART_NB = f"{SERVER_NB} {C4}; {ECHO}; {SERVER_NB} {C4}; {ECHO}"
case(
    c,
    0,
    RESTART_NB,
    [COMPLETION, COMPLETION],
    6,
    ("restart", "chmod 000 models/model.gguf"),
    "models",
    "gguf-v1",
)
case(c, 1, RESTART_NB, [COMPLETION, COMPLETION], 6, ("restart", "chmod 000 models"), "models", "folder-v2")
c = "ulimit -v lowered for a restarted server"
for i, kib in enumerate(("200000", "60000")):
    line = f"{SERVER} {C4}; {ECHO}; ulimit -v {kib}; {SERVER} {C4}; {ECHO}"
    case(c, i, line, [COMPLETION, COMPLETION], 6, ("restart", ""), name=f"v{i + 1}")
c = "ulimit -n lowered for a restarted server"
for i, n in enumerate(("6", "10")):
    line = f"{SERVER} {C4}; {ECHO}; ulimit -n {n}; {SERVER} {C4}; {ECHO}"
    case(c, i, line, [COMPLETION, COMPLETION], 6, ("restart", ""), name=f"v{i + 1}")
c = "the disk full under --slot-save-path"
case(
    c,
    0,
    f"{SERVER} {C4} --parallel 1 --slot-save-path slots; {ECHO}",
    [COMPLETION, SAVE0],
    setup="slots-dev-full",
)
c = "--log-file on a full device"
case(c, 0, f"{SERVER} {C4} --log-file /dev/full; {ECHO}", [COMPLETION])
c = "stdout or stderr closed"
case(c, 0, f"{SERVER} {C4} >&-; {ECHO}", [COMPLETION, COMPLETION], name="stdout-v1")
case(c, 1, f"{SERVER} {C4} 2>&-; {ECHO}", [COMPLETION, COMPLETION], name="stderr-v2")
c = "a client's own timeout cutting a non-streamed request"
# the client's own requests start once /health answers; serve_and_ask's GET /health then waits 3 s, so its short
# request goes after them
AFTER_CLIENT = [("/health", None), COMPLETION]
case(c, 0, f"{SERVER} {C32}; {ECHO}", AFTER_CLIENT, 3, ("client", "timeout-completion"), name="v1")
case(c, 1, f"{SERVER} {C32}; {ECHO}", AFTER_CLIENT, 3, ("client", "timeout-chat"), name="v2")
c = "many requests at once beyond --parallel"
case(c, 0, f"{SERVER} {C4} --parallel 1; {ECHO}", AFTER_CLIENT, 3, ("client", "eight"), name="v1")
case(c, 1, f"{SERVER} {C4} --parallel 2; {ECHO}", AFTER_CLIENT, 3, ("client", "twelve"), name="v2")
assert len(CASES) == sum(len(v) for v in CONDITIONS.values())

SVC_RUN = r"""#!/bin/bash
# svc-run: a small systemd-run-like supervisor (fresh-207's own): runs CMD, stops it at --runtime-max-sec with
# --kill-signal (default SIGTERM), SIGKILL after --timeout-stop-sec (default 5), and reports as systemd's journal does.
unit=run; max=0; sig=SIGTERM; stop=5
while [ "$1" != "--" ]; do
  case "$1" in
    --unit) unit=$2; shift 2;;
    --runtime-max-sec) max=$2; shift 2;;
    --kill-signal) sig=$2; shift 2;;
    --timeout-stop-sec) stop=$2; shift 2;;
    *) echo "svc-run: unknown option $1" >&2; exit 2;;
  esac
done
shift
echo "svc-run: Started $unit.service: $*" >&2
"$@" &
child=$!
result=success
if [ "$max" != 0 ]; then
  ( sleep "$max"; kill -0 $child 2>/dev/null || exit 0
    echo "svc-run: $unit.service: Service reached runtime time limit. Stopping." >&2
    kill -s "$sig" $child
    for _ in $(seq $((stop * 10))); do kill -0 $child 2>/dev/null || exit 0; sleep 0.1; done
    echo "svc-run: $unit.service: State 'stop-sigterm' timed out. Killing." >&2
    kill -KILL $child ) &
  timer=$!
fi
wait $child
st=$?
[ -n "$timer" ] && { kill -0 $timer 2>/dev/null && result=success || result=timeout; }
if [ $st -gt 128 ]; then
  n=$((st - 128))
  echo "svc-run: $unit.service: Main process exited, code=killed, status=$n/SIG$(kill -l $n)" >&2
else
  echo "svc-run: $unit.service: Main process exited, code=exited, status=$st" >&2
fi
if [ $result = timeout ]; then
  echo "svc-run: $unit.service: Failed with result 'timeout'." >&2
  exit 1
fi
exit $st
"""


def draws():
    return draw_distinct_conditions(2207, CONDITIONS, 10)


def case_id(cond: str, value: str) -> str:
    spec = CASES[(cond, value)]
    name = NAMES[cond] + (f"-{spec['name']}" if spec["name"] else "")
    if spec["name"] and spec["name"].startswith("sig"):
        name = spec["name"]
    if cond == "stdout or stderr closed":
        name = spec["name"].split("-")[0] + "-closed"
    return f"fresh207-llama-{name}"


def server_pids(cwd: Path) -> list[int]:
    """llama-server processes running in the case folder (this script's own engine; one at a time)."""
    pids = []
    for p in Path("/proc").iterdir():
        if not p.name.isdigit():
            continue
        try:
            if (p / "comm").read_text().strip() == "llama-server" and os.readlink(p / "cwd") == str(cwd):
                pids.append(int(p.name))
        except OSError:
            continue
    return pids


def wait_healthy(deadline: float) -> bool:
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{PORT}/health", timeout=2).status_code == 200:
                return True
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    return False


def wait_processing(deadline: float) -> bool:
    while time.monotonic() < deadline:
        try:
            slots = httpx.get(f"http://127.0.0.1:{PORT}/slots", timeout=2).json()
            if any(s.get("is_processing") for s in slots):
                return True
        except (httpx.HTTPError, ValueError):
            pass
        time.sleep(0.05)
    return False


def show(method: str, path: str, body, note: str = "") -> str:
    shown = "" if body is None else " " + json.dumps(body)[:400]
    return f"# request: {method} http://127.0.0.1:{PORT}{path}{shown}{note}\n"


def one_request(path: str, body: dict, timeout: float, out: list, i: int) -> None:
    try:
        r = httpx.post(f"http://127.0.0.1:{PORT}{path}", json=body, timeout=timeout)
        out[i] = f"HTTP/1.1 {r.status_code} {r.reason_phrase}\n{r.content[:300].decode('utf-8', 'replace')}\n"
    except httpx.HTTPError as exc:
        out[i] = f"{type(exc).__name__}: {exc}\n"


def client_event(kind: str) -> str:
    if kind.startswith("timeout"):
        if kind == "timeout-completion":
            path, body, t = "/completion", LONG, 1.0
        else:
            chat = {"messages": [{"role": "user", "content": "Tell me a long story."}], "max_tokens": 30000}
            path, body, t = "/v1/chat/completions", {**chat, "ignore_eos": True}, 2.0
        out = [""]
        one_request(path, body, t, out, 0)
        return show("POST", path, body, f" (client read timeout {t:g} s)") + out[0]
    n, path, body = (
        (8, "/completion", {"prompt": PROMPT, "n_predict": 64})
        if kind == "eight"
        else (12, "/v1/completions", {"prompt": PROMPT, "max_tokens": 32})
    )
    out = [""] * n
    threads = [threading.Thread(target=one_request, args=(path, body, 120, out, i)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return "".join(show("POST", path, body, f" (concurrent {i + 1} of {n})") + out[i] for i in range(n))


def do_event(event, cwd: Path, lines: list) -> None:
    kind, arg = event
    deadline = time.monotonic() + 130
    if not wait_healthy(deadline):
        return
    if kind == "idle":
        for pid in server_pids(cwd):
            os.kill(pid, getattr(signal, "SIG" + arg))
    elif kind == "mid":
        if wait_processing(time.monotonic() + 60):
            for pid in server_pids(cwd):
                os.kill(pid, getattr(signal, "SIG" + arg))
    elif kind == "restart":
        time.sleep(3)
        first = server_pids(cwd)
        if arg:
            subprocess.run(arg, shell=True, cwd=cwd, check=True)
        for pid in first:
            os.kill(pid, signal.SIGTERM)
    elif kind == "client":
        lines.append(client_event(arg))


def make(cond: str, value: str) -> str:
    spec = CASES[(cond, value)]
    cid = case_id(cond, value)
    cwd = RUN / cid
    shutil.rmtree(cwd, ignore_errors=True)
    cwd.mkdir(parents=True)
    if spec["setup"] == "models":
        (cwd / "models").mkdir()
        shutil.copy(WORK / "tiny-f32.gguf", cwd / "models" / "model.gguf")
        os.chmod(cwd, 0o777)  # nobody's cwd
    else:
        shutil.copy(WORK / "tiny-f32.gguf", cwd / "model.gguf")
    if spec["setup"] == "slots-dev-full":
        (cwd / "slots").mkdir()
        os.symlink("/dev/full", cwd / "slots" / "slot0.bin")
    env = {**os.environ, "PATH": f"{BIN}:{os.environ['PATH']}"}
    lines: list[str] = []
    thread = None
    if spec["event"]:
        thread = threading.Thread(target=do_event, args=(spec["event"], cwd, lines))
        thread.start()
    text = serve_and_ask(
        ["bash", "-c", spec["line"]], PORT, spec["calls"], env=env, cwd=cwd, bound=120, after=spec["after"]
    )
    if thread:
        thread.join(timeout=60)
    head, sep, tail = text.partition("# request:")
    return f"$ {spec['line']}\n" + head + "".join(lines) + sep + tail


def setup() -> None:
    BIN.mkdir(parents=True, exist_ok=True)
    tiny_gguf(WORK)
    os.chmod(WORK / "tiny-f32.gguf", 0o644)
    exe = BIN / "llama-server"
    if not exe.exists():
        shutil.copy(REPO / ".llama-cpp" / "bin" / "llama-server", exe)
        os.chmod(exe, 0o755)
    svc = BIN / "svc-run"
    svc.write_text(SVC_RUN)
    os.chmod(svc, 0o755)
    os.chmod(WORK, 0o755)
    RUN.mkdir(exist_ok=True)
    os.chmod(RUN, 0o755)


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for i, (cond, value) in enumerate(kept, 1):
            print(f"draw {i}: {case_id(cond, value)}: {cond} | {value}")
        for d in redrawn:
            print(f"drawn anew: {' | '.join(d)}")
        return
    wanted = set(sys.argv[1:])
    setup()
    for cond, value in kept:
        cid = case_id(cond, value)
        if wanted and cid not in wanted:
            continue
        t = time.monotonic()
        text = make(cond, value)
        (OUT / f"{cid}.log").write_text(text.rstrip() + "\n")
        print(f"{cid}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
