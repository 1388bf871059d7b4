"""What the measured batch fresh-404 taught after scoring (learn46j), on wordings other than its corpus logs'.

- cpu-topology-sysfs-masked (new): /sys/devices/system/cpu masked or missing, so util-linux's lscpu cannot count the
  CPUs and vLLM-CPU 0.32 (utils/cpu_resource_utils.py _get_cpu_list, called by the OpenMP autobinding and by every
  CPUWorker) dies; lscpu 2.38's err() texts and Python's own read of a top-level sysfs CPU file, rendered.
- servebox-engine-hung: watch.py Watcher._stopped's verdict, 'engine process PID (NAME) is stopped (SIGSTOP?) for N s:
  it runs nothing, whatever /health answers', as up's INCIDENT line, the router's 503 and `servebox watch` print it.
Lines are the sources' format strings rendered with values (marked so), not the corpus logs'.
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run

VLLM = "$ vllm serve /srv/models/qwen2.5-0.5b-instruct --port 8000\n"
CORE = "(EngineCore pid=311) ERROR 12-06 18:59:28 [core.py:1510] "
T = "2026-12-06T19:04:10Z"


def core_death(*lines: str, command: str = "lscpu --json --extended=CPU,CORE,NODE --online") -> str:
    """vLLM-CPU's engine core dying of lscpu's exit, its own line(s) above (rendered)."""
    return (
        VLLM
        + "".join(f"{line}\n" for line in lines)
        + f"{CORE}EngineCore failed to start.\n{CORE}Traceback (most recent call last):\n"
        + f'{CORE}  File "/opt/venv/lib/python3.12/site-packages/vllm/utils/cpu_resource_utils.py", line 293, in'
        + " _get_cpu_list\n"
        + f"{CORE}subprocess.CalledProcessError: Command '{command}' returned non-zero exit status 1.\n"
        + "RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}\n"
    )


CASES = [
    # lscpu's 'failed to determine number of CPUs: %s' where a sandbox denies the file (rendered)
    (
        "cpu-topology-sysfs-masked",
        core_death(
            "lscpu: failed to determine number of CPUs: /sys/devices/system/cpu/possible: Permission denied"
        ),
    ),
    # lscpu's 'failed to initialize CPUs sysfs handler' (sysfs root absent: a chroot without /sys), s390x's command
    (
        "cpu-topology-sysfs-masked",
        core_death(
            "lscpu: failed to initialize CPUs sysfs handler", command="lscpu -J -e=CPU,CORE,NODE,SOCKET,BOOK"
        ),
    ),
    # the worker's own call (VLLM_CPU_OMP_THREADS_BIND=nobind skips only the autobinding), its lscpu line prefixed
    (
        "cpu-topology-sysfs-masked",
        "$ VLLM_CPU_OMP_THREADS_BIND=nobind vllm serve tiny\n"
        "(Worker pid=402) lscpu: failed to determine number of CPUs: /sys/devices/system/cpu/possible: No such file "
        "or directory\n"
        "(Worker pid=402) ERROR 12-06 18:59:31 [multiproc_executor.py:772] WorkerProc failed to start.\n"
        "(Worker pid=402) ERROR 12-06 18:59:31 [multiproc_executor.py:772] subprocess.CalledProcessError: Command "
        "'lscpu --json --extended=CPU,CORE,NODE --online' returned non-zero exit status 1.\n",
    ),
    # Python's own read of a top-level file every Linux sysfs has (rendered)
    (
        "cpu-topology-sysfs-masked",
        "Traceback (most recent call last):\n"
        '  File "/opt/app/topology.py", line 12, in online_cpus\n'
        '    with open("/sys/devices/system/cpu/online") as f:\n'
        "FileNotFoundError: [Errno 2] No such file or directory: '/sys/devices/system/cpu/online'\n",
    ),
    # servebox-engine-hung: watch.py's stopped verdict on vLLM's engine core under up (rendered)
    (
        "servebox-engine-hung",
        "$ servebox up spec.toml\n"
        f"{T} qwen: INCIDENT hung: engine process 5120 (VLLM::EngineCor) is stopped (SIGSTOP?) for 3 s: it runs "
        "nothing, whatever /health answers; diagnosis: no known cause in the log; restart after 2 s\n"
        "2026-12-06T19:04:12Z qwen: started pid 5290 (restart 1), log .servebox/logs/qwen.log\n",
    ),
    # ... the router's 503 engine_down body (router/app.py admit) and `servebox watch` (cli/serve.py) (rendered)
    (
        "servebox-engine-hung",
        "HTTP/1.1 503 Service Unavailable\n"
        '{"error":{"message":"engine tiny is hung: engine process 812 (llama-server) is stopped (SIGSTOP?) for 6 s: '
        'it runs nothing, whatever /health answers","type":"server_error","param":null,"code":"engine_down"}}\n',
    ),
    (
        "servebox-engine-hung",
        "$ servebox watch spec.toml\nservebox up (pid 4411), state of 2026-12-06T09:14:02Z\n"
        "tiny: hung (engine process 812 (llama-server) is stopped (SIGSTOP?) for 2 s: it runs nothing, whatever "
        "/health answers); 0 restart(s)\n",
    ),
]

NEAR_MISSES = [
    # a cpufreq file absent on a VM is no masked topology (psutil's or a script's read; rendered)
    (
        "cpu-topology-sysfs-masked",
        "Traceback (most recent call last):\n"
        '  File "/opt/app/freq.py", line 4, in <module>\n'
        "FileNotFoundError: [Errno 2] No such file or directory: '/sys/devices/system/cpu/cpu0/cpufreq/scaling_max_freq'\n",
    ),
    # lscpu not installed at all is the program's absence (command-not-found), not sysfs
    (
        "cpu-topology-sysfs-masked",
        VLLM
        + "/bin/sh: 1: lscpu: not found\n"
        + f"{CORE}subprocess.CalledProcessError: Command 'lscpu --json --extended=CPU,CORE,NODE --online' returned "
        + "non-zero exit status 127.\n",
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_a_dead_or_degraded_engine_is_not_hung():
    """up's other verdicts (the process gone; /health slow once) are not the hung family at any confidence."""
    for line in (
        f"{T} tiny: INCIDENT dead: the engine process is gone; diagnosis: no known cause in the log; restart after 2 s",
        f"{T} tiny: degraded (/health did not answer for 2 s)",
    ):
        ids = [d.id for d in run(f"$ servebox up spec.toml\n{line}\n").diagnoses]
        assert "servebox-engine-hung" not in ids, (ids, line)


def test_the_hung_cause_names_the_stopped_process():
    """The stopped verdict fills the cause's reason, not a window it does not have."""
    log = f"{T} tiny: INCIDENT hung: engine process 12 (llama-server) is stopped (SIGSTOP?) for 4 s: it runs nothing\n"
    top = next(d for d in run(log).diagnoses if d.id == "servebox-engine-hung")
    assert "engine process 12 (llama-server) is stopped" in top.cause
