"""What batch fresh-374's two misses taught (learn45c, stop 45), each tested on wordings OTHER than the corpus log's.

- systemd-bad-value (widened, a hint at 0.60): a capability name systemd does not know in a unit's own
  AmbientCapabilities= / CapabilityBoundingSet= line. systemd 252 (load-fragment.c config_parse_capability_set,
  cap-list.c capability_set_from_string) skips such a word without a log line; checked here with systemd 252's verify at
  debug level (the parsed unit's dump) and `systemd-analyze security --offline`: 'CAP_SYS_ADMIM' dropped, a line of only
  unknown names empties the set. Names systemd takes: `systemd-analyze capability`'s list, in any case, or 0..40.
- shutdown-requested: servebox up's INCIDENT lines relaying an asked-for stop as their note ("diagnosis: no known
  cause; note: <the stop's cause>", serve/incidents.py summary, supervisor.py's INCIDENT line) before its start-limit
  give-up (RestartPolicy.decide): the stop ended each start, the start limit is its consequence.
Unit lines and console lines below are rendered from those format strings (not copied from the corpus log).
"""

from __future__ import annotations

import pytest

from tests.doctor_text import family_tests, run, top_cause

UNIT = (
    "$ systemctl cat vllm.service\n"
    "# /etc/systemd/system/vllm.service\n"
    "[Unit]\nDescription=vLLM\n\n[Service]\nUser=vllm\n"
    "ExecStart=/opt/vllm/bin/vllm serve /srv/models/qwen --port 8000\n"
    "{line}\n"
    "[Install]\nWantedBy=multi-user.target\n"
    "$ systemd-analyze verify /etc/systemd/system/vllm.service\n"
    "# exit: 0\n"
)

STOP = "An orderly stop was asked for (SIGTERM/SIGINT, systemctl stop)."


def up_console(n: int, notes: list[str]) -> str:
    """servebox up's console for an engine that died len(notes) times, each incident's diagnosis as given, the last
    giving up at the start limit (rendered from supervisor.py / incidents.py's format strings)."""
    out = [
        f"$ servebox up --restart-limit {n} spec.toml",
        "2026-12-06T09:00:00Z qwen: started pid 4100 (start), log .servebox/logs/qwen.log",
        "2026-12-06T09:00:00Z router on http://127.0.0.1:8080/v1 (models: qwen)",
    ]
    for i, note in enumerate(notes):
        last = i == len(notes) - 1
        action = f"gave up (start limit: {n} restarts in 600 s)" if last else f"restart after {2 * 2**i} s"
        out.append(f"2026-12-06T09:0{i}:30Z qwen: ready (25 s after start, measured)")
        out.append(
            f"2026-12-06T09:0{i}:40Z qwen: INCIDENT dead: the engine process is gone; diagnosis: {note}; {action}"
        )
        if not last:
            out.append(
                f"2026-12-06T09:0{i}:45Z qwen: started pid {4200 + i} (restart {i + 1}), log .servebox/logs/qwen.log"
            )
    out.append(
        f"2026-12-06T09:09:00Z qwen: FAILED, not restarting: gave up (start limit: {n} restarts in 600 s): {notes[-1]}; "
        "fix it, then start servebox up again"
    )
    return "\n".join(out) + "\n"


CASES = [
    # a bounding set with one misspelt name beside a known one (verify here: 'CapabilityBoundingSet: cap_net_bind_service')
    ("systemd-bad-value", UNIT.format(line="CapabilityBoundingSet=CAP_NET_BIND_SERVICE CAP_SYS_ADMIM")),
    # the kernel's name without its CAP_ prefix, after '~' (systemd reads '~' first only; the name is not known)
    ("systemd-bad-value", UNIT.format(line="CapabilityBoundingSet=~ SYS_MODULE CAP_SYS_BOOT")),
    # grep -n's view of a drop-in, lower case and misspelt (names are case-insensitive, this one unknown)
    (
        "systemd-bad-value",
        "$ grep -n Capab /etc/systemd/system/llama-server.service.d/mlock.conf\n3:AmbientCapabilities=cap_ipc_lock cap_sys_nyce\n",
    ),
    # an orderly stop each of three starts, then the start limit (restart limit 2)
    ("shutdown-requested", up_console(2, [f"no known cause; note: {STOP}"] * 3)),
]

