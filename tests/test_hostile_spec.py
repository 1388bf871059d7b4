"""Every string the spec holds is refused with a newline (or any control character) in it, and every
path that reaches a unit is refused with one of systemd's special prefixes: enumerated from the
schema itself, so a field added later is covered without editing this test."""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
import tomllib
from pathlib import Path
from typing import Any, get_args

import pytest
from pydantic import AfterValidator, BaseModel

from servebox.deploy.render import SYSUSERS, install_steps, render_files
from servebox.deploy.spec import Spec, load_spec, validate_spec
from servebox.deploy.spec_values import SYSTEMD_PREFIXES, absolute_path, checkpoint_ref
from servebox.errors import InputError

EXAMPLE = Path(__file__).resolve().parent.parent / "servebox" / "examples" / "digest-2xv100.toml"


def full_spec() -> dict[str, Any]:
    """The example spec with every optional string field filled, so each one can be attacked."""
    data = tomllib.loads(EXAMPLE.read_text())
    data["router"].update(api_keys=["sk-one"], log_level="info", kind="llama-swap")
    data["host"].update(name="gpu-host", address="10.0.0.1")
    data["hosts"] = [
        {"name": "gpu-host", "address": "10.0.0.1", "gpus": ["v100-32gb"]},
        {"name": "gpu-b", "address": "gpu-b.cluster.example"},
    ]
    data["kubernetes"] = {
        "image": "vllm/vllm-openai:v0.32.0",
        "llama_cpp_image": "ghcr.io/ggml-org/llama.cpp:server",
        "fetch_image": "registry.example:5000/servebox:0.1",
        "namespace": "llm",
        "python": "python3",
        "model_pvc": "models",
        "model_mount": "/var/lib/models",
        "service_type": "ClusterIP",
    }
    qwen = data["models"][0]
    qwen.update(
        env={"VLLM_LOGGING_LEVEL": "INFO"}, engine="vllm", binary="/usr/bin/true", nodes=["gpu-host", "gpu-b"]
    )
    qwen["provision"] = {
        "wheel": "/srv/wheels/vllm-0.32.0-cp311-cp311-linux_x86_64.whl",
        "sha256": "0" * 64,
        "requirements": "/srv/lock.txt",
        "python": "/usr/bin/python3",
        "venv_root": "/var/lib/vllm/venvs",
        "find_links": "/srv/wheels",
    }
    return data


def string_leaves(data: Any, path: tuple = ()) -> list[tuple]:
    """Paths of every string value (and every string key of a free-form table) in DATA."""
    out = []
    if isinstance(data, str):
        out.append(path)
    elif isinstance(data, dict):
        for key, value in data.items():
            out += string_leaves(value, (*path, key))
            if path and path[-1] in ("flags", "env"):
                out.append((*path, ("key", key)))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            out += string_leaves(value, (*path, i))
    return out


def with_value(data: dict, path: tuple, change) -> dict:
    data = copy.deepcopy(data)
    node = data
    for part in path[:-1]:
        node = node[part]
    last = path[-1]
    if isinstance(last, tuple):  # a key of a free-form table
        node[change(last[1])] = node.pop(last[1])
    else:
        node[last] = change(node[last] if isinstance(node, list) else node.get(last))
    return data


def schema_string_fields(model: type[BaseModel] = Spec, prefix: str = "") -> set[str]:
    """Dotted names of every field whose type holds a str, from the pydantic models themselves."""
    out: set[str] = set()
    for name, field in model.model_fields.items():
        stack = [field.annotation]
        while stack:
            tp = stack.pop()
            if tp is str:
                out.add(prefix + name)
            elif isinstance(tp, type) and issubclass(tp, BaseModel):
                out |= schema_string_fields(tp, f"{prefix}{name}.")
            else:
                stack += list(get_args(tp))
    return out


def dotted(path: tuple) -> str:
    return ".".join(p for p in path if isinstance(p, str))


def load(tmp_path: Path, data: dict) -> Spec:
    """What load_spec does after tomllib: the same function, without a TOML writer."""
    return validate_spec(data, str(tmp_path / "spec.toml"))


def test_every_string_field_of_the_schema_is_attacked():
    attacked = {dotted(p) for p in string_leaves(full_spec()) if not isinstance(p[-1], tuple)}
    missing = {
        f for f in schema_string_fields() if not any(a == f or a.startswith(f + ".") for a in attacked)
    }
    assert not missing, f"schema string fields the attack spec leaves out: {sorted(missing)}"


