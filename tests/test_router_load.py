"""Load through the router to a real llama-server (tools/llama-cpp.sh), loopback only: 500 streams over
50 client connections, none may fail (issue 14 measured 1-11 % of 200 failing with ClientOSError before
the fresh-connection retry). Bounded: short completions of the tiny GGUF. Marked `engine`; skipped,
saying why, where llama-server is not built. Router memory over 2,000 requests: benchmarks/router_load.py."""

from __future__ import annotations

import asyncio

import pytest

from tests.conftest import llama_server
from tests.engine.harness import Router, llama_spec, supervised

pytestmark = pytest.mark.engine


async def one_stream(session, url: str, model: str) -> str | None:
    """None when the stream arrived whole (200, a finish reason, [DONE], no error event), else what failed."""
    import aiohttp

    body = {
        "model": model,
        "messages": [{"role": "user", "content": "hello"}],
        "max_tokens": 6,
        "stream": True,
    }
    try:
        async with session.post(url, json=body) as r:
            text = (await r.read()).decode()
    except aiohttp.ClientError as exc:
        return type(exc).__name__
    if r.status != 200:
        return f"HTTP {r.status}: {text[:120]}"
    if '"error"' in text or "data: [DONE]" not in text or '"finish_reason":"' not in text.replace(" ", ""):
        return f"incomplete stream: {text[-160:]}"
    return None


async def load(url: str, model: str, streams: int, connections: int) -> list[str]:
    import aiohttp

    connector = aiohttp.TCPConnector(limit=connections)
    async with aiohttp.ClientSession(
        connector=connector, timeout=aiohttp.ClientTimeout(total=300)
    ) as session:
        gate = asyncio.Semaphore(connections)

        async def run():
            async with gate:
                return await one_stream(session, url, model)

        results = await asyncio.gather(*(run() for _ in range(streams)))
    return [r for r in results if r]


def test_500_streams_over_50_connections_through_the_router(tiny_gguf, tmp_path):
    binary = llama_server()
    if binary is None:
        pytest.skip("llama-server not built (run tools/llama-cpp.sh, or set SERVEBOX_LLAMA_SERVER)")
    flags = {"ctx-size": 2048, "parallel": 4, "threads": 2, "metrics": True}
    spec = llama_spec(binary, tiny_gguf, flags)
    with supervised(spec, tmp_path / "state", poll_s=1.0, window_s=30) as sup, Router(sup) as router:
        failures = asyncio.run(load(f"{router.url}/v1/chat/completions", "tiny-gguf", 500, 50))
    assert failures == [], f"{len(failures)} of 500 failed, first: {failures[:3]}"
