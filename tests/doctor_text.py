"""What the doctor family tests share: triage a log written in the test, and its first cause or symptom."""

from __future__ import annotations

import io

import pytest

from servebox.doctor.triage import TriageResult, triage_stream


def run(text: str) -> TriageResult:
    return triage_stream(io.StringIO(text), "t")


def top_cause(result: TriageResult):
    """The first cause or symptom (notes and progress lines are not answers); None when there is neither."""
    return next((d for d in result.diagnoses if d.role in ("cause", "symptom")), None)


def params(rows):
    """(family, log) rows as pytest params named family-N, for the family tests' tables."""
    return [pytest.param(family, log, id=f"{family}-{i}") for i, (family, log) in enumerate(rows)]


def assert_named(expected: str, log: str) -> None:
    """The log's first cause or symptom is `expected`."""
    top = top_cause(run(log))
    assert top is not None and top.id == expected, (top and top.id, log)


def assert_not_confident(family: str, log: str) -> None:
    """A near miss: `family` is not the log's confident first answer (below 0.70 it may stand, as a guess)."""
    top = top_cause(run(log))
    assert top is None or top.id != family or top.confidence < 0.7, (top.id, top.confidence, log)
