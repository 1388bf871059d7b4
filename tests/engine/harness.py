"""The shared harness of the tests that run a real engine or a real process.

Why one module: the same waits, request bodies, router and supervised engines were restated in each test
file, each with its own (often too short) bound. Every wait here is for a condition, bounded generously
(a loaded 2-core CI machine is slow, never wrong), and every process started here is ended by PID in
`finally`. Assertions on real engines go through `stream_verdict`: what the stream proves, whatever the
machine's speed or the engine's chunking.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import uvicorn

SERVING = ("idle", "busy")
LONG_S = 400.0  # a vLLM start on a loaded 2-core machine (measured ~70 s quiet, several minutes loaded)


def wait_for(predicate: Callable[[], Any], timeout_s: float = 60.0, step_s: float = 0.2) -> Any:
    """Poll PREDICATE until it is truthy or TIMEOUT_S passed; its last value. An exception counts as
    "not yet" (a page redrawing, a server still binding its port)."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            value = predicate()
        except Exception:  # noqa: BLE001 - any failure to observe is "not yet"
            value = None
        if value or time.monotonic() > deadline:
            return value
        time.sleep(step_s)


def http_ok(url: str, timeout_s: float = 120.0, proc=None) -> bool:
    """Until URL answers 200 (or PROC, when given, has exited)."""

    def ok() -> bool:
        if proc is not None and proc.poll() is not None:
            raise StopIteration
        return httpx.get(url, timeout=5).status_code == 200

    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            if ok():
                return True
        except StopIteration:
            return False
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    return False


def chat_body(
    model: str, max_tokens: int = 16, stream: bool = True, content: str = "Say something.", **extra
):
    """A chat request whose length is fixed by the request (ignore_eos), not by what the model says."""
    return {
        "model": model,
        "messages": [{"role": "user", "content": content}],
        "max_tokens": max_tokens,
        "stream": stream,
        "ignore_eos": True,
        **extra,
    }


def serving_again(st, old: Callable[[], Any], before: Any, timeout_s: float = LONG_S) -> bool:
    """Until the engine serves again from a new process: OLD() (a PID getter) differs from BEFORE."""
    return bool(
        wait_for(lambda: st.verdict.state in SERVING and old() not in (None, before), timeout_s, step_s=0.5)
    )


# ---- streams ----


def read_stream(url: str, body: dict, headers: dict | None = None, on_event=None, timeout_s: float = 300):
    """(status, the `data:` payloads in order). ON_EVENT(payloads) runs after each one arrives."""
    events: list[str] = []
    with httpx.stream("POST", url, json=body, headers=headers, timeout=timeout_s) as r:
        if r.status_code != 200:
            r.read()
            return r.status_code, [r.text]
        for line in r.iter_lines():
            if line.startswith("data:"):
                events.append(line[5:].strip())
                if on_event is not None:
                    on_event(events)
    return 200, events


def finished(events: list[str]) -> bool:
    return any('"finish_reason":"' in e.replace(" ", "") for e in events)


def stream_verdict(events: list[str]) -> str:
    """What a relayed stream proves, asserted whatever the timing: "finished" (a finish reason arrived,
    the stream ends with [DONE], no error event) or "error" (no finish reason: the last event is an error
    in OpenAI's shape and no [DONE] was sent). Never a bare [DONE] after an engine death."""
    assert events, "no event at all"
    if finished(events):
        assert events[-1] == "[DONE]", events[-3:]
        assert not any(e.startswith('{"error"') for e in events), events[-3:]
        return "finished"
    assert "[DONE]" not in events, events[-3:]
    error = json.loads(events[-1])["error"]
    assert error["message"] and "type" in error, error
    return "error"


class Streams:
    """N streamed requests in background threads (daemon: a stream cut by a test never blocks it);
    `started` is set once any of them has received a byte of its answer."""

    def __init__(self, url: str, body: dict, n: int = 1):
        self.started = threading.Event()
        self.results: list[tuple[int, list[str]]] = []
        self.threads = [threading.Thread(target=self._one, args=(url, body), daemon=True) for _ in range(n)]
        for thread in self.threads:
            thread.start()

    def _one(self, url: str, body: dict) -> None:
        try:
            self.results.append(read_stream(url, body, on_event=lambda _: self.started.set()))
        except httpx.HTTPError as exc:  # the connection itself failed: no status, the error's name
            self.results.append((0, [type(exc).__name__]))

    def join(self, timeout_s: float = 300) -> list:
        for thread in self.threads:
            thread.join(timeout_s)
        return self.results


# ---- the router, in this process ----


class Router:
    """servebox's router app on a real uvicorn server in a thread of this process (a free port)."""

    def __init__(self, sup, keys=None, host: str = "127.0.0.1", **options):
        from servebox.serve.router import build_app
        from tests.replay_server import free_port

        self.port = free_port()
        self.app = build_app(sup, keys, **options)
        self.server = uvicorn.Server(uvicorn.Config(self.app, host=host, port=self.port, log_level="error"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.url = f"http://{'[' + host + ']' if ':' in host else host}:{self.port}"

    def __enter__(self) -> Router:
        self.thread.start()
        assert wait_for(lambda: self.server.started or not self.thread.is_alive(), 60, 0.02)
        assert self.server.started, "the router did not start"
        return self

    def __exit__(self, *exc) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)


# ---- supervised engines ----


def llama_spec(binary: str, gguf, flags: dict, name: str = "tiny-gguf", **model):
    """A spec running the real llama-server on the tiny GGUF (a free port)."""
    from servebox.deploy.spec import Spec
    from tests.replay_server import free_port

    entry = {"name": name, "checkpoint": str(gguf), "engine": "llama.cpp", "binary": binary}
    entry |= {"port": free_port(), "cold_start_s": 120, "flags": flags, **model}
    return Spec.model_validate({"models": [entry]})


@contextlib.contextmanager
def supervised(spec, state, watch: bool = True, **options) -> Iterator:
    """A Supervisor with every eager engine started and ready (else the test fails with the log's tail),
    watched when WATCH; stop_all() in `finally`, whatever happened."""
    from servebox.serve.supervisor import Supervisor

    sup = Supervisor(spec, state, **options)
    try:
        sup.start_eager()
        for st in sup.engines.values():
            if st.process is not None and st.process.proc is not None:
                assert st.verdict.state in SERVING, f"{st.verdict}\n{st.process.log_tail(40)}"
        if watch:
            sup.run_watch()
        yield sup
    finally:
        sup.stop_all()
