"""The typer app and what every verb module shares: consoles, --json, the API base URL rule, --version.

Consoles: rich wraps at 80 columns whenever stdout is not a terminal, which cut every table and
one-line error in `servebox ... | less` or a CI log. When piped, the width is the terminal's (read
from stderr or /dev/tty), else $COLUMNS, else wide enough that nothing wraps.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import typer
from rich.console import Console

from servebox.errors import InputError

NO_TERMINAL_WIDTH = 200


def console_width(stream) -> int | None:
    """None (rich measures) on a terminal; when piped, the user's terminal width, else a wide page."""
    if stream.isatty():
        return None
    if os.environ.get("COLUMNS", "").isdigit():
        return int(os.environ["COLUMNS"])
    for fd in (2, 1, 0):
        try:
            return os.get_terminal_size(fd).columns
        except OSError:
            continue
    try:
        with open("/dev/tty") as tty:
            return os.get_terminal_size(tty.fileno()).columns
    except OSError:
        return NO_TERMINAL_WIDTH


app = typer.Typer(
    add_completion=True,
    no_args_is_help=True,
    rich_markup_mode=None,
    help="servebox: plan, check, deploy, watch and diagnose self-hosted LLM engines.",
    # click wraps help at min(terminal, 80) and takes 80 when piped: the same width rule as the consoles
    context_settings={"max_content_width": 160, "terminal_width": console_width(sys.stdout) or None},
)
out = Console(width=console_width(sys.stdout))
err = Console(stderr=True, width=console_width(sys.stderr))

JSON_OPTION = typer.Option(False, "--json", help="Print machine-readable JSON instead of tables.")


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            number = version("servebox")
        except PackageNotFoundError:
            number = "unknown (not installed)"
        sys.stdout.write(f"servebox {number}\n")
        raise typer.Exit(0)


@app.callback()
def _group(
    _show_version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print servebox's version and exit."
    ),
) -> None:
    """servebox: plan, check, deploy, watch and diagnose self-hosted LLM engines."""


def emit_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=1, default=str) + "\n")


def api_base(url: str) -> str:
    url = url.rstrip("/")
    if not url.startswith(("http://", "https://")):
        raise InputError(url, None, "not an http(s) URL")
    return url if url.endswith("/v1") else url + "/v1"
