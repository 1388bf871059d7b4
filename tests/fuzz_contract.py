"""The contract every verb keeps on hostile input, checked by the property-based fuzz suites
(tests/test_fuzz_*.py): exit 0/1 for input it accepts, else exit 2 with one line naming the file
(and the field, or the position, unless the whole file is the problem), no traceback, under 10 s,
and no file created or removed outside the declared output."""

from __future__ import annotations

import io
import os
import sys
import time
from collections import Counter
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

TRIED: Counter[str] = Counter()
OUTCOMES: Counter[tuple[str, int]] = Counter()
MAX_SECONDS = 10.0  # CPU seconds of this process (time.process_time): the bound is on the work, which a busy CI machine cannot stretch
# Errors about a whole file, where no field can be named.
WHOLE_FILE = (
    "not UTF-8",
    "malformed TOML",
    "larger than",
    "nested deeper",
    "nested too deep",
    "must hold a JSON object",
    "not a regular file",
    "header length",
    "cannot read",
)
EXAMPLES = int(os.environ.get("SERVEBOX_FUZZ_EXAMPLES", "0")) or None


def examples(default: int) -> int:
    return EXAMPLES or default


def snapshot(root: Path, skip: Path | None = None) -> dict[str, int]:
    out = {}
    for path in root.rglob("*"):
        if skip is not None and (path == skip or skip in path.parents):
            continue
        out[str(path.relative_to(root))] = path.lstat().st_size if not path.is_dir() else -1
    return out


def run_verb(verb: str, *args: str) -> tuple[int, str, str, float]:
    """The CLI in-process (as tests/conftest.py's run_cli), returning code, stdout, stderr, seconds."""
    from servebox.cli import main

    argv, sys.argv = sys.argv, ["servebox", verb, *map(str, args)]
    stdout, stderr = io.StringIO(), io.StringIO()
    start = time.process_time()
    code = 0
    try:
        with redirect_stdout(stdout), redirect_stderr(stderr):
            main()
    except SystemExit as exc:
        code = exc.code or 0
    finally:
        sys.argv = argv
    return code, stdout.getvalue(), stderr.getvalue(), time.process_time() - start


def assert_contract(
    label: str, root: Path, verb: str, args: list[str], file_name: str, out: Path | None = None
) -> int:
    """Run VERB on a hostile input under ROOT and check the contract; returns the exit code."""
    before = snapshot(root, skip=out)
    code, stdout, stderr, took = run_verb(verb, *args)
    TRIED[label] += 1
    OUTCOMES[(label, code)] += 1
    assert took < MAX_SECONDS, f"{label}: {took:.1f} s"
    assert "Traceback" not in stderr + stdout, stderr[-2000:]
    assert snapshot(root, skip=out) == before, f"{label}: files created or removed outside the output"
    assert code in (0, 1, 2), (code, stderr[-500:])
    if code == 2:
        lines = stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("servebox: error: "), stderr[-1000:]
        line = lines[0]
        assert file_name in line, f"{label}: the file is not named: {line}"
        rest = line.split(file_name, 1)[1]
        assert rest.count(": ") >= 2 or any(w in rest for w in WHOLE_FILE), f"{label}: no field named: {line}"
        if out is not None:
            assert not out.exists(), f"{label}: bad input, yet {out} was written"
    return code


def report(*labels: str) -> str:
    lines = ["fuzz inputs tried per verb (exit code: count):"]
    for label, n in sorted(TRIED.items()):
        if labels and not label.endswith(labels):
            continue
        codes = ", ".join(f"{c}: {k}" for (lab, c), k in sorted(OUTCOMES.items()) if lab == label)
        lines.append(f"  {label:28} {n:5}   ({codes})")
    return "\n".join(lines)
