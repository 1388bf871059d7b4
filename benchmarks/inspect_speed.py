"""How long `servebox inspect` takes on each bundled fixture (target: under 0.5 s), and its ratio to
a baseline measured in the same process: reading every file and JSON-parsing every config and
safetensors header (the parsing floor any metadata reader pays). The whole command, interpreter
start-up included, is timed too. Run: python benchmarks/inspect_speed.py
"""

from __future__ import annotations

import json
import struct
import subprocess
import sys
from pathlib import Path

from timing import best_of

from servebox.checkpoint.facts import inspect_checkpoint
from servebox.errors import UnknownArchitectureError

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "fixtures"
TARGET_S = 0.5


def parse_floor(files: list[Path]) -> None:
    for f in files:
        raw = f.read_bytes()
        if f.suffix == ".json":
            json.loads(raw)
        elif f.suffix == ".safetensors":
            (length,) = struct.unpack("<Q", raw[:8])
            json.loads(raw[8 : 8 + length])


def main() -> None:
    sources = sorted(p for p in (FIXTURES / "checkpoints").iterdir() if p.is_dir()) + [
        FIXTURES / "tiny-llama-q8_0.gguf"
    ]
    worst = 0.0
    print(f"{'fixture':32} {'inspect s':>10} {'parse floor s':>13} {'ratio':>7}")
    for src in sources:
        files = [src] if src.is_file() else [p for p in src.rglob("*") if p.is_file()]
        raw = best_of(lambda files=files: parse_floor(files))
        try:
            took = best_of(lambda src=src: inspect_checkpoint(str(src)))
        except UnknownArchitectureError as e:  # a fixture inspect refuses on purpose (Jamba's Mamba1 layers)
            print(f"{src.name:32} {'refused':>10} {raw:13.4f}        ({str(e).split(': ', 2)[-1][:60]})")
            continue
        worst = max(worst, took)
        print(f"{src.name:32} {took:10.4f} {raw:13.4f} {took / raw:7.1f}x")
    print(
        f"slowest inspect (in process): {worst:.4f} s (target < {TARGET_S} s): {'ok' if worst < TARGET_S else 'TOO SLOW'}"
    )
    biggest = FIXTURES / "checkpoints" / "qwen3.5-27b-digest-w4a4"
    cmd = [sys.executable, "-m", "servebox.cli", "inspect", str(biggest), "--json"]
    whole = best_of(lambda: subprocess.run(cmd, check=True, capture_output=True), repeats=3)
    floor = best_of(lambda: subprocess.run([sys.executable, "-c", "pass"], check=True), repeats=3)
    print(
        f"whole command on {biggest.name}: {whole:.3f} s (bare interpreter start {floor:.3f} s, ratio {whole / floor:.1f}x)"
    )


if __name__ == "__main__":
    main()
