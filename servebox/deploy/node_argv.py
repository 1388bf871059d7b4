"""The command line of each node of a model that spans hosts (spec `nodes`).

vLLM runs across nodes itself; servebox only says, per node, what to run. Backend "mp" (vLLM >= 0.11's
own multi-node multiprocessing): every node runs the same `vllm serve` with `--nnodes N --node-rank R
--master-addr HEAD --master-port P`, the head serves the API, the others add `--headless` (vLLM's
entrypoints/cli/serve.py: a headless rank > 0 runs only its workers). Backend "ray": the head runs
`ray start --head` and the engine with `--distributed-executor-backend ray`; the others run
`ray start --address HEAD:P --block`. One box (no `nodes`): the ordinary engine_argv.
"""

from __future__ import annotations

from dataclasses import dataclass

from servebox.deploy.spec import Host, Model, Spec
from servebox.deploy.systemd import engine_argv


@dataclass(frozen=True)
class NodeCommand:
    """What one host runs for MODEL: its rank, and the argv of its processes in start order."""

    host: Host
    rank: int
    head: bool
    commands: list[list[str]]


def node_commands(spec: Spec, model: Model) -> list[NodeCommand]:
    hosts = spec.nodes_of(model)
    if len(hosts) == 1:
        return [NodeCommand(hosts[0], 0, True, [engine_argv(model)])]
    if model.multi_node_backend == "ray":
        return _ray(model, hosts)
    return [NodeCommand(h, r, r == 0, [_mp_argv(model, hosts, r)]) for r, h in enumerate(hosts)]


def _mp_argv(model: Model, hosts: list[Host], rank: int) -> list[str]:
    argv = engine_argv(model) + [
        "--nnodes",
        str(len(hosts)),
        "--node-rank",
        str(rank),
        "--master-addr",
        str(hosts[0].address),
        "--master-port",
        str(model.master_port),
    ]
    return argv + (["--headless"] if rank else [])


def _ray(model: Model, hosts: list[Host]) -> list[NodeCommand]:
    ray = f"{model.venv}/bin/ray" if model.venv else "ray"
    head = [ray, "start", "--head", "--port", str(model.master_port), "--block"]
    engine = engine_argv(model) + ["--distributed-executor-backend", "ray"]
    out = [NodeCommand(hosts[0], 0, True, [head, engine])]
    address = f"{hosts[0].address}:{model.master_port}"
    for rank, host in enumerate(hosts[1:], start=1):
        out.append(NodeCommand(host, rank, False, [[ray, "start", "--address", address, "--block"]]))
    return out
