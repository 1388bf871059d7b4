"""What the doctor coverage benchmarks share: classifying one rendered log excerpt and the per-group table.

Why: each coverage benchmark (llama.cpp's messages; the CUDA/NCCL, systemd and OS error vocabularies) renders
a catalogue its own way but must judge the answer the same way, or their figures would not compare.
"""

from __future__ import annotations

import argparse
import io
import json
from collections import Counter
from collections.abc import Iterable

from servebox.doctor.signatures import load_signatures
from servebox.doctor.triage import triage_stream

# The catch-alls of the GPU backend vocabularies (CUDA/NCCL; Vulkan, HIP, HSA, UR): they say "the backend failed
# here", not why (llamacpp-cuda-init-failed answers every code on the init path with the same list of suspects)
BACKEND_UMBRELLA = frozenset(
    (
        "llamacpp-cuda-error",
        "llamacpp-cuda-init-failed",
        "native-abort",
        "uncaught-exception",
        "llamacpp-abort",
    )
)


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


def entry_row(entry: dict, per: dict[str, tuple[str, str]], skipped: str, counted=None) -> dict:
    """An entry's row: its (verdict, family) per format and the worst verdict over the formats that count (all
    of them, or those in `counted`: an init-path format cannot show a kernel error)."""
    verdicts = [v for f, (v, _) in per.items() if counted is None or f in counted]
    return {**entry, "per_format": per, "verdict": min(verdicts, key=RANK.__getitem__), "skipped": skipped}


def vocabulary_args(description: str, uncovered: int, argv: list[str] | None) -> argparse.Namespace:
    """The options every vocabulary benchmark takes: how many uncovered entries to list, or JSON rows."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument(
        "--uncovered", type=int, default=uncovered, help="list this many entries not named everywhere"
    )
    ap.add_argument("--json", action="store_true", help="one JSON line per entry instead of the report")
    return ap.parse_args(argv)


def print_summary(rows: list[dict], key: str, keys: Iterable[str] | None = None) -> list[dict]:
    """verdict_row per value of `key` (first-seen order unless `keys` gives it), overall and the plausible ones,
    and the count skipped; returns the plausible entries not named or pointed at in every format."""
    keys = dict.fromkeys(r[key] for r in rows) if keys is None else keys
    for label in keys:
        print(verdict_row(label, [r for r in rows if r[key] == label]))
    print(verdict_row("overall", rows))
    print(verdict_row("plausible (not skipped)", [r for r in rows if not r["skipped"]]))
    print(f"skipped as implausible on a GPU box: {sum(bool(r['skipped']) for r in rows)} (SKIPPED says why)")
    return [r for r in rows if r["verdict"] not in ("named", "symptom") and not r["skipped"]]


def rows_by_kind(doc: dict, render, umbrella: set[str], skipped: dict[str, str]) -> list[dict]:
    """One row per entry of a catalogue whose formats fit an entry by its `kind` (the container and torch/Triton
    ones): its verdict and family in each format of its kind, and the worst over them."""
    generic = generic_ids(umbrella)
    rows = []
    for e in doc["entries"]:
        per = {f["id"]: judge(render(f, e), generic) for f in doc["formats"] if f["kind"] == e["kind"]}
        rows.append(entry_row(e, per, skipped.get(e["id"], "")))
    return rows


def print_layer_report(doc: dict, rows: list[dict], a: argparse.Namespace, id_width: int, excerpt) -> int:
    """The --json rows, or the report, of a catalogue whose entries have an id and a layer: the summary per layer,
    the uncovered entries (`excerpt` cuts each message to the part that tells them apart) and every entry's
    family per format. Only the widths and the excerpt differ between the benchmarks that print it."""
    if a.json:
        for r in rows:
            print(json.dumps({k: r[k] for k in ("id", "layer", "verdict", "skipped", "per_format")}))
        return 0
    print(f"sources: {', '.join(doc['sources'])}; {len(rows)} entries, {len(doc['formats'])} formats")
    print(
        "named: a specific cause; symptom: a family that says where to look; generic: a catch-all or bare exception"
    )
    uncovered = print_summary(rows, "layer")
    print(f"\nplausible entries without a family in some format ({len(uncovered)}):")
    for r in uncovered[: a.uncovered]:
        fams = " ".join(
            f"{k}={v[0]}:{v[1][:28]}" for k, v in r["per_format"].items() if v[0] not in ("named", "symptom")
        )
        print(f"  {r['id']:{id_width}} {excerpt(r['message'])!r:58} {fams}")
    print("\nall entries (worst verdict, the family per format):")
    for r in rows:
        print(
            f"  {r['id']:{id_width}} {r['verdict']:8} "
            + " ".join(f"{k}={v[1]}" for k, v in r["per_format"].items())
        )
    return 0


def print_format_table(doc: dict, rows: list[dict], width: int, shares: bool = True) -> None:
    """One line per format of a catalogue of codes (the GPU backends'): how many entries it renders and their
    verdicts in it, with the named and named+symptom shares where `shares`."""
    tail = "  named%  named+symptom%" if shares else ""
    print(f"{'format':{width}} {'n':>4} {'named':>6} {'symptom':>8} {'generic':>8} {'none':>5}{tail}")
    for f in doc["formats"]:
        c = Counter(r["per_format"][f["id"]][0] for r in rows if f["id"] in r["per_format"])
        line = f"{f['id']:{width}} {sum(c.values()):4} {c['named']:6} {c['symptom']:8} {c['generic']:8} {c['none']:5}"
        if shares:
            n = sum(c.values()) or 1
            line += f"  {100 * c['named'] / n:5.1f}  {100 * (c['named'] + c['symptom']) / n:5.1f}"
        print(line)
