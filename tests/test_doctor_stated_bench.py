"""benchmarks/doctor_stated.py and the corpus's `stated` labels: an answer counts as quoting the cause only when it is
a generic answer (the reader's, an exception's, an unnamed refusal) whose quoted text holds a labelled string; every
labelled string is really in its log, within one line."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from tests.conftest import load_script

CORPUS = Path(__file__).resolve().parent / "fixtures" / "doctor-corpus"


def load():
    return load_script("benchmarks/doctor_stated.py")


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


def test_every_stated_string_is_in_one_line_of_its_log() -> None:
    bad = []
    for case in tomllib.loads((CORPUS / "manifest.toml").read_text())["case"]:
        assert not ("stated" in case and "stated_absent" in case), case["file"]
        if "stated" not in case:
            continue
        lines = [_norm(line) for line in (CORPUS / case["file"]).read_text(errors="replace").splitlines()]
        bad += [(case["file"], s) for s in case["stated"] if not any(_norm(s) in line for line in lines)]
    assert bad == []


def test_a_generic_answer_quoting_the_stated_line_counts_and_a_family_does_not() -> None:
    bench = load()
    case = {"expected": "new:quux", "stated": ["quux table has 3 columns, expected 4"]}
    quote = (
        "No known signature; the log says why at line 2: plugin zeta: quux table has 3 columns, expected 4"
    )
    assert bench.verdict(case, ["stated-cause", 0.35, [quote], 1]) == (False, True, False)
    assert bench.verdict(case, ["some-family", 0.9, [quote], 1]) == (False, False, True)
    assert bench.verdict(case, ["stated-cause", 0.35, ["plugin zeta: loaded"], 1]) == (False, False, False)
    assert bench.verdict({"expected": "none"}, ["none", 0.0, [], 0]) == (True, True, False)


def test_a_quote_cut_short_still_holds_most_of_the_stated_string() -> None:
    bench = load()
    stated = "ValueError: Free memory on device cuda:0 (79.12/94.97 GiB) on startup is less than desired"
    assert bench.holds("Free memory on device cuda:0 (79.12/94.97 GiB) on startup is less", stated)
    assert not bench.holds("Free memory", stated)
