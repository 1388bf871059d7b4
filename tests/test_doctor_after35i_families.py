"""What stop 35's fresh-210 misses taught after scoring (after35i), with their siblings in the source.

- prefix-match-unit-invalid (new): vLLM 0.32's hash-block-size resolution (v1/core/kv_cache_utils.py) refuses
  --prefix-match-unit with three raises, all 'Invalid prefix_match_unit={n}; ...': one KV cache group ('... prefix-cache
  hits land on the block size ({bs}). Unset it or set it to {bs}.'), several groups ('prefix-cacheable KV cache group
  block sizes must be divisible by prefix_match_unit. Got group block sizes=[...]'), per-state compression
  ('prefix-cache boundaries must align with each spec's per-state compression. Got alignments=[...]'). Rendered from
  those format strings.
- cpu-kvcache-space-overrides-kv-cache-memory-bytes (new): platforms/cpu.py replaces --kv-cache-memory-bytes with
  VLLM_CPU_KVCACHE_SPACE GiB whenever the variable is set; _check_enough_kv_cache_memory's 'No available memory for the
  cache blocks' (available_memory <= 0) under a positive flag shows the replacement.
- vllm-env-value-not-integer widened: pydantic's 'Value error, invalid literal for int() ...' under VllmConfig of any
  word (VLLM_CPU_CI_ENV is read as bool(int(...)) inside that validation, so 'yes' / 'true' land there).
- kv-cache-memory-bytes-too-small: an explicit cache size answers over max-model-len-exceeds-kv; with --max-model-len
  explicit too (the non-default args or the command) it answers below 0.70 naming both (its `rival_requires`).

Each log is written in another wording than its corpus log (other values, pids, paths, versions' layout).
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

CORE = "(EngineCore pid=4242) ERROR 01-02 03:04:05 [core.py:1510] "
ARGS = "(APIServer pid=4100) INFO 01-02 03:04:00 [api_utils.py:286] non-default args: {{'model': '/m/q', {args}}}\n"
NO_MEMORY = (
    "ValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when initializing "
    "the engine (this flag also controls CPU memory reservation on the CPU backend, despite its name).\n"
)
ONE_REQUEST = (
    "ValueError: To serve at least one request with the model's max seq len (8192), (1.0 GiB KV cache is needed, "
    "which is larger than the available KV cache memory (0.25 GiB). Based on the available memory, the estimated "
    "maximum model length is 2048. Try increasing `gpu_memory_utilization` (which also controls CPU memory on the CPU "
    "backend) or decreasing `max_model_len` when initializing the engine.\n"
)

CASES = [
    # the several-groups sibling (a hybrid model), rendered from kv_cache_utils.py's format string
    (
        "prefix-match-unit-invalid",
        CORE
        + "ValueError: Invalid prefix_match_unit=24; prefix-cacheable KV cache group block sizes must be divisible "
        "by prefix_match_unit. Got group block sizes=[16, 64], prefix-cacheable=[16, 64].\n",
    ),
    # the per-state compression sibling
    (
        "prefix-match-unit-invalid",
        "ValueError: Invalid prefix_match_unit=16; prefix-cache boundaries must align with each spec's per-state "
        "compression. Got alignments=[64].\n",
    ),
    # the single-group raise at another block size, under a GPU build's engine core
    (
        "prefix-match-unit-invalid",
        CORE
        + "ValueError: Invalid prefix_match_unit=8; with a single KV cache group, prefix-cache hits land on the "
        "block size (16). Unset it or set it to 16.\n",
    ),
    # the flag on the command line (not the args dict), 2G, and no memory for the cache
    (
        "cpu-kvcache-space-overrides-kv-cache-memory-bytes",
        "# command: vllm serve /m/q --kv-cache-memory-bytes 2G --max-model-len 4096\n" + CORE + NO_MEMORY,
    ),
    # another on/off word for VLLM_CPU_CI_ENV inside VllmConfig's validation
    (
        "vllm-env-value-not-integer",
        "pydantic_core._pydantic_core.ValidationError: 1 validation error for VllmConfig\n"
        "  Value error, invalid literal for int() with base 10: 'true' [type=value_error, "
        "input_value=ArgsKwargs((), {'model_co...}), input_type=ArgsKwargs]\n",
    ),
    # only the cache size explicit: the flag the user set answers, even with an estimated length printed
    (
        "kv-cache-memory-bytes-too-small",
        ARGS.format(args="'kv_cache_memory_bytes': 268435456") + CORE + ONE_REQUEST,
    ),
]

NEAR_MISSES = [
    # a zero flag honoured: no memory, but nothing replaced it (the flag's own value is the zero)
    (
        "cpu-kvcache-space-overrides-kv-cache-memory-bytes",
        ARGS.format(args="'kv_cache_memory_bytes': 0") + NO_MEMORY,
    ),
    # no cache flag at all: the memory's answer
    ("cpu-kvcache-space-overrides-kv-cache-memory-bytes", CORE + NO_MEMORY),
    # pydantic's own int refusal of a typed field (a flag), not int() of a variable
    (
        "vllm-env-value-not-integer",
        "pydantic_core._pydantic_core.ValidationError: 1 validation error for CacheConfig\nblock_size\n"
        "  Input should be a valid integer, unable to parse string as an integer [type=int_parsing, input_value='x', "
        "input_type=str]\n",
    ),
    # another cache field's refusal: not the prefix unit's
    (
        "prefix-match-unit-invalid",
        "ValueError: Unknown KV cache layout 'XYZ'. Valid layouts: ['NHD', 'HND']\n",
    ),
]

test_the_family_names_the_cause, test_a_near_miss_is_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_both_explicit_flags_compete_below_070():
    """--kv-cache-memory-bytes and --max-model-len both explicit: the answer names both, not confidently."""
    args = "'max_model_len': 8192, 'kv_cache_memory_bytes': 268435456"
    top = top_cause(run(ARGS.format(args=args) + CORE + ONE_REQUEST))
    assert top.id == "kv-cache-memory-bytes-too-small"
    assert top.confidence < 0.70
    assert "--max-model-len" in top.cause and "--kv-cache-memory-bytes" in top.cause


def test_both_flags_on_the_command_line_compete_too():
    log = (
        "# command: vllm serve /m/q --max-model-len 8192 --kv-cache-memory-bytes 256M\n" + CORE + ONE_REQUEST
    )
    top = top_cause(run(log))
    assert top.id == "kv-cache-memory-bytes-too-small" and top.confidence < 0.70


def test_only_the_length_explicit_stays_the_lengths():
    """No cache size set: the length's answer, confidently, as before."""
    top = top_cause(run(ARGS.format(args="'max_model_len': 8192") + CORE + ONE_REQUEST))
    assert top.id == "max-model-len-exceeds-kv" and top.confidence >= 0.70


def test_the_override_flag_keeps_its_own_answer():
    """--num-gpu-blocks-override 0 under a positive cache flag is the override's, not VLLM_CPU_KVCACHE_SPACE's."""
    log = (
        ARGS.format(args="'kv_cache_memory_bytes': 67108864, 'num_gpu_blocks_override': 0")
        + "(EngineCore pid=4242) INFO 01-02 03:04:05 [kv_cache_utils.py:2619] Overriding num_gpu_blocks=64 with "
        "num_gpu_blocks_override=0\n" + CORE + NO_MEMORY
    )
    assert top_cause(run(log)).id == "num-gpu-blocks-override-too-small"
