"""A serving log's other frequent keyword lines (refused requests' 4xx access lines, 'Error with model ...' lines), read
together once every family they would count for has all it keeps.

Why: past the 200s (counted_lines.py), a serving log's keyword lines are mostly repeats of a few kinds: '"POST
/v1/completions HTTP/1.1" 400 Bad Request', '... 404 Not Found', 'ErrorInfo(message=...)'. Each woke two to four
families, and one at a time each cost a decode, the generic or plain path's sets and dicts, a quoted-code check and a
hit update in Python: about half of the serving benchmark's time after stop 45 (speed46). Here they are decoded
together and each family's wordings run over all of its lines at C speed (one `map` per wording).

Exact (tests/test_doctor_speed46_settled.py compares with the generic path), because what such a line does then
commutes with every other line (a count added, the largest line number kept, literals and met context lines added to a
set). A line of the window (keyword_reading._read_counted) is read here only where:
- it holds no raised exception's or incident's mark and no COMMON keyword, is at most PATTERN_WINDOW bytes (each
  family's window is the whole line) with no carriage return (its text is its bytes: exception_context.line_at), the
  line above holds no 'File "' (structure.quoted_in_echo is then False) and no '[PORT] ' stands on it
  (structure.instance_of is then empty);
- every family it wakes either ignores it (no wording, context wording or hint matches, and, for a family that is not
  plain (plain_lines.py), neither its `above` nor its `above_ends` matches and it has no `listed_above`: the generic
  path changes nothing for it), or only counts it: the family is plain, its hit is saturated (counted_lines.saturated:
  no later line can replace it or add evidence) and captures no `instance_port`; a full or context wording's match
  counts, a hint's adds nothing (triage._count); or the family is plain, captures no `instance_port` and its hit is
  a hint's with all its evidence (hint_saturated), no full or context wording matches the line, and no other line of
  the window that wakes it might replace that hit (SettledLines._replaced: one where a full or context wording
  matches, or that is too long or an incident's): the hint's match then counts.
Every other line is read one at a time, as before, and the counts are added after them (the largest line kept), as
counted_lines' are. Measured (benchmarks/doctor_speed.py 20 --baseline 3a3bd653, a busy 2-core machine): the serving
input in 0.82x stop 45's time, the others unchanged (only a serving window's lines are read here).
"""

from __future__ import annotations

import operator
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import reduce
from itertools import compress

from servebox.doctor.counted_lines import INSTANCE_MARK, counts, saturated
from servebox.doctor.plain_lines import plain
from servebox.doctor.required_literal import lowered
from servebox.doctor.signatures import Signature, context_line_key


@dataclass
class Settled:
    read: set[int] = field(default_factory=set)  # the lines read here (indexes in the window)
    counted: dict[str, tuple[int, int]] = field(default_factory=dict)  # family -> (lines counted, last index)
    seen: set[str] = field(default_factory=set)  # context literals and met context lines' keys


def _any_match(patterns: Iterable, texts: list[str], low: str) -> list[bool]:
    """Per text, whether one of the guarded `patterns` (triage's first_match: a wording whose required literal is in
    none of the texts cannot match) matches it."""
    found, rest = [False] * len(texts), range(len(texts))
    for pattern, atom in patterns:
        if not rest:
            break  # every text matched already
        if atom and atom not in low:
            continue
        matched = list(map(bool, map(pattern.search, map(texts.__getitem__, rest))))
        for i in compress(rest, matched):
            found[i] = True
        rest = list(compress(rest, map(operator.not_, matched)))
    return found


