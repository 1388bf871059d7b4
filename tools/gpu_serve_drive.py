"""Run `vllm serve` cases (the command line users type) with a bound each; keep each whole log.

Used for the doctor corpus batches fresh-13 and fresh-17 (tools/gpu-fresh13-cases.json, tools/gpu-fresh17-cases.json), copied into .gpu/run/ of the ../shared/gpu kit,
whose bundle also needs uvicorn, prometheus-fastapi-instrumentator, model-hosting-container-standards (+ jmespath,
supervisor), watchfiles, setproctitle and python-multipart wheels for the API server.
Usage: python3 .gpu/run/serve_drive.py TOTAL_S PARALLEL CASE [CASE...]
A case is .gpu/run/scases/CASE.json: {"case", "args": [serve args], "env": {}, "timeout": s,
"first": {"args": [...], "env": {}}} -- "first" starts another engine and waits until it serves
before the case itself starts (two engines on one GPU); with "same_port_as_first": true the case is
given the first engine's port (a port already taken).
A case ends when the server is up ("Application startup complete": its group is killed, as an
operator would read a running server's log), when the process exits, or at its timeout.
"""

import json
import os
import signal
import subprocess
import sys
import tarfile
import time

HOME = os.environ["HOME"]
LOGS = os.path.join(HOME, "stash", "slogs")
OUT = os.environ.get("OUT", os.path.join(HOME, "stash", "out"))
READY = "Application startup complete"
BASE_ENV = {
    "PYTHONPATH": os.path.join(HOME, "site"),
    "PYTHONUNBUFFERED": "1",
    "VLLM_NO_USAGE_STATS": "1",
    "DO_NOT_TRACK": "1",
    "HF_HUB_OFFLINE": "1",
    "TRANSFORMERS_OFFLINE": "1",
    "VLLM_USE_FLASHINFER_SAMPLER": "0",
    "NCCL_NVLS_ENABLE": "0",
    "TORCH_SYMM_MEM_DISABLE_MULTICAST": "1",
    "NVSHMEM_DISABLE_NVLS": "1",
}


def start(args, env, port, log_path, ulimit=None):
    """`vllm serve ARGS --port PORT` with the kit's environment and the case's; with `ulimit` (fresh-168: e.g. "ulimit
    -v 16777216"), the same command exec'd by a bash that set the limit first, as a user's shell would."""
    e = dict(os.environ)
    e.update(BASE_ENV)
    e.update({k: str(v) for k, v in env.items()})
    cmd = ["python3", "-m", "vllm.entrypoints.cli.main", "serve", *args, "--port", str(port)]
    if ulimit:
        cmd = ["bash", "-c", ulimit + ' && exec "$@"', "bash", *cmd]
    log = open(log_path, "w")
    return subprocess.Popen(cmd, env=e, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)


def kill(p):
    try:
        os.killpg(p.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    p.wait()


def ready(path):
    with open(path, errors="replace") as f:
        return READY in f.read()


def wait(p, path, deadline):
    while time.time() < deadline:
        if p.poll() is not None:
            return f"exit rc={p.returncode}"
        if ready(path):
            time.sleep(1)
            return "ready"
        time.sleep(0.5)
    return "timeout"


def pack(logs=LOGS, name="slogs"):
    """The logs so far, as $OUT/NAME.tgz (what the device call brings back)."""
    os.makedirs(OUT, exist_ok=True)
    with tarfile.open(os.path.join(OUT, f"{name}.tgz"), "w:gz") as t:
        t.add(logs, arcname=name)


def main():
    total, par, names = float(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
    end = time.time() + total
    os.makedirs(LOGS, exist_ok=True)
    todo = [n for n in names if not os.path.exists(os.path.join(LOGS, n + ".done"))]
    running = []  # (name, proc, log, deadline, t0, first_proc)
    port = 8100
    while todo or running:
        while todo and len(running) < par:
            n = todo.pop(0)
            if time.time() > end - 25:
                print(f"SKIP {n} (time)", flush=True)
                continue
            c = json.load(open(f".gpu/run/scases/{n}.json"))
            log = os.path.join(LOGS, n + ".log")
            first = None
            if "first" in c:
                port += 1
                flog = os.path.join(LOGS, n + ".first.log")
                first = start(c["first"]["args"], c["first"].get("env", {}), port, flog)
                st = wait(first, flog, min(end, time.time() + 200))
                print(f"{n} first engine: {st}", flush=True)
            if not c.get("same_port_as_first"):
                port += 1
            t0 = time.time()
            dl = min(end, t0 + c.get("timeout", 150))
            running.append((n, start(c["args"], c.get("env", {}), port, log), log, dl, t0, first))
        time.sleep(0.5)
        for item in list(running):
            n, p, log, dl, t0, first = item
            st = None
            if p.poll() is not None:
                st = f"exit rc={p.returncode}"
            elif ready(log):
                time.sleep(1)
                st = "ready"
            elif time.time() > dl:
                st = "timeout"
            if st is None:
                continue
            kill(p)
            if first is not None:
                kill(first)
            running.remove(item)
            line = f"{n} {st} secs={time.time() - t0:.0f}"
            print(line, flush=True)
            with open(os.path.join(LOGS, "summary.txt"), "a") as f:
                f.write(line + "\n")
            open(os.path.join(LOGS, n + ".done"), "w").close()
            pack()
    pack()


if __name__ == "__main__":
    main()
