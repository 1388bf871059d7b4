"""Issue 13 items 1-3 and 7 (spec side): render never destroys what it did not write, and no spec
value can inject a systemd directive or a privilege prefix. Every rendered unit is read back through
systemd's own parser (`systemd-analyze verify`, `systemd --test`)."""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import pytest

from servebox.deploy.render import MANIFEST, render_files, write_output
from servebox.deploy.spec import load_spec
from servebox.deploy.verify import check_units, parsed_exec_start

EXAMPLE = Path(__file__).resolve().parent.parent / "servebox" / "examples" / "digest-2xv100.toml"
needs_systemd = pytest.mark.skipif(
    shutil.which("systemd-analyze") is None, reason="systemd-analyze not installed"
)


def tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


# ---- item 1: data loss -------------------------------------------------------------------------


def test_render_into_a_foreign_non_empty_directory_is_refused_and_touches_nothing(run_cli, tmp_path):
    out = tmp_path / "o"
    out.mkdir()
    (out / "keep").write_text("x")
    r = run_cli("render", EXAMPLE, "--out", out)
    assert r.code == 2, r.out + r.err
    assert str(out) in r.err and "--out" in r.err and len(r.err.strip().splitlines()) == 1
    assert tree(out) == {"keep": b"x"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["o"]  # no temp dir left beside it


def test_render_onto_a_file_or_device_is_refused(run_cli, tmp_path):
    target = tmp_path / "file"
    target.write_text("mine")
    r = run_cli("render", EXAMPLE, "--out", target)
    assert r.code == 2 and "Traceback" not in r.err and len(r.err.strip().splitlines()) == 1
    assert target.read_text() == "mine"
    r = run_cli("render", EXAMPLE, "--out", "/dev/null")
    assert r.code == 2 and Path("/dev/null").is_char_device()


def test_rerender_keeps_the_users_files_and_removes_only_its_own(run_cli, tmp_path):
    out = tmp_path / "o"
    assert run_cli("render", EXAMPLE, "--out", out).code == 0
    assert (out / MANIFEST).is_file()
    (out / "notes.txt").write_text("mine")
    (out / "systemd" / "local.conf").write_text("mine too")
    one_model = tmp_path / "one.toml"
    text = EXAMPLE.read_text()
    one_model.write_text(text[: text.index('[[models]]\nname = "gemma3')])
    assert run_cli("render", one_model, "--out", out).code == 0
    assert (out / "notes.txt").read_text() == "mine" and (out / "systemd" / "local.conf").exists()
    two = tmp_path / "two.toml"
    two.write_text(text.replace('name = "qwen38-nvfp4"', 'name = "qwen-renamed"'))
    assert run_cli("render", two, "--out", out).code == 0
    names = set(tree(out))
    assert "systemd/servebox-qwen-renamed.service" in names
    assert "systemd/servebox-qwen38-nvfp4.service" not in names  # servebox's own stale file goes
    assert {"notes.txt", "systemd/local.conf"} <= names  # the user's stay


def test_a_file_servebox_did_not_write_is_never_overwritten(run_cli, tmp_path):
    out = tmp_path / "o"
    assert run_cli("render", EXAMPLE, "--out", out).code == 0
    manifest = out / MANIFEST
    data = manifest.read_text().replace('"llama-swap.yaml",', "")
    manifest.write_text(data)  # llama-swap.yaml is now a file servebox does not claim
    (out / "llama-swap.yaml").write_text("hand-edited")
    r = run_cli("render", EXAMPLE, "--out", out)
    assert r.code == 2 and "llama-swap.yaml" in r.err
    assert (out / "llama-swap.yaml").read_text() == "hand-edited"


def test_a_tampered_manifest_cannot_point_outside_the_output(run_cli, tmp_path):
    out = tmp_path / "o"
    assert run_cli("render", EXAMPLE, "--out", out).code == 0
    victim = tmp_path / "victim"
    victim.write_text("precious")
    (out / MANIFEST).write_text('{"servebox": 1, "files": ["../victim", "/etc/passwd"]}')
    r = run_cli("render", EXAMPLE, "--out", out)
    assert r.code == 2 and MANIFEST in r.err
    assert victim.read_text() == "precious"


def test_project_directory_survives(run_cli, tmp_path):
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    (project / "src.py").write_text("print(1)")
    before = tree(project)
    assert run_cli("render", EXAMPLE, "--out", project).code == 2
    assert tree(project) == before


def test_render_into_an_empty_existing_directory_works(run_cli, tmp_path):
    out = tmp_path / "empty"
    out.mkdir()
    assert run_cli("render", EXAMPLE, "--out", out).code == 0
    assert (out / "llama-swap.yaml").is_file()


# ---- items 2 and 3: directive injection and privilege prefixes ------------------------------------


def spec_with(tmp_path: Path, old: str, new: str) -> Path:
    text = EXAMPLE.read_text()
    assert old in text, old
    path = tmp_path / "spec.toml"
    path.write_text(text.replace(old, new, 1))
    return path


INJECTIONS = [
    ('memlock = "infinity"', 'memlock = "infinity\\nExecStartPre=/bin/touch /tmp/pwned"', "memlock"),
    ('listen = "127.0.0.1:8000"', 'listen = "127.0.0.1:8000\\nExecStartPre=/bin/sh"', "router.listen"),
    ('venv = "/var/lib/vllm/venv"', 'venv = "+/opt/venv"', "venv"),
    ('binary = "/usr/local/bin/llama-swap"', 'binary = "+/usr/local/bin/llama-swap"', "router.binary"),
    ('binary = "/usr/local/bin/llama-swap"', 'binary = "!/usr/local/bin/llama-swap"', "router.binary"),
    ('binary = "/usr/local/bin/llama-server"', 'binary = "-/usr/local/bin/llama-server"', "binary"),
    ('binary = "/usr/local/bin/llama-server"', 'binary = "llama-server"', "binary"),
    ('venv = "/var/lib/vllm/venv"', 'venv = "@/opt/venv"', "venv"),
    ('venv = "/var/lib/vllm/venv"', 'venv = ":/opt/venv"', "venv"),
    ('cuda_home = "/opt/cuda-12.8"', 'cuda_home = "/opt/cuda\\r\\n[Service]"', "cuda_home"),
    (
        'checkpoint = "/var/lib/models/Qwen3.8-27B-QUASAR-NVFP4"',
        'checkpoint = "--trust-remote-code"',
        "checkpoint",
    ),
    ('name = "caco-zero-three"', 'name = "caco\\nExecStartPre=/bin/sh"', "host.name"),
    ("memory_max_gib = 16", "memory_max_gib = nan", "memory_max_gib"),
    ("memory_max_gib = 16", "memory_max_gib = inf", "memory_max_gib"),
    ("memory_max_gib = 16", "memory_max_gib = -1", "memory_max_gib"),
    ('listen = "127.0.0.1:8000"', 'listen = "127.0.0.1:99999"', "router.listen"),
    ('listen = "127.0.0.1:8000"', 'listen = "no.such.host.invalid:8000"', "router.listen"),
    ('listen = "127.0.0.1:8000"', 'listen = "::1:8000"', "router.listen"),
    ('listen = "127.0.0.1:8000"', 'listen = "localhost"', "router.listen"),
    ("max-num-seqs = 32", 'max-num-seqs = "32\\nExecStartPre=/bin/sh"', "flags"),
    ('reasoning-parser = "qwen3"', '"reasoning-parser\\nX" = "qwen3"', "flags"),
    ('memlock = "infinity"', 'memlock = "lots"', "memlock"),
]


@pytest.mark.parametrize(("old", "new", "field"), INJECTIONS, ids=[i[1][:40] for i in INJECTIONS])
def test_injection_is_refused_with_one_line_naming_the_field(run_cli, tmp_path, old, new, field):
    out = tmp_path / "out"
    r = run_cli("render", spec_with(tmp_path, old, new), "--out", out)
    assert r.code == 2, r.out
    lines = r.err.strip().splitlines()
    assert len(lines) == 1 and field in lines[0] and "spec.toml" in lines[0], lines
    assert "docs/spec.md" in lines[0]
    assert not out.exists()


@pytest.mark.parametrize(
    "listen", ["127.0.0.1:8000", "[::1]:8000", "localhost:8000", "0.0.0.0:8000", ":8000"]
)
def test_good_listen_addresses_are_accepted_and_parsed(tmp_path, listen):
    spec = load_spec(spec_with(tmp_path, 'listen = "127.0.0.1:8000"', f'listen = "{listen}"'))
    assert spec.router.listen_port == 8000
    assert spec.router.listen_host in ("127.0.0.1", "::1", "0.0.0.0", "localhost", "")


def local_spec(tmp_path: Path, text: str) -> Path:
    venv = Path(sys.executable).parent.parent
    text = text.replace('venv = "/var/lib/vllm/venv"', f'venv = "{venv}"')
    text = re.sub(r'binary = "/usr/local/bin/llama-(swap|server)"', 'binary = "/bin/true"', text)
    path = tmp_path / "local.toml"
    path.write_text(text)
    return path


@needs_systemd
def test_hostile_but_legal_values_stay_inside_one_argv_word(tmp_path):
    """Values that are legal (spaces, quotes, `%`, `$`, `;`) reach the engine as one word each:
    read back through systemd's own parser, not through servebox's."""
    text = EXAMPLE.read_text().replace(
        'checkpoint = "/var/lib/models/Qwen3.8-27B-QUASAR-NVFP4"',
        'checkpoint = "/var/lib/models/a b;c %n $USER \\"q\\""',
    )
    out = tmp_path / "out"
    write_output(render_files(load_spec(local_spec(tmp_path, text))), out)
    argv = parsed_exec_start(out / "systemd" / "servebox-qwen38-nvfp4.service")
    assert argv[argv.index("--model") + 1] == '/var/lib/models/a b;c %n $$USER "q"'
    verdicts = {v.unit: v for v in check_units(out / "systemd")}
    assert all(v.verify_rc == 0 for v in verdicts.values()), verdicts
    assert not any(
        line.startswith("ExecStartPre") for p in out.rglob("*.service") for line in p.read_text().splitlines()
    )


def test_env_file_values_cannot_break_out(tmp_path):
    text = EXAMPLE.read_text().replace(
        'nvcc_prepend_flags = "-I/opt/cuda-12.8/include"', 'nvcc_prepend_flags = "-I/x\\" Y=\\"z"'
    )
    files = render_files(load_spec(local_spec(tmp_path, text)))
    env = files["env/servebox-qwen38-nvfp4.env"]
    assert 'NVCC_PREPEND_FLAGS="-I/x\\" Y=\\"z"' in env


@needs_systemd
def test_the_router_reads_its_config_as_a_credential(tmp_path):
    """The llama-swap config may hold API keys: installed 0600 (root), handed to the router's
    dynamic user through LoadCredential=; systemd's own parser resolves --config to it."""
    out = tmp_path / "out"
    write_output(render_files(load_spec(local_spec(tmp_path, EXAMPLE.read_text()))), out)
    unit = out / "systemd" / "servebox-router.service"
    assert "LoadCredential=llama-swap.yaml:/etc/servebox/llama-swap.yaml" in unit.read_text().splitlines()
    argv = parsed_exec_start(unit)
    assert argv[argv.index("--config") + 1] == "/run/credentials/servebox-router.service/llama-swap.yaml"
    verdict = next(v for v in check_units(out / "systemd") if v.unit == "servebox-router.service")
    assert verdict.verify_rc == 0 and verdict.exposure is not None and verdict.exposure <= 2.5
