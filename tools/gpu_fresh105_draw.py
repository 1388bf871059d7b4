"""Draw the fresh-105 H200 cases (vLLM 0.26's ENVIRONMENT VARIABLES drawn at random from its own vllm/envs.py, each
with a value class) by a procedure fixed before anything ran: sampled, not chosen.

Usage: python3 tools/gpu_fresh105_draw.py              writes tools/gpu-fresh105-cases.json and prints the draw
       python3 tools/gpu_fresh105_draw.py --list ENVS_PY  prints every VLLM_* variable of ENVS_PY (vllm/envs.py of the
                                                       vllm-0.26.0 wheel) with its parser class (how ALL_VARS below
                                                       was made: read with ast, the getter's source classified)
The cases are run by tools/gpu_serve_requests.py through tools/gpu-go.sh (real vLLM 0.26.0 `vllm serve`, one H200,
one server at a time, cheapest first).

BASE (fixed before the draw, fresh-99's): google/gemma-3-1b-it's published config.json
(tests/fixtures/checkpoints/gemma-3-1b-it), started as `vllm serve .gpu/models/gemma-3-1b --skip-tokenizer-init
--load-format dummy --max-model-len 4096` (dummy weights, no tokenizer; vLLM's defaults otherwise), with the drawn
variable set in the server's environment (and VLLM_USE_FLASHINFER_SAMPLER=0, which the kit sets: flashinfer is not in
the bundle). Once the server is up: one POST /v1/completions {"model": ".gpu/models/gemma-3-1b", "max_tokens": 16}
with a 50-token prompt (token ids 1000..1049).

THE VARIABLES: ALL_VARS is every VLLM_* key of `environment_variables` in vLLM 0.26.0's vllm/envs.py (263), each with
its parser class read from the getter's source: int (int(...)), float, bool-int (bool(int(...)): refuses anything but
an integer), bool-word (compared with "1"/"true": takes any string, anything else is false), choice / choice-list
(env_with_choices: refuses a value not in its list), json (json.loads or a file), path, port (get_vllm_port), str (any
string), str-list (split on commas), deprecated (only warns). The 17 non-VLLM_ keys (MAX_JOBS, CUDA_HOME, LOCAL_RANK,
S3_*, ...) are not vLLM variables and are left out. DROPPED below (by the rule that names it, in order) are those this
device cannot give: read only when building vLLM; another accelerator or CPU backend; more GPUs, nodes, Ray or a
peer; a model kind absent here (MoE, multimodal, Mamba/GDN, MLA, quantized); a library the bundle removed
(flashinfer, DeepGEMM, the Rust frontend); a service this offline device cannot reach; and the one the kit fixes.
Everything else is KEPT, whether or not doctor might know it.

THE DRAW: r = random.Random(2105); names = r.sample(KEPT, 8) (KEPT sorted). Then for each drawn variable in draw order
its value class: r.random() < 0.25 -> "valid" (a healthy control); else r.choice(APPLIES[parser]) (APPLIES fixed here,
before the draw, per parser class):
  not-an-int / not-a-number: a word or a unit where the parser takes a number ("5s", "true")
  out-of-range: a number the parser takes but the use cannot (negative, zero, absurd)
  unknown-choice: a value not in the variable's choice list
  malformed-json: JSON a user gets wrong (single quotes, key=value)
  path-missing / path-not-writable: a folder or file that does not exist / a folder the server cannot write
  wrong-value: a value of the right type the variable does not mean (bool-word, str: the parser takes any string)
The concrete value per (variable, class) is VALUES below, written after the draw and before anything ran on the
device, from 0.26's own use of the variable. Run order (fixed here, not by outcome): by cost class "early" (read
while the CLI or the engine config is built, before the model loads; timeout 75 s), "start" (read while or after the
engine starts, or healthy; 240 s: the starts share the GPU and 16 cores), then draw order; the driver starts them
side by side (PARALLEL below).
"""

import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_JSON = os.path.join(HERE, "gpu-fresh105-cases.json")
CHECKPOINT = os.path.join(HERE, "..", "tests", "fixtures", "checkpoints", "gemma-3-1b-it", "config.json")
SOURCE = "huggingface.co/google/gemma-3-1b-it (tests/fixtures/checkpoints/gemma-3-1b-it/config.json)"
SEED = 2105
N = 8
BASE = ".gpu/models/gemma-3-1b"
FLAGS = ["--skip-tokenizer-init", "--load-format", "dummy", "--max-model-len", "4096"]
# added after the draw, before anything ran, for the device budget alone (six engine starts at ~120 s each do not fit
# one at a time): engines run side by side, so each asks for a tenth of the GPU and a fixed 2 GiB KV cache, which
# skips the memory profiling that other engines' allocations would disturb (gpu_worker.determine_available_memory)
PARALLEL = ["--gpu-memory-utilization", "0.1", "--kv-cache-memory-bytes", "2147483648"]
BODY = {"prompt_len": 50, "max_tokens": 16, "model": BASE}
TIME = {"early": (75, 25), "start": (240, 150)}  # cost class -> (timeout, need)
RANK = {"early": 0, "start": 1}

