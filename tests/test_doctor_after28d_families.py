"""What the scored batches fresh-54 (public llama.cpp-family threads sampled by hardware, OS and model) and fresh-57
(sampled by feature and flag) taught after they were scored: one family widened or added per miss.

Each log is written in ANOTHER wording than its corpus log (another OS, program, version or code path, from the
programs' own texts), so the test checks the class of wording, not the one line it was learnt from; the near misses
check what must not match.
"""

from __future__ import annotations

from tests.doctor_text import assert_named, family_tests

CASES = [
    # port-in-use (public-llama-ollama-windows-serve-port-11434-already-bound): Windows' WSAEADDRINUSE text as uvicorn
    # prints a failed bind under Python (vLLM's API server on Windows/WSL-less installs), and as Go's net package
    # prints it for llama-swap's listener
    (
        "port-in-use",
        "INFO:     Started server process [10432]\n"
        "ERROR:    [Errno 10048] error while attempting to bind on address ('0.0.0.0', 8000): only one usage of each "
        "socket address (protocol/network address/port) is normally permitted\n",
    ),
    (
        "port-in-use",
        "listen tcp :8080: bind: Only one usage of each socket address (protocol/network address/port) is normally "
        "permitted.\n",
    ),
    # peer-connection-refused (public-llama-ollama-windows-could-not-connect-to-ollama-app): the Ollama CLI's Linux
    # wording (cmd/start_default.go), and Windows' WSAECONNREFUSED as Python and Go print it
    (
        "peer-connection-refused",
        "Error: could not connect to ollama server, run 'ollama serve' to start it\n",
    ),
    (
        "peer-connection-refused",
        "ConnectionRefusedError: [WinError 10061] No connection could be made because the target machine actively "
        "refused it\n",
    ),
    (
        "peer-connection-refused",
        'Error: Head "http://127.0.0.1:11434/": dial tcp 127.0.0.1:11434: connectex: No connection could be made '
        "because the target machine actively refused it.\n",
    ),
    # chat-template-invalid (public-llama-minja-break-keyword-command-r7b): another of minja's parse errors with its
    # location suffix, as llama-server's uncaught exception at start
    (
        "chat-template-invalid",
        "terminate called after throwing an instance of 'std::runtime_error'\n"
        "  what():  Expected closing block tag at row 41, column 3:\n"
        "{%- if tools %}\n"
        "  ^\n"
        "Aborted (core dumped)\n",
    ),
    # runner-unsupported-by-model (public-llama-server-embedding-model-as-m-missing-result-output): the same check
    # under llama-cpp-python's server (another program and build: llama.cpp's line number, no llama-server)
    (
        "runner-unsupported-by-model",
        "llama_new_context_with_model: n_ctx      = 2048\n"
        "llama_new_context_with_model:        CPU compute buffer size =    12.00 MiB\n"
        "GGML_ASSERT: /tmp/pip-install-q1/llama-cpp-python/vendor/llama.cpp/llama.cpp:11025: "
        'strcmp(res->name, "result_output") == 0 && "missing result_output tensor"\n',
    ),
    # llamacpp-gpu-listed-but-not-used (public-llama-win11-b9049-cuda-no-usable-gpu-layers-ignored): the GPU shown by
    # the CUDA backend's own device line (Linux) and by ggml_vulkan's, with the older 'not compiled' warning
    (
        "llamacpp-gpu-listed-but-not-used",
        "ggml_cuda_init: found 1 CUDA devices:\n"
        "  Device 0: NVIDIA GeForce RTX 3090, compute capability 8.6, VMM: yes\n"
        "warning: no usable GPU found, --gpu-layers option will be ignored\n"
        "warning: one possible reason is that llama.cpp was compiled without GPU support\n",
    ),
    (
        "llamacpp-gpu-listed-but-not-used",
        "ggml_vulkan: Found 1 Vulkan devices:\n"
        "ggml_vulkan: 0 = AMD Radeon RX 7900 XTX (RADV NAVI31) (radv) | uma: 0 | fp16: 1 | warp size: 64\n"
        "warning: not compiled with GPU offload support, --n-gpu-layers option will be ignored\n",
    ),
    # gguf-split-merge-output-is-a-part (public-llama-gguf-split-merge-glob-overwrites-second-part): a two-part split,
    # the overwritten part left empty, the newer gguf reader's wording ('failed to read magic')
    (
        "gguf-split-merge-output-is-a-part",
        "gguf_merge: Qwen2.5-72B-Instruct-Q4_K_M-00001-of-00002.gguf -> Qwen2.5-72B-Instruct-Q4_K_M-00002-of-00002.gguf\n"
        "gguf_merge: reading metadata Qwen2.5-72B-Instruct-Q4_K_M-00001-of-00002.gguf done\n"
        "gguf_merge: reading metadata Qwen2.5-72B-Instruct-Q4_K_M-00002-of-00002.gguf ..."
        "gguf_init_from_file_impl: failed to read magic\n"
        "\n"
        "gguf_merge:  failed to load input GGUF from Qwen2.5-72B-Instruct-Q4_K_M-00001-of-00002.gguf\n",
    ),
    # llamacpp-build-predates-tool-calls (public-llama-server-unsupported-param-tools): the other refused parameter,
    # as the openai client raises the 500
    (
        "llamacpp-build-predates-tool-calls",
        "openai.InternalServerError: Error code: 500 - {'error': {'code': 500, 'message': 'Unsupported param: "
        "tool_choice', 'type': 'server_error'}}\n",
    ),
    # request-tool-field-wrong-type (public-llama-server-tools-description-null-500): vLLM's pydantic refusal of the
    # same null description (HTTP 400, another engine), and llama-server's for parameters sent as a string
    (
        "request-tool-field-wrong-type",
        "openai.BadRequestError: Error code: 400 - {'object': 'error', 'message': \"[{'type': 'string_type', "
        "'loc': ('body', 'tools', 0, 'function', 'description'), 'msg': 'Input should be a valid string', 'input': "
        "None}]\", 'type': 'BadRequestError', 'param': None, 'code': 400}\n",
    ),
    (
        "request-tool-field-wrong-type",
        'srv  log_server_r: response: {"error":{"code":500,"message":"Failed to parse tools: '
        '[json.exception.type_error.302] type must be object, but is string; tools = []","type":"server_error"}}\n',
    ),
    # shared-library-built-for-other-cpu-arch (public-llama-cpp-python-m2-libllama-dylib-x86-64-need-arm64): glibc's
    # dlopen of a 32-bit library in a 64-bit Python, and an older dyld's wording (ctypes' OSError)
    (
        "shared-library-built-for-other-cpu-arch",
        "OSError: /opt/llm/lib/python3.11/site-packages/llama_cpp/lib/libllama.so: wrong ELF class: ELFCLASS32\n",
    ),
    (
        "shared-library-built-for-other-cpu-arch",
        "OSError: dlopen(/Users/me/venv/lib/python3.10/site-packages/llama_cpp/libllama.dylib, 6): no suitable image "
        "found.  Did find:\n"
        "\t/Users/me/venv/lib/python3.10/site-packages/llama_cpp/libllama.dylib: mach-o, but wrong architecture\n",
    ),
]

