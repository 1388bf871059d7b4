"""What the lead learnt after scoring fresh-46 (made here: parallelism and threading): llama.cpp's refusal of a feature
its build left out ('X not supported in this build') is that build's limit, not a malformed argument."""

from __future__ import annotations

from tests.doctor_text import run


def _top(log: str):
    return next(d for d in run(log).diagnoses if d.role == "cause")


def test_a_feature_left_out_of_the_build_is_named_with_its_build_option():
    # a second real wording, not the corpus's: the vendored mtmd helper of llama-cpp-python 0.3.36
    top = _top("mtmd_helper_eval_chunk: video is not supported in this build (MTMD_VIDEO is set to OFF)\n")
    assert top.id == "llamacpp-feature-not-in-build"
    assert "video" in top.cause and "MTMD_VIDEO" in top.cause


def test_the_build_refusal_outranks_the_argument_error_that_carries_it():
    log = 'error while handling argument "--rpc": RPC not supported in this build\n\nusage:\n--rpc SERVERS\n'
    assert [d.id for d in run(log).diagnoses if d.role == "cause"] == ["llamacpp-feature-not-in-build"]


def test_an_argument_refused_for_its_value_stays_an_invalid_argument():
    # near miss: the same handler refusing the value, with no word about the build
    log = 'error while handling argument "--rpc": failed to register RPC device at 10.0.0.2:50052\n'
    assert _top(log).id != "llamacpp-feature-not-in-build"


# fresh-51 (made here: the Hugging Face cache, hub ids and offline mode), learnt after scoring

HUB_RETRY_REQUESTS_ERA = (  # huggingface_hub 0.2x's retry line, with requests/urllib3's name-resolution error
    "'(MaxRetryError(\"HTTPSConnectionPool(host='huggingface.co', port=443): Max retries exceeded with url: "
    '/Qwen/Qwen2.5-7B/resolve/main/config.json (Caused by NameResolutionError(\\"<urllib3.connection.HTTPSConnection '
    "object at 0x7f3a>: Failed to resolve 'huggingface.co' ([Errno -3] Temporary failure in name resolution)\\\"))\"), "
    "'(Request ID: 5c1e)')' thrown while requesting HEAD https://huggingface.co/Qwen/Qwen2.5-7B/resolve/main/config.json\n"
)


def test_a_hub_request_that_cannot_connect_is_the_hub_being_unreachable():
    assert _top(HUB_RETRY_REQUESTS_ERA).id == "hub-offline"


def test_a_hub_request_refused_by_status_is_not_the_hub_being_unreachable():
    log = "HTTP Error 429 thrown while requesting GET https://huggingface.co/api/models/Qwen/Qwen2.5-7B/tree/main\n"
    assert all(d.id != "hub-offline" for d in run(log).diagnoses)


def test_a_cached_repo_resolving_to_its_snapshots_folder_is_a_broken_ref():
    # transformers meets the same empty ref as another loader
    log = (
        "OSError: /root/.cache/huggingface/hub/models--Qwen--Qwen2.5-7B/snapshots/ does not appear to have a file named "
        "config.json. Checkout 'https://huggingface.co//root/.cache/huggingface/hub/models--Qwen--Qwen2.5-7B/snapshots/' "
        "for available files.\n"
    )
    top = _top(log)
    assert top.id == "hub-cache-ref-broken"
    assert "models--Qwen--Qwen2.5-7B/snapshots" in top.fix


def test_a_snapshot_with_its_commit_is_not_a_broken_ref():
    log = (
        "OSError: /root/.cache/huggingface/hub/models--Qwen--Qwen2.5-7B/snapshots/a09a35458c702b33eeacc393d103063234e8bc28"
        " does not appear to have a file named config.json.\n"
    )
    assert all(d.id != "hub-cache-ref-broken" for d in run(log).diagnoses)


def test_an_empty_draft_path_is_a_draft_not_found_offline_not_an_incompatible_draft():
    log = (
        "0.00.051.647 I common_speculative_init_result: loading draft model ''\n"
        "0.00.051.655 E common_speculative_init_result: failed to load draft model, ''\n"
    )
    assert _top(log).id == "llamacpp-offline-cache-miss"
    named = "0.00.051.655 E srv    load_model: failed to load draft model, '/srv/m/qwen3-0.6b-q8_0.gguf'\n"
    assert _top(named).id == "llamacpp-draft-model-incompatible"


