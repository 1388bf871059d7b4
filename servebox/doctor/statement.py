"""The log's own statement of why it failed, found without knowing the failure.

Most logs doctor's knowledge base does not know still say what went wrong in words ("cannot execute binary
file: Exec format error", "unknown projector type: gemma4uv"): measured on the public logs it missed at first
contact, about half name their cause (179 of 366, benchmarks/doctor_ceiling.py). This reader scores a line that holds a
cause-stating word (statement.toml) by how much it states a cause rather than a consequence, and keeps the best few,
so a log with no known signature gets "the log says why: <line>" instead of nothing. Triage offers it every raised
exception's line while streaming and the stream's last 64 KiB at its end (a program that stopped says why there):
its cost does not grow with a long healthy log, and only a bounded number of lines and scores are kept.
Measured (benchmarks/doctor_stated.py): its best line is the one engineers labelled as stating the cause on about
three in four held-back logs; as doctor's answer it is never confident (0.35, assumed).
"""

from __future__ import annotations

import heapq
import re
import tomllib
from dataclasses import dataclass
from functools import cached_property, lru_cache
from importlib import resources

from servebox.doctor.results import Diagnosis, Evidence
from servebox.doctor.structure import split_prefix

KEPT = 24  # best candidate lines kept while streaming
# distinct messages whose score is remembered (then forgotten all at once: memory stays flat)
SCORES_KEPT = 4096
SCORED_CHARS = 600  # a line is scored on its head (a cause is stated near the start of its line)
# concrete things a cause names: a quoted name, a flag, a path, a number with a unit or a version, a key=value
CONCRETE = re.compile(
    r"'[^'\s][^']{0,80}'|\"[^\"\s][^\"]{0,80}\"|`[^`]{1,80}`|(?<![\w/])--?[a-z][\w-]+|(?:/[\w.+-]+){2,}"
    r"|\b\d+(?:\.\d+)*\s?(?:[kmgt]i?b|%|gb|mb)?\b|\b\w+=\S+",
    re.IGNORECASE,
)
CONCRETE_CAP = 4
ENDING_LINES = 2  # the last lines of a log, where a program that stopped says why
ENDING_KEPT = 8  # the last non-blank lines kept for other readers (interrupt_last.py: what follows a '^C')
MOST_ADDED = 1.0 + 0.4 * CONCRETE_CAP  # the most score_line adds to a line's words and level
# levels split_prefix does not peel: llama.cpp's "0.02.104.335 I " and a Python warning's category
LLAMA_LEVEL = re.compile(
    r"^(?:\[\d+\] )?(?:\d+\.\d+\.\d+\.\d+ ([IWEDT]) |\[([IWEF])\d{4} [\d:.]+ [^]]*\]\s*|(DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL)(?::[\w.-]*:|:?\s))"
)
# what a program received or generated (a completion's text, a success response): data, never a statement
DATA = re.compile(r'"(?:choices|finish_reason|content)":|\bHTTP[/ ]\S*\s*2\d\d\b')
PY_WARNING = re.compile(r"\b[A-Z]\w*Warning:")
# an error a server answered with (a JSON error body) or a program printed as its error
ERROR_BODY = re.compile(
    r"""["']error["']\s*:|"object"\s*:\s*"error"|\bhttp[/ ]\S*\s*[45]\d\d\b|["']code["']\s*:\s*[45]\d\d\b"""
    r"""|["'](?:\w+_error|\w+Error)["']"""
)
RAISED_STARTS = ("error:", "error ", "fatal:", "fatal error", "error :", "panic:", "cause: [error")
EXCEPTION_HEAD = re.compile(r"^\s*(?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception|Fault|Interrupt|Exit)\b:?")


@dataclass(frozen=True)
class Lexicon:
    predicates: tuple[tuple[float, tuple[str, ...]], ...]
    predicate_patterns: tuple[tuple[float, re.Pattern[str]], ...]
    unsearched: tuple[tuple[float, re.Pattern[str]], ...]  # tiers read only on lines brought by other words
    searched: frozenset[str]
    pointers: re.Pattern[str]
    penalty: float
    frames: re.Pattern[str]
    banners: re.Pattern[str]
    levels: dict[str, float]
    success: re.Pattern[str]  # a last line that reports a zero exit status

    @cached_property
    def words(self) -> tuple[str, ...]:
        """The words the keyword prefilter searches for."""
        return tuple(sorted(w for w in self.weight if w in self.searched))

    @cached_property
    def weight(self) -> dict[str, float]:
        """Each word's tier (its strongest, where two tiers list it)."""
        return {w: weight for weight, words in reversed(self.predicates) for w in words}


