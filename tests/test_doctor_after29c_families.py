"""What the scored batch fresh-73 (public llama.cpp-family threads sampled by the user's task) taught after it was
scored: one family added or widened per miss.

Each log is written in ANOTHER wording than its corpus log (another program, compiler, client or log format), so the
test checks the class of wording, not the one line it was learnt from; the near misses check what must not match.
"""

from __future__ import annotations

from tests.doctor_text import assert_named, family_tests, run, top_cause

OPENAI_401 = (
    "openai.AuthenticationError: Error code: 401 - {{'error': {{'message': 'Incorrect API key provided: {key}. You can "
    "find your API key at https://platform.openai.com/account/api-keys.', 'type': 'invalid_request_error', 'param': "
    "None, 'code': 'invalid_api_key'}}}}\n"
)
CUDA_FOUND = (
    "ggml_cuda_init: found 1 CUDA devices:\n"
    "  Device 0: NVIDIA GeForce RTX 4090, compute capability 8.9, VMM: yes\n"
)

CASES = [
    # file-offset-overflow-32-bit (public-llama-rpi-32bit-gguf-open-value-too-large, llama.cpp#4621): glibc's EOVERFLOW
    # text as Python prints it (benchmarks/data/os_errors.json), as coreutils' cp prints it, and strace's form (a
    # vsftpd report: sendfile of a 4.3 GB image)
    (
        "file-offset-overflow-32-bit",
        "OSError: [Errno 75] Value too large for defined data type: '/mnt/models/llama-2-13b.Q4_K_M.gguf'\n",
    ),
    (
        "file-offset-overflow-32-bit",
        "cp: cannot stat 'llama-2-13b-chat.Q4_K_M.gguf': Value too large for defined data type\n",
    ),
    (
        "file-offset-overflow-32-bit",
        "sendfile(14, 11, [2147483647], 2223157249) = -1 EOVERFLOW (Value too large for defined data type)\n",
    ),
    # llava-chat-handler-needs-logits-all (public-llama-cpp-python-llava-handler-logits-all-required, llama-cpp-
    # python#964): IPython's numbered context of the same assert (llama_chat_format.py), cut before its comment
    (
        "llava-chat-handler-needs-logits-all",
        "File ~/venv/lib/python3.11/site-packages/llama_cpp/llama_chat_format.py:1096, in Llava15ChatHandler.__call__"
        "(self, llama, messages)\n"
        "-> 1096     assert (\n"
        "   1097         llama.context_params.logits_all is True\n"
        "AssertionError: \n",
    ),
    # ngl-not-set-no-layers-offloaded (public-llama-main-wsl-cuda-no-ngl-offloaded-0-layers, llama.cpp#1956, build 722):
    # today's load_tensors line after ggml_cuda_init, and the Vulkan backend's device line with llm_load_tensors'
    (
        "ngl-not-set-no-layers-offloaded",
        "./build/bin/llama-cli -m models/qwen2.5-7b-instruct-q4_k_m.gguf -p hello\n"
        + CUDA_FOUND
        + "load_tensors: offloaded 0/29 layers to GPU\nload_tensors:   CPU_Mapped model buffer size =  4460.45 MiB\n",
    ),
    (
        "ngl-not-set-no-layers-offloaded",
        "ggml_vulkan: Found 1 Vulkan devices:\n"
        "ggml_vulkan: 0 = AMD Radeon RX 7900 XTX (RADV NAVI31) (radv) | uma: 0 | fp16: 1 | warp size: 64\n"
        "llm_load_tensors: offloaded 0/33 layers to GPU\n",
    ),
    # vulkan-generated-shaders-out-of-sync (public-llama-vulkan-msvc-stale-generated-shader-sources, a gitcode write-up;
    # train ggml#938, MSVC's column form): gcc's and clang's wordings of the same undeclared shader symbol
    (
        "vulkan-generated-shaders-out-of-sync",
        "/src/llama.cpp/ggml/src/ggml-vulkan/ggml-vulkan.cpp:2203:53: error: \u2018matmul_f32_f16_aligned_len\u2019 was "
        "not declared in this scope; did you mean \u2018matmul_f32_aligned_len\u2019?\n",
    ),
    (
        "vulkan-generated-shaders-out-of-sync",
        "/src/llama.cpp/ggml/src/ggml-vulkan/ggml-vulkan.cpp:1708:74: error: use of undeclared identifier "
        "'cos_f32_data'\n",
    ),
    # client-server-url-in-api-key-setting (public-llama-cpp-python-server-openai-key-is-a-url, llama-cpp-python#114):
    # openai-python 1.x's AuthenticationError, and the 401 body as an IDE agent quoted it (both URL keys, masked)
    (
        "client-server-url-in-api-key-setting",
        OPENAI_401.format(key="https://*********************************9KG9"),
    ),
    (
        "client-server-url-in-api-key-setting",
        '{"message":"Incorrect API key provided: https://********************************keys. You can find your API '
        'key at https://platform.openai.com/account/api-keys.","type":"invalid_request_error","param":null}\n',
    ),
    # openai-base-url-missing-v1 (public-llama-hga-embeddings-native-endpoint-list-no-data, Home Generative Agent#394):
    # the server's side, uvicorn's access line of a route called without /v1 (vLLM serves /v1/... only)
    (
        "openai-base-url-missing-v1",
        'INFO:     127.0.0.1:50412 - "POST /chat/completions HTTP/1.1" 404 Not Found\n',
    ),
    # the client's side: the OpenAI SDK fails on a string body (train LinguaGacha#137, a translator's log line)
    (
        "openai-base-url-missing-v1",
        "ERROR | app.llm:ask:88 - Unexpected error: 'str' object has no attribute 'choices'\n",
    ),
]

