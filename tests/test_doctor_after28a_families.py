"""What after28a learnt from fresh-48's and fresh-49's misses after they were scored. Each family is tested on a real
wording OTHER than the batch log's (another version, program or spelling of the same cause, where it came from noted),
and on a near miss that must stay with the family it had."""

from __future__ import annotations

import pytest

from tests.doctor_text import run


def _first(log: str) -> tuple[str, float]:
    """The first cause doctor names in `log` and its confidence ('none' when it names no cause)."""
    d = next((d for d in run(log).diagnoses if d.role in ("cause", "symptom")), None)
    return (d.id, d.confidence) if d else ("none", 0.0)


# ---- a complete pre-GGUF file is not a corrupt one (fresh-49's h2ogpt case read it as llamacpp-bad-gguf at 0.90)
@pytest.mark.parametrize(
    "line",
    [
        # gguf.cpp since 2024 prints the magic as its four bytes in file order ('ggjt' 0x67676a74 -> 'tjgg')
        "gguf_init_from_file_impl: invalid magic characters: 'tjgg', expected 'GGUF'",
        # an unversioned GGML file ('ggml' 0x67676d6c) under the 2023 numeric wording
        "gguf_init_from_file: invalid magic number 67676d6c",
        # GGML-era llama.cpp after the May 2023 quantization change (llama.cpp's loader, quoted in a public Dockerfile)
        "error loading model: this format is no longer supported (see https://github.com/ggerganov/llama.cpp/pull/1305)",
    ],
)
def test_a_ggml_era_file_is_an_old_format(line):
    assert _first(line + "\n") == ("ggml-model-on-gguf-only-llama-cpp", 0.85)


def test_a_magic_of_no_ggml_format_stays_a_bad_gguf():
    # learn48b: a zip's magic ('PK', PyTorch's .pt/.bin) is another framework's checkpoint, to convert: not the GGML era
    assert _first("gguf_init_from_file_impl: invalid magic characters: 'PK??', expected 'GGUF'\n")[0] == (
        "llamacpp-model-not-gguf"
    )
    assert _first("gguf_init_from_file_impl: invalid magic characters: 'xV4?', expected 'GGUF'\n")[0] == (
        "llamacpp-bad-gguf"
    )


def test_a_ggjt_file_newer_than_a_ggml_era_build_is_a_format_version():
    # the ggmf container (0x67676d66) of version 1 on a llama.cpp of early 2023
    log = "error loading model: unknown (magic, version) combination: 67676d66, 00000001; is this really a GGML file?\n"
    assert _first(log)[0] == "llamacpp-gguf-version-unsupported"


def test_the_ggml_era_unrecognized_tensor_type_is_a_build_too_old():
    # llama-cpp-python 0.1.4x's vendored llama.cpp on a q5_1 (type 9) model
    log = "llama.cpp: loading model from ./models/ggml-vicuna-7b-q5_1.bin\nerror loading model: unrecognized tensor type 9\n"
    assert _first(log)[0] == "llamacpp-build-too-old-for-tensor-type"


# ---- 'available devices: 0' is no backend loaded, not a --main-gpu past the GPUs (fresh-49's HIP case at 0.90)
MAIN_GPU = "llama_model_load_from_file_impl: invalid value for main_gpu: {gpu} (available devices: {n})\n"


def test_no_device_in_a_backend_dl_build_is_no_backend_loaded():
    # a Linux CUDA build with its backends as libraries, llama-server run from another directory
    log = "load_backend: loaded RPC backend from /opt/llama/libggml-rpc.so\n" + MAIN_GPU.format(gpu=0, n=0)
    assert _first(log) == ("llamacpp-no-backends-loaded", 0.85)


def test_no_device_without_the_build_shown_is_only_a_hint():
    # ranking._as_hint: the context_pattern's line, its context missing, counts as the entry's hint
    assert _first(MAIN_GPU.format(gpu=1, n=0)) == ("llamacpp-no-backends-loaded", 0.6)


def test_a_main_gpu_past_the_devices_stays_main_gpu_invalid():
    assert _first(MAIN_GPU.format(gpu=2, n=1)) == ("llamacpp-main-gpu-invalid", 0.9)


