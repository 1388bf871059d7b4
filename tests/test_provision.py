"""servebox provision / lock / fetch-model: real venvs from a wheel the test builds, hashes enforced,
atomic switch and rollback; a download from a local hub server verified against its listing."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest
from safetensors.numpy import save_file

from servebox.deploy.pip_run import PipFailed
from servebox.deploy.provision import ProvisionSpec, canonical_wheel_name, provision, rollback, sha256_file
from servebox.errors import InputError


def build_wheel(directory: Path, version: str, prefix: str = "", tag: str = "py3-none-any") -> Path:
    """A real, installable wheel of a one-module package `sbx_tiny` (the zip layout pip expects)."""
    name = f"{prefix}sbx_tiny-{version}-{tag}.whl"
    path = directory / name
    files = {
        "sbx_tiny/__init__.py": f"VERSION = {version!r}\n",
        f"sbx_tiny-{version}.dist-info/METADATA": f"Metadata-Version: 2.1\nName: sbx-tiny\nVersion: {version}\n",
        f"sbx_tiny-{version}.dist-info/WHEEL": f"Wheel-Version: 1.0\nGenerator: servebox-tests\nRoot-Is-Purelib: true\nTag: {tag}\n",
    }
    record = []
    with zipfile.ZipFile(path, "w") as zf:
        for arc, text in files.items():
            data = text.encode()
            zf.writestr(arc, data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            record.append(f"{arc},sha256={digest},{len(data)}")
        record.append(f"sbx_tiny-{version}.dist-info/RECORD,,")
        zf.writestr(f"sbx_tiny-{version}.dist-info/RECORD", "\n".join(record) + "\n")
    return path


def bundled_wheels(directory: Path) -> Path:
    """Copy the pip and setuptools wheels Python's ensurepip bundles (what a fresh venv freezes to)."""
    import ensurepip
    import shutil

    for wheel in (Path(ensurepip.__file__).parent / "_bundled").glob("*.whl"):
        shutil.copy(wheel, directory)
    return directory


def tiny_spec(path: Path, venv: Path, wheel: Path, python: str | Path = sys.executable, **extra: str) -> Path:
    """A spec with one model whose [provision] installs WHEEL (pinned by its hash) into VENV with PYTHON."""
    lines = "".join(f'{key} = "{value}"\n' for key, value in extra.items())
    path.write_text(
        f'[[models]]\nname = "tiny"\ncheckpoint = "/models/tiny"\nport = 5900\nvenv = "{venv}"\n'
        f'[models.provision]\nwheel = "{wheel}"\nsha256 = "{sha256_file(wheel)}"\n{lines}python = "{python}"\n'
    )
    return path


