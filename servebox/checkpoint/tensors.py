"""Safetensors headers -> bytes by dtype and by component, modules, and shard completeness.

Components are what an operator budgets separately: the language model, the vision tower (can it
be skipped, does it shard), the MTP head (only needed with speculative decoding), and the
embeddings / lm_head. Module groups are finer (linear attention, mamba, attention, experts...)
because quantization exclusions are decided per group, and the digest lost weeks to exactly that.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from servebox.checkpoint.safetensors_header import SafetensorsHeader, data_bytes, tensor_nbytes
from servebox.checkpoint.source import SAFETENSORS_INDEX, SAFETENSORS_SINGLE, CheckpointSource
from servebox.errors import InputError

VISION_RE = re.compile(
    r"(^|\.)(visual|vision_tower|vision_model|vision_encoder|image_encoder|multi_modal_projector|mm_projector|vision_embed_tokens)\."
)
MTP_RE = re.compile(r"(^|\.)(mtp|mtp_layers|nextn)\.")
LAYER_INDEX_RE = re.compile(r"(?:^|\.)layers\.(\d+)\.")
EMBEDDING_RE = re.compile(
    r"(^|\.)(embed_tokens|lm_head|wte|word_embeddings|tok_embeddings|embeddings?|output_layer)(\.|$)"
)
# Parameter names that belong to a module, quantized formats included; stripping them gives the module.
PARAM_SUFFIXES = (
    "weight",
    "bias",
    "qweight",
    "qzeros",
    "scales",
    "g_idx",
    "weight_scale",
    "weight_scale_inv",
    "input_scale",
    "weight_packed",
    "weight_global_scale",
    "input_global_scale",
    "weight_zero_point",
    "weight_shape",
    "weight_scale_2",
    "k_scale",
    "v_scale",
    "SCB",
    "weight_format",
    "absmax",
    "quant_map",
    "quant_state",
    "nested_absmax",
    "nested_quant_map",
)
QUANTIZED_PARAMS = {"qweight", "weight_packed"}
MODULE_GROUP_RULES: list[tuple[str, re.Pattern[str]]] = [
    ("vision_tower", VISION_RE),
    ("mtp", MTP_RE),
    ("lm_head", re.compile(r"(^|\.)(lm_head|output_layer)$")),
    (
        "embeddings",
        re.compile(r"(^|\.)(embed_tokens|wte|word_embeddings|tok_embeddings|embeddings?|pos_embed)$"),
    ),
    ("mlp", re.compile(r"(^|\.)mixer\.(up_proj|down_proj|gate_proj)$")),
    ("linear_attention", re.compile(r"(^|\.)linear_attn\.")),
    ("mamba", re.compile(r"(^|\.)(mamba|mixer)\.(in_proj|out_proj|conv1d|x_proj|dt_proj)")),
    (
        "moe_router",
        re.compile(r"\.(mlp\.gate|router|block_sparse_moe\.gate|shared_expert_gate|mlp\.router)$"),
    ),
    ("moe_experts", re.compile(r"\.(experts|shared_experts?)\.")),
    ("attention", re.compile(r"(^|\.)(self_attn|attn|attention|mixer)\.")),
    ("mlp", re.compile(r"(^|\.)(mlp|feed_forward|ffn|block_sparse_moe)\.")),
]


def split_param(tensor_name: str) -> tuple[str, str]:
    module, _, param = tensor_name.rpartition(".")
    if param in PARAM_SUFFIXES and module:
        return module, param
    return tensor_name, ""


def module_group(module: str) -> str:
    for group, pattern in MODULE_GROUP_RULES:
        if pattern.search(module):
            return group
    return "other"


def component_of(tensor_name: str, mtp_layer_start: int | None) -> str:
    if VISION_RE.search(tensor_name):
        return "vision_tower"
    if MTP_RE.search(tensor_name):
        return "mtp"
    match = LAYER_INDEX_RE.search(tensor_name)
    if match and mtp_layer_start is not None and int(match.group(1)) >= mtp_layer_start:
        return "mtp"  # DeepSeek-V3 style: the MTP block is stored as layer num_hidden_layers
    if EMBEDDING_RE.search(tensor_name):
        return "embeddings"
    return "language_model"


@dataclass
class LinearModule:
    """One weight-bearing module, as its tensors show it (not as a config claims)."""

    name: str
    group: str
    component: str
    quantized: bool
    weight_dtype: str
    weight_shape: list[int]


@dataclass
class ShardCheck:
    filename: str
    tensors: int
    expected_min_bytes: int
    actual_bytes: int | None
    complete: bool
    problem: str | None = None
    header_only: bool = False  # exactly the 8-byte length and the header on disk: a metadata copy


@dataclass
class TensorInventory:
    tensor_count: int = 0
    total_bytes: int = 0
    bytes_by_dtype: dict[str, int] = field(default_factory=dict)
    bytes_by_component: dict[str, int] = field(default_factory=dict)
    elements_by_component: dict[str, int] = field(default_factory=dict)
    shards: list[ShardCheck] = field(default_factory=list)
    complete: bool = True
    header_only: bool = False  # every shard is a header-only copy (no tensor data, on purpose)
    modules: dict[str, LinearModule] = field(default_factory=dict)
    tensor_shapes: dict[str, tuple[str, list[int]]] = field(default_factory=dict)
    header_bytes_read: int = 0


def shard_filenames(source: CheckpointSource) -> tuple[list[str], dict[str, str] | None]:
    """The shards the checkpoint declares, and the index's weight map if there is one."""
    if source.has(SAFETENSORS_INDEX):
        index = source.read_json(SAFETENSORS_INDEX, required=True)
        weight_map = index.get("weight_map")
        if not isinstance(weight_map, dict) or not weight_map:
            raise InputError(source.location(SAFETENSORS_INDEX), "weight_map", "missing or empty")
        for tensor, shard in weight_map.items():
            if not isinstance(shard, str) or "/" in shard or shard.startswith("."):
                raise InputError(
                    source.location(SAFETENSORS_INDEX), f"weight_map[{tensor!r}]", f"bad shard name {shard!r}"
                )
            if not source.has(shard):
                raise InputError(
                    source.location(SAFETENSORS_INDEX),
                    f"weight_map[{tensor!r}]",
                    f"names shard {shard!r}, which is missing",
                )
        return sorted(set(weight_map.values())), weight_map
    if source.has(SAFETENSORS_SINGLE):
        return [SAFETENSORS_SINGLE], None
    return sorted(f for f in source.file_sizes if f.endswith(".safetensors") and "/" not in f), None


