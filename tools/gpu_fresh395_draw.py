"""Draw the fresh-395 GPU cases: NEW GROUND ON THE GPU: COMPILATION, CUDA GRAPHS AND ATTENTION BACKENDS. A HEALTHY
small model (a published config.json cut to 2 layers, as fresh-327's MODELS; real vLLM 0.26.0 `vllm serve`, torch
2.11+cu130, one H100 80GB or H200, SM90; dummy weights, --skip-tokenizer-init, token-id prompts) started with ONE DRAWN
setting from a NEW pool written here from vLLM 0.26.0's own source: --compilation-config (-cc) fields (mode,
backend, cudagraph_mode, cudagraph_capture_sizes, compile_sizes, custom_ops, splitting_ops, pass_config), -O
spellings, --enforce-eager combinations, --attention-backend names against head size / sliding window, --attention-config
backend_per_kind, a backend with a graph mode, --kv-cache-dtype with full graphs on a sliding-window model,
--async-scheduling with an executor / the V2 runner, --max-num-batched-tokens against the graph sizes, and TORCH/VLLM
environment knobs that change compilation, each paired with a compile flag. Sampled, not chosen.

Usage: python3 tools/gpu_fresh395_draw.py                  writes tools/gpu-fresh395-cases.json and prints the draw
       python3 tools/gpu_fresh395_draw.py --draw-only      prints the draw, the novelty check and the figures
       python3 tools/gpu_fresh395_draw.py --models DIR     writes DIR/<name>/config.json (config.json only, a few KB)
Run (the last device call, after the bundle's part calls; the cases file, gpu_serve_requests.py, gpu_serve_drive.py
and gpu_fresh151_go.sh copied into .gpu/run, the model folders into .gpu/models; the driver is used UNCHANGED):
  bash .gpu/run/gpu_fresh151_go.sh 545 LASTPART gpu_serve_requests.py .gpu/run/gpu-fresh395-cases.json LEFT 8 0.95
       e01 e02 e03 e04 e05 e06 e07 e08 e09 e10 e11 e12
(gpu_serve_requests.py CASES TOTAL_S PARALLEL MEM_CAP CASE...: cases start in the order given while the running cases'
"mem" plus the next one's stays within MEM_CAP, at most PARALLEL at once; a case not started by TOTAL_S - its "need"
is skipped. Here: 8 start together, the other 4 as the first ones end: two waves.)

SOURCES. vLLM 0.26.0's own source, from the kit's wheel (/work/main/.gpu/build/vllm-0.26.0-cp38-abi3-manylinux_2_28_
x86_64.whl, unzipped into /tmp/gpu395): config/compilation.py (CompilationMode NONE/STOCK_TORCH_COMPILE/
DYNAMO_TRACE_ONCE/VLLM_COMPILE and validate_mode_before: a string is upper-cased and must be a member name, "Invalid
compilation mode: X. Valid modes are: ..."; CUDAGraphMode values NONE=0 PIECEWISE=1 FULL=2 and the two tuples, a string
upper-cased; __post_init__: "Can only specify 'none' or 'all'" (assert), "Invalid syntax 'X' for custom op", "Invalid
backend for piecewise compilation" only at mode VLLM_COMPILE; init_backend: at modes 1/2 a torch backend name or a
qualified name resolved by import; post_init_cudagraph_sizes: compile_sizes strings other than
'cudagraph_capture_sizes' assert "Unrecognized size type in compile_sizes"; set_splitting_ops_for_v1: empty
splitting_ops with FULL_AND_PIECEWISE warns and sets FULL; set_splitting_ops_for_attn_fusion; resolve_cudagraph_mode_
and_sizes: FULL for mixed batches below ALWAYS support warns down to FULL_AND_PIECEWISE / FULL_DECODE_ONLY;
custom_op_log_check: "Op 'X' doesn't exist (or wasn't imported/registered), enabling with '+X' has no effect");
PassConfig (@config: pydantic, extra fields forbidden; eliminate_noops warnings); config/vllm.py (OptimizationLevel
O0-O3, -O2 default; async scheduling: "`X` does not support async scheduling yet." when the executor class lacks it,
uni and mp have it, the abstract default has not; "Enforce eager set, disabling torch.compile and CUDAGraphs";
TORCH_COMPILE_DISABLE=1 -> mode NONE with a warning; VLLM_USE_BREAKABLE_CUDAGRAPH -> mode NONE, piecewise graphs
allowed without compilation; a piecewise graph mode at a mode other than VLLM_COMPILE -> "Overriding to NONE" (info);
"Sequence Parallelism requires TP>1, disabling"; _set_cudagraph_sizes: capture sizes above max_num_batched_tokens
dropped, "cudagraph_capture_sizes should contain at least one element when using cuda graph." (assert),
"Truncating max_cudagraph_capture_size to N"; VLLM_BATCH_INVARIANT disables cascade attention);
utils/argparse_utils.py (-O<x> and -O=<x> become --optimization-level x; dotted -cc.key=value merged into JSON);
config/attention.py (backend "auto" -> automatic; backend_per_kind keyed by KVCacheSpecKind values full_attention,
sliding_window, ..., "Unknown KV cache group kind 'X' in backend_per_kind. Valid kinds are: ..."; a backend name
upper-cased, "Unknown attention backend: 'X'. Valid options are: ..."); v1/attention/backends/registry.py (the enum:
FLASH_ATTN, TRITON_ATTN, FLEX_ATTENTION, HPC_ATTN, ROCM_ATTN, CPU_ATTN, TORCH_SDPA (empty path, "only used for ViT"),
...); platforms/cuda.py get_attn_backend_cls ("Selected backend X is not valid for this configuration. Reason: [...]",
an ImportError counted as a reason); v1/attention/backend.py validate_configuration (head_size / dtype /
kv_cache_dtype / block_size / sliding window / batch invariance / compute capability reasons; sliding window
unsupported by default); backends: flash_attn.py (sliding window yes, batch invariance yes, FA3 -> cudagraph ALWAYS,
FA2 -> UNIFORM_BATCH, fp8/fp8_e4m3 KV only), triton_attn.py (ALWAYS, sliding yes, fp8_e5m2 KV yes), flex_attention.py
(ALWAYS, sliding yes, KV auto/float16/bfloat16), hpc_attn.py (head size 128 only, kernel block 64, SM >= 9.0, no
sliding window, its impl raises ImportError "HPC attention requires the hpc module to be installed. Please install it
from https://github.com/Tencent/hpc-ops"); v1/kv_cache_interface.py KVCacheSpecKind; v1/executor/ (uniproc and
multiproc support async scheduling; the abstract default False); envs.py (VLLM_USE_BREAKABLE_CUDAGRAPH,
VLLM_BATCH_INVARIANT, VLLM_USE_STANDALONE_COMPILE, VLLM_USE_V2_MODEL_RUNNER). Fixtures: tests/fixtures/checkpoints/
llama-3.1-8b-instruct, qwen2.5-7b-instruct (fresh-327's two), gemma-3-1b-it (head_dim 256, sliding_window 512,
sliding_window_pattern 6: both layers of a 2-layer cut are sliding-window layers). Not read: doctor, its knowledge,
tests/test_doctor*, any earlier batch's logs.

EARLIER GPU MAKERS CHECKED (their universes only: tools/gpu_fresh*_draw.py docstrings and constants, and every
tools/gpu-fresh*-cases.json case's args/env): fresh-79 (gemma: cudagraph_mode FULL / FULL_DECODE_ONLY / PIECEWISE /
FULL_PIECEWISE; capture lists [1,2,4,8], +max 16, max 16384, [0,1,2,4]; level 3, mode MAX, -O0, -O4; custom_ops
["all"], ["rms_norm"], backend eager / cudagraphs; malformed JSON, use_inductor, empty splitting_ops with PIECEWISE;
--enforce-eager with FULL / -O3 / sizes; --max-num-seqs 8 with sizes [16,32], 1024, 1; the compile cache env),
fresh-30/39 (-O0, -O3, -cc 3, FULL, eager + FULL_AND_PIECEWISE; --attention-backend / VLLM_ATTENTION_BACKEND
FLASH_ATTN, FLASHINFER, TRITON_ATTN, XFORMERS, FLASHMLA, FLEX_ATTENTION; kv dtypes), fresh-242 (24 conditions: a
backend with a kv dtype / block size / dtype / head size, FULL with FLEX / FA2, top-level graph-size flags,
--attention-config flash_attn_version and backend, VLLM_ATTENTION_BACKEND conflicts, --disable-sliding-window,
--kv-cache-dtype-skip-layers, --async-scheduling alone / with ngram), fresh-257/264 (pairs: async + spec, FA2 + fp8,
MLA + kv dtypes, head_dim / KV heads with a backend), fresh-99/340/370 (one parser flag with a wrong value:
--optimization-level O3, --max-num-batched-tokens 8k, --enable-chunked-prefill False ...), fresh-105/151/168/24 (one
environment variable: VLLM_USE_STANDALONE_COMPILE, VLLM_USE_AOT_COMPILE, TORCH_COMPILE_* ...), fresh-302/348/371
(sizing: batched tokens with long contexts, --max-cudagraph-capture-size 1024 with 64 seqs, capture sizes 1..64, -O0
on the hybrid), fresh-319/359/379 (-O3, eager, FULL, backends with quantized checkpoints), fresh-17/21/13 (no tools:
their cases files). WHAT IS NEW HERE: -cc fields none drew (mode by number / string name, backend under modes 1-2,
cudagraph_mode with mode NONE or as a number, empty / negative / unsorted capture lists, capture lists above the
batched tokens, compile_sizes, custom_ops all+none / unknown op, splitting_ops other than [], pass_config), the -O
spellings -O1, -O=2 and a dotted -O, backend names never drawn (HPC_ATTN, ROCM_ATTN, CPU_ATTN, TORCH_SDPA, auto),
backend_per_kind, backends with a graph mode other than fresh-242's two, --async-scheduling with an executor or the V2
runner, and environment knobs TOGETHER with a compile flag (earlier batches drew one variable alone). The check is
MECHANICAL as well: novelty() below collects every flag list and environment dict found in the constants of every
earlier tools/gpu_fresh*_draw.py and in every earlier tools/gpu-fresh*-cases.json case (base flags stripped), and
asserts that no class of the pool below equals one, nor appears inside an earlier case's flags with the same
environment. It passes for every class of the pool (not only the drawn ones).

BASE: `vllm serve .gpu/models/f395-<model> --skip-tokenizer-init --load-format dummy --max-model-len 4096
--kv-cache-memory-bytes 1073741824 --gpu-memory-utilization U` (fresh-327's), the drawn class's flags appended (a flag
the base carries is replaced), the class's environment added. No --enforce-eager unless drawn. Steps once the server
logged "Application startup complete": a POST /v1/completions (50 token ids, max_tokens 16), then 4 such requests at
once in the background with max_tokens 32 (batch sizes 2-4, so captured graphs other than size 1 are replayed), 6 s,
one more POST. Nothing else.
MODELS (a model is drawn per case from fresh-327's two unless the class names one; device folder <-
tests/fixtures/checkpoints/<fixture>, config.json with num_hidden_layers 2):
  f395-llama-3.1-8b-instruct-2l: ~3.0 GB bf16; head 128, 8 KV heads; U 0.08 (fresh-327's);
  f395-qwen2.5-7b-instruct-2l: ~3.1 GB; head 128, 4 KV heads; U 0.08 (fresh-327's);
  f395-gemma-3-1b-it-2l (classes on head size 256 / sliding window only): 302 M embedding + 2 small layers = ~0.7 GB;
  U 0.06.
MEMORY BOUND BY CONSTRUCTION: every case has the fixed 1 GiB KV budget (profiling skipped), so real use is weights
<= 3.1 GB + KV 1 GiB + CUDA context ~0.5 GB + graphs <= ~0.5 GB (at most 67 default capture sizes of a 2-layer model)
+ activations ~0.6 GB = ~5.8 GB < 0.08 x 79.2 GiB = 6.3 GiB; gemma's ~3.3 GB < 0.06 x 79.2 = 4.75 GiB. "mem" = U; 8
running at once <= 8 x 0.08 = 0.64 < 0.95.
TIME: "timeout" 220 (to be ready), "need" 150. 0.26's cold start side by side: 40-130 s (torch.compile + capture on a
cold cache for the compile classes; refused classes end in 15-90 s). Steps <= ~12 s + 2 s linger. Wave 1 (8 cases)
ends by ~230 s at worst; wave 2 (4 cases) starts as slots free (parse / config refusals free theirs in < 60 s) and ends
by ~230 + 220 + 14 = 464 s at the very worst, within the ~470-490 s LEFT after the go script's setup.

THE UNIVERSE: 17 conditions (K01-K17) x their classes (UNIVERSE below), every class's flags, environment, model and
EXPECT written from the source above before the draw and before anything ran. Value classes (each class's "vc"):
  healthy      valid and healthy (the control: expected none);
  changed      accepted, silently or with a WARNING changed / ignored; expected healthy;
  parse        refused by the argument parser (exit 2);
  config       refused at config validation in the API server (before an engine core starts);
  start        refused later, in the engine core while it starts (backend selection, model init, import);
  capture      accepted but failing (or not) at compilation / graph capture / first forward: the outcome unknown;
A class named "valid" is the condition's healthy control.
THE DRAW (fixed before it ran): r = random.Random(2395); names = r.sample(sorted(UNIVERSE), 12); then per drawn
condition in draw order: u = r.random(); "valid" if u < 1/6 and the condition has one, else r.choice(its other
classes, sorted); then the model: the class's own if it names one, else r.choice(sorted(fresh-327's two)). Cases
e01..e12 in draw order. Nothing is redrawn; a case that cannot be made is said so, not replaced.
THE DRAW GAVE (the tool committed in 5cec4f30 before the draw ran; the cases file in 8a4e8471, written by that tool;
this paragraph and EXPECTED_DRAWN added after both, before anything ran on the device): 12 of the 17 conditions (K03,
K10, K13, K14, K16 not drawn); SIX draws fell under u < 1/6 (e03 0.092, e04 0.021, e05 0.112, e09 0.151, e10 0.012,
e11 0.143), five of them on conditions with a healthy control (K15, e04's, has none and took a choice), so the batch
holds 5 "valid" controls, 6 "changed" classes (accepted, warned / ignored) and one "capture" class (e12, outcome
unknown); no parse / config / start refusal was drawn. By the source, all twelve are expected to come up and answer
200 (e12 and e07 with some risk at compile / capture), so it is a batch of HEALTHY servers, several with alarming
WARNING lines: a test of confident-wrong answers. Models: gemma cut for e01 and e11 (their classes name it), qwen2.5
cut x5, llama cut x5. Mems sum to 0.92 (8 at once: wave 1 e01-e08 = 0.62; e09-e12 as slots free). Nothing redrawn.
"""

