"""What the measured batch fresh-367 (vLLM 0.26.0 on an H100) taught after scoring, with the neighbourhood of each miss's
check in vLLM's source (0.32's, the same messages as 0.26's).

- flashinfer-missing-or-old: model_executor/layers/mamba/ops/ssu_dispatch.py ('FlashInfer is required for the flashinfer
  Mamba SSU backend. Please install flashinfer (>= 0.6.4): pip install flashinfer-python', 'FlashInfer ReplaySSM
  requires a compatible flashinfer-python package'), distributed/device_communicators/all2all.py ('flashinfer all2all
  module not found. Please install/check flashinfer', 'flashinfer trtllm_moe_alltoall module not found. ...') and a
  selected attention backend's first reason (mla/flashinfer_mla_sparse_sm90.py, flashinfer_mla_sparse.py): outranking
  optional-package-missing, whose general 'X is required for ... Please install' read the first.
- no-memory-for-cache-blocks over kv-cache-below-one-token for a budget at or under zero: v1/core/kv_cache_utils.py
  get_kv_cache_configs runs _auto_fit_max_model_len ('Cannot auto-fit max_model_len: not enough GPU memory available to
  serve even a single token') before _check_enough_kv_cache_memory ('No available memory for the cache blocks', for
  available <= 0), so the auto-fit line under a negative 'Available KV cache memory' is nothing left at all.
Messages are the source's format strings rendered with a value (marked so); none is the corpus log's own.
"""

from __future__ import annotations

from tests.doctor_text import family_tests

CORE = "(EngineCore pid=4242) ERROR 05-02 10:00:03 [core.py:1330] "


def core_failure(command: str, exception_lines: list[str], above: str = "") -> str:
    """A vLLM start whose engine core raised: the command, lines above, the core's traceback tail, the API's wrapper."""
    body = "".join(CORE + line + "\n" for line in exception_lines)
    return (
        f"$ {command}\n{above}"
        f"{CORE}EngineCore failed to start.\n{CORE}Traceback (most recent call last):\n{body}"
        "(APIServer pid=4200) RuntimeError: Engine core initialization failed. See root cause above. "
        "Failed core proc(s): {}\n"
    )


def kv_refusal(budget: str, exception: str, frame: str = "2454, in _auto_fit_max_model_len") -> str:
    """A profiled start (no --kv-cache-memory-bytes) whose KV sizing refused, gpu_worker's budget line above it; frame:
    the raising line of vLLM 0.32's kv_cache_utils.py."""
    return core_failure(
        "vllm serve meta-llama/Llama-3.1-8B-Instruct --gpu-memory-utilization 0.12",
        [
            f'  File "/opt/vllm/vllm/v1/core/kv_cache_utils.py", line {frame}',
            "    raise ValueError(",
            exception,
        ],
        above=(
            "(EngineCore pid=4242) INFO 05-02 10:00:01 [gpu_model_runner.py:5347] Model loading took 14.99 GiB memory\n"
            f"(EngineCore pid=4242) INFO 05-02 10:00:02 [gpu_worker.py:560] Available KV cache memory: {budget} GiB\n"
        ),
    )


# a traceback's innermost frame, its source line under it (vLLM 0.32's files)
SSU = [
    '  File "/opt/vllm/vllm/model_executor/layers/mamba/ops/ssu_dispatch.py", line 642, in initialize_mamba_ssu_backend',
    "    raise ImportError(",
]
A2A = [
    '  File "/opt/vllm/vllm/distributed/device_communicators/all2all.py", line 671, in __init__',
    "    assert (",
]

