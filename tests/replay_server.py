"""A small OpenAI-compatible ASGI server (starlette + uvicorn, real HTTP on loopback) that replays
recorded responses, for testing scoring and degeneration classes and the bench's mechanics.

`responses` maps a substring of the user message to (reasoning, content, finish_reason); content
is streamed in small chunks with `delta.content`, reasoning with `delta.reasoning` (or
`reasoning_content` when `old_field` is set, as llama.cpp and SGLang send it). `fail_every=N` answers
every Nth chat request with HTTP 400 (a llama.cpp-shaped error body); `template_tokens` is added to
the prompt tokens usage reports, as a chat template adds them on a real server. `gate` (a threading.Event)
holds every stream after its first piece until the test sets it (at most GATE_S): a router that buffered
the stream would never let the client see that piece, so "not buffered" is proven by causality, not by
timing the arrivals (which a loaded machine bunches together).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import random
import socket
import threading
import time

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, StreamingResponse
from starlette.routing import Route


def content_text(content) -> str:
    """OpenAI message content: a string, or a list of parts ({"type": "text", "text": ...})."""
    if isinstance(content, str):
        return content
    return " ".join(part.get("text", "") for part in content if isinstance(part, dict))


GATE_S = 120.0
_PORTS: list[itertools.cycle] = []


def _port_range() -> range | None:
    """$SERVEBOX_TEST_PORTS ("18600-18699"): the tests take their ports from this range only (a machine
    shared by several test runs gives each its own); unset: any free port the kernel picks."""
    spec = os.environ.get("SERVEBOX_TEST_PORTS", "")
    if not spec:
        return None
    low, _, high = spec.partition("-")
    return range(int(low), int(high or low) + 1)


def free_port() -> int:
    ports = _port_range()
    if ports is None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            return s.getsockname()[1]
    if not _PORTS:  # rotate through the range: a port just released is not handed out again at once
        start = random.randrange(len(ports))
        _PORTS.append(itertools.cycle([*ports[start:], *ports[:start]]))
    for port in itertools.islice(_PORTS[0], len(ports)):
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port in SERVEBOX_TEST_PORTS={os.environ['SERVEBOX_TEST_PORTS']}")


class ReplayServer:
    def __init__(
        self,
        responses: dict[str, tuple[str, str, str]] | None = None,
        old_field: bool = False,
        token_delay_s: float = 0.0,
        chunk_chars: int = 8,
        fail_every: int = 0,
        template_tokens: int = 0,
        fail_in_stream: bool = False,
        gate: threading.Event | None = None,
    ):
        self.gate, self.gate_timed_out = gate, False
        self.fail_every, self.template_tokens, self.fail_in_stream = (
            fail_every,
            template_tokens,
            fail_in_stream,
        )
        self.responses = responses or {}
        self.old_field = old_field
        self.token_delay_s = token_delay_s
        self.chunk_chars = chunk_chars
        self.requests: list[dict] = []
        self.running = 0
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/v1"
        app = Starlette(
            routes=[
                Route("/v1/chat/completions", self.chat, methods=["POST"]),
                Route("/tokenize", self.tokenize, methods=["POST"]),
                Route("/metrics", self.metrics),
                Route("/health", lambda r: PlainTextResponse("")),
            ]
        )
        self.server = uvicorn.Server(
            uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="error", lifespan="off")
        )
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> ReplayServer:
        self.thread.start()
        deadline = time.time() + 10
        while not self.server.started and time.time() < deadline:
            time.sleep(0.02)
        return self

    def __exit__(self, *exc) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)

    def pick(self, text: str) -> tuple[str, str, str]:
        for key, value in self.responses.items():
            if key in text:
                return value
        return "", "Answer: 0", "stop"

    async def tokenize(self, request: Request):
        body = await request.json()
        tokens = body.get("prompt", "").split()
        return JSONResponse({"count": len(tokens), "tokens": list(range(len(tokens)))})

    async def metrics(self, request: Request):
        return PlainTextResponse(
            "# TYPE vllm:num_requests_running gauge\n"
            f'vllm:num_requests_running{{model_name="m"}} {self.running}\n'
            "# TYPE vllm:num_requests_waiting gauge\n"
            'vllm:num_requests_waiting{model_name="m"} 0\n'
            "# TYPE vllm:kv_cache_usage_perc gauge\n"
            f'vllm:kv_cache_usage_perc{{model_name="m"}} {0.1 * self.running}\n'
        )

    async def chat(self, request: Request):
        body = await request.json()
        self.requests.append(body)
        if self.fail_every and len(self.requests) % self.fail_every == 0:
            if self.fail_in_stream:  # llama-server's event when its KV cache fills mid-request (HTTP 200)
                event = {
                    "error": {
                        "code": 500,
                        "message": "Context size has been exceeded.",
                        "type": "server_error",
                    }
                }
                return StreamingResponse(
                    iter([f"data: {json.dumps(event)}\n\n"]), media_type="text/event-stream"
                )
            error = {
                "code": 400,
                "message": "the request exceeds the available context size",
                "type": "exceed_context_size_error",
            }
            return JSONResponse({"error": error}, status_code=400)
        text = " ".join(content_text(m["content"]) for m in body["messages"] if m["role"] == "user")
        reasoning, content, finish = self.pick(text)
        limit = body.get("max_tokens") or body.get("max_completion_tokens")
        if body.get("ignore_eos") and limit:  # bench: exactly max_tokens one-word tokens
            reasoning, content, finish = "", " tok" * limit, "length"
        field = "reasoning_content" if self.old_field else "reasoning"
        step = self.chunk_chars

        async def stream():
            self.running += 1
            try:
                pieces = [(field, reasoning[i : i + step]) for i in range(0, len(reasoning), step)]
                if body.get("ignore_eos"):
                    pieces += [("content", " tok") for _ in range(limit)]
                else:
                    pieces += [("content", content[i : i + step]) for i in range(0, len(content), step)]
                for n, (key, piece) in enumerate(pieces):
                    if self.token_delay_s:
                        await asyncio.sleep(self.token_delay_s)
                    if n == 1 and self.gate is not None:
                        await self._wait_for_gate()
                    yield f"data: {json.dumps({'choices': [{'index': 0, 'delta': {key: piece}, 'finish_reason': None}]})}\n\n"
                yield f"data: {json.dumps({'choices': [{'index': 0, 'delta': {}, 'finish_reason': finish}]})}\n\n"
                prompt = len(text.split()) + self.template_tokens
                usage = {
                    "prompt_tokens": prompt,
                    "completion_tokens": len(pieces),
                    "total_tokens": prompt + len(pieces),
                }
                yield f"data: {json.dumps({'choices': [], 'usage': usage})}\n\n"
                yield "data: [DONE]\n\n"
            finally:
                self.running -= 1

        return StreamingResponse(stream(), media_type="text/event-stream")

    async def _wait_for_gate(self) -> None:
        deadline = time.monotonic() + GATE_S
        while not self.gate.is_set():
            if time.monotonic() > deadline:
                self.gate_timed_out = True
                return
            await asyncio.sleep(0.01)
