"""calib38: a top cause that leads the next cause by 0.05 or less is not confident (close_causes.py).

Measured at first contact (benchmarks/doctor_evidence_study.py): such answers were wrong about as often as right on the
earlier batches, and on the held-out ones every such confident answer was wrong (6 of 6). The figures drop together, so
the order, the answer and the gaps stay; a request refused beside an engine that died of another cause does not count.
"""

from __future__ import annotations

from servebox.doctor.close_causes import close_causes
from servebox.doctor.results import CONFIDENT, Diagnosis
from tests.doctor_text import run

LORA_MISSING = """\
0.00.001.137 I srv  llama_server: initializing ...
0.00.005.057 I srv    load_model: loading model '/tmp/m/tiny-f32.gguf'
0.00.013.048 E llama_adapter_lora_init: failed to open '/srv/lora/support-bot.gguf': No such file or directory
0.00.013.246 E cmn  common_init_: failed to load lora adapter '/srv/lora/support-bot.gguf'
0.00.013.285 E cmn  common_init_: failed to create context with model '/tmp/m/tiny-f32.gguf'
0.00.013.321 E srv    load_model: failed to create_context with model '/tmp/m/tiny-f32.gguf'
0.00.013.824 E srv  llama_server: exiting due to model loading error
"""


def causes(result):
    return [(d.id, d.confidence) for d in result.diagnoses if d.role == "cause"]


def diagnosis(
    family: str, confidence: float, role: str = "cause", category: str = "configuration"
) -> Diagnosis:
    return Diagnosis(
        id=family,
        category=category,
        role=role,
        cause="",
        fix="",
        confidence=confidence,
        occurrences=1,
        first_line=1,
        evidence=[],
    )


def test_two_families_tied_keep_their_order_below_the_confident_line():
    """Two causes 0.00 apart (as model-file-missing and lora-load-failed were on LORA_MISSING before learn52b): the
    order stays and both drop below confident."""
    ranked = [diagnosis("llamacpp-model-file-missing", 0.85), diagnosis("llamacpp-lora-load-failed", 0.85)]
    assert close_causes(ranked, set())
    (top, first), (second, figure) = [(d.id, d.confidence) for d in ranked]
    assert top == "llamacpp-model-file-missing" and second == "llamacpp-lora-load-failed"
    assert first < CONFIDENT and figure <= first


def test_a_missing_lora_file_is_the_missing_file_not_a_tie():
    """learn52b: the file-open line ('No such file or directory') makes lora-load-failed its consequence, so the
    missing file is the one cause, confident (the tie above is no longer made by this log)."""
    r = run(LORA_MISSING)
    assert causes(r) == [("llamacpp-model-file-missing", causes(r)[0][1])] and causes(r)[0][1] >= CONFIDENT
    assert r.verdict == "cause found"


def test_a_close_second_on_the_same_line_makes_neither_confident():
    r = run('    model_impl="transformers",\nStableLMAlphaForCausalLM has no vLLM implementation\n')
    found = causes(r)
    assert found[0][0] == "transformers-impl-unavailable" and found[0][1] < CONFIDENT
    assert "unknown-architecture" in [f for f, _ in found]
    assert r.verdict == "competing causes"


def test_a_clear_lead_stays_confident():
    r = run(
        "OSError: [Errno 98] error while attempting to bind on address ('0.0.0.0', 8000): address already in use\n"
    )
    assert r.diagnoses[0].id == "port-in-use" and r.diagnoses[0].confidence >= CONFIDENT


def test_a_request_refused_beside_an_engine_death_does_not_make_the_death_unsure():
    refusal = (
        'HTTP 400 {"error":{"code":400,"message":"Requested prompt logprobs of 40, which is greater than max allowed: '
        '20","type":"invalid_request_error"}}\n'
    )
    death = "OSError: [Errno 98] error while attempting to bind on address ('0.0.0.0', 8000): address already in use\n"
    r = run(refusal + death)
    found = causes(r)
    assert found[0] == ("port-in-use", 0.9) and found[1][0] == "request-logprobs-above-max"
    assert found[1][1] >= 0.85  # as close as can be, but a refusal beside a death does not compete with it
    assert r.verdict != "competing causes"


def test_every_cause_drops_by_the_same_amount_and_symptoms_keep_theirs():
    ranked = [
        diagnosis("a", 0.9),
        diagnosis("b", 0.85),
        diagnosis("c", 0.45),
        diagnosis("s", 0.3, role="symptom"),
    ]
    assert close_causes(ranked, set())  # 0.9 - 0.85 is 0.05 in figures, not 0.05000000000000004
    assert [d.confidence for d in ranked] == [0.69, 0.64, 0.24, 0.3]


def test_a_lead_above_the_margin_or_an_unconfident_top_changes_nothing():
    lead = [diagnosis("a", 0.9), diagnosis("b", 0.84)]
    unsure = [diagnosis("a", 0.65), diagnosis("b", 0.65)]
    assert not close_causes(lead, set()) and not close_causes(unsure, set())
    assert [d.confidence for d in lead + unsure] == [0.9, 0.84, 0.65, 0.65]


def test_a_refusal_set_aside_is_not_the_next_cause():
    death, refusal = diagnosis("oom", 0.9), diagnosis("model-name-not-served", 0.9, category="requests")
    assert not close_causes([death, refusal], {id(refusal)})
    assert death.confidence == 0.9
