"""Check rendered units with systemd's own tools.

- `systemd-analyze verify`: settings systemd rejects (it stays silent on unknown keys, so the
  renderer's own strict models matter too).
- `systemd-analyze security --offline=yes`: the exposure score of each unit.
- `systemd --test --system` (as an unprivileged user; systemd refuses test mode as root): systemd
  parses the unit and dumps each ExecStart's argv, which is how we know a JSON argument survives.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

SYSTEMD_BINARY = "/lib/systemd/systemd"
EXPOSURE_RE = re.compile(r"Overall exposure level for (\S+):\s*([\d.]+)\s+(\S+)")


@dataclass
class UnitVerdict:
    unit: str
    verify_rc: int
    verify_output: str
    exposure: float | None
    exposure_label: str | None
    missing_here: list[
        str
    ]  # binaries the unit runs that this machine lacks (expected when rendering for another host)
    reasons: list[str]  # verify's lines that failed the unit (its own wording), beyond the missing binaries


def verify_reasons(text: str) -> list[str]:
    """The lines of `systemd-analyze verify` that fail a rendered unit: every line but a missing binary's."""
    return [line.strip() for line in text.splitlines() if line.strip() and not MISSING_BINARY_RE.search(line)]


def have_systemd_tools() -> bool:
    return shutil.which("systemd-analyze") is not None


MISSING_BINARY_RE = re.compile(r"Command (\S+) is not executable: No such file or directory")


def verify_unit(path: Path) -> tuple[int, str, list[str], list[str]]:
    """verify's exit code, its output, the binaries missing on this machine and the lines that fail the unit. A unit
    whose only complaint is a missing binary is rendered for another host: that alone does not fail it."""
    proc = subprocess.run(
        ["systemd-analyze", "verify", str(path)], capture_output=True, text=True, timeout=60
    )
    text = (proc.stdout + proc.stderr).strip()
    missing = MISSING_BINARY_RE.findall(text)
    reasons = verify_reasons(text)
    # systemd "ignores" a bad setting with rc 0; for a rendered unit any such line is a failure
    rc = (proc.returncode or 1) if reasons else 0
    return rc, text, missing, reasons


def exposure(path: Path) -> tuple[float | None, str | None]:
    proc = subprocess.run(
        ["systemd-analyze", "security", "--offline=yes", "--no-pager", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    match = EXPOSURE_RE.search(proc.stdout + proc.stderr)
    return (float(match.group(2)), match.group(3)) if match else (None, None)


def executable_here(path: str) -> bool:
    """An executable file at `path` on this machine (a folder with its x bit is not one)."""
    return os.path.isfile(path) and os.access(path, os.X_OK)


def absent_programs(paths: list[str]) -> list[str]:
    """The absolute paths among `paths` that are no executable file here (a bare name is left to PATH at run time)."""
    return [p for p in paths if p.startswith("/") and not executable_here(p)]


def check_units(unit_dir: Path) -> list[UnitVerdict]:
    out = []
    for path in sorted(unit_dir.glob("*.service")):
        rc, text, missing, reasons = verify_unit(path)
        score, label = exposure(path)
        out.append(UnitVerdict(path.name, rc, text, score, label, missing, reasons))
    return out


def parsed_exec_start(unit_path: Path) -> list[str]:
    """ExecStart's argv as systemd itself parses it (before exec-time `$$` collapsing)."""
    with tempfile.TemporaryDirectory() as tmp:
        os.chmod(tmp, 0o755)
        shutil.copy(unit_path, Path(tmp) / unit_path.name)
        os.chmod(Path(tmp) / unit_path.name, 0o644)
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "SYSTEMD_UNIT_PATH": f"{tmp}:"}
        cmd = [
            SYSTEMD_BINARY,
            "--test",
            "--system",
            f"--unit={unit_path.name}",
            "--log-target=console",
            "--log-level=err",
        ]
        if os.geteuid() == 0:
            cmd = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *cmd]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=60, env=env)
    dump = proc.stdout
    start = dump.find(f"-> Unit {unit_path.name}:")
    if start < 0:
        raise RuntimeError(f"systemd --test did not dump {unit_path.name}: {proc.stderr.strip()[-300:]}")
    section = dump[start:]
    match = re.search(r"-> ExecStart:\s*\n\s*Command Line: (.*)", section)
    if not match:
        raise RuntimeError(f"no ExecStart in systemd's dump of {unit_path.name}")
    return split_dump_command_line(match.group(1))


def split_dump_command_line(line: str) -> list[str]:
    """Words of systemd's dump of a command line: bare words, or double-quoted words in which a
    backslash escapes the next character (systemd escapes \\, ", ` and $ this way)."""
    words, i = [], 0
    while i < len(line):
        if line[i] == " ":
            i += 1
            continue
        word = []
        if line[i] == '"':
            i += 1
            while i < len(line) and line[i] != '"':
                if line[i] == "\\" and i + 1 < len(line):
                    i += 1
                word.append(line[i])
                i += 1
            i += 1
        else:
            while i < len(line) and line[i] != " ":
                word.append(line[i])
                i += 1
        words.append("".join(word))
    return words
