"""Families grown from llama.cpp's, llama-swap's, systemd's and the NVIDIA container runtime's own texts
(issue 12, grown as knowledge/llama-router-service.toml, now in knowledge/ by domain).

Each case is a synthetic line written from the tool's message format, with prefixes and values unlike the
entry's excerpt; the negative cases pin what a family must NOT claim.
"""

from __future__ import annotations

import io

import pytest

from servebox.doctor.ranking import CONFIDENT
from servebox.doctor.triage import triage_stream


def top(text: str):
    r = triage_stream(io.StringIO(text if text.endswith("\n") else text + "\n"), "t")
    return r, r.diagnoses[0] if r.diagnoses else None


CASES = [
    (
        "llamacpp-kv-cache-alloc-failed",
        "E llama_init_from_model: failed to initialize the context: failed to allocate buffer for kv cache",
    ),
    ("llamacpp-kv-cache-alloc-failed", "[x] llama_memory_recurrent: failed to allocate buffer for rs cache"),
    (
        "llamacpp-compute-buffer-alloc-failed",
        "E ggml_gallocr_reserve_n: failed to allocate ROCm1 buffer of size 4294967296",
    ),
    ("llamacpp-compute-buffer-alloc-failed", "0.01.2 E sched_reserve: failed to allocate compute buffers"),
    (
        "llamacpp-gguf-metadata-missing",
        "E llama_model_load: error loading model: error loading model hyperparameters: key not found in model: gemma3.block_count",
    ),
    (
        "llamacpp-gguf-metadata-missing",
        "llama_model_load: error loading model: key 'general.file_type' must be of type u32 but is f32",
    ),
    (
        "llamacpp-gguf-metadata-missing",
        "llama_model_load: error loading model: corrupted model: 723 tensors expected but 700 found",
    ),
    (
        "llamacpp-gguf-split-incomplete",
        "E llama_model_loader: failed to load GGUF split from /data/GLM-4.6-Q3_K_M-00004-of-00004.gguf",
    ),
    (
        "llamacpp-lora-load-failed",
        "llama_adapter_lora_init: failed to apply lora adapter: tensor 'blk.11.ffn_up.weight' does not exist in base model (hint: maybe wrong base model?)",
    ),
    (
        "llamacpp-mmproj-load-failed",
        "E mtmd_init_from_file: failed to load CLIP model from /opt/vl/mmproj-q8.gguf. Does this file exist?",
    ),
    (
        "llamacpp-mmproj-as-main-model",
        "E llama_model_load: error loading model: CLIP cannot be used as main model, use it with --mmproj instead",
    ),
    (
        "llamacpp-draft-model-incompatible",
        "W spec: draft model vocab must closely match target model to use speculation but target vocab size 128256 does not match draft vocab size 32000 - difference 96256, max allowed 128",
    ),
    (
        "llamacpp-draft-model-incompatible",
        "srv    load_model: the draft model 'd.gguf' is not compatible with the target model 't.gguf'",
    ),
    (
        "llamacpp-backend-not-dl-build",
        "load_backend: failed to find ggml_backend_init in /opt/llama/lib/libggml-vulkan.so",
    ),
    (
        "llamacpp-main-gpu-invalid",
        "llama_model_load_from_file_impl: invalid value for main_gpu: 4 (available devices: 2)",
    ),
    ("llamacpp-arg-file-unreadable", "error: failed to open file '/run/secrets/api-keys.txt'"),
    ("llamacpp-arg-file-unreadable", "E failed to open server preset file: /etc/llama/models.ini"),
    ("llamacpp-hf-repo-invalid", "error: invalid HF repo format, expected <user>/<model>[:quant]"),
    (
        "llamacpp-hf-repo-invalid",
        "common_download_file_single: file 'gemma-3-4b-it-Q5_K_M.gguf' not found in repository",
    ),
    (
        "llamacpp-gguf-endianness",
        "llama_model_load_from_file_impl: failed to load model: this GGUF file version 33554432 is extremely large, is there a mismatch between the host and model endianness?",
    ),
    (
        "systemd-group-missing",
        "Mar 01 srv systemd[1]: ollama.service: Failed to determine supplementary group credentials: No such process",
    ),
    ("systemd-group-missing", "llm.service: Main process exited, code=exited, status=216/GROUP"),
    ("systemd-output-setup-failed", "swap.service: Failed to set up standard error: Permission denied"),
    ("systemd-output-setup-failed", "x.service: Main process exited, code=exited, status=222/STDERR"),
    (
        "systemd-exec-directory-failed",
        "llm.service: Failed to set up special execution directory in /var/lib: Read-only file system",
    ),
    (
        "systemd-exec-directory-failed",
        "llm.service: Main process exited, code=exited, status=240/LOGS_DIRECTORY",
    ),
    (
        "systemd-sandbox-not-applicable",
        "llm.service: Failed at step SECCOMP spawning /opt/bin/llama-server: Invalid argument",
    ),
    ("systemd-sandbox-not-applicable", "llm.service: Failed to drop capabilities: Operation not permitted"),
    ("systemd-credentials-failed", "llm.service: Main process exited, code=exited, status=243/CREDENTIALS"),
    (
        "systemd-unit-oom-killed",
        "gpu systemd[1]: swap.service: A process of this unit has been killed by the OOM killer.",
    ),
    (
        "systemd-exec-path-invalid",
        "/etc/systemd/system/x.service:12: Executable path specifies a directory: /opt/llama.cpp/build/bin/",
    ),
    (
        "container-image-cuda-newer-than-driver",
        "stderr: nvidia-container-cli: requirement error: unsatisfied condition: cuda>=13.0, please update your driver to a newer version: unknown",
    ),
    ("container-gpu-unknown-device", "nvidia-container-cli: device error: 7: unknown device: unknown."),
    (
        "container-toolkit-ldconfig",
        "nvidia-container-cli: ldcache error: process /sbin/ldconfig.real failed with error code: 1: unknown",
    ),
    (
        "container-image-ships-driver-files",
        "nvidia-container-cli: mount error: file creation failed: /var/lib/containers/storage/overlay/z/merged/usr/bin/nvidia-smi: file exists: unknown",
    ),
    (
        "container-cdi-unresolvable",
        "Error: setting up CDI devices: unresolvable CDI devices nvidia.com/gpu=1",
    ),
    (
        "container-cdi-spec-stale",
        "Error: crun: error stat'ing file `/usr/lib/x86_64-linux-gnu/libcuda.so.570.86.15`: No such file or directory",
    ),
    ("container-nvml-lost-devices", "llama-server | Failed to initialize NVML: Unknown Error"),
    (
        "cuda-driver-mismatch",
        "nvidia-container-cli: initialization error: nvml error: driver/library version mismatch: unknown",
    ),
    ("cpu-illegal-instruction", "llm.service: Main process exited, code=dumped, status=4/ILL"),
    (
        "cpu-illegal-instruction",
        "/run.sh: line 3:    12 Illegal instruction     (core dumped) ./llama-server -m x.gguf",
    ),
    (
        "router-config-routing-rule",
        'level=ERROR msg="failed to load config" error="routing.router.use: unknown router \\"groups\\" (valid: group, matrix)"',
    ),
    (
        "router-config-routing-rule",
        'Error: failed to load config: set "gpu1" references undefined set "gpu0"',
    ),
    ("router-config-routing-rule", "failed to load config: store.path: /srv/swap is a directory, not a file"),
    (
        "router-config-routing-rule",
        'failed to load config: selectors.chat.targets[1] references unknown model "llama3"',
    ),
    (
        "router-config-routing-rule",
        'failed to load config: duplicate model "gemma" found in /etc/swap.d/b.yaml (already defined in another config source)',
    ),
    (
        "router-config-invalid",
        "failed to load config: models.qwen.env: environment variable 'HF_HOME' is not set",
    ),
    ("router-upstream-exited", "[INFO] <gemma> process exited with error: exit status 2"),
    ("llamacpp-mmap-failed", "E llama_model_load: error loading model: mmap failed: Operation not permitted"),
    ("llamacpp-vulkan-no-driver", "  what():  vk::createInstance: ErrorIncompatibleDriver"),
    (
        "llamacpp-cuda-stub-library",
        "W ggml_cuda_init: failed to initialize CUDA: CUDA driver is a stub library",
    ),
    (
        "llamacpp-unknown-pre-tokenizer",
        "E llama_model_load: error loading model: error loading model vocabulary: unknown pre-tokenizer type: 'kimi-k3'",
    ),
    ("systemd-unit-masked", "Failed to restart ollama.service: Unit ollama.service is masked."),
    (
        "systemd-user-bus-unavailable",
        "Failed to connect to user scope bus via local transport: $DBUS_SESSION_BUS_ADDRESS and $XDG_RUNTIME_DIR not defined",
    ),
    ("systemd-access-denied", "Failed to restart vllm.service: Interactive authentication required."),
    ("command-not-found", "bash: line 1: llama-swap: command not found"),
    # learn42f: a PATH (a slash: no PATH lookup) to the engine's own binary that is not there is engine-binary-missing's
    # (fresh-318); a bare name not found stays command-not-found's (the row above)
    ("engine-binary-missing", "/bin/sh: 3: /opt/llama/bin/llama-server: not found"),
    ("command-not-found", "/bin/sh: 3: jq: not found"),
    (
        "systemd-service-type-mismatch",
        "swap.service: Can't open PID file /run/swap/pid (yet?) after start: Operation not permitted",
    ),
    (
        "systemd-exec-failed",
        "x.service: Unable to locate executable '/opt/bin/llama-swap': No such file or directory",
    ),
    (
        "llamacpp-offline-cache-miss",
        "W common_download_file_single_online: required file is not available in cache (offline mode): org/m-GGUF/m-Q8_0.gguf",
    ),
    (
        "llamacpp-download-unauthorized",
        "E common_download_file_single: download failed: Unauthorized (status: 401)",
    ),
    ("llamacpp-download-unreachable", "E common_download_file_single: download failed after 5 attempts"),
    (
        "llamacpp-hf-repo-invalid",
        "common_download_file_single_online: download received non-successful status code: 404",
    ),
    (
        "llamacpp-ubatch-below-input",
        "error: input (4100 tokens) is too large to process. increase the physical batch size (current batch size: 2048)",
    ),
    ("router-cmd-empty", "[ERROR] <bge-m3> unable to get sanitized command: empty command"),
    (
        "llamacpp-request-needs-mmproj",
        "got exception: audio input is not supported - hint: if this is unexpected, you may need to provide the mmproj",
    ),
    (
        "llamacpp-rocm-no-device",
        "W ggml_cuda_init: failed to initialize ROCm: no ROCm-capable device is detected",
    ),
]


