"""The router: one OpenAI-compatible port that routes each request by its `model` to its engine.

A real ASGI stack (starlette on uvicorn, aiohttp to the upstream: it halves the relay's cost against
httpx). It listens at once: a model still loading answers 503 with Retry-After and its start-up phase; a
hung, dead or failed engine gets no traffic (the supervisor's verdict is read on every request); an engine
stopped by its TTL or unloaded is started by the request that needs it, which waits for it as llama-swap's
users expect. Streams pass through event by event (relay.py says how a death mid-stream is told).
"""

from __future__ import annotations

import contextlib
import math
import time

import aiohttp
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from servebox.serve.requests_log import RequestsLog
from servebox.serve.router import pages
from servebox.serve.router.auth import KeyMiddleware, Keys, login
from servebox.serve.router.body import DEFAULT_LIMIT, encode, parse_object, read_body
from servebox.serve.router.control import LOADING, Control
from servebox.serve.router.errors import RouterError, error, from_exception
from servebox.serve.router.metrics import RouterMetrics
from servebox.serve.router.relay import Relay, StreamGuard
from servebox.serve.router.upstream import Upstream, client_headers, upstream_headers
from servebox.serve.supervisor import Supervisor

POSTS = ("/v1/chat/completions", "/v1/completions", "/v1/embeddings", "/tokenize", "/detokenize")
STREAMING = ("/v1/chat/completions", "/v1/completions")


def parse_listen(listen: str) -> tuple[str, int]:
    """`host:port`, `[v6]:port` or `:port` -> (host for uvicorn, port)."""
    host, _, port = listen.rpartition(":")
    return (host.strip("[]") or "127.0.0.1"), int(port)


def restart_delay(sup: Supervisor, st) -> float:
    """The supervisor's next restart backoff (doubling per restart in the window), wherever it keeps it."""
    base = getattr(getattr(st, "policy", None), "backoff_s", getattr(sup, "backoff_s", 0.0))
    return base * 2 ** len(st.restarts)


class Router:
    def __init__(self, sup: Supervisor, api_keys: list[str] | None, max_body_bytes: int):
        self.sup, self.limit = sup, max_body_bytes
        self.keys = Keys(api_keys)
        self.upstream = Upstream()
        self.control = Control(sup)
        self.requests = RequestsLog()
        self.metrics = RouterMetrics(sup, self.upstream)

    def retry_after(self, extra_s: float = 0.0) -> dict:
        """A retry sooner than the watcher's next poll cannot see a new state (derived from poll_s)."""
        return {"Retry-After": str(max(1, math.ceil(2 * self.sup.poll_s + extra_s)))}

    def pick(self, payload: dict, path: str) -> str:
        name = payload.get("model")
        if name is None and path in ("/tokenize", "/detokenize") and len(self.sup.engines) == 1:
            return next(iter(self.sup.engines))  # llama.cpp's bodies name no model
        if not isinstance(name, str):
            raise RouterError(400, "the request names no model (field `model`, a string)", "model_missing")
        if name not in self.sup.engines:
            raise RouterError(
                404, f"unknown model {name[:120]!r}", "model_not_found", models=sorted(self.sup.engines)
            )
        return name

    async def admit(self, name: str) -> None:
        """Raise a 503 unless the engine can take the request now (starting a stopped one first)."""
        st = self.sup.engines[name]
        if name in self.control.held:
            raise RouterError(
                503,
                f"engine {name} was stopped by the operator (POST /servebox/engines/{name}/start)",
                "engine_stopped",
            )
        if st.failed:
            raise RouterError(
                503, f"engine {name} failed: {st.verdict.reason}", "engine_failed", state="failed"
            )
        managed = st.process is not None
        loading = self.control.loading(name)
        if managed and (loading or (not st.process.alive() and st.verdict.state != "restarting")):
            # stopped (TTL, unload, swap, never started) or found dead (the supervisor records that death
            # as an incident and counts the restart): the request starts it and waits, as llama-swap does
            await self.control.load(name)
            if st.failed:
                raise RouterError(
                    503, f"engine {name} failed: {st.verdict.reason}", "engine_failed", state="failed"
                )
        state = st.verdict.state
        if managed and state in LOADING:  # a passthrough upstream may already answer: it is asked
            phase = self.control.phase(name) or state
            raise RouterError(
                503,
                f"model {name} is loading ({phase})",
                "model_loading",
                self.retry_after(),
                state=state,
                phase=phase,
            )
        if state in ("hung", "dead", "failed") or (managed and not st.process.alive()):
            raise RouterError(
                503,
                f"engine {name} is {state}: {st.verdict.reason}",
                "engine_down",
                self.retry_after(restart_delay(self.sup, st)),
                state=state,
            )

    async def proxy(self, request: Request) -> Response:
        path = request.url.path
        body = await read_body(request, self.limit)
        payload = await parse_object(body)
        name = self.pick(payload, path)
        stream = payload.get("stream") is True and path in STREAMING
        record = self.requests.open(name, path, stream, keep=path.startswith("/v1/"))
        try:
            await self.admit(name)
        except RouterError as exc:
            record.status = exc.status
            record.finish("refused")
            self.metrics.routed(name, exc.status)
            raise
        guard = None
        if stream:
            options = payload.get("stream_options")
            wants_usage = isinstance(options, dict) and options.get("include_usage") is True
            guard = StreamGuard(hide_usage=not wants_usage)
            if not wants_usage:  # ask for usage (tokens/s on the page), and drop it before the client sees it
                payload["stream_options"] = {
                    **(options if isinstance(options, dict) else {}),
                    "include_usage": True,
                }
                body = await encode(payload, len(body))
        st = self.sup.engines[name]
        st.last_request = time.monotonic()
        return await self.forward(request, name, body, record, guard)

    async def forward(self, request: Request, name: str, body: bytes, record, guard) -> Response:
        st = self.sup.engines[name]
        url = f"http://127.0.0.1:{st.model.port}{request.url.path}"
        started = time.perf_counter()
        try:
            opened = await self.upstream.request(request.method, url, body, upstream_headers(request.headers))
        except (aiohttp.ClientError, TimeoutError) as exc:
            record.status = 503
            record.finish("upstream error")
            self.metrics.routed(name, 503)
            raise RouterError(
                503,
                f"engine {name} did not answer: {type(exc).__name__}",
                "engine_unreachable",
                self.retry_after(),
            ) from None
        self.metrics.upstream_seconds(name, time.perf_counter() - started)
        record.status = opened.response.status
        self.metrics.routed(name, opened.response.status)
        if guard is not None and not opened.response.headers.get("content-type", "").startswith(
            "text/event-stream"
        ):
            guard = None  # an error answered as JSON to a stream request: relay it as it is
        return Relay(opened, record, guard, st, client_headers(opened.response.headers))

    async def engine_get(self, name: str, path: str) -> Response:
        """A GET proxied to one engine (its own /metrics), for tools that read it through the router."""
        if name not in self.sup.engines:
            raise RouterError(
                404, f"unknown model {name[:120]!r}", "model_not_found", models=sorted(self.sup.engines)
            )
        port = self.sup.engines[name].model.port
        try:
            opened = await self.upstream.request("GET", f"http://127.0.0.1:{port}{path}", None, {})
            try:
                content = await opened.response.read()
            finally:
                await opened.close()
        except (aiohttp.ClientError, TimeoutError) as exc:
            raise RouterError(
                503, f"engine {name} did not answer: {type(exc).__name__}", "engine_unreachable"
            ) from None
        return Response(
            content,
            opened.response.status,
            media_type=opened.response.headers.get("content-type", "text/plain"),
        )


