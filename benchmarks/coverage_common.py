"""What the doctor coverage benchmarks share: feed one rendered log excerpt to triage and say who named it.

Why: each coverage benchmark (llama.cpp's messages, the CUDA/NCCL error vocabulary) renders a catalogue its
own way but must judge the answer the same way, or their figures would not compare.
"""

from __future__ import annotations

import io

from servebox.doctor.signatures import load_signatures
from servebox.doctor.triage import triage_stream


def generic_ids(umbrella: set[str]) -> set[str]:
    """The catch-alls: the benchmark's own umbrella families plus every entry marked `generic`."""
    return umbrella | {s.id for s in load_signatures() if s.generic}


def classify(text: str, generic: set[str]) -> tuple[str, str]:
    """'named' (a specific family), 'generic' (a catch-all, a symptom, the bare exception) or 'none'."""
    r = triage_stream(io.BytesIO(text.encode() + b"\n"), "coverage")
    if r.diagnoses:
        top = r.diagnoses[0]
        if top.id in generic or top.role != "cause":
            return "generic", top.id
        return "named", top.id
    if r.exception is not None:
        return "generic", f"exception {r.exception.type}"
    return "none", ""
