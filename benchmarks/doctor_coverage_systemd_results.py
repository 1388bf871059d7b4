"""How much of systemd's failure vocabulary `servebox doctor` can name (exit statuses, results, timeouts).

Why: an engine run as a service often fails in systemd's words, not the engine's: an exit status
(203/EXEC, 217/USER), a result ('timeout', 'start-limit-hit'), a timeout or watchdog line.
benchmarks/data/systemd_results.json holds that vocabulary as systemd 252 prints it (made by
tools/harvest_systemd_results.py from systemd-analyze, systemd.exec(5), signal(7) and the format strings
in libsystemd-core). Each entry is rendered as the journal shows it (`systemd[1]: vllm.service: ` and the
format filled; an exit status or a signal with the 'Failed with result' line that follows it), fed
alone to triage_stream and classified by coverage_common.classify: named by a specific family,
generic only (a catch-all, a symptom, the bare exception) or nothing.
Run: python benchmarks/doctor_coverage_systemd_results.py [--uncovered N] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the shared helper beside it
from coverage_common import classify, generic_ids  # noqa: E402

HERE = Path(__file__).resolve().parent
DATA = HERE / "data" / "systemd_results.json"
PREFIX = "Dec 03 10:00:00 gpu-box systemd[1]: vllm.service: "
KINDS = ("exit-status", "signal", "result", "message")
# not failures: a clean exit, a line that only counts restarts, and ExecCondition='s skip (systemd prints
# "Skipped due to 'exec-condition'.", never "Failed with result 'exec-condition'.")
NOT_FAILURES = {"SUCCESS", "Scheduled restart job, restart counter is at %u.", "exec-condition"}
# our judgement of what a user of vLLM / llama.cpp under systemd meets (higher first)
LIKELY = {
    "EXEC": 3, "CHDIR": 3, "USER": 3, "GROUP": 3, "NAMESPACE": 3, "STDOUT": 2, "STDERR": 2, "LIMITS": 2,
    "STATE_DIRECTORY": 2, "CACHE_DIRECTORY": 2, "CREDENTIALS": 2, "FAILURE": 3, "INVALIDARGUMENT": 2,
    "timeout": 3, "start-limit-hit": 3, "oom-kill": 3, "watchdog": 2, "signal": 2, "core-dump": 2,
    "exit-code": 2, "resources": 2, "protocol": 1, "KILL": 3, "SEGV": 3, "ABRT": 3, "BUS": 2, "ILL": 2,
    "TERM": 2, "INT": 1, "FPE": 1,
}  # fmt: skip


def render(entry: dict) -> str:
    """The journal lines systemd 252 prints for this entry (PREFIX on each)."""
    kind, name = entry["kind"], entry["name"]
    if kind == "exit-status":
        lines = [entry["log"], "Failed with result 'exit-code'."]
    elif kind == "signal":
        result = "core-dump" if "code=dumped" in entry["log"] else "signal"
        lines = [entry["log"], f"Failed with result '{result}'."]
    elif kind == "result":
        lines = [entry["log"]]
    else:
        fills = {
            "%s operation timed out": ("Start",), "Watchdog timeout": ("3min",),
            "Failed at step": ("EXEC", "/opt/vllm/bin/vllm"), "exited, code=": ("Main process", "exited"),
            "Failed with result": ("exit-code",), "restart counter": (),
        }  # fmt: skip
        values = next((v for k, v in fills.items() if k in name), ())
        text = name.replace("%m", "No such file or directory").replace("%i/%s%s", "1/FAILURE")
        text = text.replace("%u", "5")
        for v in values:
            text = text.replace("%s", v, 1)
        lines = [text]
    return "\n".join(PREFIX + line for line in lines)


def likelihood(entry: dict) -> int:
    if entry["kind"] == "message":
        return 3 if "Start" in render(entry) or "Watchdog" in entry["name"] else 1
    return LIKELY.get(entry["name"], 0)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--uncovered", type=int, default=60, help="list this many uncovered entries, likeliest first"
    )
    ap.add_argument("--json", action="store_true", help="one JSON line per entry instead of the report")
    a = ap.parse_args(argv)
    doc = json.loads(DATA.read_text())
    generic = generic_ids(set())
    entries = [e for e in doc["entries"] if e["name"] not in NOT_FAILURES]
    per_kind: dict[str, Counter] = defaultdict(Counter)
    results = []
    for e in entries:
        text = render(e)
        verdict, fam = classify(text, generic)
        per_kind[e["kind"]][verdict] += 1
        results.append((e, text, verdict, fam))
        if a.json:
            print(json.dumps({"kind": e["kind"], "name": e["name"], "verdict": verdict, "family": fam}))
    if a.json:
        return 0
    print(f"sources: {doc['sources']['systemd']}; {len(entries)} failure entries of {len(doc['entries'])}")
    total = sum(per_kind.values(), Counter())
    print(f"{'kind':12} {'n':>5} {'named':>7} {'generic':>8} {'none':>6}  named%  any%")
    for kind in (*KINDS, "overall"):
        c = total if kind == "overall" else per_kind[kind]
        n = sum(c.values()) or 1
        print(
            f"{kind:12} {sum(c.values()):5} {c['named']:7} {c['generic']:8} {c['none']:6}"
            f"  {100 * c['named'] / n:5.1f}  {100 * (c['named'] + c['generic']) / n:5.1f}"
        )
    uncovered = sorted((r for r in results if r[2] != "named"), key=lambda r: -likelihood(r[0]))
    print(
        f"\nuncovered (generic or none), likeliest first ({min(a.uncovered, len(uncovered))} of {len(uncovered)}):"
    )
    for e, _text, verdict, fam in uncovered[: a.uncovered]:
        code = "" if e["code"] is None else e["code"]
        print(f"  [{likelihood(e)}] {e['kind']:11} {code!s:>4} {e['name'][:44]:44} {verdict:7} {fam[:30]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
