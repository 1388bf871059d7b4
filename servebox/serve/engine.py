"""One engine process: started in its own process group with its log in a file, its start-up phase
read from that log (from this start's first line on), its readiness from /health, stopped (and
frozen children woken) by group. Its whole group dies with servebox (spawn.py says how). A model that
spans nodes: this is its head, and the secondary nodes run here start and stop with it (nodes.py).
"""

from __future__ import annotations

import os
import re
import subprocess
import threading
import time
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from servebox.deploy.spec import Model
from servebox.deploy.systemd import engine_argv
from servebox.serve.nodes import NodeProcess
from servebox.serve.procs import ProcessId, cmdline, stop_child_group
from servebox.serve.proctree import descendants, stopped_in_trees
from servebox.serve.spawn import Spawner


def load_phases() -> list[tuple[str, re.Pattern]]:
    """Start-up phases in the order the engines log them (data: phases.toml, with its sources)."""
    raw = tomllib.loads(resources.files("servebox.serve").joinpath("phases.toml").read_text())
    return [(p["name"], re.compile(p["pattern"], re.MULTILINE)) for p in raw["phase"]]


PHASES = load_phases()


def read_since(log: Path, offset: int, limit: int) -> str:
    """The log's text from OFFSET (this start's first byte) on, at most its last LIMIT bytes."""
    try:
        with log.open("rb") as handle:
            handle.seek(max(offset, log.stat().st_size - limit))
            return handle.read().decode("utf-8", "replace")
    except OSError:
        return ""


def read_phase(log: Path, offset: int = 0) -> str:
    tail = read_since(log, offset, 256 * 1024)
    phase = "starting"
    for name, pattern in PHASES:
        if pattern.search(tail):
            phase = name
    return phase


@dataclass
class EngineProcess:
    model: Model
    log_path: Path
    extra_env: dict[str, str] = field(default_factory=dict)
    spawner: Spawner | None = None
    proc: subprocess.Popen | None = None
    identity: ProcessId | None = None  # pid + start time + command line, for a later `up` or `down`
    started_at: float = 0.0  # monotonic
    started_wall: float = 0.0  # epoch seconds, for the status page
    log_offset: int = 0  # where this start's lines begin in the log
    starts: int = 0
    argv: list[str] | None = None  # the head's argv of a multi-node model; None: engine_argv
    nodes: list[NodeProcess] = field(default_factory=list)  # secondary nodes run on this machine

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.model.port}"

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc else None

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def start(self) -> None:
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        log = self.log_path.open("ab")
        self.log_offset = log.tell()
        log.write(f"\n==== servebox: starting {self.model.name} (start {self.starts + 1}) ====\n".encode())
        log.flush()
        env = {
            **os.environ,
            "HF_HUB_OFFLINE": "1",
            "VLLM_NO_USAGE_STATS": "1",
            **self.model.env,
            **self.extra_env,
        }
        argv = self.argv or engine_argv(self.model)
        io = {"stdout": log, "stderr": subprocess.STDOUT, "stdin": subprocess.DEVNULL}
        if self.spawner:
            self.proc = self.spawner.engine(argv, env=env, **io)
        else:
            self.proc = subprocess.Popen(argv, env=env, start_new_session=True, **io)
        log.close()
        self.identity = ProcessId.of(self.proc.pid)
        for node in self.nodes:  # after the head: it hosts the rendezvous on the master port
            node.start(env)
        self.started_at, self.started_wall = time.monotonic(), time.time()
        self.starts += 1

    def lost_node(self) -> NodeProcess | None:
        """The first secondary node of this start whose process ended (the engine cannot run without it)."""
        return next((n for n in self.nodes if n.proc is not None and not n.alive()), None)

    def phase(self) -> str:
        return read_phase(self.log_path, self.log_offset)

    def stop(self, grace_s: float = 20.0) -> None:
        """SIGCONT then SIGTERM to the whole group (a SIGSTOPped engine core cannot exit otherwise), then SIGKILL."""
        stoppers = [threading.Thread(target=n.stop, args=(grace_s,)) for n in self.nodes]
        for thread in stoppers:  # every node's grace at once, not one after the other
            thread.start()
        try:
            self._stop_head(grace_s)
        finally:
            for thread in stoppers:
                thread.join()

    def _stop_head(self, grace_s: float) -> None:
        if self.proc is None:
            return
        stop_child_group(self.proc, grace_s)

    def engine_core_pid(self) -> int | None:
        """The vLLM engine-core child (its process title says EngineCore), where a real hang lives."""
        if not self.alive():
            return None
        for pid in descendants(self.proc.pid):
            if "EngineCore" in cmdline(pid):
                return pid
        return None

    def stopped_processes(self) -> dict[int, str]:
        """pid -> name of each stopped process (SIGSTOP: state T) in this start's trees, the head's
        and each node's: a stopped engine core behind a live API server (proctree.py)."""
        procs = [self.proc, *(n.proc for n in self.nodes)]
        return stopped_in_trees(p.pid for p in procs if p is not None and p.poll() is None)

    def log_tail(self, lines: int = 200, this_start: bool = True) -> str:
        """The log's last LINES lines; of this start only unless THIS_START is false (a previous
        run's EngineDeadError must not kill the new one)."""
        text = read_since(self.log_path, self.log_offset if this_start else 0, max(64 * 1024, lines * 1024))
        return "\n".join(text.splitlines()[-lines:])
