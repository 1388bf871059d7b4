"""How much of Docker's, Podman's and the NVIDIA Container Toolkit's refusals `servebox doctor` can name.

Why: an engine run in a container often fails before it prints a line of its own: no GPU runtime, the
toolkit's nvidia-container-cli, CDI, an image pull, a published port, a small /dev/shm. The catalogue
benchmarks/data/container_errors.json holds those texts (tools/harvest_container_errors.py: Debian 12's
docker.io 20.10.24, podman 4.3.1, runc 1.1.5, crun 1.8.1, and libnvidia-container's error classes). Each
entry is rendered in every format of its kind (`docker run`, `docker compose`, podman, the container's own
output and a vLLM worker's), fed alone to triage_stream and classified by coverage_common: named by a
specific cause, a symptom family that says where to look, generic (a catch-all or the bare exception) or
nothing. An entry counts by its worst format. None is skipped: every entry can meet a vLLM / llama.cpp user who
runs the engine in Docker or Podman on their own GPU box (--ipc=host missing has no text of its own: it shows as
the /dev/shm entries).
Measured 2026-12-03 on the 40 entries, same run (PYTHONPATH picks the KB): main's KB (97e7068) 23 named, 1
generic, 16 none (and of the 23, the driver-rpc timeout named by no-gpu-driver-in-container, a wrong reading); with
the vocabctr families 38 named + 2 symptoms (the toolkit's detection error, crun's hook failure), none left.
Run: python benchmarks/doctor_coverage_container_errors.py [--uncovered N] [--json]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the shared helper beside it
from coverage_common import print_layer_report, rows_by_kind, vocabulary_args  # noqa: E402

DATA = Path(__file__).resolve().parent / "data" / "container_errors.json"
UMBRELLA = {"native-abort", "uncaught-exception"}  # catch-alls that say "it died here", not why
# Entries a vLLM / llama.cpp user on their own GPU box cannot plausibly meet (left without a family), and why
SKIPPED: dict[str, str] = {}


def render(fmt: dict, entry: dict) -> str:
    """The entry as this format prints it, every line prefixed."""
    text = fmt["template"].format(msg=entry["message"])
    return "\n".join(fmt["prefix"] + line for line in text.split("\n"))


def measure(doc: dict) -> list[dict]:
    """One row per entry: its verdict and family in each format of its kind, and the worst over them."""
    return rows_by_kind(doc, render, UMBRELLA, SKIPPED)


def main(argv: list[str] | None = None) -> int:
    a = vocabulary_args(__doc__.splitlines()[0], 100, argv)
    doc = json.loads(DATA.read_text())
    return print_layer_report(doc, measure(doc), a, 28, lambda m: m.strip()[-56:])


if __name__ == "__main__":
    raise SystemExit(main())
