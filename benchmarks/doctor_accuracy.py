"""Doctor's accuracy on its corpus of real failure logs (tests/fixtures/doctor-corpus/manifest.toml).

Each case's expected top cause was written down before the knowledge base was grown from the
corpus; cases marked `held_back` were not read while writing signatures, so their score is the
honest one (see the manifest's header: the last growth of the knowledge base knew the held-back
misses' families, so `fresh` cases, made after it, are the clean measure). Prints top-1 and top-3 rates and the number of confident wrong answers (a wrong top
diagnosis with confidence >= 0.7), overall, on held-back cases, and per origin (made here /
public thread), and one line per `batch` (e.g. "fresh-4", made by someone who did not write the
knowledge base; where a batch's expected answers were re-picked against a later id list before doctor ran,
`expected_first`, the figure against the first picks too), and for cases taught from public threads (`train`, `round`) their first answers, recorded
before the knowledge base learnt from them: the learning curve. An expected id "new:<id>" names a cause no signature knows: it counts as a miss
(an honest one), and as confidently wrong only if doctor names another cause at >= 0.7. With --baseline REV, the triage of git revision REV (e.g. 0c366c8, before issue 12)
is scored on the same corpus in the same run, for the before/after figure.
Run: python benchmarks/doctor_accuracy.py [--verbose] [--batch NAME] [--baseline REV]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

from servebox.doctor.ranking import CONFIDENT
from servebox.doctor.triage import TriageResult, triage_stream

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "doctor-corpus"


def load_cases() -> list[dict]:
    return tomllib.loads((CORPUS / "manifest.toml").read_text())["case"]


def top_ids(result: TriageResult) -> list[str]:
    """Ranked ids of causes and symptoms; "none" when there is neither (notes do not count)."""
    ids = [d.id for d in result.diagnoses if d.role in ("cause", "symptom")]
    return ids or ["none"]


def is_public(case: dict) -> bool:
    """A public thread's log: its source is the thread (fresh-314/328 are named freshNNN-, not public-)."""
    return case.get("source", "").startswith("http")


def score(cases: list[dict], verbose: bool = False) -> dict[str, dict[str, int]]:
    groups: dict[str, dict[str, int]] = {}
    for case in cases:
        with (CORPUS / case["file"]).open("rb") as handle:
            result = triage_stream(handle, case["file"])
        ids = top_ids(result)
        top = result.diagnoses[0] if result.diagnoses else None
        right1, right3 = ids[0] == case["expected"], case["expected"] in ids[:3]
        right_first = ids[0] == case.get("expected_first", case["expected"])
        confident_wrong = not right1 and top is not None and ids[0] != "none" and top.confidence >= CONFIDENT
        origin = "public" if is_public(case) else "made here"
        unseen = case.get("held_back") or case.get("batch")  # a batch was never read by the KB's writers
        groups_of = ["all", origin] + (
            ["held back"] if case.get("held_back") else [] if unseen else ["built from"]
        )
        if case.get("fresh"):
            groups_of.append("fresh")
        if case.get("batch"):
            groups_of.append(f"batch {case['batch']}")
        for group in groups_of:
            g = groups.setdefault(
                group, {"n": 0, "top1": 0, "top3": 0, "confident_wrong": 0, "first": 0, "repicked": 0}
            )
            g["n"] += 1
            g["first"] += right_first
            g["repicked"] += "expected_first" in case
            g["top1"] += right1
            g["top3"] += right3
            g["confident_wrong"] += confident_wrong
        if verbose or confident_wrong:
            mark = "ok " if right1 else ("WRONG!" if confident_wrong else "miss")
            conf = f"{top.confidence:.2f}" if top is not None else "-"
            print(
                f"{mark:6} {case['file']}: expected {case['expected']}, got {ids[:3]} (top confidence {conf})"
            )
    return groups


CHILD = """
import json, sys
from servebox.doctor.triage import triage_stream
files, corpus = json.loads(sys.stdin.read()), sys.argv[1]
out = []
for name in files:
    with open(f"{corpus}/{name}", encoding="utf-8", errors="replace") as handle:
        result = triage_stream(handle, name)
    ids = [d.id for d in result.diagnoses if d.role in ("cause", "symptom")] or ["none"]
    out.append([ids[0], result.diagnoses[0].confidence if result.diagnoses else 0.0])
print(json.dumps(out))
"""


