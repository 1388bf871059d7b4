"""What a running `servebox up` leaves in its state directory, and how the next one reads it.

up.json names the `up` process (pid, start time, command line: see procs.py), engines.json each
engine it runs, state.json every engine's status, rewritten atomically each poll (what `watch`
shows while `up` runs). After a crash these files outlive their processes: a later `up` or `down`
tells a live record from a stale one by the recorded identity, never by the PID alone, cleans the
stale one and ends the engines the dead `up` left behind, so their ports come back.
"""

from __future__ import annotations

import json
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from servebox.serve.procs import ProcessId, cmdline, end_group, port_holder


def write_json_atomically(path: Path, data: Any) -> None:
    """Write to a sibling temporary file, then rename: a reader sees the old or the new, never half."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    tmp.write_text(json.dumps(data, default=str, indent=1))
    os.replace(tmp, path)


def read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


@dataclass
class RunState:
    state_dir: Path

    @property
    def up_path(self) -> Path:
        return self.state_dir / "up.json"

    @property
    def engines_path(self) -> Path:
        return self.state_dir / "engines.json"

    @property
    def state_path(self) -> Path:
        return self.state_dir / "state.json"

    def running_up(self) -> ProcessId | None:
        """The `up` process up.json names, if that very process still runs."""
        record = read_json(self.up_path)
        identity = ProcessId.from_dict(record) if isinstance(record, dict) else None
        return identity if identity and identity.alive() else None

    def recorded_pid(self) -> int | None:
        record = read_json(self.up_path)
        return record.get("pid") if isinstance(record, dict) else None

    def claim(self, listen: str) -> None:
        """up.json for this process: who runs `up` here, and where its router listens."""
        me = ProcessId.of(os.getpid())
        write_json_atomically(
            self.up_path, {**me.to_dict(), "listen": listen, "state_dir": str(self.state_dir)}
        )

    def release(self) -> None:
        self.up_path.unlink(missing_ok=True)
        self.engines_path.unlink(missing_ok=True)

    def clean_stale(self) -> list[str]:
        """Remove a stale up.json and end the engines its dead `up` left running; what was done, in lines."""
        done = []
        if self.up_path.exists() and self.running_up() is None:
            done.append(
                f"removed a stale {self.up_path} (pid {self.recorded_pid()} is not that servebox up anymore)"
            )
            self.up_path.unlink(missing_ok=True)
        records = read_json(self.engines_path)
        for name, data in (records or {}).items() if isinstance(records, dict) else ():
            leader = ProcessId.from_dict(data)
            if leader is None:
                continue
            outcome = end_group(leader)
            if outcome == "not ours":
                done.append(f"{name}: pid {leader.pid} now runs something else: left alone")
            elif outcome == "ended":
                done.append(
                    f"{name}: ended the engine a previous run left (pid {leader.pid}, port {data.get('port')})"
                )
        self.engines_path.unlink(missing_ok=True)
        return done


def busy_ports(ports: dict[int, str]) -> list[str]:
    """For each port (-> what needs it) that some process already listens on: one line naming it."""
    lines = []
    for port, what in ports.items():
        pid = port_holder(port)
        if pid is None:
            continue
        holder = f"pid {pid} ({cmdline(pid)[:120]})" if pid > 0 else "a process of another user"
        lines.append(f"port {port} ({what}) is held by {holder}")
    return lines


def engine_records(engines: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """engines.json's content: each running engine's (and each of its live nodes') identity and port."""
    records = {
        name: {**st.process.identity.to_dict(), "port": st.model.port}
        for name, st in engines.items()
        if st.process and st.process.identity and st.process.alive()
    }
    for name, st in engines.items():  # a later `up` ends a dead one's nodes as well
        for n in st.process.nodes if st.process else []:
            if n.identity and n.alive():
                records[f"{name}:{n.host.name}"] = {**n.identity.to_dict(), "port": None}
    return records
