"""What after34r learnt in stop 34 after scoring fresh-190 (things that happen to a running vLLM, 2nd round): bash's
siglist words for the terminating signals that only come from outside (SIGQUIT 'Quit', SIGVTALRM, SIGPROF) read as
engine-killed-from-outside, and a clean Ctrl-C stop followed by a refused request read as the stop for vLLM as for
llama-server. Each on another wording than the batch log's, with a near miss that must not be read as it.
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

# vLLM's API server up and answering /health (vllm.entrypoints.openai.api_server, uvicorn's lines)
VLLM_UP = (
    "(APIServer pid=29225) INFO 12-05 07:16:28 [launcher.py:195] Route: /inference/v1/abort_requests, Methods: POST\n"
    "INFO:     Started server process [29225]\n"
    "INFO:     Waiting for application startup.\n"
    "INFO:     Application startup complete.\n"
    'INFO:     127.0.0.1:60698 - "GET /health HTTP/1.1" 200 OK\n'
)
# llama-server up (tools/server)
LLAMA_UP = (
    "0.00.352.313 I srv  llama_server: model loaded\n"
    "0.00.359.868 I srv  llama_server: listening on http://127.0.0.1:8080\n"
)
# a client's request after the server is gone: requests/urllib3's wording (the batch log has httpx's ConnectError)
REFUSED = (
    "requests.exceptions.ConnectionError: HTTPConnectionPool(host='127.0.0.1', port=8000): Max retries exceeded "
    "with url: /v1/completions (Caused by NewConnectionError('<urllib3.connection.HTTPConnection object at "
    "0x7f>: Failed to establish a new connection: [Errno 111] Connection refused'))\n"
)
# vLLM's orderly Ctrl-C stop (the [shutdown] lines of 0.32), SIGTERM this time
VLLM_STOP = (
    "(EngineCore pid=29301) INFO 12-05 07:17:02 [core.py:1012] [shutdown] EngineCore: trigger received signal=SIGTERM\n"
    "(APIServer pid=29225) INFO 12-05 07:17:02 [api_server.py:98] [shutdown] API server: shutdown triggered\n"
    "INFO:     Shutting down\n"
    "INFO:     Application shutdown complete.\n"
)

CASES = [
    # SIGQUIT with a core (ulimit -c unlimited): bash's 'Quit (core dumped)' alone, then the script's exit status
    ("engine-killed-from-outside", VLLM_UP + "Quit (core dumped)\nexit status 131\n" + REFUSED),
    # bash -c's report with line and pid, and job control's, for SIGQUIT (Ctrl-\ in the terminal)
    (
        "engine-killed-from-outside",
        LLAMA_UP + "bash: line 1:  5120 Quit                    llama-server -m /m/q.gguf --port 8080\n",
    ),
    ("engine-killed-from-outside", VLLM_UP + "[1]+  Quit (core dumped)      vllm serve /m/tiny\n"),
    # zsh's words for SIGQUIT and SIGVTALRM
    ("engine-killed-from-outside", VLLM_UP + "zsh: quit       vllm serve /m/tiny\n"),
    ("engine-killed-from-outside", LLAMA_UP + "zsh: virtual time alarm  llama-server -m /m/q.gguf\n"),
    # bash's siglist for SIGVTALRM / SIGPROF alone on a line
    ("engine-killed-from-outside", LLAMA_UP + "Virtual timer expired\nexit status 154\n"),
    ("engine-killed-from-outside", VLLM_UP + "Profiling timer expired\n" + REFUSED),
    # a clean stop of vLLM (SIGTERM, not the batch's SIGINT), then a request that finds nothing listening
    ("shutdown-requested", VLLM_UP + VLLM_STOP + REFUSED),
]

NEAR_MISSES = [
    # the word inside a sentence is no shell's report of a death by signal
    (
        "engine-killed-from-outside",
        VLLM_UP + "INFO 12-05 07:17:00 [cli.py:12] Quit requested by user, saving state\n",
    ),
    ("engine-killed-from-outside", "Press Ctrl-C to Quit\n"),
]

test_the_family_names_the_cause, test_a_near_miss_is_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_the_refused_request_after_a_quit_is_its_consequence():
    r = run(VLLM_UP + "Quit\n" + REFUSED)
    top = top_cause(r)
    assert top is not None and top.id == "engine-killed-from-outside"
    refused = [d for d in r.diagnoses if d.id == "peer-connection-refused"]
    assert all(d.confidence < top.confidence for d in refused)


def test_crash_signals_keep_their_crash_families():
    top = top_cause(run(VLLM_UP + "Segmentation fault (core dumped)\n" + REFUSED))
    assert top is not None and top.id != "engine-killed-from-outside"


def test_a_refused_request_with_no_stop_is_not_a_stop():
    top = top_cause(run(VLLM_UP + REFUSED))
    assert top is None or top.id != "shutdown-requested"


def test_llama_server_stop_then_refused_reads_the_same():
    stop = "0.04.822.581 I srv    operator(): operator(): cleaning up before exit...\n"
    top = top_cause(run(LLAMA_UP + stop + REFUSED))
    assert top is not None and top.id == "shutdown-requested"
