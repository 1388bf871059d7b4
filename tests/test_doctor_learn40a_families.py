"""What the scored batch fresh-286 (things that happen to a running llama-server b11434) taught after scoring, with the
neighbourhood of its signal cases: llama-server's tools/server/server.cpp handles SIGINT and SIGTERM only and ignores
SIGPIPE, so SIGQUIT, SIGUSR1/2, SIGHUP and SIGALRM keep their default action (terminate, no line of its own).

- engine-killed-from-outside (widened): such a death where nothing printed the signal's name, only its number as the
  wrapper or supervisor reports it: a shell's 128 + N exit status (129, 131, 138, 140, 142, 154, 155), docker's
  'exited with code N', kubectl's 'Exit Code: N', Go's os.ProcessState ('signal: quit (core dumped)'), Python's
  'died with <Signals.SIGUSR2: 12>' and returncode -N, systemd's 'code=killed, status=10/USR1'.
- request-longer-than-context (afterwards.cut_at_context, unchanged): a signal that changed nothing, mid-generation,
  while the request asked for more tokens than the slot holds: the cut at the slot's end is the answer (fresh-286's
  sigquit case, adjudicated, as fresh-180/184 read the same shape).
Logs marked "measured" were run here with the real llama-server b11434 (.llama-cpp/bin) and the tiny GGUF, under
`bash -c 'llama-server ...; echo "exit status $?"'` with default signal dispositions, the signal sent after /health,
and bash's own 'line 1: PID NAME' line left out (as a wrapper that keeps only the status shows it); the others are
rendered from the format strings named beside them.
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

START = (
    "$ bash -c 'llama-server -m /srv/models/qwen2.5-0.5b-q8_0.gguf --host 127.0.0.1 --port 8080 -c 512; "
    'echo "exit status $?"\'\n'
    "0.00.001.354 I srv  llama_server: initializing ...\n"
    "0.00.013.538 I srv    load_model: loading model '/srv/models/qwen2.5-0.5b-q8_0.gguf'\n"
    "0.00.348.341 I srv    load_model: initializing, n_slots = 4, n_ctx_slot = 512, kv_unified = 'true'\n"
    "0.00.350.991 I srv  llama_server: model loaded\n"
    "0.00.350.996 I srv  llama_server: listening on http://127.0.0.1:8080\n"
)


def died(line: str) -> str:
    return f"{START}{line}\n"


SWAP = "[INFO] <qwen> Health check passed on http://localhost:5800/health\n"
UNIT = "Dec 05 10:00:00 box systemd[1]: Started llama-server.service - llama.cpp server.\n"

CASES = [
    # measured: kill -QUIT, -USR1, -USR2, -HUP, -ALRM after /health; bash's status line only
    ("engine-killed-from-outside", died("exit status 131")),
    ("engine-killed-from-outside", died("exit status 138")),
    ("engine-killed-from-outside", died("exit status 140")),
    ("engine-killed-from-outside", died("exit status 129")),
    ("engine-killed-from-outside", died("exit status 142")),
    # docker compose's 'SERVICE exited with code N' and kubectl describe's 'Exit Code:' (SIGVTALRM, SIGPROF: 154, 155)
    ("engine-killed-from-outside", died("llama-server-1 exited with code 131")),
    (
        "engine-killed-from-outside",
        died("    Last State:     Terminated\n      Reason:       Error\n      Exit Code:    155"),
    ),
    # Go's os.ProcessState.String() ('signal: ' + the lower-case siglist name, ' (core dumped)'), as llama-swap's
    # process.go and Ollama's scheduler relay a child's death (rendered)
    (
        "engine-killed-from-outside",
        SWAP + "[DEBUG] <qwen> cmd.Wait() returned error: signal: quit (core dumped)\n",
    ),
    ("engine-killed-from-outside", SWAP + "[WARN] <qwen> ExitError >> exit status 140, exit code: 140\n"),
    (
        "engine-killed-from-outside",
        'time=2025-01-10T10:00:05.000Z level=ERROR source=sched.go:455 msg="error loading llama server" '
        'error="llama runner process has terminated: signal: user defined signal 1"\n',
    ),
    # Python's subprocess (CalledProcessError.__str__ for a negative returncode) and a returncode printed as a number
    (
        "engine-killed-from-outside",
        'Traceback (most recent call last):\n  File "/opt/run.py", line 12, in <module>\n'
        '    subprocess.run(["llama-server", "-m", "m.gguf"], check=True)\n'
        "subprocess.CalledProcessError: Command '['llama-server', '-m', 'm.gguf']' died with <Signals.SIGUSR2: 12>.\n",
    ),
    ("engine-killed-from-outside", died("llama-server stopped: returncode -3")),
    # systemd 252's 'Main process exited, code=%s, status=%i/%s' for a signal no unit's stop sends
    (
        "engine-killed-from-outside",
        UNIT
        + "Dec 05 10:00:30 box systemd[1]: llama-server.service: Main process exited, code=killed, status=12/USR2\n"
        "Dec 05 10:00:30 box systemd[1]: llama-server.service: Failed with result 'signal'.\n",
    ),
    # a SIGWINCH / ignored SIGQUIT mid-generation changes nothing; a request asking 1000 new tokens of a 256-token slot
    # is cut at the slot's end ('truncated = 1' at n_ctx_slot - 1), as fresh-286's sigquit case (rendered numbers)
    (
        "request-longer-than-context",
        "$ llama-server -m /srv/models/m.gguf --port 8080 -c 256 -np 1\n"
        "0.00.348.341 I srv    load_model: initializing, n_slots = 1, n_ctx_slot = 256, kv_unified = 'false'\n"
        "0.00.350.996 I srv  llama_server: listening on http://127.0.0.1:8080\n"
        "0.02.182.248 I slot launch_slot_: id  0 | task 0 | processing task, is_child = 0\n"
        "0.09.585.493 I slot      release: id  0 | task 0 | stop processing: n_tokens = 255, truncated = 1\n"
        '# request: POST http://127.0.0.1:8080/completion {"prompt": "Once upon a time", "n_predict": 1000, '
        '"ignore_eos": true, "stream": true}\nHTTP/1.1 200 OK\n',
    ),
]

NEAR_MISSES = [
    # SIGINT's 130 and SIGTERM's 143 are asked-for stops; a longer number or an ordinary code is no signal
    ("engine-killed-from-outside", died("exit status 130")),
    ("engine-killed-from-outside", died("exit status 143")),
    ("engine-killed-from-outside", died("git exited with code 1290")),
    ("engine-killed-from-outside", died("Process exited with exit code -1")),
    # a unit whose stop sends SIGQUIT (KillSignal=SIGQUIT): the stop, not a kill from outside
    (
        "engine-killed-from-outside",
        "Dec 05 10:00:00 box systemd[1]: Stopping llama-server.service...\n"
        "Dec 05 10:00:30 box systemd[1]: llama-server.service: Main process exited, code=dumped, status=3/QUIT\n",
    ),
    # the same full slot for a request that set no limit: generating to the context is what it asked for
    (
        "request-longer-than-context",
        "$ llama-server -m /srv/models/m.gguf --port 8080 -c 256 -np 1\n"
        "0.00.348.341 I srv    load_model: initializing, n_slots = 1, n_ctx_slot = 256, kv_unified = 'false'\n"
        "0.09.585.493 I slot      release: id  0 | task 0 | stop processing: n_tokens = 255, truncated = 1\n"
        '# request: POST http://127.0.0.1:8080/completion {"prompt": "Once upon a time", "ignore_eos": true}\n'
        "HTTP/1.1 200 OK\n",
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_near_misses_are_not_named_at_all():
    """Stronger than not confident: none of the near misses gets the family as its first answer."""
    for family, log in NEAR_MISSES:
        top = top_cause(run(log))
        assert top is None or top.id != family, (family, top.id, log)
