"""Defaults a start-up line set from a file (vLLM's generation_config.json, --override-generation-config) that a
later request refusal owes: the refused field, or the field it was refused against, came from the file, not from the
request, so the file's entry answers (after34g, after34o, learn39f)."""

from __future__ import annotations

import math
import re
from dataclasses import replace
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from servebox.doctor.signatures import Signature
    from servebox.doctor.triage import Hits, Triage


class SetByFlag(NamedTuple):
    """set_at_start's `flag`: the start flag's line entry and group that list the field, the entry that answers when
    they do, and request-field -> flag-key names where they differ."""

    line: tuple[str, str]
    cause: str
    names: tuple[tuple[str, str], ...]


class SetAtStart(NamedTuple):
    """An entry's `set_at_start` (start_defaults.set_at_start): the start-up line entry and group that list the defaults,
    the entry whose lines show a request body, the entry that answers, and the flag that may have set it instead. A
    NamedTuple, not a dict: Signature is hashed."""

    line: tuple[str, str]
    sent: str
    cause: str
    by_flag: SetByFlag | None


class AgainstDefault(NamedTuple):
    """An entry's `against_default` (start_defaults.against_default): the start-up line entry and group that list the
    defaults, the entry whose lines show a request body, the refusal's word -> the field it stands for (greedy ->
    temperature), the value such a word implies (greedy -> 0), and the other names a request may send a field by."""

    line: tuple[str, str]
    sent: str
    names: tuple[tuple[str, str], ...]
    implies: tuple[tuple[str, str], ...]
    sent_as: tuple[tuple[str, tuple[str, ...]], ...]


def parse_against_default(table: dict | None) -> AgainstDefault | None:
    if not table:
        return None
    entry, group = table["line"].split(":", 1)
    return AgainstDefault(
        (entry, group),
        table["sent"],
        tuple(table.get("names", {}).items()),
        tuple(table.get("implies", {}).items()),
        tuple((k, tuple(v if isinstance(v, list) else [v])) for k, v in table.get("sent_as", {}).items()),
    )


def parse_set_at_start(table: dict | None) -> SetAtStart | None:
    if not table:
        return None
    entry, group = table["line"].split(":", 1)
    flag = table.get("flag")
    by_flag = (
        SetByFlag(tuple(flag["line"].split(":", 1)), flag["cause"], tuple(flag.get("names", {}).items()))
        if flag
        else None
    )
    return SetAtStart((entry, group), table["sent"], table["cause"], by_flag)


def set_at_start(t: Triage, sig: Signature, hit: Hits) -> tuple[Signature, Hits] | None:
    """A refusal of the field `param` where a start-up line (sig.set_at_start's `line` entry) set that field as a
    default from a file (vLLM's 'Default vLLM sampling parameters have been overridden by the model's
    `generation_config.json`: `{'top_k': 40.5}`') and no request body the log shows (`sent`'s lines) sent it: the
    file's value was refused, so the file's entry (`cause`) answers, with that field and value (after34g: fresh-181).
    Where both the refusal and the file name a number, they must agree. Where a start flag's line (`flag`'s:
    vLLM's --override-generation-config) lists the field, the flag set it and the flag's entry answers (after34o)."""
    field = hit.groups.get("param")
    if sig.set_at_start is None or not field:
        return None
    start = sig.set_at_start
    listed = _listed(t, *start.line, field)
    body = t.hits.get(start.sent)
    cause = start.cause
    if listed is None or (
        body and any(re.search(rf"['\"]{re.escape(field)}\\?['\"]\s*:", s) for _, s in body.evidence)
    ):
        return None
    value = listed.group(1).strip().strip("'\"`\\")
    if not _same_number(hit.groups.get("value", ""), value):
        return None
    if (flag := start.by_flag) is not None:
        named = dict(flag.names).get(field, field)
        if (flagged := _listed(t, *flag.line, named)) is not None:
            cause, field, value = flag.cause, named, flagged.group(1).strip()
    target = t.signature(cause)
    return (target, replace(hit, groups={"field": field, "value": value})) if target else None


def against_default(t: Triage) -> None:
    """An entry with `against_default` words a refusal of two fields together (vLLM's 'min_tokens must be less than or
    equal to max_tokens=16, got 20.', 'n must be 1 when using greedy sampling, got 3.'): it counts only where its
    OTHER field (the wording's `field` group; `names` turns a word such as greedy into temperature) was a default that
    a start-up line set from a file (vLLM's 'Default vLLM sampling parameters have been overridden by the model's
    `generation_config.json`: `{'max_tokens': 16}`') and no request body the log shows sent that field (under any of
    its names): each field is valid alone, the file's default is the side the request did not choose (learn39f:
    fresh-280's max_new_tokens 16 against min_tokens 20, temperature 0.0 against n 3). Where the refusal names a number
    for that field (or its word implies one: greedy is temperature 0), the start-up line's must be the same. Elsewhere
    the hit is dropped, and the refusal is the request's own."""
    for sig in t.signatures:
        gate, hit = sig.against_default, t.hits.get(sig.id)
        if gate is None or hit is None or hit.relayed:
            continue
        word = hit.groups.get("field", "")
        field = dict(gate.names).get(word, word)
        listed = _listed(t, *gate.line, field) if field else None
        spelled = "|".join(re.escape(f) for f in (field, *dict(gate.sent_as).get(field, ())))
        body = t.hits.get(gate.sent)
        sent = body is not None and any(
            re.search(rf"['\"](?:{spelled})['\"]\s*:", s) for _, s in body.evidence
        )
        value = listed.group(1).strip().strip("'\"`") if listed else ""
        refused = hit.groups.get("value") or dict(gate.implies).get(word, "")
        if listed is None or sent or not _same_number(refused, value):
            del t.hits[sig.id]
        else:
            hit.groups.update({"field": field, "value": value})


def _listed(t: Triage, line: str, group: str, field: str) -> re.Match[str] | None:
    """`field: value` in the dict entry `line` captured as `group`, or None; the quote closing the field may be
    escaped (JSON in a unit's double quotes: --chat-template-kwargs "{\\"enable_thinking\\": \\"false\\"}", learn45b)."""
    start = t.hits.get(line)
    text = start.groups.get(group, "") if start else ""
    return re.search(rf"['\"]{re.escape(field)}\\?['\"]\s*:\s*([^,}}\n]+)", text)


def _number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def _same_number(refused: str, listed: str) -> bool:
    """The refusal's value agrees with the start-up line's where the refusal names no number (a type's name, a
    string), or both are the same number; NaN is never equal to itself, so two NaNs agree here (after34o:
    fresh-191's repetition_penalty NaN, 'must be a finite number, got nan.' beside `{'repetition_penalty': nan}`)."""
    a, b = _number(refused), _number(listed)
    if a is None:
        return True
    return b is not None and (a == b or (math.isnan(a) and math.isnan(b)))
