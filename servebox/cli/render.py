"""`servebox render`: hardened units, environment files and the router config from a spec."""

from __future__ import annotations

from pathlib import Path

import typer

from servebox.cli.app import JSON_OPTION, app, emit_json, out
from servebox.errors import InputError
from servebox.report import print_whole


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
    kubernetes: bool = typer.Option(
        False,
        "--kubernetes",
        help="Write Kubernetes manifests (a LeaderWorkerSet per multi-node model, else a Deployment; a Service each) instead of units.",
    ),
    as_json: bool = JSON_OPTION,
) -> None:
    """Hardened systemd units per engine, environment files, the llama-swap config, the router's unit
    and a sysusers.d entry for each engine's user; prints the commands that install them. A spec with
    [[hosts]] gets one folder per host (OUT/HOST/); --kubernetes writes manifests instead."""
    from servebox.deploy import cluster_units
    from servebox.deploy.render import install_steps, render_files, write_output
    from servebox.deploy.spec import load_spec

    spec = load_spec(spec_path)
    if kubernetes:
        from servebox.deploy.kubernetes import apply_steps, render_manifests

        files = render_manifests(spec, str(spec_path))
    elif cluster_units.is_cluster(spec):
        files = cluster_units.render_cluster_files(spec, str(spec_path))
    else:
        files = render_files(spec, str(spec_path))
    if check_units:
        from servebox.deploy.verify import have_systemd_tools

        if kubernetes:
            raise InputError(
                "--check", None, "checks systemd units; the manifests are validated in the tests"
            )
        if not have_systemd_tools():
            raise InputError("--check", None, "systemd-analyze is not installed here")
    write_output(files, out_dir)
    report: dict = {"out": str(out_dir), "files": sorted(files)}
    if kubernetes:
        report["install"] = apply_steps(files, out_dir.absolute())
    elif cluster_units.is_cluster(spec):
        report["hosts"] = cluster_units.install_steps_by_host(files, out_dir.absolute())
        report["install"] = [step for steps in report["hosts"].values() for step in steps]
    else:
        report["install"] = install_steps(files, out_dir.absolute())
    failed = False
    if check_units:
        from servebox.deploy.verify import check_units as run_checks

        unit_dirs = sorted(
            {(out_dir / f).parent for f in files if "/systemd/" in f or f.startswith("systemd/")}
        )
        verdicts = []
        for unit_dir in unit_dirs:
            for verdict in run_checks(unit_dir):
                if unit_dir.parent != out_dir:  # a cluster: name the host folder too
                    verdict.unit = f"{unit_dir.parent.name}/{verdict.unit}"
                verdicts.append(verdict)
        if not cluster_units.is_cluster(spec):
            _add_router_programs(spec, verdicts)
        report["units"] = [v.__dict__ for v in verdicts]
        failed = any(v.verify_rc != 0 for v in verdicts)
    if as_json:
        emit_json(report)
    else:
        _show(report, out_dir)
    if failed:
        raise typer.Exit(1)


def _add_router_programs(spec, verdicts) -> None:
    """The engines llama-swap starts itself are named where missing, beside the router unit's own binary."""
    from servebox.deploy.llamaswap import router_programs
    from servebox.deploy.verify import absent_programs

    for verdict in verdicts:
        if verdict.unit == "servebox-router.service":
            absent = absent_programs(router_programs(spec))
            verdict.missing_here += [p for p in absent if p not in verdict.missing_here]


def _show(report: dict, out_dir: Path) -> None:
    out.print(f"rendered {len(report['files'])} files into {out_dir}", markup=False, highlight=False)
    for name in report["files"]:
        out.print(f"  {name}", markup=False, highlight=False)
    for v in report.get("units", []):
        style = "green" if v["verify_rc"] == 0 else "red"
        out.print(
            f"[{style}]{v['unit']}[/{style}]: verify rc {v['verify_rc']}, exposure {v['exposure']} {v['exposure_label']}"
        )
        for line in v["reasons"]:  # systemd-analyze's own words: why the unit fails
            print_whole(out, f"  {line}")
        if v["missing_here"]:
            missing = ", ".join(v["missing_here"])
            print_whole(out, f"  not on this machine (fine when rendered for another host): {missing}")
    by_host = report.get("hosts") or {"": report["install"]}
    for host, steps in by_host.items():
        where = f" on {host}, from a copy of {out_dir}/{host}" if host else ""
        kube = any(f.startswith("kubernetes/") for f in report["files"])
        what = "" if kube else " (the units read their files from /etc/servebox)"
        out.print(f"install{where}{what}:", markup=False)
        for step in steps:
            out.print(f"  {step}", markup=False, highlight=False, soft_wrap=True)
