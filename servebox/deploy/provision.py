"""`servebox provision`: a pinned engine venv, built once, switched atomically, rolled back in one step.

Inputs are a wheel (path or URL) with its sha256, a requirements lock with hashes, and the Python to
build with. Their digest names the venv directory and is written into a stamp: same inputs, no
work. New inputs build a new directory beside the old one; the `venv` path is a symlink switched
with one rename, and the previous target stays for `--rollback`. The wheel is verified before
anything is installed and installed from a copy under its canonical file name (pip refuses a
store-path-prefixed name: the digest's `Invalid wheel filename`).
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

from servebox.errors import InputError

STAMP = "servebox-stamp.json"


class ProvisionSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    wheel: str
    sha256: str
    requirements: str | None = None  # a lock with --hash lines (servebox lock writes one)
    python: str = "python3"
    venv_root: str | None = None  # where built venvs live; default: beside the venv link


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
    python = subprocess.run(
        [spec.python, "-c", "import sys; print(sys.version)"], capture_output=True, text=True
    ).stdout
    payload = json.dumps(
        {
            "wheel_sha256": spec.sha256.lower(),
            "lock_sha256": hashlib.sha256(lock).hexdigest(),
            "python": python,
        }
    )
    return hashlib.sha256(payload.encode()).hexdigest()


def _run(cmd: list[str], what: str) -> None:
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise InputError(
            what,
            None,
            f"failed ({proc.returncode}): {(proc.stderr or proc.stdout).strip().splitlines()[-1:]}",
        )


def provision(spec: ProvisionSpec, venv_link: Path) -> ProvisionResult:
    if spec.requirements and not Path(spec.requirements).is_file():
        raise InputError(spec.requirements, "requirements", "no such file")
    digest = inputs_digest(spec)
    root = Path(spec.venv_root) if spec.venv_root else venv_link.parent
    target = root / f"{venv_link.name}-{digest[:16]}"
    previous = str(venv_link.resolve()) if venv_link.is_symlink() else None
    stamp = target / STAMP
    if venv_link.is_symlink() and venv_link.resolve() == target.resolve() and stamp.is_file():
        if json.loads(stamp.read_text()).get("digest") == digest:
            return ProvisionResult(
                venv=str(venv_link), target=str(target), digest=digest, changed=False, previous=previous
            )
    if venv_link.exists() and not venv_link.is_symlink():
        raise InputError(
            str(venv_link), "venv", "exists and is not a servebox-managed symlink; move it away first"
        )
    root.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="servebox-wheel-") as tmp:
        wheel = fetch_wheel(spec, Path(tmp))  # verified before anything is built
        building = root / f".{target.name}.building"
        shutil.rmtree(building, ignore_errors=True)
        try:
            _run([spec.python, "-m", "venv", str(building)], "python -m venv")
            pip = [
                str(building / "bin" / "python"),
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
            ]
            if spec.requirements:
                _run([*pip, "--require-hashes", "-r", spec.requirements], "pip install --require-hashes")
            _run([*pip, "--no-deps", str(wheel)], f"pip install {wheel.name}")
            (building / STAMP).write_text(
                json.dumps(
                    {
                        "digest": digest,
                        "wheel": wheel.name,
                        "sha256": spec.sha256.lower(),
                        "requirements": spec.requirements,
                    },
                    indent=1,
                )
            )
            if target.exists():
                shutil.rmtree(target)
            # venvs hard-code their path in scripts: build at the final path by renaming before first use
            building.rename(target)
            _fix_venv_paths(building, target)
        except BaseException:
            shutil.rmtree(building, ignore_errors=True)
            raise
    switch_link(venv_link, target)
    return ProvisionResult(
        venv=str(venv_link), target=str(target), digest=digest, changed=True, previous=previous
    )


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
    if link.is_symlink():
        prev = link.with_name(link.name + ".previous")
        tmp_prev = prev.with_name(prev.name + ".tmp")
        tmp_prev.unlink(missing_ok=True)
        os.symlink(os.readlink(link), tmp_prev)
        os.replace(tmp_prev, prev)
    tmp = link.with_name(f".{link.name}.tmp")
    tmp.unlink(missing_ok=True)
    os.symlink(target, tmp)
    os.replace(tmp, link)


def rollback(link: Path) -> str:
    prev = link.with_name(link.name + ".previous")
    if not prev.is_symlink():
        raise InputError(str(link), "rollback", "no previous venv recorded")
    target = Path(os.readlink(prev))
    if not target.exists():
        raise InputError(str(prev), "rollback", f"the previous venv {target} is gone")
    switch_link(link, target)
    return str(target)


def lock(venv: Path, out: Path, find_links: str | None = None) -> int:
    """Freeze a working venv into a requirements lock with sha256 hashes of each pinned distribution.
    Packages installed from a direct reference (the engine wheel itself) are left out, as comments:
    provision installs that wheel from its own pinned hash. Hashes come from `pip download` of each
    pin (from the index, or only from FIND_LINKS when given)."""
    python = venv / "bin" / "python"
    if not python.exists():
        raise InputError(str(venv), None, "not a venv (no bin/python)")
    frozen = subprocess.run(
        [str(python), "-m", "pip", "freeze", "--exclude-editable", "--disable-pip-version-check"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    pins = [line for line in frozen.splitlines() if "==" in line and not line.startswith("#")]
    direct = [line for line in frozen.splitlines() if " @ " in line]
    lines = [f"# servebox lock: frozen from {venv}"] + [
        f"# excluded (direct reference, pinned by provision): {d}" for d in direct
    ]
    if pins:
        with tempfile.TemporaryDirectory() as tmp:
            req = Path(tmp) / "req.txt"
            req.write_text("\n".join(pins) + "\n")
            index = ["--no-index", "--find-links", find_links] if find_links else []
            _run(
                [
                    str(python),
                    "-m",
                    "pip",
                    "download",
                    "--quiet",
                    "--no-deps",
                    *index,
                    "-d",
                    tmp,
                    "-r",
                    str(req),
                ],
                "pip download",
            )
            by_name: dict[str, list[str]] = {}
            for f in Path(tmp).iterdir():
                if f.suffix in (".whl", ".gz", ".zip"):
                    key = f.name.split("-")[0].lower().replace("_", "-")
                    by_name.setdefault(key, []).append(sha256_file(f))
            for pin in pins:
                key = pin.split("==")[0].lower().replace("_", "-")
                lines.append(pin + "".join(f" --hash=sha256:{h}" for h in by_name.get(key, [])))
    out.write_text("\n".join(lines) + "\n")
    return len(pins)
