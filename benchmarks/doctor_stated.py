"""Does doctor's answer give the log's own statement of the cause? Strict and quoting figures, side by side.

Issue 12 scores a log right when doctor's top answer is the expected family id. Stop 30 measured that most logs
doctor misses state their cause in words (benchmarks/doctor_ceiling.py), and from stop 31 doctor answers a log no
entry knows with its best cause-stating line (servebox/doctor/statement.py, "stated-cause") or, as before, with
the exception it raised ("uncaught-exception") or a refusal no family names ("request-refused"). Cases carry `stated` (manifest.toml's header): verbatim strings of
the log that state the cause. An answer QUOTES THE CAUSE when it is one of those generic answers and its
quoted lines hold a `stated` string. Both figures are printed, never merged silently: strict (the id) and
strict-or-quoting.
  --reader           the reader alone (no knowledge base) on every case with `stated`: is its best line the
                     stated one? split as the reader was built: its dev half (sha256(file) % 2 == 0) and the half
                     held back from its writing
  --first-contact    every unseen batch with the servebox that first scored it (as doctor_first_contact.py)
  --at REV --batch B first contact and REV on unseen batches REV never learnt from (as doctor_transfer.py)
  --robustness       the reader's quoting answers again under every transform of benchmarks/doctor_robustness.py
  --counterfactual   first contact as it was, with this servebox's reader where the answer was nothing at all: what
                     the reader would have added (a replay, not a first contact: the reader's dev half saw those logs)
Run: python benchmarks/doctor_stated.py --reader | --first-contact | --at REV --batch fresh-113 ...
"""

from __future__ import annotations

import argparse
import hashlib
import re
import sys
from difflib import SequenceMatcher
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from doctor_accuracy import is_public, load_cases  # noqa: E402
from doctor_first_contact import CONFIDENT, CORPUS, batches_by_commit, right_ids, run_at  # noqa: E402

# the answers whose text is the log's own message: the reader's, a raised exception's, and a refusal no family names
# (requests.toml's request-refused: "The server refused a request with HTTP {code}: {message}")
GENERIC = {"stated-cause", "uncaught-exception", "request-refused"}
CHILD = r"""
import json, sys
from servebox.doctor.triage import Triage
now, wanted = sys.argv[2], json.loads(sys.stdin.read())
def run(path, name):
    t = Triage(name)
    t.feed(open(path, "rb").read())
    r = t.result()
    top = [d for d in r.diagnoses if d.role in ("cause", "symptom")]
    if not top:
        return ["none", r.diagnoses[0].confidence if r.diagnoses else 0.0, [], len(r.diagnoses)]
    d = top[0]
    # the reader's answer quotes its best line in its cause (its other lines are only shown); others quote evidence
    quoted = [d.cause] if d.id == "stated-cause" else [e.text for e in d.evidence] + [d.cause]
    return [d.id, d.confidence, quoted, len(r.diagnoses)]
print(json.dumps({"first": {name: run(f"{now}/{name}", name) for name in wanted}}))
"""


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


def holds(quote: str, stated: str) -> bool:
    """A quoted line holds a stated string: one contains the other, or they share most of it (a quote cut at 400
    characters, a stated string with the line's prefix)."""
    q, s = _norm(quote), _norm(stated)
    if not q or not s:
        return False
    if s in q or (len(q) >= 20 and q in s):
        return True
    m = SequenceMatcher(None, q, s, autojunk=False).find_longest_match(0, len(q), 0, len(s))
    return m.size >= min(40, int(0.8 * len(s)))


def quotes_cause(case: dict, answer: list) -> bool:
    top, quoted = answer[0], answer[2]
    return top in GENERIC and any(holds(q, s) for q in quoted for s in case.get("stated", ()))


def verdict(case: dict, answer: list) -> tuple[bool, bool, bool]:
    """(right by id, right or quoting the cause, confident wrong)."""
    right = answer[0] in right_ids(case)
    wrong = not right and answer[0] != "none" and answer[1] >= CONFIDENT
    return right, right or quotes_cause(case, answer), wrong


def line(label: str, cases: list[dict], answers: dict[str, list]) -> str:
    v = [verdict(c, answers[c["file"]]) for c in cases]
    n = len(v) or 1
    strict, either, wrong = (sum(x[i] for x in v) for i in range(3))
    withs = sum("stated" in c for c in cases)
    return (
        f"{label:34} {len(cases):4} logs ({withs:3} with stated): strict {strict:4} ({strict / n:5.1%}), "
        f"strict or quoting {either:4} ({either / n:5.1%}), confident wrong {wrong}"
    )


def by_commit(batches: set[str] | None) -> list[tuple[str, list[dict]]]:
    out = []
    for rev, cases in batches_by_commit():
        cases = [c for c in cases if batches is None or c["batch"] in batches]
        if cases:
            out.append((rev, cases))
    return out


def scored(rev: str, cases: list[dict]) -> dict[str, list]:
    return run_at(rev, CHILD, [c["file"] for c in cases])["first"]


