"""`servebox fetch-model`: download a checkpoint with `huggingface_hub` and prove it complete.

Weights are data, not packages (the digest's 20.6 GB). snapshot_download resumes partial files;
afterwards every file the hub lists is compared by size, and every shard's header is read and
checked against the size it implies, so a truncated download is named, not served.
"""

from __future__ import annotations

import fnmatch
import os
from pathlib import Path

from pydantic import BaseModel

from servebox.checkpoint.source import HubSource
from servebox.checkpoint.tensors import inventory
from servebox.errors import InputError


class FetchResult(BaseModel):
    repo: str
    directory: str
    files: int
    bytes: int
    complete: bool
    problems: list[str]


def fetch_model(
    repo: str, revision: str | None, directory: Path, include: list[str] | None = None
) -> FetchResult:
    from huggingface_hub import snapshot_download

    source = HubSource.open(
        repo, revision
    )  # lists files and sizes; one-line errors for missing or gated repos
    wanted = {
        f: s
        for f, s in source.file_sizes.items()
        if not include or any(fnmatch.fnmatch(f, p) for p in include)
    }
    try:
        snapshot_download(
            repo,
            revision=source.revision,
            local_dir=str(directory),
            allow_patterns=include or None,
            endpoint=os.environ.get("HF_ENDPOINT") or None,
        )
    except Exception as exc:
        raise InputError(repo, None, f"download failed: {type(exc).__name__}: {exc}") from None
    return verify_download(repo, directory, wanted)


def verify_download(repo: str, directory: Path, expected: dict[str, int | None]) -> FetchResult:
    from servebox.checkpoint.source import LocalSource

    problems = []
    for name, size in sorted(expected.items()):
        path = directory / name
        if not path.is_file():
            problems.append(f"{name}: missing")
        elif size is not None and path.stat().st_size != size:
            problems.append(f"{name}: {path.stat().st_size:,} bytes, the hub lists {size:,}")
    local = LocalSource.open(directory)
    if any(f.endswith(".safetensors") for f in local.file_sizes):
        inv = inventory(local)
        problems += [f"{s.filename}: {s.problem}" for s in inv.shards if not s.complete]
    total = sum(p.stat().st_size for p in directory.rglob("*") if p.is_file() and ".cache" not in p.parts)
    return FetchResult(
        repo=repo,
        directory=str(directory),
        files=len(expected),
        bytes=total,
        complete=not problems,
        problems=problems,
    )
