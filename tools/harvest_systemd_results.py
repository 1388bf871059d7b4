"""Extract systemd's failure vocabulary (exit statuses, service results, timeout lines) into a catalogue.

Why: benchmarks/doctor_coverage_systemd_results.py measures how much of what systemd prints about a
failed service doctor can name; it must run offline, so the vocabulary is taken once, here, from the
systemd installed on this machine (Debian 12's systemd 252), and committed as facts about its output:
  exit statuses  `systemd-analyze exit-status` (name, number, class: the table systemd prints with);
                 their meaning from systemd.exec(5) "PROCESS EXIT CODES" (tables 7-10)
  results        the $SERVICE_RESULT table of systemd.exec(5) (table 6: result, $EXIT_CODE, $EXIT_STATUS)
  signals        signal(7)'s table (the ones whose default action ends the process: code=killed/dumped)
  messages       the format strings compiled into libsystemd-core-252.so (`strings`): the exit line
                 "%s exited, code=%s, status=%i/%s%s", "Failed at step %s spawning %s: %m",
                 "Failed with result '%s'.", the timeout, watchdog and start-limit lines
Run: python tools/harvest_systemd_results.py benchmarks/data/systemd_results.json
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
from pathlib import Path

CORE = Path("/usr/lib/x86_64-linux-gnu/systemd/libsystemd-core-252.so")
MAN_ENV = {**os.environ, "MANWIDTH": "200", "LC_ALL": "C.UTF-8"}
# service.c's lines about a service's failure (timeouts, watchdog, start limit, exit, OOM); the
# mount/swap/socket/scope units' own timeout lines are left out (an engine runs as a service)
MESSAGE_RE = re.compile(
    r"timed out|Watchdog timeout|exited, code=|Failed at step|Failed with result|repeated too quickly|"
    r"killed by the OOM killer|Processes still around|Scheduled restart job"
)
NOT_SERVICE = re.compile(r"(?i)mount|swap|cleaning|activation|deactivation|user lookup|^Job |^Starting timed|"
                         r"reload operation|Child %i|^Stopping timed out|Confirmation question")  # fmt: skip


def man_text(*page: str) -> str:
    return subprocess.run(
        ["man", "-P", "cat", *page], capture_output=True, text=True, env=MAN_ENV, check=True
    ).stdout


def box_rows(text: str, title: str) -> list[list[str]]:
    """The rows of a man page's box table (continuation lines joined), after the line naming it."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if title in line)
    rows, cur = [], None
    for line in lines[start + 2 :]:
        s = line.strip()
        if s.startswith("└"):
            break
        if s.startswith("├") or "┼" in s or "┴" in s:  # a row (or a sub-row) ends
            cur = None
            continue
        if not s.startswith("│"):
            continue
        cells = [c.strip() for c in s.strip("│").split("│")]
        if cur is None:
            cur = cells
            rows.append(cur)
        else:
            for i, c in enumerate(cells[: len(cur)]):
                cur[i] = f"{cur[i]} {c}".strip()
    return rows[1:]  # the header


def exit_statuses(exec_man: str) -> list[dict]:
    out = subprocess.run(
        ["systemd-analyze", "exit-status"], capture_output=True, text=True, check=True
    ).stdout
    meaning = {}
    for title in ("Table 7.", "Table 8.", "Table 9.", "Table 10."):
        for code, _sym, desc in box_rows(exec_man, title):
            meaning[int(code)] = desc
    entries = []
    for line in out.splitlines()[1:]:
        name, code, cls = line.split()
        entries.append(
            {
                "kind": "exit-status",
                "code": int(code),
                "name": name,
                "class": cls,
                "message": meaning.get(int(code), ""),
                "log": f"Main process exited, code=exited, status={code}/{name}",
                "format": "%s exited, code=%s, status=%i/%s%s (service.c; 'Main process' or 'Control process')",
            }
        )
    return entries


def results(exec_man: str) -> list[dict]:
    rows = box_rows(exec_man, "Table 6.")
    entries, last = [], None
    for row in rows:
        if len(row) < 3:  # the table's closing note
            break
        result, code, status = row
        if result:
            last = {
                "kind": "result",
                "code": None,
                "name": result.strip('"'),
                "message": f"$EXIT_CODE {code}; $EXIT_STATUS {status}",
                "log": f"Failed with result '{result.strip(chr(34))}'.",
                "format": "Failed with result '%s'. (unit.c unit_log_failure)",
            }
            entries.append(last)
        elif last is not None:
            last["message"] += f" | $EXIT_CODE {code}; $EXIT_STATUS {status}"
    return [e for e in entries if e["name"] != "success"]


def signals() -> list[dict]:
    text = man_text("7", "signal")
    entries = []
    for m in re.finditer(r"^\s+SIG([A-Z0-9]+)\s+(?:P\d{4}|-)\s+(Term|Core)\s+(.+)$", text, re.M):
        name, action, desc = m.groups()
        num = int(getattr(signal, f"SIG{name}", 0))
        if not num or any(e["code"] == num for e in entries):  # an alias (IOT, POLL)
            continue
        code = "dumped" if action == "Core" else "killed"
        entries.append(
            {
                "kind": "signal",
                "code": num,
                "name": name,
                "message": f"{desc} (default action: {action})",
                "log": f"Main process exited, code={code}, status={num}/{name}",
                "format": "%s exited, code=%s, status=%i/%s%s (service.c; signal_to_string drops 'SIG')",
            }
        )
    return entries


def messages() -> list[dict]:
    text = subprocess.run(["strings", str(CORE)], capture_output=True, text=True, check=True).stdout
    seen, entries = set(), []
    for raw in text.splitlines():
        fmt = raw.removeprefix("MESSAGE=%s: ")
        if not MESSAGE_RE.search(fmt) or NOT_SERVICE.search(fmt) or fmt in seen:
            continue
        seen.add(fmt)
        entries.append({"kind": "message", "code": None, "name": fmt, "message": fmt, "format": raw})
    return entries


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    a = ap.parse_args()
    version = subprocess.run(["systemctl", "--version"], capture_output=True, text=True, check=True).stdout
    exec_man = man_text("systemd.exec")
    doc = {
        "about": "systemd's failure vocabulary as systemd 252 prints it, for "
        "benchmarks/doctor_coverage_systemd_results.py; made by tools/harvest_systemd_results.py.",
        "sources": {
            "systemd": version.splitlines()[0],
            "exit statuses": "systemd-analyze exit-status; meanings from systemd.exec(5) PROCESS EXIT CODES",
            "results": "systemd.exec(5) table 6 ($SERVICE_RESULT)",
            "signals": "signal(7) (default action Term or Core)",
            "messages": f"strings {CORE}",
        },
        "entries": exit_statuses(exec_man) + results(exec_man) + signals() + messages(),
    }
    with a.out.open("w") as f:
        head = {"about": doc["about"], "sources": doc["sources"]}
        f.write(json.dumps(head)[:-1] + ', "entries": [\n')  # one entry a line: a diff shows what changed
        f.write(",\n".join(json.dumps(e) for e in doc["entries"]))
        f.write("\n]}\n")
    print(f"{len(doc['entries'])} entries -> {a.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
