"""settled_lines.py reads a serving window's 4xx access lines and 'Error with model' lines together, once every family
they wake only counts or ignores them: exactly the generic path's answer (issue 12 item 4, speed46).

Compared with the generic path (every fast path off) on a serving log whose refused requests come after its families'
hits are full, with near misses placed among them, fed whole and in 4 KiB and 1,000-byte pieces: a line a hint's
family reads with its full wording (it replaces the hint's hit: no hint line of its window may be counted together), an
`above` line of a family that is not plain, a traceback's frame above, a router instance's mark, a carriage return, a
long line, an exception's mark, an INCIDENT line, a context line met on a refused request's line, another family's
keyword.
"""

from __future__ import annotations

import pytest

from servebox.doctor.settled_lines import FULL, HINT, NONE, SettledLines, _Counting
from servebox.doctor.triage import Triage
from tests.test_doctor_counted_lines import SERVING, assert_same

R400 = b'INFO:     127.0.0.1:47288 - "POST /v1/completions HTTP/1.1" 400 Bad Request'
R404 = b'INFO:     127.0.0.1:47312 - "POST /v1/chat/completions HTTP/1.1" 404 Not Found'
NOT_SERVED = (
    b"(APIServer pid=25969) ERROR 12-06 11:41:49 [serving.py:274] Error with model error=ErrorInfo(message='The model "
    b"`gpt-4o` does not exist. Valid aliases: <path>', type='NotFoundError', param='model', code=404)"
)

NEAR_MISSES = [
    # model-not-multimodal's full wording on a 400 line: its hint's hit is replaced there
    R400 + b" tiny is not a multimodal model",
    b"HTTP/1.1 400 Bad Request",  # llamacpp-server-read-timeout-slow-client's `above` line (not a plain family)
    b"Content-Length: 0 400 Bad Request",  # and its context wording
    b'  File "/srv/app.py", line 12, in handler\n' + R404,  # a traceback's frame above
    # a refused request's line quoted in a traceback's code echo (no wording takes it)
    b'  File "/srv/app.py", line 12, in handler\n    log(\'127.0.0.1 - "POST /v1/chat/completions HTTP/1.1" 404 Not Found\')',
    # model-not-multimodal's full wording on a line read on its own (an exception's mark, a line end, a long line):
    # the hint lines of its window are read one at a time too
    R400 + b" tiny is not a multimodal model ValueError: x",
    R400 + b" tiny is not a multimodal model\r",
    R400 + b" tiny is not a multimodal model " + b"x" * 700,
    b"[8081] " + R400,  # a llama-server router's instance
    R404 + b"\r",  # a Windows line end
    R400.replace(b"/v1/completions", b"/v1/" + b"x" * 700),  # longer than the pattern window
    R400 + b" ValueError: bad",  # an exception's mark
    R404 + b" CUDA out of memory",  # another family's keyword
    NOT_SERVED.replace(b"gpt-4o", "gpt-4ö".encode()),  # not ASCII
    R400 + b" llama-server -m x.gguf --timeout 5",  # meets a context line on the refused line
    b"2026-12-05T23:25:05Z tiny: INCIDENT dead: the engine process is gone; diagnosis: The server refused a request "
    b"(fix: Nothing to fix.); restart after 5s",
    R404.replace(b"/v1/chat/completions", b"/docs"),  # fastapi-docs-disabled's wording
]


def refusing_log(copies: int = 3) -> bytes:
    """The serving log with its refused requests repeated after its families' hits are full."""
    lines = SERVING.split(b"\n")
    refused = [R400, R404, NOT_SERVED] * 20
    return b"\n".join(lines[:1500] + refused + lines[1500:]) * copies


def test_refused_lines_are_read_together():
    t = Triage("x")
    read, settled = [], t.settled.read
    t.settled.read = lambda *a: read.append(settled(*a)) or read[-1]
    t.feed(refusing_log())
    t.close()
    assert sum(len(s.read) for s in read) > 300
    assert {"request-answered-error", "request-refused-no-reason"} <= {k for s in read for k in s.counted}


def test_a_serving_log_with_refused_requests():
    assert_same(refusing_log(), pieces=(4096, 1000, 1 << 30))


@pytest.mark.parametrize("miss", range(len(NEAR_MISSES)))
def test_near_misses_among_refused_lines(miss):
    lines = refusing_log(1).split(b"\n")
    for at in (40, 1530, 2100):  # before the families' hits are full, among the refused lines, after
        lines.insert(at, NEAR_MISSES[miss])
    assert_same(b"\n".join(lines) * 2, pieces=(4096, 1000, 1 << 30))


def test_all_near_misses_at_once():
    lines = refusing_log(1).split(b"\n")
    for at, miss in enumerate(NEAR_MISSES):
        lines.insert(1510 + 7 * at, miss)
    assert_same(b"\n".join(lines) * 3, pieces=(4096, 65536, 1 << 30))


def test_what_a_line_may_do_to_a_family():
    t = Triage("x")
    t.feed(refusing_log(1))
    counting = _Counting(t.settled.may_count, t.hits, 3)
    assert counting["request-refused-no-reason"] == FULL  # saturated, plain
    assert counting["model-not-multimodal"] == HINT  # a hint's hit, full
    assert counting["llamacpp-server-read-timeout-slow-client"] == NONE  # not plain: ignored only
    assert counting["no-such-family"] == NONE


def test_a_full_wording_in_the_window_keeps_the_hint_lines_apart():
    t = Triage("x")
    t.feed(refusing_log(1))
    lines = [R400, R400 + b" tiny is not a multimodal model", R400]
    chunk = b"\n".join(lines) + b"\n"
    window, start = [], 0
    for index, line in enumerate(lines):
        found = list(t.keyword_lines.full.iter(chunk, start, start + len(line)))
        window.append((index, start, start + len(line), found))
        start += len(line) + 1
    settled: SettledLines = t.settled
    read = settled.read(chunk, window, t.hits, 3, set())
    assert "model-not-multimodal" not in read.counted
    assert 1 not in read.read  # the line whose full wording replaces the hint's hit is read on its own
    assert read.read == set()  # and the hint lines around it with it (their family would count them)


@pytest.mark.parametrize("miss", range(len(NEAR_MISSES)))
def test_near_misses_after_the_hits_are_full(miss):
    """Only among the refused lines (a line that replaces a hint's hit there finds that hit, not one it made above)."""
    lines = refusing_log(1).split(b"\n")
    lines.insert(1530, NEAR_MISSES[miss])
    assert_same(b"\n".join(lines), pieces=(4096, 1000, 1 << 30))
