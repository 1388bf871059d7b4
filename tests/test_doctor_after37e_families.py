"""What the scored batches fresh-248 (vLLM's environment variables) and fresh-251 (fields of vLLM's JSON-valued options)
taught after scoring, with the neighbourhood of each miss in vLLM 0.32's own source.

- vllm-env-value-not-integer widened: int()'s refusal of an on/off word (true, yes, false) in a flag envs.py reads as
  bool(int(...)), for every reader shape of envs.py (a one-line lambda, a lambda spread over lines that prints only
  '"VLLM_X": lambda: bool(', maybe_convert_int / maybe_convert_bool, int(os.environ["VLLM_X"])); vllm-env-invalid-choice
  keeps env_with_choices / env_list_with_choices' own 'Invalid value ... Valid options' refusal.
- spec-config-invalid widened: pydantic's '1 validation error for SpeculativeConfig' whatever its reason (a wrong type,
  a value outside the Literal, an unknown key); config-validation-error keeps the dict-built configs no family owns.
- profiler-not-configured narrowed: ProfilerConfig's refusal at start is config-validation-error's.
Messages marked 'rendered' are the source's format string filled with a value; the others are as a log showed them.
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

W = "(Worker pid=41) ERROR 12-05 09:00:00 [multiproc_executor.py:953] "
ENVS = '  File "/srv/venv/lib/python3.12/site-packages/vllm/envs.py", line {n}, in {fn}\n'


def worker(*lines: str) -> str:
    return "".join(W + line.rstrip("\n") + "\n" for line in lines)


def pyd(cls: str, field: str, reason: str) -> str:
    return (
        "Traceback (most recent call last):\n"
        '  File "/srv/venv/lib/python3.12/site-packages/vllm/engine/arg_utils.py", line 2099, in create_speculative_config\n'
        f"    return {cls}(**self.speculative_config)\n"
        f"pydantic_core._pydantic_core.ValidationError: 1 validation error for {cls}\n{field}\n  {reason}\n"
    )


CASES = [
    # a flag read as bool(int(os.getenv(...))) on one line, another word (rendered: envs.py's own line)
    (
        "vllm-env-value-not-integer",
        worker(
            "Traceback (most recent call last):",
            ENVS.format(n=1150, fn="<lambda>"),
            '    "VLLM_USE_DEEP_GEMM": lambda: bool(int(os.getenv("VLLM_USE_DEEP_GEMM", "0"))),',
            "ValueError: invalid literal for int() with base 10: 'on'",
        ),
    ),
    # maybe_convert_bool: its int(value) frame names no variable, the lambda's line above it does (rendered)
    (
        "vllm-env-value-not-integer",
        "Traceback (most recent call last):\n"
        + ENVS.format(n=1441, fn="<lambda>")
        + '    "VLLM_ROCM_QUICK_REDUCE_CAST_BF16_TO_FP16": lambda: maybe_convert_bool(\n'
        + ENVS.format(n=361, fn="maybe_convert_bool")
        + "    return bool(int(value))\nValueError: invalid literal for int() with base 10: 'false'\n",
    ),
    # a subscript reader: bool(int(os.environ["VLLM_X"])) (rendered)
    (
        "vllm-env-value-not-integer",
        ENVS.format(n=879, fn="<lambda>")
        + '    bool(int(os.environ["VLLM_USE_FLASHINFER_SAMPLER"]))\n'
        + "ValueError: invalid literal for int() with base 10: 'yes'\n",
    ),
    # float() of a variable given a word (rendered: VLLM_LOG_STATS_INTERVAL's walrus line)
    (
        "vllm-env-value-not-integer",
        ENVS.format(n=868, fn="<lambda>")
        + '    if (val := float(os.getenv("VLLM_LOG_STATS_INTERVAL", "10."))) > 0.0\n'
        + "ValueError: could not convert string to float: 'often'\n",
    ),
    # env_with_choices' own refusal stays vllm-env-invalid-choice's (rendered: envs.py's f-string)
    (
        "vllm-env-invalid-choice",
        worker(
            "ValueError: Invalid value 'shm2' for VLLM_USE_RAY_COMPILED_DAG_CHANNEL_TYPE. Valid options: "
            "['auto', 'nccl', 'shm']."
        ),
    ),
    # env_list_with_choices' 'in' form
    (
        "vllm-env-invalid-choice",
        "ValueError: Invalid value 'bogus' in VLLM_DISABLED_KERNELS. Valid options: ['a', 'b'].\n",
    ),
    # pydantic's refusals of SpeculativeConfig's fields, any error type
    (
        "spec-config-invalid",
        pyd(
            "SpeculativeConfig",
            "num_speculative_tokens",
            "Input should be a valid integer, unable to parse string "
            "as an integer [type=int_parsing, input_value='four', input_type=str]",
        ),
    ),
    (
        "spec-config-invalid",
        pyd(
            "SpeculativeConfig",
            "disable_padded_drafter_batch",
            "Input should be a valid boolean, unable to "
            "interpret input [type=bool_parsing, input_value='sometimes', input_type=str]",
        ),
    ),
    # ProfilerConfig refusing a profiler without its directory (config/profiler.py): the refusal, at start
    (
        "config-validation-error",
        "api_server.py: error: argument --profiler-config: 1 validation error for ProfilerConfig\n"
        "  Value error, torch_profiler_dir must be set when profiler is 'torch' [type=value_error, "
        "input_value={'profiler': 'torch', 'delay_iterations': 2}, input_type=dict]\n",
    ),
    # a dict-built config no family owns stays config-validation-error's
    (
        "config-validation-error",
        pyd(
            "KVEventsConfig",
            "enable_kv_cache_events",
            "Input should be a valid boolean, unable to interpret input "
            "[type=bool_parsing, input_value='maybe', input_type=str]",
        ),
    ),
]

NEAR_MISSES = [
    # an on/off word refused by int() is no choice of env_with_choices'
    (
        "vllm-env-invalid-choice",
        worker(
            ENVS.format(n=1683, fn="<lambda>"),
            '    "VLLM_ALLREDUCE_USE_SYMM_MEM": lambda: bool(int(os.getenv("VLLM_ALLREDUCE_USE_SYMM_MEM", "1"))),',
            "ValueError: invalid literal for int() with base 10: 'true'",
        ),
    ),
    # a choice refusal is not an integer parse
    (
        "vllm-env-value-not-integer",
        "ValueError: Invalid value 'trtll' for VLLM_FLASHINFER_ALLREDUCE_BACKEND. Valid options: ['auto', 'trtllm'].\n",
    ),
    # another config's pydantic refusal is not SpeculativeConfig's
    (
        "spec-config-invalid",
        pyd(
            "KVTransferConfig",
            "kv_role",
            "Input should be 'kv_producer', 'kv_consumer' or 'kv_both' "
            "[type=literal_error, input_value='both', input_type=str]",
        ),
    ),
    # the profiler's refusal at start is no call to an unconfigured engine
    (
        "profiler-not-configured",
        "api_server.py: error: argument --profiler-config: 1 validation error for ProfilerConfig\n"
        "  Value error, torch_profiler_dir must be set when profiler is 'torch' [type=value_error, "
        "input_value={'profiler': 'torch'}, input_type=dict]\n",
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_the_variable_is_named_from_a_lambda_spread_over_lines():
    """A bool(int(...)) spread over lines prints only '"VLLM_X": lambda: bool(' in its frame: the cause names VLLM_X."""
    top = top_cause(
        run(
            ENVS.format(n=1700, fn="<lambda>")
            + '    "VLLM_MOE_USE_DEEP_GEMM": lambda: bool(\n'
            + "ValueError: invalid literal for int() with base 10: 'yes'\n"
        )
    )
    assert (
        top is not None and top.id == "vllm-env-value-not-integer" and "VLLM_MOE_USE_DEEP_GEMM" in top.cause
    )


def test_a_log_that_names_no_variable_says_so():
    """Inside VllmConfig's validation no envs.py line is printed: the cause says the log does not name it."""
    top = top_cause(
        run(
            "pydantic_core._pydantic_core.ValidationError: 1 validation error for VllmConfig\n"
            "  Value error, invalid literal for int() with base 10: 'true' [type=value_error, input_value=ArgsKwargs((), "
            "{}), input_type=ArgsKwargs]\n"
        )
    )
    assert top is not None and top.id == "vllm-env-value-not-integer" and "not named in this log" in top.cause
