"""fresh-5's families (issue 12, third round), grown from the engines' and tools' OWN message texts.

Each log is a short synthetic line written from the text in the source that prints it: NCCL's
shmutils (as PyTorch quotes it under "Last error:"), huggingface_hub's repo-id validation as
transformers raises it, llama-swap's config.go ("failed to decode after macro substitution"),
vLLM 0.32's v1/worker/utils.py ("No common block size") and attention backends, torch's module
__getattr__, vLLM's weight loaders (params_dict[name]), servebox's own InputError line, torch's
TCPStore client, Ray's gcs_rpc_client.h, the OCI runtimes' exec error, llama-swap's health check and
ggml-cuda's arch check. Wordings, prefixes and values differ from the corpus logs on purpose. The
negative cases pin what each widened entry must NOT claim (the confident-wrong kind of mistake).
"""

from __future__ import annotations

import io

import pytest

from servebox.doctor.ranking import CONFIDENT
from servebox.doctor.triage import triage_stream

RANK = "[rank3]: "
CORE = "(EngineCore pid=77) ERROR 12-03 09:00:00 [core.py:1510] "

CASES = [
    # NCCL's shm failure quoted by PyTorch, no "NCCL WARN" prefix
    (
        "nccl-shm-too-small",
        RANK
        + "torch.distributed.DistBackendError: NCCL error in: NCCLUtils.hpp:268, unhandled system error\n"
        + RANK
        + "Last error:\n"
        + RANK
        + "Error while creating shared memory segment /dev/shm/nccl-XyZ (size 4194304)\n",
    ),
    (
        "nccl-shm-too-small",
        "ncclSystemError: ...\nLast error:\nError: failed to extend /dev/shm/nccl-abc to 9637892 bytes\n",
    ),
    # a FILE given where a directory (or repo id) is wanted: it exists, it is not a directory
    (
        "hub-bad-repo-id",
        "OSError: Repo id must be in the form 'repo_name' or 'namespace/repo_name': "
        "'/srv/models/qwen/tokenizer_config.json'. Use `repo_type` argument if needed.\n",
    ),
    (
        "hub-bad-repo-id",
        "OSError: ./weights/model.gguf is not a local folder and is not a valid model identifier listed\n",
    ),
    # llama-swap: an anchor lost when a section is decoded again after macro substitution
    (
        "llama-swap-regression",
        'time=2026-01-02 level=ERROR msg="failed to load config" error="model q: reasoningFilter: failed to decode '
        "after macro substitution: yaml: unknown anchor 'presets' referenced\"\n",
    ),
    (
        "block-size-unsupported",
        CORE + "ValueError: No common block size for 24 (FLASH_ATTN: [MultipleOf(16)]).\n",
    ),
    ("block-size-unsupported", CORE + "ValueError: Block size must be a multiple of 16.\n"),
    (
        "block-size-unsupported",
        "ValueError: Selected backend AttentionBackendEnum.FLASHINFER is not valid for this configuration. "
        "Reason: ['block_size not supported']\n",
    ),
    ("config-dtype-invalid", "AttributeError: module 'torch' has no attribute 'float61'\n"),
    ("config-dtype-invalid", CORE + "ValueError: Unknown dtype: 'fp17'\n"),
    ("quantization-not-detected", RANK + "KeyError: 'model.layers.0.self_attn.qkv_proj.qzeros'\n"),
    (
        "quantization-not-detected",
        "KeyError: 'language_model.model.layers.3.mlp.down_proj.weight_scale_inv'\n",
    ),
    ("servebox-spec-invalid", "servebox: error: spec.toml: models[1].gpus: expected a list of integers\n"),
    (
        "master-addr-unreachable",
        "[W1203 09:00:01.1 socket.cpp:752] [c10d] The client socket has timed out after 600000ms while trying "
        "to connect to (192.168.7.1, 29500).\n",
    ),
    (
        "master-addr-unreachable",
        "[W1203 09:00:01.1 TCPStore.cpp:340] [c10d] TCP client failed to connect/validate to host node0:29501 "
        "- retrying (try=0, timeout=600000ms, delay=1000ms): Connection refused\n",
    ),
    (
        "ray-head-unreachable",
        "ConnectionError: Unable to connect to GCS (ray head) at 10.0.0.5:6379. Check that\n",
    ),
    (
        "ray-head-unreachable",
        "[2026-01-02 E 7 7] gcs_rpc_client.h:179: failed to connect to GCS at address 172.17.0.2:6380 within 60 seconds.\n",
    ),
    (
        "container-command-not-on-path",
        "Error: failed to create containerd task: failed to create shim task: OCI runtime create failed: "
        'runc create failed: unable to start container process: exec: "vllm": executable file not found in $PATH\n',
    ),
    (
        "container-command-not-on-path",
        "Error: crun: executable file `llama-server` not found in $PATH: No such file or directory\n",
    ),
    ("router-health-endpoint-missing", "[WARN] <embed> Health check error: status code: 404\n"),
    (
        "no-kernel-image",
        "ggml_cuda_compute_forward: ERROR: CUDA kernel mul_mat_q has no device code compatible with CUDA arch 600. "
        "ggml-cuda.cu was compiled for: 750,800\n",
    ),
    (
        "llamacpp-invalid-argument",
        "2026-12-03T07:10:16Z m: INCIDENT dead: the engine process is gone; diagnosis: llama-server refused its "
        "command line at --ctx-size: an unknown flag or a value of the wrong form. (fix: ...)\n",
    ),
]


