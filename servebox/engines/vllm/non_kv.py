"""The memory vLLM's start-up takes besides weights and KV: activation peak, non-torch memory, CUDA-graph pool.

vLLM measures these in its profile run; no config holds them. Until a real start-up log calibrates them
(plan --calibrate), they are estimates from shapes and the profile's [assumptions], labelled as such.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from servebox.checkpoint.facts import Checkpoint
from servebox.engines.vllm.flags import ServeFlags
from servebox.engines.vllm.kv_spec import capture_sizes, cdiv
from servebox.engines.vllm.profile import EngineProfile
from servebox.units import GiB, MiB


@dataclass
class NonKV:
    activation: int
    non_torch: int
    graphs: int
    subtract_graphs: bool  # whether this vLLM takes the graph estimate out of the KV budget
    capture_sizes: list[int]
    explain: list[str] = field(default_factory=list)
    assumptions: list[str] = field(default_factory=list)


def activation_bytes(ckpt: Checkpoint, tp: int, tokens: int, seqs: int, act_bytes: int) -> tuple[int, str]:
    a = ckpt.architecture
    inter = a.intermediate_size or 4 * a.hidden_size
    if a.moe is not None:
        inter = (a.moe.moe_intermediate_size or inter) * max(1, a.moe.experts_per_token)
    qkv = (a.num_attention_heads + 2 * a.num_key_value_heads) * a.head_dim
    forward = tokens * (2 * inter // tp + qkv // tp + 2 * a.hidden_size) * act_bytes
    sampler = seqs * a.vocab_size * 16
    peak = max(forward, sampler)
    which = "forward" if forward >= sampler else "sampler warm-up"
    return peak, (
        f"activation peak = max(forward {tokens} tokens x (2*{inter}/TP + {qkv}/TP + 2*{a.hidden_size}) x {act_bytes} B = "
        f"{forward / GiB:.2f} GiB, sampler {seqs} seqs x vocab {a.vocab_size} x 16 B = {sampler / GiB:.2f} GiB) "
        f"= {peak / GiB:.2f} GiB ({which})"
    )


def non_kv_memory(
    ckpt: Checkpoint,
    flags: ServeFlags,
    profile: EngineProfile,
    tp: int,
    pp: int,
    seqs: int,
    tokens: int,
    n_spec: int,
    dtype_bytes: int,
    activation_gib: float | None,
    non_torch_gib: float | None,
    cudagraph_gib: float | None,
) -> NonKV:
    """Per-rank non-KV terms; a value given by the caller (measured or calibrated) replaces the estimate."""
    arch = ckpt.architecture
    explain: list[str] = []
    assumptions: list[str] = []
    if activation_gib is not None:
        activation = int(activation_gib * GiB)
        explain.append(f"activation peak = {activation_gib} GiB (measured, --activation-gib)")
    else:
        activation, line = activation_bytes(ckpt, tp, tokens, seqs, dtype_bytes)
        explain.append(line)
        assumptions.append(
            "activation peak estimated from shapes (pass --activation-gib with the measured value)"
        )
    a = profile.assumptions
    if non_torch_gib is None:
        non_torch_gib = a["non_torch_gib_tp1"] + (a["non_torch_gib_per_extra_rank"] if tp * pp > 1 else 0.0)
        assumptions.append(
            f"non-torch memory {non_torch_gib:.2f} GiB assumed (pass --non-torch-gib with the measured value)"
        )
    non_torch = int(non_torch_gib * GiB)
    layers_per_rank = cdiv(sum(1 for k in arch.layer_kinds if k != "mlp_only"), pp)
    if flags.enforce_eager:
        sizes: list[int] = []
    else:
        cc = flags.compilation_config or {}
        sizes = cc.get("cudagraph_capture_sizes") or capture_sizes(
            seqs, n_spec, cc.get("max_cudagraph_capture_size")
        )
    if cudagraph_gib is not None:
        graphs = int(cudagraph_gib * GiB)
    else:
        graphs = int(len(sizes) * layers_per_rank * a["cudagraph_mib_per_layer_per_size"] * MiB)
        if sizes:
            assumptions.append(
                f"CUDA-graph pool estimated at {a['cudagraph_mib_per_layer_per_size']} MiB per layer per captured size (pass --cudagraph-gib)"
            )
    subtract = profile.subtract_cudagraph_estimate and bool(sizes)
    explain.append(
        f"CUDA graphs: {len(sizes)} capture sizes {sizes[:4]}...{sizes[-1:] if sizes else ''} -> estimate {graphs / GiB:.2f} GiB"
        + (
            " (subtracted from the KV budget)"
            if subtract
            else " (not subtracted by this vLLM version: it comes out of the 1 - utilization headroom)"
        )
    )
    return NonKV(activation, non_torch, graphs, subtract, sizes, explain, assumptions)
