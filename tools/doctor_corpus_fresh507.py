"""fresh-507: draft."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import doctor_corpus_fresh489 as prev  # noqa: E402

base = prev.base  # fresh-477's module, as fresh-489 parametrised it
SEED, N = 2507, 10
WORK = Path("/tmp/fresh507")
PORT = 27030
KEPT_489 = prev.draws()[0]  # fresh-489's own kept pairs, computed with its seed before anything is changed
_EARLIER_489 = prev.earlier_pairs


def earlier_pairs() -> set:
    """fresh-489's already-made set (fresh-477's set plus fresh-477's kept pairs) plus fresh-489's ten kept pairs."""
    return _EARLIER_489() | {frozenset((v1, v2)) for (_, v1), (_, _, v2) in KEPT_489}


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


if __name__ == "__main__":
    main()
