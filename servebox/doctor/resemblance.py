"""Resemblance: name a known family by the likeness of words when none of its wordings matched.

Half of the public misses had a family that names the cause, yet no wording of it matched the log (another
version's phrasing, a wrapper's rewording, a fork's message). When no cause entry explains the root exception
(or, with no exception, the log's last error lines), the knowledge base's cause families are ranked by BM25
over word tokens: each family's document is its wordings with the regex syntax stripped, its keywords, its
excerpt and its cause. Identifiers are split (snake_case, CamelCase, dotted names) and numbers and hex are
masked, so 'CUDA_ERROR_OUT_OF_MEMORY' and 'cuda out of memory' share their words.

BM25 is written out here (some forty lines) rather than imported: rank_bm25 is not in the environment and
would add a dependency for one formula; scikit-learn is too heavy. The index is built once per knowledge base
(cached by the tuple's identity), only when a log needs it. The margins (an absolute score, and a ratio over
the second family) and the confidence are data: resemblance.toml, with how they were chosen.
"""

from __future__ import annotations

import math
import re
import tomllib
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING

from servebox.doctor.attribution import FEATURE, STRUCTURAL, THIRD_PARTY
from servebox.doctor.signatures import context_met
from servebox.doctor.triage import Diagnosis, Evidence

if TYPE_CHECKING:
    from servebox.doctor.signatures import Signature

K1, B = 1.2, 0.75  # BM25's usual constants
QUERY_CHARS = 2000
# hex (0x..., or 8+ hex digits such as a request id's tail) and numbers: one pass, each becomes a space
MASK = re.compile(
    r"0x[0-9a-f]+|\b[0-9a-f]*\d[0-9a-f]*[a-f][0-9a-f]*\b(?<=\w{8})|\d+(?:\.\d+)*", re.IGNORECASE
)
CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
WORD = re.compile(r"[A-Za-z]+")
# regex syntax that is not a word: escapes of classes, named groups' names, character classes, flags
REGEX_SYNTAX = re.compile(r"\\[dswbDSWBAZ]|\(\?P<\w+>|\(\?[:=!<]*|\[[^\]]*\]|\{\d*,?\d*\}")
# with no exception, only lines that say something failed are compared (a healthy log's warnings may say "error")
FAILED = re.compile(r"\b(?:ERROR|FATAL|CRITICAL|PANIC)\b|\berror:|Segmentation fault|core dumped")
STOP = frozenset(
    "a an the of to in on at for by is are was be been it its this that with as or and not no from has have "
    "had but if into than then there which can could use using num hexnum".split()
)


def tokens(text: str) -> list[str]:
    """Lower-case words, identifiers split into their parts, numbers and hex masked (then dropped as stop
    words: a port or a size says nothing about which family)."""
    text = MASK.sub(" ", text)
    return [part for word in WORD.findall(text) for part in _parts(word)]


@lru_cache(maxsize=65536)
def _parts(word: str) -> tuple[str, ...]:
    """A word's CamelCase parts, lower case, less stop words and single letters (cached: the KB repeats them)."""
    return tuple(p for p in (x.lower() for x in CAMEL.split(word)) if len(p) > 1 and p not in STOP)


def family_text(sig: Signature) -> str:
    """What a family says in words: its wordings without regex syntax, keywords, excerpt and cause. A hint that
    counts only with its `hint_requires` is left out: its words mean this family only beside that context (a bare
    ZeroDivisionError is not a missing GPU), so likeness to them alone must not offer it (after29o)."""
    hints = () if sig.hint_requires else sig.hints
    wordings = " ".join(REGEX_SYNTAX.sub(" ", p.pattern) for p in (*sig.patterns, *hints))
    keywords = [k for k in sig.keywords if not _context_only(sig, k)]
    excerpt = "" if _context_only(sig, sig.excerpt) else sig.excerpt
    return " ".join((wordings, " ".join(keywords), excerpt, re.sub(r"\{\w+\}", " ", sig.cause)))


def _context_only(sig: Signature, text: str) -> bool:
    """`text` (a keyword or the excerpt) is a `context_pattern` wording's and no plain wording's: its words mean this
    family only beside `context_requires` (a bare "'NoneType' object is not iterable" is a chat template's only after
    vLLM's template warmup failed), so, like a hint with `hint_requires`, likeness to them must not offer it (after34n:
    a Quark config's TypeError was offered as chat-template-fails-without-tools)."""
    in_context = any(p.search(text) for p in sig.context_patterns)
    return in_context and not any(p.search(text) for p in (*sig.patterns, *sig.hints))


@dataclass(frozen=True)
class Margins:
    min_score: float
    min_ratio: float
    confidence: float
    never: frozenset[str] = frozenset()


@lru_cache(maxsize=1)
def margins() -> Margins:
    data = tomllib.loads((resources.files("servebox.doctor") / "resemblance.toml").read_text())
    confidence = min(0.5, float(data["confidence"]))
    return Margins(
        float(data["min_score"]), float(data["min_ratio"]), confidence, frozenset(data.get("never", ()))
    )


