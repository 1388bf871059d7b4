"""Joining the lines a console or a renderer cut, one line out per line in.

Why: three readers rejoin cut lines (a console's hard wrap, rich's wrapped exception under its panel, rich's word wrap
of servebox's own reports); each decides differently where a cut is, but all must keep line numbers pointing into the
file: the rest is appended to the line it was cut from and its own line is left empty.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import add

# is_cut(joined, last, after): `after` continues the run whose text so far is `joined` and whose last raw line is `last`
CutTest = Callable[[str, str, str], bool]


def join_run(lines: list[str], at: int, is_cut: CutTest, glue: Callable[[str, str], str] = add) -> int:
    """Join the run of cut lines that starts at `at` into lines[at], in place; the index after the run."""
    last, end = lines[at], at + 1
    while end < len(lines) and is_cut(lines[at], last, lines[end]):
        last = lines[end]
        lines[at], lines[end] = glue(lines[at], last), ""
        end += 1
    return end


def join_runs(lines: list[str], is_cut: CutTest, glue: Callable[[str, str], str] = add) -> list[str]:
    """Every run of cut lines in `lines` joined (in place, and returned)."""
    i = 0
    while i < len(lines):
        i = join_run(lines, i, is_cut, glue)
    return lines
