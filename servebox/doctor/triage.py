"""Log triage: stream a log, find every known failure signature, rank causes above symptoms.

A log is read in chunks (memory stays flat on a 200 MB journal). One combined regex of the
signatures' literal keywords finds candidate lines; only those lines meet the full patterns.
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
ERROR_LINE = re.compile(r"(?i)\b(error|exception|traceback|fatal|failed|killed|assert)")
EVIDENCE_KEPT = 3


@dataclass(frozen=True)
class Signature:
    id: str
    category: str
    role: str
    keyword: str
    pattern: re.Pattern[str]
    requires: re.Pattern[str] | None
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
            keyword=e["keyword"],
            pattern=re.compile(e["pattern"]),
            requires=re.compile(e["requires"]) if e.get("requires") else None,
            confidence=float(e["confidence"]),
            cause=e["cause"],
            fix=e["fix"],
            excerpt=e["excerpt"],
            generic=bool(e.get("generic", False)),
        )
        for e in raw["signature"]
    )


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
            self.by_keyword[sig.keyword].append(sig)
        keywords = sorted(self.by_keyword, key=len, reverse=True)
        self.prefilter = re.compile("|".join(re.escape(k) for k in keywords))
        self.requirements = {sig.requires.pattern: sig.requires for sig in self.signatures if sig.requires}
        self.seen_requirements: set[str] = set()
        self.hits: dict[str, _Hits] = {}
        self.lines = 0
        self.bytes = 0
        self.tail: deque[tuple[int, str]] = deque(maxlen=8)
        self._carry = ""

    def feed(self, text: str) -> None:
        text = self._carry + text
        cut = text.rfind("\n") + 1
        self._carry = text[cut:]
        if cut:
            self._scan(text[:cut])

    def close(self) -> None:
        if self._carry:
            self._scan(self._carry + "\n")
            self._carry = ""

    def _scan(self, chunk: str) -> None:
        base_line = self.lines
        self.bytes += len(chunk.encode("utf-8", "replace")) if not chunk.isascii() else len(chunk)
        for pattern_text, regex in self.requirements.items():
            if pattern_text not in self.seen_requirements and regex.search(chunk):
                self.seen_requirements.add(pattern_text)
        counted_to, line_no, last_start = 0, base_line, -1
        for match in self.prefilter.finditer(chunk):
            start = chunk.rfind("\n", 0, match.start()) + 1
            if start == last_start:
                continue
            last_start = start
            line_no += chunk.count("\n", counted_to, start)
            counted_to = start
            end = chunk.find("\n", match.end())
            line = chunk[start:end]
            self._match_line(line, line_no + 1)
        self.lines = base_line + chunk.count("\n")
        # the last error-looking lines, for logs with no known signature
        tail_from = max(0, len(chunk) - 64 * 1024)
        tail_line = self.lines - chunk.count("\n", tail_from)
        for m in ERROR_LINE.finditer(chunk, tail_from):
            s = chunk.rfind("\n", 0, m.start()) + 1
            e = chunk.find("\n", m.end())
            number = tail_line + chunk.count("\n", tail_from, s) + 1
            if not self.tail or self.tail[-1][0] != number:
                self.tail.append((number, chunk[s:e].strip()[:400]))

    def _match_line(self, line: str, number: int) -> None:
        for keyword, sigs in self.by_keyword.items():
            if keyword not in line:
                continue
            for sig in sigs:
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
            if hit is None or (
                sig.requires is not None and sig.requires.pattern not in self.seen_requirements
            ):
                continue
            found.append((sig, hit))
        # A specific entry (same line pattern, with a `requires` context that held) replaces the generic one.
        specific = {sig.pattern.pattern for sig, _ in found if sig.requires is not None}
        found = [(s, h) for s, h in found if s.requires is not None or s.pattern.pattern not in specific]
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
    """Triage a text stream (file, stdin, a journalctl pipe) chunk by chunk."""
    triage = Triage(source)
    while True:
        chunk = handle.read(CHUNK_BYTES)
        if not chunk:
            break
        triage.feed(chunk)
    return triage.result()
