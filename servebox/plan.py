"""`servebox plan`: what vLLM will print at startup, per rank, before anyone waits for a cold start.

vLLM (v1/worker/gpu_worker.py determine_available_memory) requests ceil(total * utilization) and
gives the KV cache what is left after the weights ('Model loading took'), the profile run's peak
activation, the memory outside torch that appeared since start-up, and, from v0.21, its CUDA-graph
estimate. The KV layout (engines/vllm/kv_spec.py) turns that into blocks, tokens and concurrency.
Figures vLLM measures and no config holds (activation peak, non-torch memory, graph pool) are
estimated from the model's shapes, printed as assumptions, and can be overridden with the measured
value.
"""

from __future__ import annotations

import math
from typing import Any

from pydantic import BaseModel, PrivateAttr

from servebox.checkpoint.facts import Checkpoint
from servebox.engines.vllm.flags import ServeFlags
from servebox.engines.vllm.kv_spec import KVLayout, build_layout
from servebox.engines.vllm.non_kv import non_kv_memory
from servebox.engines.vllm.profile import EngineProfile, gpu_arch
from servebox.errors import InputError
from servebox.hardware import GPU
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
    _blocks_for: Any = PrivateAttr(default=None)  # length -> blocks one request of it holds (for C@L rules)

    def blocks_needed(self, length: int) -> int:
        return self._blocks_for(length)


def _load_factor(ckpt: Checkpoint, flags: ServeFlags, dtype_bytes: int) -> tuple[float, float, list[str]]:
    """How vLLM changes the stored bytes at load, as (factor for linear layers, factor for the rest): a 16-bit
    checkpoint cast by --dtype float32 doubles; runtime --quantization fp8 stores linear weights in 1 byte."""
    q = ckpt.facts.quantization.method
    stored = _dtype_bytes_of(ckpt.architecture.torch_dtype)
    if q != "none":
        if flags.quantization and flags.quantization not in (q, "auto"):
            raise InputError(
                "--quantization",
                None,
                f"{flags.quantization} on a checkpoint already quantized with {q}: not modelled",
            )
        return 1.0, 1.0, []
    cast = dtype_bytes / stored
    lines = [f"--dtype: {stored}-byte weights loaded as {dtype_bytes}-byte ({cast:g}x)"] if cast != 1 else []
    if flags.quantization in (None, "auto"):
        return cast, cast, lines
    if flags.quantization == "fp8":
        return 1 / stored, cast, lines + ["--quantization fp8: linear weights stored in 1 byte at load"]
    raise InputError(
        "--quantization", None, f"runtime quantization {flags.quantization!r} is not modelled (modelled: fp8)"
    )


def _dtype_bytes_of(name: str | None) -> int:
    return 4 if str(name).replace("torch.", "") in ("float32", "float") else 2


def _weights_per_rank(
    ckpt: Checkpoint, flags: ServeFlags, tp: int, pp: int, uses_mtp: bool, dtype_bytes: int
) -> tuple[int, list[str]]:
    inv = ckpt.inventory
    arch = ckpt.architecture
    if inv is None or not inv.total_bytes:
        raise InputError(
            ckpt.facts.source,
            None,
            "no weights: the folder has no safetensors shards (config.json only); pass --weights-gib to plan without them",
        )
    linear, other, lines0 = _load_factor(ckpt, flags, dtype_bytes)
    comps = {
        k: int(v * (linear if k in ("language_model", "vision_tower", "mtp") else other))
        for k, v in inv.bytes_by_component.items()
    }
    lm = comps.get("language_model", 0)
    emb = comps.get("embeddings", 0)
    vision = 0 if flags.language_model_only else comps.get("vision_tower", 0)
    mtp = comps.get("mtp", 0) if uses_mtp else 0
    rope_dim = arch.head_dim
    if arch.rope_scaling and arch.rope_scaling.get("partial_rotary_factor"):
        rope_dim = int(arch.head_dim * arch.rope_scaling["partial_rotary_factor"])
    rotary = (arch.max_position_embeddings or 0) * rope_dim * dtype_bytes if arch.num_attention_heads else 0
    total = lm // (tp * pp) + emb // tp + vision // tp + mtp // tp + rotary
    lines = [
        f"weights/rank = language model {lm / GiB:.2f} / (TP {tp} x PP {pp}) + embeddings+lm_head {emb / GiB:.2f} / TP"
        + (f" + vision tower {vision / GiB:.2f} / TP" if vision else "")
        + (f" + MTP head {mtp / GiB:.2f} / TP" if mtp else "")
        + f" + rotary cache {rotary / GiB:.3f} = {total / GiB:.2f} GiB"
    ]
    lines += lines0
    if comps.get("vision_tower") and flags.language_model_only:
        lines.append(
            f"--language-model-only: the vision tower ({comps['vision_tower'] / GiB:.2f} GiB) is not loaded"
        )
    return total, lines


