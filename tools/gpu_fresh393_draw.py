"""Draw the fresh-393 GPU cases: WILL THIS CHECKPOINT LOAD ON THIS GPU, ROUND 4: what is LEFT of fresh-319's universe
(the 4 (checkpoint class, setting class) pairs of fresh-379's 16 that fresh-379 did not draw) and 8 cases drawn from a
NEW POOL of checkpoint classes written here from vLLM 0.26.0's source (quantization configs, values and checkpoint
shapes none of fresh-319's classes holds), every pair asserted new. A published checkpoint's config.json cut to 2
layers carrying the class's quantization_config / shape; real vLLM 0.26.0 `vllm serve`, torch 2.11+cu130, one H100
80GB (or H200), SM90; dummy weights, --skip-tokenizer-init. Sampled, not chosen.

Usage: python3 tools/gpu_fresh393_draw.py                  writes tools/gpu-fresh393-cases.json and prints the draw
       python3 tools/gpu_fresh393_draw.py --draw-only      prints the draw and the memory / time figures, writes nothing
       python3 tools/gpu_fresh393_draw.py --models DIR     writes DIR/<name>/config.json for the cases' model folders
Run (the last device call, after the bundle's part calls; LASTPART is the bundle's last part; the cases file,
gpu_serve_requests.py, gpu_serve_drive.py and gpu_fresh151_go.sh copied into .gpu/run, the model folders into
.gpu/models; the driver is used UNCHANGED: one POST per case, as fresh-319/359/379):
  bash .gpu/run/gpu_fresh151_go.sh 545 LASTPART gpu_serve_requests.py .gpu/run/gpu-fresh393-cases.json LEFT 8 0.95
       <the file's "order">

SOURCES READ: tools/gpu_fresh319_draw.py (the universe, imported unchanged: CHECKPOINTS, SETTINGS, MODEL, FLAGS,
make_case), tools/gpu_fresh379_draw.py (round 3: its LEFT and draw rule), tools/gpu-fresh319/359/379-cases.json
(their 'checkpoint'/'checkpoint_class' and 'serve_setting'/'serve_class' fields). vLLM 0.26.0's own source from the
kit's wheel (/work/main/.gpu/build/vllm-0.26.0-cp38-abi3-manylinux_2_28_x86_64.whl, unzipped into /tmp/gpu393):
  config/model.py _verify_quantization 1040-1115 (overrides first, then 'Quantization method specified in the model
    config (X) does not match ... (Y)'), 762-764 (_verify_quantization runs BEFORE _verify_bnb_config);
  model_executor/layers/quantization/fp8.py Fp8Config.__init__ 98-135 (block size must have 2 dimensions, needs a
    serialized checkpoint and the dynamic scheme), utils/fp8_utils.py validate_fp8_block_shape 1196-1244 (a merged
    gate_up's partitions but the last must be multiples of block_n: 'Weight output_partition_size = N is not divisible
    by weight quantization block_n = 128.');
  modelopt.py QUANT_ALGOS 105-119 (FP8, FP8_PER_CHANNEL_PER_TOKEN, FP8_PB_WO, NVFP4, W4A16_NVFP4, MXFP8,
    MIXED_PRECISION), _extract_modelopt_quant_algo 246-263, ModelOptFp8Config 370-440 ('Detected ModelOpt fp8
    checkpoint' WARNING; override to 'modelopt' only for algo FP8; min capability 89), ModelOptFp8PcPtLinearMethod
    create_weights 555-570, ModelOptFp8PbWoLinearMethod 650-700 ('ModelOpt FP8_PB_WO requires out_features divisible
    by 128, got N.'), W4A16_NVFP4 1046-1054 / 1296-1300 (FP4 Marlin GEMM, bf16 activations), ModelOptMxFp8Config
    1700-1790 (override to modelopt_mxfp8 for an MXFP8 algo, min capability 80 'Marlin kernel supports MXFP8 on
    SM80+', bf16 only, 'Detected ModelOpt MXFP8 checkpoint' WARNING);
  fbgemm_fp8.py (from_config: modules_to_not_convert, activation_scale_ub; min capability 80);
  compressed_tensors/compressed_tensors.py _get_scheme_from_parts 722-860 (nvfp4 weights with no input ->
    CompressedTensorsW4A4Fp4(use_a16=True); mxfp4 (float 4-bit group 32 symmetric) -> W4A4Mxfp4 (min 80);
    _is_fp8_w4a8_sm90 (exactly SM90) -> CompressedTensorsW4A8Fp8; a float weight with no input quant ->
    W8A16Fp8), schemes/compressed_tensors_w4a8_fp8.py 45-71 ('W4A8 kernels require group quantization with group size
    128', min capability 90), schemes/*.py get_min_capability;
  utils/marlin_utils.py MARLIN_SUPPORTED_GROUP_SIZES = [-1, 32, 64, 128];
  fp_quant.py (min capability 100: NOT put in the pool, fresh-227/237 drew fp_quant already).
Not read: doctor, its knowledge, tests/test_doctor*, any batch's logs.
EARLIER GPU MAKERS (their universes only): as fresh-319's docstring lists (fresh-227/237, 242/257, 264, 302, 39/79),
plus fresh-319, 359, 379 (the whole fresh-319 universe: SKIP below). The new pool avoids what those drew: no
--quantization fbgemm_fp8 / fp_quant / experts_int8 (227/237: there a command-line method on an uncut checkpoint; here
fbgemm_fp8 is the CONFIG's method, served with no flag), no misspelt names, no bits 3, no group 256, no hf-overrides
static scheme on fp8 (so no block-static class here).

PART A, THE LEFT PAIRS (fixed before the draw, computed by left_pairs()): fresh-379's LEFT_Q x LEFT_S (8 checkpoint
classes x 2 setting classes = 16) less the 12 (checkpoint class, setting class) pairs fresh-379 drew = 4 pairs
(asserted), each run as fresh-319's make_case builds it (folder f393-...).
PART B, THE NEW POOL (written before the draw and before anything ran): 6 conditions N1-N6, 17 classes below, each
a checkpoint served with the BASE only (no drawn setting: serve_setting 'none'); asserted new: no class name is a
fresh-319 class name and no (model, config edit) is a fresh-319 class's.
THE DRAW (fixed before it ran): r = random.Random(2393); a = r.sample(LEFT_PAIRS, 4) (every left pair once, in a drawn
order: e01-e04); b = r.sample(POOL_PAIRS, 8) (POOL_PAIRS the 17 (condition, class) pairs, sorted: e05-e12). Nothing is
redrawn; a case that cannot be made is said so, not replaced. "order" = draw order.

BASE (fresh-319's): `vllm serve .gpu/models/<folder> --skip-tokenizer-init --load-format dummy --max-model-len 4096
--kv-cache-memory-bytes 1073741824 --gpu-memory-utilization U` (VLLM_USE_DEEP_GEMM=0 for every block-fp8 checkpoint:
DeepGEMM is not in the kit), + the left pairs' drawn flags (S1 conflicting: `--quantization X` by fresh-319's CONFLICT
rule; S4 FLASHINFER: `--attention-backend FLASHINFER`). Every server that comes up gets one POST /v1/completions, 50
token ids, max_tokens 16. Folders f393-<model key>-<class>.

MEMORY BOUND BY CONSTRUCTION: every case's "mem" is its model's U from fresh-319 (llama cut 0.08, qwen2.5 / qwen3-fp8
cut 0.07; a 1 GiB KV budget fixed, no profiling a neighbour could move; the 14000-wide llama is smaller than the
published one); any 8 <= 8 x 0.08 = 0.64 <= 0.95: the first 8 of "order" start at once, the other 4 as they end.
TIME, TWO WAVES BY CONSTRUCTION (fresh-359/379's figures: refusals in 35-53 s, ready in 61-86 s with 8 starting
together): "timeout" 195 (no cut Qwen3.5 here), "need" 150; --draw-only simulates the start rule at 90, 130 and 195 s
starts and asserts the 195 s one ends by 450 s.

THE DRAW GAVE: DRAW_GAVE below (filled after --draw-only printed the draw once, before the cases file was written and
before anything ran; nothing but DRAW_GAVE, EXPECTED_DRAWN and this paragraph changed after it). In short: 4
refusals / failures expected at config or model init from the left pairs (e01, e04 mismatch; e02, e03 FLASHINFER not
importable), e05 refused at config (3 block dims), e12 refused at layer creation (FP8_PB_WO width 28000), e10 unknown
(likely an assertion on K = 14000 in the first forward), five healthy (e06, e07, e08, e09, e11).
EXPECTED for the drawn twelve: EXPECTED_DRAWN below (also each case's "expect_drawn"), written after the draw was
printed by --draw-only and before anything ran, from 0.26.0's source as cited.
"""

