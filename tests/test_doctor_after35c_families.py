"""What stop 35's fresh-198 / fresh-202 misses taught after scoring (after35c), with their siblings in the source.

- num-gpu-blocks-override-too-small (new): vLLM 0.32's get_kv_cache_configs (v1/core/kv_cache_utils.py) logs
  'Overriding num_gpu_blocks=%d with num_gpu_blocks_override=%d' and plans the cache as that many blocks, so both
  checks of _check_enough_kv_cache_memory ('No available memory for the cache blocks', 'To serve at least one request
  ...') and v0's raise_if_cache_size_invalid ('The model's max seq len (N) is larger than the maximum number of tokens
  that can be stored in KV cache (M)') are the override's. Wordings rendered from those format strings.
- vllm-env-value-not-integer widened: int()'s refusal under OMPProcessManager._parse_omp_threads_bind_env
  (utils/ompmultiprocessing.py, cr_utils.parse_id_list's 'int(part)' and 'map(int, part.split("-"))').
- compilation-config-invalid widened: VllmConfig._set_compile_ranges (config/vllm.py) 'Invalid compile range endpoint:
  {x}' and CompilationConfig.__post_init__'s refusals (config/compilation.py), plus its inductor_passes qualname
  resolution line (the ModuleNotFoundError / KeyError under it).
- no-c-compiler widened: torch/_inductor/exc.py InvalidCxxCompiler ('No working C++ compiler found in
  {config.__name__}.cpp.cxx: {config.cpp.cxx}', and 'Compiler: {compiler} is not found.').

Each log is written in another wording than its corpus log (other values, pids, paths, versions' layout).
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

CORE = "(EngineCore pid=4242) ERROR 01-02 03:04:05 [core.py:1510] "
OVERRIDE = "(EngineCore pid=4242) INFO 01-02 03:04:05 [kv_cache_utils.py:2619] Overriding num_gpu_blocks={had} with num_gpu_blocks_override={n}\n"

CASES = [
    # an override below one request (4 blocks x 16 tokens = 64 < 4096): the sibling check of the same function
    (
        "num-gpu-blocks-override-too-small",
        OVERRIDE.format(had=52113, n=4)
        + CORE
        + "ValueError: To serve at least one request with the model's max seq len (4096), (0.5 GiB KV cache is needed, "
        "which is larger than the available KV cache memory (0.01 GiB). Based on the available memory, the estimated "
        "maximum model length is 48. Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when "
        "initializing the engine.\n",
    ),
    # v0's raise_if_cache_size_invalid after the same override line (vLLM 0.6-era layout)
    (
        "num-gpu-blocks-override-too-small",
        "INFO 05-06 07:08:09 llm_engine.py:433] Overriding num_gpu_blocks=30211 with num_gpu_blocks_override=8\n"
        "ValueError: The model's max seq len (8192) is larger than the maximum number of tokens that can be stored in "
        "KV cache (128). Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing the "
        "engine.\n",
    ),
    # 0 on a GPU build
    (
        "num-gpu-blocks-override-too-small",
        OVERRIDE.format(had=9000, n=0)
        + CORE
        + "ValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when "
        "initializing the engine.\n",
    ),
]

OMP_FRAMES = (
    '  File "/opt/vllm/lib/python3.12/site-packages/vllm/utils/ompmultiprocessing.py", line 170, in '
    "_parse_omp_threads_bind_env\n"
    "    self.cpu_lists = [cr_utils.parse_id_list(s) for s in omp_cpuids_list]\n"
    '  File "/opt/vllm/lib/python3.12/site-packages/vllm/utils/cpu_resource_utils.py", line 182, in parse_id_list\n'
    '    start, end = map(int, part.split("-"))\n'
)
CASES += [
    # a range with a word in it ('0-all'): map(int, ...) of the same parser
    (
        "vllm-env-value-not-integer",
        OMP_FRAMES + "ValueError: invalid literal for int() with base 10: 'all'\n",
    ),
]

CC = (
    "pydantic_core._pydantic_core.ValidationError: 1 validation error for VllmConfig\n"
    "  Assertion failed, {msg} [type=assertion_error, input_value=ArgsKwargs((), {{'model_co...}}), "
    "input_type=ArgsKwargs]\n"
)
CASES += [
    # a negative endpoint, the same assert
    ("compilation-config-invalid", CC.format(msg="Invalid compile range endpoint: -8")),
    # __post_init__'s siblings, raised as ValueError inside the same pydantic wrapper (rendered from compilation.py)
    (
        "compilation-config-invalid",
        "pydantic_core._pydantic_core.ValidationError: 1 validation error for VllmConfig\n"
        "  Value error, All decoder_replay_cudagraph_capture_sizes must be positive [type=value_error, "
        "input_value=ArgsKwargs(()), input_type=ArgsKwargs]\n",
    ),
    (
        "compilation-config-invalid",
        "ValueError: encoder_cudagraph_max_frames_per_batch must be non-negative (None = auto-infer)\n",
    ),
    ("compilation-config-invalid", "AssertionError: pass post_grad should be callable or a qualified name\n"),
    # a qualname whose module imports but lacks the function: KeyError on the same resolution line
    (
        "compilation-config-invalid",
        '  File "/srv/venv/lib/python3.12/site-packages/vllm/config/compilation.py", line 959, in __post_init__\n'
        "    func = __import__(module).__dict__[func_name]\n"
        "           ~~~~~~~~~~~~~~~~~~~~~~~~~~^^^^^^^^^^^\n"
        "KeyError: 'my_fusion_pass'\n",
    ),
    (
        "compilation-config-invalid",
        '  File "/srv/venv/lib/python3.12/site-packages/vllm/config/compilation.py", line 959, in __post_init__\n'
        "    func = __import__(module).__dict__[func_name]\n"
        "ModuleNotFoundError: No module named 'mypasses'\n",
    ),
]

CASES += [
    # CXX naming a script that is not a compiler, torch's InvalidCxxCompiler as the worker re-raises it
    (
        "no-c-compiler",
        "(Worker pid=77) ERROR 01-02 03:04:05 [multiproc_executor.py:1063] torch._inductor.exc.InductorError: "
        "InvalidCxxCompiler: No working C++ compiler found in torch._inductor.config.cpp.cxx: (None, '/usr/bin/true')\n",
    ),
    # the named-compiler sibling, a path rather than gcc/clang
    ("no-c-compiler", "RuntimeError: Compiler: /opt/rh/gcc-toolset-13/root/usr/bin/g++ is not found.\n"),
]

NEAR_MISSES = [
    # the override line of a healthy start: no failure after it
    (
        "num-gpu-blocks-override-too-small",
        OVERRIDE.format(had=8192, n=64)
        + "(EngineCore pid=4242) INFO 01-02 03:04:06 [kv_cache_utils.py:1300] GPU KV cache size: 1,024 tokens\n",
    ),
    # an int() refusal under another frame (a user's own script), no VLLM_ variable anywhere
    (
        "vllm-env-value-not-integer",
        '  File "/home/u/serve.py", line 12, in main\n    port = int(sys.argv[2])\n'
        "ValueError: invalid literal for int() with base 10: 'x'\n",
    ),
    # a missing module imported by a plugin, not by CompilationConfig's pass resolution
    (
        "compilation-config-invalid",
        '  File "/srv/venv/lib/python3.12/site-packages/vllm/plugins/__init__.py", line 41, in load_plugins_by_group\n'
        "    func = plugin.load()\n"
        "ModuleNotFoundError: No module named 'my_plugin'\n",
    ),
    # a C++ compile error (the compiler ran and refused the code): not a missing compiler
    (
        "no-c-compiler",
        "torch._inductor.exc.InductorError: CppCompileError: C++ compile error\n"
        "/tmp/torchinductor_root/ab/cab.cpp:12:5: error: 'at::vec' has not been declared\n",
    ),
]

test_the_family_names_the_cause, test_a_near_miss_is_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_the_override_and_its_values_are_named():
    """The cause quotes the override and the blocks the memory held, from the line above the error."""
    top = top_cause(run(CASES[2][1]))
    assert top.id == "num-gpu-blocks-override-too-small"
    assert "(0; the memory holds 9000)" in top.cause


def test_a_cache_check_without_an_override_stays_the_lengths():
    """Without the override line, 'To serve at least one request ...' stays max-model-len-exceeds-kv."""
    log = CASES[0][1].split("\n", 1)[1]
    assert top_cause(run(log)).id == "max-model-len-exceeds-kv"
