"""Doctor's answers at first contact with each unseen batch, recovered, and a confidence rule backtested on them.

Every batch's header records the commit whose servebox first scored it (tests/fixtures/doctor-corpus/
first_measured.toml). That commit's servebox is extracted (git archive) and run, in a child process, on the
batch's logs: its top answer and confidence then, before anything learnt from the batch. Right means the
answer is the expected id as first written (expected_first, else expected_when_made) or as adjudicated.
Printed: right and confident wrong per batch; the ceiling (logs whose first-written id was `new:`, which no answer
could match then) and top-1 on failures only; how often answers at each confidence were right (the
reliability of the assumed figures); and the shared-wording cap (servebox/doctor/shared_wording.py) applied
to those answers with the statistics of THAT commit's corpus (without the batch), i.e. only what was known
then: confident wrong, confident right, right answers that fell below 0.70, and the Brier score.
Run: python benchmarks/doctor_first_contact.py [--verbose]   (needs the git history; about 30 s)
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import tomllib
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "fixtures" / "doctor-corpus"
sys.path.insert(0, str(ROOT))
from servebox.doctor.ranking import CONFIDENT  # noqa: E402
from servebox.doctor.shared_wording import FLOOR, PRIOR  # noqa: E402

CHILD = r"""
import json, sys, tomllib
from servebox.doctor.triage import Triage
old, now, wanted = sys.argv[1], sys.argv[2], json.loads(sys.stdin.read())
def run(path, name):
    t = Triage(name)
    t.feed(open(path, "rb").read())
    r = t.result()
    raw = sorted(s.id for s in t.signatures if s.id in t.hits and s.role == "cause"
                 and (not getattr(s, "requires", None) or t.seen_requirements.intersection(s.requires))
                 and not getattr(t.hits[s.id], "weak", False))  # a hint's hit is not the family's words
    top = [(d.id, d.confidence) for d in r.diagnoses if d.role in ("cause", "symptom")]
    return raw, (top[0] if top else ("none", r.diagnoses[0].confidence if r.diagnoses else 0.0))
corpus = [[c["expected"], c.get("batch"), run(f"{old}/{c['file']}", c["file"])[0]]
          for c in tomllib.load(open(f"{old}/manifest.toml", "rb"))["case"]]