import glob
import importlib
import json
import os
import random
import re
import sys

from gpu_draw_models import write_models  # the script's folder is on sys.path when run

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_JSON = os.path.join(HERE, "gpu-fresh395-cases.json")
FIXTURES = os.path.join(HERE, "..", "tests", "fixtures", "checkpoints")
SEED = 2395
N = 12
P_VALID = 1 / 6
GIB = 1073741824
BASE = ["--skip-tokenizer-init", "--load-format", "dummy", "--max-model-len", "4096", "--kv-cache-memory-bytes",
        str(GIB)]  # fmt: skip
TIMEOUT, NEED = 220, 150
# model key -> (fixture, edit, U)
MODELS = {
    "llama-3.1-8b-instruct-2l": ("llama-3.1-8b-instruct", {"num_hidden_layers": 2}, 0.08),
    "qwen2.5-7b-instruct-2l": ("qwen2.5-7b-instruct", {"num_hidden_layers": 2}, 0.08),
    "gemma-3-1b-it-2l": ("gemma-3-1b-it", {"num_hidden_layers": 2}, 0.06),
}
DRAWN_MODELS = ["llama-3.1-8b-instruct-2l", "qwen2.5-7b-instruct-2l"]  # fresh-327's MODELS
GEMMA = "gemma-3-1b-it-2l"


