"""Engines die with servebox, however servebox ends (SIGKILL and OOM included).

The kernel's parent-death signal (PR_SET_PDEATHSIG) is the only mechanism that also covers SIGKILL,
and it has two limits: it fires when the *thread* that forked the child ends (so every engine is
forked from one thread that lives as long as the supervisor), and it reaches only that child, not
the processes the engine starts itself (vLLM's EngineCore and workers outlived a killed API server,
measured). So beside each engine runs a reaper: a few lines of Python, with its own parent-death
signal, that kills the engine's whole process group when servebox goes, and exits when the group does.
"""

from __future__ import annotations

import ctypes
import os
import queue
import signal
import subprocess
import sys
import threading
from concurrent.futures import Future

PR_SET_PDEATHSIG = 1
_PRCTL = ctypes.CDLL(None, use_errno=True).prctl  # resolved here: no dlopen in a forked child

# argv: the engine's process group, servebox's pid. The handler is installed before the parent-death
# signal is asked for, and the parent checked after: no window where servebox's death goes unseen.
REAPER = """
import ctypes, os, signal, sys, time
group, parent = int(sys.argv[1]), int(sys.argv[2])
def reap(*_):
    for sig in (signal.SIGCONT, signal.SIGKILL):
        try:
            os.killpg(group, sig)
        except (ProcessLookupError, PermissionError):
            break
    os._exit(0)
signal.signal(signal.SIGTERM, reap)
ctypes.CDLL(None).prctl(1, signal.SIGTERM, 0, 0, 0)
if os.getppid() != parent:
    reap()
while True:
    time.sleep(2)
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        os._exit(0)
"""


def die_with_parent() -> None:  # runs in the child between fork and exec: no imports, no locks
    _PRCTL(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


class Spawner:
    """Forks engines (and their reapers) from one thread that lives as long as the supervisor."""

    def __init__(self) -> None:
        self.jobs: queue.Queue = queue.Queue()
        self.thread: threading.Thread | None = None  # started on the first spawn
        self.lock = threading.Lock()

    def _run(self) -> None:
        while True:
            job = self.jobs.get()
            if job is None:
                return
            future, argv, kwargs = job
            try:
                future.set_result(self._spawn(argv, kwargs))
            except BaseException as exc:  # handed to the caller
                future.set_exception(exc)

    @staticmethod
    def _spawn(argv: list[str], kwargs: dict) -> subprocess.Popen:
        engine = subprocess.Popen(argv, preexec_fn=die_with_parent, start_new_session=True, **kwargs)
        subprocess.Popen(
            [sys.executable, "-c", REAPER, str(engine.pid), str(os.getpid())],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # not in the engine's group, nor in a terminal's Ctrl-C
        )
        return engine

    def engine(self, argv: list[str], **kwargs) -> subprocess.Popen:
        """Start ARGV as the leader of a new process group that dies with this process."""
        with self.lock:
            if self.thread is None:
                self.thread = threading.Thread(target=self._run, name="servebox-spawner", daemon=True)
                self.thread.start()
        future: Future = Future()
        self.jobs.put((future, argv, kwargs))
        return future.result()

    def close(self) -> None:
        """End the thread: the reapers see it and end every engine group still running."""
        with self.lock:
            if self.thread is not None:
                self.jobs.put(None)
                self.thread = None