@pytest.mark.parametrize(("want", "line"), CASES)
def test_the_source_wording_names_its_family(want: str, line: str):
    r, d = top(line)
    assert d is not None and d.id == want, (d and d.id, line)


def test_a_missing_mmproj_or_lora_file_stays_a_missing_file():
    _, d = top(
        "E gguf_init_from_file: failed to open GGUF file '/srv/m/mmproj.gguf' (No such file or directory)\n"
        "E mtmd_init_from_file: error: Failed to load CLIP model from /srv/m/mmproj.gguf\n"
        "E srv    load_model: failed to load multimodal model, '/srv/m/mmproj.gguf'\n"
    )
    assert d.id == "llamacpp-model-file-missing"


def test_a_missing_vocabulary_key_is_a_missing_gguf_key():
    # (after32j, fresh-150: the log names the key the GGUF lacks, so the generic load failure no longer keeps it)
    _, d = top(
        "E llama_model_load: error loading model: error loading model vocabulary: key not found in model: tokenizer.ggml.model\n"
    )
    assert d.id == "llamacpp-gguf-metadata-missing"


def test_a_compute_buffer_the_server_recovered_from_is_not_the_failure():
    r, d = top(
        "E ggml_gallocr_reserve_n: failed to allocate CUDA0 buffer of size 2147483648\n"
        "I main: server is listening on http://127.0.0.1:8080\n"
    )
    assert not r.fatal or d.confidence < CONFIDENT