def cc(d):
    return ["--compilation-config", json.dumps(d)]


def k(vc, flags, expect, env=None, model=None):
    return {"vc": vc, "flags": flags, "env": env or {}, "model": model, "expect": expect}


UNIVERSE = {
    "K01 -cc mode given by value": {
        "valid": k("healthy", cc({"mode": "VLLM_COMPILE"}), "healthy: the name of the default mode 3; 200s"),
        "numeric-string": k("config", cc({"mode": "3"}), "refused at config: ValueError 'Invalid compilation mode: 3. "
                            "Valid modes are: NONE, STOCK_TORCH_COMPILE, DYNAMO_TRACE_ONCE, VLLM_COMPILE' (the string "
                            "is upper-cased and looked up as a NAME), API server exits 1"),
        "int-4": k("config", cc({"mode": 4}), "refused at config: pydantic validation error on mode (CompilationMode "
                   "takes 0, 1, 2 or 3), exit 1"),
        "lowercase-trace-once": k("changed", cc({"mode": "dynamo_trace_once"}), "accepted (upper-cased to mode 2): the "
                                  "default FULL_AND_PIECEWISE needs mode 3, so 'Cudagraph mode ... is not compatible with "
                                  "compilation mode ... Overriding to NONE' (info); stock torch.compile (inductor); "
                                  "likely healthy, 200s"),
    },
    "K02 -cc backend under the stock modes 1-2": {
        "valid": k("healthy", cc({"mode": 2, "backend": "eager"}), "healthy: Dynamo traced once, the eager backend, "
                   "no CUDA graphs (overridden to NONE); 200s"),
        "stock-cudagraphs": k("capture", cc({"mode": 1, "backend": "cudagraphs"}), "accepted (the backend check is "
                              "only at mode 3): torch.compile with torch's own cudagraphs backend around the model's "
                              "forward; unknown: healthy, or fails at the first forward / warm-up (graph trees with "
                              "the KV cache mutated in place) in the engine core"),
        "stock-missing-qualname": k("start", cc({"mode": 1, "backend": "mypkg.compile_backend"}), "accepted at config; "
                                    "in the engine core init_backend resolves the qualified name by import: "
                                    "ModuleNotFoundError \"No module named 'mypkg'\" when the model is compiled "
                                    "(profile / warm-up run), 'Engine core initialization failed', exit 1"),
    },
    "K03 cudagraph_mode with compilation mode NONE or as a number": {
        "valid": k("healthy", cc({"mode": 0, "cudagraph_mode": "FULL_DECODE_ONLY"}), "healthy: full decode graphs "
                   "captured without torch.compile (FULL needs no piecewise compilation); 200s"),
        "piecewise-mode-0": k("changed", cc({"mode": 0, "cudagraph_mode": "PIECEWISE"}), "accepted and changed: "
                              "'Cudagraph mode PIECEWISE is not compatible with compilation mode NONE.Overriding to "
                              "NONE.' (info); no graphs; healthy, 200s"),
        "o0-full-and-piecewise": k("changed", ["-O0", *cc({"cudagraph_mode": "FULL_AND_PIECEWISE"})], "accepted and "
                                   "changed: -O0 gives mode NONE, the piecewise half is impossible: overridden to NONE "
                                   "(info); healthy, 200s"),
        "number-2": k("changed", cc({"cudagraph_mode": 2}), "accepted: the enum's value 2 is FULL (not a name); FA3 is "
                      "ALWAYS, so full graphs for mixed batches too; 'No piecewise cudagraph for executing cascade "
                      "attention' warning; healthy, 200s"),
    },
    "K04 capture-size lists in -cc": {
        "valid": k("healthy", cc({"cudagraph_capture_sizes": [16, 4, 4, 1, 8]}), "healthy: de-duplicated and sorted "
                   "to [1, 4, 8, 16]; 200s"),
        "empty-list": k("config", cc({"cudagraph_capture_sizes": []}), "refused at config: AssertionError "
                        "'cudagraph_capture_sizes should contain at least one element when using cuda graph.', exit 1"),
        "negative-size": k("capture", cc({"cudagraph_capture_sizes": [-4, 1, 2]}), "accepted by the config (only "
                           "sizes above the batched tokens are dropped): [-4, 1, 2]; unknown: a graph capture or a "
                           "buffer slice at size -4 fails in the engine core (RuntimeError at capture), or the "
                           "dispatcher ignores it and the server is healthy"),
        "all-above-batched": k("changed", ["--max-num-batched-tokens", "1024",
                                           *cc({"cudagraph_capture_sizes": [2048, 4096]})],
                               "accepted and changed: both sizes dropped (above 1024 batched tokens), WARNING "
                               "'cudagraph_capture_sizes specified in compilation_config [2048, 4096] is overridden "
                               "by config []'; no graph captured; likely healthy (or an assertion on an empty size "
                               "list in the engine core: unknown)"),
    },
    "K05 compile_sizes": {
        "valid": k("healthy", cc({"compile_sizes": ["cudagraph_capture_sizes"], "max_cudagraph_capture_size": 8}),
                   "healthy: inductor compiles sizes 1, 2, 4, 8 besides the general range (a longer cold start); "
                   "200s"),
        "word-all": k("config", cc({"compile_sizes": ["all"]}), "refused at config: AssertionError 'Unrecognized size "
                      "type in compile_sizes, expect 'cudagraph_capture_sizes', got all', exit 1"),
        "above-batched": k("changed", ["--max-num-batched-tokens", "2048", *cc({"compile_sizes": [4096]})],
                           "accepted: a size above the compile range (1-2048) gets its own range entry and is "
                           "compiled but never used; healthy, 200s (unknown: a warning)"),
    },
    "K06 custom_ops lists": {
        "valid": k("healthy", cc({"custom_ops": ["none", "+rms_norm", "+silu_and_mul"]}), "healthy: two ops as "
                   "custom kernels, the rest native; 200s"),
        "all-and-none": k("config", cc({"custom_ops": ["all", "none"]}), "refused at config: AssertionError 'Can only "
                          "specify 'none' or 'all'', exit 1"),
        "unknown-op": k("changed", cc({"custom_ops": ["+fused_rms_norm_xyz"]}), "accepted: WARNING \"Op "
                        "'fused_rms_norm_xyz' doesn't exist (or wasn't imported/registered), enabling with "
                        "'+fused_rms_norm_xyz' has no effect\"; healthy, 200s"),
    },
    "K07 splitting_ops": {
        "empty-default-mode": k("changed", cc({"splitting_ops": []}), "accepted and changed: WARNINGs 'Using piecewise "
                                "cudagraph with empty splitting_ops' and 'Piecewise compilation with empty "
                                "splitting_ops does not contain piecewise cudagraph. Setting cudagraph_mode to "
                                "FULL.'; FA3 is ALWAYS: healthy, 200s"),
        "unknown-op": k("capture", cc({"splitting_ops": ["vllm::no_such_op"]}), "accepted: no split at attention "
                        "(the list replaces the attention ops), so the one piece holds attention and is captured "
                        "piecewise; unknown: healthy, or a failure at compilation / capture in the engine core"),
        "no-namespace": k("capture", cc({"splitting_ops": ["unified_attention_with_output"]}), "accepted: the name "
                          "without 'vllm::' matches no op (or is resolved by the split code: unknown); as unknown-op"),
    },
    "K08 pass_config": {
        "valid": k("healthy", cc({"pass_config": {"eliminate_noops": True}}), "healthy (the default value); 200s"),
        "old-key-enable-fusion": k("config", cc({"pass_config": {"enable_fusion": True}}), "refused at config: "
                                   "PassConfig forbids extra fields (pydantic 'Unexpected keyword argument' / "
                                   "extra_forbidden for enable_fusion, a pre-0.12 name), exit 1"),
        "sp-at-tp1": k("changed", cc({"pass_config": {"enable_sp": True}}), "accepted and changed: WARNING 'Sequence "
                       "Parallelism requires TP>1, disabling'; healthy, 200s"),
        "attn-quant-on-bf16": k("changed", cc({"pass_config": {"fuse_attn_quant": True}}), "accepted: splitting_ops "
                                "set to [] and WARNING 'fuse_attn_quant is incompatible with piecewise cudagraph ... "
                                "cudagraph_mode will be set to FULL'; nothing to fuse in bf16; likely healthy, 200s"),
        "noops-off-fusion-on": k("changed", cc({"pass_config": {"eliminate_noops": False, "fuse_norm_quant": True}}),
                                 "accepted: WARNING 'Fusion enabled but reshape elimination disabled. RMSNorm/SiluMul "
                                 "+ quant (fp8) fusion might not work'; healthy, 200s"),
    },
    "K09 --enforce-eager with a setting it overrides": {
        "valid": k("healthy", ["--enforce-eager", "--async-scheduling"], "healthy: eager, async scheduling on; 200s"),
        "eager-max-capture-512": k("changed", ["--enforce-eager", "--max-cudagraph-capture-size", "512"], "accepted and "
                                   "changed: 'Enforce eager set, disabling torch.compile and CUDAGraphs' and the capture "
                                   "size reset to 0; healthy, 200s"),
        "eager-interactivity": k("changed", ["--enforce-eager", "--performance-mode", "interactivity"], "accepted: "
                                 "the interactivity capture sizes never used (eager); healthy, 200s"),
        "eager-dotted-cc-mode": k("changed", ["--enforce-eager", "-cc.mode=VLLM_COMPILE"], "accepted and changed: the "
                                  "dotted -cc key merged into JSON, then eager wins (mode NONE, WARNING); healthy"),
    },
    "K10 --attention-backend names never drawn": {
        "valid": k("healthy", ["--attention-backend", "auto"], "healthy: 'auto' is automatic selection (FLASH_ATTN "
                   "on SM90); 200s"),
        "hpc-head-128": k("start", ["--attention-backend", "HPC_ATTN"], "refused in the engine core: either 'Selected "
                          "backend AttentionBackendEnum.HPC_ATTN is not valid for this configuration. Reason: [...]' "
                          "(block size 16 vs its kernel's 64), or, validation passing, ImportError 'HPC attention "
                          "requires the hpc module to be installed. Please install it from "
                          "https://github.com/Tencent/hpc-ops' at model init; 'Engine core initialization failed'",
                          model="llama-3.1-8b-instruct-2l"),
        "hpc-gemma-256-sliding": k("start", ["--attention-backend", "HPC_ATTN"], "refused in the engine core: "
                                   "'Selected backend ... HPC_ATTN is not valid for this configuration. Reason: "
                                   "['head_size not supported', ... 'sliding window not supported']'", model=GEMMA),
        "rocm-on-cuda": k("start", ["--attention-backend", "ROCM_ATTN"], "refused in the engine core: 'Selected "
                          "backend ... ROCM_ATTN is not valid ... Reason: [...]' (ImportError or compute capability), "
                          "or a failure importing ROCm kernels (unknown)"),
        "torch-sdpa": k("start", ["--attention-backend", "TORCH_SDPA"], "refused: TORCH_SDPA's class path is empty "
                        "('only used for ViT'); 'Selected backend ... Reason: ['ImportError']' or a ValueError at "
                        "class lookup (unknown where: config or engine core)"),
    },
    "K11 --attention-config backend_per_kind on the sliding-window cut": {
        "valid": k("healthy", ["--attention-config", json.dumps({"backend_per_kind": {"sliding_window": "TRITON_ATTN"}})],
                   "healthy: the sliding-window layers on TRITON_ATTN; 200s", model=GEMMA),
        "unknown-kind": k("config", ["--attention-config", json.dumps({"backend_per_kind": {"swa": "TRITON_ATTN"}})],
                          "refused at config: \"Unknown KV cache group kind 'swa' in backend_per_kind. Valid kinds "
                          "are: ...\", exit 1", model=GEMMA),
        "unknown-backend": k("config", ["--attention-config",
                                        json.dumps({"backend_per_kind": {"sliding_window": "TRITON"}})],
                             "refused at config: \"Unknown attention backend: 'TRITON'. Valid options are: ...\"",
                             model=GEMMA),
        "mla-backend-on-dense": k("start", ["--attention-config",
                                            json.dumps({"backend_per_kind": {"sliding_window": "FLASHMLA"}})],
                                  "refused in the engine core: 'Selected backend ... FLASHMLA is not valid for this "
                                  "configuration. Reason: [... 'non-MLA not supported' ...]'", model=GEMMA),
        "kind-absent": k("changed", ["--attention-config",
                                     json.dumps({"backend_per_kind": {"full_attention": "FLEX_ATTENTION"}})],
                         "accepted, no effect: the cut has only sliding-window layers; healthy, 200s", model=GEMMA),
    },
    "K12 an attention backend with a graph mode": {
        "valid": k("healthy", ["--attention-backend", "TRITON_ATTN", *cc({"cudagraph_mode": "FULL"})],
                   "healthy: Triton is ALWAYS, full graphs for mixed batches; 200s"),
        "flex-full-decode-only": k("changed", ["--attention-backend", "FLEX_ATTENTION",
                                               *cc({"cudagraph_mode": "FULL_DECODE_ONLY"})],
                                   "accepted: FLEX is ALWAYS; decode graphs full, prefill eager; likely healthy"),
        "fa2-full-mode-0": k("changed", ["--attention-config", json.dumps({"flash_attn_version": 2}),
                                         *cc({"mode": 0, "cudagraph_mode": "FULL"})],
                             "accepted and changed: FA2 is UNIFORM_BATCH, mixed FULL unsupported, attention not split "
                             "(mode 0): WARNING 'CUDAGraphMode.FULL is not supported with FLASH_ATTN backend ...; "
                             "setting cudagraph_mode=FULL_DECODE_ONLY'; healthy, 200s"),
    },
    "K13 --max-num-batched-tokens against the graph sizes": {
        "tiny-16": k("changed", ["--max-num-batched-tokens", "16", "--max-num-seqs", "16"], "accepted: capture sizes "
                     "up to 16, 50-token prompts prefilled in 16-token chunks; healthy, 200s"),
        "one-token": k("capture", ["--max-num-batched-tokens", "1", "--max-num-seqs", "1"], "accepted (1 >= 1 seq): "
                       "compile range 1-1, graph [1]; each step one token; unknown: healthy but slow (50-step "
                       "prefills), or a compile / capture failure at size 1"),
        "capture-above-batched": k("changed", ["--max-num-batched-tokens", "512", "--max-cudagraph-capture-size",
                                               "1024"], "accepted and changed: WARNING 'Truncating "
                                   "max_cudagraph_capture_size to 512' (or clipped silently); healthy, 200s"),
    },
    "K14 --async-scheduling with an executor or a runner": {
        "valid": k("healthy", ["--no-async-scheduling", *cc({"cudagraph_mode": "FULL"})], "healthy: async off, full "
                   "graphs; 200s"),
        "external-launcher-no-torchrun": k("start", ["--async-scheduling", "--distributed-executor-backend",
                                                      "external_launcher"],
                                           "accepted at config (ExecutorWithExternalLauncher is a UniProcExecutor: "
                                           "async scheduling supported); 'Disabling V1 multiprocessing for external "
                                           "launcher', the engine in-process; torch.distributed's env:// init needs "
                                           "RANK / WORLD_SIZE / MASTER_ADDR that torchrun sets: likely a ValueError "
                                           "'environment variable RANK expected, but not set' (or the like) at engine "
                                           "start, exit 1; exact message unknown"),
        "v2-runner": k("changed", ["--async-scheduling"], "accepted: the V2 model runner with async scheduling; "
                       "likely healthy, 200s (or 'Model Runner V2 does not yet support: ...')",
                       env={"VLLM_USE_V2_MODEL_RUNNER": "1"}),
    },
    "K15 an environment knob that changes compilation, with a compile flag": {
        "torch-compile-disable-O3": k("changed", ["-O3"], "accepted and changed: WARNING 'TORCH_COMPILE_DISABLE is "
                                      "set, disabling torch.compile. This is equivalent to setting -cc.mode=none'; "
                                      "piecewise graphs overridden to NONE; healthy, 200s",
                                      env={"TORCH_COMPILE_DISABLE": "1"}),
        "breakable-piecewise": k("capture", cc({"cudagraph_mode": "PIECEWISE"}), "accepted: WARNING "
                                 "'VLLM_USE_BREAKABLE_CUDAGRAPH is set, disabling vLLM's torch.compile pipeline'; "
                                 "piecewise graphs without compilation through breakable CUDA graphs; unknown: "
                                 "healthy or a capture failure on a model not made for it",
                                 env={"VLLM_USE_BREAKABLE_CUDAGRAPH": "1"}),
        "batch-invariant-flex": k("changed", ["--attention-backend", "FLEX_ATTENTION"], "accepted: FLEX supports batch "
                                  "invariance; WARNING 'Disabling cascade attention when VLLM_BATCH_INVARIANT is "
                                  "enabled.'; likely healthy, 200s", env={"VLLM_BATCH_INVARIANT": "1"}),
        "standalone-off-compile-sizes": k("changed", cc({"compile_sizes": [1, 2]}), "accepted: inductor through the "
                                          "old (non-standalone) path with two fixed sizes; healthy, 200s",
                                          env={"VLLM_USE_STANDALONE_COMPILE": "0"}),
    },
    "K16 -O spellings": {
        "valid": k("healthy", ["-O1"], "healthy: -O1, Dynamo + inductor, piecewise graphs only; 200s"),
        "equals-2": k("changed", ["-O=2"], "accepted: -O=2 becomes --optimization-level 2 (the default); healthy"),
        "dotted": k("parse", ["-O.mode=3"], "refused by the parser, exit 2 (or at config: unknown): '-O.mode=3' starts "
                    "with -O, so it becomes --optimization-level '.mode=3': an invalid OptimizationLevel value"),
    },
    "K17 --kv-cache-dtype with full graphs on the sliding-window cut": {
        "fp8-full": k("changed", ["--kv-cache-dtype", "fp8", *cc({"cudagraph_mode": "FULL"})], "accepted: FA3 on SM90 "
                      "takes fp8 KV and sliding windows, ALWAYS graphs; WARNINGs on fp8 KV scales (no checkpoint "
                      "scales: 1.0); healthy, 200s", model=GEMMA),
        "e5m2-full": k("changed", ["--kv-cache-dtype", "fp8_e5m2", *cc({"cudagraph_mode": "FULL"})], "accepted: FA "
                       "refuses fp8_e5m2, the selector picks TRITON_ATTN (sliding yes, e5m2 yes, ALWAYS); healthy, "
                       "200s (else 'No valid attention backend found')", model=GEMMA),
        "fp8-flex-decode": k("start", ["--kv-cache-dtype", "fp8", "--attention-backend", "FLEX_ATTENTION",
                                       *cc({"cudagraph_mode": "FULL_DECODE_ONLY"})],
                             "refused in the engine core: 'Selected backend ... FLEX_ATTENTION is not valid for this "
                             "configuration. Reason: ['kv_cache_dtype not supported']'", model=GEMMA),
    },
}  # fmt: skip

