"""Draw the fresh-168 H200 cases: a SECOND round of fresh-151's space (THE ENVIRONMENT AROUND vLLM that is not vLLM's
own: variables read by CUDA, PyTorch, Triton and the Hugging Face libraries, and the process's limits) that draws only
value classes that BITE, each condition with a value class, by a procedure fixed before anything ran: sampled, not chosen.

Usage: python3 tools/gpu_fresh168_draw.py               writes tools/gpu-fresh168-cases.json and prints the draw
       python3 tools/gpu_fresh168_draw.py --draw-only   prints the universe's counts, the BITES list, the draw
The cases are run by tools/gpu_fresh168_requests.py (tools/gpu_serve_requests.py with a case's "ulimit" applied in the
server's shell) through tools/gpu_fresh168_go.sh (real vLLM 0.26.0 `vllm serve`, one H200, starts side by side).

BASE (fixed before the draw, fresh-151's unchanged): google/gemma-3-1b-it's published config.json
(tests/fixtures/checkpoints/gemma-3-1b-it), started as `vllm serve .gpu/models/gemma-3-1b --skip-tokenizer-init
--load-format dummy --max-model-len 4096 --gpu-memory-utilization 0.1 --kv-cache-memory-bytes 2147483648`, with the
drawn condition set in the server's environment (or, for a ulimit, in its shell before python starts), and the kit's
environment otherwise (tools/gpu_serve_drive.py BASE_ENV; a drawn variable replaces the kit's value of the same name).
Once the server is up: one POST /v1/completions {"model": ".gpu/models/gemma-3-1b", "max_tokens": 16} with a
50-token prompt (token ids 1000..1049).

THE UNIVERSE: fresh-151's KEPT list (196 conditions; the lists and drop rules below are copied unchanged from
tools/gpu_fresh151_draw.py, whose docstring says where each came from), less the twelve fresh-151 drew (F151_DRAWN):
184. TORCHINDUCTOR_CACHE_DIR and XDG_CACHE_HOME are not in it (fresh-151's scan took only the CUDA_/PYTORCH_/TORCH_/
TRITON_/NCCL_/HF_/TRANSFORMERS_/TOKENIZERS_ prefixes and OMP_NUM_THREADS), so they cannot be drawn here.
THE RESTRICTION (fixed before the draw): of those 184, BITES keeps only the conditions whose reader refuses a value
(raises on it, not: compares with "1", warns and ignores) or whose value changes what the start can do, each with the
value classes that bite for it (FAMILIES below say which and why). Everything else in the 184 is left out: switches
read only as "== '1'" or a word list, c10 boolean flags that warn and ignore (fresh-151 e04), verbosity/log levels
that warn and fall back, debug/profiling/dump switches, TunableOp, JIT/TensorExpr (TorchScript, not used by a vLLM
start), Hub switches with no effect on a local model folder, and core-dump settings that act only on a crash.
THE DRAW: r = random.Random(2168); names = r.sample(sorted(BITES), 12). Then for each drawn condition in draw order:
u = r.random(); u < 1/6 -> "valid" (a healthy control, a value the reader takes), else r.choice(BITES[name]'s classes).
The concrete value per (condition, class) is VALUES below, written after the draw and before anything ran on the
device. "Not writable": the device runs as root, so a mode-000 folder is writable to it; a path under /proc (read-only
to new files) or a path whose parent is a plain file is what cannot be written.
Run order (fixed here, not by outcome): all twelve start side by side (16 cores, one GPU at 0.1 each) in draw order.
NOT RUN YET (stop 33, engineer fresh168): the bundle's six part calls began (p0..p4 landed in 5 calls), then the last
call (bash .gpu/run/gpu_fresh168_go.sh 480 p5 gpu_fresh168_requests.py .gpu/run/gpu-fresh168-cases.json LEFT 12 1.0
e01 .. e12) came back "the device machine was taken back for other work before the call finished", with no output;
the three fresh starts asked for after it (04:42, 04:59 and one refused at once) got no machine. Device time: status
1043 s at the start, 619 s at the end (424 s used, none of it producing a log). No log exists and no case was written:
a later session can run this draw unchanged (the values above were fixed before anything ran).
SECOND ATTEMPT (stop 33, fresh168 again, 05:07-05:25 UTC): the bundle was rebuilt exactly as above (build-bundle.sh
/work/main/.gpu 30: p0..p4 of 30 MiB, p5 of 7 MiB; .gpu/whl = the 23 kit wheels + the 13 API-server wheels, unpinned,
which resolved to fresh-151's versions; .gpu/run = gpu_fresh168_go.sh, gpu_serve_drive.py, gpu_fresh168_requests.py,
gpu-fresh168-cases.json; .gpu/models/gemma-3-1b/config.json). `status` allowed a try only at 05:20; the first part
call (carry .gpu/p0, timeout_s 90) was refused ("no device machine could be started right now ... in about 10 min"),
and that refusal cost 90 s of budget (619 -> 529 s: the call's timeout_s, not 15 s). The next try would have been
about 05:32, past the brief's 05:30 stop line, so nothing more was asked; /work/main/.gpu was removed. Still no log,
no case; the draw and its values stay unchanged for a later session (needs: 6 part calls back to back within the
30 s idle release, then the go call, about 185 s in fresh-151; ask with a small timeout_s on part calls).
"""