# fresh-58 (public vLLM threads by interface), learnt after scoring


def test_vllm_serve_reading_model_as_an_abbreviation_is_the_positional_model_refusal():
    # the same parser refusing --model typed on the command line (vLLM 0.5/0.6), with an '=' value
    log = (
        "usage: vllm serve <model_tag> [options]\n"
        "vllm serve: error: ambiguous option: --model=Qwen/Qwen2-7B could match --model-loader-extra-config, --model-impl\n"
    )
    assert _top(log).id == "vllm-serve-model-flag"


def test_another_ambiguous_abbreviation_is_not_the_model_refusal():
    log = "vllm serve: error: ambiguous option: --max could match --max-model-len, --max-num-seqs\n"
    assert all(d.id != "vllm-serve-model-flag" for d in run(log).diagnoses)


def test_a_kernel_assertion_line_alone_is_a_device_side_assert():
    # another kernel's assertion in torch's own format (aten's multinomial sampler), without the later RuntimeError
    log = (
        "/pytorch/aten/src/ATen/native/cuda/MultinomialKernel.cu:112: binarySearchForMultinomial: block: [0,0,0], "
        "thread: [0,0,0] Assertion `cumdist[size - 1] > static_cast<scalar_t>(0)` failed.\n"
    )
    top = _top(log)
    assert top.id == "cuda-device-assert" and "cumdist" in top.fix


def test_a_request_body_without_a_required_field_names_the_field():
    # FastAPI's own 422 JSON on a chat request without messages
    log = (
        'INFO:     127.0.0.1:5432 - "POST /v1/chat/completions HTTP/1.1" 422 Unprocessable Entity\n'
        '{"detail":[{"type":"missing","loc":["body","messages"],"msg":"Field required","input":{"model":"m"}}]}\n'
    )
    top = _top(log)
    assert top.id == "request-field-missing" and "`messages`" in top.cause


def test_an_extra_field_is_not_a_missing_one():
    log = (
        "openai.BadRequestError: Error code: 400 - {'object': 'error', 'message': \"[{'type': 'extra_forbidden', "
        "'loc': ('body', 'guided_json'), 'msg': 'Extra inputs are not permitted'}]\", 'code': 400}\n"
    )
    assert all(d.id != "request-field-missing" for d in run(log).diagnoses)


# fresh-59 (public llama.cpp threads by program and build), learnt after scoring: a compiler's own diagnostics


def _ids(log: str) -> list[str]:
    return [d.id for d in run(log).diagnoses if d.role == "cause"]


def test_msvc_missing_include_is_a_missing_header():
    log = (
        "C:\\llama.cpp\\ggml\\src\\ggml-vulkan\\ggml-vulkan.cpp(8): fatal error C1083: Cannot open include file: "
        "'vulkan/vulkan.hpp': No such file or directory\n"
    )
    top = _top(log)
    assert top.id == "build-header-missing" and "vulkan/vulkan.hpp" in top.cause


def test_a_linker_fatal_error_is_not_a_missing_header():
    assert "build-header-missing" not in _ids("collect2: fatal error: ld terminated with signal 9 [Killed]\n")


def test_a_compile_error_in_the_engine_source_is_named_in_clang_and_in_german_gcc():
    clang = (
        "/src/ggml/src/ggml-cpu/ggml-cpu.c:2456:9: error: call to undeclared function 'sched_getcpu'; ISO C99 and later "
        "do not support implicit function declarations [-Wimplicit-function-declaration]\n"
    )
    german = "ggml.c:1963:5: Fehler: unbekannter Typname »cpu_set_t«\n"
    for log in (clang, german):
        top = _top(log)
        assert top.id == "build-source-compile-error" and top.confidence < 0.7
    assert "build-source-compile-error" not in _ids(
        "ggml.c:100:5: warning: unused variable 'x' [-Wunused-variable]\n"
    )


def test_a_sycl_build_with_a_compiler_without_sycl():
    log = "clang++: error: unsupported option '-fsycl' for target 'x86_64-apple-darwin23.4.0'\n"
    assert _top(log).id == "sycl-build-needs-oneapi-compiler"


def test_an_android_library_needing_a_gnu_library_was_built_with_the_host_toolchain():
    log = (
        'dlopen failed: library "libgomp.so.1" not found: needed by /data/app/~~x/lib/arm64/libggml-cpu.so\n'
    )
    assert _top(log).id == "android-lib-built-with-host-toolchain"
    missing_own = 'dlopen failed: library "libllama.so" not found\n'
    assert "android-lib-built-with-host-toolchain" not in _ids(missing_own)


