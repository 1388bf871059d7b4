"""What the scored batch fresh-273 (things that happen to a running vLLM server, each with a setting in effect) taught
after scoring, with the neighbourhood of each miss in vLLM 0.32's own source.

- execute-model-rpc-timeout (new): multiproc_executor.py collective_rpc's 'RPC call to {method} timed out.' for the
  step calls bounded by VLLM_EXECUTE_MODEL_TIMEOUT_SECONDS, and the Ray executor's RayChannelTimeoutError.
- engine-core-suspended (new): the stats logger's one line at 0.0 tokens/s with requests running, where the log shows
  a SIGSTOP sent; a stop before it or a PAUSED_ALL scheduler accounts for the stall.
- request-queue-limit-exceeded (new): async_llm.py check_admission's two 503s (--max-num-queued-reqs,
  --max-num-queued-tokens) and their DEBUG lines.
- engine-core-killed (widened): the worker monitor's 'died unexpectedly (exit code: None)'.
- request-open-at-stop (widened): the EngineCore's '[shutdown] EngineCore: aborting|draining in-flight requests
  count=N', so a client's read timeout after such a stop is the stop's.
Messages marked 'rendered' are the source's format string filled with a value; the others are as a log showed them.
"""

from __future__ import annotations

from tests.doctor_text import assert_named, family_tests

CORE = "(EngineCore pid=88) ERROR 12-05 10:00:00 [core.py:1512] "
FATAL = (
    CORE
    + "EngineCore encountered a fatal error.\n"
    + CORE
    + "Traceback (most recent call last):\n"
    + CORE
    + '  File "/opt/vllm/vllm/v1/executor/multiproc_executor.py", line 442, in get_response\n'
    + CORE
    + '    raise TimeoutError(f"RPC call to {method} timed out.") from e\n'
)
UP = (
    "INFO:     Application startup complete.\n"
    'INFO:     127.0.0.1:50306 - "POST /v1/completions HTTP/1.1" 200 OK\n'
)
STALL = (
    "(APIServer pid=7) INFO 12-05 10:00:10 [loggers.py:335] Engine 000: Avg prompt throughput: 0.0 tokens/s, Avg "
    "generation throughput: 0.0 tokens/s, Running: {n} reqs, Waiting: 0 reqs, GPU KV cache usage: 2.0%, Prefix cache "
    "hit rate: 0.0%\n"
)
V0_STALL = (
    "INFO 02-03 13:18:39 llm_engine.py:706] Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 0.0 "
    "tokens/s, Running: 4 reqs, Swapped: 0 reqs, Pending: 0 reqs, GPU KV cache usage: 3.0%, CPU KV cache usage: 0.0%\n"
)
BUSY = (
    '{{"error":{{"message":"{msg} Please try again later or on a different instance.","type":"Service Unavailable",'
    '"param":null,"code":503}}}}\n'
)
TERM = "(EngineCore pid=8) INFO 12-05 10:01:00 [core.py:1454] [shutdown] EngineCore: trigger received signal=SIGTERM\n"

