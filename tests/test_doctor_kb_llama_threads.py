"""What the trainllama rounds taught doctor (grown as knowledge/llama-threads.toml, now in knowledge/ by domain, and the wordings it widened).

Each family is tested on the tools' other wordings than the corpus excerpt (Docker Hub, podman, the kubelet for
images), and an ambiguous wording is tested where it must stay quiet.
"""

from __future__ import annotations

import pytest

from servebox.doctor.ranking import CONFIDENT
from tests.doctor_text import run, top_cause


@pytest.mark.parametrize(
    "line",
    [
        "Error response from daemon: manifest for ghcr.io/ggml-org/llama.cpp:server-cuda12 not found: "
        "manifest unknown: manifest unknown",
        "Error response from daemon: pull access denied for llama-cpp, repository does not exist or may require "
        "'docker login': denied: requested access to the resource is denied",
        "Error: initializing source docker://ghcr.io/ggerganov/llama.cpp:server: reading manifest server in "
        "ghcr.io/ggerganov/llama.cpp: manifest unknown",
        '  Warning  Failed     3s   kubelet  Failed to pull image "ghcr.io/ggerganov/llama.cpp:server": '
        'rpc error: code = NotFound desc = failed to pull and unpack image "ghcr.io/ggerganov/llama.cpp:server": '
        'failed to resolve reference "ghcr.io/ggerganov/llama.cpp:server": ghcr.io/ggerganov/llama.cpp:server: not found',
    ],
)
def test_an_image_that_does_not_exist_is_named_with_its_reference(line):
    top = top_cause(run(line + "\n"))
    assert top.id == "container-image-not-found" and top.confidence >= CONFIDENT
    assert "llama" in top.cause


def test_old_ggml_invalid_device_function_on_a_rocm_device_is_a_missing_gfx_target():
    r = run(
        "ggml_init_cublas: found 1 ROCm devices:\n"
        "  Device 0: AMD Radeon RX 6700 XT, compute capability 10.3\n"
        "CUDA error 98 at /src/llama.cpp/ggml-cuda.cu:7015: invalid device function\n"
    )
    top = top_cause(r)
    assert top.id == "rocm-gfx-unsupported" and top.confidence < CONFIDENT


def test_the_same_words_on_an_nvidia_device_are_not_read_as_rocm():
    r = run(
        "ggml_init_cublas: found 1 CUDA devices:\n"
        "  Device 0: Tesla K80, compute capability 3.7\n"
        "CUDA error 98 at /src/llama.cpp/ggml-cuda.cu:7015: invalid device function\n"
    )
    top = top_cause(r)
    assert top is None or top.id != "rocm-gfx-unsupported"


@pytest.mark.parametrize("magic", ["\ufffd", "", "\x00\x00\x00\x00", "\ufffd\ufffd\ufffd\ufffd"])
def test_no_magic_bytes_read_is_a_directory_or_empty_file_not_a_damaged_gguf(magic):
    """Older gguf.c read a directory without an error and printed the magic it never got."""
    r = run(
        f"gguf_init_from_file: invalid magic characters '{magic}'\n"
        "llama_model_load: error loading model: llama_model_loader: failed to load model from /m/llama.Q4_K_M.gguf\n"
    )
    top = top_cause(r)
    assert top.id == "llamacpp-model-path-is-a-directory" and top.confidence < CONFIDENT
    assert "directory" in top.cause


def test_a_file_of_another_format_still_shows_its_own_magic_and_stays_a_bad_gguf():
    """An old GGML file (magic ggjt) is a bad GGUF to re-download or re-convert; a zip's PK magic is a PyTorch
    archive (pytorch_model.bin, .pt), which learn48b names llamacpp-model-not-gguf: convert it."""
    for line, expected in (
        ("gguf_init_from_file: invalid magic characters 'ggjt'", "llamacpp-bad-gguf"),
        (
            "gguf_init_from_file_impl: invalid magic characters: 'PK\x03\x04', expected 'GGUF'",
            "llamacpp-model-not-gguf",
        ),
    ):
        r = run("srv    load_model: loading model '/m/llama-2-7b.ggmlv3.q4_0.bin'\n" + line + "\n")
        assert top_cause(r).id == expected, line


