"""What the scored batch fresh-287 (hardened systemd units, two directives combined; systemd 252's `systemd-analyze
verify` and `security --offline=yes`) taught after scoring, with the neighbourhood of each miss in systemd 252's own
strings (libsystemd-core-252.so, libsystemd-shared-252.so, /usr/bin/systemd-analyze) and man 5 systemd.exec.

- systemd-syscall-filter-mixed-lists (new): a '~' SystemCallFilter= line then an allow line (security's 'System call
  deny list defined for service, and %s is not included (e.g. %s is allowed)' beside a line without '~'), or a '~'
  after a line's first word (seccomp-util.c's 'Failed to parse system call, ignoring: %s').
- systemd-setting-has-no-effect, widened: an AmbientCapabilities= capability outside CapabilityBoundingSet= (security's
  bounding-set row marked protected for a capability the unit lists: `listed_above`; the exec-time debug line 'Ambient
  capability %s requested but missing from bounding set, suppressing automatically.'), and a capability word systemd
  drops without a word ('+CAP_X', 'CAP_A,CAP_B', a '~' after the first word).
- systemd-bad-value, widened: path_simplify_and_warn's 'not normalized' / 'can't be 'private'' / 'invalid length'
  refusals, and config_parse_unit_slice's 'Failed to load slice unit' / 'Failed to assign slice'.
- statement.toml: a security table row is no statement of a cause (fresh-287's healthy unit was answered with its
  '✗ DeviceAllow=  Service has no device ACL' row).
Every verify and security line below was printed by this machine's systemd 252 on a unit built as
tools/doctor_corpus_fresh287.py builds one (other directives and values than the corpus logs'), unless marked rendered
(a format string of the source filled in by hand).
"""

from __future__ import annotations

from servebox.doctor.listed import covers
from tests.doctor_text import family_tests, run

ROOT = "/tmp/learn40b/root/etc/systemd/system"
HEAD = (
    "  NAME                                                        DESCRIPTION"
    "                                                        EXPOSURE\n"
)


def unit(lines: str, dropin: str = "", name: str = "llama-swap.service") -> str:
    """`$ cat` of a unit (and its drop-in) as the corpus logs show it."""
    text = f"$ cat /etc/systemd/system/{name}\n[Service]\nType=simple\nUser=llama\n{lines}\nExecStart=/usr/local/bin/llama-swap\n"
    if dropin:
        text += f"$ cat /etc/systemd/system/{name}.d/override.conf\n[Service]\n{dropin}\n"
    return text


def verify(out: str = "", name: str = "llama-swap.service") -> str:
    return f"$ systemd-analyze verify --man=no --root=/tmp/learn40b/root /etc/systemd/system/{name}\n{out}# exit: 0\n"


def security(rows: str, name: str = "llama-swap.service") -> str:
    return (
        f"$ systemd-analyze security --offline=yes --root=/tmp/learn40b/root /etc/systemd/system/{name}\n"
        + HEAD
        + rows
        + "✗ DeviceAllow=                                                Service has no device ACL"
        "                                               0.2\n"
        + "✗ PrivateNetwork=                                             Service has access to the host's network"
        "                                0.5\n"
        f"\n→ Overall exposure level for {name}: 7.8 EXPOSED 🙁\n# exit: 0\n"
    )


NICE_OUT = (
    "✓ CapabilityBoundingSet=~CAP_SYS_(NICE|RESOURCE)              Service has no privileges to change resource use"
    " parameters        \n"
)
NICE_IN = (
    "✗ CapabilityBoundingSet=~CAP_SYS_(NICE|RESOURCE)              Service has privileges to change resource use"
    " parameters                     0.1\n"
)
IPC_OUT = (
    "✓ CapabilityBoundingSet=~CAP_IPC_LOCK                         Service cannot lock memory into RAM\n"
)
IPC_OUT_ASCII = (
    "+ CapabilityBoundingSet=~CAP_IPC_LOCK                         Service cannot lock memory into RAM\n"
)
IPC_IN = "✗ CapabilityBoundingSet=~CAP_IPC_LOCK                         Service may lock memory into RAM      0.1\n"
BIND_IN = (
    "✗ CapabilityBoundingSet=~CAP_NET_(BIND_SERVICE|BROADCAST|RAW) Service has elevated networking privileges"
    "                              0.1\n"
)
AMBIENT = "✗ AmbientCapabilities=                                        Service process receives ambient capabilities  0.1\n"
NO_AMBIENT = "✓ AmbientCapabilities=                                        Service process does not receive ambient capabilities\n"


