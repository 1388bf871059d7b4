"""The fast keyword prefilter that finds a knowledge base's candidate lines in a chunk of bytes.

Why apart from the knowledge base: it knows only literals, not families. Keywords are literals one of which every
wording of a family contains; one RE2 alternation of all of them finds candidate lines without decoding the rest,
in time linear in the input whatever the patterns (issue 12's bound on a 20 MiB line).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable


def trie_pattern(words: Iterable[str]) -> str:
    """One regex for many literals, factored by common prefixes: at each position the engine tests a
    handful of first characters instead of every keyword (a plain alternation is ~10x slower)."""
    trie: dict = {}
    for word in words:
        node = trie
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = {}

    def build(node: dict) -> str:
        if "" in node and len(node) == 1:
            return ""
        branches = [re.escape(ch) + build(child) for ch, child in sorted(node.items()) if ch]
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        # a keyword may end here: any match of a shorter keyword is enough for a prefilter
        return "" if "" in node else body

    return build(trie)


RE2_MAX_MEM = 256 << 20  # the keyword alternation's DFA: RE2's 8 MiB default ran out at ~1,500 keywords


def compile_bytes(pattern: bytes):
    """RE2 (a DFA, linear in the input whatever the pattern) when installed, else Python's `re`. RE2
    gets room for the whole keyword DFA: when it runs out it falls back to a slower engine and prints
    'DFA out of memory' on stderr (left on, so that tests/test_doctor.py sees it if the base outgrows this)."""
    try:
        import re2
    except ImportError:
        return re.compile(pattern)
    options = re2.Options()
    options.max_mem = RE2_MAX_MEM
    return re2.compile(pattern, options)


MAX_PER_LINE = 16
EXTENSIONS_KEPT = 4096  # (keyword, window) pairs remembered before starting afresh


class KeywordFinder:
    """Every keyword occurrence in a chunk of bytes, case-insensitively. One alternation of all
    keywords runs in RE2 (~500 MB/s here) or, without it, in Python's `re` as a prefix-factored
    pattern. The alternation finds the shortest keyword at a spot: the keywords that extend it
    are added there. Overlaps are kept: after a match the search resumes at the first offset
    inside it where another keyword could begin (known per keyword, computed once), else at its
    end. The rescanned stretch is shorter than the longest keyword, so time stays linear.
    Returns (position, keyword) pairs in text order."""

    def __init__(self, words: Iterable[str]):
        self.words = sorted({w.lower() for w in words})
        self.regex = compile_bytes(b"(?i)" + trie_pattern(self.words).encode())
        # the keywords that extend k: in sorted order they follow k in one run (found by bisection, not by
        # comparing every pair: 3,600 keywords made that 13 million comparisons at every start)
        w = self.words
        self.related = {k: w[i + 1 : bisect_left(w, k + "\U0010ffff", i)] for i, k in enumerate(w)}
        self.encoded = {k: k.encode() for k in self.words}
        # the bytes a hit's extensions are compared with: one slice lowered per hit, not one per extension
        self.reach = {k: max(len(self.encoded[o]) for o in more) for k, more in self.related.items() if more}
        self.resume = _resume_offsets(self.encoded.values())
        self.names: dict[bytes, tuple[str, int]] = {}  # matched bytes (any case) -> keyword, resume
        self.span = _span_finder(self.regex)
        self.extensions: dict[
            tuple[str, bytes], tuple[str, ...]
        ] = {}  # (keyword, window) -> its extensions there

    def iter(self, chunk: bytes, pos: int = 0, endpos: int | None = None) -> list[tuple[int, str]]:
        """At most MAX_PER_LINE hits per line: past that, the search jumps to the next line, so a
        line made of keywords costs no more than a normal one. From `pos` to `endpos` (lines' ends) only."""
        out, names, span, resume, extensions = [], self.names, self.span, self.resume, self.extensions
        line_end, on_line, endpos = -1, 0, len(chunk) if endpos is None else endpos
        # past a crowded last line with no newline, pos is endpos + 1: RE2 would print an error for it (stop 45)
        while pos <= endpos and (found := span(chunk, pos, endpos)) is not None:
            start, end = found
            if start > line_end:
                line_end = chunk.find(b"\n", start)
                line_end = len(chunk) if line_end < 0 else line_end
                on_line = 0
            on_line += 1
            raw = chunk[start:end]
            known = names.get(raw)
            if known is None:
                known = names[raw] = (raw.decode("utf-8", "replace").lower(), resume.get(raw.lower(), 0))
            word, step = known
            pos = (start + step if step else end) if on_line < MAX_PER_LINE else line_end + 1
            out.append((start, word))
            if word in self.reach:
                window = chunk[start : start + self.reach[word]].lower()
                longer = extensions.get((word, window))
                if longer is None:
                    longer = self._extensions(word, window, extensions)
                out.extend((start, other) for other in longer)
        return out

    def _extensions(self, word: str, window: bytes, known: dict) -> tuple[str, ...]:
        """The keywords extending `word` that `window` (the lowered bytes from its hit on) starts with, remembered:
        a serving log's hits repeat a few windows ('http/1.1" 400', 'http/1.1" 404'), each asked once."""
        if len(known) >= EXTENSIONS_KEPT:
            known.clear()
        longer = known[(word, window)] = tuple(
            o for o in self.related[word] if window.startswith(self.encoded[o])
        )
        return longer


def _span_finder(regex):
    """(start, end) of the first match at or after pos (and before endpos), or None. On RE2 over bytes, its compiled object's own Match
    call: the public search() wraps each call in a generator and a match object, which was a third of triage's time
    on a realistic log (google-re2 1.1; any other engine or version takes the public call)."""
    compiled = getattr(regex, "_regexp", None)
    try:
        import re2

        unanchored, null = re2._Anchor.UNANCHORED, re2._NULL_SPAN
    except (ImportError, AttributeError):
        compiled = None
    if compiled is None or not hasattr(compiled, "Match"):

        def public(chunk: bytes, pos: int, endpos: int) -> tuple[int, int] | None:
            m = regex.search(chunk, pos, endpos)
            return None if m is None else m.span()

        return public

    def direct(chunk: bytes, pos: int, endpos: int) -> tuple[int, int] | None:
        found = compiled.Match(unanchored, chunk, pos, endpos)[0]
        return None if found == null else found

    return direct


def _resume_offsets(words: Iterable[bytes]) -> dict[bytes, int]:
    """For each keyword, the first offset inside it where a keyword may begin: the rest of the
    keyword from there is the start of a keyword, or a keyword is the start of that rest."""
    words = set(words)
    prefixes = {w[:i] for w in words for i in range(1, len(w) + 1)}
    offsets = {}
    for w in words:
        for i in range(1, len(w)):
            rest = w[i:]
            if rest in prefixes or any(rest[:j] in words for j in range(1, len(rest))):
                offsets[w] = i
                break
    return offsets
