"""`servebox provision`, `lock`, `fetch-model`: pinned venvs and verified checkpoints."""

from __future__ import annotations

from pathlib import Path

import typer

from servebox.cli.app import JSON_OPTION, app, emit_json, out
from servebox.errors import InputError


@app.command()
def provision(
    spec_path: Path = typer.Argument(..., metavar="SPEC", help="The deployment spec (TOML)."),
    model: str = typer.Option(None, "--model", help="Only this model."),
    do_rollback: bool = typer.Option(
        False, "--rollback", help="Switch each venv back to its previous build."
    ),
    as_json: bool = JSON_OPTION,
) -> None:
    """Build each engine's pinned venv (verified wheel, hashed lock, stamp); switch atomically; keep the old one."""
    from servebox.deploy import provision as prov
    from servebox.deploy.spec import load_spec

    spec = load_spec(spec_path)
    chosen = [m for m in spec.models if m.provision and m.venv and (model is None or m.name == model)]
    if not chosen:
        raise InputError(
            str(spec_path),
            "models",
            "no model with a [provision] section and a venv" + (f" named {model!r}" if model else ""),
        )
    results = []
    for m in chosen:
        if do_rollback:
            results.append(
                {"model": m.name, "venv": m.venv, "target": prov.rollback(Path(m.venv)), "rolled_back": True}
            )
        else:
            with out.status(f"provisioning {m.name} into {m.venv} ..."):
                r = prov.provision(m.provision, Path(m.venv))
            results.append({"model": m.name, **r.model_dump()})
    if as_json:
        emit_json(results)
    else:
        for r in results:
            state = (
                "rolled back to" if r.get("rolled_back") else ("built" if r.get("changed") else "unchanged:")
            )
            out.print(f"{r['model']}: {state} {r['target']}")


@app.command()
def lock(
    venv: Path = typer.Argument(..., help="A venv that works."),
    out_path: Path = typer.Option(
        ..., "--out", help="Where to write the requirements lock (with sha256 hashes)."
    ),
    find_links: str = typer.Option(
        None, "--find-links", help="Take distributions (for their hashes) only from this directory."
    ),
) -> None:
    """Freeze a working venv into a requirements lock with hashes, for `provision`."""
    from servebox.deploy.provision import lock as do_lock

    count = do_lock(venv, out_path, find_links)
    out.print(f"locked {count} packages into {out_path}")


@app.command("fetch-model")
def fetch_model_cmd(
    repo: str = typer.Argument(..., help="Hub repo id org/name[@revision]."),
    directory: Path = typer.Option(..., "--dir", help="Local directory for the checkpoint."),
    include: list[str] = typer.Option(
        None, "--include", help="Only files matching these patterns (repeatable)."
    ),
    as_json: bool = JSON_OPTION,
) -> None:
    """Download a checkpoint (resumable) and verify it: file count, sizes, shard headers."""
    from servebox.checkpoint.source import HUB_REPO_RE
    from servebox.deploy.fetch import fetch_model

    match = HUB_REPO_RE.match(repo)
    if not match:
        raise InputError(repo, None, "not a hub repo id 'org/name[@revision]'")
    with out.status(f"downloading {repo} ..."):
        result = fetch_model(match["repo"], match["revision"], directory, include)
    if as_json:
        emit_json(result.model_dump())
    else:
        state = "[green]complete[/green]" if result.complete else "[red]incomplete[/red]"
        out.print(
            f"{result.repo}: {result.files} files, {result.bytes:,} bytes in {result.directory}: {state}"
        )
        for p in result.problems:
            out.print(f"  {p}", markup=False)
    if not result.complete:
        raise typer.Exit(1)
