"""What after35j learnt in stop 35 after scoring fresh-213 (a GGUF whose attn_k tensor was edited, read as a build too
old for a newer model variant at 0.80): llamacpp-build-predates-model-variant's shape wording now needs the layer and
tensor a head_dim variant really fails on. llama.cpp b11434's src/llama-model.cpp load_tensors creates each layer's
tensors in order (wq, wk, wv, wo for blk.0, then blk.1, ...) through llama-model-loader.cpp's check_tensor_dims
("tensor '%s' has wrong shape; expected %s, got %s", the widths rendered as %5d each), so a model that sets its own
head_dim fails on blk.0.attn_q first; attn_k after attn_q passed, or any later layer, is the file disagreeing with its
own metadata or with itself (edited or mis-converted): llamacpp-tensor-mismatch.
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

LOAD = "llama_model_load: error loading model: "
FAIL = "llama_model_load_from_file_impl: failed to load model\n"
OLLAMA = "Error: llama runner process has terminated: error loading model: "

CASES = [
    # check_tensor_dims on a GQA GGUF whose metadata says 8 KV heads x 128 while the file's K projection is 4096 wide
    # (rendered from the format string): attn_q passed on blk.0, so the head_dim is right; the KV heads disagree
    (
        "llamacpp-tensor-mismatch",
        LOAD
        + "check_tensor_dims: tensor 'blk.0.attn_k.weight' has wrong shape; expected  4096,  1024, got  4096,  "
        "4096,     1,     1\n" + FAIL,
    ),
    # as Ollama prints it, a later layer's attn_q (the earlier layers passed the same check): the file disagrees with
    # itself, not a newer model's head_dim
    (
        "llamacpp-tensor-mismatch",
        OLLAMA
        + "check_tensor_dims: tensor 'blk.7.attn_q.weight' has wrong shape; expected  5120,  5120, got  5120,  "
        "4096,     1,     1\n",
    ),
    # the head_dim variant the family was taught from, another model's numbers (Gemma-7B: 16 heads x 256 over a
    # 3072-wide hidden state, on a build deriving head_dim as hidden / heads): blk.0.attn_q, the build's age
    (
        "llamacpp-build-predates-model-variant",
        LOAD
        + "check_tensor_dims: tensor 'blk.0.attn_q.weight' has wrong shape; expected  3072,  3072, got  3072,  "
        "4096,     1,     1\n" + FAIL,
    ),
]

NEAR_MISSES = [
    # fresh-213's own shape on another layer: an edited attn_k is not the build's age
    (
        "llamacpp-build-predates-model-variant",
        LOAD
        + "check_tensor_dims: tensor 'blk.3.attn_k.weight' has wrong shape; expected   256,   128, got   256,   "
        "256,     1,     1\n" + FAIL,
    ),
    # a later layer's attn_output differing is the file, not the model's variant
    (
        "llamacpp-build-predates-model-variant",
        LOAD
        + "check_tensor_dims: tensor 'blk.12.attn_output.weight' has wrong shape; expected  4096,  4096, got  "
        "4096,  2048,     1,     1\n" + FAIL,
    ),
]

test_names_the_cause, test_near_miss_not_confident = family_tests(CASES, NEAR_MISSES)


def test_wrong_number_of_tensors_keeps_the_build_age_reading():
    """done_getting_tensors' 'wrong number of tensors; expected %d, got %d' (llama-model-loader.cpp) is untouched."""
    log = LOAD + "done_getting_tensors: wrong number of tensors; expected 292, got 291\n" + FAIL
    assert top_cause(run(log)).id == "llamacpp-build-predates-model-variant"


def test_layer0_attn_q_names_both_readings_below_070():
    """blk.0.attn_q keeping the hidden width but not the derived heads x head size reads the same for a head_dim model
    on an old build and for an edited / mis-converted GGUF: a hint below 0.70 whose cause and fix name both (and that
    still hides llamacpp-tensor-mismatch's confident reading of the same line)."""
    top = top_cause(run(CASES[2][1]))
    assert top.id == "llamacpp-build-predates-model-variant" and top.confidence < 0.7
    assert "head_dim" in top.cause and "edited or mis-converted" in top.cause
    assert "update" in top.fix and "download the GGUF again" in top.fix
