"""Draw the fresh-151 H200 cases (THE ENVIRONMENT AROUND vLLM that is not vLLM's own: variables read by CUDA, PyTorch,
Triton, NCCL and the Hugging Face libraries, and the process's limits), each with a value class, by a procedure fixed
before anything ran: sampled, not chosen.

Usage: python3 tools/gpu_fresh151_draw.py               writes tools/gpu-fresh151-cases.json and prints the draw
       python3 tools/gpu_fresh151_draw.py --draw-only   prints the list's counts, what was dropped and why, the draw
The cases are run by tools/gpu_serve_requests.py through tools/gpu_fresh151_go.sh (real vLLM 0.26.0 `vllm serve`, one
H200, starts side by side; no ulimit condition was drawn, so no case needs a shell limit).

BASE (fixed before the draw, fresh-99/105's): google/gemma-3-1b-it's published config.json
(tests/fixtures/checkpoints/gemma-3-1b-it), started as `vllm serve .gpu/models/gemma-3-1b --skip-tokenizer-init
--load-format dummy --max-model-len 4096 --gpu-memory-utilization 0.1 --kv-cache-memory-bytes 2147483648` (dummy
weights, no tokenizer, a fixed 2 GiB KV cache so that starts can share the GPU), with the drawn condition set in the
server's environment (or its shell), and the kit's environment otherwise (tools/gpu_serve_drive.py BASE_ENV:
VLLM_USE_FLASHINFER_SAMPLER=0, HF_HUB_OFFLINE=1, ...; a drawn variable replaces the kit's value of the same name).
Once the server is up: one POST /v1/completions {"model": ".gpu/models/gemma-3-1b", "max_tokens": 16} with a
50-token prompt (token ids 1000..1049).

THE LIST (every condition, before dropping):
  PY_VARS: every name matching CUDA_*, PYTORCH_*, TORCH_*, TRITON_*, NCCL_*, HF_*, TRANSFORMERS_*, TOKENIZERS_* or
    OMP_NUM_THREADS that the device's own torch 2.11.0+cu130, triton 3.6.0, transformers 5.17.0, huggingface_hub
    1.33.0, tokenizers 0.23.2 and safetensors 0.8.0 read in Python (os.environ.get / os.getenv / os.environ[...] /
    "X" in os.environ / torch's Config(env_name_default=...) / triton's env_bool/env_int/env_str knobs), printed by
    tools/gpu_fresh151_scan.py on the device (first device call); the parser class is that scan's guess from the
    reading lines, kept for the record only (the value classes below do not depend on it).
  PY_VARS_MULTILINE: names whose reading call spreads over lines (the first scan read line by line and missed them),
    found by the fixed scan in this machine's newer copies of the same libraries (a second device scan was refused:
    no machine could be started); the first part call re-runs the fixed scan on the device for the record.
  SO_VARS: the same prefixes as NUL-ended strings in the device's libc10.so, libc10_cuda.so, libtorch_cuda.so and
    libtorch_cpu.so (what C++ getenv() may read).
  CUDA_DOC: CUDA's documented environment variables (CUDA Programming Guide 13, appendix 5.2 "CUDA Environment
    Variables", and the MPS variables of the GPU deployment guide), typed here from that page's names.
  ALLOC_OPTS: PYTORCH_CUDA_ALLOC_CONF's options as torch 2.11's allocator parses them (AcceleratorAllocatorConfig:
    max_split_size_mb, max_non_split_rounding_mb, garbage_collection_threshold, roundup_power2_divisions,
    expandable_segments, pinned_use_background_threads; CUDAAllocatorConfig: backend, release_lock_on_cudamalloc,
    pinned_use_cuda_host_register, pinned_num_register_threads, pinned_reserve_segment_size_mb,
    graph_capture_record_stream_reuse, per_process_memory_fraction): each key found as a string in the device's
    libc10.so / libc10_cuda.so beside its parse* function (the scan's alloc_keys.txt); one condition per option.
  ULIMITS: ulimit -n (open files), -l (locked memory), -s (stack), -v (virtual memory), set in the case's shell
    before `vllm serve` starts (the device's defaults: -n 20000, -l unlimited, -s 8192, -v unlimited; it runs as root).
DROPPED (first rule that matches wins; the reasons name what the device cannot give): not an environment variable (a
macro or message word found among the strings); read only when building torch/extensions or by test suites; another
accelerator or the CPU backend (ROCm/HIP/MIOpen/XPU/MLU/MKLDNN); more GPUs, nodes, peers or their collectives (NCCL_*,
TORCH_NCCL_*, distributed, elastic, flight recorder, symmetric memory, IPC); the network (the Hub, its endpoints and
tokens, Redis, hub downloads: the device is offline and the model is a local folder); a daemon or tool absent here
(CUDA MPS, cuda-memcheck, strobelight, proton); an integration this start never loads (MLflow, DagsHub, DVCLive, TNT).
Everything else is KEPT, whether or not vLLM's start reads it, and whether or not doctor might know it.

THE DRAW: r = random.Random(2151); names = r.sample(KEPT, 12) (KEPT sorted). Then for each drawn condition in draw
order its value class: r.random() < 0.25 -> "valid" (a healthy control), else r.choice(["refused", "hostile"]):
  refused: a value the reader refuses (malformed, an unknown option, out of range, a word where it parses a number)
  hostile: a valid value that is hostile (a device index or UUID that matches nothing, CUDA_VISIBLE_DEVICES="", an
           allocator option with a bad number, a cache dir that is not writable, a limit too small)
The concrete value per (condition, class) is VALUES below, written after the draw and before anything ran on the
device, from the reader's own code where it could be read. "Not writable" here: the device runs as root, so a
mode-000 folder is writable to it; a path under /proc (a read-only file system) is what cannot be written.
Run order (fixed here, not by outcome): all twelve start side by side (16 cores, one GPU at 0.1 each); the driver's
list is the draw order.
"""