import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_JSON = os.path.join(HERE, "gpu-fresh168-cases.json")
CHECKPOINT = os.path.join(HERE, "..", "tests", "fixtures", "checkpoints", "gemma-3-1b-it", "config.json")
SOURCE = "huggingface.co/google/gemma-3-1b-it (tests/fixtures/checkpoints/gemma-3-1b-it/config.json)"
SEED = 2168
N = 12
BASE = ".gpu/models/gemma-3-1b"
FLAGS = ["--skip-tokenizer-init", "--load-format", "dummy", "--max-model-len", "4096"]
PARALLEL = ["--gpu-memory-utilization", "0.1", "--kv-cache-memory-bytes", "2147483648"]
BODY = {"prompt_len": 50, "max_tokens": 16, "model": BASE}
TIMEOUT = 400  # fresh-151: twelve starts side by side were all up in 108-119 s

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
CLASSES = None  # fresh-151's two classes are replaced by the per-family classes below

F151_DRAWN = [
    "TORCH_STRICT_PRECOMPILE", "PYTORCH_SKIP_CUDNN_COMPATIBILITY_CHECK", "TORCH_COMPILE_USE_LAZY_GRAPH_MODULE",
    "TORCH_SHOW_CPP_STACKTRACES", "HF_ASSETS_CACHE", "TRANSFORMERS_NO_ADVISORY_WARNINGS",
    "PYTORCH_CUDA_ALLOC_CONF:release_lock_on_cudamalloc", "TORCH_SERIALIZATION_DEBUG", "TRITON_OVERRIDE_DIR",
    "TRITON_KERNEL_OVERRIDE", "TORCH_COMPILE_GRAPH_FORMAT", "HF_HUB_DISABLE_SYMLINKS_WARNING",
]  # fmt: skip
UNIVERSE = [n for n in KEPT if n not in F151_DRAWN]

