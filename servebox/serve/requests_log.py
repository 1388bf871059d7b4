"""The router's record of recent requests, for the status page: what each one asked, how it ended, and
its throughput. Tokens come from the engine's own `usage` (or llama.cpp's `timings`), never from counting
stream chunks (engines coalesce tokens into fewer chunks under load). tokens/s is measured end to end at
the router: completion tokens over the time from the request's arrival to its last byte."""

from __future__ import annotations

import time
from collections import deque
from dataclasses import asdict, dataclass


@dataclass
class RequestRecord:
    at: float  # wall-clock arrival (epoch seconds)
    model: str
    path: str
    stream: bool
    status: int = 0
    outcome: str = "in flight"  # ok, engine died, client closed, refused, upstream error
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    ttft_s: float | None = None  # first response byte after arrival
    duration_s: float | None = None
    started: float = 0.0  # monotonic arrival, for the durations

    @property
    def tokens_per_s(self) -> float | None:
        if not self.completion_tokens or not self.duration_s:
            return None
        return self.completion_tokens / self.duration_s

    def first_byte(self) -> None:
        if self.ttft_s is None:
            self.ttft_s = time.monotonic() - self.started

    def finish(self, outcome: str, usage: dict | None = None) -> None:
        if self.duration_s is not None:
            return
        self.duration_s = time.monotonic() - self.started
        self.outcome = outcome
        if usage:
            self.prompt_tokens = usage.get("prompt_tokens", self.prompt_tokens)
            self.completion_tokens = usage.get("completion_tokens", self.completion_tokens)

    def view(self) -> dict:
        out = asdict(self)
        out.pop("started")
        out["tokens_per_s"] = self.tokens_per_s
        return out


class RequestsLog:
    """The last `size` requests, newest last (bounded: the router's memory stays flat under load)."""

    def __init__(self, size: int = 200):
        self.records: deque[RequestRecord] = deque(maxlen=size)

    def open(self, model: str, path: str, stream: bool, keep: bool = True) -> RequestRecord:
        """keep=False: a record nobody lists (tokenizer calls would bury the completions on the page)."""
        record = RequestRecord(
            at=time.time(), model=model, path=path, stream=stream, started=time.monotonic()
        )
        if keep:
            self.records.append(record)
        return record

    def recent(self, limit: int = 50, model: str | None = None) -> list[dict]:
        rows = [r for r in self.records if model is None or r.model == model]
        return [r.view() for r in rows[-limit:]][::-1]