def test_older_llama_cpp_unknown_argument_is_a_refused_flag_with_the_old_build_named():
    top = top_cause(run("error: unknown argument: --jinja\n"))
    assert top.id == "llamacpp-invalid-argument" and "--jinja" in top.cause
    assert "--version" in top.fix


def test_a_compiler_unknown_argument_is_not_a_refused_llama_server_flag():
    """clang quotes the flag it refuses; llama.cpp never does."""
    r = run("clang: error: unknown argument: '-mno-direct-extern-access'\n")
    top = top_cause(r)
    assert top is None or top.id != "llamacpp-invalid-argument"


def test_a_backend_library_with_an_undefined_symbol_is_a_broken_build_not_a_cpu_only_one():
    r = run(
        "warning: no usable GPU found, --gpu-layers option will be ignored\n"
        "/usr/local/lib/libggml-cuda.so: undefined symbol: ggml_cuda_op_mul_mat_q_q4_0\n"
    )
    top = top_cause(r)
    assert top.id == "llamacpp-backend-dlopen-failed" and "libggml-cuda.so" in top.cause
    assert "image tag" in top.fix


def test_a_backend_library_that_loads_says_nothing():
    r = run(
        "load_backend: loaded Vulkan backend from /app/libggml-vulkan.so\n"
        "load_backend: loaded CPU backend from /app/libggml-cpu-haswell.so\n"
    )
    assert top_cause(r) is None


def test_a_model_file_that_ends_early_is_a_truncated_file():
    r = run(
        "llama_model_load: error loading model: unexpectedly reached end of file\n"
        "llama_model_load_from_file_impl: failed to load model\n"
    )
    top = top_cause(r)
    assert top.id == "llamacpp-bad-gguf" and top.confidence >= CONFIDENT


@pytest.mark.parametrize(
    ("line", "lib"),
    [
        ("The program can't start because cublas64_12.dll is missing from your computer.", "cublas64_12.dll"),
        ("llama-server process has terminated: exit status 0xc0000135", "STATUS_DLL_NOT_FOUND"),
    ],
)
def test_windows_refusing_a_program_without_its_dll(line, lib):
    top = top_cause(run(line + "\n"))
    assert top.id == "windows-dll-not-found" and lib in top.cause


def test_a_healthy_windows_start_naming_dlls_says_nothing():
    r = run("load_backend: loaded CUDA backend from C:\\llama\\ggml-cuda.dll\nmain: model loaded\n")
    assert top_cause(r) is None


def test_llama_servers_no_jinja_advice_names_a_template_the_engine_rejects():
    r = run(
        "Error: Unknown (built-in) filter 'tojson' for type String\n"
        "srv          init: init: please consider disabling jinja via --no-jinja, or use a custom chat template via --chat-template\n"
        "main: exiting due to model loading error\n"
    )
    top = top_cause(r)
    assert top.id == "chat-template-invalid" and "--no-jinja" in top.fix


@pytest.mark.parametrize(
    "line",
    [
        "[ERROR] <qwen> unable to start process: start() failed: fork/exec /media/usb/llama-server: permission denied",
        "bash: ./build/bin/llama-server: Permission denied",
    ],
)
def test_an_engine_binary_that_cannot_be_executed(line):
    top = top_cause(run(line + "\n"))
    assert top.id == "engine-binary-not-executable" and "llama-server" in top.cause


def test_a_model_file_that_cannot_be_read_is_not_a_binary_that_cannot_run():
    top = top_cause(run("bash: /srv/models/qwen.gguf: Permission denied\n"))
    assert top is None or top.id != "engine-binary-not-executable"


def test_a_bare_relative_model_name_that_gguf_cannot_open_is_a_relative_path():
    top = top_cause(run("E gguf_init_from_file: failed to open GGUF file 'qwen3-8b-q4_k_m.gguf'\n"))
    assert top.id == "llamacpp-relative-model-path" and "qwen3-8b-q4_k_m.gguf" in top.cause
    absolute = top_cause(run("gguf_init_from_file: failed to open GGUF file '/srv/models/qwen3-8b.gguf'\n"))
    assert absolute.id == "llamacpp-model-file-missing"


