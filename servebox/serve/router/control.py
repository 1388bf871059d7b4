"""What the operator sees and presses: each engine's view (state, start-up phase, uptime, restarts, last
incident with its diagnosis, measured memory beside the planned figure), its log tail, and start, stop and
unload. `stop` holds an engine down until `start`; `unload` frees it until the next request loads it again
(as a TTL expiry does). Reads `Supervisor.status()` and fills in what an older supervisor does not report."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from starlette.concurrency import run_in_threadpool

from servebox.serve.engine import read_phase
from servebox.serve.proctree import descendants
from servebox.serve.watch import Verdict

LOADING = ("starting", "restarting")


def rss_bytes(pid: int | None) -> int | None:
    """Resident memory of an engine's whole process tree (measured from /proc; vLLM runs its core in a child)."""
    if pid is None:
        return None
    total = 0
    for p in [pid, *descendants(pid)]:
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
        except (OSError, ValueError, IndexError):
            continue
    return total


def diagnosis_summary(diagnosis: Any) -> dict:
    """The doctor's result in a line or two: the first diagnosis's cause and fix, else the last error line."""
    if not isinstance(diagnosis, dict):
        return {"verdict": None, "cause": str(diagnosis) if diagnosis else None, "fix": None}
    found = diagnosis.get("diagnoses") or []
    if found and isinstance(found[0], dict):
        return {
            "verdict": diagnosis.get("verdict"),
            "cause": found[0].get("cause"),
            "fix": found[0].get("fix"),
        }
    lines = diagnosis.get("last_error_lines") or []
    last = lines[-1].get("text") if lines and isinstance(lines[-1], dict) else None
    return {
        "verdict": diagnosis.get("verdict") or diagnosis.get("cause"),
        "cause": last,
        "fix": diagnosis.get("fix"),
    }


def incident_view(record: dict | None) -> dict | None:
    if not record:
        return None
    return {
        "time": record.get("time"),
        "state": record.get("state"),
        "reason": record.get("reason"),
        "action": record.get("action"),
        "diagnosis": diagnosis_summary(record.get("diagnosis")),
    }


class Control:
    def __init__(self, sup):
        self.sup = sup
        self.held: set[str] = set()  # stopped by the operator: no on-demand start until `start`
        self.loads: dict[str, asyncio.Future] = {}

    def phase(self, name: str, base: dict | None = None) -> str | None:
        st = self.sup.engines[name]
        if base and base.get("phase"):
            return base["phase"]
        if st.verdict.state in LOADING and st.process is not None:
            return read_phase(st.process.log_path)
        return None

    def engine_view(self, name: str, base: dict, incidents: list[dict]) -> dict:
        st = self.sup.engines[name]
        proc = st.process
        alive = proc.alive() if proc else None
        uptime = base.get("uptime_s")
        if uptime is None and alive:
            uptime = time.monotonic() - proc.started_at
        last = base.get("last_incident") or next(
            (i for i in reversed(incidents) if i.get("model") == name), None
        )
        planned = base.get("planned_gib", getattr(st.model, "planned_gib", None))
        return {
            **base,
            "state": base.get("state", st.verdict.state),
            "reason": base.get("reason", st.verdict.reason),
            "phase": self.phase(name, base),
            "engine": st.model.engine,
            "managed": proc is not None,
            "alive": alive,
            "pid": proc.pid if proc and alive else None,
            "uptime_s": uptime,
            "restarts": base.get("restarts", len(st.restarts)),
            "inflight": st.inflight,
            "held": name in self.held,
            "last_incident": incident_view(last),
            "memory": {
                "measured_bytes": rss_bytes(proc.pid) if alive else None,
                "measured_what": "resident memory of the engine's process tree (measured, /proc)",
                "planned_gib": planned,
                "limit_gib": st.model.memory_max_gib,
            },
        }

    def status(self) -> dict:
        base = self.sup.status()
        incidents = self.sup.incidents()
        engines = {name: self.engine_view(name, base.get(name, {}), incidents) for name in self.sup.engines}
        return {"engines": engines, "incidents": incidents[-20:]}

    def loading(self, name: str) -> bool:
        """A start that a request or the start button began is still under way."""
        task = self.loads.get(name)
        return task is not None and not task.done()

    async def load(self, name: str) -> Verdict:
        """Start an engine (swapping its group) in a worker thread; concurrent callers share one start."""
        task = self.loads.get(name)
        if task is None or task.done():
            task = asyncio.ensure_future(run_in_threadpool(self.sup.ensure_running, name))
            self.loads[name] = task
        return await asyncio.shield(task)

    def start(self, name: str) -> None:
        st = self.sup.engines[name]
        self.held.discard(name)
        if st.failed:  # the operator's start is a fresh chance after the start limit
            st.failed = False
            st.restarts.clear()
            st.verdict = Verdict("stopped", "started by the operator after giving up")
        if st.process is not None and not st.process.alive():
            self.loads[name] = asyncio.ensure_future(run_in_threadpool(self.sup.ensure_running, name))

    def stop(self, name: str, hold: bool) -> None:
        """Blocking (the engine gets its grace period): call from a worker thread."""
        st = self.sup.engines[name]
        if hold:
            self.held.add(name)
        verdict = Verdict("stopped", "stopped by the operator" if hold else "unloaded by the operator")
        deliberate = getattr(self.sup, "_stop_engine", None)
        if deliberate is not None:  # the supervisor's own deliberate stop: not an incident
            deliberate(st, verdict)
            return
        # an older supervisor: its watcher skips an engine while busy_starting is held (no false death);
        # a start in progress holds it for minutes, so stop anyway after a second
        lock = st.busy_starting
        locked = lock.acquire(timeout=1.0)
        try:
            if st.process is not None:
                st.process.stop()
            st.verdict = verdict
        finally:
            if locked:
                lock.release()
