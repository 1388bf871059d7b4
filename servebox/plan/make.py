"""make_plan: the steps in the order vLLM takes them at start-up, each in its own function.

1. settings (flags as vLLM resolves them), 2. weights (plan/weights.py), 3. non-KV memory
(engines/vllm/non_kv.py) and the KV budget, 4. the KV layout and the blocks a request holds (plan/kv.py),
5. the verdict: fits, the largest length that fits, tokens and concurrency, vLLM's log lines, the labels.
"""

from __future__ import annotations

import math

from servebox.checkpoint.facts import Checkpoint
from servebox.engines.vllm.flags import ServeFlags
from servebox.engines.vllm.non_kv import non_kv_memory
from servebox.engines.vllm.profile import EngineProfile, batch_shape_of, gpu_arch
from servebox.errors import InputError
from servebox.hardware import GPU
from servebox.plan.known_failures import failure_message, known_failure
from servebox.plan.kv import RequestBlocks, derived_max_len, kv_layout, request_blocks
from servebox.plan.labels import calibration_status, figure_labels
from servebox.plan.model import Plan, Settings
from servebox.plan.nodes import node_rows, rank_rows, resolve_layout
from servebox.plan.pipeline import make_stages, size_pools, stage_non_kv
from servebox.units import GiB

MTP_METHODS = {
    "mtp",
    "deepseek_mtp",
    "qwen3_next_mtp",
    "qwen3_5_mtp",
    "ernie_mtp",
    "glm4_moe_mtp",
    "mimo_mtp",
}
TABLE_LENGTHS = (4096, 8192, 16384, 32768, 65536, 131072, 262144, 524288, 1048576)


def settings(
    ckpt: Checkpoint, flags: ServeFlags, gpu: GPU, profile: EngineProfile, assumptions: list[str]
) -> Settings:
    arch = ckpt.architecture
    tp, pp = flags.tensor_parallel_size, flags.pipeline_parallel_size
    if tp < 1 or pp < 1:
        raise InputError("--tensor-parallel-size", None, "must be at least 1")
    if arch.num_attention_heads % tp:
        raise InputError(
            "--tensor-parallel-size",
            None,
            f"{arch.num_attention_heads} attention heads are not divisible by TP {tp}",
        )
    model_dtype = flags.dtype if flags.dtype != "auto" else (arch.torch_dtype or "bfloat16")
    if model_dtype == "bfloat16" and not gpu.bf16:
        cc = gpu.compute_capability
        assumptions.append(
            f"{gpu.name} (compute capability {cc[0]}.{cc[1]}) has no bf16: vLLM casts to float16"
        )
        model_dtype = "float16"
    seqs, tokens = batch_shape_of(flags, profile, gpu)
    if flags.max_num_seqs is None or flags.max_num_batched_tokens is None:
        assumptions.append(
            f"vLLM {profile.matched}'s API-server defaults for a {gpu.total_gib:.0f} GiB {gpu.model}: "
            f"max_num_seqs {seqs}, max_num_batched_tokens {tokens}"
        )
    spec = flags.speculative_config or {}
    method = str(spec.get("method") or "")
    uses_mtp = method in MTP_METHODS or "mtp" in method
    if spec.get("model") and not uses_mtp:
        # EAGLE / draft-model drafters bring their own attention layers (KV) and weights, read from another checkpoint
        raise InputError(
            "--speculative-config",
            "model",
            f"{method or 'draft model'} speculative decoding: the drafter's weights and KV cache are not modelled",
        )
    dtype_bytes = 4 if model_dtype in ("float32", "float") else 2
    n_spec = int(spec.get("num_speculative_tokens") or 0)
    return Settings(tp, pp, model_dtype, dtype_bytes, seqs, tokens, uses_mtp, n_spec, bool(spec.get("model")))


