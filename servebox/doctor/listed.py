"""An entry's `listed_above` (learn40b): a line above a wording's line that LISTS values (a unit's
'AmbientCapabilities=CAP_IPC_LOCK CAP_SYS_NICE'); a wording that captures one of the line's groups counts only where its
value names one of the values listed there. Two lines, one value among several: `same_as` compares two entries' first
matches, but a table (systemd-analyze security's rows, one per capability) holds many rows of one wording, and only the
row for a value the unit asked for is evidence (fresh-287: an ambient capability outside the bounding set shows as
'✓ CapabilityBoundingSet=~CAP_IPC_LOCK  Service cannot lock memory into RAM', a row every narrow unit prints)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from servebox.doctor.triage import Hits

LISTED_KEPT = 64  # values kept per entry and group (a long list past this adds nothing)
SEPARATORS = re.compile(r"[\s,]+")


def list_values(pattern: re.Pattern[str], text: str, listed: dict[str, set[str]]) -> None:
    """Add the values a listing line names (its groups' words) to `listed`, group by group."""
    if (m := pattern.search(text)) is None:
        return
    for group, value in m.groupdict().items():
        if value:
            kept = listed.setdefault(group, set())
            kept.update(w for w in SEPARATORS.split(value.strip())[:LISTED_KEPT] if w)
            if len(kept) > LISTED_KEPT:
                listed[group] = set(sorted(kept)[:LISTED_KEPT])


def names_listed(pattern: re.Pattern[str], m: re.Match[str], listed: dict[str, set[str]]) -> bool:
    """Whether each group of the wording's match that the listing line also has names a value listed above."""
    return all(
        any(covers(value, word) for word in listed.get(group, ()))
        for group, value in m.groupdict().items()
        if value and group in pattern.groupindex
    )


def covers(value: str, word: str) -> bool:
    """A value names a listed word: the same (any case), or a shorthand that stands for it, as systemd-analyze
    security writes a row for several capabilities: CAP_SYS_(NICE|RESOURCE), CAP_(DAC_*|FOWNER|IPC_OWNER), CAP_AUDIT_*."""
    if value.lower() == word.lower():
        return True
    if not any(c in value for c in "(|*"):
        return False
    shorthand = (
        re.escape(value).replace(r"\(", "(?:").replace(r"\)", ")").replace(r"\|", "|").replace(r"\*", r"\w*")
    )
    return re.fullmatch(shorthand, word, re.IGNORECASE) is not None


def figure_exceeds(m: re.Match[str], above: dict[str, str], pair: tuple[str, str]) -> bool:
    """An entry's `exceeds_above` (learn43f): a wording that captured the figure counts only where it is larger than
    the bound its `above` line captured (none seen: not counted); a wording without the figure is not gated."""
    figure, bound = pair
    if (value := m.groupdict().get(figure)) is None:
        return True
    try:
        return bound in above and float(value.replace(",", "")) > float(above[bound].replace(",", ""))
    except ValueError:
        return False


def served_before(hits: dict[str, Hits], hit: Hits, other: str, group: str, up: str) -> bool:
    """An entry's `unless_served_before` (learn45e): entry `other`'s first line captured the same `group` as this hit,
    and entry `up` (the server came up) matched after that line and before this hit's first line: the same file was
    opened and served earlier in the log (a journal's first start), so the later failure to open it is the file gone
    since, not the path looked up in another directory (fresh-383: models/ renamed while serving, then a restart)."""
    seen, served = hits.get(other), hits.get(up)
    value = hit.groups.get(group)
    return (
        seen is not None
        and served is not None
        and value is not None
        and seen.groups.get(group) == value
        and seen.first_line < served.first_line < hit.first_line
    )
