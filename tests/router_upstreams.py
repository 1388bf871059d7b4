"""A raw-socket HTTP upstream for the router's tests, for the behaviours a real engine cannot be made to
show on demand: closing a pooled keep-alive connection just as the next request arrives (llama-server does
it on its own schedule under load), dropping a stream mid-way, and ending a stream with `data: [DONE]` and
no finish_reason (what vLLM sent when its engine core was restarted under the request, issue 14). It also
records each request's headers, to show what the router forwards. Real engines show the rest elsewhere."""

from __future__ import annotations

import asyncio
import json
import threading

from tests.replay_server import free_port


def event(obj) -> bytes:
    return b"data: " + json.dumps(obj).encode() + b"\n\n"


def chunk(text: str, finish: str | None = None) -> bytes:
    return event(
        {
            "object": "chat.completion.chunk",
            "choices": [{"index": 0, "delta": {"content": text}, "finish_reason": finish}],
        }
    )


def chunked(data: bytes) -> bytes:
    """HTTP/1.1 chunked framing, as uvicorn (vLLM) and llama-server send streams."""
    return b"%x\r\n%s\r\n" % (len(data), data)


class RawUpstream:
    """Behaviour by the first user message: `ok`, `drop` (2 events, then the socket closes), `nofinish`
    (2 events and [DONE], no finish_reason). With close_second, a connection's second request is met by
    a close before any byte (a keep-alive connection the server gave up on)."""

    def __init__(self, close_second: bool = False):
        self.port = free_port()
        self.close_second = close_second
        self.headers: list[dict[str, str]] = []
        self.connections = 0
        self.writers: set[asyncio.StreamWriter] = set()
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> RawUpstream:
        self.thread.start()
        self.ready.wait(10)
        return self

    def __exit__(self, *exc) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        server = self.loop.run_until_complete(asyncio.start_server(self._serve, "127.0.0.1", self.port))
        self.ready.set()
        try:
            self.loop.run_forever()
        finally:
            server.close()
            # keep-alive connections still wait in readuntil: close them so each _serve returns, or their
            # coroutines are collected unfinished (pytest's unraisable-exception warning) with the loop
            for writer in list(self.writers):
                writer.close()
            pending = asyncio.all_tasks(self.loop)
            if pending:
                self.loop.run_until_complete(asyncio.wait(pending, timeout=5))
            self.loop.close()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        self.writers.add(writer)
        served = 0
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                lines = head.decode("latin-1").split("\r\n")
                headers = {
                    k.strip().lower(): v.strip() for k, _, v in (x.partition(":") for x in lines[1:] if x)
                }
                body = await reader.readexactly(int(headers.get("content-length", "0")))
                if self.close_second and served >= 1:
                    return  # closed before any byte of an answer
                self.headers.append(headers)
                served += 1
                if not await self._answer(lines[0], body, writer):
                    return
        except (asyncio.IncompleteReadError, ConnectionError):
            return
        finally:
            self.writers.discard(writer)
            writer.close()

    async def _answer(self, request_line: str, body: bytes, writer: asyncio.StreamWriter) -> bool:
        payload = json.loads(body or b"{}")
        messages = payload.get("messages") or [{"content": "ok"}]
        mode = messages[0].get("content", "ok")
        if not payload.get("stream"):
            data = json.dumps(
                {
                    "choices": [{"message": {"content": "fine"}, "finish_reason": "stop"}],
                    "usage": {"prompt_tokens": 3, "completion_tokens": 2},
                }
            ).encode()
            writer.write(
                b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s"
                % (len(data), data)
            )
            await writer.drain()
            return True
        writer.write(
            b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
        )
        writer.write(chunked(chunk("Hel") + chunk("lo")))
        await writer.drain()
        await asyncio.sleep(0.05)
        if mode == "drop":
            writer.transport.abort()
            return False
        if mode == "ok":
            writer.write(chunked(chunk("", "stop")))
            writer.write(
                chunked(event({"choices": [], "usage": {"prompt_tokens": 3, "completion_tokens": 2}}))
            )
        writer.write(chunked(b"data: [DONE]\n\n") + b"0\r\n\r\n")
        await writer.drain()
        return False
