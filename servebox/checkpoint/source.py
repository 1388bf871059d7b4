"""Where a checkpoint's metadata comes from: a local directory, or a Hugging Face hub repo.

Both give the same three things: small JSON/text files (config, tokenizer config, index), the list
of files with their sizes, and safetensors headers. Weight data is never read: locally only the
header bytes are read, remotely only range requests for headers are made (`huggingface_hub`).
A `.gguf` file is a third kind of source, handled by `gguf_file`.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from itertools import accumulate
from pathlib import Path
from typing import Any

from servebox.checkpoint.hub_id import HUB_REPO_RE
from servebox.checkpoint.safetensors_header import SafetensorsHeader, read_local_header, read_remote_header
from servebox.errors import InputError

SAFETENSORS_INDEX = "model.safetensors.index.json"
SAFETENSORS_SINGLE = "model.safetensors"


MAX_JSON_BYTES = 64 << 20  # the largest public index.json files are under 10 MB
MAX_TEXT_BYTES = MAX_JSON_BYTES
MAX_CHECKPOINT_ENTRIES = 20_000  # real repos hold tens of files; `inspect /` must not walk the disk
MAX_JSON_DEPTH = 64  # real configs nest 4 deep; Python's parser recurses out near 100,000
JSON_STRING_RE = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}


def check_json_shape(data: bytes, source: str) -> None:
    """Size and nesting depth of a JSON document, measured before it is parsed (strings dropped,
    then a running sum over the brackets alone: C-speed, no recursion)."""
    if len(data) > MAX_JSON_BYTES:
        raise InputError(
            source, None, f"{len(data):,} bytes: larger than the {MAX_JSON_BYTES:,}-byte limit for JSON"
        )
    if data.count(b"[") + data.count(b"{") <= MAX_JSON_DEPTH:
        return  # fewer openers than the limit, strings included: cannot nest deeper
    brackets = JSON_STRING_RE.sub(b"", data).translate(None, _NOT_BRACKETS)
    if brackets and max(accumulate(map(_STEP.__getitem__, brackets))) > MAX_JSON_DEPTH:
        raise InputError(source, None, f"JSON nested deeper than {MAX_JSON_DEPTH} levels")


def parse_json_text(text: str | bytes, source: str) -> Any:
    check_json_shape(text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text, source)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(
            source, f"line {exc.lineno} column {exc.colno}", f"malformed JSON: {exc.msg}"
        ) from None
    except UnicodeDecodeError as exc:
        raise InputError(source, None, f"not UTF-8 text: {exc.reason}") from None
    except RecursionError:
        raise InputError(source, None, "JSON nested too deep") from None


@dataclass
class CheckpointSource:
    """Common interface; subclasses fetch the bytes."""

    name: str
    file_sizes: dict[str, int | None] = field(default_factory=dict)

    def read_text(self, filename: str) -> str | None:  # pragma: no cover - abstract
        raise NotImplementedError

    def read_header(self, filename: str) -> SafetensorsHeader:  # pragma: no cover - abstract
        raise NotImplementedError

    def header_length(self, filename: str) -> int | None:
        """Bytes of FILENAME's JSON header, where known (a local file): tells a header-only copy."""
        return None

    def location(self, filename: str) -> str:
        return f"{self.name}/{filename}"

    def has(self, filename: str) -> bool:
        return filename in self.file_sizes

    def read_json(self, filename: str, required: bool = False) -> dict[str, Any] | None:
        text = self.read_text(filename)
        if text is None:
            if required:
                raise InputError(self.location(filename), None, "missing (a checkpoint needs it)")
            return None
        data = parse_json_text(text, self.location(filename))
        if not isinstance(data, dict):
            raise InputError(self.location(filename), None, "must hold a JSON object")
        return data


