"""after34q (stop 34): what fresh-192 (llama-server's HTTP server and its clients) taught after scoring, each in a
wording other than its corpus log's, with near misses.

Where the wordings came from: llama.cpp 11434's tools/server/server-http.cpp (the sdist under
~/.cache/servebox/llama-tools-11434.0.0): init() logs 'The UI is disabled' for --no-ui/--no-webui and registers no
'/' route; its error handler answers a 404 with {"error":{"message":"File Not Found",...}}; its trace logger writes
'done request: METHOD PATH ADDR STATUS'. Older servers and other builds say 'Web UI is disabled' and log
'request: GET / ADDR 404'. The port wording is llama-server's own 'listening on http://HOST:PORT' (fresh-192's
--port 70000 log; port-out-of-range already named it, tested here on another host and port).
"""

from __future__ import annotations

import io

from servebox.doctor.triage import triage_stream
from tests.doctor_text import family_tests

START = "0.00.010.525 I srv  llama_server: initializing ...\n"
UI_OFF = "0.00.011.656 I srv  init_listene: The UI is disabled\n"
UP = "0.00.549.360 I srv  llama_server: model loaded\n0.00.549.365 I srv  llama_server: listening on http://0.0.0.0:8080\n"
BODY = '{"error":{"message":"File Not Found","type":"not_found_error","code":404}}\n'

CASES = [
    # an older server's wording and its own request log line (path and status on one line)
    (
        "llamacpp-ui-disabled-by-flag",
        START + "main: Web UI is disabled\n" + UP + "request: GET / 192.168.1.20 404\n",
    ),
    # 11434's wording, a browser's GET /index.html as curl -v shows it, and the 404 body
    (
        "llamacpp-ui-disabled-by-flag",
        START
        + UI_OFF
        + UP
        + "> GET /index.html HTTP/1.1\n> Host: gpu-box:8080\n< HTTP/1.1 404 Not Found\n"
        + BODY,
    ),
    # a port above 65535 in llama-server's own listening line (another host, another port)
    (
        "port-out-of-range",
        START + "0.00.549.365 I srv  llama_server: listening on http://0.0.0.0:80800\n",
    ),
]

NEAR_MISSES = [
    # the UI is off, but the 404 is a client's wrong API route: not the UI's absence
    (
        "llamacpp-ui-disabled-by-flag",
        START
        + UI_OFF
        + UP
        + "# request: POST http://127.0.0.1:8080/v1/chat/completion\nHTTP/1.1 404 Not Found\n"
        + BODY,
    ),
    # a 404 on GET / where the UI is on (an --api-prefix server asked at the root): nothing says the UI is off
    (
        "llamacpp-ui-disabled-by-flag",
        START + UP + "# request: GET http://127.0.0.1:8080/\nHTTP/1.1 404 Not Found\n" + BODY,
    ),
    # a normal port
    ("port-out-of-range", START + "0.00.549.365 I srv  llama_server: listening on http://127.0.0.1:65535\n"),
]

test_names_the_cause, test_near_miss_not_confident = family_tests(CASES, NEAR_MISSES)


def _ids(text: str) -> list[str]:
    return [d.id for d in triage_stream(io.BytesIO(text.encode()), "t.log").diagnoses]


def test_ui_off_with_a_404_on_another_path_stays_a_refused_request():
    ids = _ids(NEAR_MISSES[0][1])
    assert "llamacpp-ui-disabled-by-flag" not in ids
    assert ids[:1] == ["request-refused"]


def test_a_404_on_the_root_without_the_ui_line_is_not_the_family():
    assert "llamacpp-ui-disabled-by-flag" not in _ids(NEAR_MISSES[1][1])


def test_ui_off_with_nothing_refused_is_healthy():
    assert "llamacpp-ui-disabled-by-flag" not in _ids(START + UI_OFF + UP)
