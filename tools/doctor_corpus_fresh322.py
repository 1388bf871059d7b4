"""Batch fresh-322 (made here, unseen): OLD GROUND, NEW DRAW, round 5 -- the same representative re-draw over the
condition spaces earlier vLLM-cpu makers defined that tools/doctor_corpus_fresh299.py, fresh307.py, fresh309.py and
fresh316.py made, with a new seed, on the real vLLM-cpu 0.32 (.venv-vllm) with the tiny Llama of
tests/engine/make_tiny_model.py (corpus_tools.tiny_model(/tmp/fresh322)).

READ: tools/doctor_corpus_fresh316.py (docstring, procedure, runners: this file is it with a new seed and one more
"already made" set) and tools/doctor_corpus_fresh299.py (TOOLS, vllm_conditions, made_before) and the draw files of
fresh-299, fresh-307, fresh-309 and fresh-316 (their kept triples; their draws() output is what is checked), never
their logs; of the drawn tools (fresh-206 213 214 245 248 251 256 260 271 280) their CONDITIONS and the helpers that
build a drawn value (fresh-271's openssl fixtures "certs,der", fresh-245's chat(return_token_offsets=[0, 5]),
fresh-206's "cfg KEY=JSON", fresh-260's omp-bind-auto-tp-2-reserved-0 spec, fresh-280's added_token edit of
tokenizer.json, fresh-256's WEATHER / NAMED and structured-json-named-tool-choice, fresh-251's values() for
malformed-json (index parity: single quotes), fresh-214's hub-cache layout), never their logs; the installed vLLM
0.32's sources for each drawn condition: uvicorn's ssl context (load_cert_chain on a DER file), chat_completion/
protocol.py (return_token_offsets: bool | None; check_structured_outputs_count: 'You can only either use constraints
for structured outputs or tools, not both.'), sampling_params.py update_from_generation_config and
_validate_stop_token_ids (stop ids checked against config.json vocab_size), transformers_utils/config.py
try_get_generation_config (generation_config.json wins over config.json), utils/ompmultiprocessing.py
_get_autobind_cpu_ids (assert one allowed NUMA node per local worker; this host has one), transformers 5.19's @strict
LlamaConfig (attention_bias: bool), config/profiler.py (proton_hook), plugins/lora_resolvers/hf_hub_resolver.py
(VLLM_LORA_RESOLVER_HF_REPO_LIST without lora_hf_hub_resolver in VLLM_PLUGINS: a warning only).

THE TOOLS DRAWN FROM: fresh-299's 54 (its TOOLS, its vllm_conditions and made_before, imported from its file
unchanged). fresh-299, 307, 309 and 316 have no condition space of their own, so their kept triples only join the
already-made set; the batches made since fresh-316 (fresh-317 318 319 321) are not vLLM-cpu makers of fresh-299's kind
(header lines only) and are left out, as fresh-316 left fresh-310..315 out.

PROCEDURE (fixed and committed, with `--draws` output, before any case ran): r = random.Random(2322); until 11
triples are kept: tool = r.choice(TOOLS) (uniform over the 54, in number order), condition = r.choice(list(its vLLM
conditions)), value class = r.choice(that condition's classes). A triple is drawn anew (the next draw of the same
stream) when it repeats a kept triple, when its (condition, value class) is one that tool's own batch already made
(fresh-299's made_before), or when fresh-299, fresh-307, fresh-309 or fresh-316 kept it. `--draws` prints the kept
triples and every one drawn anew with the reason (tools/doctor_corpus_fresh322_draw.txt).
Each kept triple is realised with one concrete value of that class chosen here (CASES below, written with what is
expected BEFORE any case ran), as ONE condition on an otherwise healthy base command, fresh-299's: `python -m
vllm.entrypoints.openai.api_server --model TINY --port 24450 --max-model-len 512` in corpus_tools.engine_env(
/tmp/fresh322) (1 GiB CPU KV cache, no usage stats), started, asked a completion {"model": TINY, "prompt": "hello",
"max_tokens": 8} (or the case's own requests) once /health answers, and stopped, by corpus_tools.serve_and_ask (300 s
start bound). Case log = `$ export` lines and `$ command`, the engine's whole stdout+stderr, then each `# request:
...` with its reply's status and first 1000 bytes. One engine at a time; ports 24450-24499 (only 24450 used).
Usage (repository root): .venv-vllm/bin/python tools/doctor_corpus_fresh322.py [--draws | CASE ...]
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

from corpus_tools import engine_env, load, serve_and_ask, tiny_model  # tools/ is on sys.path

SEED, N = 2322, 11
PORT = 24450

with contextlib.redirect_stdout(io.StringIO()):
    F299 = load("fresh299_maker", "doctor_corpus_fresh299.py")
    F307 = load("fresh307_maker", "doctor_corpus_fresh307.py")
    F309 = load("fresh309_maker", "doctor_corpus_fresh309.py")
    F316 = load("fresh316_maker", "doctor_corpus_fresh316.py")
TOOLS = F299.TOOLS
assert len(TOOLS) == 54


def draws():
    r = random.Random(SEED)
    prev299, _ = F299.draws()
    prev307, _ = F307.draws()
    prev309, _ = F309.draws()
    prev316, _ = F316.draws()
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
        elif (num, cond, value) in prev316:
            redrawn.append((num, cond, value, "fresh-316 already made it"))
        else:
            kept.append((num, cond, value))
    return kept, redrawn


WORK = Path("/tmp/fresh322")
RUN = WORK / "run"
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PY = str(REPO / ".venv-vllm" / "bin" / "python")
HUBREPO = "fresh322/tiny-llama"
COMMIT = "7c21e0d4a9b3f5e8c6a2d0b4f1e3c5a7d9b2e4f6"
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


def certs_der(case_dir: Path) -> None:
    """fresh-271's "certs,der" fixtures: a self-signed key.pem / cert.pem for 127.0.0.1, and both again in DER."""

    def openssl(*args: str) -> None:
        subprocess.run(["openssl", *args], check=True, capture_output=True)

    d = str(case_dir)
    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", f"{d}/key.pem", "-out", f"{d}/cert.pem",
            "-days", "2", "-subj", "/CN=127.0.0.1")  # fmt: skip
    openssl("pkey", "-in", f"{d}/key.pem", "-outform", "DER", "-out", f"{d}/key.der")
    openssl("x509", "-in", f"{d}/cert.pem", "-outform", "DER", "-out", f"{d}/cert.der")


