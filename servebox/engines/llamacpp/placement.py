"""Where llama.cpp puts each layer and tensor: the layer split of load_tensors (src/llama-model.cpp),
-ngl counting the output layer, --tensor-split (or device memory when none is given), -sm none|layer|row,
and -ot / --n-cpu-moe / --cpu-moe overrides (first matching pattern wins, as regex_search).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from servebox.checkpoint.gguf_header import GGUFTensor
from servebox.engines.llamacpp.flags import ServerFlags
from servebox.engines.llamacpp.layout import Layout
from servebox.errors import InputError

CPU = "CPU"


@dataclass
class Placement:
    devices: list[str]  # GPU buffer names: CUDA0, CUDA1, ...
    layer_device: list[str]  # per layer index, plus the output layer at index n_layer_all
    split_fractions: list[float]  # cumulative splits over the GPUs (llama.cpp's `splits`)
    row_split: bool

    @property
    def output_device(self) -> str:
        return self.layer_device[-1]


def n_gpu_layers(flags: ServerFlags, layout: Layout) -> int:
    """-ngl as llama.cpp counts it: the output layer is one of them; auto and all both mean every layer."""
    return layout.n_layer_all + 1 if flags.n_gpu_layers < 0 else flags.n_gpu_layers


def place_layers(layout: Layout, flags: ServerFlags, gpu_bytes: list[int]) -> Placement:
    n_gpu = len(gpu_bytes)
    names = [f"CUDA{i}" for i in range(n_gpu)]
    if flags.split_mode == "none" and n_gpu:
        if flags.main_gpu >= n_gpu:
            raise InputError("llama-server flags", "--main-gpu", f"{flags.main_gpu} but {n_gpu} GPU(s) given")
        names, gpu_bytes = [names[flags.main_gpu]], [gpu_bytes[flags.main_gpu]]
    weights = (
        list(flags.tensor_split[: len(names)]) if any(flags.tensor_split) else [float(b) for b in gpu_bytes]
    )
    weights += [0.0] * (len(names) - len(weights))
    total = sum(weights) or 1.0
    cumulative, acc = [], 0.0
    for w in weights:
        acc += w
        cumulative.append(acc / total)
    n_all = layout.n_layer_all
    ngl = n_gpu_layers(flags, layout)
    start = max(n_all + 1 - ngl, 0)
    active = min(ngl, n_all + 1) if names else 0
    devices = []
    for il in range(n_all + 1):
        if il < start or (il - start) >= active:
            devices.append(CPU)
        else:
            idx = bisect.bisect_right(cumulative, (il - start) / active)
            devices.append(names[min(idx, len(names) - 1)])
    placement = Placement(names, devices, cumulative, flags.split_mode == "row" and len(names) > 1)
    for ov in flags.overrides:
        _buffer_name(ov.buffer, placement)  # an -ot naming a device that is not there is bad input
    return placement


def tensor_buffers(
    t: GGUFTensor, home: str, flags: ServerFlags, placement: Placement
) -> list[tuple[str, float]]:
    """The buffers a tensor's bytes land in, as (buffer, fraction): overrides first, then the row split."""
    for ov in flags.overrides:
        if re.search(ov.pattern, t.name):
            return [(_buffer_name(ov.buffer, placement), 1.0)]
    if placement.row_split and home != CPU and len(t.shape) >= 2 and t.shape[1] > 1:
        prev, out = 0.0, []
        for name, cum in zip(placement.devices, placement.split_fractions, strict=True):
            out.append((name, cum - prev))
            prev = cum
        return out
    return [(home, 1.0)]


def _buffer_name(buffer: str, placement: Placement) -> str:
    b = buffer.upper()
    if b.startswith("CPU"):
        return CPU
    if b in placement.devices:
        return b
    raise InputError(
        "llama-server flags",
        "-ot",
        f"buffer type {buffer!r} is not one of CPU, {', '.join(placement.devices)}",
    )