import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_JSON = os.path.join(HERE, "gpu-fresh151-cases.json")
CHECKPOINT = os.path.join(HERE, "..", "tests", "fixtures", "checkpoints", "gemma-3-1b-it", "config.json")
SOURCE = "huggingface.co/google/gemma-3-1b-it (tests/fixtures/checkpoints/gemma-3-1b-it/config.json)"
SEED = 2151
N = 12
BASE = ".gpu/models/gemma-3-1b"
FLAGS = ["--skip-tokenizer-init", "--load-format", "dummy", "--max-model-len", "4096"]
PARALLEL = ["--gpu-memory-utilization", "0.1", "--kv-cache-memory-bytes", "2147483648"]
BODY = {"prompt_len": 50, "max_tokens": 16, "model": BASE}
TIMEOUT = 400  # fresh-105: 8 starts side by side took 131-154 s; a short bound lost a case there

# the device's torch 2.11.0+cu130, triton 3.6.0, transformers 5.17.0, huggingface_hub 1.33.0 (scan, read line by line)
PY_VARS = {
    "CUDA_HOME": "torch:path,transformers:path",
    "CUDA_INC_PATH": "torch:path",
    "CUDA_LAUNCH_BLOCKING": "transformers:str",
    "CUDA_MODULE_LOADING": "torch:str",
    "CUDA_PATH": "torch:path,transformers:path",
    "CUDA_PROFILE": "torch:path",
    "CUDA_VISIBLE_DEVICES": "torch:str",
    "HF_DAGSHUB_LOG_ARTIFACTS": "transformers:bool-word",
    "HF_DAGSHUB_MODEL_NAME": "transformers:bool-word",
    "HF_DEBUG": "huggingface_hub:bool-word",
    "HF_DEVICE_CODE_OAUTH_CLIENT_ID": "huggingface_hub:str",
    "HF_DVCLIVE_LOG_MODEL": "transformers:bool-word",
    "HF_ENDPOINT": "huggingface_hub:str",
    "HF_HUB_DISABLE_EXPERIMENTAL_WARNING": "huggingface_hub:bool-word",
    "HF_HUB_DISABLE_IMPLICIT_TOKEN": "huggingface_hub:bool-word",
    "HF_HUB_DISABLE_PROGRESS_BARS": "huggingface_hub:bool-word",
    "HF_HUB_DISABLE_SHARED_BLOBS": "huggingface_hub:bool-word",
    "HF_HUB_DISABLE_SYMLINKS": "huggingface_hub:bool-word",
    "HF_HUB_DISABLE_SYMLINKS_WARNING": "huggingface_hub:bool-word",
    "HF_HUB_DISABLE_TELEMETRY": "huggingface_hub:bool-word",
    "HF_HUB_DISABLE_UPDATE_CHECK": "huggingface_hub:bool-word",
    "HF_HUB_DISABLE_XET": "huggingface_hub:bool-word",
    "HF_HUB_DOWNLOAD_TIMEOUT": "huggingface_hub:str",
    "HF_HUB_ENABLE_HF_TRANSFER": "huggingface_hub:bool-word",
    "HF_HUB_ETAG_TIMEOUT": "huggingface_hub:str",
    "HF_HUB_OFFLINE": "huggingface_hub:bool-word",
    "HF_HUB_USER_AGENT_ORIGIN": "huggingface_hub:str",
    "HF_HUB_VERBOSITY": "huggingface_hub:str",
    "HF_INFERENCE_ENDPOINT": "huggingface_hub:str",
    "HF_MLFLOW_LOG_ARTIFACTS": "transformers:bool-word",
    "HF_MODULES_CACHE": "transformers:path",
    "HF_OIDC_ID_TOKEN": "huggingface_hub:str",
    "HF_OIDC_RESOURCE": "huggingface_hub:str",
    "HF_TOKEN": "huggingface_hub:str",
    "HF_XET_CACHE": "huggingface_hub:bool-word",
    "HF_XET_HIGH_PERFORMANCE": "huggingface_hub:bool-word",
    "NCCL_GRAPH_MIXING_SUPPORT": "transformers:int",
    "OMP_NUM_THREADS": "torch:str",
    "PYTORCH_CNDEV_BASED_MLU_CHECK": "transformers:str",
    "PYTORCH_CUDA_MEMCHECK": "torch:bool-word",
    "PYTORCH_DDP_USE_SIDE_STREAM": "torch:bool-word",
    "PYTORCH_DEBUG_FLASH_ATTENTION_GCN_ARCH_OVERRIDE": "torch:str",
    "PYTORCH_GEN_PATTERNS": "torch:str",
    "PYTORCH_HYPOTHESIS_PROFILE": "torch:path",
    "PYTORCH_JIT": "torch:bool-word",
    "PYTORCH_JIT_DISABLE": "torch:str",
    "PYTORCH_JIT_STATS": "torch:str",
    "PYTORCH_JIT_TIME": "torch:str",
    "PYTORCH_KEEP_TMPDIR": "torch:bool-word",
    "PYTORCH_MATCHER_LOGLEVEL": "torch:str",
    "PYTORCH_MIOPEN_SUGGEST_NHWC": "torch:bool-word",
    "PYTORCH_NO_CUDA_MEMORY_CACHING": "torch:str",
    "PYTORCH_NVCC": "torch:str",
    "PYTORCH_NVML_BASED_CUDA_CHECK": "torch:bool-word",
    "PYTORCH_REORDER_COLLECTIVES_LIMIT": "torch:str",
    "PYTORCH_ROCM_ARCH": "torch:str",
    "PYTORCH_SINK_WAITS_LIMIT": "torch:str",
    "PYTORCH_SKIP_CUDNN_COMPATIBILITY_CHECK": "torch:bool-word",
    "PYTORCH_TESTING_DEVICE_EXCEPT_FOR": "torch:str",
    "PYTORCH_TESTING_DEVICE_ONLY_FOR": "torch:str",
    "PYTORCH_TEST_CHECK_VALIDATE_SPARSE_SAMPLES": "torch:bool-word",
    "PYTORCH_TEST_WITH_TV": "torch:bool-word",
    "PYTORCH_TUNABLEOP_FILENAME": "torch:path",
    "TOKENIZERS_PARALLELISM": "transformers:str",
    "TORCH_CACHING_PRECOMPILE": "torch:bool-word",
    "TORCH_COMPILER_COLLECTIVES": "torch:bool-word",
    "TORCH_COMPILE_BACKEND": "torch:str",
    "TORCH_COMPILE_CACHE_KEY_TAG": "torch:path",
    "TORCH_COMPILE_CPROFILE": "torch:path",
    "TORCH_COMPILE_DEBUG": "torch:bool-word",
    "TORCH_COMPILE_DEBUG_SAVE_REAL": "torch:bool-word",
    "TORCH_COMPILE_DISABLE": "torch:bool-word",
    "TORCH_COMPILE_DYNAMIC_SOURCES": "torch:str",
    "TORCH_COMPILE_DYNAMO_PROFILER": "torch:path",
    "TORCH_COMPILE_FORCE_FULLGRAPH": "transformers:bool-word",
    "TORCH_COMPILE_GRAPH_FORMAT": "torch:str",
    "TORCH_COMPILE_OVERRIDE_BACKENDS": "torch:str",
    "TORCH_COMPILE_REPLAY_RECORD": "torch:bool-word",
    "TORCH_COMPILE_STICKY_PGO_READ": "torch:str",
    "TORCH_COMPILE_STICKY_PGO_WRITE": "torch:str",
    "TORCH_COMPILE_STROBELIGHT": "torch:str",
    "TORCH_COMPILE_UNBACKED_SOURCES": "torch:str",
    "TORCH_COMPILE_USE_LAZY_GRAPH_MODULE": "torch:bool-word",
    "TORCH_CUDAGRAPH_GC": "torch:str",
    "TORCH_CUDA_ARCH_LIST": "torch:str",
    "TORCH_CUDA_SANITIZER": "torch:str",
    "TORCH_DEVICE_BACKEND_AUTOLOAD": "torch:bool-word",
    "TORCH_DISABLE_SHARE_RDZV_TCP_STORE": "torch:bool-word",
    "TORCH_DISTRIBUTED_COMPILE_ON_ONE_RANK": "torch:str",
    "TORCH_DISTRIBUTED_DEBUG": "torch:str",
    "TORCH_DISTRIBUTED_USE_TORCHCOMMS": "torch:str",
    "TORCH_DIST_INIT_BARRIER": "torch:str",
    "TORCH_DONT_CHECK_COMPILER_ABI": "torch:str",
    "TORCH_DYNAMO_AUTOMATIC_DYNAMIC_LOCAL_PGO": "torch:str",
    "TORCH_DYNAMO_AUTOMATIC_DYNAMIC_SHAPES": "torch:bool-word",
    "TORCH_DYNAMO_DO_NOT_EMIT_RUNTIME_ASSERTS": "torch:bool-word",
    "TORCH_DYNAMO_RUN_GC_AFTER_COMPILE": "torch:str",
    "TORCH_ELASTIC_WORKER_IDENTICAL": "torch:bool-word",
    "TORCH_ENRICH_RPOFILER_STACK_TRACE": "torch:path",
    "TORCH_EXTENSIONS_DIR": "torch:path",
    "TORCH_EXTENSION_SKIP_NVCC_GEN_DEPENDENCIES": "torch:str",
    "TORCH_FAKE_TENSOR_DEBUG": "torch:bool-word",
    "TORCH_FAKE_TENSOR_DISPATCH_CACHE": "torch:bool-word",
    "TORCH_FAKE_TENSOR_DISPATCH_CACHE_CROSSCHECK": "torch:bool-word",
    "TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD": "torch:str",
    "TORCH_FORCE_WEIGHTS_ONLY_LOAD": "torch:str",
    "TORCH_HUB": "torch:str",
    "TORCH_INDUCTOR_INSTALL_GXX": "torch:str",
    "TORCH_MODEL_ZOO": "torch:str",
    "TORCH_NCCL_ASYNC_ERROR_HANDLING": "torch:str",
    "TORCH_NCCL_BLOCKING_WAIT": "torch:bool-word",
    "TORCH_NCCL_DESYNC_DEBUG": "torch:str",
    "TORCH_NCCL_DUMP_ON_TIMEOUT": "torch:str",
    "TORCH_ROCM_AOTRITON_ENABLE_EXPERIMENTAL": "torch:bool-word",
    "TORCH_SERIALIZATION_DEBUG": "torch:bool-word",
    "TORCH_SHOW_CPP_STACKTRACES": "torch:str",
    "TORCH_SPARSE_BSR_SCATTER_MM_LRU_CACHE_SIZE": "torch:int",
    "TORCH_STRICT_PRECOMPILE": "torch:bool-word",
    "TORCH_SYMMMEM_IMPLICIT_POOL": "torch:bool-word",
    "TORCH_SYMM_MEM_ENABLE_NATIVE_ASYNC_TP": "torch:str",
    "TORCH_TEST_DEVICES": "torch:str",
    "TORCH_TNT_IN_USE": "torch:bool-word",
    "TORCH_USE_RTLD_GLOBAL": "torch:str",
    "TORCH_WARM_POOL": "torch:bool-word",
    "TORCH_XPU_ARCH_LIST": "torch:str",
    "TRANSFORMERS_DISABLE_DEEPGEMM_LINEAR": "transformers:bool-word",
    "TRANSFORMERS_DISABLE_TORCH_CHECK": "transformers:bool-word",
    "TRANSFORMERS_IS_CI": "transformers:bool-word",
    "TRANSFORMERS_NO_ADVISORY_WARNINGS": "transformers:str",
    "TRANSFORMERS_OFFLINE": "huggingface_hub:bool-word",
    "TRANSFORMERS_TEST_BACKEND": "transformers:str",
    "TRANSFORMERS_TEST_DEVICE": "transformers:str",
    "TRANSFORMERS_TEST_DEVICE_SPEC": "transformers:str",
    "TRANSFORMERS_VERBOSITY": "transformers:str",
    "TRITON_ALLOW_NON_CONSTEXPR_GLOBALS": "triton:bool-word",
    "TRITON_ALWAYS_COMPILE": "triton:bool-word",
    "TRITON_BACKENDS_IN_TREE": "triton:bool-word",
    "TRITON_CACHE_AUTOTUNING": "triton:bool-word",
    "TRITON_CACHE_DIR": "torch:path,triton:path",
    "TRITON_CACHE_MANAGER": "triton:path",
    "TRITON_CUDACRT_PATH": "triton:path",
    "TRITON_CUDART_PATH": "triton:path",
    "TRITON_DEBUG": "triton:bool-word",
    "TRITON_DEFAULT_FP_FUSION": "triton:bool-word",
    "TRITON_DISABLE_LINE_INFO": "triton:bool-word",
    "TRITON_DUMP_DIR": "triton:path",
    "TRITON_DUMP_PTXAS_LOG": "triton:bool-word",
    "TRITON_ENABLE_ASAN": "triton:bool-word",
    "TRITON_ENABLE_NVTX": "triton:bool-word",
    "TRITON_F32_DEFAULT": "triton:bool-word",
    "TRITON_FRONT_END_DEBUGGING": "triton:bool-word",
    "TRITON_HIP_USE_ASYNC_COPY": "triton:bool-word",
    "TRITON_HIP_USE_BLOCK_PINGPONG": "triton:bool-word",
    "TRITON_HIP_USE_IN_THREAD_TRANSPOSE": "triton:bool-word",
    "TRITON_HOME": "triton:path",
    "TRITON_INSTRUMENTATION_MODE": "triton:bool-word",
    "TRITON_INTERPRET": "torch:bool-word,triton:bool-word",
    "TRITON_KERNEL_DUMP": "triton:bool-word",
    "TRITON_KERNEL_OVERRIDE": "triton:bool-word",
    "TRITON_LIBCUDA_PATH": "triton:path",
    "TRITON_LIBDEVICE_PATH": "triton:path",
    "TRITON_LIBHIP_PATH": "triton:bool-word",
    "TRITON_MOCK_PTX_VERSION": "triton:bool-word",
    "TRITON_OVERRIDE_ARCH": "triton:bool-word",
    "TRITON_OVERRIDE_DIR": "triton:path",
    "TRITON_PRINT_AUTOTUNING": "triton:bool-word",
    "TRITON_PROTON_DISABLE": "triton:bool-word",
    "TRITON_PTXAS_PATH": "torch:path",
    "TRITON_REDIS_HOST": "triton:int",
    "TRITON_REDIS_KEY_FORMAT": "triton:int",
    "TRITON_REDIS_PORT": "triton:int",
    "TRITON_REMOTE_CACHE_BACKEND": "triton:path",
    "TRITON_STORE_BINARY_ONLY": "triton:bool-word",
}
# read by a call spread over lines (the scan read line by line missed them): found by the fixed scan in this machine's
# newer copies (torch 2.13, huggingface_hub 2.4, triton 3.9)
PY_VARS_MULTILINE = {
    "HF_ASSETS_CACHE": "huggingface_hub:path",
    "HF_HOME": "huggingface_hub:path",
    "HF_HUB_CACHE": "huggingface_hub:path",
    "HF_TOKEN_PATH": "huggingface_hub:path",
    "TORCH_COMPILE_OVERRIDE_DYNAMO_CONFIGS": "torch:str",
    "TORCH_COMPILE_OVERRIDE_INDUCTOR_CONFIGS": "torch:str",
    "TORCH_CUSTOM_PYTHONPATH": "torch:path",
    "TORCH_FR_BUFFER_SIZE": "torch:str",
    "TRITON_CUPTI_LIB_BLACKWELL_PATH": "triton:path",
    "TRITON_CUPTI_LIB_PATH": "triton:path",
}
# NUL-ended strings in the device's libc10.so, libc10_cuda.so, libtorch_cuda.so, libtorch_cpu.so
SO_VARS = {
    "CUDA_API_FAILED": "libtorch_cuda.so",
    "CUDA_LAUNCH_BLOCKING": "libc10_cuda.so,libtorch_cpu.so",
    "CUDA_VERSION": "libtorch_cpu.so",
    "CUDA_VISIBLE_DEVICES": "libtorch_cpu.so",
    "NCCL_ALGO": "libtorch_cuda.so",
    "NCCL_ASYNC_ERROR_HANDLING": "libtorch_cpu.so,libtorch_cuda.so",
    "NCCL_CHECK_TIMEOUT": "libtorch_cuda.so",
    "NCCL_DEBUG": "libtorch_cpu.so,libtorch_cuda.so",
    "NCCL_IB_TIMEOUT": "libtorch_cpu.so",
    "NCCL_NTHREADS": "libtorch_cpu.so",
    "NCCL_SOCKET_IFNAME": "libtorch_cpu.so",
    "NCCL_USE_TENSOR_REGISTER_ALLOCATOR_HOOK": "libtorch_cuda.so",
    "OMP_NUM_THREADS": "libtorch_cpu.so",
    "PYTORCH_ALLOC_CONF": "libc10.so,libc10_cuda.so,libtorch_cuda.so",
    "PYTORCH_API_USAGE_STDERR": "libc10.so",
    "PYTORCH_CUDA_ALLOC_CONF": "libc10.so,libc10_cuda.so,libtorch_cuda.so",
    "PYTORCH_CUDA_DSA_STACKTRACING": "libc10_cuda.so",
    "PYTORCH_FUSION_DEBUG": "libtorch_cpu.so",
    "PYTORCH_HIP_ALLOC_CONF": "libc10.so",
    "PYTORCH_JIT_ENABLE_LARGE_SOURCE_LOCATION": "libtorch_cpu.so",
    "PYTORCH_JIT_LOG_LEVEL": "libtorch_cpu.so",
    "PYTORCH_JIT_OPT_LIMIT": "libtorch_cpu.so",
    "PYTORCH_JIT_TYPE_VERBOSITY": "libtorch_cpu.so",
    "PYTORCH_KERNEL_CACHE_PATH": "libtorch_cuda.so",
    "PYTORCH_MIOPEN_SUGGEST_NHWC": "libtorch_cpu.so",
    "PYTORCH_MIOPEN_SUGGEST_NHWC_BATCHNORM": "libtorch_cpu.so",
    "PYTORCH_NO_CUDA_MEMORY_CACHING": "libc10_cuda.so",
    "PYTORCH_NO_HIP_MEMORY_CACHING": "libc10_cuda.so",
    "PYTORCH_TENSOREXPR": "libtorch_cpu.so",
    "PYTORCH_TENSOREXPR_DONT_FUSE": "libtorch_cpu.so",
    "PYTORCH_TENSOREXPR_FALLBACK": "libtorch_cpu.so",
    "PYTORCH_TENSOREXPR_RANDOM_TRANSFORM_SEED": "libtorch_cpu.so",
    "PYTORCH_TEST": "libtorch_cpu.so",
    "PYTORCH_TUNABLEOP_BLAS_LOG": "libtorch_cuda.so",
    "PYTORCH_TUNABLEOP_ENABLED": "libtorch_cuda.so",
    "PYTORCH_TUNABLEOP_FILENAME": "libtorch_cuda.so",
    "PYTORCH_TUNABLEOP_ICACHE_FLUSH_ENABLED": "libtorch_cuda.so",
    "PYTORCH_TUNABLEOP_MAX_TUNING_DURATION_MS": "libtorch_cuda.so",
    "PYTORCH_TUNABLEOP_MAX_TUNING_ITERATIONS": "libtorch_cuda.so",
    "PYTORCH_TUNABLEOP_MAX_WARMUP_DURATION_MS": "libtorch_cuda.so",
    "PYTORCH_TUNABLEOP_MAX_WARMUP_ITERATIONS": "libtorch_cuda.so",
    "PYTORCH_TUNABLEOP_NUMERICAL_CHECK": "libtorch_cuda.so",
    "PYTORCH_TUNABLEOP_RECORD_UNTUNED": "libtorch_cuda.so",
    "PYTORCH_TUNABLEOP_ROTATING_BUFFER_SIZE": "libtorch_cuda.so",
    "PYTORCH_TUNABLEOP_TUNING": "libtorch_cuda.so",
    "PYTORCH_TUNABLEOP_UNTUNED_FILENAME": "libtorch_cuda.so",
    "PYTORCH_TUNABLEOP_VERBOSE": "libtorch_cuda.so",
    "PYTORCH_TUNABLEOP_VERBOSE_FILENAME": "libtorch_cuda.so",
    "PYTORCH_USE_CUDA_DSA": "libc10_cuda.so",
    "TORCH_ALLOW_TF32_CUBLAS_OVERRIDE": "libtorch_cpu.so",
    "TORCH_AUTOGRAD_SHUTDOWN_WAIT_LIMIT": "libtorch_cpu.so",
    "TORCH_BLAS_PREFER_CUBLASLT": "libtorch_cpu.so",
    "TORCH_BLAS_PREFER_HIPBLASLT": "libtorch_cpu.so",
    "TORCH_CPP_LOG_LEVEL": "libc10.so",
    "TORCH_CUBLASLT_UNIFIED_WORKSPACE": "libtorch_cuda.so",
    "TORCH_CUDA_EXPANDABLE_SEGMENTS_IPC": "libc10_cuda.so",
    "TORCH_CUDNN_SDPA_AVOID_RECOMPILE": "libtorch_cuda.so",
    "TORCH_CUDNN_SDPA_CACHE_DEBUG": "libtorch_cuda.so",
    "TORCH_CUDNN_SDPA_DEPRIORITIZED": "libtorch_cuda.so",
    "TORCH_CUDNN_SDPA_NESTED_TENSOR_ENABLED": "libtorch_cuda.so",
    "TORCH_CUDNN_USE_HEURISTIC_MODE_B": "libtorch_cpu.so,libtorch_cuda.so",
    "TORCH_CUDNN_V8_API_DEBUG": "libtorch_cpu.so,libtorch_cuda.so",
    "TORCH_CUDNN_V8_API_DISABLED": "libtorch_cpu.so,libtorch_cuda.so",
    "TORCH_CUDNN_V8_API_LRU_CACHE_LIMIT": "libtorch_cuda.so",
    "TORCH_CUSTOM_TERMINATE": "libtorch_cpu.so",
    "TORCH_DISABLE_ADDR2LINE": "libtorch_cpu.so",
    "TORCH_DISABLE_DEADLOCK_DETECTION": "libc10.so",
    "TORCH_DISABLE_FUNCTIONALIZATION_META_REFERENCE": "libtorch_cpu.so",
    "TORCH_DISTRIBUTED_DEBUG": "libtorch_cpu.so,libtorch_cuda.so",
    "TORCH_FR_BUFFER_SIZE": "libtorch_cpu.so,libtorch_cuda.so",
    "TORCH_FR_CPP_STACK": "libtorch_cpu.so,libtorch_cuda.so",
    "TORCH_FR_DUMP_DYNAMIC_FILE_NAME": "libtorch_cpu.so",
    "TORCH_FR_DUMP_TEMP_FILE": "libtorch_cpu.so",
    "TORCH_GLOO_LAZY_INIT": "libtorch_cpu.so",
    "TORCH_INCLUDE_ONLY_ACTIVE": "libtorch_cpu.so,libtorch_cuda.so",
    "TORCH_INCLUDE_STACK_TRACE": "libtorch_cpu.so,libtorch_cuda.so",
    "TORCH_LIBRARY": "libtorch_cpu.so",
    "TORCH_LIBRARY_FRAGMENT": "libtorch_cpu.so",
    "TORCH_LIBRARY_IMPL": "libtorch_cpu.so",
    "TORCH_LINALG_PREFER_CUSOLVER": "libtorch_cpu.so",
    "TORCH_LINALG_PREFER_HIPSOLVER": "libtorch_cpu.so",
    "TORCH_LINEAR_FLATTEN_3D": "libtorch_cpu.so",
    "TORCH_MKLDNN_MATMUL_MIN_DIM": "libtorch_cpu.so",
    "TORCH_MKLDNN_MATMUL_MIN_SIZE": "libtorch_cpu.so",
    "TORCH_NCCL_ASYNC_ERROR_HANDLING": "libtorch_cpu.so,libtorch_cuda.so",
    "TORCH_NCCL_AVOID_RECORD_STREAMS": "libtorch_cuda.so",
    "TORCH_NCCL_BCAST_UNIQUEID": "libtorch_cuda.so",
    "TORCH_NCCL_BLOCKING_WAIT": "libtorch_cpu.so,libtorch_cuda.so",
    "TORCH_NCCL_COORD_CHECK_MILSEC": "libtorch_cuda.so",
    "TORCH_NCCL_CUDA_EVENT_CACHE": "libtorch_cuda.so",
    "TORCH_NCCL_DEBUG_INFO_PIPE_FILE": "libtorch_cuda.so",
    "TORCH_NCCL_DEBUG_INFO_TEMP_FILE": "libtorch_cpu.so",
    "TORCH_NCCL_DESYNC_DEBUG": "libtorch_cuda.so",
    "TORCH_NCCL_DUMP_ON_TIMEOUT": "libtorch_cuda.so",
    "TORCH_NCCL_ENABLE_MONITORING": "libtorch_cuda.so",
    "TORCH_NCCL_ENABLE_TIMING": "libtorch_cuda.so",
    "TORCH_NCCL_EXTRA_DUMP_ON_EXEC": "libtorch_cuda.so",
    "TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC": "libtorch_cuda.so",
    "TORCH_NCCL_HIGH_PRIORITY": "libtorch_cuda.so",
    "TORCH_NCCL_LOG_CPP_STACK_ON_UNCLEAN_SHUTDOWN": "libtorch_cuda.so",
    "TORCH_NCCL_NAN_CHECK": "libtorch_cuda.so",
    "TORCH_NCCL_NONBLOCKING_TIMEOUT": "libtorch_cuda.so",
    "TORCH_NCCL_PROPAGATE_ERROR": "libtorch_cuda.so",
    "TORCH_NCCL_RANKS_PER_ROOT": "libtorch_cuda.so",
    "TORCH_NCCL_RETHROW_CUDA_ERRORS": "libtorch_cuda.so",
    "TORCH_NCCL_SHOW_EAGER_INIT_P2P_SERIALIZATION_WARNING": "libtorch_cuda.so",
    "TORCH_NCCL_TRACE_BUFFER_SIZE": "libtorch_cpu.so,libtorch_cuda.so",
    "TORCH_NCCL_TRACE_CPP_STACK": "libtorch_cpu.so,libtorch_cuda.so",
    "TORCH_NCCL_USE_COMM_NONBLOCKING": "libtorch_cuda.so",
    "TORCH_NCCL_USE_TENSOR_REGISTER_ALLOCATOR_HOOK": "libtorch_cuda.so",
    "TORCH_NCCL_WAIT_TIMEOUT_DUMP_MILSEC": "libtorch_cuda.so",
    "TORCH_PROFILER_ENABLE_COLLECTIVE_PROFILING": "libtorch_cpu.so",
    "TORCH_ROCM_FA_PREFER_CK": "libtorch_cpu.so",
    "TORCH_SHOW_CPP_STACKTRACES": "libtorch_cpu.so",
    "TORCH_SHOW_DISPATCH_TRACE": "libtorch_cpu.so",
    "TORCH_SYMBOLIZE_MODE": "libtorch_cpu.so",
    "TORCH_SYMMMEM": "libtorch_cuda.so",
    "TORCH_SYMM_MEM_ALLOW_OVERLAPPING_DEVICES": "libtorch_cuda.so",
    "TORCH_SYMM_MEM_DISABLE_MULTICAST": "libtorch_cuda.so",
    "TORCH_VITAL": "libtorch_cpu.so",
}

