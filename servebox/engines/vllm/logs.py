"""The numbers a vLLM startup log reports, read back with the exact wording vLLM prints.

Used by `servebox plan --calibrate LOG` (predicted vs reported) and by the doctor.
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
    lines: dict[str, int] = field(default_factory=dict)


def _num(text: str) -> float:
    return float(text.replace(",", ""))


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
                if key == "max_concurrency":
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
