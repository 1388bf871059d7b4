"""`servebox fetch-model`: download a checkpoint with `huggingface_hub` and prove it is the hub's.

Weights are data, not packages (the digest's 20.6 GB). snapshot_download resumes partial files; right
after it, every file the hub lists is checked against the hub's own record of it: its size, and its
hash (the LFS sha256 for weights and other large files, the git blob sha1 for small ones), so a
flipped byte of the right size is named, not served. The shard set is then checked as a whole: every
shard the index names is present, every shard's header matches its size, and a repo with no weight
files at all is not a checkpoint.
"""

from __future__ import annotations

import fnmatch
import hashlib
import json
import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel

from servebox.checkpoint.source import HubSource
from servebox.errors import InputError

WEIGHT_SUFFIXES = (".safetensors", ".bin", ".pt", ".pth", ".gguf")
INDEX = "model.safetensors.index.json"


class FetchResult(BaseModel):
    repo: str
    directory: str
    files: int
    bytes: int
    verified: int  # files whose hash matched the hub's
    complete: bool
    problems: list[str]


@dataclass
class Expected:
    """What the hub records for one file: size, and one of its two hashes."""

    size: int | None
    sha256: str | None = None  # LFS files
    git_sha1: str | None = None  # small files stored in git


def hub_listing(source: HubSource, include: list[str] | None) -> dict[str, Expected]:
    try:
        info = source.api.model_info(source.repo_id, revision=source.revision, files_metadata=True)
    except Exception as exc:
        raise InputError(source.name, None, f"cannot list files: {type(exc).__name__}: {exc}") from None
    listing = {}
    for s in info.siblings or []:
        if include and not any(fnmatch.fnmatch(s.rfilename, p) for p in include):
            continue
        lfs = s.lfs.get("sha256") if isinstance(s.lfs, dict) else getattr(s.lfs, "sha256", None)
        listing[s.rfilename] = Expected(s.size, lfs, None if lfs else s.blob_id)
    return listing


def fetch_model(
    repo: str, revision: str | None, directory: Path, include: list[str] | None = None
) -> FetchResult:
    from huggingface_hub import snapshot_download

    source = HubSource.open(repo, revision)  # one-line errors for missing or gated repos
    expected = hub_listing(source, include)
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
    return verify_download(repo, directory, expected, weights_required=not include)


def sha256_of(path: Path) -> str:
    with path.open("rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def git_blob_sha1(path: Path) -> str:
    """git's object id of a file: sha1 of "blob SIZE\\0" + its bytes (what the hub lists for small files)."""
    sha1 = hashlib.sha1(f"blob {path.stat().st_size}\0".encode())  # noqa: S324 - git's id, not security
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            sha1.update(block)
    return sha1.hexdigest()


def check_file(name: str, path: Path, want: Expected) -> str | None:
    """The problem with one downloaded file, or None when it is the hub's byte for byte."""
    if not path.is_file():
        return f"{name}: missing"
    size = path.stat().st_size
    if want.size is not None and size != want.size:
        return f"{name}: {size:,} bytes, the hub lists {want.size:,}"
    if want.sha256:  # one pass, only the hash the hub keeps for this file
        got = sha256_of(path)
        if got != want.sha256:
            return f"{name}: sha256 {got} does not match the hub's {want.sha256} (corrupt: delete it and fetch again)"
    elif want.git_sha1:
        got = git_blob_sha1(path)
        if got != want.git_sha1:
            return f"{name}: git blob id {got} does not match the hub's {want.git_sha1} (corrupt: delete it and fetch again)"
    return None


def shard_set_problems(directory: Path, names: set[str], weights_required: bool) -> list[str]:
    """Missing or short weights: no weight file at all, shards the index names but nobody listed or
    downloaded, shards whose header implies more bytes than the file holds."""
    from servebox.checkpoint.source import LocalSource
    from servebox.checkpoint.tensors import inventory

    if weights_required and not any(n.endswith(WEIGHT_SUFFIXES) for n in names):
        return ["no weight files (.safetensors, .bin, .gguf): not a complete checkpoint"]
    index = directory / INDEX
    if index.is_file():
        try:
            shards = set(json.loads(index.read_text()).get("weight_map", {}).values())
        except (ValueError, AttributeError):
            return [f"{INDEX}: not a JSON object with a weight_map"]
        missing = sorted(s for s in shards if not (directory / s).is_file())
        if missing:
            return [f"{s}: named by {INDEX} but missing" for s in missing]
    if not any(n.endswith(".safetensors") for n in names):
        return []
    try:
        inv = inventory(LocalSource.open(directory))
    except InputError as exc:
        return [exc.one_line()]
    return [f"{s.filename}: {s.problem}" for s in inv.shards if not s.complete]


def verify_download(
    repo: str, directory: Path, expected: dict[str, Expected | int | None], weights_required: bool = False
) -> FetchResult:
    wants = {n: w if isinstance(w, Expected) else Expected(w) for n, w in expected.items()}
    names = sorted(wants)
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:  # hashlib hashes outside the GIL
        found = list(pool.map(lambda n: check_file(n, directory / n, wants[n]), names))
    problems = [p for p in found if p]
    verified = sum(
        1 for n, p in zip(names, found, strict=True) if not p and (wants[n].sha256 or wants[n].git_sha1)
    )
    problems += shard_set_problems(directory, set(wants), weights_required)
    total = sum(p.stat().st_size for p in directory.rglob("*") if p.is_file() and ".cache" not in p.parts)
    return FetchResult(
        repo=repo,
        directory=str(directory),
        files=len(wants),
        bytes=total,
        verified=verified,
        complete=not problems,
        problems=problems,
    )