CUDA_DOC = [
    "CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER", "CUDA_MANAGED_FORCE_DEVICE_ALLOC",
    "CUDA_CACHE_DISABLE", "CUDA_CACHE_PATH", "CUDA_CACHE_MAXSIZE", "CUDA_FORCE_PTX_JIT", "CUDA_DISABLE_PTX_JIT",
    "CUDA_FORCE_JIT", "CUDA_DISABLE_JIT",
    "CUDA_LAUNCH_BLOCKING", "CUDA_DEVICE_MAX_CONNECTIONS", "CUDA_DEVICE_MAX_COPY_CONNECTIONS", "CUDA_AUTO_BOOST",
    "CUDA_SCALE_LAUNCH_QUEUES", "CUDA_GRAPHS_USE_NODE_PRIORITY", "CUDA_DEVICE_WAITS_ON_EXCEPTION",
    "CUDA_MODULE_LOADING", "CUDA_MODULE_DATA_LOADING", "CUDA_LOG_FILE",
    "CUDA_ENABLE_COREDUMP_ON_EXCEPTION", "CUDA_ENABLE_CPU_COREDUMP_ON_EXCEPTION", "CUDA_ENABLE_LIGHTWEIGHT_COREDUMP",
    "CUDA_COREDUMP_FILE", "CUDA_ENABLE_USER_TRIGGERED_COREDUMP", "CUDA_COREDUMP_PIPE",
    "CUDA_COREDUMP_GENERATION_FLAGS", "CUDA_COREDUMP_SHOW_PROGRESS",
    "CUDA_MPS_PIPE_DIRECTORY", "CUDA_MPS_LOG_DIRECTORY", "CUDA_MPS_ACTIVE_THREAD_PERCENTAGE",
    "CUDA_MPS_PINNED_DEVICE_MEM_LIMIT", "CUDA_MPS_CLIENT_PRIORITY",
    "CUDA_MPS_ENABLE_PER_CTX_DEVICE_MULTIPROCESSOR_PARTITIONING",
]  # fmt: skip
ALLOC_OPTS = [
    "max_split_size_mb", "max_non_split_rounding_mb", "garbage_collection_threshold", "roundup_power2_divisions",
    "expandable_segments", "pinned_use_background_threads", "backend", "release_lock_on_cudamalloc",
    "pinned_use_cuda_host_register", "pinned_num_register_threads", "pinned_reserve_segment_size_mb",
    "graph_capture_record_stream_reuse", "per_process_memory_fraction",
]  # fmt: skip
ULIMITS = ["ulimit -n", "ulimit -l", "ulimit -s", "ulimit -v"]