EXPECTED_DRAWN = {  # written after --draw-only printed the draw, before anything ran (0.26.0's source as cited above)
    "e01": "healthy (expected none): gemma cut, fp8 KV with FULL graphs: FLASH_ATTN (FA3 on SM90) takes fp8 and sliding "
    "windows and is ALWAYS, so FULL stays; WARNINGs possible on fp8 KV scales (no checkpoint scales, 1.0) and 'No "
    "piecewise cudagraph for executing cascade attention'; (if FA is not 3: TRITON_ATTN picked, still healthy); 200s",
    "e02": "healthy (expected none): qwen cut, --enforce-eager with --performance-mode interactivity: WARNING 'Enforce "
    "eager set, disabling torch.compile and CUDAGraphs...'; the interactivity capture sizes never used; 200s",
    "e03": "healthy (expected none): qwen cut, custom_ops none +rms_norm +silu_and_mul: compiled with two custom "
    "kernels; 200s",
    "e04": "healthy (expected none), small risk: llama cut, VLLM_USE_STANDALONE_COMPILE=0 with compile_sizes [1, 2] "
    "(both capture sizes, so the dispatcher's padding check passes): inductor through the non-standalone adaptor "
    "compiles the general range and sizes 1 and 2 (a longer cold start); 200s",
    "e05": "healthy (expected none): qwen cut, mode 2 (DYNAMO_TRACE_ONCE) with the eager backend: 'Inductor "
    "compilation was disabled by user settings...' WARNING, FULL_AND_PIECEWISE overridden to NONE (info); 200s",
    "e06": "healthy (expected none): llama cut, 2048 batched tokens with compile_sizes [4096]: a range entry for 4096 "
    "compiled but never used (above the 512 capture size, so no padding check); 200s",
    "e07": "healthy (expected none), some risk: qwen cut, 1024 batched tokens with capture sizes [2048, 4096]: both "
    "dropped, WARNING 'cudagraph_capture_sizes specified in compilation_config [2048, 4096] is overridden by config "
    "[]', max capture size 0, nothing captured, every batch runs compiled without graphs; 200s (else an assertion on "
    "the empty list in the engine core: unknown)",
    "e08": "healthy (expected none): llama cut, flash_attn_version 2 with mode 0 and FULL: FA2 is UNIFORM_BATCH and "
    "attention is not split at mode 0, so WARNING 'CUDAGraphMode.FULL is not supported with FLASH_ATTN backend "
    "(support: AttentionCGSupport.UNIFORM_BATCH); setting cudagraph_mode=FULL_DECODE_ONLY' (if the class attribute "
    "read FA3 at import, FULL is kept without the warning); 200s",
    "e09": "healthy (expected none): qwen cut, -cc mode given as the name VLLM_COMPILE (the default); 200s",
    "e10": "healthy (expected none): qwen cut, pass_config eliminate_noops true (the default); 200s",
    "e11": "healthy (expected none): gemma cut, backend_per_kind sliding_window TRITON_ATTN: both cut layers are "
    "sliding-window, 'Using AttentionBackendEnum.TRITON_ATTN backend.'; 200s",
    "e12": "unknown, most likely healthy-looking (expected none): llama cut, splitting_ops ['vllm::no_such_op']: "
    "should_split compares names, so nothing is split and the whole model (attention and the KV update included) "
    "is one piece captured as a PIECEWISE graph; FA3 is ALWAYS so no mode change; 200s with tokens that dummy weights "
    "cannot show wrong; else a failure at compile / capture in the engine core ('Engine core initialization failed')",
}  # fmt: skip


