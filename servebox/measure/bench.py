"""`servebox bench`: throughput and latency through the client path, with the engine's own view.

Load shapes: a fixed concurrency, a concurrency sweep (1, 2, 4, ... until throughput stops
growing), or Poisson arrivals at a request rate. Every request's timer starts when it is created,
before any client-side waiting, and the HTTP client holds one connection per concurrent request.
While the load runs, the engine's /metrics (running, waiting, KV usage, preemptions) is sampled.
"""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiohttp
from prometheus_client.parser import text_string_to_metric_families
from pydantic import BaseModel

from servebox.errors import InputError
from servebox.measure import bench_defaults as default
from servebox.measure.client import Completion, chat, make_client

ENGINE_GAUGES = {
    "vllm:num_requests_running": "running",
    "vllm:num_requests_waiting": "waiting",
    "vllm:kv_cache_usage_perc": "kv_usage",
    "vllm:num_preemptions_total": "preemptions",
    "vllm:num_preemptions": "preemptions",
    "llamacpp:requests_processing": "running",  # llama-server --metrics
    "llamacpp:requests_deferred": "waiting",
}


def percentiles(values: list[float]) -> dict[str, float | None]:
    if not values:
        return {"p50": None, "p90": None, "p99": None, "mean": None, "std": None}
    ordered = sorted(values)

    def pct(p: float) -> float:
        k = (len(ordered) - 1) * p
        lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
        return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)

    return {
        "p50": pct(0.5),
        "p90": pct(0.9),
        "p99": pct(0.99),
        "mean": statistics.fmean(ordered),
        "std": statistics.pstdev(ordered),
    }


class LevelResult(BaseModel):
    concurrency: int | None
    request_rate: float | None
    requests: int
    errors: int
    duration_s: float
    prompt_tokens: int  # sum of the server's usage.prompt_tokens over completed requests
    completion_tokens: int  # sum of usage.completion_tokens (tokens seen where usage is absent)
    prompt_tokens_mean: float | None  # per request, as the server counted it (chat template included)
    latencies_s: list[float]  # each completed request's end-to-end time
    queue_times_s: list[
        float
    ]  # each completed request's wait for a slot (0 in a closed loop, by construction)
    max_output_tokens_per_s: float  # vLLM's definition: the busiest 1-s bucket of token arrivals
    max_concurrent_requests: int  # vLLM's definition: most requests active in one 1-s bucket
    reconnects: int  # requests sent again because their pooled connection was already closed
    requests_per_s: float
    output_tokens_per_s: float
    total_tokens_per_s: float
    ttft_s: dict[str, float | None]
    ttfat_s: dict[str, float | None]
    tpot_s: dict[str, float | None]
    itl_s: dict[str, float | None]
    e2e_s: dict[str, float | None]
    goodput_per_s: float | None
    engine: dict[str, float | None]
    error_samples: list[str]


async def count_tokens(client: aiohttp.ClientSession, root: str, model: str, text: str) -> int | None:
    """Tokens in TEXT by the server's own /tokenize: vLLM reads `prompt` and answers `count`, llama.cpp
    reads `content` and answers `tokens` (a request it cannot read gives an empty list, not an error)."""
    for body in ({"model": model, "prompt": text}, {"content": text}):
        async with client.post(f"{root}/tokenize", json=body) as r:
            if r.status != 200:
                continue
            reply = await r.json(content_type=None)
        count = reply.get("count") or len(reply.get("tokens") or [])
        if count:
            return count
    return None


