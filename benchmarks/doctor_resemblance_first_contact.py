"""Resemblance at first contact: would it have named each unseen batch's cause with only the KB of that time?

benchmarks/doctor_resemblance.py measures resemblance by leaving a case's own wordings out of today's knowledge
base; that still knows every sibling family grown since, and it flattered (72 recovered, 10 wrong of 223).
Here each batch is read as it was first met: the servebox of the commit that first scored it
(tests/fixtures/doctor-corpus/first_measured.toml) triages the batch's logs and gives its knowledge base's
families; today's BM25 code (servebox/doctor/resemblance.py) is then asked, under each pair of margins, for
the cases where that servebox named no cause entry. Printed per margin: recovered (the family expected when
the batch was made), silent, wrong, and the net change in top-1 against that servebox's own first answers.
Run: python benchmarks/doctor_resemblance_first_contact.py   (needs the git history; about 15 s)
"""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace as Family

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "fixtures" / "doctor-corpus"
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))  # the replay helpers beside it
from doctor_first_contact import batches_by_commit, right_ids, run_at  # noqa: E402

from servebox.doctor import resemblance  # noqa: E402

READINGS = {
    "uncaught-exception",
    "third-party-package-raised",
    "engine-feature-defect",
    "engine-feature-refused",
}
GRID = ((0.0, 1.0), (12.0, 1.3), (12.0, 1.5), (12.0, 1.75), (12.0, 2.0), (20.0, 1.75))
CHILD = r"""
import json, sys
from servebox.doctor.triage import Triage
now, wanted = sys.argv[2], json.loads(sys.stdin.read())
kb = [dict(id=s.id, role=s.role, patterns=[p.pattern for p in s.patterns],
           hints=[p.pattern for p in getattr(s, "hints", ())], keywords=list(s.keywords), excerpt=s.excerpt,
           cause=s.cause, requires=list(getattr(s, "requires", ()) or ()),
           hint_requires=list(getattr(s, "hint_requires", ()) or ())) for s in Triage("kb").signatures]
cases = {}
for name in wanted:
    t = Triage(name)
    t.feed(open(f"{now}/{name}", "rb").read())
    r = t.result()
    exc = getattr(r, "exception", None)
    query = f"{exc.type}: {exc.message}"[:2000] if exc else " ".join(s for _, s in t.error_tail())
    top = [d.id for d in r.diagnoses if d.role in ("cause", "symptom")] or ["none"]
    causes = [d.id for d in r.diagnoses if d.role == "cause"]
    cases[name] = dict(query=query, top=top[0], causes=causes, seen=sorted(t.seen_requirements))
print(json.dumps({"kb": kb, "cases": cases}))
"""


def families(kb: list[dict]) -> tuple:
    """The old knowledge base's entries, shaped as resemblance.Index reads a Signature."""
    return tuple(
        Family(
            id=e["id"],
            role=e["role"],
            patterns=[Family(pattern=p) for p in e["patterns"]],
            hints=[Family(pattern=p) for p in e["hints"]],
            keywords=e["keywords"],
            excerpt=e["excerpt"],
            cause=e["cause"],
            requires=tuple(e["requires"]),
            hint_requires=tuple(e.get("hint_requires", ())),
        )
        for e in kb
    )


def asked_cases() -> list[dict]:
    asked = []
    for rev, mine in batches_by_commit():
        got = run_at(rev, CHILD, [c["file"] for c in mine])
        kb = families(got["kb"])
        for c in mine:
            seen = got["cases"][c["file"]]
            if seen["query"] and not set(seen["causes"]) - READINGS:
                asked.append({**seen, "kb": kb, "right": right_ids(c)})
    return asked


def main() -> None:
    asked = asked_cases()
    print(f"resemblance at first contact: {len(asked)} unseen-batch logs where no cause entry matched then")
    for min_score, min_ratio in GRID:
        m = resemblance.Margins(min_score, min_ratio, 0.5, resemblance.margins().never)
        tally = {"recovered": 0, "silent": 0, "wrong": 0, "gain": 0, "loss": 0}
        for a in asked:
            sig = resemblance.resembles(a["query"], a["kb"], set(a["seen"]), m)
            if sig is None:
                tally["silent"] += 1
                continue
            tally["recovered" if sig.id in a["right"] else "wrong"] += 1
            tally["gain"] += sig.id in a["right"] and a["top"] not in a["right"]
            tally["loss"] += a["top"] in a["right"] and sig.id not in a["right"]
        print(
            f"  min_score {min_score:4.1f} min_ratio {min_ratio:4.2f}: recovered {tally['recovered']:3}, "
            f"silent {tally['silent']:3}, wrong {tally['wrong']:3}; top-1 +{tally['gain']} -{tally['loss']}"
        )


if __name__ == "__main__":
    main()
