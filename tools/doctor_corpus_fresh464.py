"""fresh-464: an unseen made-here batch: OLD GROUND AROUND THE ENGINES, NEW DRAW, round 20. The same representative
re-draw over the condition spaces earlier makers defined for what surrounds the engines (hand-written systemd units
checked with the real systemd-analyze 252, servebox's own verbs, the router, installs, the client's side, files around
the engines) that tools/doctor_corpus_fresh304.py ... fresh446.py and fresh451.py made, with a new seed:
tools/doctor_corpus_fresh451.py's procedure (itself fresh-446's and fresh-437's) copied exactly (seed 2464, N = 10);
fresh-451's kept draws join the already-made set.

Imported from tools/doctor_corpus_fresh304.py UNCHANGED: its TOOLS (fresh-228, 236, 277, 287, 289, 290, 293, 295,
296, 298, in that order), each tool's CONDITIONS and its made() (the (condition, value class) pairs each tool's own
batch already made); fresh-304's, 311's, 321's, 325's, 335's, 350's, 355's, 363's, 369's, 374's, 388's, 404's, 407's,
414's, 422's, 433's, 437's, 446's and now fresh-451's kept triples (their draw(), imported unchanged) join the
already-made set. Left out of the already-made set: all that fresh-451 left out (fresh-403, 405, 406: OLD GROUND, NEW
DRAW over the engines' own tools, none in TOOLS). No other batch of this theme is on main at 248a0397 after fresh-451
(manifest batch header first lines checked for 'AROUND THE ENGINES': fresh-325 ... fresh-446, fresh-451 only).
Speed only: each earlier tool's draw() is wrapped in functools.cache on its module before the draw (each calls its
predecessors' draw() through the module attribute, so the chain ran many times over; the results are the same lists).

Procedure (fixed here and committed, with `--draws` output in tools/doctor_corpus_fresh464_draw.txt, before any case
ran): r = random.Random(2464); repeat until N = 10 are kept: tool = r.choice(TOOLS); condition =
r.choice(list(tool.CONDITIONS)); value class = r.choice(tool.CONDITIONS[condition]). A triple is drawn anew (the next
triple of the same stream is taken) when its (condition, value class) was made by that tool's own batch, when
fresh-304, 311, 321, 325, 335, 350, 355, 363, 369, 374, 388, 404, 407, 414, 422, 433, 437, 446 or 451 kept it, or when
it repeats a triple kept here. `--draws` lists the kept triples and every triple drawn anew with its reason. `--draws`
is run TWICE with PYTHONHASHSEED=0 and the two outputs compared (`cmp`) before the draw file is committed. Nothing is
redrawn afterwards; a case that cannot be made in time is said so in the manifest header, not replaced.
Realisation (as fresh-451): each kept triple gets one concrete value of the maker's choosing inside its class,
written (VALUES, with the predicted outcome and family) BEFORE the case runs, on an otherwise healthy base as the
earlier tool built it, with this batch's folders under /tmp/fresh464 and ports 26510-26519 (router 26510, engines
26511 / 26512). One engine at a time, timeouts, each engine's process group killed after the case.
Task rule: a case never pastes `servebox up`'s own INCIDENT lines or incidents.jsonl (servebox's own diagnosis);
where a drawn case would, only the engine's and the router's own lines are kept, and the header says so.
Log = what a user pastes: `$ cat` of the files/spec, the `$ ` commands, whole stdout+stderr, `# request:` lines,
`# exit: N`. Files tests/fixtures/doctor-corpus/fresh464-<kind>-<slug>.log.
Time: the task gives 45 minutes; cases that cannot be made in that time are said so (fewer cases, not overrun).
Read: common.md, batch.md, the task, tools/doctor_corpus_fresh451.py (whole) and its _draw.txt, fresh-451's manifest
header (down to its Judgement calls), the manifest's batch header first lines, the makers of the earlier tools named
in VALUES.
Not read: servebox/doctor/**, knowledge patterns, tests/test_doctor*.py, benchmarks internals, earlier logs.
Doctor never run.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh464.py --draws | --values | K ...
"""

from __future__ import annotations

import functools
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import doctor_corpus_fresh304 as F304  # noqa: E402
import doctor_corpus_fresh311 as F311  # noqa: E402
import doctor_corpus_fresh321 as F321  # noqa: E402
import doctor_corpus_fresh325 as F325  # noqa: E402
import doctor_corpus_fresh335 as F335  # noqa: E402
import doctor_corpus_fresh350 as F350  # noqa: E402
import doctor_corpus_fresh355 as F355  # noqa: E402
import doctor_corpus_fresh363 as F363  # noqa: E402
import doctor_corpus_fresh369 as F369  # noqa: E402
import doctor_corpus_fresh374 as F374  # noqa: E402
import doctor_corpus_fresh388 as F388  # noqa: E402
import doctor_corpus_fresh404 as F404  # noqa: E402
import doctor_corpus_fresh407 as F407  # noqa: E402
import doctor_corpus_fresh414 as F414  # noqa: E402
import doctor_corpus_fresh422 as F422  # noqa: E402
import doctor_corpus_fresh433 as F433  # noqa: E402
import doctor_corpus_fresh437 as F437  # noqa: E402
import doctor_corpus_fresh446 as F446  # noqa: E402
import doctor_corpus_fresh451 as F451  # noqa: E402

SEED, N = 2464, 10
TOOLS = F304.TOOLS
tool, made = F304.tool, F304.made


for _m in (
    F304,
    F311,
    F321,
    F325,
    F335,
    F350,
    F355,
    F363,
    F369,
    F374,
    F388,
    F404,
    F407,
    F414,
    F422,
    F433,
    F437,
    F446,
    F451,
):
    _m.draw = functools.cache(_m.draw)


def draw():
    r = random.Random(SEED)
    earlier = {n: made(n) for n in TOOLS}
    before = {
        "fresh-304": set(F304.draw()[0]),
        "fresh-311": set(F311.draw()[0]),
        "fresh-321": set(F321.draw()[0]),
        "fresh-325": set(F325.draw()[0]),
        "fresh-335": set(F335.draw()[0]),
        "fresh-350": set(F350.draw()[0]),
        "fresh-355": set(F355.draw()[0]),
        "fresh-363": set(F363.draw()[0]),
        "fresh-369": set(F369.draw()[0]),
        "fresh-374": set(F374.draw()[0]),
        "fresh-388": set(F388.draw()[0]),
        "fresh-404": set(F404.draw()[0]),
        "fresh-407": set(F407.draw()[0]),
        "fresh-414": set(F414.draw()[0]),
        "fresh-422": set(F422.draw()[0]),
        "fresh-433": set(F433.draw()[0]),
        "fresh-437": set(F437.draw()[0]),
        "fresh-446": set(F446.draw()[0]),
        "fresh-451": set(F451.draw()[0]),
    }
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
