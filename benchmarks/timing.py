"""The one timing helper the benchmark scripts share: the best of a few runs (the least disturbed)."""

from __future__ import annotations

import time
from collections.abc import Callable


def best_of(fn: Callable[[], object], repeats: int = 5) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def child_cpu(cmd: list[str], repeats: int = 3, cwd=None) -> float:
    """The least CPU time (user + sys) a child command took: unlike wall time, a busy machine cannot stretch it."""
    import resource
    import subprocess

    best = float("inf")
    for _ in range(repeats):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(cmd, capture_output=True, cwd=cwd)  # exit 1 ("will not work") is an answer too
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        best = min(best, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
    return best