CASES = [
    # the step's other bounded call (rendered: sample_tokens, as a mid-stream step waits on it), in the EngineCore's
    # fatal-error traceback
    ("execute-model-rpc-timeout", FATAL + CORE + "TimeoutError: RPC call to sample_tokens timed out.\n"),
    # the Ray executor's bound on the same wait (Ray's compiled graph, RAY_CGRAPH_get_timeout set to 300 by vLLM)
    (
        "execute-model-rpc-timeout",
        "(EngineCore_DP0 pid=2) ray.exceptions.RayChannelTimeoutError: System error: If the execution is expected to "
        "take a long time, increase RAY_CGRAPH_get_timeout which is currently 300 seconds. Otherwise, this may "
        "indicate that the execution is hanging.\n",
    ),
    # a suspended engine with several requests running, the stop sent as `kill -s STOP` (rendered stats line)
    ("engine-core-suspended", UP + STALL.format(n=3) + "$ kill -s STOP 4242\n" + "ReadTimeout: timed out\n"),
    # V0's engine printed the same line with Swapped/Pending; the stop sent by number
    ("engine-core-suspended", UP + V0_STALL + "$ kill -19 4242\n"),
    # the prefill backlog twin (exceptions.py MaxQueuedTokensError) as the client got it
    (
        "request-queue-limit-exceeded",
        "HTTP/1.1 503 Service Unavailable\n"
        + BUSY.format(msg="The engine has reached its prefill token backlog limit."),
    ),
    # check_admission's own DEBUG line (rendered) with VLLM_LOGGING_LEVEL=DEBUG
    (
        "request-queue-limit-exceeded",
        "(APIServer pid=7) DEBUG 12-05 10:00:00 [async_llm.py:351] Request queue full - rejecting request "
        "chatcmpl-9f2 (current=0, n=4, max=2).\n",
    ),
    # the worker monitor's line for another rank whose exit code was not read yet (no traceback of the worker's); alone,
    # the merged family's answer (learn41b)
    (
        "engine-killed-from-outside",
        UP
        + "(EngineCore pid=88) ERROR 12-05 10:00:00 [multiproc_executor.py:315] Worker proc VllmWorker-1 died "
        "unexpectedly (exit code: None), shutting down executor.\n",
    ),
    # a stop to the EngineCore alone while a request was open (abort mode, the default), then the client's timeout
    (
        "shutdown-requested",
        UP + TERM + "(EngineCore pid=8) INFO 12-05 10:01:00 [core.py:1640] [shutdown] EngineCore: aborting "
        "in-flight requests count=2\nReadTimeout: timed out\n",
    ),
]

NEAR_MISSES = [
    # an RPC the step does not make (check_health's fixed 10 s) is not the step timeout
    ("execute-model-rpc-timeout", FATAL + CORE + "TimeoutError: RPC call to check_health timed out.\n"),
    # the stall line after an asked-for stop is the stop's (the engine was killed under a live stats logger)
    ("engine-core-suspended", UP + TERM + STALL.format(n=1) + "$ kill -STOP 4242\n"),
    # a scheduler paused with PAUSED_ALL freezes running requests on purpose
    (
        "engine-core-suspended",
        UP
        + "(EngineCore pid=8) INFO 12-05 10:00:05 [scheduler.py:2756] setting pause state to PAUSED_ALL\n"
        + STALL.format(n=2)
        + "$ kill -STOP 4242\n",
    ),
    # tokens still flowing: not a stall, whatever was sent
    (
        "engine-core-suspended",
        UP
        + STALL.format(n=1).replace("generation throughput: 0.0", "generation throughput: 12.5")
        + "$ kill -STOP 9\n",
    ),
    # the elastic-EP middleware's 503 while scaling is not the admission limit
    (
        "request-queue-limit-exceeded",
        'HTTP/1.1 503 Service Unavailable\n{"error":"The model is currently scaling. Please try again later."}\n',
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_stall_without_a_stop_sent_is_only_a_hint():
    """Without a SIGSTOP in the log the stall is stopped-or-hung, a hint below 0.70: the engine may be hung instead."""
    from tests.doctor_text import run

    result = run(UP + STALL.format(n=1))
    top = result.diagnoses[0]
    assert top.id == "engine-core-suspended" and top.confidence < 0.7, (top.id, top.confidence)


def test_a_timeout_after_a_stop_with_no_request_open_stays_the_clients():
    """The stop takes a client's read timeout only where the server's log shows a request open at the stop."""
    assert_named("client-read-timeout", UP + TERM + "ReadTimeout: timed out\n")


def test_worker_traceback_outranks_its_death():
    """A worker that printed its own error before the monitor saw it die: that error is the cause, not a kill."""
    assert_named(
        "disk-full",
        "(Worker pid=9) ERROR 12-05 10:00:00 [multiproc_executor.py:1063] OSError: [Errno 28] No space left on device\n"
        "(EngineCore pid=88) ERROR 12-05 10:00:00 [multiproc_executor.py:315] Worker proc VllmWorker-0 died "
        "unexpectedly (exit code: None), shutting down executor.\n",
    )
