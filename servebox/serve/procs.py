"""Which process is which: identities that survive PID reuse, and who holds a port.

A PID alone names a process only while it lives; after a crash the number may belong to anything
(`down` once killed an unrelated process that way). So servebox records each process it starts as
PID + start time (field 22 of /proc/PID/stat, in clock ticks since boot) + command line, and signals
a recorded PID only when all three still match. Read from /proc: Linux only, as the engines are.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path


@dataclass(frozen=True)
class ProcessId:
    pid: int
    start_ticks: int
    cmdline: str

    @classmethod
    def of(cls, pid: int) -> ProcessId | None:
        """The live process PID as it is now, or None when there is none (or it is a zombie)."""
        stat = _stat(pid)
        if stat is None or stat[0] == "Z":
            return None
        return cls(pid, int(stat[19]), cmdline(pid))

    @classmethod
    def from_dict(cls, data: dict) -> ProcessId | None:
        try:
            return cls(int(data["pid"]), int(data["start_ticks"]), str(data["cmdline"]))
        except (KeyError, TypeError, ValueError):
            return None

    def to_dict(self) -> dict:
        return asdict(self)

    def alive(self) -> bool:
        """The very process recorded, still running (not a later one that reused the PID)."""
        return ProcessId.of(self.pid) == self


STOPPED = ("T", "t")  # stopped by a signal (SIGSTOP, SIGTSTP...), stopped by a tracer (ptrace)


def read_stat(pid: int) -> tuple[str, list[str]] | None:
    """/proc/PID/stat: the command name (it may hold spaces and parentheses) and the fields after it, [state, ppid,
    pgrp, ...]; None when the process is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (OSError, ValueError):
        return None
    head, _, rest = text.rpartition(")")
    fields = rest.split()
    return (head.partition("(")[2], fields) if len(fields) >= 2 else None


def _stat(pid: int) -> list[str] | None:
    """Fields of /proc/PID/stat after the command name: [state, ppid, pgrp, ...]."""
    stat = read_stat(pid)
    return None if stat is None else stat[1]


def cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return ""


def each_stat() -> Iterator[tuple[int, str, list[str]]]:
    """(pid, comm, fields after comm) of every process this user can see: one pass over /proc/*/stat."""
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (stat := read_stat(int(entry.name))) is not None:
            yield int(entry.name), *stat


def process_group(pgid: int) -> list[int]:
    """Every live process whose process group is PGID (an engine and the children it spawned)."""
    return [pid for pid, _, fields in each_stat() if fields[0] != "Z" and int(fields[2]) == pgid]


def end_group(leader: ProcessId, grace_s: float = 10.0) -> str:
    """SIGCONT + SIGTERM, then SIGKILL, to the process group a recorded leader started: "ended";
    "gone" when nothing of it runs; "not ours" (nothing signalled) when another process now runs
    under the leader's PID. A dead leader's group may live on (orphans): the kernel never reuses a
    PID that names a live group, so those are its own."""
    current = ProcessId.of(leader.pid)
    if current is not None and current != leader:
        return "not ours"
    if not process_group(leader.pid):
        return "gone"
    for sig in (signal.SIGCONT, signal.SIGTERM):
        _killpg(leader.pid, sig)
    deadline = time.monotonic() + grace_s
    while time.monotonic() < deadline and process_group(leader.pid):
        time.sleep(0.2)
    _killpg(leader.pid, signal.SIGKILL)
    return "ended"


def stop_child_group(proc: subprocess.Popen, grace_s: float = 20.0) -> None:
    """A child we started in its own session, with everything it spawned (vLLM's workers): SIGCONT (a
    frozen one must see the TERM) + SIGTERM, up to GRACE_S for the child to end, then SIGKILL to the group."""
    for sig in (signal.SIGCONT, signal.SIGTERM):
        _killpg(proc.pid, sig)
    try:
        proc.wait(timeout=grace_s)
    except subprocess.TimeoutExpired:
        pass
    _killpg(proc.pid, signal.SIGKILL)
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        pass


def _killpg(pgid: int, sig: int) -> None:
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def port_holder(port: int) -> int | None:
    """The PID listening on TCP PORT (any address), from /proc/net/tcp{,6} and the fd tables; None if free."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if len(fields) > 9 and fields[3] == "0A" and int(fields[1].rsplit(":", 1)[1], 16) == port:
                inodes.add(fields[9])
    if not inodes:
        return None
    targets = {f"socket:[{i}]" for i in inodes}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            for fd in (entry / "fd").iterdir():
                if os.readlink(fd) in targets:
                    return int(entry.name)
        except OSError:
            continue
    return -1  # held, by a process this user cannot see
