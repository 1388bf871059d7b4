"""fresh-476: an unseen made-here batch: OLD GROUND AROUND THE ENGINES, NEW DRAW, round 21. The same representative
re-draw over the condition spaces earlier makers defined for what surrounds the engines (hand-written systemd units
checked with the real systemd-analyze 252, servebox's own verbs, the router, installs, the client's side, files around
the engines) that tools/doctor_corpus_fresh304.py ... fresh451.py and fresh464.py made, with a new seed:
tools/doctor_corpus_fresh464.py's procedure (itself fresh-451's, fresh-446's and fresh-437's) copied exactly (seed
2476, N = 10); fresh-464's kept draws join the already-made set.

Imported from tools/doctor_corpus_fresh304.py UNCHANGED: its TOOLS (fresh-228, 236, 277, 287, 289, 290, 293, 295,
296, 298, in that order), each tool's CONDITIONS and its made() (the (condition, value class) pairs each tool's own
batch already made); fresh-304's, 311's, 321's, 325's, 335's, 350's, 355's, 363's, 369's, 374's, 388's, 404's, 407's,
414's, 422's, 433's, 437's, 446's, 451's and now fresh-464's kept triples (their draw(), imported unchanged) join the
already-made set. Left out of the already-made set: all that fresh-464 left out (fresh-403, 405, 406: OLD GROUND, NEW
DRAW over the engines' own tools, none in TOOLS). No other batch of this theme is on main at cfba8c32 after fresh-464
(manifest batch header first lines checked for 'AROUND THE ENGINES': fresh-433, 437, 446, 451, 464 the last ones).
Speed only: each earlier tool's draw() is wrapped in functools.cache on its module before the draw (as fresh-464;
F464.draw()[0] checked equal to fresh-464's committed draw file).

Procedure (fixed here and committed, with `--draws` output in tools/doctor_corpus_fresh476_draw.txt, before any case
ran): r = random.Random(2476); repeat until N = 10 are kept: tool = r.choice(TOOLS); condition =
r.choice(list(tool.CONDITIONS)); value class = r.choice(tool.CONDITIONS[condition]). A triple is drawn anew (the next
triple of the same stream is taken) when its (condition, value class) was made by that tool's own batch, when
fresh-304, 311, 321, 325, 335, 350, 355, 363, 369, 374, 388, 404, 407, 414, 422, 433, 437, 446, 451 or 464 kept it, or
when it repeats a triple kept here. `--draws` lists the kept triples and every triple drawn anew with its reason.
`--draws` is run TWICE with PYTHONHASHSEED=0 and the two outputs compared (`cmp`) before the draw file is committed.
Nothing is redrawn afterwards; a case that cannot be made in time is said so in the manifest header, not replaced.
Realisation (as fresh-464): each kept triple gets one concrete value of the maker's choosing inside its class,
written (VALUES, with the predicted outcome and family) BEFORE the case runs, on an otherwise healthy base as the
earlier tool built it, with this batch's folders under /tmp/fresh476 and ports 26670-26679 (router 26670, engines
26671 / 26672). One engine at a time, timeouts, each engine's process group killed after the case.
Task rule: a case never pastes `servebox up`'s own INCIDENT lines or incidents.jsonl (servebox's own diagnosis);
where a drawn case would, only the engine's and the router's own lines are kept, and the header says so.
Log = what a user pastes: `$ cat` of the files/spec, the `$ ` commands, whole stdout+stderr, `# request:` lines,
`# exit: N`. Files tests/fixtures/doctor-corpus/fresh476-<kind>-<slug>.log.
Time: the brief gives 50 minutes of cases; cases that cannot be made in that time are said so (fewer cases).
Read: common.md, batch.md, the brief, tools/doctor_corpus_fresh464.py (whole) and its _draw.txt, fresh-464's manifest
header (down to the lead's measurement line) and its first [[case]], the manifest's batch header first lines, the
makers of the earlier tools named in VALUES.
Not read: servebox/doctor/**, knowledge patterns, tests/test_doctor*.py, benchmarks internals, earlier logs.
Doctor never run.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh476.py --draws | --values | K ...
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
import doctor_corpus_fresh464 as F464  # noqa: E402

SEED, N = 2476, 10
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
    F464,
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
        "fresh-464": set(F464.draw()[0]),
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


WORK = Path("/tmp/fresh476")
ROUTER, PORT_A, PORT_B = 26670, 26671, 26672
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"


VALUES: dict = {}


DRAW_FILE = Path(__file__).resolve().parent / "doctor_corpus_fresh476_draw.txt"


def kept_draws() -> list[tuple[int, str, str]]:
    """The committed draw file's kept lines (its `--draws` output, run twice and compared before it was committed)."""
    kept = []
    for line in DRAW_FILE.read_text().splitlines():
        if line.startswith("draw "):
            n, c, v = line.split(": ", 1)[1].split(" | ")
            kept.append((int(n.removeprefix("fresh-")), c, v))
    assert len(kept) == N
    return kept


def servebox_298_case(k: int) -> str:
    """fresh-298's llama spec and runner; the spec in deploy/, the folder given as the spec path."""
    import shutil

    t = tool(298)
    t.WORK = WORK / "s298"
    t.WORK.mkdir(parents=True, exist_ok=True)
    case = WORK / "run" / VALUES[k][0]
    shutil.rmtree(case, ignore_errors=True)
    (case / "deploy").mkdir(parents=True)
    (case / "deploy" / "spec.toml").write_text(t.llama_spec())
    text = t.shell(case, "cat deploy/spec.toml") + t.shell(case, "ls deploy")
    return text + t.run(case, ["servebox", "render", "deploy", "--out", "out"])


def make(k: int) -> None:
    import time

    n, condition, value = kept_draws()[k - 1]
    cid = VALUES[k][0]
    t0 = time.monotonic()
    if n in (228, 236, 295):
        text = systemd_case(k, n, condition, value)
    elif n == 290:
        client_case(k)  # fresh-290's writer names the file from the case id
        print(f"{cid}: {time.monotonic() - t0:.0f} s", flush=True)
        return
    elif n == 298:
        text = servebox_298_case(k)
    elif n == 293:
        text = container_case(k, value)
    elif n == 289:
        text = up_case(k, condition, value)
    else:
        raise SystemExit(f"draw {k} ({cid}): no maker")
    (OUT / f"{cid}.log").write_text(text.rstrip() + "\n")
    print(f"{cid}: {len(text.splitlines())} lines, {time.monotonic() - t0:.0f} s", flush=True)


def main() -> None:
    if sys.argv[1:] == ["--draws"]:
        kept, skipped = draw()
        for k, (n, c, v) in enumerate(kept, 1):
            print(f"draw {k}: fresh-{n} | {c} | {v}")
        for n, c, v, why in skipped:
            print(f"drawn anew: fresh-{n} | {c} | {v} | {why}")
        return
    if sys.argv[1:2] == ["--values"]:
        for k, (cid, value, outcome, expected) in VALUES.items():
            print(f"draw {k}: {cid}\n  value: {value}\n  expect: {outcome}\n  expected: {expected}")
        return
    if not sys.argv[1:]:
        raise SystemExit(__doc__)
    for k in [int(a) for a in sys.argv[1:]]:
        make(k)


if __name__ == "__main__":
    main()
