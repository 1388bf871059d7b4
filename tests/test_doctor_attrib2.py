"""Which llama.cpp feature failed its own check, read from the source file its failure line names.

The logs are written for these tests (no corpus wording): an assert or abort in a feature's file (upstream,
an old build, a fork's vendored tree), a file that is no one feature's, and families that keep winning.
"""

from __future__ import annotations

import io

import pytest

from servebox.doctor.llamacpp_attribution import LLAMA_FEATURE, rows
from servebox.doctor.ranking import CONFIDENT
from servebox.doctor.triage import triage_stream

START = "main: loading model\nllama_model_loader: loaded meta data with 31 key-value pairs"


def run(*lines: str):
    text = "\n".join([START, *lines, ""])
    return triage_stream(io.BytesIO(text.encode()), "t")


@pytest.mark.parametrize(
    ("line", "feature", "off"),
    [
        (
            "/opt/build/llama.cpp/ggml/src/ggml-cuda/fattn-tile.cu:815: GGML_ASSERT(K->ne[0] % 32 == 0) failed",
            "flash attention",
            "-fa off",
        ),
        (
            r"GGML_ASSERT: C:\w\llama.cpp\src\llama-kv-cache.cpp:1200: cells.size() > seq_to_stream.size()",
            "the KV cache",
            "-ctk",
        ),
        (
            "/go/src/ollama/llama/llama.cpp/tools/mtmd/mtmd.cpp:610: GGML_ASSERT(n_img_tokens > 0) failed",
            "projector",
            "--mmproj",
        ),
        (
            "/home/kai/ik_llama.cpp/common/speculative.cpp:212: draft vocab does not match",
            "speculative",
            "-md",
        ),
        (
            "  current device: 1, in function ggml_sycl_op_mul_mat at /srv/ggml/src/ggml-sycl/ggml-sycl.cpp:3310",
            "SYCL",
            "-ngl 0",
        ),
        (
            "/b/llama.cpp/src/llama-context.cpp:980: GGML_ASSERT(n_tokens_all <= cparams.n_batch) failed",
            "batch sizes",
            "-b/-ub",
        ),
    ],
)
def test_a_failed_check_in_a_features_file_names_the_feature_and_its_off_switch(line, feature, off):
    result = run(line, "Aborted (core dumped)")
    top = result.diagnoses[0]
    assert top.id == LLAMA_FEATURE and top.confidence < CONFIDENT
    assert feature in top.cause and off in top.fix
    assert result.fatal


@pytest.mark.parametrize(
    "line",
    [
        "/b/llama.cpp/src/llama-model.cpp:4410: GGML_ASSERT(hparams.n_expert > 0) failed",
        "/b/llama.cpp/src/llama-context.cpp:312: GGML_ASSERT(n_seq_max >= 1) failed",  # not a batch check
    ],
)
def test_a_check_in_no_features_file_is_not_read_as_one(line):
    ids = [d.id for d in run(line, "Aborted (core dumped)").diagnoses]
    assert ids and LLAMA_FEATURE not in ids


def test_a_cuda_runtime_error_in_a_kernel_file_keeps_the_cuda_families_on_top():
    result = run(
        "CUDA error: an illegal memory access was encountered",
        "  current device: 0, in function launch_fattn at /src/ggml/src/ggml-cuda/fattn-common.cuh:911",
        "/src/ggml/src/ggml-cuda/ggml-cuda.cu:88: CUDA error",
    )
    ids = [d.id for d in result.diagnoses]
    assert ids[0] == "cuda-illegal-memory-access" and ids.index(LLAMA_FEATURE) > 0


def test_a_compiler_line_or_a_mesa_path_is_not_a_failed_check():
    result = run(
        "/src/ggml/src/ggml-cuda/fattn.cu:120:5: warning: unused variable 'x'",
        "MESA: info: ../src/amd/vulkan/radv_device.c:1200: device lost recovery enabled",
    )
    assert LLAMA_FEATURE not in [d.id for d in result.diagnoses]


def test_every_row_names_a_feature_and_an_off_switch():
    assert rows() and all(r.path and r.feature and r.off for r in rows())
