"""The twelfth fresh batch of doctor's corpus (batch "fresh-12"): the made-here cases are two systemd units with
ordinary mistakes the earlier batches did not try (ExecStart= naming the engine's command by its bare name, as
typed in a shell where the venv is on PATH; MemoryMax= written with an IEC suffix, 48GiB, which systemd does not
parse). It reuses tools/doctor-corpus.py's systemd_verify and tools/doctor_corpus_fresh5.py's write_cases (loaded
by path) and writes tests/fixtures/doctor-corpus/<id>.log the same way. The expected answers were written in
manifest.toml after reading each log and before doctor was run on it; servebox/doctor/* was neither read nor changed.
The public excerpts of the batch are hand-copied from the threads the manifest names (not made here).
Nothing in the tests needs this tool, and it starts no engine (so it uses no port; the batch's range is 18800-18899).
Usage (from the repository root):
  .venv/bin/python tools/doctor_corpus_fresh12.py [CASE_ID ...]
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def load(name: str, file: str):
    """A tool of this folder as a module (their names need not be importable)."""
    spec = importlib.util.spec_from_file_location(name, HERE / file)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def systemd_cases(h) -> dict:
    unit = h.UNIT
    return {
        # the command as typed in an activated venv: systemd does not search the venv's bin
        "systemd-execstart-bare-command-name": lambda: h.systemd_verify(
            unit.format(extra="").replace(
                "ExecStart=/bin/sleep 1000", "ExecStart=vllm serve /srv/models/qwen --port 8000"
            )
        ),
        # 'GiB' as nvidia-smi and free -h print it; systemd wants K, M, G, T (base 1024) or a percentage
        "systemd-memorymax-iec-suffix": lambda: h.systemd_verify(unit.format(extra="MemoryMax=48GiB\n")),
    }


def main() -> None:
    h = load("doctor_corpus", "doctor-corpus.py")
    f5 = load("doctor_corpus_fresh5", "doctor_corpus_fresh5.py")
    f5.write_cases(h, systemd_cases(h), set(sys.argv[1:]))


if __name__ == "__main__":
    main()
