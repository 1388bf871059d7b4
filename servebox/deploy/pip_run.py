"""Running pip for `provision` and `lock`: progress as it goes, and the whole error when it fails.

pip's last line alone ("error: subprocess-exited-with-error", "ERROR: ... do not match the hashes") is
a fragment; the user needs the block that names the package and the reason. Output is read line by
line (stdout and stderr together, the order pip wrote them), lines that mark progress are passed on,
and on failure the error block (from pip's first `ERROR:` line, else the last 40 lines) is raised
together with the path of the full log.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable
from pathlib import Path

from servebox.errors import InputError

Progress = Callable[[str], None]

# pip's lines that say where it is; everything else (download bars, "Requirement already satisfied") is noise
PROGRESS_RE = re.compile(
    r"^(Collecting|Processing|Installing collected|Successfully installed|Would install)"
)


class PipFailed(InputError):
    """pip exited non-zero: the environment will not work as locked (exit 1), with pip's whole error."""

    exit_code = 1

    def __init__(self, what: str, returncode: int, error_block: str, log_path: Path | None):
        self.error_block = error_block
        self.log_path = log_path
        where = f"; full log: {log_path}" if log_path else ""
        last = error_block.strip().splitlines()[-1] if error_block.strip() else "no output"
        super().__init__(what, None, f"failed with exit code {returncode}: {last}{where}")


def error_block(lines: list[str]) -> str:
    """From pip's first ERROR line to the end (the whole reason), or the last 40 lines if it printed none."""
    for i, line in enumerate(lines):
        if line.startswith("ERROR:") or line.startswith("error:"):
            return "\n".join(lines[i:])
    return "\n".join(lines[-40:])


def run_pip(cmd: list[str], what: str, progress: Progress | None = None, log_path: Path | None = None) -> str:
    """Run CMD, passing progress lines to PROGRESS; return the whole output, or raise PipFailed."""
    lines: list[str] = []
    with subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace", bufsize=1
    ) as proc:
        assert proc.stdout is not None
        for raw in proc.stdout:
            line = raw.rstrip("\n")
            lines.append(line)
            if progress and PROGRESS_RE.match(line):
                progress(line.strip())
        code = proc.wait()
    text = "\n".join(lines)
    if code != 0:
        raise PipFailed(what, code, error_block(lines), _kept(log_path, f"$ {' '.join(cmd)}\n{text}\n"))
    return text


def _kept(log_path: Path | None, text: str) -> Path | None:
    """The full log written to LOG_PATH, or None where it cannot be (the disk that made pip fail is often the one
    the log goes to: pip's own error must still reach the user, not an OSError of ours; fresh-296)."""
    if log_path is None:
        return None
    try:
        log_path.write_text(text)
    except OSError:
        return None
    return log_path
