"""The engine's own line out of the format a log was collected in, before any wording is matched.

Why: users hand doctor what their collector kept, not what the engine printed: docker's json-file records
(`{"log":"ValueError: ...\\n","stream":"stderr",...}`), Loki / Vector / `journalctl -o json` records (`msg`,
`message`, `MESSAGE`), `docker compose`'s service prefix (`pull-model-1  | panic: ...`), a page's HTML-escaped text (`&#39;`, `&quot;`), or ANSI colours. Inside such a record
the engine's quotes are escaped (`\\"`), so wordings with quotes and anchored tracebacks miss: measured by
benchmarks/doctor_robustness.py. Each line is unwrapped in place, one line out for one line in, so line
numbers still point into the file; a record holding several lines keeps them on one line, joined by " | ".
A paste from a console that hard-wraps at its width (Windows' console, a wrapped terminal copy) splits one
engine line into several of exactly that width: where a short chunk's longest lines all have one length and
almost no line comes close below it, each such line is joined to the next, which is left empty.
Linear: chunks without any of the markers pass through untouched (a byte search each).
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable
from datetime import UTC, datetime
from itertools import islice

from servebox.doctor.console_wrap import MARKERS as CONSOLE_MARKERS
from servebox.doctor.console_wrap import rejoin_console_wrapped
from servebox.doctor.line_join import join_run, join_runs

# the field a collector keeps the engine's line in: docker/fluentd, journald, GCP; then Loki/Vector's
COLLECTOR_FIELDS = ("log", "MESSAGE", "textPayload")
# the fields journalctl's short output names a record's program by, in its order; the unit where neither is kept
JOURNAL_IDENTS = ("SYSLOG_IDENTIFIER", "_COMM", "_SYSTEMD_UNIT")
SHIPPER_FIELDS = ("msg", "message")
# a `msg`/`message` record is a shipper's only with one of these beside it, and none of the keys of an engine's
# own JSON: llama-server's `--log-format json` (tid, function, line) or an API's error body (object, code, type)
SHIPPER_KEYS = frozenset(
    ("stream", "time", "ts", "timestamp", "@timestamp", "level", "severity", "container_name", "pod", "host",
     "hostname", "logger", "caller", "labels", "kubernetes")
)  # fmt: skip
ENGINE_KEYS = frozenset(("tid", "function", "line", "object", "code", "type", "param", "error"))
# servebox up's own incidents.jsonl record (servebox/serve/supervisor.py _record)
INCIDENT_KEYS = frozenset(("model", "state", "reason", "action"))
# `journalctl -o json` writes '{ "__CURSOR" : "...", ... }' (a space inside the braces and around each colon)
_RECORD = re.compile(rb"^[ \t]*\{[ \t]*\"[^\n]*\}[ \t]*\r?$", re.M)
_ANSI = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]")
# `docker compose up` / `logs`: each line behind its container's name, a replica number (v2 'svc-1', v1 'svc_1'),
# padding and a bar; lines anchored at their start ('panic: ', 'Traceback') miss behind it
_COMPOSE = re.compile(rb"^[\w.-]+[-_]\d+ +\| ?", re.M)
COMPOSE_LINES = 2  # a single line so shaped may be a table's row; a compose log repeats its prefix
_ENTITIES = rb"&(?:quot|apos|amp|lt|gt|#39|#x27|#34|#x22|#47|#x2F);"
_ENTITY = re.compile(_ENTITIES)
_ENTITY_LINE = re.compile(rb"^[^\n]*" + _ENTITIES + rb"[^\n]*$", re.M)


def unwrap(chunk: bytes) -> bytes:
    """`chunk` (whole lines) with every collector record replaced by the line it carries, entities decoded
    and colour codes dropped; the number of lines never changes (a Windows line end is dropped where a line is
    matched: exception_context.line_at). The markers of the steps are looked for in one pass (_marks_in: a 4 MiB
    chunk of plain engine log costs a few milliseconds, where a byte search per marker cost twice that), and again
    only after a step changed the chunk; a collector's records are looked for only where the chunk's first lines
    are records (a collector writes every line so)."""
    if b"\x1b" in chunk:
        chunk = _ANSI.sub(b"", chunk)
    marks = _marks_in(chunk)
    if not marks.isdisjoint(CONSOLE_MARKERS):  # servebox check / plan's own report as rich wrapped it
        chunk, marks = _after(chunk, rejoin_console_wrapped(chunk), marks)
    if not marks.isdisjoint(_COMPOSE_MARKS):
        chunk, marks = _after(chunk, strip_compose_prefix(chunk), marks)
    if b"{" in chunk and _RECORD.search(chunk, 0, RECORDS_LOOKED_FOR):
        chunk, marks = _after(chunk, _RECORD.sub(_record_line, chunk), marks)
    if b"&" in chunk and _ENTITY.search(chunk):
        unescape = lambda m: html.unescape(m[0].decode("utf-8", "replace")).encode()  # noqa: E731
        chunk, marks = _after(chunk, _ENTITY_LINE.sub(unescape, chunk), marks)
    if _ESCAPED in marks:
        unquote = lambda line: _ESCAPED_QUOTE.sub(rb"'\1'", line)  # noqa: E731
        chunk, marks = _after(chunk, _rewrite_marked_lines(chunk, (_ESCAPED,), unquote), marks)
    if _BOX_BAR in marks:
        chunk, marks = _after(chunk, _rewrite_marked_lines(chunk, (_BOX_BAR,), _unbox), marks)
    if _PANEL_END in marks:
        chunk = rejoin_rich_exception(chunk)
    if len(chunk) <= WRAP_CHUNK:
        chunk = rejoin_hard_wrapped(chunk)
    return chunk


def _after(old: bytes, new: bytes, marks: frozenset[bytes]) -> tuple[bytes, frozenset[bytes]]:
    """A step's result and the markers it holds: looked for again only where the step changed the chunk."""
    return new, marks if new is old or new == old else _marks_in(new)