def added_token_1024(model: Path) -> None:
    """fresh-280's added_token (1024, "<|tool|>") appended to tokenizer.json's added_tokens (config.json vocab_size
    stays 1024)."""
    tok = json.loads((model / "tokenizer.json").read_text())
    tok["added_tokens"].append(
        {
            "id": 1024,
            "content": "<|tool|>",
            "single_word": False,
            "lstrip": False,
            "rstrip": False,
            "normalized": False,
            "special": True,
        }
    )
    (model / "tokenizer.json").write_text(json.dumps(tok, ensure_ascii=False))


def hub_cache(case_dir: Path) -> None:
    """fresh-214's layout: CASE/hf/hub/models--fresh322--tiny-llama with the tiny's files in snapshot COMMIT (blobs
    linked from the snapshot), refs/main naming it; served by repo id with HF_HOME=CASE/hf and HF_HUB_OFFLINE=1."""
    import hashlib

    folder = case_dir / "hf" / "hub" / ("models--" + HUBREPO.replace("/", "--"))
    snap = folder / "snapshots" / COMMIT
    (folder / "blobs").mkdir(parents=True)
    snap.mkdir(parents=True)
    (folder / "refs").mkdir()
    (folder / "refs" / "main").write_text(COMMIT)
    for p in sorted(tiny_model(WORK).iterdir()):
        data = p.read_bytes()
        tag = (
            hashlib.sha256(data).hexdigest() if p.suffix == ".safetensors" else hashlib.sha1(data).hexdigest()
        )
        (folder / "blobs" / tag).write_bytes(data)
        (snap / p.name).symlink_to(f"../../blobs/{tag}")


