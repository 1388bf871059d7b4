"""The buffer sizes llama-server prints at start-up, read from its log (the lines of the pinned build:
`model buffer size`, `KV buffer size`, the KV `size = ... K (type): ..., V (type): ...` summary, `RS buffer
size`, `output buffer size`, `compute buffer size`). Values are MiB with two decimals as printed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_BUF = re.compile(
    r"^(?P<fn>\w+):\s+(?P<buf>\S+)\s+(?P<what>model|KV|RS|output|compute) buffer size =\s+(?P<mib>[\d.]+) MiB"
)
_KV = re.compile(
    r"^llama_kv_cache: size =\s+(?P<mib>[\d.]+) MiB \(\s*(?P<cells>\d+) cells,\s+(?P<layers>\d+) layers,\s+"
    r"(?P<seqs>\d+)/(?P<streams>\d+) seqs\), K \((?P<kt>\w+)\):\s+(?P<k>[\d.]+) MiB, V \((?P<vt>\w+)\):\s+(?P<v>[\d.]+) MiB"
)
_RS = re.compile(
    r"^llama_memory_recurrent: size =\s+(?P<mib>[\d.]+) MiB .*R \(f32\):\s+(?P<r>[\d.]+) MiB, S \(f32\):\s+(?P<s>[\d.]+) MiB"
)
_CTX = re.compile(
    r"^llama_context: (?P<key>n_ctx|n_ctx_seq|n_batch|n_ubatch|flash_attn|kv_unified)\s+= (?P<val>\S+)"
)


@dataclass
class KVSummary:
    cells: int
    layers: int
    k_type: str
    v_type: str
    k_mib: float
    v_mib: float


@dataclass
class StartupBuffers:
    model: dict[str, float] = field(default_factory=dict)  # buffer name -> MiB
    kv: dict[str, float] = field(default_factory=dict)
    rs: dict[str, float] = field(default_factory=dict)
    output: dict[str, float] = field(default_factory=dict)
    compute: dict[str, float] = field(default_factory=dict)
    kv_caches: list[KVSummary] = field(default_factory=list)
    context: dict[str, str] = field(default_factory=dict)
    model_lines: int = 0  # `model buffer size` lines (one per buffer per split file)


def read_startup_buffers(text: str) -> StartupBuffers:
    out = StartupBuffers()
    kinds = {"model": out.model, "KV": out.kv, "RS": out.rs, "output": out.output, "compute": out.compute}
    for raw in text.splitlines():
        line = raw.strip()
        line = (
            re.sub(r"^\S*\s*[A-Z] ", "", line) if not re.match(r"^\w+:", line) else line
        )  # drop log prefixes
        if m := _BUF.match(line):
            out.model_lines += m["what"] == "model"
            table = kinds[m["what"]]
            table[m["buf"]] = table.get(m["buf"], 0.0) + float(m["mib"])
        elif m := _KV.match(line):
            out.kv_caches.append(
                KVSummary(int(m["cells"]), int(m["layers"]), m["kt"], m["vt"], float(m["k"]), float(m["v"]))
            )
        elif m := _CTX.match(line):
            out.context[m["key"]] = m["val"]
    return out


def _device(buffer: str) -> str:
    """A log's buffer name to the plan's device: CPU_Mapped, CPU_REPACK, CUDA_Host are the host."""
    return "CPU" if buffer.upper().startswith(("CPU", "CUDA_HOST")) else buffer


def compare_with_plan(plan, seen: StartupBuffers) -> list[dict]:
    """Planned vs logged MiB per device and figure (model, KV, recurrent, output, compute)."""
    logged: dict[tuple[str, str], float] = {}
    for figure, table in (("model", seen.model), ("kv", seen.kv), ("recurrent", seen.rs), ("output", seen.output),
                          ("compute", seen.compute)):  # fmt: skip
        for buffer, mib in table.items():
            key = (_device(buffer), figure)
            logged[key] = logged.get(key, 0.0) + mib
    rows = []
    for d in plan.devices:
        for figure in ("model", "kv", "recurrent", "output", "compute"):
            predicted = getattr(d, f"{figure}_mib")
            reported = logged.get((d.device, figure))
            if reported is None and predicted == 0:
                continue
            error = None if not reported else (predicted - reported) / reported
            rows.append({"device": d.device, "figure": figure, "predicted_mib": predicted, "reported_mib": reported,
                         "relative_error": error})  # fmt: skip
    return rows