def test_old_ggml_assert_wording_of_a_quantized_k_cache_shift():
    top = top_cause(
        run(
            "GGML_ASSERT: /llama.cpp/ggml-cuda/rope.cu:217: src0->type == GGML_TYPE_F32 || src0->type == GGML_TYPE_F16\n"
        )
    )
    assert top.id == "llamacpp-quantized-k-cache-shift" and top.confidence < 0.9


def test_the_same_type_check_outside_rope_is_not_a_k_cache_shift():
    r = run(
        "/ggml/src/ggml-cuda/getrows.cu:120: GGML_ASSERT(src0->type == GGML_TYPE_F32 || src0->type == GGML_TYPE_F16) failed\n"
    )
    top = top_cause(r)
    assert top is None or top.id != "llamacpp-quantized-k-cache-shift"


def test_a_projector_newer_than_the_build_is_not_the_build_abort():
    top = top_cause(
        run(
            "clip_init: failed to load model '/m/mmproj.gguf': load_hparams: unknown projector type: gemma4uv\n"
            "mtmd_init_from_file: error: Failed to load CLIP model from /m/mmproj.gguf\n"
        )
    )
    assert top.id == "llamacpp-unknown-arch" and "gemma4uv" in top.cause


def test_the_projector_abort_through_ollamas_wrapped_error():
    top = top_cause(
        run(
            "Error: 500 Internal Server Error: llama-server process has terminated: "
            "/src/llama/llama.cpp/tools/mtmd/clip.cpp:4399: Unknown projector type\n"
        )
    )
    assert top.id == "llamacpp-mtmd-projector-abort"


def test_an_embedding_input_above_ubatch_stays_the_embedding_family():
    r = run(
        "slot update_slots: id  0 | task 3 | prompt processing progress, n_tokens = 1024\n"
        "/app/src/llama-context.cpp:1601: GGML_ASSERT((cparams.causal_attn || cparams.n_ubatch >= n_tokens_all) && "
        '"non-causal attention requires n_ubatch >= n_tokens") failed\n'
    )
    assert top_cause(r).id == "llamacpp-ubatch-below-input"


def test_an_image_chunk_above_ubatch_is_the_multimodal_family():
    r = run(
        "srv  process_chun: processing image...\n"
        "encoding image slice...\n"
        "image slice encoded in 310 ms\n"
        "decoding image batch 1/1, n_tokens_batch = 1100\n"
        "/app/src/llama-context.cpp:1601: GGML_ASSERT((cparams.causal_attn || cparams.n_ubatch >= n_tokens_all) && "
        '"non-causal attention requires n_ubatch >= n_tokens") failed\n'
    )
    top = top_cause(r)
    assert top.id == "llamacpp-mtmd-chunk-above-ubatch" and top.confidence >= CONFIDENT


def test_the_rule_count_wording_of_the_grammar_repetition_limit():
    top = top_cause(
        run(
            "parse: error parsing grammar: number of rules that are going to be repeated multiplied by the new "
            "repetition exceeds sane defaults, please reduce the number of repetitions or rule complexity\n"
            "error: Failed to initialize samplers: failed to parse grammar.\n"
        )
    )
    assert top.id == "llamacpp-grammar-repetition-limit"


def test_another_grammar_syntax_error_stays_the_generic_grammar_family():
    top = top_cause(
        run('parse: error parsing grammar: expecting ::= at :== "kek"\nfailed to parse grammar\n')
    )
    assert top.id == "request-grammar-invalid"


def test_an_unanchored_pattern_under_llama_cpps_conversion_error():
    body = (
        '{"error":{"code":400,"message":"JSON schema conversion failed:\\nPattern must start with \'^\' and end '
        'with \'$\'","type":"invalid_request_error"}}'
    )
    assert top_cause(run(body + "\n")).id == "request-json-schema-invalid"
