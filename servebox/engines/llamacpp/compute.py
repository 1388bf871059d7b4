"""The compute buffer llama.cpp reserves for its worst-case graph (sched_reserve in llama-context.cpp:
a prompt-processing ubatch of n_ubatch tokens, one output per token, the whole KV cache in view).

ggml's allocator reuses memory between graph nodes, so the buffer is the peak of the tensors alive at
once, not their sum. This models that peak from the largest stages of the graph (input and residual
streams, the KQ matrix without flash attention, the masks, the FFN or expert intermediates, the logits)
and is an ESTIMATE: calibrated against the real llama-server's CPU buffers (tests/test_llamacpp_plan_engine.py
holds it within 10% there); CUDA buffers follow the same graph but are not measured here.
"""

from __future__ import annotations

from servebox.engines.llamacpp.layout import Layout
from servebox.engines.llamacpp.memory import ContextShape, pad

F32 = 4
KQ_MASK_PAD = 1  # mask rows are not padded in this build (GGML_KQ_MASK_PAD removed)


def _attention_peak(layout: Layout, shape: ContextShape, n_kv: int) -> int:
    t = shape.n_ubatch
    heads = layout.n_head
    head_k = max((la.k_width for la in layout.layers if la.kind in ("attn", "swa")), default=0)
    q_bytes = head_k * t * F32 * 3  # q, k, v projections of this ubatch
    if shape.flash_attn:
        return q_bytes + heads * (head_k // max(1, _kv_heads(layout))) * t * F32
    return q_bytes + 2 * n_kv * t * heads * F32  # KQ and its softmax


def _kv_heads(layout: Layout) -> int:
    widths = [la.k_width for la in layout.layers if la.kind in ("attn", "swa")]
    return 1 if not widths else max(1, widths[0] // max(1, _head_dim(layout)))


def _head_dim(layout: Layout) -> int:
    return layout.n_embd // max(1, layout.n_head)


def _ffn_peak(layout: Layout, shape: ContextShape) -> int:
    t = shape.n_ubatch
    if layout.n_expert:
        ff = _expert_ff(layout)
        return (2 * ff * layout.n_expert_used + 2 * layout.n_expert) * t * F32
    return 2 * layout.n_ff * t * F32


def _expert_ff(layout: Layout) -> int:
    for layer in layout.layers:
        for t in layer.tensors:
            if "ffn_up_exps" in t.name:
                return t.shape[1]
    return layout.n_ff


def compute_buffer(layout: Layout, shape: ContextShape, has_output: bool = True) -> int:
    """Estimated bytes of the compute buffer of the device holding the whole graph."""
    t = shape.n_ubatch
    stream = 2 * layout.n_embd * t * F32  # residual + normed input
    masks = 0
    kinds = {la.kind for la in layout.layers}
    if "attn" in kinds:
        masks += shape.n_ctx_seq * pad(t, KQ_MASK_PAD) * F32
    if "swa" in kinds:
        masks += shape.swa_cells * pad(t, KQ_MASK_PAD) * F32
    n_kv = shape.n_ctx_seq if "attn" in kinds else shape.swa_cells
    peak = max(_attention_peak(layout, shape, n_kv), _ffn_peak(layout, shape))
    logits = layout.n_vocab * t * F32 if has_output else 0
    return stream + masks + max(peak, logits)
