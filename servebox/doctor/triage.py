"""Log triage: stream a log, find every known failure signature, rank causes above symptoms.

A log is read as bytes in chunks (memory stays flat on a 200 MB journal). One alternation of the
signatures' keywords, run by RE2, finds candidate lines; only those lines are decoded and meet the
full patterns.
Symptoms (EngineDeadError, 'upstream command exited prematurely', 'Engine core initialization
failed') never outrank a cause found anywhere in the log; with no cause, the symptoms are shown
with where to look, and a log with neither gets "no known signature" and its last error lines.
"""

from __future__ import annotations

import re
import tomllib
from collections import defaultdict, deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

from pydantic import BaseModel

CHUNK_BYTES = 4 * 2**20
ERROR_LINE = re.compile(rb"(?i)\b(error|exception|traceback|fatal|failed|killed|assert)")
EVIDENCE_KEPT = 3


@dataclass(frozen=True)
class Signature:
    id: str
    category: str
    role: str
    keywords: tuple[str, ...]
    pattern: re.Pattern[str]
    requires: tuple[str, ...]
    confidence: float
    cause: str
    fix: str
    excerpt: str
    generic: bool = False


@lru_cache(maxsize=1)
def load_signatures() -> tuple[Signature, ...]:
    raw = tomllib.loads(resources.files("servebox.doctor").joinpath("signatures.toml").read_text())
    return tuple(
        Signature(
            id=e["id"],
            category=e["category"],
            role=e["role"],
            keywords=tuple(e["keyword"]) if isinstance(e["keyword"], list) else (e["keyword"],),
            pattern=re.compile(e["pattern"]),
            requires=tuple(e.get("requires") or ()),
            confidence=float(e["confidence"]),
            cause=e["cause"],
            fix=e["fix"],
            excerpt=e["excerpt"],
            generic=bool(e.get("generic", False)),
        )
        for e in raw["signature"]
    )


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


class KeywordFinder:
    """Every keyword occurrence in a chunk of bytes. One alternation of all keywords runs in RE2
    (`google-re2`: a DFA, ~500 MB/s here) or, without it, in Python's `re` as a prefix-factored
    pattern (~20 MB/s). Keywords that extend or sit inside a found one are added, so overlapping
    keywords at one spot are all reported. Returns (position, keyword) pairs in text order."""

    def __init__(self, words: Iterable[str]):
        self.words = sorted(set(words))
        pattern = trie_pattern(self.words).encode()
        try:
            import re2
        except ImportError:
            self.regex = re.compile(pattern)
        else:
            self.regex = re2.compile(pattern)
        self.related = {
            k: [o for o in self.words if o != k and (o.startswith(k) or o in k)] for k in self.words
        }
        self.encoded = {k: k.encode() for k in self.words}

    def iter(self, chunk: bytes) -> list[tuple[int, str]]:
        out = []
        for m in self.regex.finditer(chunk):
            start, word = m.start(), m.group().decode()
            out.append((start, word))
            for other in self.related[word]:
                if chunk.startswith(self.encoded[other], start) or other in word:
                    out.append((start, other))
        return out


class Evidence(BaseModel):
    line: int
    text: str


class Diagnosis(BaseModel):
    id: str
    category: str
    role: str
    cause: str
    fix: str
    confidence: float
    occurrences: int
    first_line: int
    evidence: list[Evidence]


class TriageResult(BaseModel):
    source: str
    lines: int
    bytes: int
    diagnoses: list[Diagnosis]
    verdict: str  # "cause found", "symptoms only", "no known signature"
    last_error_lines: list[Evidence] = []


class _Format(dict):
    def __missing__(self, key: str) -> str:
        return "?"


@dataclass
class _Hits:
    count: int = 0
    first_line: int = 0
    groups: dict[str, str] = field(default_factory=dict)
    evidence: list[tuple[int, str]] = field(default_factory=list)


