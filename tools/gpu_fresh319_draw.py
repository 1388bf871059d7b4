"""Draw the fresh-319 GPU cases: WILL THIS CHECKPOINT LOAD ON THIS GPU: the quantization / dtype / kernel side of the
deployment's weeks (/work/shared/seed/DIGEST.md: AWQ vs W4A4 checkpoints of Qwen3.5-27B, scheme minimum
capabilities, forced Marlin, fp8 KV kinds, attention backends implied by dtypes): a published checkpoint's config.json
(cut to 2-4 layers) carrying a DRAWN quantization_config or torch_dtype, started with ONE DRAWN serve setting (real
vLLM 0.26.0 `vllm serve`, torch 2.11+cu130, one H100 80GB (or H200), SM90; dummy weights generated from the config, so
the method's weight creation, process_weights_after_loading and kernel selection really run; no tokenizer). Sampled,
not chosen.

Usage: python3 tools/gpu_fresh319_draw.py                  writes tools/gpu-fresh319-cases.json and prints the draw
       python3 tools/gpu_fresh319_draw.py --draw-only      prints the draw and the memory / time figures
       python3 tools/gpu_fresh319_draw.py --models DIR     writes DIR/<name>/config.json for the cases' model folders
Run (the last device call, after the bundle's part calls):
  bash .gpu/run/gpu_fresh151_go.sh 480 p3 gpu_serve_requests.py .gpu/run/gpu-fresh319-cases.json LEFT 8 0.95
       <the file's "order">
(gpu_serve_requests.py CASES TOTAL_S PARALLEL MEM_CAP CASE...: cases start in the order given while the running
cases' "mem" plus the next one's stays within MEM_CAP, at most PARALLEL at once; a case not started by TOTAL_S - its
"need" is skipped. The driver is used unchanged.)

SOURCES. vLLM 0.26.0's own source from the kit's wheel (/work/main/.gpu/build/vllm-0.26.0-cp38-abi3-manylinux_2_28_
x86_64.whl, unzipped into /tmp/gpu319): model_executor/layers/quantization/__init__.py (QuantizationMethods: awq,
auto_awq, fp8, fbgemm_fp8, fp_quant, modelopt, modelopt_fp4, modelopt_mxfp8, modelopt_mixed, auto_gptq, gptq,
gptq_marlin, awq_marlin, humming, compressed-tensors, bitsandbytes, experts_int8, quark, moe_wna16, torchao, inc,
mxfp4, gpt_oss_mxfp4, deepseek_v4_fp8, online, and the online shorthands fp8_per_tensor, fp8_per_block,
fp8_per_channel, int8_per_channel_weight_only, nvfp4_per_token, mxfp8: so auto_awq / auto_gptq ARE 0.26 names);
get_min_capability of each (auto_awq 75, auto_gptq 60, bitsandbytes 70, fp8 75, fbgemm_fp8 80, mxfp4 80, modelopt
89 / 75 / 80, compressed-tensors 70 with per-scheme minima; CompressedTensorsW4A4Fp4 75 via init_nvfp4_linear_kernel,
i.e. an emulation / Marlin kernel below SM100); fp8.py Fp8Config (activation_scheme must be static/dynamic;
weight_block_size needs a serialized checkpoint, 2 dimensions and the dynamic scheme; DeepGEMM chosen when
is_deep_gemm_supported(): DeepGEMM is not in the kit, so VLLM_USE_DEEP_GEMM=0 for block fp8 as fresh-227/237 did);
modelopt.py (QUANT_ALGOS FP8, FP8_PER_CHANNEL_PER_TOKEN, FP8_PB_WO, NVFP4, W4A16_NVFP4, MXFP8, ...; "ModelOpt
currently only supports: ..." for another quant_algo; KV_CACHE_QUANT_ALGOS FP8, NVFP4); bitsandbytes.py (storage must
be uint8: "Unsupported bnb_4bit_quant_storage"; the bitsandbytes package is imported at layer creation; it is NOT
among the kit's wheels); mxfp4.py (Mxfp4Config: every LinearBase falls back to UnquantizedLinearMethod at DEBUG level
only, only RoutedExperts get GptOssMxfp4MoEMethod, backend from select_mxfp4_moe_backend); envs.py (no
VLLM_ATTENTION_BACKEND in 0.26: the backend is --attention-backend / --attention-config). The kit's wheels
(.gpu/whl): no flashinfer, no deep_gemm, no bitsandbytes. DIGEST.md's table (W4A16 scheme min capability, forced
marlin repack 'size_n ... not divisible by tile_n', the turboquant KV backend). Not read: doctor, its knowledge,
tests/test_doctor*, any earlier batch's logs.

EARLIER GPU MAKERS (their universes only: tools/gpu_fresh*_draw.py docstrings and the cases files' 'setting' and
'class' fields): fresh-227/237 (UNCUT quantized checkpoints: --quantization M by other-method / unquantized / valid
(drawn: bitsandbytes, gguf, fp_quant, awq_marlin valid, experts_int8 valid, moe_wna16, compressed-tensors unquantized,
fbgemm_fp8, awq valid, gptq unquantized), --dtype float16 with fp8 / nvfp4, --dtype float32 + gptq_marlin + eager,
--kv-cache-dtype fp8_e4m3 with gptq, --calculate-kv-scales with mxfp4, misspelt quant_method / activation_scheme,
awq bits 3, nvfp4 config_groups int, --load-format gguf, hf-overrides static scheme on fp8), fresh-242/257 (backends x
KV dtypes on gemma / deepseek / gpt-oss, flash_attn_version, VLLM_ATTENTION_BACKEND old-v1 name, awq_marlin on a gptq
checkpoint, fp8 KV with float16), fresh-264 (gptq bits-3 with gptq_marlin, awq group 256 with awq_marlin, gemma
torch_dtype float8 with --dtype auto), fresh-302 (KV dtypes on the cut hybrid, eager on qwen3.5), fresh-39/79
(features and graphs on uncut models). AVOIDED HERE: the drawn pairs above (the universe below does not hold
--quantization awq / awq_marlin / gptq_marlin on the AWQ / GPTQ checkpoints: its "matching" names for them are the
0.26-only auto_awq / auto_gptq; no misspelt names, no bits-3, no group 256, no gguf, no --calculate-kv-scales, no old
backend variable names). NEW HERE: every checkpoint CUT to 2 layers (4 for the deployment's hybrid) with its
quantization_config written in by the draw (fp8 per-tensor on a dense llama, compressed-tensors schemes written from
scratch, modelopt algorithms, bitsandbytes configs, mxfp4 on a dense model), the deployment's own two Qwen3.5-27B
checkpoints (AWQ and W4A4) on SM90, --quantization matching with 0.26's auto_awq / auto_gptq names or conflicting by a
fixed rule, the online shorthand fp8_per_tensor over a quantized config.

BASE: `vllm serve .gpu/models/<folder> --skip-tokenizer-init --load-format dummy --max-model-len 4096
--kv-cache-memory-bytes 1073741824 --gpu-memory-utilization U` plus, for the cut Qwen3.5 (the deployment's model),
`--language-model-only --gdn-prefill-backend triton --max-num-seqs 64` (fresh-302's base for it), and
VLLM_USE_DEEP_GEMM=0 for the block-fp8 checkpoint. The drawn setting's flags are appended (a drawn flag the base
carries replaces it); ("ENV", K, V) adds a variable. Every server that comes up gets one POST /v1/completions, 50
token ids, max_tokens 16. No --enforce-eager unless drawn.

MODELS (device folder f319-<checkpoint class> <- tests/fixtures/checkpoints/<fixture>, the published config.json with
the class's dotted edits: num_hidden_layers cut, quantization_config / torch_dtype set):
  llama-3.1-8b-instruct cut to 2 layers: 1.05 B embedding + lm_head (bf16, 2.1 GB) + 2 x 218 M layer params (0.9 GB
    bf16, less quantized): ~3 GB, 8 KiB of KV a token; U 0.08 (0.11 with float32: 6 GB of weights);
  qwen3-8b-fp8 cut to 2 layers: 1.24 B embedding + lm_head bf16 (2.5 GB) + fp8 layers: U 0.07;
  qwen2.5-7b-instruct-awq / -gptq-int4 cut to 2 layers: 1.09 B fp16 (2.2 GB) + 4-bit layers: U 0.07;
  qwen3-8b-nvfp4 cut to 2 layers: 2.5 GB + packed layers: U 0.07;
  gpt-oss-20b cut to 2 layers (sliding, full): 1.16 B bf16 (2.3 GB) + 2 x 32 experts in mxfp4 (~0.9 GB; ~3.2 GB if
    a backend upcasts to bf16): U 0.09;
  qwen3.5-27b-digest-awq / -w4a4 cut to 4 layers (text_config: lin, lin, lin, full): 2.54 B bf16 embedding +
    lm_head (5.1 GB) + 4 quantized layers (~0.4 GB): U 0.11.
MEMORY BOUND BY CONSTRUCTION: every case has a fixed 1 GiB KV budget (profiling skipped: a neighbour cannot move it),
activations at 4096-8192 batched tokens stay under ~0.6 GB on these widths, the CUDA context ~0.5 GB, graphs
~0.3 GB: every case's real use is under its U (<= 0.11 of the card, so 8 at once <= 0.88 < 0.95). A case's "mem" is
its U; the driver keeps the sum within 0.95, at most 8 at once.
TIME: "timeout" 240 (to be ready), "need" 150. 0.26's cold start with 8 starting together: 60-130 s (the cut
Qwen3.5 ~100-130 s, fresh-292/302); refusals in 20-60 s. "order" puts the Qwen3.5 cases first. --draw-only prints a
rolling simulation of the driver's start rule at 90 and 130 s starts (Qwen3.5 +30 s).

THE UNIVERSE: 9 CHECKPOINT conditions (Q1-Q9, what the config.json carries) and 5 SETTING conditions (S1-S5, the one
serve setting), 14 conditions; every class and its EXPECT written before the draw and before anything ran.
THE DRAW: r = random.Random(2319); checkpoints = r.sample(sorted(CHECKPOINTS), 9) + r.sample(sorted(CHECKPOINTS), 3)
(every checkpoint condition once, three twice); then per case in that order: its class = r.choice(its classes);
setting = r.choice(sorted(SETTINGS)); its class = r.choice(its classes). Nothing is redrawn. "order" = the Qwen3.5
cases (draw order), then the others (draw order).
THE DRAW GAVE (printed by --draw-only; nothing changed after it but EXPECTED_DRAWN): every checkpoint condition once,
Q1, Q3 and Q6 twice; two cut Qwen3.5 (e04 only: the other Qwen3.5 class, W4A4, was not drawn), 9 model folders (e03/e12,
e05/e10 and e06/e11 share theirs); settings S5 x4, S2 x3, S1 x2, S4 x2, S3 x1. Simulated: all 12 end by ~200 s at
90 s starts, ~280 s at 130 s starts (8 at once, then 4).
EXPECTED for the drawn twelve: EXPECTED_DRAWN below (also each case's "expect_drawn"), written after the draw was
printed and before anything ran.
"""

