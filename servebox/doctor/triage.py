"""Log triage: stream a log, name the root cause, never a confident wrong one.

Bytes are framed into whole, length-capped lines (lines.py: memory flat on endless input, time
linear). One prefilter runs over each chunk at DFA speed and only the lines it finds are decoded:
it looks for the knowledge base's keywords (signatures.toml) and for the marks of a raised
exception (a traceback's last line, argparse's `error:`) at once; keyword_reading.py reads those lines, each by the
cheapest path that gives the generic one's answer (a serving log's access lines counted together). The first pass (structure.py) attributes each exception to the
process that raised it and classifies it; ranking.py then puts causes with evidence above their
symptoms, shows competing causes side by side, and falls back to "no known signature: X raised
Y: message at line N" rather than guess.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from servebox.doctor.counted_lines import CountedLines
from servebox.doctor.exception_context import following_lines, innermost_frame, line_at
from servebox.doctor.incidents import (
    INCIDENT_WORDS,
    NAMED_ONLY,
    RELAY_KINDS,
    engine_words_only,
    incident_cause,
)

# KeywordFinder is re-exported: tests import it from here
from servebox.doctor.keyword_finder import KeywordFinder as KeywordFinder
from servebox.doctor.keyword_lines import LineCounter, finder, hits_by_line, keyword_lines
from servebox.doctor.keyword_reading import (
    EVIDENCE_KEPT,
    EXCEPTION_LINE_KEPT,
    PATTERN_WINDOW,
    KeywordReading,
    reading_plan,
)
from servebox.doctor.lines import MAX_LINE, LineFramer
from servebox.doctor.listed import figure_exceeds, list_values, names_listed

# Diagnosis and Evidence are re-exported: ranking.py, the CLI and the family modules import them from here
from servebox.doctor.results import Diagnosis as Diagnosis
from servebox.doctor.results import Evidence as Evidence
from servebox.doctor.results import RaisedException, TriageResult
from servebox.doctor.settled_lines import SettledLines
from servebox.doctor.signatures import Signature, load_signatures
from servebox.doctor.statement import StatementReader, lexicon, starts_word
from servebox.doctor.structure import (
    ExceptionLine,
    classify,
    instance_of,
    quoted_in_echo,
    split_prefix,
    survived,
)
from servebox.doctor.unwrap import unwrap

CHUNK_BYTES = 4 * 2**20
TAIL_BYTES = 64 * 1024
ERROR_LINE = re.compile(rb"(?i)(error|exception|traceback|fatal|failed|killed|assert)")
# literals (lower case, like the keywords) that every raised-exception line contains: they join the
# keyword prefilter, so one DFA pass finds both kinds of candidate line
EXCEPTION_WORDS = (
    "error:", "exception:", 'error("', "error('", "error\n", "exception\n",
    "interrupt\n", "stopiteration\n", "exit:", "notfound:", "timeout:", "fault:",
    "while processing method",  # then an HTTP error body relaying the server's exception (structure.RELAYED):
    '"error":', "'error':", '"detail":', "'detail':", '"message":', "'message':",
)  # fmt: skip
PYDANTIC_HEADER = re.compile(r"\b\d+ validation errors? for [\w.]+\s*$")
EXCEPTIONS_KEPT = 64
INCIDENTS_READ = 256  # up's incident lines read back (each names a cause; the first few are enough)
RELAYED_STRENGTH = (*RELAY_KINDS, NAMED_ONLY)
# a traceback logged below ERROR (vLLM's logger.warning(..., exc_info=True) of a chat-template warm-up), or at ERROR by a process that then went on (structure.survived), was caught, not raised out of the process: never the root
HANDLED_LEVELS = {"WARNING", "WARN", "INFO", "DEBUG"}


@dataclass
class Hits:
    count: int = 0
    first_line: int = 0
    last_line: int = 0
    groups: dict[str, str] = field(default_factory=dict)
    evidence: list[tuple[int, str]] = field(default_factory=list)
    weak: bool = False  # only a hint wording matched: the entry's hint confidence and cause apply
    # only a `context_pattern` wording matched: it counts only with `context_requires`
    contextual: bool = False
    # made by up's relayed diagnosis (incidents.py): which of the entry's texts it fits, "" for the log's own wording
    relayed: str = ""


class Triage(KeywordReading):
    """Feed bytes in pieces (`feed`), then `result()`; nothing is kept but hits and a few lines."""

    def __init__(self, source: str, signatures: Iterable[Signature] | None = None, max_line: int = MAX_LINE):
        self.source = source
        self.signatures = tuple(signatures or load_signatures())
        self._index_knowledge()
        self._start_reading(max_line)

    def _index_knowledge(self) -> None:
        """Which entries each keyword wakes, the literals whose sight is recorded, and how each kind of line is read."""
        self.by_keyword: dict[str, list[Signature]] = {}
        for sig in self.signatures:
            for keyword in sig.keywords:
                self.by_keyword.setdefault(keyword, []).append(sig)
        self.requirement_words = {
            w
            for sig in self.signatures
            for w in (
                *sig.requires,
                *sig.unless_seen,
                *sig.fatal_when_seen,
                *sig.hint_requires,
                *sig.context_requires,
                *sig.rival_requires,
            )
        }
        # a `context_requires` literal whose line must also match its entry's `context_line`
        self.context_lines: dict[str, list[Signature]] = {}
        for sig in self.signatures:
            for word in sig.context_requires if sig.context_line is not None else ():
                self.context_lines.setdefault(word, []).append(sig)
        words = {*self.by_keyword, *self.requirement_words, *EXCEPTION_WORDS, *INCIDENT_WORDS}
        keywords = tuple(sorted(words))
        self.finder = finder(keywords)
        self.exception_words = set(EXCEPTION_WORDS)
        # the words whose line is read (an entry's keyword, a context_line's literal, an exception's or incident's
        # mark); a line holding only other words (an entry's `requires` context) just records them as seen
        self.line_words = {*self.by_keyword, *self.context_lines, *EXCEPTION_WORDS, *INCIDENT_WORDS}
        # which lines are read plainly, counted or found apart from the prefilter (keyword_reading.py)
        self.plain_words, self.context_only, self.common_words = reading_plan(
            self.signatures, self.by_keyword, words, {*EXCEPTION_WORDS, *INCIDENT_WORDS}, self.finder
        )
        self.keyword_lines = keyword_lines(keywords, self.common_words)
        marks = (EXCEPTION_WORDS, INCIDENT_WORDS, self.common_words)
        self.settled = SettledLines(
            self.by_keyword, marks, self.requirement_words, self.context_lines, PATTERN_WINDOW
        )

    def _start_reading(self, max_line: int) -> None:
        """The state of one reading: hits, the lines above that fill them, raised exceptions, counts."""
        self.framer = LineFramer(max_line)
        self.seen_requirements: set[str] = set()
        # the general reader of the log's own statement (statement.py): fed every raised exception's line while
        # streaming, and the stream's last 64 KiB at its end (where a program that stopped says why)
        self.statements = StatementReader()
        self.statements_read = False
        self.counted = CountedLines(
            self.common_words,
            self.by_keyword,
            self.context_lines,
            self.requirement_words,
            self.context_only,
            PATTERN_WINDOW,
        )
        self.hits: dict[str, Hits] = {}
        self.above: dict[str, dict[str, str]] = {}  # an entry's `above` groups, from the latest such line
        # an entry's `listed_above` values, from every such line
        self.listed: dict[str, dict[str, set[str]]] = {}
        self.raised: dict[tuple[str, str, str], RaisedException] = {}
        # an exception's first line -> the last line its message spans (pydantic's reason lines)
        self.exception_ends: dict[int, int] = {}
        # a llama-server router's child instance ('[PORT] ' before its lines) -> its latest progress line
        self.instance_progress: dict[str, int] = {}
        # the router's port -> the lines where it started an instance on it (it may reuse a freed port)
        self.instance_spawns: dict[str, list[int]] = {}
        self.lines = 0
        self.bytes = 0
        self.incidents_read = 0
        self._tail_bytes = b""

    def feed(self, data: bytes) -> None:
        self.bytes += len(data)
        for chunk in self.framer.feed(data):
            self._scan(chunk)

    def close(self) -> None:
        for chunk in self.framer.close():
            self._scan(chunk)
        if not self.statements_read:
            self.statements_read = True
            self._read_statements()

    def _read_statements(self) -> None:
        """Offer the tail's lines that hold a cause-stating word (statement.toml) to the general reader: one keyword
        search over at most 64 KiB, so the reader costs nothing per line of a long healthy log."""
        buf = self._tail_bytes
        self.statements.read_ending(buf[-4096:].decode("utf-8", "replace"))
        counter = LineCounter(buf, self.lines - buf.count(b"\n"))
        for start, end, found in hits_by_line(finder(lexicon().words), buf):
            if words := [w for p, w in found if starts_word(buf, p, w)]:
                self.statements.offer(buf[start:end].decode("utf-8", "replace"), counter.at(start), words)

    def _scan(self, chunk: bytes) -> None:
        # a collector's records (docker, journald JSON), entities, colours, console wraps: the engine's own lines
        chunk = unwrap(chunk)
        counter = self._keywords(chunk, self.lines)
        self.lines = counter.line + chunk.count(b"\n", counter.pos)
        # the last 64 KiB of the stream, for the fallback's last error-looking lines (read at the end)
        self._tail_bytes = (self._tail_bytes + chunk[-TAIL_BYTES:])[-TAIL_BYTES:]

    def _match_line(
        self, chunk: bytes, start: int, end: int, number: int, found: list[tuple[int, str]], words: set[str]
    ) -> None:
        line = chunk[start:end].decode("utf-8", "replace")
        if not self.exception_words.isdisjoint(words):
            self.statements.offer(line, number)  # an exception's line states its cause, wherever it is
            self._exception(chunk, line, start, end, number)
        if self.incidents_read < INCIDENTS_READ and not words.isdisjoint(INCIDENT_WORDS):
            self.incidents_read += 1
            # an incident's record: the wordings read the engine's words in it, not doctor's
            if (kept := self._incident(line, number)) != line:
                line, chunk = kept, kept.encode()
                start, end = 0, len(chunk)
                found = list(self.finder.iter(chunk))
        # wordings sit near their keyword: each entry's patterns see only a bounded window around
        # its first keyword on the line, so no pattern ever runs over a long line (linear time)
        first: dict[str, tuple[int, Signature]] = {}
        for position, word in found:
            self._context_word(word, line)
            for sig in self.by_keyword.get(word, ()):
                first.setdefault(sig.id, (position, sig))
        for position, sig in first.values():
            lo, hi = max(start, position - PATTERN_WINDOW), min(end, position + 2 * PATTERN_WINDOW)
            text = line if hi - lo == end - start else chunk[lo:hi].decode("utf-8", "replace")
            m, weak, contextual = self._wording(sig, text, chunk, start, line)
            if not m:
                if sig.above_ends is not None and sig.above_ends.search(text):
                    self.above.pop(sig.id, None)  # the step its `above` line opened has ended (learn44e)
                elif sig.above is not None and (a := sig.above.search(text)) is not None:
                    self.above[sig.id] = {k: v for k, v in a.groupdict().items() if v}
                if sig.listed_above is not None:
                    list_values(sig.listed_above, text, self.listed.setdefault(sig.id, {}))
                continue
            listed = self.listed.get(sig.id, {})
            if sig.listed_above is not None and not names_listed(sig.listed_above, m, listed):
                continue  # a row for a value no line above listed (a capability the unit never asked for)
            if sig.exceeds_above and not figure_exceeds(m, self.above.get(sig.id, {}), sig.exceeds_above):
                continue  # a figure within the bound the line above gave (weights that fit the card)
            if (
                not weak
                and not sig.requires
                and sig.above is not None
                and sig.id not in self.above
                and set(sig.above.groupindex) - set(m.groupdict()) - set(sig.exceeds_above or ())
            ):
                continue  # a wording that leaves `above`'s placeholders to a line above counts only after it (a bound is none)
            if sig.id not in self.above and any(p.search(text) for p in sig.above_patterns):
                continue  # an `above_pattern` wording counts only below its `above` line (the limit it hit)
            self._count(sig, m, line, number, weak, contextual)

    @staticmethod
    def _wording(
        sig: Signature, text: str, chunk: bytes, start: int, line: str
    ) -> tuple[re.Match | None, bool, bool]:
        """An entry's match in `text` (its window of the line at `start`): a full wording's, else a context
        wording's (contextual), else a hint's (weak); none where it quotes code."""
        m = sig.search(text)
        contextual = m is None and bool(sig.context_patterns) and (m := sig.in_context(text)) is not None
        weak = m is None and bool(sig.hints) and (m := sig.hint(text)) is not None
        m = None if m and quoted_in_echo(chunk, start, line, m.group(0)) else m  # code, not a message
        return m, weak, contextual

    def _count(
        self, sig: Signature, m: re.Match, line: str, number: int, weak=False, contextual=False
    ) -> None:
        """Count a wording's match on line `number` into its entry's hit."""
        hit = self.hits.get(sig.id)
        if hit is None or ((hit.weak or hit.contextual) and not weak and not contextual):
            # a full wording replaces a hint's or a context wording's hit
            groups = {**self.above.get(sig.id, {}), **{k: v for k, v in m.groupdict().items() if v}}
            hit = self.hits[sig.id] = Hits(
                first_line=number, groups=groups, weak=bool(weak), contextual=contextual
            )
        elif weak and not hit.weak and not hit.contextual:
            # a hint adds nothing to a full wording's hit; a context wording's hit may lack its context, so the
            # hint's line is kept there and ranking's _as_hint can still offer the entry as a hint (after35e)
            return
        hit.count += 1
        hit.last_line = number
        if sig.role == "progress" and (tag := instance_of(line)):
            self.instance_progress[tag] = number
        if sig.role == "progress" and (port := m.groupdict().get("instance_port")):
            self.instance_spawns.setdefault(port, []).append(number)
        if len(hit.evidence) < EVIDENCE_KEPT:
            hit.evidence.append((number, line.strip()[:400]))

    def _incident(self, line: str, number: int) -> str:
        """`servebox up`'s INCIDENT line names the cause doctor found in the engine's log: that entry
        counts as matched here (incidents.py), the console line as its evidence; a later line that fits a
        stronger text of the entry than the first (its cause after a bare id) makes the hit that kind. Returns the
        line for the wordings to read: without doctor's own sentence where it fits one (engine_words_only)."""
        named = incident_cause(line[:EXCEPTION_LINE_KEPT], self.signatures)
        if named is None:
            return engine_words_only(line, None)
        sig, fields, kind = named
        kept = engine_words_only(line, None if kind == NAMED_ONLY else fields)
        hit = self.hits.get(sig.id)
        if hit is None:
            hit = self.hits[sig.id] = Hits(
                first_line=number, groups=fields, weak=kind == "hint", relayed=kind
            )
        elif any(n == number for n, _ in hit.evidence):
            return kept  # its own wording already matched this line
        elif hit.relayed and RELAYED_STRENGTH.index(kind) < RELAYED_STRENGTH.index(hit.relayed):
            hit.relayed, hit.weak, hit.groups = kind, kind == "hint", {**hit.groups, **fields}
        hit.count += 1
        hit.last_line = number
        if len(hit.evidence) < EVIDENCE_KEPT:
            hit.evidence.append((number, line.strip()[:400]))
        return kept

    def _exception(self, chunk: bytes, line: str, start: int, end: int, number: int) -> None:
        prefix = split_prefix(line[:EXCEPTION_LINE_KEPT])
        # an exception an error body relays is the server's: read before the client's about the response
        if (relayed := ExceptionLine.relayed(prefix.payload)) is not None:
            self._record(relayed, relayed.message, prefix.component, number, lambda: {})
        exc = ExceptionLine.parse(prefix.payload)
        if exc is None:
            return
        message = exc.message
        # pydantic, raised or relayed by argparse ('error: argument --cc: 1 validation error for X'): the reason is below
        if exc.type == "ValidationError" or PYDANTIC_HEADER.search(message):
            following, read = following_lines(chunk, end, 2)
            message = " ".join([message, *following])
            self.exception_ends[number] = number + read
        elif prefix.payload.rstrip().endswith(":") and not prefix.payload.rstrip().endswith("last):"):
            # raise X("""\n  text"""), or a message that goes on below ('2 validation errors:' then the errors)
            following, read = following_lines(chunk, end, 3, indented=True)
            message = " ".join([message, *following]).strip()
            self.exception_ends[number] = number + read
        handled = prefix.level in HANDLED_LEVELS or survived(chunk, end, prefix.component, prefix.level)
        frame = lambda: innermost_frame(chunk, start, end, prefix.component)  # noqa: E731 (looked up only when kept)
        self._record(exc, message, prefix.component, number, frame, handled)

    def _record(
        self, exc: ExceptionLine, message: str, component: str, number: int, frame, handled: bool = False
    ) -> None:
        """Keep the first of each distinct exception (with its frame, looked up only then), count the rest;
        one logged as handled and later raised for real is kept as raised."""
        key = (component, exc.type, message[:200])
        seen = self.raised.get(key)
        if seen is not None and (handled or not seen.handled):
            seen.occurrences += 1
            # logged first as a repr, then at its traceback's end: that frame is its own
            if not seen.raised_in:
                for field, value in frame().items():
                    setattr(seen, field, value)
            return
        if seen is None and len(self.raised) >= EXCEPTIONS_KEPT:
            return
        kind = "warning" if exc.type.endswith("Warning") or handled else classify(exc)
        self.raised[key] = RaisedException(
            line=number,
            component=component,
            type=exc.qualified,
            message=message[:600],
            classification=kind,
            **frame(),  # raised_in, engine_frames, script_called, importer, loaded_by (exception_context.py)
            occurrences=1 + (seen.occurrences if seen is not None else 0),
            handled=handled,
        )

    def signature(self, id_: str) -> Signature | None:
        """The entry with this id (modules that read an entry's own patterns, fix or confidence)."""
        return next((s for s in self.signatures if s.id == id_), None)

    def error_tail(self) -> list[tuple[int, str]]:
        """The last error-looking lines of the stream, for logs with no known signature (one look per
        line, newlines counted once)."""
        buf, found, pos = self._tail_bytes, [], 0
        counter = LineCounter(buf, self.lines - buf.count(b"\n"))
        while (m := ERROR_LINE.search(buf, pos)) is not None:
            s, e = line_at(buf, m.start())
            found.append((counter.at(s), buf[s:e].decode("utf-8", "replace").strip()[:400]))
            pos = e + 1
        return found[-8:]

    def result(self) -> TriageResult:
        from servebox.doctor.ranking import rank

        self.close()
        return rank(self)


def triage_stream(handle, source: str, max_bytes: int | None = None) -> TriageResult:
    """Triage a stream (a file, stdin, a journalctl pipe, a FIFO) chunk by chunk, reading at most
    `max_bytes` when given; text streams are read through their byte buffer."""
    raw = getattr(handle, "buffer", handle)
    triage = Triage(source)
    remaining = max_bytes
    while remaining is None or remaining > 0:
        chunk = raw.read(CHUNK_BYTES if remaining is None else min(CHUNK_BYTES, remaining))
        if not chunk:
            break
        if remaining is not None:
            remaining -= len(chunk)
        triage.feed(chunk if isinstance(chunk, bytes) else chunk.encode("utf-8", "replace"))
    return triage.result()
