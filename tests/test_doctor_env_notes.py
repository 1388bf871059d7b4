"""An unknown VLLM_* variable: a refusal when vLLM checks strictly, a note when it only warns and goes on.

Wordings written for these tests (another variable, another prefix than the corpus's fresh-30 log).
"""

from __future__ import annotations

import io

from servebox.doctor.triage import triage_stream


def triage(text: str):
    return triage_stream(io.BytesIO(text.encode()), "written-for-this-test.log")


def test_a_warned_unknown_variable_is_a_note_naming_it_and_the_start_is_healthy():
    r = triage(
        "WARNING 12-04 05:00:00 [interface.py:1458] Unknown vLLM environment variable detected: VLLM_USE_FLASHINFER_SAMPLERR\n"
        "INFO 12-04 05:00:40 [api_server.py:2000] Starting vLLM API server 0 on http://0.0.0.0:8000\n"
        "INFO:     Application startup complete.\n"
    )
    assert not r.fatal and r.verdict == "no failure"
    note = r.diagnoses[0]
    assert note.id == "vllm-env-var-ignored" and note.role == "note"
    assert "VLLM_USE_FLASHINFER_SAMPLERR" in note.cause and "ignored" in note.cause


def test_a_strict_refusal_stays_the_cause():
    r = triage(
        "(APIServer pid=9) ValueError: Unknown vLLM environment variable detected: VLLM_USE_FLASHINFER_SAMPLERR\n"
    )
    assert r.fatal and r.diagnoses[0].id == "vllm-env-var-unknown"