import json
import os
import random
import sys

from gpu_draw_models import write_models  # the script's folder is on sys.path when run

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_JSON = os.path.join(HERE, "gpu-fresh319-cases.json")
FIXTURES = os.path.join(HERE, "..", "tests", "fixtures", "checkpoints")
SEED = 2319
N = 12
FLAGS = ["--skip-tokenizer-init", "--load-format", "dummy", "--max-model-len", "4096",
         "--kv-cache-memory-bytes", "1073741824"]  # fmt: skip
TIMEOUT, NEED = 240, 150
LIN, FULL = "linear_attention", "full_attention"
QWEN35_EXTRA = ["--language-model-only", "--gdn-prefill-backend", "triton", "--max-num-seqs", "64"]
START_S = {"qwen35": 130, "other": 90}
# model key -> (fixture, cut edit, U, extra base flags, base env)
MODEL = {
    "llama": ("llama-3.1-8b-instruct", {"num_hidden_layers": 2}, 0.08, [], {}),
    "qwen3-fp8": ("qwen3-8b-fp8", {"num_hidden_layers": 2}, 0.07, [], {"VLLM_USE_DEEP_GEMM": "0"}),
    "qwen25-awq": ("qwen2.5-7b-instruct-awq", {"num_hidden_layers": 2}, 0.07, [], {}),
    "qwen25-gptq": ("qwen2.5-7b-instruct-gptq-int4", {"num_hidden_layers": 2}, 0.07, [], {}),
    "qwen3-nvfp4": ("qwen3-8b-nvfp4", {"num_hidden_layers": 2}, 0.07, [], {}),
    "gptoss": ("gpt-oss-20b", {"num_hidden_layers": 2, "layer_types": ["sliding_attention", "full_attention"]},
               0.09, [], {}),
    "qwen35-awq": ("qwen3.5-27b-digest-awq", {"text_config.num_hidden_layers": 4,
                   "text_config.layer_types": [LIN, LIN, LIN, FULL]}, 0.11, QWEN35_EXTRA, {}),
    "qwen35-w4a4": ("qwen3.5-27b-digest-w4a4", {"text_config.num_hidden_layers": 4,
                    "text_config.layer_types": [LIN, LIN, LIN, FULL]}, 0.11, QWEN35_EXTRA, {}),
}  # fmt: skip

