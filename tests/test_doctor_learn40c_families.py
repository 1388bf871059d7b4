"""What the scored batch fresh-288 (things that happen to a running vLLM 0.26.0 server on an H100) taught after
scoring: a stop that the server's own lines show arriving while a request was in flight is shutdown-requested, the
answer below the confident line (stop_in_flight.py), where no client's line shows the cut; a stop after the last
request was answered stays a note.

The marks of a request open at the stop, from the engines' sources (rendered with values, not the corpus logs' lines):
vLLM 0.32 / 0.26 v1/engine/core.py _handle_shutdown '[shutdown] EngineCore: aborting in-flight requests count=%d' and
'... draining in-flight requests count=%d timeout=%ds'; uvicorn server.py's 'Waiting for connections to close. (CTRL+C
to force quit)'; vLLM's AsyncLLM.abort 'Aborted request(s) %s.' (V0: 'Aborted request %s.'); llama-server's 'stop:
cancel task, id_task = %d'; an access line of a POST answered after the stop. The stops: core.py's signal handler
'[shutdown] EngineCore: trigger received signal=%s' (SIGTERM, SIGINT), launchers/launcher.py's '[shutdown] API server:
shutdown triggered' (a second signal to the API server logs nothing: the handler returns once the event is set),
uvicorn's 'Shutting down', llama-server's 'cleaning up before exit...' and 'Received second interrupt, terminating
immediately.'.
"""

from __future__ import annotations

import pytest

from tests.doctor_text import run, top_cause

UP = (
    "(APIServer pid=70) INFO 03-04 10:00:30 [api_server.py:677] Starting vLLM server on http://0.0.0.0:8000\n"
    "(APIServer pid=70) INFO:     Started server process [70]\n"
    "(APIServer pid=70) INFO:     Application startup complete.\n"
)
API_STOP = (
    "(APIServer pid=70) INFO 03-04 10:01:00 [launcher.py:254] [shutdown] API server: shutdown triggered\n"
    "(APIServer pid=70) INFO 03-04 10:01:00 [launcher.py:271] [shutdown] API server: stopping engine client mode=abort "
    "timeout=0s\n"
    "(EngineCore_DP0 pid=77) INFO 03-04 10:01:00 [core.py:1454] [shutdown] EngineCore: trigger received signal=SIGTERM\n"
    "(EngineCore_DP0 pid=77) INFO 03-04 10:01:00 [core.py:1636] [shutdown] EngineCore: start mode=abort timeout=0s\n"
)
CORE_SIGINT = (
    "(EngineCore_DP0 pid=77) INFO 03-04 10:01:00 [core.py:1454] [shutdown] EngineCore: trigger received signal=SIGINT\n"
    "(APIServer pid=70) INFO 03-04 10:01:00 [launcher.py:254] [shutdown] API server: shutdown triggered\n"
)
CORE_SIGTERM = (
    "(EngineCore_DP0 pid=77) INFO 03-04 10:01:00 [core.py:1454] [shutdown] EngineCore: trigger received signal=SIGTERM\n"
    "(EngineCore_DP0 pid=77) INFO 03-04 10:01:00 [core.py:1636] [shutdown] EngineCore: start mode=abort timeout=0s\n"
)
ABORTING = "(EngineCore_DP0 pid=77) INFO 03-04 10:01:00 [core.py:1645] [shutdown] EngineCore: aborting in-flight requests count=2\n"
DRAINING = (
    "(EngineCore_DP0 pid=77) INFO 03-04 10:01:00 [core.py:1656] [shutdown] EngineCore: draining in-flight requests "
    "count=1 timeout=30s\n"
)
ANSWERED = '(APIServer pid=70) INFO:     127.0.0.1:51200 - "POST /v1/chat/completions HTTP/1.1" 200 OK\n'
HEALTH = '(APIServer pid=70) INFO:     127.0.0.1:51202 - "GET /health HTTP/1.1" 200 OK\n'
GONE = (
    "(APIServer pid=70) WARNING 03-04 10:01:04 [core_client.py:818] [shutdown] MPClient: engine core exited "
    "unexpectedly; starting cleanup\n"
)
DOWN = (
    "(APIServer pid=70) INFO:     Shutting down\n"
    "(APIServer pid=70) INFO:     Waiting for application shutdown.\n"
    "(APIServer pid=70) INFO:     Application shutdown complete.\n"
)
# an older vLLM whose only stop lines are uvicorn's
UVICORN_UP = "INFO:     Started server process [4242]\nINFO:     Application startup complete.\n"
UVICORN_STOP = "INFO:     Shutting down\n"
WAITING = "INFO:     Waiting for connections to close. (CTRL+C to force quit)\n"
V0_ABORTED = (
    "INFO 07-29 14:42:58 [engine.py:333] Aborted request chatcmpl-2fdd35648efc418db366c6690c29c4da.\n"
)
V1_ABORTED = "(APIServer pid=70) INFO 03-04 10:01:00 [async_llm.py:922] Aborted request(s) cmpl-a84d91c2-0,cmpl-a84d91c2-1.\n"
LLAMA_UP = "0.00.294.271 I srv  llama_server: listening on http://127.0.0.1:8080\n"
LLAMA_STOP = "0.05.209.207 I srv    operator(): operator(): cleaning up before exit...\n"
LLAMA_CANCEL = "0.05.209.450 W srv          stop: cancel task, id_task = 12\n"
LLAMA_SECOND = "Received second interrupt, terminating immediately.\n"

