"""Human-readable views (rich) of the typed results the verbs return."""

from __future__ import annotations

from rich.console import Console


def print_whole(console: Console, text: str, style: str | None = None) -> None:
    """Plain text (no markup, no highlighting) on one line however narrow the console: a terminal folds it, and a pipe,
    a log or a ticket keeps an engine's quoted wording whole, so it can be searched and read back by doctor."""
    console.print(text, style=style, markup=False, highlight=False, soft_wrap=True)
