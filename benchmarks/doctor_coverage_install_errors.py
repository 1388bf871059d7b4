"""How much of what installing an engine prints (pip, uv, CMake, nvcc, gcc) `servebox doctor` can name.

Why: users meet these before the engine ever starts (pip install vllm, pip install llama-cpp-python,
cmake -B build -DGGML_CUDA=ON). benchmarks/data/install_errors.json holds the texts as the real tools print
them (made by tools/harvest_install_errors.py from pip 23.2.1, uv 0.13.9, CMake 3.25, CUDA 13.0 and 12.4
(nvcc, ptxas, host_config.h) and llama.cpp's CMake files). Each entry's log is fed alone to triage_stream
and classified by coverage_common.classify: named by a specific family, generic only (a catch-all, a symptom, the bare exception) or nothing.
Measured: main bb4aa59's KB names 4 of the 46 entries by a specific family (42 by nothing); with
install.toml's install_errors section and knowledge/build-toolchain.toml, 35 named, 8 generic/symptom, 3 nothing
(the three skipped pip entries).
Run: python benchmarks/doctor_coverage_install_errors.py [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the shared helper beside it
from coverage_common import classify, generic_ids, print_table  # noqa: E402

DATA = Path(__file__).resolve().parent / "data" / "install_errors.json"
TOOLS = ("pip", "uv", "cmake", "nvcc", "setuptools", "llama.cpp")
# Entries left without a family of their own, and why (the report lists them apart from the uncovered)
SKIPPED = {
    "dependency-conflicts-installed": "pip prints it at ERROR but the install succeeds; the engine's own import error names what broke",
    "invalid-requirement": "a typo in the pip command line, shown to the user at the moment they type it",
    "requirements-file": "a path typo at the prompt; the errno families read the line",
}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true", help="one JSON line per entry instead of the report")
    a = ap.parse_args(argv)
    doc = json.loads(DATA.read_text())
    generic = generic_ids(set())
    per_tool: dict[str, Counter] = defaultdict(Counter)
    uncovered = []
    for e in doc["entries"]:
        verdict, fam = classify(e["log"], generic)
        per_tool[e["tool"]][verdict] += 1
        if a.json:
            print(json.dumps({"tool": e["tool"], "code": e["code"], "verdict": verdict, "family": fam}))
        elif verdict != "named":
            uncovered.append((e, verdict, fam))
    if a.json:
        return 0
    print(f"sources: {'; '.join(doc['sources'])}; {len(doc['entries'])} entries")
    print_table(TOOLS, per_tool, label="tool")
    print(f"\nnot named by a specific family ({len(uncovered)}):")
    for e, verdict, fam in uncovered:
        why = SKIPPED.get(e["code"], "")
        print(f"  {e['tool']:10} {e['code']:32} {verdict:7} {fam[:34]:34} {'skipped: ' + why if why else ''}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
