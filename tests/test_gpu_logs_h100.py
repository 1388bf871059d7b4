"""Four real vLLM 0.26.0 start-ups on a lent H100 (tests/fixtures/gpu-logs/h0*.log, stop 50), run for the
recurrent-state dtype rule (engines/vllm/state_dtype.py): each block size was predicted and committed (tools/
gpu_state_dtype_cases.py, 05d471cb) before the GPU ran, and all four came out as predicted. The same logs showed two
things plan did not know: Qwen3-Next's top-level partial_rotary_factor (its rotary cache is a quarter of what plan
counted) and its wider Gated DeltaNet forward (gdn_factor_by_class, fitted on h03)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from servebox.checkpoint.facts import load_checkpoint
from servebox.engines.vllm.logs import read_startup_figures
from tests.test_gpu_logs import _plan  # the same vllm.LLM kwargs -> serve flags reading as the H200 logs

ROOT = Path(__file__).resolve().parent.parent
LOGS = ROOT / "tests" / "fixtures" / "gpu-logs"
# case -> the block size plan predicted before the start ran (tools/gpu_state_dtype_cases.py PREDICTED)
BLOCKS = {
    "h01-qwen35-8l-published": 784,  # the config's mamba_ssm_dtype float32
    "h02-qwen35-8l-ssm-bf16": 400,  # --mamba-ssm-cache-dtype over the config
    "h03-qwen3next-8l-default": 544,  # no class rule: the conv state's (model) dtype
    "h04-qwen3next-8l-ssm-fp32": 1056,  # the flag
}
FITTED = {"h03-qwen3next-8l-default"}
# held out of every GDN fit, predictions committed before the run (tools/gpu_activation_cases.py, cedfeb48):
# case -> (planned peak activation GiB, measured) -- all three planned HIGH, so available KV lands low
HELD_OUT = {
    "h05-qwen3next-8l-eager-mnbt8192-seqs64": (1.73, 1.44),
    "h06-qwen3next-8l-compiled": (4.00, 3.46),  # and V1's graph estimate: 0.40 GiB logged, 0.12 planned
    "h07-qwen35-8l-eager-mnbt4096-seqs64": (0.91, 0.67),
}  # gdn_factor_by_class's Qwen3-Next value comes from this log


def test_the_cases_are_the_ones_run_and_say_where_they_ran():
    for name in BLOCKS:
        spec = json.loads((LOGS / f"{name}.json").read_text())
        fig = read_startup_figures(LOGS / f"{name}.log")
        assert spec["gpu"]["name"].startswith("NVIDIA H100") and fig.total_gib == 79.18
        assert fig.vllm_version == "0.26.0" and fig.model_runner == "v1"


@pytest.mark.parametrize("name", sorted(BLOCKS))
def test_block_size_is_the_one_predicted_before_the_run(name):
    plan, fig = _plan(name)
    assert fig.block_size == BLOCKS[name]
    assert plan.block_size == BLOCKS[name]


def test_the_flag_over_the_config_is_what_vllm_warned():
    """h02: vLLM's own words for the rule's first branch."""
    text = (LOGS / "h02-qwen35-8l-ssm-bf16.log").read_text()
    assert "specifies mamba_ssm_dtype='float32' in its config, but --mamba-ssm-cache-dtype='bfloat16'" in text


@pytest.mark.parametrize("name", sorted(BLOCKS))
def test_loading_and_kv_within_half_a_percent(name):
    """The Qwen3.5 cuts were not fitted on (0.10% on KV at first contact); Qwen3-Next's were 1.38% optimistic at
    first contact (weights +1.74%: the rotary cache at full head_dim; activation 2.51 vs 3.46 GiB)."""
    plan, fig = _plan(name)
    assert abs(plan.model_loading_gib - fig.model_loading_gib) / fig.model_loading_gib < 0.005
    assert abs(plan.kv_cache_tokens - fig.kv_cache_tokens) / fig.kv_cache_tokens < 0.005
    if name not in FITTED:
        assert abs(plan.available_kv_gib - fig.available_kv_gib) / fig.available_kv_gib < 0.005


def test_a_top_level_partial_rotary_factor_sizes_the_rotary_cache():
    """Qwen3-Next keeps partial_rotary_factor at the top of config.json (transformers folds it into rope_parameters
    before vLLM's get_rope reads it): 262,144 positions x 64 rotary dims x 2 B = 32 MiB, not 128 MiB."""
    ckpt = load_checkpoint(str(LOGS / "models" / "qwen3-next-8l-64e"), with_template=False)
    assert ckpt.architecture.partial_rotary_factor == 0.25
    llama = load_checkpoint(
        str(ROOT / "tests/fixtures/checkpoints/llama-3.1-8b-instruct"), with_template=False
    )
    assert llama.architecture.partial_rotary_factor == 1.0


@pytest.mark.parametrize("name", sorted(HELD_OUT))
def test_held_out_shapes_are_planned_low_never_optimistic(name):
    """Half the batched tokens, 64 sequences, or CUDA graphs: the single-shape fits over-plan the peak (they were made
    at the 16,384-token / 1,024-sequence profile batch, where something beyond the per-token forward sets the peak:
    see SEQS_HELD_OUT), so the KV budget is planned 0.39-0.43% low. Pessimistic, within half a percent."""
    plan, fig = _plan(name)
    planned, measured = HELD_OUT[name]
    assert fig.activation_gib == measured and round(plan.activation_gib, 2) == planned
    error = (plan.available_kv_gib - fig.available_kv_gib) / fig.available_kv_gib
    assert -0.005 < error < 0


# stop 51 (tools/gpu_gdn_chunk_cases.py, three hypotheses' peaks committed in 73f66029 before the starts): 16,384 batched
# tokens with fewer sequences. Qwen3-Next peaked at 2.85 GiB with 64, 256 and 512 alike, Qwen3.5 at 2.60 with 256: the
# forward is linear in tokens (2 x h05's 1.44), and neither a per-64-token-chunk term (predicted 2.88 / 3.07 / 2.88) nor
# a per-sequence one (2.84 / 2.96 / 3.13) held. What adds 0.6-1.0 GiB at 1,024 sequences is not yet known
# (tools/gpu_gdn_seqs_cases.py: predictions committed, not run), so plan keeps the 1,024-sequence fit and plans these low.
SEQS_HELD_OUT = {
    "h08-qwen3next-8l-eager-seqs256": (3.46, 2.85),
    "h09-qwen3next-8l-eager-seqs512": (3.46, 2.85),
    "h10-qwen3next-8l-eager-seqs64": (3.46, 2.85),
    "h11-qwen35-8l-eager-seqs256": (3.64, 2.60),
}


def test_fewer_sequences_at_the_same_tokens_do_not_move_the_forward_peak():
    peaks = {name: read_startup_figures(LOGS / f"{name}.log").activation_gib for name in SEQS_HELD_OUT}
    assert len({peaks[n] for n in peaks if "qwen3next" in n}) == 1  # 64, 256 and 512 sequences: one peak
    assert (
        read_startup_figures(LOGS / "h03-qwen3next-8l-default.log").activation_gib
        > peaks["h08-qwen3next-8l-eager-seqs256"]
    )  # 1,024 sequences (h03) peak higher


@pytest.mark.parametrize("name", sorted(SEQS_HELD_OUT))
def test_fewer_sequences_are_planned_high_never_optimistic(name):
    """Plan keeps the 1,024-sequence fit, so these shapes get 0.6-1.0 GiB more activation than they use: the KV budget
    lands 1-2% low, never above what vLLM reported."""
    plan, fig = _plan(name)
    planned, measured = SEQS_HELD_OUT[name]
    assert fig.activation_gib == measured and round(plan.activation_gib, 2) == planned
    assert fig.max_num_seqs in (64, 256, 512)
    error = (plan.available_kv_gib - fig.available_kv_gib) / fig.available_kv_gib
    assert -0.02 < error < 0


# stop 52 (tools/gpu_gdn_seqs_cases.py, plan / sampler / forward peaks committed in 0fa3221d before the starts), as
# h12-h14: the halved vocabularies (h13, h14) peaked at the forward's 2.85 / 2.60 GiB, so the term that appears at 1,024
# sequences scales with the vocabulary (the sampler reading). h12 (serve's default 8,192 / 1,024) peaked at 2.80: not the
# sampler reading's 3.46 and not plan's 2.32, so that term also grows with the batched tokens (0.66 GiB per 8,192 tokens,
# see the gpu-logs README). Plan keeps its constants here: case -> (planned peak activation GiB, measured).
VOCAB_HELD_OUT = {
    "h12-qwen3next-8l-eager-mnbt8192-seqs1024": (2.32, 2.80),
    "h13-qwen3next-8l-v76k-eager-seqs1024": (3.46, 2.85),
    "h14-qwen35-8l-v124k-eager-seqs1024": (3.64, 2.60),
}


def test_halving_the_vocabulary_drops_the_1024_sequence_peak_to_the_forward():
    """At 16,384 tokens and 1,024 sequences, half the vocabulary gives the peak the same start had with 64-512
    sequences (h08-h11): whatever sets h03's 3.46 and h01's 3.64 grows with seqs x vocab."""
    names = (*VOCAB_HELD_OUT, *SEQS_HELD_OUT)
    peak = {n: read_startup_figures(LOGS / f"{n}.log").activation_gib for n in names}
    assert peak["h13-qwen3next-8l-v76k-eager-seqs1024"] == peak["h08-qwen3next-8l-eager-seqs256"] == 2.85
    assert peak["h14-qwen35-8l-v124k-eager-seqs1024"] == peak["h11-qwen35-8l-eager-seqs256"] == 2.60
    # the sampler reading said 3.46 (h03's peak, tokens no part of it), plan 2.32
    full = read_startup_figures(LOGS / "h03-qwen3next-8l-default.log").activation_gib
    assert peak["h12-qwen3next-8l-eager-mnbt8192-seqs1024"] not in (full, 2.32)


def test_serve_default_shape_is_planned_optimistic_on_qwen3_next():
    """h12, Qwen3-Next at vllm serve's default 8,192 batched tokens / 1,024 sequences: plan gives max(forward 1.73,
    sampler 1,024 x 151,936 x 16 B = 2.32) = 2.32 GiB where vLLM measured 2.80, so plan is OPTIMISTIC by 0.48 GiB of
    activation and plans the KV budget 0.78% high (64.00 vs 63.50 GiB, 15,789,056 vs 15,666,688 tokens). The bound
    asserted is the measured one: a fix that plans this start at or under vLLM's KV changes these numbers and shows up
    here."""
    name = "h12-qwen3next-8l-eager-mnbt8192-seqs1024"
    plan, fig = _plan(name)
    planned, measured = VOCAB_HELD_OUT[name]
    assert fig.activation_gib == measured and round(plan.activation_gib, 2) == planned
    assert (fig.max_num_batched_tokens, fig.max_num_seqs) == (8192, 1024)
    error = (plan.available_kv_gib - fig.available_kv_gib) / fig.available_kv_gib
    assert 0.007 < error < 0.009  # optimistic: more KV planned than vLLM had
    assert 0.007 < (plan.kv_cache_tokens - fig.kv_cache_tokens) / fig.kv_cache_tokens < 0.009


HALVED = ["h13-qwen3next-8l-v76k-eager-seqs1024", "h14-qwen35-8l-v124k-eager-seqs1024"]


@pytest.mark.parametrize("name", HALVED)
def test_halved_vocabularies_are_planned_high_never_optimistic(name):
    """Plan's GDN factors were fitted on 1,024-sequence starts with the full vocabulary (h03, c10), whose peak is the
    vocabulary term, not the forward: with half the vocabulary the forward sets the peak and plan over-plans it by
    0.61 (Qwen3-Next) / 1.04 GiB (Qwen3.5), the KV budget 0.93% / 1.73% low."""
    plan, fig = _plan(name)
    planned, measured = VOCAB_HELD_OUT[name]
    assert fig.activation_gib == measured and round(plan.activation_gib, 2) == planned
    assert plan.block_size == fig.block_size
    assert abs(plan.model_loading_gib - fig.model_loading_gib) / fig.model_loading_gib < 0.006
    error = (plan.available_kv_gib - fig.available_kv_gib) / fig.available_kv_gib
    assert -0.02 < error < 0
