"""Runs the engines of a spec, watches them, records incidents and restarts with backoff.

Engines the spec marks `run_as_unit = true` run under systemd: servebox only proxies and watches
them. The others are children of servebox, started in the background (the router listens at once
and reports each engine's start-up phase): eagerly, or on first request when they have a TTL,
stopped after the TTL, and never two of one exclusive group at once (a swap, as llama-swap does).
Every death or hang of a managed engine, whoever notices it (the watcher, a request, a crash), is
one incident with the doctor's diagnosis, then a restart under the policy of incidents.py. A model
that spans nodes runs its head here and the secondary nodes on this machine (nodes.py); any node
that ends is the engine's death, and its incident names the node.
"""

from __future__ import annotations

import os
import threading
import time
from collections import deque
from pathlib import Path
from typing import Any

from servebox.deploy.spec import Spec
from servebox.serve.engine import EngineProcess, Spawner
from servebox.serve.engine_state import ENDED, READY, EngineState, brief
from servebox.serve.incidents import (
    IncidentLog,
    RestartPolicy,
    cause_of,
    diagnose,
    incident_record,
    iso,
    summary,
)
from servebox.serve.nodes import plan_nodes
from servebox.serve.runstate import engine_records, write_json_atomically
from servebox.serve.watch import Verdict, Watcher, poll


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
        all_nodes_here: bool = False,
    ):
        self.spec, self.state_dir = spec, state_dir
        self.poll_s, self.probe = poll_s, probe
        self.restart_limit, self.restart_window_s, self.backoff_s = restart_limit, restart_window_s, backoff_s
        self.http_timeout_s = max(2.0, poll_s)  # a frozen engine costs one timeout per poll
        self.on_event = on_event or (lambda text: None)
        self.incidents_path = state_dir / "incidents.jsonl"
        self.state_path = state_dir / "state.json"
        self.engines_path = state_dir / "engines.json"
        self.log = IncidentLog(self.incidents_path)
        self.recent: deque = deque(self.log.read()[-20:], maxlen=20)  # for state.json, without rereading
        self.spawner = Spawner()
        # one lock for every start, stop and incident (a group swap touches two engines: one lock, no
        # lock-order deadlock); polls run outside it
        self.lock = threading.RLock()
        self._state_write_lock = threading.Lock()  # never held while taking self.lock
        self.engines: dict[str, EngineState] = {}
        self.notes: list[str] = []  # nodes left to their own hosts, for `up` to say
        for m in spec.models:
            process = None
            if not m.own_unit:
                head, nodes, elsewhere = plan_nodes(spec, m, state_dir, all_nodes_here, self.spawner)
                self.notes += elsewhere
                log = state_dir / "logs" / f"{m.name}.log"
                process = EngineProcess(m, log, spawner=self.spawner, argv=head, nodes=nodes)
            policy = RestartPolicy(restart_limit, restart_window_s, backoff_s)
            watcher = Watcher(window_s=window_s, cold_start_s=m.cold_start_s, stopped_grace_s=poll_s)
            st = EngineState(m, process, watcher, policy)
            st.lock = self.lock
            if process is None:
                st.verdict = Verdict("starting", "run by systemd: waiting for /health")
            self.engines[m.name] = st
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []

    # ---- lifecycle ----

    def start_eager(self, wait: bool = True) -> None:
        """Start managed engines without a TTL (a group's first member only); with WAIT, until each
        is ready or given up, else in the background (the watch loop follows their start-up)."""
        started_groups: set[str] = set()
        launched = []
        for st in self.engines.values():
            if (
                st.process is None
                or st.model.ttl_s > 0
                or (st.model.group and st.model.group in started_groups)
            ):
                continue
            if st.model.group:
                started_groups.add(st.model.group)
            self._launch(st, "start")
            launched.append(st)
        if wait:
            for st in launched:
                self.wait_settled(st)

    def _start(self, st: EngineState, wait: bool) -> bool:
        self._launch(st, "start")
        return self.wait_settled(st) if wait else True

    def _launch(self, st: EngineState, why: str) -> None:
        assert st.process is not None
        with self.lock:
            # shutting down, or given up (a request that checked `failed` before on_death finished giving up
            # must not start it again): no engine starts
            if self._stop.is_set() or st.failed:
                return
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
                    self._stop_engine(other, Verdict("stopped", f"swapped out for {st.model.name}"))
            st.watcher.reset()
            st.process.start()
            st.ready_at = st.ready_mono = None
            st.verdict = Verdict("starting", "process started")
        self.on_event(f"{st.model.name}: started pid {st.process.pid} ({why}), log {st.process.log_path}")
        for n in st.process.nodes:
            self.on_event(
                f"{st.model.name}: node {n.host.name} (rank {n.rank}) started pid {n.pid}, log {n.log_path}"
            )
        self._record_processes()

    def _stop_engine(self, st: EngineState, verdict: Verdict, grace_s: float = 20.0) -> None:
        """A deliberate stop (TTL, swap, shutdown): not an incident."""
        assert st.process is not None
        with st.lock:
            st.accounted = st.process.starts
            st.verdict = verdict
            st.process.stop(grace_s)

    def wait_settled(self, st: EngineState) -> bool:
        """Until the engine is ready (True) or given up or stopped (False). Bounded: the watcher
        gives each start-up phase the measured cold start, and the start limit ends restarts."""
        while not self._stop.is_set():
            verdict = self.check(st)
            if st.failed or verdict.state in ("stopped", "failed"):
                return False
            if verdict.state in READY:
                return True
            time.sleep(min(self.poll_s, 1.0))
        return False

    def ensure_running(self, name: str) -> Verdict:
        """For the router: start an on-demand engine (and swap its group) before proxying to it; a
        process found dead here is an incident like any other (and its restart counts)."""
        st = self.engines[name]
        st.last_request = time.monotonic()
        if st.process is None or st.failed:
            return st.verdict
        with st.lock:
            if not st.process.alive() and st.verdict.state != "restarting":
                if st.process.proc is not None and st.accounted != st.process.starts:
                    self.on_death(st, Verdict("dead", "the engine process is gone (found by a request)"))
                else:
                    self._launch(st, "request")
        self.wait_settled(st)
        return st.verdict

    def allow_again(self, name: str) -> None:
        """The operator's fresh chance after a give-up: the start limit and the same-cause memory are
        cleared; the next request (or ensure_running) starts the engine."""
        st = self.engines[name]
        with self.lock:
            st.failed = False
            st.policy.restarts.clear()
            st.policy.last_cause = None
            if st.process is not None and st.process.proc is not None:
                st.accounted = st.process.starts
            st.verdict = Verdict("stopped", "allowed again by the operator after giving up")

    def stop_all(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=self.http_timeout_s * 3 + 5)
        stoppers = []
        with self.lock:  # no start can follow (_stop is set): the groups end in parallel, unlocked
            for st in self.engines.values():
                if st.process and st.process.proc is not None:
                    st.accounted, st.verdict = st.process.starts, Verdict("stopped", "servebox stopped")
                    stoppers.append(threading.Thread(target=st.process.stop))
        for thread in stoppers:
            thread.start()
        for thread in stoppers:
            thread.join()
        self.spawner.close()
        self._record_processes()
        self.write_state()

    # ---- watching ----

    def run_watch(self) -> None:
        """One thread per engine (a frozen one must not delay the others' polls), one for the state file.
        Idempotent: a second call while watching does nothing."""
        if any(thread.is_alive() for thread in self._threads):
            return
        for st in self.engines.values():
            self._spawn_thread(self._watch_engine, st)
        self._spawn_thread(self._publish)

    def _spawn_thread(self, target, *args) -> None:
        thread = threading.Thread(target=target, args=args, name="servebox-watch", daemon=True)
        thread.start()
        self._threads.append(thread)

    def _watch_engine(self, st: EngineState) -> None:
        while not self._stop.wait(self.poll_s):
            try:
                self.check(st)
            except Exception as exc:  # a watcher bug must not end the watch
                self.on_event(f"{st.model.name}: watch error {type(exc).__name__}: {exc}")

    def _publish(self) -> None:
        while True:
            try:
                self.write_state()
            except OSError as exc:
                self.on_event(f"state file not written: {exc}")
            if self._stop.wait(self.poll_s):
                return

    def check(self, st: EngineState) -> Verdict:
        with st.check_lock:
            return self._check(st)

    def _check(self, st: EngineState) -> Verdict:
        if st.failed or st.verdict.state in ("stopped", "restarting", "failed"):
            return st.verdict
        managed = st.process is not None
        now = time.monotonic()
        if managed and self._ttl_expired(st, now):
            self.on_event(f"{st.model.name}: idle for {st.model.ttl_s} s (ttl): stopping")
            self._stop_engine(st, Verdict("stopped", "ttl expired"))
            return st.verdict
        if managed and st.verdict.state == "starting" and st.watcher.note_phase(st.process.phase(), now):
            if st.watcher.phase != "ready":  # the log says listening; ready is when /health says so
                self.on_event(f"{st.model.name}: {st.watcher.phase}")
        lost = st.process.lost_node() if managed else None
        if lost is not None:  # the head may answer /health 200 for ever without it (nodes.py)
            st.verdict = Verdict("dead", lost.lost_reason(), {"lost_node": lost.describe()})
            self.on_death(st, st.verdict)
            return st.verdict
        starts = st.process.starts if managed else 0
        alive = st.process.alive() if managed else True
        url = st.process.base_url if managed else f"http://127.0.0.1:{st.model.port}"
        snap = poll(
            url, alive, timeout_s=self.http_timeout_s, probe_model=st.model.name if self.probe else None
        )
        snap.router_inflight, snap.router_relayed = st.inflight, st.relayed
        snap.stopped = st.process.stopped_processes() if managed else {}
        st.polls.append(snap.at)
        previous = st.verdict.state
        verdict = st.watcher.decide(snap, st.process.log_tail(80) if managed else "")
        # a stop, unload, restart or give-up that landed during the poll wins: its verdict stands
        with st.lock:
            landed = st.failed or st.verdict.state in ("stopped", "restarting", "failed")
            if landed or (managed and st.process.starts != starts):
                return st.verdict
            st.verdict = verdict
        if previous == "starting" and verdict.state in READY:
            st.ready_at, st.ready_mono = time.time(), now
            took = now - st.process.started_at if managed else 0.0
            self.on_event(f"{st.model.name}: ready ({took:.0f} s after start, measured)")
        elif verdict.state != previous and verdict.state not in ENDED:
            self.on_event(f"{st.model.name}: {verdict.state} ({verdict.reason})")
        if not managed and verdict.state == "dead" and not st.watcher.ever_healthy:
            verdict.reason = (
                f"no answer on port {st.model.port} {now - st.watcher.started_at:.0f} s after servebox started; "
                f"it is run by systemd: see `systemctl status servebox-{st.model.name}`"
            )
        if verdict.state in ENDED:
            if managed:
                self.on_death(st, verdict)
            elif previous not in ENDED:
                record = self._record(
                    st, verdict, diagnosis=None, action="run by systemd: not restarted by servebox"
                )
                self._publish_incident(st, record)
        return st.verdict

    def _ttl_expired(self, st: EngineState, now: float) -> bool:
        return (
            st.model.ttl_s > 0
            and st.process.alive()
            and st.verdict.state == "idle"
            and st.inflight == 0
            and now - max(st.last_request, st.process.started_at) > st.model.ttl_s
        )

    # ---- incidents and restarts ----

    def on_death(self, st: EngineState, verdict: Verdict) -> None:
        """Record this start's end once (whoever noticed it), then restart or give up."""
        assert st.process is not None
        with st.lock:
            if st.accounted == st.process.starts or st.failed:
                return
            st.accounted = st.process.starts
            diagnosis = diagnose(st.model.name, st.process.log_tail(400))
            action, delay = st.policy.decide(time.monotonic(), cause_of(diagnosis))
            record = self._record(st, verdict, diagnosis, action)
            if delay is None:
                st.verdict = Verdict(
                    "failed", f"{action}: {summary(diagnosis)}; fix it, then start servebox up again"
                )
            else:
                st.verdict = Verdict("restarting", f"{verdict.state}: {verdict.reason}; {action}")
            self._publish_incident(st, record)
            # set after the incident is on disk: whoever waits on `failed` finds its incident there
            st.failed = delay is None
            if delay is None:
                self.on_event(f"{st.model.name}: FAILED, not restarting: {st.verdict.reason}")
                threading.Thread(target=st.process.stop, args=(10.0,), daemon=True).start()
                return
        threading.Thread(target=self._restart, args=(st, delay), daemon=True).start()

    def _record(
        self, st: EngineState, verdict: Verdict, diagnosis: dict | None, action: str
    ) -> dict[str, Any]:
        """The incident's record, counted in the engine's status; published by _publish_incident once the
        engine's verdict after it is set."""
        record = incident_record(st, verdict, diagnosis, action)
        self.recent.append(record)
        st.last_incident, st.incidents = record, st.incidents + 1
        return record

    def _publish_incident(self, st: EngineState, record: dict[str, Any]) -> None:
        """state.json first, then the incident line and the console: whoever reads an incident (a script
        tailing incidents.jsonl, `watch`) finds the state that follows it, never the poll before it
        (measured: a fresh-clone CI read 'busy' from a state file written just before the incident)."""
        try:
            self.write_state()
        except OSError as exc:
            self.on_event(f"state file not written: {exc}")
        self.log.append(record)
        self.on_event(
            f"{st.model.name}: INCIDENT {record['state']}: {record['reason']}; "
            f"diagnosis: {record['cause'] or 'not diagnosed (no log here)'}; {record['action']}"
        )

    def _restart(self, st: EngineState, delay: float) -> None:
        assert st.process is not None
        st.process.stop(10.0)  # a hung engine: woken and ended by group
        if self._stop.wait(delay):
            return
        with st.lock:
            if st.failed or st.verdict.state != "restarting":
                return
            self._launch(st, f"restart {st.policy.total}")

    # ---- what others read ----

    def status(self) -> dict[str, dict[str, Any]]:
        """Each model's state, read-only: for the router's /servebox/status, the status page, `watch`
        and state.json; the keys are documented in EngineState.describe."""
        return {name: st.describe() for name, st in self.engines.items()}

    def snapshot(self) -> dict[str, Any]:
        """What state.json holds: who wrote it, when, every engine's status and the last incidents."""
        return {
            "updated": iso(time.time()),
            "supervisor_pid": os.getpid(),
            "poll_s": self.poll_s,
            "engines": self.status(),
            "incidents": [brief(i) for i in self.recent],
        }

    def write_state(self) -> None:
        """Snapshot and rename under one lock: the publishing thread's older snapshot must not land
        after an incident's newer one."""
        with self._state_write_lock:
            write_json_atomically(self.state_path, self.snapshot())

    def _record_processes(self) -> None:
        """engines.json: each running engine's pid, start time and command line, for a later `up`
        to reclaim (or `down` to verify) after this process died without stopping them."""
        write_json_atomically(self.engines_path, engine_records(self.engines))

    def incidents(self) -> list[dict[str, Any]]:
        return self.log.read()