QC = "quantization_config"


def ct_group(w, a, fmt):
    """A compressed-tensors quantization_config with one group over every Linear (lm_head ignored)."""
    return {"quant_method": "compressed-tensors", "format": fmt, "ignore": ["lm_head"],
            "quantization_status": "compressed",
            "config_groups": {"group_0": {"targets": ["Linear"], "weights": w, "input_activations": a}}}  # fmt: skip


FP8_CH = {"num_bits": 8, "type": "float", "strategy": "channel", "symmetric": True, "dynamic": False}
FP8_TOK = {"num_bits": 8, "type": "float", "strategy": "token", "symmetric": True, "dynamic": True}
INT8_CH = {"num_bits": 8, "type": "int", "strategy": "channel", "symmetric": True, "dynamic": False}
INT8_TOK = {"num_bits": 8, "type": "int", "strategy": "token", "symmetric": True, "dynamic": True}
INT4_G128 = {"num_bits": 4, "type": "int", "strategy": "group", "group_size": 128, "symmetric": True,
             "dynamic": False}  # fmt: skip
BNB4 = {"quant_method": "bitsandbytes", "load_in_4bit": True, "load_in_8bit": False, "bnb_4bit_quant_type": "nf4",
        "bnb_4bit_compute_dtype": "bfloat16", "bnb_4bit_use_double_quant": True,
        "bnb_4bit_quant_storage": "uint8", "llm_int8_skip_modules": None}  # fmt: skip

