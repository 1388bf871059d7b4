"""One llama-server start-up, planned: every buffer per device for a GGUF, flags and GPUs.

`budget` answers "does it fit": a GPU's total (catalog) less llama.cpp's --fit target margin (1024 MiB per
device by default, --fit-target), which is the free memory llama.cpp itself insists on leaving.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from servebox.engines.llamacpp.compute import compute_buffer, masks
from servebox.engines.llamacpp.flags import ServerFlags
from servebox.engines.llamacpp.layout import Layout
from servebox.engines.llamacpp.memory import (
    CPU,
    CPU_REPACK,
    ContextShape,
    DeviceMemory,
    KVPart,
    context_shape,
    kv_parts,
    model_buffers,
    output_bytes,
    recurrent_bytes,
)
from servebox.engines.llamacpp.placement import Placement, place_layers
from servebox.units import MiB


@dataclass
class Evaluation:
    shape: ContextShape
    placement: Placement
    devices: dict[str, DeviceMemory]  # CPU first, then CUDA0...

    def gpu_rows(self) -> list[DeviceMemory]:
        return [d for name, d in self.devices.items() if name != CPU]


@dataclass
class Problem:
    layout: Layout
    gpu_bytes: list[int]
    host_bytes: int | None = None
    projector_bytes: int = 0  # --mmproj weights: mtmd loads them on the main GPU (the host without one)
    _weights: dict = field(default_factory=dict)  # model buffers per placement: the fit searches reuse them

    def weights(self, flags: ServerFlags, placement: Placement) -> dict[str, int]:
        key = (tuple(placement.layer_device), tuple((o.pattern, o.buffer) for o in flags.overrides),
               placement.row_split, tuple(placement.split_fractions), flags.mmap, flags.repack)  # fmt: skip
        if key not in self._weights:
            self._weights[key] = model_buffers(self.layout, flags, placement)
        return self._weights[key]

    def budgets(self, flags: ServerFlags) -> list[int]:
        margins = flags.fit_target_mib
        return [
            total - (margins[i] if i < len(margins) else margins[-1]) * MiB
            for i, total in enumerate(self.gpu_bytes)
        ]


def evaluate(
    problem: Problem, flags: ServerFlags, n_ctx: int | None = None, model: dict | None = None
) -> Evaluation:
    layout = problem.layout
    placement = place_layers(layout, flags, problem.gpu_bytes)
    shape = context_shape(layout, flags, n_ctx)
    devices = {CPU: DeviceMemory(CPU)} | {name: DeviceMemory(name) for name in placement.devices}
    weights = model if model is not None else problem.weights(flags, placement)
    for name, nbytes in weights.items():
        devices[CPU if name == CPU_REPACK else name].model += nbytes
    devices[placement.devices[0] if placement.devices else CPU].model += problem.projector_bytes
    for name, part in kv_parts(layout, flags, shape, placement):
        devices[name].kv += part.k_bytes + part.v_bytes
        devices[name].kv_parts[part.kind] = _merge(devices[name].kv_parts.get(part.kind), part)
    for name, nbytes in recurrent_bytes(layout, flags, shape, placement).items():
        devices[name].recurrent += nbytes
    devices[CPU].output = output_bytes(layout, shape)
    graph = compute_buffer(layout, shape)
    gpus = [d for d in placement.devices if any(x == d for x in placement.layer_device)]
    if pipeline_parallel(layout, flags, placement):
        graph += (PIPELINE_COPIES - 1) * (masks(layout, shape) + layout.n_embd * shape.n_ubatch * 4)
    if not gpus:
        devices[CPU].compute = graph
    else:
        for name in gpus:  # each GPU that runs layers reserves the graph's peak for its part
            devices[name].compute = graph
        devices[CPU].compute = _host_compute(layout, shape)
    return Evaluation(shape, placement, devices)


PIPELINE_COPIES = 4  # GGML_SCHED_MAX_COPIES (ggml-backend.cpp)


def pipeline_parallel(layout: Layout, flags: ServerFlags, placement: Placement) -> bool:
    """llama_context turns pipeline parallelism on for several GPUs holding every layer (layer split, KV
    offloaded, no tensor overrides); the scheduler then keeps 4 copies of each split's inputs (the masks and
    the hidden state). Derived from the source, not measured here (one GPU)."""
    return (
        len(placement.devices) > 1
        and all(d != CPU for d in placement.layer_device)
        and flags.split_mode == "layer"
        and flags.kv_offload
        and not flags.overrides
    )


def _host_compute(layout: Layout, shape: ContextShape) -> int:
    """The pinned host buffer for the graph's inputs (token ids, positions, embeddings of the ubatch)."""
    return layout.n_embd * shape.n_ubatch * 4 + 4 * shape.n_ubatch * 4


def _merge(old: KVPart | None, new: KVPart) -> KVPart:
    if old is None:
        return new
    return KVPart(
        new.kind, new.cells, old.layers + new.layers, old.k_bytes + new.k_bytes, old.v_bytes + new.v_bytes
    )


def fits(problem: Problem, flags: ServerFlags, ev: Evaluation) -> bool:
    budgets = problem.budgets(flags)
    for name in ev.placement.devices:
        if ev.devices[name].total > budgets[int(name.removeprefix("CUDA"))]:
            return False
    if problem.host_bytes is not None and ev.devices[CPU].total > problem.host_bytes:
        return False
    return True