def test_sycl_finding_no_kernel_for_the_device_is_an_unloadable_kernel_image():
    log = (
        "No kernel named _ZTSZZL13mul_mat_vec_q_syclPKvS0_PfiiiPN4sycl3_V15queueEENKUlRNS2_7handlerEE_clES6_ was found "
        "-46 (PI_ERROR_INVALID_KERNEL_NAME)\n"
    )
    assert _top(log).id == "gpu-kernel-image-invalid"


def test_a_llama_cpp_python_class_lacking_a_method_a_wrapper_calls_suggests_mismatched_versions():
    top = _top("AttributeError: 'Llama' object has no attribute 'create_chat_completion_openai_v1'\n")
    assert top.id == "python-import-name-missing" and top.confidence < 0.7


# fresh-55 (made here: filesystems and mounts), learnt after scoring


def test_a_write_into_a_full_dev_shm_is_a_small_dev_shm():
    # Python's multiprocessing.shared_memory (or any writer) running out of room under /dev/shm
    assert (
        _top("OSError: [Errno 28] No space left on device: '/dev/shm/psm_3f1a2b'\n").id == "dev-shm-too-small"
    )


def test_a_full_disk_elsewhere_is_not_a_small_dev_shm():
    log = (
        "OSError: [Errno 28] No space left on device: '/root/.cache/vllm/torch_compile_cache/abc/rank_0_0'\n"
    )
    assert "dev-shm-too-small" not in _ids(log)


def test_an_embedding_model_on_llama_server_gets_llama_cpp_advice():
    top = next(
        d
        for d in run("llama_model_load: error: missing result_output tensor\n").diagnoses
        if d.role == "cause"
    )
    assert top.id == "runner-unsupported-by-model" and "--embeddings" in top.fix


# the lead, stop 28: Go programs in the serving path


def test_a_go_panic_is_named_with_its_message():
    # llama-swap (Go) writing to a nil map, as Go prints it
    log = (
        "panic: assignment to entry in nil map\n\n"
        "goroutine 41 [running]:\n"
        "github.com/mostlygeek/llama-swap/proxy.(*ProcessGroup).StartProcess(0xc0001a2000, {0xc00002c0f0, 0x9})\n"
        "\t/build/proxy/processgroup.go:88 +0x1c5\n"
    )
    top = _top(log)
    assert top.id == "go-panic" and "nil map" in top.cause and top.confidence < 0.7


def test_a_panic_word_without_a_goroutine_trace_is_not_go():
    assert "go-panic" not in _ids("panic: the model server said no\n")


# fresh-62 (public llama.cpp threads by title), learnt after scoring


def test_a_crash_inside_a_vulkan_layer_library_is_the_layer():
    # the layer's own library on top of the stack (MangoHud, as in llama.cpp#8828's sibling reports)
    log = (
        'Thread 1 "llama-server" received signal SIGSEGV, Segmentation fault.\n'
        "#0  0x00007ffff7e2a1b0 in vkQueueSubmit () from /usr/lib/x86_64-linux-gnu/mangohud/libMangoHud.so\n"
    )
    assert _top(log).id == "vulkan-layer-crash"


def test_a_crash_in_the_vulkan_driver_itself_is_not_a_layer():
    log = (
        "Program terminated with signal SIGSEGV, Segmentation fault.\n"
        "#0  0x00007f1c2a3b4c5d in ?? () from /usr/lib/x86_64-linux-gnu/libvulkan_radeon.so\n"
    )
    assert "vulkan-layer-crash" not in _ids(log)


# fresh-60 (made here: vLLM's Python API from a script), learnt after scoring

SPAWN = """Traceback (most recent call last):
  File "<string>", line 1, in <module>
  File "C:\\\\Python311\\\\Lib\\\\multiprocessing\\\\spawn.py", line 120, in spawn_main
  File "C:\\\\Python311\\\\Lib\\\\multiprocessing\\\\spawn.py", line 140, in _check_not_importing_main
    raise RuntimeError(\'\'\'
RuntimeError:
        An attempt has been made to start a new process before the
        current process has finished its bootstrapping phase.

        This probably means that you are not using fork to start your
"""


