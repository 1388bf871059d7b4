"""Did learning carry? Unseen batches' answers at their first contact and at a later commit that never saw them.

Stop 29 asked it with a throwaway script; stop 30 learnt from the programs' own vocabularies (not from logs)
while unseen batches were being drawn, and needs the same question answered for any pair of commits. Each
batch is scored by the servebox of the commit that first scored it (first_measured.toml) and by the servebox
of `--at` (extracted with git archive and run in a child, as benchmarks/doctor_first_contact.py does). Only
batches the later commit did not learn from make the comparison honest: name them with --batch (a batch's
own learning, committed after it was scored, would count as transfer otherwise).
Printed per batch: right and confident wrong at each commit, then every log whose answer changed.
Run: python benchmarks/doctor_transfer.py --at REV --batch fresh-96 [--batch fresh-97 ...]   (needs git history)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from doctor_first_contact import CHILD, CONFIDENT, batches_by_commit, right_ids, run_at  # noqa: E402


def scored(rev: str, cases: list[dict]) -> dict[str, tuple[str, float]]:
    """Each case's top answer and confidence with the servebox of `rev`."""
    return run_at(rev, CHILD, [c["file"] for c in cases], corpus_too=True)["first"]


def rows_for(batches: set[str], later: str) -> list[dict]:
    rows = []
    for rev, cases in batches_by_commit():
        cases = [c for c in cases if c["batch"] in batches]
        if not cases:
            continue
        then, now = scored(rev, cases), scored(later, cases)
        for c in cases:
            rows.append({"case": c, "rev": rev, "then": then[c["file"]], "now": now[c["file"]]})
    return rows


def counts(rows: list[dict], key: str) -> tuple[int, int]:
    right = sum(r[key][0] in right_ids(r["case"]) for r in rows)
    wrong = sum(
        r[key][0] != "none" and r[key][1] >= CONFIDENT and r[key][0] not in right_ids(r["case"]) for r in rows
    )
    return right, wrong


def report(rows: list[dict], later: str) -> None:
    print(f"{'batch':10} {'logs':>4}  first contact (right, confident wrong)  at {later}")
    for batch in dict.fromkeys(r["case"]["batch"] for r in rows):
        part = [r for r in rows if r["case"]["batch"] == batch]
        (a, aw), (b, bw) = counts(part, "then"), counts(part, "now")
        print(f"{batch:10} {len(part):4}  {a:3} ({aw} cw) at {part[0]['rev']}{'':17}{b:3} ({bw} cw)")
    (a, aw), (b, bw) = counts(rows, "then"), counts(rows, "now")
    print(f"{'all':10} {len(rows):4}  {a:3} ({aw} cw){'':28}{b:3} ({bw} cw)")
    for r in rows:
        then, now = r["then"], r["now"]
        if then[0] == now[0]:
            continue
        ok_then, ok_now = then[0] in right_ids(r["case"]), now[0] in right_ids(r["case"])
        mark = "GAIN" if ok_now and not ok_then else "LOSS" if ok_then and not ok_now else "diff"
        print(
            f"  {mark} {r['case']['batch']} {r['case']['file']}: {then[0]} {then[1]:.2f} -> {now[0]} {now[1]:.2f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--at", required=True, help="the later commit (one that never learnt from the batches)"
    )
    parser.add_argument("--batch", action="append", required=True, help="an unseen batch (repeat)")
    args = parser.parse_args()
    rows = rows_for(set(args.batch), args.at)
    if not rows:
        parser.error(f"no case of {', '.join(args.batch)} is in first_measured.toml's batches")
    report(rows, args.at)


if __name__ == "__main__":
    main()
