"""Incidents: what is written down when an engine dies or hangs, and whether it is restarted.

Every death counts, whoever notices it (the watcher, a request that found the process gone, a
crash): one record per start of the engine, with the doctor's diagnosis of that start's log. The
restart policy is systemd's start limit (N restarts in a window, then give up) plus one rule a
constant backoff cannot express: the same diagnosed cause twice in a row is deterministic (an OOM
at the same phase, a missing library), so restarting again only repeats it.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from servebox.doctor.triage import Triage


def iso(epoch: float | None) -> str | None:
    """Epoch seconds as an ISO 8601 UTC time (what people and the status page read)."""
    if epoch is None:
        return None
    return datetime.fromtimestamp(epoch, UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def diagnose(model: str, log_text: str) -> dict[str, Any]:
    """The doctor's triage of the engine's log (this start's lines), as JSON."""
    triage = Triage(f"log of {model}")
    triage.feed((log_text + "\n").encode())
    return triage.result().model_dump(mode="json")


def cause_of(diagnosis: dict[str, Any]) -> str | None:
    """The id of the diagnosed cause, or None when the log names no known cause."""
    if diagnosis.get("verdict") != "cause found":
        return None
    found = next((d["id"] for d in diagnosis["diagnoses"] if d["role"] == "cause"), None)
    # a kill from outside (learn41b: vLLM's own report of its dead engine now answers it) is no cause a restart repeats
    return None if found == "engine-killed-from-outside" else found


def summary(diagnosis: dict[str, Any]) -> str:
    """One line for the console: the cause and its fix, or the last error line, or that nothing matched."""
    diagnoses = diagnosis.get("diagnoses") or []
    if diagnoses:
        top = diagnoses[0]
        # a symptom says where to look, not why; a note (an asked-for stop) says what else it saw
        if top["role"] != "cause":
            return f"no known cause; {top['role']}: {top['cause']}"
        return f"{top['cause']} (fix: {top['fix']})"
    lines = diagnosis.get("last_error_lines") or []
    if lines:
        return f"no known cause; last error line: {lines[-1]['text'][:200]}"
    return "no known cause in the log"


@dataclass
class RestartPolicy:
    limit: int = 5  # restarts allowed within the window (systemd's StartLimitBurst)
    window_s: float = 600.0  # (StartLimitIntervalSec)
    backoff_s: float = 2.0  # first delay; doubles with each restart in the window
    restarts: list[float] = field(default_factory=list)  # monotonic times of restarts in the window
    total: int = 0
    last_cause: str | None = None

    def decide(self, now: float, cause: str | None) -> tuple[str, float | None]:
        """(action, delay): restart after DELAY seconds, or give up (delay None) and say why."""
        self.restarts = [t for t in self.restarts if now - t < self.window_s]
        # in a row: the previous incident is still inside the window (a cause seen again days later is news)
        repeated = cause is not None and cause == self.last_cause and bool(self.restarts)
        self.last_cause = cause
        if repeated:
            return f"gave up (same cause twice in a row: {cause})", None
        if len(self.restarts) >= self.limit:
            return f"gave up (start limit: {len(self.restarts)} restarts in {self.window_s:.0f} s)", None
        delay = self.backoff_s * 2 ** len(self.restarts)
        self.restarts.append(now)
        self.total += 1
        return f"restart after {delay:g} s", delay


class IncidentLog:
    """incidents.jsonl in the state directory: one JSON object per incident, appended."""

    def __init__(self, path: Path):
        self.path = path

    def append(self, record: dict[str, Any]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a") as handle:
            handle.write(json.dumps(record, default=str) + "\n")

    def read(self) -> list[dict[str, Any]]:
        try:
            text = self.path.read_text()
        except OSError:
            return []
        out = []
        for line in text.splitlines():
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError:  # a line cut by a crash mid-write
                continue
        return out


def incident_record(st: Any, verdict: Any, diagnosis: dict | None, action: str) -> dict[str, Any]:
    """One incident's line in incidents.jsonl: the engine's state, the verdict that ended its start, the
    doctor's diagnosis of that start's log and the action taken; for a model across nodes, each node and
    the one that was lost, with its last lines (the head's own lines beside them)."""
    now = time.time()
    process = st.process
    record: dict[str, Any] = {
        "time": iso(now),
        "model": st.model.name,
        "state": verdict.state,
        "reason": verdict.reason,
        "action": action,
        "pid": process.pid if process else None,
        "start": process.starts if process else None,
        "up_s": round(now - st.ready_at, 1) if st.ready_at else None,
        "restarts_total": st.policy.total,
        "cause": summary(diagnosis) if diagnosis else None,
        "metrics": verdict.snapshot,
        "diagnosis": diagnosis,
    }
    if process and process.nodes:
        lost = process.lost_node()
        record["nodes"] = [n.describe() for n in process.nodes]
        record["lost_node"] = {**lost.describe(), "last_lines": lost.last_lines(12)} if lost else None
        record["head_last_lines"] = process.log_tail(12).splitlines()
    return record
