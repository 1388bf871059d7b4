"""The family the lead widened in stop 49: torch's refusal of an inductor option that -cc's inductor_compile_config
passed on (compilation-config-invalid), on wordings other than fresh-448's log (another option, a TP worker's prefix,
the refusal alone after the command), with near misses that must not take it."""

from __future__ import annotations

from tests.doctor_text import family_tests

COMMAND = '$ vllm serve Qwen/Qwen3-8B -tp 2 -cc \'{"inductor_compile_config": {"max_autotune_gem": true}}\'\n'
REFUSAL = (
    "(Worker_TP1 pid=2211) ERROR 12-07 05:07:41 [multiproc_executor.py:953] RuntimeError: Unexpected optimization "
    "option max_autotune_gem, known options are ['TYPE_CHECKING', 'inplace_padding', 'debug', 'max_autotune_gemm']\n"
)

CASES = [
    ("compilation-config-invalid", COMMAND + REFUSAL),
    (
        "compilation-config-invalid",
        COMMAND
        + "RuntimeError: Unexpected optimization option triton.cudagraph, known options are ['debug']\n"
        "RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}\n",
    ),
]

NEAR_MISSES = [
    # a healthy start that sets a real inductor option: nothing refused
    (
        "compilation-config-invalid",
        COMMAND.replace("max_autotune_gem", "max_autotune_gemm")
        + "(APIServer pid=9723) INFO:     Application startup complete.\n",
    ),
]

test_names_the_cause, test_near_miss_not_confident = family_tests(CASES, NEAR_MISSES)
