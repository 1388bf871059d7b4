"""Read a safetensors header (8-byte little-endian length + JSON) from a local file, defensively.

`huggingface_hub` reads headers, locally and by range request, without touching tensor data (the
`safetensors` library validates a whole file first, so it cannot read a partial download or a
header-only fixture). It does not check that each entry is consistent, so a hostile header could
claim absurd shapes; this module adds that validation and names the offending tensor and field.
"""

from __future__ import annotations

import math
from pathlib import Path

from huggingface_hub import HfApi, parse_local_safetensors_file_metadata
from huggingface_hub.errors import SafetensorsParsingError
from huggingface_hub.utils import SafetensorsFileMetadata

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


def _is_int(value: object) -> bool:
    return type(value) is int  # JSON true/false are bools, which Python also counts as int


def validate_header(meta: SafetensorsFileMetadata, source: str) -> SafetensorsFileMetadata:
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


def _check_tiling(meta: SafetensorsFileMetadata, source: str) -> None:
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


def _parsing_error(exc: Exception, source: str) -> InputError:
    text = str(exc)
    field = (
        "header length" if any(w in text for w in ("too small", "too big", "limit", "exceeds")) else "header"
    )
    return InputError(source, field, text.split("): ", 1)[-1])


def read_local_header(path: Path) -> SafetensorsFileMetadata:
    """Header of a local file through `huggingface_hub` (reads only the header bytes), then validated."""
    _check_local_header_json(path)
    try:
        meta = parse_local_safetensors_file_metadata(path)
    except SafetensorsParsingError as exc:
        raise _parsing_error(exc, str(path)) from None
    except (KeyError, TypeError, ValueError, AttributeError, RecursionError) as exc:
        raise InputError(
            str(path), "header", f"tensor entry is missing or mistyped a field ({exc!s:.120})"
        ) from None
    except OSError as exc:
        raise InputError(str(path), None, f"cannot read: {exc.strerror or exc}") from None
    return validate_header(meta, str(path))


def _check_local_header_json(path: Path) -> None:
    """Depth and size of the header's JSON, before huggingface_hub parses it."""
    from servebox.checkpoint.source import check_json_shape

    try:
        with path.open("rb") as handle:
            length = int.from_bytes(handle.read(8), "little")
            if length > MAX_HEADER_BYTES:
                raise InputError(str(path), "header length", f"{length:,} bytes: more than any real header")
            check_json_shape(handle.read(length), str(path))
    except OSError as exc:
        raise InputError(str(path), None, f"cannot read: {exc.strerror or exc}") from None


def read_remote_header(
    api: HfApi, repo_id: str, filename: str, revision: str | None
) -> SafetensorsFileMetadata:
    """Header of a hub file by range request (`huggingface_hub`), then validated."""
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


def data_bytes(meta: SafetensorsFileMetadata) -> int:
    """Bytes of tensor data the header says follow it (the end of the last tensor)."""
    return max((info.data_offsets[1] for info in meta.tensors.values()), default=0)