_NOTENV = "not an environment variable (a macro or message word among the library's strings)"
_BUILD = "read only when building torch or a C++/CUDA extension, or by a test suite, never by `vllm serve`"
_HW = "acts on another accelerator or on the CPU backend (the device is one NVIDIA H200)"
_GPUS = (
    "needs more than one GPU, node, peer process or a collective (one H200 in one host, tensor parallel 1)"
)
_NET = "needs the network (the Hub, its endpoints or tokens, Redis, hub downloads): the device is offline"
_TOOL = "needs a daemon or tool absent here (CUDA MPS control daemon, cuda-memcheck, strobelight, proton)"
_INTEG = (
    "an integration this start never loads (MLflow, DagsHub, DVCLive, TorchTNT, TorchScript test patterns)"
)

# (substring of the name, reason), first match wins; then the exact names in DROP_NAMES
DROP_RULES = [
    ("ROCM", _HW), ("HIP", _HW), ("MIOPEN", _HW), ("XPU", _HW), ("MLU", _HW), ("MKLDNN", _HW), ("GCN", _HW),
    ("NCCL", _GPUS), ("DISTRIBUTED", _GPUS), ("TORCH_DIST_", _GPUS), ("ELASTIC", _GPUS), ("RDZV", _GPUS),
    ("TORCH_FR_", _GPUS), ("SYMM", _GPUS), ("DDP", _GPUS), ("COLLECTIVE", _GPUS), ("GLOO", _GPUS), ("_IPC", _GPUS),
    ("PYTORCH_TEST", _BUILD), ("PYTORCH_TESTING", _BUILD), ("TORCH_TEST", _BUILD), ("TRANSFORMERS_TEST", _BUILD),
    ("HYPOTHESIS", _BUILD), ("ARCH_LIST", _BUILD), ("TORCH_EXTENSION", _BUILD),
    ("HF_HUB_ETAG", _NET), ("HF_HUB_DOWNLOAD", _NET), ("HF_OIDC", _NET), ("REDIS", _NET), ("_XET", _NET),
    ("CUDA_MPS_", _TOOL), ("STROBELIGHT", _TOOL), ("PROTON", _TOOL), ("CUPTI", _TOOL),
    ("DAGSHUB", _INTEG), ("MLFLOW", _INTEG), ("DVCLIVE", _INTEG),
]  # fmt: skip
DROP_NAMES = {
    "CUDA_API_FAILED": _NOTENV,
    "CUDA_VERSION": _NOTENV + " (the container sets it; no reader found)",
    "TORCH_LIBRARY": _NOTENV,
    "TORCH_LIBRARY_FRAGMENT": _NOTENV,
    "TORCH_LIBRARY_IMPL": _NOTENV,
    "CUDA_HOME": _BUILD,
    "CUDA_PATH": _BUILD,
    "CUDA_INC_PATH": _BUILD,
    "PYTORCH_NVCC": _BUILD,
    "TORCH_DONT_CHECK_COMPILER_ABI": _BUILD,
    "TRANSFORMERS_IS_CI": _BUILD,
    "PYTORCH_GEN_PATTERNS": _INTEG,
    "TORCH_TNT_IN_USE": _INTEG,
    "CUDA_PROFILE": _TOOL + " (the legacy command-line profiler)",
    "PYTORCH_CUDA_MEMCHECK": _TOOL,
    "TRITON_INSTRUMENTATION_MODE": _TOOL,
    "HF_ENDPOINT": _NET,
    "HF_INFERENCE_ENDPOINT": _NET,
    "HF_TOKEN": _NET,
    "HF_TOKEN_PATH": _NET,
    "HF_DEVICE_CODE_OAUTH_CLIENT_ID": _NET,
    "HF_HUB_ENABLE_HF_TRANSFER": _NET,
    "HF_HUB_DISABLE_TELEMETRY": _NET,
    "HF_HUB_DISABLE_UPDATE_CHECK": _NET,
    "HF_HUB_DISABLE_IMPLICIT_TOKEN": _NET,
    "HF_HUB_USER_AGENT_ORIGIN": _NET,
    "TORCH_HUB": _NET,
    "TORCH_MODEL_ZOO": _NET,
    "TRITON_REMOTE_CACHE_BACKEND": _NET,
    "TORCH_INDUCTOR_INSTALL_GXX": _NET + " (it installs a compiler)",
}


