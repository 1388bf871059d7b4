"""DeepSeek-V2-Lite (MLA) on vLLM 0.26's V2 runner: the profile run's MLA stand-in for the up-projected
prefill context (mla_attention.py: with no attention metadata each MLA layer allocates
chunked_prefill_workspace_size x heads x (qk_nope + v) elements, a size that does not follow the batched
tokens). Real H200 logs: c09 (16,384 tokens, graphs) 1.66 GiB, c14 (4,096 tokens, eager) 0.83 GiB."""

from __future__ import annotations

from tests.conftest import load_script
from tests.test_gpu_logs import _plan

accuracy = load_script("benchmarks/plan_accuracy_h200.py")


def test_the_mla_stand_in_sets_the_peak_at_few_batched_tokens():
    plan, fig = _plan("c14-dsv2lite-eager-mnbt4096")
    assert fig.activation_gib == 0.83
    # 65,536 rows x 16 heads x (128 + 128) x 2 B = 0.50 GiB + the hidden states of 4,096 tokens (0.06 GiB);
    # the batched-token forward alone planned 0.41 GiB
    assert 0.55 < plan.activation_gib < 0.83


def test_the_stand_in_leaves_the_large_batch_to_the_forward():
    plan, fig = _plan("c09-dsv2lite-base")
    assert abs(plan.activation_gib - fig.activation_gib) / fig.activation_gib < 0.01


def test_calibrating_on_the_eager_log_predicts_the_base_run_better():
    cases = [c for c in accuracy.load_cases() if c.model.name == "deepseek-v2-lite"]
    rows = accuracy.calibrate_on_one(cases)
    worst = max(abs(r["kv_cache_tokens"]) for r in rows["deepseek-v2-lite"])
    assert worst < 0.012  # was 1.75% (c14 -> c09) with the forward alone
