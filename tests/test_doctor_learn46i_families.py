"""What the measured batch fresh-393 (will this checkpoint load on this GPU, round 4; vLLM 0.26 on an H100) taught,
with the neighbourhood of each miss's check in vLLM 0.26's (and 0.32's) source.

- checkpoint-quant-config-incomplete: fp8.py Fp8Config's 'The quantization block size of weight must have 2 dimensions,
  but got {n} dimensions' (a weight_block_size of other than two values: a malformed field, no scheme), moved here from
  checkpoint-quant-scheme-unsupported.
- quantized-input-not-aligned: the whole layer width (one GPU) as well as the per-rank split: modelopt.py's 'ModelOpt
  FP8_PB_WO requires {out|in}_features divisible by {block}, got {n}.' and fp8_utils.py per_token_group_quant_fp8's
  assertion 'the last dimension of `x` {n} must be divisible by `group_size` {g}' (eager, or carried by dynamo's
  'Observed exception' debug context), and int8_utils.py's twin without numbers.
Messages are the source's format strings rendered with other values than the corpus logs' (marked 'rendered').
"""

from __future__ import annotations

from tests.doctor_text import family_tests

API = "(APIServer pid=4100) "
CORE = "(EngineCore pid=4200) "


def api_config_refusal(model: str, message: str) -> str:
    """The API server refusing the VllmConfig as pydantic wraps a quant config reader's ValueError."""
    return (
        f"$ vllm serve {model} --max-model-len 4096\n"
        f"{API}Traceback (most recent call last):\n"
        f'{API}  File "/usr/local/lib/python3.12/site-packages/vllm/engine/arg_utils.py", line 2372, in create_engine_config\n'
        f"{API}    config = VllmConfig(\n"
        f"{API}pydantic_core._pydantic_core.ValidationError: 1 validation error for VllmConfig\n"
        f"{API}  Value error, {message} [type=value_error, input_value=ArgsKwargs((), {{'model_co...}}), input_type=ArgsKwargs]\n"
        f"{API}    For further information visit https://errors.pydantic.dev/2.11/v/value_error\n"
    )


def core_raise(model: str, frame: str, exc: str) -> str:
    """The EngineCore failing at model init or at its first forward, then the API server's wrapper."""
    return (
        f"$ vllm serve {model} --max-model-len 4096\n"
        f"{CORE}ERROR 01-02 10:00:00 [core.py:1330] EngineCore failed to start.\n"
        f"{CORE}ERROR 01-02 10:00:00 [core.py:1330] Traceback (most recent call last):\n"
        f'{CORE}ERROR 01-02 10:00:00 [core.py:1330]   File "/usr/local/lib/python3.12/site-packages/vllm/{frame}\n'
        f"{CORE}ERROR 01-02 10:00:00 [core.py:1330] {exc}\n"
        f"{API}RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {{}}\n"
    )


def dynamo_observed(message: str) -> str:
    """torch.compile tracing the model into a failing assertion: dynamo names only the class; the words are in the
    debug context (rendered from torch 2.11's Unsupported: Observed exception)."""
    p = f"{CORE}ERROR 01-02 10:00:00 [core.py:1330] "
    return (
        "$ vllm serve /models/mixtral-fp8-block --max-model-len 4096\n"
        f"{p}EngineCore failed to start.\n"
        f"{p}Traceback (most recent call last):\n"
        f'{p}  File "/usr/local/lib/python3.12/site-packages/torch/_dynamo/symbolic_convert.py", line 2030, in RAISE_VARARGS\n'
        f"{p}torch._dynamo.exc.ObservedAssertionErrorError: raised exception ExceptionVariable(<class 'AssertionError'>)\n"
        f"{p}\n"
        f"{p}During handling of the above exception, another exception occurred:\n"
        f"{p}torch._dynamo.exc.Unsupported: Observed exception\n"
        f"{p}  Explanation: Dynamo found no exception handler at the top-level compiled function when encountering an "
        "exception. Exception will propagate outside the compiled region.\n"
        f"{p}  Developer debug context: raised exception AssertionError([ConstantVariable(str: '{message}')])\n"
        f"{p}from user code:\n"
        f'{p}  File "/usr/local/lib/python3.12/site-packages/vllm/model_executor/layers/quantization/utils/fp8_utils.py", '
        "line 720, in per_token_group_quant_fp8\n"
        f"{API}RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {{}}\n"
    )