def installed_version(link: Path) -> str:
    return subprocess.run(
        [str(link / "bin" / "python"), "-c", "import sbx_tiny; print(sbx_tiny.VERSION)"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()


def test_canonical_name_strips_a_store_prefix():
    assert (
        canonical_wheel_name("q3kz0rr8n3x7-vllm-1.5.0+cu128-cp312-cp312-linux_x86_64.whl")
        == "vllm-1.5.0+cu128-cp312-cp312-linux_x86_64.whl"
    )


def test_provision_builds_verifies_switches_and_rolls_back(tmp_path):
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    w1 = build_wheel(wheels, "0.1.0", prefix="9f2c1a-")  # a store-path-like prefix pip would refuse
    link = tmp_path / "venvs" / "engine"
    link.parent.mkdir()
    spec1 = ProvisionSpec(wheel=str(w1), sha256=sha256_file(w1), python=sys.executable)
    first = provision(spec1, link)
    assert first.changed and link.is_symlink() and installed_version(link) == "0.1.0"
    assert (
        json.loads((link / "servebox-stamp.json").read_text())["wheel"] == "sbx_tiny-0.1.0-py3-none-any.whl"
    )
    again = provision(spec1, link)
    assert not again.changed and again.target == first.target  # same inputs: nothing rebuilt

    w2 = build_wheel(wheels, "0.2.0")
    bad = ProvisionSpec(wheel=str(w2), sha256="0" * 64, python=sys.executable)
    with pytest.raises(InputError, match="does not match the pinned"):
        provision(bad, link)
    assert installed_version(link) == "0.1.0"  # a wrong hash switches nothing
    assert not [p for p in link.parent.iterdir() if p.name.endswith(".building")]

    second = provision(ProvisionSpec(wheel=str(w2), sha256=sha256_file(w2), python=sys.executable), link)
    assert second.changed and second.previous == first.target and installed_version(link) == "0.2.0"
    assert Path(first.target).exists()  # kept for rollback
    assert rollback(link) == first.target and installed_version(link) == "0.1.0"


def test_provision_cli_with_spec_and_lock(run_cli, tmp_path):
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    wheel = build_wheel(wheels, "1.0.0")
    lockfile = tmp_path / "requirements.lock"
    lockfile.write_text("# nothing beyond the wheel\n")
    venv = tmp_path / "venv-link"
    spec = tiny_spec(tmp_path / "spec.toml", venv, wheel, requirements=str(lockfile))

    r = run_cli("provision", spec, "--json")
    assert r.code == 0 and r.json()[0]["changed"] is True
    assert run_cli("provision", spec, "--json").json()[0]["changed"] is False
    bundled_wheels(wheels)
    assert run_cli("lock", venv, "--out", tmp_path / "frozen.lock", "--find-links", wheels).code == 0
    frozen = (tmp_path / "frozen.lock").read_text()
    assert (
        "# excluded (direct reference" in frozen and "sbx-tiny @ file://" in frozen
    )  # the engine wheel pins itself


def venv_with_tiny(tmp_path, by_path: bool = False):
    """(venv, wheelhouse, wheel): a venv holding sbx-tiny 2.0.0, from the wheelhouse by name, or by the wheel's path
    (pip then records a direct reference)."""
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    wheel = build_wheel(wheels, "2.0.0")
    bundled_wheels(wheels)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip = [
        str(venv / "bin" / "python"),
        "-m",
        "pip",
        "install",
        "-q",
        "--no-index",
        "--find-links",
        str(wheels),
    ]
    subprocess.run([*pip, str(wheel) if by_path else "sbx-tiny"], check=True)
    return venv, wheels, wheel


def test_lock_hashes_what_an_index_serves(run_cli, tmp_path):
    venv, wheels, wheel = venv_with_tiny(tmp_path)
    r = run_cli("lock", venv, "--out", tmp_path / "req.lock", "--find-links", wheels)
    assert r.code == 0
    line = next(x for x in (tmp_path / "req.lock").read_text().splitlines() if x.startswith("sbx"))
    assert line == f"sbx-tiny==2.0.0 --hash=sha256:{sha256_file(wheel)}"


def test_fetch_model_from_a_local_hub(tmp_path):
    from tests.hub_server import FakeHub

    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "config.json").write_text(
        json.dumps(
            {
                "architectures": ["LlamaForCausalLM"],
                "hidden_size": 64,
                "num_hidden_layers": 1,
                "num_attention_heads": 4,
                "vocab_size": 32,
            }
        )
    )
    save_file({"model.embed_tokens.weight": np.ones((32, 64), np.float16)}, repo / "model.safetensors")
    with FakeHub(repo) as hub:
        env = {
            **os.environ,
            "HF_ENDPOINT": hub.url,
            "HF_HOME": str(tmp_path / "hf"),
            "HF_HUB_DISABLE_XET": "1",
        }
        env.pop("HF_HUB_OFFLINE", None)
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "servebox.cli",
                "fetch-model",
                "org/model",
                "--dir",
                str(tmp_path / "dl"),
                "--json",
            ],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
        )
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["complete"] and result["files"] == 2
    assert (tmp_path / "dl" / "model.safetensors").read_bytes() == (repo / "model.safetensors").read_bytes()


def test_truncated_download_is_named(tmp_path):
    from servebox.deploy.fetch import verify_download

    d = tmp_path / "ckpt"
    d.mkdir()
    save_file({"w": np.ones((256, 256), np.float32)}, d / "model.safetensors")
    size = (d / "model.safetensors").stat().st_size
    with open(d / "model.safetensors", "r+b") as handle:
        handle.truncate(size - 1000)
    result = verify_download("org/model", d, {"model.safetensors": size})
    assert not result.complete and any("the hub lists" in p for p in result.problems)
    assert any("header implies" in p for p in result.problems)


def test_lock_refuses_an_out_folder_that_does_not_exist_before_resolving(run_cli, tmp_path):
    """fresh-296: `lock --out` into a missing folder hashed every pin, then ended in a FileNotFoundError traceback."""
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").write_text("#!/bin/sh\nexit 99\n")  # never run: the refusal comes first
    r = run_cli("lock", venv, "--out", tmp_path / "missing" / "req.lock")
    assert r.code == 2
    assert r.err.count("\n") == 1 and "--out" in r.err and "does not exist" in r.err
    assert "Traceback" not in r.err and not (tmp_path / "missing").exists()