# CHECKPOINTS: condition -> class -> (model key, extra config edits, the config's method name, EXPECT)
CHECKPOINTS = {
    "Q1 fp8 per-tensor quantization_config on llama-3.1-8b cut to 2 layers": {
        "dynamic": ("llama", {QC: {"quant_method": "fp8", "activation_scheme": "dynamic"}}, "fp8",
                    "healthy: fp8-serialized per-tensor weights, dynamic activation scales, CUTLASS fp8 scaled mm"),
        "static": ("llama", {QC: {"quant_method": "fp8", "activation_scheme": "static"}}, "fp8",
                   "healthy: static input scales created and filled by the dummy loader"),
        "ignored-down-proj": ("llama", {QC: {"quant_method": "fp8", "activation_scheme": "dynamic",
                                             "ignored_layers": ["model.layers.0.mlp.down_proj"]}}, "fp8",
                              "healthy: one layer's down_proj left in bf16"),
    },
    "Q2 fp8 block-wise (the published Qwen3-8B-FP8 config, cut to 2 layers)": {
        "published-128x128": ("qwen3-fp8", {}, "fp8",
                              "healthy: block fp8 via CUTLASS/Triton on SM90 (DeepGEMM off)"),
        "block-64x64": ("qwen3-fp8", {QC + ".weight_block_size": [64, 64]}, "fp8",
                        "likely healthy: 64 divides every partition; the block kernel may want 128 (unknown)"),
        "torch_dtype-float16": ("qwen3-fp8", {"torch_dtype": "float16"}, "fp8",
                                "healthy: block fp8 with fp16 activations"),
    },
    "Q3 compressed-tensors config written in (llama cut to 2 layers unless named)": {
        "W8A8-FP8-channel-token": ("llama", {QC: ct_group(FP8_CH, FP8_TOK, "float-quantized")}, "compressed-tensors",
                                   "healthy: CompressedTensorsW8A8Fp8, per-token dynamic fp8 (CUTLASS)"),
        "W8A8-INT8-channel-token": ("llama", {QC: ct_group(INT8_CH, INT8_TOK, "int-quantized")},
                                    "compressed-tensors", "healthy: CompressedTensorsW8A8Int8, CUTLASS int8 on SM90"),
        "W4A16-int4-g128": ("llama", {QC: ct_group(INT4_G128, None, "pack-quantized")}, "compressed-tensors",
                            "healthy: WNA16 via the Marlin kernel (the DIGEST's scheme, min capability 75 on SM90)"),
        "nvfp4-published-qwen3-8b": ("qwen3-nvfp4", {}, "compressed-tensors",
                                     "unknown: W4A4 NVFP4 on SM90: an emulation / Marlin FP4 kernel with a warning, "
                                     "or refused for capability < 100"),
        "w4a4-deployment-qwen3.5": ("qwen35-w4a4", {}, "compressed-tensors",
                                    "unknown: the deployment's W4A4 checkpoint on SM90 (as nvfp4-published)"),
    },
    "Q4 AWQ checkpoints": {
        "published-qwen2.5": ("qwen25-awq", {}, "awq", "healthy: awq converted to awq_marlin automatically"),
        "deployment-qwen3.5": ("qwen35-awq", {}, "awq",
                               "likely healthy: awq_marlin with the GDN in_proj_a/b left unconverted"),
        "zero_point-false": ("qwen25-awq", {QC + ".zero_point": False}, "awq",
                             "unknown: symmetric AWQ; awq_marlin may refuse it and plain awq (GEMM) serve it"),
    },
    "Q5 GPTQ (the published Qwen2.5-7B-Instruct-GPTQ-Int4 config, cut to 2 layers)": {
        "published": ("qwen25-gptq", {}, "gptq", "healthy: gptq converted to gptq_marlin"),
        "desc_act-true": ("qwen25-gptq", {QC + ".desc_act": True}, "gptq",
                          "unknown: act-order g_idx filled with dummy values; marlin sorts it"),
        "sym-false": ("qwen25-gptq", {QC + ".sym": False}, "gptq",
                      "unknown: asymmetric GPTQ is not marlin-compatible: falls to the exllama gptq kernel"),
    },
    "Q6 bitsandbytes quantization_config on llama cut to 2 layers": {
        "nf4": ("llama", {QC: BNB4}, "bitsandbytes",
                "likely refused: the bitsandbytes package is not in the kit (ImportError at layer creation); "
                "or the dummy load format with a bnb config"),
        "8bit": ("llama", {QC: {**BNB4, "load_in_4bit": False, "load_in_8bit": True}}, "bitsandbytes", "as nf4"),
        "storage-bfloat16": ("llama", {QC: {**BNB4, "bnb_4bit_quant_storage": "bfloat16"}}, "bitsandbytes",
                             "refused at config: 'Unsupported bnb_4bit_quant_storage: bfloat16'"),
    },
    "Q7 mxfp4 quantization_config": {
        "gpt-oss-20b-published": ("gptoss", {}, "mxfp4",
                                  "healthy: mxfp4 MoE backend chosen for SM90 (Triton or Marlin), sinks on FA3"),
        "on-dense-llama": ("llama", {QC: {"quant_method": "mxfp4"}}, "mxfp4",
                           "healthy, silently unquantized: every Linear falls back (DEBUG only)"),
    },
    "Q8 modelopt quantization_config on llama cut to 2 layers": {
        "FP8": ("llama", {QC: {"quant_method": "modelopt", "quant_algo": "FP8"}}, "modelopt",
                "healthy (a 'Detected ModelOpt fp8 checkpoint' warning)"),
        "NVFP4": ("llama", {QC: {"quant_method": "modelopt", "quant_algo": "NVFP4", "group_size": 16}}, "modelopt",
                  "unknown: NVFP4 on SM90 (emulation / Marlin or refused)"),
        "W4A8_AWQ": ("llama", {QC: {"quant_method": "modelopt", "quant_algo": "W4A8_AWQ"}}, "modelopt",
                     "refused: 'ModelOpt currently only supports: [...]'"),
        "FP8-kv-FP8": ("llama", {QC: {"quant_method": "modelopt", "quant_algo": "FP8", "kv_cache_quant_algo":
                                      "FP8"}}, "modelopt", "healthy: an fp8 KV cache with scales of 1.0"),
    },
    "Q9 torch_dtype of the unquantized llama-3.1-8b cut to 2 layers": {
        "float32": ("llama", {"torch_dtype": "float32"}, None, "healthy: auto takes bf16 for a float32 config"),
        "float16": ("llama", {"torch_dtype": "float16"}, None, "healthy in fp16"),
        "null": ("llama", {"torch_dtype": None}, None, "healthy: no dtype: auto falls to the default"),
    },
}  # fmt: skip