def derived_max_len(arch) -> int:
    """vLLM's derived max_model_len: max_position_embeddings, or for rope scalings that extend it, the
    original length times the factor (yarn) / the positions times the factor (others but llama3/su/longrope)."""
    positions = arch.max_position_embeddings or 131072
    rope = arch.rope_scaling or {}
    kind = rope.get("rope_type") or rope.get("type")
    factor = rope.get("factor")
    if not factor or kind in ("su", "longrope", "llama3", None):
        return positions
    if kind == "yarn":
        return int(rope.get("original_max_position_embeddings", positions) * factor)
    return int(positions * factor)


def _batches_in_flight(profile: EngineProfile, flags: ServeFlags, pp: int) -> int:
    """VllmConfig.max_concurrent_batches: async scheduling (the default from profile.async_scheduling) keeps two
    batches in flight on the V1 runner without PP; otherwise one per pipeline stage."""
    async_on = profile.async_scheduling if flags.async_scheduling is None else flags.async_scheduling
    return 2 if async_on and pp <= 1 else pp


def _tokens(
    profile: EngineProfile, layout: KVLayout, num_blocks: int, concurrency: float, max_len: int
) -> int:
    if profile.kv_report == "concurrency":
        return int(concurrency * max_len)
    return num_blocks // len(layout.groups) * layout.block_size


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
    tp, pp = flags.tensor_parallel_size, flags.pipeline_parallel_size
    if tp < 1 or pp < 1:
        raise InputError("--tensor-parallel-size", None, "must be at least 1")
    if arch.num_attention_heads % tp:
        raise InputError(
            "--tensor-parallel-size",
            None,
            f"{arch.num_attention_heads} attention heads are not divisible by TP {tp}",
        )
    assumptions: list[str] = []
    explain: list[str] = []
    model_dtype = flags.dtype if flags.dtype != "auto" else (arch.torch_dtype or "bfloat16")
    if model_dtype == "bfloat16" and not gpu.bf16:
        assumptions.append(
            f"{gpu.name} (compute capability {gpu.compute_capability[0]}.{gpu.compute_capability[1]}) has no bf16: vLLM casts to float16 (same bytes)"
        )
        model_dtype = "float16"
    dtype_bytes = 4 if model_dtype in ("float32", "float") else 2
    big_gpu = gpu.total_bytes >= 70 * GiB
    seqs = flags.max_num_seqs or (1024 if big_gpu else 256)
    tokens = flags.max_num_batched_tokens or (8192 if big_gpu else 2048)
    if flags.max_num_seqs is None or flags.max_num_batched_tokens is None:
        assumptions.append(
            f"vLLM's API-server defaults for a {gpu.total_gib:.0f} GiB GPU: max_num_seqs {seqs}, max_num_batched_tokens {tokens}"
        )
    spec = flags.speculative_config or {}
    method = str(spec.get("method") or "")
    uses_mtp = method in MTP_METHODS or "mtp" in method
    n_spec = int(spec.get("num_speculative_tokens") or 0)
    if spec.get("model") and not uses_mtp:
        assumptions.append(
            "draft model weights are not counted (servebox does not read the draft checkpoint yet)"
        )

    total = gpu.total_bytes
    if not gpu.measured:
        assumptions.append(
            f"{gpu.name} total memory taken as {gpu.source}; pass --gpu-memory-gib with torch's figure to be exact"
        )
    requested = math.ceil(total * flags.gpu_memory_utilization)
    explain.append(
        f"requested = ceil({total / GiB:.2f} GiB x {flags.gpu_memory_utilization}) = {requested / GiB:.2f} GiB"
    )
    if weights_gib is not None:
        weights, lines = int(weights_gib * GiB), [f"weights/rank = {weights_gib} GiB (given, --weights-gib)"]
    else:
        weights, lines = _weights_per_rank(ckpt, flags, tp, pp, uses_mtp, dtype_bytes)
    explain += lines
    nk = non_kv_memory(
        ckpt,
        flags,
        profile,
        tp,
        pp,
        seqs,
        tokens,
        n_spec,
        dtype_bytes,
        activation_gib,
        non_torch_gib,
        cudagraph_gib,
    )
    explain += nk.explain
    assumptions += nk.assumptions
    activation, non_torch, graphs, subtract = nk.activation, nk.non_torch, nk.graphs, nk.subtract_graphs
    if flags.kv_cache_memory_bytes:
        available = flags.kv_cache_memory_bytes
        explain.append(
            f"available KV = --kv-cache-memory-bytes {available / GiB:.2f} GiB (gpu_memory_utilization ignored)"
        )
    else:
        available = requested - weights - activation - non_torch - (graphs if subtract else 0)
        explain.append(
            f"available KV = {requested / GiB:.2f} - weights {weights / GiB:.2f} - activation {activation / GiB:.2f} - non-torch "
            f"{non_torch / GiB:.2f}"
            + (f" - graphs {graphs / GiB:.2f}" if subtract else "")
            + f" = {available / GiB:.2f} GiB"
        )
    layout = build_layout(
        arch,
        tp,
        pp,
        flags.kv_cache_dtype,
        model_dtype,
        flags.block_size,
        profile.default_block_size,
        ssm_state_dtype="float32" if arch.linear_attention or arch.mamba else model_dtype,
        num_speculative_tokens=n_spec if (uses_mtp or spec.get("model")) else 0,
        drafter_layers=arch.mtp_layers if uses_mtp else 0,
    )
    explain += layout.notes
    num_blocks = max(0, available) // layout.bytes_per_block
    explain.append(
        f"KV groups: {len(layout.groups)} ({', '.join(f'{g.kind} x{g.layers}' for g in layout.groups[:6])}{'...' if len(layout.groups) > 6 else ''}), "
        f"block {layout.block_size} tokens, {layout.bytes_per_block:,} B per block id -> {num_blocks:,} blocks"
    )
    mode = flags.mamba_cache_mode or "none"
    if (arch.linear_attention or arch.mamba) and flags.enable_prefix_caching is not False and mode == "none":
        # vLLM (MambaModelConfig.verify_and_update_config): prefix caching, on by default, turns 'none' into 'align'
        mode = "align"
        explain.append(
            "mamba cache mode 'align': prefix caching is on (vLLM's default), which vLLM requires to align recurrent states"
        )
    window = arch.sliding_window
    in_flight = tokens * _batches_in_flight(profile, flags, pp)

    def blocks_for(length: int) -> int:
        return layout.blocks_per_request(length, window, in_flight, mode)

    usable = num_blocks - 1 if num_blocks else 0  # vLLM's block pool holds one null block back
    max_positions = derived_max_len(arch)
    lo, hi = 0, max_positions
    while lo < hi:  # largest length whose blocks fit (blocks_for is monotonic in length)
        mid = (lo + hi + 1) // 2
        if blocks_for(mid) <= usable:
            lo = mid
        else:
            hi = mid - 1
    largest = lo
    if flags.max_model_len in (None, "auto"):
        max_len = (largest or max_positions) if flags.max_model_len == "auto" else max_positions
    else:
        max_len = int(flags.max_model_len)
    if max_len > max_positions:
        assumptions.append(
            f"max_model_len {max_len} exceeds the model's {max_positions} positions: vLLM refuses it without rope scaling"
        )
    bpr = blocks_for(max(1, max_len))
    concurrency = num_blocks / bpr if bpr else 0.0
    kv_tokens = _tokens(profile, layout, num_blocks, concurrency, max_len)
    fits = bpr <= usable and available > 0
    error = None
    if not fits:
        needed = bpr * layout.bytes_per_block  # every group's blocks for one max-length request
        error = (
            f"ValueError: To serve at least one request with the models's max seq len ({max_len}), ({needed / GiB:.2f} GiB KV cache is "
            f"needed, which is larger than the available KV cache memory ({max(available, 0) / GiB:.2f} GiB). Based on the available "
            f"memory, the estimated maximum model length is {largest}. Try increasing `gpu_memory_utilization` or decreasing "
            f"`max_model_len` when initializing the engine."
        )
    bounded_by = "memory"
    if largest >= max_positions:
        bounded_by = "model positions"
        explain.append(
            f"largest that fits = the model's position limit {max_positions:,} (memory allows more)"
        )
    cal = calibration_status(ckpt, flags, gpu, profile, build, tp)
    labels = _labels(
        flags,
        cal["calibrated"],
        {
            "weights": weights_gib is not None,
            "activation_gib": activation_gib is not None,
            "non_torch_gib": non_torch_gib is not None,
            "cudagraph_estimate_gib": cudagraph_gib is not None,
        },
    )
    table = []
    for length in sorted({*[t for t in TABLE_LENGTHS if t <= max_positions], max_len}):
        need = blocks_for(length)
        table.append(
            {
                "context": length,
                "blocks_per_request": need,
                "max_concurrency": round(num_blocks / need, 2) if need else None,
            }
        )
    log_lines = [
        f"Model loading took {weights / GiB:.4f} GiB",
        f"Available KV cache memory: {available / GiB:.2f} GiB",
        f"GPU KV cache size: {kv_tokens:,} tokens",
        f"Maximum concurrency for {max_len:,} tokens per request: {concurrency:.2f}x",
    ]
    plan = Plan(
        model=ckpt.facts.source,
        gpu=gpu.name,
        gpu_total_gib=round(total / GiB, 2),
        vllm_profile=f"{profile.version} (profile {profile.matched})",
        tensor_parallel_size=tp,
        pipeline_parallel_size=pp,
        gpu_memory_utilization=flags.gpu_memory_utilization,
        requested_gib=requested / GiB,
        model_loading_gib=weights / GiB,
        activation_gib=activation / GiB,
        non_torch_gib=non_torch / GiB,
        cudagraph_estimate_gib=graphs / GiB,
        cudagraph_subtracted=subtract,
        available_kv_gib=available / GiB,
        block_size=layout.block_size,
        num_blocks=num_blocks,
        kv_groups=[
            {"kind": g.kind, "layers": g.layers, "page_bytes": g.spec.page_bytes} for g in layout.groups
        ],
        per_token_kv_bytes=layout.per_token_kv_bytes,
        max_model_len=max_len,
        blocks_per_request=bpr,
        kv_cache_tokens=kv_tokens,
        max_concurrency=concurrency,
        fits=fits,
        max_model_len_that_fits=largest,
        error=error,
        log_lines=log_lines,
        context_table=table,
        assumptions=assumptions,
        explain=explain,
        breakdown={
            "weights_gib": weights / GiB,
            "activation_gib": activation / GiB,
            "non_torch_gib": non_torch / GiB,
            "cudagraph_gib": graphs / GiB if subtract else 0.0,
            "kv_cache_gib": max(available, 0) / GiB,
            "unrequested_gib": (total - requested) / GiB,
        },
        calibration_status=cal,
        labels=labels,
        largest_bounded_by=bounded_by,
    )
    plan._blocks_for = blocks_for
    return plan


