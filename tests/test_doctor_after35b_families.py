"""What the scored batches fresh-199 (vLLM scheduler and request limits) and fresh-203 (vLLM quantized checkpoints, a
3rd round) taught after they were scored (after35b): a host allocation refused beside a scheduler limit at a huge value
is that flag's (limit-flag-huge-allocation); the INC (auto-round) config's own refusals of a checkpoint's scheme are
checkpoint-quant-scheme-unsupported; the parameter loader's shape assert in the frames only quantization parameters
reach is a checkpoint whose quantization config does not describe its tensors.

Each log is written in ANOTHER wording than its corpus log (a sibling check of the same source, rendered from its
format string in vLLM 0.32, or another flag), so the test checks the class of wording; the near misses check what must
not match.
"""

from __future__ import annotations

from tests.doctor_text import assert_named, family_tests, run, top_cause

W = "(Worker pid=23254) ERROR 12-05 09:08:01 [multiproc_executor.py:953] "
TB = "Traceback (most recent call last):\n"
PARAM = '  File "/opt/venv/lib/python3.12/site-packages/vllm/model_executor/parameter.py", '


CASES = [
    # limit-flag-huge-allocation (fresh199-vllm-batched-tokens-10000000000): the sibling limit --max-num-seqs in the
    # non-default args dict, the sampler's dummy logits refused by torch's CPU allocator
    (
        "limit-flag-huge-allocation",
        "(APIServer pid=1) INFO 12-05 09:07:35 [api_utils.py:286] non-default args: {'model': 'm', "
        "'max_num_seqs': 5000000}\n"
        + W
        + "RuntimeError: [enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: can't allocate memory: "
        "you tried to allocate 640000000000 bytes. Error code 12 (Cannot allocate memory)\n",
    ),
    # --max-model-len given on the command line at 9 digits, Python's own ENOMEM
    (
        "limit-flag-huge-allocation",
        "$ vllm serve m --max-model-len 100000000\n" + TB + "OSError: [Errno 12] Cannot allocate memory\n",
    ),
    # the scheduler's own warning (config/scheduler.py) naming the value, then MemoryError
    (
        "limit-flag-huge-allocation",
        "WARNING 12-05 09:07:35 [scheduler.py:345] max_num_batched_tokens (2000000000) exceeds max_num_seqs * "
        "max_model_len (1048576). This may lead to unexpected behavior.\n" + TB + "MemoryError\n",
    ),
    # checkpoint-quant-scheme-unsupported (fresh203-vllm-autoround-packing-unknown): INCConfig.__init__'s sibling
    # raise on data_type (inc/inc.py, format string rendered), under VllmConfig's pydantic wrapper
    (
        "checkpoint-quant-scheme-unsupported",
        "pydantic_core._pydantic_core.ValidationError: 1 validation error for VllmConfig\n"
        "  Value error, Unsupported data_type: nv_fp, currently only support {'int', 'mx_fp', 'fp'}. "
        "[type=value_error, input_value=ArgsKwargs((), {'model_co... 'shutdown_timeout': 0}), input_type=ArgsKwargs]\n",
    ),
    # its bare form (the config built outside pydantic), the backend sibling
    (
        "checkpoint-quant-scheme-unsupported",
        TB + "ValueError: Unsupported backend: ipex, currently only support {'auto', 'gptq', 'marlin'}.\n",
    ),
    # INCConfig._validate_mxfp_quantization's assert (inc/inc.py)
    (
        "checkpoint-quant-scheme-unsupported",
        TB + "AssertionError: INC MXFP only supports group_size=32, but found group_size=128.\n",
    ),
    # INCConfig._check_expected on the block-wise FP8 activation fields (inc/inc.py)
    (
        "checkpoint-quant-scheme-unsupported",
        TB + "AssertionError: INC block-wise FP8 only supports act_bits=8, but found act_bits=4.\n",
    ),
    # get_quant_method's WNA16 linear scheme (inc/schemes/inc_wna16_linear.py)
    (
        "checkpoint-quant-scheme-unsupported",
        TB
        + "NotImplementedError: INC quantization with bits=3, sym=False is not supported. Only 4-bit and 8-bit "
        "symmetric quantization is supported with Marlin kernels.\n",
    ),
    # quantization-config-does-not-match-weights (fresh203-vllm-fp8-scale-per-channel): the sibling assert of
    # PerTensorScaleParameter._load_into_shard_id (parameter.py) loading a fused qkv scale
    (
        "quantization-config-does-not-match-weights",
        TB
        + PARAM
        + "line 278, in load_qkv_weight\n    self._load_into_shard_id(*args, **kwargs)\n"
        + PARAM
        + "line 299, in _load_into_shard_id\n    assert param_data.shape == loaded_weight.shape\nAssertionError\n",
    ),
    # the corpus frame under a column-parallel load (the same _assert_and_load)
    (
        "quantization-config-does-not-match-weights",
        TB
        + PARAM
        + "line 98, in load_column_parallel_weight\n    self._assert_and_load(loaded_weight)\n"
        + PARAM
        + "line 92, in _assert_and_load\n    assert self.data.shape == loaded_weight.shape or "
        "self._is_1d_and_scalar(\nAssertionError\n",
    ),
]

NEAR_MISSES = [
    # an allocation refused with the limits at ordinary values: the host's RAM, not a flag
    (
        "limit-flag-huge-allocation",
        "(APIServer pid=1) INFO 12-05 09:07:35 [api_utils.py:286] non-default args: {'model': 'm', "
        "'max_num_batched_tokens': 8192, 'max_model_len': 32768}\n"
        + W
        + "RuntimeError: [enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: can't allocate memory: "
        "you tried to allocate 2147483648 bytes. Error code 12 (Cannot allocate memory)\n",
    ),
    # another config's 'currently only support' that is no quantization field
    (
        "checkpoint-quant-scheme-unsupported",
        "ValueError: Unsupported tokenizer_mode: fast, currently only support {'auto', 'slow'}.\n",
    ),
    # an ordinary weight's shape assert (RowvLLMParameter.load_row_parallel_weight): not a quantization config
    (
        "quantization-config-does-not-match-weights",
        TB
        + PARAM
        + "line 225, in load_row_parallel_weight\n    assert self.data.shape == loaded_weight.shape\nAssertionError\n",
    ),
]

test_the_family_names_the_cause, test_a_near_miss_is_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_an_allocation_without_a_huge_limit_stays_host_memory():
    """host-memory-exhausted keeps the refusal where no scheduler limit shows a huge value."""
    assert_named("host-memory-exhausted", NEAR_MISSES[0][1])


def test_an_ordinary_weight_shape_assert_is_not_the_quantization_hint():
    """The hint reads only the frames that quantization parameters reach; an ordinary weight's assert is not it."""
    top = top_cause(run(NEAR_MISSES[2][1]))
    assert top is None or top.id != "quantization-config-does-not-match-weights"


def test_the_scale_assert_is_only_a_hint():
    """The log never names the tensor: the frame alone stays below the confident line."""
    top = top_cause(run(CASES[-1][1]))
    assert top is not None and top.confidence < 0.7