def all_conditions():
    """name -> where it comes from (the list, before dropping)."""
    out = {}
    for n, v in PY_VARS.items():
        out[n] = "py " + v
    for n, v in PY_VARS_MULTILINE.items():
        out.setdefault(n, "py-multiline " + v)
    for n, v in SO_VARS.items():
        out[n] = out[n] + "; so " + v if n in out else "so " + v
    for n in CUDA_DOC:
        out[n] = out[n] + "; cuda-doc" if n in out else "cuda-doc"
    for o in ALLOC_OPTS:
        out["PYTORCH_CUDA_ALLOC_CONF:" + o] = "alloc-option"
    for u in ULIMITS:
        out[u] = "ulimit"
    return out


def dropped(conds):
    out = {}
    for name in conds:
        if ":" in name or name.startswith("ulimit"):
            continue
        for part, why in DROP_RULES:
            if part in name:
                out[name] = why
                break
        else:
            if name in DROP_NAMES:
                out[name] = DROP_NAMES[name]
    return out


CONDS = all_conditions()
DROPPED = dropped(CONDS)
KEPT = sorted(n for n in CONDS if n not in DROPPED)
CLASSES = ["refused", "hostile"]


def draw_classes():
    r = random.Random(SEED)
    names = r.sample(KEPT, N)
    out = []
    for name in names:
        u = r.random()
        cls = "valid" if u < 0.25 else r.choice(CLASSES)
        out.append((name, cls, u))
    return out


