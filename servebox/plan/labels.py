"""Step 5's honesty: whether the profile was calibrated for this start-up, each figure's label, the user's
decision rule (--require-kv-tokens, --require-concurrency), and predicted-vs-reported for a real log."""

from __future__ import annotations

from typing import Any

from servebox.checkpoint.facts import Checkpoint
from servebox.engines.vllm.flags import ServeFlags
from servebox.engines.vllm.profile import EngineProfile, gpu_arch
from servebox.errors import InputError
from servebox.hardware import GPU
from servebox.plan.model import Plan


def quant_path(ckpt: Checkpoint, flags: ServeFlags) -> str:
    """The quantization path as vllm.toml's `calibrated` entries name it."""
    q = ckpt.facts.quantization
    if q.method == "none":
        return f"runtime:{flags.quantization}" if flags.quantization not in (None, "auto") else "none"
    return f"compressed-tensors:{q.scheme}" if q.method == "compressed-tensors" else q.method


def calibration_status(
    ckpt: Checkpoint, flags: ServeFlags, gpu: GPU, profile: EngineProfile, build: str, tp: int
) -> dict[str, Any]:
    arch, path = gpu_arch(gpu.compute_capability), quant_path(ckpt, flags)
    entry = profile.calibration_for(build, arch, path, tp)
    weights = "unquantized" if path == "none" else path
    where = f"vLLM profile {profile.matched} ({build} build) on {arch} GPUs, {weights} weights, TP {tp}"
    if entry is None:
        line = (
            f"uncalibrated: {where} was never checked against a real start-up; "
            "activation, non-torch and CUDA-graph figures are assumed"
        )
    else:
        line = f"calibrated: {where} (from {entry.source})"
    return {
        "calibrated": entry is not None,
        "line": line,
        "gpu_arch": arch,
        "quant_path": path,
        "build": build,
    }


def figure_labels(
    flags: ServeFlags, calibrated: bool, weights: str, given: dict[str, bool]
) -> dict[str, str]:
    """derived (from the checkpoint and vLLM's code), given (a flag), calibrated or assumed (measured terms)."""
    measured = "calibrated" if calibrated else "assumed"
    out = {"requested_gib": "derived", "model_loading_gib": weights}
    for name in ("activation_gib", "non_torch_gib", "cudagraph_estimate_gib"):
        out[name] = "given" if given[name] else measured
    if flags.kv_cache_memory_bytes:
        out["available_kv_gib"] = "given"
    else:
        parts = [
            out[n] for n in ("model_loading_gib", "activation_gib", "non_torch_gib", "cudagraph_estimate_gib")
        ]
        out["available_kv_gib"] = next((k for k in ("assumed", "calibrated") if k in parts), "derived")
    memory = out["available_kv_gib"]
    kv = "derived" if memory in ("derived", "given") else f"derived from {memory} KV memory"
    for name in ("num_blocks", "kv_cache_tokens", "max_concurrency", "max_model_len_that_fits"):
        out[name] = kv
    out["block_size"] = out["blocks_per_request"] = "derived"
    return out


def check_requirements(plan: Plan, kv_tokens: int | None, concurrency: str | None) -> list[str]:
    """The user's decision rule: --require-kv-tokens N and --require-concurrency C@L; each unmet one is a line."""
    unmet = []
    if kv_tokens is not None and plan.kv_cache_tokens < kv_tokens:
        unmet.append(
            f"KV cache holds {plan.kv_cache_tokens:,} tokens, fewer than --require-kv-tokens {kv_tokens:,}"
        )
    if concurrency is None:
        return unmet
    try:
        c_text, l_text = concurrency.split("@")
        want_c, want_len = float(c_text), int(l_text)
    except ValueError:
        raise InputError(
            "--require-concurrency", None, f"expected C@L (e.g. 4@32768), got {concurrency!r}"
        ) from None
    if want_len > plan.max_model_len:
        unmet.append(f"{want_len:,}-token requests exceed max_model_len {plan.max_model_len:,}")
        return unmet
    have = plan.num_blocks / plan.blocks_needed(want_len)
    if have < want_c:
        unmet.append(
            f"{have:.2f} requests of {want_len:,} tokens fit at once, fewer than --require-concurrency {want_c:g}"
        )
    return unmet


def compare_with_log(plan: Plan, figures) -> list[dict[str, Any]]:
    """Predicted vs reported, for every figure the log holds (engines/vllm/logs.py)."""
    rows = []
    pairs = [
        ("model_loading_gib", plan.model_loading_gib, figures.model_loading_gib),
        ("available_kv_gib", plan.available_kv_gib, figures.available_kv_gib),
        ("kv_cache_tokens", plan.kv_cache_tokens, figures.kv_cache_tokens),
        ("max_concurrency", plan.max_concurrency, figures.max_concurrency),
        ("block_size", plan.block_size, figures.block_size),
        ("cudagraph_gib", plan.cudagraph_estimate_gib, figures.graph_capture_gib),
    ]
    for name, predicted, reported in pairs:
        if reported is None:
            continue
        error = (predicted - reported) / reported if reported else None
        rows.append(
            {
                "figure": name,
                "predicted": predicted,
                "reported": reported,
                "relative_error": error,
                "log_line": figures.lines.get(name if name != "cudagraph_gib" else "graph_capture_gib"),
            }
        )
    if figures.max_concurrency_len and figures.max_concurrency_len != plan.max_model_len:
        rows.append(
            {
                "figure": "max_model_len",
                "predicted": plan.max_model_len,
                "reported": figures.max_concurrency_len,
                "relative_error": None,
                "log_line": figures.lines.get("max_concurrency"),
            }
        )
    return rows
