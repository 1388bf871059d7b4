"""Request refusals that are a long healthy journal's background, not its story.

learn45f (fresh-382: whole vLLM 0.32 journals, minutes of traffic from 3 client threads, ~92% answered 200, ~4% 400
for malformed bodies, ~4% 404 for a model name the server does not serve, then the drawn ending: a stop, a killed or
suspended EngineCore, a lowered limit, or nothing). doctor had named the refused requests' cause (model-name-not-served
at 0.81) over every ending, and confidently over healthy runs. A refusal the server answered (a 4xx/5xx access line)
and served on after is the client's mistake; where such refusals are a small minority of the requests the log shows
answered, they are the journal's background: each becomes a note beside the answer (its words kept, at most 0.3), never
the root over an ending and never a confident answer on a healthy journal. Where a refusal is all or most of the traffic
(one refused request beside one or two answered ones: the corpus's many single-request cases) it is the story and keeps
its rank; so is a refusal that came only after a healthy phase (a journal's story told at its end: a healthy run,
then requests refused), which the counts tell apart by where the refusals begin (_spread) or by a client's totals
that count no refusal among the traffic. learn45g (fresh-385): that is read per refusal family (own_spread): a burst
of one refusal after long traffic whose background was another refusal is the story, not background with it.

The counts: the access lines' statuses (uvicorn's '"POST /v1/... HTTP/1.1" 200 OK', llama-server's 'request: POST
/v1/... 127.0.0.1 200'; afterwards.ANSWERED / REFUSED), or a client's own totals line pasted into the journal
('# traffic (...): 13243 requests; 200: 12184, 400: 530, 404: 529'), whichever shows more requests (the middle of a
long journal is often cut). The threshold (MIN_ANSWERED, MAX_SHARE) is the corpus's: see MIN_ANSWERED below.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from servebox.doctor.afterwards import ANSWERED, REFUSED
from servebox.doctor.root_exception import REQUESTS
from servebox.doctor.texts import answer_text

if TYPE_CHECKING:
    from servebox.doctor.triage import Diagnosis, Hits, Triage

# Background only with at least this many requests answered with success, and refusals at most this share of all the
# requests the log shows. The corpus (learn45f, 4,519 logs, 641 with a refusal found): outside fresh-382 every log with
# a refusal shows at most 2 requests answered with success, at a refused share of 0.33 or more (the single-request
# cases: 1 refused beside 1-2 answered, the refusal their answer); fresh-382's journals show 2,377-20,201 answered at
# a share of 0.08. 20 and 0.2 sit in that gap with room on both sides: a short scripted test (a dozen requests, a
# few refused) keeps its refusal as the answer; a run of traffic (a client's loop, a benchmark) sets it aside.
MIN_ANSWERED = 20
MAX_SHARE = 0.2
# a client's totals line: '# traffic (chat completions, 3 client threads): 13243 requests; 200: 12184, 400: 530'
# or '51 requests in the healthy phase (200: 49, 400: 2)'
TOTALS = re.compile(r"\b(\d+) requests\b[^;(\n]{0,60}[;(] ?((?:[1-5]\d\d: \d+(?:, )?)+)")
STATUS = re.compile(r"\b([1-5])\d\d: (\d+)")
# a refusal the server answered: the client's own failures (a read timeout, a reset) are not answers
NOT_ANSWERED = ("client-read-timeout",)
# a refusal whose reason the server's log does not give: a bare 4xx access line (vLLM returns the reason to the client)
BARE = "request-refused-no-reason"
SLOT_RELEASED = "llamacpp-slot-released"  # llama-server's finished task (knowledge/llama-cpp.toml)
# llama-server's two places of refusal (tools/server b11434): the route handler's (server.cpp ex_wrapper, no task yet)
# and a task's at its slot (server-context.cpp send_error; a prompt over the context also logs the slot's 'stop
# processing' after it, release(): the finished-task lines count such refusals with the answered requests)
HANDLER = "got exception: "
TASK_STAGE = "send_error: task id"
NOTE = answer_text("background_refusals", "note")


def counts(t: Triage) -> tuple[int, int, bool]:
    """(answered with success, refused with 4xx/5xx, whether the refusals ran through the traffic): the access lines',
    or a client's totals line's where it shows more requests (the refusals it counts were among its traffic)."""
    ok, bad = t.hits.get(ANSWERED), t.hits.get(REFUSED)
    access = (ok.count if ok else 0, bad.count if bad else 0, _spread(ok, bad.first_line if bad else None))
    totals = _client_totals(t)
    if totals and sum(totals) > access[0] + access[1]:
        return (*totals, totals[1] > 0)
    return access


def _spread(ok: Hits | None, first: int | None) -> bool:
    """Refusals first met (line `first`) in the first half of the answered traffic's span: beside the traffic from its
    start, not a phase after it (a healthy run, then requests refused: those are the journal's story)."""
    if ok is None or first is None or ok.last_line <= ok.first_line:
        return False
    return first < ok.first_line + (ok.last_line - ok.first_line) / 2


def own_spread(t: Triage, d: Diagnosis, spread: bool, others: tuple[Diagnosis, ...] = ()) -> bool:
    """Whether this refusal family's OWN refusals ran through the traffic (learn45g, fresh-385: a burst of one refusal
    after long traffic whose background was another's is the journal's story, not background because the others
    were). Where the access lines show too little traffic to place them in, llama-server's finished tasks ('slot
    release: ... stop processing', one per request answered: it logs no access line unless asked) stand in for them
    (learn53f, fresh-501's fresh501-llama-04-invalid-grammar-requests-400: two grammar refusals after a minute of chat
    whose one malformed body the client's healthy-phase totals counted had been set aside with it); with neither (fewer
    than MIN_ANSWERED answered: a cut journal a client's totals counted), the journal's own flag. A refusal whose
    reason only the client saw (vLLM logs a bare 400) is placed by where ITS reason first shows, as any other: the lead (s45) dropped learn45g's reading of a
    body-shape refusal after bare 400s as more of the same (fresh-382's bare 400s were context-length refusals)."""
    ok = t.hits.get(ANSWERED)
    if ok is not None and ok.count >= MIN_ANSWERED:
        return _spread(ok, d.first_line)
    # llama-server writes no access line by default: its finished tasks stand in (learn53f)
    slots = t.hits.get(SLOT_RELEASED)
    if slots is None or slots.count < MIN_ANSWERED or _spread(slots, d.first_line):
        return spread
    return spread and _with_background(t, d, slots, others)


def _with_background(t: Triage, d: Diagnosis, slots: Hits, others: tuple[Diagnosis, ...]) -> bool:
    """Whether another refusal family refused again from about two requests' worth of lines before this one's first
    refusal on: the burst after the traffic then mixes in the background's own mistake (fresh-385's last probes: a body
    whose messages are a string, then one without messages, both the traffic's malformed bodies, the lead s45: none),
    and stays background with it; a burst of its own after the background stopped is the journal's story.
    Only a malformed body is 'more of the same' (learn54a, six real b11434 logs): llama-server refuses a body's shape
    in its route handler before any task exists (server.cpp's ex_wrapper: 'W srv operator(): got exception:
    {"error":{"code":400,...}}'), a value it cannot serve once the task reaches a slot ('E srv send_error: task id = N,
    error: ...': a grammar that does not parse, a prompt over the context). A burst of the latter, or one beside a
    background of the latter, is a mistake of its own: the background traffic running on through it (its refusals
    landing among the burst's) made learn53f's window set aside a context burst beside malformed bodies and a grammar
    burst beside context refusals, each the journal's story."""
    if not _in_handler(t.hits.get(d.id)):
        return False
    per_request = (slots.last_line - slots.first_line) / slots.count
    near = d.first_line - 2 * per_request
    return any(
        (hit := t.hits.get(o.id)) is not None and hit.last_line >= near and _in_handler(hit)
        for o in others
        if o.id != d.id
    )


def _in_handler(hit: Hits | None) -> bool:
    """A refusal llama-server's route handler logged (a body it could not read), not a task's send_error."""
    texts = [text for _, text in hit.evidence] if hit is not None else []
    return any(HANDLER in text for text in texts) and not any(TASK_STAGE in text for text in texts)


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


def is_background(answered: int, refused: int, spread: bool) -> bool:
    return spread and answered >= MIN_ANSWERED and refused <= MAX_SHARE * (answered + refused)


def set_aside(t: Triage, diagnoses: list[Diagnosis]) -> bool:
    """Turn the request refusals of a journal where they are background into notes; True where any was. Ranking then
    reads the journal's ending without them: an orderly stop at the end of a journal in which nothing failed because
    of it is no failure (the corpus's convention, the lead s45: `none`, the stop a note); it is named only where the
    log shows it cut a request or a start, or a request refused after it (ranking._orderly_stop's rules)."""
    refusals = [
        d
        for d in diagnoses
        if d.role in ("cause", "symptom")
        and d.category == REQUESTS
        and not d.fatal
        and d.id not in NOT_ANSWERED
    ]
    if not refusals:
        return False
    answered, refused, spread = counts(t)
    others = tuple(refusals)
    refusals = [d for d in refusals if is_background(answered, refused, own_spread(t, d, spread, others))]
    note = NOTE.format(refused=refused, total=answered + refused, answered=answered)
    for d in refusals:
        d.role, d.confidence, d.cause = "note", min(d.confidence, 0.3), d.cause + note
    return bool(refusals)
