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
The backtest starts from each commit's UNCAPPED answers (its calibrate switched off) and re-ranks them as rank does,
so a looser rule can show too. --compare prints each candidate cap (by distinct causes, by the share of logs with a
Beta prior, a Wilson lower bound) on the batches first measured before stop 32 (fresh-4..125: choose there) and on the
later ones (HELD_OUT_FROM on: report there). Stop 34 (calib34): no share-of-logs rule beat the rule in use on the
earlier batches' Brier score; each cut confident wrong answers only by taking about three right ones below 0.70 apiece.
Run: python benchmarks/doctor_first_contact.py [--verbose] [--compare] [--rows FILE]   (needs the git history;
about 14 minutes on the shared 2-core machine; --rows FILE keeps the answers, and a later run with it scores only
the batches measured since)
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
sys.path.insert(0, str(ROOT / "benchmarks"))
from doctor_accuracy import is_public  # noqa: E402

from servebox.doctor.results import CONFIDENT  # noqa: E402
from servebox.doctor.shared_wording import FLOOR, PRIOR  # noqa: E402

# the first commit whose batches are held out: the batches first measured in stop 32 and after (fresh-126 on)
HELD_OUT_FROM = "ef2122e"
BANDS = ((0.0, 0.5), (0.5, 0.7), (0.7, 0.8), (0.8, 0.9), (0.9, 0.95), (0.95, 1.01))

CHILD = r"""
import json, sys, tomllib
from servebox.doctor.triage import Triage
old, now, wanted = sys.argv[1], sys.argv[2], json.loads(sys.stdin.read())
try:  # the commit's shared-wording cap, switched off for the uncapped figures (absent before b316544)
    import servebox.doctor.ranking as ranking
    capping = getattr(ranking, "calibrate", None)
except ImportError:
    ranking = capping = None
def run(path, name, cap=True):
    if capping is not None:
        ranking.calibrate = capping if cap else (lambda diagnoses: None)
    t = Triage(name)
    t.feed(open(path, "rb").read())
    r = t.result()
    raw = sorted(s.id for s in t.signatures if s.id in t.hits and s.role == "cause"
                 and (not getattr(s, "requires", None) or t.seen_requirements.intersection(s.requires))
                 and not getattr(t.hits[s.id], "weak", False))  # a hint's hit is not the family's words
    top = [(d.id, d.confidence) for d in r.diagnoses if d.role in ("cause", "symptom")]
    ranked = [(d.id, d.role, d.confidence) for d in r.diagnoses if d.role in ("cause", "symptom")]
    return raw, (top[0] if top else ("none", r.diagnoses[0].confidence if r.diagnoses else 0.0)), ranked
corpus = [[c["expected"], c.get("batch"), run(f"{old}/{c['file']}", c["file"])[0]]
          for c in tomllib.load(open(f"{old}/manifest.toml", "rb"))["case"]]
first = {name: run(f"{now}/{name}", name)[1] for name in wanted}
uncapped = {name: run(f"{now}/{name}", name, cap=False)[2] for name in wanted}
print(json.dumps({"corpus": corpus, "first": first, "uncapped": uncapped}))
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


# families merged since (an old answer under the merged-away id names the kept family's cause): learn41b (s41)
# engine-core-killed -> engine-killed-from-outside (one cause, reported by vLLM or by a shell / supervisor)
MERGED = {"engine-core-killed": "engine-killed-from-outside"}


def right_ids(case: dict) -> set[str]:
    """The answers that count as right: the id written when the batch was made, or as adjudicated since, and an id
    merged into one of those."""
    ids = {first_written(case), case["expected"]}
    return ids | {old for old, kept in MERGED.items() if kept in ids}


def shared_then(corpus: list, batch: str) -> dict[str, tuple[int, int, int]]:
    """Per family seen under another cause, (logs its words matched, those that were its own cause, distinct other
    causes among them) in a corpus, leaving `batch` out."""
    matched: Counter[str] = Counter()
    own: Counter[str] = Counter()
    others: dict[str, set[str]] = {}
    for expected, case_batch, raw in corpus:
        for family in raw if case_batch != batch else ():
            matched[family] += 1
            if expected == family:
                own[family] += 1
            else:
                others.setdefault(family, set()).add(expected)
    return {f: (matched[f], own[f], len(others[f])) for f in others}


def answers(kept: list[dict]) -> list[dict]:
    """Each unseen log's answer at first contact: the rows of `kept` (an earlier run's) for the logs they hold, with
    their case and rightness read again from today's manifest (adjudications since), and a run of the first-measuring
    commit's servebox for the logs they lack."""
    cases = {c["file"]: c for c in tomllib.loads((CORPUS / "manifest.toml").read_text())["case"]}
    rows = [
        dict(r, case=cases[f], right=r["top"] in right_ids(cases[f]))
        for r in kept
        if (f := r["case"]["file"]) in cases
    ]
    have = {r["case"]["file"] for r in rows}
    for rev, mine in batches_by_commit():
        mine = [c for c in mine if c["file"] not in have]
        if not mine:
            continue
        got = run_at(rev, CHILD, [c["file"] for c in mine], corpus_too=True)
        for c in mine:
            top, conf = got["first"][c["file"]]
            shared = shared_then(got["corpus"], c["batch"])
            ranked = got["uncapped"][c["file"]]
            rows.append(
                {
                    "case": c,
                    "rev": rev,
                    "top": top,
                    "conf": conf,
                    "right": top in right_ids(c),
                    "ranked": ranked,
                    "seen": {f: shared[f] for f, role, _ in ranked if role == "cause" and f in shared},
                }
            )
        print(f"  {rev}: {len(mine)} logs scored with that commit's servebox", file=sys.stderr)
    return rows


