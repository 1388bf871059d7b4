"""What the scored batch fresh-168 (the environment around vLLM that is not vLLM's own, 2nd round: CUDA / PyTorch /
Triton variables and process limits, real vLLM 0.26.0 on an H200) taught after scoring, with each miss's neighbourhood.

- cuda-driver-env-value-invalid: torch's 'cudaGetDeviceCount() ... Error 101: invalid device ordinal' (the first CUDA
  call, no index) at 0.60, naming CUDA_DEVICE_ORDER / CUDA_VISIBLE_DEVICES; an index the engine used stays
  cuda-invalid-device-ordinal's.
- address-space-limit-too-small: a hint (0.55) on 'cudaGetDeviceCount() ... Error 2: out of memory' (cuInit's address
  space reservation under ulimit -v); a CUDA OOM of an allocation is not it.
- cuda-visible-devices-unknown-id: vLLM's platforms/cuda.py int() of a GPU-/MIG- entry with NVML's Not Found.
- cuda-force-ptx-jit-set: 'no kernel image' where the log shows CUDA_FORCE_PTX_JIT=1; no-kernel-image answers below
  0.70 when the missing image is the worker's first kernel (init_device).
- pytorch-cuda-alloc-conf-invalid: c10's AllocatorConfig / CUDAAllocatorConfig refusals (strings of libc10.so).
- triton-interpreter-env-on: Triton's InterpretedFunction in place of a JITFunction, and what the interpreter refuses;
  its InterpreterError only as a hint.
- triton-env-value-invalid: Triton 3.9 knobs.py's refusals of a TRITON_* int or MODULE:CLASS value.
Messages marked 'rendered' are the source's format string filled with a value; the others are as a log showed them.
"""

from __future__ import annotations

from tests.doctor_text import assert_named, family_tests, run, top_cause

CORE = "(EngineCore_DP0 pid=4242) ERROR 01-02 10:00:00 [core.py:708] "
DEVCOUNT = (
    "RuntimeError: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling "
    "NumCudaDevices() that might have already set an error? Error {}\n"
)

CASES = [
    # torch's device count in a plain Python start, not vLLM's (rendered)
    (
        "cuda-driver-env-value-invalid",
        '  File "x.py", line 3, in <module>\n' + DEVCOUNT.format("101: invalid device ordinal"),
    ),
    # the same first call refused for address space (rendered; vLLM worker prefix)
    ("address-space-limit-too-small", CORE + DEVCOUNT.format("2: out of memory")),
    # a GPU- UUID that NVML does not know (rendered from platforms/cuda.py's int() and pynvml)
    (
        "cuda-visible-devices-unknown-id",
        "ValueError: invalid literal for int() with base 10: 'GPU-0a1b2c3d-0000-1111-2222-333344445555'\n"
        "During handling of the above exception, another exception occurred:\n"
        "pynvml.NVMLError_NotFound: Not Found\n",
    ),
    # CUDA_FORCE_PTX_JIT shown in the log (a wrapper's env dump), the driver's own code name
    (
        "cuda-force-ptx-jit-set",
        "+ export CUDA_FORCE_PTX_JIT=1\nRuntimeError: CUDA error: no kernel image is available for execution on the "
        "device\n",
    ),
    # c10/core/AllocatorConfig.cpp (rendered): other options' refusals
    (
        "pytorch-cuda-alloc-conf-invalid",
        "RuntimeError: CachingAllocator option max_split_size_mb too small, must be >= 20\n",
    ),
    (
        "pytorch-cuda-alloc-conf-invalid",
        "RuntimeError: garbage_collect_threshold is invalid, set it in (0.0, 1.0)\n",
    ),
    (
        "pytorch-cuda-alloc-conf-invalid",
        "RuntimeError: For roundups, the divisions has to be power of 2 or 0 to disable roundup \n",
    ),
    ("pytorch-cuda-alloc-conf-invalid", "ValueError: Expected ':' in ConfigTokenizer but got 'True'\n"),
    (
        "pytorch-cuda-alloc-conf-invalid",
        "RuntimeError: Unrecognized key 'expandable_segment' in Accelerator allocator config.\n",
    ),
    (
        "pytorch-cuda-alloc-conf-invalid",
        "ValueError: Number of register threads has to be power of 2, got 6\n",
    ),
    # Triton's interpreter refusing what it cannot run (runtime/interpreter.py)
    (
        "triton-interpreter-env-on",
        '  File "/x/triton/runtime/interpreter.py", line 875, in inline_asm\n'
        "NotImplementedError: inline_asm not supported in interpreter mode\n",
    ),
    (
        "triton-interpreter-env-on",
        "AttributeError: 'InterpretedFunction' object has no attribute 'cache'\n",
    ),
]

