"""Another program's out-of-memory error pasted with a server's log (learn44e).

A GPU is often shared: a second program (a training script, a notebook, another engine) that asks for more memory than
the card has free dies of its own torch.OutOfMemoryError while the server beside it goes on serving. Where that
program's output is pasted with the server's log, its exception is not the server's failure. vLLM (0.6+) tags every
line its processes print, tracebacks included, with the process ('(APIServer pid=N)', '(EngineCore pid=N)'): an
exception printed with no such tag, below the tagged server's 'Application startup complete', by code outside the
engine's tree, while the server answered requests with success and refused none and no engine death followed, was
raised by another process. fresh-360's co-tenant asked for 160 GiB of an 80 GB card after the server came up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from servebox.doctor.afterwards import SERVING, answered_since, death_after
from servebox.doctor.structure import split_prefix
from servebox.doctor.texts import answer_text

if TYPE_CHECKING:
    from servebox.doctor.results import Diagnosis
    from servebox.doctor.signatures import Signature
    from servebox.doctor.triage import Hits, Triage

SHARED = {"memory"}  # the categories of what programs on one machine compete for
OTHER_CAUSE = answer_text("co_tenant", "other_cause")
OTHER_FIX = answer_text("co_tenant", "other_fix")


def raised_elsewhere(t: Triage, hit: Hits) -> tuple[str, int, int] | None:
    """The server's tag, the line it came up at and its last successful answer, where every line of `hit` was printed
    untagged below a tagged server's start, an exception raised there (at least one) ran in no engine frame, and the
    server answered with success, refused nothing and no engine death came after it came up."""
    up = t.hits.get(SERVING)
    if up is None or not up.evidence or hit.count != len(hit.evidence):
        return None
    tag = split_prefix(up.evidence[0][1]).component
    if not tag or up.first_line >= hit.first_line:
        return None
    if (ok := answered_since(t, up.first_line)) is None or death_after(t, up.first_line):
        return None
    if any(split_prefix(text).component for _, text in hit.evidence):
        return None
    lines = {n for n, _ in hit.evidence}
    raised = [e for e in t.raised.values() if e.line in lines]
    if not raised or any(e.component or e.engine_frames for e in raised):
        return None
    return tag, up.first_line, ok


def elsewhere_lines(t: Triage, found: list[tuple[Signature, Hits]]) -> set[int]:
    """The lines of the shared-resource causes raised by another process (raised_elsewhere): the exception raised there
    is that process's, never the server's root exception."""
    return {
        n
        for sig, hit in found
        if sig.role == "cause" and sig.category in SHARED and raised_elsewhere(t, hit) is not None
        for n, _ in hit.evidence
    }


def another_process(d: Diagnosis, sig: Signature, t: Triage, hit: Hits) -> bool:
    """A fatal cause of a shared resource raised by another process (raised_elsewhere): a note that names it."""
    if d.role != "cause" or not d.fatal or sig.category not in SHARED:
        return False
    if (found := raised_elsewhere(t, hit)) is None:
        return False
    tag, up, ok = found
    d.role, d.fatal, d.confidence = "note", False, min(d.confidence, 0.3)
    d.cause = OTHER_CAUSE.format(tag=tag, up=up, ok=ok) + d.cause
    d.fix = OTHER_FIX
    return True
