"""The plan's result (what vLLM will log, and every figure with its label) and the settings it was made for."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, PrivateAttr


class Plan(BaseModel):
    model: str
    gpu: str
    gpu_total_gib: float
    vllm_profile: str
    tensor_parallel_size: int
    pipeline_parallel_size: int
    gpu_memory_utilization: float
    requested_gib: float
    model_loading_gib: float
    activation_gib: float
    non_torch_gib: float
    cudagraph_estimate_gib: float
    cudagraph_subtracted: bool
    cudagraph_capture_sizes: int  # how many batch sizes vLLM captures (0: eager)
    available_kv_gib: float
    block_size: int
    num_blocks: int
    kv_groups: list[dict[str, Any]]
    per_token_kv_bytes: int
    max_model_len: int
    blocks_per_request: int
    kv_cache_tokens: int
    max_concurrency: float
    fits: bool
    max_model_len_that_fits: int
    error: str | None
    log_lines: list[str]
    context_table: list[dict[str, Any]]
    assumptions: list[str]
    explain: list[str]
    breakdown: dict[str, float]
    calibration_status: dict[str, Any] = {}
    labels: dict[str, str] = {}
    largest_bounded_by: str = "memory"
    # what the plan does not model for this configuration, and the KV memory left over at max_model_len: a "fits"
    # holds only if those parts take less than the margin
    unmodelled: list[str] = []
    margin_gib: float | None = None
    data_parallel_size: int = 1
    nodes: int = 1
    gpus_per_node: int = 1
    deciding_stage: int = (
        0  # the pipeline stage whose KV pool is smallest: vLLM gives every worker its blocks
    )
    stages: list[
        dict[str, Any]
    ] = []  # per stage of one replica: layers, ranks, nodes, weights, KV, blocks (per rank)
    node_memory: list[dict[str, Any]] = []  # per node: GPUs used, weights, non-KV, KV allocated, summed (GiB)
    _blocks_for: Any = PrivateAttr(default=None)  # length -> blocks one request of it holds (for C@L rules)

    def blocks_needed(self, length: int) -> int:
        return self._blocks_for(length)


@dataclass
class Settings:
    """The flags as vLLM resolves them before start-up: parallelism, dtype, scheduler defaults, speculation."""

    tp: int
    pp: int
    model_dtype: str
    dtype_bytes: int
    seqs: int
    tokens: int
    uses_mtp: bool
    n_spec: int
    draft_model: bool