def quant_path(ckpt: Checkpoint, flags: ServeFlags) -> str:
    """The quantization path as vllm.toml's `calibrated` entries name it."""
    q = ckpt.facts.quantization
    if q.method == "none":
        return f"runtime:{flags.quantization}" if flags.quantization not in (None, "auto") else "none"
    return f"compressed-tensors:{q.scheme}" if q.method == "compressed-tensors" else q.method


def calibration_status(
    ckpt: Checkpoint, flags: ServeFlags, gpu: GPU, profile: EngineProfile, build: str, tp: int
) -> dict[str, Any]:
    arch, path = gpu_arch(gpu.compute_capability), quant_path(ckpt, flags)
    entry = profile.calibration_for(build, arch, path, tp)
    where = f"vLLM profile {profile.matched} ({build} build) on {arch} GPUs, {path} weights, TP {tp}"
    if entry is None:
        line = f"uncalibrated: {where} was never checked against a real start-up; activation, non-torch and CUDA-graph figures are assumed"
    else:
        line = f"calibrated: {where} (from {entry.source})"
    return {
        "calibrated": entry is not None,
        "line": line,
        "gpu_arch": arch,
        "quant_path": path,
        "build": build,
    }


def _labels(flags: ServeFlags, calibrated: bool, given: dict[str, bool]) -> dict[str, str]:
    """derived (from the checkpoint and vLLM's code), given (a flag), calibrated or assumed (measured terms)."""
    measured = "calibrated" if calibrated else "assumed"
    out = {"requested_gib": "derived", "model_loading_gib": "given" if given["weights"] else "derived"}
    for name in ("activation_gib", "non_torch_gib", "cudagraph_estimate_gib"):
        out[name] = "given" if given[name] else measured
    if flags.kv_cache_memory_bytes:
        out["available_kv_gib"] = "given"
    else:
        parts = [out[n] for n in ("activation_gib", "non_torch_gib", "cudagraph_estimate_gib")]
        out["available_kv_gib"] = (
            "assumed" if "assumed" in parts else ("calibrated" if "calibrated" in parts else "derived")
        )
    kv = (
        "derived"
        if out["available_kv_gib"] in ("derived", "given")
        else f"derived from {out['available_kv_gib']} KV memory"
    )
    for name in ("num_blocks", "kv_cache_tokens", "max_concurrency", "max_model_len_that_fits"):
        out[name] = kv
    out["block_size"] = out["blocks_per_request"] = "derived"
    return out