@lru_cache(maxsize=1)
def lexicon() -> Lexicon:
    raw = tomllib.loads(resources.files("servebox.doctor").joinpath("statement.toml").read_text())
    predicates = tuple(
        sorted(((p["weight"], tuple(p["words"])) for p in raw["predicate"]), key=lambda p: -p[0])
    )
    return Lexicon(
        predicates=predicates,
        predicate_patterns=tuple((w, _word_starts(words)) for w, words in predicates),
        unsearched=tuple(
            (p["weight"], _word_starts(tuple(p["words"])))
            for p in raw["predicate"]
            if not p.get("searched", True)
        ),
        searched=frozenset(w for p in raw["predicate"] if p.get("searched", True) for w in p["words"]),
        pointers=_whole_words(raw["pointer"]["words"]),
        penalty=raw["pointer"]["penalty"],
        frames=re.compile(raw["pointer"]["frames"]),
        banners=re.compile(raw["pointer"]["banners"], re.IGNORECASE),
        levels=dict(raw["levels"]),
        success=re.compile(raw["ending"]["success"], re.IGNORECASE),
    )


def _word_starts(words: tuple[str, ...]) -> re.Pattern[str]:
    """The words where a word starts: 'invalid' in 'invalid value', never in 'cache_invalidating'."""
    alternatives = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    return re.compile(rf"(?<![\w])(?:{alternatives})(?!_)")


def _whole_words(words: list[str]) -> re.Pattern[str]:
    alternatives = "|".join(re.escape(w.strip()) for w in sorted(words, key=len, reverse=True))
    return re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w-])")


def starts_word(chunk: bytes, position: int, word: str) -> bool:
    """A keyword found where a word starts and not glued to an identifier after it: 'invalid value', never
    'cache_invalidating' (statement.py's words)."""
    before = chunk[position - 1 : position] if position else b" "
    after = chunk[position + len(word) : position + len(word) + 1]
    return not (before.isalnum() or before == b"_") and after != b"_"


@dataclass(order=True, frozen=True)
class Statement:
    score: float
    line: int  # 1-based line number in the log
    text: str  # the line without its prefixes
    quiet: bool = False  # printed at a warning's or a quieter level


# a line weaker than this does not show a failure ("commit unknown", "output_handler failed.")
FAILED_SCORE = 3.0
RAISED_TIER = 2.0  # the tier of "what failed" (statement.toml's second): a raised line's, whatever its words
ERROR_LEVELS = {"ERROR", "FATAL", "CRITICAL", "E", "F", "ERR", "CRIT", "EMERG", "ALERT"}
UNSCORED_LEVELS = {"INFO", "DEBUG", "I", "D", "T", "TRACE"}
QUIET_LEVELS = {"INFO", "DEBUG", "WARNING", "WARN", "W", "I", "D", "T", "NOTICE", "TRACE"}


def _base(tiers: list[float], level: str, lex: Lexicon) -> float:
    """A line's score from its words' tiers (strongest first; more when it also says what failed) and its level."""
    return tiers[0] + 0.75 * (len(tiers) > 1) + lex.levels.get(level, 0.0)


def score_line(
    payload: str, level: str = "", lex: Lexicon | None = None, tiers: list[float] | None = None
) -> tuple[float, bool]:
    """How much one line (prefixes peeled) states a cause: its strongest predicate (more when it also says what
    failed), its level, its concrete names; a pointer at another line scores less, a stack frame or a version banner
    nothing. Also whether the line says that something failed (an error level, an exception, or a failure in words at
    no quieter level): a log none of whose lines does has not failed, whatever its warnings say. `tiers`: the tiers of
    the words on the line, strongest first, where a keyword search already found them."""
    lex = lex or lexicon()
    head = payload[:SCORED_CHARS]
    if lex.frames.match(head) or lex.banners.match(head):
        return 0.0, False
    low = head.lower()
    if tiers is None:  # the words' tiers, unless the caller's keyword search found them already
        tiers = [w for w, pattern in lex.predicate_patterns if pattern.search(low)]
    else:
        tiers = sorted({*tiers, *(w for w, pattern in lex.unsearched if pattern.search(low))}, reverse=True)
    raised = bool(EXCEPTION_HEAD.match(head) or ERROR_BODY.search(low)) or low.lstrip().startswith(
        RAISED_STARTS
    )
    if raised and (not tiers or max(tiers) < RAISED_TIER):
        tiers = [RAISED_TIER, *tiers]  # a raised exception or an 'error:' line says what failed, in any words
    if not tiers:
        return 0.0, False
    level = level.upper()
    # a cause predicate alone ("unknown", "requires", "must be") describes; a failure is said in failure words
    says_failed = raised or min(tiers) < max(tiers) or max(tiers) < 3.0
    failed = level in ERROR_LEVELS or (level not in QUIET_LEVELS and says_failed)
    score = _base(tiers, level, lex) + 1.0 * raised + 0.4 * min(CONCRETE_CAP, len(CONCRETE.findall(head)))
    if lex.pointers.search(low):
        score -= lex.penalty
    return score, failed


