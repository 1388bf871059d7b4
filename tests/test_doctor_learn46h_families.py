"""What the measured batches fresh-391 (spec decoding on an H100), fresh-394 (a running GPU server) and fresh-395
(compilation, CUDA graphs, attention backends) taught after measuring, with the neighbourhood of each miss's check in
vLLM 0.26's source (the kit's wheel) and 0.32's.

- config-json-field-wrong-type: pydantic's refusal of a ModelArchitectureConfig field vLLM derives from config.json
  (model_arch_config_convertor.py: total_num_hidden_layers from num_hidden_layers / mtp_num_hidden_layers /
  num_nextn_predict_layers, total_num_kv_heads, head_size, ...), under SpeculativeConfig's header (the draft's or the MTP
  layers' config) or ModelConfig's (the target's), the field's own line or pydantic's errors() 'loc'.
- skip-tokenizer-init-needs-tokenizer: chat serving's `assert tokenizer is not None` under a process or compose prefix.
- cudagraph-config-invalid: config/vllm.py _set_cudagraph_sizes' two asserts (no capture size left with graphs on).
- vllm-package-missing-own-submodule: vllm_flash_attn's kernel file absent ('FA2 is unavailable due to: cannot import
  name '_vllm_fa2_C' ...', logged by fa_utils, then 'FlashAttention version not detected.').
- compilation-config-invalid: a compile_sizes entry above --max-num-batched-tokens, warmed up and failing.
Messages are the source's format strings rendered with a value (marked so), not the corpus logs' lines.
"""

from __future__ import annotations

from tests.doctor_text import family_tests

TB = "Traceback (most recent call last):\n"


def spec_refusal(field: str, reason: str, header: str = "SpeculativeConfig", prefix: str = "") -> str:
    """pydantic's refusal of a derived field as vLLM's API server prints it (rendered)."""
    lines = [
        '$ vllm serve deepseek-ai/DeepSeek-V3-0324 --speculative-config \'{"method": "mtp", "num_speculative_tokens": 1}\'',
        TB.rstrip("\n"),
        '  File "/usr/local/lib/python3.12/dist-packages/vllm/engine/arg_utils.py", line 1780, in create_speculative_config',
        "    return SpeculativeConfig(**self.speculative_config)",
        f"pydantic_core._pydantic_core.ValidationError: 1 validation error for {header}",
        field,
        f"  {reason}",
        "    For further information visit https://errors.pydantic.dev/2.12/v/int_type",
    ]
    return "".join(f"{prefix}{line}\n" for line in lines)


def chat_assert(prefix: str) -> str:
    """A chat request under --skip-tokenizer-init, its ASGI traceback with a process or compose prefix (rendered)."""
    lines = [
        "non-default args: {'model_tag': 'Qwen/Qwen3-8B', 'skip_tokenizer_init': True}",
        'INFO:     10.0.0.7:51234 - "POST /v1/chat/completions HTTP/1.1" 500 Internal Server Error',
        "ERROR:    Exception in ASGI application",
        TB.rstrip("\n"),
        '  File "/usr/local/lib/python3.12/dist-packages/vllm/entrypoints/openai/chat_completion/serving.py", '
        "line 262, in _create_chat_completion",
        "    assert tokenizer is not None",
        "AssertionError",
    ]
    return "".join(f"{prefix}{line}\n" for line in lines)


def engine_core(*lines: str) -> str:
    return "".join(f"(EngineCore_DP0 pid=4242) {line}\n" for line in lines)


FA_ERROR = (
    "ERROR 01-02 10:00:00 [fa_utils.py:253] Cannot use FA version {v} is not supported due to FA{v} is unavailable "
    "due to: {why}"
)


def fa_missing(version: int, why: str) -> str:
    """fa_utils' ERROR for an absent FA kernel, the backend's assert after it (rendered from 0.26's format strings)."""
    return engine_core(
        FA_ERROR.format(v=version, why=why),
        "INFO 01-02 10:00:00 [flash_attn.py:776] Using FlashAttention version None",
        "ERROR 01-02 10:00:01 [core.py:1330] EngineCore failed to start.",
        "ERROR 01-02 10:00:01 [core.py:1330] " + TB.rstrip("\n"),
        'ERROR 01-02 10:00:01 [core.py:1330]   File "/opt/venv/lib/python3.12/site-packages/vllm/v1/attention/'
        'backends/flash_attn.py", line 839, in forward',
        "ERROR 01-02 10:00:01 [core.py:1330]     assert self.vllm_flash_attn_version is not None, (",
        "ERROR 01-02 10:00:01 [core.py:1330] AssertionError: FlashAttention version not detected.",
    )


def warm_up(size: int, batched: int, failure: str) -> str:
    """A start with -cc compile_sizes and --max-num-batched-tokens, its warm-up and what followed (rendered)."""
    return (
        f"(APIServer pid=10) INFO [api_utils.py:273] non-default args: {{'max_num_batched_tokens': {batched}, "
        f"'compilation_config': {{'compile_sizes': [{size}]}}}}\n"
        + engine_core(
            f"INFO [gpu_worker.py:774] Compile and warming up model for size {size}",
            "ERROR [core.py:1330] EngineCore failed to start.",
            "ERROR [core.py:1330] " + TB.rstrip("\n"),
            'ERROR [core.py:1330]   File "/opt/venv/lib/python3.12/site-packages/vllm/v1/worker/gpu_worker.py", '
            "line 775, in compile_or_warm_up_model",
            *failure.splitlines(),
        )
    )