def check_requirements(plan: Plan, kv_tokens: int | None, concurrency: str | None) -> list[str]:
    """The user's decision rule: --require-kv-tokens N and --require-concurrency C@L; each unmet one is a line."""
    unmet = []
    if kv_tokens is not None and plan.kv_cache_tokens < kv_tokens:
        unmet.append(
            f"KV cache holds {plan.kv_cache_tokens:,} tokens, fewer than --require-kv-tokens {kv_tokens:,}"
        )
    if concurrency is not None:
        try:
            c_text, l_text = concurrency.split("@")
            want_c, want_len = float(c_text), int(l_text)
        except ValueError:
            raise InputError(
                "--require-concurrency", None, f"expected C@L (e.g. 4@32768), got {concurrency!r}"
            ) from None
        if want_len > plan.max_model_len:
            unmet.append(f"{want_len:,}-token requests exceed max_model_len {plan.max_model_len:,}")
        else:
            row = plan.blocks_needed(want_len)
            have = plan.num_blocks / row if row else 0.0
            if have < want_c:
                unmet.append(f"{have:.2f} requests of {want_len:,} tokens fit at once, fewer than {want_c:g}")
    return unmet


def compare_with_log(plan: Plan, figures) -> list[dict[str, Any]]:
    """Predicted vs reported, for every figure the log holds (engines/vllm/logs.py)."""
    rows = []
    pairs = [
        ("model_loading_gib", plan.model_loading_gib, figures.model_loading_gib),
        ("available_kv_gib", plan.available_kv_gib, figures.available_kv_gib),
        ("kv_cache_tokens", plan.kv_cache_tokens, figures.kv_cache_tokens),
        ("max_concurrency", plan.max_concurrency, figures.max_concurrency),
        ("block_size", plan.block_size, figures.block_size),
        ("cudagraph_gib", plan.cudagraph_estimate_gib, figures.graph_capture_gib),
    ]
    for name, predicted, reported in pairs:
        if reported is None:
            continue
        error = (predicted - reported) / reported if reported else None
        rows.append(
            {
                "figure": name,
                "predicted": predicted,
                "reported": reported,
                "relative_error": error,
                "log_line": figures.lines.get(name if name != "cudagraph_gib" else "graph_capture_gib"),
            }
        )
    if figures.max_concurrency_len and figures.max_concurrency_len != plan.max_model_len:
        rows.append(
            {
                "figure": "max_model_len",
                "predicted": plan.max_model_len,
                "reported": figures.max_concurrency_len,
                "relative_error": None,
                "log_line": figures.lines.get("max_concurrency"),
            }
        )
    return rows
