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


def test_every_recorded_first_answer_names_who_taught_it():
    """A case with a first answer (recorded before the knowledge base learnt from it) names its teacher and round:
    the learning curve groups by them, and a case without them broke the benchmark once (stop 29)."""
    import tomllib
    from pathlib import Path

    manifest = Path(__file__).parent / "fixtures" / "doctor-corpus" / "manifest.toml"
    cases = tomllib.loads(manifest.read_text())["case"]
    assert [c["file"] for c in cases if "first_answer" in c and not ("train" in c and "round" in c)] == []