@pytest.mark.parametrize("bad", ["\n", "\r", "\x00", "\x1b", "\u2028"], ids=["LF", "CR", "NUL", "ESC", "LS"])
def test_a_control_character_in_any_field_is_refused(tmp_path, bad):
    base = full_spec()
    load(tmp_path, base)  # the attack spec itself is valid
    leaves = string_leaves(base)
    assert len(leaves) > 40
    for path in leaves:
        data = with_value(base, path, lambda v: v[:1] + bad + "ExecStartPre=/bin/sh" + v[1:])
        with pytest.raises(InputError) as info:
            load(tmp_path, data)
        line = info.value.one_line()
        named = path[-2] if isinstance(path[-1], tuple) else path[-1]  # a bad key: its table is named
        assert "\n" not in line and "ExecStartPre=/bin/sh" not in line.split(": ")[-1], line
        assert str(named) in line or f"[{named}]" in line, (path, line)


def unit_path_fields(model: type[BaseModel] = Spec, prefix: str = "") -> set[str]:
    out: set[str] = set()
    for name, field in model.model_fields.items():
        stack = [field.annotation, *field.metadata]
        while stack:
            tp = stack.pop()
            if isinstance(tp, AfterValidator) and tp.func in (absolute_path, checkpoint_ref):
                out.add(prefix + name)
            elif isinstance(tp, type) and issubclass(tp, BaseModel) and tp is not model:
                out |= unit_path_fields(tp, f"{prefix}{name}.")
            else:
                stack += list(get_args(tp))
    return out


def test_every_unit_path_refuses_every_systemd_prefix(tmp_path):
    fields = unit_path_fields()
    assert {
        "router.binary",
        "models.venv",
        "models.binary",
        "models.checkpoint",
        "models.toolchain.cc",
    } <= fields
    base = full_spec()
    paths = [p for p in string_leaves(base) if dotted(p) in fields]
    assert {dotted(p) for p in paths} == fields
    for path in paths:
        for prefix in SYSTEMD_PREFIXES:
            data = with_value(base, path, lambda v, pre=prefix: pre + v)
            with pytest.raises(InputError) as info:
                load(tmp_path, data)
            assert dotted(path).split(".")[-1] in info.value.one_line(), info.value.one_line()


def test_numbers_must_be_finite_and_in_range(tmp_path):
    base = full_spec()
    for path, value in [
        (("models", 0, "memory_max_gib"), float("nan")),
        (("host", "memory_gib"), float("inf")),
        (("models", 0, "cold_start_s"), 0),
        (("models", 0, "port"), 99999),
        (("models", 0, "gpus"), [-1]),
        (("models", 0, "ttl_s"), -5),
        (("models", 0, "flags", "max-model-len"), float("nan")),
        (("models", 0, "port"), "5810"),  # no coercion: a string is not a port
        (("models", 0, "run_as_unit"), 1),
    ]:
        data = with_value(base, path, lambda _v, value=value: value)
        with pytest.raises(InputError) as info:
            load(tmp_path, data)
        assert path[-1] in info.value.one_line(), info.value.one_line()


def test_model_names_become_valid_system_users():
    spec = Spec.model_validate(
        {
            "models": [
                {"name": "qwen3.5-27b", "checkpoint": "/m", "port": 5000},
                {"name": "qwen3_5-27b", "checkpoint": "/m", "port": 5001},
                {"name": "a" * 64, "checkpoint": "/m", "port": 5002},
            ]
        }
    )
    from servebox.deploy.systemd import service_user

    users = [service_user(m) for m in spec.models]
    assert len(set(users)) == 3 and all(len(u) <= 31 and "." not in u for u in users)