# every VLLM_* variable of vLLM 0.26.0's vllm/envs.py, in its order, with its parser class (--list prints it)
ALL_VARS = {
    "VLLM_TARGET_DEVICE": "str",
    "VLLM_MAIN_CUDA_VERSION": "str",
    "VLLM_FLOAT32_MATMUL_PRECISION": "choice",
    "VLLM_BATCH_INVARIANT": "bool-int",
    "VLLM_TRITON_USE_TD": "bool-word",
    "VLLM_GPU_SYNC_CHECK": "choice",
    "VLLM_TRITON_ATTN_USE_TD": "deprecated",
    "VLLM_USE_PRECOMPILED": "bool-word",
    "VLLM_USE_PRECOMPILED_RUST": "bool-word",
    "VLLM_SKIP_PRECOMPILED_VERSION_SUFFIX": "bool-int",
    "VLLM_DOCKER_BUILD_CONTEXT": "bool-word",
    "VLLM_BUILD_COMMIT": "str",
    "VLLM_BUILD_PIPELINE": "str",
    "VLLM_BUILD_URL": "str",
    "VLLM_IMAGE_TAG": "str",
    "VLLM_CONFIG_ROOT": "path",
    "VLLM_CACHE_ROOT": "path",
    "VLLM_HOST_IP": "str",
    "VLLM_PORT": "port",
    "VLLM_RPC_BASE_PATH": "path",
    "VLLM_USE_MODELSCOPE": "bool-word",
    "VLLM_USE_FASTOKENS": "bool-int",
    "VLLM_RINGBUFFER_WARNING_INTERVAL": "int",
    "VLLM_NCCL_SO_PATH": "path",
    "VLLM_ROCM_SLEEP_MEM_CHUNK_SIZE": "int",
    "VLLM_USE_STANDALONE_COMPILE": "bool-word",
    "VLLM_ENABLE_PREGRAD_PASSES": "bool-word",
    "VLLM_USE_BREAKABLE_CUDAGRAPH": "bool-word",
    "VLLM_PATTERN_MATCH_DEBUG": "str",
    "VLLM_DEBUG_DUMP_PATH": "path",
    "VLLM_USE_AOT_COMPILE": "bool-word",
    "VLLM_USE_BYTECODE_HOOK": "bool-int",
    "VLLM_FORCE_AOT_LOAD": "bool-word",
    "VLLM_USE_MEGA_AOT_ARTIFACT": "bool-word",
    "VLLM_ENGINE_ITERATION_TIMEOUT_S": "int",
    "VLLM_ENGINE_READY_TIMEOUT_S": "int",
    "VLLM_API_KEY": "str",
    "VLLM_DEBUG_LOG_API_SERVER_RESPONSE": "bool-word",
    "VLLM_USAGE_STATS_SERVER": "str",
    "VLLM_NO_USAGE_STATS": "bool-word",
    "VLLM_DO_NOT_TRACK": "bool-word",
    "VLLM_USAGE_SOURCE": "str",
    "VLLM_CONFIGURE_LOGGING": "bool-int",
    "VLLM_LOGGING_CONFIG_PATH": "path",
    "VLLM_LOGGING_LEVEL": "str",
    "VLLM_LOGGING_STREAM": "str",
    "VLLM_LOGGING_PREFIX": "str",
    "VLLM_LOGGING_COLOR": "str",
    "VLLM_LOG_STATS_INTERVAL": "float",
    "VLLM_TRACE_FUNCTION": "int",
    "VLLM_USE_FLASHINFER_SAMPLER": "bool-int",
    "VLLM_PP_LAYER_PARTITION": "str",
    "VLLM_CPU_KVCACHE_SPACE": "int",
    "VLLM_CPU_OMP_THREADS_BIND": "str",
    "VLLM_CPU_NUM_OF_RESERVED_CPU": "int",
    "VLLM_CPU_SGL_KERNEL": "bool-int",
    "VLLM_CPU_ATTN_SPLIT_KV": "bool-int",
    "VLLM_ZENTORCH_WEIGHT_PREPACK": "bool-int",
    "VLLM_CPU_INT4_W4A8": "bool-int",
    "VLLM_USE_RAY_COMPILED_DAG_CHANNEL_TYPE": "choice",
    "VLLM_USE_RAY_COMPILED_DAG_OVERLAP_COMM": "bool-int",
    "VLLM_USE_RAY_WRAPPED_PP_COMM": "bool-int",
    "VLLM_USE_RAY_V2_EXECUTOR_BACKEND": "bool-int",
    "VLLM_DISTRIBUTED_USE_SPLIT_GROUP": "bool-int",
    "VLLM_WORKER_MULTIPROC_METHOD": "choice",
    "VLLM_ASSETS_CACHE": "path",
    "VLLM_ASSETS_CACHE_MODEL_CLEAN": "bool-int",
    "VLLM_IMAGE_FETCH_TIMEOUT": "int",
    "VLLM_VIDEO_FETCH_TIMEOUT": "int",
    "VLLM_AUDIO_FETCH_TIMEOUT": "int",
    "VLLM_MEDIA_CACHE": "str",
    "VLLM_MEDIA_CACHE_MAX_SIZE_MB": "int",
    "VLLM_MEDIA_CACHE_TTL_HOURS": "float",
    "VLLM_MEDIA_FETCH_MAX_RETRIES": "int",
    "VLLM_MEDIA_URL_ALLOW_REDIRECTS": "bool-int",
    "VLLM_MEDIA_LOADING_THREAD_COUNT": "int",
    "VLLM_MAX_AUDIO_CLIP_FILESIZE_MB": "int",
    "VLLM_MAX_AUDIO_DECODE_DURATION_S": "int",
    "VLLM_MAX_AUDIO_PREPROCESS_WORKERS": "int",
    "VLLM_MAX_IMAGE_PIXELS": "int",
    "VLLM_VIDEO_LOADER_BACKEND": "str",
    "VLLM_MEDIA_CONNECTOR": "str",
    "VLLM_MM_HASHER_ALGORITHM": "choice",
    "VLLM_XLA_CACHE_PATH": "path",
    "VLLM_XLA_CHECK_RECOMPILATION": "bool-int",
    "VLLM_XLA_USE_SPMD": "bool-int",
    "VLLM_SPARSE_INDEXER_MAX_LOGITS_MB": "int",
    "VLLM_KEEP_ALIVE_ON_ENGINE_DEATH": "bool-int",
    "VLLM_ALLOW_LONG_MAX_MODEL_LEN": "bool-word",
    "VLLM_TEST_FORCE_FP8_MARLIN": "bool-word",
    "VLLM_TEST_FORCE_LOAD_FORMAT": "str",
    "VLLM_FASTSAFETENSORS_QUEUE_SIZE": "int",
    "VLLM_HTTP_TIMEOUT_KEEP_ALIVE": "int",
    "VLLM_MAX_N_SEQUENCES": "int",
    "VLLM_MAX_COMPLETION_PROMPTS": "int",
    "VLLM_PLUGINS": "str-list",
    "VLLM_PREFIX_CACHE_RETENTION_INTERVAL": "int",
    "VLLM_LORA_RESOLVER_CACHE_DIR": "path",
    "VLLM_LORA_RESOLVER_HF_REPO_LIST": "str",
    "VLLM_USE_TRITON_AWQ": "bool-int",
    "VLLM_TRITON_FORCE_FIRST_CONFIG": "bool-word",
    "VLLM_ALLOW_RUNTIME_LORA_UPDATING": "bool-word",
    "VLLM_SKIP_P2P_CHECK": "bool-word",
    "VLLM_DISABLED_KERNELS": "str-list",
    "VLLM_ENABLE_FLA_PACKED_RECURRENT_DECODE": "bool-int",
    "VLLM_DISABLE_PYNCCL": "bool-word",
    "VLLM_USE_OINK_OPS": "bool-word",
    "VLLM_MXFP8_EMULATION_DEQUANT_AT_LOAD": "bool-word",
    "VLLM_ROCM_USE_AITER": "bool-word",
    "VLLM_ROCM_USE_AITER_CUSTOM_AR": "bool-word",
    "VLLM_ROCM_USE_AITER_LINEAR": "bool-word",
    "VLLM_ROCM_USE_AITER_LINEAR_HIPBMM": "bool-word",
    "VLLM_ROCM_USE_AITER_MOE": "bool-word",
    "VLLM_ROCM_AITER_MOE_DISPATCH_POLICY": "int",
    "VLLM_ROCM_USE_AITER_RMSNORM": "bool-word",
    "VLLM_ROCM_USE_AITER_MLA": "bool-word",
    "VLLM_ROCM_USE_AITER_MHA": "bool-word",
    "VLLM_ROCM_USE_AITER_FP4_ASM_GEMM": "bool-word",
    "VLLM_ROCM_USE_AITER_TRITON_ROPE": "bool-word",
    "VLLM_ROCM_USE_AITER_FP8BMM": "bool-word",
    "VLLM_ROCM_USE_AITER_FP4BMM": "bool-word",
    "VLLM_ROCM_USE_AITER_UNIFIED_ATTENTION": "bool-word",
    "VLLM_ROCM_USE_AITER_FUSION_SHARED_EXPERTS": "bool-word",
    "VLLM_ROCM_USE_AITER_TRITON_GEMM": "bool-word",
    "VLLM_ROCM_USE_SKINNY_GEMM": "bool-word",
    "VLLM_ROCM_FP8_PADDING": "bool-int",
    "VLLM_ROCM_MOE_PADDING": "bool-int",
    "VLLM_ROCM_SHUFFLE_KV_CACHE_LAYOUT": "bool-word",
    "VLLM_ROCM_QUICK_REDUCE_QUANTIZATION": "choice",
    "VLLM_ROCM_QUICK_REDUCE_CAST_BF16_TO_FP16": "bool-word",
    "VLLM_ROCM_QUICK_REDUCE_MAX_SIZE_BYTES_MB": "int",
    "VLLM_ROCM_QUICK_REDUCE_MIN_SIZE_BYTES_MB": "int",
    "VLLM_ROCM_QUICK_REDUCE_QUANTIZATION_MIN_SIZE_KB": "int",
    "VLLM_ENABLE_V1_MULTIPROCESSING": "bool-int",
    "VLLM_LOG_BATCHSIZE_INTERVAL": "float",
    "VLLM_DISABLE_COMPILE_CACHE": "bool-int",
    "VLLM_USE_LAYERNAME": "bool-int",
    "VLLM_USE_RUST_FRONTEND": "bool-int",
    "VLLM_RUST_FRONTEND_PATH": "path",
    "VLLM_SERVER_DEV_MODE": "bool-int",
    "VLLM_V1_OUTPUT_PROC_CHUNK_SIZE": "int",
    "VLLM_MLA_DISABLE": "bool-int",
    "VLLM_RAY_PER_WORKER_GPUS": "float",
    "VLLM_RAY_BUNDLE_INDICES": "str",
    "VLLM_CUDART_SO_PATH": "path",
    "VLLM_DP_RANK": "int",
    "VLLM_DP_RANK_LOCAL": "int",
    "VLLM_DP_SIZE": "int",
    "VLLM_DP_MASTER_IP": "str",
    "VLLM_DP_MASTER_PORT": "int",
    "VLLM_RANDOMIZE_DP_DUMMY_INPUTS": "bool-word",
    "VLLM_RAY_DP_PACK_STRATEGY": "str",
    "VLLM_RAY_DP_PLACEMENT_NODE_IPS": "str",
    "VLLM_RAY_EXTRA_ENV_VAR_PREFIXES_TO_COPY": "str",
    "VLLM_RAY_EXTRA_ENV_VARS_TO_COPY": "str",
    "VLLM_MODEL_REDIRECT_PATH": "path",
    "VLLM_MARLIN_USE_ATOMIC_ADD": "bool-word",
    "VLLM_MARLIN_INPUT_DTYPE": "choice",
    "VLLM_HUMMING_ONLINE_QUANT_CONFIG": "json",
    "VLLM_HUMMING_INPUT_QUANT_CONFIG": "json",
    "VLLM_HUMMING_USE_F16_ACCUM": "bool-int",
    "VLLM_HUMMING_MOE_GEMM_TYPE": "str",
    "VLLM_DEEPEPLL_NVFP4_DISPATCH": "bool-int",
    "VLLM_V1_USE_OUTLINES_CACHE": "bool-word",
    "VLLM_TPU_USING_PATHWAYS": "str",
    "VLLM_USE_DEEP_GEMM": "bool-int",
    "VLLM_MOE_USE_DEEP_GEMM": "bool-int",
    "VLLM_USE_DEEP_GEMM_E8M0": "bool-int",
    "VLLM_USE_DEEP_GEMM_TMA_ALIGNED_SCALES": "bool-int",
    "VLLM_DEEP_GEMM_WARMUP": "choice",
    "VLLM_USE_FUSED_MOE_GROUPED_TOPK": "bool-int",
    "VLLM_MOE_SKIP_PADDING": "bool-int",
    "VLLM_BLOCKSCALE_FP8_GEMM_FLASHINFER": "bool-int",
    "VLLM_USE_FLASHINFER_MOE_INT4": "bool-int",
    "VLLM_XGRAMMAR_CACHE_MB": "int",
    "VLLM_REGEX_COMPILATION_TIMEOUT_S": "int",
    "VLLM_MSGPACK_ZERO_COPY_THRESHOLD": "int",
    "VLLM_ALLOW_INSECURE_SERIALIZATION": "bool-int",
    "VLLM_DISABLE_REQUEST_ID_RANDOMIZATION": "bool-int",
    "VLLM_NIXL_SIDE_CHANNEL_HOST": "str",
    "VLLM_NIXL_SIDE_CHANNEL_PORT": "int",
    "VLLM_P2P_SIDE_CHANNEL_HOST": "str",
    "VLLM_P2P_SIDE_CHANNEL_PORT": "int",
    "VLLM_EC_SIDE_CHANNEL_HOST": "str",
    "VLLM_EC_SIDE_CHANNEL_PORT": "int",
    "VLLM_MOONCAKE_BOOTSTRAP_PORT": "int",
    "VLLM_MOONCAKE_STORE_TIER_LOG": "bool-word",
    "VLLM_MOONCAKE_LOAD_RECV_THREADS": "int",
    "VLLM_MOONCAKE_DISK_STAGING_USABLE_RATIO": "float",
    "VLLM_FLASHINFER_AUTOTUNE_CACHE_DIR": "path",
    "VLLM_FLASHINFER_AUTOTUNE_SKIP_OPS": "str-list",
    "VLLM_FLASHINFER_ALLREDUCE_BACKEND": "choice",
    "VLLM_FLASHINFER_WORKSPACE_BUFFER_SIZE": "int",
    "VLLM_MAX_TOKENS_PER_EXPERT_FP4_MOE": "int",
    "VLLM_MOE_ROUTING_SIMULATION_STRATEGY": "str",
    "VLLM_TOOL_PARSE_REGEX_TIMEOUT_SECONDS": "int",
    "VLLM_ENFORCE_STRICT_TOOL_CALLING": "bool-word",
    "VLLM_MQ_MAX_CHUNK_BYTES_MB": "int",
    "VLLM_EXECUTE_MODEL_TIMEOUT_SECONDS": "int",
    "VLLM_WORKER_SHUTDOWN_TIMEOUT_SECONDS": "int",
    "VLLM_KV_CACHE_LAYOUT": "choice",
    "VLLM_SSM_CONV_STATE_LAYOUT": "choice",
    "VLLM_COMPUTE_NANS_IN_LOGITS": "bool-int",
    "VLLM_MOONCAKE_ABORT_REQUEST_TIMEOUT": "int",
    "VLLM_HAS_FLASHINFER_CUBIN": "bool-int",
    "VLLM_ENABLE_CUDAGRAPH_GC": "bool-int",
    "VLLM_LOOPBACK_IP": "str",
    "VLLM_PROCESS_NAME_PREFIX": "str",
    "VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE": "bool-int",
    "VLLM_ENABLE_RESPONSES_API_STORE": "bool-int",
    "VLLM_ROCM_FP8_MFMA_PAGE_ATTN": "bool-int",
    "VLLM_ALLREDUCE_USE_SYMM_MEM": "bool-int",
    "VLLM_ALLREDUCE_USE_FLASHINFER": "bool-int",
    "VLLM_USE_EXPERIMENTAL_PARSER_CONTEXT": "bool-int",
    "VLLM_TUNED_CONFIG_FOLDER": "path",
    "VLLM_ENABLE_STARTUP_PLAN": "bool-int",
    "VLLM_GPT_OSS_SYSTEM_TOOL_MCP_LABELS": "choice-list",
    "VLLM_GPT_OSS_HARMONY_SYSTEM_INSTRUCTIONS": "bool-int",
    "VLLM_SYSTEM_START_DATE": "str",
    "VLLM_TOOL_JSON_ERROR_AUTOMATIC_RETRY": "bool-int",
    "VLLM_CUSTOM_SCOPES_FOR_PROFILING": "bool-int",
    "VLLM_NVTX_SCOPES_FOR_PROFILING": "bool-int",
    "VLLM_KV_EVENTS_USE_INT_BLOCK_HASHES": "bool-int",
    "VLLM_OBJECT_STORAGE_SHM_BUFFER_NAME": "str",
    "VLLM_DEEPEP_BUFFER_SIZE_MB": "int",
    "VLLM_DEEPEP_HIGH_THROUGHPUT_FORCE_INTRA_NODE": "bool-int",
    "VLLM_DEEPEP_LOW_LATENCY_USE_MNNVL": "bool-int",
    "VLLM_DEEPEP_V2_ALLOW_HYBRID_MODE": "bool-int",
    "VLLM_DEEPEP_V2_PREFER_OVERLAP": "bool-int",
    "VLLM_DEEPEP_V2_ALLOW_MULTIPLE_REDUCTION": "bool-int",
    "VLLM_DBO_COMM_SMS": "int",
    "VLLM_ENABLE_INDUCTOR_MAX_AUTOTUNE": "bool-int",
    "VLLM_ENABLE_INDUCTOR_COORDINATE_DESCENT_TUNING": "bool-int",
    "VLLM_USE_NCCL_SYMM_MEM": "bool-int",
    "VLLM_NCCL_INCLUDE_PATH": "path",
    "VLLM_GC_DEBUG": "str",
    "VLLM_DEBUG_WORKSPACE": "bool-int",
    "VLLM_DISABLE_SHARED_EXPERTS_STREAM": "bool-int",
    "VLLM_SHARED_EXPERTS_STREAM_TOKEN_THRESHOLD": "int",
    "VLLM_MULTI_STREAM_GEMM_TOKEN_THRESHOLD": "int",
    "VLLM_COMPILE_CACHE_SAVE_FORMAT": "choice",
    "VLLM_USE_V2_MODEL_RUNNER": "bool-int",
    "VLLM_LOG_MODEL_INSPECTION": "bool-int",
    "VLLM_DEBUG_MFU_METRICS": "bool-int",
    "VLLM_WEIGHT_OFFLOADING_DISABLE_PIN_MEMORY": "bool-int",
    "VLLM_WEIGHT_OFFLOADING_DISABLE_UVA": "bool-int",
    "VLLM_WSL2_ENABLE_PIN_MEMORY": "bool-int",
    "VLLM_DISABLE_LOG_LOGO": "bool-int",
    "VLLM_LORA_DISABLE_PDL": "bool-int",
    "VLLM_ENABLE_CUDA_COMPATIBILITY": "bool-word",
    "VLLM_CUDA_COMPATIBILITY_PATH": "path",
    "VLLM_SKIP_MODEL_NAME_VALIDATION": "bool-word",
    "VLLM_ELASTIC_EP_SCALE_UP_LAUNCH": "bool-int",
    "VLLM_ELASTIC_EP_DRAIN_REQUESTS": "bool-int",
    "VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS": "bool-int",
    "VLLM_NIXL_EP_MAX_NUM_RANKS": "int",
    "VLLM_XPU_ENABLE_XPU_GRAPH": "bool-int",
    "VLLM_XPU_USE_SAMPLER_KERNEL": "bool-int",
    "VLLM_USE_SIMPLE_KV_OFFLOAD": "bool-int",
    "VLLM_LORA_ENABLE_DUAL_STREAM": "bool-int",
    "VLLM_USE_SPINLOOP_EXT": "bool-int",
    "VLLM_GPU_NIC_PCIE_MAPPING": "str",
    "VLLM_NIC_SELECTION_VARS": "str",
}

