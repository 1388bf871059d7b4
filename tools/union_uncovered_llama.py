"""The union of old llama.cpp builds' error templates that doctor does not name, one line per wording.

Why: public threads come from many llama.cpp builds over two years; the committed catalogue is b11434's.
Harvesting older trees (tools/harvest_llama_messages.py on llama-cpp-python's vendor/llama.cpp) and
merging what stays uncovered, by normalised wording, shows which of those wordings several builds print
(and so users are likelier to paste), and where each lives, to work down likeliest first.
Run: python tools/union_uncovered_llama.py OUT.txt VERSION=HARVEST.json [VERSION=HARVEST.json ...]
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import json  # noqa: E402

from coverage_common import classify, generic_ids  # noqa: E402
from doctor_coverage_llama import FAILS, UMBRELLA, likelihood, render  # noqa: E402

SPEC = re.compile(r"%[-+ #0]*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|z|j|t|L)?[diouxXeEfgGcspn]|PRI\w+")


def normalise(template: str) -> str:
    """A wording's key across builds: verbs as %, no leading `func: `, quotes and spaces folded, lower case."""
    text = SPEC.sub("%", template).strip()
    text = re.sub(r"^%:\s*", "", text)
    text = re.sub(r"[`'\"]", "'", text)
    return re.sub(r"\s+", " ", text).lower()


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    out, pairs = Path(argv[0]), [a.split("=", 1) for a in argv[1:]]
    generic = generic_ids(UMBRELLA)
    union: dict[str, dict] = {}
    totals = []
    for version, path in pairs:
        msgs = [m for m in json.loads(Path(path).read_text())["messages"] if m["kind"] in FAILS]
        missed = 0
        for m in msgs:
            line = render(m)
            verdict, fam = classify(line, generic)
            if verdict == "named":
                continue
            missed += 1
            row = union.setdefault(
                normalise(m["template"]),
                {"msg": m, "line": line, "verdict": verdict, "fam": fam, "versions": [], "srcs": []},
            )
            if version not in row["versions"]:
                row["versions"].append(version)
            row["srcs"].append(f"{version}:{m['src']}")
        totals.append(f"{version} {missed}/{len(msgs)} uncovered")
    rows = sorted(
        union.values(), key=lambda r: (-likelihood(r["msg"]), -len(r["versions"]), r["msg"]["area"])
    )
    lines = [
        "# uncovered llama.cpp error templates (error/throw/abort) across builds, by normalised wording;",
        f"# made by tools/union_uncovered_llama.py; {'; '.join(totals)}; {len(rows)} distinct wordings",
        "# [likelihood] area | verdict top-family | versions | first source | rendered line",
    ]
    for r in rows:
        m = r["msg"]
        lines.append(
            f"[{likelihood(m)}] {m['area']} | {r['verdict']} {r['fam'] or '-'} | {','.join(r['versions'])}"
            f" | {r['srcs'][0]} | {r['line'][:220]!r}"
        )
    out.write_text("\n".join(lines) + "\n")
    print(f"{len(rows)} wordings -> {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