CLASSIC_ASSERT = (
    'ERROR [core.py:1330]   File "/opt/venv/lib/python3.12/site-packages/vllm/v1/worker/gpu_model_runner.py", '
    "line 5838, in _dummy_run\n"
    "ERROR [core.py:1330]     assert num_tokens <= self.max_num_tokens\n"
    "ERROR [core.py:1330] AssertionError"
)
ILLEGAL = "ERROR [core.py:1330] torch.AcceleratorError: CUDA error: an illegal memory access was encountered"

CASES = [
    # a DeepSeek MTP draft whose num_nextn_predict_layers is null: the derived layer count (rendered)
    (
        "config-json-field-wrong-type",
        spec_refusal(
            "total_num_hidden_layers",
            "Input should be a valid integer [type=int_type, input_value=None, input_type=NoneType]",
        ),
    ),
    # the KV heads given as a fraction, under a process prefix (pydantic's int_from_float, rendered)
    (
        "config-json-field-wrong-type",
        spec_refusal(
            "total_num_kv_heads",
            "Input should be a valid integer, got a number with a fractional part "
            "[type=int_from_float, input_value=8.5, input_type=float]",
            prefix="(APIServer pid=77) ",
        ),
    ),
    # the target's own config, under ModelConfig's header: head_size from a head_dim string (rendered)
    (
        "config-json-field-wrong-type",
        spec_refusal(
            "head_size",
            "Input should be a valid integer, unable to parse string as an integer "
            "[type=int_parsing, input_value='auto', input_type=str]",
            header="ModelConfig",
        ),
    ),
    # chat under --skip-tokenizer-init: the assert's line under vLLM's process prefix and a compose prefix
    ("skip-tokenizer-init-needs-tokenizer", chat_assert("(APIServer pid=9) ")),
    ("skip-tokenizer-init-needs-tokenizer", chat_assert("vllm-1  | ")),
    # _set_cudagraph_sizes' first assert, as the engine core's handshake re-runs it (rendered) ...
    (
        "cudagraph-config-invalid",
        engine_core(
            "ERROR [core.py:1330] EngineCore failed to start.",
            "ERROR [core.py:1330] " + TB.rstrip("\n"),
            'ERROR [core.py:1330]   File "/opt/venv/lib/python3.12/site-packages/vllm/config/vllm.py", line 1800, '
            "in _set_cudagraph_sizes",
            "ERROR [core.py:1330] AssertionError: Maximum cudagraph size should be greater than or equal to 1 when "
            "using cuda graph.",
        ),
    ),
    # ... and its second, an empty list, wrapped by pydantic under VllmConfig's header (rendered)
    (
        "cudagraph-config-invalid",
        "pydantic_core._pydantic_core.ValidationError: 1 validation error for VllmConfig\n"
        "  Assertion failed, cudagraph_capture_sizes should contain at least one element when using cuda graph. "
        "[type=assertion_error, input_value=ArgsKwargs((), {}), input_type=ArgsKwargs]\n",
    ),
    # FA3's kernel file absent (Python's plain 'cannot import name' form), and FA2's as 'No module named' (rendered)
    (
        "vllm-package-missing-own-submodule",
        fa_missing(
            3,
            "cannot import name '_vllm_fa3_C' from 'vllm.vllm_flash_attn' (/opt/venv/lib/python3.12/"
            "site-packages/vllm/vllm_flash_attn/__init__.py)",
        ),
    ),
    (
        "vllm-package-missing-own-submodule",
        fa_missing(2, "No module named 'vllm.vllm_flash_attn._vllm_fa2_C'"),
    ),
    # a compile size above the batch: the classic runner's assert, and the gpu/ runner's fault
    ("compilation-config-invalid", warm_up(8192, 4096, CLASSIC_ASSERT)),
    ("compilation-config-invalid", warm_up(16384, 8192, ILLEGAL)),
]

NEAR_MISSES = [
    # a field of SpeculativeConfig's own the user gave (num_speculative_tokens 0): --speculative-config's, not config.json's
    (
        "config-json-field-wrong-type",
        spec_refusal(
            "num_speculative_tokens",
            "Input should be greater than 0 [type=greater_than, input_value=0, input_type=int]",
        ),
    ),
    # a source line that assigns the field is no pydantic field line
    (
        "config-json-field-wrong-type",
        "        self.hidden_size = hidden_size\nRuntimeError: CUDA error: out of memory\n",
    ),
    # the same assert's text in a code listing, no --skip-tokenizer-init anywhere
    (
        "skip-tokenizer-init-needs-tokenizer",
        chat_assert("(APIServer pid=9) ").replace("'skip_tokenizer_init': True", ""),
    ),
    # FA2 refused by the GPU (compute capability below 8): the GPU's refusal, not a file missing from the install
    (
        "vllm-package-missing-own-submodule",
        engine_core(
            "ERROR [fa_utils.py:253] Cannot use FA version 2 is not supported due to FA2 is only supported on devices "
            "with compute capability >= 8",
            "ERROR [core.py:1330] AssertionError: FlashAttention version not detected.",
        ),
    ),
    # a .so that is there and fails to load is a build's mismatch, not an incomplete package
    (
        "vllm-package-missing-own-submodule",
        fa_missing(
            2,
            "/opt/venv/lib/python3.12/site-packages/vllm/vllm_flash_attn/_vllm_fa2_C.abi3.so: undefined "
            "symbol: _ZN3c104cuda9SetDeviceEi",
        ),
    ),
    # a compile size within the batch, then an illegal memory access: a kernel's fault, not the config's
    ("compilation-config-invalid", warm_up(2048, 8192, ILLEGAL)),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)
