"""A .gguf file's metadata: architecture, context length, tensor types and bytes (`gguf` package).

`GGUFReader` memory-maps the file, so only the pages holding the key/value header and the tensor
table are read, never the weights. Errors from a cut or foreign file become one line.
"""

from __future__ import annotations

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


def _value(reader: Any, key: str) -> Any:
    field = reader.get_field(key)
    if field is None:
        return None
    try:
        value = field.contents()
    except Exception:
        return None
    return value


def read_gguf(path: Path) -> GGUFFacts:
    import gguf

    try:
        reader = gguf.GGUFReader(path)
    except (ValueError, IndexError, OSError, TypeError) as exc:
        field = "magic" if "magic" in str(exc).lower() else "header"
        raise InputError(str(path), field, f"not a readable GGUF file ({exc})") from None
    arch = _value(reader, "general.architecture")
    if not isinstance(arch, str):
        raise InputError(str(path), "general.architecture", "missing")
    by_type: Counter[str] = Counter()
    for tensor in reader.tensors:
        by_type[tensor.tensor_type.name] += int(tensor.n_bytes)
    file_type = _value(reader, "general.file_type")
    try:
        file_type_name = gguf.LlamaFileType(file_type).name if file_type is not None else None
    except ValueError:
        file_type_name = str(file_type)
    small = {}
    for key in reader.fields:
        if key.startswith("GGUF.") or key.startswith("tokenizer.ggml.") or key == "tokenizer.chat_template":
            continue
        value = _value(reader, key)
        if isinstance(value, str | int | float | bool):
            small[key] = value
    return GGUFFacts(
        path=str(path),
        architecture=arch,
        name=_value(reader, "general.name"),
        context_length=_value(reader, f"{arch}.context_length"),
        block_count=_value(reader, f"{arch}.block_count"),
        embedding_length=_value(reader, f"{arch}.embedding_length"),
        head_count=_value(reader, f"{arch}.attention.head_count"),
        head_count_kv=_value(reader, f"{arch}.attention.head_count_kv"),
        file_type=file_type_name,
        tensor_count=len(reader.tensors),
        total_bytes=sum(by_type.values()),
        file_bytes=path.stat().st_size,
        bytes_by_type=dict(by_type.most_common()),
        predominant_type=by_type.most_common(1)[0][0] if by_type else "none",
        has_chat_template=reader.get_field("tokenizer.chat_template") is not None,
        metadata=small,
    )
