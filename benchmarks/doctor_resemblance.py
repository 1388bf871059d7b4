"""Leave-one-wording-out: would resemblance (servebox/doctor/resemblance.py) find a family whose wording is missing?

For each corpus case whose top answer is right and came from its family's wording, every wording (pattern or
hint) of that family that matches a line of this log is removed from the knowledge base, and its excerpt too
when the log holds it; doctor is run again with that knowledge base. Outcomes: `recovered` (resemblance names
the family first), `silent` (resemblance offers nothing), `wrong` (it names another family), `other entry`
(another entry's wording or the family's raised_in still answered, so resemblance was never asked).
The margins are set aside while running: each consulted case records its best family, its score and the
second's, so any pair of margins (min_score, min_ratio) is scored afterwards from the same records; a grid is
printed, and the figure at the margins in servebox/doctor/resemblance.toml.
Run: python benchmarks/doctor_resemblance.py [--limit N] [--out records.json] [--from records.json]
(all 638 logs take several minutes on one core).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path

from servebox.doctor import resemblance as R
from servebox.doctor.signatures import load_signatures
from servebox.doctor.triage import Triage, triage_stream

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the corpus reader beside it, as a script runs
from doctor_accuracy import CORPUS, is_public, load_cases  # noqa: E402

SCORES = (0, 5, 8, 10, 12, 15, 18, 20, 25, 30)
RATIOS = (1.0, 1.1, 1.2, 1.3, 1.5, 1.75, 2.0)


def without_wordings(sig, lines: list[str], text: str):
    """The family less every wording that matches one of `lines`, and its excerpt if the log holds it."""
    keep = tuple(p for p in sig.patterns if not any(p.search(line) for line in lines))
    hints = tuple(p for p in sig.hints if not any(p.search(line) for line in lines))
    excerpt = "" if sig.excerpt.strip() and sig.excerpt.strip() in text else sig.excerpt
    removed = len(sig.patterns) - len(keep) + len(sig.hints) - len(hints)
    return dataclasses.replace(sig, patterns=keep, hints=hints, excerpt=excerpt), removed


class Recorder:
    """Stands in for resemblance.resembles with no margins: remembers the best two scores it saw."""

    def __init__(self):
        self.seen = None

    def __call__(self, text, signatures, seen=None, m=None):
        ranked = R.index(signatures).ranked(text, seen)
        self.seen = [(score, sig.id) for score, sig in ranked]
        return ranked[0][1] if ranked else None


def record(case: dict, recorder: Recorder) -> dict | None:
    path = CORPUS / case["file"]
    with path.open("rb") as handle:
        first = triage_stream(handle, case["file"])
    top = first.diagnoses[0] if first.diagnoses else None
    if top is None or top.id != case["expected"] or top.confidence_kind == "resemblance":
        return None
    text = path.read_text(encoding="utf-8", errors="replace")
    sigs = load_signatures()
    at = next(i for i, s in enumerate(sigs) if s.id == top.id)
    reduced, removed = without_wordings(sigs[at], text.splitlines(), text)
    if not removed:
        return None  # answered by where it was raised, or another route: not a wording to leave out
    kb = (*sigs[:at], reduced, *sigs[at + 1 :])
    recorder.seen = None
    t = Triage(case["file"], kb)
    t.feed(path.read_bytes())
    result = t.result()
    after = result.diagnoses[0] if result.diagnoses else None
    origin = "public" if is_public(case) else "made here"
    out = {"file": case["file"], "expected": case["expected"], "origin": origin, "removed": removed}
    if after is not None and after.confidence_kind == "resemblance":
        out["best"] = recorder.seen
    else:
        out["other"] = after.id if after else "none"
    return out


def outcome(rec: dict, min_score: float, min_ratio: float) -> str:
    if "best" not in rec:
        return "other entry"
    (score, best), second = rec["best"][0], rec["best"][1][0] if len(rec["best"]) > 1 else 0.0
    if score < min_score or (second > 0 and score / second < min_ratio):
        return "silent"
    return "recovered" if best == rec["expected"] else "wrong"


def tally(recs: list[dict], min_score: float, min_ratio: float) -> dict[str, int]:
    out = {"recovered": 0, "silent": 0, "wrong": 0, "other entry": 0}
    for rec in recs:
        out[outcome(rec, min_score, min_ratio)] += 1
    return out


def report(recs: list[dict]) -> None:
    m = R.margins()
    print(f"{len(recs)} cases right by a wording, that wording left out")
    for name, group in (
        ("all", recs),
        *((o, [r for r in recs if r["origin"] == o]) for o in ("made here", "public")),
    ):
        print(
            f"  {name:9} at min_score {m.min_score}, min_ratio {m.min_ratio}: {tally(group, m.min_score, m.min_ratio)}"
        )
        print(f"  {name:9} with no margins: {tally(group, 0, 0)}")
    print("grid (all): min_score min_ratio -> recovered silent wrong")
    for s in SCORES:
        print(
            "  "
            + "  ".join(
                f"{s:>3}/{r:<4} {'{recovered:3}/{silent:3}/{wrong:3}'.format(**tally(recs, s, r))}"
                for r in RATIOS
            )
        )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--limit", type=int, default=0, help="only the first N corpus cases")
    parser.add_argument("--out", help="write the records (JSON) here")
    parser.add_argument("--from", dest="source", help="score records written by an earlier --out")
    args = parser.parse_args()
    if args.source:
        recs = json.loads(Path(args.source).read_text())
    else:
        cases = load_cases()
        cases = cases[: args.limit] if args.limit else cases
        recorder = Recorder()
        R.resembles = recorder  # margins set aside: the grid applies them afterwards
        recs = [r for case in cases if (r := record(case, recorder)) is not None]
        if args.out:
            Path(args.out).write_text(json.dumps(recs, indent=1))
    report(recs)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
