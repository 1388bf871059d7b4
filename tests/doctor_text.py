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


def answer_ids(log: str) -> list[str]:
    """Every cause and symptom doctor names for the log, in rank order (what a near-miss test checks is absent)."""
    return [d.id for d in run(log).diagnoses if d.role in ("cause", "symptom")]


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


def family_tests(cases, near_misses=()):
    """The two table tests every family file has, made once: assign them to module-level test_* names.
    cases: (family, log) rows whose first answer must be the family; near_misses: (family, log) rows it must not
    take confidently."""

    @pytest.mark.parametrize(("expected", "log"), params(cases))
    def names_the_cause(expected, log):
        assert_named(expected, log)

    @pytest.mark.parametrize(("family", "log"), params(near_misses))
    def near_miss_not_confident(family, log):
        assert_not_confident(family, log)

    return names_the_cause, near_miss_not_confident