def deny(group: str, example: str) -> str:
    return (
        f"✗ SystemCallFilter=~{group:<43}System call deny list defined for service, and {group} is not included"
        f" (e.g. {example} is allowed)          0.2\n"
    )


def allow(group: str, included: bool = False, example: str = "chown") -> str:
    if included:
        return (
            f"✗ SystemCallFilter=~{group:<43}System call allow list defined for service, and {group} is included"
            f" (e.g. {example} is allowed)      0.2\n"
        )
    return f"✓ SystemCallFilter=~{group:<43}System call allow list defined for service, and {group} is not included\n"


CASES = [
    # AmbientCapabilities=CAP_NET_BIND_SERVICE CAP_SYS_NICE with CapabilityBoundingSet=CAP_NET_BIND_SERVICE: the nice
    # capability's row is a shorthand for two (systemd 252 here)
    (
        "systemd-setting-has-no-effect",
        unit(
            "CapabilityBoundingSet=CAP_NET_BIND_SERVICE\nAmbientCapabilities=CAP_NET_BIND_SERVICE CAP_SYS_NICE"
        )
        + verify()
        + security(AMBIENT + NICE_OUT + BIND_IN + IPC_OUT),
    ),
    # a drop-in's empty CapabilityBoundingSet= then AmbientCapabilities=CAP_IPC_LOCK (the condition's other value),
    # printed where the locale is not UTF-8 ('+' for the check mark)
    (
        "systemd-setting-has-no-effect",
        unit(
            "CapabilityBoundingSet=CAP_NET_BIND_SERVICE",
            "CapabilityBoundingSet=\nAmbientCapabilities=CAP_IPC_LOCK",
        )
        + verify()
        + security(AMBIENT.replace("✗", "-") + IPC_OUT_ASCII),
    ),
    # the exec-time debug line of capability_ambient_set_apply, as the journal shows it (rendered)
    (
        "systemd-setting-has-no-effect",
        "Dec 03 10:00:00 gpu-box systemd[1]: llama-swap.service: Ambient capability cap_ipc_lock requested but missing"
        " from bounding set, suppressing automatically.\n",
    ),
    # a comma list in one word and a '~' after the first word: capability_set_from_string skips them without a word
    (
        "systemd-setting-has-no-effect",
        unit("CapabilityBoundingSet=CAP_NET_BIND_SERVICE,CAP_IPC_LOCK")
        + verify()
        + security(IPC_OUT + NICE_OUT),
    ),
    (
        "systemd-setting-has-no-effect",
        unit("CapabilityBoundingSet=CAP_NET_BIND_SERVICE ~CAP_SYS_ADMIN")
        + verify()
        + security(BIND_IN + IPC_OUT),
    ),
    (
        "systemd-setting-has-no-effect",
        unit("AmbientCapabilities=+CAP_IPC_LOCK") + verify() + security(NO_AMBIENT),
    ),
    # one line with a '~' part: '@system-service ~@privileged @resources' (vllm.service here) and '... ~ @privileged'
    (
        "systemd-syscall-filter-mixed-lists",
        unit("SystemCallFilter=@system-service ~@privileged @resources", name="vllm.service")
        + verify(
            f"{ROOT}/vllm.service:10: Failed to parse system call, ignoring: ~@privileged\n", "vllm.service"
        )
        + security(allow("@privileged", True) + allow("@resources", True, "ioprio_set"), "vllm.service"),
    ),
    (
        "systemd-syscall-filter-mixed-lists",
        unit("SystemCallFilter=@system-service ~ @privileged")
        + verify(f"{ROOT}/llama-swap.service:10: Failed to parse system call, ignoring: ~\n")
        + security(allow("@privileged", True) + allow("@mount", True, "chroot")),
    ),
    # the deny line in the unit, the allow line in a drop-in, ASCII glyphs
    (
        "systemd-syscall-filter-mixed-lists",
        unit("SystemCallFilter=~@privileged", "SystemCallFilter=@system-service")
        + verify()
        + security((deny("@resources", "ioprio_set") + deny("@privileged", "chown")).replace("✗", "-")),
    ),
    # Slice= without its suffix, or a path: 'Failed to load slice unit %s, ignoring: %s'
    (
        "systemd-bad-value",
        unit("Slice=llm")
        + verify(
            f"{ROOT}/llama-swap.service:10: Failed to load slice unit llm, ignoring: Unit name llm is not valid.\n"
        ),
    ),
    (
        "systemd-bad-value",
        unit("Slice=llm.slice.service")
        + verify(
            f"{ROOT}/llama-swap.service:10: Failed to assign slice llm.slice.service to unit llama-swap.service,"
            " ignoring: Invalid argument\n"
        ),
    ),
    # an exec directory that climbs out, one given as a path, one named 'private'
    (
        "systemd-bad-value",
        unit("DynamicUser=yes\nStateDirectory=llama/../models")
        + verify(
            f"{ROOT}/llama-swap.service:9: StateDirectory= path is not normalized, ignoring: llama/../models\n"
        ),
    ),
    (
        "systemd-bad-value",
        unit("BindPaths=/opt/../models:/models")
        + verify(
            f"{ROOT}/llama-swap.service:10: BindPaths= path is not normalized, ignoring: /opt/../models\n"
        ),
    ),
    (
        "systemd-bad-value",
        unit("DynamicUser=yes\nLogsDirectory=private")
        + verify(
            f"{ROOT}/llama-swap.service:9: LogsDirectory= path can't be 'private', ignoring assignment: private\n"
        ),
    ),
    # path_simplify_and_warn's length refusal (rendered from '%s= path has invalid length (%zu bytes)%s.')
    (
        "systemd-bad-value",
        f"{ROOT}/llama-swap.service:11: ReadWritePaths= path has invalid length (5012 bytes), ignoring.\n",
    ),
]

