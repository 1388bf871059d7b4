"""The router's own Prometheus metrics: each engine's watched state and restarts, requests routed by
status, time to the upstream's headers, and how many requests needed the fresh-connection retry."""

from __future__ import annotations

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from starlette.responses import Response

STATES = ("starting", "idle", "busy", "hung", "dead", "degraded", "restarting", "failed", "stopped")


class RouterMetrics:
    def __init__(self, sup, upstream):
        self.sup, self.upstream = sup, upstream
        self.registry = registry = CollectorRegistry()
        self.state = Gauge(
            "servebox_engine_state",
            "1 for the engine's current watched state",
            ["model", "state"],
            registry=registry,
        )
        self.restarts = Gauge(
            "servebox_engine_restarts",
            "restarts in the current start-limit window",
            ["model"],
            registry=registry,
        )
        self.requests = Counter(
            "servebox_router_requests", "requests routed", ["model", "code"], registry=registry
        )
        self.upstream_s = Histogram(
            "servebox_router_upstream_seconds",
            "time to the upstream's response headers",
            ["model"],
            registry=registry,
            buckets=(0.001, 0.005, 0.02, 0.1, 0.5, 2, 10, 60),
        )
        self.retried = Gauge(
            "servebox_router_upstream_retries",
            "requests retried once on a fresh connection after a pooled one was found closed",
            registry=registry,
        )

    def routed(self, model: str, code: int) -> None:
        self.requests.labels(model, str(code)).inc()

    def upstream_seconds(self, model: str, seconds: float) -> None:
        self.upstream_s.labels(model).observe(seconds)

    def render(self) -> Response:
        for name, st in self.sup.engines.items():
            for s in STATES:
                self.state.labels(name, s).set(1 if st.verdict.state == s else 0)
            self.restarts.labels(name).set(len(st.restarts))
        self.retried.set(self.upstream.retries)
        return Response(generate_latest(self.registry), media_type=CONTENT_TYPE_LATEST)
