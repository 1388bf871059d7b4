"""A client whose own tally says every one of its requests succeeded: refusals in the server's log were not its run's.

Why (learn51a, fresh-464's `vllm bench serve --header Authorization=KEY` against llama-server --api-key): the server
logged a few 401 'Invalid API Key' lines, read as api-key-missing at 0.85, while the benchmark finished 10 of 10 and
exited 0. The 401s were side requests that do not carry the user's header (bench's /tokenize probe), not the run's
own. A pasted log puts the client's output and the server's log in sections, so line order does not say which came
first; the client's summary counts every request it sent, so it speaks for all of them wherever the server's lines sit.
A refusal then only explains what it refused: a note, not the run's cause.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from servebox.doctor.texts import answer_text

if TYPE_CHECKING:
    from servebox.doctor.results import Diagnosis
    from servebox.doctor.triage import Triage

SUCCEEDED, FAILED = "bench-successful-requests-shown", "bench-failed-requests-shown"
# the families that say only that some request was refused (by its status), not which: a client's clean tally answers them
REFUSALS = ("api-key-missing", "request-refused", "request-refused-no-reason")
NOTE = answer_text("client_succeeded", "note")


def _count(t: Triage, entry: str) -> tuple[int, int] | None:
    """The number ending the entry's last kept line (bench's '{:<40} {:<10}' row: the final summary, where a log holds
    several runs) and that line."""
    hit = t.hits.get(entry)
    if hit is None or not hit.evidence:
        return None
    line, text = hit.evidence[-1]
    words = text.split()
    return (int(words[-1]), line) if words and words[-1].isdigit() else None


def clean_tally(t: Triage) -> tuple[int, int] | None:
    """(successful requests, line) where a client's summary counts some successful requests and zero failed."""
    ok, failed = _count(t, SUCCEEDED), _count(t, FAILED)
    if ok is None or failed is None or ok[0] == 0 or failed[0] != 0:
        return None
    return ok


def refusals_outlived(t: Triage, diagnoses: list[Diagnosis]) -> None:
    """Lower a refusal cause to a note where the client's tally says all its requests succeeded."""
    if (tally := clean_tally(t)) is None:
        return
    for d in diagnoses:
        if d.id in REFUSALS and d.role in ("cause", "symptom"):
            d.role, d.fatal, d.confidence = "note", False, min(d.confidence, 0.3)
            d.cause = NOTE.format(ok=tally[0], at=tally[1]) + d.cause
            d.fix = (
                "Nothing failed in the run; act on it only if the refused requests matter to you. " + d.fix
            )
