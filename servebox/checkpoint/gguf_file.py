"""A .gguf file's metadata: architecture, context length, tensor types and bytes.

Read by servebox.checkpoint.gguf_header (the header and tensor table only, string arrays skipped:
milliseconds where `gguf.GGUFReader` takes tens of seconds on a 150k-token vocabulary); the `gguf`
package names the file type. Errors from a cut or foreign file become one line.
"""

# no `from __future__ import annotations`: pydantic builds its models faster from real annotations
from collections import Counter
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from servebox.errors import InputError


class GGUFFacts(BaseModel):
    path: str
    architecture: str
    name: str | None
    context_length: int | None
    block_count: int | None
    embedding_length: int | None
    head_count: int | None
    head_count_kv: int | None
    file_type: str | None
    tensor_count: int
    total_bytes: int
    file_bytes: int
    bytes_by_type: dict[str, int]
    predominant_type: str
    has_chat_template: bool
    metadata: dict[str, Any]


def read_gguf(path: Path) -> GGUFFacts:
    import gguf

    from servebox.checkpoint.gguf_header import TYPE_BY_NAME, read_local  # the reader: only for a .gguf

    h = read_local(str(path))
    arch = h.kv.get("general.architecture")
    if not isinstance(arch, str):
        raise InputError(str(path), "general.architecture", "missing")
    by_type: Counter[str] = Counter()
    for tensor in h.tensors:
        by_type[tensor.type] += tensor.n_bytes if tensor.type in TYPE_BY_NAME else 0
    file_type = h.kv.get("general.file_type")
    try:
        file_type_name = gguf.LlamaFileType(file_type).name if file_type is not None else None
    except ValueError:
        file_type_name = str(file_type)
    small = {
        key: value
        for key, value in h.kv.items()
        if not key.startswith(("GGUF.", "tokenizer.ggml.")) and key != "tokenizer.chat_template"
        and isinstance(value, str | int | float | bool)
    }  # fmt: skip
    return GGUFFacts(
        path=str(path),
        architecture=arch,
        name=h.kv.get("general.name"),
        context_length=h.get("context_length"),
        block_count=h.get("block_count"),
        embedding_length=h.get("embedding_length"),
        head_count=_scalar(h.get("attention.head_count")),
        head_count_kv=_scalar(h.get("attention.head_count_kv")),
        file_type=file_type_name,
        tensor_count=len(h.tensors),
        total_bytes=sum(by_type.values()),
        file_bytes=path.stat().st_size,
        bytes_by_type=dict(by_type.most_common()),
        predominant_type=by_type.most_common(1)[0][0] if by_type else "none",
        has_chat_template="tokenizer.chat_template" in h.kv,
        metadata=small,
    )


def _scalar(value: Any) -> int | None:
    """Per-layer arrays (head counts that vary by layer) are summarised by their largest value."""
    if isinstance(value, list):
        return max(value) if value else None
    return value