class Index:
    """BM25 over the cause families of one knowledge base (an inverted index: term -> family, frequency)."""

    def __init__(self, signatures: tuple[Signature, ...]):
        self.families = [s for s in signatures if s.role == "cause" and s.id not in margins().never]
        self.postings: dict[str, list[tuple[int, int]]] = {}
        lengths = []
        for i, sig in enumerate(self.families):
            counts = Counter(tokens(family_text(sig)))
            lengths.append(sum(counts.values()))
            for term, n in counts.items():
                self.postings.setdefault(term, []).append((i, n))
        avg = sum(lengths) / max(1, len(lengths))
        self.norm = [K1 * (1 - B + B * n / avg) for n in lengths]
        total = len(self.families)
        self.idf = {
            t: math.log(1 + (total - len(p) + 0.5) / (len(p) + 0.5)) for t, p in self.postings.items()
        }

    def ranked(self, text: str, seen: set[str] | None = None) -> list[tuple[float, Signature]]:
        """The best two families by BM25 score against `text` (each distinct query word counted once); with
        `seen` (the log's context literals), not a family whose `requires` context the log lacks: its own
        wording would not count there either (the eager-PP KeyError without --enforce-eager)."""
        scores: dict[int, float] = {}
        for term in set(tokens(text)):
            idf = self.idf.get(term)
            for i, n in self.postings.get(term, ()):
                scores[i] = scores.get(i, 0.0) + idf * n * (K1 + 1) / (n + self.norm[i])
        if seen is not None:
            scores = {i: v for i, v in scores.items() if context_met(self.families[i], seen)}
        best = sorted(scores.items(), key=lambda s: -s[1])[:2]
        return [(score, self.families[i]) for i, score in best]


_INDEXES: dict[int, tuple[tuple, Index]] = {}


def index(signatures: tuple[Signature, ...]) -> Index:
    """One index per knowledge base, kept while the same tuple is in use (the process's own, loaded once)."""
    kept = _INDEXES.get(id(signatures))
    if kept is None or kept[0] is not signatures:
        if len(_INDEXES) > 2:
            _INDEXES.clear()
        kept = _INDEXES[id(signatures)] = (signatures, Index(signatures))
    return kept[1]


def resembles(
    text: str, signatures: tuple[Signature, ...], seen: set[str] | None = None, m: Margins | None = None
) -> Signature | None:
    """The family `text` resembles, when the best clears both margins (absolute score, ratio over the second)."""
    m = m or margins()
    ranked = index(signatures).ranked(text, seen)
    if not ranked or ranked[0][0] < m.min_score:
        return None
    second = ranked[1][0] if len(ranked) > 1 else 0.0
    return ranked[0][1] if second <= 0 or ranked[0][0] / second >= m.min_ratio else None


def query(t, root) -> tuple[str, int, str]:
    """The text to compare, its line and the evidence shown: the root exception, else the last error lines
    (the head of a long message: its words are in the first lines)."""
    if root is not None:
        text = f"{root.type}: {root.message}"[:QUERY_CHARS]
        return text, root.line, text[:400]
    tail = [(n, s) for n, s in t.error_tail() if FAILED.search(s)]
    if not tail:
        return "", 0, ""
    return " ".join(s for _, s in tail), tail[-1][0], tail[-1][1]


def answer(t, root, diagnoses: list) -> Diagnosis | None:
    """A resemblance answer, below 0.70, when no cause entry matched at all and the words clear the margins;
    the uncaught exception (and attribution.py's structural reading of it) stays below it as evidence."""
    if any(d.role == "cause" for d in diagnoses if d.id not in ("uncaught-exception", *STRUCTURAL)):
        return None  # a cause entry matched: its wording, not a likeness, answers
    if any(d.id == FEATURE for d in diagnoses):
        return None  # an invariant failing in vLLM's own code: where it was raised says more than a likeness
    if root is not None and root.loaded_by and any(d.id == THIRD_PARTY for d in diagnoses):
        return None  # code loaded into the engine asked a library for what it refused: who asked says more (learn47g)
    if root is None and (diagnoses or t.raised or _stop_asked(t)):
        return None  # with no root exception, only a log nothing else was read in: no entry, wrapper or stop
    text, line, shown = query(t, root)
    sig = resembles(text, t.signatures, t.seen_requirements) if text else None
    if sig is None:
        return None
    fill = _Blank({**dict(sig.defaults), "exception": root.message if root else shown})
    return Diagnosis(
        id=sig.id,
        category=sig.category,
        role="cause",
        cause=f"Resembles {sig.id} (no known wording matched; by likeness of the words): "
        + sig.cause.format_map(fill),
        fix=sig.fix.format_map(fill),
        confidence=margins().confidence,
        confidence_kind="resemblance",
        occurrences=1,
        first_line=line,
        evidence=[Evidence(line=line, text=shown)],
        versions=sig.versions,
    )


def _stop_asked(t) -> bool:
    """An orderly stop (SIGTERM, ctrl-C) was seen: the error lines after it are a shutdown's, not a failure."""
    return any(sig.role == "shutdown" and sig.id in t.hits for sig in t.signatures)


class _Blank(dict):
    def __missing__(self, key: str) -> str:
        return "?"
