"""How much of Kubernetes' pod-failure vocabulary `servebox doctor` can name (events, STATUS words, lastState).

Why: a vLLM / llama.cpp pod that fails says so in Kubernetes' words first (`kubectl describe pod`'s events:
BackOff, Unhealthy, FailedScheduling, Evicted; the container's lastState OOMKilled / 137), often before or
instead of the engine's own log. benchmarks/data/kubernetes_events.json holds that vocabulary (made by
tools/harvest_kubernetes_events.py from the kubelet's and scheduler's source). Each entry is rendered as
`kubectl describe pod` shows it (an Events row, or the container state block), fed alone to triage_stream and
classified by coverage_common.classify: named by a specific family, generic only (a catch-all, a symptom, the
bare exception) or nothing.
Run: python benchmarks/doctor_coverage_kubernetes_events.py [--uncovered N] [--json]
Measured (52 failure entries, this machine): main's KB (97e7068) 4 named, 3 generic, 45 none (7.7% named, 13.5% any);
with knowledge/kubernetes.toml 36 named, 15 generic, 1 none (69.2% named, 98.1% any). The generic ones are symptoms
by policy (a probe failure, a crash loop, an image pull back-off, a failed mount say where to look, not why); the
one left is the bare 'Reason: Error / Exit Code: 1' state, which names nothing (the engine's own log does).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the shared helper beside it
from coverage_common import classify, generic_ids, print_table  # noqa: E402

DATA = Path(__file__).resolve().parent / "data" / "kubernetes_events.json"
GROUPS = ("container", "probe", "scheduling", "image", "eviction", "pod", "volume", "gpu")
# Normal events that are no failure by themselves (a sandbox re-created after a node restart)
NOT_FAILURES = {"SandboxChanged"}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--uncovered", type=int, default=60, help="list this many uncovered entries")
    ap.add_argument("--json", action="store_true", help="one JSON line per entry instead of the report")
    a = ap.parse_args(argv)
    doc = json.loads(DATA.read_text())
    generic = generic_ids(set())
    entries = [e for e in doc["entries"] if e["reason"] not in NOT_FAILURES]
    per_group: dict[str, Counter] = defaultdict(Counter)
    results = []
    for e in entries:
        verdict, fam = classify(e["log"], generic)
        per_group[e["group"]][verdict] += 1
        results.append((e, verdict, fam))
        if a.json:
            print(
                json.dumps({"reason": e["reason"], "format": e["format"], "verdict": verdict, "family": fam})
            )
    if a.json:
        return 0
    print(f"source: {doc['sources']['kubernetes']}; {len(entries)} failure entries of {len(doc['entries'])}")
    print_table(GROUPS, per_group, "group")
    uncovered = [r for r in results if r[1] != "named"]
    print(f"\nuncovered (generic or none) ({min(a.uncovered, len(uncovered))} of {len(uncovered)}):")
    for e, verdict, fam in uncovered[: a.uncovered]:
        print(f"  {e['group']:10} {e['reason']:26} {e['format'][:52]:52} {verdict:7} {fam[:28]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
