"""Runs the engines of a spec, watches them, records incidents and restarts with backoff.

Engines that the spec runs as their own systemd units are upstreams only (watched, never
started). The others are children of servebox: started eagerly, or on first request when they
have a TTL, stopped after the TTL, and never two of one exclusive group at once (a swap, as
llama-swap does). A hung or dead engine gets an incident (state, last metrics, the doctor's
diagnosis of its last log lines) and a restart, with exponential backoff, until the start limit.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from servebox.deploy.spec import Model, Spec
from servebox.doctor.triage import Triage
from servebox.serve.engine import EngineProcess
from servebox.serve.watch import Verdict, Watcher, poll


@dataclass
class EngineState:
    model: Model
    process: EngineProcess | None  # None: an upstream servebox does not run (its own systemd unit)
    watcher: Watcher
    verdict: Verdict = field(default_factory=lambda: Verdict("stopped", "not started"))
    restarts: list[float] = field(default_factory=list)
    last_request: float = 0.0
    busy_starting: threading.Lock = field(default_factory=threading.Lock)
    failed: bool = False
    inflight: int = 0  # requests the router holds open to this engine
    relayed: int = 0  # stream chunks the router relayed from it (progress the router can see)


class Supervisor:
    def __init__(
        self,
        spec: Spec,
        state_dir: Path,
        poll_s: float = 2.0,
        window_s: float = 30.0,
        probe: bool = False,
        restart_limit: int = 5,
        restart_window_s: float = 600.0,
        backoff_s: float = 2.0,
        on_event=None,
    ):
        self.spec, self.state_dir = spec, state_dir
        self.poll_s, self.probe = poll_s, probe
        self.restart_limit, self.restart_window_s, self.backoff_s = restart_limit, restart_window_s, backoff_s
        self.on_event = on_event or (lambda text: None)
        self.incidents_path = state_dir / "incidents.jsonl"
        self.engines: dict[str, EngineState] = {}
        for m in spec.models:
            process = None if m.own_unit else EngineProcess(m, state_dir / "logs" / f"{m.name}.log")
            self.engines[m.name] = EngineState(
                m, process, Watcher(window_s=window_s, cold_start_s=m.cold_start_s * 3)
            )
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.lock = threading.RLock()

    # ---- lifecycle ----

    def start_eager(self, wait: bool = True) -> None:
        """Start managed engines without a TTL; a group's first member only."""
        started_groups: set[str] = set()
        for st in self.engines.values():
            if (
                st.process is None
                or st.model.ttl_s > 0
                or (st.model.group and st.model.group in started_groups)
            ):
                continue
            if st.model.group:
                started_groups.add(st.model.group)
            self._start(st, wait)

    def _start(self, st: EngineState, wait: bool) -> bool:
        assert st.process is not None
        with self.lock:
            for other in self.engines.values():  # exclusive groups: swap out the running member
                if (
                    other is not st
                    and other.model.group
                    and other.model.group == st.model.group
                    and other.process
                    and other.process.alive()
                ):
                    self.on_event(
                        f"{other.model.name}: stopping (group {st.model.group} swaps to {st.model.name})"
                    )
                    other.process.stop()
                    other.verdict = Verdict("stopped", f"swapped out for {st.model.name}")
            st.watcher.reset()
            st.process.start()
            st.verdict = Verdict("starting", "process started")
        self.on_event(f"{st.model.name}: started pid {st.process.pid}, log {st.process.log_path}")
        if not wait:
            return True
        ok = st.process.wait_ready(
            st.model.cold_start_s * 3, on_phase=lambda p: self.on_event(f"{st.model.name}: {p}")
        )
        st.verdict = Verdict("idle" if ok else "dead", "ready" if ok else "did not become healthy")
        return ok

    def ensure_running(self, name: str) -> Verdict:
        """For the router: start an on-demand engine (and swap its group) before proxying to it."""
        st = self.engines[name]
        st.last_request = time.monotonic()
        if st.process is None or st.failed:
            return st.verdict
        with st.busy_starting:
            if not st.process.alive():
                self._start(st, wait=True)
        return st.verdict

    def stop_all(self) -> None:
        self._stop.set()
        if self._thread:
            self._thread.join(timeout=self.poll_s * 3 + 5)
        for st in self.engines.values():
            if st.process and st.process.alive():
                st.process.stop()

    # ---- watching ----

    def run_watch(self) -> None:
        self._thread = threading.Thread(target=self._loop, name="servebox-watch", daemon=True)
        self._thread.start()

    def _loop(self) -> None:
        while not self._stop.wait(self.poll_s):
            for st in list(self.engines.values()):
                try:
                    self.check(st)
                except Exception as exc:  # a watcher bug must not stop the watch of the other engines
                    self.on_event(f"{st.model.name}: watch error {type(exc).__name__}: {exc}")

    def check(self, st: EngineState) -> Verdict:
        if st.failed or st.busy_starting.locked():
            return st.verdict
        managed = st.process is not None
        if managed and not st.process.alive() and st.verdict.state in ("stopped",):
            return st.verdict
        if (
            managed
            and st.model.ttl_s > 0
            and st.process.alive()
            and st.verdict.state == "idle"
            and time.monotonic() - max(st.last_request, st.process.started_at) > st.model.ttl_s
        ):
            self.on_event(f"{st.model.name}: idle for {st.model.ttl_s} s (ttl): stopping")
            st.process.stop()
            st.verdict = Verdict("stopped", "ttl expired")
            return st.verdict
        alive = st.process.alive() if managed else True
        url = st.process.base_url if managed else f"http://127.0.0.1:{st.model.port}"
        snap = poll(url, alive, probe_model=st.model.name if self.probe else None)
        snap.router_inflight, snap.router_relayed = st.inflight, st.relayed
        tail = st.process.log_tail(80) if managed else ""
        verdict = st.watcher.decide(snap, tail)
        if verdict.state != st.verdict.state:
            self.on_event(f"{st.model.name}: {verdict.state} ({verdict.reason})")
        st.verdict = verdict
        if managed and verdict.state in ("hung", "dead"):
            self.incident(st, verdict)
        return verdict

    def incident(self, st: EngineState, verdict: Verdict) -> None:
        assert st.process is not None
        triage = Triage(f"log of {st.model.name}")
        triage.feed((st.process.log_tail(400) + "\n").encode())
        diagnosis = triage.result()
        record: dict[str, Any] = {
            "time": time.time(),
            "model": st.model.name,
            "state": verdict.state,
            "reason": verdict.reason,
            "metrics": verdict.snapshot,
            "diagnosis": diagnosis.model_dump(mode="json"),
        }
        now = time.monotonic()
        st.restarts = [t for t in st.restarts if now - t < self.restart_window_s]
        if len(st.restarts) >= self.restart_limit:
            st.failed = True
            st.verdict = Verdict(
                "failed", f"{len(st.restarts)} restarts in {self.restart_window_s:.0f} s: giving up"
            )
            record["action"] = "gave up (start limit)"
        else:
            delay = self.backoff_s * 2 ** len(st.restarts)
            record["action"] = f"restart after {delay:.0f} s"
            st.restarts.append(now)
        self.state_dir.mkdir(parents=True, exist_ok=True)
        with self.incidents_path.open("a") as handle:
            handle.write(json.dumps(record, default=str) + "\n")
        self.on_event(f"{st.model.name}: INCIDENT {verdict.state}: {verdict.reason}; {record['action']}")
        if st.failed:
            st.process.stop()
            return
        threading.Thread(target=self._restart, args=(st, delay), daemon=True).start()

    def _restart(self, st: EngineState, delay: float) -> None:
        assert st.process is not None
        with st.busy_starting:
            st.verdict = Verdict("restarting", "incident")
            st.process.stop()
            time.sleep(delay)
            self._start(st, wait=True)

    def status(self) -> dict[str, Any]:
        return {
            name: {
                "state": st.verdict.state,
                "reason": st.verdict.reason,
                "pid": st.process.pid if st.process else None,
                "restarts": len(st.restarts),
                "port": st.model.port,
                "managed": st.process is not None,
            }
            for name, st in self.engines.items()
        }

    def incidents(self) -> list[dict[str, Any]]:
        if not self.incidents_path.exists():
            return []
        return [json.loads(line) for line in self.incidents_path.read_text().splitlines() if line.strip()]
