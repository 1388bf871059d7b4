"""The router: one OpenAI-compatible port that routes each request by its `model` to its engine.

A real ASGI stack (starlette on uvicorn, aiohttp to the upstream: it halves the relay's cost against httpx). Streams pass through chunk by
chunk without buffering; a client that disconnects closes the upstream request, so the engine
stops generating for nobody. Unknown model: 404 with the list of models. Engine down: 503 with
the watcher's reason. /metrics exports each engine's watched state for Prometheus.
"""

from __future__ import annotations

import contextlib
import json
import time

import aiohttp
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route

from servebox.serve.supervisor import Supervisor

STATES = ("starting", "idle", "busy", "hung", "dead", "degraded", "restarting", "failed", "stopped")
DOWN = {"dead", "failed", "restarting", "hung"}
HOP_HEADERS = {"content-length", "transfer-encoding", "connection", "keep-alive", "content-encoding"}


def error(status: int, message: str, **extra) -> JSONResponse:
    return JSONResponse(
        {"error": {"message": message, "type": "servebox_router", "code": status, **extra}},
        status_code=status,
    )


def build_app(sup: Supervisor, api_keys: list[str] | None = None) -> Starlette:
    registry = CollectorRegistry()
    state_gauge = Gauge(
        "servebox_engine_state",
        "1 for the engine's current watched state",
        ["model", "state"],
        registry=registry,
    )
    restarts = Gauge(
        "servebox_engine_restarts", "restarts in the current start-limit window", ["model"], registry=registry
    )
    requests_total = Counter(
        "servebox_router_requests", "requests routed", ["model", "code"], registry=registry
    )
    added = Histogram(
        "servebox_router_upstream_seconds",
        "time to the upstream's response headers",
        ["model"],
        registry=registry,
        buckets=(0.001, 0.005, 0.02, 0.1, 0.5, 2, 10, 60),
    )
    keys = set(api_keys or [])
    sessions: dict[str, aiohttp.ClientSession] = {}

    def session() -> aiohttp.ClientSession:  # created inside the server's event loop, on first use
        if "s" not in sessions:
            sessions["s"] = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(limit=512, limit_per_host=256),
                timeout=aiohttp.ClientTimeout(total=None, connect=10.0),
                auto_decompress=False,
            )
        return sessions["s"]

    def authorised(request: Request) -> bool:
        if not keys:
            return True
        header = request.headers.get("authorization", "")
        return header.removeprefix("Bearer ").strip() in keys or request.headers.get("x-api-key") in keys

    async def models(request: Request) -> Response:
        if not authorised(request):
            return error(401, "missing or wrong API key")
        data = [
            {"id": name, "object": "model", "owned_by": "servebox", "state": st.verdict.state}
            for name, st in sup.engines.items()
        ]
        return JSONResponse({"object": "list", "data": data})

    async def proxy(request: Request) -> Response:
        if not authorised(request):
            return error(401, "missing or wrong API key")
        body = await request.body()
        try:
            name = json.loads(body).get("model")
        except (json.JSONDecodeError, AttributeError):
            return error(400, "the request body is not a JSON object")
        st = sup.engines.get(name)
        if st is None:
            requests_total.labels(str(name), "404").inc()
            return error(404, f"unknown model {name!r}", models=sorted(sup.engines))
        if st.process is not None and not st.process.alive() and not st.failed:
            await run_in_threadpool(sup.ensure_running, name)  # on-demand start (and group swap)
        st.last_request = time.monotonic()
        if st.verdict.state in DOWN or st.failed:
            requests_total.labels(name, "503").inc()
            return error(503, f"engine {name} is {st.verdict.state}: {st.verdict.reason}")
        upstream = f"http://127.0.0.1:{st.model.port}{request.url.path}"
        headers = {
            k: v
            for k, v in request.headers.items()
            if k.lower() not in HOP_HEADERS | {"host", "authorization"}
        }
        started = time.perf_counter()
        try:
            response = await session().request("POST", upstream, data=body, headers=headers)
        except (aiohttp.ClientError, TimeoutError) as exc:
            requests_total.labels(name, "503").inc()
            return error(503, f"engine {name} did not answer: {type(exc).__name__}")
        added.labels(name).observe(time.perf_counter() - started)
        requests_total.labels(name, str(response.status)).inc()
        st.inflight += 1

        async def relay():
            try:
                async for chunk in response.content.iter_any():
                    st.relayed += 1
                    yield chunk
            finally:  # runs on completion and when the client disconnects: the upstream request is closed
                st.inflight -= 1
                response.close()

        out_headers = {k: v for k, v in response.headers.items() if k.lower() not in HOP_HEADERS}
        return StreamingResponse(
            relay(),
            status_code=response.status,
            headers=out_headers,
            media_type=response.headers.get("content-type"),
        )

    async def health(request: Request) -> Response:
        states = {name: st.verdict.state for name, st in sup.engines.items()}
        ok = any(s in ("idle", "busy", "degraded") for s in states.values()) or not states
        return JSONResponse(
            {"status": "ok" if ok else "unavailable", "engines": states}, status_code=200 if ok else 503
        )

    async def metrics(request: Request) -> Response:
        for name, st in sup.engines.items():
            for s in STATES:
                state_gauge.labels(name, s).set(1 if st.verdict.state == s else 0)
            restarts.labels(name).set(len(st.restarts))
        return PlainTextResponse(generate_latest(registry).decode(), media_type=CONTENT_TYPE_LATEST)

    async def status(request: Request) -> Response:
        return JSONResponse({"engines": sup.status(), "incidents": sup.incidents()[-20:]})

    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        if "s" in sessions:
            await sessions["s"].close()

    return Starlette(
        routes=[
            Route("/v1/models", models),
            Route("/v1/chat/completions", proxy, methods=["POST"]),
            Route("/v1/completions", proxy, methods=["POST"]),
            Route("/v1/embeddings", proxy, methods=["POST"]),
            Route("/health", health),
            Route("/metrics", metrics),
            Route("/servebox/status", status),
        ],
        lifespan=lifespan,
    )
