"""Options `plan` and `check` share: the nodes a model spans and the engine's environment.

vLLM's own parallel flags (--tensor-parallel-size, --pipeline-parallel-size, --data-parallel-size, --nnodes)
follow SOURCE like any serve flag; these say what vLLM's flags do not: how many GPUs each node has.
"""

from __future__ import annotations

import typer

from servebox.engines.vllm.flags import ServeFlags, parse_env
from servebox.errors import InputError

NODES_OPTION = typer.Option(
    None,
    "--nodes",
    help="Nodes the model spans (vLLM's --nnodes); default: as many as --gpus-per-node needs.",
)
GPUS_PER_NODE_OPTION = typer.Option(
    None, "--gpus-per-node", help="GPUs on each node (default: the world size / nodes)."
)
ENV_OPTION = typer.Option(
    [], "--env", help="NAME=VALUE of the engine's environment, e.g. VLLM_PP_LAYER_PARTITION=27,27,26."
)


def apply_cluster(flags: ServeFlags, nodes: int | None, gpus_per_node: int | None, env: list[str]) -> None:
    """Fold --nodes / --gpus-per-node / --env into the parsed flags (--nodes and --nnodes must agree)."""
    if nodes is not None and flags.nnodes is not None and nodes != flags.nnodes:
        raise InputError("--nodes", None, f"{nodes} but the engine flags say --nnodes {flags.nnodes}")
    flags.nnodes = nodes if nodes is not None else flags.nnodes
    flags.gpus_per_node = gpus_per_node
    flags.env = {**flags.env, **parse_env(env)}
