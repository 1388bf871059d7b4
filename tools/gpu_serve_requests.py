"""Run `vllm serve` cases that fail AFTER the engine is up: send requests, send signals, keep the whole log.

Used for the doctor corpus batches fresh-21 and fresh-24 (tools/gpu-fresh21-cases.json, tools/gpu-fresh24-cases.json;
the device call: tools/gpu-go.sh), copied into .gpu/run/ of the
../shared/gpu kit together with tools/gpu_serve_drive.py (which only starts engines; this driver starts them, and
packs the logs, with its start() and pack()), on the same bundle and API-server wheels.
Usage: python3 .gpu/run/gpu_serve_requests.py CASES_JSON TOTAL_S PARALLEL MEM_CAP CASE [CASE...]
A case (in CASES_JSON["cases"]) is {"args": [serve args], "env": {}, "timeout": s, "mem": share of the GPU it
asks for, "twin": [serve args] (a second engine started at the same moment, its log kept beside), "steps": [...]}.
Steps run once the server logs "Application startup complete" (or at once with "at_start": true):
  {"post": PATH, "body": {...}, "bg": true?}  an HTTP request (bg: in a thread, not waited for)
  {"get": PATH}                              an HTTP GET
  {"sleep": s}
  {"signal": "SIGKILL"|"SIGTERM"|"SIGINT", "to": "engine_core"|"api"|"group"}
  {"wait_exit": s}                           wait up to s for the API server to exit by itself
  {"start_twin": [serve args], "env": {}, "same_port": false, "wait": s}   (fresh-288) a second `vllm serve` started
                                             NOW, while the case's server serves (the case's env, then the step's),
                                             on the case's port + 50 (same_port: on the case's own port); its log
                                             CASE.twin.log; waits up to s for it to be ready or exit; killed at the end
  A "signal" may be any name of Python's signal module (SIGSTOP, SIGCONT, SIGHUP ... as well).
A case may carry "hog": {"gib": G} (fresh-302): a co-tenant, a second process (this Python, torch) that allocates G GiB
on the GPU and holds it, started BEFORE the case's server; the server starts once the hog printed "HOG READY" (or
after 90 s); the hog's lines go to CASE.hog.log and CASE.client.txt; it is killed with the case.
Steps added for fresh-327 (tested on the CPU with a stand-in `vllm serve`, tools/gpu_serve_requests_check.py):
  {"hog_after": {"gib": G}}                  the "hog" co-tenant started NOW, while the server serves (waits up to
                                             90 s for "HOG READY" or its exit, notes its last lines; killed at the end)
  {"disconnect": PATH, "body": {...}, "after": s, "bg": true?}   a POST whose client reads the reply for s seconds
                                             (a stream's first chunks, or nothing of a plain reply) and then closes
                                             its connection; notes the status and what it had read
After the steps the process group is killed (SIGKILL) and the log is kept as it stands. Each response (status and
the first 600 characters of the body) goes to CASE.client.txt, not into the server's log.
"""

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

# beside this file on the device: the same engine start, kill, readiness check and log bundle
from gpu_serve_drive import HOME, kill, pack, ready, start

LOGS = os.path.join(HOME, "stash", "rlogs")
CASES_FILE = ""  # the cases file this run reads (main): a case's done marker holds its name


def done_marker(name):
    return os.path.join(LOGS, name + ".done")


def already_done(name):
    """Done in an earlier call of the SAME cases file: on a warm machine another batch's marker for the same id
    (fresh-349's e01..e07) made fresh-348's first call skip its own e01..e07 (stop 43)."""
    try:
        with open(done_marker(name)) as f:
            return f.read().strip() == CASES_FILE
    except OSError:
        return False


def engine_core_pids(pgid):
    """The EngineCore processes of one case: same process group, title set by vLLM (setproctitle)."""
    pids = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            if os.getpgid(int(d)) != pgid:
                continue
            with open(f"/proc/{d}/cmdline", "rb") as f:
                cmd = f.read().decode(errors="replace")
        except (OSError, ProcessLookupError):
            continue
        if "EngineCore" in cmd:
            pids.append(int(d))
    return pids


def http(port, path, body, note):
    if body and "prompt_len" in body:  # no tokenizer on the server: the prompt is token ids
        body = dict(body)
        body["prompt"] = list(range(1000, 1000 + body.pop("prompt_len")))
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data)
    req.add_header("Content-Type", "application/json")
    t0 = time.time()
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            res = f"{r.status} {r.read()[:600]!r}"
    except urllib.error.HTTPError as e:
        res = f"{e.code} {e.read()[:600]!r}"
    except Exception as e:  # the server died under the request: that is the point of some cases
        res = f"EXC {type(e).__name__}: {e}"
    note(f"{path} -> {res} ({time.time() - t0:.1f}s)")