import json
import os
import random
import sys

import gpu_fresh319_draw as U  # the script's folder is on sys.path when run
from gpu_draw_models import write_models

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_JSON = os.path.join(HERE, "gpu-fresh393-cases.json")
SEED = 2393
N = 12
TIMEOUT, NEED = 195, 150
QC = "quantization_config"
NODG = {"VLLM_USE_DEEP_GEMM": "0"}


def left_pairs():
    """fresh-379's 16 (checkpoint class, setting class) pairs less the 12 it drew."""
    import gpu_fresh379_draw as R

    with open(os.path.join(HERE, "gpu-fresh379-cases.json")) as f:
        drawn = {
            (c["checkpoint"], c["checkpoint_class"], c["serve_setting"], c["serve_class"])
            for c in json.load(f)["cases"].values()
        }
    assert len(drawn) == 12, drawn
    all16 = {(q, qc, s, sc) for q, qc in R.LEFT_Q for s, sc in R.LEFT_S}
    assert len(all16) == 16 and drawn <= all16
    return sorted(all16 - drawn)


LEFT_PAIRS = left_pairs()
assert len(LEFT_PAIRS) == 4, LEFT_PAIRS

I4G128 = {
    "num_bits": 4,
    "type": "int",
    "strategy": "group",
    "group_size": 128,
    "symmetric": True,
    "dynamic": False,
}
FP8_CH = {"num_bits": 8, "type": "float", "strategy": "channel", "symmetric": True, "dynamic": False}
FP8_TOK = {"num_bits": 8, "type": "float", "strategy": "token", "symmetric": True, "dynamic": True}
NVFP4_W = {"num_bits": 4, "type": "float", "strategy": "tensor_group", "group_size": 16, "symmetric": True,
           "dynamic": False}  # fmt: skip
