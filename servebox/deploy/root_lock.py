"""One `provision` at a time per install root: an exclusive fcntl lock on `ROOT/.servebox-provision.lock`.

Two runs at once used to share the `.building` directory (tracebacks) or each record the venv they saw
as "previous" (rollback lost the real one). The kernel releases an flock when its holder exits, even
on SIGKILL, so a stale lock is impossible; the file itself is never removed (removing it would let two
holders lock two different files). The holder writes its pid and start time into it for the message
a waiting or refused run prints.
"""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from servebox.errors import InputError

LOCK_NAME = ".servebox-provision.lock"


class RootBusy(InputError):
    """Another provision holds this install root and the caller would not wait (longer): exit 1."""

    exit_code = 1


def _holder(fd: int) -> str:
    try:
        return os.pread(fd, 200, 0).decode(errors="replace").strip() or "another process"
    except OSError:
        return "another process"


@contextmanager
def install_root_lock(
    root: Path, wait_s: float, on_wait: Callable[[str], None] | None = None
) -> Iterator[Path]:
    """Hold ROOT's provision lock for the block; wait up to WAIT_S seconds for it (0: refuse at once)."""
    path = root / LOCK_NAME
    try:
        root.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise InputError(str(path), None, f"cannot create the install root's lock: {exc.strerror}") from None
    try:
        deadline = time.monotonic() + wait_s
        told = False
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                holder = _holder(fd)
                if time.monotonic() >= deadline:
                    waited = f" after waiting {wait_s:g} s" if wait_s else ""
                    raise RootBusy(
                        str(path), None, f"another provision holds this install root ({holder}){waited}"
                    ) from None
                if on_wait and not told:
                    on_wait(f"waiting for {path} ({holder})")
                    told = True
                time.sleep(0.2)
        stamp = datetime.now(UTC).isoformat(timespec="seconds")
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"pid {os.getpid()} since {stamp}\n".encode(), 0)
        yield path
    finally:
        os.close(fd)  # closing the descriptor releases the flock
