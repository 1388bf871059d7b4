"""vLLM's own report of its engine's death, with nothing in the log saying why: the answer is the one family of that
cause, engine-killed-from-outside.

learn41b (s41, fresh-299's fresh299-vllm-worker-sigquit-idle-then-completion; stop 40 noted the pair as near
duplicates): engine-core-killed (vLLM's words for a dead engine process: the API server's 'engine core exited
unexpectedly', the executor's 'Worker proc X died unexpectedly (exit code: N)') and engine-killed-from-outside (a shell's
or a supervisor's report of a process ended by a signal) named one cause, killed from outside with no line of its own,
and the corpus labelled the same death with either id (fresh-273/285's worker kills engine-core-killed by adjudication,
fresh-299's engine-killed-from-outside as made). They are one answer now: where vLLM's report is the only failure the log
shows (no cause entry, no root exception left unexplained; not an asked-for stop's consequence, not after a worker's
own error: engine-core-killed's unless_shutdown / unless_seen), it answers engine-killed-from-outside, with vLLM's line
as evidence and the family's words, at vLLM's figure (0.50: its report alone cannot tell a kill from a native crash). Beside a named cause
engine-core-killed stays what it always was, a symptom that says the engine died (every vLLM death prints it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from servebox.doctor.results import Diagnosis
    from servebox.doctor.triage import Triage

REPORTED = "engine-core-killed"  # vLLM's own words for its engine's death: a symptom beside any named cause
KILLED = "engine-killed-from-outside"  # the cause, however the death was reported


def killed_alone(t: Triage, diagnoses: list[Diagnosis]) -> None:
    """Where vLLM's report of its dead engine is the log's only failure, it is the answer engine-killed-from-outside."""
    if any(d.role == "cause" for d in diagnoses):
        return
    hit = t.hits.get(REPORTED)
    if hit is None or hit.relayed:  # up's console quoting the symptom it found stays that symptom
        return
    killed = t.signature(KILLED)
    for d in diagnoses:
        if killed is not None and d.id == REPORTED and d.role == "symptom" and not _consequence(t, d):
            # the family's own words (up's console quotes them, and doctor reads them back by them), vLLM's figure
            d.id, d.role, d.category, d.cause, d.fix = (
                KILLED,
                "cause",
                killed.category,
                killed.cause,
                killed.fix,
            )
            return


def _consequence(t: Triage, d: Diagnosis) -> bool:
    """The report made a consequence: a worker's own failure came first (engine-core-killed's unless_seen)."""
    sig = t.signature(REPORTED)
    return sig is not None and bool(t.seen_requirements.intersection(sig.unless_seen))
