"""Errors in OpenAI's shape, as responses and as SSE events: clients (the OpenAI SDKs, llama-swap users'
tools) read `error.message`, `error.type` and `error.code`, never a plain-text 500."""

from __future__ import annotations

import json

from starlette.responses import JSONResponse


class RouterError(Exception):
    """A refusal with its HTTP status, raised anywhere in a request's handling and answered as JSON."""

    def __init__(self, status: int, message: str, code: str, headers: dict | None = None, **extra):
        super().__init__(message)
        self.status, self.message, self.code = status, message, code
        self.headers, self.extra = headers or {}, extra


def error_type(status: int) -> str:
    if status == 401:
        return "authentication_error"
    if status == 404:
        return "not_found_error"
    if status < 500:
        return "invalid_request_error"
    return "server_error"


def error_body(status: int, message: str, code: str, **extra) -> dict:
    return {"error": {"message": message, "type": error_type(status), "param": None, "code": code, **extra}}


def error(status: int, message: str, code: str = "router_error", headers: dict | None = None, **extra):
    return JSONResponse(error_body(status, message, code, **extra), status_code=status, headers=headers)


def from_exception(exc: RouterError) -> JSONResponse:
    return error(exc.status, exc.message, exc.code, exc.headers, **exc.extra)


def sse_error(message: str, code: str) -> bytes:
    """One SSE event carrying an error (what OpenAI's SDKs raise from, mid-stream)."""
    return b"data: " + json.dumps(error_body(500, message, code)).encode() + b"\n\n"
