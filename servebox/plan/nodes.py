"""Ranks on nodes: where vLLM's multi-node launch puts each rank, and the memory each node and GPU holds.

vLLM orders a world of DP x PP x TP ranks with TP fastest (rank = dp * PP * TP + pp * TP + tp), and its
multi-node launch (`--nnodes`, engine/arg_utils.py) gives each node world_size / nnodes consecutive ranks,
refusing a world the nodes do not divide evenly. Each data-parallel replica is its own TP x PP engine with
the same figures; the node table sums what its GPUs hold.
"""

from __future__ import annotations

from dataclasses import dataclass

from servebox.errors import InputError
from servebox.units import GiB


@dataclass
class Layout:
    tp: int
    pp: int
    dp: int
    nodes: int
    gpus_per_node: int

    @property
    def world(self) -> int:
        return self.tp * self.pp * self.dp

    @property
    def per_node(self) -> int:
        return self.world // self.nodes

    def node_of(self, rank: int) -> int:
        return rank // self.per_node

    def rank_of(self, dp: int, pp: int, tp: int) -> int:
        return (dp * self.pp + pp) * self.tp + tp


def resolve_layout(tp: int, pp: int, dp: int, nodes: int | None, gpus_per_node: int | None) -> Layout:
    """The layout the flags describe; nodes default to what the GPUs per node need, GPUs per node to an even
    share. Refuses what vLLM refuses (world % nnodes) and a node asked for more ranks than it has GPUs."""
    if dp < 1:
        raise InputError("--data-parallel-size", None, "must be at least 1")
    world = tp * pp * dp
    if nodes is not None and nodes < 1:
        raise InputError("--nodes", None, "must be at least 1")
    if gpus_per_node is not None and gpus_per_node < 1:
        raise InputError("--gpus-per-node", None, "must be at least 1")
    if nodes is None:
        nodes = -(-world // gpus_per_node) if gpus_per_node else 1
    if world % nodes:
        raise InputError(
            "--nodes",
            None,
            f"vLLM refuses it: --nnodes {nodes} must evenly divide the world size {world} "
            f"(DP {dp} x PP {pp} x TP {tp})",
        )
    per_node = world // nodes
    gpus_per_node = gpus_per_node or per_node
    if per_node > gpus_per_node:
        raise InputError(
            "--gpus-per-node",
            None,
            f"{per_node} ranks per node (world {world} / {nodes} nodes) but a node has {gpus_per_node} GPUs",
        )
    return Layout(tp, pp, dp, nodes, gpus_per_node)


def rank_rows(layout: Layout, stages: list[dict]) -> list[dict]:
    """One row per pipeline stage of one replica: its ranks, the nodes they sit on, and its figures."""
    rows = []
    for st in stages:
        ranks = [layout.rank_of(0, st["stage"], t) for t in range(layout.tp)]
        nodes = sorted({layout.node_of(r) for r in ranks})
        rows.append({**st, "ranks": ranks, "nodes": nodes})
    return rows


def node_rows(layout: Layout, stages: list[dict], gpu_total_gib: float, requested_gib: float) -> list[dict]:
    """Per node: GPUs used of those it has, weights, non-KV and allocated KV summed over its ranks (GiB)."""
    per_stage = {st["stage"]: st for st in stages}
    rows = []
    for node in range(layout.nodes):
        ranks = range(node * layout.per_node, (node + 1) * layout.per_node)
        held = [per_stage[(r // layout.tp) % layout.pp] for r in ranks]
        rows.append(
            {
                "node": node,
                "ranks": [ranks.start, ranks.stop - 1],
                "gpus_used": len(held),
                "gpus": layout.gpus_per_node,
                "weights_gib": sum(h["weights_gib"] for h in held),
                "non_kv_gib": sum(h["non_kv_gib"] for h in held),
                "kv_allocated_gib": sum(h["kv_allocated_gib"] for h in held),
                "used_gib": sum(h["used_gib"] for h in held),
                "requested_gib": requested_gib * len(held),
                "gpu_memory_gib": gpu_total_gib * layout.gpus_per_node,
            }
        )
    return rows


def stage_row(stage, available: int, num_blocks: int, engine_blocks: int, non_kv: int) -> dict:
    """A stage's figures per rank: its own blocks, then what it allocates once the smallest rank decides."""
    allocated = engine_blocks * stage.bytes_per_block
    return {
        "stage": stage.rank,
        "layers": [stage.start, stage.end],
        "weights_gib": stage.weights / GiB,
        "non_kv_gib": non_kv / GiB,
        "available_kv_gib": available / GiB,
        "available_kv_bytes": available,
        "bytes_per_block": stage.bytes_per_block,
        "num_blocks": num_blocks,
        "kv_allocated_gib": allocated / GiB,
        "used_gib": (stage.weights + non_kv + allocated) / GiB,
        "decides": False,
    }
