"""A refusal that asks for a NON-EMPTY value of a type is a wrong-type refusal only where the value sent had another
type (learn49d, fresh-435's cache_salt ""). vLLM 0.32's validate_cache_salt (entrypoints/generate/base/protocol.py)
answers a number, a list, an object AND an empty string with one sentence, "Parameter 'cache_salt' must be a non-empty
string if provided.": the words name a type but do not say the type was wrong. Where a request body the log shows sent
the field as a JSON value of another type (fresh-241's "cache_salt": 42) the wrong type is the cause; where it sent the
asked type (an empty string) or no body shows the field, the wording proves no type complaint, and the validator's own
family (request-cache-salt-invalid) answers for it."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from servebox.doctor.triage import Triage

WRONG_TYPE = "request-field-wrong-type"
SENT = "request-body-shown"  # knowledge/requests.toml's progress entry for a request body the log shows
# the msg group of a wording that asks for a non-empty value of a JSON type
NON_EMPTY = re.compile(r"must be an? non-empty (?P<kind>string|array|list)\b")
# the first character of a JSON value of each asked kind (a Python dict's repr quotes strings with ' as well)
OPENS = {"string": "\"'", "array": "[", "list": "["}


def _sent_values(t: Triage, field: str) -> list[str]:
    """The first character of each value the bodies the log shows sent for `field` (a quote, a bracket, a digit...)."""
    body = t.hits.get(SENT)
    if body is None:
        return []
    key = re.compile(rf"""["']{re.escape(field)}["']\s*:\s*(\S)""")
    return [m.group(1) for _, text in body.evidence if (m := key.search(text))]


def asked_type_sent(t: Triage) -> None:
    """Drop the wrong-type hit whose only complaint is a non-empty value of a type, unless a body the log shows sent
    that field as another JSON type (null is no value: validate_cache_salt lets it pass). Only then does the refusal
    say the type was wrong; an empty value of the asked type is the validator's own refusal."""
    hit = t.hits.get(WRONG_TYPE)
    if hit is None or hit.relayed:
        return
    asked = NON_EMPTY.search(hit.groups.get("msg", ""))
    field = hit.groups.get("field", "")
    if asked is None or not field:
        return
    opens = OPENS[asked.group("kind")]
    if not any(c not in opens and c != "n" for c in _sent_values(t, field)):
        del t.hits[WRONG_TYPE]