# ---- the mechanical novelty check against earlier GPU makers' universes and cases ----
BASE_STRIP = {"--skip-tokenizer-init": 0, "--load-format": 1, "--max-model-len": 1, "--kv-cache-memory-bytes": 1,
              "--kv-cache-memory": 1, "--gpu-memory-utilization": 1, "--language-model-only": 0, "--port": 1}  # fmt: skip
KIT_ENV = {"VLLM_USE_DEEP_GEMM", "VLLM_USE_FLASHINFER_SAMPLER", "PYTHONPATH", "PYTHONUNBUFFERED"}


def canon_tok(t):
    t = str(t)
    if t[:1] in "{[":
        try:
            return json.dumps(json.loads(t), sort_keys=True)
        except ValueError:
            return t
    return t


def strip_base(args):
    out, i = [], 0
    while i < len(args):
        a = str(args[i])
        if a in BASE_STRIP:
            i += 1 + BASE_STRIP[a]
            continue
        if a == "--gdn-prefill-backend" and i + 1 < len(args) and args[i + 1] == "triton":
            i += 2
            continue
        out.append(canon_tok(a))
        i += 1
    return tuple(out)


def canon_env(env):
    return tuple(sorted((k, str(v)) for k, v in env.items() if k not in KIT_ENV))


