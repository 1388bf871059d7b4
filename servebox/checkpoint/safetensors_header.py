"""Read a safetensors header (8-byte little-endian length + JSON) from a local file or a hub repo, defensively.

Locally the format is read here: the length bounded, the JSON's size and depth checked before parsing, each
entry typed. (`huggingface_hub` does the same in ~0.23 s of imports, half of a whole `servebox plan`; the
`safetensors` library validates a whole file first, so it cannot read a partial download or a header-only
fixture.) On the hub, `huggingface_hub` makes the range requests, imported only then. Neither checks that
entries are consistent, so a hostile header could claim absurd shapes; `validate_header` checks that for
both and names the offending tensor and field.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from servebox.errors import InputError

# Bits per element of every dtype the safetensors format defines.
DTYPE_BITS: dict[str, int] = {
    "F64": 64,
    "I64": 64,
    "U64": 64,
    "F32": 32,
    "I32": 32,
    "U32": 32,
    "F16": 16,
    "BF16": 16,
    "I16": 16,
    "U16": 16,
    "I8": 8,
    "U8": 8,
    "BOOL": 8,
    "F8_E4M3": 8,
    "F8_E5M2": 8,
    "F8_E8M0": 8,
    "F6_E2M3": 6,
    "F6_E3M2": 6,
    "F4": 4,
}


def tensor_nbytes(dtype: str, shape: list[int]) -> int:
    return math.ceil(math.prod(shape) * DTYPE_BITS[dtype] / 8)


MAX_DIMS = 16
MAX_ELEMENTS = 1 << 50  # a petabyte of bytes: past any real checkpoint, short of integer overflow
MAX_HEADER_BYTES = 100_000_000  # huggingface_hub refuses more (SAFETENSORS_MAX_HEADER_LENGTH)


@dataclass
class TensorEntry:
    """One tensor's entry in a header: the fields huggingface_hub's TensorInfo has, so either reads the same."""

    dtype: Any
    shape: Any
    data_offsets: Any

    @property
    def parameter_count(self) -> int:
        return math.prod(self.shape)


@dataclass
class SafetensorsHeader:
    """A parsed header: `__metadata__` and the tensor entries (the shape of huggingface_hub's metadata object)."""

    metadata: Any = field(default_factory=dict)
    tensors: dict[str, Any] = field(default_factory=dict)


def _is_int(value: object) -> bool:
    return type(value) is int  # JSON true/false are bools, which Python also counts as int


def validate_header(meta: Any, source: str) -> Any:
    """Check what `huggingface_hub` does not: known dtypes, sane shapes, offsets that match them,
    and tensors that tile the data region in order with no overlap and no gap (as safetensors requires)."""
    if not isinstance(meta.metadata, dict) or not all(isinstance(v, str) for v in meta.metadata.values()):
        raise InputError(source, "__metadata__", "must be an object of strings")
    for name, info in meta.tensors.items():
        _check_entry(name, info, source)
    _check_tiling(meta, source)
    return meta


def _check_entry(name: str, info, source: str) -> None:
    field = f"tensor {name!r:.120}"
    if not isinstance(info.dtype, str) or info.dtype not in DTYPE_BITS:
        raise InputError(source, f"{field}.dtype", f"unknown dtype {info.dtype!r:.40}")
    shape = info.shape
    if (
        not isinstance(shape, list)
        or len(shape) > MAX_DIMS
        or not all(_is_int(d) and 0 <= d <= MAX_ELEMENTS for d in shape)
        or math.prod(shape) > MAX_ELEMENTS
    ):
        raise InputError(
            source, f"{field}.shape", f"must be at most {MAX_DIMS} non-negative integers, got {shape!r:.80}"
        )
    offsets = info.data_offsets
    if (
        not isinstance(offsets, list | tuple)
        or len(offsets) != 2
        or not all(_is_int(o) and 0 <= o <= MAX_ELEMENTS for o in offsets)
        or offsets[1] < offsets[0]
    ):
        raise InputError(
            source, f"{field}.data_offsets", f"must be [begin, end] with begin <= end, got {offsets!r:.80}"
        )
    expected = tensor_nbytes(info.dtype, shape)
    if offsets[1] - offsets[0] != expected:
        raise InputError(
            source,
            f"{field}.data_offsets",
            f"spans {offsets[1] - offsets[0]} bytes but {info.dtype}{shape} needs {expected}",
        )


def _check_tiling(meta: Any, source: str) -> None:
    position, previous = 0, None
    for name, info in sorted(meta.tensors.items(), key=lambda item: tuple(item[1].data_offsets)):
        begin, end = info.data_offsets
        if begin != position:
            what = (
                f"overlaps tensor {previous!r:.80}"
                if begin < position
                else f"leaves a gap of {begin - position} bytes"
            )
            raise InputError(
                source,
                f"tensor {name!r:.120}.data_offsets",
                f"[{begin}, {end}] {what}: a header lies about its data",
            )
        position, previous = end, name


def read_local_header(path: Path) -> SafetensorsHeader:
    """Header of a local file (only its 8 + length bytes are read), parsed and validated."""
    from servebox.checkpoint.source import check_json_shape

    source = str(path)
    try:
        with path.open("rb") as handle:
            prefix = handle.read(8)
            if len(prefix) < 8:
                raise InputError(
                    source, "header length", f"file is {len(prefix)} bytes: too small for a header"
                )
            length = int.from_bytes(prefix, "little")
            if length > MAX_HEADER_BYTES:
                raise InputError(source, "header length", f"{length:,} bytes: more than any real header")
            raw = handle.read(length)
    except OSError as exc:
        raise InputError(source, None, f"cannot read: {exc.strerror or exc}") from None
    if len(raw) < length:
        raise InputError(
            source,
            "header length",
            f"file is truncated: {length:,} header bytes declared, {len(raw):,} present",
        )
    check_json_shape(raw, source)
    return validate_header(_parse_header(raw, source), source)


def _parse_header(raw: bytes, source: str) -> SafetensorsHeader:
    """The JSON object into entries; a missing or mistyped field is named here, values are checked later."""
    try:
        data = json.loads(raw)
    except UnicodeDecodeError as exc:
        raise InputError(source, "header", f"not UTF-8 text: {exc.reason}") from None
    except (ValueError, RecursionError) as exc:
        raise InputError(source, "header", f"not valid JSON ({exc!s:.120})") from None
    if not isinstance(data, dict):
        raise InputError(source, "header", "must be a JSON object")
    header = SafetensorsHeader(metadata=data.pop("__metadata__", {}))
    for name, entry in data.items():
        if not isinstance(entry, dict) or not {"dtype", "shape", "data_offsets"} <= entry.keys():
            raise InputError(
                source, f"tensor {name!r:.120}", "must be an object with dtype, shape and data_offsets"
            )
        header.tensors[name] = TensorEntry(entry["dtype"], entry["shape"], entry["data_offsets"])
    return header


def _parsing_error(exc: Exception, source: str) -> InputError:
    text = str(exc)
    field = (
        "header length" if any(w in text for w in ("too small", "too big", "limit", "exceeds")) else "header"
    )
    return InputError(source, field, text.split("): ", 1)[-1])


def read_remote_header(api: Any, repo_id: str, filename: str, revision: str | None) -> Any:
    """Header of a hub file by range request (`huggingface_hub`, imported only for a hub id), then validated."""
    from huggingface_hub.errors import SafetensorsParsingError

    source = f"{repo_id}/{filename}"
    try:
        meta = api.parse_safetensors_file_metadata(repo_id, filename, revision=revision)
    except SafetensorsParsingError as exc:
        raise _parsing_error(exc, source) from None
    except (KeyError, TypeError, ValueError, AttributeError, RecursionError) as exc:
        raise InputError(
            source, "header", f"tensor entry is missing or mistyped a field ({exc!s:.120})"
        ) from None
    return validate_header(meta, source)


def data_bytes(meta: Any) -> int:
    """Bytes of tensor data the header says follow it (the end of the last tensor)."""
    return max((info.data_offsets[1] for info in meta.tensors.values()), default=0)
