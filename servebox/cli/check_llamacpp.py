"""The llama.cpp branch of `servebox check` (a GGUF): llama-server's own flags follow the model."""

from __future__ import annotations

import typer

from servebox.cli.app import emit_json, out
from servebox.errors import InputError


def check_llamacpp(source: str | None, args: list[str], gpu: str | None, as_json: bool) -> None:
    from servebox.check.llamacpp_rules import check_gguf
    from servebox.cli.plan_llamacpp import gpu_bytes_from
    from servebox.engines.llamacpp.flags import parse_server_args

    flags = parse_server_args(list(args))
    source = source or flags.model
    if not source:
        raise InputError("check", "SOURCE", "name a .gguf file (or pass -m FILE)")
    report = check_gguf(source, flags, gpu_bytes_from(gpu, None), gpu or "cpu")
    if as_json:
        emit_json(report.model_dump(mode="json"))
    else:
        from servebox.report.check_view import show_check

        show_check(report, out)
    if report.errors:
        raise typer.Exit(1)
