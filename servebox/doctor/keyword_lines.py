"""The lines of a chunk that hold keywords, each with its (position, keyword) hits, as the keyword prefilter finds them;
the commonest keywords (a healthy server's access lines) found apart, at memchr speed.

Why apart: a long-running server's log is mostly access lines ('"POST /v1/completions HTTP/1.1" 200 OK'), one
keyword each. The prefilter (keyword_finder.py) costs a call into RE2 and a few Python steps per hit: on the serving
log that was as much as everything else the line cost. A COMMON keyword's letter-free tail ('/1.1" 2') is searched for
case-sensitively instead (Python's `re` skips to a literal's first byte), and the letters before it compared.

Exact: `lines()` yields what `hits_by_line(full finder, chunk)` yields, line for line (tests/test_doctor_counted_lines.py).
A COMMON keyword is taken out of the prefilter only where (`common_keywords`):
- it is ASCII without 'k' or 's' (RE2's case folding takes those to non-ASCII letters; its other letters fold only
  to their ASCII case), has no newline or carriage return, and its tail after the last letter is 3 bytes or more;
- no keyword extends it or is extended by it (no two keywords then start at one position), no two COMMON keywords'
  tails overlap (a tail search then finds every occurrence), and no keyword starts with a line end or holds a
  newline before its last byte (then a keyword found from a line's start holds the same hits as in its chunk: the
  prefilter may run over a window of lines, keyword_reading.py).
Then on a line where the prefilter (without COMMON keywords) finds nothing, the full prefilter finds just the COMMON
occurrences; where it finds others, fewer than MAX_PER_LINE in all, both lists merged by position (the full prefilter
finds every keyword occurrence below that cap); at the cap, the line is searched again with the full prefilter (a
keyword never spans a newline, so a line alone yields the hits it has in its chunk).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import lru_cache
from operator import itemgetter

from servebox.doctor.exception_context import line_at
from servebox.doctor.keyword_finder import MAX_PER_LINE, KeywordFinder

# request-answered's keywords: HTTP 2xx access lines, most of a serving log's lines
COMMON = ('http/1.1" 2', 'http/1.0" 2')
MIN_TAIL = 3


class LineCounter:
    """Line numbers of increasing byte positions in one chunk (from `pos`, the start of line `base` + 1), counting each
    newline once."""

    def __init__(self, chunk: bytes, base: int, pos: int = 0):
        self.chunk, self.pos, self.line = chunk, pos, base

    def at(self, position: int) -> int:
        self.line += self.chunk.count(b"\n", self.pos, position)
        self.pos = position
        return self.line + 1


def hits_by_line(
    finder, chunk: bytes, pos: int = 0, endpos: int | None = None
) -> Iterator[tuple[int, int, list[tuple[int, str]]]]:
    """Each line of `chunk` holding a keyword (of the lines from `pos` to `endpos`): its start, its end and the
    (position, keyword) hits on it."""
    line_start, line_end, words = -1, -1, []
    for position, word in finder.iter(chunk, pos, endpos) if pos or endpos else finder.iter(chunk):
        if position >= line_end:
            if words:
                yield line_start, line_end, words
            line_start, line_end = line_at(chunk, position)
            words = []
        words.append((position, word))
    if words:
        yield line_start, line_end, words


@lru_cache(maxsize=4)
def finder(words: tuple[str, ...]) -> KeywordFinder:
    return KeywordFinder(words)


def _overlaps(a: bytes, b: bytes) -> bool:
    """Whether an occurrence of `b` can begin inside one of `a` (after its first byte), or at its first byte (a != b)."""
    inside = any(b.startswith(a[i:]) or a[i:].startswith(b) for i in range(1, len(a)))
    return inside or (a != b and (a.startswith(b) or b.startswith(a)))


def letter_free_tail(word: str) -> bytes:
    """The bytes after the word's last ASCII letter."""
    letters = [i for i, ch in enumerate(word) if ch.isascii() and ch.isalpha()]
    return word[letters[-1] + 1 if letters else 0 :].encode()