def walk(x, flags, envs):
    if isinstance(x, dict):
        if (
            x
            and all(isinstance(a, str) and re.fullmatch(r"[A-Z][A-Z0-9_]+", a) for a in x)
            and all(isinstance(v, (str, int)) for v in x.values())
        ):
            envs.add(canon_env(x))
        for v in x.values():
            walk(v, flags, envs)
    elif isinstance(x, (list, tuple)):
        if x and all(isinstance(a, str) for a in x) and str(x[0]).startswith("-"):
            flags.add(strip_base(x))
        for v in x:
            walk(v, flags, envs)


def earlier():
    """(settings, case_args, flags, envs): every earlier case's (flags, env) with the base stripped; every flag list
    and env dict in the constants of every earlier draw module."""
    settings, case_args, flags, envs = set(), [], set(), set()
    for f in sorted(glob.glob(os.path.join(HERE, "gpu-fresh*-cases.json"))):
        if f == OUT_JSON:
            continue
        with open(f) as fh:
            d = json.load(fh)
        cs = d.get("cases", d)
        for c in cs.values() if isinstance(cs, dict) else cs:
            if not isinstance(c, dict) or "args" not in c:
                continue
            a = strip_base([str(x) for x in c["args"][1:]])
            e = canon_env(c.get("env", {}))
            settings.add((a, e))
            case_args.append((a, e))
    for f in sorted(glob.glob(os.path.join(HERE, "gpu_fresh*_draw.py"))):
        name = os.path.basename(f)[:-3]
        if name == "gpu_fresh395_draw":
            continue
        try:
            m = importlib.import_module(name)
        except Exception as ex:  # a module that needs arguments or files: its docstring was read instead
            print("novelty: could not import", name, type(ex).__name__)
            continue
        for attr in dir(m):
            if attr.isupper():
                walk(getattr(m, attr), flags, envs)
        if hasattr(m, "flags_for") and hasattr(m, "UNIVERSE"):  # fresh-242's rule
            for cond, classes in m.UNIVERSE.items():
                for cls in classes:
                    try:
                        r = m.flags_for(cond, cls)
                    except Exception:
                        continue
                    walk(list(r), flags, envs)
                    fl = [x for x in r if isinstance(x, list)]
                    en = [x for x in r if isinstance(x, dict)]
                    if fl:
                        settings.add((strip_base(fl[0]), canon_env(en[0] if en else {})))
    return settings, case_args, flags, envs


