"""Shared test helpers: run the CLI in-process and capture its exit code, stdout and stderr."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"
CHECKPOINTS = FIXTURES / "checkpoints"


class Result:
    def __init__(self, code: int, out: str, err: str):
        self.code, self.out, self.err = code, out, err

    def json(self):
        return json.loads(self.out)


@pytest.fixture
def run_cli(capsys, monkeypatch):
    from servebox.cli import main

    def run(*args: str) -> Result:
        monkeypatch.setattr(sys, "argv", ["servebox", *map(str, args)])
        code = 0
        try:
            main()
        except SystemExit as exc:
            code = exc.code or 0
        captured = capsys.readouterr()
        return Result(code, captured.out, captured.err)

    return run
