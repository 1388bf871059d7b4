"""Pipeline stages as vLLM 0.32 builds them: which decoder layers, which weights and which KV pages each holds.

vLLM splits the decoder layers with vllm/distributed/utils.py get_pp_indices (the remainder goes one layer each
to the stages before the last, counting back from the second-to-last; VLLM_PP_LAYER_PARTITION overrides it).
Each stage builds only its own layers; where the model class builds the input embeddings, the final norm and
the lm_head depends on the class (plan/pp_placement.toml). Each stage's KV pool holds only its own layers'
pages: the KV cache groups are made for the whole model (v1/core/kv_cache_utils.get_kv_cache_configs merges
every worker's specs), each group's layers i::n of one kind, and a worker's block costs the largest group's
pages among the layers it holds. Tensor parallelism then divides each stage's tensors as it does the model's.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from servebox.checkpoint.facts import Checkpoint
from servebox.checkpoint.safetensors_header import tensor_nbytes
from servebox.checkpoint.tensors import LAYER_INDEX_RE, MTP_RE, VISION_RE, component_of
from servebox.engines.vllm.kv_spec import KVLayout, cdiv
from servebox.errors import InputError

PARTITION_VAR = "VLLM_PP_LAYER_PARTITION"
LM_HEAD_RE = re.compile(r"(^|\.)(lm_head|output_layer)\.")
KV_KINDS = {"full_attention", "sliding_attention", "chunked_attention", "mla", "linear_attention", "mamba"}


@dataclass
class Stage:
    """One pipeline stage (all its TP ranks hold the same figures): layers [start, end) and its bytes per rank."""

    rank: int
    start: int
    end: int
    weights: int = 0
    bytes_per_block: int = 0
    parts: dict[str, int] = field(default_factory=dict)  # bytes per rank by part, for the arithmetic

    @property
    def layers(self) -> int:
        return self.end - self.start


@cache
def _placement() -> dict:
    return tomllib.loads((Path(__file__).with_name("pp_placement.toml")).read_text())


def partition(num_layers: int, pp: int, layer_partition: str | None = None) -> list[tuple[int, int]]:
    """[start, end) of each stage, as get_pp_indices computes them (VLLM_PP_LAYER_PARTITION when given)."""
    if layer_partition is not None:
        try:
            sizes = [int(x) for x in layer_partition.split(",")]
        except ValueError:
            raise InputError(
                PARTITION_VAR, None, f"not a comma-separated list of integers: {layer_partition!r}"
            ) from None
        if len(sizes) != pp:
            raise InputError(
                PARTITION_VAR, None, f"{len(sizes)} stages listed, pipeline parallel size is {pp}"
            )
        if sum(sizes) != num_layers or min(sizes) < 1:
            raise InputError(
                PARTITION_VAR, None, f"the stages sum to {sum(sizes)} layers, the model has {num_layers}"
            )
    else:
        if pp > num_layers:
            raise InputError(
                "--pipeline-parallel-size",
                None,
                f"{pp} stages for {num_layers} decoder layers: a stage would be empty",
            )
        sizes = [num_layers // pp] * pp
        for i in range(2, num_layers % pp + 2):
            sizes[-i] += 1
    starts = [sum(sizes[:r]) for r in range(pp)]
    return [(s, s + n) for s, n in zip(starts, sizes, strict=True)]


EVERY = {"embed": "every", "norm": "every", "lm_head": "every"}


def placement(architecture: str) -> tuple[dict[str, str], bool]:
    """Where the class builds embed / norm / lm_head ('first', 'last' or 'every'), and whether it is listed."""
    table = _placement()["classes"]
    return table.get(architecture, EVERY), architecture in table


def _part_of(name: str, comp: str, num_layers: int) -> tuple[str, int | None]:
    """(part, decoder layer index) of one tensor: layer, embed, lm_head, vision, mtp or other (final norm...)."""
    if comp == "vision_tower" or VISION_RE.search(name):
        return "vision", None
    if comp == "mtp" or MTP_RE.search(name):
        return "mtp", None
    if comp == "embeddings":
        return ("lm_head" if LM_HEAD_RE.search(name + ".") else "embed"), None
    m = LAYER_INDEX_RE.search(name)
    if m and int(m.group(1)) < num_layers:
        return "layer", int(m.group(1))
    return "norm", None  # the final norm (and any other tensor outside the decoder layers)


def fill_stage_weights(
    ckpt: Checkpoint,
    stages: list[Stage],
    factors: tuple[float, float],
    tp: int,
    keep: dict[str, bool],
    rotary: int,
) -> list[str]:
    """Fill each stage's weights per rank from the tensor names; `factors` are load_factors' (linear, other),
    `keep` says whether the vision tower and the MTP head are loaded, `rotary` is the rotary cache every stage
    builds. Returns the arithmetic lines."""
    linear, other = factors
    arch = ckpt.architecture
    mtp_start = arch.num_layers if arch.mtp_layers else None
    where, listed = placement(arch.architecture)
    tied = arch.tie_word_embeddings
    first, last = [stages[0]], [stages[-1]]
    for name, (dtype, shape) in (ckpt.inventory.tensor_shapes if ckpt.inventory else {}).items():
        comp = component_of(name, mtp_start)
        part, layer = _part_of(name, comp, arch.num_layers)
        nbytes = int(tensor_nbytes(dtype, shape) * (other if comp == "embeddings" else linear))
        if part == "layer":
            owners = [s for s in stages if s.start <= layer < s.end]
        elif part in ("vision", "mtp"):
            owners = (stages if part == "vision" else last) if keep[part] else []
        elif part == "embed":
            owners = (
                stages if where["embed"] == "every" else first + (last if tied and len(stages) > 1 else [])
            )
        else:  # lm_head, and the final norm with any other tensor outside the decoder layers
            owners = stages if where["lm_head" if part == "lm_head" else "norm"] == "every" else last
        for s in owners:
            s.parts[part] = s.parts.get(part, 0) + nbytes // tp
    said = ", ".join(
        f"{k} on {'every stage' if v == 'every' else f'the {v} stage'}" for k, v in where.items()
    )
    lines = [
        f"pipeline stages: {said}"
        + (
            f" ({arch.architecture} as vLLM 0.32 builds it)"
            if listed
            else f" (assumed: {arch.architecture} not read)"
        )
        + (
            "; tied embeddings: the last stage keeps its own copy"
            if tied and where["embed"] == "first"
            else ""
        )
    ]
    for s in stages:
        s.parts["rotary"] = rotary
        s.weights = sum(s.parts.values())
    return lines


def stage_block_bytes(layer_kinds: list[str], layout: KVLayout, stages: list[Stage]) -> None:
    """Bytes one block id costs on each stage: vLLM's groups are made for the whole model (layers i::n of a
    kind), and a worker's block is the largest group's pages among the layers it holds."""
    by_kind: dict[str, list[int]] = {}
    for i, kind in enumerate(layer_kinds):
        if kind in KV_KINDS:
            by_kind.setdefault(kind, []).append(i)
    size = max(g.layers for g in layout.groups) if layout.groups else 0
    for s in stages:
        largest = 0
        for kind, layers in by_kind.items():
            page = next(g.spec.page_bytes for g in layout.groups if g.kind == kind)
            parts = cdiv(len(layers), size)
            for i in range(parts):
                held = sum(1 for x in layers[i::parts] if s.start <= x < s.end)
                largest = max(largest, held * page)
        s.bytes_per_block = largest


def describe(stages: list[Stage]) -> list[str]:
    """One arithmetic line per stage: its layers and its weights per rank by part."""
    from servebox.units import GiB

    out = []
    for s in stages:
        parts = " + ".join(f"{k} {v / GiB:.2f}" for k, v in sorted(s.parts.items()) if v)
        out.append(
            f"stage {s.rank}: layers {s.start}-{s.end - 1} ({s.layers}); weights/rank = {parts} = "
            f"{s.weights / GiB:.2f} GiB; {s.bytes_per_block:,} B per block id"
        )
    return out
