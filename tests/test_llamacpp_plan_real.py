"""servebox's llama.cpp plan on the shapes of real public models (tests/fixtures configs: Llama-3.1-8B,
Mixtral-8x7B, Qwen3.5-27B's Gated DeltaNet hybrid, Nemotron-H-8B's Mamba-2 hybrid) as header-only GGUFs.
Expected figures are worked out here from each config by hand, not by the planner's code."""

from __future__ import annotations

from pathlib import Path

import pytest

from servebox.engines.llamacpp.flags import parse_server_args
from servebox.engines.llamacpp.plan import plan_gguf
from tests import llamacpp_real_headers as real

MiB, GiB = 2**20, 2**30


@pytest.fixture(scope="module")
def headers(tmp_path_factory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("real-headers")
    return {
        "llama31": real.llama(d / "llama-3.1-8b-Q4_K.gguf", "llama-3.1-8b-instruct"),
        "mixtral": real.llama(d / "mixtral-8x7b-Q4_K.gguf", "mixtral-8x7b-instruct"),
        "qwen35": real.qwen35(d / "qwen3.5-27b-Q4_K.gguf"),
        "nemotron": real.nemotron_h(d / "nemotron-h-8b-Q4_K.gguf"),
    }


def _plan(path: Path, *args: str, gpus: list[int] | None = None):
    return plan_gguf(str(path), parse_server_args(list(args)), gpus or [])


def test_llama31_kv_is_128_kib_per_token(headers):
    p = _plan(headers["llama31"], "-c", "32768", "-np", "1", gpus=[24 * GiB])
    kv = p.kv[0]
    assert (kv.device, kv.layers, kv.cells) == ("CUDA0", 32, 32768)
    assert kv.k_mib == kv.v_mib == 32 * 8 * 128 * 2 * 32768 / MiB  # 2,048 MiB each
    # 128k of f16 KV (16 GiB) plus 4.5 GB of Q4_K weights fits 24 GB but not 16 GB
    assert p.largest_context == 131072
    small = _plan(headers["llama31"], "-c", "32768", "-np", "1", gpus=[16 * GiB])
    assert small.largest_context is not None and 32768 < small.largest_context < 131072


def test_mixtral_experts_move_to_the_host_with_n_cpu_moe(headers):
    full = _plan(headers["mixtral"], "-c", "8192", "-np", "1", gpus=[80 * GiB])
    half = _plan(headers["mixtral"], "-c", "8192", "-np", "1", "--n-cpu-moe", "16", gpus=[80 * GiB])
    # 16 layers x 3 expert tensors x 8 experts x 4096 x 14336, Q4_K (144 bytes per 256 values)
    moved = 16 * 3 * 8 * 4096 * 14336 // 256 * 144 / MiB
    assert full.devices[1].model_mib - half.devices[1].model_mib == pytest.approx(moved, rel=1e-4)
    tight = _plan(headers["mixtral"], "-c", "8192", "-np", "1", gpus=[16 * GiB])
    assert not tight.fits and tight.n_cpu_moe_that_fits is not None and tight.fit.flags[:2] != ["-c", "4096"]


def test_qwen35_27b_hybrid(headers):
    p = _plan(headers["qwen35"], "-c", "8192", "-np", "1")
    kv, cpu = p.kv[0], p.devices[0]
    assert (kv.layers, kv.k_mib) == (16, 16 * 4 * 256 * 2 * 8192 / MiB)  # 16 full-attention layers: 256 MiB
    conv = (4 - 1) * (48 * 128 + 2 * 16 * 128)  # d_conv-1 x (d_inner + 2 groups x state)
    state = 128 * 48 * 128
    assert cpu.recurrent_mib == round(48 * (conv + state) * 4 / MiB, 2)  # 149.63 MiB per sequence
    four = _plan(headers["qwen35"], "-c", "8192", "-np", "4").devices[0]
    assert four.recurrent_mib == round(4 * 48 * (conv + state) * 4 / MiB, 2)


def test_nemotron_h_mamba2_hybrid(headers):
    p = _plan(headers["nemotron"], "-c", "8192", "-np", "1")
    pattern = "M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M-"
    assert p.kv[0].layers == pattern.count("*") == 4
    assert p.kv[0].k_mib == 4 * 8 * 128 * 2 * 8192 / MiB
    conv, state = (4 - 1) * (128 * 64 + 2 * 8 * 128), 128 * 128 * 64
    assert p.devices[0].recurrent_mib == round(pattern.count("M") * (conv + state) * 4 / MiB, 2)
