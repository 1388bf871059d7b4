"""How high can a log reader go on public threads? The first-contact misses, by what their logs carry.

Issue 12 asks for 90% top-1 on unseen failures; on public threads' logs doctor was right 37% at first contact.
Whether the rest is doctor's to win or the logs' to withhold was unmeasured until stop 30, when every public
first-contact miss was labelled (benchmarks/data/doctor_first_contact_ceiling.json says how): named (the log's
words state the cause), inferable (the evidence is in the log), absent (only the thread has it). Printed: the
labels, what doctor first said on each (nothing, or another id), the ceilings they imply, and how many of each
the current servebox names right (the corpus's expected answer, after the learning since first contact).
Run: python benchmarks/doctor_ceiling.py [--verbose]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE / "data" / "doctor_first_contact_ceiling.json"
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))
from doctor_accuracy import CORPUS, load_cases, top_ids  # noqa: E402

from servebox.doctor.triage import triage_stream  # noqa: E402

LABELS = ("named", "inferable", "absent")


def answer_now(name: str) -> str:
    """The current servebox's first cause or symptom on a corpus log, as doctor_accuracy.py reads it."""
    with open(CORPUS / name, encoding="utf-8", errors="replace") as handle:
        return top_ids(triage_stream(handle, name))[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--verbose", action="store_true", help="one line per labelled log")
    verbose = parser.parse_args().verbose
    data = json.loads(DATA.read_text())
    cases = {c["file"]: c for c in load_cases()}
    total, right, misses = (
        data["public_first_contact_logs"],
        data["public_first_contact_right"],
        data["misses"],
    )
    print(f"public logs at first contact: {total}, right {right} ({right / total:.1%}), missed {len(misses)}")
    by = Counter(m["label"] for m in misses)
    silent = Counter(m["label"] for m in misses if m["first_answer"] == "none")
    for label in LABELS:
        print(
            f"  {label:9} {by[label]:4} ({by[label] / total:5.1%} of all)  first answer none {silent[label]:3}, another id {by[label] - silent[label]:3}"
        )
    named = right + by["named"]
    print(
        f"ceiling of a reader of stated causes: {named / total:.1%}; with inferable ones: {(named + by['inferable']) / total:.1%}"
    )
    now = Counter()
    for m in misses:
        got = answer_now(m["file"])
        ok = got == cases[m["file"]]["expected"]
        now[m["label"], ok] += 1
        if verbose:
            print(f"  {'ok ' if ok else 'miss'} {m['label']:9} {m['batch']:9} {m['file']}: now {got}")
    for label in LABELS:
        print(f"  now right (after learning): {label:9} {now[label, True]:3} of {by[label]}")


if __name__ == "__main__":
    main()