NEAR_MISSES = [
    # the canonical narrow unit: its ambient capability is in the bounding set; the other capability rows are ✓
    (
        "systemd-setting-has-no-effect",
        unit("CapabilityBoundingSet=CAP_NET_BIND_SERVICE\nAmbientCapabilities=CAP_NET_BIND_SERVICE")
        + verify()
        + security(AMBIENT + NICE_OUT + BIND_IN + IPC_OUT),
    ),
    # the right order: the allow list first, '~' on the later line
    (
        "systemd-syscall-filter-mixed-lists",
        unit("SystemCallFilter=@system-service\nSystemCallFilter=~@privileged @resources")
        + verify()
        + security(allow("@resources") + allow("@privileged") + allow("@mount")),
    ),
    # a deny list alone is a choice: security lists what it leaves out, nothing contradicts it
    (
        "systemd-syscall-filter-mixed-lists",
        unit("SystemCallFilter=~@mount") + verify() + security(deny("@privileged", "chown")),
    ),
    # a plain capability list with the capability in it
    (
        "systemd-setting-has-no-effect",
        unit("CapabilityBoundingSet=CAP_IPC_LOCK") + verify() + security(IPC_IN),
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_a_healthy_units_security_table_states_no_cause():
    """fresh-287's other healthy draw (unit '~AF_PACKET', drop-in 'AF_UNIX AF_INET AF_INET6'): a unit whose lines say
    'Restart=on-failure' and whose table is all exposure rows has no answer, not a quoted row."""
    log = (
        unit(
            "RestrictAddressFamilies=~AF_PACKET\nRestart=on-failure",
            "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6",
        )
        + verify()
        + security(
            "✓ RestrictAddressFamilies=~AF_PACKET                          Service cannot allocate packet sockets\n"
            "✗ RestrictAddressFamilies=~AF_NETLINK                         Service may allocate netlink sockets     0.1\n"
            "✓ NotifyAccess=                                               Service child processes cannot alter service state\n"
        )
    )
    assert run(log).diagnoses == []


def test_a_shorthand_row_covers_the_capabilities_it_stands_for():
    assert covers("CAP_SYS_(NICE|RESOURCE)", "CAP_SYS_NICE") and covers(
        "CAP_SYS_(NICE|RESOURCE)", "cap_sys_resource"
    )
    assert covers("CAP_(DAC_*|FOWNER|IPC_OWNER)", "CAP_DAC_OVERRIDE") and covers(
        "CAP_AUDIT_*", "CAP_AUDIT_WRITE"
    )
    assert covers("CAP_IPC_LOCK", "cap_ipc_lock")
    assert not covers("CAP_SYS_(NICE|RESOURCE)", "CAP_SYS_ADMIN") and not covers(
        "CAP_IPC_LOCK", "CAP_IPC_OWNER"
    )
