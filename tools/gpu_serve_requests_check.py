"""CPU check of tools/gpu_serve_requests.py's fresh-327 steps ("hog_after", "disconnect") and the old ones they sit
beside (post, get, sleep, signal to the EngineCore, wait_exit), with a STAND-IN `vllm serve`: a small HTTP server
that prints vLLM's ready line and serves /v1/completions (plain or streamed), with a child process whose command line
says EngineCore (it prints a line every 0.5 s, so a SIGSTOP shows as a gap; the server exits when it dies).
Usage: .venv-vllm/bin/python tools/gpu_serve_requests_check.py   (a Python with torch: the hog runs with HOG_DEVICE=cpu)
Runs the driver in a temporary HOME, checks the client notes and logs, prints them, exits 1 on a failed check."""

import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

FAKE = r"""
import json, os, subprocess, sys, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
port = int(sys.argv[sys.argv.index("--port") + 1])
core = subprocess.Popen([sys.executable, "-u", "-c",
    "import time\nwhile True:\n    print('EngineCore step', time.strftime('%H:%M:%S'), flush=True)\n    time.sleep(0.5)",
    "EngineCore"])
def watch():
    core.wait()
    print(f"EngineCore pid {core.pid} died rc={core.returncode}; API server exits", flush=True)
    os._exit(1)
threading.Thread(target=watch, daemon=True).start()
class H(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *a):
        print("access", *a, flush=True)
    def do_GET(self):
        self.send_response(200); self.send_header("Content-Length", "0"); self.end_headers()
    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        n = body.get("max_tokens", 16)
        if body.get("stream"):
            self.send_response(200); self.send_header("Content-Type", "text/event-stream")
            self.send_header("Transfer-Encoding", "chunked"); self.end_headers()
            for i in range(n):
                d = f"data: {{\"tok\": {i}}}\n\n".encode()
                try:
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(d), d)); self.wfile.flush()
                except OSError as e:
                    print(f"stream: client gone after {i} chunks ({type(e).__name__})", flush=True)
                    return
                time.sleep(0.05)
            self.wfile.write(b"0\r\n\r\n")
            return
        time.sleep(min(n * 0.01, 3))
        out = json.dumps({"prompt_tokens": len(body.get("prompt", [])), "max_tokens": n}).encode()
        try:
            self.send_response(200); self.send_header("Content-Length", str(len(out))); self.end_headers()
            self.wfile.write(out)
        except OSError as e:
            print(f"plain: client gone ({type(e).__name__})", flush=True)
print("INFO Started server process", flush=True)
print("INFO:     Application startup complete.", flush=True)
ThreadingHTTPServer(("127.0.0.1", port), H).serve_forever()
"""

LONG = {"post": "/v1/completions", "body": {"prompt_len": 20, "max_tokens": 200}, "bg": True}
SHORT = {"post": "/v1/completions", "body": {"prompt_len": 50, "max_tokens": 16}}
CASES = {
    "hogfit": {"steps": [LONG, {"sleep": 0.5}, {"hog_after": {"gib": 0.01}}, SHORT, {"sleep": 1}]},
    "hogover": {"steps": [LONG, {"hog_after": {"gib": 100000}}, SHORT]},
    "disc": {"steps": [
        {"disconnect": "/v1/completions", "body": {"prompt_len": 30, "max_tokens": 3000, "stream": True}, "after": 1},
        {"disconnect": "/v1/completions", "body": {"prompt_len": 30, "max_tokens": 3000}, "after": 1},
        *[{"disconnect": "/v1/completions", "body": {"prompt_len": 10, "max_tokens": 3000, "stream": True},
           "after": 1.5, "bg": True} for _ in range(3)],
        {"sleep": 2.5}, SHORT]},
    "stopkill": {"steps": [
        {"signal": "SIGSTOP", "to": "engine_core"}, {"sleep": 3}, {"signal": "SIGCONT", "to": "engine_core"},
        {"sleep": 1}, {"signal": "SIGKILL", "to": "engine_core"}, {"wait_exit": 10}]},
    "gone": {"steps": [{"signal": "SIGKILL", "to": "api"}, {"sleep": 1},
                       {"disconnect": "/v1/completions", "body": {"prompt_len": 5}, "after": 1}]},
}  # fmt: skip


