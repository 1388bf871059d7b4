"""Request refusals that are a long healthy journal's background, not its story.

learn45f (fresh-382: whole vLLM 0.32 journals, minutes of traffic from 3 client threads, ~92% answered 200, ~4% 400
for malformed bodies, ~4% 404 for a model name the server does not serve, then the drawn ending: a stop, a killed or
suspended EngineCore, a lowered limit, or nothing). doctor had named the refused requests' cause (model-name-not-served
at 0.81) over every ending, and confidently over healthy runs. A refusal the server answered (a 4xx/5xx access line)
and served on after is the client's mistake; where such refusals are a small minority of the requests the log shows
answered, they are the journal's background: each becomes a note beside the answer (its words kept, at most 0.3), never
the root over an ending and never a confident answer on a healthy journal. Where a refusal is all or most of the traffic
(one refused request beside one or two answered ones: the corpus's many single-request cases) it is the story and keeps
its rank.

The counts: the access lines' statuses (uvicorn's '"POST /v1/... HTTP/1.1" 200 OK', llama-server's 'request: POST
/v1/... 127.0.0.1 200'; afterwards.ANSWERED / REFUSED), or a client's own totals line pasted into the journal
('# traffic (...): 13243 requests; 200: 12184, 400: 530, 404: 529'), whichever shows more requests (the middle of a
long journal is often cut). The threshold (MIN_ANSWERED, MAX_SHARE) is the corpus's: see choose() below.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Callable

from servebox.doctor.afterwards import ANSWERED, REFUSED
from servebox.doctor.root_exception import REQUESTS

if TYPE_CHECKING:
    from servebox.doctor.triage import Diagnosis, Triage

# Background only with at least this many requests answered with success, and refusals at most this share of all the
# requests the log shows. The corpus (learn45f, 4,519 logs): every log whose answer is a request refusal the maker
# expected shows at most 13 successful answers and a refused share of at least 0.25 (the single-request cases: 1
# refused of 1-3); fresh-382's journals show 1,900-13,000 answered at a refused share of 0.07-0.09. 50 and 0.2 sit
# between both with room on each side (a short scripted run of 20 requests with a few refusals stays a refusal).
MIN_ANSWERED = 50
MAX_SHARE = 0.2
# a client's totals line: '# traffic (chat completions, 3 client threads): 13243 requests; 200: 12184, 400: 530'
TOTALS = re.compile(r"\b(\d+) requests; ((?:[1-5]\d\d: \d+(?:, |$|\s))+)")
STATUS = re.compile(r"\b([1-5])\d\d: (\d+)")
TOTALS_WORDS = "requests; 200: "
# a refusal the server answered: the client's own failures (a read timeout, a reset) are not answers
NOT_ANSWERED = ("client-read-timeout",)
NOTE = (
    " Background here: the server answered and served on, and such refusals are {refused} of the {total} requests"
    " the log shows ({answered} answered with success): a client's mistake beside the run, not what ended it."
)


def counts(t: Triage) -> tuple[int, int]:
    """(answered with success, refused with 4xx/5xx): the access lines', or a client's totals line's where it shows
    more requests."""
    ok, bad = t.hits.get(ANSWERED), t.hits.get(REFUSED)
    access = (ok.count if ok else 0, bad.count if bad else 0)
    totals = _client_totals(t)
    return totals if totals and sum(totals) > sum(access) else access


def _client_totals(t: Triage) -> tuple[int, int] | None:
    hit = t.hits.get("client-traffic-totals")
    if hit is None:
        return None
    ok = bad = 0
    for _, text in hit.evidence:
        if (m := TOTALS.search(text)) is None:
            continue
        for first, n in STATUS.findall(m.group(2)):
            if first == "2":
                ok += int(n)
            elif first in "45":
                bad += int(n)
    return (ok, bad) if ok or bad else None


def is_background(answered: int, refused: int) -> bool:
    return answered >= MIN_ANSWERED and refused <= MAX_SHARE * (answered + refused)


def set_aside(t: Triage, diagnoses: list[Diagnosis]) -> bool:
    """Turn the request refusals of a journal where they are background into notes; True where any was."""
    refusals = [
        d
        for d in diagnoses
        if d.role in ("cause", "symptom") and d.category == REQUESTS and not d.fatal and d.id not in NOT_ANSWERED
    ]
    answered, refused = counts(t)
    if not refusals or not is_background(answered, refused):
        return False
    note = NOTE.format(refused=refused, total=answered + refused, answered=answered)
    for d in refusals:
        d.role, d.confidence, d.cause = "note", min(d.confidence, 0.3), d.cause + note
    return True


def with_background_aside(
    t: Triage, diagnoses: list[Diagnosis], orderly_stop: Callable[[Triage, list[Diagnosis]], list[Diagnosis]]
) -> list[Diagnosis]:
    """The journal's ending, read with its background refusals set aside: an asked-for stop that ends a journal of
    traffic whose only findings were those refusals is named (a cause at the stop's 0.5: not a failure, but what ended
    the run, where the refusals had been taken for it); otherwise the stop is what ranking makes of it alone."""
    aside = set_aside(t, diagnoses)
    stops = orderly_stop(t, diagnoses)
    if aside and stops and stops[0].role == "note" and not any(x.role in ("cause", "symptom") for x in diagnoses):
        d = stops[0]
        d.role, d.confidence = "cause", max(d.confidence, 0.5)
        d.cause = (
            "The run ended on an orderly stop that was asked for (SIGTERM/SIGINT, systemctl stop, Ctrl-C) after the"
            " server had served its traffic: not a failure; the refused requests beside it are the clients' (notes)."
        )
        d.fix = "Nothing to fix: start the server again when wanted; correct the clients' refused requests (notes)."
    return stops
