"""What the scored batch fresh-236 (service units a user writes by hand, 2nd round: the .socket, .mount, tmpfiles.d
and sysusers.d files beside an engine's unit) taught after scoring, with the neighbourhood of each miss in systemd
252's own tools on this machine (systemd-analyze verify --root, systemd-tmpfiles --create --root, systemd-sysusers
--dry-run --root).

- systemd-bad-value: load-fragment.c's checks of a unit name a setting gives (a socket's Service=, a path or timer
  unit's Unit=).
- socket-accept-needs-template-service: Accept=yes with no NAME@.service template (verify's '@internal' instance, the
  manager's 'not a template unit?'), Accept=yes beside Service=.
- systemd-unit-not-found: a socket with no service of its own name (Accept=no).
- mount-unit-name-not-escaped: a mount / automount unit whose name is not its escaped Where=.
- tmpfiles-line-invalid, sysusers-line-invalid: the tools' refusals of a line.
Messages marked 'rendered' are the source's format string filled with a value; the others are as a run here printed
them (the root's path cut).
"""

from __future__ import annotations

from tests.doctor_text import family_tests

VERIFY = "$ /usr/bin/systemd-analyze verify --man=no --root=/tmp/r /etc/systemd/system/{unit}\n"
TMPFILES = (
    "$ /usr/bin/systemd-tmpfiles --create --root=/tmp/r models.conf\n/tmp/r/etc/tmpfiles.d/models.conf:1: "
)
SYSUSERS = "$ /usr/bin/systemd-sysusers --dry-run --root=/tmp/r llm.conf\n/tmp/r/etc/sysusers.d/llm.conf:1: "

CASES = [
    # a path and a timer unit's Unit= without a type suffix, a path unit triggering itself, a socket's Service= naming
    # a socket
    (
        "systemd-bad-value",
        VERIFY.format(unit="models.path")
        + "/etc/systemd/system/models.path:3: Unit type not valid, ignoring: m\n"
        "# exit: 0\n",
    ),
    ("systemd-bad-value", "/etc/systemd/system/warm.timer:3: Unit type not valid, ignoring: warm\n"),
    (
        "systemd-bad-value",
        "/etc/systemd/system/m.path:3: Units cannot trigger themselves, ignoring: m.path\n",
    ),
    (
        "systemd-bad-value",
        "/etc/systemd/system/m.socket:3: Unit must be of type service, ignoring: m.socket\n",
    ),
    # rendered: a service's Sockets= naming a service
    (
        "systemd-bad-value",
        "/etc/systemd/system/vllm.service:8: Unit must be of type socket, ignoring: vllm.service\n",
    ),
    # Accept=yes beside Service= (run here)
    (
        "socket-accept-needs-template-service",
        VERIFY.format(unit="m.socket")
        + "m.socket: Explicit service configuration for accepting socket units not supported. Refusing.\n"
        "Unit m.socket has a bad unit file setting.\n# exit: 1\n",
    ),
    # rendered: the manager at a connection (socket.c socket_enter_running, the instance 'N-LOCAL-REMOTE')
    (
        "socket-accept-needs-template-service",
        "Dec 05 13:00:01 gpu1 systemd[1]: llama.socket: Failed to queue service startup job (Maybe the service file "
        "is missing or not a template unit?): Unit llama@3-127.0.0.1:8080-127.0.0.1:51234.service not found.\n",
    ),
    # a socket with no service of its own name (run here), and socket_start's refusal (rendered)
    (
        "systemd-unit-not-found",
        VERIFY.format(unit="x.socket")
        + "x.socket: service x.service not loaded, socket cannot be started.\n# exit: 1\n",
    ),
    (
        "systemd-unit-not-found",
        "systemd[1]: llama.socket: Socket service llama.service not loaded, refusing.\n",
    ),
    # a mount named for another path and an automount (run here), the journal's form (rendered)
    (
        "mount-unit-name-not-escaped",
        VERIFY.format(unit="models.mount")
        + "models.mount: Where= setting doesn't match unit name. Refusing.\n"
        "Unit models.mount has a bad unit file setting.\n# exit: 1\n",
    ),
    (
        "mount-unit-name-not-escaped",
        "models.automount: Where= setting doesn't match unit name. Refusing.\n"
        "models.mount: Where= setting doesn't match unit name. Refusing.\n"
        "Unit models.automount has a bad unit file setting.\n",
    ),
    (
        "mount-unit-name-not-escaped",
        "systemd[1]: srv-llm-models.mount: Where= setting doesn't match unit name. Refusing.\n"
        "systemd[1]: Dependency failed for vllm.service - vLLM.\n",
    ),
    # tmpfiles.d refusals (run here)
    ("tmpfiles-line-invalid", TMPFILES + "Invalid age '30x'.\n# exit: 65\n"),
    ("tmpfiles-line-invalid", TMPFILES + "Invalid age-by ''.\n# exit: 65\n"),
    ("tmpfiles-line-invalid", TMPFILES + "Failed to resolve user 'llamauser': No such process\n# exit: 65\n"),
    ("tmpfiles-line-invalid", TMPFILES + "Failed to resolve group 'nogroupxx'.\n# exit: 65\n"),
    ("tmpfiles-line-invalid", TMPFILES + "Unknown command type 'Y'.\n# exit: 65\n"),
    ("tmpfiles-line-invalid", TMPFILES + "Unknown modifiers in command 'X9'\n# exit: 65\n"),
    ("tmpfiles-line-invalid", TMPFILES + "Path 'var/cache/m' not absolute.\n# exit: 65\n"),
    ("tmpfiles-line-invalid", TMPFILES + "Write file requires argument.\n# exit: 65\n"),
    ("tmpfiles-line-invalid", TMPFILES + "Syntax error.\n# exit: 65\n"),
    ("tmpfiles-line-invalid", TMPFILES + "Failed to parse line: Invalid argument\n# exit: 65\n"),
    ("tmpfiles-line-invalid", TMPFILES + "d lines don't take argument fields, ignoring.\n# exit: 0\n"),
    # sysusers.d refusals (run here)
    ("sysusers-line-invalid", SYSUSERS + "'Llama.Server' is not a valid user or group name.\n# exit: 1\n"),
    ("sysusers-line-invalid", SYSUSERS + "Failed to parse UID: 'abc': Invalid argument\n# exit: 1\n"),
    ("sysusers-line-invalid", SYSUSERS + "'opt/llama' is not a valid home directory field.\n# exit: 1\n"),
    ("sysusers-line-invalid", SYSUSERS + "'x:y' is not a valid GECOS field.\n# exit: 1\n"),
    (
        "sysusers-line-invalid",
        SYSUSERS + "Lines of type 'm' require a group name in the third field.\n# exit: 1\n",
    ),
    ("sysusers-line-invalid", SYSUSERS + "Invalid UID range 500-.\n# exit: 1\n"),
    ("sysusers-line-invalid", SYSUSERS + "Unknown command type 'x'.\n# exit: 1\n"),
    ("sysusers-line-invalid", SYSUSERS + "Syntax error.\n# exit: 1\n"),
    ("sysusers-line-invalid", SYSUSERS + "Trailing garbage.\n# exit: 1\n"),
    ("sysusers-line-invalid", "(argument):1: 'llama:x' is not a valid user or group name.\n"),
]

