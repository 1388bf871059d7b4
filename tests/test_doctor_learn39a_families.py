"""What fresh-277 (systemd units where two settings meet, checked with systemd 252's `systemd-analyze verify`) taught
after scoring, with the neighbourhood of each miss's check in systemd's own source and on this machine's systemd 252.

- systemd-setting-has-no-effect: a setting systemd loads but ignores because of another setting of the unit or of its
  type (service.c service_verify's 'has no effect' / 'but no X=. Ignoring.', unit.c's JobRunningTimeoutSec= check and
  dependency checks, load-fragment.c's 'not supported for this unit type'); a value it cannot parse stays
  systemd-bad-value's, a 'Refusing.' stays the refusal families'.
- unit-requires-and-conflicts-same-unit: transaction.c's 'Transaction contains conflicting jobs ...'.
- systemd-ordering-cycle, systemd-transaction-destructive, systemd-job-type-not-applicable: the same file's other
  refusals of a transaction.
Lines marked 'rendered here' are systemd 252's output on units written for the purpose (/tmp/learn39a, s39); 'from the
format string' ones are systemd's source's format filled with a value; none is a batch log's line.
"""

from __future__ import annotations

from tests.doctor_text import assert_named, family_tests

VERIFY = "$ systemd-analyze verify --man=no --root=/tmp/r /etc/systemd/system/{unit}\n{out}# exit: {rc}\n"
JOURNAL = "Dec 05 10:00:00 gpu-box systemd[1]: "

CASES = [
    # service_verify's USB pair (rendered here)
    (
        "systemd-setting-has-no-effect",
        VERIFY.format(
            unit="vllm.service",
            out="vllm.service: Service has USBFunctionDescriptors= setting, but no USBFunctionStrings=. Ignoring.\n",
            rc=0,
        ),
    ),
    # systemd 254+'s RestartSteps= pair and RestartSec= reset (from the format string of the same service_verify)
    (
        "systemd-setting-has-no-effect",
        JOURNAL
        + "llama-server.service: Service has RestartSteps= but no RestartMaxDelaySec= setting. Ignoring.\n",
    ),
    (
        "systemd-setting-has-no-effect",
        JOURNAL + "llama-server.service: RestartMaxDelaySec= has a value smaller than RestartSec=, resetting "
        "RestartSec= to RestartMaxDelaySec=.\n",
    ),
    # unit.c's dependency checks (rendered here: Before= a device, OnFailure= in a slice)
    (
        "systemd-setting-has-no-effect",
        VERIFY.format(
            unit="llama-server.service",
            out="llama-server.service: Dependency Before=dev-nvidia0.device ignored (.device units cannot be delayed)\n",
            rc=0,
        ),
    ),
    (
        "systemd-setting-has-no-effect",
        VERIFY.format(
            unit="llm.slice",
            out="llm.slice: Requested dependency OnFailure=notify-failure@llm.slice.service ignored (slice units cannot "
            "fail).\n",
            rc=0,
        ),
    ),
    # load-fragment.c: a cgroup setting in a unit type that cannot take it (rendered here)
    (
        "systemd-setting-has-no-effect",
        VERIFY.format(
            unit="vllm.socket",
            out="/tmp/r/etc/systemd/system/vllm.socket:6: ManagedOOMSwap= is not supported for this unit type, "
            "ignoring.\n",
            rc=0,
        ),
    ),
    (
        "systemd-setting-has-no-effect",
        VERIFY.format(
            unit="vllm.socket",
            out="/tmp/r/etc/systemd/system/vllm.socket:5: Delegate= setting not supported for this unit type, ignoring.\n",
            rc=0,
        ),
    ),
    # transaction.c: Requisite= beside Conflicts= (rendered here: 'verify-active'), and systemctl's relay
    (
        "unit-requires-and-conflicts-same-unit",
        VERIFY.format(
            unit="llama-server.service",
            out="Requested transaction contains unmergeable jobs: Transaction contains conflicting jobs 'stop' and "
            "'verify-active' for vllm.service. Probably contradicting requirement dependencies configured.\n"
            "llama-server.service: Failed to create llama-server.service/start: Transaction contains conflicting "
            "jobs 'stop' and 'verify-active' for vllm.service. Probably contradicting requirement dependencies "
            "configured.\n",
            rc=1,
        ),
    ),
    (
        "unit-requires-and-conflicts-same-unit",
        "$ sudo systemctl start llama-swap.service\nFailed to start llama-swap.service: Transaction contains "
        "conflicting jobs 'stop' and 'start' for llama-server.service. Probably contradicting requirement "
        "dependencies configured.\n",
    ),
    # ordering cycles: systemd 252's refusal (rendered here: Requires= and After= both ways) ...
    (
        "systemd-ordering-cycle",
        VERIFY.format(
            unit="vllm.service",
            out="llama-swap.service: Found ordering cycle on vllm.service/start\n"
            "llama-swap.service: Found dependency on llama-swap.service/start\n"
            "llama-swap.service: Unable to break cycle starting with llama-swap.service/start\n"
            "Requested transaction contains an unfixable cyclic ordering dependency: Transaction order is cyclic. "
            "See system logs for details.\n"
            "vllm.service: Failed to create vllm.service/start: Transaction order is cyclic. See system logs for "
            "details.\n",
            rc=1,
        ),
    ),
    # ... a job deleted to break it at boot (the journal's form), and systemd 255+'s one-line loop
    (
        "systemd-ordering-cycle",
        JOURNAL
        + "multi-user.target: Found ordering cycle on vllm.service/start\n"
        + JOURNAL
        + "multi-user.target: Found dependency on gpu-fan.service/start\n"
        + JOURNAL
        + "multi-user.target: Found dependency on multi-user.target/start\n"
        + JOURNAL
        + "multi-user.target: Job vllm.service/start deleted to break ordering cycle starting with "
        "multi-user.target/start\n",
    ),
    (
        "systemd-ordering-cycle",
        JOURNAL
        + "multi-user.target: Found ordering cycle: llama-server.service/start after gpu-fan.service/start "
        "after multi-user.target/start after llama-server.service/start - after llama-server.service\n",
    ),
    # ... and the boot console's status line for the deleted job (transaction.c's unit_status_printf; the description)
    ("systemd-ordering-cycle", "[ SKIP ] Ordering cycle found, skipping vLLM OpenAI-compatible server\n"),
    # transaction_is_destructive and a job type the unit cannot take (from the format strings, as systemctl relays them)
    (
        "systemd-transaction-destructive",
        "Failed to start vllm.service: Transaction for vllm.service/start is destructive (reboot.target has 'start' "
        "job queued, but 'stop' is included in transaction).\n",
    ),
    (
        "systemd-job-type-not-applicable",
        "$ sudo systemctl reload llama-swap.service\nFailed to reload llama-swap.service: Job type reload is not "
        "applicable for unit llama-swap.service.\n",
    ),
]