async def synthetic_prompt(
    client: aiohttp.ClientSession, base_url: str, model: str, input_tokens: int
) -> tuple[str, str]:
    """A prompt of INPUT_TOKENS tokens by the server's own tokenizer (/tokenize), else by a 4-characters-a-token
    estimate. The server's usage later reports what it really counted (its chat template adds tokens)."""
    words = "the quick brown fox jumps over the lazy dog while servebox measures every token ".split()
    text = " ".join(words[i % len(words)] for i in range(input_tokens))
    root = base_url.rstrip("/").removesuffix("/v1")
    try:
        for _ in range(6):
            count = await count_tokens(client, root, model, text)
            if count is None:
                raise ValueError("no /tokenize")
            if count == input_tokens:
                break
            n = max(1, round(len(text.split()) * input_tokens / count))
            text = " ".join(words[i % len(words)] for i in range(n))
        return text, "server tokenizer (/tokenize)"
    except (aiohttp.ClientError, TimeoutError, ValueError, KeyError):
        return " ".join(
            words[i % len(words)] for i in range(max(1, input_tokens * 3 // 4))
        ), "estimate (no /tokenize)"


# a busy engine (or a loaded machine) may take seconds to answer /metrics; a sample dropped by a short
# timeout left a short level with no engine view at all (running_max None), so the bound is generous
METRICS_TIMEOUT = aiohttp.ClientTimeout(total=30)


async def sample_metrics(
    client: aiohttp.ClientSession, base_url: str, stop: asyncio.Event, samples: list[dict[str, float]]
) -> None:
    root = base_url.rstrip("/").removesuffix("/v1")
    while not stop.is_set():
        try:
            async with client.get(f"{root}/metrics", timeout=METRICS_TIMEOUT) as r:
                text = await r.text() if r.status == 200 else ""
            if text:
                sample: dict[str, float] = {}
                for family in text_string_to_metric_families(text):
                    for s in family.samples:
                        key = ENGINE_GAUGES.get(s.name) or ENGINE_GAUGES.get(s.name.removesuffix("_total"))
                        if key:
                            sample[key] = sample.get(key, 0.0) + s.value
                samples.append(sample)
        except (aiohttp.ClientError, TimeoutError, ValueError):
            pass
        try:
            await asyncio.wait_for(stop.wait(), timeout=0.25)
        except TimeoutError:
            pass


def summarise_level(
    results: list[Completion],
    duration: float,
    concurrency: int | None,
    rate: float | None,
    slo: dict[str, float],
    samples: list[dict[str, float]],
) -> LevelResult:
    ok = [r for r in results if r.ok]
    out_tokens = sum(r.completion_tokens or len(r.token_times) for r in ok)
    in_tokens = sum(r.prompt_tokens or 0 for r in ok)
    good = None
    if slo:
        good = (
            sum(
                1
                for r in ok
                if (r.ttft or 1e9) <= slo.get("ttft_s", 1e9)
                and (r.tpot or 0) <= slo.get("tpot_s", 1e9)
                and r.e2e <= slo.get("e2e_s", 1e9)
            )
            / duration
        )
    engine = {}
    for key in ("running", "waiting", "kv_usage"):
        values = [s[key] for s in samples if key in s]
        engine[f"{key}_max"] = max(values) if values else None
        engine[f"{key}_mean"] = statistics.fmean(values) if values else None
    pre = [s["preemptions"] for s in samples if "preemptions" in s]
    engine["preemptions"] = (pre[-1] - pre[0]) if len(pre) >= 2 else None
    return LevelResult(
        concurrency=concurrency,
        request_rate=rate,
        requests=len(results),
        errors=len(results) - len(ok),
        duration_s=duration,
        prompt_tokens=in_tokens,
        completion_tokens=out_tokens,
        prompt_tokens_mean=(in_tokens / len(counted))
        if (counted := [r for r in ok if r.prompt_tokens])
        else None,
        requests_per_s=len(ok) / duration,
        output_tokens_per_s=out_tokens / duration,
        total_tokens_per_s=(out_tokens + in_tokens) / duration,
        ttft_s=percentiles([r.ttft for r in ok if r.ttft is not None]),
        ttfat_s=percentiles([r.ttfat for r in ok if r.ttfat is not None]),
        tpot_s=percentiles([r.tpot for r in ok if r.tpot is not None]),
        itl_s=percentiles([x for r in ok for x in r.itls]),
        e2e_s=percentiles([r.e2e for r in ok]),
        goodput_per_s=good,
        engine=engine,
        error_samples=error_samples(results),
        latencies_s=[r.e2e for r in ok],
        reconnects=sum(r.reconnects for r in results),
        queue_times_s=[r.queued_s for r in ok],
        **peak_rates(ok),
    )


def peak_rates(ok: list[Completion]) -> dict[str, float | int]:
    """Peak output tokens in one second and peak requests active in one second, in 1-s buckets from the
    first start, as vllm/benchmarks/serve.py computes them (so the two tools' figures compare)."""
    if not ok:
        return {"max_output_tokens_per_s": 0.0, "max_concurrent_requests": 0}
    t0 = min(r.start for r in ok)
    tokens: Counter[int] = Counter(int(t - t0) for r in ok for t in r.token_times)
    active: Counter[int] = Counter(s for r in ok for s in range(int(r.start - t0), int(r.end - t0) + 1))
    return {
        "max_output_tokens_per_s": float(max(tokens.values(), default=0)),
        "max_concurrent_requests": max(active.values()),
    }


def error_samples(results: list[Completion], limit: int = 3) -> list[str]:
    """The distinct failure reasons with their counts, most frequent first ("8x HTTP 400: ...")."""
    reasons = Counter(
        (f"HTTP {r.status}: " if r.status else "") + " ".join((r.error or "no reply").split())[:300]
        for r in results
        if not r.ok
    )
    return [f"{n}x {reason}" for reason, n in reasons.most_common(limit)]


async def run_level(
    base_url: str,
    bodies: list[dict[str, Any]],
    concurrency: int | None,
    rate: float | None,
    slo: dict[str, float],
    api_key: str | None,
    timeout_s: float,
    seed: int = 0,
) -> LevelResult:
    width = concurrency or max(8, int((rate or 1) * 8))
    cap = asyncio.Semaphore(concurrency) if (rate and concurrency) else None

    async def capped(body: dict[str, Any], at: float) -> Completion:
        if cap is None:
            return await chat(client, base_url, body, start=at)
        async with cap:  # the wait for a slot counts: the timer started at the arrival
            queued = time.perf_counter() - at
            done = await chat(client, base_url, body, start=at)
            done.queued_s = queued
            return done

    async with make_client(width, timeout_s, api_key) as client:
        stop, samples = asyncio.Event(), []
        sampler = asyncio.create_task(sample_metrics(client, base_url, stop, samples))
        start = time.perf_counter()
        results: list[Completion] = []
        if rate:
            rng = random.Random(seed)
            tasks = []
            for (
                body
            ) in bodies:  # open loop: the timer starts at the arrival, whatever the client then waits for
                tasks.append(asyncio.create_task(capped(body, time.perf_counter())))
                await asyncio.sleep(rng.expovariate(rate))
            results = list(await asyncio.gather(*tasks))
        else:
            queue = list(bodies)

            async def worker() -> (
                None
            ):  # closed loop: a request starts when its worker sends it, before the HTTP pool
                while queue:
                    body = queue.pop()
                    results.append(await chat(client, base_url, body))

            await asyncio.gather(*(worker() for _ in range(concurrency or 1)))
        duration = time.perf_counter() - start
        stop.set()
        await sampler
    return summarise_level(results, duration, concurrency, rate, slo, samples)


def request_bodies(
    model: str, prompt: str, output_tokens: int, count: int, prompts_file: Path | None
) -> list[dict[str, Any]]:
    prompts = [prompt] * count
    if prompts_file:
        try:
            rows = [json.loads(line) for line in prompts_file.read_text().splitlines() if line.strip()]
        except (OSError, json.JSONDecodeError) as exc:
            raise InputError(str(prompts_file), None, f"not a JSONL file of prompts: {exc}") from None
        texts = [r.get("prompt") or r.get("text") for r in rows if isinstance(r, dict)]
        if not texts or not all(isinstance(t, str) for t in texts):
            raise InputError(str(prompts_file), "prompt", "every line needs a string 'prompt'")
        prompts = [texts[i % len(texts)] for i in range(count)]
    return [
        {
            "model": model,
            "messages": [{"role": "user", "content": p}],
            "max_tokens": output_tokens,
            "min_tokens": output_tokens,
            "ignore_eos": True,
            "temperature": 0.0,
        }
        for p in prompts
    ]


class BenchReport(BaseModel):
    started: str  # ISO 8601, UTC
    url: str
    model: str
    prompt_source: str
    input_tokens: int
    output_tokens: int
    levels: list[LevelResult]


async def run_bench(
    url: str,
    model: str,
    *,
    concurrency: int | None = None,
    sweep_max: int | None = None,
    rate: float | None = None,
    requests: int = default.REQUESTS,
    input_tokens: int = default.INPUT_TOKENS,
    output_tokens: int = default.OUTPUT_TOKENS,
    prompts_file: Path | None = None,
    slo: dict[str, float] | None = None,
    api_key: str | None = None,
    timeout_s: float = default.TIMEOUT_S,
) -> BenchReport:
    started = datetime.now(UTC).isoformat(timespec="seconds")
    async with make_client(2, 30, api_key) as client:
        prompt, source = (
            await synthetic_prompt(client, url, model, input_tokens) if not prompts_file else ("", "file")
        )
    bodies = request_bodies(model, prompt, output_tokens, requests, prompts_file)
    levels: list[LevelResult] = []
    if rate:
        levels.append(await run_level(url, bodies, concurrency, rate, slo or {}, api_key, timeout_s))
    elif sweep_max:
        width = 1
        while width <= sweep_max:
            level = await run_level(url, bodies, width, None, slo or {}, api_key, timeout_s)
            levels.append(level)
            if len(levels) >= 2 and level.output_tokens_per_s < 1.05 * levels[-2].output_tokens_per_s:
                break  # throughput stopped growing
            width *= 2
    else:
        levels.append(await run_level(url, bodies, concurrency or 1, None, slo or {}, api_key, timeout_s))
    return BenchReport(
        started=started,
        url=url,
        model=model,
        prompt_source=source,
        input_tokens=input_tokens,
        output_tokens=output_tokens,
        levels=levels,
    )