def first_contact(batches: set[str] | None, later: str | None) -> None:
    rows, then, now = [], {}, {}
    for rev, cases in by_commit(batches):
        rows += cases
        then.update(scored(rev, cases))
        if later:
            now.update(scored(later, cases))
        print(f"  {rev}: {len(cases)} logs", file=sys.stderr)
    public = [c for c in rows if is_public(c)]
    made = [c for c in rows if not is_public(c)]
    for label, answers in (
        (("first contact", then), (f"at {later}", now)) if later else (("first contact", then),)
    ):
        print(line(f"{label}, all", rows, answers))
        print(line(f"{label}, public", public, answers))
        print(line(f"{label}, made here", made, answers))
        for batch in dict.fromkeys(c["batch"] for c in rows) if batches else ():
            print(line(f"  {batch}", [c for c in rows if c["batch"] == batch], answers))
    for c in rows if later else ():
        a, b = then[c["file"]], now[c["file"]]
        if verdict(c, a)[:2] != verdict(c, b)[:2] or a[0] != b[0]:
            print(f"  {c['batch']} {c['file']}: {a[0]} {a[1]:.2f} -> {b[0]} {b[1]:.2f} {verdict(c, b)[:2]}")


def half(case: dict) -> str:
    """The reader's dev half (sha256(file) % 2 == 0) or the half held back from its writing."""
    return "dev" if int(hashlib.sha256(case["file"].encode()).hexdigest(), 16) % 2 == 0 else "held back"


def reader_answer(case: dict, data: bytes | None = None) -> list:
    """This servebox's reader alone on a log (or on `data` in its place), as the answer it would give (its best line,
    if the log failed)."""
    from servebox.doctor.statement import stated_answer
    from servebox.doctor.triage import Triage

    t = Triage(case["file"])
    t.feed(data if data is not None else (CORPUS / case["file"]).read_bytes())
    t.close()
    d = stated_answer(t.statements, [], t.lines)
    return ["stated-cause", d.confidence, [d.cause], 1] if d else ["none", 0.0, [], 0]


def counterfactual() -> None:
    """First contact as it was, with this reader's answer where that answer was nothing at all (no diagnosis):
    the reader's effect had it been there, per half and origin."""
    counts: dict[tuple[str, bool], list[int]] = {}
    for rev, cases in by_commit(None):
        then = scored(rev, cases)
        for c in cases:
            a = then[c["file"]]
            now = reader_answer(c) if a[0] == "none" and a[3] == 0 else a
            (strict, either, _), with_reader = verdict(c, a), verdict(c, now)[1]
            g = counts.setdefault((half(c), is_public(c)), [0, 0, 0, 0])
            for i, n in enumerate((1, strict, either, with_reader)):
                g[i] += n
        print(f"  {rev}: {len(cases)} logs", file=sys.stderr)
    for (part, public), (n, strict, either, with_reader) in sorted(counts.items()):
        print(
            f"{part:9} {'public' if public else 'made here':9} {n:4} logs: strict {strict / n:5.1%}, strict or quoting "
            f"{either / n:5.1%}, with the reader where there was no answer {with_reader / n:5.1%}"
        )


def robustness() -> None:
    """The reader's answers that quote the labelled line, taken again after each collector's or paste's transform of
    benchmarks/doctor_robustness.py: the share still quoting it (measured)."""
    from doctor_robustness import TRANSFORMS

    right = []
    for case in load_cases():
        if "stated" in case and quotes_cause(case, reader_answer(case)):
            right.append((case, (CORPUS / case["file"]).read_bytes().decode("utf-8", "replace").split("\n")))
    print(f"reader's answers quoting the labelled line: {len(right)} (measured)")
    for name, change in TRANSFORMS.items():
        kept = sum(
            quotes_cause(case, reader_answer(case, "\n".join(change(lines)).encode()))
            for case, lines in right
        )
        print(f"  {name:22} still quoting {kept}/{len(right)} ({kept / len(right):5.1%})")


def reader_alone(batches: set[str] | None = None) -> None:
    """The reader's best line against the labels, by half; with `batches`, only their logs (labelled after the
    reader was written, so unseen by it whatever their half)."""
    groups: dict[str, list[bool]] = {"dev": [], "held back": []}
    for case in load_cases():
        if "stated" in case and (batches is None or case.get("batch") in batches):
            groups[half(case)].append(quotes_cause(case, reader_answer(case)))
    for part, oks in groups.items():
        if not oks:
            continue
        print(
            f"reader alone, {part:9}: {len(oks)} logs with stated, best line states it {sum(oks)} ({sum(oks) / len(oks):.1%})"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reader", action="store_true")
    parser.add_argument("--first-contact", action="store_true")
    parser.add_argument("--counterfactual", action="store_true")
    parser.add_argument("--robustness", action="store_true")
    parser.add_argument("--at", help="a later commit to compare with each batch's first contact")
    parser.add_argument(
        "--batch", action="append", help="the batches to score (with --first-contact, --at or --reader)"
    )
    args = parser.parse_args()
    if not (args.reader or args.counterfactual or args.robustness or args.first_contact or args.at):
        parser.error("say what to measure: --reader, --first-contact [--batch B], --at REV --batch B, ...")
    if args.reader:
        reader_alone(set(args.batch) if args.batch and not (args.first_contact or args.at) else None)
    if args.counterfactual:
        counterfactual()
    if args.robustness:
        robustness()
    if args.first_contact or args.at:
        if args.at and not args.batch:
            parser.error("--at needs the unseen batches it never learnt from (--batch)")
        first_contact(set(args.batch) if args.batch else None, args.at)


if __name__ == "__main__":
    main()
