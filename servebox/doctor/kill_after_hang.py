"""A kill that ended a server its clients had already found hung: the hang is the story, the kill its clean-up.

learn47h (fresh-419's fresh419-llama-sigstop-never-continued-clients-time-out: llama-server b11434 stopped by SIGSTOP
and never continued; a chat request and GET /health each ended in 'ReadTimeout: timed out'; then the maker's clean-up
killed the frozen process, '# exit status: 137 (killed by signal SIGKILL)'). A read timeout means the kernel still
accepted the connection and nothing answered: the process was alive then, stopped or hung. A server killed while it was
still wanted leaves its clients 'Connection refused' (the next request) or a reset / disconnect (the one in flight);
where the clients' reads timed out and none of them found the server gone, the kill came after the hang, as an operator's
or a harness's `kill -9` of a frozen process: it is not the cause, client-read-timeout (which names a stopped or hung
server and `kill -CONT`) is. The pasted order does not tell: a harness appends its client lines after the server's exit.

Its converse for host-oom-kill (learn47h, fresh-419's cgroup-memory-limit-far-below-usage): a SIGKILL report read as the
memory cgroup's OOM kill only because the log shows a memory limit set is not confident where the log also shows a
SIGKILL typed by hand (marker sigkill-sent-by-hand): that kill explains the death as well.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from servebox.doctor.texts import answer_text

if TYPE_CHECKING:
    from servebox.doctor.results import Diagnosis
    from servebox.doctor.triage import Hits, Triage

KILLED = "engine-killed-from-outside"
TIMED_OUT = "client-read-timeout"
# a client that found the server gone while it was still wanted: its next connection refused, its request cut
GONE = ("peer-connection-refused", "peer-connection-reset")
GONE_WORDS = frozenset({"connection refused", "connectionrefusederror", "econnrefused"})
NOTE = answer_text("kill_after_hang", "note")


def killed_after_hang(d: Diagnosis, t: Triage, hit: Hits) -> None:
    """Lower a kill report (in place) to a symptom where the clients' reads timed out and none found the server gone."""
    timed = t.hits.get(TIMED_OUT)
    if d.id != KILLED or d.role != "cause" or hit.weak or timed is None:
        return
    if any(g in t.hits for g in GONE) or GONE_WORDS & t.seen_requirements:
        return
    if any("INCIDENT" in text or '"reason"' in text for _, text in hit.evidence):
        return  # servebox up's own verdict of a vanished engine is not a kill report of a hung one
    d.role, d.confidence = "symptom", min(d.confidence, 0.3)
    d.cause += NOTE.format(line=timed.first_line)


OOM = "host-oom-kill"
TYPED = "sigkill-sent-by-hand"  # a marker entry (memory.toml): kill -9 / pkill -KILL / killall -s KILL typed
TYPED_NOTE = answer_text("kill_after_hang", "typed_note")


def limit_beside_kill_typed(d: Diagnosis, t: Triage, hit: Hits) -> None:
    """host-oom-kill read only from a memory limit set beside a SIGKILL report (learn47h) is no longer confident where
    the log also shows a `kill -9` typed: that kill explains the death as well (engine-killed-from-outside)."""
    typed = t.hits.get(TYPED)
    if d.id == OOM and hit.contextual and typed is not None:
        d.confidence = min(d.confidence, 0.5)
        d.cause += TYPED_NOTE.format(line=typed.first_line)