def test_kv_cache_failure_outranks_the_context_symptom():
    r, d = top(
        "E llama_kv_cache: failed to allocate buffer for kv cache\n"
        "E llama_init_from_model: failed to initialize the context: failed to allocate buffer for kv cache\n"
        "E common_init_from_params: failed to create context with model 'x.gguf'\n"
    )
    assert r.fatal and d.id == "llamacpp-kv-cache-alloc-failed" and d.confidence >= CONFIDENT


def test_a_generic_exec_step_stays_generic_and_an_ordinary_kill_is_not_an_illegal_instruction():
    _, d = top("llm.service: Main process exited, code=exited, status=210/CHROOT")
    assert d.id == "systemd-exec-step-failed"
    _, d = top("llm.service: Main process exited, code=killed, status=15/TERM")
    assert d is None or d.id != "cpu-illegal-instruction"
    _, d = top(
        "nvidia-container-cli: initialization error: load library failed: libnvidia-ml.so.1: cannot open shared object file"
    )
    assert d.id == "no-gpu-driver-in-container"


def test_a_clean_llama_swap_exit_is_not_an_upstream_failure():
    _, d = top("<qwen> process exited cleanly\n<qwen> process exited: code=0, err=<nil>")
    assert d is None or d.id != "router-upstream-exited"


