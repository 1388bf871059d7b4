"""A server whose own output stops dead at a streamed answer's '200' line while its client's stream is cut mid-body:
the engine vanished mid-answer, most likely killed from outside.

learn52b (s52, fresh-479's fresh479-vllm-openai-stream-server-sigkill-mid-stream; the same shape as fresh-443's
fresh443-vllm-curl-sS-sigkill-mid-stream, a known miss until now): vLLM's API server given kill -9 0.3 s after it
began streaming. SIGKILL writes nothing, so the paste holds the server's whole output ending at uvicorn's
'"POST /v1/chat/completions HTTP/1.1" 200 OK' (logged as the stream's headers go out) and the client's report of a body
cut short (h11's 'peer closed connection without sending complete message body (incomplete chunked read)', curl's
'(18) transfer closed with outstanding read data remaining', requests' 'Response ended prematurely', urllib3's
IncompleteRead, or a reset). peer-connection-reset alone says only "look at the peer's log"; here the peer's log is
in view and says nothing more: no traceback, no shutdown, no stats line after the answer began, no later request.
What tells this from its neighbours:
- a client that reset or dropped its own connection reads no 'peer closed' (its side closed), and a server that
  outlived a cut keeps logging (vLLM's stats lines, the next request answered or refused, its shutdown): any of those
  entries' lines after the answer's rules this reading out (read from the hits: a marker entry waking on every
  server line cost the matcher too much, test_doctor_bounds);
- an asked-for stop writes its own lines (shutdown-requested; afterwards.stopped_mid_request reads that stop);
- a crash writes a traceback or a fault's name (a cause or another symptom in the log: this reading steps aside);
- a server killed before the request (fresh-472's client-only 'Connection refused' beside a tail ending at /health)
  shows no answered POST: not this.
Who killed it, and whether a proxy in between cut the connection instead, the log cannot say: below the confident
line (0.5, as ready_then_gone.py's reading of the same silence).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from servebox.doctor.afterwards import ANSWERED, SERVING
from servebox.doctor.results import Diagnosis, Evidence
from servebox.doctor.texts import answer_text

if TYPE_CHECKING:
    from servebox.doctor.triage import Triage

KILLED = "engine-killed-from-outside"
RESET, REFUSED = "peer-connection-reset", "peer-connection-refused"
STOPPED = "shutdown-requested"
# the entries whose lines show the server still at work: its stats ('generation throughput'), a request refused, a stop
LATER = ("engine-generated-tokens", "request-answered-error", STOPPED)
SURE = 0.5
# the client's words for a body cut after the answer began (not 'Broken pipe': the client's own write failed)
MID_BODY = re.compile(
    r"without sending complete message body|transfer closed with|Response ended prematurely|IncompleteRead"
    r"|Connection reset by peer",
    re.IGNORECASE,
)
CAUSE = answer_text("server_went_silent", "cause")


def went_silent(t: Triage, diagnoses: list[Diagnosis]) -> Diagnosis | None:
    """engine-killed-from-outside where a streamed answer's '200' is the server's last line and the client reports
    the body cut, with nothing else failing in the log."""
    answered, up = t.hits.get(ANSWERED), t.hits.get(SERVING)
    if answered is None or up is None or up.first_line > answered.last_line or STOPPED in t.hits:
        return None
    if any((hit := t.hits.get(sid)) is not None and hit.last_line > answered.last_line for sid in LATER):
        return None  # the server logged on after the answer began
    if any(d.role == "cause" or (d.role == "symptom" and d.id not in (RESET, REFUSED)) for d in diagnoses):
        return None
    cut = next((d for d in diagnoses if d.id == RESET), None)
    line = None if cut is None else next((e for e in cut.evidence if MID_BODY.search(e.text)), None)
    sig = t.signature(KILLED)
    if line is None or sig is None:
        return None
    text = next((s for n, s in answered.evidence if n == answered.last_line), "")
    return Diagnosis(
        id=KILLED,
        category=sig.category,
        role="cause",
        cause=CAUSE.format(answered=answered.last_line, cut=line.line),
        fix=sig.fix,
        confidence=SURE,
        occurrences=1,
        first_line=answered.last_line,
        evidence=[Evidence(line=answered.last_line, text=text), line] if text else [line],
        fatal=True,
    )
