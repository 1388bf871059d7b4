"""What fresh-389's fresh389-vllm-api-server-sigkill-during-traffic taught learn46b: a vLLM API server killed with
SIGKILL mid-traffic writes nothing (no shutdown lines, as a stop writes; no traceback, as a crash writes); what says
it was killed is the exit Python reports for it, -9 (subprocess's returncode, a wrapper's 'exit: -9', multiprocessing's
'exitcode=-SIGKILL'), with a client then refused: engine-killed-from-outside. The number alone, with no client finding
the server gone, is also a harness's teardown (fresh-369's sigstop-enginecore log): not this cause. CalledProcessError's
'died with <Signals.SIGKILL: 9>' is a caller that waited for the command to finish: read as bash's 'Killed' is.

Journals are written for the tests from vLLM 0.32's own formats (uvicorn's access line, launcher.py's shutdown lines),
Python's own (subprocess.CalledProcessError's 'Command ... died with <Signals.SIGKILL: 9>.', asyncio's
'returncode=-9', multiprocessing's Process repr 'exitcode=-SIGKILL') and httpx's refusal, with other figures, paths
and models than the corpus's log (rendered, not copied).
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause
from tests.test_doctor_learn45f_families import OK, START, STOP

KILLED = "engine-killed-from-outside"
REFUSED = (
    "# request: POST http://127.0.0.1:8001/v1/completions\n"
    "httpx.ConnectError: [Errno 111] Connection refused\n"
)


def serving(n: int = 120) -> str:
    return START + "".join(OK.format(port=40000 + i) for i in range(n))


def ended(exit_line: str, after: str = REFUSED) -> str:
    return serving() + exit_line + "\n" + after


CASES = [
    (KILLED, ended("# exit: -9")),
    (KILLED, ended("supervisor: vllm serve exited, returncode=-9")),
    (KILLED, ended("<_UnixSubprocessTransport pid=4100 returncode=-9>")),
    (KILLED, ended("<Process name='vllm-api' pid=4100 parent=1 stopped exitcode=-SIGKILL>")),
    (KILLED, ended("ERROR:root:vllm exited with exit code -9; restarting in 5 s")),
    (
        KILLED,
        serving()
        + "subprocess.CalledProcessError: Command '['vllm', 'serve', '/srv/models/qwen2.5-1.5b']' died with"
        " <Signals.SIGKILL: 9>.\n",
    ),
]
NEAR_MISSES = [
    # the -9 with no client finding the server gone: a harness's teardown of a finished run
    (KILLED, ended("# exit: -9", after="# request: GET http://127.0.0.1:8001/health\nHTTP/1.1 200 OK\n")),
    # an orderly stop (SIGTERM: -15) the server wrote its own lines for, then refused: not a kill
    (KILLED, serving() + STOP + "# exit: -15\n" + REFUSED),
    # another number that only starts with 9
    (KILLED, ended("worker: exit code -90")),
]

test_cases, test_near_misses = family_tests(CASES, NEAR_MISSES)


def test_near_misses_are_not_the_kill_at_all():
    # the family answers at 0.65, under the confident line: the near misses must not name it at all
    for _, log in NEAR_MISSES:
        top = top_cause(run(log))
        assert top is None or top.id != KILLED, (top.id, log[-200:])


def test_the_kernel_oom_line_makes_the_same_exit_host_oom_kill():
    oom = "kernel: Out of memory: Killed process 4100 (python3) total-vm:24000000kB, anon-rss:20000000kB\n"
    top = top_cause(run(serving() + oom + "# exit: -9\n" + REFUSED))
    assert top is not None and top.id == "host-oom-kill", top and top.id


def test_an_orderly_stop_is_still_a_stop():
    top = top_cause(run(serving() + STOP + "# exit: 0\n" + REFUSED))
    assert top is None or top.id != KILLED