NEAR_MISSES = [
    # a plain service not loaded (Accept=no) is not the template's; nor a templated socket's own instance
    (
        "socket-accept-needs-template-service",
        "x.socket: service x.service not loaded, socket cannot be started.\n",
    ),
    (
        "socket-accept-needs-template-service",
        "llama@a.socket: service llama@a.service not loaded, socket cannot be started.\n",
    ),
    # Accept=yes on a datagram socket: another refusal (run here)
    (
        "socket-accept-needs-template-service",
        "m.socket: Unit configured for accepting sockets, but sockets are non-accepting. Refusing.\n"
        "Unit m.socket has a bad unit file setting.\n",
    ),
    # other refusals of a mount / path unit (the first rendered from mount.c, the second run here)
    ("mount-unit-name-not-escaped", "models.mount: What= setting is missing. Refusing.\n"),
    (
        "mount-unit-name-not-escaped",
        "m.path: Path unit lacks path setting. Refusing.\nUnit m.path has a bad unit file setting.\n",
    ),
    # the wordings tmpfiles and sysusers share belong to the tool whose folder the file is in
    ("tmpfiles-line-invalid", SYSUSERS + "Unknown command type 'x'.\n"),
    ("sysusers-line-invalid", TMPFILES + "Syntax error.\n"),
    # a unit's own value refusal stays systemd-bad-value's
    (
        "tmpfiles-line-invalid",
        "/etc/systemd/system/vllm.service:9: Invalid memory limit 'nanG', ignoring: Invalid argument\n",
    ),
    (
        "sysusers-line-invalid",
        "/etc/systemd/system/vllm.service.d/override.conf:2: Failed to parse UMask= value, ignoring: 999\n",
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)
