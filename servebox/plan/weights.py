"""Step 1, weights per rank as vLLM loads them (its 'Model loading took' line), not as the files lie on disk.

The checkpoint's bytes by component (safetensors headers), split by TP and PP, then what loading changes:
--dtype casts of 16-bit weights, runtime --quantization fp8 (linear weights in 1 byte), per-method repacking
(MXFP4 MoE: a calibrated factor per GPU architecture from vllm.toml [weight_load]), the MTP head when MTP
drafts, the vision tower unless --language-model-only, and what torch counts beyond the tensors: one rotary
cache per rotary configuration and the caching allocator's block rounding (plan/load_memory.py).
"""

from __future__ import annotations

from servebox.checkpoint.facts import Checkpoint
from servebox.checkpoint.tensors import component_of
from servebox.engines.vllm.flags import ServeFlags
from servebox.engines.vllm.profile import EngineProfile, mtp_load_entry, weight_load_entry
from servebox.errors import InputError
from servebox.plan.load_memory import allocator_rounding, rotary_cache_bytes, rotary_cache_count
from servebox.plan.model import Settings
from servebox.units import GiB

LINEAR_COMPONENTS = ("language_model", "vision_tower", "mtp")  # embeddings and lm_head stay in 16 bits


def _dtype_bytes_of(name: str | None) -> int:
    return 4 if str(name).replace("torch.", "") in ("float32", "float") else 2


def refused_quantization_flag(
    method: str, flag: str | None, profile: EngineProfile, fmt: str | None = None
) -> str | None:
    """vLLM's refusal of a --quantization the checkpoint's method does not take (vllm.toml [quantization_flag]),
    or None where vLLM takes it: a value its override claims loads the same weights, so the plan holds; and a
    config an override claims whatever the flag says (the release's quantization_flag_overridden, e.g. a ModelOpt
    NVFP4 one: vLLM replaces the flag with modelopt_fp4) takes any value."""
    taken = profile.quantization_flag.get(method, [method])
    if flag in (None, "auto", method) or flag in taken:
        return None
    if fmt and f"{method}:{fmt}" in profile.quantization_flag_overridden:
        return None
    return (
        f"vLLM refuses {flag} at start: 'Quantization method specified in the model config ({method}) does not "
        f"match the quantization method specified in the `quantization` argument ({flag}).' This checkpoint ({method}) "
        f"takes {', '.join(taken)}, or no --quantization"
    )


def load_factors(
    ckpt: Checkpoint, flags: ServeFlags, s: Settings, profile: EngineProfile, arch: str
) -> tuple[float, float, str, list[str]]:
    """(factor on linear components, factor on the rest, label, explanation) for what loading does to bytes."""
    q = ckpt.facts.quantization.method
    if q in profile.weight_load:
        entry = weight_load_entry(profile, q, arch)
        if entry is None:
            return (
                1.0,
                1.0,
                "assumed",
                [f"{q}: repacking at load on {arch} GPUs never measured; file size taken"],
            )
        f = entry["factor"]
        backend = f", {entry['backend']}" if entry.get("backend") else ""
        return (
            f,
            f,
            "calibrated",
            [f"{q} on {arch}{backend}: weights x {f} as repacked at load ({entry['source']})"],
        )
    if q != "none":
        refused = refused_quantization_flag(q, flags.quantization, profile, ckpt.facts.quantization.format)
        if refused:
            raise InputError("--quantization", None, refused)
        # kernels may repack quantized weights at load (Marlin, emulation): never measured for this method here
        note = f"{q} weights taken at their file size: repacking at load on {arch} GPUs not measured"
        return 1.0, 1.0, "assumed", [note]
    stored = _dtype_bytes_of(ckpt.architecture.torch_dtype)
    cast = s.dtype_bytes / stored
    lines = (
        [f"--dtype: {stored}-byte weights loaded as {s.dtype_bytes}-byte (x{cast:g})"] if cast != 1 else []
    )
    if flags.quantization in (None, "auto"):
        return cast, cast, "derived", lines
    if flags.quantization == "fp8":
        return (
            1 / stored,
            cast,
            "derived",
            lines + ["--quantization fp8: linear weights stored in 1 byte at load"],
        )
    raise InputError(
        "--quantization", None, f"runtime quantization {flags.quantization!r} is not modelled (modelled: fp8)"
    )


