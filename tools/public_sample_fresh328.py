"""fresh-328's sampling rule, fixed and committed before any search: PUBLIC failures from Q&A and FORUM PAGES (the
`pages` corpus: forum threads, Q&A, blog posts where a user pastes a vLLM / llama.cpp / llama-server / llama-swap
failure log and someone states what fixed it), sampled by SYMPTOM, i.e. by the words a user types when the server
does not work, not by any engine's error message. fresh-314 did the same over the `issues` corpus (5 taken of 304).

ENGINES E (4, as typed in the query): vllm, llama.cpp, llama-server, llama-swap.
SYMPTOMS S (10, new, user-level, naming no cause; none is one of fresh-314's): see SYMPTOMS below.
QUERIES: every (e, s) as "<e> <s>" (40), built engine-major in the order above, ordered by
random.Random(2328).shuffle.
PROCEDURE: each query in order, the `search` tool, corpus "pages"; results judged in rank order. A page is TAKEN
when (a) `python tools/corpus_split.py URL` says measure, (b) its URL (as corpus_split normalises it) is not already
a `source` in tests/fixtures/doctor-corpus/manifest.toml (nor taken earlier in this batch), (c) the excerpt(s)
readable (search results; a follow-up `pages` search on the page's own words may give more of it, its other results
never taken themselves) paste a real log/traceback of the failure, (d) its cause is confirmed on the page (an answer
the asker accepted or confirmed, or the author's own fix) or stated by the log with one reading. Stop at 12 taken or
when the queries run out. Every judged result is recorded in tools/public_sample_fresh328.txt (URL, side, taken /
why not).

Usage: python tools/public_sample_fresh328.py            (prints the 40 queries in order)
       python tools/public_sample_fresh328.py --judge URL... (side, and whether the URL is already a source)
"""

from __future__ import annotations

import random
import sys
import tomllib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus_split import MANIFEST, normalise, side  # noqa: E402

SEED = 2328
ENGINES = ["vllm", "llama.cpp", "llama-server", "llama-swap"]
SYMPTOMS = [
    "won't start error",
    "crashes after loading model",
    "CUDA error when serving",
    "stuck loading",
    "OOM when starting server",
    "error when running in docker",
    "systemd service fails",
    "connection refused to server",
    "returns 400 bad request",
    "slow then dies",
]


def queries() -> list[str]:
    qs = [f"{e} {s}" for e in ENGINES for s in SYMPTOMS]
    random.Random(SEED).shuffle(qs)
    return qs


def judge(urls: list[str]) -> None:
    sources = {
        normalise(c["source"])
        for c in tomllib.loads(MANIFEST.read_text())["case"]
        if c["source"].startswith("http")
    }
    for url in urls:
        seen = "ALREADY A SOURCE" if normalise(url) in sources else "new"
        print(f"{side(url)}\t{seen}\t{url}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--judge"]:
        judge(sys.argv[2:])
    else:
        print(f"# tools/public_sample_fresh328.py, SEED {SEED}, printed before any search")
        for i, q in enumerate(queries(), 1):
            print(f"{i:2d}. {q}")
