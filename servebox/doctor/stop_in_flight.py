"""A stop that came while the server was answering a request, read from the server's own lines after it.

learn40c (fresh-288's gpu-vllm026-f288-api-server-sigterm-twice-mid-request and -engine-core-sigterm-mid-request: real
vLLM 0.26.0 given SIGTERM mid-request, the request answered 200 with finish_reason abort, the server shut down): where
no client's line shows the cut (afterwards.stopped_mid_request reads those), the server's own lines after the stop show
a request still open at it: vLLM's '[shutdown] EngineCore: aborting in-flight requests count=N' (or 'draining ...'),
uvicorn's 'Waiting for connections to close.', vLLM's 'Aborted request(s) X.' / V0's 'Aborted request X.', llama-
server's 'stop: cancel task' (all the request-open-at-stop entry), or an access line of a request answered after the
stop. Such a stop ended the server while it worked, so it is the answer, below the confident line (who sent it is not in
the log); a stop after the last request was answered shows none of these and stays a note (many healthy logs end with
their maker's own SIGTERM).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from servebox.doctor.afterwards import ANSWERED, IN_FLIGHT, LISTENING, MID_START, REFUSED, SERVING
from servebox.doctor.structure import split_prefix
from servebox.doctor.texts import answer_text

if TYPE_CHECKING:
    from servebox.doctor.results import Diagnosis
    from servebox.doctor.triage import Triage

SIGNAL = re.compile(r"signal=(SIG[A-Z]+)")
ENGINE_STOP = "EngineCore: trigger received signal="
API_STOP = "API server: shutdown triggered"
GONE = "engine-core-killed"  # the API server's 'engine core exited unexpectedly' after its engine stopped
CAUSE = answer_text("stop_in_flight", "cause")
ENGINE_ALONE = answer_text("stop_in_flight", "engine_alone")
FIX = answer_text("stop_in_flight", "fix")
ENGINE_FIX = answer_text("stop_in_flight", "engine_fix")


def open_at_stop(t: Triage, line: int) -> tuple[int, str] | None:
    """A line after `line` that shows a request open at the stop (IN_FLIGHT's wordings, or a POST answered after it;
    the first of those entries' last lines) and its text where kept, where the server had not come up again after
    `line` (a restart's requests are not the stop's)."""
    again = t.hits.get(LISTENING)  # vLLM's 'Starting vLLM server on', printed once per start
    if again is not None and again.last_line > line:
        return None
    hits = [
        h for x in (IN_FLIGHT, ANSWERED, REFUSED) if (h := t.hits.get(x)) is not None and h.last_line > line
    ]
    if not hits:
        return None
    mark = min(h.last_line for h in hits)
    return mark, next((text for h in hits for n, text in h.evidence if n == mark), "")


def stopped_in_flight(t: Triage, d: Diagnosis) -> bool:
    """The asked-for stop `d` came after the server came up and a line after it shows a request still open at it:
    the stop is the answer, below the confident line. The caller asks only where no cause or symptom is named."""
    up = t.hits.get(SERVING)
    if up is None or up.first_line > d.first_line:
        return False
    if (open_line := open_at_stop(t, d.first_line)) is None:
        return False
    mark, text = open_line
    quote = f": '{split_prefix(text).payload.strip()[:160]}'" if text else ""
    texts = [e.text for e in d.evidence]
    signal = (
        m.group(1) if (m := SIGNAL.search(texts[0])) else "SIGTERM/SIGINT"
    )  # later ones may be vLLM's own
    d.role, d.confidence = "cause", MID_START
    d.cause, d.fix = CAUSE.format(signal=signal, line=d.first_line, mark=mark, quote=quote), FIX
    alone = ENGINE_STOP in texts[0] and not any(API_STOP in s for s in texts)
    if alone and (gone := t.hits.get(GONE)) is not None and gone.first_line > d.first_line:
        d.cause += ENGINE_ALONE.format(line=d.first_line)
        d.fix += ENGINE_FIX
    return True
