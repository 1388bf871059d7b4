"""What the measured batch fresh-419 (a llama-server journal, b11434) taught after scoring, with its neighbourhood.

- host-oom-kill (widened): a SIGKILL report with no kernel OOM line counts where the log shows a memory limit SET on the
  process (fresh419-llama-cgroup-memory-limit-far-below-usage: `echo 0 > .../memory.limit_in_bytes`, then the wrapper's
  '# exit status: 137 (killed by signal SIGKILL)'): cgroup v2's memory.max, systemctl set-property MemoryMax=, docker
  --memory, and the other SIGKILL wordings (bash's 'Killed', Python's -9, Go's 'signal: killed', systemd's 9/KILL).
- client-read-timeout over engine-killed-from-outside (kill_after_hang.py): a kill after the clients' reads timed out
  and none found the server gone is the clean-up of a stopped or hung server
  (fresh419-llama-sigstop-never-continued-clients-time-out), for httpx's, requests' and curl's timeouts.
The limit commands are rendered as a user types them (the kernel's and tools' own file and property names); the kill
reports are the wrappers' and shells' wordings engine-killed-from-outside already reads.
"""

from __future__ import annotations

from tests.doctor_text import family_tests

START = (
    "$ llama-server -m /srv/models/qwen2.5-0.5b-q8_0.gguf --host 127.0.0.1 --port 8080 -c 4096\n"
    "main: server is listening on http://127.0.0.1:8080\n"
    "srv  update_slots: all slots are idle\n"
)
REFUSED = "# request: POST http://127.0.0.1:8080/v1/chat/completions\nConnectError: [Errno 111] Connection refused\n"


def served_then(limit: str, kill: str, after: str = REFUSED) -> str:
    """A server that served, a memory limit set on it, its death as reported, and what the client saw."""
    return f"{START}{limit}\n{kill}\n{after}"


def stopped_then(timeouts: str, kill: str) -> str:
    """A server that served, then nothing more from it, the clients' timeouts and a kill report (pasted order)."""
    return f"{START}{kill}\n{timeouts}"


HTTPX_TIMEOUT = (
    "# request: POST http://127.0.0.1:8080/v1/chat/completions\nReadTimeout: timed out\n"
    "# request: GET http://127.0.0.1:8080/health\nReadTimeout: timed out\n"
)
REQUESTS_TIMEOUT = (
    "requests.exceptions.ReadTimeout: HTTPConnectionPool(host='127.0.0.1', port=8080): Read timed out. "
    "(read timeout=30)\n"
)
CURL_TIMEOUT = "curl: (28) Operation timed out after 10001 milliseconds with 0 bytes received\n"

CASES = [
    # cgroup v2: memory.max written under the running server, bash's report of the job (rendered)
    (
        "host-oom-kill",
        served_then(
            "$ echo 64M > /sys/fs/cgroup/llama/memory.max",
            "bash: line 1:  4211 Killed                  llama-server -m /srv/models/qwen2.5-0.5b-q8_0.gguf",
        ),
    ),
    # systemctl set-property on the service, systemd's own report of the SIGKILL
    (
        "host-oom-kill",
        served_then(
            "$ sudo systemctl set-property llama-server.service MemoryMax=200M",
            "llama-server.service: Main process exited, code=killed, status=9/KILL",
        ),
    ),
    # cgroup v1 by tee, a Python wrapper's returncode
    (
        "host-oom-kill",
        served_then(
            "$ echo 100000000 | sudo tee /sys/fs/cgroup/memory/llama/memory.limit_in_bytes",
            "server exited: returncode=-9",
        ),
    ),
    # docker update of a running container, docker's exit code
    (
        "host-oom-kill",
        served_then("$ docker update --memory 256m --memory-swap 256m llama", "llama exited with code 137"),
    ),
    # the wrapper's wording of the corpus log, the limit line pasted after it (the harness appends its side last)
    (
        "host-oom-kill",
        served_then(
            "# exit status: 137 (killed by signal SIGKILL)",
            "$ echo 0 > /sys/fs/cgroup/memory/llama-server/memory.limit_in_bytes",
        ),
    ),
    # a stopped server: httpx's timeouts, then the wrapper's SIGKILL report
    ("client-read-timeout", stopped_then(HTTPX_TIMEOUT, "# exit status: 137 (killed by signal SIGKILL)")),
    # requests' timeout, bash's 'Killed'
    ("client-read-timeout", stopped_then(REQUESTS_TIMEOUT, "Killed")),
    # curl's whole-transfer limit, zsh's report of the job
    (
        "client-read-timeout",
        stopped_then(CURL_TIMEOUT, "zsh: killed     llama-server -m /srv/models/qwen2.5-0.5b-q8_0.gguf"),
    ),
]

KILL_TYPED_BESIDE_LIMIT = served_then(
    "$ echo 1500M > /sys/fs/cgroup/memory/llama/memory.limit_in_bytes\n$ kill -9 4211",
    "# exit status: 137 (killed by signal SIGKILL)",
)


NEAR_MISSES = [
    # a limit only read, not set, then a SIGKILL: no memory limit in view, the kill is from outside
    (
        "host-oom-kill",
        served_then(
            "$ cat /sys/fs/cgroup/memory/llama/memory.limit_in_bytes /sys/fs/cgroup/memory/llama/memory.max_usage_in_bytes",
            "# exit status: 137 (killed by signal SIGKILL)",
        ),
    ),
    # a container's header describing its limit (as a maker's note), no SIGKILL: it served and stopped
    (
        "host-oom-kill",
        "# container: docker run -m 32m: memory.limit_in_bytes = 33554432\n"
        f"{START}srv    operator(): operator(): cleaning up before exit...\n# exit status: 0\n",
    ),
    # a limit set, and the server stopped by SIGTERM (exit 143): no kill
    (
        "host-oom-kill",
        served_then(
            "$ echo 1500M > /sys/fs/cgroup/memory/llama/memory.limit_in_bytes",
            "# exit status: 143 (killed by signal SIGTERM)",
            "",
        ),
    ),
    # a memory limit set, but a kill -9 typed too: not host-oom-kill confidently
    ("host-oom-kill", KILL_TYPED_BESIDE_LIMIT),
    # a kill while the server was still wanted: timeouts, then the next request refused: the kill stays the cause
    (
        "client-read-timeout",
        stopped_then(HTTPX_TIMEOUT + REFUSED, "# exit status: 137 (killed by signal SIGKILL)"),
    ),
]


def test_a_kill_typed_beside_a_limit_is_not_read_as_the_limit():
    """A memory limit set and a kill -9 typed: the typed kill is the plainer reading, host-oom-kill only a guess."""
    from tests.doctor_text import run, top_cause

    result = run(KILL_TYPED_BESIDE_LIMIT)
    top = top_cause(result)
    oom = next(d for d in result.diagnoses if d.id == "host-oom-kill")
    assert top is not None and top.id == "engine-killed-from-outside", top and top.id
    assert oom.confidence < 0.7


def test_a_kill_while_wanted_stays_the_cause():
    """The sigstop rule's other side: a client then refused means the kill ended a server still wanted."""
    from tests.doctor_text import run, top_cause

    top = top_cause(
        run(stopped_then(HTTPX_TIMEOUT + REFUSED, "# exit status: 137 (killed by signal SIGKILL)"))
    )
    assert top is not None and top.id == "engine-killed-from-outside", top and top.id


test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)
