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
        ...,
        "--out",
        help="Directory to write into: new, empty, or a previous render (servebox never deletes what it did not write).",
    ),
    check_units: bool = typer.Option(
        False, "--check", help="Run systemd-analyze verify and security on the rendered units."
    ),
    as_json: bool = JSON_OPTION,
) -> None:
    """Hardened systemd units per engine, environment files, the llama-swap config, the router's unit
    and a sysusers.d entry for each engine's user; prints the commands that install them."""
    from servebox.deploy.render import install_steps, render_files, write_output
    from servebox.deploy.spec import load_spec

    spec = load_spec(spec_path)
    files = render_files(spec, str(spec_path))
    if check_units:
        from servebox.deploy.verify import have_systemd_tools

        if not have_systemd_tools():
            raise InputError("--check", None, "systemd-analyze is not installed here")
    write_output(files, out_dir)
    steps = install_steps(files, out_dir.absolute())
    report: dict = {"out": str(out_dir), "files": sorted(files), "install": steps}
    failed = False
    if check_units:
        from servebox.deploy.verify import check_units as run_checks

        verdicts = run_checks(out_dir / "systemd")
        report["units"] = [v.__dict__ for v in verdicts]
        failed = any(v.verify_rc != 0 for v in verdicts)
    if as_json:
        emit_json(report)
    else:
        _show(report, out_dir)
    if failed:
        raise typer.Exit(1)


def _show(report: dict, out_dir: Path) -> None:
    out.print(f"rendered {len(report['files'])} files into {out_dir}", markup=False, highlight=False)
    for name in report["files"]:
        out.print(f"  {name}", markup=False, highlight=False)
    for v in report.get("units", []):
        style = "green" if v["verify_rc"] == 0 else "red"
        out.print(
            f"[{style}]{v['unit']}[/{style}]: verify rc {v['verify_rc']}, exposure {v['exposure']} {v['exposure_label']}"
        )
    out.print("install (the units read their files from /etc/servebox):")
    for step in report["install"]:
        out.print(f"  {step}", markup=False, highlight=False, soft_wrap=True)
