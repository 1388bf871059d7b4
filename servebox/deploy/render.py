"""`servebox render`: write every artifact of a spec into a directory without harming anything else.

Everything is rendered in memory first and written into a fresh temporary directory beside the
target. A new target is that directory renamed into place; an existing one must be empty or a
previous servebox output (it holds servebox's manifest, the list of files servebox wrote there):
then each file is moved in with one rename, servebox's own stale files are removed, and nothing
servebox did not write is deleted or overwritten. A file, a device or a foreign non-empty
directory is refused before anything is written.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import tempfile
from pathlib import Path, PurePosixPath

from servebox.deploy import llamaswap, systemd
from servebox.deploy.spec import Spec
from servebox.errors import InputError

CONFIG_DIR = "/etc/servebox"
MANIFEST = ".servebox-manifest.json"
SYSUSERS = "sysusers.d/servebox.conf"


def render_files(spec: Spec, source: str = "spec") -> dict[str, str]:
    files: dict[str, str] = {}
    for model in spec.models:
        if model.own_unit:
            env_name = f"servebox-{model.name}.env"
            files[f"env/{env_name}"] = systemd.environment_file(model)
            files[f"systemd/servebox-{model.name}.service"] = systemd.engine_unit(
                spec, model, f"{CONFIG_DIR}/env/{env_name}"
            )
    try:
        config = llamaswap.render_config(spec)
    except ValueError as exc:
        raise InputError(source, "router", str(exc)) from None
    files["llama-swap.yaml"] = llamaswap.to_yaml(config)
    files["systemd/servebox-router.service"] = systemd.router_unit(spec, f"{CONFIG_DIR}/llama-swap.yaml")
    users = systemd.sysusers(spec)
    if users:
        files[SYSUSERS] = users
    return files


def install_steps(files: dict[str, str], out: Path) -> list[str]:
    """The commands that put the rendered files where the units expect them, then start them."""
    units = sorted(Path(f).name for f in files if f.startswith("systemd/"))
    steps = [f"sudo install -d -m 0755 {CONFIG_DIR} {CONFIG_DIR}/env"]
    if SYSUSERS in files:
        steps.append(f"sudo install -m 0644 {out}/{SYSUSERS} /etc/{SYSUSERS} && sudo systemd-sysusers")
    if "llama-swap.yaml" in files:  # a cluster's worker hosts run no router
        steps.append(f"sudo install -m 0600 {out}/llama-swap.yaml {CONFIG_DIR}/llama-swap.yaml")
    for rel in sorted(f for f in files if f.startswith("env/")):
        steps.append(f"sudo install -m 0600 {out}/{rel} {CONFIG_DIR}/{rel}")
    steps.append(f"sudo install -m 0644 {' '.join(f'{out}/systemd/{u}' for u in units)} /etc/systemd/system/")
    steps.append("sudo systemctl daemon-reload")
    steps.append(f"sudo systemctl enable --now {' '.join(units)}")
    return steps


def write_output(files: dict[str, str], out: Path) -> None:
    """Write FILES under OUT; refuse a target servebox could harm (see the module docstring)."""
    out = Path(os.path.abspath(out))
    previous = _previous_output(out)
    _refuse_foreign_files(files, out, previous)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    except OSError as exc:
        raise InputError(
            str(out), "--out", f"cannot create a directory beside it: {exc.strerror or exc}"
        ) from None
    try:
        _write_tree(tmp, files)
        if previous is None and not out.exists():
            tmp.rename(out)
            return
        _move_in(tmp, out, files, previous or [])
    except OSError as exc:
        raise InputError(str(out), "--out", f"cannot write: {exc.strerror or exc}") from None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _previous_output(out: Path) -> list[str] | None:
    """The files a previous render wrote into OUT; None when OUT is absent or empty. Anything
    else that is not a servebox output is refused here, before a byte is written."""
    if not out.exists() and not out.is_symlink():
        return None
    mode = out.lstat().st_mode
    if stat.S_ISLNK(mode):
        raise InputError(str(out), "--out", "is a symbolic link: name the directory itself")
    if not stat.S_ISDIR(mode):
        raise InputError(
            str(out),
            "--out",
            "exists and is not a directory (a file or a device): servebox writes a directory",
        )
    try:
        entries = list(out.iterdir())
    except OSError as exc:
        raise InputError(str(out), "--out", f"cannot list: {exc.strerror or exc}") from None
    if not entries:
        return None
    manifest = out / MANIFEST
    if not manifest.is_file():
        raise InputError(
            str(out),
            "--out",
            f"is a non-empty directory that servebox did not write (no {MANIFEST}): name a new or empty directory",
        )
    return _read_manifest(manifest)


def _read_manifest(path: Path) -> list[str]:
    try:
        data = json.loads(path.read_text(encoding="utf-8")[:1_000_000])
    except (OSError, ValueError) as exc:
        raise InputError(str(path), None, f"unreadable manifest: {exc}") from None
    files = data.get("files") if isinstance(data, dict) else None
    if not isinstance(files, list) or not all(isinstance(f, str) and _safe_rel(f) for f in files):
        raise InputError(str(path), "files", "must list relative paths inside the output directory")
    return files


def _safe_rel(rel: str) -> bool:
    parts = PurePosixPath(rel).parts
    return (
        bool(parts) and not rel.startswith("/") and ".." not in parts and rel != MANIFEST and "\\" not in rel
    )


def _refuse_foreign_files(files: dict[str, str], out: Path, previous: list[str] | None) -> None:
    owned = set(previous or [])
    for rel in sorted(files):
        target = out / rel
        if (target.exists() or target.is_symlink()) and rel not in owned:
            raise InputError(
                str(target), "--out", "exists and servebox did not write it: it will not be overwritten"
            )
        if rel in owned and (target.is_symlink() or (target.exists() and not target.is_file())):
            raise InputError(str(target), "--out", "is no longer a regular file: it will not be replaced")


def _write_tree(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        os.chmod(path, 0o600 if rel.startswith("env/") else 0o644)
    (root / MANIFEST).write_text(json.dumps({"servebox": 1, "files": sorted(files)}, indent=1) + "\n")
    os.chmod(root, 0o755)


def _move_in(tmp: Path, out: Path, files: dict[str, str], previous: list[str]) -> None:
    """One rename per file; then servebox's own stale files go; the manifest is replaced last."""
    for rel in sorted(files):
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        os.replace(tmp / rel, out / rel)
    for rel in sorted(set(previous) - set(files)):
        stale = out / rel
        if stale.is_file() and not stale.is_symlink():
            stale.unlink()
        for parent in list(PurePosixPath(rel).parents)[:-1]:
            try:
                (out / parent).rmdir()  # only when empty: a user's file keeps its directory
            except OSError:
                break
    os.replace(tmp / MANIFEST, out / MANIFEST)
