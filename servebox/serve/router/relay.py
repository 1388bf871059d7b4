"""Relaying an engine's answer to the client chunk by chunk, honestly.

An SSE stream is read event by event as it passes (nothing is buffered beyond one event). When the engine
dies under it (the connection drops mid-stream) or ends it with `data: [DONE]` and no finish_reason (vLLM
does this when its engine core is restarted under the request), the client gets an error event in OpenAI's
shape and no `[DONE]`: an empty answer never passes for a complete one. A plain (non-stream) body cut short
cuts the client's connection too, so the client sees the truncation.
"""

from __future__ import annotations

import json
import re

import aiohttp
from starlette.concurrency import run_in_threadpool
from starlette.responses import StreamingResponse

from servebox.serve.requests_log import RequestRecord
from servebox.serve.router.body import INLINE_PARSE
from servebox.serve.router.errors import sse_error
from servebox.serve.router.upstream import Opened

FINISH = re.compile(rb'"finish_reason"\s*:\s*"')
KEEP_FOR_USAGE = 4 * 1024 * 1024  # a plain JSON answer is kept up to this size to read its usage


def _usage(obj: dict) -> dict | None:
    usage = obj.get("usage")
    if isinstance(usage, dict) and usage.get("completion_tokens") is not None:
        return usage
    timings = obj.get("timings")  # llama.cpp's own accounting
    if isinstance(timings, dict) and timings.get("predicted_n") is not None:
        return {"prompt_tokens": timings.get("prompt_n"), "completion_tokens": timings.get("predicted_n")}
    return None


class StreamGuard:
    """Follows one SSE stream: finish reasons, upstream errors, usage; holds `[DONE]` back until the end."""

    def __init__(self, hide_usage: bool = False):
        self.hide_usage = (
            hide_usage  # the router asked for usage, the client did not: drop the usage-only event
        )
        self.buffer = b""
        self.sep: bytes | None = None
        self.finished = self.errored = self.done = False
        self.usage: dict | None = None

    def feed(self, chunk: bytes) -> bytes:
        """The complete events in buffer + chunk (one pass: a burst of many events stays linear)."""
        buf = self.buffer + chunk if self.buffer else chunk
        if self.sep is None:  # a stream keeps one convention: found once
            self.sep = b"\r\n\r\n" if b"\r\n\r\n" in buf else b"\n\n" if b"\n\n" in buf else None
            if self.sep is None:
                self.buffer = buf
                return b""
        out, pos, size = [], 0, len(self.sep)
        while (end := buf.find(self.sep, pos)) >= 0:
            out.append(self._event(buf[pos : end + size]))
            pos = end + size
        self.buffer = buf[pos:]
        return b"".join(out)

    def _event(self, event: bytes) -> bytes:
        data = b"".join(line[5:].strip() for line in event.splitlines() if line.startswith(b"data:"))
        if data == b"[DONE]":
            self.done = True
            return b""
        if not self.finished and FINISH.search(data):
            self.finished = True
        if b'"error"' in data or b'"usage"' in data or b'"timings"' in data:
            try:
                obj = json.loads(data)
            except ValueError:
                return event
            if isinstance(obj, dict):
                if "error" in obj:
                    self.errored = True
                self.usage = _usage(obj) or self.usage
                if self.hide_usage and obj.get("choices") == [] and "usage" in obj:
                    return b""
        return event

    def end(self, broken: str | None) -> tuple[bytes, str]:
        """What to send last, and the request's outcome."""
        rest = self.buffer
        if broken and not self.errored:
            return rest + sse_error(
                f"the engine's connection dropped mid-stream ({broken}): the answer is incomplete",
                "engine_died",
            ), "engine died"
        if self.errored:
            return rest, "upstream error"
        if not self.finished:
            return rest + sse_error(
                "the engine ended the stream without a finish reason (its engine core was restarted or died "
                "under the request): the answer is incomplete",
                "stream_incomplete",
            ), "engine died"
        return rest + (b"data: [DONE]\n\n" if self.done else b""), "ok"


class Relay(StreamingResponse):
    """A streamed upstream answer; cleanup (in-flight count, upstream close, the record) runs exactly once,
    however the response ends: completion, the engine dying, or the client going away before or during."""

    def __init__(self, opened: Opened, record: RequestRecord, guard: StreamGuard | None, engine, headers):
        self.opened, self.record, self.guard, self.engine = opened, record, guard, engine
        engine.inflight += 1  # requests the router holds open to this engine (the watcher reads it)
        self.kept: list[bytes] | None = [] if guard is None else None
        response = opened.response
        super().__init__(
            self._body(),
            status_code=response.status,
            headers=headers,
            media_type=response.headers.get("content-type"),
        )

    async def _body(self):
        broken = None
        try:
            async for chunk in self.opened.response.content.iter_any():
                self.record.first_byte()
                self.engine.relayed += 1
                if self.guard is None:
                    self._keep(chunk)
                    yield chunk
                    continue
                out = self.guard.feed(chunk)
                if out:
                    yield out
        except (TimeoutError, aiohttp.ClientError) as exc:
            if self.guard is None:
                self.record.finish("engine died")
                raise
            broken = type(exc).__name__
        if self.guard is not None:
            tail, outcome = self.guard.end(broken)
            self.record.finish(outcome, self.guard.usage)
            if tail:
                yield tail
        else:
            kept = sum(map(len, self.kept or []))
            usage = await run_in_threadpool(self._usage) if kept > INLINE_PARSE else self._usage()
            self.record.finish("ok" if self.opened.response.status < 400 else "upstream error", usage)

    def _keep(self, chunk: bytes) -> None:
        if self.kept is not None:
            self.kept.append(chunk)
            if sum(map(len, self.kept)) > KEEP_FOR_USAGE:
                self.kept = None

    def _usage(self) -> dict | None:
        if not self.kept:
            return None
        try:
            obj = json.loads(b"".join(self.kept))
        except ValueError:
            return None
        return _usage(obj) if isinstance(obj, dict) else None

    async def __call__(self, scope, receive, send):
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.record.finish("client closed")  # no-op when the body already finished it
            await self.opened.close()
            self.engine.inflight -= 1
