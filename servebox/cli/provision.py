"""`servebox provision`, `lock`, `fetch-model`: pinned venvs and verified checkpoints."""

from __future__ import annotations

import os
from pathlib import Path

import typer
from rich.markup import escape

from servebox.cli.app import JSON_OPTION, app, emit_json, err, out
from servebox.cli.dirs import usable_directory
from servebox.deploy.pip_run import PipFailed
from servebox.errors import InputError, MachineError


def _say(line: str) -> None:
    err.print(f"servebox: {line}", markup=False, highlight=False, soft_wrap=True)


def _pip_failed(exc: PipFailed) -> None:
    """pip's whole error block on stderr before the one-line summary main() prints."""
    err.print(exc.error_block, markup=False, highlight=False, soft_wrap=True)


@app.command()
def provision(
    spec_path: Path = typer.Argument(..., metavar="SPEC", help="The deployment spec (TOML)."),
    model: str = typer.Option(None, "--model", help="Only this model."),
    do_rollback: bool = typer.Option(
        False, "--rollback", help="Switch each venv back to its previous build."
    ),
    wait_s: float = typer.Option(
        900, "--wait", help="Seconds to wait for another provision of the same install root (0: refuse)."
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
        link = Path(m.venv)
        if do_rollback:
            root = Path(m.provision.venv_root) if m.provision.venv_root else None
            target = prov.rollback(link, root, wait_s)
            results.append({"model": m.name, "venv": m.venv, "target": target, "rolled_back": True})
            continue
        _say(f"provisioning {m.name} into {m.venv}")
        try:
            r = prov.provision(
                m.provision, link, progress=lambda line, name=m.name: _say(f"{name}: {line}"), wait_s=wait_s
            )
        except PipFailed as exc:
            _pip_failed(exc)
            raise
        except OSError as exc:  # a full disk or TMPDIR, a folder the user cannot write: nothing was switched
            raise MachineError.from_os(exc, f"provisioning {m.name}; {m.venv} was not switched") from None
        results.append({"model": m.name, **r.model_dump()})
    if as_json:
        emit_json(results)
    else:
        for r in results:
            state = (
                "rolled back to" if r.get("rolled_back") else ("built" if r.get("changed") else "unchanged:")
            )
            out.print(f"{r['model']}: {state} {r['target']}", markup=False, highlight=False)


@app.command()
def lock(
    venv: Path = typer.Argument(..., help="A venv that works."),
    out_path: Path = typer.Option(
        ..., "--out", help="Where to write the requirements lock (with sha256 hashes)."
    ),
    find_links: str = typer.Option(
        None, "--find-links", help="Take distributions (for their hashes) only from this directory."
    ),
    as_json: bool = JSON_OPTION,
) -> None:
    """Freeze a working venv (pip, setuptools, wheel included) into a requirements lock with hashes, for `provision`."""
    from servebox.deploy.freeze import lock as do_lock

    if not (venv / "bin" / "python").exists():
        raise InputError(str(venv), None, "not a venv (no bin/python)")
    _check_writable_folder(out_path)
    _say(f"locking {venv}: resolving each pinned package's archive and hash")
    try:
        count, direct = do_lock(venv, out_path, find_links, progress=_say)
    except PipFailed as exc:
        _pip_failed(exc)
        raise
    for reference in direct:  # fresh-304: a private wheel left out of the lock went unsaid
        _say(
            f"not locked: {reference} (installed from a file or URL: provision installs the spec's engine wheel "
            "and this lock, so anything else installed this way will be missing)"
        )
    if as_json:
        emit_json({"venv": str(venv), "lock": str(out_path), "packages": count, "not_locked": direct})
    else:
        out.print(f"locked {count} packages into {out_path}", markup=False, highlight=False)


def _check_writable_folder(out_path: Path) -> None:
    """--out's folder must exist and be writable before the minutes of resolving, not after (fresh-296: a missing
    folder ended the lock with a FileNotFoundError traceback once every pin was hashed)."""
    folder = out_path.parent
    if not folder.is_dir():
        raise InputError(str(out_path), "--out", f"its folder {folder} does not exist; create it first")
    if not os.access(folder, os.W_OK):
        raise InputError(str(out_path), "--out", f"its folder {folder} is not writable")


@app.command("fetch-model")
def fetch_model_cmd(
    repo: str = typer.Argument(..., help="Hub repo id org/name[@revision]."),
    directory: Path = typer.Option(..., "--dir", help="Local directory for the checkpoint."),
    include: list[str] = typer.Option(
        None, "--include", help="Only files matching these patterns (repeatable)."
    ),
    as_json: bool = JSON_OPTION,
) -> None:
    """Download a checkpoint (resumable) and verify it: every file's size and hub hash, the shard set, shard headers."""
    from servebox.checkpoint.source import HUB_REPO_RE
    from servebox.deploy.fetch import fetch_model

    match = HUB_REPO_RE.match(repo)
    if not match:
        raise InputError(repo, None, "not a hub repo id 'org/name[@revision]'")
    usable_directory(directory, "--dir")
    with out.status(f"downloading {repo} ..."):
        result = fetch_model(match["repo"], match["revision"], directory, include)
    if as_json:
        emit_json(result.model_dump())
    else:
        state = "[green]complete[/green]" if result.complete else "[red]incomplete[/red]"
        out.print(
            f"{escape(result.repo)}: {result.files} files, {result.bytes:,} bytes in {escape(result.directory)}, "
            f"{result.verified} verified against the hub's hashes: {state}"
        )
        for p in result.problems:
            out.print(f"  {p}", markup=False)
    if not result.complete:
        raise typer.Exit(1)
