"""Steps 2-4 across pipeline stages: each stage's weights and KV pool, and the stage whose pool decides.

vLLM sizes every worker's KV pool from its own free memory (v1/worker/gpu_worker.py), then
get_kv_cache_configs gives every worker the smallest num_blocks among them: the engine's KV tokens and
concurrency follow from that rank. With one stage this is the single-rank plan, unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from servebox.checkpoint.facts import Checkpoint
from servebox.engines.vllm.flags import ServeFlags
from servebox.engines.vllm.kv_spec import KVLayout
from servebox.engines.vllm.profile import EngineProfile
from servebox.errors import InputError
from servebox.plan.model import Settings
from servebox.plan.nodes import stage_row
from servebox.plan.stages import PARTITION_VAR, Stage, describe, partition, stage_block_bytes
from servebox.plan.weights import weights_per_rank
from servebox.units import GiB


@dataclass
class Pipeline:
    stages: list[Stage]
    weights_label: str
    explain: list[str]
    notes: list[str]
    rows: list[dict] = field(default_factory=list)
    deciding: int = 0
    num_blocks: int | None = None  # the engine's pool (the smallest stage's) when PP > 1

    @property
    def decider(self) -> Stage:
        return self.stages[self.deciding]


def make_stages(
    ckpt: Checkpoint,
    flags: ServeFlags,
    s: Settings,
    profile: EngineProfile,
    arch_name: str,
    weights_gib: float | None,
) -> Pipeline:
    """The stages and their weights per rank (step 2)."""
    arch = ckpt.architecture
    env_partition = flags.env.get(PARTITION_VAR)
    if env_partition is not None and s.pp == 1:
        raise InputError("--env", PARTITION_VAR, "given without --pipeline-parallel-size above 1")
    ranges = partition(arch.num_layers, s.pp, env_partition) if s.pp > 1 else [(0, arch.num_layers)]
    if s.pp > 1 and (s.n_spec or s.draft_model):
        raise InputError(
            "--speculative-config", None, "speculative decoding with pipeline parallelism: not modelled"
        )
    stages = [Stage(r, a, b) for r, (a, b) in enumerate(ranges)]
    if weights_gib is not None:
        for st in stages:
            st.weights, st.parts = int(weights_gib * GiB), {"given": int(weights_gib * GiB)}
        return Pipeline(stages, "given", [f"weights/rank = {weights_gib} GiB (given, --weights-gib)"], [])
    weights, label, lines, notes = weights_per_rank(
        ckpt, flags, s, profile, arch_name, stages if s.pp > 1 else None
    )
    if s.pp == 1:
        stages[0].weights = weights
    return Pipeline(stages, label, lines, notes)


def size_pools(
    p: Pipeline, arch, layout: KVLayout, pp: int, budget: int | None, requested: int, non_kv: int
) -> int:
    """Each stage's available KV, bytes per block and own blocks (step 3); returns the deciding stage's
    available memory. `budget` is --kv-cache-memory-bytes (the same on every rank) or None."""
    if pp > 1:
        stage_block_bytes(arch.layer_kinds, layout, p.stages)
    else:
        p.stages[0].bytes_per_block = layout.bytes_per_block
    avail = [budget if budget is not None else requested - st.weights - non_kv for st in p.stages]
    own = [
        max(0, a) // st.bytes_per_block if st.bytes_per_block else None
        for a, st in zip(avail, p.stages, strict=True)
    ]
    sized = [b for b in own if b is not None]
    engine = min(sized) if sized else 0
    p.deciding = own.index(engine) if sized else 0
    p.num_blocks = engine if pp > 1 else None
    p.rows = [stage_row(st, a, b or 0, engine, non_kv) for st, a, b in zip(p.stages, avail, own, strict=True)]
    p.rows[p.deciding]["decides"] = True
    if pp > 1:
        p.explain += describe(p.stages)
        p.explain.append(
            "own blocks per stage: "
            + ", ".join(f"stage {r['stage']} {r['num_blocks']:,}" for r in p.rows)
            + f"; vLLM gives every worker the smallest: {engine:,} (stage {p.deciding} decides)"
        )
    return avail[p.deciding]
