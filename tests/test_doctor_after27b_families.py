"""What the scored batches fresh-40 (public vLLM threads), fresh-41 (public llama.cpp threads) and fresh-43 (public
Q&A and blog pages) taught after they were scored: one family added or widened per miss, and the `context_pattern`
mechanism (a wording that counts only where the log shows its own context literal).

Each log is written in ANOTHER wording than its corpus log (another program, package, version, function or path), so
the test checks the class of wording, not the one line it was learnt from; the near misses check what must not match.
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

PIP_BUILD_DEPS = (
    "  Installing build dependencies ... error\n"
    "  error: subprocess-exited-with-error\n"
    "  \u00d7 pip subprocess to install build dependencies did not run successfully.\n"
    "  \u2502 exit code: 1\n"
    "  \u2570\u2500> [4 lines of output]\n"
)

CASES = [
    # pip-no-release-for-this-python (public-vllm-030-pip-build-deps-torch-212-python312, vllm#2695): another package's
    # build dependencies (an old scikit-learn sdist pinning numpy==1.19.5, which has no wheel for Python 3.10)
    (
        "pip-no-release-for-this-python",
        PIP_BUILD_DEPS
        + "      ERROR: Could not find a version that satisfies the requirement numpy==1.19.5 (from versions: 1.21.2, "
        "1.21.3, 1.21.4)\n"
        "      ERROR: No matching distribution found for numpy==1.19.5\n",
    ),
    # build-no-host-compiler (public-llama-cpp-python-windows-pip-no-msvc-nmake): a plain `cmake -B build` of llama.cpp
    # on Windows, another CMake's wording of nmake's failure, the CXX line only
    (
        "build-no-host-compiler",
        "-- Building for: NMake Makefiles\n"
        "CMake Error at CMakeLists.txt:1 (project):\n"
        "  Running\n\n   'nmake' '-?'\n\n  failed with:\n\n   The system cannot find the file specified\n\n"
        "CMake Error: CMAKE_CXX_COMPILER not set, after EnableLanguage\n"
        "-- Configuring incomplete, errors occurred!\n",
    ),
    # host-memory-exhausted (public-vllm-safetensors-mmap-cannot-allocate-memory): torch's MapAllocator under
    # torch.load(mmap=True) of a .bin checkpoint, strerror with its errno number
    (
        "host-memory-exhausted",
        "RuntimeError: unable to mmap 9976576152 bytes from file </models/llama-2-13b/pytorch_model-00001-of-00003.bin>: "
        "Cannot allocate memory (12)\n",
    ),
    # request-longer-than-context (public-vllm-lm-eval-v1-prompt-equals-max-model-len, ...-llamafactory-...): another
    # caller's log prefix and numbers, and SGLang's / OpenAI-compatible gateways' wording of the same refusal
    (
        "request-longer-than-context",
        "ERROR 04-14 09:12:55 [async_llm.py:403] ValueError: Prompt length of 8193 is longer than the maximum model "
        "length of 8192.\n",
    ),
    (
        "request-longer-than-context",
        "ValueError: The input (131123 tokens) is longer than the model's context length (131072 tokens).\n",
    ),
    # vllm-stale-compiled-extension (public-vllm-qwen2vl-branch-custom-op-gelu-quick-missing): another op and namespace,
    # an editable checkout under /opt
    (
        "vllm-stale-compiled-extension",
        "ERROR 11-04 22:26:53 _custom_ops.py:63] Error in calling custom op reshape_and_cache: '_OpNamespace' "
        "'_C_cache_ops' object has no attribute 'reshape_and_cache'\n"
        "ERROR 11-04 22:26:53 _custom_ops.py:63] Possibly you have built or installed an obsolete version of vllm.\n"
        "Traceback (most recent call last):\n"
        '  File "/opt/src/vllm/vllm/worker/cache_engine.py", line 91, in swap_in\n',
    ),
    # unknown-architecture (public-llama-convert-hf-*-arch-not-supported): another architecture -- since learn41c the
    # converter's logged refusal is convert-architecture-name-invalid's (a newer model is one of its readings)
    ("convert-architecture-name-invalid", "ERROR:hf-to-gguf:Model Qwen3NextForCausalLM is not supported\n"),
    # cuda-kernel-fault (public-llama-server-cuda-unspecified-launch-failure-q4k-mmq): a later ggml-cuda's wording,
    # another function
    (
        "cuda-kernel-fault",
        "CUDA error: unspecified launch failure\n"
        "  current device: 1, in function ggml_backend_cuda_synchronize at ggml/src/ggml-cuda/ggml-cuda.cu:2415\n"
        "  cudaStreamSynchronize(cuda_ctx->stream())\n"
        'GGML_ASSERT: ggml/src/ggml-cuda/ggml-cuda.cu:101: !"CUDA error"\n',
    ),
    # cpu-illegal-instruction (public-llama-cpp-python-*-0xc000001d-*): Ollama's runner on Windows, an IDE's exit code
    ("cpu-illegal-instruction", "Error: llama runner process has terminated: exit status 0xc000001d\n"),
    ("cpu-illegal-instruction", "Process finished with exit code -1073741795\n"),
    # llamacpp-no-backends-loaded (public-llama-cli-no-cpu-backend-found): llama.cpp's tools' own check
    ("llamacpp-no-backends-loaded", "main: error: CPU backend is not loaded\n"),
    # k8s-insufficient-gpu (public-vllm-k8s-pod-pending-insufficient-nvidia-gpu): the describe output's event
    (
        "k8s-insufficient-gpu",
        "  Warning  FailedScheduling  12s  default-scheduler  0/1 nodes are available: insufficient nvidia.com/gpu. "
        "preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.\n",
    ),
]

# wordings that must NOT take the family: the same shape for another cause
NEAR_MISSES = [
    # a pin the user typed (no build-dependency step) may be a typo or an unpublished release
    (
        "pip-no-release-for-this-python",
        "ERROR: Could not find a version that satisfies the requirement vllm==0.99.0 (from versions: 0.10.0, 0.11.0)\n"
        "ERROR: No matching distribution found for vllm==0.99.0\n",
    ),
    # make missing under Unix Makefiles prints the same 'not set' with the compiler installed
    (
        "build-no-host-compiler",
        'CMake Error: CMake was unable to find a build program corresponding to "Unix Makefiles".  CMAKE_MAKE_PROGRAM '
        "is not set.  You probably need to select a different build tool.\n"
        "CMake Error: CMAKE_C_COMPILER not set, after EnableLanguage\n",
    ),
    # llama.cpp's mlock ENOMEM is RLIMIT_MEMLOCK, not RAM
    (
        "host-memory-exhausted",
        "warning: failed to mlock 4165203968-byte buffer (after previously locking 0 bytes): Cannot allocate memory (12)\n",
    ),
    # an installed wheel's frames: the obsolete-build line also follows a wheel built for another torch
    (
        "vllm-stale-compiled-extension",
        "ERROR 09-02 10:43:54 _custom_ops.py:37] Possibly you have built or installed an obsolete version of vllm.\n"
        '  File "/venv/lib/python3.10/site-packages/vllm/model_executor/layers/activation.py", line 99, in forward\n',
    ),
    # an access violation (0xc0000005) is no illegal instruction
    ("cpu-illegal-instruction", "OSError: [WinError -1073741819] Windows Error 0xc0000005\n"),
    # PyInstaller's line is no systemd unit
    ("systemd-exec-failed", "[PYI-4120:ERROR] Failed to execute script 'app' due to unhandled exception!\n"),
    # another resource than the GPU
    ("k8s-insufficient-gpu", "0/3 nodes are available: insufficient cpu.\n"),
]


test_the_family_names_the_cause, test_a_near_miss_is_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_a_user_typed_pin_stays_a_version_not_found():
    top = top_cause(run("ERROR: No matching distribution found for vllm==0.99.0\n"))
    assert top is not None and top.id == "pip-version-not-found"


def test_a_real_internal_check_stays_an_assert():
    top = top_cause(run("GGML_ASSERT: ggml.c:4785: ggml_can_mul_mat(a, b)\n"))
    assert top is not None and top.id == "llamacpp-assert"


def test_a_context_wording_counts_only_with_its_context():
    """The mechanism: the same line is the entry's with its context literal in the log and nothing without it."""
    line = "CMake Error: CMAKE_C_COMPILER not set, after EnableLanguage\n"
    alone = top_cause(run(line))
    assert alone is None or alone.id != "build-no-host-compiler"
    with_context = top_cause(run("-- Building for: NMake Makefiles\n" + line))
    assert with_context is not None and with_context.id == "build-no-host-compiler"
