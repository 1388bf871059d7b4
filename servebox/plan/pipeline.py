"""Steps 2-4 across pipeline stages: each stage's weights and KV pool, and the stage whose pool decides.

vLLM sizes every worker's KV pool from its own free memory (v1/worker/gpu_worker.py), then
get_kv_cache_configs gives every worker the smallest num_blocks among them: the engine's KV tokens and
concurrency follow from that rank. With one stage this is the single-rank plan, unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from servebox.checkpoint.facts import Checkpoint
from servebox.engines.vllm.flags import ServeFlags
from servebox.engines.vllm.kv_spec import KVLayout, cdiv
from servebox.engines.vllm.non_kv import (
    NonKV,
    activation_bytes,
    activation_measured_model,
    model_runner,
    non_kv_model,
)
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
    build: str = "upstream",
) -> Pipeline:
    """The stages and their weights per rank (step 2)."""
    arch = ckpt.architecture
    env_partition = flags.env.get(PARTITION_VAR)
    # vLLM reads the partition whenever it is set, PP 1 included (one count, the whole model, or it refuses)
    if s.pp > 1 or env_partition is not None:
        ranges = partition(arch.num_layers, s.pp, env_partition)
    else:
        ranges = [(0, arch.num_layers)]
    if s.pp > 1 and (s.n_spec or s.draft_model):
        raise InputError(
            "--speculative-config",
            None,
            "speculative decoding with pipeline parallelism: not modelled (the drafter keeps its own embedding and KV layers on the last stage)",
        )
    stages = [Stage(r, a, b) for r, (a, b) in enumerate(ranges)]
    if weights_gib is not None:
        for st in stages:
            st.weights, st.parts = int(weights_gib * GiB), {"given": int(weights_gib * GiB)}
        return Pipeline(stages, "given", [f"weights/rank = {weights_gib} GiB (given, --weights-gib)"], [])
    weights, label, lines, notes = weights_per_rank(
        ckpt, flags, s, profile, arch_name, build, stages if s.pp > 1 else None
    )
    if s.pp == 1:
        stages[0].weights = weights
    return Pipeline(stages, label, lines, notes)


def stage_non_kv(
    ckpt: Checkpoint, flags: ServeFlags, s: Settings, profile: EngineProfile, nk: NonKV, stages, given: dict
) -> tuple[list[int], list[str]]:
    """Non-KV bytes per stage. vLLM's profile run warms the sampler up only on the last pipeline rank
    (gpu_model_runner.profile_run: `if get_pp_group().is_last_rank`), so earlier stages peak at the forward
    alone; CUDA graphs are captured per layer, so each stage's estimate follows its own layer count."""
    graphs = nk.graphs if nk.subtract_graphs else 0
    whole = nk.activation + nk.non_torch + graphs
    if s.pp == 1:
        return [whole], []
    arch = ckpt.architecture
    forward = nk.activation
    if given.get("activation_gib") is None:
        model = non_kv_model(profile)
        if model:
            runner = model_runner(arch, model, flags.env)
            args = (arch, s.tp, s.tokens, 0, s.dtype_bytes, runner, flags.enforce_eager, model)
            forward = activation_measured_model(*args)[0]
        else:
            forward = activation_bytes(ckpt, s.tp, s.tokens, 0, s.dtype_bytes)[0]
    graph_layers = [sum(1 for k in arch.layer_kinds[st.start : st.end] if k != "mlp_only") for st in stages]
    per_rank = cdiv(sum(1 for k in arch.layer_kinds if k != "mlp_only"), s.pp)  # what non_kv_memory assumed
    out = []
    for st, n in zip(stages, graph_layers, strict=True):
        act = nk.activation if st.rank == len(stages) - 1 else forward
        g = graphs if given.get("cudagraph_gib") is not None else graphs * n // max(per_rank, 1)
        out.append(act + nk.non_torch + g)
    lines = [
        f"non-KV per stage: the sampler warm-up only on the last stage (forward {forward / GiB:.2f} GiB elsewhere), "
        "CUDA graphs by each stage's layers: "
        + ", ".join(f"stage {st.rank} {b / GiB:.2f} GiB" for st, b in zip(stages, out, strict=True))
    ]
    return out, lines


def size_pools(
    p: Pipeline, arch, layout: KVLayout, pp: int, budget: int | None, requested: int, non_kv: list[int]
) -> int:
    """Each stage's available KV, bytes per block and own blocks (step 3); returns the deciding stage's
    available memory. `budget` is --kv-cache-memory-bytes (the same on every rank) or None."""
    if pp > 1:
        stage_block_bytes(arch.layer_kinds, layout, p.stages)
    else:
        p.stages[0].bytes_per_block = layout.bytes_per_block
    avail = [
        budget if budget is not None else requested - st.weights - nkv
        for st, nkv in zip(p.stages, non_kv, strict=True)
    ]
    own = [
        max(0, a) // st.bytes_per_block if st.bytes_per_block else None
        for a, st in zip(avail, p.stages, strict=True)
    ]
    sized = [b for b in own if b is not None]
    engine = min(sized) if sized else 0
    p.deciding = own.index(engine) if sized else 0
    p.num_blocks = engine if pp > 1 else None
    p.rows = [
        stage_row(st, a, b or 0, engine, nkv)
        for st, a, b, nkv in zip(p.stages, avail, own, non_kv, strict=True)
    ]
    p.rows[p.deciding]["decides"] = True
    if pp > 1:
        p.explain += describe(p.stages)
        p.explain.append(
            "own blocks per stage: "
            + ", ".join(f"stage {r['stage']} {r['num_blocks']:,}" for r in p.rows)
            + f"; vLLM gives every worker the smallest: {engine:,} (stage {p.deciding} decides)"
        )
    return avail[p.deciding]
