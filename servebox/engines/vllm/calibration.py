"""Learn from one cold start: what a real vLLM start-up log measured (activation peak, non-torch memory,
CUDA-graph term), kept per engine profile, GPU and model, and reused by later plans with other flags.

`servebox plan MODEL FLAGS --calibrate LOG --save` stores one small JSON file under
$XDG_DATA_HOME/servebox/calibrations/ (or --calibration-dir); a later `plan` of the same model on the
same GPU and profile reads it and says "calibrated from LOG". Terms that depend on flags keep the model's
dependence and take the log's magnitude: the plan's own estimate for the new flags times measured/estimated
at the log's flags (activation: batched tokens, max_num_seqs on the V1 runner, eager vs compiled; graphs:
captured sizes, 0 when eager). Non-torch memory depends on TP, so a calibration is used only at the TP x PP
it was taken at.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

from servebox.errors import InputError

FORMAT = 1


@dataclass
class Calibration:
    model: str  # the checkpoint as the user named it
    config_sha256: str  # config.json's content: the same model wherever it lives
    gpu: str
    gpu_total_gib: float
    profile: str  # engine profile (vllm.toml) the plan used
    vllm_version: str | None  # what the log says it was
    tp_pp: int
    max_num_batched_tokens: int
    capture_sizes: int
    activation_gib: float
    non_torch_gib: float
    graph_gib: float  # the term the plan uses: vLLM's subtracted estimate, or the pool where not subtracted
    activation_model_gib: float  # what servebox estimated for the log's own flags
    graph_model_gib: float
    measured: str  # "summary" (0.26+ 'Actual usage' line) or "lumped" (requested - weights - available)
    log: str
    format: int = FORMAT
    # 'Model loading took' minus the plan's weights at the log's flags: what loading does that the plan does not
    # model for this build and quantization (repacking, emulation layouts); carried to every later plan
    weights_offset_gib: float = 0.0


@dataclass
class Terms:
    """Calibrated non-KV terms for one plan's flags, and how they were scaled."""

    activation_gib: float
    non_torch_gib: float
    cudagraph_gib: float
    source: Calibration
    notes: list[str]
    weights_gib: float | None = None  # the plan's weights for the new flags + the log's offset (None: none)


def default_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "servebox" / "calibrations"


def config_digest(ckpt) -> str:
    raw = json.dumps(ckpt.config, sort_keys=True).encode()
    return hashlib.sha256(raw).hexdigest()


def _key(config_sha: str, gpu: str, total_gib: float, profile: str, tp_pp: int) -> str:
    text = f"{config_sha}|{gpu}|{total_gib:.2f}|{profile}|{tp_pp}"
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def from_log(
    figures, plan, ckpt, profile: str, log: Path, tokens_planned: int, graph_sizes: int
) -> Calibration:
    """What the log measured, checked against the plan made with the log's own flags (exit 2 on a mismatch)."""
    tokens = figures.max_num_batched_tokens
    if tokens is not None and tokens != tokens_planned:
        raise InputError(
            str(log),
            "max_num_batched_tokens",
            f"the log ran with {tokens}, the plan's flags give {tokens_planned}: plan with the log's flags",
        )
    subtracted = figures.graph_estimate_gib
    if figures.non_kv_measured:
        activation, non_torch, measured = figures.activation_gib, figures.non_torch_gib, "summary"
        graph = subtracted if subtracted is not None else (figures.cudagraph_gib or 0.0)
    else:
        if figures.model_loading_gib is None or figures.available_kv_gib is None:
            raise InputError(
                str(log), None, "needs 'Model loading took' and 'Available KV cache memory' to calibrate"
            )
        requested = figures.requested_gib or plan.requested_gib
        pool = (
            figures.graph_capture_gib
            if figures.graph_capture_gib is not None
            else plan.cudagraph_estimate_gib
        )
        graph = (
            subtracted
            if subtracted is not None
            else (plan.cudagraph_estimate_gib if plan.cudagraph_subtracted else pool)
        )
        lump = (
            requested
            - figures.model_loading_gib
            - figures.available_kv_gib
            - (graph if plan.cudagraph_subtracted else 0.0)
        )
        non_torch = min(plan.non_torch_gib, max(lump, 0.0))
        activation, measured = max(lump - non_torch, 0.0), "lumped"
    return Calibration(
        model=plan.model,
        config_sha256=config_digest(ckpt),
        gpu=plan.gpu,
        gpu_total_gib=round(plan.gpu_total_gib, 2),
        profile=profile,
        vllm_version=figures.vllm_version,
        tp_pp=plan.tensor_parallel_size * plan.pipeline_parallel_size,
        max_num_batched_tokens=tokens_planned,
        capture_sizes=graph_sizes,
        activation_gib=activation,
        non_torch_gib=non_torch,
        graph_gib=graph,
        activation_model_gib=plan.activation_gib,
        graph_model_gib=plan.cudagraph_estimate_gib,
        measured=measured,
        log=str(log),
        weights_offset_gib=(
            round(figures.model_loading_gib - plan.model_loading_gib, 4)
            if figures.model_loading_gib is not None
            else 0.0
        ),
    )