MXFP4_W = {
    "num_bits": 4,
    "type": "float",
    "strategy": "group",
    "group_size": 32,
    "symmetric": True,
    "dynamic": False,
}
MXFP4_A = {**MXFP4_W, "dynamic": True}
NARROW = {"intermediate_size": 14000}  # 14000 % 128 = 48: not a multiple of a 128 block


def mo(algo, **kw):
    return {QC: {"quant_method": "modelopt", "quant_algo": algo, **kw}}


# POOL: condition -> class -> (model key, config edits, env, EXPECT written before the draw)
POOL = {
    "N1 modelopt quant_algo fresh-319's Q8 lacks (llama cut to 2 layers)": {
        "FP8_PER_CHANNEL_PER_TOKEN": ("llama", mo("FP8_PER_CHANNEL_PER_TOKEN"), {},
                                      "likely healthy: 'Detected ModelOpt fp8 checkpoint' WARNING, "
                                      "ModelOptFp8PcPtLinearMethod (per-channel fp8 weights, per-token dynamic "
                                      "activations; min capability 89)"),
        "FP8_PB_WO": ("llama", mo("FP8_PB_WO"), {},
                      "likely healthy: block (128) fp8 weight-only; every llama width a multiple of 128"),
        "MXFP8": ("llama", mo("MXFP8"), {},
                  "unknown: overridden to modelopt_mxfp8 ('Detected ModelOpt MXFP8 checkpoint' WARNING), Marlin MXFP8 "
                  "on SM90 (min 80): healthy, or refused in a kernel check"),
        "W4A16_NVFP4": ("llama", mo("W4A16_NVFP4", group_size=16), {},
                        "likely healthy: overridden to modelopt_fp4, FP4 Marlin GEMM with bf16 activations"),
    },
    "N2 compressed-tensors schemes fresh-319's Q3 lacks (llama cut to 2 layers)": {
        "W8A16-FP8-channel": ("llama", {QC: U.ct_group(FP8_CH, None, "float-quantized")}, {},
                              "healthy: CompressedTensorsW8A16Fp8 (fp8 weights, bf16 activations: Marlin fp8)"),
        "W4A8-FP8-int4-g128": ("llama", {QC: U.ct_group(I4G128, FP8_TOK, "int-quantized")}, {},
                               "unknown: _is_fp8_w4a8_sm90 (exactly SM90) -> CompressedTensorsW4A8Fp8 (CUTLASS "
                               "W4A8): healthy, or refused by the format check (int-quantized vs pack-quantized)"),
        "W4A8-FP8-int4-g64": ("llama", {QC: U.ct_group({**I4G128, "group_size": 64}, FP8_TOK, "int-quantized")}, {},
                              "refused at layer creation in the engine core: 'W4A8 kernels require group "
                              "quantization with group size 128' (if the W4A8 scheme is chosen)"),
        "NVFP4A16": ("llama", {QC: U.ct_group(NVFP4_W, None, "nvfp4-pack-quantized")}, {},
                     "likely healthy: W4A4Fp4(use_a16=True), FP4 Marlin on SM90, a no-native-FP4 WARNING"),
        "MXFP4-W4A4": ("llama", {QC: U.ct_group(MXFP4_W, MXFP4_A, "mxfp4-pack-quantized")}, {},
                       "unknown: CompressedTensorsW4A4Mxfp4 (min 80): emulation / Marlin with a WARNING, or refused "
                       "(no MXFP4 activation kernel on SM90)"),
    },
    "N3 a checkpoint shape against a block format (llama cut, intermediate_size 14000, not a multiple of 128)": {
        "fp8-block-128x128": ("llama", {**NARROW, QC: {"quant_method": "fp8", "activation_scheme": "dynamic",
                                                       "weight_block_size": [128, 128]}}, NODG,
                              "refused at layer creation in the engine core (validate_fp8_block_shape, gate_up "
                              "merged): 'Weight output_partition_size = 14000 is not divisible by weight quantization "
                              "block_n = 128.'"),
        "modelopt-FP8_PB_WO": ("llama", {**NARROW, **mo("FP8_PB_WO")}, {},
                               "refused at layer creation: 'ModelOpt FP8_PB_WO requires out_features divisible by "
                               "128, got 28000.'"),
    },
    "N4 fp8 quantization_config values fresh-319's Q1/Q2 lack (llama cut to 2 layers)": {
        "block-3-dims": ("llama", {QC: {"quant_method": "fp8", "activation_scheme": "dynamic",
                                        "weight_block_size": [128, 128, 128]}}, NODG,
                         "refused at config in the API process: 'The quantization block size of weight must have 2 "
                         "dimensions, but got 3 dimensions'"),
        "block-128x128-on-llama": ("llama", {QC: {"quant_method": "fp8", "activation_scheme": "dynamic",
                                                  "weight_block_size": [128, 128]}}, NODG,
                                   "healthy: block fp8 (CUTLASS / Triton, DeepGEMM off) on the llama widths"),
    },
    "N5 fbgemm_fp8 quantization_config written in (llama cut to 2 layers)": {
        "ub-1200-lm_head-skipped": ("llama", {QC: {"quant_method": "fbgemm_fp8", "activation_scale_ub": 1200.0,
                                                   "modules_to_not_convert": ["lm_head"]}}, {},
                                    "healthy: FBGEMMFp8 per-channel fp8 weights, dynamic per-token activations"),
    },
    "N6 GPTQ / AWQ widths fresh-319's Q4/Q5 lack (qwen2.5-7b cut to 2 layers)": {
        "gptq-bits-8": ("qwen25-gptq", {QC + ".bits": 8}, {},
                        "healthy: gptq -> gptq_marlin, 8-bit (uint8b128)"),
        "gptq-group-size-minus-1": ("qwen25-gptq", {QC + ".group_size": -1}, {},
                                    "healthy: channel-wise gptq_marlin (-1 in MARLIN_SUPPORTED_GROUP_SIZES)"),
        "awq-group-size-64": ("qwen25-awq", {QC + ".group_size": 64}, {},
                              "healthy: awq -> awq_marlin with group 64"),
    },
}  # fmt: skip


