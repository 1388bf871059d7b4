"""`servebox check --engine-profile vllm-0.26`: the profile read from vLLM 0.26.0's wheel (engines.toml) gives the
findings its data implies, refuses the flags 0.26.0's parser lacks as plan does, and its quantization gates are what
the wheel's source says (tools/vllm026_quant_gates.py, where the wheel is present)."""

from __future__ import annotations

import glob
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from servebox.check import load_engine_rules, run_check
from servebox.checkpoint.facts import load_checkpoint
from servebox.engines.vllm.flags import parse_flags
from servebox.hardware import get_gpu
from tests.conftest import CHECKPOINTS, REPO


def check(source, *argv, gpu="h100-80gb", profile="vllm-0.26"):
    flags, rest = parse_flags(list(argv))
    return run_check(
        load_checkpoint(str(source)), flags, get_gpu(gpu), load_engine_rules(profile), rest, True
    )


def gate_finding(report):
    return next((f for f in report.findings if f.rule == "quantization-capability"), None)


def modelopt_fp8(tmp_path, algo="FP8"):
    """The bundled llama-3.1-8b-instruct config with a ModelOpt hf_quant_config.json (no weights: metadata only)."""
    d = tmp_path / f"llama-modelopt-{algo.lower()}"
    d.mkdir()
    (d / "config.json").write_text((CHECKPOINTS / "llama-3.1-8b-instruct" / "config.json").read_text())
    quant = {"quant_algo": algo, "kv_cache_quant_algo": None, "exclude_modules": ["lm_head"]}
    (d / "hf_quant_config.json").write_text(
        json.dumps({"producer": {"name": "modelopt"}, "quantization": quant})
    )
    return d


def test_modelopt_fp8_on_an_a100_differs_between_the_releases(tmp_path):
    """0.26.0's ModelOptFp8Config.get_min_capability is 89, 0.32.0's 80 (engines.toml comments): an A100 (80) is
    refused by one and not the other; vLLM's own words, with the release's number."""
    d = modelopt_fp8(tmp_path)
    f = gate_finding(check(d, "--max-model-len", "4096", gpu="a100-80gb"))
    assert f is not None and f.severity == "error"
    assert "Minimum capability: 89. Current capability: 80." in f.message
    assert gate_finding(check(d, "--max-model-len", "4096", gpu="a100-80gb", profile="vllm-0.32")) is None
    # an L4 (89) is past both; FP8_PB_WO is the same config class; NVFP4 is another (75) and loads on an A100
    assert gate_finding(check(d, "--max-model-len", "4096", gpu="l4-24gb")) is None
    assert gate_finding(check(modelopt_fp8(tmp_path, "FP8_PB_WO"), gpu="a100-80gb")).severity == "error"
    assert (
        gate_finding(check(modelopt_fp8(tmp_path, "NVFP4"), "--max-model-len", "4096", gpu="a100-80gb"))
        is None
    )


def test_what_both_releases_share_awq_on_a_v100():
    """AutoAWQConfig says 75 in both releases: the same refusal on a V100 under either profile."""
    for profile in ("vllm-0.26", "vllm-0.32"):
        f = gate_finding(
            check(CHECKPOINTS / "qwen2.5-7b-instruct-awq", "--max-model-len", "8192", gpu="v100-32gb")
        )
        assert f.severity == "error" and "Minimum capability: 75. Current capability: 70." in f.message, (
            profile
        )


def test_the_profile_carries_every_field_the_032_profile_has():
    new, old = load_engine_rules("vllm-0.26").data, load_engine_rules("vllm-0.32").data
    assert set(old) <= set(new) and new["version"] == "0.26.0"
    assert new["serve_options"] == "vllm-0.26.0-serve-options.json"
    assert set(old["backends"]) == set(new["backends"]) and new["backend_order"] == old["backend_order"]


@pytest.mark.parametrize("flag,value", [("--swap-space", "16"), ("--max-num-queued-reqs", "8")])
def test_a_flag_026_lacks_is_refused_by_check_as_plan_refuses_it(run_cli, flag, value):
    """--swap-space: gone before 0.26.0 (the real 0.26.0 refused it on the H100, fresh371-vllm-qwen35-swap-space-16);
    --max-num-queued-reqs: 0.32.0 has it, 0.26.0 does not."""
    llama = CHECKPOINTS / "llama-3.1-8b-instruct"
    r = check(llama, "--max-model-len", "4096", flag, value)
    f = next(f for f in r.findings if f.rule == "unknown-serve-flag")
    assert f.severity == "error" and flag in f.message and "vLLM 0.26.0" in f.message
    if flag == "--max-num-queued-reqs":
        assert not any(
            f.rule == "unknown-serve-flag" for f in check(llama, flag, value, profile="vllm-0.32").findings
        )
    got = run_cli("plan", llama, "--gpu", "h100-80gb", "--engine-profile", "vllm-0.26", "--max-model-len", "4096",
                  flag, value, "--json")  # fmt: skip
    assert got.code == 1 and json.loads(got.out)["flags_refused"][0].startswith(flag)
    cli = run_cli("check", llama, "--gpu", "h100-80gb", "--engine-profile", "vllm-0.26", flag, value)
    assert cli.code == 1


def test_the_help_lists_the_profiles_from_the_data(run_cli):
    out = run_cli("check", "--help").out
    assert "vllm-0.26" in out and "vllm-0.32" in out and "1cat-vllm-1.5-volta" in out


def _wheel() -> str | None:
    """vLLM 0.26.0's official wheel (or its unzipped tree): $SERVEBOX_VLLM026_WHEEL, else the GPU kit's copy under
    the main checkout's .gpu/build (git's common dir), else none: the suite runs without it."""
    given = os.environ.get("SERVEBOX_VLLM026_WHEEL")
    if given:
        return given
    common = subprocess.run(
        ["git", "rev-parse", "--git-common-dir"], cwd=REPO, capture_output=True, text=True
    ).stdout.strip()
    roots = [REPO] + ([(REPO / common).resolve().parent] if common else [])
    for root in roots:
        found = sorted(glob.glob(str(root / ".gpu/build/vllm-0.26.0-*.whl")))
        if found:
            return found[0]
    return None


@pytest.mark.skipif(_wheel() is None, reason="vLLM 0.26.0's wheel is not here (set SERVEBOX_VLLM026_WHEEL)")
def test_the_quant_gates_are_what_the_wheels_source_says():
    sys.path.insert(0, str(REPO / "tools"))
    try:
        import vllm026_quant_gates as gates
    finally:
        sys.path.remove(str(REPO / "tools"))
    derived = gates.derive(Path(_wheel()))
    assert derived == load_engine_rules("vllm-0.26").data["quant_min_capability"]
    assert "gguf" not in derived  # 0.26.0 has no GGUF method, so the profile has no gguf key
