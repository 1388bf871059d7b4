"""`servebox provision`: a pinned engine venv, built once, switched atomically, rolled back in one step.

Inputs are a wheel (path or URL) with its sha256, a requirements lock with hashes, and the Python to
build with. Their digest names the venv directory and is written into a stamp: same inputs, no
work. New inputs build a new directory beside the old one; the `venv` path is a symlink switched
with one rename, and the previous target stays for `--rollback`. The wheel is verified before
anything is installed and installed from a copy under its canonical file name (pip refuses a
store-path-prefixed name: the digest's `Invalid wheel filename`). The lock is installed with
`--no-deps` (it is the whole set, see freeze.py), pip's progress is passed on as it runs and its whole
error is kept on failure (pip_run.py), and one run at a time holds the install root (root_lock.py).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import tempfile
import urllib.request
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from servebox.deploy.pip_run import Progress, run_pip
from servebox.deploy.root_lock import install_root_lock
from servebox.errors import InputError

STAMP = "servebox-stamp.json"


class ProvisionSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    wheel: str
    sha256: str
    requirements: str | None = None  # a lock with --hash lines (servebox lock writes one)
    python: str = "python3"
    venv_root: str | None = None  # where built venvs live; default: beside the venv link
    find_links: str | None = None  # install only from this directory (offline, air-gapped hosts)


class ProvisionResult(BaseModel):
    venv: str
    target: str
    digest: str
    changed: bool
    previous: str | None


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def canonical_wheel_name(name: str) -> str:
    """`<hash>-vllm-1.5.0-cp312-...whl` (a store path) -> `vllm-1.5.0-cp312-...whl`: the longest tail
    of dash fields that `packaging` accepts as a wheel name."""
    from packaging.utils import InvalidWheelFilename, parse_wheel_filename

    stem = name[: -len(".whl")] if name.endswith(".whl") else name
    parts = stem.split("-")
    for k in (6, 5):
        if len(parts) >= k:
            candidate = "-".join(parts[-k:]) + ".whl"
            try:
                parse_wheel_filename(candidate)
            except InvalidWheelFilename:
                continue
            return candidate
    raise InputError(name, "wheel", "not a wheel file name (name-version[-build]-python-abi-platform.whl)")


def fetch_wheel(spec: ProvisionSpec, workdir: Path) -> Path:
    source = spec.wheel
    name = canonical_wheel_name(Path(source.split("?")[0]).name)
    target = workdir / name
    if source.startswith(("http://", "https://")):
        try:
            with urllib.request.urlopen(source, timeout=60) as response, target.open("wb") as out:  # noqa: S310 - the user's pinned URL
                shutil.copyfileobj(response, out)
        except OSError as exc:
            raise InputError(source, "wheel", f"cannot download: {exc}") from None
    else:
        path = Path(source)
        if not path.is_file():
            raise InputError(source, "wheel", "no such file")
        shutil.copyfile(path, target)
    actual = sha256_file(target)
    if actual != spec.sha256.lower():
        raise InputError(source, "sha256", f"wheel hash {actual} does not match the pinned {spec.sha256}")
    return target


def inputs_digest(spec: ProvisionSpec) -> str:
    lock = Path(spec.requirements).read_bytes() if spec.requirements else b""
    try:
        python = subprocess.run(
            [spec.python, "-c", "import sys; print(sys.version)"], capture_output=True, text=True
        ).stdout
    except (
        OSError
    ) as e:  # not there, not executable: the spec's value, said in one line (exit 2), not a traceback
        raise InputError(spec.python, "python", f"cannot be run ({e.strerror or e})") from None
    payload = json.dumps(
        {
            "wheel_sha256": spec.sha256.lower(),
            "lock_sha256": hashlib.sha256(lock).hexdigest(),
            "python": python,
        }
    )
    return hashlib.sha256(payload.encode()).hexdigest()


def _stamped(target: Path, digest: str) -> bool:
    stamp = target / STAMP
    try:
        return stamp.is_file() and json.loads(stamp.read_text()).get("digest") == digest
    except (OSError, ValueError):
        return False


def provision(
    spec: ProvisionSpec,
    venv_link: Path,
    progress: Progress | None = None,
    wait_s: float = 900,
) -> ProvisionResult:
    """Build (or reuse) the venv for SPEC and point VENV_LINK at it, holding the install root's lock
    throughout, so the "previous" recorded for rollback is the one this run replaced."""
    if spec.requirements and not Path(spec.requirements).is_file():
        raise InputError(spec.requirements, "requirements", "no such file")
    root = Path(spec.venv_root) if spec.venv_root else venv_link.parent
    with install_root_lock(root, wait_s, progress):
        return _provision_locked(spec, venv_link, root, progress or (lambda _line: None))


def _provision_locked(spec: ProvisionSpec, venv_link: Path, root: Path, say: Progress) -> ProvisionResult:
    digest = inputs_digest(spec)
    target = root / f"{venv_link.name}-{digest[:16]}"
    previous = str(venv_link.resolve()) if venv_link.is_symlink() else None
    result = ProvisionResult(
        venv=str(venv_link), target=str(target), digest=digest, changed=True, previous=previous
    )
    if venv_link.is_symlink() and venv_link.resolve() == target.resolve() and _stamped(target, digest):
        recorded = venv_link.with_name(venv_link.name + ".previous")
        before = os.readlink(recorded) if recorded.is_symlink() else None
        return result.model_copy(update={"changed": False, "previous": before})
    if venv_link.exists() and not venv_link.is_symlink():
        raise InputError(
            str(venv_link), "venv", "exists and is not a servebox-managed symlink; move it away first"
        )
    if _stamped(target, digest):  # built before (a rollback away, or the previous): switch back, no rebuild
        say(f"reusing {target} (same inputs, already built)")
        switch_link(venv_link, target)
        return result
    with tempfile.TemporaryDirectory(prefix="servebox-wheel-") as tmp:
        say(f"verifying {spec.wheel}")
        wheel = fetch_wheel(spec, Path(tmp))  # verified before anything is built
        _build(spec, wheel, target, digest, say)
    switch_link(venv_link, target)
    say(f"switched {venv_link} -> {target}")
    return result


def _build(spec: ProvisionSpec, wheel: Path, target: Path, digest: str, say: Progress) -> None:
    building = target.with_name(f".{target.name}.building")
    log = target.with_name(f"{target.name}.pip.log")
    shutil.rmtree(building, ignore_errors=True)  # our own leftover from a killed run (we hold the lock)
    try:
        say(f"creating a venv with {spec.python}")
        run_pip([spec.python, "-m", "venv", str(building)], "python -m venv", say, log)
        pip = [str(building / "bin" / "python"), "-m", "pip", "install", "--disable-pip-version-check"]
        if spec.find_links:
            pip += ["--no-index", "--find-links", spec.find_links]
        # the engine wheel's platform and Python tags first: refused in a second, not after the whole lock is built
        run_pip(
            [*pip, "--dry-run", "--no-deps", str(wheel)],
            f"pip install {wheel.name} (checked first)",
            say,
            log,
        )
        if spec.requirements:
            count = sum(1 for x in Path(spec.requirements).read_text().splitlines() if "==" in x)
            say(f"installing {count} locked packages from {spec.requirements} (hashes required, no deps)")
            cmd = [*pip, "--require-hashes", "--no-deps", "-r", spec.requirements]
            run_pip(cmd, f"pip install -r {spec.requirements}", say, log)
        say(f"installing {wheel.name}")
        run_pip([*pip, "--no-deps", str(wheel)], f"pip install {wheel.name}", say, log)
        stamp = {
            "digest": digest,
            "wheel": wheel.name,
            "sha256": spec.sha256.lower(),
            "requirements": spec.requirements,
        }
        (building / STAMP).write_text(json.dumps(stamp, indent=1))
        if target.exists():  # an unstamped directory at our name: never ours to trust, set aside
            target.rename(target.with_name(f".{target.name}.unstamped-{os.getpid()}"))
        # venvs hard-code their path in scripts: build at the final path by renaming before first use
        building.rename(target)
        _fix_venv_paths(building, target)
        log.unlink(missing_ok=True)
    except BaseException:
        shutil.rmtree(building, ignore_errors=True)
        raise


def _fix_venv_paths(old: Path, new: Path) -> None:
    """Point the venv's scripts and pyvenv.cfg at its final directory."""
    for path in [*(new / "bin").iterdir(), new / "pyvenv.cfg"]:
        if path.is_file() and not path.is_symlink():
            try:
                text = path.read_text()
            except UnicodeDecodeError:
                continue
            if str(old) in text:
                path.write_text(text.replace(str(old), str(new)))