# a quoted text whose quotes a repr nested in a repr escaped (requests' ConnectionError(MaxRetryError('...
# host=\'huggingface.co\'...'))), or a shell / a markdown paste did: a PAIR of quotes each after one backslash, nothing quoted or escaped
# between them, is read as the plain quotes the engine's wordings are written with (after30c); one such quote alone is
# a Windows folder's trailing backslash ('C:\models\'), and an escaped backslash's quote ('C:\\models\\') is not one
_ESCAPED_QUOTE = re.compile(rb"(?<!\\)\\'([^'\\\n]{0,400})(?<!\\)\\'")

# a terminal UI's box around its error (coding agents such as qwen-code and gemini-cli relay a server's refusal in a
# box: '│ ✖  OpenAI API Streaming Error: 500 Unknown method: keys at row 57, column 46:   │'): the bars and the
# padding are dropped, so a wording anchored at the line's end (minja's ' at row N, column M:') meets the text
# the light bar only: the TUIs that box errors (rich, ink) draw it; each bar looked for is a pass over the chunk
_BOX_BAR = "\u2502".encode()


def _unbox(line: bytes) -> bytes:
    """A line that begins with a box's bar: the bar, one space after it, a closing bar and the padding go (linear:
    plain byte operations, no backtracking on a long line); any other line as it is."""
    body = line.lstrip(b" \t")
    if not body.startswith(_BOX_BAR):
        return line
    body = body[len(_BOX_BAR) :]
    body = body[1:] if body[:1] in (b" ", b"\t") else body
    body = body.rstrip(b" \t\r")
    return body.removesuffix(_BOX_BAR).rstrip(b" \t") if body.endswith(_BOX_BAR) else body


def _rewrite_marked_lines(
    chunk: bytes, markers: tuple[bytes, ...], rewrite: Callable[[bytes], bytes]
) -> bytes:
    """`rewrite` applied to the lines holding one of `markers` only: a line-bound rewrite that is rare in a log
    costs a byte search per marker, not a regex pass over every line of the chunk (the corpus took 1.35x the
    session start's time with whole-chunk passes, stop 30)."""
    starts = set()
    for marker in markers:
        at = chunk.find(marker)
        while at >= 0:
            start = chunk.rfind(b"\n", 0, at) + 1
            starts.add(start)
            end = chunk.find(b"\n", at)
            at = chunk.find(marker, len(chunk) if end < 0 else end)
    if not starts:
        return chunk
    parts, done = [], 0
    for start in sorted(starts):
        end = chunk.find(b"\n", start)
        end = len(chunk) if end < 0 else end
        parts += [chunk[done:start], rewrite(chunk[start:end])]
        done = end
    return b"".join(parts) + chunk[done:]