def limit(matched: int, own: int, causes: int) -> float:
    """The rule in use (servebox/doctor/shared_wording.py cap): 1 - S/(N + PRIOR), never below FLOOR."""
    return max(FLOOR, 1 - causes / (matched + PRIOR))


def under(row: dict, rule) -> tuple[str, float, bool]:
    """The top answer, its figure and whether it is right when `rule(matched, own, other causes)` caps each cause of
    the commit's uncapped answers (its calibrate switched off), re-ranked as ranking.rank does after calibrate
    (causes before symptoms, higher figure first, ties in the order given). rule None: no cap."""
    capped = []
    for family, role, conf in row["ranked"]:
        seen = row["seen"].get(family) if role == "cause" and rule is not None else None
        capped.append((family, role, conf if seen is None else min(conf, round(rule(*seen), 2))))
    if not capped:
        return row["top"], row["conf"], row["right"]
    family, _, conf = min(capped, key=lambda d: (d[1] != "cause", -d[2]))
    return family, conf, family in right_ids(row["case"])


def ceiling(rows: list[dict]) -> None:
    """A log whose cause no family named when it was first met (its first-written expected is `new:`) cannot be
    right by id at first contact: print how many there were, and top-1 on the logs whose family then existed."""
    for origin in ("all", "public", "made here"):
        part = [r for r in rows if origin == "all" or is_public(r["case"]) == (origin == "public")]
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


def tally(rows: list[dict], rule, as_given: bool = False) -> dict:
    """top-1, confident wrong / right, right answers the rule took below 0.70 (right and confident uncapped), Brier,
    and per band of the figure (answers right / answers), over the answers other than none."""
    got = [(r["top"], r["conf"], r["right"]) if as_given else under(r, rule) for r in rows]
    bare = [under(r, None) for r in rows]
    offered = [(g, b) for g, b in zip(got, bare, strict=True) if g[0] != "none"]
    bands = {}
    for lo, hi in BANDS:
        band = [g for g, _ in offered if lo <= g[1] < hi]
        bands[lo] = (sum(g[2] for g in band), len(band))
    return {
        "top1": sum(g[2] for g in got),
        "wrong": sum(g[1] >= CONFIDENT and not g[2] for g, _ in offered),
        "sure": sum(g[1] >= CONFIDENT and g[2] for g, _ in offered),
        "fell": sum(b[1] >= CONFIDENT and b[2] and g[1] < CONFIDENT for g, b in offered),
        "brier": sum((g[1] - g[2]) ** 2 for g, _ in offered) / max(1, len(offered)),
        "bands": bands,
    }


def line(t: dict) -> str:
    return (
        f"confident wrong {t['wrong']}, confident right {t['sure']}, right answers below 0.70 by the rule {t['fell']}, "
        f"Brier {t['brier']:.4f}, top-1 {t['top1']}"
    )