_BUILD = "read only when vLLM is built or packaged from source, never by `vllm serve`"
_HW = "acts on another accelerator or on the CPU backend (the device is one NVIDIA H200)"
_GPUS = "needs more than one GPU, node, Ray or a peer process (one H200 in one host)"
_MOE = "acts on MoE models only (the base is dense)"
_MM = "acts on multimodal inputs only (the base is text-only, the request a token-id completion)"
_ARCH = "acts on a model kind absent here (Mamba/GDN, MLA, sparse indexer, chunked local attention)"
_QUANT = "acts on quantized checkpoints only (the base is bf16 with dummy weights)"
_LORA = "acts on LoRA adapters only (none here; a resolver needs adapter folders or the hub)"
_GONE = (
    "its library is not in the bundle (build-bundle.sh removes flashinfer, DeepGEMM and the Rust frontend)"
)
_NET = "needs a service this offline device cannot reach"
_FIXED = "fixed by the kit (drive.sh / the driver set it: flashinfer is not in the bundle)"

# (substring of the name, reason), first match wins; then the exact names in DROP_NAMES
DROP_RULES = [
    ("_ROCM_", _HW),
    ("_XPU_", _HW),
    ("_XLA_", _HW),
    ("_TPU_", _HW),
    ("_CPU_", _HW),
    ("ZENTORCH", _HW),
    ("WSL2", _HW),
    ("_RAY_", _GPUS),
    ("_DP_", _GPUS),
    ("NIXL", _GPUS),
    ("MOONCAKE", _GPUS),
    ("_P2P_", _GPUS),
    ("_EC_SIDE", _GPUS),
    ("DEEPEP", _GPUS),
    ("ELASTIC_EP", _GPUS),
    ("_NIC_", _GPUS),
    ("ALLREDUCE", _GPUS),
    ("NCCL", _GPUS),
    ("_DBO_", _GPUS),
    ("_MOE", _MOE),
    ("SHARED_EXPERTS", _MOE),
    ("FP4", _MOE),
    ("DEEP_GEMM", _GONE),
    ("FLASHINFER", _GONE),
    ("RUST_FRONTEND", _GONE),
    ("HUMMING", _QUANT),
    ("MARLIN", _QUANT),
    ("_MEDIA_", _MM),
    ("_IMAGE_", _MM),
    ("_VIDEO_", _MM),
    ("_AUDIO_", _MM),
    ("_ASSETS_", _MM),
    ("_LORA_", _LORA),
]
DROP_NAMES = {
    "VLLM_TARGET_DEVICE": _BUILD,
    "VLLM_MAIN_CUDA_VERSION": _BUILD,
    "VLLM_USE_PRECOMPILED": _BUILD,
    "VLLM_USE_PRECOMPILED_RUST": _BUILD,
    "VLLM_SKIP_PRECOMPILED_VERSION_SUFFIX": _BUILD,
    "VLLM_DOCKER_BUILD_CONTEXT": _BUILD,
    "VLLM_BUILD_COMMIT": _BUILD,
    "VLLM_BUILD_PIPELINE": _BUILD,
    "VLLM_BUILD_URL": _BUILD,
    "VLLM_IMAGE_TAG": _BUILD,
    "VLLM_MM_HASHER_ALGORITHM": _MM,
    "VLLM_PP_LAYER_PARTITION": _GPUS + " (pipeline parallel)",
    "VLLM_DISTRIBUTED_USE_SPLIT_GROUP": _GPUS,
    "VLLM_SKIP_P2P_CHECK": _GPUS,
    "VLLM_DISABLE_PYNCCL": _GPUS,
    "VLLM_USE_NCCL_SYMM_MEM": _GPUS,
    "VLLM_GPU_NIC_PCIE_MAPPING": _GPUS,
    "VLLM_NIC_SELECTION_VARS": _GPUS,
    "VLLM_HOST_IP": _GPUS + " (the address other nodes reach)",
    "VLLM_LOOPBACK_IP": _GPUS + " (the address peers on this host reach)",
    "VLLM_SPARSE_INDEXER_MAX_LOGITS_MB": _ARCH,
    "VLLM_MLA_DISABLE": _ARCH,
    "VLLM_SSM_CONV_STATE_LAYOUT": _ARCH,
    "VLLM_ENABLE_FLA_PACKED_RECURRENT_DECODE": _ARCH,
    "VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE": _ARCH,
    "VLLM_USE_TRITON_AWQ": _QUANT,
    "VLLM_TEST_FORCE_FP8_MARLIN": _QUANT,
    "VLLM_MXFP8_EMULATION_DEQUANT_AT_LOAD": _QUANT,
    "VLLM_BLOCKSCALE_FP8_GEMM_FLASHINFER": _GONE,
    "VLLM_HAS_FLASHINFER_CUBIN": _GONE,
    "VLLM_USE_FLASHINFER_SAMPLER": _FIXED,
    "VLLM_USE_MODELSCOPE": _NET + " (ModelScope's hub)",
    "VLLM_USAGE_STATS_SERVER": _NET + " (the usage-stats server)",
    "VLLM_CUDA_COMPATIBILITY_PATH": "needs CUDA forward-compatibility libraries the device does not have",
    "VLLM_ENABLE_CUDA_COMPATIBILITY": "needs CUDA forward-compatibility libraries the device does not have",
    "VLLM_CUDART_SO_PATH": "its value is a CUDA runtime library file (another than the one torch loads)",
    "VLLM_TPU_USING_PATHWAYS": _HW,
}