def test_a_script_without_a_main_guard_under_spawn_is_named_and_explains_its_exception():
    # a Windows DataLoader run: another program meeting the same idiom; the message begins on the line below its type
    result = run(SPAWN)
    assert [d.id for d in result.diagnoses if d.role == "cause"] == ["spawn-script-without-main-guard"]
    assert result.exceptions[0].message.startswith("An attempt has been made")


def test_an_empty_exception_message_takes_no_unindented_line_below_it():
    result = run("AssertionError:\nINFO 12-04 10:00:00 [core.py:1] next line of another process\n")
    assert result.exceptions[0].message == ""


def test_sampling_params_range_checks_of_the_python_api():
    # vLLM sampling_params.py's other checks than the corpus's
    for log, param in (
        (
            "vllm.exceptions.VLLMValidationError: min_tokens must be greater than or equal to 0, got -3.\n",
            "min_tokens",
        ),
        ("ValueError: logprobs must be non-negative or -1, got -5.\n", "logprobs"),
    ):
        top = _top(log)
        assert top.id == "request-sampling-param-out-of-range" and param in top.cause


def test_a_dtype_literal_refusal_names_the_dtype():
    log = (
        "pydantic_core._pydantic_core.ValidationError: 1 validation error for ModelConfig\n"
        "dtype\n"
        "  Input should be 'auto', 'half', 'float16', 'bfloat16', 'float' or 'float32' [type=literal_error, "
        "input_value='fp16', input_type=str]\n"
    )
    top = _top(log)
    assert top.id == "config-dtype-invalid" and "'fp16'" in top.cause


def test_llm_chat_given_a_string_in_an_older_vllm():
    log = (
        '  File "/venv/lib/python3.10/site-packages/vllm/entrypoints/chat_utils.py", line 540, in '
        "_parse_chat_message_content\n"
        '    role = message["role"]\n'
        "TypeError: string indices must be integers\n"
    )
    assert _top(log).id == "llm-chat-input-not-messages"
    assert "llm-chat-input-not-messages" not in _ids("TypeError: string indices must be integers\n")


def test_a_prompt_of_a_form_vllm_does_not_take_in_an_older_vllm():
    assert (
        _top("TypeError: inputs must be a string, TextPrompt, or TokensPrompt\n").id == "llm-prompt-dict-keys"
    )


def test_a_config_field_ending_in_n_is_not_the_sampling_parameter_n():
    log = "ValueError: gpu_memory_utilization must be at most 1, got 1.7.\n"
    assert "request-sampling-param-out-of-range" not in _ids(log)


# the lead, stop 28: a hint with its own fix (another program's remedy than the entry's)


def test_an_ollama_hint_gives_ollamas_fix_not_the_entrys():
    pull = _top("Error: pull model manifest: file does not exist\n")
    assert (
        pull.id == "hub-revision-not-found" and "NAME:TAG" in pull.fix and "huggingface-cli" not in pull.fix
    )
    newer = _top(
        "Error: llama runner process has terminated: this model is not supported by your version of Ollama\n"
    )
    assert newer.id == "llamacpp-unknown-arch" and "Update Ollama" in newer.fix


def test_the_entrys_own_wording_keeps_the_entrys_fix():
    top = _top("llama_model_load: error loading model: unknown model architecture: 'qwen35moe'\n")
    assert top.id == "llamacpp-unknown-arch" and "Update llama.cpp" in top.fix


# the lead, stop 28: Ollama wordings after28e noted unread (from Ollama's API text as clients pass it on)


def test_a_model_ollama_never_pulled_is_named_in_both_quotings():
    for log in (
        '{"error":"model \\"bge-m3\\" not found, try pulling it first"}\n',  # the JSON body, escaped quotes
        "Error: model 'llama3:70b' not found, try pulling it first\n",  # the CLI of older releases
    ):
        top = _top(log)
        assert top.id == "ollama-model-not-pulled" and "ollama pull" in top.fix
    assert "ollama-model-not-pulled" not in _ids("openai.NotFoundError: The model `gpt-x` does not exist.\n")


def test_a_tls_handshake_that_times_out_is_a_connection_timeout():
    log = (
        'Error: max retries exceeded: Get "https://registry.ollama.ai/v2/": net/http: TLS handshake timeout\n'
    )
    assert (
        next(d for d in run(log).diagnoses if d.role in ("cause", "symptom")).id
        == "peer-connection-timed-out"
    )
