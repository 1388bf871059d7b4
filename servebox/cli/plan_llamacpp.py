"""The llama.cpp branch of `servebox plan` (a GGUF, or --engine llama.cpp): llama-server's own flags follow
the model. GPUs: --gpu NAME, several as NAME,NAME or 2xNAME; none means a CPU-only server.
"""

from __future__ import annotations

import re

import typer

from servebox.cli.app import emit_json, out
from servebox.errors import InputError
from servebox.units import GiB


def gpu_bytes_from(gpu: str | None, gpu_memory_gib: float | None) -> list[int]:
    from servebox.hardware import get_gpu

    if gpu_memory_gib:
        return [int(gpu_memory_gib * GiB)]
    if not gpu:
        return []
    sizes = []
    for item in gpu.split(","):
        m = re.match(r"^(\d+)x(.+)$", item.strip())
        count, name = (int(m[1]), m[2]) if m else (1, item.strip())
        sizes += [get_gpu(name).total_bytes] * count
    return sizes


def plan_llamacpp(
    source: str | None,
    args: list[str],
    gpu: str | None,
    gpu_memory_gib: float | None,
    as_json: bool,
    explain: bool,
    calibrate: str | None = None,
) -> None:
    from servebox.engines.llamacpp.flags import parse_server_args
    from servebox.engines.llamacpp.plan import plan_gguf

    flags = parse_server_args(list(args))
    source = source or flags.model
    if not source:
        raise InputError("plan", "SOURCE", "name a .gguf file (or pass -m FILE)")
    result = plan_gguf(source, flags, gpu_bytes_from(gpu, gpu_memory_gib))
    comparison = _calibration(result, calibrate) if calibrate else None
    if as_json:
        data = result.model_dump(mode="json")
        if comparison is not None:
            data["calibration"] = comparison
        emit_json(data)
    else:
        from servebox.report.llamacpp_view import show_calibration, show_llamacpp_plan

        show_llamacpp_plan(result, out, explain)
        if comparison is not None:
            show_calibration(comparison, out)
    if not result.fits:
        raise typer.Exit(1)


def _calibration(result, log_path: str) -> list[dict]:
    from pathlib import Path

    from servebox.engines.llamacpp.logs import compare_with_plan, read_startup_buffers

    try:
        text = Path(log_path).read_text(errors="replace")
    except OSError as exc:
        raise InputError(log_path, None, f"cannot read: {exc.strerror or exc}") from None
    seen = read_startup_buffers(text)
    if not (seen.model or seen.kv or seen.compute):
        raise InputError(log_path, None, "no llama.cpp buffer lines (run llama-server with -lv 4 or higher)")
    return compare_with_plan(result, seen)


def plan_spec(path: str, as_json: bool) -> None:
    """`servebox plan SPEC.toml`: memory per GPU per model, cold starts, the sets that fit together."""
    from pathlib import Path

    from servebox.deploy.llamaswap import MATRIX_SINCE, groups_from_partition, matrix_from_sets
    from servebox.deploy.model_sets import compute_sets
    from servebox.deploy.spec import load_spec

    spec = load_spec(Path(path))
    sets = compute_sets(spec)
    version = spec.router.llama_swap_version
    if version is not None and version >= MATRIX_SINCE:
        rendered = {"matrix": matrix_from_sets(sets.sets, {m.name: m.cold_start_s for m in spec.models})}
    else:
        rendered = {"groups": groups_from_partition(sets.groups)}
    router = {
        k: v.model_dump() if hasattr(v, "model_dump") else {n: g.model_dump() for n, g in v.items()}
        for k, v in rendered.items()
        if v
    }
    if as_json:
        emit_json(sets.model_dump(mode="json") | {"llama_swap": router, "llama_swap_version": version})
    else:
        from servebox.report.llamacpp_view import show_model_sets

        show_model_sets(sets, router, version, out)
    if not all(m.fits_alone for m in sets.models):
        raise typer.Exit(1)
