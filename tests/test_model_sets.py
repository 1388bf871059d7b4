"""Which models of a spec live together: sets computed from the plans, rendered as llama-swap's matrix
(v202+) or a legacy groups partition, and `servebox plan SPEC` printing them."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from servebox.deploy.llamaswap import LlamaSwapConfig, render_config, to_yaml
from servebox.deploy.model_sets import compute_sets
from servebox.deploy.spec import load_spec
from tests.llamacpp_engine_runs import make_models

EXAMPLE = Path(__file__).resolve().parents[1] / "servebox" / "examples" / "digest-2xv100.toml"


@pytest.fixture(scope="session")
def models(tmp_path_factory) -> dict[str, Path]:
    return make_models(tmp_path_factory.getbasetemp() / "llamacpp-tiny")


def _spec(tmp_path: Path, models: dict[str, Path], version: int | None, util: float) -> Path:
    """Two V100s: a vLLM model on both at `util`, three tiny llama.cpp models on GPU 1."""
    router = f"llama_swap_version = {version}\n" if version else ""
    text = f"""
[host]
gpus = ["v100-32gb", "v100-32gb"]
[router]
{router}
[[models]]
name = "big-vllm"
checkpoint = "/models/big"
port = 5810
cold_start_s = 360
gpus = [0, 1]
[models.flags]
gpu-memory-utilization = {util}
"""
    for i, arch in enumerate(("llama", "qwen3", "gemma3")):
        text += f"""
[[models]]
name = "{arch}-cpp"
checkpoint = "{models[arch]}"
engine = "llama.cpp"
binary = "/usr/bin/llama-server"
port = {5820 + i}
cold_start_s = {10 + i}
gpus = [1]
[models.flags]
ctx-size = 4096
parallel = 1
"""
    path = tmp_path / "spec.toml"
    path.write_text(text)
    return path


def test_small_models_live_beside_vllm_when_its_share_leaves_room(tmp_path, models):
    sets = compute_sets(load_spec(_spec(tmp_path, models, 250, 0.5)))
    assert sets.sets == [["big-vllm", "llama-cpp", "qwen3-cpp", "gemma3-cpp"]]
    assert sets.groups == {"g1": ["big-vllm", "llama-cpp", "qwen3-cpp", "gemma3-cpp"]}
    row = next(m for m in sets.models if m.name == "qwen3-cpp")
    # the plan's total (tens of MiB for a tiny model) plus the assumed 300 MiB CUDA context
    assert list(row.mib_per_gpu) == [1] and 310 < row.mib_per_gpu[1] < 400


def test_a_full_gpu_vllm_model_runs_alone(tmp_path, models):
    sets = compute_sets(load_spec(_spec(tmp_path, models, 250, 1.0)))
    assert sets.sets == [["llama-cpp", "qwen3-cpp", "gemma3-cpp"]]
    assert sets.groups == {"g1": ["llama-cpp", "qwen3-cpp", "gemma3-cpp"], "g2": ["big-vllm"]}


def test_matrix_for_v202_and_later_validates_and_renders(tmp_path, models):
    spec = load_spec(_spec(tmp_path, models, 250, 1.0))
    config = render_config(spec, compute_sets(spec))
    assert config.matrix is not None and config.groups == {}
    assert config.matrix.sets == {"s1": "m2 & m3 & m4"}
    assert config.matrix.evict_costs == {"m1": 360, "m2": 10, "m3": 11, "m4": 12}
    data = yaml.safe_load(to_yaml(config))
    assert "groups" not in data and data["matrix"]["vars"]["m1"] == "big-vllm"
    LlamaSwapConfig.model_validate(data)  # the rendered file passes servebox's model of the schema


def test_legacy_groups_before_v202(tmp_path, models):
    spec = load_spec(_spec(tmp_path, models, 180, 1.0))
    config = render_config(spec, compute_sets(spec))
    assert config.matrix is None
    assert config.groups["g1"].swap is False and config.groups["g1"].members == [
        "llama-cpp",
        "qwen3-cpp",
        "gemma3-cpp",
    ]
    assert config.groups["g2"].swap is True and config.groups["g2"].members == ["big-vllm"]


def test_matrix_and_groups_together_are_refused():
    with pytest.raises(ValueError, match="either groups or matrix"):
        LlamaSwapConfig.model_validate(
            {
                "models": {"a": {"cmd": "x"}},
                "groups": {"g": {"members": ["a"]}},
                "matrix": {"vars": {"a": "a"}, "sets": {"s": "a"}},
            }
        )
    with pytest.raises(ValueError, match="1-8 letters"):
        LlamaSwapConfig.model_validate(
            {"models": {"a": {"cmd": "x"}}, "matrix": {"vars": {"toolongname": "a"}, "sets": {"s": "x"}}}
        )


def test_plan_spec_prints_the_table_and_sets(tmp_path, models, run_cli):
    res = run_cli("plan", _spec(tmp_path, models, 250, 0.5), "--json")
    assert res.code == 0, res.err
    data = res.json()
    assert data["sets"] == [["big-vllm", "llama-cpp", "qwen3-cpp", "gemma3-cpp"]]
    assert data["llama_swap"]["matrix"]["sets"] == {"s1": "m1 & m2 & m3 & m4"}
    digest = run_cli("plan", EXAMPLE, "--json")  # its GGUF is not on this machine: planned as exclusive
    assert digest.code == 0 and "GGUF not readable here" in digest.json()["models"][1]["basis"]
    assert digest.json()["llama_swap"]["groups"]["g2"]["members"] == ["gemma3-12b-q4"]
    assert run_cli("plan", EXAMPLE).code == 0


def test_bad_llamacpp_flags_in_a_spec_name_the_model(tmp_path, models, run_cli):
    path = _spec(tmp_path, models, 250, 0.5)
    path.write_text(path.read_text().replace("parallel = 1", 'parallel = "many"', 1))
    res = run_cli("plan", path)
    assert res.code == 2 and "models[llama-cpp]" in res.err and "--parallel" in res.err


def test_spec_without_gpus_is_bad_input(tmp_path, run_cli):
    path = tmp_path / "s.toml"
    path.write_text('[[models]]\nname = "a"\ncheckpoint = "/x"\nport = 5810\n')
    res = run_cli("plan", path)
    assert res.code == 2 and "host.gpus" in res.err


def test_render_uses_the_computed_sets_when_no_group_is_declared(tmp_path, models, run_cli):
    spec = _spec(tmp_path, models, 250, 1.0)
    out = tmp_path / "out"
    res = run_cli("render", spec, "--out", out)
    assert res.code == 0, res.err
    config = yaml.safe_load((out / "llama-swap.yaml").read_text())
    assert config["matrix"]["sets"] == {"s1": "m2 & m3 & m4"} and "groups" not in config


def test_a_model_that_does_not_fit_alone_exits_1(tmp_path, models, run_cli):
    path = _spec(tmp_path, models, 250, 0.5)
    path.write_text(path.read_text().replace("ctx-size = 4096", "ctx-size = 4096\nfit-target = 32500", 1))
    res = run_cli("plan", path, "--json")
    assert res.code == 1
    assert [m["fits_alone"] for m in res.json()["models"]] == [True, False, True, True]