def common_keywords(full: KeywordFinder, candidates: Iterable[str]) -> tuple[str, ...]:
    """The candidates (keywords of plain families: plain_lines.py) that the tail search finds exactly (module doc)."""
    if any(w[:1] in ("\n", "\r") or "\n" in w[:-1] for w in full.words):
        return ()  # a keyword may span lines: a line alone (or a window of lines) might not hold its hits
    extended = {o for more in full.related.values() for o in more}
    kept = [
        w
        for w in candidates
        if w in full.encoded
        and w.isascii()
        and not {"k", "s", "\n", "\r"} & set(w)
        and len(letter_free_tail(w)) >= MIN_TAIL
        and not full.related.get(w)
        and w not in extended
    ]
    tails = {letter_free_tail(w) for w in kept}
    if any(_overlaps(a, b) for a in tails for b in tails):
        return ()
    return tuple(sorted(kept))


class CommonFinder:
    """Every occurrence of a few COMMON keywords: their tails searched case-sensitively, the letters before compared."""

    def __init__(self, words: tuple[str, ...]):
        self.heads: dict[bytes, list[tuple[bytes, str]]] = {}
        for w in words:
            tail = letter_free_tail(w)
            self.heads.setdefault(tail, []).append((w.encode()[: len(w) - len(tail)], w))
        self.regex = re.compile(b"|".join(re.escape(t) for t in sorted(self.heads, key=len, reverse=True)))

    def iter(self, chunk: bytes, pos: int = 0, endpos: int | None = None) -> list[tuple[int, str]]:
        out = []
        for m in self.regex.finditer(chunk, pos, len(chunk) if endpos is None else endpos):
            at = m.start()
            for head, word in self.heads[m.group()]:
                if at >= len(head) and chunk[at - len(head) : at].lower() == head:
                    out.append((at - len(head), word))
        return out


@lru_cache(maxsize=4)
def keyword_lines(words: tuple[str, ...], common: tuple[str, ...]) -> KeywordLines:
    return KeywordLines(words, common)


class KeywordLines:
    """The keyword lines of a chunk for the prefilter of `words`, its `common` keywords found apart (module doc)."""

    def __init__(self, words: tuple[str, ...], common: tuple[str, ...]):
        self.full = finder(words)
        self.others = finder(tuple(w for w in words if w not in common)) if common else self.full
        self.common = CommonFinder(common) if common else None
        self.common_words = frozenset(common)

    def lines(
        self, chunk: bytes, pos: int = 0, endpos: int | None = None
    ) -> Iterator[tuple[int, int, list[tuple[int, str]]]]:
        """Of the lines from `pos` to `endpos` (lines' ends)."""
        common = self.common.iter(chunk, pos, endpos) if self.common is not None else []
        if not common:
            yield from hits_by_line(self.others, chunk, pos, endpos)
            return
        i, n = 0, len(common)
        for start, end, found in hits_by_line(self.others, chunk, pos, endpos):
            while i < n and common[i][0] < start:  # lines holding only COMMON keywords
                line_start, line_end, hits, i = self._line_of(chunk, common, i)
                yield line_start, line_end, hits
            if i < n and common[i][0] <= end:
                j = i + 1
                while j < n and common[j][0] <= end:
                    j += 1
                found, i = self._merged(chunk, start, found, common[i:j]), j
            yield start, end, found
        while i < n:
            line_start, line_end, hits, i = self._line_of(chunk, common, i)
            yield line_start, line_end, hits

    def with_common(self, chunk: bytes, start: int, end: int, found: list) -> list[tuple[int, str]]:
        """The hits of the line from `start` to `end`, where the prefilter without COMMON keywords found `found`."""
        common = self.common.iter(chunk, start, end) if self.common is not None else []
        return self._merged(chunk, start, found, common) if common else found

    def _line_of(self, chunk: bytes, common: list, i: int) -> tuple[int, int, list, int]:
        """common[i]'s line, holding no other keyword: its start and end, its hits, and the index in `common` of the
        next line's first."""
        start, end = line_at(chunk, common[i][0])
        j = i + 1
        while j < len(common) and common[j][0] <= end:
            j += 1
        return start, end, self._merged(chunk, start, [], common[i:j]), j

    def _merged(self, chunk: bytes, start: int, others: list, common: list) -> list[tuple[int, str]]:
        """A line's hits: the other keywords' and the COMMON keywords' on it, in the full prefilter's order."""
        if len(others) + len(common) >= MAX_PER_LINE:  # the full prefilter's cap: search the line again
            stop = chunk.find(b"\n", start)
            return [
                (start + p, w) for p, w in self.full.iter(chunk[start : len(chunk) if stop < 0 else stop + 1])
            ]
        # by position only: keywords the prefilter found at one position keep their order
        return sorted([*others, *common], key=itemgetter(0)) if others else common
