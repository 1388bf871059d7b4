"""A directory option naming something that cannot be a folder is bad input: one line naming the path and the option,
exit 2, nothing started or written (fresh-464 recorded `servebox up --state-dir FILE` ending in a FileExistsError
traceback from mkdir)."""

from __future__ import annotations

from pathlib import Path

import pytest


def _spec(tmp_path: Path) -> tuple[Path, Path]:
    """A spec whose engine would leave a marker if up ever started it."""
    marker = tmp_path / "engine-started"
    engine = tmp_path / "llama-server"
    engine.write_text(f"#!/bin/sh\ntouch {marker}\nsleep 30\n")
    engine.chmod(0o755)
    spec = tmp_path / "spec.toml"
    spec.write_text(
        '[router]\nlisten = "127.0.0.1:18696"\n[[models]]\nname = "tiny"\ncheckpoint = "/tmp/x.gguf"\n'
        f'engine = "llama.cpp"\nbinary = "{engine}"\nport = 18697\n'
    )
    return spec, marker


def _one_line(r) -> str:
    assert r.code == 2, (r.out, r.err)
    assert "Traceback" not in r.err and "FileExistsError" not in r.err
    (line,) = r.err.strip().splitlines()
    return line


def test_up_with_state_dir_a_regular_file_is_one_line_and_starts_nothing(run_cli, tmp_path: Path):
    spec, marker = _spec(tmp_path)
    state = tmp_path / "state"
    state.write_text("not a folder\n")
    line = _one_line(run_cli("up", spec, "--state-dir", state))
    assert str(state) in line and "--state-dir" in line and "regular file" in line
    assert state.read_text() == "not a folder\n" and not marker.exists()


def test_up_with_a_file_above_the_state_dir_names_the_path(run_cli, tmp_path: Path):
    spec, marker = _spec(tmp_path)
    (tmp_path / "srv").write_text("")
    state = tmp_path / "srv" / "servebox" / "state"
    line = _one_line(run_cli("up", spec, "--state-dir", state))
    assert str(state) in line and "above it is a file" in line and not marker.exists()


@pytest.mark.parametrize("verb", ["down", "watch"])
def test_down_and_watch_refuse_a_state_dir_that_is_a_file(run_cli, tmp_path: Path, verb: str):
    spec, _ = _spec(tmp_path)
    state = tmp_path / "state"
    state.write_text("")
    args = ["--state-dir", state] if verb == "down" else [spec, "--state-dir", state, "--count", "1"]
    line = _one_line(run_cli(verb, *args))
    assert f"{state}: --state-dir: exists and is a regular file" in line


def test_bench_result_dir_a_file_is_refused_before_any_request(run_cli, tmp_path: Path):
    # port 9 (discard) has no server: reaching the benchmark would fail differently, and later
    result = tmp_path / "results"
    result.write_text("")
    line = _one_line(
        run_cli("bench", "http://127.0.0.1:9", "--model", "m", "--result-dir", result, "--num-prompts", "1")
    )
    assert f"{result}: --result-dir:" in line and "not a directory" in line


def test_fetch_model_dir_a_file_is_refused_before_any_download(run_cli, tmp_path: Path):
    target = tmp_path / "ckpt"
    target.write_text("")
    line = _one_line(run_cli("fetch-model", "org/name", "--dir", target))
    assert f"{target}: --dir:" in line


def test_a_folder_or_a_new_path_passes(tmp_path: Path):
    from servebox.cli.dirs import usable_directory

    assert usable_directory(tmp_path, "--state-dir") == tmp_path
    assert usable_directory(tmp_path / "new" / "deeper", "--state-dir") == tmp_path / "new" / "deeper"