def switch_link(link: Path, target: Path) -> None:
    """Point LINK at TARGET with one rename (atomic), remembering the old target as LINK.previous."""
    if link.is_symlink() and Path(os.readlink(link)) != target:
        prev = link.with_name(link.name + ".previous")
        tmp_prev = prev.with_name(prev.name + ".tmp")
        tmp_prev.unlink(missing_ok=True)
        os.symlink(os.readlink(link), tmp_prev)
        os.replace(tmp_prev, prev)
    tmp = link.with_name(f".{link.name}.tmp")
    tmp.unlink(missing_ok=True)
    os.symlink(target, tmp)
    os.replace(tmp, link)


def rollback(link: Path, root: Path | None = None, wait_s: float = 900) -> str:
    """Switch LINK back to the venv it pointed at before the last switch (under the root's lock)."""
    with install_root_lock(root or link.parent, wait_s):
        return _rollback_locked(link)


def _rollback_locked(link: Path) -> str:
    prev = link.with_name(link.name + ".previous")
    if not prev.is_symlink():
        raise InputError(str(link), "rollback", "no previous venv recorded")
    target = Path(os.readlink(prev))
    if not target.exists():
        raise InputError(str(prev), "rollback", f"the previous venv {target} is gone")
    switch_link(link, target)
    return str(target)