def pool_pairs():
    pairs = sorted((k, c) for k, v in POOL.items() for c in v)
    old_names = {c for v in U.CHECKPOINTS.values() for c in v} | {c for v in U.SETTINGS.values() for c in v}
    old_cfgs = [
        (key, json.dumps(edit, sort_keys=True))
        for v in U.CHECKPOINTS.values()
        for key, edit, *_ in v.values()
    ]
    for k, c in pairs:
        key, edit, _, _ = POOL[k][c]
        assert c not in old_names, ("a fresh-319 class name", c)
        assert (key, json.dumps(edit, sort_keys=True)) not in old_cfgs, ("a fresh-319 config", c)
        assert k not in U.CHECKPOINTS and k not in U.SETTINGS
    assert len(pairs) == 17, len(pairs)
    return pairs


POOL_PAIRS = pool_pairs()

DRAW_GAVE = (  # filled after --draw-only printed the draw once (the tool committed before it, c9f9557e)
    "part A in the order e01 Q2 published-128x128 x conflicting (--quantization modelopt), e02 Q9 float16 x "
    "FLASHINFER, e03 Q5 desc_act-true x FLASHINFER, e04 Q6 8bit x conflicting (--quantization fp8); part B (8 of the "
    "17): e05 N4 block-3-dims, e06 N1 FP8_PB_WO, e07 N1 W4A16_NVFP4, e08 N6 gptq-group-size-minus-1, e09 N2 "
    "MXFP4-W4A4, e10 N3 fp8-block-128x128 (intermediate 14000), e11 N6 gptq-bits-8, e12 N3 modelopt-FP8_PB_WO "
    "(intermediate 14000). 12 model folders; mems 0.07-0.08, sum 0.92, the heaviest 8 0.64. order e01..e12 (8 at once, "
    "then 4). Simulated: all 12 end by ~199 s at 90 s starts, ~279 s at 130 s, ~409 s if every case ran to its "
    "timeout (<= 450)."
)
EXPECTED_DRAWN = {  # written after --draw-only printed the draw, before anything ran; 0.26.0's source as cited
    "e01": "refused at config in the API process (ModelConfig._verify_quantization, config/model.py 1040-1113): the "
    "config's method is fp8; no override claims an fp8 config for a user 'modelopt' (ModelOptFp8Config's override "
    "reads a quant_algo only from a config whose quant_method starts with 'modelopt', modelopt.py 256; humming only for "
    "a user 'humming'; inc only for auto-round): ValueError 'Quantization method specified in the model config (fp8) "
    "does not match the quantization method specified in the `quantization` argument (modelopt).'; no engine core, "
    "rc 1 in ~20-40 s",
    "e02": "fails in the engine core at model init (layer 0's Attention.__init__ -> get_attn_backend, platforms/cuda.py) "
    "as fresh-379 e05: the kit has no flashinfer, ValueError 'Selected backend AttentionBackendEnum.FLASHINFER is not "
    "valid for this configuration. Reason: [\'ImportError\']', 'Engine core initialization failed'; the float16 "
    "config itself would serve (auto dtype float16)",
    "e03": "fails in the engine core at model init as e02, after layer 0's qkv_proj / o_proj were created by auto_gptq "
    "(the gptq config claimed by auto_gptq's override; act-order g_idx parameters): 'Selected backend "
    "AttentionBackendEnum.FLASHINFER is not valid for this configuration. Reason: [\'ImportError\']'",
    "e04": "refused at config in the API process: _verify_quantization runs before _verify_bnb_config (config/model.py "
    "762-764) and no override claims a bitsandbytes config for 'fp8': ValueError 'Quantization method specified in "
    "the model config (bitsandbytes) does not match the quantization method specified in the `quantization` argument "
    "(fp8).'; so no 'CUDA graph is not supported on BitsAndBytes 8bit' WARNING and no bitsandbytes ImportError; rc 1",
    "e05": "refused in the API process when the quant config is built (VllmConfig -> get_quant_config -> "
    "Fp8Config.from_config -> __init__, fp8.py 121-125): ValueError 'The quantization block size of weight must have "
    "2 dimensions, but got 3 dimensions'; no engine core, rc 1",
    "e06": "likely HEALTHY: 'Detected ModelOpt fp8 checkpoint (quant_algo=FP8_PB_WO). Please note that the format is "
    "experimental and could change.' WARNING (modelopt.py 383-388); ModelOptFp8PbWoLinearMethod with a 128x128 block "
    "weight scale (every llama width a multiple of 128), a block-scaled fp8 kernel chosen by init_fp8_linear_kernel "
    "(CUTLASS / Triton on SM90; DeepGEMM absent from the kit, no VLLM_USE_DEEP_GEMM set: if DeepGEMM were chosen it "
    "would fail to import, which is the other outcome); 200",
    "e07": "likely HEALTHY: the modelopt config overridden to modelopt_fp4 (the algo holds NVFP4), 'Detected ModelOpt "
    "NVFP4 checkpoint (quant_algo=W4A16_NVFP4)'-style experimental WARNING, W4A16 FP4 Marlin GEMM with bf16 "
    "activations (modelopt.py 1046), the dummy global scales; 200. Unknown: a refusal if the W4A16 path wants a field "
    "the cut config lacks (kv_cache_quant_algo / exclude_modules are read with defaults)",
    "e08": "HEALTHY: auto_gptq with group_size -1 (channel-wise, in MARLIN_SUPPORTED_GROUP_SIZES, utils/marlin_utils.py "
    "35), 4-bit uint4b8 Marlin, fp16 config served as the auto dtype; 200",
    "e09": "likely HEALTHY: compressed-tensors mxfp4 weights (float 4-bit, group 32, symmetric) -> "
    "CompressedTensorsW4A4Mxfp4 (min capability 80): 'On SM100+ with FlashInfer: true W4A4 ... Otherwise: W4A16 "
    "weight-only via Marlin' (schemes/compressed_tensors_w4a4_mxfp4.py 22-34): on SM90 the activation quantization is "
    "dropped (maybe a WARNING saying so); 200",
    "e10": "UNKNOWN from the source: the merged gate_up [14000, 14000] is not a multiple of block_n 128, but "
    "MergedColumnParallelLinear sets allow_fp8_block_shape_mismatch first (linear.py 502-525, DEBUG only), so "
    "validate_fp8_block_shape is skipped and the layer is created; down_proj's K = 14000 is not a multiple of the "
    "128-wide activation group: most likely an AssertionError 'the last dimension of `x` 14000 must be divisible by "
    "`group_size` 128' (fp8_utils.py 596-599) in the engine core's first forward (the compile / memory profile run), "
    "'Engine core initialization failed', rc 1 (cause: a checkpoint width not a multiple of the fp8 block); or "
    "healthy if the chosen kernel pads K",
    "e11": "HEALTHY: auto_gptq bits 8 symmetric -> uint8b128 (auto_gptq.py 101-104) on Marlin; 200",
    "e12": "fails in the engine core at model init, at layer 0's gate_up_proj (ModelOptFp8PbWoLinearMethod."
    "create_weights checks its own 128x128 block, modelopt.py 690-699, whatever the mismatch allowance): ValueError "
    "'ModelOpt FP8_PB_WO requires out_features divisible by 128, got 28000.' after the 'Detected ModelOpt fp8 "
    "checkpoint (quant_algo=FP8_PB_WO)' WARNING; 'Engine core initialization failed', rc 1",
}  # fmt: skip


