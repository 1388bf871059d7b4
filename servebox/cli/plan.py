"""`servebox plan`: what the engine will report at start-up, before the cold start."""

from __future__ import annotations

from pathlib import Path

import typer

from servebox.cli import options
from servebox.cli.app import JSON_OPTION, app, emit_json, out
from servebox.engines.vllm.profile import engine_profile_names
from servebox.errors import InputError
from servebox.units import GiB


@app.command(context_settings=options.TRAILING_ENGINE_FLAGS)
def plan(
    ctx: typer.Context,
    source: str = options.SOURCE_ARGUMENT,
    gpu: str = options.GPU_OPTION,
    gpu_memory_gib: float = typer.Option(
        None, "--gpu-memory-gib", help="Total GPU memory as torch reports it, instead of --gpu."
    ),
    vllm_version: str = typer.Option(
        None,
        "--vllm-version",
        help="vLLM release whose behaviour to model (an upstream build; default 0.32.0).",
    ),
    engine_profile: str = typer.Option(
        None, "--engine-profile", help=f"Engine build as `check` names it: {engine_profile_names()}."
    ),
    weights_gib: float = typer.Option(
        None, "--weights-gib", help="Weights per rank in GiB, for a folder without weights (or to override)."
    ),
    require_kv_tokens: int = typer.Option(
        None, "--require-kv-tokens", help="Exit 1 unless the KV cache holds at least N tokens."
    ),
    require_concurrency: str = typer.Option(
        None, "--require-concurrency", help="C@L: exit 1 unless C requests of L tokens fit at once."
    ),
    from_command: str = options.FROM_COMMAND_OPTION,
    activation_gib: float = typer.Option(
        None, "--activation-gib", help="Measured activation peak, instead of the estimate."
    ),
    non_torch_gib: float = typer.Option(
        None, "--non-torch-gib", help="Measured non-torch memory, instead of the assumption."
    ),
    cudagraph_gib: float = typer.Option(
        None, "--cudagraph-gib", help="Measured CUDA-graph pool, instead of the estimate."
    ),
    explain: bool = typer.Option(False, "--explain", help="Show the arithmetic."),
    calibrate: str = typer.Option(
        None, "--calibrate", help="A real vLLM startup log: print predicted vs reported figures."
    ),
    save: bool = typer.Option(
        False, "--save", help="With --calibrate: keep what the log measured for later plans."
    ),
    calibration_dir: str = typer.Option(
        None,
        "--calibration-dir",
        help="Where calibrations live (default $XDG_DATA_HOME/servebox/calibrations).",
    ),
    html_path: str = typer.Option(
        None, "--html", help="Write an HTML report (memory bar, concurrency curve) to this file."
    ),
    engine: str = typer.Option(None, "--engine", help="vllm (default) or llama.cpp (default for a .gguf)."),
    compare: tuple[str, str] | None = typer.Option(
        None, "--compare", help="A.json B.json: two `plan --json` files side by side (with --html)."
    ),
    nodes: int = options.NODES_OPTION,
    gpus_per_node: int = options.GPUS_PER_NODE_OPTION,
    env: list[str] = options.ENV_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """What vLLM will log at startup: weights, KV memory, KV tokens, concurrency, the largest context that fits.

    Any vLLM serve flag may follow SOURCE (--tensor-parallel-size, --gpu-memory-utilization,
    --max-model-len N|auto, --kv-cache-dtype, --speculative-config JSON, ...).
    """
    if compare and compare[0] is not None:
        from servebox.cli.plan_compare import compare_plans

        return compare_plans(compare, html_path, as_json, [source, *ctx.args])
    named = options.gguf_from_model_flag(source, ctx.args) if engine in (None, "llama.cpp") else None
    if named:
        source, ctx.args = named
    if (
        engine == "llama.cpp"
        or named
        or (engine is None and (source or "").split("@")[0].endswith((".gguf", ".toml")))
    ):
        from servebox.cli.plan_llamacpp import plan_llamacpp, plan_spec

        if (source or "").endswith(".toml"):
            from servebox.cli.plan_nodes import plan_spec_nodes

            if plan_spec_nodes(source, as_json, explain):
                return None
            return plan_spec(source, as_json)
        return plan_llamacpp(source, ctx.args, gpu, gpu_memory_gib, as_json, explain, calibrate)
    from servebox.engines.vllm.profile import resolve_engine
    from servebox.hardware import custom_gpu, get_gpu
    from servebox.plan import make_plan

    flags, rest, source = options.engine_flags(
        "plan", source, ctx.args, from_command, (nodes, gpus_per_node, env)
    )
    if gpu_memory_gib:
        device = custom_gpu(gpu_memory_gib)
    elif gpu:
        device = get_gpu(gpu)
    else:
        raise InputError("plan", "--gpu", "name a GPU (e.g. --gpu h100-80gb) or pass --gpu-memory-gib")
    ckpt = options.load_safetensors("plan", source, "GGUF planning is not implemented", with_template=False)
    profile, build = resolve_engine(engine_profile, vllm_version)
    if save and not calibrate:
        raise InputError("plan", "--save", "needs --calibrate LOG (the start-up log to learn from)")
    cal_dir = Path(calibration_dir) if calibration_dir else None
    given = (activation_gib, non_torch_gib, cudagraph_gib)

    def planned(terms, weights=weights_gib):
        return make_plan(ckpt, flags, device, profile, *terms, weights_gib=weights, build=build)

    result = planned(given)
    key = f"{build}:{profile.matched}"
    calibrated = None if calibrate else _calibrated_terms(ckpt, flags, device, key, cal_dir, given, result)
    if calibrated is not None:
        from servebox.engines.vllm.calibration import describe, relabel

        terms = (calibrated.activation_gib, calibrated.non_torch_gib, calibrated.cudagraph_gib)
        result = planned(terms, weights_gib if weights_gib is not None else calibrated.weights_gib)
        relabel(result, describe(calibrated), calibrated.notes)
    from servebox.check.flag_rules import options_file, refused_flags, unchecked_flags
    from servebox.plan import check_requirements

    # a flag this vLLM does not know stops `vllm serve` before it plans anything: the plan would not happen
    listed = options_file(engine_profile, vllm_version)
    refused = refused_flags(flags.written, listed)
    unchecked = unchecked_flags(flags.written, listed, engine_profile or f"vLLM {vllm_version}")
    unmet = check_requirements(result, require_kv_tokens, require_concurrency)
    comparison = saved = None
    if calibrate:
        from servebox.engines.vllm.logs import read_startup_figures
        from servebox.plan import compare_with_log

        figures = read_startup_figures(Path(calibrate))
        comparison = compare_with_log(result, figures)
        if save:
            saved = _save_calibration(
                figures, result, ckpt, flags, device, profile, key, Path(calibrate), cal_dir
            )
    if html_path:
        from servebox.report.html import write_plan_html

        write_plan_html(result, Path(html_path))
    if as_json:
        dumped = result.model_dump(mode="json")
        data = {
            "calibration_status": dumped.pop("calibration_status"),
            **dumped,
        }  # the honesty line comes first
        if comparison is not None:
            data["calibration"] = comparison
        if calibrated is not None:
            data["calibrated_from"] = calibrated.source.log
        if saved is not None:
            data["calibration_saved"] = str(saved)
        data["requirements_unmet"] = unmet
        data["flags_refused"] = refused
        data["flags_unchecked"] = unchecked
        emit_json(data)
    else:
        from servebox.report.plan_view import show_calibration, show_plan

        show_plan(result, out, explain)
        if comparison is not None:
            show_calibration(comparison, out)
        if saved is not None:
            out.print(f"calibration saved: {saved}", highlight=False)
        for line in unmet:
            out.print(f"[red]requirement not met:[/red] {line}", highlight=False)
        for line in refused:
            out.print(f"[red]vLLM refuses the flag:[/red] {line}", highlight=False)
        for line in unchecked:
            out.print(f"[yellow]passed on to vLLM unchecked:[/yellow] {line}", highlight=False)
    if not result.fits or unmet or refused:
        raise typer.Exit(1)


def _calibrated_terms(ckpt, flags, device, key, cal_dir, given, estimate):
    """A saved calibration for this model, GPU and profile, carried to these flags (None if none or overridden)."""
    if any(v is not None for v in given):
        return None
    from servebox.engines.vllm.calibration import lookup, terms_for

    tp_pp = flags.tensor_parallel_size * flags.pipeline_parallel_size
    cal = lookup(ckpt, device.name, device.total_bytes / GiB, key, tp_pp, cal_dir)
    return terms_for(cal, estimate) if cal else None


def _save_calibration(figures, result, ckpt, flags, device, profile, key, log, cal_dir) -> Path:
    from servebox.engines.vllm.calibration import batch_shape, from_log, save

    tokens, sizes = batch_shape(flags, device, ckpt.architecture, profile)
    return save(from_log(figures, result, ckpt, key, log, tokens, sizes), cal_dir)
