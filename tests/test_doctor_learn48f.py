"""What fresh-433 taught: `servebox provision`'s refusals of what is ON DISK (not of a spec field) get a family that
names their cause and fix, not servebox-spec-invalid's 'correct the file and field' (stop 47's ruling, learn47f).

- servebox-venv-path-not-managed-symlink (new): deploy/provision.py _provision_locked's 'VENV: venv: exists and is
  not a servebox-managed symlink; move it away first' (a hand-made venv directory or a file at the venv path).
- servebox-install-root-not-a-directory (new): deploy/root_lock.py install_root_lock's 'ROOT/.servebox-provision.lock:
  cannot create the install root's lock: File exists' (a file at the root) / 'Not a directory' (a file above it).

The refusals are rendered by servebox's own provision code run on scratch specs under tmp_path (other paths than the
corpus log's), printed as servebox/cli prints an InputError; one through the real CLI with --json, which prints the
same line (--json changes only the success output). Near misses: real spec-field refusals of the same run stay
servebox-spec-invalid, and the lock's other strerrors stay their OS families.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from servebox.deploy.provision import ProvisionSpec, provision
from servebox.errors import InputError
from tests.doctor_text import assert_named, assert_not_confident

REPO = Path(__file__).resolve().parents[1]
SHA = "ab" * 32


def _spec(tmp: Path, **fields) -> ProvisionSpec:
    lock = tmp / "engine.lock"
    lock.write_text("# servebox lock\n")
    values = {
        "wheel": str(tmp / "wheels" / "vllm-0.32.0-cp38-abi3-manylinux_2_28_x86_64.whl"),
        "sha256": SHA,
        "requirements": str(lock),
        "python": sys.executable,
    }
    return ProvisionSpec(**(values | fields))


def refused(spec: ProvisionSpec, venv: Path) -> str:
    """The log of a refused `servebox provision`: provision()'s own InputError, as servebox/cli prints it (exit 2)."""
    with pytest.raises(InputError) as info:
        provision(spec, venv, wait_s=0)
    return (
        f"$ servebox provision /etc/llm/llm.toml\nservebox: provisioning qwen3-8b into {venv}\n"
        f"servebox: error: {info.value.one_line()}\n# exit: {info.value.exit_code}\n"
    )


def test_a_hand_made_venv_directory_at_the_venv_path(tmp_path):
    venv = tmp_path / "srv" / "engines" / "llama-cpp-env"
    (venv / "bin").mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text("home = /usr/bin\n")
    log = refused(_spec(tmp_path), venv)
    assert "is not a servebox-managed symlink" in log
    assert_named("servebox-venv-path-not-managed-symlink", log)


def test_a_plain_file_at_the_venv_path(tmp_path):
    venv = tmp_path / "opt" / "vllm"
    venv.parent.mkdir(parents=True)
    venv.write_text("left over from a tarball install\n")
    assert_named("servebox-venv-path-not-managed-symlink", refused(_spec(tmp_path), venv))


def test_a_file_at_the_install_root(tmp_path):
    root = tmp_path / "venv-store"
    root.write_text("not a folder\n")
    log = refused(_spec(tmp_path, venv_root=str(root)), tmp_path / "links" / "vllm")
    assert "cannot create the install root's lock: File exists" in log
    assert_named("servebox-install-root-not-a-directory", log)


def test_a_file_above_the_install_root(tmp_path):
    (tmp_path / "opt").write_text("a file where a folder was meant\n")
    log = refused(_spec(tmp_path), tmp_path / "opt" / "llm" / "venvs" / "vllm")
    assert "cannot create the install root's lock: Not a directory" in log
    assert_named("servebox-install-root-not-a-directory", log)


def test_the_refusal_under_json_is_the_same_line(tmp_path):
    """provision --json has no JSON form of a refusal: main() prints the same 'servebox: error:' line, exit 2."""
    venv = tmp_path / "venvs" / "qwen"
    (venv / "lib").mkdir(parents=True)
    spec = _spec(tmp_path)
    toml = tmp_path / "llm.toml"
    toml.write_text(
        f'[host]\nname = "gpu-3"\n\n[[models]]\nname = "qwen3-8b"\ncheckpoint = "/srv/models/Qwen3-8B"\n'
        f'port = 8017\nvenv = "{venv}"\n\n[models.provision]\nwheel = "{spec.wheel}"\nsha256 = "{SHA}"\n'
        f'requirements = "{spec.requirements}"\npython = "{sys.executable}"\n'
    )
    env = os.environ | {"PYTHONPATH": str(REPO)}
    cmd = [sys.executable, "-m", "servebox.cli", "provision", "--json", str(toml)]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == ""
    assert_named(
        "servebox-venv-path-not-managed-symlink", f"$ servebox provision --json {toml}\n{proc.stderr}"
    )


def test_a_missing_wheel_stays_a_spec_field_refusal(tmp_path):
    """The venv path is free, so the run goes on to the wheel the spec names, which is not there: the spec's field."""
    log = refused(_spec(tmp_path), tmp_path / "venvs" / "vllm")
    assert ": wheel: no such file" in log
    assert_named("servebox-spec-invalid", log)
    assert_not_confident("servebox-venv-path-not-managed-symlink", log)


def test_a_missing_lock_stays_a_spec_field_refusal(tmp_path):
    spec = _spec(tmp_path, requirements=str(tmp_path / "locks" / "vllm.lock"))
    log = refused(spec, tmp_path / "venvs" / "vllm")
    assert ": requirements: no such file" in log
    assert_named("servebox-spec-invalid", log)


@pytest.mark.parametrize(
    ("strerror", "family"),
    # learn49a (s49): both are the install root the provisioning user cannot write, servebox's own refusal with the
    # fix named (stop 47's ruling), no longer the OS families
    [
        ("Permission denied", "servebox-install-root-not-writable"),
        ("Read-only file system", "servebox-install-root-not-writable"),
    ],
)
def test_the_lock_s_other_strerrors_keep_their_os_families(strerror, family):
    line = InputError(
        "/var/lib/llm/venvs/.servebox-provision.lock",
        None,
        f"cannot create the install root's lock: {strerror}",
    ).one_line()
    log = f"$ servebox provision /etc/llm/llm.toml\nservebox: error: {line}\n# exit: 2\n"
    assert_named(family, log)
    assert_not_confident("servebox-install-root-not-a-directory", log)
