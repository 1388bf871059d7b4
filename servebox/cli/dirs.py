"""Directory options (--state-dir, --result-dir, --dir): a path that cannot be a folder is the user's input error.

`servebox up --state-dir FILE` used to end in a FileExistsError traceback from mkdir (fresh-464); the project's
standard for bad input is one line naming the path and the option, exit 2, before anything is written or started.
"""

from __future__ import annotations

import stat
from pathlib import Path

from servebox.errors import InputError

_ADVICE = "point {flag} at a folder (or at a path that does not exist yet), or move that file away"


def usable_directory(path: Path, flag: str) -> Path:
    """PATH unchanged when it is a folder or could be made one (mkdir -p); else InputError naming PATH and FLAG.

    Only what makes the path impossible as a folder is refused here: a regular file (or a device, socket, pipe) at
    PATH, a file at one of the folders above it, a symbolic link to nothing. Permission and read-only errors are left
    to the step that writes, which names them in its own words."""
    try:
        mode = path.stat().st_mode
    except NotADirectoryError:
        _refuse(path, flag, "a part of the path above it is a file, not a directory")
    except FileNotFoundError:
        if path.is_symlink():
            _refuse(path, flag, "is a symbolic link to nothing, not a directory")
        return path
    except OSError:
        return path
    if stat.S_ISDIR(mode):
        return path
    kind = "a regular file" if stat.S_ISREG(mode) else "a device, socket or pipe"
    _refuse(path, flag, f"exists and is {kind}, not a directory")
    return path  # not reached: _refuse raises


def _refuse(path: Path, flag: str, what: str) -> None:
    raise InputError(str(path), flag, f"{what}: {_ADVICE.format(flag=flag)}")