NEAR_MISSES = [
    # a deprecation note: KillMode=none still acts as written (rendered here)
    (
        "systemd-setting-has-no-effect",
        VERIFY.format(
            unit="vllm.service",
            out="/tmp/r/etc/systemd/system/vllm.service:14: Unit uses KillMode=none. This is unsafe, as it disables "
            "systemd's process lifecycle management for the service. Please update the service to use a safer "
            "KillMode=, such as 'mixed' or 'control-group'. Support for KillMode=none is deprecated and will "
            "eventually be removed.\n",
            rc=0,
        ),
    ),
    # the same function's refusal of a Type=oneshot pair: the unit is not loaded, a refusal family's
    (
        "systemd-setting-has-no-effect",
        VERIFY.format(
            unit="fetch-model.service",
            out="fetch-model.service: Service has RestartForceExitStatus= set, which isn't allowed for Type=oneshot "
            "services. Refusing.\nUnit fetch-model.service has a bad unit file setting.\n",
            rc=1,
        ),
    ),
    # a conflict systemd fixed itself (Wants= beside Conflicts=: the wanted job dropped, debug level)
    (
        "unit-requires-and-conflicts-same-unit",
        JOURNAL
        + "Fixing conflicting jobs vllm.service/stop,vllm.service/start by deleting job vllm.service/start\n",
    ),
    # 'Found dependency on' alone is a line of the loop's listing, not the cycle's report
    ("systemd-ordering-cycle", JOURNAL + "multi-user.target: Found dependency on vllm.service/start\n"),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_a_value_systemd_cannot_parse_stays_bad_value():
    """RuntimeMaxSec= with a value systemd does not read is the value's fault, not the pair's (conf-parser's wording)."""
    assert_named(
        "systemd-bad-value",
        "/etc/systemd/system/fetch-model.service:9: Failed to parse RuntimeMaxSec= parameter, ignoring: 2hours\n",
    )


def test_the_oneshot_refusal_stays_a_refusal():
    """service_verify's 'Refusing.' for a Type=oneshot pair keeps its refusal family: the unit does not load at all.
    (learn47a: fresh-407's maker named this refusal systemd-oneshot-restart, the oneshot restart refusal family, which
    now takes RestartForceExitStatus= beside Restart=; still a refusal, never systemd-setting-has-no-effect.)"""
    assert_named(
        "systemd-oneshot-restart",
        "fetch-model.service: Service has RestartForceExitStatus= set, which isn't allowed for Type=oneshot services. "
        "Refusing.\nUnit fetch-model.service has a bad unit file setting.\n",
    )