# family -> (its conditions, the value classes that bite for them, why they bite)
FAMILIES = {
    "devices": (
        ["CUDA_VISIBLE_DEVICES"],
        ["empty", "minus-one", "missing-index", "uuid-nothing", "mig-nothing"],
        "the driver enumerates only the devices the list names: a list naming none leaves the process no GPU",
    ),
    "alloc-number": (
        ["PYTORCH_CUDA_ALLOC_CONF:max_split_size_mb", "PYTORCH_CUDA_ALLOC_CONF:max_non_split_rounding_mb",
         "PYTORCH_CUDA_ALLOC_CONF:garbage_collection_threshold", "PYTORCH_CUDA_ALLOC_CONF:roundup_power2_divisions",
         "PYTORCH_CUDA_ALLOC_CONF:pinned_num_register_threads",
         "PYTORCH_CUDA_ALLOC_CONF:pinned_reserve_segment_size_mb",
         "PYTORCH_CUDA_ALLOC_CONF:per_process_memory_fraction"],
        ["malformed", "out-of-range"],
        "c10's allocator config parser TORCH_CHECKs each option's number (a word, or a value out of its range)",
    ),
    "alloc-bool": (
        ["PYTORCH_CUDA_ALLOC_CONF:expandable_segments", "PYTORCH_CUDA_ALLOC_CONF:pinned_use_background_threads",
         "PYTORCH_CUDA_ALLOC_CONF:pinned_use_cuda_host_register",
         "PYTORCH_CUDA_ALLOC_CONF:graph_capture_record_stream_reuse", "PYTORCH_CUDA_ALLOC_CONF:backend"],
        ["malformed"],
        "c10's allocator config parser TORCH_CHECKs True/False (backend: native/cudaMallocAsync)",
    ),
    "alloc-whole": (
        ["PYTORCH_CUDA_ALLOC_CONF", "PYTORCH_ALLOC_CONF"],
        ["unknown-key", "malformed"],
        "c10's allocator config parser TORCH_CHECKs each key it meets and the key:value form",
    ),
    "cuda-switch": (
        ["CUDA_MODULE_LOADING", "CUDA_MODULE_DATA_LOADING", "CUDA_DEVICE_MAX_CONNECTIONS",
         "CUDA_DEVICE_MAX_COPY_CONNECTIONS", "CUDA_LAUNCH_BLOCKING", "CUDA_SCALE_LAUNCH_QUEUES", "CUDA_DEVICE_ORDER",
         "CUDA_AUTO_BOOST", "CUDA_GRAPHS_USE_NODE_PRIORITY", "CUDA_DEVICE_WAITS_ON_EXCEPTION", "CUDA_CACHE_DISABLE",
         "CUDA_CACHE_MAXSIZE", "CUDA_MANAGED_FORCE_DEVICE_ALLOC"],
        ["bad-value"],
        "read by the CUDA driver at cuInit (and by torch/c10 for CUDA_MODULE_LOADING and CUDA_LAUNCH_BLOCKING): a "
        "word where it takes a number or one of its words",
    ),
    "cuda-jit": (
        ["CUDA_FORCE_PTX_JIT", "CUDA_FORCE_JIT", "CUDA_DISABLE_PTX_JIT", "CUDA_DISABLE_JIT"],
        ["on"],
        "1 changes which of a library's kernel images the driver may load (forced JIT from PTX / no JIT)",
    ),
    "cache-dir": (
        ["TRITON_CACHE_DIR", "TRITON_HOME", "HF_HOME", "HF_HUB_CACHE", "HF_MODULES_CACHE", "CUDA_CACHE_PATH",
         "PYTORCH_KERNEL_CACHE_PATH"],
        ["under-proc", "on-a-file"],
        "a folder the start may create or write (compiled kernels, the Hub's caches, the driver's JIT cache)",
    ),
    "tool-path": (
        ["TRITON_PTXAS_PATH", "TRITON_LIBDEVICE_PATH", "TRITON_CUDART_PATH", "TRITON_CUDACRT_PATH",
         "TRITON_LIBCUDA_PATH"],
        ["points-at-nothing"],
        "where Triton finds ptxas, libdevice, the CUDA runtime headers or libcuda to build a kernel",
    ),
    "switch-changes-start": (
        ["PYTORCH_NO_CUDA_MEMORY_CACHING", "TRITON_INTERPRET", "TRITON_OVERRIDE_ARCH", "OMP_NUM_THREADS"],
        ["bad-value", "on"],
        "the caching allocator off, Triton's CPU interpreter on, Triton compiling for another arch; OMP_NUM_THREADS "
        "refused by libgomp / torch",
    ),
    "ulimit": (
        ["ulimit -n", "ulimit -l", "ulimit -s", "ulimit -v"],
        ["too-small"],
        "a limit too small for a start: open files, locked memory, stack, virtual memory",
    ),
}  # fmt: skip
BITES = {n: classes for names, classes, _ in FAMILIES.values() for n in names}
FAMILY_OF = {n: fam for fam, (names, _, _) in FAMILIES.items() for n in names}
assert all(n in UNIVERSE for n in BITES), [n for n in BITES if n not in UNIVERSE]