def baseline(rev: str, cases: list[dict]) -> str:
    """Score the whole servebox package of git revision `rev` (extracted with git archive and run in a
    child process, so its own triage, ranking and knowledge base are used) with the same rule."""
    repo = CORPUS.parent.parent.parent
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(
            ["git", "-C", str(repo), "archive", rev, "servebox"], capture_output=True, check=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        child = subprocess.run(
            [sys.executable, "-c", CHILD, str(CORPUS)],
            input=json.dumps(
                [case["file"] for case in cases]
            ),  # on stdin: the whole list outgrew one argv string
            capture_output=True,
            text=True,
            check=True,
            cwd=tmp,
            env={**os.environ, "PYTHONPATH": tmp},
        )
    answers = json.loads(child.stdout)
    top1 = sum(top == case["expected"] for (top, _), case in zip(answers, cases, strict=True))
    none = sum(top == "none" for top, _ in answers)
    wrong = sum(
        top not in (case["expected"], "none") and conf >= CONFIDENT
        for (top, conf), case in zip(answers, cases, strict=True)
    )
    n = len(cases)
    return f"  baseline {rev}: top-1 {top1 / n:6.1%}, no diagnosis {none / n:6.1%}, confident wrong {wrong}"


def first_answers(cases: list[dict]) -> list[str]:
    """The learning curve of cases taught from public threads (`train`, `round`): each case's answer as
    recorded when it was added, before the knowledge base learnt from it (an unseen figure too)."""
    rounds: dict[tuple[str, int], list[int]] = {}
    for case in cases:
        if "first_answer" not in case:
            continue
        right = case["first_answer"] == case.get("expected_when_made", case["expected"])
        wrong = not right and case["first_answer"] != "none" and case.get("first_confidence", 0) >= CONFIDENT
        tally = rounds.setdefault((case["train"], case.get("round", 0)), [0, 0, 0])
        tally[0], tally[1], tally[2] = tally[0] + 1, tally[1] + right, tally[2] + wrong
    lines, total = [], [0, 0, 0]
    for (train, rnd), (n, right, wrong) in sorted(rounds.items()):
        lines.append(
            f"  {train} round {rnd}: {n:3} threads, right before learning {right:3} ({right / n:6.1%}), "
            f"confident wrong {wrong} (recorded when added)"
        )
        total = [total[0] + n, total[1] + right, total[2] + wrong]
    if total[0]:
        lines.append(
            f"  taught from threads, all rounds: {total[0]} threads, right before learning {total[1]} "
            f"({total[1] / total[0]:6.1%}), confident wrong {total[2]}"
        )
    return lines


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--verbose", action="store_true", help="one line per log")
    parser.add_argument("--batch", metavar="NAME", help="score one batch only, e.g. fresh-4")
    parser.add_argument(
        "--baseline", metavar="REV", help="also score the triage of git revision REV, same corpus"
    )
    return parser.parse_args()


def main() -> None:
    args = arguments()
    cases = load_cases()
    if args.batch:
        cases = [c for c in cases if c.get("batch") == args.batch]
    groups = score(cases, verbose=args.verbose)
    print(f"doctor on {len(cases)} real failure logs (tests/fixtures/doctor-corpus):")
    batches = sorted(
        (name for name in groups if name.startswith("batch ")),
        key=lambda name: (int(re.sub(r"\D", "", name) or 0), name),  # fresh-4 before fresh-10, 18 before 18b
    )
    for name in ("all", "held back", "built from", "fresh", "made here", "public", *batches):
        g = groups.get(name)
        if g:
            print(
                f"  {name:10}: {g['n']:3} logs, top-1 {g['top1'] / g['n']:6.1%}, top-3 {g['top3'] / g['n']:6.1%}, "
                f"confident wrong {g['confident_wrong']} (measured)"
                + (
                    f"; against the first picks ({g['repicked']} re-picked): top-1 {g['first'] / g['n']:6.1%}"
                    if g["repicked"]
                    else ""
                )
            )
    for line in first_answers(cases):
        print(line)
    if args.baseline:
        print(baseline(args.baseline, cases))


if __name__ == "__main__":
    main()
