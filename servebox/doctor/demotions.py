"""What the log shows after a matched line, and how it lowers that line's diagnosis.

Why apart from ranking.py: a cause is matched on its own line, but whether it ended the run is read from what came
after it (the server came up, a retry completed, the start went on, a stop was asked for, an earlier line explains
it). These rules run in this order on each diagnosis; docs/doctor-ranking.md lists them.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from servebox.doctor.afterwards import (
    caught_then_up,
    follows_earlier,
    instance_went_on,
    kept_up,
    only_below_error,
    progress_after,
    refused_after_up,
    retried_then_done,
    served_after,
    serving_after,
    shutdown_before,
    stalled_in_open_step,
    survived,
)
from servebox.doctor.co_tenant import another_process
from servebox.doctor.kill_after_hang import killed_after_hang, limit_beside_kill_typed
from servebox.doctor.plugin_load import plugin_skipped
from servebox.doctor.signatures import demoting
from servebox.doctor.texts import answer_text
from servebox.doctor.unit_refused import run_by_hand_between

if TYPE_CHECKING:
    from servebox.doctor.signatures import Signature
    from servebox.doctor.triage import Diagnosis, Hits, Triage

# a router child's own 'starting server in router mode' (llama-server b11434 spawned without -m / -hf / -dr): such a
# child loads nothing, so its later 'listening on' is a router's, not the instance going on to load (learn48e)
CHILD_ROUTER_START = re.compile(r"^\[\d+\] .*\bstarting server in router mode", re.IGNORECASE)


def child_started_as_router(hit: Hits) -> bool:
    """Every line of the hit is a router child starting as a router itself: instance_went_on's progress is no load."""
    return bool(hit.evidence) and all(CHILD_ROUTER_START.search(text) for _, text in hit.evidence)


IN_STEP_NOTE = answer_text("demotions", "in_step_note")


GENERATED = "engine-generated-tokens"  # vLLM's metrics line with a generation throughput above 0.0 (a marker)
SERVED_THROUGH_NOTE = answer_text("demotions", "served_through_note")


def generated_after(t: Triage, line: int) -> int | None:
    """The last line of a metrics report of tokens generated after `line` (learn47e: fresh-409's flood of 150
    streamed requests, the 60 s waits logged while the workers worked through them, every request answered)."""
    made = t.hits.get(GENERATED)
    return made.last_line if made is not None and made.last_line > line else None


def what_followed(d: Diagnosis, sig: Signature, t: Triage, hit: Hits, groups: dict) -> None:
    """Lower `d` (in place) where the run went on past its line, or an earlier line explains it."""
    _went_on(d, sig, t, hit)
    _still_moving(d, sig, t, hit, groups)
    _explained_earlier(d, sig, t, hit)
    killed_after_hang(d, t, hit)  # a kill that cleaned up a server its clients found hung (learn47h)
    limit_beside_kill_typed(d, t, hit)  # a memory limit set, but a kill -9 typed too (learn47h)


# an engine that says it dropped what it could not read and went on with something else (llama.cpp's 'failed to parse
# tool use chat template (ignoring it)', its minja era's 'failed to parse chat template (defaulting to chatml)')
FELL_BACK = re.compile(r"\((?:ignoring it|defaulting to [\w.-]+)\)", re.IGNORECASE)


def fell_back(d: Diagnosis, t: Triage, hit: Hits) -> None:
    """A cause whose every line says the engine went on WITHOUT the thing it names, with the server up after it: a
    non-fatal cause, not a note. Its 200s afterwards are the fallback's, which answers without what was dropped (a tool
    request rendered by the default template, no tools in its prompt), so success does not clear it (learn51a)."""
    if d.role != "cause" or not d.fatal or not hit.evidence:
        return
    if all(FELL_BACK.search(text) for _, text in hit.evidence) and (up := serving_after(t, hit.last_line)):
        d.fatal = False
        d.cause = f"Not fatal (the engine went on without it and the server came up at line {up}), but what it dropped stays unused: {d.cause}"