def test_pip_error_reaches_the_user_when_its_log_cannot_be_written(tmp_path):
    """fresh-296: a full disk made pip fail and then our own log write raised OSError, hiding pip's error."""
    from servebox.deploy.pip_run import PipFailed, run_pip

    cmd = [sys.executable, "-c", "print('ERROR: No space left on device'); raise SystemExit(1)"]
    with pytest.raises(PipFailed) as caught:
        run_pip(cmd, "pip install", log_path=tmp_path / "gone" / "pip.log")  # its folder does not exist
    assert "No space left on device" in caught.value.error_block
    assert caught.value.log_path is None and "full log" not in str(caught.value)


def test_a_wheel_for_another_platform_is_refused_before_the_lock_is_built(tmp_path):
    """fresh-296: an aarch64 engine wheel was refused only after the whole lock (12 minutes) was installed."""
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    wheel = build_wheel(wheels, "0.1.0", tag="py3-none-win_arm64")
    lock = tmp_path / "req.lock"
    lock.write_text(
        f"sbx-never-installed==1.0 --hash=sha256:{'0' * 64}\n"
    )  # would fail differently if reached
    spec = ProvisionSpec(
        wheel=str(wheel),
        sha256=sha256_file(wheel),
        python=sys.executable,
        requirements=str(lock),
        find_links=str(wheels),
    )
    with pytest.raises(PipFailed) as caught:
        provision(spec, tmp_path / "venvs" / "engine")
    assert "is not a supported wheel on this platform" in caught.value.error_block
    assert "sbx-never-installed" not in caught.value.error_block and "checked first" in str(caught.value)


def test_lock_names_a_package_installed_from_a_file_that_it_leaves_out(run_cli, tmp_path):
    # expected, written first (fresh-304): a private wheel installed by path is a direct reference the lock leaves
    # out as a comment; provision would not install it, and lock said nothing. Now stderr and --json name it.
    venv, wheels, _ = venv_with_tiny(tmp_path, by_path=True)
    r = run_cli("lock", venv, "--out", tmp_path / "req.lock", "--find-links", wheels, "--json")
    assert r.code == 0, r.err
    (reference,) = json.loads(r.out)["not_locked"]
    assert reference.startswith("sbx-tiny @ file://") and f"not locked: {reference}" in r.err
    assert not any(x.startswith("sbx-tiny==") for x in (tmp_path / "req.lock").read_text().splitlines())


def test_a_provision_python_that_cannot_run_is_one_line_naming_the_field(run_cli, tmp_path):
    """A spec's provision.python that does not exist: exit 2 and one line naming the field, no traceback, no venv
    (learn48f found a FileNotFoundError traceback from the inputs digest)."""
    wheel = build_wheel(tmp_path, "1.0.0")
    venv = tmp_path / "venv-link"
    spec = tiny_spec(tmp_path / "spec.toml", venv, wheel, python=tmp_path / "no-such-python")
    r = run_cli("provision", spec)
    assert r.code == 2 and "python" in r.err and "cannot be run" in r.err, r.err
    errors = [line for line in r.err.splitlines() if "error:" in line]
    assert "Traceback" not in r.err and len(errors) == 1 and "no-such-python" in errors[0], r.err
    assert not venv.exists()


def test_a_copy_the_machine_refuses_is_one_line_and_exit_1(tmp_path):
    """The machine, not the spec, refuses: the wheel's copy into TMPDIR stops at a file-size limit the OS enforces
    (RLIMIT_FSIZE: EFBIG, the same path a full TMPDIR's ENOSPC takes; fresh-437's maker met that as a traceback).
    One line naming the path and errno, exit 1, the venv link never made."""
    wheel = build_wheel(tmp_path, "1.0.0")
    with zipfile.ZipFile(wheel, "a") as zf:  # past the limit below, still a valid wheel
        zf.writestr("sbx_tiny/blob.bin", os.urandom(3 << 20), compress_type=zipfile.ZIP_STORED)
    venv = tmp_path / "venv-link"
    spec = tiny_spec(tmp_path / "spec.toml", venv, wheel)
    (tmp_path / "tmp").mkdir()

    def limit():
        import resource
        import signal

        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # the write then fails with EFBIG instead of killing
        resource.setrlimit(resource.RLIMIT_FSIZE, (1 << 20, 1 << 20))

    r = subprocess.run(
        [sys.executable, "-m", "servebox.cli", "provision", str(spec)],
        capture_output=True,
        text=True,
        env={**os.environ, "TMPDIR": str(tmp_path / "tmp"), "COLUMNS": "300"},
        preexec_fn=limit,
        timeout=120,
    )
    errors = [line for line in r.stderr.splitlines() if "error:" in line]
    assert r.returncode == 1, r.stderr
    assert "Traceback" not in r.stderr and len(errors) == 1, r.stderr
    assert "errno 27" in errors[0] and str(tmp_path / "tmp") in errors[0] and "not switched" in errors[0]
    assert not venv.exists()
