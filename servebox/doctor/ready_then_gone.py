"""An engine that came up every time and vanished after, until servebox up's start limit: killed from outside.

learn50c (fresh-451's up-llama-sigkill-when-ready-restart-limit-2: llama-server SIGKILLed each time it was ready; the
paste keeps up's console without its INCIDENT lines). The start limit (servebox-start-limit-reached) is only a symptom:
each start ended the same way, for a reason of its own. Where a signal's wording is in view (up's INCIDENT 'the engine
process is gone; diagnosis: no known cause in the log', systemd's 'status=9/KILL', a shell's 'Killed', Go's 'signal:
killed') engine-killed-from-outside already answers, as a cause above the symptom. Here only up's own lines are: every
start reached 'ready' (it loaded, listened and answered /health), each next start followed with nothing in between,
and up gave up with 'no known cause in the log' (the doctor up ran on the engine's own log found nothing). A start that
fails by itself never gets to ready, or its log names why (a crash loop: up's give-up then quotes that cause or
symptom, or a start stays short of ready); a process that served and then died with no word of its own was killed
(SIGKILL writes nothing) or crashed in native code -- engine-killed-from-outside's cause names both. Below the
confident line: who killed it is not in the log.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from servebox.doctor.bench_context import first_lines
from servebox.doctor.results import Diagnosis
from servebox.doctor.texts import answer_text

if TYPE_CHECKING:
    from servebox.doctor.triage import Triage

START_LIMIT, KILLED = "servebox-start-limit-reached", "engine-killed-from-outside"
STARTED, READY = "servebox-up-engine-started", "servebox-up-engine-ready"
NOTHING_FOUND = (
    "): no known cause in the log"  # up's give-up, its doctor having found nothing in the engine's log
)
SURE = 0.5
CAUSE = answer_text("ready_then_gone", "cause")


def ready_then_gone(t: Triage, diagnoses: list[Diagnosis]) -> Diagnosis | None:
    """engine-killed-from-outside where every start up made reached ready and up then gave up at its start limit with
    no cause found in the engine's log, and nothing else in the log is a cause or another symptom."""
    limit, started, ready = t.hits.get(START_LIMIT), t.hits.get(STARTED), t.hits.get(READY)
    if limit is None or started is None or ready is None or started.count < 2:
        return None
    if (
        ready.count < started.count
        or ready.last_line < started.last_line
        or limit.first_line < ready.last_line
    ):
        return None  # a start that never served: a crash loop of its own
    if not any(NOTHING_FOUND in text for _, text in limit.evidence):
        return None  # up's doctor named a cause, a symptom or a note: that one is the story
    if any(d.role == "cause" or (d.role == "symptom" and d.id != START_LIMIT) for d in diagnoses):
        return None
    sig = next(s for s in t.signatures if s.id == KILLED)
    return Diagnosis(
        id=KILLED,
        category=sig.category,
        role="cause",
        cause=CAUSE.format(
            n=started.count, first=started.first_line, last=ready.last_line, limit=limit.first_line
        ),
        fix=sig.fix,
        confidence=SURE,
        occurrences=started.count,
        first_line=started.first_line,
        evidence=first_lines(started, ready, limit),
        fatal=True,
    )