def novelty():
    settings, case_args, flags, envs = earlier()
    n = 0
    for cond, classes in UNIVERSE.items():
        for cls, c in classes.items():
            mine = (strip_base(c["flags"]), canon_env(c["env"]))
            assert mine not in settings, (cond, cls, "an earlier case / class drew this setting")
            if not c["env"]:
                assert mine[0] not in flags, (cond, cls, "an earlier universe holds these flags")
            else:
                assert not (mine[1] in envs and (not mine[0] or mine[0] in flags)), (
                    cond,
                    cls,
                    "env + flags old",
                )
            for a, e in case_args:
                if e == mine[1] and mine[0]:
                    L = len(mine[0])
                    assert not any(a[i : i + L] == mine[0] for i in range(len(a) - L + 1)), (cond, cls, a)
            n += 1
    return n, len(settings), len(flags), len(envs)


def draw_classes():
    r = random.Random(SEED)
    names = r.sample(sorted(UNIVERSE), N)
    out = []
    for name in names:
        classes = UNIVERSE[name]
        u = r.random()
        bites = sorted(c for c in classes if c != "valid")
        cls = "valid" if u < P_VALID and "valid" in classes else r.choice(bites)
        model = classes[cls]["model"] or r.choice(sorted(DRAWN_MODELS))
        out.append((name, cls, u, model))
    return out


