"""What the measured batches fresh-302 (vLLM 0.26 on an H100) and fresh-315 (llama-server b11434) taught (learn42a).

- external-weights-exceed-utilization: also a profile that charged OTHER processes' GPU memory to this engine
  (utils/mem_utils.py memory_profiling's total_consumed is the whole device's fall in free memory): 'Available KV
  cache memory: -X GiB' with X >= 10 under a model whose own weights ('Model loading took W GiB') are under 5 GiB.
- option-requires-option: KV offloading's assert on a hybrid (distributed/kv_transfer/kv_connector/v1/offloading/
  config.py): 'Hybrid models (e.g. Mamba+Attention) need --enable-prefix-caching to align block sizes.'
- llamacpp-request-field-ignored: now a non-fatal cause, for json_value's warning on `grammar` (the output constraint
  dropped); the other fields' drop stays a note, llamacpp-request-field-defaulted.
Messages marked 'rendered' are the source's format strings filled with other values than the corpus logs'.
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

VLLM = "(EngineCore pid=2211) INFO 03-02 10:11:12 [gpu_worker.py:560] "
NO_BLOCKS = (
    "(EngineCore pid=2211) ERROR 03-02 10:11:13 [core.py:1330] ValueError: No available memory for the cache blocks."
    " Try increasing `gpu_memory_utilization` when initializing the engine.\n"
    "(APIServer pid=2100) RuntimeError: Engine core initialization failed. See root cause above.\n"
)


def profiled(
    weights: str, available: str, loading: str = "Model loading took {} GiB memory and 2.4 seconds"
) -> str:
    """A profiled vLLM start (rendered from gpu_model_runner.py's and gpu_worker.py's format strings) that failed."""
    return (
        "(APIServer pid=2100) INFO non-default args: {'model': '/models/qwen2.5-1.5b', 'gpu_memory_utilization': 0.4}\n"
        + VLLM
        + loading.format(weights)
        + "\n"
        + VLLM
        + f"Available KV cache memory: {available} GiB\n"
        + NO_BLOCKS
    )


LLAMA = (
    "$ llama-server -m /models/qwen3-1.7b-q8_0.gguf --port 8080 -c 4096\n"
    "0.00.628.317 I srv  llama_server: listening on http://127.0.0.1:8080\n"
)
SERVED = "0.02.502.623 I slot      release: id  0 | task 0 | stop processing: n_tokens = 11, truncated = 0\nHTTP/1.1 200 OK\n"


def warned(field: str, want: str, got: str) -> str:
    """json_value's warning (rendered from server-common.h's format string and nlohmann's type_error.302)."""
    return (
        f"0.02.325.718 W Wrong type supplied for parameter '{field}', using default value:"
        f" [json.exception.type_error.302] type must be {want}, but is {got}\n"
    )


CASES = [
    # a 1.5B model's profile charged a neighbour's load to itself (rendered, vLLM 0.32's wording of the weights line)
    ("external-weights-exceed-utilization", profiled("2.89", "-21.37")),
    # ... vLLM 0.26's wording ('Model loading took 0.94 GiB and 1.2 seconds'), a three-digit deficit (rendered)
    (
        "external-weights-exceed-utilization",
        profiled("0.94", "-103.5", "Model loading took {} GiB and 1.2 seconds"),
    ),
    # KV offloading's hybrid assert, other block sizes (rendered from offloading/config.py's f-string)
    (
        "option-requires-option",
        "(APIServer pid=3100) INFO non-default args: {'model': '/models/granite-4.0-h-tiny', 'kv_offloading_size': 16.0}\n"
        "(EngineCore pid=3301) ERROR [core.py:1330] AssertionError: tokens_per_block=8192 not divisible by"
        " tokens_per_hash=65536. Hybrid models (e.g. Mamba+Attention) need --enable-prefix-caching to align block"
        " sizes.\n"
        "(APIServer pid=3100) RuntimeError: Engine core initialization failed. See root cause above.\n",
    ),
    # a grammar sent as an object (rendered), answered 200 without it
    ("llamacpp-request-field-ignored", LLAMA + warned("grammar", "string", "object") + SERVED),
    # an older build's wording of the helper (utils.hpp, 'Expected ...'; rendered)
    (
        "llamacpp-request-field-ignored",
        LLAMA
        + "W Wrong type supplied for parameter 'grammar'. Expected 'string', using default value\n"
        + SERVED,
    ),
]

NEAR_MISSES = [
    # the share really too small for the model's own activations: a small deficit under heavy weights
    ("external-weights-exceed-utilization", profiled("131.45", "-4.78")),
    # a large deficit, but under 14 GiB of the model's own weights: no sign of anything else on the GPU
    ("external-weights-exceed-utilization", profiled("14.25", "-12.5")),
    # a light model with a small deficit: its activations can do that
    ("external-weights-exceed-utilization", profiled("1.12", "-3.1")),
    # the hybrid's block alignment done at start, no offloading: an INFO line, nothing failed
    (
        "option-requires-option",
        VLLM
        + "Setting attention block size to 400 tokens to ensure that attention page size is >= mamba page size.\n",
    ),
    # grammar_type (another field) dropped: a note, not the grammar's cause
    ("llamacpp-request-field-ignored", LLAMA + warned("grammar_type", "string", "number") + SERVED),
]

test_family_reads_other_wording, test_near_miss_is_not_confident = family_tests(CASES, NEAR_MISSES)


def test_small_deficit_stays_no_memory_for_cache_blocks() -> None:
    """A deficit the model's own activations explain is still the share too small (no-memory-for-cache-blocks)."""
    top = top_cause(run(profiled("15.0", "-0.52")))
    assert top is not None and top.id == "no-memory-for-cache-blocks"


def test_other_field_dropped_is_the_note() -> None:
    """thinking_budget_tokens dropped and answered 200: no cause, the renamed note explains the warning."""
    result = run(LLAMA + warned("thinking_budget_tokens", "number", "string") + SERVED)
    assert top_cause(result) is None
    assert any(d.id == "llamacpp-request-field-defaulted" and d.role == "note" for d in result.diagnoses)
    assert all(d.id != "llamacpp-request-field-ignored" for d in result.diagnoses)
