"""`servebox render`: write every artifact of a spec into a directory, atomically.

Everything is rendered in memory first, written into a temporary sibling directory, and renamed
into place: an error leaves nothing half-written, and a re-render replaces the old tree at once.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from servebox.deploy import llamaswap, systemd
from servebox.deploy.spec import Spec
from servebox.errors import InputError

CONFIG_DIR = "/etc/servebox"


def render_files(spec: Spec) -> dict[str, str]:
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
        raise InputError("spec", "router", str(exc)) from None
    files["llama-swap.yaml"] = llamaswap.to_yaml(config)
    files["systemd/servebox-router.service"] = systemd.router_unit(spec, f"{CONFIG_DIR}/llama-swap.yaml")
    return files


def write_atomically(files: dict[str, str], out: Path) -> None:
    out = out.resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        for rel, text in files.items():
            path = tmp / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            os.chmod(path, 0o600 if rel.startswith("env/") else 0o644)
        os.chmod(tmp, 0o755)
        if out.exists():
            old = out.with_name(f".{out.name}.old")
            if old.exists():
                shutil.rmtree(old)
            out.rename(old)
            tmp.rename(out)
            shutil.rmtree(old)
        else:
            tmp.rename(out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