CASES = [
    # (rendered) ReplaySSM's import of flashinfer.mamba.checkpointing_ssu, an older flashinfer without it
    (
        "flashinfer-missing-or-old",
        core_failure(
            "vllm serve nvidia/NVIDIA-Nemotron-Nano-9B-v2 --mamba-backend flashinfer --speculative-config '{...}'",
            [*SSU, "ImportError: FlashInfer ReplaySSM requires a compatible flashinfer-python package"],
        ),
    ),
    # (rendered) the SSU backend's import under an old flashinfer that has no flashinfer.mamba (not the corpus's
    # missing package: another cause line above it, and a pip-installed path)
    (
        "flashinfer-missing-or-old",
        core_failure(
            "python -m vllm.entrypoints.openai.api_server --model ibm-granite/granite-4.0-h-tiny --mamba-backend flashinfer",
            [
                "ModuleNotFoundError: No module named 'flashinfer.mamba'",
                "",
                "The above exception was the direct cause of the following exception:",
                *SSU,
                "ImportError: FlashInfer is required for the flashinfer Mamba SSU backend. Please install flashinfer "
                "(>= 0.6.4): pip install flashinfer-python",
            ],
        ),
    ),
    # (rendered) the two all2all managers' asserts (--all2all-backend flashinfer_nvlink_two_sided / _one_sided)
    (
        "flashinfer-missing-or-old",
        core_failure(
            "vllm serve Qwen/Qwen3-30B-A3B --enable-expert-parallel --all2all-backend flashinfer_nvlink_two_sided",
            [*A2A, "AssertionError: flashinfer all2all module not found. Please install/check flashinfer"],
        ),
    ),
    (
        "flashinfer-missing-or-old",
        core_failure(
            "vllm serve Qwen/Qwen3-30B-A3B --enable-expert-parallel --all2all-backend flashinfer_nvlink_one_sided",
            [
                *A2A,
                "AssertionError: flashinfer trtllm_moe_alltoall module not found. Please install/check flashinfer",
            ],
        ),
    ),
    # (rendered) platforms/cuda.py's refusal of a selected backend whose first reason is FlashInfer's version
    (
        "flashinfer-missing-or-old",
        core_failure(
            "vllm serve deepseek-ai/DeepSeek-V3.2 --attention-backend FLASHINFER_MLA_SPARSE_SM90",
            [
                "ValueError: Selected backend AttentionBackendEnum.FLASHINFER_MLA_SPARSE_SM90 is not valid for this "
                "configuration. Reason: ['FLASHINFER_MLA_SPARSE_SM90 requires FlashInfer with SM90 MLA support "
                "(ckv_scale_arr in BatchMLAPagedAttentionWrapper.run, FlashInfer >= 0.6.18)']"
            ],
        ),
    ),
    # (rendered) auto-fit (max_model_len -1) under a NEGATIVE budget: nothing left, not a length to fit
    (
        "no-memory-for-cache-blocks",
        kv_refusal(
            "-1.20",
            "ValueError: Cannot auto-fit max_model_len: not enough GPU memory available to serve even a single "
            "token. Try increasing `gpu_memory_utilization`.",
        ),
    ),
    # ... and the same auto-fit line under a small POSITIVE budget stays kv-cache-below-one-token's
    (
        "kv-cache-below-one-token",
        kv_refusal(
            "0.01",
            "ValueError: Cannot auto-fit max_model_len: not enough GPU memory available to serve even a single "
            "token. Try increasing `gpu_memory_utilization`.",
        ),
    ),
]

NEAR_MISSES = [
    # another optional package's own refusal (the MCP tool server) stays the general family's, not FlashInfer's
    (
        "flashinfer-missing-or-old",
        core_failure(
            "vllm serve openai/gpt-oss-20b --tool-server demo",
            ["ImportError: mcp is not installed. Please run `pip install mcp` to use MCPToolServer."],
        ),
    ),
    # the allreduce fusion pass's warning skips the pass and the engine goes on: no FlashInfer failure
    (
        "flashinfer-missing-or-old",
        "$ vllm serve Qwen/Qwen3-8B -tp 2\n(Worker_TP0 pid=11) WARNING 05-02 10:00:01 [allreduce_rms_fusion.py:1007] "
        "Flashinfer is not installed or comm module not found, skipping allreduce fusion pass\n"
        "(APIServer pid=10) INFO 05-02 10:00:40 [api_server.py:1000] Starting vLLM API server 0 on http://0.0.0.0:8000\n",
    ),
    # a selected FlashInfer backend refused first for the GPU, not for FlashInfer: not this family's fix
    (
        "flashinfer-missing-or-old",
        core_failure(
            "vllm serve deepseek-ai/DeepSeek-V3.2 --attention-backend FLASHINFER_MLA_SPARSE_SM90",
            [
                "ValueError: Selected backend AttentionBackendEnum.FLASHINFER_MLA_SPARSE_SM90 is not valid for this "
                "configuration. Reason: ['compute capability not supported', 'FLASHINFER_MLA_SPARSE_SM90 requires "
                "sparse MLA']"
            ],
        ),
    ),
    # a positive budget too small for one request is the length's family, not 'nothing left'
    (
        "no-memory-for-cache-blocks",
        kv_refusal(
            "0.40",
            "ValueError: To serve at least one request with the model's max seq len (131072), (16.00 GiB KV cache is "
            "needed, which is larger than the available KV cache memory (0.40 GiB). Based on the available memory, "
            "the estimated maximum model length is 3264. Try increasing `gpu_memory_utilization` (which also "
            "controls CPU memory on the CPU backend) or decreasing `max_model_len` when initializing the engine.",
            frame="1030, in _check_enough_kv_cache_memory",
        ),
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)
