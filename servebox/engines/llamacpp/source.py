"""Open a GGUF for planning: a local file (all its split parts), or a hub file's header by HTTP range
requests through huggingface_hub's HfFileSystem (`org/name/file.gguf[@revision]` or `hf://...`); only the
header's bytes are read, never the weights.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from servebox.checkpoint.gguf_header import GGUFHeader, read_header, read_local
from servebox.errors import InputError

_SPLIT_RE = re.compile(r"-(\d{5})-of-(\d{5})\.gguf$")
_HUB_RE = re.compile(r"^(?:hf://)?(?P<repo>[\w.-]+/[\w.-]+)/(?P<file>[^@]+\.gguf)(?:@(?P<rev>[\w./-]+))?$")


def _merge_splits(parts: list[GGUFHeader]) -> GGUFHeader:
    first = parts[0]
    for index, part in enumerate(parts[1:], start=1):
        for t in part.tensors:
            t.file = index
        first.tensors.extend(part.tensors)
    return first


def open_gguf(spec: str) -> GGUFHeader:
    path = Path(spec).expanduser()
    if path.is_file():
        return _local_with_splits(path)
    m = _HUB_RE.match(spec)
    if not m:
        raise InputError(spec, None, "no such .gguf file (a hub file is org/name/file.gguf[@revision])")
    return _hub_with_splits(m["repo"], m["file"], m["rev"], spec)


def _local_with_splits(path: Path) -> GGUFHeader:
    head = read_local(str(path))
    count = int(head.kv.get("split.count", 1) or 1)
    m = _SPLIT_RE.search(path.name)
    if count <= 1 or not m:
        return head
    parts = [head]
    for i in range(2, count + 1):
        sibling = path.with_name(_SPLIT_RE.sub(f"-{i:05d}-of-{count:05d}.gguf", path.name))
        if not sibling.is_file():
            raise InputError(str(path), "split.count", f"{count} parts, but {sibling.name} is missing")
        parts.append(read_local(str(sibling)))
    return _merge_splits(parts)


class _RangeFile:
    """A read-only file over HTTP range requests (huggingface_hub's session, URL and auth headers)."""

    def __init__(self, url: str, size: int) -> None:
        from huggingface_hub.utils import build_hf_headers, get_session

        self.url, self.size, self.pos = url, size, 0
        self.session, self.headers = get_session(), build_hf_headers()

    def read(self, n: int) -> bytes:
        if self.pos >= self.size:
            return b""
        end = min(self.size, self.pos + n) - 1
        resp = self.session.get(self.url, headers={**self.headers, "Range": f"bytes={self.pos}-{end}"})
        resp.raise_for_status()
        data = resp.content[: end - self.pos + 1]
        self.pos += len(data)
        return data


def _hub_with_splits(repo: str, file: str, rev: str | None, spec: str) -> GGUFHeader:
    head = _hub_header(repo, file, rev, spec)
    count = int(head.kv.get("split.count", 1) or 1)
    if count <= 1 or not _SPLIT_RE.search(file):
        return head
    parts = [head] + [
        _hub_header(repo, _SPLIT_RE.sub(f"-{i:05d}-of-{count:05d}.gguf", file), rev, spec)
        for i in range(2, count + 1)
    ]
    return _merge_splits(parts)


def _hub_header(repo: str, file: str, rev: str | None, spec: str) -> GGUFHeader:
    from huggingface_hub import get_hf_file_metadata, hf_hub_url
    from huggingface_hub.errors import EntryNotFoundError, RepositoryNotFoundError

    url = hf_hub_url(repo, file, revision=rev, endpoint=os.environ.get("HF_ENDPOINT") or None)
    try:
        size = get_hf_file_metadata(url).size
        return read_header(_RangeFile(url, size or 0), f"hf://{repo}/{file}", size, block=1 << 20)
    except InputError:
        raise
    except (EntryNotFoundError, RepositoryNotFoundError):
        raise InputError(
            spec, None, "no such file in that hub repo (or it is private: set HF_TOKEN)"
        ) from None
    except Exception as exc:  # network, auth, offline: one line
        raise InputError(
            spec, None, f"cannot read the header from the hub: {type(exc).__name__}: {exc}"
        ) from None
