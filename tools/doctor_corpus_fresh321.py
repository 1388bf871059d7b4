"""fresh-321: an unseen made-here batch: OLD GROUND AROUND THE ENGINES, NEW DRAW, round 3. The same representative
re-draw over the condition spaces earlier makers defined for what surrounds the engines (hand-written systemd units
checked with the real systemd-analyze 252, servebox's own verbs, the client's side, the engine confined as a container
confines it) that tools/doctor_corpus_fresh304.py and tools/doctor_corpus_fresh311.py made, with a new seed.

Imported from tools/doctor_corpus_fresh304.py UNCHANGED: its TOOLS (fresh-228, 236, 277, 287, 289, 290, 293, 295,
296, 298, in that order; its docstring says why fresh-23, the process-environment, version-drift and engine-option
tools are left out), each tool's CONDITIONS (the condition spaces) and its made() (the (condition, value class) pairs
each tool's own batch already made = its own draws()' kept pairs), fresh-304's own kept triples (its draw()) and
fresh-311's kept triples (tools/doctor_corpus_fresh311.py's draw(), imported unchanged).

Procedure (fixed here and committed, with `--draws` output in tools/doctor_corpus_fresh321_draw.txt, before any case
ran): r = random.Random(2321); repeat until N = 11 are kept: tool = r.choice(TOOLS); condition =
r.choice(list(tool.CONDITIONS)); value class = r.choice(tool.CONDITIONS[condition]). A triple is drawn anew (the next
triple of the same stream is taken) when its (condition, value class) was made by that tool's own batch, when
fresh-304 or fresh-311 kept it, or when it repeats a triple kept here. `--draws` lists the kept triples and every
triple drawn anew with its reason. Nothing is redrawn afterwards; a case that cannot be made in time is said so in the
manifest header, not replaced. A drawn case too slow for this shared 2-core machine (a full `servebox provision` of
vLLM, ~12 min) would be made with a smaller equivalent input only where VALUES says so before it runs (none drawn).
Realisation (as fresh-304 / fresh-311): each kept triple gets one concrete value of the maker's choosing inside its
class, written (VALUES, with the predicted outcome and family) BEFORE the case runs, on an otherwise healthy base as
the earlier tool built it (its base units / spec / server command / runner, imported), with this batch's folder
/tmp/fresh321 (/var/tmp/fresh321 for the container case) and ports 24350-24399 (router 24350, engines 24351 / 24352).
One engine at a time, timeouts, each engine's process group killed after the case.
Log = what a user pastes: `$ cat` of the files/spec, the `$ ` commands, whole stdout+stderr, `# request:` lines,
`# exit: N`. Files tests/fixtures/doctor-corpus/fresh321-<kind>-<slug>.log.
Read: common.md, batch.md, tools/doctor_corpus_fresh304.py and fresh311.py, both _draw.txt files, fresh-311's manifest
header; the drawn tools' CONDITIONS and case builders; tools/corpus_tools.py. Not read: servebox/doctor/*.py, knowledge
patterns, tests/test_doctor*.py, benchmarks internals, earlier logs. Doctor never run.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh321.py --draws | --values | K ...
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import doctor_corpus_fresh304 as F304  # noqa: E402
import doctor_corpus_fresh311 as F311  # noqa: E402

SEED, N = 2321, 11
TOOLS = F304.TOOLS
tool, made = F304.tool, F304.made


def draw():
    r = random.Random(SEED)
    earlier = {n: made(n) for n in TOOLS}
    kept304 = set(F304.draw()[0])
    kept311 = set(F311.draw()[0])
    kept: list[tuple[int, str, str]] = []
    skipped: list[tuple[int, str, str, str]] = []
    while len(kept) < N:
        n = r.choice(TOOLS)
        conditions = tool(n).CONDITIONS
        condition = r.choice(list(conditions))
        value = r.choice(conditions[condition])
        if (condition, value) in earlier[n]:
            skipped.append((n, condition, value, f"made by fresh-{n} already"))
        elif (n, condition, value) in kept304:
            skipped.append((n, condition, value, "kept by fresh-304"))
        elif (n, condition, value) in kept311:
            skipped.append((n, condition, value, "kept by fresh-311"))
        elif (n, condition, value) in kept:
            skipped.append((n, condition, value, "drawn before in this draw"))
        else:
            kept.append((n, condition, value))
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