# the API server's own stop line names no signal (the EngineCore's SIGTERM after it is the process manager's)
MID_REQUEST = [
    # SIGTERM to the API server mid-request (0.32's line numbers), the abort then the access line
    pytest.param(UP + API_STOP + ABORTING + ANSWERED + DOWN, "SIGTERM/SIGINT", id="api-server-sigterm"),
    # a second SIGTERM to the API server logs nothing more: the same log
    pytest.param(UP + API_STOP + ABORTING + ANSWERED + DOWN, "SIGTERM/SIGINT", id="api-server-sigterm-twice"),
    # ctrl-C to the process group: the EngineCore's SIGINT first, the API server's stop after it
    pytest.param(UP + CORE_SIGINT + ABORTING + ANSWERED + DOWN, "SIGINT", id="group-sigint"),
    # a drain (--shutdown-timeout 30): the request was still open at the stop
    pytest.param(UP + API_STOP + DRAINING + ANSWERED + DOWN, "SIGTERM/SIGINT", id="api-server-sigterm-drain"),
    # only the access line after the stop shows it (no count line: vLLM before the [shutdown] lines' count)
    pytest.param(UP + CORE_SIGTERM + ANSWERED + DOWN, "SIGTERM", id="access-line-after-stop"),
    # an older vLLM: uvicorn's stop and its wait for the open connection
    pytest.param(
        UVICORN_UP + UVICORN_STOP + WAITING + "INFO:     Application shutdown complete.\n",
        "SIGTERM/SIGINT",
        id="uvicorn-waiting",
    ),
    # vLLM's request-log abort after the stop (V1 and V0 wordings)
    pytest.param(UP + API_STOP + V1_ABORTED + DOWN, "SIGTERM/SIGINT", id="v1-aborted-request"),
    pytest.param(UVICORN_UP + UVICORN_STOP + V0_ABORTED, "SIGTERM/SIGINT", id="v0-aborted-request"),
    # llama-server given SIGTERM while a task runs, with and without a second interrupt, no client's line
    pytest.param(LLAMA_UP + LLAMA_STOP + LLAMA_CANCEL, "SIGTERM/SIGINT", id="llama-server-sigterm"),
    pytest.param(
        LLAMA_UP + LLAMA_STOP + LLAMA_CANCEL + LLAMA_SECOND, "SIGTERM/SIGINT", id="llama-server-twice"
    ),
]


@pytest.mark.parametrize(("log", "signal"), MID_REQUEST)
def test_a_stop_with_a_request_open_is_the_answer(log, signal):
    top = top_cause(run(log))
    assert top is not None and (top.id, top.role) == ("shutdown-requested", "cause"), (top and top.id, log)
    assert top.confidence == 0.5 and f"A stop ({signal})" in top.cause and "--shutdown-timeout" in top.fix


def test_the_engine_core_alone_stopped_mid_request_says_so():
    """fresh-288's engine-core-sigterm-mid-request shape (0.32's wordings): the API server then finds its engine gone."""
    result = run(UP + CORE_SIGTERM + ABORTING + ANSWERED + GONE + DOWN)
    top = top_cause(result)
    assert top is not None and (top.id, top.confidence) == ("shutdown-requested", 0.5)
    assert "EngineCore process alone" in top.cause and "API server process" in top.fix
    assert [d.role for d in result.diagnoses if d.id == "engine-core-killed"] == ["note"]


def test_a_stop_of_the_api_server_is_not_said_to_reach_the_engine_alone():
    top = top_cause(run(UP + API_STOP + ABORTING + ANSWERED + GONE + DOWN))
    assert top is not None and top.id == "shutdown-requested" and "alone" not in top.cause


NOT_MID_REQUEST = [
    # the maker's own SIGTERM after the last answer: the access line before the stop
    pytest.param(UP + ANSWERED + API_STOP + DOWN, id="stopped-after-its-answers"),
    # the same with uvicorn alone
    pytest.param(
        UVICORN_UP + ANSWERED + UVICORN_STOP + "INFO:     Application shutdown complete.\n", id="uvicorn-idle"
    ),
    # a client that went away before the stop (its abort logged then), an answer, then the stop
    pytest.param(UP + V1_ABORTED + ANSWERED + API_STOP + DOWN, id="client-abort-before-stop"),
    # a health check answered after the stop is no request in flight
    pytest.param(UP + ANSWERED + API_STOP + HEALTH + DOWN, id="health-check-after-stop"),
    # the server stopped and started again, then answered: the new start's request, not the stop's
    pytest.param(UP + API_STOP + DOWN + UP + ANSWERED, id="restarted"),
    # a stop with no server up yet and no death after it: nothing
    pytest.param(API_STOP + ABORTING, id="no-server-up"),
    # llama-server stopped while idle
    pytest.param(LLAMA_UP + LLAMA_STOP, id="llama-server-idle"),
]


@pytest.mark.parametrize("log", NOT_MID_REQUEST)
def test_a_stop_with_no_request_open_stays_a_note(log):
    result = run(log)
    assert top_cause(result) is None, [(d.id, d.role) for d in result.diagnoses]
    assert [d.role for d in result.diagnoses if d.id == "shutdown-requested"] == ["note"]


def test_a_failure_before_the_stop_stays_the_answer():
    """A refusal named before the stop is that failure's, even with a request open at the stop."""
    refused = '{"error":{"message":"n must be at least 1, got 0.","type":"BadRequestError"}}\n'
    top = top_cause(run(UP + refused + API_STOP + ABORTING + ANSWERED + DOWN))
    assert top is not None and top.id == "request-sampling-param-out-of-range"
