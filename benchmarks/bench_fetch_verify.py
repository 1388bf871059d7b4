"""What verifying a download costs: `fetch-model` hashes every file once after snapshot_download (the
LFS sha256 the hub lists for weights). Throughput of that pass vs a plain read of the same file (the
floor: any verification reads the bytes once), on a file of random bytes in the page cache.

Run: python benchmarks/bench_fetch_verify.py [MiB]   (default 512)
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from servebox.deploy.fetch import sha256_of  # noqa: E402


def plain_read(path: Path) -> int:
    n = 0
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            n += len(block)
    return n


def best_of(fn, path: Path, runs: int = 3) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn(path)
        times.append(time.perf_counter() - t)
    return min(times)


def main(mib: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "shard.bin"
        with path.open("wb") as out:
            for _ in range(mib):
                out.write(os.urandom(1 << 20))
        plain_read(path)  # into the page cache: both sides read from memory
        floor = best_of(plain_read, path)
        verify = best_of(sha256_of, path)
    result = {
        "mib": mib,
        "read_mib_s": mib / floor,
        "verify_mib_s": mib / verify,
        "verify_over_read": verify / floor,
    }
    print(
        f"plain read: {mib / floor:,.0f} MiB/s; sha256 pass: {mib / verify:,.0f} MiB/s "
        f"({verify / floor:.1f}x the read time, measured, best of 3)"
    )
    print(
        f"a 20.6 GB checkpoint (the digest's) verifies in about {20.6e9 / 2**20 / (mib / verify):.0f} s at this rate (derived)"
    )
    print(json.dumps(result))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="sha256 verification speed against a plain read")
    parser.add_argument(
        "mib", nargs="?", type=int, default=512, help="size of the file read and verified (MiB)"
    )
    main(parser.parse_args().mib)  # bad input: argparse's one-line error and exit 2
