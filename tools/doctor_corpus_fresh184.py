"""The 184th fresh batch of doctor's corpus (batch "fresh-184", made here): THINGS THAT HAPPEN TO A RUNNING
llama-server, a SECOND round, on the real llama-server (.llama-cpp/bin/llama-server, run through a symlink
/tmp/fresh184/bin/llama-server so that the shell's lines name it as a user's PATH would) with the tiny GGUF
(tests/engine/make_tiny_gguf.py's F32 GGUF of tests/engine/make_tiny_model.py's model, made under /tmp/fresh184).
Batch fresh-180 drew from this dimension and doctor has learnt from its misses since (after34c); this batch draws ONLY
(event, timing) pairs that fresh-180 did not draw, and also the shell / wrapper a user starts it from (bash -c, sh -c
(dash), nohup, timeout(1), a pipe into head) so that the same death is said in other words.

Draw lists read (only CONDITIONS and the drawn keys): tools/doctor_corpus_fresh180.py (drawn: SIGKILL during a
streamed chat, SIGSTOP + client timeout, SIGTERM during a streamed /completion, SIGINT twice mid-generation, SIGHUP
mid-generation, SIGUSR1 mid-generation, the GGUF overwritten by dd, the GGUF deleted, --slot-save-path replaced by a
file, --log-file folder removed, a client cutting its stream, over --parallel with --timeout, filling the context,
SIGTERM idle), fresh-129 / fresh-139 (drawn names in the manifest: SIGKILL mid-request, SIGHUP terminal closed, the
GGUF replaced by rename, the GGUF's folder renamed, SIGPIPE sent, SIGUSR1, SIGSTOP/SIGCONT mid-request, shared log /
slot paths, log folder removed before start), fresh-173 (slots and context: its drawn keys), fresh-69 / fresh-89
(RLIMIT_CPU at start: a 1 s hard limit on llama-server, healthy; LimitCPU 2 s on vLLM). Left out therefore: SIGHUP,
SIGUSR1, SIGPIPE sent by kill, SIGSTOP, everything about slots, context, log files and the GGUF deleted/replaced.
systemd-run --user is not usable on this machine (no user bus: "Failed to connect to bus: No medium found"), so no
value uses it.

Procedure (fixed and committed with the concrete inputs before the draw was printed and before any case ran):
draw_distinct_conditions(2184, CONDITIONS, 14): r = random.Random(2184), condition = r.choice(list(CONDITIONS)),
value = r.choice(its values); a condition drawn before is drawn anew. Each case: a fresh folder /tmp/fresh184/run/<id>
with model.gguf copied from /tmp/fresh184/tiny-f32.gguf; the value's shell line (`bash -c '...'`, `sh -c '...'`,
with nohup / timeout 600 / `| head -n 5` as the value says (head -n 40 in the first run, which never made head exit); always followed by `echo "exit status $?"`) started by
corpus_tools.serve_and_ask (own group, cwd the case folder, PATH with /tmp/fresh184/bin first, start bound 120 s),
which sends the case's CALLS once /health answers (1 s later) and then SIGTERMs the group. The EVENT is done by a
thread of this script: "idle" once /health answers (before serve_and_ask's call), "mid" at once when a slot reports
is_processing on GET /slots (during serve_and_ask's call), "load" as soon as the server's /proc/PID/maps holds
model.gguf (the GGUF mapped, /health not yet 200); "tstp" just before serve_and_ask's request, which then has a 10 s
client timeout (SIGCONT 12 s later so the stop can end it). The shell's own lines are kept as the shell printed them.
Case log = `$ ` and the user's command, the whole stdout+stderr, then serve_and_ask's `# request:` lines and replies.
One server at a time. Ports 20380-20399 (20381 used).
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh184.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
from corpus_tools import draw_distinct_conditions, serve_and_ask  # tools/ is on sys.path

PORT = 20381
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
WORK = Path("/tmp/fresh184")
BIN = WORK / "bin"
TINY_GGUF = WORK / "tiny-f32.gguf"
RUN = WORK / "run"

PROMPT = "The quick brown fox jumps over the lazy dog near the river bank, and then it"
LONG = {"prompt": PROMPT, "n_predict": 3000, "ignore_eos": True}
SHORT = {"prompt": PROMPT, "n_predict": 8}
CHAT_STREAM = {
    "messages": [{"role": "user", "content": "Tell me a long story."}],
    "max_tokens": 3000,
    "ignore_eos": True,
    "stream": True,
}
LONG_PROMPT = {"prompt": " ".join([PROMPT] * 150), "n_predict": 4}

CONDITIONS: dict[str, list[str]] = {
    "SIGQUIT": [
        "kill -QUIT after /health, then a request (bash -c)",
        "kill -QUIT during a /completion n_predict 3000 (sh -c)",
    ],
    "SIGABRT": [
        "kill -ABRT during a /completion n_predict 3000 (bash -c)",
        "kill -ABRT after /health, then a request (sh -c)",
    ],
    "SIGSEGV sent by kill": ["kill -SEGV during a streamed /v1/chat/completions (bash -c)"],
    "SIGALRM": [
        "kill -ALRM after /health, then a request (bash -c)",
        "kill -ALRM during a /completion n_predict 3000, under timeout 600 (bash -c)",
    ],
    "SIGUSR2": ["kill -USR2 during a /completion n_predict 3000 (bash -c)"],
    "SIGXCPU via ulimit -t": [
        "ulimit -S -t 3 (hard unlimited) before the start; a /completion n_predict 8000 on -c 8192 (bash -c)"
    ],
    "SIGTERM during model load": [
        "kill -TERM once model.gguf is mapped, before /health answers (bash -c)",
        "kill -TERM once model.gguf is mapped, before /health answers, under nohup (bash -c)",
    ],
    "SIGTERM during a long prompt": [
        "kill -TERM while a ~2700-token prompt is evaluated with -b 64 -ub 64 (n_predict 4) (bash -c)"
    ],
    "SIGINT while idle": ["kill -INT after a completed request, under nohup (bash -c)"],
    "SIGKILL while idle": [
        "kill -KILL after /health, then a request (sh -c)",
        "kill -KILL after /health, then a request, under timeout 600 (bash -c)",
    ],
    "SIGBUS: the GGUF truncated while mmap'd": [
        "truncate -s 0 model.gguf after /health, then a request (bash -c)",
        "truncate -s 3M model.gguf after /health, then a request (sh -c)",
    ],
    "the log piped into head, head exits": [
        "llama-server ... 2>&1 | head -n 5 (head exits during the start), then a request (bash -c)"
    ],
    "SIGTSTP (Ctrl+Z) while idle": [
        "kill -TSTP after /health; a /completion with a 10 s client timeout (bash -c)"
    ],
    "SIGWINCH (terminal resized) mid-generation": [
        "kill -WINCH during a /completion n_predict 3000 (healthy: ignored) (bash -c)"
    ],
    "the GGUF renamed while serving": [
        "mv model.gguf model.old.gguf after /health, then a request (healthy: the mapping keeps the inode) (bash -c)"
    ],
    "SIGTERM during a non-streamed chat, under timeout(1)": [
        "kill -TERM to timeout 600's child during a /v1/chat/completions max_tokens 3000 (bash -c)"
    ],
}

NAMES = {
    "SIGQUIT": "sigquit",
    "SIGABRT": "sigabrt",
    "SIGSEGV sent by kill": "sigsegv-sent",
    "SIGALRM": "sigalrm",
    "SIGUSR2": "sigusr2",
    "SIGXCPU via ulimit -t": "sigxcpu-ulimit-t",
    "SIGTERM during model load": "sigterm-during-load",
    "SIGTERM during a long prompt": "sigterm-long-prompt",
    "SIGINT while idle": "sigint-idle",
    "SIGKILL while idle": "sigkill-idle",
    "SIGBUS: the GGUF truncated while mmap'd": "gguf-truncated-sigbus",
    "the log piped into head, head exits": "log-piped-into-head",
    "SIGTSTP (Ctrl+Z) while idle": "sigtstp-client-timeout",
    "SIGWINCH (terminal resized) mid-generation": "sigwinch-mid-generation",
    "the GGUF renamed while serving": "healthy-gguf-renamed",
    "SIGTERM during a non-streamed chat, under timeout(1)": "sigterm-chat-under-timeout",
}
assert set(NAMES) == set(CONDITIONS)

# (condition, value) -> (shell, wrapper, flags, calls, event (kind, action, arg), client timeout)
CASES: dict[tuple[str, str], tuple] = {}


def case(cond, i, shell, wrapper, flags, calls, event, client_timeout=None):
    CASES[(cond, CONDITIONS[cond][i])] = (shell, wrapper, flags, calls, event, client_timeout)


C4 = ["-c", "4096"]
C2 = ["-c", "2048"]
S = signal
case("SIGQUIT", 0, "bash", "", C2, [("/completion", SHORT)], ("idle", "signal", S.SIGQUIT))
case("SIGQUIT", 1, "sh", "", C4, [("/completion", LONG)], ("mid", "signal", S.SIGQUIT))
case("SIGABRT", 0, "bash", "", C4, [("/completion", LONG)], ("mid", "signal", S.SIGABRT))
case("SIGABRT", 1, "sh", "", C2, [("/completion", SHORT)], ("idle", "signal", S.SIGABRT))
case(
    "SIGSEGV sent by kill",
    0,
    "bash",
    "",
    C4,
    [("/v1/chat/completions", CHAT_STREAM)],
    ("mid", "signal", S.SIGSEGV),
)
case("SIGALRM", 0, "bash", "", C2, [("/completion", SHORT)], ("idle", "signal", S.SIGALRM))
case("SIGALRM", 1, "bash", "timeout 600", C4, [("/completion", LONG)], ("mid", "signal", S.SIGALRM))
case("SIGUSR2", 0, "bash", "", C4, [("/completion", LONG)], ("mid", "signal", S.SIGUSR2))
case(
    "SIGXCPU via ulimit -t",
    0,
    "bash",
    "ulimit -S -t 3;",
    ["-c", "8192"],
    [("/completion", {"prompt": PROMPT, "n_predict": 8000, "ignore_eos": True})],
    ("none", None, None),
)
case("SIGTERM during model load", 0, "bash", "", C2, [("/completion", SHORT)], ("load", "signal", S.SIGTERM))
case(
    "SIGTERM during model load",
    1,
    "bash",
    "nohup",
    C2,
    [("/completion", SHORT)],
    ("load", "signal", S.SIGTERM),
)
case(
    "SIGTERM during a long prompt",
    0,
    "bash",
    "",
    [*C4, "-b", "64", "-ub", "64"],
    [("/completion", LONG_PROMPT)],
    ("mid", "signal", S.SIGTERM),
)
case(
    "SIGINT while idle",
    0,
    "bash",
    "nohup",
    C2,
    [("/completion", SHORT), ("/health", None)],
    ("after-first", "signal", S.SIGINT),
)
case("SIGKILL while idle", 0, "sh", "", C2, [("/completion", SHORT)], ("idle", "signal", S.SIGKILL))
case(
    "SIGKILL while idle",
    1,
    "bash",
    "timeout 600",
    C2,
    [("/completion", SHORT)],
    ("idle", "signal", S.SIGKILL),
)
_c = "SIGBUS: the GGUF truncated while mmap'd"
case(_c, 0, "bash", "", C2, [("/completion", SHORT)], ("idle", "shell", "truncate -s 0 model.gguf"))
case(_c, 1, "sh", "", C2, [("/completion", SHORT)], ("idle", "shell", "truncate -s 3M model.gguf"))
case(
    "the log piped into head, head exits",
    0,
    "bash",
    "| head -n 5",
    C2,
    [("/completion", SHORT)],
    ("none", None, None),
)
case(
    "SIGTSTP (Ctrl+Z) while idle",
    0,
    "bash",
    "",
    C2,
    [("/completion", SHORT)],
    ("tstp", None, None),
    client_timeout=10,
)
case(
    "SIGWINCH (terminal resized) mid-generation",
    0,
    "bash",
    "",
    C4,
    [("/completion", LONG)],
    ("mid", "signal", S.SIGWINCH),
)
case(
    "the GGUF renamed while serving",
    0,
    "bash",
    "",
    C2,
    [("/completion", SHORT)],
    ("idle", "shell", "mv model.gguf model.old.gguf"),
)
case(
    "SIGTERM during a non-streamed chat, under timeout(1)",
    0,
    "bash",
    "timeout 600",
    C4,
    [("/v1/chat/completions", {**CHAT_STREAM, "stream": False})],
    ("mid", "signal", S.SIGTERM),
)
assert set(CASES) == {(c, v) for c, vs in CONDITIONS.items() for v in vs}


def draws():
    return draw_distinct_conditions(2184, CONDITIONS, 14)


def concrete() -> dict[str, tuple[str, str]]:
    kept, _ = draws()
    out = {}
    for c, v in kept:
        suffix = f"-v{CONDITIONS[c].index(v) + 1}" if len(CONDITIONS[c]) > 1 else ""
        out[f"fresh184-llama-{NAMES[c]}{suffix}"] = (c, v)
    return out


# ---- running ----


def server_pid(timeout: float = 130) -> int | None:
    """The llama-server listening on PORT: argv[0] ends in llama-server and PORT is among its arguments."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for p in Path("/proc").iterdir():
            if not p.name.isdigit():
                continue
            try:
                argv = (p / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if argv and argv[0].endswith(b"llama-server") and str(PORT).encode() in argv:
                return int(p.name)
        time.sleep(0.05)
    return None


def health() -> int:
    try:
        return httpx.get(f"http://127.0.0.1:{PORT}/health", timeout=2).status_code
    except httpx.HTTPError:
        return 0


def wait_healthy(timeout: float = 130) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if health() == 200:
            return True
        time.sleep(0.2)
    return False


def wait_processing(timeout: float = 60) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            slots = httpx.get(f"http://127.0.0.1:{PORT}/slots", timeout=2).json()
            if any(s.get("is_processing") for s in slots):
                return True
        except (httpx.HTTPError, ValueError):
            pass
        time.sleep(0.05)
    return False


def wait_mapped(pid: int, timeout: float = 60) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if "model.gguf" in Path(f"/proc/{pid}/maps").read_text():
                return True
        except OSError:
            return False
        time.sleep(0.01)
    return False


def do_event(event: tuple, cwd: Path, log: list) -> None:
    kind, action, arg = event
    if kind in ("none", "tstp"):
        return
    pid = server_pid()
    if pid is None:
        log.append("no server pid")
        return
    if kind == "load":
        if not wait_mapped(pid):
            log.append("never mapped")
            return
        log.append(f"load event at /health {health()}")
    elif not wait_healthy():
        log.append("never healthy")
        return
    if kind == "mid":
        if not wait_processing():
            log.append("never processing")
            return
    elif kind == "after-first":
        time.sleep(3)  # serve_and_ask's first call (a short completion) is answered by then
    if action == "signal":
        os.kill(pid, arg)
    elif action == "shell":
        subprocess.run(["bash", "-c", arg], cwd=cwd, check=False)
    log.append(f"event {kind} {action} {arg} done")


def make(cond: str, value: str) -> tuple[str, str, list]:
    shell, wrapper, flags, calls, event, client_timeout = CASES[(cond, value)]
    cid = next(k for k, v in concrete().items() if v == (cond, value))
    cwd = RUN / cid
    shutil.rmtree(cwd, ignore_errors=True)
    cwd.mkdir(parents=True)
    shutil.copy(TINY_GGUF, cwd / "model.gguf")
    server = shlex.join(["llama-server", "-m", "model.gguf", "--port", str(PORT), *flags])
    if wrapper.startswith("|"):
        line = f"{server} 2>&1 {wrapper}"
    elif wrapper.endswith(";"):
        line = f"{wrapper} {server}"
    elif wrapper:
        line = f"{wrapper} {server}"
    else:
        line = server
    line += '; echo "exit status $?"'
    argv = [shell, "-c", line]
    user = shlex.join(argv)
    env = {**os.environ, "PATH": f"{BIN}:{os.environ['PATH']}"}
    notes: list[str] = []
    t = threading.Thread(target=do_event, args=(event, cwd, notes), daemon=True)
    t.start()
    saved = httpx.request
    if client_timeout is not None:

        def short(*a, **kw):
            """serve_and_ask's request with the user's short client timeout; the TSTP event just before it."""
            kw["timeout"] = client_timeout
            pid = server_pid(5)
            os.kill(pid, signal.SIGTSTP)
            notes.append("tstp sent")
            threading.Timer(client_timeout + 2, os.kill, (pid, signal.SIGCONT)).start()
            return saved(*a, **kw)

        httpx.request = short
    try:
        text = serve_and_ask(argv, PORT, calls, env=env, cwd=cwd, bound=120)
    finally:
        httpx.request = saved
    t.join(timeout=200)
    return f"$ {user}\n{text.rstrip()}\n", cid, notes


def main() -> None:
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draws()
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v}")
        for d in redrawn:
            print(f"drawn anew: {' | '.join(d)}")
        for cid, key in concrete().items():
            shell, wrapper, flags, calls, event, ct = CASES[key]
            print(f"{cid}: {shell} {wrapper!r} {shlex.join(flags)} | event {event[:2]} | client timeout {ct}")
        return
    if not TINY_GGUF.exists():
        raise SystemExit(f"{TINY_GGUF} missing: make it with tests/engine/make_tiny_gguf.py")
    wanted = set(sys.argv[1:])
    unknown = wanted - set(concrete())
    if unknown:
        raise SystemExit(f"unknown case ids: {sorted(unknown)}")
    for cid, (cond, value) in concrete().items():
        if wanted and cid not in wanted:
            continue
        t0 = time.monotonic()
        text, _, notes = make(cond, value)
        (OUT / f"{cid}.log").write_text(text)
        print(f"{cid}: {len(text.splitlines())} lines, {time.monotonic() - t0:.0f} s; {notes}", flush=True)


if __name__ == "__main__":
    main()
