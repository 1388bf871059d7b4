"""Families added or widened by learnllama27 (stop 27, round 10) from train-side llama.cpp / llamafile / llama-box
threads: one case per family in a wording other than its corpus log's, and the near misses that must stay apart.
"""

from __future__ import annotations

import pytest

from tests.doctor_text import run, top_cause

CASES = [
    # llamacpp-metal-oom widened (public-llama-metal-buffer-validation-2048mb, llama.cpp#6861): Metal's validation layer
    # refusing one buffer above the device's limit; another length and limit (an 8 GB iPad's 4096 MB)
    (
        "llamacpp-metal-oom",
        "-[MTLDebugDevice newBufferWithBytesNoCopy:length:options:deallocator:]:700: failed assertion `Buffer Validation\n"
        "newBufferWith*:length 0x121000000 must not exceed 4096 MB.\n",
    ),
    # llamacpp-metal-oom hinted (public-ollama-metal-status5-working-set, ollama#434): 2023 ggml-metal.m's status-5 failure,
    # another command buffer and assert line
    (
        "llamacpp-metal-oom",
        "ggml_metal_graph_compute: command buffer 0 failed with status 5\nGGML_ASSERT: ggml-metal.m:969: false\n",
    ),
    # llamacpp-build-predates-model-variant (public-llamafile-phi4-n-swa-assert, llamafile#674): the assert as a newer
    # src/llama-model.cpp path prints it, without llamafile's SIGABRT banner
    (
        "llamacpp-build-predates-model-variant",
        "/build/llama.cpp/src/llama-model.cpp:1017: GGML_ASSERT(hparams.n_swa > 0) failed\nAborted (core dumped)\n",
    ),
    # hub-server-error widened (public-llama-server-hf-api-500, llama.cpp#12939): the download path's wording of a 5xx
    # (common/download.cpp 'download received non-successful status code: %d')
    (
        "hub-server-error",
        "common_download_file_single_online: download received non-successful status code: 503\n"
        "error: failed to download model from https://huggingface.co/bartowski/Qwen3-8B-GGUF\n",
    ),
    # hub-server-error: the -hf lookup's own wording with another 5xx
    (
        "hub-server-error",
        "terminate called after throwing an instance of 'std::runtime_error'\n"
        "  what():  error from HF API, response code: 502, data: <html>Bad Gateway</html>\n",
    ),
    # llamacpp-ubatch-below-input widened (public-llama-server-reranker-physical-batch, llama.cpp#11105): the
    # pre-count wording as the server's log prints it
    (
        "llamacpp-ubatch-below-input",
        "srv    send_error: task id = 3, error: input is too large to process. increase the physical batch size\n",
    ),
    # llamacpp-ubatch-below-input widened (public-llama-box-embeddings-physical-batch, gpustack#950): llama-box's
    # 'please' wording on another task
    (
        "llamacpp-ubatch-below-input",
        "1.02.117.530 E srv                send_error: task 44 | error = input is too large to process, please "
        "increase the physical batch size\n",
    ),
]


@pytest.mark.parametrize(("family", "text"), CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_family_reads_other_wording(family: str, text: str) -> None:
    top = top_cause(run(text))
    assert top is not None and top.id == family


def test_status5_alone_is_only_a_hint() -> None:
    """A status-5 command buffer without a printed reason, beside the old ggml-metal.m assert, names memory only
    below 0.70: the status does not say it; without that assert (newer builds print a reason) it names nothing."""
    old_build = "ggml_metal_graph_compute: command buffer 2 failed with status 5\nGGML_ASSERT: ggml-metal.m:1177: false\n"
    top = top_cause(run(old_build))
    assert top is not None and top.id == "llamacpp-metal-oom" and top.confidence < 0.70
    bare = top_cause(run("ggml_metal_graph_compute: command buffer 2 failed with status 5\n"))
    assert bare is None or bare.id != "llamacpp-metal-oom"


def test_status5_with_timeout_reason_is_not_confident_oom() -> None:
    """Newer builds print the reason after the status: a GPU timeout must not read as a confident memory failure."""
    text = (
        "ggml_metal_synchronize: error: command buffer 0 failed with status 5\n"
        "error: Caused GPU Timeout Error (00000002:kIOGPUCommandBufferCallbackErrorTimeout)\n"
    )
    top = top_cause(run(text))
    assert top is None or top.id != "llamacpp-metal-oom" or top.confidence < 0.70


NEAR_MISSES = [
    # a 4xx from the hub is the repo's or the token's problem, not an outage
    (
        "hub-server-error",
        '  what():  error from HF API, response code: 404, data: {"error":"Repository not found"}\n',
    ),
    # another hyperparameter assert is not this family
    (
        "llamacpp-build-predates-model-variant",
        "llama-model.cpp:912: GGML_ASSERT(hparams.n_expert > 0) failed\n",
    ),
    # a generation that outgrew the context is not a physical-batch refusal
    (
        "llamacpp-ubatch-below-input",
        "srv    send_error: task id = 9, error: the request exceeds the available context size. try increasing the "
        "context size or enable context shift\n",
    ),
]


@pytest.mark.parametrize(("family", "text"), NEAR_MISSES, ids=[c[0] for c in NEAR_MISSES])
def test_near_miss_stays_apart(family: str, text: str) -> None:
    top = top_cause(run(text))
    assert top is None or top.id != family
