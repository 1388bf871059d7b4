"""systemd's failure vocabulary (systemd 252: results, exit statuses, signals, timeout lines) as doctor names it.

Each journal below is written from the format strings in Debian 12's libsystemd-core-252.so and the tables
of systemd.exec(5) (benchmarks/data/systemd_results.json): the order systemd prints them in, one unit.
The cases that could go wrong are the ones where one line reads as another cause: systemd's own SIGKILL
after a timeout is not the OOM killer, the watchdog's SIGABRT is not a native crash, a stop timeout is
not a start timeout, and a SIGTERM after `systemctl stop` is no failure.
"""

from __future__ import annotations

import pytest

from servebox.doctor.ranking import CONFIDENT
from tests.conftest import load_script
from tests.doctor_text import run, top_cause

J = "Dec 03 10:00:00 gpu-box systemd[1]: vllm.service: "


def journal(*lines: str) -> str:
    return "".join(line if line.startswith("Dec ") else J + line for line in lines) + "\n"


# (expected top family, log, the answer must be confident)
CASES = [
    # a slow vLLM load killed by TimeoutStartSec=: systemd's SIGKILL after the stop timeout is not the OOM killer
    (
        "systemd-start-timeout",
        journal(
            "Start operation timed out. Terminating.",
            "State 'stop-sigterm' timed out. Killing.",
            "Killing process 4242 (vllm) with signal SIGKILL.",
            "Main process exited, code=killed, status=9/KILL",
            "Failed with result 'timeout'.",
        ),
        True,
    ),
    ("systemd-start-timeout", journal("Start-pre operation timed out. Killing."), True),
    # TimeoutStopSec= ran out on a stop that was asked for
    (
        "systemd-stop-timeout-killed",
        journal(
            "State 'final-sigterm' timed out. Killing.",
            "Main process exited, code=killed, status=9/KILL",
            "Failed with result 'timeout'.",
        ),
        False,
    ),
    # WatchdogSec= on an engine that never pings: its SIGABRT core dump is the watchdog's
    (
        "systemd-watchdog-timeout",
        journal(
            "Watchdog timeout (limit 3min)!",
            "Killing process 4242 (python3) with signal SIGABRT.",
            "Main process exited, code=dumped, status=6/ABRT",
            "Failed with result 'watchdog'.",
        ),
        True,
    ),
    # a crash loop that hit the start limit: never a confident cause by itself
    (
        "systemd-start-limit",
        journal(
            "Scheduled restart job, restart counter is at 5.",
            "Start request repeated too quickly.",
            "Failed with result 'start-limit-hit'.",
        ),
        False,
    ),
    ("systemd-start-limit", journal("Failed with result 'start-limit-hit'."), False),
    # the kernel's OOM killer still is the OOM killer
    (
        "host-oom-kill",
        "Dec 03 10:00:00 gpu-box kernel: Out of memory: Killed process 4242 (python3) total-vm:81234567kB\n"
        + journal("Main process exited, code=killed, status=9/KILL", "Failed with result 'oom-kill'."),
        True,
    ),
    ("systemd-seccomp-killed", journal("Main process exited, code=dumped, status=31/SYS"), True),
    ("systemd-resource-limit-signal", journal("Main process exited, code=dumped, status=25/XFSZ"), True),
    ("systemd-sandbox-not-applicable", journal("Main process exited, code=exited, status=231/APPARMOR"), True),
    ("systemd-sandbox-not-applicable", journal("Main process exited, code=exited, status=244/BPF"), True),
    ("systemd-scheduling-setting-refused", journal("Failed at step CPUAFFINITY spawning /opt/vllm/bin/vllm: Invalid argument"), True),
    ("systemd-exit-usage", journal("Main process exited, code=exited, status=2/INVALIDARGUMENT"), False),
    ("systemd-main-killed-by-signal", journal("Main process exited, code=killed, status=3/QUIT"), False),
    # learn54d: INT and TERM are the stop signals (Ctrl-C, kill, a supervisor): an asked-for stop, inferred (0.50)
    ("shutdown-requested", journal("Main process exited, code=killed, status=15/TERM"), False),
    ("systemd-unit-oom-killed", journal("Process of control group was killed by the OOM killer."), True),
    # the child's own "Failed at step %s spawning %s: %m" line, as `systemctl status` shows it
    ("systemd-chdir-failed", journal("Failed at step CHDIR spawning /opt/vllm/bin/vllm: No such file or directory"), True),
    ("systemd-user-missing", journal("Failed at step USER spawning /usr/local/bin/llama-server: No such process"), True),
    # 217/USER is also PrivateUsers= failing: with another errno it stays the generic step
    # named, not confident: the corpus saw these words only under two more specific causes (shared_wording.py)
    ("systemd-exec-step-failed", journal("Failed at step USER spawning /usr/local/bin/llama-server: Operation not permitted"), False),
    ("systemd-sandbox-not-applicable", journal("Failed at step KEYRING spawning /usr/local/bin/llama-swap: Permission denied"), True),
    # a bare 217/USER has three readings in systemd 252 (User=, PrivateUsers=, DynamicUser=): a hint only
    ("systemd-user-missing", journal("Main process exited, code=exited, status=217/USER", "Failed with result 'exit-code'."), False),
    (
        "systemd-private-users-failed",
        journal("Failed to set up user namespacing: Operation not permitted", "Main process exited, code=exited, status=217/USER"),
        True,
    ),
]  # fmt: skip