def dropped():
    out = {}
    for name in ALL_VARS:
        for part, why in DROP_RULES:
            if part in name:
                out[name] = why
                break
        else:
            if name in DROP_NAMES:
                out[name] = DROP_NAMES[name]
    return out


DROPPED = dropped()
KEPT = sorted(n for n in ALL_VARS if n not in DROPPED)

# fixed before the draw: the error classes that apply to each parser class ("valid" is drawn with probability 0.25)
APPLIES = {
    "int": ["not-an-int", "out-of-range"],
    "port": ["not-an-int", "out-of-range"],
    "float": ["not-a-number", "out-of-range"],
    "bool-int": ["not-an-int"],
    "bool-word": ["wrong-value"],
    "choice": ["unknown-choice"],
    "choice-list": ["unknown-choice"],
    "json": ["malformed-json"],
    "path": ["path-missing", "path-not-writable"],
    "str": ["wrong-value"],
    "str-list": ["wrong-value"],
    "deprecated": ["wrong-value"],
}

# Written after the draw and before anything ran on the device: the concrete value per drawn (variable, class), from
# 0.26's own use of the variable: (environment, cost class, why).
# The kit's driver (tools/gpu_serve_drive.py BASE_ENV) sets VLLM_NO_USAGE_STATS=1 and DO_NOT_TRACK=1 for every start;
# where the drawn variable is one of the usage-stats switches, the case's env sets the kit's others to their off
# value ("0") so that the drawn value alone decides, as on a user's machine.
VALUES = {
    # vllm/usage/usage_lib.py is_usage_stats_enabled: VLLM_DO_NOT_TRACK (or DO_NOT_TRACK) == "1" turns usage stats off
    ("VLLM_DO_NOT_TRACK", "valid"): (
        {"VLLM_DO_NOT_TRACK": "1", "VLLM_NO_USAGE_STATS": "0", "DO_NOT_TRACK": "0"},
        "start",
        "a healthy control: usage stats off the documented way",
    ),
    # read only by the LoRA, fused-MoE and Mamba kernels' config lookup (none here), and by enable_envs_cache as a
    # plain string: a folder nobody can write (sysfs) is what a user gets wrong
    ("VLLM_TUNED_CONFIG_FOLDER", "path-not-writable"): (
        {"VLLM_TUNED_CONFIG_FOLDER": "/sys/kernel"},
        "start",
        "a folder the server cannot write (sysfs) given as the tuned-config folder",
    ),
    # int(os.getenv(...)), read by v1/serial_utils.py MsgpackEncoder() (the API server's engine client and the engine
    # core build one): a size with a unit where the parser takes a byte count
    ("VLLM_MSGPACK_ZERO_COPY_THRESHOLD", "not-an-int"): (
        {"VLLM_MSGPACK_ZERO_COPY_THRESHOLD": "256KB"},
        "early",
        "a size with a unit (256KB) where int() takes a byte count",
    ),
    # os.environ.get(..., "1") == "1" (compilation/backends.py): any other word silently turns standalone compile off
    ("VLLM_USE_STANDALONE_COMPILE", "wrong-value"): (
        {"VLLM_USE_STANDALONE_COMPILE": "true"},
        "start",
        "'true' where the parser compares with '1' (so it reads as off)",
    ),
    # bool(int(os.getenv(...))), read when vllm.logger is imported (the first thing `vllm serve` does)
    ("VLLM_CONFIGURE_LOGGING", "not-an-int"): (
        {"VLLM_CONFIGURE_LOGGING": "false"},
        "early",
        "'false' where bool(int(...)) takes 0 or 1",
    ),
    # int(os.getenv(...)), read only by the DeepSeek-V4 attention (not this model) and by enable_envs_cache, which
    # v1/engine/core.py calls once the engine core is up
    ("VLLM_MULTI_STREAM_GEMM_TOKEN_THRESHOLD", "not-an-int"): (
        {"VLLM_MULTI_STREAM_GEMM_TOKEN_THRESHOLD": "1k"},
        "start",
        "a token count with a unit (1k) where int() takes digits",
    ),
    # bool(int(...)), utils/torch_utils.py: 'Set VLLM_USE_LAYERNAME=0 to disable even on torch >= 2.11'
    ("VLLM_USE_LAYERNAME", "valid"): (
        {"VLLM_USE_LAYERNAME": "0"},
        "start",
        "a healthy control: the documented 0 (layer-name custom ops off)",
    ),
    # os.environ.get(..., "0") == "1" (usage_lib.py): 'true' silently reads as false, so usage stats stay on (and
    # the offline device cannot reach the stats server)
    ("VLLM_NO_USAGE_STATS", "wrong-value"): (
        {"VLLM_NO_USAGE_STATS": "true", "DO_NOT_TRACK": "0"},
        "start",
        "'true' where the parser compares with '1' (so usage stats stay on)",
    ),
}


