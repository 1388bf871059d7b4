"""Which member of a pydantic UNION the client meant: its errors are the cause, the other members' are noise.

learn54f (fresh-517: responses-json-schema-without-name read as request-field-value-not-allowed 0.85, a confident
wrong; responses-chat-completions-tool-shape as request-refused; responses-input-parts-typed-text as
request-field-value-not-allowed). vLLM validates a body with pydantic and answers HTTP 400 with the whole error list
(0.32: "N validation errors:\n  {'type': ..., 'loc': 'body.text.format.ResponseFormatText.type', ...}"; before 0.32
the loc is a tuple, FastAPI's own 422 a JSON list). Where a field is a union (the Responses API's text.format:
ResponseFormatText | ResponseFormatTextJSONSchemaConfig | ...; its tools: FunctionTool | FileSearchTool | ...; its
input items and their content parts; chat's messages: one param class per role), pydantic tries the value against
every member and reports each member's errors under the member's name (a CamelCase segment of the loc). A member whose
discriminator (`type`, or a message's `role`) refuses the value sent ('literal_error', "Input should be 'text'", input
'json_schema') was not meant: its errors say only that the value is not that member. The member whose discriminator
raised nothing is the one meant, and ITS errors are the request's fault (json_schema's missing name; a function tool
without a top-level name: Chat Completions' nested shape). Where every member refuses the type, no member takes the
value sent: the type itself is the fault (a content part typed 'text' where the Responses API takes input_text). An
error on a prefix of the union's path ('body.input' "Input should be a valid string") is the other branch of an
enclosing `str | list` union: noise as well.

Read from the error list alone (knowledge's pydantic-error-list-shown keeps it in view): the reading re-points the hits
of the request-field families on that reply's line to the one the meant member's error names. Only where the whole
list is explained by one union: an error on another field leaves the wordings' own reading as it was.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from servebox.doctor.triage import Hits

if TYPE_CHECKING:
    from servebox.doctor.triage import Triage

LISTED = "pydantic-error-list-shown"
MISSING, VALUE, WRONG_TYPE, PART = (
    "request-field-missing",
    "request-field-value-not-allowed",
    "request-field-wrong-type",
    "chat-content-part-type-unknown",
)
FAMILIES = (MISSING, VALUE, WRONG_TYPE, PART)
LITERALS = ("literal_error", "enum")
DISCRIMINATORS = ("type", "role")
_Q = r"""\\*["']"""
ENTRY = re.compile(
    rf"""{_Q}type{_Q}\s*:\s*{_Q}(?P<kind>\w+){_Q}\s*,\s*{_Q}loc{_Q}\s*:\s*"""
    rf"""(?P<loc>{_Q}[\w.-]+{_Q}|[(\[][^)\]\n]{{0,300}}[)\]])\s*,\s*{_Q}msg{_Q}\s*:\s*"""
    r"""(?P<msg>\\*"(?:[^"\\]|\\(?!"))*\\*"|'[^'\n]*')"""
    rf"""(?:\s*,\s*{_Q}input{_Q}\s*:\s*(?P<input>{_Q}[^"'\\\n]{{0,80}}{_Q}|[^,}}\n]{{0,80}}))?"""
)
NEXT = re.compile(r"""\{\s*\\*["']type""")
MEMBER = re.compile(r"[A-Z][A-Za-z0-9_]*")
QUOTED = re.compile(r"'([^'\n]{1,60})'")


@dataclass(frozen=True)
class Error:
    kind: str
    path: tuple[str, ...]  # after body / query
    msg: str
    sent: str
    member: str = ""  # the innermost union member it was read under
    refused_by: int = 0  # a type no member takes: how many members' discriminators refused it


def _path(loc: str) -> tuple[str, ...] | None:
    """A loc as its segments, without the leading body/query: dotted (0.32) or a tuple/list (older, FastAPI); None
    for a loc outside the request."""
    loc = loc.strip()
    if loc[:1] in "([":
        parts = [p.strip().strip("\\\"' ") for p in loc[1:-1].split(",")]
    else:
        parts = loc.strip("\\\"'").split(".")
    parts = [p for p in parts if p]
    # only a request's own fields: a server's response model refusing its own reply ('response', ...) is no request's
    return tuple(parts[1:]) if parts and parts[0] in ("body", "query") else None


def errors(text: str) -> list[Error]:
    """The entries of a pydantic error list, in the order pydantic gave them (a cut last entry is left out)."""
    found = []
    for m in ENTRY.finditer(text):
        msg = m["msg"][1:-1] if m["msg"].startswith("'") else m["msg"].strip('\\"')
        sent = (m["input"] or "").strip().strip("\\\"'")
        path = _path(m["loc"])
        if path is None:
            return []
        found.append(Error(m["kind"], path, msg, sent))
    return found


def _goes_on(text: str, count: str | None, found: list[Error]) -> bool:
    """The list holds more errors than were read: vLLM's header counts more (its own cap of ten, '...and N more
    errors', or the reading window's end); without a header (a tuple or JSON list), no closing bracket before the
    next entry's start after the last entry read."""
    if count is not None:
        return int(count) > len(found)
    ends = [m.end() for m in ENTRY.finditer(text)]
    tail = text[ends[-1] :] if ends else text
    close, following = tail.find("]"), NEXT.search(tail)
    return close < 0 or (following is not None and following.start() < close)


def _is_member(segment: str) -> bool:
    return MEMBER.fullmatch(segment) is not None


def _union_point(errs: list[Error]) -> tuple[str, ...] | None:
    """The path of the first union the list names a member of (the first entry with a member segment)."""
    for e in errs:
        for i, segment in enumerate(e.path):
            if _is_member(segment):
                return e.path[:i]
    return None


def _refused(errs: list[Error], point: tuple[str, ...], member: str) -> Error | None:
    """The member's discriminator refusing the value sent: that member was not meant."""
    return next(
        (
            e
            for e in errs
            if e.kind in LITERALS
            and len(e.path) == len(point) + 2
            and e.path[-1] in DISCRIMINATORS
            and e.path[len(point)] == member
        ),
        None,
    )


def _choices(refusals: list[Error]) -> str:
    """The values the members' discriminators take, as pydantic named them."""
    seen = [v for e in refusals for v in QUOTED.findall(e.msg)]
    return ", ".join(f"'{v}'" for v in dict.fromkeys(seen))


def _cut(errs: list[Error], cut: bool, point: tuple[str, ...], member: str) -> bool:
    """The list goes on past what was read, and its last entry read is this member's: its errors may be cut."""
    n = len(point)
    last = errs[-1].path if errs else ()
    return cut and last[:n] == point and len(last) > n and last[n] == member


def meant_error(errs: list[Error], cut: bool = False) -> Error | None:
    """The error of the member meant at each union down the list's paths; None where the list is not one union's
    (no member named, or an error on another field), or where the only member left is the last one read of a list
    that goes on (`cut`: its discriminator's refusal may be among the errors not shown)."""
    point = _union_point(errs)
    if point is None:
        return None
    n = len(point)
    under = [e for e in errs if e.path[:n] == point and len(e.path) > n and _is_member(e.path[n])]
    # an error on the union's own path or above it is an enclosing union's other branch ('a valid string')
    if any(e not in under and e.path != point[: len(e.path)] for e in errs):
        return None
    members = list(dict.fromkeys(e.path[n] for e in under))
    refusals = {m: r for m in members if (r := _refused(under, point, m)) is not None}
    meant = [m for m in members if m not in refusals]
    if not meant:  # no member takes the value sent: the discriminator's value is the fault
        if len(refusals) < 2:
            return None  # one member's refusal alone is no union read whole (after33d's near-miss: a tool's type)
        first = next(iter(refusals.values()))
        choices = _choices(list(refusals.values()))
        return Error(first.kind, (*point, first.path[-1]), choices, first.sent, refused_by=len(refusals))
    inner = [
        Error(e.kind, point + e.path[n + 1 :], e.msg, e.sent, meant[0])
        for e in under
        if e.path[n] == meant[0]
    ]
    deeper = meant_error(inner, _cut(errs, cut, point, meant[0]))
    if meant == [members[-1]] and _cut(errs, cut, point, members[-1]):
        # its own discriminator's refusal may be among the errors not read: only a value that every member of a
        # deeper union refused is a fault whichever member was meant
        return deeper if deeper is not None and deeper.refused_by > 1 else None
    if deeper is not None:
        return deeper
    if _union_point(inner) is not None:
        return None  # a deeper union not read whole
    # the member's own errors: the first that is not an enclosing branch of a deeper one
    return next(
        (e for e in inner if not any(o.path[: len(e.path)] == e.path and o.path != e.path for o in inner)),
        None,
    )


def _part_type(path: tuple[str, ...]) -> bool:
    """A content part's type: ...content.N.type."""
    return len(path) >= 3 and path[-1] == "type" and path[-3] == "content" and path[-2].isdigit()


def family(e: Error) -> tuple[str, dict[str, str]]:
    """The request family the meant error names, with its placeholders."""
    field = ".".join(e.path)
    if e.kind == "missing":
        return MISSING, {"field": field, "member": e.member}
    if e.kind in LITERALS:
        choices = ", ".join(f"'{v}'" for v in QUOTED.findall(e.msg))
        if _part_type(e.path):
            return PART, {"part": e.sent, "choices": choices}
        return VALUE, {"field": field, "value": e.sent, "choices": choices}
    return WRONG_TYPE, {"field": field, "msg": e.msg}


def meant_member(t: Triage) -> None:
    """Re-point the request-field hits of a union's error list to the family its meant member's error names."""
    listed = t.hits.get(LISTED)
    if listed is None or listed.relayed:
        return
    text = listed.groups.get("errors", "")
    found = errors(text)
    e = meant_error(found, _goes_on(text, listed.groups.get("count"), found))
    if e is None:
        return
    line = listed.first_line
    evidence = [(n, s) for n, s in listed.evidence if n == line]
    id_, groups = family(e)
    for other in FAMILIES:
        hit = t.hits.get(other)
        if hit is not None and not hit.relayed and any(n == line for n, _ in hit.evidence) and other != id_:
            del t.hits[other]
    hit = t.hits.get(id_)
    if hit is None or not any(n == line for n, _ in hit.evidence):
        t.hits[id_] = Hits(count=1, first_line=line, last_line=line, groups=groups, evidence=evidence)
    else:
        hit.groups.update(groups)