RECORDS_LOOKED_FOR = 64 * 1024
WRAP_CHUNK = 256 * 1024  # a hard-wrapped log is a paste, not an engine's own file
WRAP_MIN_WIDTH = 60
WRAP_MIN_LINES = 3
# at a console's usual width, one or two cut lines are enough when every one of them is followed by a fragment
CONSOLE_WIDTHS = frozenset((80, 100, 120, 132, 160))
# how a line of its own begins: a stamp, a level, a bracketed or parenthesised tag, an indented line (a traceback's
# source line below its frame; a wrap at a space leaves one space at most), a traceback's parts
_LINE_START = re.compile(
    r"\s*$|\[|\(|\d{4}-\d\d-\d\d|\w{3} [ \d]\d |(?:INFO|WARNING|WARN|ERROR|DEBUG|CRITICAL)\b|Traceback"
    r"|\d+\.\d\d\.\d{3}\.\d{3} [IWEDT] |[\u2500-\u257f]"  # llama.cpp's own stamp; a rich box's frame
    r"|\s{2}|\s*File \"|\s*\^|(?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception|Warning)\b|[#>{}]|\w+: "
)


def rejoin_hard_wrapped(chunk: bytes) -> bytes:
    """Join lines cut at a console's width W: at least three lines of exactly W characters, none longer, and
    most of them followed by a fragment rather than a line of its own (natural lines of one format can share a
    length: llama-swap's request lines, each followed by its next `[DEBUG]` line)."""
    lines = chunk.decode("utf-8", "replace").split("\n")
    lengths = [len(line) for line in lines]
    width = max(lengths)
    cut = [i for i, n in enumerate(lengths[:-1]) if n == width]
    fragments = sum(_fragment(lines[i], lines[i + 1]) for i in cut)
    console = width in CONSOLE_WIDTHS and cut and fragments == len(cut)
    if width < WRAP_MIN_WIDTH or not (console or len(cut) >= WRAP_MIN_LINES and fragments * 2 >= len(cut)):
        return chunk
    return "\n".join(join_runs(lines, lambda _joined, last, _after: len(last) == width)).encode()


def _fragment(cut: str, after: str) -> bool:
    """`after` reads as the rest of `cut` rather than a line of its own: it does not begin like a log line, nor
    with `cut`'s own first word (lines of one format: progress bars, a repeated error, a tensor list)."""
    head = cut.split(None, 1)[0] if cut.strip() else ""
    return not _LINE_START.match(after) and not (len(head) >= 3 and after.startswith(head))


# rich's traceback (typer's CLIs: servebox's own uncaught errors, `hf`): below the panel's bottom edge '╰──…──╯' (W
# wide) the exception's 'Type: message' is wrapped at W like any rich text, at a space (kept at the line's end) or, for
# a word longer than W (a path), cut at W: "FileNotFoundError: [Errno 2] No such file or directory: " above its path
# (learn40g, fresh-296's `servebox lock --out` into a missing folder). Each such line is joined to the rest.
_PANEL_END = "\u256f".encode()
_ESCAPED = b"\\'"
_COMPOSE_MARKS = (b" | ", b" |\n")
MARKERS = (*CONSOLE_MARKERS, *_COMPOSE_MARKS, _ESCAPED, _BOX_BAR, _PANEL_END)


def _marker_set():
    """One RE2 set of every step's marker (a DFA pass), or None without RE2 (then a byte search each)."""
    try:
        import re2
    except ImportError:
        return None
    found = re2.Set.SearchSet(re2.Options())
    for marker in MARKERS:
        found.Add(re2.escape(marker))
    found.Compile()
    return found


_MARKER_SET = _marker_set()


def _marks_in(chunk: bytes) -> frozenset[bytes]:
    if _MARKER_SET is None:
        return frozenset(m for m in MARKERS if m in chunk)
    return frozenset(MARKERS[i] for i in _MARKER_SET.Match(chunk) or ())


def rejoin_rich_exception(chunk: bytes) -> bytes:
    """The exception lines under each rich panel joined where rich wrapped them: a line that ends in a space or fills
    the panel's width, followed by one that does not begin like a line of its own (one line out per line in)."""
    lines = chunk.decode("utf-8", "replace").split("\n")
    for i, line in enumerate(lines[:-1]):
        edge = line.rstrip("\r")
        if not (edge.startswith("\u2570") and edge.endswith("\u256f")):
            continue
        width = len(edge)
        join_run(
            lines, i + 1, lambda _j, last, after, w=width: _wrapped(last, w) and not _LINE_START.match(after)
        )
    return "\n".join(lines).encode()


