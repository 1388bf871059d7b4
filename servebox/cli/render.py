"""`servebox render`: hardened units, environment files and the router config from a spec."""

from __future__ import annotations

from pathlib import Path

import typer

from servebox.cli.app import JSON_OPTION, app, emit_json, out
from servebox.errors import InputError


@app.command()
def render(
    spec_path: Path = typer.Argument(..., metavar="SPEC", help="The deployment spec (TOML)."),
    out_dir: Path = typer.Option(
        ..., "--out", help="Directory to write the units, environment files and router config into."
    ),
    check_units: bool = typer.Option(
        False, "--check", help="Run systemd-analyze verify and security on the rendered units."
    ),
    as_json: bool = JSON_OPTION,
) -> None:
    """Hardened systemd units per engine, environment files, the llama-swap config and the router's unit."""
    from servebox.deploy.render import render_files, write_atomically
    from servebox.deploy.spec import load_spec

    spec = load_spec(spec_path)
    files = render_files(spec)
    write_atomically(files, out_dir)
    report: dict = {"out": str(out_dir), "files": sorted(files)}
    failed = False
    if check_units:
        from servebox.deploy.verify import check_units as run_checks
        from servebox.deploy.verify import have_systemd_tools

        if not have_systemd_tools():
            raise InputError("--check", None, "systemd-analyze is not installed here")
        verdicts = run_checks(out_dir / "systemd")
        report["units"] = [v.__dict__ for v in verdicts]
        failed = any(v.verify_rc != 0 for v in verdicts)
    if as_json:
        emit_json(report)
    else:
        out.print(f"rendered {len(files)} files into {out_dir}")
        for name in sorted(files):
            out.print(f"  {name}")
        for v in report.get("units", []):
            style = "green" if v["verify_rc"] == 0 else "red"
            out.print(
                f"[{style}]{v['unit']}[/{style}]: verify rc {v['verify_rc']}, exposure {v['exposure']} {v['exposure_label']}"
            )
    if failed:
        raise typer.Exit(1)