def run(log: str):
    return triage_stream(io.BytesIO(log.encode()), "synthetic")


@pytest.mark.parametrize(("expected", "log"), CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_family_is_named_from_its_own_wording(expected, log):
    r = run(log)
    ids = [d.id for d in r.diagnoses if d.role in ("cause", "symptom")]
    assert ids and ids[0] == expected, [(d.id, d.role, d.confidence) for d in r.diagnoses]
    assert "?" not in r.diagnoses[0].cause and "{" not in r.diagnoses[0].cause, r.diagnoses[0].cause


def test_a_directory_path_is_still_one_that_does_not_exist():
    """Only a path naming a file moved to hub-bad-repo-id: a directory-like one keeps its family."""
    r = run(
        "OSError: Repo id must be in the form 'repo_name' or 'namespace/repo_name': '/srv/models/Qwen2.5-7B'.\n"
    )
    assert r.diagnoses[0].id == "model-path-not-found"


def test_a_file_given_as_tokenizer_is_never_said_not_to_exist():
    r = run(
        "OSError: Repo id must be in the form 'repo_name' or 'namespace/repo_name': '/m/tokenizer.model'.\n"
    )
    assert all("does not exist" not in d.cause for d in r.diagnoses), [d.cause for d in r.diagnoses]


def test_a_llama_swap_regression_is_never_confident():
    """The log cannot fully tell llama-swap's lost anchor from a macro value that broke the YAML."""
    r = run("failed to load config c.yml: model m: capabilities: failed to decode after macro substitution: "
            "yaml: unknown anchor 'caps' referenced\n")  # fmt: skip
    assert r.diagnoses[0].id == "llama-swap-regression" and r.diagnoses[0].confidence < CONFIDENT
    assert "router-config-invalid" not in [d.id for d in r.diagnoses]


def test_a_plain_yaml_error_stays_the_users_config():
    r = run(
        "failed to parse config /etc/llama-swap.yaml: yaml: line 3: mapping values are not allowed here\n"
    )
    assert r.diagnoses[0].id == "router-config-invalid"


def test_a_bare_nccl_system_error_is_the_shm_hint_never_confident():
    """PyTorch's 'NCCL error ... unhandled system error' names no call: the /dev/shm reason (NCCL's docs
    name it first in containers; MiniMax-AI/MiniMax-01#42 was one) leads, as a hint, not as a cause."""
    r = run("RuntimeError: NCCL error in: NCCLUtils.hpp:275, unhandled system error, NCCL version 2.21.5\n")
    assert r.diagnoses[0].id == "nccl-shm-too-small" and r.diagnoses[0].confidence < CONFIDENT
    r = run("RuntimeError: NCCL error in: ProcessGroupNCCL.cpp:1970, invalid usage, NCCL version 2.21.5\n")
    assert r.diagnoses[0].id == "nccl-error" and r.diagnoses[0].confidence < CONFIDENT


def test_an_unquantized_key_error_is_not_a_quantization_cause():
    r = run("KeyError: 'model.layers.0.mlp.gate_proj.weight'\n")
    assert all(d.id != "quantization-not-detected" for d in r.diagnoses)


def test_a_health_check_that_is_only_refused_is_not_a_missing_endpoint():
    r = run('!!! Health check error: Get "http://localhost:9790/health": dial tcp: connection refused\n')
    assert all(d.id != "router-health-endpoint-missing" for d in r.diagnoses)


def test_an_unreadable_model_file_is_not_called_an_unwritable_cache():
    """PermissionError names no direction: only a cache- or state-like path gets the cache fix, and
    another path is named without confidence."""
    r = run(
        "PermissionError: [Errno 13] Permission denied: '/srv/models/q/model-00001-of-00002.safetensors'\n"
    )
    assert r.diagnoses[0].id == "path-permission-denied" and r.diagnoses[0].confidence < CONFIDENT
    r = run("PermissionError: [Errno 13] Permission denied: '/var/lib/llm/.cache/vllm/torch_compile_cache'\n")
    assert [d.id for d in r.diagnoses] == ["cache-permission-denied"]


def test_vllms_invalid_repo_or_directory_does_not_claim_the_directory_exists():
    r = run("ValueError: Invalid repository ID or local directory specified: '/srv/m/tokenizer.json'.\n")
    assert r.diagnoses[0].id == "model-dir-invalid" and "may not exist" in r.diagnoses[0].cause


def test_another_macro_substitution_failure_is_not_confidently_the_users_yaml():
    r = run(
        'level=ERROR msg="failed to load config" error="model m: capabilities: failed to decode after macro '
        'substitution: yaml: unmarshal errors: cannot unmarshal !!str `x` into int"\n'
    )
    assert r.diagnoses[0].id == "router-config-after-macros" and r.diagnoses[0].confidence < CONFIDENT
    assert "router-config-invalid" not in [d.id for d in r.diagnoses]


def test_a_namespace_step_refused_by_the_host_is_not_a_missing_path():
    r = run(
        "systemd[1]: llm.service: Failed at step NAMESPACE spawning /opt/v/bin/python: Permission denied\n"
    )
    assert r.diagnoses[0].id == "systemd-namespace-failed" and r.diagnoses[0].confidence < CONFIDENT
    r = run(
        "systemd[1]: llm.service: Failed to set up mount namespacing: /var/lib/llm: No such file or directory\n"
    )
    assert [d.id for d in r.diagnoses] == ["systemd-namespace"]


# families from vLLM 0.32's own raise texts (config/model.py, config/scheduler.py), torch's CUDA checks,
# c10d's store and the tokenizers library's serde message, worded as a real log would carry them
MORE = [
    (
        "quantization-mismatch",
        CORE + "ValueError: Quantization method specified in the model config (gptq) does not match the "
        "quantization method specified in the `quantization` argument (fp8).\n",
    ),
    ("torch-without-cuda", RANK + "AssertionError: Torch not compiled with CUDA enabled\n"),
    (
        "gpu-busy-or-unavailable",
        "torch.AcceleratorError: CUDA error: CUDA-capable device(s) is/are busy or unavailable\n",
    ),
    (
        "dist-peers-missing",
        "torch.distributed.DistStoreError: Timed out after 901 seconds waiting for clients. 2/4 clients joined.\n",
    ),
    (
        "tokenizer-corrupt",
        "Exception: data did not match any variant of untagged enum PyPreTokenizerTypeWrapper at line 69 column 3\n",
    ),
]


@pytest.mark.parametrize(("expected", "log"), MORE, ids=[f"{c[0]}-{i}" for i, c in enumerate(MORE)])
def test_more_families_are_named_from_their_own_wording(expected, log):
    test_family_is_named_from_its_own_wording(expected, log)