def make_case(name, cls):
    env, cost, why = VALUES[(name, cls)]
    timeout, need = TIME[cost]
    return {"args": [BASE, *FLAGS, *PARALLEL], "env": env, "timeout": timeout, "need": need, "mem": 0.12,
            "steps": [{"post": "/v1/completions", "body": dict(BODY)}], "cost": cost,
            "var": name, "parser": ALL_VARS[name], "class": cls, "value_why": why}  # fmt: skip


def draw_classes():
    r = random.Random(SEED)
    names = r.sample(KEPT, N)
    out = []
    for name in names:
        u = r.random()
        cls = "valid" if u < 0.25 else r.choice(APPLIES[ALL_VARS[name]])
        out.append((name, cls, u))
    return out


def draw():
    cases = {}
    for i, (name, cls, u) in enumerate(draw_classes(), 1):
        key = f"e{i:02d}"
        cases[key] = make_case(name, cls)
        cases[key]["draw"] = f"draw {i}: {name} ({ALL_VARS[name]}): {cls} (u={u:.3f})"
    order = sorted(cases, key=lambda k: (RANK[cases[k]["cost"]], k))
    why = ("fresh-105 doctor-corpus cases (tools/gpu_fresh105_draw.py wrote this file; tools/gpu_serve_requests.py "
           "runs them on real vLLM 0.26.0 'vllm serve', one H200, one at a time, via ../shared/gpu). Drawn, not "
           "chosen: see the draw script's docstring. The base model's config.json is google/gemma-3-1b-it's as "
           "published.")  # fmt: skip
    return {"why": why, "seed": SEED, "all_vars": len(ALL_VARS), "dropped": len(DROPPED), "kept": len(KEPT),
            "source": SOURCE, "order": order, "cases": cases}  # fmt: skip