HOG = (
    "import os, sys, time, torch\n"
    "g = float(sys.argv[1]); dev = os.environ.get('HOG_DEVICE', 'cuda')\n"
    "x = torch.empty(int(g * 2**30), dtype=torch.uint8, device=dev)\n"
    "if dev == 'cuda':\n"
    "    torch.cuda.synchronize(); free, total = torch.cuda.mem_get_info()\n"
    "    print(f'co-tenant pid {os.getpid()} holds {g} GiB on {dev}: free {free / 2**30:.2f} of {total / 2**30:.2f} GiB')\n"
    "print('HOG READY', flush=True)\n"
    "while True:\n"
    "    time.sleep(60)\n"
)


def disconnect(port, path, body, after, note):
    """The disconnect step (fresh-327): POST, read the reply for AFTER seconds, then close the connection (a raw
    socket: an HTTP/1.1 request, whatever comes back read as it comes, then close(), as a client killed mid-reply)."""
    if body and "prompt_len" in body:
        body = dict(body)
        body["prompt"] = list(range(1000, 1000 + body.pop("prompt_len")))
    data = json.dumps(body or {}).encode()
    head = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(data)}\r\nConnection: close\r\n\r\n")  # fmt: skip
    t0, got, how = time.time(), b"", "client closed the connection"
    try:
        sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        try:
            sock.sendall(head.encode() + data)
            sock.settimeout(0.2)
            while time.time() < t0 + after:
                try:
                    chunk = sock.recv(65536)
                except TimeoutError:
                    continue
                if not chunk:
                    how = "server closed the connection first"
                    break
                got += chunk
        finally:
            sock.close()
    except OSError as e:  # refused, reset: the server is gone
        how = f"EXC {type(e).__name__}: {e}"
    status, _, rest = got.partition(b"\r\n")
    body_part = rest.partition(b"\r\n\r\n")[2]
    note(f"{path} -> {status.decode(errors='replace') or 'no reply'}; {how} at {time.time() - t0:.1f}s after "
         f"{len(got)} bytes: {body_part[:300]!r}")  # fmt: skip


def start_hog(gib, name, note):
    """The "hog" key (fresh-302): a torch process holding GIB GiB of GPU memory, started before the case's server."""
    log = os.path.join(LOGS, name + ".hog.log")
    e = {**os.environ, "PYTHONUNBUFFERED": "1"}
    with open(log, "w") as f:
        h = subprocess.Popen([sys.executable, "-c", HOG, str(gib)], env=e, stdout=f, stderr=subprocess.STDOUT,
                             start_new_session=True)  # fmt: skip
    t0 = time.time()
    while time.time() < t0 + 90 and h.poll() is None:
        with open(log, errors="replace") as f:
            if "HOG READY" in f.read():
                break
        time.sleep(0.5)
    with open(log, errors="replace") as f:
        lines = [x for x in f.read().splitlines() if x.strip()]
    note(
        f"co-tenant hog {gib} GiB pid={h.pid} rc={h.poll()} ({time.time() - t0:.0f}s): "
        + " | ".join(lines[-3:])
    )
    return h


def start_twin(c, s, port, name, note):
    """The start_twin step: a second server started while the case's serves; returns its process."""
    log = os.path.join(LOGS, name + ".twin.log")
    tport = port if s.get("same_port") else port + 50
    twin = start(s["start_twin"], {**c.get("env", {}), **s.get("env", {})}, tport, log)
    note(f"twin started pid={twin.pid} port={tport}")
    t0, st = time.time(), "still starting"
    while time.time() < t0 + s.get("wait", 150):
        if twin.poll() is not None:
            st = f"exit rc={twin.returncode}"
            break
        if ready(log):
            st = "ready"
            break
        time.sleep(0.5)
    note(f"twin {st} ({time.time() - t0:.0f}s)")
    return twin