# the --quantization a CONFLICTING class names, by the config's method (fixed rule)
CONFLICT = {"fp8": "modelopt", "compressed-tensors": "fp8", "awq": "gptq", "gptq": "awq", "bitsandbytes": "fp8",
            "mxfp4": "fp8", "modelopt": "fp8", None: "awq"}  # fmt: skip
# the --quantization a MATCHING class names (0.26's auto_awq / auto_gptq for the 4-bit formats; earlier batches drew
# awq, awq_marlin, gptq_marlin)
MATCH = {"awq": "auto_awq", "gptq": "auto_gptq", None: "fp8"}

# SETTINGS: condition -> class -> (flags (MATCHING / CONFLICTING resolved per checkpoint), EXPECT)
SETTINGS = {
    "S1 --quantization on the command line": {
        "matching": (["--quantization", "MATCH"], "healthy where the name is the config's (or its auto_ form: "
                     "auto_awq / auto_gptq may or may not accept the awq / gptq config); online fp8 on unquantized"),
        "conflicting": (["--quantization", "CONFLICT"], "refused: 'Quantization method specified in the model "
                        "config (X) does not match the quantization method specified in the `quantization` "
                        "argument (Y)' (awq on an unquantized model: no config to read)"),
        "fp8_per_tensor": (["--quantization", "fp8_per_tensor"], "unknown: an online shorthand over a serialized "
                           "config: refused as a mismatch, or healthy online fp8 on unquantized"),
    },
    "S2 --dtype": {
        "float16": (["--dtype", "float16"], "healthy for most methods (bf16-only kernels would refuse)"),
        "bfloat16": (["--dtype", "bfloat16"], "healthy for most; AWQ/GPTQ checkpoints in fp16 cast to bf16 "
                     "(a warning)"),
        "float32": (["--dtype", "float32"], "refused for quantized methods that take 16-bit activations only "
                    "('... not supported for quantization method'); healthy unquantized"),
    },
    "S3 --kv-cache-dtype fp8 kinds": {
        "fp8": (["--kv-cache-dtype", "fp8"], "healthy: fp8 e4m3 KV on FA3 (SM90), scales 1.0"),
        "fp8_e4m3": (["--kv-cache-dtype", "fp8_e4m3"], "healthy as fp8"),
        "fp8_e5m2": (["--kv-cache-dtype", "fp8_e5m2"], "unknown: FA3 takes e4m3 only; another backend (Triton) "
                     "or refused"),
    },
    "S4 the attention backend": {
        "FLASH_ATTN": (["--attention-backend", "FLASH_ATTN"], "healthy (FA3 on SM90)"),
        "TRITON_ATTN": (["--attention-backend", "TRITON_ATTN"], "healthy"),
        "FLASHINFER": (["--attention-backend", "FLASHINFER"], "refused: flashinfer is not in the kit"),
        "env-VLLM_ATTENTION_BACKEND-FLASHINFER": ([("ENV", "VLLM_ATTENTION_BACKEND", "FLASHINFER")],
                                                  "healthy: 0.26 has no such variable; ignored (maybe a "
                                                  "warning) and the default backend chosen"),
    },
    "S5 eager / compilation": {
        "enforce-eager": (["--enforce-eager"], "healthy: no compile, no graphs"),
        "cudagraph_mode-FULL": (["-cc", '{"cudagraph_mode": "FULL"}'], "unknown: FULL graphs need a backend that "
                                "supports them (FA3 yes); a downgrade warning or healthy"),
        "O3": (["-O3"], "healthy, longer start (more compilation)"),
    },
}  # fmt: skip

