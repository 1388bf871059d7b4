"""Reading `servebox up`'s own console: its INCIDENT lines already carry doctor's diagnosis.

When an engine dies under `servebox up`, the supervisor runs doctor on the engine's log and prints
  "<model>: INCIDENT dead: ...; diagnosis: <cause> (fix: <fix>); gave up (same cause twice in a row: <id>)"
A user who only kept up's console (the engine log is elsewhere) hands doctor these lines. The
cause id is named outright when up gave up; otherwise the cause text is the knowledge base's own
`cause` template filled in, so it is matched back to the entry whose template it fits (the
template's literal text, escaped, with each {field} as a wildcard). A symptom up quoted ("no known cause;
symptom: ...") is read back as that symptom (where to look, never a cause), a note ("no known cause; note: ...", an
asked-for stop) as that note's entry (learn45c: where every incident relays one stop before up's start limit, the stop
is the answer, stopped_each_start); a bare "no known cause" gives nothing.

learn40d (fresh-289): a relayed answer is the earlier doctor's, read in a log this one does not hold, so it is
repeated at no more than that answer's own figure: the template its text fits says which figure that was (the
entry's cause, its hint, its rival or exception reading: `RELAY_KINDS`), and an id named in words that fit none of
its templates (another servebox's doctor, a text cut short) is only a lead (ranking caps it below confident). The
entry's `requires` context is the engine log's, which the earlier doctor checked: a relayed hit does not need it.
The give-up line and the router's 503 carry the same summary after the id ("...: ID): CAUSE (fix: ...").
The knowledge base's wordings then read such a line with doctor's own sentence taken out (engine_words_only): only
the values the engine's log filled in, and up's own words around them, so a word of doctor's cause or fix text never
wakes an entry (host-oom-kill's hint names 'the kernel's OOM killer', which its own wording takes for the kernel's).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from typing import TYPE_CHECKING

from servebox.doctor.results import Diagnosis
from servebox.doctor.signatures import Signature
from servebox.doctor.texts import answer_text

if TYPE_CHECKING:
    from servebox.doctor.triage import Triage

# the literals of up's lines (lower case, like the knowledge base's keywords): they join the prefilter
INCIDENT_WORDS = ("; diagnosis: ", "same cause twice in a row: ")
NAMED_ID = re.compile(r"same cause twice in a row: (?P<id>[a-z0-9][a-z0-9-]*)", re.IGNORECASE)
DIAGNOSIS = re.compile(
    r"(?:; diagnosis: |same cause twice in a row: (?:[a-z0-9][a-z0-9-]*|-)\): )(?P<cause>.+?) \(fix: ",
    re.IGNORECASE,
)
# a symptom up's diagnosis found (servebox/serve/incidents.py summary: "no known cause; symptom: <its cause text>"):
# read back as that symptom, never as a cause; learn45c (fresh-374's sigterm-each-ready): a note ("no known cause; note:
# <text>", an asked-for stop) is read back as that note's entry (an orderly stop's, or a note's), never as a cause
SYMPTOM = re.compile(
    r"; diagnosis: no known cause; (?P<role>symptom|note): (?P<cause>.+?); (?:restart after|gave up|run by systemd)",
    re.IGNORECASE,
)
# the entries' roles a relayed diagnosis's word reads back ("note" is how up words an asked-for stop's note)
RELAYED_ROLES = {"cause": ("cause",), "symptom": ("symptom",), "note": ("shutdown", "note")}
# where the relayed fix ends: up's action after it (INCIDENT lines), or the give-up's advice (FAILED line, router's 503)
FIX_END = re.compile(r"\); (?:restart after|gave up|run by systemd|fix it, then start)", re.IGNORECASE)
FIELD = re.compile(r"\{(\w+)\}")
MIN_LITERAL = 20  # a template that is mostly a wildcard ("{exception}") proves nothing
CAUSE_KEPT = 800  # up prints a summary: a longer cause text is cut before any template runs on it
NAMED_KEPT = (
    2400  # a named entry's few templates run on more of it (a cause with long defaults: vLLM's env one)
)
# which of an entry's texts a relayed cause fits, strongest first: the answer it was, and so its figure
RELAY_KINDS = ("cause", "exception", "rival", "hint")
NAMED_ONLY = "named"  # the id named, its words none of the entry's
RELAYED_AS_READ = (
    "exception",
    "rival",
    NAMED_ONLY,
)  # kinds whose answer ranking words and weighs here (as_relayed)
RELAYED_UNCHECKED = 0.6  # an id named in words this doctor does not write for it: a lead, never the answer
NAMED_CAUSE = answer_text("incidents", "named_cause")
NAMED_FIX = answer_text("incidents", "named_fix")


def _in_order(literals: tuple[str, ...], text: str) -> bool:
    """Every literal part of a template, in order: a cheap test before its regex runs (most templates
    fail on their first part, so the wildcards' backtracking is never tried on them)."""
    at = 0
    for part in literals:
        at = text.find(part, at)
        if at < 0:
            return False
        at += len(part)
    return True


def _template_parts(template: str) -> tuple[int, tuple[str, ...]] | None:
    """How much literal text a cause template holds, and its literal parts (lower case), or None when it is mostly
    a wildcard; its regex is compiled only once a line holds every part in order (_template_regex)."""
    parts = FIELD.split(template)
    literal = "".join(parts[0::2])
    if len(literal.strip()) < MIN_LITERAL:
        return None
    return len(literal), tuple(p.lower() for p in parts[0::2] if p)


@lru_cache(maxsize=4096)
def _template_regex(template: str) -> re.Pattern[str]:
    """The cause template as a regex (fields become lazy wildcards)."""
    parts = FIELD.split(template)
    named: set[str] = set()

    def wildcard(name: str) -> str:
        """The field's value comes back as a group (its first occurrence), for the cause's wording."""
        if name in named:
            return "(?:.+?)"
        named.add(name)
        return f"(?P<{name}>.+?)"

    body = "".join(re.escape(p) if i % 2 == 0 else wildcard(p) for i, p in enumerate(parts))
    # ranking may append a sentence to a cause ("The log also says ..."): allow a tail after a space
    return re.compile(body + r"(?:\s.*)?", re.IGNORECASE | re.DOTALL)


@lru_cache(maxsize=4)
def _templates(signatures: tuple[Signature, ...]) -> tuple[tuple[str, tuple[str, ...], Signature, str], ...]:
    """Every cause and symptom template (the text, its literal parts, its entry, its kind), the most literal first: the
    most specific template wins a tie. Regexes are not compiled here: most logs never need most of them."""
    out = []
    for sig in signatures:
        if sig.role not in ("cause", "symptom", "shutdown", "note"):
            continue
        for kind, template in _texts(sig):
            made = _template_parts(template)
            if made:
                out.append((made[0], template, made[1], sig, kind))
    return tuple((t, parts, sig, kind) for _, t, parts, sig, kind in sorted(out, key=lambda x: -x[0]))


def _texts(sig: Signature) -> list[tuple[str, str]]:
    """An entry's answer texts by kind (RELAY_KINDS' order), each once: an exception reading whose text is the
    cause's is the cause."""
    texts = dict(
        zip(RELAY_KINDS, (sig.cause, sig.exception_cause, sig.rival_cause, sig.hint_cause), strict=True)
    )
    seen: set[str] = set()
    return [(k, t) for k, t in texts.items() if t and not (t in seen or seen.add(t))]


def incident_cause(
    line: str, signatures: Iterable[Signature]
) -> tuple[Signature, dict[str, str], str] | None:
    """The knowledge-base entry an up console line names as its cause, the fields its cause text filled in and
    which of the entry's texts it fits (RELAY_KINDS, or NAMED_ONLY), or None."""
    by_id = {s.id: s for s in signatures}
    m = DIAGNOSIS.search(line)
    symptom = None if m else SYMPTOM.search(line)
    whole = (m or symptom)["cause"].strip() if m or symptom else ""
    roles = RELAYED_ROLES[symptom["role"].lower() if symptom else "cause"]
    named = NAMED_ID.search(line)
    if named and named["id"].lower() in by_id:
        sig = by_id[named["id"].lower()]
        kept = whole[:NAMED_KEPT]
        for kind, template in _texts(sig):
            if (fields := _fields(template, kept)) is not None:
                return sig, fields, kind
        return sig, {"relayed": whole[:CAUSE_KEPT] or line.strip()[:CAUSE_KEPT]}, NAMED_ONLY
    cause = whole[:CAUSE_KEPT]
    lowered = cause.lower()
    for template, parts, sig, kind in _templates(tuple(by_id.values())) if cause else ():
        if (
            sig.role in roles
            and _in_order(parts, lowered)
            and (fields := _fields(template, cause)) is not None
        ):
            return sig, fields, kind
    return None


def _fields(template: str, cause: str) -> dict[str, str] | None:
    found = _template_regex(template).fullmatch(cause) if cause else None
    return {k: v for k, v in found.groupdict().items() if v} if found else None


def as_relayed(d: Diagnosis, sig: Signature, groups: dict[str, str], kind: str) -> None:
    """The diagnosis as the relayed answer was: the entry's exception or rival reading with its own figure, or, for an
    id named in words none of its texts fit, a lead below confident that quotes what up said."""
    if kind == "exception":
        d.cause, d.confidence = sig.exception_cause.format_map(groups), sig.exception_confidence
    elif kind == "rival":
        d.cause, d.confidence = sig.rival_cause.format_map(groups), min(sig.rival_confidence, d.confidence)
    elif kind == NAMED_ONLY:
        d.cause = NAMED_CAUSE.format(id=sig.id, relayed=groups.get("relayed", ""))
        d.fix = NAMED_FIX.format(fix=d.fix)
        d.confidence = min(d.confidence, RELAYED_UNCHECKED)


def engine_words_only(line: str, fields: dict[str, str] | None) -> str:
    """The console line with doctor's own words out: the id up named (host-oom-kill holds 'oom-kill', a wording of its
    own) and, where the relayed cause fits a template (FIELDS), the cause's and fix's text, replaced by the values the
    engine's log filled into it; up's reason and action stay. A cause that fits no template is left whole."""
    line = NAMED_ID.sub("same cause twice in a row: -", line)
    m = DIAGNOSIS.search(line) if fields is not None else None
    if m is not None:
        end = FIX_END.search(line, m.end())
        rest = line[end.start() + 1 :] if end else ""
    elif fields is not None and (m := SYMPTOM.search(line)) is not None:
        rest = line[m.end("cause") :]
    else:
        return line
    return line[: m.start("cause")] + " | ".join(fields.values()) + rest


# learn45c (fresh-374's llama-server SIGTERMed each time it was ready, up --restart-limit 1): up's start limit is only a
# symptom (its cause text says so); where every INCIDENT line up read back relays one asked-for stop as its note, the
# stop ended each start and is the answer, below the confident line (who sent it is not in the log)
START_LIMIT = "servebox-start-limit-reached"
EACH_START = 0.5
EACH_START_CAUSE = answer_text("incidents", "each_start_cause")
EACH_START_FIX = answer_text("incidents", "each_start_fix")


def stopped_each_start(t: Triage, d: Diagnosis, others: list[Diagnosis]) -> bool:
    """The asked-for stop `d` is what every INCIDENT line up's console holds relays as its note (no line named another
    cause or symptom), and up then gave up at its start limit: the stop ended each start, so it is the cause and the
    start limit its consequence. Where any diagnosis is a cause, or an incident named something else, nothing moves."""
    limit, hit = t.hits.get(START_LIMIT), t.hits.get(d.id)
    if limit is None or hit is None or not hit.relayed or t.incidents_read == 0:
        return False
    if hit.count < t.incidents_read or hit.first_line > limit.first_line:
        return False
    if any(x.role == "cause" or (x.role == "symptom" and x.id != START_LIMIT) for x in others):
        return False
    d.role, d.fatal, d.confidence = "cause", True, EACH_START
    d.cause = EACH_START_CAUSE.format(
        n=t.incidents_read, first=hit.first_line, last=hit.last_line, limit=limit.first_line
    )
    d.fix = EACH_START_FIX
    return True