def main():
    home = tempfile.mkdtemp(prefix="gpu327-check-")
    pkg = os.path.join(home, "site", "vllm", "entrypoints", "cli")
    os.makedirs(pkg)
    for d in ("vllm", "vllm/entrypoints", "vllm/entrypoints/cli"):
        open(os.path.join(home, "site", d, "__init__.py"), "w").close()
    with open(os.path.join(pkg, "main.py"), "w") as f:
        f.write(FAKE)
    cases = os.path.join(home, "cases.json")
    for c in CASES.values():
        c.update({"args": ["fake-model"], "timeout": 30, "mem": 0.1})
    with open(cases, "w") as f:
        json.dump({"cases": CASES}, f)
    env = {**os.environ, "HOME": home, "OUT": os.path.join(home, "out"), "HOG_DEVICE": "cpu"}
    r = subprocess.run([sys.executable, os.path.join(HERE, "gpu_serve_requests.py"), cases, "120", "5", "0.95",
                        *CASES], env=env, capture_output=True, text=True, timeout=200)  # fmt: skip
    print(r.stdout, r.stderr[-2000:])
    logs = os.path.join(home, "stash", "rlogs")
    text = {}
    for n in sorted(os.listdir(logs)):
        with open(os.path.join(logs, n), errors="replace") as f:
            text[n] = f.read()
        if not n.endswith(".done"):
            shown = "\n".join(x for x in text[n].splitlines() if "EngineCore step" not in x)
            print(f"==== {n}\n{shown[-1500:]}")
    checks = [
        ("hogfit", "co-tenant hog 0.01 GiB pid=" in text["hogfit.client.txt"] and "rc=None" in text[
            "hogfit.client.txt"] and "HOG READY" in text["hogfit.hog.log"]),
        ("hogfit short request after the hog", text["hogfit.client.txt"].count("-> 200") == 2),
        ("hogover: the hog failed, noted with its rc", "co-tenant hog 100000 GiB" in text["hogover.client.txt"]
         and "rc=1" in text["hogover.client.txt"]),
        ("hogover: server still answers", "-> 200" in text["hogover.client.txt"]),
        ("disc: stream read then closed", "HTTP/1.1 200 OK; client closed the connection" in text[
            "disc.client.txt"]),
        ("disc: plain closed before a reply", "no reply; client closed the connection" in text["disc.client.txt"]),
        ("disc: the server saw 4 streams go", text["disc.log"].count("stream: client gone") == 4),
        ("disc: plain reply went nowhere", "plain: client gone" in text["disc.log"]),
        ("stopkill: a gap while stopped", "signal SIGSTOP to engine_core pids=[" in text["stopkill.client.txt"]),
        ("stopkill: server exited after EngineCore SIGKILL", "api server exited rc=1" in text[
            "stopkill.client.txt"]),
        ("gone: refused connection noted", "EXC ConnectionRefusedError" in text["gone.client.txt"]),
        ("every case done", all(f"{n}.done" in text for n in CASES)),
    ]  # fmt: skip
    # the EngineCore stand-in printed nothing for ~3 s while stopped
    steps = [x.split()[2] for x in text["stopkill.log"].splitlines() if x.startswith("EngineCore step")]
    secs = [int(h) * 3600 + int(m) * 60 + int(s) for h, m, s in (t.split(":") for t in steps)]
    checks.append(("stopkill: >= 2.5 s gap", any(b - a >= 3 for a, b in zip(secs, secs[1:], strict=False))))

    # a done marker counts only for its own cases file: the same file again runs nothing, another file with the same
    # case id runs it (stop 43: fresh-349's markers made fresh-348's first call skip its own e01..e07)
    def rerun(path):
        subprocess.run([sys.executable, os.path.join(HERE, "gpu_serve_requests.py"), path, "150", "5", "0.95", "gone"],
                       env=env, capture_output=True, text=True, timeout=200)  # fmt: skip
        with open(os.path.join(logs, "summary.txt")) as f:
            return f.read().count("gone ")

    before = text["summary.txt"].count("gone ")
    other = os.path.join(home, "other-cases.json")
    with open(cases) as f, open(other, "w") as g:
        g.write(f.read())
    checks.append(("the same cases file skips a done case", rerun(cases) == before))
    checks.append(("another cases file runs the same id again", rerun(other) == before + 1))
    bad = [n for n, ok in checks if not ok]
    print("CHECKS:", "all passed" if not bad else f"FAILED {bad}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
