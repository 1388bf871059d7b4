"""One model as the supervisor holds it, and the status dict others read (router, status page,
`watch`, state.json): times as ISO 8601 UTC strings, durations in seconds."""

from __future__ import annotations

import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from servebox.deploy.spec import Model
from servebox.serve.engine import EngineProcess
from servebox.serve.incidents import RestartPolicy, iso
from servebox.serve.watch import Verdict, Watcher

READY = ("idle", "busy", "degraded")
ENDED = ("hung", "dead")


@dataclass
class EngineState:
    model: Model
    process: EngineProcess | None  # None: an upstream servebox does not run (its own systemd unit)
    watcher: Watcher
    policy: RestartPolicy
    verdict: Verdict = field(default_factory=lambda: Verdict("stopped", "not started"))
    last_request: float = 0.0
    failed: bool = False
    inflight: int = 0  # requests the router holds open to this engine
    relayed: int = 0  # stream chunks the router relayed from it (progress the router can see)
    ready_at: float | None = None  # epoch seconds of the last time it became ready
    ready_mono: float | None = None  # the same, monotonic (where the start-up phases end)
    last_incident: dict[str, Any] | None = None
    incidents: int = 0
    accounted: int = 0  # the start (EngineProcess.starts) whose end is already recorded or deliberate
    # the supervisor's lock (one lifecycle step at a time); this one serializes polls of this engine
    lock: threading.RLock = field(default_factory=threading.RLock)
    check_lock: threading.Lock = field(default_factory=threading.Lock)
    polls: deque = field(default_factory=lambda: deque(maxlen=1000))  # when each poll began (monotonic)

    @property
    def restarts(self) -> list[float]:
        """Restarts inside the start-limit window (monotonic times)."""
        return self.policy.restarts

    @property
    def phase(self) -> str | None:
        if self.process is None:
            return None
        if self.verdict.state in READY:
            return "ready"
        if self.verdict.state == "starting":
            return self.watcher.phase
        return self.verdict.state

    def describe(self) -> dict[str, Any]:
        """This model's status (a Supervisor.status() value):

        state, reason   the watched state (starting, idle, busy, degraded, hung, dead, restarting,
                        failed, stopped) and why, in words
        phase           start-up phase read from the engine's log (starting, importing, loading weights,
                        profiling, compiling, kv cache, graph capture), "ready" once healthy, else the
                        state; None for an engine run by systemd
        phase_since     when that start-up phase began
        phase_times_s   seconds spent in each phase of the latest start (measured), e.g. {"starting":
                        24.1, "importing": 28.0, "engine core": 44.2, ...}; None for systemd-run engines
        pid, port       the engine's process (None when not running or run by systemd) and port
        managed         True when servebox runs the engine; False: run by systemd (`systemd` True),
                        a passthrough upstream
        started_at      when this start began; ready_at: when it became ready (None before)
        uptime_s        seconds since ready_at (None when not ready)
        restarts        restarts inside the start-limit window; restarts_total: since servebox started
        start_limit     e.g. "5 restarts in 600 s"
        inflight        requests the router holds open to it
        incidents       how many; last_incident: {time, state, reason, action, cause (the diagnosis in
                        one line), diagnosis (the doctor's triage as JSON), ...} or None
        log             the engine's log file
        nodes           a multi-node model's secondary nodes run here: host, address, rank, pid,
                        ended ("running", "killed by SIGKILL", "exited with code 1"), log; else None
        """
        p, st, now = self.process, self, time.time()
        running = p is not None and p.alive()
        ready = st.ready_at is not None and st.verdict.state in READY
        return {
            "state": st.verdict.state,
            "reason": st.verdict.reason,
            "phase": st.phase,
            "phase_since": iso(now - (time.monotonic() - st.watcher.phase_since)) if p else None,
            "phase_times_s": st.watcher.phase_durations(st.ready_mono or time.monotonic())
            if p and p.starts
            else None,
            "pid": p.pid if running else None,
            "restarts": len(st.policy.restarts),
            "restarts_total": st.policy.total,
            "start_limit": f"{st.policy.limit} restarts in {st.policy.window_s:.0f} s",
            "port": st.model.port,
            "managed": p is not None,
            "systemd": p is None,
            "started_at": iso(p.started_wall) if p and p.starts else None,
            "ready_at": iso(st.ready_at) if ready else None,
            "uptime_s": round(now - st.ready_at, 1) if ready else None,
            "inflight": st.inflight,
            "incidents": st.incidents,
            "last_incident": brief(st.last_incident),
            "log": str(p.log_path) if p else None,
            "nodes": [n.describe() for n in p.nodes] if p and p.nodes else None,
        }


def brief(record: dict[str, Any] | None) -> dict[str, Any] | None:
    """An incident without its metrics snapshot (the full record stays in incidents.jsonl)."""
    if record is None:
        return None
    return {k: v for k, v in record.items() if k != "metrics"}