def verdict(rb: RequestBlocks, flags: ServeFlags, limit: int, available: int) -> dict:
    """Fits or vLLM's own error, the length served ('auto': the largest that fits), tokens and concurrency."""
    largest = rb.largest_fitting(limit)
    if flags.max_model_len in (None, "auto"):
        max_len = (largest or limit) if flags.max_model_len == "auto" else limit
    else:
        max_len = int(flags.max_model_len)
    if max_len > limit:  # ModelConfig validation refuses it before anything is loaded
        raise InputError(
            "--max-model-len",
            None,
            f"{max_len} is greater than the model's derived max_model_len {limit} (max_position_embeddings and rope "
            "scaling): vLLM refuses it unless VLLM_ALLOW_LONG_MAX_MODEL_LEN=1",
        )
    bpr = rb.blocks_for(max(1, max_len))
    fits = bpr <= rb.usable and available > 0
    error = None
    if (
        not fits and available <= 0
    ):  # vLLM's _check_enough_kv_cache_memory: the budget is gone before any block
        error = (
            "ValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when "
            "initializing the engine."
        )
    elif not fits:
        needed = bpr * rb.layout.bytes_per_block
        estimate = (
            f"Based on the available memory, the estimated maximum model length is {largest}. "
            if largest
            else ""
        )
        error = (
            f"ValueError: To serve at least one request with the model's max seq len ({max_len}), ({needed / GiB:.2f} GiB KV "
            f"cache is needed, which is larger than the available KV cache memory ({max(available, 0) / GiB:.2f} GiB). "
            f"{estimate}Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine."
        )
    concurrency = rb.num_blocks / bpr if bpr else 0.0
    return {
        "margin_gib": (available - bpr * rb.layout.bytes_per_block) / GiB,
        "largest": largest,
        "max_len": max_len,
        "bpr": bpr,
        "fits": fits,
        "error": error,
        "concurrency": concurrency,
    }