def mtp_drafter_extra(ckpt: Checkpoint, s: Settings, build: str) -> tuple[int, list[str], list[str]]:
    """Bytes an MTP drafter holds beyond its mtp.* layers (vllm.toml [mtp_load]): a build's calibrated extra.
    Upstream shares the target's embedding and lm_head in a PP world of 1 (llm_base_proposer
    _maybe_share_embeddings); under PP the drafter keeps its own, and plan refuses PP with speculative
    decoding (plan/pipeline.py). Returns (bytes, derived lines, calibrated notes)."""
    if not s.uses_mtp:
        return 0, [], []
    extra, lines, notes = 0, [], []
    entry = mtp_load_entry(build)
    if entry:
        extra += int(entry["extra_gib_per_rank"] * GiB)
        notes.append(
            f"MTP on {build}: + {entry['extra_gib_per_rank']} GiB per rank beyond the mtp.* layers, calibrated "
            f"from {entry['source']}"
        )
    return extra, lines, notes


def _rounding(ckpt: Checkpoint, flags: ServeFlags, s: Settings, linear: float, other: float) -> int:
    """The allocator's block rounding, where the loaded tensors have the files' shapes (16-bit, no repacking,
    one pipeline stage); quantized or repacked loads allocate differently and are left out, and so are the
    tensors that are not loaded (the vision tower under --language-model-only, an MTP head not drafting)."""
    if s.pp != 1 or linear != other or ckpt.facts.quantization.method != "none" or not ckpt.inventory:
        return 0
    a = ckpt.architecture
    skip = {"vision_tower"} if flags.language_model_only else set()
    skip |= set() if s.uses_mtp else {"mtp"}
    start = a.num_layers if a.mtp_layers else None
    loaded = {n: v for n, v in ckpt.inventory.tensor_shapes.items() if component_of(n, start) not in skip}
    return allocator_rounding(loaded, s.dtype_bytes, s.tp)


def weights_per_rank(
    ckpt: Checkpoint,
    flags: ServeFlags,
    s: Settings,
    profile: EngineProfile,
    arch: str,
    build: str = "upstream",
    stages=None,
) -> tuple[int, str, list[str], list[str]]:
    """(bytes per rank, label, arithmetic lines, what loading changed: a note per cast, quantization or repack).
    With pipeline stages (plan/stages.py) each stage's own bytes are filled in and the largest is returned."""
    inv = ckpt.inventory
    if inv is None or not inv.total_bytes:
        raise InputError(
            ckpt.facts.source,
            None,
            "no weights: the folder has no safetensors shards (config.json only); pass --weights-gib to plan without them",
        )
    linear, other, label, notes = load_factors(ckpt, flags, s, profile, arch)
    comps = {
        k: int(v * (linear if k in LINEAR_COMPONENTS else other)) for k, v in inv.bytes_by_component.items()
    }
    a = ckpt.architecture
    lm, emb = comps.get("language_model", 0), comps.get("embeddings", 0)
    vision = 0 if flags.language_model_only else comps.get("vision_tower", 0)
    mtp = comps.get("mtp", 0) if s.uses_mtp else 0
    ropes = rotary_cache_count(a)
    rotary = rotary_cache_bytes(a, profile, s.dtype_bytes) * ropes if a.num_attention_heads else 0
    if stages:  # pipeline parallel: each stage's own layers, embeddings and lm_head (plan/stages.py)
        from servebox.plan.stages import fill_stage_weights

        keep = {"vision": not flags.language_model_only, "mtp": s.uses_mtp}
        lines = fill_stage_weights(ckpt, stages, (linear, other), s.tp, keep, rotary)
        return max(st.weights for st in stages), label, lines, notes
    tp, pp = s.tp, s.pp
    drafter, drafter_lines, drafter_notes = mtp_drafter_extra(ckpt, s, build)
    if drafter_notes:
        notes = notes + drafter_notes
        label = "calibrated" if label == "derived" else label
    rounding = _rounding(ckpt, flags, s, linear, other)
    total = lm // (tp * pp) + emb // tp + vision // tp + mtp // tp + drafter + rotary + rounding
    lines = [
        f"weights/rank = language model {lm / GiB:.2f} / (TP {tp} x PP {pp}) + embeddings+lm_head {emb / GiB:.2f} / TP"
        + (f" + vision tower {vision / GiB:.2f} / TP" if vision else "")
        + (f" + MTP head {mtp / GiB:.2f} / TP" if mtp else "")
        + (f" + MTP drafter extra {drafter / GiB:.2f}" if drafter else "")
        + f" + {ropes} rotary cache{'s' if ropes > 1 else ''} {rotary / GiB:.3f}"
        + (f" + allocator rounding {rounding / GiB:.3f}" if rounding else "")
        + f" = {total / GiB:.2f} GiB",
        *drafter_lines,
    ]
    if comps.get("vision_tower") and flags.language_model_only:
        lines.append(
            f"--language-model-only: the vision tower ({comps['vision_tower'] / GiB:.2f} GiB) is not loaded"
        )
    return total, label, lines, notes