class Triage:
    """Feed text in pieces (`feed`), then `result()`; nothing is kept but the hits."""

    def __init__(self, source: str, signatures: Iterable[Signature] | None = None):
        self.source = source
        self.signatures = tuple(signatures or load_signatures())
        self.by_keyword: dict[str, list[Signature]] = defaultdict(list)
        for sig in self.signatures:
            for keyword in sig.keywords:
                self.by_keyword[keyword].append(sig)
        # context literals that some entries require somewhere in the log
        self.requirement_words = {w for sig in self.signatures for w in sig.requires}
        self.seen_requirements: set[str] = set()
        self.finder = KeywordFinder([*self.by_keyword, *self.requirement_words])
        self.hits: dict[str, _Hits] = {}
        self.lines = 0
        self.bytes = 0
        self.tail: deque[tuple[int, str]] = deque(maxlen=8)
        self._carry = b""

    def feed(self, data: bytes) -> None:
        data = self._carry + data
        cut = data.rfind(b"\n") + 1
        self._carry = data[cut:]
        if cut:
            self._scan(data[:cut])

    def close(self) -> None:
        if self._carry:
            self._scan(self._carry + b"\n")
            self._carry = b""

    def _scan(self, chunk: bytes) -> None:
        base_line = self.lines
        self.bytes += len(chunk)
        counted_to, line_no = 0, base_line
        line_start, line_words = -1, []
        for position, word in self.finder.iter(chunk):
            start = chunk.rfind(b"\n", 0, position) + 1
            if start != line_start:
                if line_words:
                    self._match_line(chunk, line_start, line_no + 1, line_words)
                line_no += chunk.count(b"\n", counted_to, start)
                counted_to, line_start, line_words = start, start, []
            line_words.append(word)
        if line_words:
            self._match_line(chunk, line_start, line_no + 1, line_words)
        self.lines = base_line + chunk.count(b"\n")
        # the last error-looking lines, for logs with no known signature
        tail_from = max(0, len(chunk) - 64 * 1024)
        tail_line = self.lines - chunk.count(b"\n", tail_from)
        for m in ERROR_LINE.finditer(chunk, tail_from):
            s = chunk.rfind(b"\n", 0, m.start()) + 1
            e = chunk.find(b"\n", m.end())
            number = tail_line + chunk.count(b"\n", tail_from, s) + 1
            if not self.tail or self.tail[-1][0] != number:
                self.tail.append((number, chunk[s:e].decode("utf-8", "replace").strip()[:400]))

    def _match_line(self, chunk: bytes, start: int, number: int, words: list[str]) -> None:
        end = chunk.find(b"\n", start)
        line = chunk[start : end if end >= 0 else len(chunk)].decode("utf-8", "replace")
        candidates: dict[str, Signature] = {}
        for word in words:
            if word in self.requirement_words:
                self.seen_requirements.add(word)
            for sig in self.by_keyword.get(word, ()):
                candidates[sig.id] = sig
        for sig in candidates.values():
            m = sig.pattern.search(line)
            if not m:
                continue
            hit = self.hits.get(sig.id)
            if hit is None:
                hit = self.hits[sig.id] = _Hits(
                    first_line=number, groups={k: v for k, v in m.groupdict().items() if v}
                )
            hit.count += 1
            if len(hit.evidence) < EVIDENCE_KEPT:
                hit.evidence.append((number, line.strip()[:400]))

    def result(self) -> TriageResult:
        self.close()
        found: list[tuple[Signature, _Hits]] = []
        for sig in self.signatures:
            hit = self.hits.get(sig.id)
            if hit is None or (sig.requires and not self.seen_requirements.intersection(sig.requires)):
                continue
            found.append((sig, hit))
        # A specific entry (same line pattern, with a `requires` context that held) replaces the generic one.
        specific = {sig.pattern.pattern for sig, _ in found if sig.requires}
        found = [(s, h) for s, h in found if s.requires or s.pattern.pattern not in specific]
        # A generic entry (e.g. any CUDA OOM) steps aside when a more specific cause of its category matched.
        categories = {s.category for s, _ in found if s.role == "cause" and not s.generic}
        found = [(s, h) for s, h in found if not (s.generic and s.category in categories)]
        diagnoses = [
            Diagnosis(
                id=sig.id,
                category=sig.category,
                role=sig.role,
                cause=sig.cause.format_map(_Format(hit.groups)),
                fix=sig.fix.format_map(_Format(hit.groups)),
                confidence=sig.confidence,
                occurrences=hit.count,
                first_line=hit.first_line,
                evidence=[Evidence(line=n, text=t) for n, t in hit.evidence],
            )
            for sig, hit in found
        ]
        diagnoses.sort(key=lambda d: (d.role != "cause", -d.confidence, d.first_line))
        if any(d.role == "cause" for d in diagnoses):
            verdict = "cause found"
        elif diagnoses:
            verdict = "symptoms only"
        else:
            verdict = "no known signature"
        return TriageResult(
            source=self.source,
            lines=self.lines,
            bytes=self.bytes,
            diagnoses=diagnoses,
            verdict=verdict,
            last_error_lines=[Evidence(line=n, text=t) for n, t in self.tail]
            if verdict != "cause found"
            else [],
        )


def triage_stream(handle, source: str) -> TriageResult:
    """Triage a stream (a file, stdin, a journalctl pipe) chunk by chunk; text streams are read
    through their byte buffer, so decoding costs nothing for lines that match no keyword."""
    raw = getattr(handle, "buffer", handle)
    triage = Triage(source)
    while True:
        chunk = raw.read(CHUNK_BYTES)
        if not chunk:
            break
        triage.feed(chunk if isinstance(chunk, bytes) else chunk.encode("utf-8", "replace"))
    return triage.result()
