"""`servebox check` as findings grouped by severity, each with its evidence and fix."""

from __future__ import annotations

from rich.console import Console

from servebox.check import CheckReport
from servebox.report import print_whole

STYLE = {"error": "bold red", "warn": "yellow", "info": "cyan"}


def show_check(report: CheckReport, console: Console) -> None:
    """Each finding's message, evidence and fix on one line each (soft wrap: the terminal folds them; a pipe or a
    log keeps the engine's quoted wording whole, so it can be searched and read back by doctor)."""
    console.print(
        f"[bold]{report.source}[/bold] on {report.gpu} with {report.engine_profile}: "
        f"{report.errors} error(s), {report.warnings} warning(s)"
    )
    for f in report.findings:
        console.print(
            f"[{STYLE[f.severity]}]{f.severity:5}[/{STYLE[f.severity]}] [bold]{f.rule}[/bold]: ", end=""
        )
        print_whole(console, f.message)
        for line in f.evidence:
            print_whole(console, f"        {line}")
        if f.fix:
            print_whole(console, f"        fix: {f.fix}")
