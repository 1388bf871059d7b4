"""A local stand-in for the Hugging Face hub's HTTP API (real HTTP, loopback only), for offline tests.

It serves a fixture directory as repo `org/name`: `/api/models/...` (file list with sizes),
`HEAD`/`GET` on `/{repo}/resolve/{rev}/{file}` with the hub's headers, and byte ranges. Safetensors
shards in fixtures are header-only, so the server reports the size their header implies (what the
real hub would report) and counts every byte it actually sends.

Listings carry the hub's hashes of the files on disk: weights (LFS, by suffix as the hub's default
.gitattributes, or over 10 MiB) get `lfs.sha256`, small files their git blob id (sha1 of
"blob SIZE\0" + bytes), as `blobId` in /api/models and `oid` in /tree. `corrupt={file: offset}` flips
one byte of what is served for FILE while the listing keeps the true hash (corruption in transit).
"""

from __future__ import annotations

import hashlib
import json
import re
import struct
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

COMMIT = "a" * 40
LFS_SUFFIXES = (".safetensors", ".bin", ".gguf", ".pt", ".pth", ".h5", ".msgpack")


def git_blob_id(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()  # noqa: S324 - git's object id


def hashes(path: Path) -> dict:
    """The hub's record of one file: its git blob id, and the LFS sha256 for weights and big files."""
    data = path.read_bytes()
    record: dict = {"blobId": git_blob_id(data)}
    if path.suffix in LFS_SUFFIXES or len(data) > 10 * 2**20:
        record["lfs"] = {"sha256": hashlib.sha256(data).hexdigest(), "size": len(data), "pointerSize": 134}
    return record


def implied_size(path: Path) -> int:
    raw = path.read_bytes()
    (length,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8 : 8 + length])
    header.pop("__metadata__", None)
    data = max((t["data_offsets"][1] for t in header.values()), default=0)
    return 8 + length + data


class FakeHub:
    def __init__(self, root: Path, repo: str = "org/model", corrupt: dict[str, int] | None = None):
        self.root, self.repo = root, repo
        self.corrupt = corrupt or {}
        self.bytes_sent = 0
        self.requests: list[str] = []
        hub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # quiet
                pass

            def _file(self):
                m = re.match(rf"^/{re.escape(hub.repo)}/resolve/([^/]+)/(.+)$", self.path.split("?")[0])
                return (hub.root / m.group(2)) if m else None

            def _size(self, path: Path) -> int:
                return implied_size(path) if path.suffix == ".safetensors" else path.stat().st_size

            def _send(self, code: int, body: bytes, headers: dict[str, str], head: bool = False) -> None:
                self.send_response(code)
                for k, v in headers.items():
                    self.send_header(k, v)
                self.send_header(
                    "Content-Length",
                    str(len(body)) if not head else headers.get("X-Linked-Size", str(len(body))),
                )
                self.end_headers()
                if not head:
                    self.wfile.write(body)
                    hub.bytes_sent += len(body)

            def do_GET(self):
                hub.requests.append(f"GET {self.path} {self.headers.get('range', '')}")
                if self.path.startswith(f"/api/models/{hub.repo}/tree/"):  # snapshot_download's file listing
                    files = []
                    for p in sorted(hub.root.rglob("*")):
                        if p.is_file():
                            record = hashes(p)
                            entry = {"type": "file", "path": str(p.relative_to(hub.root))}
                            entry |= {"size": self._size(p), "oid": record["blobId"]}
                            if "lfs" in record:
                                lfs = record["lfs"]
                                entry["lfs"] = {"oid": lfs["sha256"], "size": lfs["size"], "pointerSize": 134}
                            files.append(entry)
                    return self._send(200, json.dumps(files).encode(), {"Content-Type": "application/json"})
                if self.path.startswith(f"/api/models/{hub.repo}"):
                    siblings = [
                        {"rfilename": str(p.relative_to(hub.root)), "size": self._size(p), **hashes(p)}
                        for p in sorted(hub.root.rglob("*"))
                        if p.is_file()
                    ]
                    body = json.dumps({"id": hub.repo, "sha": COMMIT, "siblings": siblings}).encode()
                    return self._send(200, body, {"Content-Type": "application/json"})
                if self.path.startswith("/api/models/"):
                    return self._send(
                        404, b'{"error": "Repository not found"}', {"X-Error-Code": "RepoNotFound"}
                    )
                path = self._file()
                if path is None or not path.is_file():
                    return self._send(404, b"{}", {"X-Error-Code": "EntryNotFound"})
                data = path.read_bytes()
                flip = hub.corrupt.get(str(path.relative_to(hub.root)))
                if flip is not None:
                    data = data[:flip] + bytes([data[flip] ^ 0x01]) + data[flip + 1 :]
                rng = self.headers.get("range")
                if rng:
                    start, end = (int(x) for x in rng.split("=")[1].split("-"))
                    return self._send(206, data[start : end + 1], self._meta(path))
                return self._send(200, data, self._meta(path))

            def _meta(self, path: Path) -> dict[str, str]:
                etag = hashlib.sha256(path.read_bytes()).hexdigest()
                return {"ETag": f'"{etag}"', "X-Repo-Commit": COMMIT, "X-Linked-Size": str(self._size(path))}

            def do_HEAD(self):
                hub.requests.append(f"HEAD {self.path}")
                path = self._file()
                if path is None or not path.is_file():
                    return self._send(404, b"", {"X-Error-Code": "EntryNotFound"}, head=True)
                meta = self._meta(path)
                meta["X-Linked-Size"] = str(path.stat().st_size)
                self._send(200, b"", meta, head=True)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> FakeHub:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()
