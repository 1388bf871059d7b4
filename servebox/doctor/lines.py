"""Bounded line framing for triage: bytes in, chunks of whole lines out, no line longer than a cap.

A log may hold a 1 GB line, or be /dev/zero or a FIFO that never ends. Every step after this one
works on whole lines, so this is where memory and time are bounded: a line longer than
`max_line` keeps its first `max_line` bytes and the rest is skipped as it streams past (found
with memchr, never copied). Memory is one chunk plus one capped partial line; time is linear.
"""

from __future__ import annotations

from collections.abc import Iterator

MAX_LINE = 64 * 1024


class LineFramer:
    """`feed(bytes)` yields chunks that end on a newline and hold only lines of at most about
    `max_line` bytes (2x in the worst case of where a window falls); `close()` yields the rest."""

    def __init__(self, max_line: int = MAX_LINE):
        self.max_line = max_line
        self.carry = b""
        self.skipping = False  # inside a long line whose head was kept: drop bytes up to its newline
        self.cut_lines = 0
        self.cut_bytes = 0

    def feed(self, data: bytes) -> Iterator[bytes]:
        if self.skipping:
            nl = data.find(b"\n")
            if nl < 0:
                self.cut_bytes += len(data)
                return
            self.cut_bytes += nl
            data = data[nl:]  # keep the newline: it ends the kept head (already in carry)
            self.skipping = False
        data = self.carry + data if self.carry else data
        cut = data.rfind(b"\n") + 1
        head, self.carry = data[:cut], data[cut:]
        if len(self.carry) > self.max_line:
            self.cut_lines += 1
            self.cut_bytes += len(self.carry) - self.max_line
            self.carry = self.carry[: self.max_line]
            self.skipping = True
        if head:
            yield self._cap(head)

    def close(self) -> Iterator[bytes]:
        if self.carry:
            yield self._cap(self.carry + b"\n")
        self.carry, self.skipping = b"", False

    def _cap(self, chunk: bytes) -> bytes:
        """Cut every line of `chunk` (whole lines) to `max_line` bytes: windows of `max_line` bytes
        without a newline mark a long line; each is cut once, at memchr speed."""
        step = self.max_line
        if len(chunk) <= step:
            return chunk
        pieces, kept_to, pos = [], 0, 0
        while pos + step < len(chunk):
            if chunk.find(b"\n", pos, pos + step + 1) >= 0:
                pos += step
                continue
            start = chunk.rfind(b"\n", 0, pos) + 1
            end = chunk.find(b"\n", pos + step)  # the chunk ends with a newline
            pieces.append(chunk[kept_to : start + step])
            self.cut_lines += 1
            self.cut_bytes += end - start - step
            kept_to = pos = end
        if not pieces:
            return chunk
        pieces.append(chunk[kept_to:])
        return b"".join(pieces)
