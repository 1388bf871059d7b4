"""A request body read with a size limit enforced while it arrives (413 beyond, before buffering the
rest), and parsed as JSON off the event loop when it is large, so one huge body stalls no other stream.
Every malformed body is a 400 in OpenAI's shape."""

from __future__ import annotations

import json
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request

from servebox.serve.router.errors import RouterError

DEFAULT_LIMIT = 32 * 1024 * 1024
INLINE_PARSE = 256 * 1024  # bodies above this are parsed in a worker thread


def too_large(limit: int) -> RouterError:
    # Connection: close, so the server drops the connection after answering instead of reading (and
    # discarding, on the event loop) the rest of a body its client keeps sending
    return RouterError(
        413,
        f"request body larger than the router's limit of {limit} bytes",
        "request_too_large",
        {"Connection": "close"},
    )


async def read_body(request: Request, limit: int) -> bytearray:
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise too_large(limit)
    body = bytearray()  # one buffer, no list of chunks joined into a second copy
    async for chunk in request.stream():
        if len(body) + len(chunk) > limit:
            raise too_large(limit)
        body += chunk
    return body


def _parse(body: bytes) -> Any:
    try:
        return json.loads(body)
    except (ValueError, RecursionError) as exc:  # JSONDecodeError, bad UTF-8, huge integers, deep nesting
        reason = (
            str(exc).splitlines()[0][:200] if not isinstance(exc, RecursionError) else "nested too deeply"
        )
        raise RouterError(400, f"the request body is not valid JSON: {reason}", "invalid_json") from None


async def parse_object(body: bytes) -> dict:
    if not body.strip():
        raise RouterError(400, "the request body is empty (expected a JSON object)", "invalid_json")
    value = await run_in_threadpool(_parse, body) if len(body) > INLINE_PARSE else _parse(body)
    if not isinstance(value, dict):
        raise RouterError(400, "the request body is not a JSON object", "invalid_json")
    return value


async def encode(value: dict, size_hint: int) -> bytes:
    """Serialise a body again (after the router changed it), off the loop when it came in large."""
    if size_hint > INLINE_PARSE:
        return await run_in_threadpool(lambda: json.dumps(value).encode())
    return json.dumps(value).encode()
