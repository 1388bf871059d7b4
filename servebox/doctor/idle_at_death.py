"""A llama-server that died of a fault signal (SIGBUS, SIGFPE, SIGILL) while it computed nothing: likelier a signal sent from
outside than a fault of its own.

learn53f (s53, fresh-501's fresh501-llama-10-sigbus-from-kill-during-traffic and -08-sigfpe-from-kill-during-traffic,
first contact model-file-changed-while-mapped 0.60 / peer-connection-refused 0.50): llama-server b11434 served a minute
of chat, then another shell sent it kill -BUS / kill -FPE. It installs handlers for SIGINT and SIGTERM only, so the
default action ended it with no line of its own; the wrapper wrote '# exit status: 135 (killed by signal SIGBUS)' /
'136 (killed by signal SIGFPE)' and the next requests were refused. The exit alone cannot tell a sent signal from a
real fault -- that is what the crash families read (model-file-changed-while-mapped: a page of the mapped GGUF gone
under a read; native-floating-point-exception: an integer division by zero in a kernel). But both real faults happen
only while the server computes: a bus error on the mapping needs a read of the weights, a division by zero a kernel
running, and llama-server reads weights and runs kernels only for a task on a slot. llama-server logs every task it
starts ('slot launch_slot_: ... | processing task') and every one it finishes ('slot release: ... | stop processing');
where as many finished as started before the death (and a long run of them: a server that served, not one dying at its
first request), no task was in flight, and the fault's own story has no step to happen in. Then the answer is
engine-killed-from-outside, below the confident line: the log names no sender (the maker gave these stated_absent).
Where a task was in flight (fresh-184's and fresh-274's GGUF cut under a request: 'Bus error' right after 'processing
task') the fault family keeps its answer; where the server served on after the death (a restart), this says nothing.

learn54b (s54, fresh-509's fresh509-llama-06-sigill-from-kill-during-traffic, first contact peer-connection-refused
0.50: exit 132, 'killed by signal SIGILL', after 48 tasks served on this CPU): SIGILL belongs here on the same ground.
cpu-illegal-instruction's fault (a build using AVX-512 / AVX2 this CPU lacks) happens when the CPU first runs such an
instruction: at start (ggml's CPU backend init, the model's load and repack) or at the first request's kernels, and
every later task runs the same kernels again. A llama-server idle after a long served run had nothing running that it
had not run many times before, so its SIGILL was most likely sent (kill -ILL). A SIGILL with a task in flight after
such a run keeps the CPU family as the answer, but below the confident line: the same kernels had run without fault
(a new path, a longer prompt's or a bigger batch's, can still use an instruction the earlier ones did not).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from servebox.doctor.results import Diagnosis
from servebox.doctor.texts import answer_text

if TYPE_CHECKING:
    from servebox.doctor.triage import Triage

KILLED = "engine-killed-from-outside"
ILLEGAL = "cpu-illegal-instruction"
FAULTS = ("model-file-changed-while-mapped", "native-floating-point-exception", ILLEGAL)
LAUNCHED, RELEASED = "llamacpp-slot-launched", "llamacpp-slot-released"
# a served run, not a death at the first request: background_refusals.MIN_ANSWERED's figure
MIN_SERVED = 20
SURE, FAULT_LEFT = 0.55, 0.45
# a SIGILL inside a task after a served run: the CPU family stays the answer, below the confident line
ILLEGAL_AFTER_RUN = 0.6
CAUSE = answer_text("idle_at_death", "cause")
WHY = answer_text("idle_at_death", "why")
WHY_ILLEGAL = answer_text("idle_at_death", "why_illegal")
NOTE = answer_text("idle_at_death", "note")
NOTE_ILLEGAL = answer_text("idle_at_death", "note_illegal")


def idle_at_death(t: Triage, diagnoses: list[Diagnosis]) -> Diagnosis | None:
    """engine-killed-from-outside where a fault family's signal ended a llama-server that had no task in flight; the
    fault family stays, below it."""
    fault = next((d for d in diagnoses if d.id in FAULTS and d.role == "cause"), None)
    if fault is None or any(d.role == "cause" and d.id not in FAULTS for d in diagnoses):
        return None
    launched, released = t.hits.get(LAUNCHED), t.hits.get(RELEASED)
    sig = t.signature(KILLED)
    if launched is None or released is None or released.count < MIN_SERVED or sig is None:
        return None
    if max(launched.last_line, released.last_line) > fault.first_line:
        return None  # served on after it (a restart)
    if launched.count > released.count:  # a task was being computed at the death
        if fault.id == ILLEGAL:
            fault.confidence = min(fault.confidence, ILLEGAL_AFTER_RUN)
            fault.cause += NOTE_ILLEGAL.format(done=released.count)
        return None
    fault.confidence = min(fault.confidence, FAULT_LEFT)
    fault.cause += NOTE
    what = fault.evidence[0].text.strip() if fault.evidence else "the exit status"
    why = (WHY_ILLEGAL if fault.id == ILLEGAL else WHY).format(done=released.count)
    return Diagnosis(
        id=KILLED,
        category=sig.category,
        role="cause",
        cause=CAUSE.format(line=fault.first_line, what=what, done=released.count, why=why),
        fix=sig.fix,
        confidence=SURE,
        occurrences=1,
        first_line=fault.first_line,
        evidence=list(fault.evidence[:1]),
        fatal=True,
    )
