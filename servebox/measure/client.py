"""A streaming OpenAI-compatible client that times what a user sees.

Timers start before the request is queued on the client side; the first token of any kind (TTFT),
the first answer token after the reasoning, and every token's arrival are recorded. The answer is
read from `content`, the reasoning from `reasoning` or `reasoning_content` (vLLM renamed the
field; llama.cpp and SGLang use the old name). Token counts come from the server's `usage`
(`stream_options.include_usage`). An `error` event inside the stream (llama.cpp sends one, with HTTP
200, when its context fills mid-request) fails the request.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

import aiohttp


@dataclass
class Completion:
    ok: bool
    status: int = 0
    error: str | None = None
    content: str = ""
    reasoning: str = ""
    finish_reason: str | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    start: float = 0.0
    queued_s: float = 0.0
    reconnects: int = 0  # sent again after the pooled connection turned out closed (see chat)
    stale_connection: bool = (
        False  # waiting for a concurrency slot after arriving (Poisson arrivals with a cap)
    )
    first_token: float | None = None
    first_answer_token: float | None = None
    end: float = 0.0
    token_times: list[float] = field(default_factory=list)

    @property
    def ttft(self) -> float | None:
        return None if self.first_token is None else self.first_token - self.start

    @property
    def ttfat(self) -> float | None:
        return None if self.first_answer_token is None else self.first_answer_token - self.start

    @property
    def e2e(self) -> float:
        return self.end - self.start

    @property
    def itls(self) -> list[float]:
        return [b - a for a, b in zip(self.token_times, self.token_times[1:], strict=False)]

    @property
    def tpot(self) -> float | None:
        n = self.completion_tokens or len(self.token_times)
        if self.first_token is None or n < 2:
            return None
        return (self.end - self.first_token) / (n - 1)


def stream_error(error: object) -> str:
    """The error event's code and message (llama.cpp: {"code": 500, "message": ..., "type": ...})."""
    if isinstance(error, dict):
        return f"stream error {error.get('code', '')}: {error.get('message', error)}".replace(" :", ":")
    return f"stream error: {error}"


def make_client(concurrency: int, timeout_s: float, api_key: str | None = None) -> aiohttp.ClientSession:
    """Sized so the client is never the bottleneck: one connection per concurrent request, no pool wait.
    aiohttp, the client vLLM's own serving benchmark uses, drives about twice the requests per second of
    httpx on these machines (benchmarks/bench_client_overhead.py)."""
    connector = aiohttp.TCPConnector(limit=concurrency + 4, ttl_dns_cache=300)
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    timeout = aiohttp.ClientTimeout(total=timeout_s, connect=10.0)
    return aiohttp.ClientSession(connector=connector, timeout=timeout, headers=headers)


async def chat(
    client: aiohttp.ClientSession, base_url: str, body: dict[str, Any], start: float | None = None
) -> Completion:
    """One streamed request. A pooled connection the server already closed fails before the server
    reads a byte (llama-server advertises keep-alive, then closes the connection after every streamed
    response: aiohttp's "Can not write request body"); that request is sent once more on a fresh
    connection, its timer still running from the first attempt, and counted in `reconnects`."""
    result = Completion(ok=False, start=start if start is not None else time.perf_counter())
    await _chat_once(client, base_url, body, result)
    if result.stale_connection:
        result.reconnects, result.error, result.stale_connection = 1, None, False
        fresh = aiohttp.TCPConnector(force_close=True)  # a new connection, never a pooled one
        async with aiohttp.ClientSession(
            connector=fresh, timeout=client.timeout, headers=client.headers
        ) as once:
            await _chat_once(once, base_url, body, result)
    return result


async def _chat_once(
    client: aiohttp.ClientSession, base_url: str, body: dict[str, Any], result: Completion
) -> None:
    body = {**body, "stream": True, "stream_options": {"include_usage": True}}
    chat_api = "messages" in body
    url = base_url.rstrip("/") + ("/chat/completions" if chat_api else "/completions")
    try:
        async with client.post(url, json=body) as response:
            result.status = response.status
            if response.status != 200:
                result.error = (await response.read()).decode(errors="replace")[:500]
                result.end = time.perf_counter()
                return
            buffer = b""
            async for raw in response.content.iter_any():
                buffer += raw
                *lines, buffer = buffer.split(b"\n")
                now = time.perf_counter()
                for line in lines:
                    if not line.startswith(b"data:"):
                        continue
                    data = line[5:].strip()
                    if data == b"[DONE]":
                        continue
                    chunk = json.loads(data)
                    if chunk.get(
                        "error"
                    ):  # llama.cpp reports a failure as an event inside an HTTP 200 stream
                        result.error = stream_error(chunk["error"])
                        result.end = time.perf_counter()
                        return
                    if chunk.get("usage"):
                        result.prompt_tokens = chunk["usage"].get("prompt_tokens")
                        result.completion_tokens = chunk["usage"].get("completion_tokens")
                    for choice in chunk.get("choices") or ():
                        delta = choice.get("delta") or {}
                        text = delta.get("content") if chat_api else choice.get("text")
                        thought = delta.get("reasoning") or delta.get("reasoning_content")
                        if text or thought:
                            result.token_times.append(now)
                            if result.first_token is None:
                                result.first_token = now
                        if thought:
                            result.reasoning += thought
                        if text:
                            result.content += text
                            if result.first_answer_token is None:
                                result.first_answer_token = now
                        if choice.get("finish_reason"):
                            result.finish_reason = choice["finish_reason"]
        result.ok = True
    except (aiohttp.ClientOSError, aiohttp.ServerDisconnectedError) as exc:
        result.error = f"{type(exc).__name__}: {exc}"
        result.stale_connection = result.status == 0  # nothing came back: the server never saw it
    except (aiohttp.ClientError, TimeoutError, json.JSONDecodeError) as exc:
        result.error = f"{type(exc).__name__}: {exc}"
    result.end = time.perf_counter()
