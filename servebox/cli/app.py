"""The typer app and what every verb module shares: consoles, --json, the API base URL rule."""

from __future__ import annotations

import json
import sys
from typing import Any

import typer
from rich.console import Console

from servebox.errors import InputError

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    rich_markup_mode=None,
    help="servebox: plan, check, deploy, watch and diagnose self-hosted LLM engines.",
)
out = Console()
err = Console(stderr=True)

JSON_OPTION = typer.Option(False, "--json", help="Print machine-readable JSON instead of tables.")


@app.callback()
def _group() -> None:
    """servebox: plan, check, deploy, watch and diagnose self-hosted LLM engines."""


def emit_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=1, default=str) + "\n")


def api_base(url: str) -> str:
    url = url.rstrip("/")
    if not url.startswith(("http://", "https://")):
        raise InputError(url, None, "not an http(s) URL")
    return url if url.endswith("/v1") else url + "/v1"
