"""What after34h learnt in stop 34 after scoring fresh-184 (signals and changes that reach a running llama-server, a
2nd round after fresh-180): an orderly stop is the answer where what fails after it is its consequence (a request
refused after it, a read timeout of a request the server's log shows still open at the stop, the shell's 'Terminated'
before the server came up); each tested on another wording than the batch log's, and on a near miss.
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

# newer llama-server (tools/server): it listens, a slot takes a request
UP = (
    "0.00.350.732 I srv  llama_server: model loaded\n"
    "0.00.359.868 I srv  llama_server: listening on http://127.0.0.1:8080\n"
    "0.01.650.416 I slot launch_slot_: id  0 | task 7 | processing task, is_child = 0\n"
)
ANSWERED = (
    "0.03.348.508 I slot      release: id  0 | task 7 | stop processing: n_tokens = 45, truncated = 0\n"
)
STOP = "0.04.822.581 I srv    operator(): operator(): cleaning up before exit...\n"
# llama-server's HTTP layer cancelling the task of a request still open (tools/server: 'stop: cancel task')
CANCEL = "2.04.822.581 W srv          stop: cancel task, id_task = 7\n"
LOADING = (
    "0.00.017.978 I srv    load_model: loading model '/models/q4.gguf'\n"
    "0.00.024.915 I cmn          init: llama threadpool init, n_threads = 8\n"
)
# a vLLM API server's orderly stop with a stream open: uvicorn's lines (vLLM 0.32's launcher, uvicorn's server.py)
VLLM_UP = "INFO:     Application startup complete.\n"
VLLM_STOP = (
    "(APIServer pid=1) INFO 12-05 06:27:40 [launcher.py:254] [shutdown] API server: shutdown triggered\n"
    "INFO:     Shutting down\n"
    "INFO:     Waiting for connections to close. (CTRL+C to force quit)\n"
)

CASES = [
    # a stop while idle, then a client (requests' wording) finds nothing listening
    (
        "shutdown-requested",
        UP
        + ANSWERED
        + STOP
        + "requests.exceptions.ConnectionError: HTTPConnectionPool(host='127.0.0.1', port=8080): Max retries exceeded "
        "with url: /health (Caused by NewConnectionError(': Failed to establish a new connection: [Errno 111] "
        "Connection refused'))\n",
    ),
    # a stop mid non-streamed request: the server cancels the open task later, the client (openai's httpx) timed out
    ("shutdown-requested", UP + STOP + CANCEL + "httpx.ReadTimeout: timed out\n"),
    # a stop during the load, reported by bash -c with its line and pid (exit status 143), and by job control
    (
        "shutdown-requested",
        LOADING + "bash: line 1:  8812 Terminated              llama-server -m /models/q4.gguf\n",
    ),
    ("shutdown-requested", LOADING + "[1]+  Terminated              llama-server -m /models/q4.gguf\n"),
    # vLLM's API server stopped with a stream open; the client waited out its read timeout
    ("shutdown-requested", VLLM_UP + VLLM_STOP + "ReadTimeout: timed out\n"),
]

NEAR_MISSES = [
    # a word 'Terminated' inside a sentence is not the shell's report of SIGTERM
    ("shutdown-requested", LOADING + "worker 3: Terminated the stale download after 30 s\n"),
]

test_the_family_names_the_cause, test_a_near_miss_is_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_a_read_timeout_with_no_request_open_at_the_stop_stays_the_timeout():
    # the client gave up on a hung server (SIGSTOP), then the maker stopped it idle: the timeout is the answer
    top = top_cause(run(UP + ANSWERED + STOP + "ReadTimeout: timed out\n"))
    assert top is not None and top.id == "client-read-timeout"


def test_a_healthy_server_stopped_after_its_answers_is_no_failure():
    assert top_cause(run(UP + ANSWERED + STOP + "exit status 0\n")) is None
    assert top_cause(run(UP + ANSWERED + "Terminated\nexit status 143\n")) is None


def test_an_offline_run_that_shuts_down_is_no_failure():
    # no server ever listens in an offline run, and its own shutdown is not a stop that ended a start
    log = "INFO 12-05 06:27:40 [llm_engine.py:1] Processed prompts: 100%\nINFO:     Shutting down\n"
    assert top_cause(run(log)) is None