@pytest.mark.skipif(shutil.which("systemd-sysusers") is None, reason="systemd-sysusers not installed")
def test_sysusers_entry_is_accepted_by_systemd_sysusers(tmp_path):
    files = render_files(load_spec(EXAMPLE))
    conf = tmp_path / "servebox.conf"
    conf.write_text(files[SYSUSERS])
    root = tmp_path / "root"
    (root / "etc").mkdir(parents=True)
    proc = subprocess.run(
        ["systemd-sysusers", f"--root={root}", "--dry-run", str(conf)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Creating user 'servebox-qwen38-nvfp4'" in proc.stdout + proc.stderr
    unit = files["systemd/servebox-qwen38-nvfp4.service"]
    assert "User=servebox-qwen38-nvfp4" in unit.splitlines()


def test_render_prints_the_install_steps(run_cli, tmp_path):
    out = tmp_path / "out"
    r = run_cli("render", EXAMPLE, "--out", out)
    assert r.code == 0
    assert (
        "systemctl daemon-reload" in r.out
        and "enable --now servebox-qwen38-nvfp4.service servebox-router.service" in r.out
    )
    assert f"{out}/sysusers.d/servebox.conf /etc/sysusers.d/servebox.conf" in r.out
    steps = json.loads(run_cli("render", EXAMPLE, "--out", out, "--json").out)["install"]
    assert steps == install_steps(render_files(load_spec(EXAMPLE)), out)
    # each file the units name is installed where they name it
    assert any(s.endswith("/etc/servebox/llama-swap.yaml") for s in steps)
    assert any(s.endswith("/etc/servebox/env/servebox-qwen38-nvfp4.env") for s in steps)


@pytest.mark.skipif(shutil.which("install") is None, reason="coreutils install missing")
def test_the_printed_install_steps_put_every_file_where_the_units_read_it(run_cli, tmp_path):
    """Run the printed steps for real into a scratch root (sudo dropped, absolute targets moved
    under the root; systemctl is left out): every file a unit names must then exist there."""
    import shlex

    out, root = tmp_path / "out", tmp_path / "root"
    steps = json.loads(run_cli("render", EXAMPLE, "--out", out, "--json").out)["install"]
    assert steps[-2:] == [
        "sudo systemctl daemon-reload",
        "sudo systemctl enable --now servebox-qwen38-nvfp4.service servebox-router.service",
    ]
    (root / "etc" / "systemd" / "system").mkdir(parents=True)
    (root / "etc" / "sysusers.d").mkdir(parents=True)
    for step in steps[:-2]:
        command = step.split(" && ")[0]
        words = shlex.split(command)
        assert words[:2] == ["sudo", "install"], step
        words = [w if w.startswith(str(out)) or not w.startswith("/") else f"{root}{w}" for w in words[1:]]
        subprocess.run(words, check=True, timeout=30)
    units = sorted((root / "etc" / "systemd" / "system").glob("*.service"))
    assert [u.name for u in units] == ["servebox-qwen38-nvfp4.service", "servebox-router.service"]
    named = []
    for unit in units:
        for line in unit.read_text().splitlines():
            if line.startswith("EnvironmentFile="):
                named.append(line.split("=", 1)[1].lstrip("-"))
            if line.startswith("LoadCredential="):
                named.append(line.split(":", 1)[1])
    assert named == ["/etc/servebox/env/servebox-qwen38-nvfp4.env", "/etc/servebox/llama-swap.yaml"]
    for path in named:
        assert (root / path.lstrip("/")).is_file(), path
    for secret in named:  # the env file and the router config (API keys) are root-only
        assert oct((root / secret.lstrip("/")).stat().st_mode & 0o777) == "0o600"
    assert (root / "etc/sysusers.d/servebox.conf").read_text().startswith("# servebox")


def test_a_whole_spec_check_links_the_section_its_message_names(tmp_path):
    """The duplicate-name/port checks run on the whole spec (no field location): the link still names the
    section, not an empty anchor."""
    data = full_spec()
    data["models"].append(copy.deepcopy(data["models"][0]))
    data["models"][-1]["port"] = data["models"][0]["port"] + 1
    with pytest.raises(InputError) as err:
        load(tmp_path, data)
    assert "duplicate name" in str(err.value) and str(err.value).endswith("(see docs/spec.md#models)")


@pytest.mark.parametrize(
    ("engine", "key", "field"),
    [
        ("vllm", "model", "checkpoint"),
        ("vllm", "served_model_name", "name"),
        ("vllm", "--port", "port"),
        ("llama.cpp", "m", "checkpoint"),
        ("llama.cpp", "alias", "name"),
        ("vllm", "host", "router"),
    ],
)
def test_a_flag_render_writes_itself_is_refused_naming_it(tmp_path, engine, key, field):
    """fresh-507 draw 10: a spec with a checkpoint and flags `model` rendered --model twice and vLLM served the
    second; a flags `port` would move the engine off the port the router asks."""
    data = full_spec()
    data["models"][0].update(engine=engine, binary="/usr/bin/true")
    data["models"][0]["flags"] = {"max-model-len": 4096, key: "x" if key != "--port" else 9000}
    with pytest.raises(InputError) as info:
        load(tmp_path, data)
    line = info.value.one_line()
    assert f"flags.{key}" in line and field in line and "\n" not in line, line
    data["models"][0]["flags"] = {"max-model-len": 4096, "model-impl": "auto", "port-offset": 1}
    load(tmp_path, data)  # names that only start like them are the user's


def test_render_refuses_a_doubled_model_flag_with_exit_2_and_writes_nothing(run_cli, tmp_path):
    spec = tmp_path / "spec.toml"
    spec.write_text(
        EXAMPLE.read_text().replace("[models.flags]", '[models.flags]\nmodel = "/models/other"', 1)
    )
    assert "[models.flags]" in EXAMPLE.read_text()
    r = run_cli("render", spec, "--out", tmp_path / "out")
    assert r.code == 2 and "flags.model" in r.err and "checkpoint" in r.err and "Traceback" not in r.err
    assert not (tmp_path / "out").exists()
