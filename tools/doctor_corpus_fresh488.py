"""fresh-488: an unseen made-here batch: OLD GROUND AROUND THE ENGINES, NEW DRAW, round 22. fresh-476's procedure
(itself fresh-464's, 451's, 446's and 437's) repeated exactly with seed 2488, N = 10; fresh-476's kept draws join the
already-made set. Ports 26780-26789 (router 26780, engines 26781 / 26782), work dir /tmp/fresh488.

IMPORTED, not copied (batch.md step 2): tools/doctor_corpus_fresh476.py (F476) and through it fresh-304's TOOLS, tool()
and made(), and every earlier kept draw (F304 ... F464, F476 draw(), imported unchanged; functools.cache as fresh-476
already wraps them, speed only). The case makers are F476's (systemd_case, up_case, client_tool/client_case,
provision_case) called with F476's module globals re-pointed at this batch (WORK, ROUTER, PORT_A, PORT_B, VALUES, KEY).
Parametrised here because F476 bakes them into a function (F476's file is NOT edited): F476.draw() holds its seed,
N and the already-made dict as locals / module constants, so draw() here is that same loop with fresh-476's kept
triples added to the already-made dict ('kept by fresh-476'); F476.client_case picks its branch by draw number
(k == 1, 9), so client_case here maps this batch's draw numbers to F476's branches by condition.
No other batch of this theme is on main at 60362538 after fresh-476 (batch header first lines checked for
'AROUND THE ENGINES': fresh-464 and fresh-476 the last ones).
Procedure (fixed here and committed, with `--draws` output in tools/doctor_corpus_fresh488_draw.txt, before any case
ran): r = random.Random(2488); repeat until N = 10 are kept: tool = r.choice(TOOLS); condition =
r.choice(list(tool.CONDITIONS)); value class = r.choice(tool.CONDITIONS[condition]). A triple is drawn anew when its
(condition, value class) was made by that tool's own batch, when fresh-304 ... 464 or 476 kept it, or when it repeats
a triple kept here. `--draws` is run twice with PYTHONHASHSEED=0 and the outputs compared (cmp) before it is committed.
Nothing is redrawn afterwards; a case that cannot be made in time is said so in the manifest header, not replaced.
Task rule (as fresh-476): no log pastes `servebox up`'s INCIDENT lines or incidents.jsonl (F476.up_case drops them).
Read: common.md, batch.md, the brief, fresh-476's header (to the lead's measurement lines), its first [[case]]s,
tools/doctor_corpus_fresh476.py (whole) and its _draw.txt, the earlier makers named in VALUES.
Not read: servebox/doctor/**, knowledge patterns, tests/test_doctor*.py, benchmarks internals, earlier logs.
Doctor never run.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh488.py --draws | --values | K ...
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import doctor_corpus_fresh476 as F476  # noqa: E402

SEED, N = 2488, 10
TOOLS, tool, made = F476.TOOLS, F476.tool, F476.made
EARLIER = [
    "F304", "F311", "F321", "F325", "F335", "F350", "F355", "F363", "F369", "F374",
    "F388", "F404", "F407", "F414", "F422", "F433", "F437", "F446", "F451", "F464",
]  # fmt: skip


def draw():
    """F476.draw()'s loop with SEED, N here and fresh-476's own kept triples in the already-made dict."""
    r = random.Random(SEED)
    earlier = {n: made(n) for n in TOOLS}
    before = {f"fresh-{m[1:]}": set(getattr(F476, m).draw()[0]) for m in EARLIER}
    before["fresh-476"] = set(F476.draw()[0])
    kept: list[tuple[int, str, str]] = []
    skipped: list[tuple[int, str, str, str]] = []
    while len(kept) < N:
        n = r.choice(TOOLS)
        conditions = tool(n).CONDITIONS
        condition = r.choice(list(conditions))
        value = r.choice(conditions[condition])
        triple = (n, condition, value)
        by = [b for b, s in before.items() if triple in s]
        if (condition, value) in earlier[n]:
            skipped.append((n, condition, value, f"made by fresh-{n} already"))
        elif by:
            skipped.append((n, condition, value, f"kept by {by[0]}"))
        elif triple in kept:
            skipped.append((n, condition, value, "drawn before in this draw"))
        else:
            kept.append(triple)
    return kept, skipped


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