def save(cal: Calibration, directory: Path | None) -> Path:
    """Write atomically (temp file + rename): a crash never leaves half a calibration."""
    directory = directory or default_dir()
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{_key(cal.config_sha256, cal.gpu, cal.gpu_total_gib, cal.profile, cal.tp_pp)}.json"
    fd, tmp = tempfile.mkstemp(dir=directory, suffix=".tmp")
    with os.fdopen(fd, "w") as handle:
        json.dump(asdict(cal), handle, indent=1)
    os.replace(tmp, path)
    return path


def lookup(
    ckpt, gpu: str, total_gib: float, profile: str, tp_pp: int, directory: Path | None
) -> Calibration | None:
    path = (
        directory or default_dir()
    ) / f"{_key(config_digest(ckpt), gpu, round(total_gib, 2), profile, tp_pp)}.json"
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text())
        return Calibration(**data) if data.get("format") == FORMAT else None
    except (OSError, ValueError, TypeError) as exc:
        raise InputError(str(path), None, f"unreadable calibration: {exc}") from None


def batch_shape(flags, gpu, arch, profile) -> tuple[int, int]:
    """(max_num_batched_tokens, captured sizes) as make_plan resolves them for these flags, model and release."""
    from servebox.engines.vllm.non_kv import _sizes
    from servebox.engines.vllm.profile import batch_shape_of

    seqs, tokens = batch_shape_of(flags, profile, gpu)
    spec = flags.speculative_config or {}
    return tokens, len(_sizes(flags, seqs, int(spec.get("num_speculative_tokens") or 0), arch, profile))


def terms_for(cal: Calibration, estimate) -> Terms:
    """The calibrated terms for a plan whose uncalibrated estimate is `estimate` (a Plan of the new flags)."""
    ratio = cal.activation_gib / cal.activation_model_gib if cal.activation_model_gib else 1.0
    activation = estimate.activation_gib * ratio
    notes = [
        f"activation = estimate {estimate.activation_gib:.2f} GiB x measured/estimated at the log's flags {ratio:.3f}"
    ]
    if estimate.cudagraph_estimate_gib and cal.graph_model_gib:
        graph_ratio = cal.graph_gib / cal.graph_model_gib
        graph = estimate.cudagraph_estimate_gib * graph_ratio
        notes.append(f"graphs = estimate {estimate.cudagraph_estimate_gib:.2f} GiB x {graph_ratio:.3f}")
    else:
        graph = estimate.cudagraph_estimate_gib
    weights = None
    if cal.weights_offset_gib:
        weights = estimate.model_loading_gib + cal.weights_offset_gib
        notes.append(
            f"weights = plan {estimate.model_loading_gib:.2f} GiB {cal.weights_offset_gib:+.2f} GiB that the log's "
            "'Model loading took' showed beyond the plan at its flags"
        )
    return Terms(activation, cal.non_torch_gib, graph, cal, notes, weights)


def describe(terms: Terms) -> str:
    c = terms.source
    return (
        f"calibrated from {c.log} ({c.vllm_version or 'vLLM'} on {c.gpu}, {c.measured}): activation "
        f"{terms.activation_gib:.2f} GiB, non-torch {terms.non_torch_gib:.2f} GiB, graphs {terms.cudagraph_gib:.2f} GiB"
    )


def relabel(plan, line: str, notes: list[str]) -> None:
    """Mark a plan made with calibrated terms as such: its first assumption, its calibration status and its
    figure labels say "calibrated from LOG" (the labels exist where the plan carries them)."""
    plan.assumptions.insert(0, line)
    plan.explain += notes
    status = getattr(plan, "calibration_status", None)
    if isinstance(status, dict):
        status.update({"calibrated": True, "line": line})
    labels = getattr(plan, "labels", None)
    if isinstance(labels, dict) and labels:
        for name in ("activation_gib", "non_torch_gib", "cudagraph_estimate_gib"):
            labels[name] = "calibrated"
        if labels.get("model_loading_gib") == "given" and any(n.startswith("weights = plan") for n in notes):
            labels["model_loading_gib"] = "calibrated"
        if labels.get("available_kv_gib") != "given" and labels.get("model_loading_gib") in (
            "derived",
            "calibrated",
        ):
            labels["available_kv_gib"] = "calibrated"
