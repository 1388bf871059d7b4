"""A FlashInfer kernel refused for 'current device cuda': the package, or the GPU? The log's GPU decides.

learn48b (fresh-392's fresh392-vllm-mixtral-cut-moe-backend-flashinfer-cutlass, vLLM 0.26.0 on an H100 without
flashinfer, read as moe-backend-excludes-gpu 0.85, confident wrong). vLLM 0.26's fused-MoE kernels answer
`_supports_current_device()` with the GPU's family AND the FlashInfer API they call (experts/*.py):
flashinfer_cutlass_moe.py SM90, SM100 or SM120 family and has_flashinfer_cutlass_fused_moe(); trtllm_{bf16,fp8,nvfp4,
mxfp4,mxint4,lora}_moe.py and flashinfer_cutedsl*_moe.py the SM100 family and has_flashinfer_*(); flashinfer_b12x_moe.py
the SM120 family and has_flashinfer_b12x_moe(). modular_kernel.py words either failure the same: 'kernel does not
support current device cuda' (the platform's type, never the GPU). So on a GPU of the kernel's families the refusal
means flashinfer is missing or too old (flashinfer-missing-or-old); on a GPU outside them, the GPU
(moe-backend-excludes-gpu); where the log names no GPU (gpu-arch-shown), both, below confident.
"""

from __future__ import annotations

import re

from servebox.doctor.shared_wording import BELOW_CONFIDENT
from servebox.doctor.texts import answer_text

GPU_REFUSED = "moe-backend-excludes-gpu"
PACKAGE = "flashinfer-missing-or-old"
SHOWN = "gpu-arch-shown"
REFUSED = re.compile(
    r"MoE backend '?(?P<name>FlashInfer[\w -]*?|FLASHINFER_\w+)'? does not support the deployment configuration "
    r"since kernel does not support current device cuda\b",
    re.IGNORECASE,
)
# the architecture families each FlashInfer MoE kernel's device check includes (vLLM 0.26's experts/*.py)
FAMILIES = (
    ("B12X", {"sm120"}),
    ("CUTLASS", {"sm90", "sm100", "sm120"}),
    ("TRTLLM", {"sm100"}),
    ("CUTEDSL", {"sm100"}),
)
BOTH = answer_text("flashinfer_device", "both")
BOTH_FIX = answer_text("flashinfer_device", "both_fix")


def _families(name: str) -> set[str]:
    """The families the named kernel's check includes; empty where the name is none vLLM 0.26 has."""
    key = re.sub(r"[\W_]", "", name).upper()
    return next((set(fams) for word, fams in FAMILIES if word in key), set())


def _archs(t, sig) -> set[str]:
    """The architecture families the log's GPU lines name (every wording of gpu-arch-shown on every evidence line)."""
    hit = t.hits.get(SHOWN)
    if hit is None or sig is None:
        return set()
    return {
        g
        for _, text in hit.evidence
        for p in sig.patterns
        for m in p.finditer(text)
        for g, v in m.groupdict().items()
        if v
    }


def flashinfer_device(t, diagnoses: list) -> None:
    """Rewrite moe-backend-excludes-gpu on a FlashInfer kernel's 'current device cuda' refusal as the log's GPU says:
    the package on a GPU of the kernel's families, kept on one outside them, both below confident where unknown."""
    sigs = {s.id: s for s in t.signatures}
    for d in diagnoses:
        m = d.id == GPU_REFUSED and next((m for e in d.evidence if (m := REFUSED.search(e.text))), None)
        if not m:
            continue
        fams, archs = _families(m["name"]), _archs(t, sigs.get(SHOWN))
        if fams and archs and archs <= fams and PACKAGE in sigs:
            pkg = sigs[PACKAGE]
            d.id, d.category, d.cause, d.fix, d.confidence = (
                pkg.id,
                pkg.category,
                pkg.cause,
                pkg.fix,
                pkg.confidence,
            )
        elif not (fams and archs and not archs & fams):
            d.cause, d.fix = BOTH.format(name=m["name"]), BOTH_FIX
            d.confidence = min(d.confidence, BELOW_CONFIDENT)
