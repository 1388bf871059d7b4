"""What fresh-16's three confident wrong answers taught (the rest of that batch is measured, not learnt).

Lines from llama.cpp's own texts (gguf.cpp's tensor-type check, ggml-backend-reg.cpp's loader) with other
tensors, types and libraries than the corpus excerpts.
"""

from __future__ import annotations

from servebox.doctor.ranking import CONFIDENT
from tests.doctor_text import run, top_cause


def test_a_tensor_type_this_build_does_not_know_is_an_old_build_not_a_bad_file():
    r = run(
        "gguf_init_from_file_impl: tensor 'blk.3.attn_q.weight' has invalid ggml type 41 (NONE)\n"
        "gguf_init_from_file_impl: failed to read tensor info\n"
        "llama_model_load: error loading model: llama_model_loader: failed to load model from /m/x.gguf\n"
    )
    top = top_cause(r)
    assert top.id == "llamacpp-build-too-old-for-tensor-type" and top.confidence >= CONFIDENT
    assert "41" in top.cause and "llama.cpp" in top.fix


def test_a_wild_type_number_is_still_a_damaged_file():
    """A corrupt header gives random type numbers: only the small ones are formats a newer build may know."""
    r = run(
        "gguf_init_from_file_impl: tensor 'blk.3.attn_q.weight' has invalid ggml type 40212 (NONE)\n"
        "gguf_init_from_file_impl: failed to read tensor info\n"
    )
    assert top_cause(r).id != "llamacpp-build-too-old-for-tensor-type"


def test_backend_libraries_without_an_init_symbol_are_a_note_on_a_build_without_dynamic_loading():
    """ggml-backend-reg.cpp prints 'failed to find ggml_backend_init' for a library built without
    GGML_BACKEND_DL, whose backend is linked into the binary already: not a failure by itself."""
    r = run(
        "load_backend: failed to find ggml_backend_init in /opt/llama/libggml-vulkan.so\n"
        "load_backend: failed to find ggml_backend_init in /opt/llama/libggml-cpu.so\n"
        "version: 5120 (abcdef12)\n"
    )
    assert top_cause(r) is None and not r.fatal
    assert any(d.id == "llamacpp-backend-not-dl-build" and d.role == "note" for d in r.diagnoses)


def test_an_incompatible_backend_library_stays_a_mismatch():
    r = run("load_backend: failed to initialize backend from ./libggml-cuda.so: incompatible API version\n")
    assert top_cause(r).id == "llamacpp-backend-library-mismatch"
