"""Everything servebox knows about a checkpoint, in one typed object: what `servebox inspect` prints.

Assembled from config.json, the safetensors headers, the quantization declarations and the chat
template; or, for a .gguf file, from its own metadata. Later verbs (plan, check) take this object.
"""

# no `from __future__ import annotations`: pydantic builds its models faster from real annotations
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from servebox.checkpoint.architecture import Architecture, parse_architecture
from servebox.checkpoint.gguf_file import GGUFFacts, read_gguf
from servebox.checkpoint.quantization import Quantization, parse_quantization
from servebox.checkpoint.source import CheckpointSource, HubSource, open_source
from servebox.checkpoint.template_facts import ChatTemplate
from servebox.checkpoint.tensors import ShardCheck, TensorInventory, inventory

TOKENIZER_FILES = ("tokenizer.json", "tokenizer.model", "vocab.json", "tiktoken.model", "qwen.tiktoken")


class TensorSummary(BaseModel):
    tensor_count: int
    total_bytes: int
    bytes_by_dtype: dict[str, int]
    bytes_by_component: dict[str, int]
    elements_by_component: dict[str, int]
    complete: bool
    header_only: bool = False
    shards: list[dict[str, Any]]
    linear_modules: int
    quantized_modules: int


class CheckpointFacts(BaseModel):
    source: str
    kind: str  # safetensors, gguf
    architecture: Architecture | None = None
    tensors: TensorSummary | None = None
    quantization: Quantization
    chat_template: ChatTemplate | None = None
    tokenizer_files: list[str] = []
    gguf: GGUFFacts | None = None


class Checkpoint:
    """Facts plus the parsed inputs (config dict, tensor inventory) that plan/check rules consult."""

    def __init__(self, facts: CheckpointFacts, config: dict[str, Any] | None, inv: TensorInventory | None):
        self.facts = facts
        self.config = config
        self.inventory = inv

    @property
    def architecture(self) -> Architecture:
        assert self.facts.architecture is not None, "a GGUF checkpoint has no HF architecture"
        return self.facts.architecture


def _summary(inv: TensorInventory) -> TensorSummary:
    return TensorSummary(
        tensor_count=inv.tensor_count,
        total_bytes=inv.total_bytes,
        bytes_by_dtype=inv.bytes_by_dtype,
        bytes_by_component=inv.bytes_by_component,
        elements_by_component=inv.elements_by_component,
        complete=inv.complete,
        header_only=inv.header_only,
        shards=[_shard(s) for s in inv.shards],
        linear_modules=len(inv.modules),
        quantized_modules=sum(1 for m in inv.modules.values() if m.quantized),
    )


def _shard(s: ShardCheck) -> dict[str, Any]:
    return {
        "file": s.filename,
        "tensors": s.tensors,
        "bytes": s.actual_bytes,
        "complete": s.complete,
        "problem": s.problem,
    }


def load_checkpoint(spec: str, with_template: bool = True) -> Checkpoint:
    path = Path(spec).expanduser()
    if path.is_file() and path.suffix == ".gguf":
        g = read_gguf(path)
        types = sorted(g.bytes_by_type, key=g.bytes_by_type.get, reverse=True)
        quant = Quantization(
            method="gguf", format=g.file_type or g.predominant_type, scheme=f"GGUF {g.predominant_type}"
        )
        quant.quantized_groups = types
        return Checkpoint(
            CheckpointFacts(source=str(path), kind="gguf", quantization=quant, gguf=g), None, None
        )
    source = open_source(spec)
    return load_from_source(source, with_template)


def load_from_source(source: CheckpointSource, with_template: bool = True) -> Checkpoint:
    config = source.read_json("config.json", required=True)
    arch = parse_architecture(config, source.location("config.json"))
    # DeepSeek-V3 stores its MTP block as layer num_hidden_layers; Qwen3.5 under an mtp. prefix.
    inv = inventory(source, mtp_layer_start=arch.num_layers if arch.mtp_layers else None)
    quant = parse_quantization(source, config, inv)
    template = None
    if with_template:
        from servebox.checkpoint.template import analyse_template, template_text  # jinja2: only when asked

        tokenizer_config = (
            source.read_json("tokenizer_config.json") if source.has("tokenizer_config.json") else None
        )
        generation_config = (
            source.read_json("generation_config.json") if source.has("generation_config.json") else None
        )
        found = template_text(source, tokenizer_config)
        if found is not None:
            template = analyse_template(found[0], found[1], tokenizer_config, generation_config)
    facts = CheckpointFacts(
        source=source.name,
        kind="safetensors",
        architecture=arch,
        tensors=_summary(inv),
        quantization=quant,
        chat_template=template,
        tokenizer_files=[f for f in TOKENIZER_FILES if source.has(f)],
    )
    if isinstance(source, HubSource):
        facts.source = f"hf://{source.name}"
    return Checkpoint(facts, config, inv)


def inspect_checkpoint(spec: str) -> CheckpointFacts:
    return load_checkpoint(spec).facts
