"""Which keyword lines triage may read plainly: lines whose keywords wake only families that no other line affects.

Why: a serving log's access lines each wake request-answered, and the generic path (triage._match_line) built sets
and dicts, cut a window per family, and ran the checks for `above` and `listed_above` lines, which that family
does not have, on every one of them.

A plain family has no above, above_ends, above_pattern, listed_above or exceeds_above wording (its hint and context
wordings read only their line: whether the context they need was seen is ranking's question): its answer on a line
depends on that line alone (and, for a quoted wording, on the line above: structure.quoted_in_echo,
which the plain reading still asks). A line is read plainly when it is at most PATTERN_WINDOW bytes long (every
family's window around its keyword is then the whole line) and every keyword on it wakes only plain families and marks
neither a raised exception nor servebox up's incident (context literals and `context_line` literals are recorded as
the generic path records them): exactly what _match_line computes there (tests/test_doctor_counted_lines.py compares the
two on real logs).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from servebox.doctor.signatures import Signature


def plain(sig: Signature) -> bool:
    """A family whose answer on a line depends on that line alone."""
    return not (
        sig.above is not None
        or sig.above_ends is not None
        or sig.above_patterns
        or sig.listed_above is not None
        or sig.exceeds_above
    )


def plain_words(
    words: Iterable[str], by_keyword: Mapping[str, list[Signature]], marks: Iterable[str]
) -> frozenset[str]:
    """The prefilter's words a plain line may hold: any but `marks` (a raised exception's or an incident's) whose
    families (none for a context literal) are all plain."""
    taken = set(marks)
    return frozenset(w for w in words if w not in taken and all(plain(sig) for sig in by_keyword.get(w, ())))
