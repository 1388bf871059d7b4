"""What the doctor family tests share: triage a log written in the test, and its first cause or symptom."""

from __future__ import annotations

import io

from servebox.doctor.triage import TriageResult, triage_stream


def run(text: str) -> TriageResult:
    return triage_stream(io.StringIO(text), "t")


def top_cause(result: TriageResult):
    """The first cause or symptom (notes and progress lines are not answers); None when there is neither."""
    return next((d for d in result.diagnoses if d.role in ("cause", "symptom")), None)
