"""Families learnt or widened from the scored fresh-24 (vLLM 0.26 on H200) and fresh-26 (public vLLM threads) batches, each in a wording other than
its corpus log's: other variables, other fields, other values."""

from __future__ import annotations

import pytest

from tests.doctor_text import run, top_cause

CASES = [
    # an on/off flag read by int() given a word (corpus: VLLM_KEEP_ALIVE_...=yes): vllm-env-invalid-choice's until
    # after37e (s37), vllm-env-value-not-integer's since (the lead's call: every int() parse of a variable)
    (
        "vllm-env-value-not-integer",
        '(EngineCore pid=7)   File "/opt/venv/lib/python3.12/site-packages/vllm/envs.py", line 812, in <lambda>\n'
        '(EngineCore pid=7)     bool(int(os.getenv("VLLM_ALLOW_LONG_MAX_MODEL_LEN", "0")))\n'
        "(EngineCore pid=7) ValueError: invalid literal for int() with base 10: 'On'\n",
        "VLLM_ALLOW_LONG_MAX_MODEL_LEN",
    ),
    # vllm-env-value-not-integer (new): a number with units (corpus: VLLM_IMAGE_FETCH_TIMEOUT=5s)
    (
        "vllm-env-value-not-integer",
        '  File "/usr/local/lib/python3.11/dist-packages/vllm/envs.py", line 640, in <lambda>\n'
        '    "VLLM_RPC_TIMEOUT": lambda: int(os.getenv("VLLM_RPC_TIMEOUT", "10000")),\n'
        "ValueError: invalid literal for int() with base 10: '10000ms'\n",
        "VLLM_RPC_TIMEOUT",
    ),
    # config-json-field-wrong-type (new): another field, another type (corpus: hidden_act 0)
    (
        "config-json-field-wrong-type",
        "huggingface_hub.errors.StrictDataclassFieldValidationError: Validation error for field 'rope_theta':\n"
        "    TypeError: Field 'rope_theta' expected float, got str (value: '1e6')\n",
        "rope_theta",
    ),
    (
        "config-json-field-wrong-type",
        "TypeError: Field 'tie_word_embeddings' with value 'yes' doesn't match any type in (<class 'bool'>,). "
        "Errors: Field 'tie_word_embeddings' expected bool, got str (value: 'yes')\n",
        "tie_word_embeddings",
    ),
    # model-architectures-missing widened: a string where the list is wanted (corpus: architectures 0)
    (
        "model-architectures-missing",
        "TypeError: Field 'architectures' with value 'MistralForCausalLM' doesn't match any type in "
        "(list[str], <class 'NoneType'>). Errors: Field 'architectures' expected a list, got str\n",
        "architectures",
    ),
    # fresh-26 (public vLLM threads)
    # weights-missing widened: vLLM <= 0.4 quoted the path with ' (corpus: a Ray worker, CodeLlama)
    (
        "weights-missing",
        "ERROR 05-02 11:00:01 worker.py:77] RuntimeError: Cannot find any model weights with '/mnt/models/mistral-7b'\n",
        "/mnt/models/mistral-7b",
    ),
    # mm-prompt-placeholders-mismatch widened: the runner's token count against the placeholders (corpus: 4 images)
    (
        "mm-prompt-placeholders-mismatch",
        "ValueError: Attempted to assign 576 + 576 = 1152 multimodal tokens to 1728 placeholders\n",
        "1728",
    ),
    # kv-cache-plugin-layout-unsupported (new): another shape, another process (corpus: kvcached and FlashInfer)
    (
        "kv-cache-plugin-layout-unsupported",
        "(Worker pid=11) ERROR [multiproc_executor.py:700] ValueError: Unsupported KV cache shape: (2, 8192, 16, 8, 64)\n",
        "(2, 8192, 16, 8, 64)",
    ),
    # lmcache-vllm-model-not-registered (new): another instance id (corpus: 'vllm-instance')
    (
        "lmcache-vllm-model-not-registered",
        "(EngineCore_DP0 pid=5) ERROR [core.py:850] ValueError: vllm model for lmcache-worker-0 not found.\n",
        "lmcache-worker-0",
    ),
    # external-kv-connector-assert (new): another connector's file and function (corpus: VUA's start_load_kv)
    (
        "external-kv-connector-assert",
        '  File "/srv/mycache/mycache/integration/kv_connector.py", line 88, in wait_for_save\n'
        "    assert slot is not None\n"
        "AssertionError\n",
        "wait_for_save",
    ),
    # multi-step-advance-step-bug (new): the FlashInfer variant on another tensor (corpus: flashattn, sampled_token_ids)
    (
        "multi-step-advance-step-bug",
        "    return torch.ops._C.advance_step_flashinfer(num_seqs, num_queries,\n"
        "RuntimeError: tensor: name = input_positions, shape = [12] is_cont = 1, type = long int is not as expected\n",
        "input_positions",
    ),
    # rocm-install-header-missing (new): gcc's wording, another header, the unversioned /opt/rocm
    (
        "rocm-install-header-missing",
        "/opt/rocm/include/hip/hip_fp16.h:29:10: fatal error: hip/amd_detail/amd_hip_fp16.h: No such file or directory\n",
        "amd_hip_fp16.h",
    ),
]


@pytest.mark.parametrize(("family", "log", "named"), CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_learnt_family(family: str, log: str, named: str) -> None:
    top = top_cause(run(log))
    assert top is not None and top.id == family
    assert named in top.cause or named in top.fix


def test_model_type_list_only_suggests() -> None:
    """An unhashable list raised in vLLM's config parser suggests a wrong-typed field, below 0.70."""
    log = (
        '  File "/opt/vllm/vllm/transformers_utils/config.py", line 290, in parse\n'
        "    if model_type in _CONFIG_REGISTRY:\n"
        "TypeError: unhashable type: 'dict'\n"
    )
    top = top_cause(run(log))
    assert top is not None and top.id == "config-json-field-wrong-type" and top.confidence < 0.7


def test_a_bare_int_refusal_names_no_variable() -> None:
    """Without the envs.py line that names the variable, a word refused by int() is no confident env answer."""
    top = top_cause(run("ValueError: invalid literal for int() with base 10: 'true'\n"))
    assert top is None or top.id != "vllm-env-invalid-choice" or top.confidence < 0.7
