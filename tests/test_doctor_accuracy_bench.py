"""benchmarks/doctor_accuracy.py's learning-curve lines: a case taught from a public thread counts as right
before learning only when the answer recorded when it was added is its expected cause as first written, and
as confidently wrong only when that answer named another cause at >= 0.70."""

from __future__ import annotations

from tests.conftest import load_script


def load():
    return load_script("benchmarks/doctor_accuracy.py")


def test_first_answers_tally_each_round_before_learning():
    cases = [
        {"train": "t", "round": 1, "expected": "a", "first_answer": "a", "first_confidence": 0.9},
        {"train": "t", "round": 1, "expected": "a", "first_answer": "b", "first_confidence": 0.9},
        {"train": "t", "round": 1, "expected": "a", "first_answer": "none", "first_confidence": 0.0},
        {"train": "t", "round": 2, "expected": "c", "expected_when_made": "a", "first_answer": "a"},
        {"train": "t", "round": 2, "expected": "c", "first_answer": "d", "first_confidence": 0.5},
        {"expected": "x"},  # not taught from a thread: not counted
    ]
    lines = load().first_answers(cases)
    assert "t round 1:   3 threads, right before learning   1 ( 33.3%), confident wrong 1" in lines[0]
    assert "t round 2:   2 threads, right before learning   1 ( 50.0%), confident wrong 0" in lines[1]
    assert "all rounds: 5 threads, right before learning 2 ( 40.0%), confident wrong 1" in lines[2]


def test_no_taught_cases_no_lines():
    assert load().first_answers([{"expected": "x"}]) == []