def comp(max_tokens=16, bg=False):
    s = {"post": "/v1/completions", "body": {"model": "MODEL", "prompt_len": 50, "max_tokens": max_tokens}}
    if bg:
        s["bg"] = True
    return s


STEPS = [comp(), *[comp(32, True) for _ in range(4)], {"sleep": 6}, comp()]


def fill(x, model):
    if isinstance(x, dict):
        return {k: fill(v, model) for k, v in x.items()}
    if isinstance(x, list):
        return [fill(v, model) for v in x]
    return model if x == "MODEL" else x


def make_case(i, name, cls, u, mkey):
    fixture, edit, util = MODELS[mkey]
    c = UNIVERSE[name][cls]
    model = ".gpu/models/f395-" + mkey
    base = list(BASE)
    for f in [f for f in c["flags"] if f.startswith("--")]:
        if f in base:
            j = base.index(f)
            del base[j : j + 2]
    args = [model, *base, "--gpu-memory-utilization", str(util), *c["flags"]]
    case = {"args": args, "env": dict(c["env"]), "timeout": TIMEOUT, "need": NEED, "mem": util,
            "steps": fill(STEPS, model), "condition": name, "class": cls, "vc": c["vc"], "model_key": mkey,
            "fixture": fixture, "config_edit": edit, "expect": c["expect"],
            "draw": f"draw {i}: {name}: {cls} (u={u:.3f}); model {mkey}"}  # fmt: skip
    if f"e{i:02d}" in EXPECTED_DRAWN:
        case["expect_drawn"] = EXPECTED_DRAWN[f"e{i:02d}"]
    return case


def draw():
    cases = {f"e{i:02d}": make_case(i, *d) for i, d in enumerate(draw_classes(), 1)}
    models = {
        c["args"][0].split("/")[-1]: {"fixture": c["fixture"], "edit": c["config_edit"]}
        for c in cases.values()
    }
    why = (
        "fresh-395 doctor-corpus cases (tools/gpu_fresh395_draw.py wrote this file; tools/gpu_serve_requests.py runs "
        "them on real vLLM 0.26.0 'vllm serve', one H100 or H200, 8 side by side within 0.95, two waves). Drawn, not "
        "chosen: see the draw script's docstring. 'models': python3 tools/gpu_fresh395_draw.py --models .gpu/models."
    )
    return {"why": why, "seed": SEED, "universe": len(UNIVERSE), "order": list(cases), "models": models,
            "cases": cases}  # fmt: skip


if __name__ == "__main__" and sys.argv[1:2] == ["--models"]:
    with open(OUT_JSON) as f:
        write_models(json.load(f)["models"], sys.argv[2], FIXTURES)
    sys.exit(0)

if __name__ == "__main__":
    n, st, fl, en = novelty()
    print(f"novelty: {n} classes new against {st} earlier settings, {fl} flag lists, {en} env dicts")
    out = draw()
    if sys.argv[1:] != ["--draw-only"]:
        with open(OUT_JSON, "w") as f:
            json.dump(out, f, indent=1)
            f.write("\n")
    for key in out["order"]:
        c = out["cases"][key]
        flags = c["args"][c["args"].index("--gpu-memory-utilization") + 2 :]
        print(key, c["draw"], "|", c["vc"], "|", " ".join(flags), c["env"] or "", "| mem", c["mem"])
    print(
        "mem in all", round(sum(c["mem"] for c in out["cases"].values()), 2), "; models", list(out["models"])
    )