def draw_classes():
    r = random.Random(SEED)
    a = r.sample(LEFT_PAIRS, 4)
    b = r.sample(POOL_PAIRS, 8)
    return [("left", *p) for p in a] + [("pool", *p) for p in b]


def make_left(i, q, qc, s, sc):
    c = U.make_case(i, q, qc, s, sc)
    new = c["args"][0].replace("/f319-", "/f393-", 1)
    c["args"][0] = new
    c["steps"][0]["body"]["model"] = new
    c["timeout"], c["need"] = TIMEOUT, NEED
    c.pop("expect_drawn", None)  # fresh-319's expectation for ITS e-number: not this case's
    c["part"] = "A: left of fresh-319's universe"
    return c


def make_pool(i, k, cls):
    key, edit, env, expect = POOL[k][cls]
    fixture, cut, util, extra, base_env = U.MODEL[key]
    assert not extra
    model = ".gpu/models/" + f"f393-{key}-{U.slug(cls)}"
    args = [model, *U.FLAGS, "--gpu-memory-utilization", str(util)]
    one = {"post": "/v1/completions", "body": {"prompt_len": 50, "max_tokens": 16, "model": model}}
    return {"args": args, "env": {**base_env, **env}, "timeout": TIMEOUT, "need": NEED, "mem": util, "steps": [one],
            "cost": "start", "setting": f"{k} x none", "class": f"{cls} x none", "checkpoint": k,
            "checkpoint_class": cls, "serve_setting": "none (the base only)", "serve_class": "none",
            "model_key": key, "fixture": fixture, "config_edit": {**cut, **edit}, "expect": expect,
            "draw": f"draw {i}: {k}: {cls}", "part": "B: new pool"}  # fmt: skip


