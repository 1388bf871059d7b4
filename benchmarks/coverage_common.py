"""What the doctor coverage benchmarks share: classifying one rendered log excerpt and the per-group table.

Why: each coverage benchmark (llama.cpp's messages; the CUDA/NCCL, systemd and OS error vocabularies) renders
a catalogue its own way but must judge the answer the same way, or their figures would not compare.
"""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Iterable

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


def print_table(groups: Iterable[str], per_group: dict[str, Counter], label: str = "area") -> None:
    """One row per group and an overall row: n, named, generic, none, named% and any%."""
    total = sum(per_group.values(), Counter())
    print(f"{label:18} {'n':>5} {'named':>7} {'generic':>8} {'none':>6}  named%  any%")
    for group in (*groups, "overall"):
        c = total if group == "overall" else per_group[group]
        n = sum(c.values()) or 1
        print(
            f"{group:18} {sum(c.values()):5} {c['named']:7} {c['generic']:8} {c['none']:6}"
            f"  {100 * c['named'] / n:5.1f}  {100 * (c['named'] + c['generic']) / n:5.1f}"
        )


# the order of verdicts, worst first: an entry printed in several formats counts by its worst
RANK = {"none": 0, "generic": 1, "symptom": 2, "named": 3}


def judge(text: str, generic: set[str]) -> tuple[str, str]:
    """classify's verdict, with 'symptom' apart: a family of its own that says where to look (not a catch-all)."""
    verdict, fam = classify(text, generic)
    if verdict == "generic" and fam and fam not in generic and not fam.startswith("exception "):
        return "symptom", fam
    return verdict, fam


def verdict_row(label: str, group: list[dict]) -> str:
    """One summary line of entries' worst verdicts: counts and the named and named+symptom shares."""
    c = Counter(r["verdict"] for r in group)
    n = len(group) or 1
    return (
        f"  {label:24} {len(group):4}  named {c['named']:3}  symptom {c['symptom']:3}  generic {c['generic']:3}"
        f"  none {c['none']:3}  named% {100 * c['named'] / n:5.1f}"
        f"  named+symptom% {100 * (c['named'] + c['symptom']) / n:5.1f}"
    )
