"""A streaming OpenAI-compatible client that times what a user sees.

Timers start before the request is queued on the client side; the first token of any kind (TTFT),
the first answer token after the reasoning, and every token's arrival are recorded. The answer is
read from `content`, the reasoning from `reasoning` or `reasoning_content` (vLLM renamed the
field; llama.cpp and SGLang use the old name). Token counts come from the server's `usage`
(`stream_options.include_usage`).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

import httpx


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


def make_client(concurrency: int, timeout_s: float, api_key: str | None = None) -> httpx.AsyncClient:
    """Sized so the client is never the bottleneck: one connection per concurrent request, no pool wait."""
    limits = httpx.Limits(max_connections=concurrency + 4, max_keepalive_connections=concurrency + 4)
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    return httpx.AsyncClient(limits=limits, timeout=httpx.Timeout(timeout_s, connect=10.0), headers=headers)


async def chat(
    client: httpx.AsyncClient, base_url: str, body: dict[str, Any], start: float | None = None
) -> Completion:
    body = {**body, "stream": True, "stream_options": {"include_usage": True}}
    result = Completion(ok=False, start=start if start is not None else time.perf_counter())
    url = base_url.rstrip("/") + ("/chat/completions" if "messages" in body else "/completions")
    try:
        async with client.stream("POST", url, json=body) as response:
            result.status = response.status_code
            if response.status_code != 200:
                result.error = (await response.aread()).decode(errors="replace")[:500]
                result.end = time.perf_counter()
                return result
            async for line in response.aiter_lines():
                if not line.startswith("data:"):
                    continue
                data = line[5:].strip()
                if data == "[DONE]":
                    break
                now = time.perf_counter()
                chunk = json.loads(data)
                if chunk.get("usage"):
                    result.prompt_tokens = chunk["usage"].get("prompt_tokens")
                    result.completion_tokens = chunk["usage"].get("completion_tokens")
                for choice in chunk.get("choices") or []:
                    delta = choice.get("delta") or {}
                    text = delta.get("content") if "messages" in body else choice.get("text")
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
    except (httpx.HTTPError, json.JSONDecodeError) as exc:
        result.error = f"{type(exc).__name__}: {exc}"
    result.end = time.perf_counter()
    return result
