"""A healthy server's access lines, counted a chunk at a time once their family's hit has all it keeps.

Why: past its first few, an access line ('"POST /v1/completions HTTP/1.1" 200 OK', request-answered) changes only
its family's count and last line, and a health check's ('"GET /health HTTP/1.1" 200') only what the log has shown
(the context literal 'get ', a `context_line` met). Read one at a time, each still cost a decode, a few searches and
a hit update in Python: most of a serving log's time (issue 12 item 4). Here the lines holding COMMON keywords
(keyword_lines.py) are picked out of the chunk's lines with C-level filters and searched together.

Exact (tests/test_doctor_counted_lines.py), because these updates commute with every other line's (a count added,
the largest line number kept, literals and met context lines added to a set), where:
- static: every COMMON keyword wakes the same families, each plain (plain_lines.py), none capturing an
  `instance_port`, and the keyword is no context literal;
- the hit: it exists, is no hint's, context wording's or relayed incident's (nothing can replace it or change its
  kind; a hint's match adds nothing to it), and holds its EVIDENCE_KEPT lines;
- the lines counted: only COMMON keywords and context literals on each (no exception's or incident's mark, no other
  family's keyword), each at most PATTERN_WINDOW bytes (the window is the whole line, and a context line's search
  reads it whole) with no carriage return (its text is then its bytes between newlines: exception_context.line_at),
  none below a line holding 'File "' (a traceback's frame: no wording then quotes code, structure.quoted_in_echo),
  no router instance's '[PORT] ' on them (structure.instance_of). A line counts where the family's first wording
  matches it with that wording's required literal in it (required_literal.first_match then searches it); any other
  line is asked as _match_line asks it (a full wording, else a context wording). Otherwise the rest of the chunk is
  read line by line.
"""

from __future__ import annotations

import operator
import re
from dataclasses import dataclass, field
from itertools import compress

from servebox.doctor.keyword_lines import letter_free_tail
from servebox.doctor.signatures import Signature, context_line_key

# a superset of structure.instance_of's mark ('[PORT] ' at a line's start): anywhere on a line
INSTANCE_MARK = re.compile(r"\[\d{2,5}\] ")


def saturated(hit, kept: int) -> bool:
    """A hit that later lines of its family only count (module doc)."""
    return hit is not None and not (hit.weak or hit.contextual or hit.relayed) and len(hit.evidence) >= kept


def counts(sig: Signature, text: str) -> bool:
    """Whether a line counts for a saturated hit of `sig`: a full or a context wording matches (triage._wording)."""
    return sig.search(text) is not None or (bool(sig.context_patterns) and sig.in_context(text) is not None)


@dataclass
class Tally:
    counted: dict[str, tuple[int, int]]  # family -> (lines counted, index of the last; -1 for none)
    mixed: set[int]  # lines read one at a time that hold COMMON keywords too (their hits need them merged in)
    batch: set[int]  # lines with other keywords that were counted here (context literals only)
    seen: set[str] = field(
        default_factory=set
    )  # context literals and met context lines (their keys) to record