# ---- 'wrong number of tensors' is a build older than the model (fresh-49's LM Studio case; fresh-6's ollama case)
def test_wrong_number_of_tensors_is_a_build_predating_the_model():
    # Ollama's runner reporting it (a Llama 3.2 GGUF on ollama 0.1.x)
    log = "Error: llama runner process has terminated: error loading model: done_getting_tensors: wrong number of tensors; expected 255, got 254\n"
    assert _first(log)[0] == "llamacpp-build-predates-model-variant"


def test_a_missing_tensor_stays_a_tensor_mismatch():
    log = "llama_model_load: error loading model: missing tensor 'blk.0.attn_q_norm.weight'\n"
    assert _first(log)[0] == "llamacpp-tensor-mismatch"


# ---- Windows' STATUS_ENTRYPOINT_NOT_FOUND (fresh-49's ollama-for-amd case had no answer)
@pytest.mark.parametrize(
    "line",
    [
        "Error: llama runner process has terminated: exit status 3221225785",  # Go's unsigned decimal
        "Process finished with exit code -1073741511 (0xC0000139)",  # an IDE's signed decimal
        "OSError: [WinError -1073741511] Windows Error 0xc0000139",  # ctypes loading llama.dll
        "The procedure entry point hipblasLtCreate could not be located in the dynamic link library ggml-hip.dll.",
        "OSError: [WinError 127] The specified procedure could not be found",  # ctypes' ERROR_PROC_NOT_FOUND
    ],
)
def test_an_entry_point_not_found_is_a_dll_of_another_build(line):
    assert _first(line + "\n")[0] == "stale-shared-library"


def test_a_dll_not_found_stays_its_own_family():
    # its sibling STATUS_DLL_NOT_FOUND (0xC0000135) names a missing DLL, not a mismatched one
    assert (
        _first("Error: llama runner process has terminated: exit status 0xc0000135\n")[0]
        != "stale-shared-library"
    )


# ---- a symptom that supersedes the abort on its own line (fresh-49's Vulkan case read as native-abort)
def test_a_device_lost_exception_alone_is_the_device_lost():
    log = "ggml_vulkan: Found 1 Vulkan devices:\nterminate called after throwing an instance of 'vk::DeviceLostError'\n"
    assert _first(log)[0] == "vulkan-device-lost"


def test_another_exception_type_stays_a_native_abort():
    log = "terminate called after throwing an instance of 'std::bad_function_call'\n"
    assert _first(log)[0] == "native-abort"


# ---- vLLM: a version newer than the installed engine, or an argument it predates (fresh-48)
def test_a_model_version_newer_than_vllm_is_an_unknown_architecture():
    # vLLM 0.32's minicpmo.py (the sibling class, with the 'Got version' tail)
    log = "ValueError: Currently, MiniCPMO only supports versions 2.6. Got version: (2, 7)\n"
    assert _first(log)[0] == "unknown-architecture"


def test_an_engine_argument_vllm_predates_is_version_skew():
    # Python 3.10+'s qualified form, a framework passing a newer argument to an older vLLM's LLM()/EngineArgs
    log = "TypeError: EngineArgs.__init__() got an unexpected keyword argument 'enable_prefix_caching'\n"
    assert _first(log)[0] == "vllm-internal-module-moved"


def test_an_unexpected_argument_elsewhere_is_not():
    log = "Traceback (most recent call last):\n  File \"run.py\", line 3, in <module>\n    m = Model(cfg)\nTypeError: __init__() got an unexpected keyword argument 'cfg'\n"
    assert _first(log)[0] != "vllm-internal-module-moved"


def test_a_block_table_overflow_is_the_capture_size():
    # the older engine's sync path (vLLM 0.5.x LLMEngine) with other sizes: 8192-token capture, 1040 blocks needed
    log = (
        'ERROR 07-02 10:11:12 llm_engine.py:300]   File "/usr/lib/python3/dist-packages/vllm/worker/model_runner.py", line 1120, in _prepare_model_input\n'
        "ValueError: could not broadcast input array from shape (1040,) into shape (512,)\n"
    )
    assert _first(log) == ("block-table-exceeds-max-seq-len-to-capture", 0.65)


def test_a_two_dimensional_broadcast_is_not_the_block_table():
    # no wording matches; at most a resemblance, never confident
    log = "vllm/model_executor/foo.py\nValueError: could not broadcast input array from shape (3,4) into shape (3,)\n"
    answer, confidence = _first(log)
    assert answer != "block-table-exceeds-max-seq-len-to-capture" or confidence < 0.7
