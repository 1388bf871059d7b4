"""Public start-ups of gpt-oss-120b on one H100 80GB, each planned with the flags and the vLLM release its log shows.

Issue 11's rule: no plan says "fits" where the real engine refused. Each case records the URL, the flags, what
vLLM said and what plan says now. The mechanism (vLLM's source, profiles/vllm.toml):
- the sampler warm-up (`_dummy_sampler_run`, max_num_seqs rows of vocab-wide logits) is the profile run's peak
  for a 201,088-token vocabulary; before vLLM's Triton top-k/top-p kernel (#33538) the logits were sorted in
  PyTorch: 37 B per logit as vllm-project/vllm#32558 measured that path (`sampler_bytes_per_logit` in the
  profile), 16 B on 0.19 and 0.26; #27508's first start died inside `_dummy_sampler_run`.
- MXFP4 experts are repacked at load per MoE backend: Marlin on 0.10.x Hopper ('Model loading took 65.9651 GiB',
  #23278, the marlin_utils_fp4 warning), OAI Triton on 0.14.1 (64.38 GiB, #33155, "Using Triton backend").
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from tests.conftest import CHECKPOINTS

GPT_OSS = CHECKPOINTS / "gpt-oss-120b"


@dataclass
class Case:
    url: str
    version: str
    flags: list[str]
    vllm_said: str
    engine_refused: bool
    plan_says: str  # what `servebox plan` says now (available KV per rank, verdict), asserted below
    plan_kv_gib: float
    loading_gib: float | None = None  # 'Model loading took' where the log shows it


CASES = {
    "23278-defaults": Case(
        "https://github.com/vllm-project/vllm/issues/23278",
        "0.10.1",
        [],
        "Model loading took 65.9651 GiB; Available KV cache memory: -2.14 GiB; EngineCore failed to start",
        True,
        "loading 65.97 GiB (Marlin), sampler warm-up 7.10 GiB, KV -1.94 GiB: does not fit",
        -1.94,
        65.9651,
    ),
    "27508-defaults": Case(
        "https://github.com/vllm-project/vllm/issues/27508",
        "0.11.0",
        [],
        "RuntimeError: CUDA out of memory in _dummy_sampler_run (the sampler warm-up, 1024 dummy requests)",
        True,
        "sampler warm-up 7.10 GiB is the peak, KV -1.94 GiB: does not fit",
        -1.94,
    ),
    "27508-util095-mnbt1024": Case(
        "https://github.com/vllm-project/vllm/issues/27508",
        "0.11.0",
        ["--gpu-memory-utilization", "0.95", "--max-num-batched-tokens", "1024"],
        "Available KV cache memory: 1.71 GiB; too small for one 131,072-token request",
        True,
        "KV 2.02 GiB, one 131,072-token request needs 4.54 GiB (largest that fits 57,600): does not fit",
        2.02,
    ),
    "33155-works-on-0.11.2": Case(
        "https://github.com/vllm-project/vllm/issues/33155",
        "0.11.2",
        [
            "--gpu-memory-utilization",
            "0.97",
            "--max-num-seqs",
            "100",
            "--max-model-len",
            "87040",
            "--enable-prefix-caching",
            "--async-scheduling",
        ],  # fmt: skip
        "served (the reporter's working 0.11.2 set-up, 85K context)",
        False,
        "KV 10.00 GiB: fits",
        10.00,
    ),
}


@pytest.mark.parametrize("name", CASES)
def test_plan_agrees_with_each_public_start_up(run_cli, name):
    case = CASES[name]
    r = run_cli("plan", GPT_OSS, "--gpu", "h100-80gb", "--vllm-version", case.version, *case.flags, "--json")
    data = r.json()
    assert data["fits"] is not case.engine_refused, (case.url, case.vllm_said, data["explain"])
    assert r.code == (1 if case.engine_refused else 0)
    assert abs(data["available_kv_gib"] - case.plan_kv_gib) < 0.05, case.plan_says
    if case.loading_gib is not None:
        assert abs(data["model_loading_gib"] - case.loading_gib) < 0.05, data["explain"]


def test_the_sampler_warm_up_is_the_peak_and_is_said_so(run_cli):
    """#27508 died in the sampler warm-up: plan names it as the activation peak, sized by max_num_seqs x vocab."""
    argv = ["plan", GPT_OSS, "--gpu", "h100-80gb", "--vllm-version", "0.11.0", "--json"]
    full = run_cli(*argv).json()
    few = run_cli(*argv, "--max-num-seqs", "64").json()
    assert "sampler warm-up" in " ".join(full["explain"])
    # 1024 rows x 201,088 logits x 37 B through the PyTorch sort path: 7.09 GiB; 64 rows: a sixteenth of it
    assert abs(full["activation_gib"] - 1024 * 201088 * 37 / 2**30) < 0.01
    assert few["activation_gib"] < full["activation_gib"] / 8
    # the public logs' own figures: #23278 -2.14 GiB (0.9), #27508 1.71 GiB (0.95, 1024 batched tokens)
    older = run_cli("plan", GPT_OSS, "--gpu", "h100-80gb", "--vllm-version", "0.10.1", "--json").json()
    tight = run_cli(*argv, "--gpu-memory-utilization", "0.95", "--max-num-batched-tokens", "1024").json()
    assert abs(older["available_kv_gib"] - -2.14) < 0.3 and abs(tight["available_kv_gib"] - 1.71) < 0.4


def test_the_moe_backend_sets_the_loaded_weights(run_cli):
    """Marlin (0.10.x) and OAI Triton (0.14.1+) repack the same experts to different sizes."""
    marlin = run_cli("plan", GPT_OSS, "--gpu", "h100-80gb", "--vllm-version", "0.10.1", "--json").json()
    triton = run_cli("plan", GPT_OSS, "--gpu", "h100-80gb", "--vllm-version", "0.14.1", "--json").json()
    assert abs(marlin["model_loading_gib"] - 65.97) < 0.05 and abs(triton["model_loading_gib"] - 64.38) < 0.05
    assert any("marlin" in line.lower() for line in marlin["explain"])


def test_33155_on_0_14_1_is_a_reported_failure_not_a_fit(run_cli):
    """#33155: 0.14.1, utilization 0.97, max_num_seqs 1, 5,120 tokens, -O3, prefix caching, async scheduling: OOM,
    where 0.11.2 served 85K with 100 sequences and 0.26 on the same budget kept 13.61 GiB of KV (gpu-logs/s11). The
    public log stops after torch.compile, so the step that ran out is not known: no constant is fitted; the release's
    report is data (vllm.toml [[known_failures]]) and the plan says "does not fit" with it, exit 1. The reporter's
    own command line plans (its -O3 is an optimization level, not a compilation config)."""
    argv = [
        "plan", GPT_OSS, "--gpu", "h100-80gb", "--vllm-version", "0.14.1", "--gpu-memory-utilization", "0.97",
        "--max-num-seqs", "1", "--max-model-len", "5120", "-O3", "--enable-prefix-caching", "--async-scheduling",
    ]  # fmt: skip
    r = run_cli(*argv, "--json")
    data = r.json()
    assert r.code == 1 and not data["fits"] and "vllm-project/vllm#33155" in data["error"]
    assert data["available_kv_gib"] > 5  # the arithmetic alone would fit: the report decides
    assert data["calibration_status"]["calibrated"] is False
    for version in ("0.11.2", "0.26.0"):  # the releases that served it are not flagged
        other = run_cli(*argv[:5], version, *argv[6:], "--json").json()
        assert "33155" not in (other["error"] or ""), version