NEAR_MISSES = [
    # coreutils' head on a number argument: EOVERFLOW of a number, not of a file
    (
        "file-offset-overflow-32-bit",
        "head: invalid number of lines: '99999999999999999999': Value too large for defined data type\n",
    ),
    # a script's comment naming the setting for its own function is not the handler's refusal
    (
        "llava-chat-handler-needs-logits-all",
        "# logits_all=True is required by generate_adjusted() (it raises otherwise).\n",
    ),
    # -ngl 0 given: the CPU run was asked for
    (
        "ngl-not-set-no-layers-offloaded",
        "./llama-server -m model.gguf -ngl 0\n" + CUDA_FOUND + "load_tensors: offloaded 0/29 layers to GPU\n",
    ),
    # a CPU-only build found no device: nothing could be offloaded
    ("ngl-not-set-no-layers-offloaded", "llm_load_tensors: offloaded 0/33 layers to GPU\n"),
    # an undeclared *_len outside a Vulkan build is the compiler's generic refusal
    (
        "vulkan-generated-shaders-out-of-sync",
        "src/server.cpp:88:31: error: 'BLE_TOKEN_LEN' was not declared in this scope\n",
    ),
    # the /v1 route answered 404: the route is missing for the model's task, not the prefix
    (
        "openai-base-url-missing-v1",
        'INFO:     127.0.0.1:50412 - "POST /v1/chat/completions HTTP/1.1" 404 Not Found\n',
    ),
    # the same attribute error on a list of another shape is not an OpenAI body
    ("openai-base-url-missing-v1", "AttributeError: 'list' object has no attribute 'append'\n"),
]


test_the_family_names_the_cause, test_a_near_miss_is_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_a_plain_key_refused_by_openai_is_a_base_url_guess_below_confident():
    """llama.cpp's documented placeholder key (sk-no-key-required) refused by OpenAI: the client never reached the
    local server; named, below 0.70 (a wrong real OpenAI key reads the same)."""
    top = top_cause(run(OPENAI_401.format(key="sk-no-k***ired")))
    assert top is not None and top.id == "client-base-url-not-set-reaches-openai" and top.confidence < 0.7


def test_a_native_list_body_is_a_base_url_guess_below_confident():
    top = top_cause(run("AttributeError: 'list' object has no attribute 'data'\n"))
    assert top is not None and top.id == "openai-base-url-missing-v1" and top.confidence < 0.7


def test_llama_servers_own_key_refusal_stays_api_key_missing():
    assert_named(
        "api-key-missing",
        '{"error":{"code":401,"message":"Invalid API Key","type":"authentication_error"}}\n',
    )


def test_the_logprobs_refusal_stays_its_own_family():
    assert_named(
        "llama-cpp-python-logprobs-need-logits-all",
        "ValueError: logprobs is not supported for models created with logits_all=False\n",
    )


def test_a_router_oom_with_ngl_set_notes_why_fit_stood_aside():
    """fresh-73's router log: the cudaMalloc failure is the answer, and the note says --fit was skipped for -ngl."""
    result = run(
        "[36701] W common_fit_params: failed to fit params to free device memory: n_gpu_layers already set by user "
        "to 99, abort\n[36701] E ggml_backend_cuda_buffer_type_alloc_buffer: allocating 9000.00 MiB on device 1: "
        "cudaMalloc failed: out of memory\n"
    )
    assert top_cause(result).id == "llamacpp-cuda-oom"
    assert any(d.id == "llamacpp-fit-skipped-ngl-set" and d.role == "note" for d in result.diagnoses)