# Each kept draw (number) -> the case: words, the concrete value chosen in the drawn class, what is expected (both
# written after the draw and BEFORE any case ran), and how it is built: flags / env / config.json edit / model setup /
# case-folder setup / requests on the base command. CASE in flags and env stands for the case's folder.
CASES: dict[int, dict] = {
    1: {
        "words": "ssl-certfile-der-keyfile-pem",
        "value": "--ssl-keyfile CASE/key.pem --ssl-certfile CASE/cert.der (fresh-271's self-signed pair, the "
        "certificate written in DER)",
        "expect": "uvicorn builds its SSL context at start: ssl.SSLError '[SSL] PEM lib' from load_cert_chain on the "
        "DER certificate; the API server exits before serving: ssl-file-missing",
        "case_setup": certs_der,
        "flags": ["--ssl-keyfile", "CASE/key.pem", "--ssl-certfile", "CASE/cert.der"],
    },
    2: {
        "words": "chat-return-token-offsets-list",
        "value": "a chat with return_token_offsets [0, 5] (a list where the request model has bool | None)",
        "expect": "pydantic refuses the field: HTTP 400 naming return_token_offsets, 'Input should be a valid "
        "boolean'; the server stays up: request-field-wrong-type",
        "requests": [
            (CHAT, {"model": "TINY", "messages": HELLO, "max_tokens": 8, "return_token_offsets": [0, 5]})
        ],
    },
    3: {
        "words": "config-eos-token-id-list-past-vocab",
        "value": "config.json eos_token_id [2, 50000] (generation_config.json, eos 2, left as the tiny has it)",
        "expect": "generation_config.json is found first, so vLLM's generation defaults keep eos 2 and config.json's "
        "list is not used as stop ids; starts and the completion answers 200: none",
        "edit": ("config.json", {"eos_token_id": [2, 50000]}),
    },
    4: {
        "words": "omp-threads-bind-auto-tp-2-reserved-0",
        "value": "VLLM_CPU_OMP_THREADS_BIND=auto, VLLM_CPU_NUM_OF_RESERVED_CPU=0, --tensor-parallel-size 2 on this "
        "one-NUMA-node, 2-CPU host",
        "expect": "auto binding gives each local worker its own NUMA node: AssertionError 'Not enough allowed NUMA "
        "nodes to bind threads of 2 local CPUWorkers. Allowed NUMA nodes are [0]' in the workers, the engine core "
        "fails to start, the server exits: cpu-numa-nodes-below-workers",
        "env": {"VLLM_CPU_OMP_THREADS_BIND": "auto", "VLLM_CPU_NUM_OF_RESERVED_CPU": "0"},
        "flags": ["--tensor-parallel-size", "2"],
    },
    5: {
        "words": "added-token-1024-stop-token-ids",
        "value": 'tokenizer.json added token 1024 "<|tool|>" (config.json vocab_size 1024), a completion with '
        "stop_token_ids [1024]",
        "expect": "_validate_stop_token_ids bounds stop ids by config.json's vocab_size: HTTP 400 'token_id(s) [1024] "
        "in stop_token_ids contain out-of-vocab token ids. Vocabulary size: 1024'; the server stays up: "
        "request-logit-bias-out-of-vocab",
        "setup": added_token_1024,
        "requests": [
            (
                "/v1/completions",
                {"model": "TINY", "prompt": "hello", "max_tokens": 8, "stop_token_ids": [1024]},
            )
        ],
    },
    6: {
        "words": "config-attention-bias-string-true",
        "value": 'config.json attention_bias "true" (a string)',
        "expect": "transformers 5.19's @strict LlamaConfig validates attention_bias: bool and refuses the string "
        "while the config is read; the server exits before serving: config-json-field-wrong-type",
        "edit": ("config.json", {"attention_bias": "true"}),
    },
    7: {
        "words": "structured-outputs-json-with-named-tool-choice",
        "value": 'a chat with tools [get_weather], tool_choice {"type": "function", "function": {"name": '
        '"get_weather"}} and structured_outputs {"json": {"type": "object"}} on the base server',
        "expect": "check_structured_outputs_count refuses it while the request is parsed (before the tool-call-parser "
        "check): HTTP 400 'You can only either use constraints for structured outputs or tools, not both.'; the "
        "server stays up: request-structured-outputs-with-named-tool-choice",
        "requests": [
            (
                CHAT,
                {
                    "model": "TINY",
                    "messages": HELLO,
                    "max_tokens": 8,
                    "tools": [WEATHER],
                    "tool_choice": NAMED,
                    "structured_outputs": {"json": {"type": "object"}},
                },
            )
        ],
    },
    8: {
        "words": "profiler-config-proton-hook-single-quotes",
        "value": "--profiler-config \"{'proton_hook': 'triton'}\" (fresh-251's malformed-json: a Python dict, "
        "single quotes)",
        "expect": "the value is not JSON: argparse refuses --profiler-config (exit 2) before anything loads: "
        "cli-invalid-json",
        "flags": ["--profiler-config", "{'proton_hook': 'triton'}"],
    },
    9: {
        "words": "code-revision-dev-trust-remote-code-offline",
        "value": "the model as the repo id fresh322/tiny-llama from a complete hub cache (refs/main only) under "
        "HF_HOME, HF_HUB_OFFLINE=1, --code-revision dev --trust-remote-code (a plain Llama: no auto_map)",
        "expect": "code_revision only matters for a checkpoint's own code, and a plain Llama has none; the config "
        "resolves from refs/main offline, starts and answers 200 (if 'dev' were resolved offline it would fail "
        "as an unknown revision): none",
        "case_setup": hub_cache,
        "model": HUBREPO,
        "env": {"HF_HOME": "CASE/hf", "HF_HUB_OFFLINE": "1"},
        "flags": ["--code-revision", "dev", "--trust-remote-code"],
        "requests": [("/v1/completions", {"model": HUBREPO, "prompt": "hello", "max_tokens": 8})],
    },
    10: {
        "words": "lora-resolver-hf-repo-list-without-plugin",
        "value": "VLLM_LORA_RESOLVER_HF_REPO_LIST=fresh322/sql-lora,fresh322/chat-lora (a valid comma list; "
        "VLLM_PLUGINS unset, no --enable-lora)",
        "expect": "the hf hub resolver plugin loads and only warns that lora_hf_hub_resolver is not enabled in "
        "VLLM_PLUGINS; the completion answers 200: none",
        "env": {"VLLM_LORA_RESOLVER_HF_REPO_LIST": "fresh322/sql-lora,fresh322/chat-lora"},
    },
    11: {
        "words": "config-max-position-embeddings-131072",
        "value": "config.json max_position_embeddings 131072 (the tiny's is 2048), --max-model-len 512 as always",
        "expect": "the derived maximum grows to 131072 and --max-model-len 512 is below it; starts and answers 200: "
        "none",
        "edit": ("config.json", {"max_position_embeddings": 131072}),
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
    """fresh-316's serve_case, with a case-folder setup, a model given otherwise (a repo id) and CASE substituted."""
    tiny = tiny_model(WORK)
    model = spec.get("model", str(tiny))
    m = {"TINY": str(tiny), "CASE": str(case_dir)}
    extra = subst(dict(spec.get("env", {})), m)
    if "case_setup" in spec:
        spec["case_setup"](case_dir)
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
    argv += ["--max-model-len", "512", *flags]
    env = engine_env(WORK, **extra)
    shown = {"VLLM_CPU_KVCACHE_SPACE": "1", "VLLM_NO_USAGE_STATS": "1", **extra}
    head = "".join(f"$ export {k}={shlex.quote(v)}\n" for k, v in shown.items())
    head += "$ " + shlex.join(["python", *argv[1:]]) + "\n"
    calls = subst(spec.get("requests", [COMP]), m)
    return head + serve_and_ask(argv, PORT, calls, env=env, cwd=case_dir, bound=300)


def make(num: int) -> str:
    spec = CASES[num]
    case_dir = RUN / spec["words"]
    shutil.rmtree(case_dir, ignore_errors=True)
    case_dir.mkdir(parents=True)
    return serve_case(spec, case_dir)


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
        case_id = f"fresh322-vllm-{spec['words']}"
        if wanted and case_id not in wanted and spec["words"] not in wanted and str(num) not in wanted:
            continue
        t = time.monotonic()
        text = make(num)
        (OUT / f"{case_id}.log").write_text(text.rstrip() + "\n")
        print(f"{case_id}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
