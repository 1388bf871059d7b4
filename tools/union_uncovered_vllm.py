"""Union of the likely-met vLLM messages doctor does not name specifically, across older vLLM releases.

Why: public threads come from vLLM 0.6-0.11, whose wordings differ from the installed one; one list
deduplicated across versions shows which wordings matter most (likely met, carried by many versions).
Uses benchmarks/doctor_coverage_vllm.py's harvest and classify on each --source.
Run: python tools/union_uncovered_vllm.py [--root /tmp/vsrc] [--versions 0.7.3,0.8.5] [--min-likelihood 6]
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from doctor_coverage_vllm import area_of, classify, harvest, likelihood  # noqa: E402

from servebox.doctor.signatures import load_signatures  # noqa: E402

VERSIONS = ("0.6.6.post1", "0.7.3", "0.8.5", "0.9.2", "0.10.2", "0.11.0")


def normalise(text: str) -> str:
    """Collapse digits and quoted values so that one message of several versions is one key."""
    text = re.sub(r"'[^'\n]*'|\"[^\"\n]*\"|`[^`\n]*`", "Q", text)
    text = re.sub(r"\d+(?:\.\d+)*", "N", text)
    return re.sub(r"\s+", " ", text).strip().lower()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default="/tmp/vsrc", help="holds VERSION/vllm for each version")
    ap.add_argument("--versions", default=",".join(VERSIONS))
    ap.add_argument("--min-likelihood", type=int, default=6)
    args = ap.parse_args()
    sigs = {s.id: s for s in load_signatures()}
    union: dict[str, dict] = {}
    for v in args.versions.split(","):
        msgs = harvest(Path(args.root) / v / "vllm")
        likely = covered = 0
        for m in msgs:
            m.area, m.likelihood = area_of(m.file), likelihood(m)
            if m.likelihood < args.min_likelihood:
                continue
            likely += 1
            classify(m, sigs)
            if m.verdict == "specific":
                covered += 1
                continue
            e = union.setdefault(normalise(m.text), {"m": m, "versions": [], "sites": [], "tops": set()})
            if v not in e["versions"]:
                e["versions"].append(v)
            e["sites"].append(f"{v}:{m.file}:{m.line}")
            e["tops"].add(m.top)
            e["m"] = m if m.likelihood > e["m"].likelihood else e["m"]
        print(f"# {v}: {covered}/{likely} likely-met specific ({100 * covered / max(likely, 1):.1f}%)")
    rows = sorted(union.values(), key=lambda e: (-e["m"].likelihood, -len(e["versions"]), e["m"].file))
    print(f"# union of uncovered likely-met messages: {len(rows)}")
    for e in rows:
        m = e["m"]
        print(
            f"[{m.likelihood:>2}] x{len(e['versions'])} {','.join(e['versions'])} {e['sites'][-1].split(':', 1)[1]}"
            f" {m.type}: {m.text[:200]!r} -> {','.join(sorted(e['tops']))}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
