"""The longest literal every match of a regex must contain: a search that cannot match is skipped for a substring test.

Why: a line that holds a family's keyword is searched with each of the family's wordings, and Python's `re` scans the
whole window for a case-insensitive wording whose literal is not at its start (2-8 us each on a 250-byte line, most
of a realistic log's per-line cost). A wording's required literal, lowered, absent from the lowered line means the
wording cannot match there. Derived from the pattern's own parse tree (re._parser), conservatively: literals inside
an alternative, an optional or a lookaround are not required, so none is used. A line holding other than ASCII (a
security table's ✓/✗, a progress bar) is lowered after the four characters that `re`'s case-insensitive match takes
for an ASCII letter are written as that letter (İ and ı for i, ſ for s, the Kelvin sign for k: every such character,
found by trying each code point against [a-z] with re.IGNORECASE, which the test repeats); every other character
lowers to no ASCII, so an atom absent from that lowered text cannot be matched (before this, such lines were searched
with every wording: systemd-analyze security's rows cost 0.6 ms each with systemd-bad-value's, stop 46).
"""

from __future__ import annotations

import re
from functools import cache

try:  # Python 3.11+
    from re import _constants as _c
    from re import _parser as _p
except ImportError:  # pragma: no cover (3.10)
    import sre_constants as _c  # type: ignore[no-redef]
    import sre_parse as _p  # type: ignore[no-redef]

_REPEATS = {_c.MAX_REPEAT, _c.MIN_REPEAT, getattr(_c, "POSSESSIVE_REPEAT", _c.MAX_REPEAT)}
_ATOMIC = getattr(_c, "ATOMIC_GROUP", None)
MIN_ATOM = 3  # a shorter literal is in most lines: testing it saves nothing


def _runs(items) -> list[str]:
    """The literal runs that every match of the sequence `items` holds."""
    runs, current = [], []
    for op, av in items:
        if op == _c.LITERAL:
            current.append(chr(av))
            continue
        runs.append("".join(current))
        current = []
        if op == _c.SUBPATTERN:
            runs.extend(_runs(av[-1]))  # (group, add_flags, del_flags, body)
        elif op == _ATOMIC:
            runs.extend(_runs(av))
        elif op in _REPEATS and av[0] >= 1:
            runs.extend(_runs(av[2]))
    runs.append("".join(current))
    return runs


@cache
def required_literal(pattern: str, flags: int) -> str:
    """The longest ASCII literal (lowered) every match of `pattern` holds, or "" when none is known."""
    try:
        tree = _p.parse(pattern, flags)
    except Exception:  # noqa: BLE001 (a pattern re compiled but this parser reads otherwise: no prefilter)
        return ""
    atoms = [r.lower() for r in _runs(tree.data) if len(r) >= MIN_ATOM and r.isascii()]
    return max(atoms, key=len, default="")


def guard(patterns: tuple[re.Pattern[str], ...]) -> tuple[tuple[re.Pattern[str], str], ...]:
    """Each pattern with its required literal (computed once per distinct pattern)."""
    return tuple((p, required_literal(p.pattern, p.flags)) for p in patterns)


# the characters other than ASCII that a case-insensitive `re` matches against an ASCII letter, as that letter
_ASCII_FOLD = str.maketrans({"\u0130": "i", "\u0131": "i", "\u017f": "s", "\u212a": "k"})


def lowered(line: str) -> str:
    """`line` lowered so that an ASCII atom a case-insensitive wording needs is in it wherever the wording can match."""
    return line.lower() if line.isascii() else line.translate(_ASCII_FOLD).lower()


def first_match(guarded: tuple[tuple[re.Pattern[str], str], ...], line: str) -> re.Match[str] | None:
    """The first pattern that `line` matches, in order; a pattern whose required literal the lowered line lacks is
    not searched."""
    low = lowered(line)
    for pattern, atom in guarded:
        if atom and atom not in low:
            continue
        if m := pattern.search(line):
            return m
    return None
