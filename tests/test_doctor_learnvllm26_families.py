"""What the scored batches fresh-32 (public vLLM threads) and fresh-34 (H200 vLLM 0.26, memory and sizing) taught:
one case per family added, widened or narrowed.

Each log is written in another wording than its corpus log (other models, sizes, paths, symbols), so the test checks
the family, not the one line it was learnt from.
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

CASES = [
    # kv-cache-memory-bytes-too-small (gpu-vllm026-f34-dsv2lite-kv-cache-memory-bytes-1): a small explicit size, the
    # auto-fit wording, on the command line instead of the non-default args
    (
        "kv-cache-memory-bytes-too-small",
        "$ vllm serve meta-llama/Llama-3.1-8B-Instruct --kv-cache-memory 1048576\n"
        "ValueError: Cannot auto-fit max_model_len: not enough GPU memory available to serve even a single token. "
        "Try increasing `gpu_memory_utilization`.\n",
    ),
    # utilization-whole-gpu (gpu-vllm026-f34-gemma3-gpu-util-1): 0.995 on an idle 80 GiB card
    (
        "utilization-whole-gpu",
        "ValueError: Free memory on device cuda:1 (78.9/79.2 GiB) on startup is less than desired GPU memory "
        "utilization (0.995, 78.8 GiB). Decrease GPU memory utilization or reduce GPU memory used by other processes.\n",
    ),
    # extension-abi-mismatch widened (public-vllm-source-build-c-abi3-undefined-symbol-constantstring): no colon
    # after "undefined symbol", another extension and symbol
    (
        "extension-abi-mismatch",
        "ImportError: /usr/lib/python3/site-packages/vllm/_moe_C.abi3.so: undefined symbol _ZN2at4_ops5zeros4callEv\n",
    ),
    # v1-engine-unsupported-architecture (public-vllm-ascend-v1-not-supported-bertmodel): another architecture
    (
        "v1-engine-unsupported-architecture",
        "ValueError: VLLM_USE_V1=1 is not supported with ['XLMRobertaForSequenceClassification'].\n",
    ),
    # python-too-old-for-engine (public-vllm-python38-list-int-not-subscriptable): Python 3.7, another module
    (
        "python-too-old-for-engine",
        'File "/opt/conda/lib/python3.7/site-packages/vllm/sampling_params.py", line 14, in <module>\n'
        "    StopIds = dict[str, int]\n"
        "TypeError: 'type' object is not subscriptable\n",
    ),
    # generate-route-not-on-openai-server (public-vllm-openai-server-post-generate-404): another client and port
    (
        "generate-route-not-on-openai-server",
        'INFO:     10.0.0.7:41000 - "POST /generate HTTP/1.0" 404 Not Found\n',
    ),
]


test_the_family_names_the_cause, _ = family_tests(CASES)


def test_the_long_max_model_len_warning_is_not_the_refusal():
    """max-model-len-above-positions narrowed (gpu-vllm026-f34-dsv2lite-long-max-model-len-allowed): the override's
    WARNING, in another model's numbers, names nothing."""
    log = (
        "WARNING 03-02 10:00:01 [config.py:3301] User-specified max_model_len (65536) is greater than the derived "
        "max_model_len (max_position_embeddings=32768 or model_max_length=None in model's config.json). "
        "VLLM_ALLOW_LONG_MAX_MODEL_LEN must be used with extreme caution.\n"
        "INFO:     Application startup complete.\n"
    )
    assert top_cause(run(log)) is None