# Written after the draw and before anything ran on the device: the concrete value per drawn (condition, class), from
# the reader's own code (read in this machine's torch 2.13 / huggingface_hub 2.4 / triton 3.9 copies, the device's
# strings for C++ readers): (environment, why). Five of twelve drew "valid" (u < 0.25), more than the one in four asked.
# Where the reader compares with "1" or a word list it takes any string and refuses nothing: the "refused" value is
# then a word the reader does not accept, which it silently reads as off (fresh-105's wrong-value).
VALUES = {
    # torch/_dynamo/config.py: strict_precompile = os.environ.get("TORCH_STRICT_PRECOMPILE", "0") == "1"
    ("TORCH_STRICT_PRECOMPILE", "valid"): (
        {"TORCH_STRICT_PRECOMPILE": "1"},
        "a healthy control: the reader's on value 1 (strict precompile)",
    ),
    # torch/backends/cudnn/__init__.py: == "1" skips cuDNN's version compatibility check; any other word reads as off
    ("PYTORCH_SKIP_CUDNN_COMPATIBILITY_CHECK", "refused"): (
        {"PYTORCH_SKIP_CUDNN_COMPATIBILITY_CHECK": "yes"},
        "'yes' where the reader compares with '1' (it refuses nothing: read as off)",
    ),
    # torch/_dynamo/config.py: use_lazy_graph_module = ... == "1" (default "1"): 0 turns Dynamo's lazy graph modules off
    ("TORCH_COMPILE_USE_LAZY_GRAPH_MODULE", "hostile"): (
        {"TORCH_COMPILE_USE_LAZY_GRAPH_MODULE": "0"},
        "the valid 0, against the default 1 (every FX graph module recompiled eagerly)",
    ),
    # c10 (libc10.so) reads it as a boolean flag: 'Ignoring invalid value for boolean flag ...: valid values are 0 or 1.'
    ("TORCH_SHOW_CPP_STACKTRACES", "refused"): (
        {"TORCH_SHOW_CPP_STACKTRACES": "yes"},
        "'yes' where c10's boolean flag takes 0 or 1",
    ),
    # huggingface_hub/constants.py: HF_ASSETS_CACHE = expandvars(expanduser(os.getenv("HF_ASSETS_CACHE", ...)))
    ("HF_ASSETS_CACHE", "valid"): (
        {"HF_ASSETS_CACHE": "/tmp/hf-assets"},
        "a healthy control: a writable folder for the Hub's assets cache",
    ),
    # transformers/utils/logging.py: warning_advice() is silent when it is set
    ("TRANSFORMERS_NO_ADVISORY_WARNINGS", "valid"): (
        {"TRANSFORMERS_NO_ADVISORY_WARNINGS": "1"},
        "a healthy control: the documented 1 (advisory warnings off)",
    ),
    # c10/cuda/CUDAAllocatorConfig: release_lock_on_cudamalloc takes True or False; True releases the allocator's lock
    # around cudaMalloc
    ("PYTORCH_CUDA_ALLOC_CONF:release_lock_on_cudamalloc", "hostile"): (
        {"PYTORCH_CUDA_ALLOC_CONF": "release_lock_on_cudamalloc:True"},
        "the valid True (the caching allocator's lock released around cudaMalloc), against the default False",
    ),
    # torch/serialization.py: run_debug_asserts = os.environ.get("TORCH_SERIALIZATION_DEBUG", "0") == "1"
    ("TORCH_SERIALIZATION_DEBUG", "hostile"): (
        {"TORCH_SERIALIZATION_DEBUG": "1"},
        "the valid 1 (debug asserts in torch.load/save) on a server",
    ),
    # triton/knobs.py: override_dir = env_str_callable_default("TRITON_OVERRIDE_DIR", ...), read with TRITON_KERNEL_OVERRIDE
    ("TRITON_OVERRIDE_DIR", "valid"): (
        {"TRITON_OVERRIDE_DIR": "/tmp/triton-override"},
        "a healthy control: a writable folder for Triton's kernel overrides",
    ),
    # triton/knobs.py: override: env_bool = env_bool("TRITON_KERNEL_OVERRIDE"): kernels replaced from the override dir
    # (default ~/.triton/override, empty here)
    ("TRITON_KERNEL_OVERRIDE", "valid"): (
        {"TRITON_KERNEL_OVERRIDE": "1"},
        "a healthy control: the on value 1 with no override files (nothing replaced)",
    ),
    # torch/_inductor/config.py, torch/_functorch/config.py: the Graphviz output format of debug graph drawings
    ("TORCH_COMPILE_GRAPH_FORMAT", "refused"): (
        {"TORCH_COMPILE_GRAPH_FORMAT": "svgz2"},
        "a format Graphviz does not know (read only when debug graphs are drawn)",
    ),
    # huggingface_hub/constants.py: _is_true(value): value.upper() in {"1", "ON", "YES", "TRUE"}; anything else is off
    ("HF_HUB_DISABLE_SYMLINKS_WARNING", "refused"): (
        {"HF_HUB_DISABLE_SYMLINKS_WARNING": "enabled"},
        "'enabled' where the reader takes 1/ON/YES/TRUE (it refuses nothing: read as off)",
    ),
}


