"""What doctor's attribution rules (servebox/doctor/attribution.py) would claim over the corpus.

For every case's root exception, each rule's reading is computed whether or not a family explains the
exception (in doctor a family always wins; here the rules are judged on everything they would touch), and
listed with the case's expected id, so a reader sees whether they claim the right things. Also counted: the
root exceptions with a frame at all, and the cases where the rule reaches doctor's answer (no family explains).
Run: python benchmarks/doctor_attribution.py [--all]  (--all lists unclaimed roots with a frame too)
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

from servebox.doctor.attribution import attribute, module_path
from servebox.doctor.triage import triage_stream

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the corpus reader beside it, as a script runs
from doctor_accuracy import CORPUS, load_cases  # noqa: E402


def main(argv: list[str]) -> None:
    counts: Counter[str] = Counter()
    for case in load_cases():
        with (CORPUS / case["file"]).open("rb") as handle:
            result = triage_stream(handle, case["file"])
        exc = result.exception
        counts["cases"] += 1
        if exc is None:
            continue
        counts["root exceptions"] += 1
        counts["with a frame"] += bool(exc.raised_in)
        reading = attribute(exc)
        shown = [d.id for d in result.diagnoses]
        if reading is None:
            if "--all" in argv and exc.raised_in:
                print(f"  -  {case['file']}: {exc.type} in {module_path(exc.raised_in)[0]}")
            continue
        counts[reading.id] += 1
        reached = reading.id in shown
        counts[f"{reading.id} reaching the answer"] += reached
        where = "ANSWER" if reached else "family"
        print(
            f"{reading.id:27} {where:6} {case['file']}: expected {case['expected']}; "
            f"{exc.type}: {exc.message[:90]} in {exc.raised_in}"
        )
    print()
    for key, value in counts.items():
        print(f"{key:45} {value}")


if __name__ == "__main__":
    main(sys.argv)
