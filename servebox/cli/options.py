"""Options `plan` and `check` share: the checkpoint, the GPU, a whole command line, the nodes, the environment.

vLLM's own flags (--tensor-parallel-size, --pipeline-parallel-size, --data-parallel-size, --nnodes, ...)
follow SOURCE like any serve flag; --nodes / --gpus-per-node / --env say what vLLM's flags do not.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

from servebox.engines.vllm.flags import ServeFlags, parse_command, parse_env, parse_flags
from servebox.errors import InputError

if TYPE_CHECKING:
    from servebox.checkpoint.facts import Checkpoint

# the verb's context: any serve flag may follow SOURCE (click passes the ones it does not know on in ctx.args)
TRAILING_ENGINE_FLAGS = {"allow_extra_args": True, "ignore_unknown_options": True}
SOURCE_ARGUMENT = typer.Argument(
    None, help="Checkpoint directory or hub repo id; may come from --from-command instead."
)
GPU_OPTION = typer.Option(None, "--gpu", help="GPU name from the catalog, e.g. h100-80gb, v100-32gb.")
FROM_COMMAND_OPTION = typer.Option(
    None, "--from-command", help='A whole "vllm serve MODEL ..." command line.'
)

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


def gguf_from_model_flag(source: str | None, args: list[str]) -> tuple[str | None, list[str]] | None:
    """`servebox check -m model.gguf ...` (llama-server's own spelling): click takes the first token as SOURCE even
    when it is a flag, so '-m' arrived as the source and the run went to the vLLM branch, refused with an unrelated
    field. When the flags name a .gguf with -m/--model, the flag goes back among them and the source is theirs
    (None here: llama.cpp's branch reads -m); otherwise None, and nothing changes."""
    flags = [source, *args] if source and source.startswith("-") else list(args)
    for i, arg in enumerate(flags):
        name, eq, value = arg.partition("=")
        if name in ("-m", "--model") and (
            value if eq else (flags[i + 1] if i + 1 < len(flags) else "")
        ).endswith(".gguf"):
            return (None if source and source.startswith("-") else source), flags
    return None


def apply_cluster(flags: ServeFlags, nodes: int | None, gpus_per_node: int | None, env: list[str]) -> None:
    """Fold --nodes / --gpus-per-node / --env into the parsed flags (--nodes and --nnodes must agree)."""
    if nodes is not None and flags.nnodes is not None and nodes != flags.nnodes:
        raise InputError("--nodes", None, f"{nodes} but the engine flags say --nnodes {flags.nnodes}")
    flags.nnodes = nodes if nodes is not None else flags.nnodes
    flags.gpus_per_node = gpus_per_node
    flags.env = {**flags.env, **parse_env(env)}


def engine_flags(
    verb: str,
    source: str | None,
    args: list[str],
    from_command: str | None,
    cluster: tuple[int | None, int | None, list[str]],
) -> tuple[ServeFlags, list[str], str]:
    """(flags, flags the planner does not use, the checkpoint): from SOURCE's trailing flags or --from-command,
    with --nodes / --gpus-per-node / --env folded in; SOURCE may come from the command line's model."""
    flags, rest = parse_command(from_command) if from_command else parse_flags(list(args))
    apply_cluster(flags, *cluster)
    source = source or flags.model
    if not source:
        raise InputError(verb, "SOURCE", "name a checkpoint (or give --from-command with a model)")
    return flags, rest, source


def load_safetensors(verb: str, source: str, gguf_note: str, with_template: bool = True) -> Checkpoint:
    """The checkpoint at SOURCE, refused unless it is safetensors: `plan` and `check` model vLLM on those only
    (`gguf_note` says so in the verb's words, e.g. "GGUF planning is not implemented")."""
    from servebox.checkpoint.facts import load_checkpoint

    ckpt = load_checkpoint(source, with_template=with_template)
    if ckpt.facts.kind != "safetensors":
        raise InputError(source, None, f"{verb} models vLLM on safetensors checkpoints; {gguf_note}")
    return ckpt