def list_vars(envs_py):
    """Every VLLM_* variable of vLLM's envs.py with its parser class, read from the getter's source."""
    import ast
    import re

    src = open(envs_py).read()
    funcs = {"get_vllm_port": "port", "use_aot_compile": "bool-word", "use_mega_aot_artifact": "bool-word",
             "disable_compile_cache": "bool-int"}  # fmt: skip
    for node in ast.parse(src).body:
        if not (
            isinstance(node, ast.AnnAssign) and getattr(node.target, "id", "") == "environment_variables"
        ):
            continue
        for k, v in zip(node.value.keys, node.value.values, strict=True):
            s, n = re.sub(r"\s+", " ", ast.get_source_segment(src, v)), k.value
            if not n.startswith("VLLM_"):
                continue
            if s in funcs:
                p = funcs[s]
            elif "_resolve_rust_frontend_path" in s:
                p = "path"
            elif "_deprecated" in s:
                p = "deprecated"
            elif "env_set_with_choices" in s or "env_list_with_choices" in s:
                p = "choice-list"
            elif "env_with_choices" in s:
                p = "choice"
            elif "json" in s:
                p = "json"
            elif "maybe_convert_bool" in s or re.search(r"bool\( ?int\(", s):
                p = "bool-int"
            elif re.search(r"\bint\(|maybe_convert_int", s):
                p = "int"
            elif "float(" in s:
                p = "float"
            elif "expanduser" in s:
                p = "path"
            elif re.search(r'== "1"|== "true"|in \("1", "true"\)|in \("true", "1"\)|\}\.get\(', s):
                p = "bool-word"
            elif re.search(r"(PATH|_DIR|FOLDER|ROOT)\b", n) or n.endswith("_PATH"):
                p = "path"
            elif ".split(" in s:
                p = "str-list"
            else:
                p = "str"
            print(f'    "{n}": "{p}",')


if __name__ == "__main__":
    if sys.argv[1:2] == ["--list"]:
        list_vars(sys.argv[2])
        sys.exit(0)
    if sys.argv[1:] == ["--draw-only"]:
        print(f"{len(ALL_VARS)} variables, {len(DROPPED)} dropped, {len(KEPT)} kept")
        for i, (name, cls, u) in enumerate(draw_classes(), 1):
            print(i, name, ALL_VARS[name], cls, f"u={u:.3f}")
        sys.exit(0)
    out = draw()
    with open(CHECKPOINT) as f:
        out["base_config"] = json.load(f)
    with open(OUT_JSON, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    print(f"{len(ALL_VARS)} variables, {len(DROPPED)} dropped, {len(KEPT)} kept")
    for k in out["order"]:
        c = out["cases"][k]
        print(k, c["draw"], c["cost"], c["env"])