def _wrapped(line: str, width: int) -> bool:
    return line.endswith(" ") or len(line) == width


def strip_compose_prefix(chunk: bytes) -> bytes:
    """`chunk` without docker compose's `name-N  | ` before its lines, where the first lines show it repeatedly."""
    found = islice(_COMPOSE.finditer(chunk, 0, RECORDS_LOOKED_FOR), COMPOSE_LINES)
    if sum(1 for _ in found) < COMPOSE_LINES:
        return chunk
    return _COMPOSE.sub(b"", chunk)


def _record_line(m: re.Match[bytes]) -> bytes:
    """The message a collector's JSON record carries, or the line itself when it is not such a record."""
    try:
        record = json.loads(m[0])
    except ValueError:
        return m[0]
    if not isinstance(record, dict):
        return m[0]
    text = journal_line(record) if "MESSAGE" in record else None
    text = text or next((record[k] for k in COLLECTOR_FIELDS if isinstance(record.get(k), str)), None)
    if text is None and SHIPPER_KEYS.intersection(record) and not ENGINE_KEYS.intersection(record):
        text = next((record[k] for k in SHIPPER_FIELDS if isinstance(record.get(k), str)), None)
    if text is None and INCIDENT_KEYS.issubset(record):
        text = incident_line(record)
    if text is None:
        return m[0]
    return " | ".join(text.rstrip("\r\n").splitlines()).encode()


def _field_text(value) -> str | None:
    """A journal field's text: journald writes a field that is not valid UTF-8 (or holds control bytes) as a list of
    its bytes (systemd.journal-fields(7); journalctl -o json)."""
    if isinstance(value, str):
        return value
    if isinstance(value, list) and value and all(isinstance(b, int) and 0 <= b < 256 for b in value):
        return bytes(value).decode("utf-8", "replace")
    return None


def journal_line(record: dict) -> str | None:
    """A `journalctl -o json` record as `journalctl -o short-iso` prints it ('STAMP HOST IDENT[PID]: MESSAGE'), so
    the unit's lines read as a journal paste does (the ident marks systemd's own lines, 'systemd[1]: ...'); the
    MESSAGE alone where the record has no time stamp or no ident (learn47d, fresh-411's journal-json paste)."""
    text = _field_text(record.get("MESSAGE"))
    ident = next(filter(None, map(_field_text, (record.get(k) for k in JOURNAL_IDENTS))), None)
    stamp = record.get("__REALTIME_TIMESTAMP")
    if text is None or ident is None or not (isinstance(stamp, str) and stamp.isdigit()):
        return text
    when = datetime.fromtimestamp(int(stamp) / 1e6, tz=UTC).strftime("%Y-%m-%dT%H:%M:%S%z")
    pid = _field_text(record.get("SYSLOG_PID")) or _field_text(record.get("_PID"))
    host = _field_text(record.get("_HOSTNAME")) or "localhost"
    return f"{when} {host} {ident.removesuffix('.service')}{f'[{pid}]' if pid else ''}: {text}"


def incident_line(record: dict) -> str:
    """servebox up's incidents.jsonl record as its console prints it ("MODEL: INCIDENT STATE: REASON; diagnosis:
    CAUSE; ACTION"), then the engine's own lines its diagnosis kept (evidence, last error lines), JSON-unescaped:
    a pasted incidents file is read by the engine's words, not only by the diagnosis doctor wrote into it."""
    head = (
        f"{record.get('model')}: INCIDENT {record.get('state')}: {record.get('reason')}; "
        f"diagnosis: {record.get('cause') or 'not diagnosed (no log here)'}; {record.get('action')}"
    )
    diagnosis = record.get("diagnosis") if isinstance(record.get("diagnosis"), dict) else {}
    kept = [
        e for d in diagnosis.get("diagnoses") or [] if isinstance(d, dict) for e in d.get("evidence") or []
    ]
    kept += diagnosis.get("last_error_lines") or []
    texts = [e["text"] for e in kept if isinstance(e, dict) and isinstance(e.get("text"), str)]
    return "\n".join([head, *dict.fromkeys(texts)])