NEAR_MISSES = [
    # known names in any case, and numbers: systemd takes them all
    (
        "systemd-bad-value",
        UNIT.format(line="AmbientCapabilities=cap_ipc_lock CAP_SYS_NICE 24 CAP_CHECKPOINT_RESTORE"),
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


@pytest.mark.parametrize(
    "line",
    [
        "AmbientCapabilities=cap_ipc_lock CAP_SYS_NICE 24 CAP_CHECKPOINT_RESTORE CAP_PERFMON CAP_BPF",
        "CapabilityBoundingSet=~CAP_SYS_ADMIN CAP_SYS_MODULE 40",
        "# AmbientCapabilities=CAP_IPC_LOK",  # a comment systemd never reads
        "ambientcapabilities=CAP_IPC_LOK",  # a key systemd does not know (keys are case-sensitive): another family's
        "AmbientCapabilities=",  # a reset
        "✓ CapabilityBoundingSet=~CAP_SYS_(NICE|RESOURCE)     Service has no privileges to change resource use parameters",
        "✓ CapabilityBoundingSet=~CAP_AUDIT_*                 Service has no audit subsystem access",
    ],
)
def test_known_names_and_other_lines_are_not_read_as_an_unknown_capability(line):
    """Names systemd knows, a comment, another key's case, a reset and security's table rows name no unknown capability."""
    result = run(UNIT.format(line=line))
    assert all(d.id != "systemd-bad-value" for d in result.diagnoses), (line, result.diagnoses)


def test_the_unknown_name_is_the_one_quoted():
    """The hint quotes the word systemd drops, not the known one before it."""
    top = top_cause(
        run(UNIT.format(line="AmbientCapabilities=CAP_IPC_LOCK CAP_SYS_NICE CAP_NET_BIND_SERVCE"))
    )
    assert top is not None and top.id == "systemd-bad-value" and top.confidence < 0.7
    assert "'CAP_NET_BIND_SERVCE'" in top.cause


def test_a_start_limit_with_one_incident_of_another_cause_is_not_the_stop():
    """One incident's diagnosis named no stop (a process gone with nothing in its log: killed from outside): the stop
    did not end every start, so it is not the answer; a start limit after only such notes of another kind stays too."""
    log = up_console(1, [f"no known cause; note: {STOP}", "no known cause in the log"])
    top = top_cause(run(log))
    assert top is not None and top.id == "engine-killed-from-outside", top
    symptom = "no known cause; symptom: vLLM's engine process died without a Python traceback"
    top = top_cause(run(up_console(1, [f"no known cause; note: {STOP}", symptom])))
    assert top is not None and top.id != "shutdown-requested", top


def test_a_relayed_stop_without_the_start_limit_is_no_cause():
    """A stop up relayed once, the engine restarted and no give-up: an asked-for stop is no failure by itself."""
    log = (
        "2026-12-06T09:00:40Z qwen: INCIDENT dead: the engine process is gone; diagnosis: no known cause; "
        f"note: {STOP}; restart after 2 s\n"
        "2026-12-06T09:00:45Z qwen: started pid 4200 (restart 1), log .servebox/logs/qwen.log\n"
    )
    result = run(log)
    assert all(not (d.id == "shutdown-requested" and d.role == "cause") for d in result.diagnoses), (
        result.diagnoses
    )


def test_the_stop_outranks_the_start_limit_with_it_kept_below():
    """The stop is the cause, below the confident line; the start limit stays, a symptom after it."""
    result = run(up_console(1, [f"no known cause; note: {STOP}"] * 2))
    ids = [(d.id, d.role) for d in result.diagnoses]
    assert ids[:2] == [("shutdown-requested", "cause"), ("servebox-start-limit-reached", "symptom")], ids
    assert result.diagnoses[0].confidence < 0.7
