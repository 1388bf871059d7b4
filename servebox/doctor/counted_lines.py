"""A healthy server's access lines, counted a chunk at a time once their family's hit has all it keeps.

Why: past its first few, an access line ('"POST /v1/completions HTTP/1.1" 200 OK', request-answered) changes only
its family's count and last line. Read one at a time, each still cost a decode, a search and a hit update in Python,
most of a serving log's time (issue 12 item 4). Here the lines holding only COMMON keywords (keyword_lines.py) are
picked out of the chunk's lines with C-level filters, and searched together.

Exact (tests/test_doctor_plain_lines.py), because counting is all that is left to do and it commutes with the other
lines' updates of the same hit (a count added, the largest line number kept), where:
- static: every COMMON keyword wakes the same families, each plain (plain_lines.py), none capturing an
  `instance_port`, and the keyword is no context literal;
- the hit: it exists, is no hint's, context wording's or relayed incident's (nothing can replace it or change its
  kind), and holds its EVIDENCE_KEPT lines;
- the lines: each at most PATTERN_WINDOW bytes (the window is the whole line) with no carriage return (its text is
  then its bytes between newlines: exception_context.line_at), none below a line holding 'File "' (a traceback's
  frame: no wording then quotes code, structure.quoted_in_echo), each matched by its family's first wording with
  that wording's required literal in it (required_literal.first_match then searches it), no router instance's
  '[PORT] ' on them (structure.instance_of). Otherwise the rest of the chunk is read line by line.
"""

from __future__ import annotations

import re
from itertools import compress, repeat

# a superset of structure.instance_of's mark ('[PORT] ' at a line's start): anywhere on a line
INSTANCE_MARK = re.compile(r"\[\d{2,5}\] ")


def saturated(hit, kept: int) -> bool:
    """A hit that later lines of its family only count (module doc)."""
    return hit is not None and not (hit.weak or hit.contextual or hit.relayed) and len(hit.evidence) >= kept


class CountedLines:
    """The families of the COMMON keywords, and how to count their lines in a chunk."""

    def __init__(self, common: tuple[str, ...], by_keyword: dict, context_words: set[str], window: int):
        woken = {tuple(s.id for s in by_keyword.get(w, ())) for w in common}
        sigs = tuple(by_keyword[common[0]]) if common and len(woken) == 1 else ()
        eligible = sigs and not context_words.intersection(common)
        eligible = eligible and all(s.patterns for s in sigs)
        eligible = eligible and all("instance_port" not in p.groupindex for s in sigs for p in s.patterns)
        self.sigs = sigs if eligible else ()
        self.window = window
        self.holds = (
            re.compile(b"|".join(re.escape(w.encode()) for w in common)).search if self.sigs else None
        )

    def ready(self, hits: dict, kept: int) -> bool:
        return bool(self.sigs) and all(saturated(hits.get(s.id), kept) for s in self.sigs)

    def count(self, chunk: bytes, first: int, others: list[int]) -> tuple[int, int, set[int]] | None:
        """How many lines from index `first` on, less `others` (those with other keywords), hold only COMMON keywords
        and the index of the last, every one of them matched by each family; and which of `others` hold COMMON
        keywords too. None where that is not so (module doc)."""
        lines, lowered = chunk.split(b"\n"), chunk.lower().split(b"\n")
        picked = set(compress(range(first, len(lines)), map(self.holds, lowered[first:])))
        mixed = picked.intersection(others)
        held = sorted(picked.difference(mixed))
        if not held:
            return 0, -1, mixed
        texts = list(map(lines.__getitem__, held))
        joined = b"\n".join(texts)
        if max(map(len, texts)) > self.window or b"\r" in joined:
            return None
        if b'File "' in b"\n".join(lines[i - 1] for i in held if i):
            return None
        decoded = joined.decode("utf-8", "replace")
        if INSTANCE_MARK.search(decoded):
            return None
        decoded_lines = decoded.split("\n")
        lowered_texts = list(map(lowered.__getitem__, held))
        for sig in self.sigs:
            pattern, literal = sig.first_wording()
            if not all(map(pattern.search, decoded_lines)):
                return None
            if literal and not all(map(bytes.__contains__, lowered_texts, repeat(literal.encode()))):
                return None
        return len(held), held[-1], mixed
