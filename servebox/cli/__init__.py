"""The `servebox` command: parse, call one function, print a table (rich) or --json.

Exit codes: 0 success, 1 a firm "does not fit / will not work" answer, 2 bad input.
"""

from __future__ import annotations

import sys

import typer

from servebox.cli import check, doctor, inspect, measure, plan, provision, render, serve  # noqa: F401  (registers verbs)
from servebox.cli.app import app, err
from servebox.errors import InputError


def main() -> None:
    try:
        # click returns the code of typer.Exit here instead of raising; the name completion and usage
        # lines use is servebox even under `python -m servebox.cli`
        rc = app(standalone_mode=False, prog_name="servebox")
        if isinstance(rc, int) and rc:
            sys.exit(rc)
    except InputError as exc:
        err.print(f"servebox: error: {exc.one_line()}", markup=False, highlight=False, soft_wrap=True)
        sys.exit(exc.exit_code)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except Exception as exc:  # usage errors from click (typer vendors its own copy of click)
        if hasattr(exc, "show") and hasattr(exc, "exit_code"):
            exc.show()
            sys.exit(2)
        if type(exc).__name__ == "Abort":
            sys.exit(130)
        raise


if __name__ == "__main__":
    main()
