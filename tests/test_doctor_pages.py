"""Wordings grown from TRAIN-side public web pages (trainpages, s23) that the knowledge base's own
excerpts do not cover: pages quote engine errors wrapped over lines or with parts dropped, and a
family should still name them."""

from __future__ import annotations

import io

from servebox.doctor.triage import triage_stream
from tests.doctor_text import run, top_cause


def _top(log: str):
    return top_cause(run(log))


def test_v0_max_seq_len_check_wrapped_or_without_count():
    wrapped = (
        "ValueError: The model's max seq len (32768) is larger than the maximum number of\n"
        "tokens that can be stored in KV cache (2048). Try increasing `gpu_memory_utilization`\n"
    )
    bare = "ValueError: The model's max seq len (8192) is larger than the maximum number of tokens that can be stored in KV cache. Try increasing gpu_memory_utilization."
    for log in (wrapped, bare):
        top = _top(log)
        assert top is not None and top.id == "max-model-len-exceeds-kv-v0", log
        assert "{" not in top.cause + top.fix and "max_model_len" in top.cause


def test_ld_exit_line_after_missing_libcuda_is_explained():
    """ld's 'collect2: error: ld returned 1 exit status' is the consequence of 'cannot find -lcuda', not a
    second unexplained error that caps the answer's confidence."""
    log = "/usr/bin/ld: cannot find -lcuda: No such file or directory\ncollect2: error: ld returned 1 exit status\n"
    top = _top(log)
    assert top is not None and top.id == "triton-libcuda-not-found" and top.confidence >= 0.9


def test_quant_method_assert_in_a_traceback_explains_its_bare_assertionerror():
    """The traceback form (the assert line, then a bare 'AssertionError') is the same family at full
    confidence: the bare exception is the assertion's own, not a second unexplained error."""
    log = (
        '  File "/usr/lib/python3/site-packages/vllm/model_executor/layers/fused_moe/layer.py", line 256, in __init__\n'
        "    assert self.quant_method is not None\n"
        "AssertionError\n"
    )
    top = _top(log)
    assert top is not None and top.id == "quant-method-missing-for-layer" and top.confidence >= 0.75


def test_scheduler_abort_quoted_without_the_buffer_name():
    top = _top("pre-allocated tensor (cache_k_l0 (view)) in a buffer that cannot run the operation (VIEW)\n")
    assert top is not None and top.id == "llamacpp-buffer-cannot-run-op"
    assert "cache_k_l0 (view)" in top.cause and "VIEW" in top.fix and "{" not in top.cause + top.fix


def test_undefined_symbol_torch_or_own_kernel():
    """A namespaced torch symbol (or torch's global THP* function) missing from vLLM's _C is a torch/ABI
    mismatch; one of vLLM's own plain kernels missing is a broken build of vLLM itself."""
    lib = "ImportError: /venv/lib/python3.12/site-packages/vllm/_C.abi3.so: undefined symbol: "
    assert _top(lib + "_ZN3c106detail14torchCheckFailEPKcS2_jRKSs\n").id == "extension-abi-mismatch"
    assert _top(lib + "_Z16THPVariable_WrapN2at10TensorBaseE\n").id == "extension-abi-mismatch"
    own = _top(lib + "_Z18cutlass_mla_decodeRKN2at6TensorES2_S2_S2_S2_S2_d\n")
    assert own.id == "engine-build-references-uncompiled-kernel"


def test_import_name_missing_only_for_the_engine_stack():
    top = _top(
        "ImportError: cannot import name 'cached_download' from 'huggingface_hub' (/venv/hf/__init__.py)\n"
    )
    assert top is not None and top.id == "python-import-name-missing" and "huggingface_hub" in top.cause
    # vllm's and transformers' own names missing have their own families (trainvllm's, learnt in parallel)
    top = _top(
        "ImportError: cannot import name 'AutoProcessor' from 'transformers' (/venv/transformers/__init__.py)\n"
    )
    assert top is not None and top.id == "transformers-version-mismatch"
    app = _top("ImportError: cannot import name 'helper' from 'myapp.utils' (/srv/myapp/utils.py)\n")
    assert app is None or app.id != "python-import-name-missing"


def test_lora_not_found_without_its_path_and_gloo_recv_timeout():
    top = _top("Loading lora _lora failed: No adapter found\n")
    assert top is not None and top.id == "lora-adapter-not-found" and "{" not in top.cause
    top = _top(
        "RuntimeError: [gloo/transport/tcp/unbound_buffer.cc:78] Timed out waiting 900000ms for recv operation to complete\n"
    )
    assert top is not None and top.id == "gloo-collective-timeout" and top.confidence < 0.7


def test_old_unknown_part_type_is_a_refused_request():
    result = triage_stream(io.StringIO("Unknown part type: image\n"), "page")
    assert result.diagnoses[0].id == "chat-content-part-type-unknown" and not result.fatal


def test_missing_architectures_old_form_needs_the_registry_frame():
    old = (
        '  File "vllm/model_executor/models/registry.py", line 330, in inspect_model_cls\n'
        "    for arch in architectures:\n"
        "TypeError: 'NoneType' object is not iterable\n"
    )
    assert _top(old).id == "model-architectures-missing"
    other = _top("TypeError: 'NoneType' object is not iterable\n")
    assert other is None or other.id != "model-architectures-missing"


def test_context_shift_disabled_is_a_refused_request():
    result = triage_stream(
        io.StringIO("srv  send_error: task id = 3, error: context shift is disabled\n"), "page"
    )
    assert result.diagnoses[0].id == "request-longer-than-context" and not result.fatal
    assert "--context-shift" in result.diagnoses[0].fix


def test_cpu_buffer_alloc_names_mmap_but_device_buffers_stay_gpu():
    top = _top("unable to allocate CPU buffer\n")
    assert top is not None and top.id == "llamacpp-alloc-failed" and "--no-mmap" in top.fix
    gpu = _top("llama_model_load: error loading model: unable to allocate CUDA0 buffer\n")
    assert gpu is not None and gpu.id == "llamacpp-device-buffer-alloc-failed"


def test_no_c_compiler_fix_names_the_unit_environment():
    top = _top("RuntimeError: Failed to find C compiler\n")
    assert top is not None and top.id == "no-c-compiler" and "Environment=CC=gcc" in top.fix
