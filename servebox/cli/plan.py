"""`servebox plan`: what the engine will report at start-up, before the cold start."""

from __future__ import annotations

from pathlib import Path

import typer

from servebox.cli.app import JSON_OPTION, app, emit_json, out
from servebox.errors import InputError


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def plan(
    ctx: typer.Context,
    source: str = typer.Argument(
        None, help="Checkpoint directory or hub repo id; may come from --from-command instead."
    ),
    gpu: str = typer.Option(None, "--gpu", help="GPU name from the catalog, e.g. h100-80gb, v100-32gb."),
    gpu_memory_gib: float = typer.Option(
        None, "--gpu-memory-gib", help="Total GPU memory as torch reports it, instead of --gpu."
    ),
    vllm_version: str = typer.Option(
        "0.32.0", "--vllm-version", help="vLLM release whose behaviour to model."
    ),
    from_command: str = typer.Option(
        None, "--from-command", help='A whole "vllm serve MODEL ..." command line.'
    ),
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
    html_path: str = typer.Option(
        None, "--html", help="Write an HTML report (memory bar, concurrency curve) to this file."
    ),
    engine: str = typer.Option(None, "--engine", help="vllm (default) or llama.cpp (default for a .gguf)."),
    as_json: bool = JSON_OPTION,
) -> None:
    """What vLLM will log at startup: weights, KV memory, KV tokens, concurrency, the largest context that fits.

    Any vLLM serve flag may follow SOURCE (--tensor-parallel-size, --gpu-memory-utilization,
    --max-model-len N|auto, --kv-cache-dtype, --speculative-config JSON, ...).
    """
    if engine == "llama.cpp" or (
        engine is None and (source or "").split("@")[0].endswith((".gguf", ".toml"))
    ):
        from servebox.cli.plan_llamacpp import plan_llamacpp, plan_spec

        if (source or "").endswith(".toml"):
            return plan_spec(source, as_json)
        return plan_llamacpp(source, ctx.args, gpu, gpu_memory_gib, as_json, explain, calibrate)
    from servebox.checkpoint.facts import load_checkpoint
    from servebox.engines.vllm.flags import parse_command, parse_flags
    from servebox.engines.vllm.profile import load_profile
    from servebox.hardware import custom_gpu, get_gpu
    from servebox.plan import make_plan

    if from_command:
        flags, _ = parse_command(from_command)
    else:
        flags, _ = parse_flags(list(ctx.args))
    source = source or flags.model
    if not source:
        raise InputError("plan", "SOURCE", "name a checkpoint (or give --from-command with a model)")
    if gpu_memory_gib:
        device = custom_gpu(gpu_memory_gib)
    elif gpu:
        device = get_gpu(gpu)
    else:
        raise InputError("plan", "--gpu", "name a GPU (e.g. --gpu h100-80gb) or pass --gpu-memory-gib")
    ckpt = load_checkpoint(source, with_template=False)
    if ckpt.facts.kind != "safetensors":
        raise InputError(
            source, None, "plan models vLLM on safetensors checkpoints; GGUF planning is not implemented"
        )
    result = make_plan(
        ckpt, flags, device, load_profile(vllm_version), activation_gib, non_torch_gib, cudagraph_gib
    )
    comparison = None
    if calibrate:
        from servebox.engines.vllm.logs import read_startup_figures
        from servebox.plan import compare_with_log

        comparison = compare_with_log(result, read_startup_figures(Path(calibrate)))
    if html_path:
        from servebox.report.html import write_plan_html

        write_plan_html(result, Path(html_path))
    if as_json:
        data = result.model_dump(mode="json")
        if comparison is not None:
            data["calibration"] = comparison
        emit_json(data)
    else:
        from servebox.report.plan_view import show_calibration, show_plan

        show_plan(result, out, explain)
        if comparison is not None:
            show_calibration(comparison, out)
    if not result.fits:
        raise typer.Exit(1)
