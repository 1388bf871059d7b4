"""A GGUF header read in milliseconds: key/values (arrays of strings skipped) and the tensor table.

The `gguf` package's GGUFReader builds a numpy view per vocabulary entry, which takes tens of
seconds on a 150k-token vocabulary; planning needs the numbers, the per-layer arrays and the tensor
table only, so this reader walks the header sequentially and skips string arrays by their lengths.
It reads any file-like object, so a hub file's header comes over HTTP range requests
(huggingface_hub's HfFileSystem) without downloading the weights. Type sizes are ggml's
(GGML_QUANT_SIZES of the gguf package plus the types the pinned llama.cpp added; a test checks them).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from servebox.errors import InputError

# ggml type id -> (name, elements per block, bytes per block)
GGML_TYPES: dict[int, tuple[str, int, int]] = {
    0: ("F32", 1, 4), 1: ("F16", 1, 2), 2: ("Q4_0", 32, 18), 3: ("Q4_1", 32, 20), 6: ("Q5_0", 32, 22),
    7: ("Q5_1", 32, 24), 8: ("Q8_0", 32, 34), 9: ("Q8_1", 32, 40), 10: ("Q2_K", 256, 84),
    11: ("Q3_K", 256, 110), 12: ("Q4_K", 256, 144), 13: ("Q5_K", 256, 176), 14: ("Q6_K", 256, 210),
    15: ("Q8_K", 256, 292), 16: ("IQ2_XXS", 256, 66), 17: ("IQ2_XS", 256, 74), 18: ("IQ3_XXS", 256, 98),
    19: ("IQ1_S", 256, 50), 20: ("IQ4_NL", 32, 18), 21: ("IQ3_S", 256, 110), 22: ("IQ2_S", 256, 82),
    23: ("IQ4_XS", 256, 136), 24: ("I8", 1, 1), 25: ("I16", 1, 2), 26: ("I32", 1, 4), 27: ("I64", 1, 8),
    28: ("F64", 1, 8), 29: ("IQ1_M", 256, 56), 30: ("BF16", 1, 2), 34: ("TQ1_0", 256, 54),
    35: ("TQ2_0", 256, 66), 39: ("MXFP4", 32, 17), 40: ("NVFP4", 64, 36), 41: ("Q1_0", 128, 18),
    42: ("Q2_0", 64, 18),
}  # fmt: skip
TYPE_BY_NAME = {name: (tid, blck, size) for tid, (name, blck, size) in GGML_TYPES.items()}

_SCALARS = {
    0: "<B",
    1: "<b",
    2: "<H",
    3: "<h",
    4: "<I",
    5: "<i",
    6: "<f",
    7: "<?",
    10: "<Q",
    11: "<q",
    12: "<d",
}
_STRING, _ARRAY = 8, 9


def type_bytes(type_name: str, n_elements: int) -> int:
    _, blck, size = TYPE_BY_NAME[type_name.upper()]
    return n_elements // blck * size


@dataclass
class GGUFTensor:
    name: str
    type: str
    shape: list[int]  # ggml order: ne0 (row length) first
    offset: int  # from the start of the data section
    base: int = 0  # where the data section starts in its file
    file: int = 0  # which split file (0 for a single-file model)

    @property
    def n_elements(self) -> int:
        n = 1
        for d in self.shape:
            n *= d
        return n

    @property
    def n_bytes(self) -> int:
        return type_bytes(self.type, self.n_elements)


@dataclass
class GGUFHeader:
    source: str
    version: int
    kv: dict[str, Any]  # numbers, strings, number arrays; string arrays as their length
    tensors: list[GGUFTensor] = field(default_factory=list)
    data_offset: int = 0
    file_bytes: int | None = None

    def unknown_types(self) -> dict[str, str]:
        """Tensor name -> type for tensors whose ggml type the pinned llama.cpp does not have."""
        return {t.name: t.type for t in self.tensors if t.type not in TYPE_BY_NAME}

    @property
    def arch(self) -> str:
        return str(self.kv.get("general.architecture", ""))

    def get(self, key: str, default: Any = None) -> Any:
        """An architecture key without its prefix: get('block_count') reads '<arch>.block_count'."""
        return self.kv.get(f"{self.arch}.{key}", default)


class _Reader:
    """Sequential reads from a growing in-memory window: the header is parsed with struct.unpack_from,
    string arrays are skipped by walking their lengths, and the file is read in 4 MiB blocks."""

    def __init__(self, f: BinaryIO, source: str, block: int = 4 << 20) -> None:
        self.f, self.source, self.pos, self.buf, self.base, self.block = f, source, 0, b"", 0, block

    def _ensure(self, n: int) -> None:
        while self.pos + n > self.base + len(self.buf):
            more = self.f.read(max(self.block, n))
            if not more:
                raise InputError(
                    self.source, "header", f"file ends inside the GGUF header (at byte {self.pos})"
                )
            keep = self.pos - self.base
            self.buf, self.base = self.buf[keep:] + more, self.pos

    def take(self, n: int) -> bytes:
        self._ensure(n)
        start = self.pos - self.base
        self.pos += n
        return self.buf[start : start + n]

    def num(self, fmt: str) -> Any:
        size = struct.calcsize(fmt)
        self._ensure(size)
        value = struct.unpack_from(fmt, self.buf, self.pos - self.base)[0]
        self.pos += size
        return value

    def string(self) -> str:
        return self.take(self.num("<Q")).decode("utf-8", errors="replace")

    def skip_strings(self, count: int) -> None:
        unpack = struct.Struct("<Q").unpack_from
        while count:
            self._ensure(8)
            buf, i, end = self.buf, self.pos - self.base, len(self.buf)
            while count and i + 8 <= end:  # walk the lengths inside the window without per-item calls
                (length,) = unpack(buf, i)
                if i + 8 + length > end:
                    break
                i += 8 + length
                count -= 1
            self.pos = self.base + i
            if count:
                (length,) = unpack(self.take(8), 0) if i + 8 <= end else (None,)
                if length is None:
                    continue  # the next length straddles the window: refill and walk on
                self.take(length)
                count -= 1

    def value(self, vtype: int) -> Any:
        if vtype in _SCALARS:
            return self.num(_SCALARS[vtype])
        if vtype == _STRING:
            return self.string()
        if vtype == _ARRAY:
            etype, count = self.num("<I"), self.num("<Q")
            if etype == _STRING:
                self.skip_strings(count)
                return count
            if etype not in _SCALARS:
                raise InputError(self.source, "header", f"array of unknown type {etype}")
            fmt = _SCALARS[etype]
            raw = self.take(struct.calcsize(fmt) * count)
            return list(struct.unpack("<" + fmt[1:] * count, raw))
        raise InputError(self.source, "header", f"unknown value type {vtype}")


def read_header(f: BinaryIO, source: str, file_bytes: int | None = None, block: int = 4 << 20) -> GGUFHeader:
    """`block`: bytes per read (over HTTP, one range request each)."""
    r = _Reader(f, source, block)
    if r.take(4) != b"GGUF":
        raise InputError(source, "magic", "not a GGUF file")
    version = r.num("<I")
    if version not in (2, 3):
        raise InputError(source, "version", f"GGUF version {version} is not supported (2 or 3)")
    n_tensors, n_kv = r.num("<Q"), r.num("<Q")
    if n_tensors > 1_000_000 or n_kv > 100_000:
        raise InputError(source, "header", f"implausible counts ({n_tensors} tensors, {n_kv} keys)")
    kv: dict[str, Any] = {}
    for _ in range(n_kv):
        key = r.string()
        kv[key] = r.value(r.num("<I"))
    tensors = []
    for _ in range(n_tensors):
        name = r.string()
        shape = [r.num("<Q") for _ in range(r.num("<I"))]
        tid = r.num("<I")
        type_name = GGML_TYPES[tid][0] if tid in GGML_TYPES else f"TYPE{tid}"  # check reports unknown types
        tensors.append(GGUFTensor(name, type_name, shape, r.num("<Q")))
    align = int(kv.get("general.alignment", 32))
    data_offset = (r.pos + align - 1) // align * align
    for t in tensors:
        t.base = data_offset
    return GGUFHeader(source, version, kv, tensors, data_offset, file_bytes)


def read_local(path: str) -> GGUFHeader:
    import os

    try:
        with open(path, "rb") as f:
            return read_header(f, path, os.fstat(f.fileno()).st_size)
    except OSError as exc:
        raise InputError(path, None, f"cannot read: {exc.strerror or exc}") from None