def make_plan(
    ckpt: Checkpoint,
    flags: ServeFlags,
    gpu: GPU,
    profile: EngineProfile,
    activation_gib: float | None = None,
    non_torch_gib: float | None = None,
    cudagraph_gib: float | None = None,
    weights_gib: float | None = None,
    build: str = "upstream",
) -> Plan:
    arch = ckpt.architecture
    assumptions: list[str] = []
    s = settings(ckpt, flags, gpu, profile, assumptions)
    lay = resolve_layout(s.tp, s.pp, flags.data_parallel_size, flags.nnodes, flags.gpus_per_node)
    total = gpu.total_bytes
    if not gpu.measured:
        assumptions.append(
            f"{gpu.name} total memory taken as {gpu.source}; pass --gpu-memory-gib with torch's figure"
        )
    requested = math.ceil(total * flags.gpu_memory_utilization)
    explain = [
        f"requested = ceil({total / GiB:.2f} GiB x {flags.gpu_memory_utilization}) = {requested / GiB:.2f} GiB"
    ]
    # 2. weights, per pipeline stage (one stage without PP)
    pipe = make_stages(ckpt, flags, s, profile, gpu_arch(gpu.compute_capability), weights_gib, build)
    weights_label = pipe.weights_label
    explain += pipe.explain + pipe.notes
    if weights_label not in ("derived", "given"):
        assumptions += pipe.notes
    # 3. non-KV memory and the KV budget
    nk = non_kv_memory(
        ckpt, flags, profile, s.tp, s.pp, s.seqs, s.tokens, s.n_spec, s.dtype_bytes,
        activation_gib, non_torch_gib, cudagraph_gib,
    )  # fmt: skip
    explain += nk.explain
    assumptions += nk.assumptions
    graphs = nk.graphs if nk.subtract_graphs else 0
    measured = {"activation_gib": activation_gib, "cudagraph_gib": cudagraph_gib}
    non_kv, lines = stage_non_kv(ckpt, flags, s, profile, nk, pipe.stages, measured)
    pipe.explain = lines
    available = size_pools(
        pipe, arch, kv_layout(arch, flags, s, profile), s.pp, flags.kv_cache_memory_bytes, requested, non_kv
    )
    weights = pipe.decider.weights
    if flags.kv_cache_memory_bytes:
        explain.append(
            f"available KV = --kv-cache-memory-bytes {available / GiB:.2f} GiB (utilization ignored)"
        )
    elif s.pp > 1:
        explain.append(
            f"available KV (stage {pipe.deciding}, the smallest pool) = {requested / GiB:.2f} - weights "
            f"{weights / GiB:.2f} - non-KV {non_kv[pipe.deciding] / GiB:.2f} = {available / GiB:.2f} GiB"
        )
    else:
        explain.append(
            f"available KV = {requested / GiB:.2f} - weights {weights / GiB:.2f} - activation {nk.activation / GiB:.2f} "
            f"- non-torch {nk.non_torch / GiB:.2f}"
            + (f" - graphs {graphs / GiB:.2f}" if graphs else "")
            + f" = {available / GiB:.2f} GiB"
        )
    explain += pipe.explain
    # 4. KV layout and the blocks one request holds
    rb = request_blocks(arch, flags, s, profile, available, pipe.num_blocks)
    explain += rb.explain
    # 5. verdict
    limit = derived_max_len(arch)
    v = verdict(rb, flags, limit, available)
    reported = known_failure(
        profile, arch.architecture, gpu_arch(gpu.compute_capability), total / GiB, s.tp * s.pp
    )
    if reported and v["fits"]:
        v["fits"], v["error"] = False, failure_message(reported, profile.version)
    bounded_by = "model positions" if v["largest"] >= limit else "memory"
    if bounded_by == "model positions":
        explain.append(f"largest that fits = the model's position limit {limit:,} (memory allows more)")
    if profile.kv_report == "concurrency":
        kv_tokens = int(v["concurrency"] * v["max_len"])
    else:
        kv_tokens = rb.num_blocks // len(rb.layout.groups) * rb.layout.block_size
    cal = calibration_status(ckpt, flags, gpu, profile, build, s.tp)
    given = {
        "activation_gib": activation_gib is not None,
        "non_torch_gib": non_torch_gib is not None,
        "cudagraph_estimate_gib": cudagraph_gib is not None,
    }
    table = []
    for length in sorted({*[t for t in TABLE_LENGTHS if t <= limit], v["max_len"]}):
        need = rb.blocks_for(length)
        table.append(
            {"context": length, "blocks_per_request": need, "max_concurrency": round(rb.num_blocks / need, 2)}
        )
    plan = Plan(
        model=ckpt.facts.source,
        gpu=gpu.name,
        gpu_total_gib=round(total / GiB, 2),
        vllm_profile=f"{profile.version} (profile {profile.matched})"
        + ("" if build == "upstream" else f", build {build}"),
        tensor_parallel_size=s.tp,
        pipeline_parallel_size=s.pp,
        gpu_memory_utilization=flags.gpu_memory_utilization,
        requested_gib=requested / GiB,
        model_loading_gib=weights / GiB,
        activation_gib=nk.activation / GiB,
        non_torch_gib=nk.non_torch / GiB,
        cudagraph_estimate_gib=nk.graphs / GiB,
        cudagraph_subtracted=nk.subtract_graphs,
        cudagraph_capture_sizes=len(nk.capture_sizes),
        available_kv_gib=available / GiB,
        block_size=rb.layout.block_size,
        num_blocks=rb.num_blocks,
        kv_groups=[
            {"kind": g.kind, "layers": g.layers, "page_bytes": g.spec.page_bytes} for g in rb.layout.groups
        ],
        per_token_kv_bytes=rb.layout.per_token_kv_bytes,
        max_model_len=v["max_len"],
        blocks_per_request=v["bpr"],
        kv_cache_tokens=kv_tokens,
        max_concurrency=v["concurrency"],
        fits=v["fits"],
        max_model_len_that_fits=v["largest"],
        error=v["error"],
        log_lines=[
            f"Model loading took {weights / GiB:.4f} GiB",
            f"Available KV cache memory: {available / GiB:.2f} GiB",
            f"GPU KV cache size: {kv_tokens:,} tokens",
            f"Maximum concurrency for {v['max_len']:,} tokens per request: {v['concurrency']:.2f}x",
        ],
        context_table=table,
        assumptions=assumptions,
        explain=explain,
        breakdown={
            "weights_gib": weights / GiB,
            "activation_gib": nk.activation / GiB,
            "non_torch_gib": nk.non_torch / GiB,
            "cudagraph_gib": graphs / GiB,
            "kv_cache_gib": max(available, 0) / GiB,
            "unrequested_gib": (total - requested) / GiB,
        },
        calibration_status=cal,
        labels=figure_labels(flags, cal["calibrated"], weights_label, given),
        largest_bounded_by=bounded_by,
        unmodelled=nk.unmodelled,
        margin_gib=v["margin_gib"],
        data_parallel_size=lay.dp,
        nodes=lay.nodes,
        gpus_per_node=lay.gpus_per_node,
        deciding_stage=pipe.deciding,
        stages=rank_rows(lay, pipe.rows),
        node_memory=node_rows(lay, pipe.rows, total / GiB, requested / GiB),
    )
    plan._blocks_for = rb.blocks_for
    return plan
