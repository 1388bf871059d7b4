r"""fresh-513: llama-server run as a service, round 3 (rounds 1-2: fresh-481, fresh-496).
PLACEHOLDER DOCSTRING (replaced with the predictions before any case ran).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus_tools  # noqa: E402
import doctor_corpus_fresh481 as base  # noqa: E402
import doctor_corpus_fresh496 as prev  # noqa: E402

SEED = 2513
N = 10
PORT0 = 27100  # draw N listens on PORT0 + N - 1 (27100..27109)
WORK = Path("/tmp/fresh513")


def already() -> dict[tuple[str, str], str]:
    """fresh-496's ALREADY (fresh-481's 10 draws) plus fresh-496's own 10 draws, recomputed through its draws()."""
    made = dict(prev.ALREADY)
    for i, pair in enumerate(prev.draws()[0], 1):
        made[pair] = f"fresh496 draw {i}"
    return made


ALREADY = already()
# no class is new: the pool below keeps 14 conditions (19 pairs), enough for 10 distinct conditions
CONDITIONS, POOL = corpus_tools.pool_after(base.CONDITIONS, set(ALREADY))


def pool() -> dict[str, list[str]]:
    """fresh-481's CONDITIONS less the ALREADY pairs (corpus_tools.pool_after)."""
    return POOL


def draws():
    return corpus_tools.draw_distinct_conditions(SEED, pool(), N)


def show() -> None:
    kept, redrawn = draws()
    p = pool()
    print(f"fresh-513 draw: seed {SEED}, {len(p)} conditions, {sum(map(len, p.values()))} pairs in the pool")
    print(f"already made (fresh-481's and fresh-496's draws, left out): {len(ALREADY)}")
    for i, (c, v) in enumerate(kept, 1):
        print(f"{i:2d} {c} | {v}")
    print(f"drawn anew ({len(redrawn)}):")
    for c, v, why in redrawn:
        print(f"   {c} | {v} ({why})")


if __name__ == "__main__":
    if "--draws" in sys.argv:
        show()
