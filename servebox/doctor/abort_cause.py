"""A native abort whose reason the log printed just above it.

llama.cpp prints its own error line, then aborts: 'parse: error parsing grammar: Undefined rule identifier ...',
'E failed to parse grammar', then "terminate called after throwing an instance of 'std::runtime_error'" and
'  what():  failed to parse grammar' (a --grammar given at start); or an error line, then ggml's 'FILE:N: GGML_ABORT'.
The abort entries (native-abort, llamacpp-assert) name only that the process aborted; a cause entry matched on a line
directly above the abort (or on the exception's what() line just under it) names why. That cause is then what ended the
program (fatal, even a request family's wording such as a grammar that does not parse), and the abort is its symptom.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from servebox.doctor.triage import Diagnosis

ABORTS = ("native-abort", "llamacpp-assert")
ABOVE = (
    3  # lines above the abort line that count as "directly before" it (the error line, the grammar it echoes)
)
BELOW = 1  # the what() line under 'terminate called after throwing'


def _near(d: Diagnosis, lines: set[int]) -> bool:
    return any(a - ABOVE <= e.line <= a + BELOW and e.line not in lines for e in d.evidence for a in lines)


def abort_explained(diagnoses: list[Diagnosis]) -> None:
    """Make an abort entry the symptom of a cause entry matched directly above its line."""
    for abort in [d for d in diagnoses if d.id in ABORTS and d.role == "cause"]:
        lines = {e.line for e in abort.evidence}
        why = [d for d in diagnoses if d.role == "cause" and d.id not in ABORTS and _near(d, lines)]
        for d in why:
            d.fatal = True
        if why:
            abort.role = "symptom"