class SettledLines:
    """Which keyword lines of a window are read together, and what they add (module doc)."""

    def __init__(
        self, by_keyword: dict, marks: tuple, requirement_words: set[str], context_lines: dict, window: int
    ):
        """`marks`: the raised exceptions' marks, the incidents' and the COMMON keywords (a line holding one is barred)."""
        exception_words, incident_words, common = marks
        self.by_keyword, self.barred = by_keyword, frozenset((*exception_words, *incident_words, *common))
        self.requirement_words, self.context_lines, self.window = requirement_words, context_lines, window
        self.incident_words = frozenset(incident_words)
        self.families = {w: tuple(sigs) for w, sigs in by_keyword.items()}
        # a family that may only count a line once its hit is saturated: plain, capturing no instance_port
        self.may_count = {
            sig.id: plain(sig)
            and all(
                "instance_port" not in p.groupindex
                for p in (*sig.patterns, *sig.context_patterns, *sig.hints)
            )
            for sigs in by_keyword.values()
            for sig in sigs
        }

    def _candidates(self, chunk: bytes, lines: list, counting: dict) -> list:
        """The (index, start, end, words, families) of the lines whose bytes and families allow reading them here."""
        out, known, window = [], {}, self.window
        for index, start, end, found in lines:
            key = tuple(w for _, w in found)
            if (kind := known.get(key)) is None:
                kind = known[key] = self._kind(key, counting)
            if kind and end - start <= window:
                out.append((index, start, end, *kind))
        return out

    def _kind(self, key: tuple[str, ...], counting: dict) -> tuple | None:
        """(words, families) of a line holding the keywords `key`, or () where its families bar it from here."""
        words = set(key)
        if not self.barred.isdisjoint(words):
            return ()
        sigs = {s.id: s for w in words for s in self.families.get(w, ())}
        # a family ignores a line only without a listed_above (checked per line below for the rest)
        if sigs and all(counting[k] != NONE or s.listed_above is None for k, s in sigs.items()):
            return words, tuple(sigs.values())
        return ()

    def read(
        self, chunk: bytes, lines: list, hits: dict, kept: int, seen: set[str], others=frozenset()
    ) -> Settled:
        """Of the window's `lines` ((index, start, end, found) each), those not in `others` (read otherwise) that are
        read here, and what they add."""
        counting = _Counting(self.may_count, hits, kept)
        own = [line for line in lines if line[0] not in others]
        picked = self._plain(chunk, self._candidates(chunk, own, counting))
        if not picked:
            return Settled()
        texts = b"\n".join(chunk[s:e] for _, s, e, _, _ in picked).decode("utf-8", "replace").split("\n")
        ok = [INSTANCE_MARK.search(t) is None for t in texts]
        counted: dict[str, list[tuple[int, bool]]] = {}
        for sig, at in self._by_family(picked).values():
            sig_texts = [texts[i] for i in at]
            low = lowered("\n".join(sig_texts))
            counts = list(map(operator.or_, _any_match(sig._guarded["patterns"], sig_texts, low),
                              _any_match(sig._guarded["context_patterns"], sig_texts, low)))  # fmt: skip
            kind = counting[sig.id]
            if kind == FULL:
                counted[sig.id] = list(zip(at, counts, strict=True))
                continue
            hinted = _any_match(sig._guarded["hints"], sig_texts, low)
            if (
                kind == HINT
                and not any(counts)
                and not self._replaced(sig, chunk, lines, {c[0] for c in picked})
            ):
                counted[sig.id] = list(zip(at, hinted, strict=True))
                continue
            # ignored only: no wording of any kind, and no line above's mark or its end
            touched = map(operator.or_, counts, hinted)
            for marker in (sig.above, sig.above_ends):
                if marker is not None:
                    touched = map(operator.or_, touched, map(bool, map(marker.search, sig_texts)))
            for i, t in zip(at, touched, strict=True):
                ok[i] = ok[i] and not t
        settled = Settled({c[0] for c in compress(picked, ok)})
        for sig_id, flags in counted.items():
            where = [picked[i][0] for i, c in flags if c and ok[i]]
            settled.counted[sig_id] = (len(where), max(where, default=-1))
        settled.seen = self._context(list(compress(picked, ok)), list(compress(texts, ok)), seen)
        return settled

    def _replaced(self, sig: Signature, chunk: bytes, lines: list, picked: set[int]) -> bool:
        """Whether a line of the window read one at a time might replace `sig`'s hint hit (a full or context wording
        matching it: triage._count), so that its hint lines cannot be counted together: any line too long to be read
        whole, or marking an incident (whose text the wordings read is another), counts as one that might."""
        words = set(sig.keywords)
        for index, start, end, found in lines:
            if index in picked or words.isdisjoint(w for _, w in found):
                continue
            if end - start > self.window or not self.incident_words.isdisjoint(w for _, w in found):
                return True
            if counts(sig, chunk[start:end].decode("utf-8", "replace")):
                return True
        return False

    def _plain(self, chunk: bytes, candidates: list) -> list:
        """The candidates with _plain_bytes: asked one at a time only where the bytes from the first's line above to
        the last's end hold a carriage return or a frame's 'File "' at all."""
        if not candidates:
            return candidates
        lo = chunk.rfind(b"\n", 0, max(candidates[0][1] - 1, 0)) + 1
        hi = candidates[-1][2] + 1
        if chunk.find(b"\r", lo, hi) < 0 and chunk.find(b'File "', lo, hi) < 0:
            return candidates
        return [c for c in candidates if self._plain_bytes(chunk, c[1], c[2])]

    def _plain_bytes(self, chunk: bytes, start: int, end: int) -> bool:
        """No carriage return on the line, no traceback frame above it (module doc)."""
        above = chunk[chunk.rfind(b"\n", 0, start - 1) + 1 : start - 1] if start >= 2 else b""
        return b"\r" not in chunk[start : end + 1] and b'File "' not in above

    @staticmethod
    def _by_family(picked: list) -> dict[str, tuple[Signature, list[int]]]:
        """Each family the lines wake, with the lines (their places in `picked`) that wake it."""
        out: dict[str, tuple[Signature, list[int]]] = {}
        for i, (_, _, _, _, sigs) in enumerate(picked):
            for sig in sigs:
                out.setdefault(sig.id, (sig, []))[1].append(i)
        return out

    def _context(self, picked: list, texts: list[str], seen: set[str]) -> set[str]:
        """What the lines add to `seen` (triage._context_word): their requirement literals, the context lines met."""
        words = reduce(set.union, (c[3] for c in picked), set())
        added = words & self.requirement_words
        for word in words:
            for sig in self.context_lines.get(word, ()):
                key = context_line_key(sig.id)
                if key in seen or key in added or sig.context_line is None:
                    continue
                where = [t for c, t in zip(picked, texts, strict=True) if word in c[3]]
                if any(map(sig.context_line.search, where)):
                    added.add(key)
        return added


FULL, HINT, NONE = "full", "hint", ""


def hint_saturated(hit, kept: int) -> bool:
    """A hint's hit with all the evidence it keeps: a later hint's match only counts into it (a full or context
    wording's would replace it: SettledLines._replaced)."""
    return hit is not None and hit.weak and not (hit.contextual or hit.relayed) and len(hit.evidence) >= kept


class _Counting(dict):
    """Family id -> what a line may do to it now: FULL, may_count's families whose hit is saturated (a full or context
    wording's match counts), HINT, those whose hint's hit is (a hint's match counts), else NONE (ignored only). Worked
    out once per window: a saturated hit stays so, and a hint's is replaced only by lines that _replaced finds."""

    def __init__(self, may_count: dict[str, bool], hits: dict, kept: int):
        super().__init__()
        self.may_count, self.hits, self.kept = may_count, hits, kept

    def __missing__(self, sig_id: str) -> str:
        hit, value = self.hits.get(sig_id), NONE
        if self.may_count.get(sig_id, False):
            value = FULL if saturated(hit, self.kept) else HINT if hint_saturated(hit, self.kept) else NONE
        self[sig_id] = value
        return value