NEAR_MISSES = [
    # a client out of ephemeral ports prints the same Windows text without any bind: not a port held by a server
    (
        "port-in-use",
        "System.Net.Http.HttpRequestException: Only one usage of each socket address (protocol/network address/port) "
        "is normally permitted\n",
    ),
    # the CUDA backend loaded but saw no device: the warning is then true (llamacpp-no-gpu's, the driver or the GPU)
    (
        "llamacpp-gpu-listed-but-not-used",
        "ggml_cuda_init: failed to initialize CUDA: no CUDA-capable device is detected\n"
        "warning: no usable GPU found, --gpu-layers option will be ignored\n",
    ),
    # a merge into a new file whose second part is really damaged is a bad GGUF, not an overwritten part
    (
        "gguf-split-merge-output-is-a-part",
        "gguf_merge: model-00001-of-00003.gguf -> model.gguf\n"
        "gguf_merge: reading metadata model-00002-of-00003.gguf ...gguf_init_from_file_impl: invalid magic "
        "characters: 'HTML', expected 'GGUF'\n",
    ),
    # the parameters current builds refuse for good are not a missing tool-call support
    (
        "llamacpp-build-predates-tool-calls",
        '{"error":{"code":500,"message":"Unsupported param: echo","type":"server_error"}}\n',
    ),
    # a missing library is not one of another architecture
    (
        "shared-library-built-for-other-cpu-arch",
        "RuntimeError: Failed to load shared library '/app/libllama.so': libcuda.so.1: cannot open shared object "
        "file: No such file or directory\n",
    ),
    # another parser's row/column message that is not minja's (no trailing ':' and template lines)
    ("chat-template-invalid", "csv.Error: Unexpected quote at row 12, column 4 in models.csv\n"),
]


test_the_family_names_the_cause, test_a_near_miss_is_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_no_gpu_stays_when_no_device_is_listed():
    """Without a device line, 'no usable GPU found' keeps its reading: a build or machine without a GPU."""
    assert_named("llamacpp-no-gpu", "warning: no usable GPU found, --gpu-layers option will be ignored\n")


def test_a_merge_over_a_real_bad_part_stays_a_bad_gguf():
    assert_named(
        "llamacpp-bad-gguf",
        "gguf_merge: model-00001-of-00003.gguf -> model.gguf\n"
        "gguf_init_from_file_impl: invalid magic characters: 'HTML', expected 'GGUF'\n",
    )
