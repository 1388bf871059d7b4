"""servebox's llama.cpp plan against the real llama-server (the pinned b11434, CPU build): every buffer it
prints at start-up, per architecture and flag set, and the worst error. KV, recurrent, model and output
buffers must match to the log's 0.01 MiB; the compute buffer (an estimate) within 10%. The held-back cases
were not looked at while the compute estimate was calibrated; they are scored separately.
Needs .llama-cpp/bin/llama-server (bash tools/llama-cpp.sh). Run: python benchmarks/llamacpp_plan_accuracy.py
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.llamacpp_engine_runs import CASES, HELD_BACK, SERVER, Comparison, make_models, run_case  # noqa: E402


def score(title: str, cases, models) -> list[Comparison]:
    rows: list[Comparison] = []
    print(f"\n{title}")
    print(f"{'arch':9} {'flags':48} {'figure':16} {'planned':>9} {'logged':>9} {'error':>8}")
    for arch, flags in cases:
        found, _ = run_case(models, arch, flags)
        for c in found:
            mark = "" if c.ok else "  <-- off"
            print(
                f"{arch:9} {' '.join(flags):48} {c.figure:16} {c.predicted_mib:9.2f} {c.reported_mib:9.2f} "
                f"{100 * c.error:+7.2f}%{mark}"
            )
        rows += found
    exact = [c for c in rows if c.tolerance == 0]
    compute = [c for c in rows if c.tolerance > 0]
    worst_exact = max(exact, key=lambda c: abs(c.predicted_mib - c.reported_mib))
    worst_compute = max(compute, key=lambda c: abs(c.error))
    print(
        f"exact figures: {sum(c.ok for c in exact)}/{len(exact)} match; worst "
        f"{worst_exact.figure} {worst_exact.arch} {abs(worst_exact.predicted_mib - worst_exact.reported_mib):.2f} MiB"
    )
    print(
        f"compute buffer (estimate): {sum(c.ok for c in compute)}/{len(compute)} within 10%; worst "
        f"{100 * worst_compute.error:+.1f}% ({worst_compute.arch} {' '.join(worst_compute.flags)})"
    )
    return rows


def main() -> None:
    if not SERVER.exists():
        sys.exit(f"{SERVER} is missing: run bash tools/llama-cpp.sh")
    with tempfile.TemporaryDirectory() as tmp:
        models = make_models(Path(tmp))
        score(f"calibration cases ({len(CASES)})", CASES, models)
        score(f"held-back cases ({len(HELD_BACK)})", HELD_BACK, models)


if __name__ == "__main__":
    main()
