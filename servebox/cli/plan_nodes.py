"""`servebox plan SPEC.toml` for models that span [[hosts]]: each planned per rank and per node.

The head node's own command line (deploy/node_argv.py: the `vllm serve` every node runs, with --nnodes) is
parsed as `plan --from-command` would; the GPUs per node are the head host's `gpus` (or the model's `gpus`),
and the model's `env` is the engine's environment (VLLM_PP_LAYER_PARTITION among it). Single-box models of
the same spec keep the model-sets view (`plan SPEC` without multi-node models).
"""

from __future__ import annotations

import shlex
from pathlib import Path

import typer

from servebox.cli.app import emit_json, out
from servebox.errors import InputError


def _node_gpu(path: str, spec, model) -> tuple[str, int]:
    """The GPU name all of MODEL's nodes share, and how many each gives it."""
    hosts = spec.nodes_of(model)
    for h in hosts:
        if not h.gpus:
            raise InputError(
                path, f"hosts.{h.name}.gpus", "list the node's GPUs to plan a model across nodes"
            )
    kinds = {g for h in hosts for g in h.gpus}
    if len(kinds) > 1:
        raise InputError(
            path,
            f"models.{model.name}.nodes",
            f"nodes with different GPUs ({', '.join(sorted(kinds))}): not modelled",
        )
    per_node = len(model.gpus) or len(hosts[0].gpus)
    return kinds.pop(), per_node


def plan_model(path: str, spec, model, explain: bool):
    """The plan of one multi-node model, from its head node's command line."""
    from servebox.checkpoint.facts import load_checkpoint
    from servebox.deploy.node_argv import node_commands
    from servebox.engines.vllm.flags import parse_command
    from servebox.engines.vllm.profile import resolve_engine
    from servebox.hardware import get_gpu
    from servebox.plan import make_plan

    if model.engine != "vllm":
        raise InputError(path, f"models.{model.name}.engine", "across nodes: only vLLM is planned")
    gpu, per_node = _node_gpu(path, spec, model)
    head = node_commands(spec, model)[0].commands[-1]
    flags, _ = parse_command(shlex.join(head))
    flags.gpus_per_node = per_node
    flags.nnodes = flags.nnodes or len(spec.nodes_of(model))
    flags.env = dict(model.env)
    ckpt = load_checkpoint(model.checkpoint, with_template=False)
    profile, build = resolve_engine(model.engine_profile, None)
    return make_plan(ckpt, flags, get_gpu(gpu), profile, build=build)


def plan_spec_nodes(path: str, as_json: bool, explain: bool) -> bool:
    """Plan the spec's multi-node models; False when it has none (the model-sets view answers instead)."""
    from servebox.deploy.spec import load_spec

    spec = load_spec(Path(path))
    multi = [m for m in spec.models if len(spec.nodes_of(m)) > 1]
    if not multi:
        return False
    plans = [(m, plan_model(path, spec, m, explain)) for m in multi]
    others = [m.name for m in spec.models if m not in multi]
    if as_json:
        emit_json(
            {
                "models": [
                    {"name": m.name, "hosts": [h.name for h in spec.nodes_of(m)], **p.model_dump(mode="json")}
                    for m, p in plans
                ],
                "single_box_models": others,
            }
        )
    else:
        from servebox.report.plan_view import show_plan

        for m, p in plans:
            hosts = ", ".join(f"{r}: {h.name}" for r, h in enumerate(spec.nodes_of(m)))
            out.print(f"[bold]model {m.name}[/bold] across nodes ({hosts})", highlight=False)
            show_plan(p, out, explain)
        if others:
            out.print(
                f"single-box models ({', '.join(others)}): plan a spec without multi-node models for their sets"
            )
    if not all(p.fits for _, p in plans):
        raise typer.Exit(1)
    return True
