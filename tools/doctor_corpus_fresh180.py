"""The 180th fresh batch of doctor's corpus (batch "fresh-180", made here): THINGS THAT HAPPEN TO A RUNNING
llama-server, on the real llama-server 11434.0.0 (.llama-cpp/bin/llama-server) with the tiny GGUF
(tests/engine/make_tiny_gguf.py's F32 GGUF of tests/engine/make_tiny_model.py's model, made under /tmp/fresh180).
Once /health answers, one event happens to the server: a signal, its GGUF changed / deleted / renamed while mmap'd,
its --slot-save-path or --log-file folder removed, a client that goes away, more requests than --parallel, a
generation that fills the context.

Not drawn again (draw lists read: tools/doctor_corpus_fresh129.py and fresh139.py CONDITIONS and their drawn names in
the manifest; tools/doctor_corpus_fresh173.py CONDITIONS and its drawn keys): SIGKILL during a 4096-token
non-streamed request; SIGHUP to a backgrounded server (terminal closed); the GGUF replaced by rename; kill -USR1 after
/health then a request; SIGSTOP mid-request then SIGCONT; the --log-file folder removed BEFORE the start; the GGUF's
directory renamed; two servers sharing --slot-save-path or --log-file; n_predict -1 with context shift ON; ignore_eos
filling the context (fresh-173's header); --slot-save-path missing / unwritable at start.

Procedure (fixed and committed with the concrete inputs before the draw was printed and before any case ran):
draw_distinct_conditions(2180, CONDITIONS, 14): r = random.Random(2180), condition = r.choice(list(CONDITIONS)),
value = r.choice(its values); a condition drawn before is drawn anew. Each case: a fresh folder /tmp/fresh180/run/<id>
with model.gguf copied from /tmp/fresh180/tiny-f32.gguf; `bash -c 'llama-server -m model.gguf --port 20161 FLAGS;
echo "exit status $?"'` started by corpus_tools.serve_and_ask (own group, cwd the case folder, start bound 120 s),
which sends the case's CALLS once /health answers (1 s later) and then SIGTERMs the group. The case's EVENT is done by
a thread of this script: "idle" events once /health answers (before serve_and_ask's call), "mid" events at once when a
slot reports is_processing on GET /slots (during serve_and_ask's call), the STOP event just before serve_and_ask sends its request (a
thread's stop raced serve_and_ask's own /health poll), "client" events are this script's own
requests (a streamed request cut after N chunks, concurrent requests, a request with a short client timeout). The
bash line for a death by signal ("bash: line 1: PID Killed   CMD") is written as an interactive terminal shows it
("Killed"). Case log = `$ ` and the user's command, the server's whole stdout+stderr with that shell line, then this
script's own client lines and serve_and_ask's `# request:` lines and replies. The event itself is not written into
the log (only what a user sees of it); `how` says what was done. One server at a time. Ports 20160-20179.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh180.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import os
import re
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

PORT = 20161
REPO = Path(__file__).resolve().parent.parent
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
WORK = Path("/tmp/fresh180")
TINY_GGUF = WORK / "tiny-f32.gguf"
RUN = WORK / "run"

PROMPT = "The quick brown fox jumps over the lazy dog near the river bank, and then it"
LONG = {"prompt": PROMPT, "n_predict": 3000, "ignore_eos": True}  # long enough to be mid-generation
SHORT = {"prompt": PROMPT, "n_predict": 8}
CHAT_LONG = {
    "messages": [{"role": "user", "content": "Tell me a long story."}],
    "max_tokens": 3000,
    "ignore_eos": True,  # the random tiny model may end early; the event needs a generation still running
}

CONDITIONS: dict[str, list[str]] = {
    "SIGKILL while serving": [
        "kill -KILL while idle after /health, then a request",
        "kill -KILL during a streamed /v1/chat/completions request",
    ],
    "SIGSTOP, then a request with a client timeout": [
        "kill -STOP after /health; a /completion with a 10 s client timeout",
        "kill -STOP after /health; a /v1/chat/completions with a 5 s client timeout",
    ],
    "SIGTERM mid-generation": [
        "kill -TERM during a streamed /completion (n_predict 3000)",
        "kill -TERM during a non-streamed /v1/completions (max_tokens 3000)",
    ],
    "SIGINT mid-generation": [
        "kill -INT once during a /completion (n_predict 3000)",
        "kill -INT twice, 0.5 s apart (Ctrl+C pressed twice), during a /completion (n_predict 3000)",
    ],
    "SIGHUP": [
        "started under nohup, kill -HUP after /health, then a request (healthy: SIGHUP ignored)",
        "kill -HUP during a /completion (n_predict 3000)",
    ],
    "SIGUSR1 mid-generation": ["kill -USR1 during a /completion (n_predict 3000)"],
    "the GGUF truncated while mmap'd": [
        "truncate -s 0 model.gguf after /health, then a request",
        "truncate -s 3M model.gguf (about half) after /health, then a request",
    ],
    "the GGUF overwritten in place while mmap'd": [
        "cp tokenizer.json model.gguf (another file copied over it) after /health, then a request",
        "dd if=/dev/zero of=model.gguf bs=1M seek=1 count=4 conv=notrunc after /health, then a request",
    ],
    "the model file deleted or renamed while serving": [
        "rm model.gguf after /health, then a request (healthy: the mapping keeps the inode)",
        "mv model.gguf model.old.gguf after /health, then a request (healthy)",
    ],
    "--slot-save-path's folder removed before a slot save": [
        "rm -rf slots/ after a completion, then POST /slots/0?action=save",
        "slots/ replaced by a plain file of the same name after a completion, then POST /slots/0?action=save",
    ],
    "--log-file's folder removed while serving": [
        "rm -rf logs/ (--log-file logs/server.log) after /health, then a request",
    ],
    "the client disconnecting mid-stream": [
        "a streamed /completion (n_predict 3000) closed by the client after 3 chunks, then a short request",
        "a streamed /v1/chat/completions (max_tokens 3000) closed after the first chunk, then a short request",
    ],
    "more concurrent requests than --parallel with a short --timeout": [
        "--parallel 1 --timeout 2: three concurrent /completion n_predict 3000",
        "--parallel 2 --timeout 3: four concurrent /completion n_predict 3000",
    ],
    "a generation that fills the context, context shift off": [
        "/v1/chat/completions without max_tokens on -c 256 --parallel 1",
        "a streamed /completion n_predict 600 on -c 256 --parallel 1",
    ],
    "SIGTERM while idle": ["kill -TERM after a completed request (healthy: a clean shutdown)"],
}

NAMES = {
    "SIGKILL while serving": "sigkill",
    "SIGSTOP, then a request with a client timeout": "sigstop-client-timeout",
    "SIGTERM mid-generation": "sigterm-mid-generation",
    "SIGINT mid-generation": "sigint-mid-generation",
    "SIGHUP": "sighup",
    "SIGUSR1 mid-generation": "sigusr1-mid-generation",
    "the GGUF truncated while mmap'd": "gguf-truncated",
    "the GGUF overwritten in place while mmap'd": "gguf-overwritten",
    "the model file deleted or renamed while serving": "gguf-deleted-or-renamed",
    "--slot-save-path's folder removed before a slot save": "slot-save-folder-removed",
    "--log-file's folder removed while serving": "log-file-folder-removed",
    "the client disconnecting mid-stream": "client-disconnect-mid-stream",
    "more concurrent requests than --parallel with a short --timeout": "over-parallel-short-timeout",
    "a generation that fills the context, context shift off": "fills-context-no-shift",
    "SIGTERM while idle": "healthy-sigterm-idle",
}
assert set(NAMES) == set(CONDITIONS)

# (condition, value) -> (flags, calls for serve_and_ask, event (kind, action, arg), client timeout or None, nohup)
CASES: dict[tuple[str, str], tuple[list[str], list, tuple, float | None, bool]] = {}


def case(cond, i, flags, calls, event, client_timeout=None, nohup=False):
    CASES[(cond, CONDITIONS[cond][i])] = (flags, calls, event, client_timeout, nohup)


C = "-c"
_c = "SIGKILL while serving"
case(_c, 0, [C, "2048"], [("/completion", SHORT)], ("idle", "signal", [signal.SIGKILL]))
case(
    _c,
    1,
    [C, "4096"],
    [("/v1/chat/completions", {**CHAT_LONG, "stream": True})],
    ("mid", "signal", [signal.SIGKILL]),
)
_c = "SIGSTOP, then a request with a client timeout"
case(_c, 0, [C, "2048"], [("/completion", SHORT)], ("idle", "stop", None), client_timeout=10)
case(
    _c,
    1,
    [C, "2048"],
    [("/v1/chat/completions", {**CHAT_LONG, "max_tokens": 16})],
    ("idle", "stop", None),
    client_timeout=5,
)
_c = "SIGTERM mid-generation"
case(_c, 0, [C, "4096"], [("/completion", {**LONG, "stream": True})], ("mid", "signal", [signal.SIGTERM]))
case(
    _c,
    1,
    [C, "4096"],
    [("/v1/completions", {"prompt": PROMPT, "max_tokens": 3000, "ignore_eos": True})],
    ("mid", "signal", [signal.SIGTERM]),
)
_c = "SIGINT mid-generation"
case(_c, 0, [C, "4096"], [("/completion", LONG)], ("mid", "signal", [signal.SIGINT]))
case(_c, 1, [C, "4096"], [("/completion", LONG)], ("mid", "signal", [signal.SIGINT, signal.SIGINT]))
_c = "SIGHUP"
case(_c, 0, [C, "2048"], [("/completion", SHORT)], ("idle", "signal", [signal.SIGHUP]), nohup=True)
case(_c, 1, [C, "4096"], [("/completion", LONG)], ("mid", "signal", [signal.SIGHUP]))
_c = "SIGUSR1 mid-generation"
case(_c, 0, [C, "4096"], [("/completion", LONG)], ("mid", "signal", [signal.SIGUSR1]))
_c = "the GGUF truncated while mmap'd"
case(_c, 0, [C, "2048"], [("/completion", SHORT)], ("idle", "shell", "truncate -s 0 model.gguf"))
case(_c, 1, [C, "2048"], [("/completion", SHORT)], ("idle", "shell", "truncate -s 3M model.gguf"))
_c = "the GGUF overwritten in place while mmap'd"
case(
    _c,
    0,
    [C, "2048"],
    [("/completion", SHORT)],
    ("idle", "shell", f"cp {WORK}/tiny/tokenizer.json model.gguf"),
)
case(
    _c,
    1,
    [C, "2048"],
    [("/completion", SHORT)],
    ("idle", "shell", "dd if=/dev/zero of=model.gguf bs=1M seek=1 count=4 conv=notrunc status=none"),
)
_c = "the model file deleted or renamed while serving"
case(_c, 0, [C, "2048"], [("/completion", SHORT)], ("idle", "shell", "rm model.gguf"))
case(_c, 1, [C, "2048"], [("/completion", SHORT)], ("idle", "shell", "mv model.gguf model.old.gguf"))
_c = "--slot-save-path's folder removed before a slot save"
SAVE0 = ("/slots/0?action=save", {"filename": "slot0.bin"})
case(
    _c,
    0,
    [C, "2048", "--parallel", "1", "--slot-save-path", "slots"],
    [("/completion", SHORT), SAVE0],
    ("after-first", "shell", "rm -rf slots"),
)
case(
    _c,
    1,
    [C, "2048", "--parallel", "1", "--slot-save-path", "slots"],
    [("/completion", SHORT), SAVE0],
    ("after-first", "shell", "rm -rf slots && echo 'not a folder' > slots"),
)
_c = "--log-file's folder removed while serving"
case(
    _c,
    0,
    [C, "2048", "--log-file", "logs/server.log"],
    [("/completion", SHORT)],
    ("idle", "shell", "rm -rf logs"),
)
_c = "the client disconnecting mid-stream"
case(
    _c,
    0,
    [C, "4096"],
    [("/completion", SHORT)],
    ("client", "cut-stream", ("/completion", {**LONG, "stream": True}, 3)),
)
case(
    _c,
    1,
    [C, "4096"],
    [("/completion", SHORT)],
    ("client", "cut-stream", ("/v1/chat/completions", {**CHAT_LONG, "stream": True}, 1)),
)
_c = "more concurrent requests than --parallel with a short --timeout"
case(
    _c,
    0,
    [C, "4096", "--parallel", "1", "--timeout", "2"],
    [("/completion", LONG)],
    ("client", "concurrent", ("/completion", LONG, 2)),
)
case(
    _c,
    1,
    [C, "4096", "--parallel", "2", "--timeout", "3"],
    [("/completion", LONG)],
    ("client", "concurrent", ("/completion", LONG, 3)),
)
_c = "a generation that fills the context, context shift off"
case(
    _c,
    0,
    [C, "256", "--parallel", "1"],
    [("/v1/chat/completions", {"messages": [{"role": "user", "content": "Tell me a long story."}]})],
    ("none", None, None),
)
case(
    _c,
    1,
    [C, "256", "--parallel", "1"],
    [("/completion", {"prompt": PROMPT, "n_predict": 600, "stream": True})],
    ("none", None, None),
)
_c = "SIGTERM while idle"
case(_c, 0, [C, "2048"], [("/completion", SHORT)], ("none", None, None))
assert set(CASES) == {(c, v) for c, vs in CONDITIONS.items() for v in vs}


def draws():
    return draw_distinct_conditions(2180, CONDITIONS, 14)


def concrete() -> dict[str, tuple[str, str]]:
    kept, _ = draws()
    return {f"fresh180-llama-{NAMES[c]}-v{CONDITIONS[c].index(v) + 1}": (c, v) for c, v in kept}


# ---- running ----


def server_pid(timeout: float = 130) -> int | None:
    """The llama-server listening on PORT: the process whose command line is LLAMA ... --port PORT (ports are ours)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for p in Path("/proc").iterdir():
            if not p.name.isdigit():
                continue
            try:
                argv = (p / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if argv and argv[0].decode(errors="replace") == LLAMA and str(PORT).encode() in argv:
                return int(p.name)
        time.sleep(0.3)
    return None


def healthy() -> bool:
    try:
        return httpx.get(f"http://127.0.0.1:{PORT}/health", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


def wait_healthy(timeout: float = 130) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if healthy():
            return True
        time.sleep(0.3)
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


def show(method: str, path: str, body) -> str:
    shown = "" if body is None else " " + json.dumps(body)[:400]
    return f"# request: {method} http://127.0.0.1:{PORT}{path}{shown}\n"


def cut_stream(path: str, body: dict, chunks: int) -> str:
    text = show("POST", path, body)
    try:
        with httpx.stream("POST", f"http://127.0.0.1:{PORT}{path}", json=body, timeout=120) as r:
            text += f"HTTP/1.1 {r.status_code} {r.reason_phrase}\n"
            n = 0
            for line in r.iter_lines():
                if not line.strip():
                    continue
                text += line[:300] + "\n"
                n += 1
                if n >= chunks:
                    break
        text += "^C (client closed the stream)\n"
    except httpx.HTTPError as exc:
        text += f"{type(exc).__name__}: {exc}\n"
    return text


def one_request(path: str, body: dict, out: list, i: int) -> None:
    text = show("POST", path, body)
    try:
        r = httpx.post(f"http://127.0.0.1:{PORT}{path}", json=body, timeout=120)
        text += f"HTTP/1.1 {r.status_code} {r.reason_phrase}\n{r.content[:400].decode('utf-8', 'replace')}\n"
    except httpx.HTTPError as exc:
        text += f"{type(exc).__name__}: {exc}\n"
    out[i] = text


def do_event(event: tuple, cwd: Path, client_lines: list, timeout: float | None) -> None:
    kind, action, arg = event
    if kind == "none":
        return
    pid = server_pid()
    if pid is None or not wait_healthy():
        return
    if kind == "mid":
        if not wait_processing():
            return
        # at once: the tiny model writes its 2048-token slot in under a second (the first run's 1 s wait missed it)
    elif kind == "after-first":
        time.sleep(2.5)  # serve_and_ask's first call (a short completion) is answered by then
    if action == "signal":
        for i, sig in enumerate(arg):
            if i:
                time.sleep(0.5)
            os.kill(pid, sig)
    elif action == "stop":
        pass  # done by the request itself (stopped_then_asked): a stop here raced serve_and_ask's own /health poll
    elif action == "shell":
        subprocess.run(["bash", "-c", arg], cwd=cwd, check=False)
    elif action == "cut-stream":
        client_lines.append(cut_stream(*arg))
    elif action == "concurrent":
        path, body, n = arg
        outs = [""] * n
        threads = [threading.Thread(target=one_request, args=(path, body, outs, i)) for i in range(n)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        client_lines.extend(outs)


BASH_LINE = re.compile(r"^(?:bash: )?line \d+: +\d+ (.+?)\s{2,}\S.*$", re.M)


def make(cond: str, value: str) -> tuple[str, str]:
    flags, calls, event, client_timeout, nohup = CASES[(cond, value)]
    cid = next(k for k, v in concrete().items() if v == (cond, value))
    cwd = RUN / cid
    shutil.rmtree(cwd, ignore_errors=True)
    cwd.mkdir(parents=True)
    shutil.copy(TINY_GGUF, cwd / "model.gguf")
    if "--log-file" in flags:
        (cwd / "logs").mkdir()
    if "--slot-save-path" in flags:
        (cwd / "slots").mkdir()
    cmd = ["llama-server", "-m", "model.gguf", "--port", str(PORT), *flags]
    user = ("nohup " if nohup else "") + shlex.join(cmd)
    real = ("nohup " if nohup else "") + shlex.join([LLAMA, *cmd[1:]])
    argv = ["bash", "-c", f'{real}; echo "exit status $?"']
    client_lines: list[str] = []
    t = threading.Thread(target=do_event, args=(event, cwd, client_lines, client_timeout), daemon=True)
    t.start()
    saved = httpx.request
    if client_timeout is not None:

        def short(*a, **kw):
            """serve_and_ask's request with the user's short client timeout; the STOP event just before it."""
            kw["timeout"] = client_timeout
            if event[1] == "stop":
                pid = server_pid(5)
                os.kill(pid, signal.SIGSTOP)
                # SIGCONT once the client has given up, so that serve_and_ask's SIGTERM can end it
                threading.Timer(client_timeout + 2.5, os.kill, (pid, signal.SIGCONT)).start()
            return saved(*a, **kw)

        httpx.request = short
    try:
        text = serve_and_ask(argv, PORT, calls, cwd=cwd, bound=120)
    finally:
        httpx.request = saved
    t.join(timeout=200)
    text = BASH_LINE.sub(lambda m: m.group(1), text)
    at = text.find("# request: ")
    own = "".join(client_lines)
    if at < 0:
        text = text + own
    else:
        text = text[:at] + own + text[at:]
    return f"$ {user}\n{text.rstrip()}\n", cid


def main() -> None:
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draws()
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v}")
        for d in redrawn:
            print(f"drawn anew: {' | '.join(d)}")
        for cid, key in concrete().items():
            flags, calls, event, ct, nohup = CASES[key]
            print(f"{cid}: {shlex.join(flags)} | event {event[:2]} | client timeout {ct} | nohup {nohup}")
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
        text, _ = make(cond, value)
        (OUT / f"{cid}.log").write_text(text)
        print(f"{cid}: {len(text.splitlines())} lines, {time.monotonic() - t0:.0f} s", flush=True)


if __name__ == "__main__":
    main()
