"""Does doctor still name a cause when the same log reaches it in the form a collector or a paste gives it?

Why: corpus logs are the engine's own lines; users hand doctor `docker logs` of a compose service, a
`kubectl logs --timestamps --prefix` dump, docker's json-file records, `journalctl -o json`, Loki records,
Ray workers' `(RayWorkerWrapper pid=N, ip=A)` lines, a log saved on Windows, a log quoted in markdown or copied
from a page with its HTML entities, or from a console that hard-wraps lines at its width. Each transform below is applied to every line of every corpus log that
doctor answers right (a named cause, not "none") and the top answer is taken again: the share still right is
printed per transform (measured). With --baseline REV the servebox of git revision REV is measured on the same
logs in the same run, in a child process (the before/after figure).
Run: python benchmarks/doctor_robustness.py [--baseline REV] [--verbose]
"""

from __future__ import annotations

import html
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "fixtures" / "doctor-corpus"
STAMP = "2026-12-04T10:00:00.123456789Z"


def _each(prefix: str):
    return lambda lines: [prefix + line for line in lines]


def _wrap(lines: list[str], width: int) -> list[str]:
    """A console's copy that hard-wraps every line at `width` characters."""
    return [line[i : i + width] for line in lines for i in range(0, max(len(line), 1), width)]


def _json(make):
    return lambda lines: [json.dumps(make(line)) for line in lines]


TRANSFORMS = {
    "windows line ends": lambda lines: [line + "\r" for line in lines],
    "ANSI colours": lambda lines: [
        re.sub(r"\b(INFO|WARNING|ERROR|DEBUG|CRITICAL)\b", "\x1b[1;31m\\1\x1b[0m", line, count=1)
        for line in lines
    ],
    "docker json-file": _json(lambda line: {"log": line + "\n", "stream": "stderr", "time": STAMP}),
    "journalctl -o json": _json(lambda line: {"_SYSTEMD_UNIT": "vllm.service", "MESSAGE": line}),
    "Loki record": _json(lambda line: {"ts": STAMP, "level": "info", "msg": line}),
    "kubectl --timestamps": _each(STAMP + " "),
    "kubectl --prefix": _each("[pod/vllm-0/vllm] "),
    "docker compose": _each("vllm-1  | "),
    "journal (short)": _each("Dec 04 10:00:00 gpu1 vllm[1234]: "),
    "journal (short-iso)": _each("2026-12-04T10:00:00+00:00 gpu1 vllm[1234]: "),
    "Ray worker": _each("(RayWorkerWrapper pid=2345, ip=10.1.2.3) "),
    "vLLM 0.9 worker": _each("(VllmWorker rank=1 pid=3413) "),
    "markdown quote": _each("> "),
    "indented 4": _each("    "),
    "HTML entities": lambda lines: [html.escape(line) for line in lines],
    "console wrap at 120": lambda lines: _wrap(lines, 120),
    "console wrap at 80": lambda lines: _wrap(lines, 80),
}


def top_id(data: bytes, name: str) -> str:
    from servebox.doctor.triage import triage_stream

    result = triage_stream(io.BytesIO(data), name)
    ids = [d.id for d in result.diagnoses if d.role in ("cause", "symptom")]
    return ids[0] if ids else "none"


def measure() -> dict:
    """{"right": n, "kept": {transform: n}, "lost": {transform: [[file, got], ...]}} for the servebox importable now."""
    cases = tomllib.loads((CORPUS / "manifest.toml").read_text())["case"]
    base = []
    for case in cases:
        if case["expected"] == "none" or case["expected"].startswith("new:"):
            continue
        data = (CORPUS / case["file"]).read_bytes()
        if top_id(data, case["file"]) == case["expected"]:
            base.append((case, data.decode("utf-8", "replace").split("\n")))
    out = {"right": len(base), "kept": {}, "lost": {}}
    for name, change in TRANSFORMS.items():
        lost = []
        for case, lines in base:
            got = top_id("\n".join(change(lines)).encode(), case["file"])
            if got != case["expected"]:
                lost.append([case["file"], got])
        out["kept"][name], out["lost"][name] = len(base) - len(lost), lost
    return out


def at_revision(rev: str) -> dict:
    """measure() with the servebox of `rev` (git archive), on today's corpus, in a child process."""
    with tempfile.TemporaryDirectory() as tmp:
        tar = subprocess.run(
            ["git", "-C", str(ROOT), "archive", rev, "servebox"], capture_output=True, check=True
        )
        subprocess.run(["tar", "-x", "-C", tmp], input=tar.stdout, check=True)
        done = subprocess.run(
            [sys.executable, __file__, "--json"],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONPATH": tmp},
        )
    return json.loads(done.stdout)


def main() -> None:
    if "--json" in sys.argv:
        print(json.dumps(measure()))
        return
    sys.path.insert(0, str(ROOT))
    now = measure()
    before = at_revision(sys.argv[sys.argv.index("--baseline") + 1]) if "--baseline" in sys.argv else None
    print(f"corpus logs doctor names right (a cause, not 'none'): {now['right']} (measured)")
    for name, kept in now["kept"].items():
        line = f"  {name:22} still right {kept:4}/{now['right']} ({kept / now['right']:6.1%})"
        if before:
            then = before["kept"][name]
            line += f"   baseline: {then:4}/{before['right']} ({then / before['right']:6.1%})"
        print(line)
        if "--verbose" in sys.argv:
            for file, got in now["lost"][name]:
                print(f"      lost {file}: got {got}")


if __name__ == "__main__":
    main()
