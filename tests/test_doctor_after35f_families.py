"""Families learnt by after35f from fresh-208's misses (vLLM model loaders and weight files, a third round), each in a
wording other than its corpus log's, rendered from vLLM 0.32's own format strings where named (model_executor/models/
utils.py AutoWeightsLoader, model_loader/weight_utils.py filter_duplicate_safetensors_files)."""

from __future__ import annotations

from tests.doctor_text import family_tests, run

_W = "(Worker_TP0 pid=4121) ERROR 03-02 11:04:09 [multiproc_executor.py:953] "


def _index_missing(*shards: str) -> str:
    """weight_utils.py filter_duplicate_safetensors_files: f"Weight files referenced in index but missing: {missing_files}"."""
    names = ", ".join(f"'/models/qwen/{s}'" for s in shards)
    return _W + "FileNotFoundError: Weight files referenced in index but missing: {" + names + "}\n"


def _keyerror_in(file: str, name: str) -> str:
    """A model's own load_weights (`param = params_dict[name]`, e.g. phi3_small.py in vLLM 0.32) on a name it lacks."""
    frame = '  File "/opt/venv/lib/python3.12/site-packages/vllm/model_executor/'
    return (
        _W
        + "Traceback (most recent call last):\n"
        + _W
        + frame
        + 'model_loader/default_loader.py", line 498, in load_weights\n'
        + _W
        + "    loaded_weights = model.load_weights(self.get_all_weights(model_config, model))\n"
        + _W
        + frame
        + file
        + '", line 461, in load_weights\n'
        + _W
        + "    param = params_dict[name]\n"
        + _W
        + f"KeyError: '{name}'\n"
    )


CASES = [
    # the KeyError form of the same refusal, known by its place (models/X.py), not confidently
    (
        "checkpoint-tensor-name-unexpected",
        _keyerror_in("models/phi3_small.py", "model.layers.0.self_attn.lora_A.weight"),
    ),
    # a quantized tensor's KeyError stays quantization-not-detected's (its wording names the line first)
    (
        "quantization-not-detected",
        _keyerror_in("models/gpt_neox.py", "gpt_neox.layers.0.mlp.dense_h_to_4h.qweight"),
    ),
    # utils.py AutoWeightsLoader._load_module's f"There is no module or parameter named {prefix!r} in {...}" on
    # another model class: a .pt saved as {'state_dict': sd, 'optimizer': ...}, whose 'model.'-stripped name is ''
    (
        "checkpoint-tensor-name-unexpected",
        _W
        + "ValueError: There is no module or parameter named '' in Qwen2Model. The available parameters belonging to "
        " (Qwen2Model) are: {'norm.weight', 'embed_tokens.weight'}\n",
    ),
    # its sibling in _load_param: f"Attempted to load nested weight {weight_qualname!r} into a single parameter
    # {base_prefix!r}" (a checkpoint name one level deeper than the parameter)
    (
        "checkpoint-tensor-name-unexpected",
        _W + "ValueError: Attempted to load nested weight 'model.norm.weight.scale' into a single parameter "
        "'model.norm.weight'\n",
    ),
    # every shard of a 2-shard index missing while vLLM found .safetensors files to filter (a stray index)
    (
        "safetensors-tensor-absent",
        _index_missing("model-00002-of-00002.safetensors", "model-00001-of-00002.safetensors"),
    ),
    # the two ends of a 3-shard index, in Python's set order
    (
        "safetensors-tensor-absent",
        _index_missing(
            "model-00003-of-00003.safetensors",
            "model-00001-of-00003.safetensors",
            "model-00002-of-00003.safetensors",
        ),
    ),
    # one shard of several missing: an unfinished download stays weights-missing
    ("weights-missing", _index_missing("model-00003-of-00004.safetensors")),
    (
        "weights-missing",
        _index_missing("model-00004-of-00004.safetensors", "model-00002-of-00004.safetensors"),
    ),
]

NEAR_MISSES = [
    # a KeyError raised outside the model files (the loader's own code) is not read as a checkpoint name
    (
        "checkpoint-tensor-name-unexpected",
        _keyerror_in("model_loader/weight_utils.py", "model.layers.0.self_attn.lora_A.weight"),
    ),
    # shard 1 of 4 missing alone (the others there): not a stray index
    ("safetensors-tensor-absent", _index_missing("model-00001-of-00004.safetensors")),
    # utils.py _check_skipped_aliases: a tied weight whose canonical never loaded is a missing weight, not a wrong name
    (
        "checkpoint-tensor-name-unexpected",
        _W + "ValueError: 'lm_head.weight' was skipped because it is tied to 'model.embed_tokens.weight' in "
        "LlamaForCausalLM, but 'model.embed_tokens.weight' was not found in the checkpoint, so the tied weight is "
        "uninitialized.\n",
    ),
]

test_names_the_cause, test_near_miss_not_confident = family_tests(CASES, NEAR_MISSES)


def test_empty_name_is_said_as_empty() -> None:
    """The empty name reads as '' in the cause (not a '?' stand-in), and the fix names the nested state dict."""
    top = run(CASES[2][1]).diagnoses[0]
    assert "named ''" in top.cause and "ckpt['model']" in top.fix


def test_stray_index_fix_says_delete_the_index() -> None:
    top = run(CASES[4][1]).diagnoses[0]
    assert "delete the stray model.safetensors.index.json" in top.fix


def test_keyerror_in_a_model_file_is_not_confident() -> None:
    """Known by where it was raised, not by its words: named, below 0.70."""
    top = run(CASES[0][1]).diagnoses[0]
    assert top.id == "checkpoint-tensor-name-unexpected" and top.confidence < 0.7