class StatementReader:
    """Keeps the best-scored candidate lines of a stream (a bounded heap), earliest first among equals."""

    def __init__(self, kept: int = KEPT):
        self.kept = kept
        # (score, -line, text, printed at a quiet level): the weakest, latest at the top
        self.heap: list[tuple[float, int, str, bool]] = []
        self.lex = lexicon()
        self.weights = self.lex.weight
        # a message repeated (every rank's warning, a retry loop) is scored once: its score by (text, level)
        self.scored: dict[tuple[str, str], tuple[float, bool]] = {}
        self.failed = False  # some line said that something failed
        self.ended_ok = False  # one of the last lines reported a zero exit status
        self.ending: list[str] = []  # the stream's last non-blank lines (read_ending)

    def offer(self, line: str, number: int, words: list[str] | None = None) -> None:
        """Score one line; `words`: the statement words a keyword search found on it (where a word starts)."""
        prefix = split_prefix(line[:SCORED_CHARS])
        payload, level = prefix.payload, prefix.level
        if not level and (m := LLAMA_LEVEL.match(payload)):
            payload, level = payload[m.end() :], next(g for g in m.groups() if g)
        level = level.upper()
        # an INFO or DEBUG line neither says a program failed nor outranks a louder one: not scored (most lines of
        # a healthy start are INFO: this keeps triage's speed)
        if level in UNSCORED_LEVELS or DATA.search(payload):
            return
        if not level and PY_WARNING.search(payload):
            level = "WARNING"
        if any(-kept[1] == number for kept in self.heap):
            return  # offered twice (an exception's line, then the tail's)
        key = (payload, level)
        if (known := self.scored.get(key)) is None:
            tiers = None if words is None else sorted({self.weights[w] for w in words}, reverse=True)
            if tiers is not None and self._cannot_enter(tiers, level):
                return
            known = score_line(payload, level, self.lex, tiers)
            if len(self.scored) >= SCORES_KEPT:
                self.scored.clear()
            self.scored[key] = known
        s, failed = known
        self.failed = self.failed or failed
        if s <= 0:
            return
        item = (s, -number, payload.strip()[:400], level in QUIET_LEVELS)
        if len(self.heap) < self.kept:
            heapq.heappush(self.heap, item)
        elif item > self.heap[0]:
            heapq.heapreplace(self.heap, item)

    def read_ending(self, tail: str) -> None:
        """Whether the stream's last lines report a zero exit status (then they do not say why it stopped)."""
        lines = tail.splitlines()
        last = [line for line in lines[-ENDING_LINES * 2 :] if line.strip()][-ENDING_LINES:]
        self.ended_ok = any(self.lex.success.search(line) for line in last)
        self.ending = [line for line in lines if line.strip()][-ENDING_KEPT:]  # interrupt_last.py

    def _cannot_enter(self, tiers: list[float], level: str) -> bool:
        """Once the log has failed and the kept lines are full, a line whose best possible score is below the weakest
        kept one is not scored (a failure-dense log costs little more than a quiet one)."""
        if not tiers or not self.failed or len(self.heap) < self.kept:
            return False
        bound = _base(tiers, level, self.lex) + MOST_ADDED
        return bound <= self.heap[0][0]

    def best(self, n: int = 3) -> list[Statement]:
        ranked = sorted(self.heap, key=lambda i: (-i[0], -i[1]))
        return [Statement(score=s, line=-neg, text=t, quiet=q) for s, neg, t, q in ranked[:n]]


STATED_CONFIDENCE = 0.35  # assumed: a line's words, read without knowing the failure; never confident


def stated_answer(reader: StatementReader, diagnoses: list, lines: int = 0) -> Diagnosis | None:
    """The best statement as the answer, when the log failed and doctor has nothing else to say: no cause (a known
    entry, a raised exception, a resemblance), no symptom a known entry names (it may be the very answer: an engine
    killed), no asked-for stop."""
    if diagnoses:
        return None
    best = [s for s in reader.best(3) if s.score >= FAILED_SCORE]
    # a program's output ends with why it stopped: a cause stated in the last lines says it failed, failure word or not
    # (unless those lines report a zero exit status)
    ending = best and best[0].line > lines - ENDING_LINES and not best[0].quiet and not reader.ended_ok
    if not best or not (reader.failed or ending):
        return None
    top = best[0]
    return Diagnosis(
        id="stated-cause",
        category="unknown",
        role="cause",
        cause=f"No known signature; the log says why at line {top.line}: {top.text}",
        fix="Read that line: it names what failed and why (a value, a file, a flag, a version); change that.",
        confidence=STATED_CONFIDENCE,
        occurrences=1,
        first_line=top.line,
        evidence=[Evidence(line=s.line, text=s.text) for s in best],
    )