CASES = [
    # fp8.py Fp8Config.__init__ (0.26 line 121): a weight_block_size of one value (rendered, pydantic-wrapped)
    (
        "checkpoint-quant-config-incomplete",
        api_config_refusal(
            "/models/qwen3-fp8-block",
            "The quantization block size of weight must have 2 dimensions, but got 1 dimensions",
        ),
    ),
    # ... four values, raised bare where the config is built outside pydantic (rendered)
    (
        "checkpoint-quant-config-incomplete",
        "$ python offline.py\nValueError: The quantization block size of weight must have 2 dimensions, but got 4 "
        "dimensions\n",
    ),
    # modelopt.py 0.26 line 698: down_proj's input width (rendered)
    (
        "quantized-input-not-aligned",
        core_raise(
            "/models/llama-modelopt-fp8-pb-wo",
            'model_executor/layers/quantization/modelopt.py", line 697, in create_weights',
            "ValueError: ModelOpt FP8_PB_WO requires in_features divisible by 128, got 11000.",
        ),
    ),
    # ... out_features at a tensor-parallel share (rendered: 2 x 14336 / 3 ranks)
    (
        "quantized-input-not-aligned",
        core_raise(
            "/models/llama-modelopt-fp8-pb-wo",
            'model_executor/layers/quantization/modelopt.py", line 692, in create_weights',
            "ValueError: ModelOpt FP8_PB_WO requires out_features divisible by 128, got 9557.",
        ),
    ),
    # fp8_utils.py per_token_group_quant_fp8 eagerly (--enforce-eager): the AssertionError itself (rendered)
    (
        "quantized-input-not-aligned",
        core_raise(
            "/models/llama-fp8-block",
            'model_executor/layers/quantization/utils/fp8_utils.py", line 596, in per_token_group_quant_fp8',
            "AssertionError: the last dimension of `x` 11008 must be divisible by `group_size` 256",
        ),
    ),
    # ... traced by torch.compile: the words only in dynamo's debug context (rendered, other numbers)
    (
        "quantized-input-not-aligned",
        dynamo_observed("the last dimension of `x` 9600 must be divisible by `group_size` 128"),
    ),
    # int8_utils.py's twin, which prints no numbers (rendered)
    (
        "quantized-input-not-aligned",
        core_raise(
            "/models/llama-w8a8-int8-block",
            'model_executor/layers/quantization/utils/int8_utils.py", line 187, in per_token_group_quant_int8',
            "AssertionError: the last dimension of `x` cannot be divisible by `group_size`",
        ),
    ),
]

NEAR_MISSES = [
    # the moved refusal is no longer a scheme this vLLM lacks
    (
        "checkpoint-quant-scheme-unsupported",
        api_config_refusal(
            "/models/llama-fp8-block",
            "The quantization block size of weight must have 2 dimensions, but got 3 dimensions",
        ),
    ),
    # the block-wise config's activation scheme stays a scheme refusal, not an incomplete config
    (
        "checkpoint-quant-config-incomplete",
        api_config_refusal(
            "/models/llama-fp8-block-static",
            "The block-wise quantization only supports dynamic activation scheme for now, but got static activation "
            "scheme.",
        ),
    ),
    # the same quantizer's other assertion (a non-contiguous activation) is no width against a block
    (
        "quantized-input-not-aligned",
        core_raise(
            "/models/llama-fp8-block",
            'model_executor/layers/quantization/utils/fp8_utils.py", line 600, in per_token_group_quant_fp8',
            "AssertionError: `x` groups must be contiguous",
        ),
    ),
    # dynamo carrying another assertion: the observed AssertionError alone is not this cause's
    (
        "quantized-input-not-aligned",
        dynamo_observed("expected a 2-D input, got 3 dimensions"),
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)