class CountedLines:
    """The families of the COMMON keywords, and how to count their lines in a chunk."""

    def __init__(self, common: tuple[str, ...], by_keyword: dict, context_lines: dict, requirement_words: set[str],
                 context_only: frozenset[str], window: int):  # fmt: skip
        woken = {tuple(s.id for s in by_keyword.get(w, ())) for w in common}
        sigs = tuple(by_keyword[common[0]]) if common and len(woken) == 1 else ()
        eligible = sigs and not ({*requirement_words, *context_lines} & set(common))
        eligible = eligible and all(s.patterns for s in sigs)
        eligible = eligible and all("instance_port" not in p.groupindex for s in sigs for p in s.patterns)
        self.sigs: tuple[Signature, ...] = sigs if eligible else ()
        self.context_lines, self.requirement_words, self.context_only = (
            context_lines,
            requirement_words,
            context_only,
        )
        self.window = window
        self.holds = (
            re.compile(b"|".join(re.escape(w.encode()) for w in common)).search if self.sigs else None
        )
        self.common = frozenset(common)
        self.tails = {letter_free_tail(w) for w in common}  # a cheap sign of COMMON keywords (dense)
        self.batched = context_only | self.common  # the keywords a line counted here may hold

    def ready(self, hits: dict, kept: int) -> bool:
        return bool(self.sigs) and all(saturated(hits.get(s.id), kept) for s in self.sigs)

    def dense(self, chunk: bytes, pos: int, stop: int) -> bool:
        """Whether the lines from `pos` to `stop` look like a serving log's (one COMMON keyword's tail in 8 lines or
        more): counting them together saves more than picking them out of the chunk's lines costs."""
        if not self.sigs:
            return False
        tails = sum(chunk.count(tail, pos, stop) for tail in self.tails)
        return tails * 8 >= chunk.count(b"\n", pos, stop)

    def count(
        self, chunk: bytes, pos: int, stop: int, others: dict[int, set[str]], seen: set[str]
    ) -> Tally | None:
        """The lines from `pos` to `stop` (indexed from 0 there) that hold COMMON keywords, counted (module doc);
        `others`: the keywords on each line that holds other keywords (all of them where only context literals and
        COMMON keywords are). None where they cannot be."""
        region = chunk[pos:stop]
        lines, lowered = region.split(b"\n"), region.lower().split(b"\n")
        picked = set(compress(range(len(lines)), map(self.holds, lowered)))
        batch = {i for i, words in others.items() if words <= self.batched and self._plain_text(lines[i])}
        mixed = picked.intersection(others).difference(batch)
        held = sorted(
            picked.difference(others).union(i for i in batch if not self.common.isdisjoint(others[i]))
        )
        texts = list(map(lines.__getitem__, held))
        if max(map(len, texts), default=0) > self.window or b"\r" in b"".join(texts):
            return None
        # the line above each (structure.quoted_in_echo's): the first's is above the region
        above = chunk[chunk.rfind(b"\n", 0, pos - 1) + 1 : pos - 1] if pos >= 2 else b""
        if b'File "' in region + above and b'File "' in b"\n".join(
            lines[i - 1] if i else above for i in held
        ):
            return None
        decoded = b"\n".join(texts).decode("utf-8", "replace")
        if INSTANCE_MARK.search(decoded):
            return None
        decoded_lines = decoded.split("\n") if held else []
        counted = {
            sig.id: self._counted(sig, held, decoded_lines, list(map(lowered.__getitem__, held)))
            for sig in self.sigs
        }
        return Tally(counted, mixed, batch, self._context(lines, batch, others, seen))

    def _plain_text(self, line: bytes) -> bool:
        """A line whose text (line_at) is its bytes, short enough to be read whole."""
        return len(line) <= self.window and b"\r" not in line

    @staticmethod
    def _counted(sig: Signature, held: list[int], texts: list[str], lowered: list[bytes]) -> tuple[int, int]:
        """How many of the lines `sig` counts, and the index of the last: the first wording over all at C speed, the
        lines it leaves asked one at a time."""
        pattern, literal = sig.first_wording()
        ok = map(bool, map(pattern.search, texts))
        if literal:
            ok = map(
                operator.and_, ok, map(bool, map(re.compile(re.escape(literal.encode())).search, lowered))
            )
        ok = list(ok)
        lines = list(compress(held, ok))
        lines += [
            held[i] for i in compress(range(len(held)), map(operator.not_, ok)) if counts(sig, texts[i])
        ]
        return len(lines), max(lines, default=-1)

    def _context(
        self, lines: list[bytes], batch: set[int], others: dict[int, set[str]], seen: set[str]
    ) -> set[str]:
        """What the batch lines add to `seen`: their context literals, and the context lines they meet
        (triage._context_word)."""
        by_word: dict[str, list[int]] = {}
        for i in batch:
            for word in others[i] - self.common:
                by_word.setdefault(word, []).append(i)
        added = {w for w in by_word if w in self.requirement_words}
        for word, where in by_word.items():
            for sig in self.context_lines.get(word, ()):
                key = context_line_key(sig.id)
                if key in seen or key in added or sig.context_line is None:
                    continue
                texts = (lines[i].decode("utf-8", "replace") for i in where)
                if any(map(sig.context_line.search, texts)):
                    added.add(key)
        return added