@pytest.mark.parametrize(
    "line",
    [
        "ggml_vulkan: No devices found.",
        "ggml_cuda_init: failed to initialize ROCm: no ROCm-capable device is detected",
    ],
)
def test_warnings_llama_server_goes_on_from_are_notes_once_it_serves(line: str):
    r, d = top(line + "\nI main: server is listening on http://127.0.0.1:8080\n")
    assert not r.fatal and d.role == "note" and "Not a failure" in d.cause


def test_an_mlock_failure_stays_a_cause_once_it_serves():
    """learn39b: pinning is only tried when asked for, and the model stays unpinned while it serves: a non-fatal cause."""
    r, d = top(
        "warning: failed to mlock 8589934592-byte buffer (after previously locking 0 bytes): Resource temporarily "
        "unavailable\nI main: server is listening on http://127.0.0.1:8080\n"
    )
    assert not r.fatal and d.id == "llamacpp-mlock-failed" and d.role == "cause" and d.confidence < 0.7


def test_a_found_command_or_an_ordinary_exit_code_is_not_command_not_found():
    _, d = top("llm.service: Main process exited, code=exited, status=1/FAILURE")
    assert d is None or d.id != "command-not-found"
    _, d = top("W srv  load_model: model alias not found: using default")
    assert d is None or d.id != "command-not-found"


def test_a_refused_download_outranks_the_retries_that_follow_it():
    _, d = top(
        "E common_download_file_single: download failed: Forbidden (status: 403)\n"
        "E common_download_file_single: download failed after 3 attempts\n"
    )
    assert d.id == "llamacpp-download-unauthorized" and d.confidence >= CONFIDENT
    _, d = top("E common_download_file_single: download failed after 3 attempts\n")
    assert d.confidence < CONFIDENT


def test_a_multimodal_request_without_mmproj_is_not_a_dead_server():
    r, d = top("Multimodal data provided, but model does not support multimodal requests.")
    assert d.id == "llamacpp-request-needs-mmproj" and not r.fatal


def test_an_engine_that_llama_swap_unloaded_for_its_ttl_is_not_a_failure():
    r, d = top(
        "[INFO] <gemma> Unloading model, TTL of 600s reached\n"
        "[DEBUG] [gemma] sending stop signal with timeout 10s\n"
        "<gemma> process exited: code=-1, err=signal: terminated\n"
    )
    assert d is None or d.role in ("shutdown", "note") or d.confidence < CONFIDENT