def inventory(source: CheckpointSource, mtp_layer_start: int | None = None) -> TensorInventory:
    shards, weight_map = shard_filenames(source)
    inv = TensorInventory()
    by_dtype: Counter[str] = Counter()
    by_component: Counter[str] = Counter()
    params: Counter[str] = Counter()
    module_params: dict[str, dict[str, tuple[str, list[int]]]] = defaultdict(dict)
    listed_by_shard: dict[str, set[str]] = defaultdict(set)  # one pass over the index, not one per shard
    for tensor, shard in (weight_map or {}).items():
        listed_by_shard[shard].add(tensor)
    for shard in shards:
        meta: SafetensorsHeader = source.read_header(shard)
        shard_data = data_bytes(meta)
        actual = source.file_sizes.get(shard)
        check = ShardCheck(shard, len(meta.tensors), shard_data + 8 + 2, actual, True)
        # size = 8 + header + data; a header is at least "{}" (2 bytes) and at most 25 MB (the hub's limit).
        header_len = source.header_length(shard)
        if actual is None:
            check.complete, check.problem = False, "size unknown"
        elif shard_data and header_len is not None and actual == 8 + header_len:
            check.complete, check.header_only = False, True
            check.problem = f"header only: no tensor data (the header declares {shard_data:,} bytes)"
        elif actual < check.expected_min_bytes or actual - shard_data - 8 > 25_000_000:
            check.complete = False
            check.problem = f"{actual:,} bytes on disk, header implies {shard_data:,} bytes of tensor data"
        if weight_map is not None:
            missing = listed_by_shard.get(shard, set()) - meta.tensors.keys()
            if missing:
                check.complete = False
                check.problem = f"{len(missing)} tensors the index lists are not in the header (e.g. {sorted(missing)[0]})"
        inv.shards.append(check)
        inv.complete &= check.complete
        for name, info in meta.tensors.items():
            nbytes = tensor_nbytes(info.dtype, info.shape)
            component = component_of(name, mtp_layer_start)
            by_dtype[info.dtype] += nbytes
            by_component[component] += nbytes
            params[component] += info.parameter_count
            inv.tensor_shapes[name] = (info.dtype, list(info.shape))
            module, param = split_param(name)
            module_params[module][param] = (info.dtype, list(info.shape))
    for module, parts in module_params.items():
        weight = parts.get("weight") or parts.get("qweight") or parts.get("weight_packed")
        if weight is None or len(weight[1]) != 2:
            continue  # norms and biases (1-D), convolutions (3-D and up): not linear modules
        dtype = weight[0]
        quantized = (
            bool(QUANTIZED_PARAMS & parts.keys()) or dtype.startswith("F8") or dtype in ("U8", "I8", "F4")
        )
        inv.modules[module] = LinearModule(
            name=module,
            group=module_group(module),
            component=component_of(module + ".weight", mtp_layer_start),
            quantized=quantized,
            weight_dtype=dtype,
            weight_shape=weight[1],
        )
    inv.header_only = bool(inv.shards) and all(s.header_only for s in inv.shards)
    inv.tensor_count = sum(s.tensors for s in inv.shards)
    inv.total_bytes = sum(by_dtype.values())
    inv.bytes_by_dtype = dict(by_dtype.most_common())
    inv.bytes_by_component = dict(by_component.most_common())
    inv.elements_by_component = dict(params.most_common())
    return inv