def _went_on(d: Diagnosis, sig: Signature, t: Triage, hit: Hits) -> None:
    """The server came up, served, retried to completion or a router instance loaded after the hit."""
    kept_up(d, sig, t, hit)  # a refusal some versions only warn of stays a (non-fatal) cause there
    fell_back(d, t, hit)  # an engine that went on without what it named: its 200s do not clear it (learn51a)
    plugin_skipped(d, t, hit)  # a plugin's exception vLLM caught and served on without it (learn46e)
    warned_then_refused = sig.refused_after and refused_after_up(t, hit.last_line) is not None
    if (
        d.role == "cause"
        and d.fatal
        and ((below := only_below_error(hit)) or sig.outlived_when_up)
        and not warned_then_refused
        and (up := serving_after(t, hit.last_line))
    ):
        if below:
            survived(
                d, f"Only logged as a warning, and the server came up after it (line {up}): ", "warns about"
            )
        else:
            why = (
                f"Not fatal here: the engine went on without it and the server came up after it (line {up}). "
            )
            survived(d, why, "describes")
    if d.role == "cause" and d.fatal and not warned_then_refused and (up := caught_then_up(t, hit)):
        survived(d, f"Caught and logged, and the server came up after it (line {up}): ", "reports")
    if (  # a symptom too: a healthy server after it answers the log's question (learn50e: a plugin's handled error)
        d.role in ("cause", "symptom")
        and d.fatal
        and (served := served_after(t, hit.last_line))
        and not run_by_hand_between(t, sig, hit, served[0])
    ):
        why = "Logged as an error, but the server came up after it (line {}) and answered every request with success (last at line {}): "
        survived(d, why.format(*served), "reports")
    # a co-tenant's own OOM pasted below a server that kept serving (learn44e)
    another_process(d, sig, t, hit)
    if d.role == "cause" and d.fatal and (done := retried_then_done(t, hit)):
        survived(d, f"Only a retry, and the run completed its work after it (line {done}): ", "reports")
    if (
        d.role == "cause"
        and d.fatal
        and not child_started_as_router(hit)
        and (went_on := instance_went_on(t, hit))
    ):
        tag, line = went_on
        survived(d, f"Not fatal here: router instance [{tag}] went on to load (line {line}). ", "describes")


def _still_moving(d: Diagnosis, sig: Signature, t: Triage, hit: Hits, groups: dict) -> None:
    """A stall on a start that went on, or that a stop ended inside the step it announced, is not a hang."""
    if sig.unless_progress and (moved := progress_after(t, hit.last_line)):
        groups["progress_line"] = str(moved[0])
        d.role, d.fatal, d.confidence = "note", False, 0.1
        d.cause = sig.progress_note.format_map(groups)
        d.fix = sig.progress_fix or (
            "Nothing to fix: the start went on. If starts are too slow, give the engine more CPU or a warm compile cache."
        )
    elif sig.unless_progress and sig.category == "hang" and (made := generated_after(t, hit.last_line)):
        d.role, d.fatal, d.confidence = "note", False, 0.1
        d.cause = SERVED_THROUGH_NOTE.format(line=made, secs=groups.get("secs") or "?")
        d.fix = "Nothing to fix: the engine kept serving. If answers are too slow under such load, give it more CPU."
    elif sig.unless_progress and (in_step := stalled_in_open_step(t, hit)):
        d.role, d.fatal, d.confidence = "note", False, 0.1
        d.cause = IN_STEP_NOTE.format(step=in_step[0], stop=in_step[1])
        d.fix = (
            "Nothing to fix here by itself: see the stop. If starts are too slow, give the engine more CPU."
        )


def _explained_earlier(d: Diagnosis, sig: Signature, t: Triage, hit: Hits) -> None:
    """A line the log explains elsewhere: a requirement seen, an earlier failure on the same value, a stop asked for."""
    if seen := demoting(sig, t.seen_requirements, hit):
        d.role, d.confidence = "symptom", min(d.confidence, 0.3)
        d.cause += f" The log also says '{sorted(seen)[0]}': that is more likely the reason."
    if sig.follows_from and (earlier := follows_earlier(t, sig, hit)):
        d.role, d.confidence = "symptom", min(d.confidence, 0.3)
        line, value, group = earlier
        d.cause += (
            f" It follows from line {line}, earlier in the log, which concerns the same {group} '{value}':"
            " what failed there is the cause, this is its consequence."
        )
    if sig.unless_shutdown and (asked := shutdown_before(t, hit.first_line)) is not None:
        d.role, d.fatal, d.confidence = "note", False, 0.1
        d.cause = (
            f"Not a failure: a stop was asked for at line {asked} (SIGTERM/SIGINT), and this death is that stop's"
            " (vLLM reports its engine as dead while it shuts down; systemd records the signal that ended it)."
        )
        d.fix = "Nothing to fix."