def draw():
    cases = {}
    for i, (part, *d) in enumerate(draw_classes(), 1):
        cases[f"e{i:02d}"] = make_left(i, *d) if part == "left" else make_pool(i, *d)
        if f"e{i:02d}" in EXPECTED_DRAWN:
            cases[f"e{i:02d}"]["expect_drawn"] = EXPECTED_DRAWN[f"e{i:02d}"]
    order = list(cases)
    models = {
        c["args"][0].split("/")[-1]: {"fixture": c["fixture"], "edit": c["config_edit"]}
        for c in cases.values()
    }
    why = (
        "fresh-393 doctor-corpus cases (tools/gpu_fresh393_draw.py wrote this file; tools/gpu_serve_requests.py runs "
        "them on real vLLM 0.26.0 'vllm serve', one H100 or H200, side by side within 0.95, two waves). The 4 pairs "
        "left of fresh-319's universe and 8 from a new pool of checkpoint classes: see the draw script's docstring. "
        "'models': python3 tools/gpu_fresh393_draw.py --models .gpu/models writes them."
    )
    return {"why": why, "seed": SEED, "universe": len(LEFT_PAIRS) + len(POOL_PAIRS), "left": LEFT_PAIRS,
            "pool": POOL_PAIRS, "order": order, "models": models, "cases": cases}  # fmt: skip


