"""Is an engine healthy, starting, idle, busy, hung, dead or degraded?

/health alone lies: the digest's engine hung for good (tokens stopped, `num_requests_running`
stayed at 2) while /health still answered. So each poll reads /metrics too, and the verdict comes
from the counters: requests in flight with no growth of generated or prompt tokens nor of
finished requests for longer than the window (the worst prefill) is a hang; a vanished process,
failing health, EngineDeadError in the log, a 5xx from a once-healthy /health (vLLM's answer
when its engine core died under a live API server), or counters that went backwards is a death;
no answer at all (a frozen process: SIGSTOP, a stuck event loop) for longer than the window is a
hang, whatever the engine; so is a process of the engine's tree stopped (state T: SIGSTOP, a tracer)
for longer than a short grace, whatever /health says (vLLM's API server answers 200 over a stopped
engine core: the supervisor reads the tree's states, proctree.py); preemptions climbing or the KV
cache pinned full is degradation. While starting, each start-up phase gets the measured cold start
as its budget: progress resets the clock.
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import asdict, dataclass, field

import httpx
from prometheus_client.parser import text_string_to_metric_families

COUNTERS = ("generation_tokens", "prompt_tokens", "success", "router_relayed")
METRIC_KEYS = {
    "vllm:num_requests_running": "running",
    "vllm:num_requests_waiting": "waiting",
    "vllm:generation_tokens": "generation_tokens",
    "vllm:prompt_tokens": "prompt_tokens",
    "vllm:request_success": "success",
    "vllm:kv_cache_usage_perc": "kv_usage",
    "vllm:num_preemptions": "preemptions",
    # llama.cpp server (--metrics)
    "llamacpp:requests_processing": "running",
    "llamacpp:requests_deferred": "waiting",
    "llamacpp:tokens_predicted_total": "generation_tokens",
    "llamacpp:prompt_tokens_total": "prompt_tokens",
}


@dataclass
class Snapshot:
    at: float
    alive: bool
    health_ok: bool
    metrics_ok: bool = False
    running: float = 0.0
    waiting: float = 0.0
    generation_tokens: float = 0.0
    prompt_tokens: float = 0.0
    success: float = 0.0
    kv_usage: float = 0.0
    preemptions: float = 0.0
    probe_ok: bool | None = None
    health_status: int | None = None  # the HTTP status /health answered with (None: no answer)
    health_timed_out: bool = False  # connected but no answer in time: frozen, not gone
    # what the router saw (when the engine is behind servebox's router): requests it holds open to the
    # engine, and stream chunks it relayed. A request frozen before the engine core scheduled it is not
    # in the engine's own gauges, but it is open in the router.
    router_inflight: float = 0.0
    router_relayed: float = 0.0
    # the engine's processes (the spawned one and its descendants) stopped at this poll: pid -> name;
    # read by the supervisor from /proc (empty where it does not run the engine)
    stopped: dict[int, str] = field(default_factory=dict)

    @property
    def in_flight(self) -> float:
        return max(self.running + self.waiting, self.router_inflight)


def parse_metrics(text: str) -> dict[str, float]:
    values: dict[str, float] = {}
    for family in text_string_to_metric_families(text):
        key = METRIC_KEYS.get(family.name) or METRIC_KEYS.get(family.name.removesuffix("_total"))
        if key is None:
            continue
        total = sum(
            s.value for s in family.samples if not s.name.endswith(("_created", "_bucket", "_sum", "_count"))
        )
        values[key] = values.get(key, 0.0) + total
    return values


def poll(
    base_url: str,
    alive: bool,
    timeout_s: float = 3.0,
    probe_model: str | None = None,
    probe_timeout_s: float = 10.0,
) -> Snapshot:
    snap = Snapshot(at=time.monotonic(), alive=alive, health_ok=False)
    if not alive:
        return snap
    with httpx.Client(timeout=timeout_s) as client:
        try:
            snap.health_status = client.get(f"{base_url}/health").status_code
            snap.health_ok = snap.health_status == 200
        except httpx.TimeoutException:
            snap.health_timed_out = True
            return snap  # a frozen engine would only time out again on /metrics: one wait per poll
        except httpx.HTTPError:
            snap.health_ok = False
        try:
            r = client.get(f"{base_url}/metrics")
            if r.status_code == 200:
                for key, value in parse_metrics(r.text).items():
                    setattr(snap, key, value)
                snap.metrics_ok = True
        except (httpx.HTTPError, ValueError):
            pass
        if probe_model and snap.health_ok:
            try:
                r = client.post(
                    f"{base_url}/v1/completions",
                    json={"model": probe_model, "prompt": "1", "max_tokens": 1},
                    timeout=probe_timeout_s,
                )
                snap.probe_ok = r.status_code == 200
            except httpx.HTTPError:
                snap.probe_ok = False
    return snap


@dataclass
class Verdict:
    state: str  # starting, idle, busy, hung, dead, degraded (the supervisor adds restarting, failed, stopped)
    reason: str
    snapshot: dict = field(default_factory=dict)


@dataclass
class Watcher:
    """Decides an engine's state from successive snapshots (no I/O here: testable with synthetic snapshots)."""

    window_s: float = (
        30.0  # longer than the worst prefill: no progress for this long with work in flight is a hang
    )
    dead_after_failures: int = 3
    cold_start_s: float = 600.0  # the budget of each start-up phase (the measured cold start)
    history: deque = field(default_factory=lambda: deque(maxlen=600))
    ever_healthy: bool = False
    health_failures: int = 0
    started_at: float = field(default_factory=time.monotonic)
    phase: str = "starting"
    phase_since: float = field(default_factory=time.monotonic)
    answered_at: float = field(default_factory=time.monotonic)  # the last poll /health answered
    phases: list = field(default_factory=list)  # (phase, monotonic time it began) of this start
    stopped_grace_s: float = 2.0  # a process stopped this long is a hang (a profiler's pause is shorter)
    stopped_since: dict = field(default_factory=dict)  # pid -> when a poll first saw it stopped

    def reset(self) -> None:
        self.history.clear()
        self.ever_healthy = False
        self.health_failures = 0
        self.started_at = self.phase_since = self.answered_at = time.monotonic()
        self.phase = "starting"
        self.phases = [("starting", self.started_at)]
        self.stopped_since = {}

    def note_phase(self, phase: str, at: float) -> bool:
        """Record the start-up phase read from the log; True when it moved (the clock restarts)."""
        if phase == self.phase:
            return False
        self.phase, self.phase_since = phase, at
        self.phases.append((phase, at))
        return True

    def phase_durations(self, until: float) -> dict[str, float]:
        """Seconds spent in each start-up phase of this start (measured), the last one until UNTIL."""
        marks = [*self.phases, ("", until)]
        return {
            name: round(end - begin, 1) for (name, begin), (_, end) in zip(marks, marks[1:], strict=False)
        }

    def decide(self, snap: Snapshot, log_tail: str = "") -> Verdict:
        self.history.append(snap)
        info = asdict(snap)
        if not snap.alive:
            return Verdict("dead", "the engine process is gone", info)
        if "EngineDeadError" in log_tail or "EngineCore encountered a fatal error" in log_tail:
            return Verdict("dead", "EngineDeadError in the engine's log", info)
        stopped = self._stopped(snap)
        if stopped:
            return Verdict("hung", stopped, info)
        if not snap.health_timed_out:
            self.answered_at = snap.at
        if not snap.health_ok:
            # connected, no answer: frozen (SIGSTOP, a stuck event loop), starting or not; a starting
            # engine refuses connections (vLLM) or answers 503 (llama.cpp), it does not go silent
            if snap.health_timed_out:
                silent = snap.at - self.answered_at
                if silent > self.window_s:
                    return Verdict(
                        "hung",
                        f"no answer from /health for {silent:.0f} s (window {self.window_s:.0f} s): "
                        "the process is frozen",
                        info,
                    )
                if self.ever_healthy:
                    return Verdict("degraded", f"/health did not answer for {silent:.0f} s", info)
            if not self.ever_healthy:
                stuck = snap.at - max(self.phase_since, self.started_at)
                if stuck > self.cold_start_s:
                    return Verdict(
                        "dead",
                        f"no start-up progress for {stuck:.0f} s, still {self.phase!r} "
                        f"(budget {self.cold_start_s:.0f} s per phase: cold_start_s)",
                        info,
                    )
                return Verdict("starting", f"{self.phase} (waiting for /health)", info)
            if snap.health_status is not None and snap.health_status >= 500:
                return Verdict(
                    "dead",
                    f"/health answered {snap.health_status}: the engine behind the API server is gone",
                    info,
                )
            self.health_failures += 1
            if self.health_failures >= self.dead_after_failures:
                return Verdict("dead", f"/health failed {self.health_failures} times in a row", info)
            return Verdict("degraded", "/health failed", info)
        self.ever_healthy, self.health_failures = True, 0
        previous = [s for s in self.history if s.metrics_ok and s is not snap]
        if (
            snap.metrics_ok
            and previous
            and any(getattr(snap, c) < getattr(previous[-1], c) for c in COUNTERS)
        ):
            return Verdict("dead", "engine counters went backwards: the engine restarted underneath", info)
        in_flight = snap.in_flight
        if snap.probe_ok is False:
            return Verdict("hung", "the one-token probe timed out while /health answered", info)
        if in_flight > 0 and (snap.metrics_ok or snap.router_inflight):
            since = self._unchanged_since(snap)
            if since is not None and snap.at - since > self.window_s:
                return Verdict(
                    "hung",
                    f"{in_flight:.0f} request(s) in flight and no token or request finished for "
                    f"{snap.at - since:.0f} s (window {self.window_s:.0f} s)",
                    info,
                )
        window = [s for s in self.history if s.metrics_ok and snap.at - s.at <= self.window_s]
        if len(window) >= 2 and window[-1].preemptions > window[0].preemptions:
            return Verdict(
                "degraded",
                f"{window[-1].preemptions - window[0].preemptions:.0f} preemptions in the last "
                f"{self.window_s:.0f} s: the KV cache is too small for the load",
                info,
            )
        if len(window) >= 3 and all(s.kv_usage >= 0.99 for s in window):
            return Verdict("degraded", "KV cache usage pinned at 100%", info)
        return Verdict("busy" if in_flight > 0 else "idle", f"{in_flight:.0f} request(s) in flight", info)

    def _stopped(self, snap: Snapshot) -> str | None:
        """Why the engine is hung when a process of its tree has been stopped past the grace, else None."""
        self.stopped_since = {pid: self.stopped_since.get(pid, snap.at) for pid in snap.stopped}
        for pid, since in self.stopped_since.items():
            if snap.at - since >= self.stopped_grace_s:
                return (
                    f"engine process {pid} ({snap.stopped[pid]}) is stopped (SIGSTOP?) for "
                    f"{snap.at - since:.0f} s: it runs nothing, whatever /health answers"
                )
        return None

    def _unchanged_since(self, snap: Snapshot) -> float | None:
        """When the progress counters last had the values they have now (while work was in flight)."""
        since = None
        for s in reversed(self.history):
            if not s.metrics_ok:
                continue
            if any(getattr(s, c) != getattr(snap, c) for c in COUNTERS) or s.in_flight == 0:
                break
            since = s.at
        return since