@pytest.mark.parametrize("expected,log,confident", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_systemd_vocabulary_is_named(expected, log, confident):
    r = run(log)
    top = top_cause(r)
    assert top is not None and top.id == expected, [(d.id, d.role, d.confidence) for d in r.diagnoses]
    assert (top.confidence >= CONFIDENT) == confident, top.confidence
    # whatever else matched, nothing other than the expected family is confident
    assert all(d.id == expected or d.confidence < CONFIDENT for d in r.diagnoses)


def test_the_start_timeout_and_start_limit_fixes_say_what_to_set():
    timeout = top_cause(run(journal("Start operation timed out. Terminating.")))
    assert "TimeoutStartSec=" in timeout.fix
    limit = top_cause(run(journal("Start request repeated too quickly.")))
    assert "RestartSec=" in limit.fix and "StartLimitBurst=" in limit.fix and "reset-failed" in limit.fix


def test_a_sigterm_after_a_stop_is_no_failure():
    r = run(
        "Dec 03 10:00:00 gpu-box systemd[1]: Stopping vLLM server...\n"
        + journal("Main process exited, code=killed, status=15/TERM", "Failed with result 'signal'.")
    )
    assert all(not d.fatal for d in r.diagnoses), [(d.id, d.role) for d in r.diagnoses]


def test_a_stop_timeout_is_not_named_by_the_start_timeout_result():
    """'Failed with result timeout' alone suggests the start limit, but an explicit stop-state line says which."""
    r = run(journal("State 'stop-sigterm' timed out. Killing.", "Failed with result 'timeout'."))
    ids = [d.id for d in r.diagnoses]
    assert ids[0] == "systemd-stop-timeout-killed" and "systemd-result-timeout" not in ids


def test_every_failure_of_the_catalogue_is_at_least_generic(capsys):
    """The committed catalogue, offline: no systemd failure line leaves doctor silent."""
    bench = load_script("benchmarks/doctor_coverage_systemd_results.py")
    assert bench.main(["--uncovered", "0"]) == 0
    overall = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("overall"))
    n, named, generic, none = (int(x) for x in overall.split()[1:5])
    assert none == 0 and n >= 120 and named >= 60


@pytest.mark.parametrize(
    "log, confident",
    [
        # a bare SIGKILL beside a memory limit: the OOM killer most often, but `kill -9` or a supervisor print the same
        # (learn48d: with nothing about memory it is engine-killed-from-outside, test_doctor_learn48d)
        (
            "MemoryMax=4G\n"
            + journal("Main process exited, code=killed, status=9/KILL", "Failed with result 'signal'."),
            False,
        ),
        ("MemoryMax=8G\nError: container exited with code 137\n", False),
        # the kernel's own OOM line makes it the OOM killer
        (
            "Dec 03 09:59:59 gpu-box kernel: Out of memory: Killed process 4242 (python3) total-vm:81234567kB\n"
            + journal("Main process exited, code=killed, status=9/KILL", "Failed with result 'signal'."),
            True,
        ),
    ],
)
def test_a_bare_sigkill_is_the_oom_killer_only_with_the_kernels_line(log: str, confident: bool) -> None:
    top = top_cause(run(log))
    assert top is not None and top.id == "host-oom-kill"
    assert (top.confidence >= CONFIDENT) is confident
