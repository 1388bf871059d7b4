"""The lines of a chunk that hold keywords, each with its (position, keyword) hits, as the keyword prefilter finds them;
the commonest keywords (a healthy server's access lines) found apart, at memchr speed.

Why apart: a long-running server's log is mostly access lines ('"POST /v1/completions HTTP/1.1" 200 OK'), one
keyword each. The prefilter (keyword_finder.py) costs a call into RE2 and a few Python steps per hit: on the serving
log that was as much as everything else the line cost. A COMMON keyword's letter-free tail ('/1.1" 2') is searched for
case-sensitively instead (Python's `re` skips to a literal's first byte), and the letters before it compared.

Exact: `lines()` yields what `hits_by_line(full finder, chunk)` yields, line for line (tests/test_doctor_plain_lines.py).
A COMMON keyword is taken out of the prefilter only where (`common_keywords`):
- it is ASCII without 'k' or 's' (RE2's case folding takes those to non-ASCII letters; its other letters fold only
  to their ASCII case), has no newline or carriage return, and its tail after the last letter is 3 bytes or more;
- no keyword extends it or is extended by it (no two keywords then start at one position), no two COMMON keywords'
  tails overlap (a tail search then finds every occurrence), and no keyword starts with a line end.
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
    """Line numbers of increasing byte positions in one chunk, counting each newline once."""

    def __init__(self, chunk: bytes, base: int):
        self.chunk, self.pos, self.line = chunk, 0, base

    def at(self, position: int) -> int:
        self.line += self.chunk.count(b"\n", self.pos, position)
        self.pos = position
        return self.line + 1


def hits_by_line(finder, chunk: bytes) -> Iterator[tuple[int, int, list[tuple[int, str]]]]:
    """Each line of `chunk` holding a keyword: its start, its end and the (position, keyword) hits on it."""
    line_start, line_end, words = -1, -1, []
    for position, word in finder.iter(chunk):
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


def _tail(word: str) -> bytes:
    """The bytes after the word's last ASCII letter."""
    letters = [i for i, ch in enumerate(word) if ch.isascii() and ch.isalpha()]
    return word[letters[-1] + 1 if letters else 0 :].encode()


def common_keywords(full: KeywordFinder, candidates: Iterable[str]) -> tuple[str, ...]:
    """The candidates (keywords of plain families: plain_lines.py) that the tail search finds exactly (module doc)."""
    if any(w[:1] in ("\n", "\r") for w in full.words):
        return ()
    extended = {o for more in full.related.values() for o in more}
    kept = [
        w
        for w in candidates
        if w in full.encoded
        and w.isascii()
        and not {"k", "s", "\n", "\r"} & set(w)
        and len(_tail(w)) >= MIN_TAIL
        and not full.related.get(w)
        and w not in extended
    ]
    tails = {_tail(w) for w in kept}
    if any(_overlaps(a, b) for a in tails for b in tails):
        return ()
    return tuple(sorted(kept))


class CommonFinder:
    """Every occurrence of a few COMMON keywords: their tails searched case-sensitively, the letters before compared."""

    def __init__(self, words: tuple[str, ...]):
        self.heads: dict[bytes, list[tuple[bytes, str]]] = {}
        for w in words:
            tail = _tail(w)
            self.heads.setdefault(tail, []).append((w.encode()[: len(w) - len(tail)], w))
        self.regex = re.compile(b"|".join(re.escape(t) for t in sorted(self.heads, key=len, reverse=True)))

    def iter(self, chunk: bytes) -> list[tuple[int, str]]:
        out = []
        for m in self.regex.finditer(chunk):
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

    def lines(self, chunk: bytes) -> Iterator[tuple[int, int, list[tuple[int, str]]]]:
        common = self.common.iter(chunk) if self.common is not None else []
        if not common:
            yield from hits_by_line(self.others, chunk)
            return
        i, n = 0, len(common)
        for start, end, found in hits_by_line(self.others, chunk):
            while i < n and common[i][0] < start:  # lines holding only COMMON keywords
                i = yield from self._common_line(chunk, common, i, [])
            if i < n and common[i][0] <= end:
                i = yield from self._common_line(chunk, common, i, found)
            else:
                yield start, end, found
        while i < n:
            i = yield from self._common_line(chunk, common, i, [])

    def _common_line(self, chunk: bytes, common: list, i: int, others: list):
        """Yield the line of common[i] with its hits (the line's `others` merged in); return the next line's index."""
        start, end = line_at(chunk, common[i][0])
        stop = chunk.find(b"\n", common[i][0])
        stop = len(chunk) if stop < 0 else stop
        j = i + 1
        while j < len(common) and common[j][0] < stop:
            j += 1
        if len(others) + j - i < MAX_PER_LINE:
            # by position only: keywords the prefilter found at one position keep their order
            yield start, end, sorted([*others, *common[i:j]], key=itemgetter(0)) if others else common[i:j]
        else:  # the full prefilter's cap on hits per line applies: search the line again
            yield start, end, [(start + p, w) for p, w in self.full.iter(chunk[start : stop + 1])]
        return j
