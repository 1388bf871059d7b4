"""Families and wordings grown from the llama.cpp b11434 / llama-swap message harvest
(grown as knowledge/llama-harvest.toml, now in knowledge/ by domain; benchmarks/doctor_coverage_llama.py).

Each case is a line in the program's message format with values unlike the harvested sample and the
entry's excerpt; the negative cases pin that a healthy start names nothing.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from servebox.doctor.triage import triage_stream

LOGS = Path(__file__).parent / "fixtures" / "logs"


def top(text: str):
    r = triage_stream(io.StringIO(text if text.endswith("\n") else text + "\n"), "t")
    return r, r.diagnoses[0] if r.diagnoses else None


CASES = [
    (
        "llamacpp-tensor-invalid-data",
        "E llama_model_load: error loading model: tensor 'token_embd.weight' has invalid data",
    ),
    (
        "llamacpp-tensor-invalid-data",
        "llama_model_load: error loading model: found tensors with invalid data",
    ),
    (
        "llamacpp-gguf-duplicate-entry",
        "llama_model_load: error loading model: invalid model: tensor 'blk.7.attn_v.weight' is duplicated",
    ),
    (
        "llamacpp-gguf-duplicate-entry",
        "gguf_init_from_reader: duplicate key 'tokenizer.ggml.tokens' for KV pair 31",
    ),
    (
        "llamacpp-gguf-unaligned-mmap",
        "llama_model_load: error loading model: llama_model_loader: GGUF data section at file offset 73 is not 64 byte aligned, cannot mmap",
    ),
    (
        "llamacpp-no-buffer-type-for-tensor",
        "llama_model_load: error loading model: failed to find a compatible buffer type for tensor blk.40.ffn_up_exps.weight",
    ),
    (
        "llamacpp-no-backends-loaded",
        "E llama_model_load_from_file_impl: no backends are loaded. hint: use ggml_backend_load() or ggml_backend_load_all() to load a backend before calling this function",
    ),
    (
        "llamacpp-backend-dlopen-failed",
        "load_backend: failed to load /usr/local/lib/libggml-vulkan.so: libvulkan.so.1: cannot open shared object file: No such file or directory",
    ),
    ("llamacpp-cuda-init-failed", "ggml_cuda_init: failed to initialize CUDA: initialization error"),
    ("llamacpp-device-index-invalid", "ggml_backend_cuda_init: invalid device 5"),
    ("llamacpp-device-index-invalid", "what():  Invalid Vulkan device index"),
    (
        "llamacpp-too-many-sequences",
        "llama_init_from_model: failed to initialize the context: n_seq_max must be <= 64",
    ),
    (
        "llamacpp-gguf-version-unsupported",
        "gguf_init_from_reader: this GGUF file is version 7 but this software only supports up to version 3",
    ),
    (
        "llamacpp-gguf-version-unsupported",
        "gguf_init_from_file_impl: GGUFv1 is no longer supported, please use a more up-to-date version",
    ),
    (
        "llamacpp-hf-repo-no-gguf",
        "E common_download_get_hf_plan: no GGUF files found in repository google/gemma-3-4b-it",
    ),
    (
        "llamacpp-home-unset",
        "terminate called after throwing an instance of 'std::runtime_error'\n  what():  Failed to find $HOME directory",
    ),
    ("llamacpp-cache-dir-unwritable", "what():  failed to create cache directory: /root/.cache/llama.cpp/"),
    (
        "llamacpp-cache-dir-unwritable",
        "common_download_file_single_online: unable to delete file: /home/ai/.cache/llama.cpp/bartowski_x.gguf",
    ),
    (
        "llamacpp-router-models-max",
        "srv  llama_server: failed to initialize router models: number of models to load on startup (6) exceeds models_max (4)",
    ),
    ("llamacpp-metal-init-failed", "ggml_metal_device_init: error: failed to create library"),
    (
        "llamacpp-metal-oom",
        "ggml_backend_metal_buffer_type_alloc_buffer: failed to allocate Metal buffer of 21474836480 bytes (out of memory)",
    ),
    ("llamacpp-slot-state-mismatch", "state_read_data: mismatched value type (1 != 8, layer 3)"),
    (
        "llamacpp-slot-state-mismatch",
        "state_seq_load_file: unknown (magic, version) for sequence state file: 67677371, 2",
    ),
    (
        "llama-swap-matrix-expression",
        'level=ERROR msg="failed to load config" error="matrix: set \\"big\\": missing closing parenthesis"',
    ),
    (
        "llama-swap-tls-flags",
        'time=2026-11-30T08:00:00Z level=ERROR msg="both -tls-cert-file and -tls-key-file must be provided for TLS"',
    ),
    (
        "llama-swap-peer-config",
        'level=ERROR msg="failed to load config" error="model ID \\"box2/qwen\\" conflicts with fully qualified peer model name"',
    ),
    ("llama-swap-peer-config", 'msg="failed to load config" error="peer models can not be empty"'),
    (
        "llamacpp-device-buffer-alloc-failed",
        "E ggml_backend_buft_alloc_buffer_n_default: failed to allocate ROCm0 buffer of size 8589934592",
    ),
    ("llamacpp-vulkan-device-unsupported", "ggml_vulkan: device Vulkan1 does not support 16-bit storage."),
    (
        "llamacpp-docker-model-failed",
        "terminate called after throwing an instance of 'std::runtime_error'\n  what():  Failed to download Docker Model",
    ),
    (
        "llamacpp-backend-init-failed",
        "llama_init_from_model: failed to initialize the context: failed to initialize Vulkan0 backend",
    ),
    (
        "llamacpp-slot-state-mismatch",
        "llama_state_seq_load_file: error loading sequence state file: failed to read state",
    ),
    # wider wordings of existing families
    (
        "llamacpp-no-gpu",
        "warning: llama.cpp was compiled without support for GPU offload. Setting a tensor split has no effect.",
    ),
    (
        "router-config-routing-rule",
        'msg="failed to load config" error="set \\"pair\\" references undefined set \\"solo\\""',
    ),
    (
        "router-config-routing-rule",
        'msg="failed to load config" error="capabilities.in: invalid modality \\"video\\", must be one of: text, audio, image"',
    ),
    ("llamacpp-arg-file-unreadable", "what():  preset file does not exist: /etc/llama/presets.ini"),
    (
        "llamacpp-download-unreachable",
        "srv  llama_server: failed to download model: error: cannot make GET request",
    ),
    (
        "llamacpp-gguf-split-incomplete",
        "llama_model_load: error loading model: invalid split count, given: 5 splits, but expected 4",
    ),
    (
        "llamacpp-gguf-split-incomplete",
        "llama_model_load: error loading model: missing key split.count in GGUF split /m/DeepSeek-00002-of-00009.gguf",
    ),
    (
        "llamacpp-gguf-metadata-missing",
        "llama_model_load: error loading model: key qwen2.rope.dimension_sections has wrong array length; expected 4, got 3",
    ),
    (
        "llamacpp-gguf-metadata-missing",
        "llama_model_load: error loading model: key llama.context_length has wrong type str but expected type u32",
    ),
    (
        "llamacpp-bad-gguf",
        "gguf_init_from_reader: number of tensors is 18446744073709551615 but must be in [0, 4611686018427387903]",
    ),
    ("llamacpp-bad-gguf", "gguf_init_from_reader: tensor 'output.weight' has offset 4096, expected 8192"),
    (
        "llamacpp-tensor-mismatch",
        "llama_model_load: error loading model: require_weight: tensor 'blk.0.ssm_a' not found",
    ),
    ("llamacpp-invalid-argument", "expected value for argument"),
]


@pytest.mark.parametrize("want,line", CASES, ids=[f"{w}-{i}" for i, (w, _) in enumerate(CASES)])
def test_the_source_wording_names_its_family(want: str, line: str):
    _, d = top(line)
    assert d is not None and d.id == want, (line, d and d.id)


def test_a_healthy_llama_server_start_names_nothing():
    """A real llama-server b11434 run (tiny GGUF, -lv 4, one completion, then SIGTERM) on this machine."""
    r = triage_stream(io.BytesIO((LOGS / "llama-server-b11434-tiny-startup.log").read_bytes()), "t")
    assert not [d for d in r.diagnoses if d.role == "cause"], [d.id for d in r.diagnoses]


# llama-swap's own info lines, in its logger's format (internal/process/process_command.go, llama-swap.go)
LLAMA_SWAP_HEALTHY = """\
[INFO] llama-swap listening on http://:8080
[INFO] llama-swap is reachable by all hosts on the network, use -listen localhost:8080 to restrict to loopback only
[INFO] matrix: model=qwen3 starting (no models running)
[INFO] <qwen3> Health check passed on http://127.0.0.1:5801/health
[INFO] <qwen3> Unloading model, TTL of 300s reached
[INFO] received signal terminated, shutting down
"""


def test_healthy_llama_swap_lines_name_nothing():
    r, d = top(LLAMA_SWAP_HEALTHY)
    assert d is None or d.role not in ("cause",), d and d.id


def test_a_restored_slot_from_another_model_is_not_fatal():
    r, d = top("state_read_data: mismatched key type (8 != 1, layer 0)")
    assert d is not None and d.id == "llamacpp-slot-state-mismatch" and not d.fatal


def test_cuda_init_failure_quotes_the_runtime_reason():
    _, d = top(
        "ggml_cuda_init: failed to initialize CUDA: OS call failed or operation not supported on this OS"
    )
    assert d is not None and d.id == "llamacpp-cuda-init-failed" and "OS call failed" in d.cause


def test_the_coverage_benchmark_runs_offline_from_its_data_file(capsys):
    """benchmarks/doctor_coverage_llama.py reads only its committed catalogue (no network, no sources)."""
    from tests.conftest import load_script  # noqa: PLC0415

    bench = load_script("benchmarks/doctor_coverage_llama.py")
    msg = {"area": "GGUF", "src": "ggml/src/gguf.cpp:1", "kind": "error", "call": "GGML_LOG_ERROR",
           "template": "%s: tensor '%s' has offset %" "d, expected %zu\n", "args": ["__func__", "name", "ti.offset", "size"],
           "func": "gguf_init_from_reader"}  # fmt: skip
    assert bench.render(msg).startswith(
        "gguf_init_from_reader: tensor 'blk.3.attn_k.weight' has offset 3, expected"
    )
    assert bench.main(["--uncovered", "1", "--kind", "warning"]) == 0
    assert "overall" in capsys.readouterr().out


@pytest.mark.parametrize(
    "line, family",
    [
        (
            "llama_model_load: error loading model: unable to allocate CUDA0 buffer",
            "llamacpp-device-buffer-alloc-failed",
        ),
        (
            "llama_model_load: error loading model: unable to allocate Vulkan1 buffer",
            "llamacpp-device-buffer-alloc-failed",
        ),
        (
            "llama_model_load: error loading model: unable to allocate ROCm0 buffer",
            "llamacpp-device-buffer-alloc-failed",
        ),
        ("llama_model_load: error loading model: unable to allocate CPU buffer", "llamacpp-alloc-failed"),
    ],
)
def test_unable_to_allocate_names_the_memory_of_the_buffer_type(line, family):
    """llama-model.cpp's 'unable to allocate %s buffer' names the buffer type: a device's (CUDA0, Vulkan1)
    is GPU memory, never the host RAM / MemoryMax answer."""
    _, d = top(line + "\nllama_load_model_from_file: failed to load model")
    assert d is not None and d.id == family