@dataclass
class LocalSource(CheckpointSource):
    root: Path = Path(".")

    @classmethod
    def open(cls, root: Path) -> LocalSource:
        if not root.is_dir():
            raise InputError(str(root), None, "not a directory")
        sizes: dict[str, int | None] = {}
        for count, path in enumerate(root.rglob("*")):
            if count >= MAX_CHECKPOINT_ENTRIES:
                raise InputError(
                    str(root),
                    None,
                    f"more than {MAX_CHECKPOINT_ENTRIES:,} entries: not a checkpoint directory",
                )
            if path.is_file():
                sizes[str(path.relative_to(root))] = path.stat().st_size
        return cls(name=str(root), file_sizes=sizes, root=root)

    def location(self, filename: str) -> str:
        return str(self.root / filename)

    def read_text(self, filename: str) -> str | None:
        path = self.root / filename
        if not path.is_file():
            return None
        try:
            if path.stat().st_size > MAX_TEXT_BYTES:
                raise InputError(
                    str(path), None, f"larger than {MAX_TEXT_BYTES:,} bytes: not a metadata file"
                )
            return path.read_text(encoding="utf-8")
        except UnicodeDecodeError as exc:
            raise InputError(str(path), None, f"not UTF-8 text: {exc.reason}") from None
        except OSError as exc:
            raise InputError(str(path), None, f"cannot read: {exc.strerror or exc}") from None

    def read_header(self, filename: str) -> SafetensorsHeader:
        return read_local_header(self.root / filename)

    def header_length(self, filename: str) -> int | None:
        try:
            with (self.root / filename).open("rb") as handle:
                return int.from_bytes(handle.read(8), "little")
        except OSError:
            return None


@dataclass
class HubSource(CheckpointSource):
    """A hub repo, read through `huggingface_hub` (honours HF_ENDPOINT, HF_TOKEN, HF_HUB_OFFLINE)."""

    repo_id: str = ""
    revision: str | None = None
    api: Any = None

    @classmethod
    def open(cls, repo_id: str, revision: str | None) -> HubSource:
        from huggingface_hub import HfApi
        from huggingface_hub.errors import GatedRepoError, RepositoryNotFoundError, RevisionNotFoundError

        api = HfApi(endpoint=os.environ.get("HF_ENDPOINT") or None)
        display = repo_id + (f"@{revision}" if revision else "")
        try:
            info = api.model_info(repo_id, revision=revision, files_metadata=True)
        except GatedRepoError:
            raise InputError(
                display, None, "gated repo: accept its terms on the hub and set HF_TOKEN"
            ) from None
        except RepositoryNotFoundError:
            raise InputError(
                display, None, "no such repo on the hub (or it is private: set HF_TOKEN)"
            ) from None
        except RevisionNotFoundError:
            raise InputError(display, "revision", f"no revision {revision!r}") from None
        except Exception as exc:  # network down, offline mode, proxy errors: one line, not a traceback
            raise InputError(display, None, f"cannot reach the hub: {type(exc).__name__}: {exc}") from None
        sizes = {s.rfilename: s.size for s in (info.siblings or [])}
        return cls(name=display, file_sizes=sizes, repo_id=repo_id, revision=revision or info.sha, api=api)

    def read_text(self, filename: str) -> str | None:
        from huggingface_hub import hf_hub_download

        if filename not in self.file_sizes:
            return None
        if (self.file_sizes[filename] or 0) > MAX_TEXT_BYTES:
            raise InputError(
                self.location(filename), None, f"larger than {MAX_TEXT_BYTES:,} bytes: not a metadata file"
            )
        try:
            path = hf_hub_download(self.repo_id, filename, revision=self.revision, endpoint=self.api.endpoint)
        except Exception as exc:
            raise InputError(
                self.location(filename), None, f"cannot download: {type(exc).__name__}: {exc}"
            ) from None
        return Path(path).read_text(encoding="utf-8")

    def read_header(self, filename: str) -> SafetensorsHeader:
        return read_remote_header(self.api, self.repo_id, filename, self.revision)


def open_source(spec: str) -> CheckpointSource:
    """A local directory if one exists at SPEC, else a hub repo id `org/name[@revision]`."""
    path = Path(spec).expanduser()
    if path.exists():
        return LocalSource.open(path)
    match = HUB_REPO_RE.match(spec)
    if not match:
        raise InputError(
            spec, None, "neither an existing directory, a .gguf file, nor a hub repo id 'org/name[@revision]'"
        )
    return HubSource.open(match["repo"], match["revision"])
