"""An engine's process tree, read from /proc: its descendants, and which of the tree are stopped.

vLLM runs its engine core in a child of the API server. Stop that child (SIGSTOP: state T; or a
tracer's stop: t) and the API server still answers /health 200 and /metrics, with counters frozen
at 0 running: measured (fresh-369 draw 4), `servebox up` said "idle" for ever while every request
waited on a core that never ran. Nothing the engine answers over HTTP shows it, with or without
traffic; the kernel does. So each poll reads the state of every process of the engine's tree (the
spawned process and its descendants), one pass over /proc/*/stat: Linux only, as the engines are,
and no extra dependency.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from servebox.serve import procs
from servebox.serve.procs import STOPPED


@dataclass(frozen=True)
class Proc:
    pid: int
    ppid: int
    state: str
    comm: str  # the kernel's 15-byte name: vLLM's core is "VLLM::EngineCor"


def read_stat(pid: int) -> Proc | None:
    """PID's /proc/PID/stat (procs.read_stat), or None when it is gone."""
    if (stat := procs.read_stat(pid)) is None:
        return None
    comm, fields = stat
    return Proc(pid, int(fields[1]), fields[0], comm)


def scan() -> dict[int, Proc]:
    """Every process this user can see, by pid."""
    return {pid: Proc(pid, int(fields[1]), fields[0], comm) for pid, comm, fields in procs.each_stat()}


def descendants(pid: int, table: dict[int, Proc] | None = None) -> list[int]:
    """Every descendant of PID (children, their children...), from TABLE or a fresh scan."""
    table = scan() if table is None else table
    kids: dict[int, list[int]] = {}
    for proc in table.values():
        kids.setdefault(proc.ppid, []).append(proc.pid)
    out, todo = [], [pid]
    while todo:
        for child in kids.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def stopped_in_trees(roots: Iterable[int]) -> dict[int, str]:
    """pid -> name of each stopped process (state T or t) of the trees under ROOTS, roots included."""
    table = scan()
    tree = [pid for root in roots for pid in (root, *descendants(root, table))]
    return {pid: table[pid].comm for pid in tree if pid in table and table[pid].state in STOPPED}