def time_estimate(out, other_s):
    """The driver's start rule, simulated: each case lasts its start + 8 s of steps, capped at its timeout."""
    running, clock, end, starts = [], 0.0, 0.0, []
    for k in out["order"]:
        c = out["cases"][k]
        while True:
            running = [r for r in running if r[0] > clock]
            if not running or (len(running) < 8 and sum(m for _, m in running) + c["mem"] <= 0.95):
                break
            clock = min(t for t, _ in running)
        dur = min(other_s, c["timeout"]) + 8
        running.append((clock + dur, c["mem"]))
        starts.append(f"{k}@{clock:.0f}")
        end = max(end, clock + dur)
        clock += 1
    return round(end), starts


if __name__ == "__main__" and sys.argv[1:2] == ["--models"]:
    with open(OUT_JSON) as f:
        write_models(json.load(f)["models"], sys.argv[2], U.FIXTURES)
    sys.exit(0)

if __name__ == "__main__":
    out = draw()
    if sys.argv[1:] != ["--draw-only"]:
        assert EXPECTED_DRAWN, "EXPECTED_DRAWN is written after --draw-only, before the cases file"
        with open(OUT_JSON, "w") as f:
            json.dump(out, f, indent=1)
            f.write("\n")
    print("left pairs:", LEFT_PAIRS)
    print("pool pairs:", len(POOL_PAIRS))
    for k in out["order"]:
        c = out["cases"][k]
        print(
            k, c["draw"], "|", " ".join(c["args"]), c["env"] or "", "mem", c["mem"], "timeout", c["timeout"]
        )
    print(
        "mem in all", round(sum(c["mem"] for c in out["cases"].values()), 2), "; models", len(out["models"])
    )
    print(
        "heaviest 8 side by side:",
        round(sum(sorted((c["mem"] for c in out["cases"].values()), reverse=True)[:8]), 2),
    )
    for q in (90, 130, 195):
        end, starts = time_estimate(out, q)
        print(f"starts of {q} s: done at ~{end} s; starts", " ".join(starts))
        assert end <= 450, end
    print("order:", " ".join(out["order"]))
