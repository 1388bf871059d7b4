"""`servebox up` on a spec whose engine program is missing: one line naming the spec and the key, exit 2,
nothing written (the fresh-4 doctor corpus recorded up crashing there with a FileNotFoundError traceback)."""

from __future__ import annotations

from pathlib import Path


def test_missing_engine_binary_is_one_line_and_nothing_written(run_cli, tmp_path: Path):
    spec = tmp_path / "spec.toml"
    spec.write_text(
        '[router]\nlisten = "127.0.0.1:18690"\n[[models]]\nname = "tiny"\ncheckpoint = "/tmp/x.gguf"\n'
        'engine = "llama.cpp"\nbinary = "/opt/llama.cpp/build/bin/llama-server"\nport = 18691\n'
    )
    state = tmp_path / "state"
    r = run_cli("up", spec, "--state-dir", state)
    assert r.code == 2
    line = r.err.strip()
    assert len(line.splitlines()) == 1 and "Traceback" not in r.err
    assert (
        str(spec) in line
        and "models[tiny].binary" in line
        and "/opt/llama.cpp/build/bin/llama-server" in line
    )
    assert not state.exists()


def test_missing_vllm_venv_python_names_the_venv(run_cli, tmp_path: Path):
    spec = tmp_path / "spec.toml"
    spec.write_text(
        '[router]\nlisten = "127.0.0.1:18692"\n[[models]]\nname = "m"\ncheckpoint = "/srv/m"\n'
        f'venv = "{tmp_path}/no-venv"\nport = 18693\n'
    )
    r = run_cli("up", spec, "--state-dir", tmp_path / "state")
    assert r.code == 2 and "models[m].venv" in r.err and "no-venv/bin/python" in r.err


def test_a_listen_address_not_on_this_machine_is_the_specs_error_before_anything_starts(
    run_cli, tmp_path: Path
):
    # expected, written first (fresh-304's `servebox up` with listen 192.0.2.10): up started the engine, printed
    # 'router on http://192.0.2.10:...', then uvicorn's bind error and exit 3. Now: one line naming router.listen,
    # exit 2, no engine started, no state written (192.0.2.0/24 is TEST-NET-1: never an address of a machine)
    marker = tmp_path / "engine-started"
    engine = tmp_path / "llama-server"
    engine.write_text(f"#!/bin/sh\ntouch {marker}\nsleep 30\n")
    engine.chmod(0o755)
    spec = tmp_path / "spec.toml"
    spec.write_text(
        '[router]\nlisten = "192.0.2.10:18694"\n[[models]]\nname = "tiny"\ncheckpoint = "/tmp/x.gguf"\n'
        f'engine = "llama.cpp"\nbinary = "{engine}"\nport = 18695\n'
    )
    state = tmp_path / "state"
    r = run_cli("up", spec, "--state-dir", state)
    assert r.code == 2, (r.out, r.err)
    (line,) = r.err.strip().splitlines()
    assert str(spec) in line and "router.listen" in line and "192.0.2.10:18694" in line
    assert "not an address of this machine" in line and "router on" not in r.out
    assert not state.exists() and not marker.exists()
