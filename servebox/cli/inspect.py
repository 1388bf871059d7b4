"""`servebox inspect`: what a checkpoint is, from metadata only."""

from __future__ import annotations

import typer

from servebox.cli.app import JSON_OPTION, app, emit_json, out


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
