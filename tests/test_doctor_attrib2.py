"""Which llama.cpp feature failed its own check, read from the source file its failure line names.

The logs are written for these tests (no corpus wording): an assert or abort in a feature's file (upstream,
an old build, a fork's vendored tree), a file that is no one feature's, and families that keep winning.
"""

from __future__ import annotations

import io

import pytest

from servebox.doctor.attribution import FEATURE, REFUSED
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


# --- vLLM: a refusal raised inside one feature's code (engine-feature-refused) ---

VLLM = "/opt/venv/lib/python3.12/site-packages/vllm"


def vllm_run(path: str, last: str):
    text = [
        "INFO 03-02 10:00:01 [core.py:90] Initializing a V1 LLM engine",
        "Traceback (most recent call last):",
        f'  File "{VLLM}/v1/engine/core.py", line 640, in run_engine_core',
        "    engine_core = EngineCoreProc(*args, **kwargs)",
        f'  File "{VLLM}/{path}", line 212, in setup',
        "    raise here",
        last,
    ]
    return triage_stream(io.BytesIO("\n".join([*text, ""]).encode()), "t")


@pytest.mark.parametrize(
    ("path", "last", "feature"),
    [
        (
            "model_executor/layers/quantization/awq_triton.py",
            "ValueError: awq_triton packs 4-bit weights only; this checkpoint declares w_bit=5",
            "quantization method awq_triton",
        ),
        (
            "v1/attention/backends/flex_attention.py",
            "NotImplementedError: FlexAttention has no path for sliding windows combined with sinks",
            "attention backend flex_attention",
        ),
        (
            "tool_parsers/abstract_tool_parser.py",
            "KeyError: 'tool parser granite9 is unknown; the registered ones are hermes, mistral'",
            "the tool-call parser",
        ),
    ],
)
def test_a_refusal_inside_a_features_code_names_the_feature(path, last, feature):
    result = vllm_run(path, last)
    # a family whose words the message resembles (resemblance.py: the unknown tool parser is parser-unknown's) ranks
    # above the reading of where it was raised; the reading is then right below it
    ranked = [d for d in result.diagnoses if d.confidence_kind != "resemblance"]
    assert all(d.confidence < CONFIDENT for d in result.diagnoses)
    top = ranked[0]
    assert top.id == REFUSED
    assert feature.removeprefix("the ") in top.cause and last.split(": ", 1)[1][:40] in top.cause
    assert f"without {feature}" in top.fix
    assert [d.id for d in result.diagnoses].index("uncaught-exception") > 0


def test_a_refusal_outside_any_features_code_stays_the_bare_exception():
    result = vllm_run("v1/engine/core.py", "ValueError: the scheduler got a request id it never saw: 91")
    assert result.diagnoses[0].id == "uncaught-exception"
    assert REFUSED not in [d.id for d in result.diagnoses]


def test_an_internal_check_in_a_feature_stays_a_defect_not_a_refusal():
    result = vllm_run("v1/spec_decode/eagle.py", "AssertionError: draft positions went backwards")
    assert result.diagnoses[0].id == FEATURE


def test_an_off_switch_holding_json_braces_is_printed_as_written():
    # the multimodal row's off switch is --limit-mm-per-prompt '{"image": 0}': str.format read it as a field
    result = vllm_run("multimodal/processing.py", "AssertionError: placeholder count drifted from the grid")
    top = result.diagnoses[0]
    assert top.id == FEATURE and '{"image": 0}' in top.fix