EXPECTED_DRAWN = {  # written after the draw was printed (--draw-only), before anything ran; 0.26's source as cited
    "e01": "likely healthy: block fp8 [64, 64] has no DeepGEMM/CUTLASS 128-block path; the Triton block kernel takes "
    "any block that divides the shapes; FLASH_ATTN is FA3 on SM90",
    "e02": "healthy: no torch_dtype in the config: treated as float32 and auto serves bfloat16 (an info/warning line); "
    "-O3 compiles longer",
    "e03": "refused before the engine starts: 'Quantization method specified in the model config (fp8) does not "
    "match the quantization method specified in the `quantization` argument (fp8_per_tensor)' (config/model.py "
    "_verify_quantization; fp8 has no override for an online shorthand)",
    "e04": "likely healthy (the deployment's AWQ checkpoint cut): awq -> awq_marlin on SM90 in bf16 (the config's "
    "fp16 group scales are created in bf16); start ~100-130 s",
    "e05": "likely refused in the engine core at model init: compressed-tensors takes float32 at config "
    "(get_supported_act_dtypes includes float32) but no WNA16 kernel implements float32 activations (Marlin, "
    "Machete, ... each give a reason): 'Failed to find a kernel that can implement the WNA16 linear layer'",
    "e06": "refused at config: 'Unsupported bnb_4bit_quant_storage: bfloat16' (a bitsandbytes config also forces "
    "load_format bitsandbytes over dummy; never reached); -O3 irrelevant",
    "e07": "unknown: the cut gpt-oss-20b's mxfp4 MoE on SM90 needs a backend from select_mxfp4_moe_backend (Triton "
    "kernels or Marlin): healthy with -O3 if one is there, else refused naming no backend",
    "e08": "refused at config: 'ModelOpt currently only supports: [...]' for W4A8_AWQ; before it, the alarming "
    "'Unknown vLLM environment variable detected: VLLM_ATTENTION_BACKEND' warning (not the cause)",
    "e09": "healthy: gptq -> gptq_marlin, fp16 config served in bf16 (a cast warning)",
    "e10": "healthy: W4A16 int4 g128 on Machete or Marlin (SM90), eager",
    "e11": "refused at config as e06 ('Unsupported bnb_4bit_quant_storage: bfloat16'); --quantization bitsandbytes "
    "matches the config",
    "e12": "healthy: fp8 static per-tensor with an fp8_e4m3 KV cache (scales 1.0, a warning about missing k/v "
    "scales possible)",
}  # fmt: skip


