"""The compute buffer llama.cpp reserves for its worst-case graph (sched_reserve in llama-context.cpp: a
ubatch of n_ubatch tokens over the whole KV cache; llama-server caps the graph's outputs at the slot
count, so the logits are not a term).

ggml's allocator reuses memory between graph nodes, so the buffer is the peak of one stage plus the
masks that live through the graph, not a sum. Stages and widths come from the graph (llm_graph_context:
KQ mask F16 under flash attention and F32 without, one per cache kind; the KQ matrix [n_kv, n_ubatch,
n_head] F32 without flash attention; the FFN's gate/up/activation); the multipliers (3 FFN rows, 5 hidden
rows, 3 hidden + 3 Q + 2 KV rows beside KQ) are CALIBRATED against the real llama-server's CPU buffers
on tiny models of six architectures (benchmarks/llamacpp_plan_accuracy.py: within 10%, held-back cases
included). It is an ESTIMATE; on CUDA the same graph is allocated per GPU and is not measured here.
"""

from __future__ import annotations

from servebox.engines.llamacpp.layout import Layout
from servebox.engines.llamacpp.memory import ContextShape

F32, F16 = 4, 2


def _widths(layout: Layout) -> tuple[int, int]:
    """Q width (heads x head size) and the widest K/V row of the attention layers."""
    kv = max((max(la.k_width, la.v_width) for la in layout.layers if la.kind in ("attn", "swa")), default=0)
    return (layout.n_head * layout.head_k if kv else 0), kv


def _ffn_rows(layout: Layout) -> int:
    """Rows of n_ubatch floats alive at the FFN stage: 3 of n_ff (dense) or 2 of the used experts' width."""
    if layout.n_expert:
        for layer in layout.layers:
            for t in layer.tensors:
                if "ffn_up_exps" in t.name:
                    return 2 * t.shape[1] * layout.n_expert_used
    return 3 * layout.n_ff


def stage_peaks(layout: Layout, shape: ContextShape) -> dict[str, int]:
    """Bytes of each candidate peak (masks excluded), for --explain."""
    t, embd = shape.n_ubatch, layout.n_embd
    q_w, kv_w = _widths(layout)
    kinds = {la.kind for la in layout.layers}
    peaks = {"ffn": (_ffn_rows(layout) + 5 * embd) * t * F32}
    if shape.flash_attn:
        peaks["attention"] = (5 * embd + embd * embd // 512) * t * F32
    elif kinds & {"attn", "swa"}:
        n_kv = max(shape.n_ctx_seq if "attn" in kinds else 0, shape.swa_cells if "swa" in kinds else 0)
        peaks["attention"] = n_kv * t * layout.n_head * F32 + (3 * embd + 3 * q_w + 2 * kv_w) * t * F32
    return peaks


def masks(layout: Layout, shape: ContextShape) -> int:
    kinds = {la.kind for la in layout.layers}
    width = F16 if shape.flash_attn else F32
    total = 0
    if "attn" in kinds:
        total += shape.n_ctx_seq * shape.n_ubatch * width
    if "swa" in kinds:
        total += shape.swa_cells * shape.n_ubatch * width
    return total


def compute_buffer(layout: Layout, shape: ContextShape) -> int:
    """Estimated bytes of the compute buffer of the device that runs the whole graph."""
    return masks(layout, shape) + max(stage_peaks(layout, shape).values())
