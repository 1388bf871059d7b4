"""fresh-506: an unseen made-here batch: OLD GROUND AROUND THE ENGINES, NEW DRAW, round 23. fresh-488's procedure
(itself fresh-476's, 464's, 451's, 446's and 437's) repeated exactly with seed 2506, N = 10; fresh-488's kept draws
join the already-made set. Ports 27020-27029 (router 27020, engines 27021 / 27022), work dir /tmp/fresh506.

IMPORTED, not copied (batch.md step 2): tools/doctor_corpus_fresh488.py (F488) and through it fresh-476's module
(F476: TOOLS, tool(), made(), every earlier tool's kept draws, the case makers). F488.draw() IS the draw loop used
here, unchanged: it reads the module globals SEED, N and EARLIER at call time, so draw() here sets F488.SEED = 2506,
F488.N = 10 and F488.EARLIER = F488's list + ["F488"], with F476.F488 a stand-in whose draw() returns fresh-488's
committed kept triples (F488.kept_draws(), read from its draw file) -- so fresh-488's kept triples are skipped as
'kept by fresh-488', beside every batch fresh-488 already skipped (fresh-304 ... 464 and 476). F488's file is NOT
edited. The case makers are F488's (systemd_case, render_case, bench_case, up_case), which read F488's module globals
WORK / VALUES / KEY / ports at call time: point_f488() re-points them at this batch before each case. No loop of
this batch's own. corpus_tools.pool_after does not apply: this procedure draws (tool, condition, class) triples
with replacement-by-skip, it adds no classes.
No other batch of this theme is on main at 181c7655 after fresh-488 (manifest batch header first lines checked for
'AROUND THE ENGINES': fresh-476 and fresh-488 the last ones).
Procedure (fixed here and committed, with `--draws` output in tools/doctor_corpus_fresh506_draw.txt, before any case
ran): r = random.Random(2506); repeat until N = 10 are kept: tool = r.choice(TOOLS); condition =
r.choice(list(tool.CONDITIONS)); value class = r.choice(tool.CONDITIONS[condition]). A triple is drawn anew when its
(condition, value class) was made by that tool's own batch, when fresh-304 ... 464, 476 or 488 kept it, or when it
repeats a triple kept here. `--draws` is run twice with PYTHONHASHSEED=0 and the outputs compared (cmp) before it is
committed. Nothing is redrawn afterwards; a case that cannot be made in time is said so in the manifest header.
Task rule (as fresh-476 / 488): no log pastes `servebox up`'s INCIDENT lines or incidents.jsonl.
Read: common.md, batch.md, the brief, fresh-488's header (to the lead's "Measured when made" line), its first [[case]],
tools/doctor_corpus_fresh488.py (whole) and its _draw.txt, F476's draw / makers, the earlier makers named in VALUES.
Not read: servebox/doctor/**, knowledge patterns, tests/test_doctor*.py, benchmarks internals, earlier logs.
Doctor never run.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh506.py --draws | --values | K ...
"""

from __future__ import annotations

import sys
import types
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import doctor_corpus_fresh488 as F488  # noqa: E402

F476 = F488.F476
SEED, N = 2506, 10
TOOLS, tool, made = F488.TOOLS, F488.tool, F488.made
PREDECESSOR_EARLIER = list(F488.EARLIER)


def draw():
    """F488.draw() itself, with SEED / N here and fresh-488's committed kept triples in the already-made dict."""
    kept488 = F488.kept_draws()
    F476.F488 = types.SimpleNamespace(draw=lambda: (kept488, []))
    F488.SEED, F488.N = SEED, N
    F488.EARLIER = PREDECESSOR_EARLIER + ["F488"]
    try:
        return F488.draw()
    finally:
        F488.SEED, F488.N, F488.EARLIER = 2488, 10, PREDECESSOR_EARLIER


DRAW_FILE = Path(__file__).resolve().parent / "doctor_corpus_fresh506_draw.txt"


def main() -> None:
    if sys.argv[1:] == ["--draws"]:
        kept, skipped = draw()
        for k, (n, c, v) in enumerate(kept, 1):
            print(f"draw {k}: fresh-{n} | {c} | {v}")
        for n, c, v, why in skipped:
            print(f"drawn anew: fresh-{n} | {c} | {v} | {why}")
        return
    raise SystemExit(__doc__)


if __name__ == "__main__":
    main()
