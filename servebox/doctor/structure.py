"""The general first pass: who printed a line, and which exceptions the log raised.

Engines interleave several processes in one log: vLLM prefixes `(APIServer pid=N)`,
`(EngineCore_DP0 pid=N)`, `(Worker_TP1 pid=N)` (nested when the API server relays its core),
then a level, a time and `[file.py:line]`; torch prefixes `[rank0]:`; llama-swap prefixes
`[INFO] <model-id>`; the journal prefixes `time host unit[pid]:`. `split_prefix` peels these off
and names the component, so that an exception is attributed to the process that raised it.
`ExceptionLine.parse` recognises the last line of a Python traceback (`pkg.Type: message`),
argparse's `prog: error: message`, a repr'd exception (`ValueError("...")`), and vLLM's worker
relay line (`Exception in worker X while processing method M: message, Traceback ...`).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

# vLLM's `(EngineCore_DP0 pid=N)`, 0.9-0.10's `(VllmWorker rank=1 pid=N)`, Ray's `(RayWorkerWrapper pid=N, ip=A)`
_PID_TAG = re.compile(r"[ \t]*\(([A-Za-z][\w.\- ]*?)(?: rank=\d+)? pid=(\d+)(?:, ip=[\w.:\-]+)?\)\s*")
_JOURNAL = re.compile(
    r"^(?:\w{3} [ \d]\d \d\d:\d\d:\d\d|\d{4}-\d\d-\d\dT[\d:.]+(?:[+-]\d{2}:?\d{2}|Z)?) \S+ (?P<unit>[\w@.\-]+)(?:\[\d+\])?: "
)
_STAMP = re.compile(r"^\[?\d{4}-\d\d-\d\d[ T][\d:.,]+(?:Z|[+-]\d\d:?\d\d)?\]?\s+")
_LEVEL = re.compile(
    r"^(?:INFO|WARNING|WARN|ERROR|DEBUG|CRITICAL)\s+\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)?\s+(?:\[[^\]]*\]\s?)?"
)
_LEVEL_OLD = re.compile(r"^(?:INFO|WARNING|ERROR|DEBUG|CRITICAL) \d\d-\d\d \d\d:\d\d:\d\d [\w.]+:\d+\]\s?")
_RANK = re.compile(r"^\[(rank\d+)\]:\s?")
# a wrapper's own logger after its time stamp: FastChat's `| ERROR | stderr | ` (its build_logger format
# "%(asctime)s | %(levelname)s | %(name)s | %(message)s", which relays the engine's stderr at ERROR) and loguru's
# default `| ERROR    | module:function:42 - ` (Xinference's, LightLLM's and many wrappers' logs)
_WRAPPER_LEVEL = re.compile(
    r"^\|\s*(?P<level>TRACE|DEBUG|INFO|SUCCESS|WARNING|ERROR|CRITICAL)\s*\|\s*"
    r"(?:[\w.\-]+\s\|\s?|[\w.<>\-]+:[\w.<>\-]+:\d+\s+-\s)"
)
_ROUTER = re.compile(r"^\[(?:INFO|WARN|ERROR|DEBUG)\] <(?P<model>[^>]+)> ")
# a collector's prefix: docker compose's `service-1  | `, `kubectl logs --prefix`'s `[pod/name/container] `, a
# pasted log quoted in markdown (`> `), or a bare `| `
_PIPE = re.compile(r"^(?:\s*\| |[A-Za-z0-9][\w.\-]*\s+\| |\[pod/[^\]\s]+\] |(?:>[ \t]?)+)")

# a llama-server router's child instance: the router relays each spawned server's lines after '[PORT] ' (build 11434's
# --models-dir / --models-preset mode); several instances interleave in one log
_INSTANCE = re.compile(r"^\s*\[(\d{2,5})\] ")


def instance_of(line: str) -> str:
    """The router child instance (its port) that printed a line, or '' for the router itself or any other program."""
    m = _INSTANCE.match(line)
    return m.group(1) if m else ""


EXCEPTION = re.compile(
    r"^(?P<type>(?:[A-Za-z_][\w]*\.)*(?:[A-Z]\w*(?:Error|Exception|Exit|Interrupt|Fault|Warning|NotFound|Timeout|Failure)|[a-z]+error)"
    r"|Exception|KeyboardInterrupt|StopIteration|GeneratorExit)"
    r"(?::\s?(?P<msg>.*)|\((?P<repr>[\"'].*)\)[\"']?.*|)$"
)
# vLLM's multiproc worker relays a worker's exception on one line; its type only ends the traceback below
WORKER_RELAY = re.compile(
    r"^Exception in worker (?P<who>\S+) while processing method (?P<method>\w+): (?P<msg>.+?)"
    r"(?:, Traceback \(most recent call last\):)?$"
)
# an exception relayed inside an HTTP response's error body, as the server that raised it sent it on: kserve's
# `{"error":"AttributeError : 'X' object has no attribute 'y'"}` (its handler formats "Type : message"), FastAPI's
# `{"detail": "ValueError: ..."}`, or a client's print of the body, `Error code: 500 - {'error': 'KeyError: ...'}`
RELAYED = re.compile(
    r"""["'](?:error|detail|message|msg)["']\s*:\s*(?P<q>["'])"""
    r"(?P<type>(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception))\s?:\s?(?P<msg>.*?)(?<!\\)(?P=q)\s*[,}]"
)
ARGPARSE = re.compile(r"^(?P<prog>[\w.\-]+(?: [\w\-]+)?): error: (?P<msg>.+)$")
# a decoration before an exception line, as people post one (a thread's '**ERROR**: AssertionError: ...' in markdown bold,
# a wrapper's bare 'ERROR: ValueError: ...' without a time stamp): the exception after it is still the one raised
DECORATION = re.compile(
    r"^(?:\*{1,2}|_{2})?(?:ERROR|Error|FATAL|Fatal|CRITICAL)(?:\*{1,2}|_{2})?:(?:\*{1,2})?\s+"
)
TRACEBACK = "Traceback (most recent call last):"
# a frame; a SyntaxError's own frame (the file that does not parse) has no ", in <func>"
FRAME = re.compile(r'^\s*File "(?P<file>[^"]+)", line (?P<line>\d+)(?:, in (?P<func>\S+))?\s*$')
# IPython's (a notebook's: Colab, Kaggle, Jupyter) frame, posted from notebooks: 'File /path/pkg/mod.py:1051, in func(args)'
IPYTHON_FRAME = re.compile(r"^\s*File (?P<file>[^\s\"]\S*?\.py):(?P<line>\d+)(?:, in (?P<func>[\w.<>]+))?")


def match_frame(text: str) -> re.Match[str] | None:
    """A traceback frame line, Python's or IPython's; groups file, line, func."""
    return FRAME.match(text) or IPYTHON_FRAME.match(text)


def quoted_in_echo(chunk: bytes, start: int, line: str, matched: str) -> bool:
    """Whether `matched` (a wording's match on the line at `start`) lies inside a string literal of a traceback's echo
    of its code: the line right above is a Python frame ('  File "x.py", line N, in f'). Such a literal is the code
    that builds a message (`raise ValueError(f"Missing ... {missing_files}\\n"`), not the message: the raised one is
    printed below the frames, so no wording takes its evidence or values from the echo (after33j). A match in the code
    itself (a call, an assert's condition) still counts: it says where the program failed."""
    at = line.find(matched)
    if at < 0 or start < 2 or not _inside_literal(line[:at]):
        return False
    above = chunk[chunk.rfind(b"\n", 0, start - 1) + 1 : start - 1][:1024].decode("utf-8", "replace")
    return FRAME.match(split_prefix(above).payload) is not None


def _inside_literal(before: str) -> bool:
    """Whether a Python line's text ends inside a quoted string's text (escapes honoured; an f-string's {expression}
    is code: `f"{cfg.extra['http_port']}"`; triple quotes read as three)."""
    if "'" not in before and '"' not in before:
        return False  # no quote opened: most lines, decided without walking them
    quote, fstring, depth, escaped = "", False, 0, False
    for i, ch in enumerate(before):
        if escaped:
            escaped = False
        elif not quote:
            if ch in "'\"":
                quote, depth = ch, 0
                fstring = "f" in before[max(0, i - 2) : i].lower()
        elif depth:
            depth += {"{": 1, "}": -1}.get(ch, 0)
        elif ch == "\\":
            escaped = True
        elif ch == quote:
            quote = ""
        elif fstring and ch == "{":
            depth = 1
    return bool(quote) and not depth


FRAMES_BELOW = 64  # lines read below an exception line printed before its own traceback
BELOW_BYTES = 16384


def frame_below(chunk: bytes, end: int, component: str) -> str:
    """The innermost frame of a traceback printed BELOW its exception line (vLLM 0.6's multiprocessing engine logs
    `RecursionError('maximum recursion depth exceeded')` and only then the traceback): the last frame of the same
    process before the traceback's indented run ends; "" when the next line is not the traceback's head."""
    nxt = chunk.find(b"\n", end + 1, end + 1 + BELOW_BYTES)
    first = chunk[end + 1 : nxt if nxt >= 0 else end + 1 + BELOW_BYTES]
    # most exception lines have no traceback below them: return before any decode or split
    if b"Traceback (most recent" not in first:
        return ""
    lines = chunk[end + 1 : end + 1 + BELOW_BYTES].decode("utf-8", "replace").split("\n")[:FRAMES_BELOW]
    head = split_prefix(lines[0])
    if head.component != component or not head.payload.startswith("Traceback (most recent"):
        return ""
    innermost = ""
    for line in lines[1:]:
        head = split_prefix(line)
        if head.component != component or not head.payload[:1].isspace():
            break
        if m := match_frame(head.payload):
            innermost = m["file"].split("site-packages/", 1)[-1] + f":{m['line']}"
    return innermost


@dataclass(frozen=True)
class Prefix:
    component: str  # "EngineCore_DP0", "Worker_TP1", "APIServer", "rank0", a unit or model id, or ""
    payload: str  # the line without its prefixes
    level: str = ""  # the logging level the engine's logger printed (INFO, WARNING, ERROR, ...), if any


def split_prefix(line: str) -> Prefix:
    """Peel process, journal, time, level and rank prefixes; the innermost process tag wins."""
    component, level = "", ""
    text = line.rstrip("\r\n")
    m = _JOURNAL.match(text)
    if m:
        component, text = m["unit"], text[m.end() :]
    m = _PIPE.match(text)
    if m:
        text = text[m.end() :]
    for _ in range(4):
        m = _PID_TAG.match(text) or _STAMP.match(text)
        if m is None:
            break
        if m.re is _PID_TAG:
            component = m[1]
        text = text[m.end() :]
    m = _WRAPPER_LEVEL.match(text)
    if m:
        level, text = m["level"], text[m.end() :]
    m = _ROUTER.match(text)
    if m:
        component, text = m["model"], text[m.end() :]
    m = _LEVEL_OLD.match(text) or _LEVEL.match(text)
    if m:
        level, text = m[0].split(None, 1)[0], text[m.end() :]
    m = _RANK.match(text)
    if m:
        component, text = component or m[1], text[m.end() :]
    return Prefix(component, text, level)


@dataclass(frozen=True)
class ExceptionLine:
    type: str  # the exception's class (short name), or "argparse" for `prog: error: ...`
    qualified: str  # as printed, with its module path
    message: str

    @classmethod
    def parse(cls, payload: str) -> ExceptionLine | None:
        text = payload.strip()
        m = EXCEPTION.match(text)
        if m is None and (d := DECORATION.match(text)) is not None:
            m = EXCEPTION.match(text[d.end() :])
        if m:
            qualified = m["type"]
            msg = m["msg"] if m["msg"] is not None else (m["repr"] or "").strip("\"'")
            return cls(qualified.rsplit(".", 1)[-1], qualified, msg.strip())
        m = WORKER_RELAY.match(text)
        if m:
            return cls("Exception", f"Exception in {m['method']}", m["msg"].strip())
        m = ARGPARSE.match(text)
        if m and not text.startswith(("usage:", "ERROR")):
            return cls("argparse", f"{m['prog']}: error", m["msg"].strip())
        return None

    @classmethod
    def relayed(cls, payload: str) -> ExceptionLine | None:
        """The exception a response's error body carries (RELAYED): raised by the server behind the line's
        program, so it counts as raised there, before any exception the client raised about the response."""
        m = RELAYED.search(payload)
        if m is None:
            return None
        message = m["msg"].replace(f"\\{m['q']}", m["q"]).strip()
        return cls(m["type"].rsplit(".", 1)[-1], m["type"], message)


@dataclass(frozen=True)
class ExceptionClass:
    name: str  # configuration, resource, environment, data, engine bug, symptom
    types: tuple[str, ...]
    message: re.Pattern[str] | None


@lru_cache(maxsize=1)
def exception_classes() -> tuple[ExceptionClass, ...]:
    raw = tomllib.loads(resources.files("servebox.doctor").joinpath("exceptions.toml").read_text())
    return tuple(
        ExceptionClass(
            name=e["class"],
            types=tuple(e.get("types", ())),
            message=re.compile(e["message"], re.I) if e.get("message") else None,
        )
        for e in raw["rule"]
    )


def classify(exc: ExceptionLine) -> str:
    """The first rule whose type list holds the exception's type (or is empty) and whose message
    pattern (if any) matches; rules are ordered from specific to general in exceptions.toml."""
    for rule in exception_classes():
        if rule.types and exc.type not in rule.types:
            continue
        if rule.message is not None and not rule.message.search(exc.message):
            continue
        return rule.name
    return "engine bug"


# a process that goes on logging at INFO/WARNING after a traceback it logged at ERROR caught it and survived
# (vLLM's registry 'Error saving model info cache.' under an unwritable cache root): its exception did not end the
# process, unless the lines after it only report the stop
_SURVIVED_LEVELS = {"INFO", "WARNING", "WARN", "DEBUG"}
_STOPPING = re.compile(r"shut|exit|terminat|stop|dead|died|fail|abort|kill|error|exception", re.I)
SURVIVAL_LINES = 200  # lines after a logged traceback looked at for the same process's next ordinary line


def survived(chunk: bytes, end: int, component: str, level: str) -> bool:
    """True when the exception logged (at `level`, by `component`) on the line ending at `end` was caught: the same
    process's next line at another level is an ordinary INFO/WARNING line, not one about a stop."""
    if not component or level != "ERROR":
        return False
    for raw in _lines_naming(chunk, end, component):
        prefix = split_prefix(raw.decode("utf-8", "replace"))
        if prefix.component != component or prefix.level in ("", level):
            continue
        return prefix.level in _SURVIVED_LEVELS and not _STOPPING.search(prefix.payload)
    return False


def _lines_naming(chunk: bytes, end: int, component: str) -> Iterator[bytes]:
    """The lines among the SURVIVAL_LINES after the one ending at `end` that hold the component's name (no other line
    can be its process's): found by byte searches, so the lines between cost nothing (a failure log's every traceback
    line looks this far ahead; peeling each line's prefixes was half its triage)."""
    name, at, left = component.encode(), end, SURVIVAL_LINES
    if "\ufffd" in component:  # a name the decoding replaced is not in the bytes: every line is read
        name = b""
    while left > 0 and at < len(chunk):
        hit = chunk.find(name, at + 1)
        if hit < 0:
            return
        left -= chunk.count(b"\n", at + 1, hit) + 1  # the lines passed, and the hit's own
        if left < 0:
            return
        start = max(chunk.rfind(b"\n", at, hit) + 1, at + 1)
        nxt = chunk.find(b"\n", hit)
        at = len(chunk) if nxt < 0 else nxt
        yield chunk[start:at]