def run_steps(c, p, port, note, name=None, spawned=None):
    for s in c.get("steps", []):
        if "post" in s or "get" in s:
            args = (port, s.get("post") or s.get("get"), s.get("body"), note)
            if s.get("bg"):
                threading.Thread(target=http, args=args, daemon=True).start()
            else:
                http(*args)
        elif "sleep" in s:
            time.sleep(s["sleep"])
        elif "signal" in s:
            sig = getattr(signal, s["signal"])
            to = s.get("to", "api")
            pids = engine_core_pids(p.pid) if to == "engine_core" else [p.pid]
            if to == "engine_core" and not pids:  # no title set: the API server's children
                with open(f"/proc/{p.pid}/task/{p.pid}/children") as f:
                    pids = [int(x) for x in f.read().split()]
            note(f"signal {s['signal']} to {to} pids={pids}")
            for pid in pids:
                try:
                    os.killpg(pid, sig) if to == "group" else os.kill(pid, sig)
                except ProcessLookupError:
                    pass
        elif "start_twin" in s:
            twin = start_twin(c, s, port, name, note)
            if spawned is not None:
                spawned.append(twin)
        elif "hog_after" in s:  # fresh-327: the co-tenant starts while the server serves
            h = start_hog(s["hog_after"]["gib"], name, note)
            if spawned is not None:
                spawned.append(h)
        elif "disconnect" in s:  # fresh-327: a client that goes away mid-reply
            args = (port, s["disconnect"], s.get("body"), s.get("after", 2), note)
            if s.get("bg"):
                threading.Thread(target=disconnect, args=args, daemon=True).start()
            else:
                disconnect(*args)
        elif "wait_exit" in s:
            try:
                p.wait(timeout=s["wait_exit"])
                note(f"api server exited rc={p.returncode}")
            except subprocess.TimeoutExpired:
                note("api server still running")


class Case(threading.Thread):
    """One case: start (with its twin), wait for ready or exit, run the steps, kill, record."""

    def __init__(self, name, c, port, end):
        super().__init__(daemon=True)
        self.name_, self.c, self.port, self.end = name, c, port, end

    def note(self, line):
        with open(os.path.join(LOGS, self.name_ + ".client.txt"), "a") as f:
            f.write(f"{time.strftime('%H:%M:%S')} {line}\n")

    def run(self):
        n, c = self.name_, self.c
        log = os.path.join(LOGS, n + ".log")
        t0 = time.time()
        hog = start_hog(c["hog"]["gib"], n, self.note) if "hog" in c else None
        p = start(c["args"], c.get("env", {}), self.port, log, c.get("ulimit"))
        twin = None
        if "twin" in c:
            twin = start(c["twin"], c.get("env", {}), self.port + 50, os.path.join(LOGS, n + ".twin.log"))
        dl = min(self.end, t0 + c.get("timeout", 200))
        st = "timeout"
        while time.time() < dl:
            if p.poll() is not None:
                st = f"exit rc={p.returncode}"
                break
            if ready(log) or c.get("at_start"):
                time.sleep(1)
                st = "ready"
                break
            time.sleep(0.5)
        if twin is not None:  # both engines run to their own end (ready or failed) before either is killed
            while time.time() < dl and twin.poll() is None and not ready(os.path.join(LOGS, n + ".twin.log")):
                time.sleep(0.5)
            time.sleep(2)
        spawned = []
        if st == "ready":
            run_steps(c, p, self.port, self.note, n, spawned)
            time.sleep(c.get("linger", 2))
        kill(p)
        for q in spawned:
            kill(q)
        if twin is not None:
            kill(twin)
        if hog is not None:
            kill(hog)
        line = f"{n} {st} secs={time.time() - t0:.0f}"
        print(line, flush=True)
        with open(os.path.join(LOGS, "summary.txt"), "a") as f:
            f.write(line + "\n")
        with open(done_marker(n), "w") as f:
            f.write(CASES_FILE + "\n")


def main():
    global CASES_FILE
    CASES_FILE = os.path.basename(sys.argv[1])
    cases = json.load(open(sys.argv[1]))["cases"]
    total, par, cap, names = float(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), sys.argv[5:]
    end = time.time() + total
    os.makedirs(LOGS, exist_ok=True)
    todo = [n for n in names if not already_done(n)]
    running, port = [], 8200
    while todo or running:
        running = [r for r in running if r.is_alive()]
        used = sum(r.c.get("mem", 0.2) for r in running)
        if todo and len(running) < par:
            n = todo[0]
            c = cases[n]
            if time.time() > end - c.get("need", 90):
                print(f"SKIP {n} (time)", flush=True)
                todo.pop(0)
                continue
            if not running or used + c.get("mem", 0.2) <= cap:
                todo.pop(0)
                port += 1
                r = Case(n, c, port, end)
                r.start()
                running.append(r)
                time.sleep(1)
                continue
        time.sleep(0.5)
        if int(time.time()) % 20 == 0:
            pack(LOGS, "rlogs")
    pack(LOGS, "rlogs")


if __name__ == "__main__":
    main()
