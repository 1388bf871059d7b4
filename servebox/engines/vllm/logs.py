"""The numbers a vLLM startup log reports, read back with the exact wording vLLM prints.

Used by `servebox plan --calibrate LOG` (predicted vs reported, and --save to learn from it), by the
doctor, and by benchmarks/plan_accuracy.py. Besides the classic lines, vLLM 0.26+ prints one summary
(`Actual usage is X GiB for weight, Y GiB for peak activation, Z GiB for non-torch memory, and W GiB for
CUDAGraph memory`), names its model runner (V2 logs 'Using V2 Model Runner'; V1 logs from
v1/worker/gpu_model_runner.py) and, when it takes the graph estimate out of the KV budget, prints it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from servebox.errors import InputError

NUM = r"([0-9][0-9,]*\.?[0-9]*)"
PATTERNS = {
    "model_loading_gib": re.compile(rf"Model loading took {NUM}\s*GiB"),
    "available_kv_gib": re.compile(rf"Available KV cache memory: {NUM}\s*GiB"),
    "kv_cache_tokens": re.compile(rf"(?:GPU|CPU|XPU) KV cache size: {NUM} tokens"),
    "max_concurrency": re.compile(rf"Maximum concurrency for {NUM} tokens per request: {NUM}x"),
    "graph_capture_gib": re.compile(rf"Graph capturing finished in {NUM} secs?, took {NUM} GiB"),
    "block_size": re.compile(r"Setting attention block size to (\d+) tokens"),
    "actual_usage": re.compile(
        rf"Actual usage is {NUM} GiB for weight, {NUM} GiB for peak activation, "
        rf"{NUM} GiB for non-torch memory, and {NUM} GiB for CUDAGraph memory"
    ),
    "requested": re.compile(
        rf"Free memory on device \({NUM}/{NUM} GiB\) on startup\. "
        rf"Desired GPU memory utilization is \({NUM}, {NUM} GiB\)"
    ),
    "graph_estimate_gib": re.compile(rf"Estimated CUDA graph memory: {NUM} GiB total"),
    "vllm_version": re.compile(r"Initializing a V1 LLM engine \(v([0-9][^)]*)\)"),
    "max_num_batched_tokens": re.compile(r"max_num_batched_tokens=(\d+)"),
    "max_num_seqs": re.compile(r"\bmax_num_seqs=(\d+)"),
    "runner_v2": re.compile(r"Using V2 Model Runner|v1/worker/gpu/model_runner\.py"),
    "runner_v1": re.compile(r"v1/worker/gpu_model_runner\.py"),
}


@dataclass
class StartupFigures:
    model_loading_gib: float | None = None
    available_kv_gib: float | None = None
    kv_cache_tokens: int | None = None
    max_concurrency: float | None = None
    max_concurrency_len: int | None = None
    graph_capture_gib: float | None = None
    block_size: int | None = None
    weights_gib: float | None = None  # the four terms of 0.26's 'Actual usage is ...' summary
    activation_gib: float | None = None
    non_torch_gib: float | None = None
    cudagraph_gib: float | None = None
    graph_estimate_gib: float | None = None  # 'Estimated CUDA graph memory': taken out of the KV budget
    total_gib: float | None = None  # 'Free memory on device (free/total GiB)'
    utilization: float | None = None
    requested_gib: float | None = None
    vllm_version: str | None = None
    max_num_batched_tokens: int | None = None
    max_num_seqs: int | None = None
    model_runner: str | None = None  # "v1" | "v2" (0.26+ runs two; only V1 subtracts the graph estimate)
    lines: dict[str, int] = field(default_factory=dict)

    @property
    def non_kv_measured(self) -> bool:
        """Whether the log holds the measured activation, non-torch and graph terms (0.26+ summary line)."""
        return self.activation_gib is not None and self.non_torch_gib is not None


def _num(text: str) -> float:
    return float(text.replace(",", ""))


def _usage(f: StartupFigures, m: re.Match) -> None:
    f.weights_gib, f.activation_gib, f.non_torch_gib, f.cudagraph_gib = (
        _num(m.group(i)) for i in range(1, 5)
    )


def _requested(f: StartupFigures, m: re.Match) -> None:
    f.total_gib, f.utilization, f.requested_gib = _num(m.group(2)), _num(m.group(3)), _num(m.group(4))


def _runner(name: str):
    def setter(f: StartupFigures, m: re.Match) -> None:
        f.model_runner = f.model_runner or name

    return setter


def _first_int(attr: str):
    def setter(f: StartupFigures, m: re.Match) -> None:
        if getattr(f, attr) is None:
            setattr(f, attr, int(m.group(1)))

    return setter


SPECIAL = {
    "actual_usage": _usage,
    "requested": _requested,
    "vllm_version": lambda f, m: setattr(f, "vllm_version", m.group(1)),
    "max_num_batched_tokens": _first_int("max_num_batched_tokens"),
    "max_num_seqs": _first_int("max_num_seqs"),
    "runner_v2": _runner("v2"),
    "runner_v1": _runner("v1"),
}


def read_startup_figures(path: Path) -> StartupFigures:
    figures = StartupFigures()
    try:
        handle = path.open(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise InputError(str(path), None, f"cannot read: {exc.strerror or exc}") from None
    with handle:
        for number, line in enumerate(handle, 1):
            for key, pattern in PATTERNS.items():
                match = pattern.search(line)
                if not match:
                    continue
                figures.lines[key] = number
                if key in SPECIAL:
                    SPECIAL[key](figures, match)
                elif key == "max_concurrency":
                    figures.max_concurrency_len = int(_num(match.group(1)))
                    figures.max_concurrency = _num(match.group(2))
                elif key == "graph_capture_gib":
                    figures.graph_capture_gib = _num(match.group(2))
                elif key in ("kv_cache_tokens", "block_size"):
                    setattr(figures, key, int(_num(match.group(1))))
                else:
                    setattr(figures, key, _num(match.group(1)))
    if not figures.lines:
        raise InputError(
            str(path), None, "no vLLM startup figures found ('Model loading took', 'GPU KV cache size', ...)"
        )
    return figures
