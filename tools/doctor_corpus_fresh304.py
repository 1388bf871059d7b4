"""fresh-304: an unseen made-here batch: OLD GROUND AROUND THE ENGINES, NEW DRAW. A representative re-draw over the
condition spaces earlier makers defined for what surrounds the engines: hand-written systemd units checked with the
real systemd-analyze 252, servebox's own verbs, the client's side, and the engine confined as a container confines it.

Earlier maker tools of these kinds (tools/doctor_corpus_fresh2*.py whose CONDITIONS dict imports and re-runs here,
checked with `grep -l "systemd-analyze\\|servebox up\\|servebox render\\|unshare -m\\|openai SDK"` and each tool's first
lines), INCLUDED, in this order (TOOLS):
  228 systemd units, one directive wrong (18 conditions, 36 classes)
  236 systemd companion files: .socket/.path/.timer/.mount/tmpfiles.d/sysusers.d (17, 34)
  277 systemd, two settings that meet (13, 26)
  287 hardened systemd units, two hardening/resource directives (12, 24)
  289 `servebox up` with a real engine going wrong (16, 37)
  290 the client's side: openai SDK, vllm bench/chat/complete, curl (16, 33)
  293 the engine confined as a container confines it (14, 46)
  295 hardened systemd units against what an engine needs (16, 32)
  296 servebox provision / lock / fetch-model (16, 36)
  298 servebox render / check / plan (15, 39)
EXCLUDED: fresh-23 ("mistakes AROUND an engine", its files/machine/service) has no CONDITIONS dict (its draw was over
lists of another shape), so it cannot be re-run by this procedure; the process-environment tools (fresh-225, 234, 275,
276), version drift (281/282) and the engines' own option/request tools are not one of the four kinds the theme names
(units, servebox verbs, client, container); fresh-20/25 are engine-flag and model-file batches.

Procedure (fixed here and committed before any case ran): r = random.Random(2304); repeat until 11 kept:
  tool = r.choice(TOOLS); condition = r.choice(list(tool.CONDITIONS)); value class = r.choice(tool.CONDITIONS[condition]);
  a triple is skipped (and listed, with its reason, by --draws) if that tool's earlier batch already made its exact
  (condition, value class) -- the kept pairs of the tool's own draws() (= its *_draw*.txt "draw N" lines; the manifest
  headers were read for cases made otherwise, none found) -- or if the same triple was kept before in this draw; the
  next triple of the same stream is then taken. Nothing is redrawn afterwards; a case that cannot be made in time is
  said so in the manifest header, not replaced.
Realisation: each kept triple gets a concrete value of the maker's choosing inside its class, written (VALUES below,
with what is expected) BEFORE the case runs, on an otherwise healthy base as the earlier tool built it: systemd cases
reuse that tool's base units/drop-ins and root builder (base unit = the one the value class names, else
BASES[(k-1) % 3] for draw k), run `systemd-analyze verify --man=no --root=ROOT` (and `security --offline=yes` for the
hardening tools) as they did; servebox / client / container cases reuse the earlier tool's base spec, server command and
setup, with this batch's ports 23130-23229 (router 23130, engines 23131/23132). One engine at a time, timeouts, each
engine's process group killed after the case.
Log = what a user pastes: `$ cat` of the files/spec, the `$ ` commands, whole stdout+stderr, `# request:` lines,
`# exit: N`. Files tests/fixtures/doctor-corpus/fresh304-<kind>-<slug>.log.
Read: common.md, batch.md, the ten tools above (docstrings, CONDITIONS, base builders), their *_draw*.txt and manifest
headers, tools/corpus_tools.py. Not read: servebox/doctor/*.py, knowledge patterns, tests/test_doctor*.py, benchmarks
internals, earlier logs. Doctor never run.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh304.py --draws
"""

from __future__ import annotations

import importlib
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

SEED, N = 2304, 11
TOOLS = [228, 236, 277, 287, 289, 290, 293, 295, 296, 298]


def tool(n: int):
    return importlib.import_module(f"doctor_corpus_fresh{n}")


def made(n: int) -> set[tuple[str, str]]:
    kept, _ = tool(n).draws()
    return set(kept)


def draw():
    r = random.Random(SEED)
    earlier = {n: made(n) for n in TOOLS}
    kept: list[tuple[int, str, str]] = []
    skipped: list[tuple[int, str, str, str]] = []
    while len(kept) < N:
        n = r.choice(TOOLS)
        conditions = tool(n).CONDITIONS
        condition = r.choice(list(conditions))
        value = r.choice(conditions[condition])
        if (condition, value) in earlier[n]:
            skipped.append((n, condition, value, f"made by fresh-{n} already"))
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
            print(f"skipped: fresh-{n} | {c} | {v} | {why}")
        return
    raise SystemExit(__doc__)


if __name__ == "__main__":
    main()
