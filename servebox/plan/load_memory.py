"""What 'Model loading took' counts beyond the weights' own bytes: the rotary caches and allocator rounding.

vLLM measures loading as torch's allocated bytes after loading (DeviceMemoryProfiler, after empty_cache), so
two things count that the safetensors headers do not show (both derived, from vLLM's and PyTorch's source):
- one rotary cos/sin cache per distinct rotary configuration (vLLM's get_rope caches by its parameters), each
  max_position_embeddings x rotary_dim in the model dtype. Gemma-3 has two: its sliding layers rotate with
  rope_local_base_freq, its global layers with rope_theta.
- PyTorch's caching allocator: a tensor of 10 MiB or more gets its own segment rounded up to 2 MiB, and a
  remainder of 1 MiB or less is not split off, so the whole block counts as allocated. The tensors are the
  ones vLLM allocates (q/k/v fused into qkv_proj, gate/up into gate_up_proj, experts into w13/w2), per TP rank.
  Gemma-3-1b's 26 down_proj (15.19 MiB each) carry 0.81 MiB each; DeepSeek-V2-Lite's experts carry 0.03 GiB.
Not explained yet: Gemma-3-1b on vLLM 0.26 logged 1.96 GiB, this gives 1.914 (-2.3%). Rounding every tensor
of 10 MiB or more to 2 MiB, split or not, would land on 1.956 and fits all 12 H200 logs, but contradicts the
allocator's split rule and only that one log tells the two apart: not adopted without a GPU run to check it.
"""

from __future__ import annotations

import re

from servebox.checkpoint.architecture import Architecture
from servebox.engines.vllm.profile import MROPE_DEFAULT
from servebox.units import MiB

SEGMENT_OWN = 10 * MiB  # PyTorch kMinLargeAlloc: from here a request gets a segment of its own
SEGMENT_ROUND = 2 * MiB  # kRoundLarge: that segment's size is rounded up to this
SPLIT_MIN = 1 * MiB  # kSmallSize: a large-pool remainder is split off only when larger than this

# vLLM's fused parameters, by checkpoint tensor name (the fused tensor's bytes are the sum of its parts)
_FUSED = (
    (re.compile(r"\.experts\.\d+\.(gate_proj|up_proj|w1|w3)\."), ".experts.w13."),
    (re.compile(r"\.experts\.\d+\.(down_proj|w2)\."), ".experts.w2."),
    (re.compile(r"\.(q_proj|k_proj|v_proj)\."), ".qkv_proj."),
    (re.compile(r"\.(gate_proj|up_proj)\."), ".gate_up_proj."),
)


def rotary_cache_count(a: Architecture) -> int:
    """Distinct rotary embeddings vLLM builds: one per rotary configuration among the layer kinds present."""
    return 2 if a.local_rope_theta is not None and "sliding_attention" in a.layer_kinds else 1


def rotary_cache_bytes(a: Architecture, profile, dtype_bytes: int) -> int:
    """One cos/sin cache: positions x rotary dims (head_dim x partial_rotary_factor) in the model dtype. MRoPE keeps
    max_position x a factor of rows, per release and class (the profile's mrope_cache_positions_factor)."""
    rows = a.max_position_embeddings or 0
    if a.rope_scaling and "mrope_section" in a.rope_scaling:
        factors = profile.mrope_cache_positions_factor
        rows *= factors.get(a.architecture, factors.get("default", MROPE_DEFAULT["default"]))
    return rows * int(a.head_dim * a.partial_rotary_factor) * dtype_bytes


def fused_sizes(tensor_shapes: dict[str, tuple[str, list[int]]], dtype_bytes: int, tp: int) -> list[int]:
    """Per-rank bytes of each parameter as vLLM allocates it (fused groups summed, split over TP)."""
    sizes: dict[str, int] = {}
    split: set[str] = set()
    for name, (_, shape) in tensor_shapes.items():
        key = name
        for pattern, repl in _FUSED:
            key, hit = pattern.subn(repl, key)
            if hit:
                break
        n = 1
        for d in shape:
            n *= d
        sizes[key] = sizes.get(key, 0) + n * dtype_bytes
        if len(shape) >= 2:  # matrices split over TP (vocab, columns or rows); norms, biases replicated
            split.add(key)
    return [b // tp if key in split else b for key, b in sizes.items()]


def unsplit_remainder(size: int) -> int:
    """Bytes the allocator counts beyond `size` for one tensor in a segment of its own (0 when split off)."""
    if size < SEGMENT_OWN:
        return 0
    rest = -size % SEGMENT_ROUND
    return rest if rest <= SPLIT_MIN else 0


def allocator_rounding(tensor_shapes: dict[str, tuple[str, list[int]]], dtype_bytes: int, tp: int) -> int:
    """Bytes 'Model loading took' holds beyond the tensors themselves, from the allocator's block rounding."""
    return sum(unsplit_remainder(b) for b in fused_sizes(tensor_shapes, dtype_bytes, tp))