CASES += [
    # Triton 3.9 knobs.py env_int / env_class refusals (rendered)
    ("triton-env-value-invalid", "RuntimeError: Unable to use TRITON_REDIS_PORT=six: expected int\n"),
    (
        "triton-env-value-invalid",
        "RuntimeError: Unable to read TRITON_CACHE_MANAGER: 'mycache' isn't of the form MODULE:CLASS\n",
    ),
    (
        "triton-env-value-invalid",
        "RuntimeError: Unable to use 'a.b:C' from TRITON_REMOTE_CACHE_BACKEND: not of type 'RemoteCacheBackend'\n",
    ),
]

NEAR_MISSES = [
    # a vLLM variable's int() refusal is not Triton's
    ("triton-env-value-invalid", "ValueError: invalid literal for int() with base 10: 'six'\n"),
    # an index the engine used (set_device) is cuda-invalid-device-ordinal's, not the driver's environment
    ("cuda-driver-env-value-invalid", "RuntimeError: CUDA error: invalid device ordinal\n"),
    # an allocation's CUDA OOM is not an address-space limit
    (
        "address-space-limit-too-small",
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.10 GiB\n",
    ),
    # a UUID in the int() error without NVML's Not Found is not named
    (
        "cuda-visible-devices-unknown-id",
        "ValueError: invalid literal for int() with base 10: 'GPU-0a1b2c3d'\n",
    ),
    # no kernel image without the variable in the log stays no-kernel-image's
    (
        "cuda-force-ptx-jit-set",
        "RuntimeError: CUDA error: no kernel image is available for execution on the device\n",
    ),
    # another ConfigTokenizer-free ValueError (a sampling limit) is not the allocator's
    ("pytorch-cuda-alloc-conf-invalid", "ValueError: max_tokens must be at least 1, got 0.\n"),
    # Triton's JIT compile failure is not the interpreter
    ("triton-interpreter-env-on", "triton.compiler.errors.CompilationError: at 1:0: def kernel(x):\n"),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_bare_no_kernel_image_stays_confident():
    """A bare 'no kernel image' (public threads' excerpts) keeps no-kernel-image at its confidence."""
    top = top_cause(
        run("RuntimeError: CUDA error: no kernel image is available for execution on the device\n")
    )
    assert top.id == "no-kernel-image" and top.confidence >= 0.7


def test_no_kernel_image_at_first_kernel_is_below_confident():
    """The worker's first kernel (init_device) cannot tell a build without this arch from CUDA_FORCE_PTX_JIT."""
    log = (
        '  File "/x/vllm/v1/worker/worker_base.py", line 331, in init_device\n'
        "torch.AcceleratorError: CUDA error: no kernel image is available for execution on the device\n"
    )
    top = top_cause(run(log))
    assert top.id == "no-kernel-image" and top.confidence < 0.7 and "CUDA_FORCE_PTX_JIT" in top.cause


def test_interpreter_error_is_a_hint():
    """InterpreterError shows the interpreter ran, not that the variable alone broke the kernel: below 0.70."""
    top = top_cause(run("triton.runtime.interpreter.InterpreterError: ValueError('x >= grid_dim[0]')\n"))
    assert top.id == "triton-interpreter-env-on" and top.confidence < 0.7


def test_driver_env_hides_the_index_family():
    assert_named("cuda-driver-env-value-invalid", DEVCOUNT.format("101: invalid device ordinal"))
