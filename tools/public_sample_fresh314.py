"""fresh-314's sampling rule, fixed and committed before any search: PUBLIC failures sampled by SYMPTOM, i.e. by the
words a user types when the server does not work, not by any engine's error message (fresh-221 and fresh-294 drew
the engines' own messages and found no qualifying thread: the drawn messages were too new or too internal).

PROJECTS P (short name used in the query): vllm-project/vllm (vllm), ggml-org/llama.cpp (llama.cpp),
mostlygeek/llama-swap (llama-swap).
SYMPTOMS S (10, generic, user-level, naming no cause): see SYMPTOMS below.
QUERIES: every (p, s) as "<s> <project short name>" (30), ordered by random.Random(2314).shuffle of the list built
project-major in the order above.
PROCEDURE: each query in order, the `search` tool, corpus "issues"; results judged in rank order. A thread is TAKEN
when (a) `python tools/corpus_split.py URL` says measure, (b) its URL (any form) is not already a `source` in
tests/fixtures/doctor-corpus/manifest.toml, (c) the excerpt(s) readable (search results; a follow-up search on the
thread's own words may give more of it, its results never taken themselves) paste a real log/traceback of the failure,
(d) its cause is confirmed in the thread (maintainer or reporter's confirmed fix) or stated by the log with one
reading. Stop at 12 taken or when the queries run out. Every judged result is recorded in
tools/public_sample_fresh314.txt (URL, side, taken / why not).

Usage: python tools/public_sample_fresh314.py   (prints the 30 queries in order)
"""

from __future__ import annotations

import random

SEED = 2314
PROJECTS = ["vllm", "llama.cpp", "llama-swap"]
SYMPTOMS = [
    "server fails to start",
    "crashes on startup with traceback",
    "error loading model",
    "exits immediately",
    "killed",
    "hangs at",
    "500 internal server error",
    "not responding after",
    "failed to start service systemd",
    "docker container exits",
]


def queries() -> list[str]:
    qs = [f"{s} {p}" for p in PROJECTS for s in SYMPTOMS]
    random.Random(SEED).shuffle(qs)
    return qs


if __name__ == "__main__":
    print(f"# tools/public_sample_fresh314.py, SEED {SEED}, printed before any search")
    for i, q in enumerate(queries(), 1):
        print(f"{i:2d}. {q}")
