"""What after32j learnt in stop 32 after scoring fresh-150 (one field of a model's own files altered: GGUF keys for
llama-server, config/tokenizer files for vLLM): each class from the programs' own sources (llama.cpp b11434's
src/llama-model.cpp, llama-vocab.cpp, llama-model-loader.cpp, ggml's norm kernels; transformers'
tokenization_utils_base.py), tested on another real wording than the batch log's and on a near miss.
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

LOAD = "llama_model_load: error loading model: "
FAIL = "llama_model_load_from_file_impl: failed to load model\n"
BACKTRACE = "#1  0x00005620d5f62f6b in ggml_print_backtrace ()\n#2  0x00005620d5f630b8 in ggml_abort ()\n"
SITE = "/opt/venv/lib/python3.12/site-packages"

CASES = [
    # check_tensor_dims on a Llama-3-8B GGUF without ARCH.attention.head_count_kv: load_hparams takes n_head_kv =
    # n_head, so attn_k is expected square (4096 x 4096) and the file's GQA projection (4096 x 1024) does not fit
    (
        "llamacpp-tensor-mismatch",
        LOAD
        + "check_tensor_dims: tensor 'blk.0.attn_k.weight' has wrong shape; expected  4096,  4096, got  4096,  "
        "1024,     1,     1\n" + FAIL,
    ),
    # llama-cpp-python's bundled build (llama_load_model_from_file) with a GGUF lacking tokenizer.ggml.model
    (
        "llamacpp-gguf-metadata-missing",
        LOAD + "error loading model vocabulary: key not found in model: tokenizer.ggml.model\n"
        "llama_load_model_from_file: failed to load model\n"
        "ValueError: Failed to load model from file: /models/model.gguf\n",
    ),
    # load_hparams' other value check (llama-model.cpp), wrapped by b11434 as 'hyperparameters:'
    (
        "llamacpp-gguf-metadata-missing",
        LOAD
        + "error loading model hyperparameters: model has expert layers but no expert layers are used\n"
        + FAIL,
    ),
    # the rope dimension check, another model's numbers
    (
        "llamacpp-gguf-metadata-missing",
        LOAD + "error loading model hyperparameters: invalid n_rot: 96, expected 128\n" + FAIL,
    ),
    # ggml-cuda/norm.cu's rms_norm with the GGUF's negative epsilon, on the first decode
    (
        "llamacpp-gguf-metadata-missing",
        "/build/llama.cpp/ggml/src/ggml-cuda/norm.cu:454: GGML_ASSERT(eps >= 0.0f) failed\n" + BACKTRACE,
    ),
    # transformers 4.3x's lower-case wording (SpecialTokensMixin.__init__), a dict where a string belongs
    (
        "tokenizer-config-field-wrong-type",
        f'  File "{SITE}/transformers/tokenization_utils_base.py", line 1402, in __init__\n'
        "TypeError: special token bos_token has to be either str or AddedToken but got: <class 'dict'>\n",
    ),
    # add_special_tokens' assert on additional_special_tokens given as ids
    (
        "tokenizer-config-field-wrong-type",
        f'  File "{SITE}/transformers/tokenization_utils_base.py", line 980, in add_special_tokens\n'
        "AssertionError: Tokens [32000, 32001] for key additional_special_tokens should all be str or AddedToken "
        "instances\n",
    ),
]

NEAR_MISSES = [
    # a head_dim model (Mistral-Nemo) on a build before its support: attn_q, never a square attn_k -- the build's age
    (
        "llamacpp-tensor-mismatch",
        LOAD
        + "check_tensor_dims: tensor 'blk.0.attn_q.weight' has wrong shape; expected  5120,  5120, got  5120,  "
        "4096,     1,     1\n" + FAIL,
    ),
    # the square attn_k is not the build's age
    (
        "llamacpp-build-predates-model-variant",
        LOAD
        + "check_tensor_dims: tensor 'blk.3.attn_k.weight' has wrong shape; expected  2048,  2048, got  2048,  "
        "512,     1,     1\n" + FAIL,
    ),
    # an unknown pre-tokenizer is the build's vocabulary support, not a missing key
    (
        "llamacpp-gguf-metadata-missing",
        LOAD + "error loading model vocabulary: unknown pre-tokenizer type: 'deepseek-r1-qwen'\n" + FAIL,
    ),
    # another ggml assert in the same kernels is not the epsilon
    (
        "llamacpp-gguf-metadata-missing",
        "/build/llama.cpp/ggml/src/ggml-cpu/ops.cpp:4030: GGML_ASSERT(ne00 % 32 == 0) failed\n" + BACKTRACE,
    ),
    # a config.json field of the wrong type is config.json's family, not the tokenizer's
    (
        "tokenizer-config-field-wrong-type",
        "TypeError: Field 'eos_token_id' expected int, got str (value: '</s>')\n",
    ),
]

test_names_the_cause, test_near_miss_not_confident = family_tests(CASES, NEAR_MISSES)


def test_head_dim_model_keeps_the_build_age_reading():
    log = NEAR_MISSES[0][1]
    assert top_cause(run(log)).id == "llamacpp-build-predates-model-variant"


def test_bare_context_length_hint_names_both_readings():
    """Without a kv dump, a missing ARCH.context_length reads the same for a LoRA adapter and a damaged/edited model
    GGUF: the hint stays below 0.70 and its cause and fix name both."""
    top = top_cause(
        run(
            LOAD
            + "error loading model hyperparameters: key not found in model: qwen2.context_length\n"
            + FAIL
        )
    )
    assert top.id == "lora-adapter-as-model" and top.confidence < 0.7
    assert "adapter" in top.cause and "damaged or was edited" in top.cause
    assert "download it again" in top.fix
