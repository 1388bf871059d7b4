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
