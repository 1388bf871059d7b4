"""What an MTP drafter adds to 'Model loading took', per engine build (issue 11 item 4).

Upstream vLLM (0.32 source, v1/spec_decode/llm_base_proposer.py): the MTP model builds its own embed_tokens and
lm_head and loads them from the checkpoint, then `_maybe_share_embeddings` / `_maybe_share_lm_head` replace both
with the target's and the copies are freed before 'Model loading took' is measured (DeviceMemoryProfiler reads
allocated memory after empty_cache). Only the mtp.* layers stay: MTP head bytes / TP. Under pipeline
parallelism the embedding is not shared (the target's lives on the first stage), so the last stage keeps a copy.
The Volta fork (1Cat-vLLM v1.5.0) measured +1.17 GiB per card on the deployment (DIGEST: 9.52 -> 10.69) where
the mtp.* layers are 0.40 GiB per card: the rest is that build's, calibrated from its one log, and labelled so.
"""

from __future__ import annotations

import pytest

from servebox.checkpoint.facts import load_checkpoint
from servebox.engines.vllm.flags import parse_flags
from servebox.engines.vllm.profile import load_profile
from servebox.errors import InputError
from servebox.hardware import get_gpu
from servebox.plan import make_plan
from servebox.units import GiB
from tests.conftest import CHECKPOINTS

DIGEST = CHECKPOINTS / "qwen3.5-27b-digest-w4a4"
MTP = ["--speculative-config", '{"method":"mtp","num_speculative_tokens":4}']
BASE = [
    "-tp",
    "2",
    "--gpu-memory-utilization",
    "0.94",
    "--kv-cache-dtype",
    "fp8_e5m2",
    "--max-model-len",
    "98304",
]


def loading(*argv, build="upstream", version="0.32.0"):
    flags, _ = parse_flags([*BASE, *argv])
    ckpt = load_checkpoint(str(DIGEST), False)
    return make_plan(ckpt, flags, get_gpu("v100-32gb"), load_profile(version), build=build)


def test_upstream_mtp_adds_only_its_layers_at_pp1():
    head = load_checkpoint(str(DIGEST), False).inventory.bytes_by_component["mtp"] / GiB
    delta = loading(*MTP).model_loading_gib - loading().model_loading_gib
    assert abs(delta - head / 2) < 0.005  # 0.40 GiB per card at TP 2, embeddings and lm_head shared


def test_mtp_under_pipeline_parallelism_is_refused_not_guessed():
    """Under PP the drafter keeps its own embedding (llm_base_proposer shares it only in a PP world of 1) and
    its KV layers sit on the last stage; plan does not model that per stage, so it says so instead of a number."""
    with pytest.raises(InputError, match="speculative decoding with pipeline parallelism: not modelled"):
        loading("-pp", "2", *MTP)


def test_the_volta_fork_mtp_load_is_its_measured_figure_said_to_be_calibrated():
    fork = "1cat-vllm-1.5-volta"
    with_mtp = loading(*MTP, build=fork, version="0.17.0")
    delta = with_mtp.model_loading_gib - loading(build=fork, version="0.17.0").model_loading_gib
    assert abs(delta - 1.17) < 0.01  # DIGEST: 'Model loading took' 9.52 -> 10.69 GiB per card
    note = [a for a in with_mtp.assumptions if "MTP" in a and fork in a]
    assert note and "calibrated" in note[0] and "DIGEST" in note[0]
    # the NVFP4 weights themselves stay 'assumed' on Volta: the label is the weakest of the parts
    assert with_mtp.labels["model_loading_gib"] == "assumed"


def test_the_deployment_calibrated_on_its_no_mtp_log_predicts_the_mtp_start_up(run_cli, tmp_path):
    """DIGEST: with MTP4 at 0.94 the pool was 2.39 GiB and the engine's ceiling 117,968 tokens; 163,840 did not
    fit. One no-MTP log (9.52 GiB loaded, 3.56 GiB KV) calibrates the weights offset (NVFP4 on Volta loads 0.31
    GiB above the file) and the non-KV terms; the MTP plan then carries them."""
    argv = [
        "plan", DIGEST, "--gpu", "v100-32gb", "--engine-profile", "1cat-vllm-1.5-volta", *BASE[:4],
        "--kv-cache-dtype", "fp8_e5m2", "--max-model-len", "163840", "--calibration-dir", tmp_path,
    ]  # fmt: skip
    log = CHECKPOINTS.parent / "gpu-logs" / "digest-v100-tp2-nomtp.log"
    assert run_cli(*argv, "--calibrate", log, "--save", "--json").code in (0, 1)
    r = run_cli(*argv, *MTP, "--json")
    data = r.json()
    assert r.code == 1 and not data["fits"]
    assert abs(data["model_loading_gib"] - 10.69) < 0.01 and abs(data["available_kv_gib"] - 2.39) < 0.01
    assert abs(data["max_model_len_that_fits"] - 117_968) / 117_968 < 0.01
    assert data["labels"]["model_loading_gib"] == "calibrated"
