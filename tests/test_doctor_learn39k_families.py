"""What the scored batch fresh-285 (things that happen to a running vLLM server, 4th round) taught after scoring, with
the neighbourhood of each miss's refusal in vLLM 0.32's dev / admin routes.

- collective-rpc-method-not-on-worker: /collective_rpc (or LLM.collective_rpc) naming a method the worker lacks, in the
  multiproc executor's AttributeError form and run_method's NotImplementedError form (uniproc, Ray).
- elastic-ep-scale-not-enabled: /scale_elastic_ep on a server not started for elastic EP ('Scale failed: ' with the
  single-engine client's empty NotImplementedError, or a data-parallel client's Ray-only assertion).
- elastic-ep-scale-size-out-of-range: the data-parallel client's two ValueErrors (above the max, below the minimum).
- engine-paused-request-waits: a scheduler paused (/pause, pause_generation) and not resumed under a request that
  waited out its client or came back aborted; /sleep on the CPU stays sleep-mode-ignored-on-cpu's.
Messages marked 'rendered' are the source's format string filled with a value; the others are as a log showed them.
"""

from __future__ import annotations

from tests.doctor_text import assert_named, family_tests

START = "(APIServer pid=7) INFO 12-05 10:00:00 [entry.py:136] Supported tasks: ['generate']\n"
ACCESS = 'INFO:     127.0.0.1:40000 - "{} HTTP/1.1" {}\n'


def reply(msg: str, typ: str, code: int) -> str:
    return f'{{"error":{{"message":"{msg}","type":"{typ}","param":null,"code":{code}}}}}\n'


def paused(state: str) -> str:
    return f"(EngineCore_DP0 pid=9) INFO 12-05 10:00:01 [scheduler.py:2756] setting pause state to {state}\n"


CASES = [
    # the uniproc executor's run_method refusal, relayed by the engine core (rendered: serial_utils.py, core.py)
    (
        "collective-rpc-method-not-on-worker",
        START
        + "(EngineCore_DP0 pid=9) ERROR 12-05 10:00:02 [core.py:1750] Invocation of collective_rpc method failed\n"
        + "(EngineCore_DP0 pid=9) ERROR 12-05 10:00:02 [core.py:1750] NotImplementedError: Method 'update_weights_from_ipc'"
        " is not implemented.\n"
        + ACCESS.format("POST /collective_rpc", "500 Internal Server Error")
        + reply(
            "Call to collective_rpc method failed: Method 'update_weights_from_ipc' is not implemented.",
            "InternalServerError",
            500,
        ),
    ),
    # ... the offline API on the CUDA worker (class 'Worker'), multiproc: the script's own traceback (rendered)
    (
        "collective-rpc-method-not-on-worker",
        "Traceback (most recent call last):\n"
        '  File "/home/me/rl.py", line 30, in <module>\n'
        '    llm.collective_rpc("sync_weights")\n'
        "Exception: Call to collective_rpc method failed: Worker failed with error ''Worker' object has no attribute "
        "'sync_weights'', please check the stack trace above for the root cause\n",
    ),
    # a data-parallel server on the mp backend asked to scale (rendered: core_client.py's assertion via api_router.py)
    (
        "elastic-ep-scale-not-enabled",
        START
        + "(APIServer pid=7) ERROR 12-05 10:00:03 [api_router.py:79] Scale failed: Only ray DP backend supports scaling"
        " elastic EP\n"
        + ACCESS.format("POST /scale_elastic_ep", "500 Internal Server Error")
        + reply("Scale failed", "Internal Server Error", 500),
    ),
    # ... an RL driver calling AsyncLLM.scale_elastic_ep itself (rendered)
    (
        "elastic-ep-scale-not-enabled",
        "Traceback (most recent call last):\n"
        '  File "/home/me/driver.py", line 12, in main\n'
        "    await llm.scale_elastic_ep(4)\n"
        "AssertionError: Only ray DP backend supports scaling elastic EP\n",
    ),
    # the data-parallel client's range checks, as the route's 400 body (rendered: core_client.py prepare_elastic_ep)
    (
        "elastic-ep-scale-size-out-of-range",
        ACCESS.format("POST /scale_elastic_ep", "400 Bad Request")
        + reply("Cannot scale to data_parallel_size 8; --elastic-ep-max-dp-size is 4.", "Bad Request", 400),
    ),
    (
        "elastic-ep-scale-size-out-of-range",
        reply("Cannot scale to data_parallel_size 1, minimum is 2", "Bad Request", 400),
    ),
    # /pause with the default mode=abort under a running stream: it came back aborted (rendered: core.py, scheduler.py)
    (
        "engine-paused-request-waits",
        START
        + paused("PAUSED_NEW")
        + ACCESS.format("POST /pause", "200 OK")
        + 'data: {"id":"cmpl-1","object":"text_completion","choices":[{"index":0,"text":"","finish_reason":"abort"}]}\n',
    ),
    # mode=keep, then a requests client's read timeout (requests' own wording)
    (
        "engine-paused-request-waits",
        START
        + paused("PAUSED_ALL")
        + ACCESS.format("POST /pause?mode=keep", "200 OK")
        + "requests.exceptions.ReadTimeout: HTTPConnectionPool(host='127.0.0.1', port=8000): Read timed out. "
        "(read timeout=30)\n",
    ),
    # /sleep on the CPU backend, then a chat that timed out: sleep-mode-ignored-on-cpu names both (fresh-273's reading)
    (
        "sleep-mode-ignored-on-cpu",
        START
        + paused("PAUSED_NEW")
        + "(Worker pid=11) WARNING 12-05 10:00:01 [cpu_worker.py:180] sleep mode is not supported on CPU, ignore it.\n"
        + ACCESS.format("POST /sleep?level=1", "200 OK")
        + "ReadTimeout: timed out\n",
    ),
]

