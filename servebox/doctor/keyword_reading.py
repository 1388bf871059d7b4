"""How triage reads a chunk's keyword lines: a window of lines at a time, each by the cheapest path that gives the
generic path's answer (a plain line: plain_lines.py), and, once request-answered's hit holds all it keeps, the access
and health-check lines counted together (counted_lines.py).

Split from triage.py, whose Triage inherits this: its __init__ sets the attributes read here (keyword_lines, counted,
plain_words, line_words, context_only, ...), and the generic path (_match_line) with the hit bookkeeping it shares with
the plain one (_wording, _count) stays there.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from servebox.doctor.keyword_lines import COMMON, LineCounter, common_keywords, hits_by_line
from servebox.doctor.plain_lines import plain_words
from servebox.doctor.signatures import context_line_key

WINDOW = 64 * 1024  # the lines read (one at a time or counted together) before looking again which way
EVIDENCE_KEPT = 3
PATTERN_WINDOW = 640  # patterns see this much before their keyword and twice as much after
EXCEPTION_LINE_KEPT = 4096  # an exception line longer than this is parsed from its head


# id(signatures) -> (signatures, plan): the tuple is kept with it, so that its id is not reused
_PLANS: dict[int, tuple] = {}


def reading_plan(
    signatures: tuple, by_keyword: Mapping, words: Iterable[str], marks: set[str], full
) -> tuple[frozenset[str], frozenset[str], tuple[str, ...]]:
    """The keywords a plain line may hold (plain_lines.py), the literals only recorded where seen (a context line's
    are looked for on their line), and the COMMON keywords found apart from the prefilter `full` (keyword_lines.py):
    worked out once per knowledge base (a few milliseconds, as much as the rest of a small log's triage)."""
    kept = _PLANS.get(id(signatures))
    if kept is not None and kept[0] is signatures:
        return kept[1]
    plain = plain_words(words, by_keyword, marks)
    context_only = frozenset(w for w in words if w not in by_keyword and w not in marks)
    plan = plain, context_only, common_keywords(full, [w for w in COMMON if w in plain])
    if len(_PLANS) >= 8:
        _PLANS.clear()
    _PLANS[id(signatures)] = (signatures, plan)
    return plan


class KeywordReading:
    """The keyword lines of each chunk, read in order (module doc)."""

    def _keywords(self, chunk: bytes, base: int) -> LineCounter:
        """Read the chunk's keyword lines. In a serving log's chunk, a window of lines after another: one at a time,
        or, once the access lines' family only counts its lines and where they are many (counted_lines.py), those
        lines counted together."""
        counter, pos = LineCounter(chunk, base), 0
        if not self.counted.dense(chunk, 0, chunk.find(b"\n", WINDOW) + 1 or len(chunk)):
            # no serving log's chunk (judged by its head): the full prefilter over it at once is the cheaper
            for start, end, found in hits_by_line(self.keyword_lines.full, chunk):
                self._read(chunk, start, end, found, counter)
            return counter
        while pos < len(chunk):
            stop = chunk.find(b"\n", pos + WINDOW) + 1 or len(chunk)
            counted = self.counted.ready(self.hits, EVIDENCE_KEPT) and self.counted.dense(chunk, pos, stop)
            if not (counted and self._read_counted(chunk, counter, pos, stop)):
                for start, end, found in self.keyword_lines.lines(chunk, pos, stop):
                    self._read(chunk, start, end, found, counter)
            pos = stop
        return counter

    def _read_counted(self, chunk: bytes, counter: LineCounter, pos: int, stop: int) -> bool:
        """The lines from `pos` to `stop`: those with other keywords one at a time, the access lines counted together
        (with the health checks', where only context literals stand beside their keyword); False where they cannot
        be (counted_lines.py) and nothing was read."""
        keyword_lines, at = self.keyword_lines, LineCounter(chunk, -1, pos)
        lines = [
            (at.at(start), start, end, found)
            for start, end, found in hits_by_line(keyword_lines.others, chunk, pos, stop)
        ]
        words = {}
        for index, start, end, found in lines:
            words[index] = {w for _, w in found}
            if words[index] <= self.context_only:  # all its keywords, to be counted with the access lines
                words[index] = {w for _, w in keyword_lines.with_common(chunk, start, end, found)}
        tally = self.counted.count(chunk, pos, stop, words, self.seen_requirements)
        if tally is None:
            return False
        first = counter.at(pos)  # the number of the region's first line
        others = tally.batch | tally.mixed  # read with the access lines, or holding some
        settled = self.settled.read(chunk, lines, self.hits, EVIDENCE_KEPT, self.seen_requirements, others)
        for index, start, end, found in lines:
            if index in tally.mixed:
                found = keyword_lines.with_common(chunk, start, end, found)
            if index not in tally.batch and index not in settled.read:
                self._read(chunk, start, end, found, counter)
        self.seen_requirements.update(tally.seen, settled.seen)
        for sig in self.counted.sigs:
            self._add_counted(sig.id, *tally.counted[sig.id], first)
        for sig_id, (count, last) in settled.counted.items():
            self._add_counted(sig_id, count, last, first)
        return True

    def _add_counted(self, sig_id: str, count: int, last: int, first: int) -> None:
        """`count` lines counted together into a saturated hit, the last at index `last` from line `first`."""
        hit = self.hits[sig_id]
        hit.count += count
        hit.last_line = max(hit.last_line, first + last) if count else hit.last_line

    def _read(
        self, chunk: bytes, start: int, end: int, found: list[tuple[int, str]], counter: LineCounter
    ) -> None:
        """One keyword line, by the path its words allow: recorded as seen, read plainly, or read in full."""
        words = {w for _, w in found}
        if self.line_words.isdisjoint(words):
            # only context words on this line (most of a healthy log's): nothing reads its text or its
            # number, they are only recorded as seen
            self.seen_requirements.update(words)
        elif end - start <= PATTERN_WINDOW and words <= self.plain_words:
            self._plain_line(chunk, start, end, counter.at(start), found)
        else:
            self._match_line(chunk, start, end, counter.at(start), found, words)

    def _context_word(self, word: str, line: str) -> None:
        """Record a context literal as seen, and a `context_line` its line meets."""
        if word in self.requirement_words:
            self.seen_requirements.add(word)
        for sig in self.context_lines.get(word, ()):
            # once met, a context line is not looked for again (its key only records that it was seen)
            key = context_line_key(sig.id)
            if key in self.seen_requirements or sig.context_line is None:
                continue
            if sig.context_line.search(line[:EXCEPTION_LINE_KEPT]):
                self.seen_requirements.add(key)

    def _plain_line(
        self, chunk: bytes, start: int, end: int, number: int, found: list[tuple[int, str]]
    ) -> None:
        """A line whose keywords wake only plain families (plain_lines.py): each family's wording matched on the whole
        line counts, unless it quotes code; its context literals are recorded as seen."""
        line = chunk[start:end].decode("utf-8", "replace")
        read = set()
        for _, word in found:
            self._context_word(word, line)
            for sig in self.by_keyword.get(word, ()):
                if sig.id in read:
                    continue
                read.add(sig.id)
                m, weak, contextual = self._wording(sig, line, chunk, start, line)
                if m:
                    self._count(sig, m, line, number, weak, contextual)
