"""How much of the OS-error vocabulary (errno, getaddrinfo, NVIDIA Xid) `servebox doctor` can name.

Why: a third of doctor's unseen misses were codes of a standard vocabulary no family knew. The catalogue
benchmarks/data/os_errors.json (made by tools/harvest_os_errors.py from glibc, Python, Go's tables and
NVIDIA's Xid catalogue) lists every code with the ways programs print it; each code is rendered once per
printer (Python's OSError line, C's perror, Go's PathError/OpError/DNSError, the driver's Xid line), fed
alone to triage_stream and classified by the top diagnosis: named by a specific family, generic only (a
catch-all, a symptom or the bare exception), or nothing.
Run: python benchmarks/doctor_coverage_os_errors.py [--uncovered N] [--part errno|gai|xid] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from coverage_common import classify, generic_ids, print_table  # noqa: E402

DATA = Path(__file__).resolve().parent / "data" / "os_errors.json"
PARTS = ("errno", "gai", "xid")
# stand-ins for the formats' other fields: a model file, a peer, a GPU
VALUES = {
    "path": "/srv/models/Qwen3-8B/model-00002-of-00004.safetensors", "prog": "/srv/models/qwen3-8b-q4_k_m.gguf",
    "addr": "127.0.0.1:8001", "host": "huggingface.co", "server": "127.0.0.53:53", "pci": "0000:18:00",
    "pid": "48213", "name": "python3",
}  # fmt: skip
JOURNAL = "Dec 03 13:00:00 gpubox kernel: "
# catch-alls that say "a Python exception" / "a native abort", not why (besides the KB's generic = true)
UMBRELLA = {"uncaught-exception", "native-abort"}


def render(entry: dict, printer: str, formats: dict) -> str:
    """The entry as `printer` prints it in a log (the catalogue's format, stand-in values)."""
    fmt = formats[printer]["format"]
    if printer == "python" and entry["name"] in SOCKETISH:
        fmt = "{cls}: [Errno {code}] {text}"  # a socket error carries no file name
    if printer == "c" and entry["name"] in SOCKETISH:
        fmt = "connect: {text}"
    line = fmt.format(
        cls=entry.get("python_class", "OSError"), code=entry["code"], text=entry["text"],
        go_text=entry.get("go_text", entry["text"]), **VALUES,
    )  # fmt: skip
    if printer in ("xid", "kernel"):
        return "\n".join(JOURNAL + part for part in line.split("\n"))
    return line


SOCKETISH = {
    "ECONNREFUSED", "ECONNRESET", "ECONNABORTED", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "ENETDOWN",
    "EHOSTDOWN", "EPIPE", "ENOTCONN", "ESHUTDOWN", "ENETRESET",
}  # fmt: skip


def rows(doc: dict, parts: tuple[str, ...]):
    """(entry, printer, line) for every entry of the parts, once per printer."""
    for e in doc["entries"]:
        if e["part"] in parts:
            for printer in e["printers"]:
                yield e, printer, render(e, printer, doc["formats"])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--uncovered", type=int, default=400, help="list this many uncovered lines")
    ap.add_argument("--part", choices=PARTS, action="append", help="only these parts (default: all)")
    ap.add_argument(
        "--json", action="store_true", help="one JSON line per rendered line instead of the report"
    )
    a = ap.parse_args(argv)
    doc = json.loads(DATA.read_text())
    generic = generic_ids(UMBRELLA)
    per_group: dict[str, Counter] = defaultdict(Counter)
    per_code: dict[tuple[str, str], Counter] = defaultdict(Counter)
    results = []
    for e, printer, line in rows(doc, tuple(a.part or PARTS)):
        verdict, fam = classify(line, generic)
        per_group[f"{e['part']}/{printer}"][verdict] += 1
        per_code[(e["part"], e["name"])][verdict] += 1
        results.append((e, printer, line, verdict, fam))
        if a.json:
            print(
                json.dumps(
                    {"name": e["name"], "printer": printer, "verdict": verdict, "family": fam, "line": line}
                )
            )
    if a.json:
        return 0
    print(f"sources: {doc['sources']}")
    print(f"{len(per_code)} codes, {len(results)} rendered lines")
    print_table(sorted(per_group), per_group, label="part/printer")
    codes = Counter(
        "named"
        if c["named"] == sum(c.values())
        else "some"
        if c["named"]
        else "generic"
        if c["generic"]
        else "none"
        for c in per_code.values()
    )
    print(f"codes named in every printer: {codes['named']}, in some: {codes['some']}, "
          f"generic only: {codes['generic']}, none: {codes['none']} (of {len(per_code)})")  # fmt: skip
    uncovered = [r for r in results if r[3] != "named"]
    print(f"\nuncovered (generic or none) ({min(a.uncovered, len(uncovered))} of {len(uncovered)}):")
    for e, printer, line, verdict, fam in uncovered[: a.uncovered]:
        print(f"  {e['part']:5} {e['name']:24} {printer:10} {verdict:7} {fam[:30]:30} {line[:120]!r}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
