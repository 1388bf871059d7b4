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

    def blocks_per_request(
        self, max_model_len: int, sliding_window: int | None, max_num_batched_tokens: int, mamba_blocks: int
    ) -> int:
        total = 0
        for g in self.groups:
            if g.kind in ("full_attention", "mla"):
                total += cdiv(max_model_len, self.block_size)
            elif g.kind == "sliding_attention":
                window = min(max_model_len, (sliding_window or max_model_len) - 1 + max_num_batched_tokens)
                total += cdiv(window, self.block_size) + 1
            else:
                total += mamba_blocks
        return total


def _dtype_bytes(name: str | None, fallback: int = 2) -> int:
    if name is None:
        return fallback
    value = DTYPE_BYTES.get(str(name).lower().replace("torch.", ""))
    return value or fallback


def build_layout(
    arch: Architecture,
    tp: int,
    pp: int,
    kv_cache_dtype: str,
    model_dtype: str,
    block_size: int | None,
    default_block_size: int,
    ssm_state_dtype: str,
) -> KVLayout:
    if kv_cache_dtype == "auto":
        kv_bytes: float = _dtype_bytes(model_dtype)
    elif kv_cache_dtype in KV_DTYPE_BYTES:
        kv_bytes = KV_DTYPE_BYTES[kv_cache_dtype]
    else:
        raise InputError(
            "--kv-cache-dtype",
            None,
            f"unknown KV cache dtype {kv_cache_dtype!r}; known: auto, {', '.join(KV_DTYPE_BYTES)}",
        )
    state_bytes_each = _dtype_bytes(model_dtype)
    ssm_bytes_each = _dtype_bytes(ssm_state_dtype, state_bytes_each)
    counts: dict[str, int] = {}
    for kind in arch.layer_kinds:
        counts[kind] = counts.get(kind, 0) + 1
    counts.pop("mlp_only", None)
    unknown = set(counts) - {"full_attention", "sliding_attention", "mla", "linear_attention", "mamba"}
    if unknown:
        raise UnknownArchitectureError(
            arch.architecture, "layer_types", f"no KV model for layer kind(s) {sorted(unknown)}"
        )
    # Layers per rank: pipeline stages split layers; the planner reports the largest stage.
    counts = {k: cdiv(n, pp) for k, n in counts.items()}
    kv_heads = max(1, arch.num_key_value_heads // tp)  # fewer KV heads than ranks: one replicated head each
    notes = []
    if arch.num_key_value_heads < tp:
        notes.append(f"{arch.num_key_value_heads} KV heads < TP {tp}: each rank holds a replicated KV head")
    attn_token_bytes = 2 * kv_heads * arch.head_dim * kv_bytes
    if arch.mla is not None:
        attn_token_bytes = (arch.mla.kv_lora_rank + arch.mla.qk_rope_head_dim) * kv_bytes
    state = 0
    if "linear_attention" in counts:
        la = arch.linear_attention
        assert la is not None
        conv_dim = (2 * la.num_key_heads * la.key_head_dim + la.num_value_heads * la.value_head_dim) // tp
        state = conv_dim * (la.conv_kernel_dim - 1) * state_bytes_each
        state += (la.num_value_heads // tp) * la.key_head_dim * la.value_head_dim * ssm_bytes_each
    elif "mamba" in counts:
        m = arch.mamba
        assert m is not None
        conv_dim = (m.intermediate_size + 2 * m.n_groups * m.state_size) // tp
        state = conv_dim * (m.conv_kernel - 1) * state_bytes_each
        state += (m.num_heads // tp) * m.head_dim * m.state_size * ssm_bytes_each
    attention_kinds = [k for k in counts if k in ("full_attention", "sliding_attention", "mla")]
    recurrent_kinds = [k for k in counts if k in ("linear_attention", "mamba")]
    bs = block_size or default_block_size
    if recurrent_kinds and attention_kinds:
        # Hybrid: raise the attention block so that one page holds a whole recurrent state.
        needed = cdiv(int(state), int(KERNEL_BLOCK_ALIGNMENT * attn_token_bytes)) * KERNEL_BLOCK_ALIGNMENT
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
    # Groups: every group has the same number of layers (the smallest kind's count), one pool of blocks.
    group_size = min(counts.values())
    groups = []
    for kind, n in counts.items():
        spec = LayerSpec(
            kind, page, int(state) if kind in recurrent_kinds else int(bs * attn_token_bytes), bs, int(state)
        )
        for start in range(0, n, group_size):
            groups.append(KVGroup(kind, min(group_size, n - start), spec))
    if len(groups) == 1:
        bytes_per_block = page * groups[0].layers
    else:
        bytes_per_block = page * group_size
    per_token = int(sum(attn_token_bytes * n for k, n in counts.items() if k in attention_kinds))
    return KVLayout(
        block_size=bs,
        groups=groups,
        bytes_per_block=bytes_per_block,
        per_token_kv_bytes=per_token,
        notes=notes,
    )


def capture_sizes(
    max_num_seqs: int, num_speculative_tokens: int = 0, largest: int | None = None
) -> list[int]:
    """vLLM V1's default CUDA-graph batch sizes: [1, 2, 4] + range(8, 256, 8) + range(256, max+1, 16), where max
    is --compilation-config max_cudagraph_capture_size when given, else min(max_num_seqs * 2 * (1 + spec tokens), 512)."""
    largest = largest or min(max_num_seqs * 2 * (1 + num_speculative_tokens), 512)
    sizes = [1, 2, 4] + list(range(8, 256, 8)) + list(range(256, largest + 1, 16))
    return [s for s in sizes if s <= largest]
