"""The `servebox` command: parse, call one function, print a table (rich) or --json.

Exit codes: 0 success, 1 a firm "does not fit / will not work" answer, 2 bad input.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import typer
from rich.console import Console

from servebox.errors import InputError

app = typer.Typer(
    add_completion=False, no_args_is_help=True, rich_markup_mode=None, help=__doc__.splitlines()[0]
)
out = Console()
err = Console(stderr=True)

JSON_OPTION = typer.Option(False, "--json", help="Print machine-readable JSON instead of tables.")


@app.callback()
def _group() -> None:
    """servebox: plan, check, deploy, watch and diagnose self-hosted LLM engines."""


def emit_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=1, default=str) + "\n")


@app.command()
def inspect(
    source: str = typer.Argument(
        ..., help="A checkpoint directory, a .gguf file, or a hub repo id org/name[@revision]."
    ),
    as_json: bool = JSON_OPTION,
) -> None:
    """What a checkpoint is, from metadata only: layers, tensors, quantization, chat template."""
    from servebox.checkpoint.facts import inspect_checkpoint

    facts = inspect_checkpoint(source)
    if as_json:
        emit_json(facts.model_dump(mode="json"))
    else:
        from servebox.report.inspect_view import show_inspect

        show_inspect(facts, out)


def main() -> None:
    try:
        app(standalone_mode=False)
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