def build_app(
    sup: Supervisor, api_keys: list[str] | None = None, max_body_bytes: int = DEFAULT_LIMIT
) -> Starlette:
    router = Router(sup, api_keys, max_body_bytes)

    async def models(request: Request) -> Response:
        data = [
            {"id": name, "object": "model", "owned_by": "servebox", "state": st.verdict.state}
            for name, st in sup.engines.items()
        ]
        return JSONResponse({"object": "list", "data": data})

    async def health(request: Request) -> Response:
        """Open without a key, so it says only whether some engine can answer: no names, PIDs or ports."""
        states = [st.verdict.state for st in sup.engines.values()]
        ok = any(s in ("idle", "busy", "degraded") for s in states) or not states
        return JSONResponse({"status": "ok" if ok else "unavailable"}, status_code=200 if ok else 503)

    async def metrics(request: Request) -> Response:
        model = request.query_params.get("model")
        if model is not None:
            return await router.engine_get(model, "/metrics")
        return router.metrics.render()

    async def engine_metrics(request: Request) -> Response:
        return await router.engine_get(request.path_params["model"], "/metrics")

    async def ui_login(request: Request) -> Response:
        return await login(request, router.keys)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        await router.upstream.close()

    async def on_router_error(request: Request, exc: RouterError) -> Response:
        return from_exception(exc)

    async def on_http_error(request: Request, exc: HTTPException) -> Response:
        return error(
            exc.status_code, str(exc.detail), "not_found" if exc.status_code == 404 else "bad_method"
        )

    async def on_crash(request: Request, exc: Exception) -> Response:
        return error(500, f"the router failed on this request: {type(exc).__name__}", "router_error")

    app = Starlette(
        routes=[
            Route("/v1/models", models),
            *(Route(path, router.proxy, methods=["POST"]) for path in POSTS),
            Route("/health", health),
            Route("/metrics", metrics),
            Route("/servebox/engines/{model}/metrics", engine_metrics),
            *pages.routes(router),
            Route("/ui/login", ui_login, methods=["GET", "POST"]),
        ],
        lifespan=lifespan,
        exception_handlers={RouterError: on_router_error, HTTPException: on_http_error, Exception: on_crash},
    )
    app.add_middleware(KeyMiddleware, keys=router.keys)
    app.state.router = router
    return app
