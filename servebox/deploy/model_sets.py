"""Which of a spec's models can be resident at once, computed from their plans.

Memory per GPU per model: a vLLM engine takes gpu-memory-utilization x the GPU's total on every GPU it
opens (it reserves that share at start-up whatever the model needs); a llama.cpp engine takes what
servebox's llama.cpp plan says per device (its GGUF read locally). A set is resident-compatible when, on
every GPU, the members' sums stay within the GPU's total (llama.cpp's own --fit margin is already part of
its plan's budget check). A model whose GGUF cannot be read here is planned as taking every GPU whole
(it runs alone) and says so. The maximal compatible sets become llama-swap `matrix` sets (evict_costs =
declared cold start in seconds) or, for llama-swap before v202, a partition into legacy groups.
"""

from __future__ import annotations

from itertools import combinations

from pydantic import BaseModel

from servebox.deploy.spec import Model, Spec
from servebox.errors import InputError
from servebox.hardware import CATALOG
from servebox.units import MiB

MAX_MODELS = 16  # sets are enumerated exhaustively; specs hold a handful of models
# A llama-server process's CUDA context (driver, cuBLAS handles) is outside its buffers. ASSUMED, not
# measured here (recent drivers report a few hundred MiB per process and GPU); vLLM's share includes its own.
CUDA_CONTEXT_MIB = 300


class ModelFootprint(BaseModel):
    name: str
    engine: str
    gpus: list[int]
    mib_per_gpu: dict[int, float]
    cold_start_s: int
    basis: str  # how the memory was obtained
    fits_alone: bool = True  # llama.cpp: its plan fits its GPUs (with llama.cpp's own --fit margin)


class ModelSets(BaseModel):
    gpu_total_mib: list[float]
    models: list[ModelFootprint]
    sets: list[list[str]]  # maximal sets that fit together (2+ models)
    groups: dict[str, list[str]]  # a partition: each group's members fit together


def server_args(model: Model) -> list[str]:
    """The spec's llama.cpp flags (llama-server's long names without dashes) as argv."""
    argv: list[str] = []
    for key, value in model.flags.items():
        flag = f"--{key}"
        if value is True:
            argv.append(flag)
        elif value is not False and value is not None:
            argv += [flag, ",".join(map(str, value)) if isinstance(value, list) else str(value)]
    return argv


def _gpus_of(model: Model, n: int) -> list[int]:
    return list(model.gpus) if model.gpus else list(range(n))


def footprint(model: Model, totals: list[int]) -> ModelFootprint:
    gpus = _gpus_of(model, len(totals))
    for g in gpus:
        if g >= len(totals):
            raise InputError(
                f"models[{model.name}]",
                "gpus",
                f"GPU index {g} is not on the host, which lists {len(totals)} GPU(s) (indices 0..{len(totals) - 1})",
            )
    if model.engine == "vllm":
        util = float(model.flags.get("gpu-memory-utilization", 0.9))
        mib = {g: round(util * totals[g] / MiB, 1) for g in gpus}
        return ModelFootprint(
            name=model.name, engine="vllm", gpus=gpus, mib_per_gpu=mib, cold_start_s=model.cold_start_s,
            basis=f"vLLM reserves gpu-memory-utilization {util} of each GPU's total",
        )  # fmt: skip
    return _llamacpp_footprint(model, gpus, totals)


def _llamacpp_footprint(model: Model, gpus: list[int], totals: list[int]) -> ModelFootprint:
    from pathlib import Path

    from servebox.engines.llamacpp.flags import parse_server_args
    from servebox.engines.llamacpp.plan import plan_gguf

    common = dict(name=model.name, engine="llama.cpp", gpus=gpus, cold_start_s=model.cold_start_s)
    if not Path(model.checkpoint).is_file():
        whole = {g: round(totals[g] / MiB, 1) for g in gpus}
        return ModelFootprint(
            **common, mib_per_gpu=whole, basis="GGUF not readable here: planned as taking its GPUs whole"
        )
    try:
        flags = parse_server_args(server_args(model))
    except InputError as exc:
        raise InputError(f"models[{model.name}]", "flags", exc.one_line()) from None
    plan = plan_gguf(model.checkpoint, flags, [totals[g] for g in gpus])
    mib = {
        gpus[int(d.device.removeprefix("CUDA"))]: round(d.total_mib + CUDA_CONTEXT_MIB, 1)
        for d in plan.devices
        if d.device != "CPU"
    }
    basis = f"servebox's llama.cpp plan of the GGUF with the spec's flags + {CUDA_CONTEXT_MIB} MiB CUDA context (assumed)"
    return ModelFootprint(**common, mib_per_gpu=mib, basis=basis, fits_alone=plan.fits)


def _fits_together(members: list[ModelFootprint], totals_mib: list[float]) -> bool:
    for g, total in enumerate(totals_mib):
        if sum(m.mib_per_gpu.get(g, 0.0) for m in members) > total:
            return False
    return True


def compute_sets(spec: Spec) -> ModelSets:
    if not spec.host.gpus:
        raise InputError("spec", "host.gpus", "list the host's GPUs to compute which models fit together")
    if len(spec.models) > MAX_MODELS:
        raise InputError(
            "spec", "models", f"{len(spec.models)} models; sets are computed for at most {MAX_MODELS}"
        )
    totals = [CATALOG[g].total_bytes for g in spec.host.gpus]
    totals_mib = [t / MiB for t in totals]
    prints = [footprint(m, totals) for m in spec.models]
    fitting: list[frozenset[str]] = []
    for size in range(len(prints), 1, -1):
        for combo in combinations(prints, size):
            names = frozenset(m.name for m in combo)
            if any(names <= f for f in fitting):
                continue
            if _fits_together(list(combo), totals_mib):
                fitting.append(names)
    order = [m.name for m in spec.models]
    sets = [sorted(s, key=order.index) for s in fitting]
    sets.sort(key=lambda s: (-len(s), [order.index(n) for n in s]))
    return ModelSets(
        gpu_total_mib=[round(t, 1) for t in totals_mib],
        models=prints,
        sets=sets,
        groups=_partition(order, sets),
    )


def _partition(order: list[str], sets: list[list[str]]) -> dict[str, list[str]]:
    """Legacy groups: greedily take the largest remaining compatible set; every model in exactly one group."""
    left, groups = list(order), {}
    while left:
        best = max((([n for n in s if n in left]) for s in sets), key=len, default=[])
        members = best if len(best) > 1 else [left[0]]
        groups[f"g{len(groups) + 1}"] = members
        left = [n for n in left if n not in members]
    return groups
