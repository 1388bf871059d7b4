"""How much of the CUDA runtime's and NCCL's error vocabulary `servebox doctor` can name.

Why: a log whose only clue is a CUDA or NCCL error string is named only if some family knows that
string. benchmarks/data/cuda_errors.json holds every string the real libraries return (made by
tools/harvest_cuda_errors.py from NVIDIA's PyPI wheels) and the formats torch, llama.cpp and vLLM print
them in. Each entry is rendered in each format that prints its library, fed alone to triage_stream and
classified by the top diagnosis: named by a specific family, generic only (a catch-all, a symptom or the
bare exception), or nothing. An entry counts as named when every format that prints it is named.
Run: python benchmarks/doctor_coverage_cuda_errors.py [--uncovered N] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the shared helper beside it
from coverage_common import classify, generic_ids  # noqa: E402

DATA = Path(__file__).resolve().parent / "data" / "cuda_errors.json"
# catch-alls that say "CUDA (or NCCL) failed here", not why
# (llamacpp-cuda-init-failed answers every code on the init path with the same list of suspects)
UMBRELLA = {
    "llamacpp-cuda-error", "llamacpp-cuda-init-failed", "native-abort", "uncaught-exception", "llamacpp-abort",
}  # fmt: skip
RANK = {"none": 0, "generic": 1, "named": 2}


def render(fmt: dict, entry: dict) -> str:
    return fmt["template"].format(msg=entry["message"], code=entry["code"], name=entry["name"])


def formats_for(doc: dict, entry: dict) -> list[dict]:
    return [
        f
        for f in doc["formats"]
        if f["lib"] == entry["lib"] and entry["code"] not in f.get("codes_except", ())
    ]


def measure(doc: dict) -> list[dict]:
    """One row per entry: its verdict and family in each format, and the worst verdict over them."""
    generic = generic_ids(UMBRELLA)
    rows = []
    for e in doc["entries"]:
        per = {f["id"]: classify(render(f, e), generic) for f in formats_for(doc, e)}
        worst = min((v for v, _ in per.values()), key=RANK.__getitem__)
        rows.append({**e, "per_format": per, "verdict": worst})
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--uncovered", type=int, default=200, help="list this many entries not named everywhere")
    ap.add_argument("--json", action="store_true", help="one JSON line per entry instead of the report")
    a = ap.parse_args(argv)
    doc = json.loads(DATA.read_text())
    rows = measure(doc)
    if a.json:
        for r in rows:
            print(json.dumps({k: r[k] for k in ("lib", "code", "name", "verdict", "per_format")}))
        return 0
    print(f"sources: {', '.join(doc['sources'])}; {len(rows)} entries, {len(doc['formats'])} formats")
    print(f"{'format':22} {'n':>4} {'named':>6} {'generic':>8} {'none':>5}  named%")
    for f in doc["formats"]:
        c = Counter(r["per_format"][f["id"]][0] for r in rows if f["id"] in r["per_format"])
        n = sum(c.values()) or 1
        print(
            f"{f['id']:22} {sum(c.values()):4} {c['named']:6} {c['generic']:8} {c['none']:5}  {100 * c['named'] / n:5.1f}"
        )
    for lib in ("cudart", "nccl", None):
        group = [r for r in rows if lib is None or r["lib"] == lib]
        c = Counter(r["verdict"] for r in group)
        label = f"entries {lib or 'overall'} (worst format)"
        print(
            f"{label:35} {len(group):4}  named {c['named']:4}  generic {c['generic']:4}  none {c['none']:4}"
            f"  named% {100 * c['named'] / (len(group) or 1):5.1f}"
        )
    uncovered = [r for r in rows if r["verdict"] != "named"]
    print(f"\nnot named in every format ({min(a.uncovered, len(uncovered))} of {len(uncovered)}):")
    for r in uncovered[: a.uncovered]:
        fams = " ".join(f"{k}={v[0][0]}:{v[1][:24]}" for k, v in r["per_format"].items() if v[0] != "named")
        print(f"  {r['lib']:6} {r['code']:4} {r['name'][:34]:34} {r['message'][:60]!r:62} {fams}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