def draw_classes():
    r = random.Random(SEED)
    qs = r.sample(sorted(CHECKPOINTS), 9) + r.sample(sorted(CHECKPOINTS), 3)
    out = []
    for q in qs:
        qc = r.choice(list(CHECKPOINTS[q]))
        s = r.choice(sorted(SETTINGS))
        sc = r.choice(list(SETTINGS[s]))
        out.append((q, qc, s, sc))
    return out


def slug(s):
    return "".join(ch if ch.isalnum() or ch in "-." else "-" for ch in s.lower())


def drop(base, flag):
    if flag in base:
        j = base.index(flag)
        takes_value = j + 1 < len(base) and not base[j + 1].startswith("-")
        del base[j : j + (2 if takes_value else 1)]


def make_case(i, q, qc, s, sc):
    key, edit, method, q_expect = CHECKPOINTS[q][qc]
    fixture, cut, util, extra, base_env = MODEL[key]
    flags, s_expect = SETTINGS[s][sc]
    if key == "llama" and "float32" in (edit.get("torch_dtype"), *[f for f in flags if isinstance(f, str)]):
        util = 0.11
    folder = f"f319-{key}-{slug(qc)}"
    model = ".gpu/models/" + folder
    base = list(FLAGS) + list(extra)
    drawn, env = [], dict(base_env)
    for f in flags:
        if isinstance(f, tuple):
            env[f[1]] = f[2]
        elif f == "MATCH":
            drawn.append(MATCH.get(method, method))
        elif f == "CONFLICT":
            drawn.append(CONFLICT[method])
        else:
            drawn.append(f)
    for flag in [f for f in drawn if f.startswith("-")]:
        drop(base, flag)
    args = [model, *base, "--gpu-memory-utilization", str(util), *drawn]
    one = {"post": "/v1/completions", "body": {"prompt_len": 50, "max_tokens": 16, "model": model}}
    c = {"args": args, "env": env, "timeout": TIMEOUT, "need": NEED, "mem": util, "steps": [one], "cost": "start",
         "setting": f"{q} x {s}", "class": f"{qc} x {sc}", "checkpoint": q, "checkpoint_class": qc,
         "serve_setting": s, "serve_class": sc, "model_key": key, "fixture": fixture,
         "config_edit": {**cut, **edit}, "expect": f"checkpoint: {q_expect}; setting: {s_expect}",
         "draw": f"draw {i}: {q}: {qc}; {s}: {sc}"}  # fmt: skip
    if f"e{i:02d}" in EXPECTED_DRAWN:
        c["expect_drawn"] = EXPECTED_DRAWN[f"e{i:02d}"]
    return c