def draw_classes():
    r = random.Random(SEED)
    names = r.sample(sorted(BITES), N)
    out = []
    for name in names:
        u = r.random()
        cls = "valid" if u < 1 / 6 else r.choice(BITES[name])
        out.append((name, cls, u))
    return out


# Written after the draw and before anything ran on the device: the concrete value per drawn (condition, class), from
# the reader's own code where it could be read (this machine's torch/triton copies; CUDA's documentation for the
# driver's variables): (environment or shell limit, why). No condition drew "valid" (no u < 1/6): the batch has no
# healthy control by the draw. Draw 9 (TRITON_INTERPRET, class bad-value) is a flaw of the family list, seen only after
# the draw and left as drawn: triton and torch read it as a boolean ("1"/on/true), so a bad value reads as off.
A_FILE = "/tmp/f168-a-file"  # a plain file, made by tools/gpu_fresh168_go.sh before the servers start
VALUES = {
    # CUDA driver: CUDA_DEVICE_ORDER takes FASTEST_FIRST (default) or PCI_BUS_ID
    ("CUDA_DEVICE_ORDER", "bad-value"): (
        {"CUDA_DEVICE_ORDER": "PCI_BUS"},
        "'PCI_BUS', a near miss of PCI_BUS_ID (the driver takes FASTEST_FIRST or PCI_BUS_ID)",
    ),
    # c10/cuda/CUDACachingAllocator: PYTORCH_NO_CUDA_MEMORY_CACHING set -> every allocation straight to cudaMalloc
    ("PYTORCH_NO_CUDA_MEMORY_CACHING", "on"): (
        {"PYTORCH_NO_CUDA_MEMORY_CACHING": "1"},
        "1: torch's caching allocator off (every tensor a cudaMalloc/cudaFree; CUDA graph capture needs the pool)",
    ),
    # bash's ulimit -v (KiB) in the server's shell: the CUDA driver reserves far more virtual address space than 16 GiB
    ("ulimit -v", "too-small"): (
        {"ulimit": "ulimit -v 16777216"},
        "virtual memory 16 GiB (16777216 KiB): enough to import torch, too small for the CUDA driver's reservations",
    ),
    # CUDA driver: a MIG instance is named MIG-<UUID>; this one matches no instance (the H200 is not in MIG mode)
    ("CUDA_VISIBLE_DEVICES", "mig-nothing"): (
        {"CUDA_VISIBLE_DEVICES": "MIG-5f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b"},
        "a MIG-style name (MIG-<UUID>) that matches no MIG instance on a host with none",
    ),
    # CUDA driver: CUDA_DEVICE_MAX_COPY_CONNECTIONS takes a number of copy connections
    ("CUDA_DEVICE_MAX_COPY_CONNECTIONS", "bad-value"): (
        {"CUDA_DEVICE_MAX_COPY_CONNECTIONS": "eight"},
        "'eight', a word where the driver takes a number",
    ),
    # huggingface_hub/constants.py: HF_HOME roots the Hub cache, the token file and the assets cache
    ("HF_HOME", "on-a-file"): (
        {"HF_HOME": A_FILE},
        "a plain file where a folder is expected",
    ),
    # transformers/utils/hub.py: HF_MODULES_CACHE is where remote-code modules are copied (init_hf_modules makes it)
    ("HF_MODULES_CACHE", "on-a-file"): (
        {"HF_MODULES_CACHE": A_FILE + "/modules"},
        "a folder under a plain file (its parent is a file: it can be neither made nor written)",
    ),
    # CUDA driver: CUDA_FORCE_PTX_JIT=1 ignores embedded binary code and JIT-compiles each kernel's PTX
    ("CUDA_FORCE_PTX_JIT", "on"): (
        {"CUDA_FORCE_PTX_JIT": "1"},
        "1: the driver JIT-compiles PTX for every kernel and refuses kernels shipped without PTX",
    ),
    # triton (C++ getenv_bool: on/true/1, off/false/0) and torch/_inductor (== "1")
    ("TRITON_INTERPRET", "bad-value"): (
        {"TRITON_INTERPRET": "yes"},
        "'yes', a word the boolean readers do not take (triton: on/true/1; torch: == '1'): read as off",
    ),
    # libgomp parses OMP_NUM_THREADS as a list of positive numbers; torch's set_num_threads needs a positive number
    ("OMP_NUM_THREADS", "bad-value"): (
        {"OMP_NUM_THREADS": "four"},
        "'four', a word where OpenMP takes a positive number",
    ),
    # c10 CUDAAllocatorConfig::parsePinnedNumRegisterThreads: a power of 2, at most 128
    ("PYTORCH_CUDA_ALLOC_CONF:pinned_num_register_threads", "out-of-range"): (
        {"PYTORCH_CUDA_ALLOC_CONF": "pinned_num_register_threads:256"},
        "256, a power of two over the parser's limit of 128",
    ),
    # c10 AcceleratorAllocatorConfig: expandable_segments takes True or False
    ("PYTORCH_CUDA_ALLOC_CONF:expandable_segments", "malformed"): (
        {"PYTORCH_CUDA_ALLOC_CONF": "expandable_segments:yes"},
        "'yes' where the parser takes True or False",
    ),
}


