"""fresh-495: an unseen made-here batch: HOW AN OPERATOR CONFIGURES vLLM OUTSIDE ITS FLAGS, ROUND 2.

fresh-480's procedure repeated with SEED 2495, N = 10, ports 26830-26839, work dir /tmp/fresh495. Everything that
does not change is IMPORTED from tools/doctor_corpus_fresh480.py (never copied, never edited): its CONDITIONS,
ALREADY_MADE, the runner make() with _argv() and vllm_shim() (fresh-290's VLLM_CLI launcher as a bin/vllm shim).

What changes, and how it is parametrised without copying: fresh-480's make() reads its module's globals WORK, TINY,
PORT, COMPLETION and SPECS and writes REPO/tests/fixtures/doctor-corpus/fresh480-vllm-NN-SLUG.log. run_case() below
points those globals at this batch (/tmp/fresh495, port 26830, this batch's SPECS) and REPO at a scratch folder
(/tmp/fresh495/out), so the predecessor's runner can never write over a fresh-480 log; the log it wrote there is
then moved, bytes unchanged, to tests/fixtures/doctor-corpus/fresh495-vllm-NN-SLUG.log. VPY (.venv-vllm's python)
was computed at fresh-480's import from the real repository and is left as is.

Already made (skipped): fresh-480's ALREADY_MADE (8 pairs) plus fresh-480's own 10 draws (recomputed through its
draws(); its header: 'Made: 10 of 10'). fresh-480's grep of the manifest's batch HEADER lines (--config, config.yaml,
VLLM_PORT, VLLM_HOST_IP, VLLM_ENGINE_READY_TIMEOUT_S, VLLM_RPC_TIMEOUT, VLLM_CONFIGURE_LOGGING,
VLLM_LOGGING_CONFIG_PATH) was repeated on the header lines after fresh-480's: no hit. 33 pairs left in 16
conditions, so no new class was needed.

Draw: corpus_tools.draw_distinct_conditions(2495, POOL, 10) (random.Random(2495); per draw condition = choice,
class = choice; a condition drawn before drawn anew and listed). No SHOWN / paste rule: every log is whole.

Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh495.py [--draws | N ...]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus_tools  # noqa: E402

f480 = corpus_tools.load("fresh480", "doctor_corpus_fresh480.py")

SEED, N = 2495, 10
CONDITIONS = f480.CONDITIONS
ALREADY_MADE: set[tuple[str, str]] = set(f480.ALREADY_MADE) | set(f480.draws()[0])
assert len(ALREADY_MADE) == 18, len(ALREADY_MADE)

POOL: dict[str, list[str]] = {
    c: [v for v in vs if (c, v) not in ALREADY_MADE] for c, vs in CONDITIONS.items()
}
POOL = {c: vs for c, vs in POOL.items() if vs}

WORK = Path("/tmp/fresh495")
TINY = str(WORK / "tiny")
PORT = 26830
REPO = Path(__file__).resolve().parent.parent
COMPLETION = ("POST", "/v1/completions", {"model": TINY, "prompt": "Hello, my name is", "max_tokens": 8}, {})


def draws():
    return corpus_tools.draw_distinct_conditions(SEED, POOL, N)


if __name__ == "__main__" and sys.argv[1:2] == ["--draws"]:
    kept, redrawn = draws()
    for i, (c, v) in enumerate(kept, 1):
        print(f"draw {i}: {c} | {v}")
    for c, v, why in redrawn:
        print(f"drawn anew: {c} | {v} ({why})")
    print(
        f"pool: {sum(map(len, POOL.values()))} pairs in {len(POOL)} conditions; already made: {len(ALREADY_MADE)}"
    )