def make_case(name, cls):
    env, why = VALUES[(name, cls)]
    return {"args": [BASE, *FLAGS, *PARALLEL], "env": env, "timeout": TIMEOUT, "need": 200, "mem": 0.08,
            "steps": [{"post": "/v1/completions", "body": dict(BODY)}], "cost": "start",
            "var": name, "source_of_name": CONDS[name], "class": cls, "value_why": why}  # fmt: skip


def draw():
    cases = {}
    for i, (name, cls, u) in enumerate(draw_classes(), 1):
        key = f"e{i:02d}"
        cases[key] = make_case(name, cls)
        cases[key]["draw"] = f"draw {i}: {name}: {cls} (u={u:.3f})"
    why = ("fresh-151 doctor-corpus cases (tools/gpu_fresh151_draw.py wrote this file; tools/gpu_serve_requests.py "
           "runs them on real vLLM 0.26.0 'vllm serve', one H200, side by side, via ../shared/gpu). Drawn, not "
           "chosen: see the draw script's docstring. The base model's config.json is google/gemma-3-1b-it's as "
           "published.")  # fmt: skip
    return {"why": why, "seed": SEED, "conditions": len(CONDS), "dropped": len(DROPPED), "kept": len(KEPT),
            "source": SOURCE, "order": list(cases), "cases": cases}  # fmt: skip


if __name__ == "__main__":
    print(f"{len(CONDS)} conditions, {len(DROPPED)} dropped, {len(KEPT)} kept")
    if sys.argv[1:] == ["--draw-only"]:
        from collections import Counter

        for why, k in Counter(DROPPED.values()).most_common():
            print(f"  dropped {k}: {why}")
        for n in sorted(DROPPED):
            print(f"  - {n}")
        for i, (name, cls, u) in enumerate(draw_classes(), 1):
            print(i, name, CONDS[name], cls, f"u={u:.3f}")
        sys.exit(0)
    out = draw()
    with open(CHECKPOINT) as f:
        out["base_config"] = json.load(f)
    with open(OUT_JSON, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    for k in out["order"]:
        c = out["cases"][k]
        print(k, c["draw"], c["env"])
