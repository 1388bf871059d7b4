"""GPU catalog: the names servebox uses everywhere, compute capability, and total memory.

`total_bytes` is what the driver reports as the device's total (torch.cuda.mem_get_info), which is
less than the label. Where it was measured the source says so; otherwise it is nvidia-smi's total
(`measured=False`), and the planner says it assumed it. `--gpu-memory-gib` overrides.
"""

from __future__ import annotations

from dataclasses import dataclass

from servebox.errors import InputError
from servebox.units import GiB, MiB


@dataclass(frozen=True)
class GPU:
    name: str
    model: str
    compute_capability: tuple[int, int]
    total_bytes: int
    measured: bool
    source: str
    bf16: bool

    @property
    def total_gib(self) -> float:
        return self.total_bytes / GiB


def _gpu(name, model, cc, total_bytes, measured, source):
    return GPU(name, model, cc, total_bytes, measured, source, bf16=cc >= (8, 0))


CATALOG: dict[str, GPU] = {
    g.name: g
    for g in [
        _gpu("v100-16gb", "Tesla V100 16GB", (7, 0), 16160 * MiB, False, "nvidia-smi total 16160 MiB"),
        _gpu("v100-32gb", "Tesla V100 32GB", (7, 0), 32510 * MiB, False, "nvidia-smi total 32510 MiB"),
        _gpu("t4-16gb", "Tesla T4", (7, 5), 15360 * MiB, False, "nvidia-smi total 15360 MiB"),
        _gpu("p40-24gb", "Tesla P40", (6, 1), 24451 * MiB, False, "nvidia-smi total 24451 MiB"),
        _gpu("rtx3090-24gb", "GeForce RTX 3090", (8, 6), 24576 * MiB, False, "nvidia-smi total 24576 MiB"),
        _gpu("rtx4090-24gb", "GeForce RTX 4090", (8, 9), 24564 * MiB, False, "nvidia-smi total 24564 MiB"),
        _gpu("rtx5090-32gb", "GeForce RTX 5090", (12, 0), 32607 * MiB, False, "nvidia-smi total 32607 MiB"),
        _gpu("a10-24gb", "A10", (8, 6), 23028 * MiB, False, "nvidia-smi total 23028 MiB"),
        _gpu("l4-24gb", "L4", (8, 9), 23034 * MiB, False, "nvidia-smi total 23034 MiB"),
        _gpu("l40s-48gb", "L40S", (8, 9), 46068 * MiB, False, "nvidia-smi total 46068 MiB"),
        _gpu("a100-40gb", "A100-SXM4-40GB", (8, 0), 40960 * MiB, False, "nvidia-smi total 40960 MiB"),
        _gpu("a100-80gb", "A100-SXM4-80GB", (8, 0), 81920 * MiB, False, "nvidia-smi total 81920 MiB"),
        _gpu(
            "h100-80gb",
            "H100 80GB HBM3",
            (9, 0),
            round(79.19 * GiB),
            True,
            "79.19 GiB as vLLM reported it (llm-d planner sweep, shared/calibration)",
        ),
        _gpu(
            "h200-141gb",
            "H200",
            (9, 0),
            150_109_880_320,
            True,
            "torch.cuda.mem_get_info on an H200, driver 580.159.04 (shared/calibration/h200_memory_facts.json)",
        ),
        _gpu("b200-180gb", "B200", (10, 0), 183359 * MiB, False, "nvidia-smi total 183359 MiB"),
        _gpu(
            "gb10-128gb",
            "GB10 (DGX Spark, unified memory)",
            (12, 1),
            128 * 10**9,
            False,
            "128 GB unified LPDDR5x shared with the CPU",
        ),
    ]
}


def get_gpu(name: str) -> GPU:
    gpu = CATALOG.get(name.lower())
    if gpu is None:
        raise InputError("--gpu", None, f"unknown GPU {name!r}; known: {', '.join(CATALOG)}")
    return gpu


def custom_gpu(total_gib: float, cc: tuple[int, int] = (8, 0)) -> GPU:
    return _gpu("custom", f"{total_gib} GiB GPU", cc, int(total_gib * GiB), True, "--gpu-memory-gib")