def compare(rows: list[dict]) -> None:
    """Each candidate rule on the batches first measured before stop 32 (where a rule is chosen) and on the later ones
    (held out, where the chosen rule is reported)."""
    revs = list(dict.fromkeys(r["rev"] for r in rows))
    cut = revs.index(HELD_OUT_FROM)
    parts = {
        "chosen on": [r for r in rows if revs.index(r["rev"]) < cut],
        "held out": [r for r in rows if revs.index(r["rev"]) >= cut],
    }
    for name, part in parts.items():
        batches = list(dict.fromkeys(r["case"]["batch"] for r in part))
        print(f"  {name}: {len(part)} logs of {len(batches)} batches ({batches[0]} .. {batches[-1]})")
        for label, rule in candidates().items():
            t = tally(part, rule)
            bands = " ".join(f"{lo:.2f}:{ok}/{n}" for lo, (ok, n) in t["bands"].items() if n)
            print(f"    {label:34} {line(t)}")
            print(f"    {'':34} bands (right/answers) {bands}")


def candidates() -> dict:
    """The rules compared: none, the rule by distinct causes (stops 26-33), shares of logs with a Beta prior, the
    lower end of a Wilson interval on own/N, and the rule in use."""
    rules = {"no cap": None, "causes 1-S/(N+2) (stops 26-33)": lambda n, own, s: max(FLOOR, 1 - s / (n + 2))}
    for a, b in ((1, 1), (2, 1), (1, 0.5), (3, 1), (2, 0.5), (0.5, 0.5)):
        rules[f"logs (own+{a})/(N+{a}+{b})"] = lambda n, own, s, a=a, b=b: max(FLOOR, (own + a) / (n + a + b))
    for z in (0.5, 1.0):
        rules[f"Wilson low z={z}"] = lambda n, own, s, z=z: max(FLOOR, wilson_low(own, n, z))
    rules["min(causes, logs (own+1)/(N+2))"] = lambda n, own, s: max(
        FLOOR, min(1 - s / (n + 2), (own + 1) / (n + 2))
    )
    rules["in use (shared_wording.cap)"] = limit
    return rules


def wilson_low(k: int, n: int, z: float) -> float:
    if n == 0:
        return 0.0
    p = k / n
    centre = p + z * z / (2 * n)
    spread = z * ((p * (1 - p) + z * z / (4 * n)) / n) ** 0.5
    return (centre - spread) / (1 + z * z / n)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--verbose", action="store_true", help="one line per log, not only the confident wrong ones"
    )
    parser.add_argument(
        "--compare",
        action="store_true",
        help="each candidate cap on the earlier batches and on the held-out later ones",
    )
    parser.add_argument(
        "--rows",
        help="a JSON file: reuse the answers it holds, score the batches it lacks, write them all back",
    )
    args = parser.parse_args()
    kept = json.loads(Path(args.rows).read_text()) if args.rows and Path(args.rows).exists() else []
    rows = answers(kept)
    if args.rows:
        Path(args.rows).write_text(json.dumps(rows))
    n, right = len(rows), sum(r["right"] for r in rows)
    print(f"doctor at first contact, {n} logs of {len({r['case']['batch'] for r in rows})} unseen batches:")
    print(f"  top-1 {right} ({right / n:.1%}) (measured, each batch with the servebox that first scored it)")
    for origin in ("public", "made here"):
        part = [r for r in rows if is_public(r["case"]) == (origin == "public")]
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
    for lo, (ok, count) in tally(rows, None, as_given=True)["bands"].items():
        if count:
            print(f"    {lo:.2f}: {count:3} answers, right {ok:3} ({ok / count:.0%})")
    print(f"  as given:                 {line(tally(rows, None, as_given=True))}")
    print(f"  uncapped:                 {line(tally(rows, None))}  (each commit's own cap switched off)")
    print(
        f"  with the shared-word cap: {line(tally(rows, limit))}  (backtest: today's rule on each commit's own corpus)"
    )
    if args.compare:
        compare(rows)
    for r in rows:
        top, capped, ok = under(r, limit)
        if verbose_or_wrong(args.verbose, r, capped, ok):
            mark = (
                "ok "
                if ok
                else "WRONG"
                if capped >= CONFIDENT
                else "capped"
                if r["conf"] >= CONFIDENT
                else "miss"
            )
            print(
                f"  {mark:6} {r['case']['batch']:9} {r['case']['file']}: got {r['top']} {r['conf']:.2f} -> "
                f"{top} {capped:.2f}"
            )


def verbose_or_wrong(verbose: bool, row: dict, capped: float, ok: bool) -> bool:
    """One line per log when verbose, else the answers confident and wrong as given or under the rule."""
    return verbose or (row["conf"] >= CONFIDENT and not row["right"]) or (capped >= CONFIDENT and not ok)


if __name__ == "__main__":
    main()
