"""How much of PyTorch's and Triton's own refusals (driver, GPU, ports, compilers) `servebox doctor` can name.

Why: the CUDA runtime's strings are one layer; above them torch and Triton refuse in their own words (no
NVIDIA driver, a GPU too old for this torch or for Triton, a TCPStore port taken, Triton's shared-memory
limit on a T4 or V100, a missing C compiler). benchmarks/data/torch_triton_errors.json holds those
messages as torch 2.13 / triton 3.9 build them (tools/harvest_torch_triton_errors.py). Each entry is
rendered in every format of its kind (a raised exception as vLLM's engine logs it and as a bare
traceback; a warning; a C++ LOG line), fed alone to triage_stream and classified by coverage_common: named
by a specific cause, a symptom family that says where to look, generic (a catch-all or the bare
exception) or nothing. An entry counts by its worst format.
Measured 2026-12-03 on the 32 plausible entries: main's KB (0d247b1) 21 named + 1 symptom, 5 generic, 5 none;
with the vocabtorch families 28 named + 4 symptom, none left generic or unanswered.
Run: python benchmarks/doctor_coverage_torch_triton_errors.py [--uncovered N] [--json]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the shared helper beside it
from coverage_common import print_layer_report, rows_by_kind, vocabulary_args  # noqa: E402

DATA = Path(__file__).resolve().parent / "data" / "torch_triton_errors.json"
UMBRELLA = {"native-abort", "uncaught-exception"}  # catch-alls that say "it died here", not why
# where each entry is printed from, as the format's {where}
WHERE = {
    "raise": "/usr/local/lib/python3.12/dist-packages/torch/cuda/__init__.py",
    "warn": "/usr/local/lib/python3.12/dist-packages/torch/cuda/__init__.py:404",
    "log": "ProcessGroupNCCL.cpp:1925",
}
# Entries a vLLM / llama.cpp user on their own GPU box cannot plausibly meet (left without a family), and why
SKIPPED = {
    "triton-arch-variant": "tcgen05 is Blackwell-only code Triton emits for sm_100a; it fails only on a Triton "
    "build bug, not on the user's machine",
    "torch-deserialize-device-count": "torch.load of a checkpoint saved on cuda:1; vLLM and llama.cpp load "
    "safetensors / GGUF, not pickled tensors with a device",
}


def render(fmt: dict, entry: dict) -> str:
    """The entry as this format prints it: the lines before the exception, then the prefixed template."""
    text = fmt["template"].format(exc=entry["exc"], msg=entry["message"], where=WHERE[entry["kind"]])
    lines = [fmt["prefix"] + line for line in text.split("\n")]
    before = [fmt["prefix"] + line for line in entry.get("before", "").split("\n") if entry.get("before")]
    return "\n".join(before + lines)


def measure(doc: dict) -> list[dict]:
    """One row per entry: its verdict and family in each format of its kind, and the worst over them."""
    return rows_by_kind(doc, render, UMBRELLA, SKIPPED)


def main(argv: list[str] | None = None) -> int:
    a = vocabulary_args(__doc__.splitlines()[0], 100, argv)
    doc = json.loads(DATA.read_text())
    return print_layer_report(doc, measure(doc), a, 32, lambda m: m.strip()[:56])


if __name__ == "__main__":
    raise SystemExit(main())