def draw():
    cases = {f"e{i:02d}": make_case(i, *d) for i, d in enumerate(draw_classes(), 1)}
    order = [k for k in cases if cases[k]["model_key"].startswith("qwen35")]
    order += [k for k in cases if k not in order]
    models = {
        c["args"][0].split("/")[-1]: {"fixture": c["fixture"], "edit": c["config_edit"]}
        for c in cases.values()
    }
    why = (
        "fresh-319 doctor-corpus cases (tools/gpu_fresh319_draw.py wrote this file; tools/gpu_serve_requests.py runs "
        "them on real vLLM 0.26.0 'vllm serve', one H100 or H200, side by side within 0.95). Drawn, not chosen: see "
        "the draw script's docstring. 'models': python3 tools/gpu_fresh319_draw.py --models .gpu/models writes them."
    )
    return {"why": why, "seed": SEED, "universe": len(CHECKPOINTS) + len(SETTINGS), "order": order, "models": models,
            "cases": cases}  # fmt: skip


def time_estimate(out, other_s):
    """The driver's start rule, simulated: each case lasts its model's start + 8 s of steps."""
    running, clock, end, starts = [], 0.0, 0.0, []
    for k in out["order"]:
        c = out["cases"][k]
        while True:
            running = [r for r in running if r[0] > clock]
            if not running or (len(running) < 8 and sum(m for _, m in running) + c["mem"] <= 0.95):
                break
            clock = min(t for t, _ in running)
        dur = (other_s + 40 if c["model_key"].startswith("qwen35") else other_s) + 8
        running.append((clock + dur, c["mem"]))
        starts.append(f"{k}@{clock:.0f}")
        end = max(end, clock + dur)
        clock += 1
    return round(end), starts


if __name__ == "__main__" and sys.argv[1:2] == ["--models"]:
    with open(OUT_JSON) as f:
        write_models(json.load(f)["models"], sys.argv[2], FIXTURES)
    sys.exit(0)

if __name__ == "__main__":
    out = draw()
    if sys.argv[1:] != ["--draw-only"]:
        with open(OUT_JSON, "w") as f:
            json.dump(out, f, indent=1)
            f.write("\n")
    for k in out["order"]:
        c = out["cases"][k]
        print(k, c["draw"], "|", " ".join(c["args"][1:]), c["env"] or "", "mem", c["mem"])
    print(
        "mem in all", round(sum(c["mem"] for c in out["cases"].values()), 2), "; models", len(out["models"])
    )
    for q in (90, 130):
        end, starts = time_estimate(out, q)
        print(f"starts of {q} s (qwen3.5 +40): done at ~{end} s; starts", " ".join(starts))
    print("order:", " ".join(out["order"]))
