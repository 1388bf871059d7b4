"""`servebox check`: will this checkpoint load and behave on this engine build and GPU."""

from __future__ import annotations

import typer

from servebox.cli import options
from servebox.cli.app import JSON_OPTION, app, emit_json, out
from servebox.engines.vllm.profile import engine_profile_names
from servebox.errors import InputError


@app.command(context_settings=options.TRAILING_ENGINE_FLAGS)
def check(
    ctx: typer.Context,
    source: str = options.SOURCE_ARGUMENT,
    gpu: str = options.GPU_OPTION,
    engine_profile: str = typer.Option(
        "vllm-0.32", "--engine-profile", help=f"Engine build: {engine_profile_names()}."
    ),
    from_command: str = options.FROM_COMMAND_OPTION,
    metadata_only: bool = typer.Option(
        False,
        "--metadata-only",
        help="The directory is a metadata copy: skip shard sizes and tokenizer files.",
    ),
    env_forces_marlin: bool = typer.Option(
        False, "--env-forces-marlin", help="The engine's environment forces the marlin kernel."
    ),
    nodes: int = options.NODES_OPTION,
    gpus_per_node: int = options.GPUS_PER_NODE_OPTION,
    env: list[str] = options.ENV_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Will this checkpoint load and behave on this engine build and GPU? Findings with evidence; exit 1 on any error.

    Any vLLM serve flag may follow SOURCE, as for `servebox plan`.
    """
    named = options.gguf_from_model_flag(source, ctx.args)
    if named or (source or "").split("@")[0].endswith(".gguf") or engine_profile.startswith("llama.cpp"):
        from servebox.cli.check_llamacpp import check_llamacpp

        source, args = named or (source, ctx.args)
        return check_llamacpp(source, args, gpu, as_json)
    from servebox.check import load_engine_rules, run_check
    from servebox.hardware import get_gpu

    flags, rest, source = options.engine_flags(
        "check", source, ctx.args, from_command, (nodes, gpus_per_node, env)
    )
    if not gpu:
        raise InputError("check", "--gpu", "name a GPU (e.g. --gpu v100-32gb)")
    device, rules = get_gpu(gpu), load_engine_rules(engine_profile)
    ckpt = options.load_safetensors("check", source, "GGUF checks are not implemented")
    report = run_check(ckpt, flags, device, rules, rest, metadata_only, env_forces_marlin)
    if as_json:
        emit_json(report.model_dump(mode="json"))
    else:
        from servebox.report.check_view import show_check

        show_check(report, out)
    if report.errors:
        raise typer.Exit(1)
