"""Steps 3 and 4: the KV layout (engines/vllm/kv_spec.py) and the blocks one request holds, as vLLM 0.32 does.

Per-request blocks are vLLM's max_memory_usage_bytes / page size per KV cache group; sliding windows hold
max_num_batched_tokens for every batch in flight (two under async scheduling); one block of the pool is the
null block, so 'auto' and 'largest that fits' plan against num_blocks - 1 (kv_cache_utils.get_kv_cache_configs;
older releases counted every block: the profile says which).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from servebox.checkpoint.architecture import Architecture
from servebox.engines.vllm.flags import ServeFlags
from servebox.engines.vllm.kv_spec import KVLayout, build_layout
from servebox.engines.vllm.profile import EngineProfile
from servebox.engines.vllm.state_dtype import state_dtypes
from servebox.errors import InputError
from servebox.plan.model import Settings


@dataclass
class RequestBlocks:
    layout: KVLayout
    num_blocks: int
    mamba_mode: str
    in_flight_tokens: int
    blocks_for: Callable[[int], int]
    explain: list[str]
    null_block: bool = True

    @property
    def usable(self) -> int:
        return max(0, self.num_blocks - int(self.null_block))  # vLLM's block pool holds one null block back

    def largest_fitting(self, limit: int) -> int:
        lo, hi = 0, limit
        while lo < hi:  # blocks_for is monotonic in length
            mid = (lo + hi + 1) // 2
            lo, hi = (mid, hi) if self.blocks_for(mid) <= self.usable else (lo, mid - 1)
        return lo


def derived_max_len(arch: Architecture) -> int:
    """vLLM's derived max_model_len: max_position_embeddings, or for rope scalings that extend it, the original
    length times the factor (yarn) or the positions times the factor (others than llama3/su/longrope)."""
    positions = arch.max_position_embeddings or 131072
    rope = arch.rope_scaling or {}
    kind, factor = rope.get("rope_type") or rope.get("type"), rope.get("factor")
    if not factor or kind in ("su", "longrope", "llama3", None):
        return positions
    if kind == "yarn":
        return int(rope.get("original_max_position_embeddings", positions) * factor)
    return int(positions * factor)


def batches_in_flight(profile: EngineProfile, flags: ServeFlags, pp: int) -> int:
    """VllmConfig.max_concurrent_batches: async scheduling (profile default, or --[no-]async-scheduling) keeps
    two batches in flight on the V1 runner without PP; otherwise one per pipeline stage."""
    async_on = profile.async_scheduling if flags.async_scheduling is None else flags.async_scheduling
    return 2 if async_on and pp <= 1 else pp


def kv_layout(
    arch: Architecture, flags: ServeFlags, s: Settings, profile: EngineProfile, mode: str | None = None
) -> KVLayout:
    """The whole model's layout: vLLM groups every worker's layers together (get_kv_cache_configs); what one
    pipeline stage holds of it is plan/stages.py's stage_block_bytes. `mode`: mamba_mode's answer, when the
    caller has it already."""
    conv, ssm, _ = state_dtypes(arch, flags, s.model_dtype)
    return build_layout(
        arch,
        s.tp,
        1,
        flags.kv_cache_dtype,
        s.model_dtype,
        flags.block_size,
        profile.default_block_size,
        ssm_state_dtype=ssm,
        conv_state_dtype=conv,
        num_speculative_tokens=s.n_spec,  # VllmConfig.num_speculative_tokens, whatever the method
        drafter_layers=arch.mtp_layers if s.uses_mtp else 0,
        mamba_mode=mode or mamba_mode(arch, flags, profile)[0],
    )


def mamba_mode(arch: Architecture, flags: ServeFlags, profile: EngineProfile) -> tuple[str, str | None]:
    """The mamba_cache_mode vLLM runs with, and why when it chose it: --mamba-cache-mode, else with prefix caching
    on (vLLM's default) MambaModelConfig.verify_and_update_config's pick for this release (profile data)."""
    mode = flags.mamba_cache_mode or "none"
    if mode not in profile.mamba_cache_modes:
        raise InputError(
            "--mamba-cache-mode",
            None,
            f"vLLM {profile.version} accepts {', '.join(profile.mamba_cache_modes)}, not {mode!r}",
        )
    recurrent = arch.linear_attention or arch.mamba
    if not recurrent or flags.enable_prefix_caching is False or mode != "none":
        return mode, None
    if arch.architecture in profile.mamba_all_mode_archs:
        return "all", (
            f"mamba cache mode 'all': prefix caching is on and vLLM {profile.matched} caches a state per block "
            f"for {arch.architecture}"
        )
    note = "mamba cache mode 'align': prefix caching is on (vLLM's default), which aligns recurrent states"
    if profile.mamba_all_mode_archs:
        note += f"; vLLM {profile.matched} picks 'all' only for {', '.join(profile.mamba_all_mode_archs)}"
    return "align", note


def request_blocks(
    arch: Architecture,
    flags: ServeFlags,
    s: Settings,
    profile: EngineProfile,
    available: int,
    num_blocks: int | None = None,
) -> RequestBlocks:
    """`num_blocks` when pipeline stages decide it (the smallest stage's pool), else available / block bytes."""
    mode, why = mamba_mode(arch, flags, profile)
    layout = kv_layout(arch, flags, s, profile, mode)
    explain = list(layout.notes)
    if num_blocks is None:
        num_blocks = max(0, available) // layout.bytes_per_block
    kinds = ", ".join(f"{g.kind} x{g.layers}" for g in layout.groups[:6]) + (
        "..." if len(layout.groups) > 6 else ""
    )
    whole = " (whole model; each stage holds its own layers' pages)" if s.pp > 1 else ""
    explain.append(
        f"KV groups: {len(layout.groups)} ({kinds}), block {layout.block_size} tokens, "
        f"{layout.bytes_per_block:,} B per block id{whole} -> {num_blocks:,} blocks"
        + (" (one is vLLM's null block)" if profile.null_block_reserved else "")
    )
    if why:
        explain.append(why)
    if arch.linear_attention or arch.mamba:
        conv, ssm, because = state_dtypes(arch, flags, s.model_dtype)
        explain.append(
            f"recurrent state in {ssm} ({because}), conv state in {conv}: derived from vLLM's rule"
        )
    in_flight = s.tokens * batches_in_flight(profile, flags, s.pp)
    if "sliding_attention" in arch.layer_kinds:
        explain.append(
            f"sliding windows hold {in_flight:,} in-flight tokens (max_num_batched_tokens x batches in flight)"
        )

    def blocks_for(length: int) -> int:
        return layout.blocks_per_request(
            length, arch.sliding_window, in_flight, mode, arch.attention_chunk_size or 0
        )

    return RequestBlocks(
        layout, num_blocks, mode, in_flight, blocks_for, explain, profile.null_block_reserved
    )