def make_case(name, cls):
    env, why = VALUES[(name, cls)]
    env = dict(env)
    ulimit = env.pop("ulimit", None)
    c = {"args": [BASE, *FLAGS, *PARALLEL], "env": env, "timeout": TIMEOUT, "need": 200, "mem": 0.08,
         "steps": [{"post": "/v1/completions", "body": dict(BODY)}], "cost": "start",
         "var": name, "family": FAMILY_OF[name], "source_of_name": CONDS[name], "class": cls, "value_why": why}  # fmt: skip
    if ulimit:
        c["ulimit"] = ulimit
    return c


def draw():
    cases = {}
    for i, (name, cls, u) in enumerate(draw_classes(), 1):
        key = f"e{i:02d}"
        cases[key] = make_case(name, cls)
        cases[key]["draw"] = f"draw {i}: {name}: {cls} (u={u:.3f})"
    why = ("fresh-168 doctor-corpus cases (tools/gpu_fresh168_draw.py wrote this file; tools/gpu_fresh168_requests.py "
           "runs them on real vLLM 0.26.0 'vllm serve', one H200, side by side, via ../shared/gpu). Drawn, not "
           "chosen: see the draw script's docstring. The base model's config.json is google/gemma-3-1b-it's as "
           "published.")  # fmt: skip
    return {"why": why, "seed": SEED, "conditions": len(CONDS), "kept": len(KEPT), "universe": len(UNIVERSE),
            "bites": len(BITES), "source": SOURCE, "order": list(cases), "cases": cases}  # fmt: skip


if __name__ == "__main__" and sys.argv[1:] == ["--draw-only"]:
    print(
        f"{len(CONDS)} conditions, {len(DROPPED)} dropped, {len(KEPT)} kept, {len(UNIVERSE)} not drawn by fresh-151, "
        f"{len(BITES)} in BITES"
    )
    for i, (name, cls, u) in enumerate(draw_classes(), 1):
        print(i, name, FAMILY_OF[name], cls, f"u={u:.3f}")
    sys.exit(0)


if __name__ == "__main__":
    out = draw()
    with open(CHECKPOINT) as f:
        out["base_config"] = json.load(f)
    with open(OUT_JSON, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    for k in out["order"]:
        c = out["cases"][k]
        print(k, c["draw"], c["env"], c.get("ulimit", ""))