NEAR_MISSES = [
    # a method that exists and raised is the method's own failure, not a missing method
    (
        "collective-rpc-method-not-on-worker",
        reply(
            "Call to collective_rpc method failed: Worker failed with error 'update_weights() missing 1 required "
            "positional argument: 'names'', please check the stack trace above for the root cause",
            "InternalServerError",
            500,
        ),
    ),
    # a worker lacking one of vLLM's own methods at start (a plugin's skew), with no collective_rpc call in the log
    (
        "collective-rpc-method-not-on-worker",
        "(Worker pid=11) ERROR 12-05 10:00:01 [multiproc_executor.py:1063] AttributeError: 'HPUWorker' object has no "
        "attribute 'compile_or_warm_up_model'\n"
        "(EngineCore_DP0 pid=9) ERROR 12-05 10:00:01 [core.py:1100] RuntimeError: Worker failed with error ''HPUWorker' "
        "object has no attribute 'compile_or_warm_up_model'', please check the stack trace above for the root cause\n",
    ),
    # the route's drain timeout (408) is the running requests outlasting drain_timeout, not a server without elastic EP
    (
        "elastic-ep-scale-not-enabled",
        START
        + ACCESS.format("POST /scale_elastic_ep", "408 Request Timeout")
        + reply("Scale failed due to request drain timeout after 30 seconds", "Request Timeout", 408),
    ),
    # paused, then resumed before the request: its timeout is the client's own
    (
        "engine-paused-request-waits",
        START + paused("PAUSED_ALL") + paused("UNPAUSED") + "ReadTimeout: timed out\n",
    ),
    # a pause with no request waiting on it is no failure
    (
        "engine-paused-request-waits",
        START + paused("PAUSED_ALL") + ACCESS.format("POST /pause?mode=keep", "200 OK"),
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_fresh285_pause_keep_excerpt_with_its_client_timeout():
    """The batch's own shape in two lines: the keep pause and the chat's read timeout name the pause, not the client."""
    assert_named("engine-paused-request-waits", paused("PAUSED_ALL") + "ReadTimeout: timed out\n")