first = {name: run(f"{now}/{name}", name)[1] for name in wanted}
print(json.dumps({"corpus": corpus, "first": first}))
"""


def run_at(rev: str, child: str, files: list[str], corpus_too: bool = False) -> dict:
    """Run `child` (a script printing JSON) with the servebox of `rev` importable, the batch's file names on stdin
    and argv [that commit's corpus directory or "", today's corpus directory]."""
    paths = ["servebox", "tests/fixtures/doctor-corpus"] if corpus_too else ["servebox"]
    with tempfile.TemporaryDirectory() as tmp:
        tar = subprocess.run(
            ["git", "-C", str(ROOT), "archive", rev, *paths], capture_output=True, check=True
        )
        subprocess.run(["tar", "-x", "-C", tmp], input=tar.stdout, check=True)
        old = f"{tmp}/tests/fixtures/doctor-corpus" if corpus_too else ""
        done = subprocess.run(
            [sys.executable, "-c", child, old, str(CORPUS)],
            input=json.dumps(files),
            capture_output=True,
            text=True,
            check=True,
            cwd=tmp,
            env={**os.environ, "PYTHONPATH": tmp},
        )
    return json.loads(done.stdout)


def batches_by_commit():
    """(commit, the cases of the batches it first scored), in the order first_measured.toml lists them."""
    commits = tomllib.loads((CORPUS / "first_measured.toml").read_text())["commit"]
    cases = [
        c for c in tomllib.loads((CORPUS / "manifest.toml").read_text())["case"] if c.get("batch") in commits
    ]
    for rev in dict.fromkeys(commits.values()):
        yield rev, [c for c in cases if commits[c["batch"]] == rev]


def first_written(case: dict) -> str:
    """The id written when the batch was made, before doctor ran (a later adjudication keeps it in expected_first or
    expected_when_made)."""
    return case.get("expected_first") or case.get("expected_when_made") or case["expected"]


def right_ids(case: dict) -> set[str]:
    """The answers that count as right: the id written when the batch was made, or as adjudicated since."""
    return {first_written(case), case["expected"]}


def shared_then(corpus: list, batch: str) -> dict[str, tuple[int, int]]:
    """Per family, (logs its words matched, other causes among them) in a corpus, leaving `batch` out."""
    matched: Counter[str] = Counter()
    others: dict[str, set[str]] = {}
    for expected, case_batch, raw in corpus:
        for family in raw if case_batch != batch else ():
            matched[family] += 1
            if expected != family:
                others.setdefault(family, set()).add(expected)
    return {f: (matched[f], len(others[f])) for f in others}


def answers() -> list[dict]:
    rows = []
    for rev, mine in batches_by_commit():
        got = run_at(rev, CHILD, [c["file"] for c in mine], corpus_too=True)
        for c in mine:
            top, conf = got["first"][c["file"]]
            shared = shared_then(got["corpus"], c["batch"]).get(top)
            capped = conf if shared is None else min(conf, max(FLOOR, 1 - shared[1] / (shared[0] + PRIOR)))
            rows.append(
                {
                    "case": c,
                    "rev": rev,
                    "top": top,
                    "conf": conf,
                    "capped": capped,
                    "right": top in right_ids(c),
                }
            )
        print(f"  {rev}: {len(mine)} logs scored with that commit's servebox", file=sys.stderr)
    return rows


def ceiling(rows: list[dict]) -> None:
    """A log whose cause no family named when it was first met (its first-written expected is `new:`) cannot be
    right by id at first contact: print how many there were, and top-1 on the logs whose family then existed."""
    for origin in ("all", "public", "made here"):
        part = [
            r
            for r in rows
            if origin == "all" or r["case"]["file"].startswith("public-") == (origin == "public")
        ]
        first = [(r, first_written(r["case"])) for r in part]
        known = [r for r, expected in first if not expected.startswith("new:")]
        new = len(part) - len(known)
        ok = sum(r["right"] for r in known)
        failed = [r for r, expected in first if expected != "none"]
        named = sum(r["right"] for r in failed)
        print(
            f"    {origin:9}: {new:3} of {len(part)} logs ({new / len(part):.1%}) had no family then, so top-1 by id "
            f"could be at most {1 - new / len(part):.1%}; on the {len(known)} whose family existed: {ok / len(known):.1%}"
        )
        print(
            f"    {'':9}  failures only (expected not none): {named} of {len(failed)} ({named / len(failed):.1%})"
        )


def tally(rows: list[dict], key: str) -> str:
    offered = [r for r in rows if r["top"] != "none"]
    wrong = sum(r[key] >= CONFIDENT and not r["right"] for r in offered)
    sure = sum(r[key] >= CONFIDENT and r["right"] for r in offered)
    fell = sum(r["conf"] >= CONFIDENT > r[key] and r["right"] for r in offered)
    brier = sum((r[key] - r["right"]) ** 2 for r in offered) / len(offered)
    return f"confident wrong {wrong}, confident right {sure}, right answers below 0.70 by the rule {fell}, Brier {brier:.4f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--verbose", action="store_true", help="one line per log, not only the confident wrong ones"
    )
    verbose = parser.parse_args().verbose
    rows = answers()
    n, right = len(rows), sum(r["right"] for r in rows)
    print(f"doctor at first contact, {n} logs of {len({r['case']['batch'] for r in rows})} unseen batches:")
    print(f"  top-1 {right} ({right / n:.1%}) (measured, each batch with the servebox that first scored it)")
    for origin in ("public", "made here"):
        part = [r for r in rows if r["case"]["file"].startswith("public-") == (origin == "public")]
        ok = sum(r["right"] for r in part)
        print(f"    {origin:9}: {len(part):3} logs, top-1 {ok} ({ok / len(part):.1%})")
    print("  the ceiling of a first contact (derived from the batches' first-written expected ids):")
    ceiling(rows)
    print("  by the commit that first scored them (the unseen learning curve):")
    for rev in dict.fromkeys(r["rev"] for r in rows):
        part = [r for r in rows if r["rev"] == rev]
        ok = sum(r["right"] for r in part)
        wrong = sum(r["conf"] >= CONFIDENT and not r["right"] and r["top"] != "none" for r in part)
        names = ", ".join(dict.fromkeys(r["case"]["batch"] for r in part))
        print(
            f"    {rev}: {len(part):3} logs, top-1 {ok / len(part):6.1%}, confident wrong {wrong:2} ({names})"
        )
    print("  reliability of the figures given then (answers other than none):")
    for lo, hi in ((0.0, 0.5), (0.5, 0.7), (0.7, 0.8), (0.8, 0.9), (0.9, 0.95), (0.95, 1.01)):
        band = [r for r in rows if r["top"] != "none" and lo <= r["conf"] < hi]
        if band:
            ok = sum(r["right"] for r in band)
            print(
                f"    {lo:.2f}-{min(hi, 1):.2f}: {len(band):3} answers, right {ok:3} ({ok / len(band):.0%})"
            )
    print(f"  as given:                 {tally(rows, 'conf')}")
    print(f"  with the shared-word cap: {tally(rows, 'capped')}  (backtest: each commit's own corpus)")
    for r in rows:
        if verbose or (r["conf"] >= CONFIDENT and not r["right"]):
            mark = (
                "ok "
                if r["right"]
                else "WRONG"
                if r["capped"] >= CONFIDENT
                else "capped"
                if r["conf"] >= CONFIDENT
                else "miss"
            )
            print(
                f"  {mark:6} {r['case']['batch']:9} {r['case']['file']}: got {r['top']} {r['conf']:.2f} -> {r['capped']:.2f}"
            )


if __name__ == "__main__":
    main()
