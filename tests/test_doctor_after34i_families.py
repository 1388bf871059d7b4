"""Families learnt by after34i from fresh-189 (LoRA adapters and control vectors in llama-server), after scoring.

gguf.cpp's getters (ggml/src/gguf.cpp of llama.cpp b11434: get_val<T>'s 'type_to_gguf_type<T>::value == type',
gguf_get_arr_str's 'ctx->kv[key_id].get_type() == GGUF_TYPE_STRING', every getter's 'key_id >= 0 && key_id <
gguf_get_n_kv(ctx)'; ggml.c's older 'ctx->kv[key_id].type == GGUF_TYPE_FLOAT32') abort on a key of the wrong type or
one the file lacks; the file is the one whose loader the backtrace or the lines above name.
"""

from __future__ import annotations

import pytest

from tests.doctor_text import run, top_cause

GGUF = "/src/llama.cpp/ggml/src/gguf.cpp"
TAIL = "Aborted (core dumped)\n"

CASES = [
    (  # the LoRA loader's own line above the abort, no backtrace (a build without gdb)
        "llamacpp-lora-load-failed",
        "llama_adapter_lora_init_impl: loading lora adapter from '/srv/lora/style.gguf' ...\n"
        f"{GGUF}:1098: GGML_ASSERT(ctx->kv[key_id].get_type() == GGUF_TYPE_STRING) failed\n" + TAIL,
    ),
    (  # ggml.c's older form, the backtrace naming the adapter loader
        "llamacpp-lora-load-failed",
        "GGML_ASSERT: /llama.cpp/ggml.c:21011: ctx->kv[key_id].type == GGUF_TYPE_FLOAT32\n"
        "#3  0x00007f in gguf_get_val_f32 ()\n#4  0x00007f in llama_adapter_lora_init_impl(llama_model&) ()\n"
        + TAIL,
    ),
    (  # the projector's loader (tools/mtmd/clip.cpp clip_model_loader::get_u32)
        "llamacpp-mmproj-load-failed",
        f"{GGUF}:196: GGML_ASSERT(type_to_gguf_type<T>::value == type) failed\n"
        "#3  0x000055 in gguf_get_val_u32 ()\n"
        "#4  0x000055 in clip_model_loader::get_u32(std::string const&, int&, bool) ()\n" + TAIL,
    ),
    (  # a draft GGUF without ARCH.block_count (common/speculative.cpp common_speculative_types_from_gguf)
        "llamacpp-draft-model-incompatible",
        f"{GGUF}:1139: GGML_ASSERT(key_id >= 0 && key_id < gguf_get_n_kv(ctx)) failed\n"
        "#3  0x000055 in gguf_get_val_u32 ()\n"
        "#4  0x000055 in common_speculative_types_from_gguf(std::string const&) ()\n" + TAIL,
    ),
    (  # the model's own vocabulary read (src/llama-vocab.cpp gguf_get_arr_str on tokenizer.ggml.tokens)
        "llamacpp-gguf-metadata-missing",
        f"{GGUF}:1098: GGML_ASSERT(ctx->kv[key_id].get_type() == GGUF_TYPE_STRING) failed\n"
        "#3  0x000055 in gguf_get_arr_str ()\n#4  0x000055 in llama_vocab::impl::load(llama_model_loader&) ()\n"
        + TAIL,
    ),
]


@pytest.mark.parametrize(("family", "text"), CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_gguf_getter_assert_names_the_file_its_loader_read(family: str, text: str) -> None:
    top = top_cause(run(text))
    assert top is not None and top.id == family


NEAR_MISSES = [
    # the same getter assert with no loader named anywhere: the generic internal check stays
    f"{GGUF}:196: GGML_ASSERT(type_to_gguf_type<T>::value == type) failed\n" + TAIL,
    # an adapter being loaded, but the abort is not a gguf getter's: not the adapter's metadata
    "llama_adapter_lora_init_impl: loading lora adapter from '/srv/lora/style.gguf' ...\n"
    "/src/llama.cpp/ggml/src/ggml.c:1740: GGML_ASSERT(view_src == NULL || data_size == 0) failed\n" + TAIL,
]


@pytest.mark.parametrize("text", NEAR_MISSES, ids=["no-loader", "not-a-getter"])
def test_other_asserts_stay_generic(text: str) -> None:
    top = top_cause(run(text))
    assert top is not None and top.id == "llamacpp-assert"


def test_rank_mismatch_reads_as_a_malformed_adapter() -> None:
    # src/llama-adapter.cpp: 'lora_a tensor is not transposed' is thrown whenever w.a->ne[1] != w.b->ne[0]
    text = (
        "llama_adapter_lora_init_from_file_ptr: failed to apply lora adapter: lora_a tensor is not transposed "
        '(hint: adapter from "finetune" example is no longer supported)\n'
    )
    top = top_cause(run(text))
    assert top is not None and top.id == "llamacpp-lora-load-failed"
    assert "rank" in top.cause and "not transposed" in top.cause


def test_control_vector_layer_zero_is_named() -> None:
    text = "common_control_vector_load_one: invalid (zero) direction tensor layer index in /srv/v/calm.gguf\n"
    top = top_cause(run(text))
    assert top is not None and top.id == "llamacpp-control-vector-unusable"
    assert "direction.0" in top.cause
