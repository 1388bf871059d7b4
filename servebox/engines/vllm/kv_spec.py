"""vLLM's KV-cache layout for a model, per rank: page size per layer kind, hybrid page-size
unification, KV cache groups, and the blocks a max-length request needs.

Written from vLLM's own source (v1/kv_cache_interface.py, v1/core/kv_cache_utils.py,
model_executor/models/config.py), not copied: attention pages are `2 * block * kv_heads * head_dim
* dtype` (MLA: one latent of kv_lora_rank + rope dim, not split by TP); linear-attention (GDN) and
Mamba layers hold one recurrent state per request; in a hybrid model the attention block size is
raised until one attention page holds a whole state, the state page is padded to it, and layers
are grouped so that every group has the same number of layers and one shared block pool.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from servebox.checkpoint.architecture import Architecture
from servebox.errors import InputError, UnknownArchitectureError

DTYPE_BYTES = {"bfloat16": 2, "float16": 2, "half": 2, "float32": 4, "float": 4, "auto": None}
KV_DTYPE_BYTES = {
    "fp8": 1,
    "fp8_e4m3": 1,
    "fp8_e5m2": 1,
    "fp8_inc": 1,
    "turboquant_k8v4": 0.75,
    "turboquant_k4v4": 0.5,
}
KERNEL_BLOCK_ALIGNMENT = 16  # attention kernels take block sizes in multiples of 16 tokens


def cdiv(a: int, b: int) -> int:
    return -(-a // b)


@dataclass
class LayerSpec:
    kind: str
    page_bytes: int  # per layer per block (after unification padding)
    unpadded_page_bytes: int
    block_size: int
    state_bytes: int = 0  # recurrent layers: bytes of one request's state


@dataclass
class KVGroup:
    kind: str
    layers: int
    spec: LayerSpec


@dataclass
class KVLayout:
    block_size: int
    groups: list[KVGroup]
    bytes_per_block: int
    per_token_kv_bytes: int  # attention KV bytes per token per rank (all attention layers)
    notes: list[str] = field(default_factory=list)
    mamba_checkpoint_blocks: int = 0  # Mamba2 mixers keep a prefill checkpoint block in 'align' mode
    num_speculative_tokens: int = 0
    sw_extra_retained: int = 0  # multi-module MTP keeps num_speculative_tokens - 1 more tokens in each window

    def group_blocks(
        self,
        g: KVGroup,
        max_model_len: int,
        window: int | None,
        in_flight: int,
        mamba_mode: str,
        chunk: int = 0,
    ) -> int:
        """Blocks one max-length request holds in group g: vLLM's max_memory_usage_bytes / page size per spec
        class (v1/kv_cache_interface.py). `in_flight` is max_num_batched_tokens times the batches in flight
        (two under async scheduling): sliding-window blocks are freed only once a step settles."""
        if g.kind in ("full_attention", "mla"):
            return cdiv(max_model_len, self.block_size)
        if g.kind == "sliding_attention":
            tokens = min((window or max_model_len) - 1 + self.sw_extra_retained + in_flight, max_model_len)
            return cdiv(tokens, g.spec.block_size) + 1
        if g.kind == "chunked_attention":  # ChunkedLocalAttentionSpec: one chunk plus what is in flight
            return cdiv(min(chunk + in_flight, max_model_len), g.spec.block_size)
        if mamba_mode == "align":
            return 2 + self.num_speculative_tokens + self.mamba_checkpoint_blocks
        if mamba_mode == "all":  # releases that had it cached a state per block (0.32 refuses the mode)
            return cdiv(max_model_len, self.block_size)
        return 1 + self.num_speculative_tokens

    def blocks_per_request(
        self, max_model_len: int, window: int | None, in_flight: int, mamba_mode: str, chunk: int = 0
    ) -> int:
        return sum(
            self.group_blocks(g, max_model_len, window, in_flight, mamba_mode, chunk) for g in self.groups
        )


def _dtype_bytes(name: str | None, fallback: int = 2) -> int:
    if name is None:
        return fallback
    value = DTYPE_BYTES.get(str(name).lower().replace("torch.", ""))
    return value or fallback


def _kv_bytes(kv_cache_dtype: str, model_dtype: str) -> float:
    if kv_cache_dtype == "auto":
        return _dtype_bytes(model_dtype)
    if kv_cache_dtype in KV_DTYPE_BYTES:
        return KV_DTYPE_BYTES[kv_cache_dtype]
    raise InputError(
        "--kv-cache-dtype",
        None,
        f"unknown KV cache dtype {kv_cache_dtype!r}; known: auto, {', '.join(KV_DTYPE_BYTES)}",
    )


def _recurrent_state(arch: Architecture, tp: int, num_spec: int, state_each: int, ssm_each: int) -> int:
    """Bytes of one request's recurrent state per layer per rank (vLLM's mamba_utils state shapes: the conv
    state keeps conv_kernel - 1 + num_speculative_tokens positions)."""
    if arch.linear_attention is not None:
        la = arch.linear_attention
        conv_dim = (2 * la.num_key_heads * la.key_head_dim + la.num_value_heads * la.value_head_dim) // tp
        state = conv_dim * (la.conv_kernel_dim - 1 + num_spec) * state_each
        return state + (la.num_value_heads // tp) * la.key_head_dim * la.value_head_dim * ssm_each
    m = arch.mamba
    assert m is not None
    conv_dim = (m.intermediate_size + 2 * m.n_groups * m.state_size) // tp
    state = conv_dim * (m.conv_kernel - 1 + num_spec) * state_each
    return state + (m.num_heads // tp) * m.head_dim * m.state_size * ssm_each


def _group(counts: dict[str, int], pages: dict[str, LayerSpec]) -> tuple[list[KVGroup], int]:
    """vLLM's _get_kv_cache_groups_uniform_page_size: groups of equal size (the smallest kind's count, or the
    largest when it is under 1.5x the smallest), a kind split into cdiv(n, size) groups."""
    smallest, largest = min(counts.values()), max(counts.values())
    size = largest if largest < smallest * 1.5 else smallest
    groups = []
    for kind, n in counts.items():
        parts = cdiv(n, size)
        groups += [KVGroup(kind, len(range(i, n, parts)), pages[kind]) for i in range(parts)]
    return groups, size


def _hybrid_block(
    arch: Architecture, state: float, token_bytes: float, block_size: int | None, mode: str
) -> int:
    """platforms/interface.py's hybrid block size: the fewest kernel-aligned tokens whose attention page holds a
    state; in 'all' mode a multiple of lcm(SSD chunk, kernel alignment) (a state per block, chunk-aligned)."""
    align = max(KERNEL_BLOCK_ALIGNMENT, block_size or 0)
    chunk = arch.mamba.chunk_size if arch.mamba is not None else None
    if mode == "all" and chunk:
        step = math.lcm(chunk, align)
        return step * cdiv(cdiv(int(state), int(token_bytes)), step)
    return align * cdiv(int(state), int(align * token_bytes))


def build_layout(
    arch: Architecture,
    tp: int,
    pp: int,
    kv_cache_dtype: str,
    model_dtype: str,
    block_size: int | None,
    default_block_size: int,
    ssm_state_dtype: str,
    num_speculative_tokens: int = 0,
    drafter_layers: int = 0,
    mamba_mode: str = "none",
    conv_state_dtype: str | None = None,
) -> KVLayout:
    kv_bytes = _kv_bytes(kv_cache_dtype, model_dtype)
    counts: dict[str, int] = {}
    for kind in arch.layer_kinds:
        counts[kind] = counts.get(kind, 0) + 1
    counts.pop("mlp_only", None)
    unknown = set(counts) - {
        "full_attention",
        "sliding_attention",
        "chunked_attention",
        "mla",
        "linear_attention",
        "mamba",
    }
    if unknown:
        raise UnknownArchitectureError(
            arch.architecture, "layer_types", f"no KV model for layer kind(s) {sorted(unknown)}"
        )
    if drafter_layers:  # an MTP drafter's attention layers join the target's KV cache groups
        kind = "mla" if arch.mla is not None else "full_attention"
        counts[kind] = counts.get(kind, 0) + drafter_layers
    # Layers per rank: pipeline stages split layers; the planner reports the largest stage.
    counts = {k: cdiv(n, pp) for k, n in counts.items()}
    kv_heads = max(1, arch.num_key_value_heads // tp)  # fewer KV heads than ranks: one replicated head each
    notes = []
    if arch.num_key_value_heads < tp:
        notes.append(f"{arch.num_key_value_heads} KV heads < TP {tp}: each rank holds a replicated KV head")
    attn_token_bytes = 2 * kv_heads * arch.head_dim * kv_bytes
    if arch.mla is not None:
        attn_token_bytes = (arch.mla.kv_lora_rank + arch.mla.qk_rope_head_dim) * kv_bytes
    attention_kinds = [
        k for k in counts if k in ("full_attention", "sliding_attention", "chunked_attention", "mla")
    ]
    recurrent_kinds = [k for k in counts if k in ("linear_attention", "mamba")]
    state = 0
    if recurrent_kinds:
        state_each = _dtype_bytes(conv_state_dtype or model_dtype)
        state = _recurrent_state(
            arch, tp, num_speculative_tokens, state_each, _dtype_bytes(ssm_state_dtype, state_each)
        )
    bs = block_size or default_block_size
    if recurrent_kinds and attention_kinds:
        # Hybrid: raise the attention block so that one page holds a whole recurrent state.
        needed = _hybrid_block(arch, state, attn_token_bytes, block_size, mamba_mode)
        if block_size is None or block_size < needed:
            bs = needed
        page = int(bs * attn_token_bytes)
        notes.append(
            f"hybrid: attention block size {bs} tokens so one page ({page:,} B) holds a state ({int(state):,} B); "
            f"state pages padded by {100 * (page - state) / state:.2f}%"
        )
    elif recurrent_kinds:
        page = int(state)
    else:
        page = int(bs * attn_token_bytes)
    pages = {
        kind: LayerSpec(
            kind, page, int(state) if kind in recurrent_kinds else int(bs * attn_token_bytes), bs, int(state)
        )
        for kind in counts
    }
    groups, size = _group(counts, pages)
    per_token = int(sum(attn_token_bytes * n for k, n in counts.items() if k in attention_kinds))
    return KVLayout(
        block_size=bs,
        groups=groups,
        bytes_per_block=page * size,
        per_token_kv_bytes=per_token,
        notes=notes,
        mamba_checkpoint_blocks=1 if "mamba" in counts else 0,  # Mamba2 mixer; GDN layers keep none
        num_speculative_tokens=num_speculative_tokens,
        sw_extra_retained=max(0, num_speculative_tokens - 1) if drafter_layers > 1 else 0,
    )


def capture_sizes(
    max_num_seqs: int, num_speculative_tokens: int = 0, largest: int | None = None
) -> list[int]:
    """vLLM V1's default CUDA-graph batch sizes: [1, 2, 4] + range(8, 256, 8) + range(256, max+1, 16), where max
    is --compilation-config max_cudagraph_capture_size when given, else min(max_num_seqs * 2 * (1 + spec tokens), 512)."""
    largest = largest or min(max_num_seqs * 2 * (1 + num_speculative_tokens), 512)
    sizes = [1, 2, 4] + list(range(8, 256, 8)) + list(range(256, largest + 1, 16))
    return [s for s in sizes if s <= largest]
