"""`servebox doctor`: the root cause of a failure from a log, and probes of the machine."""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from servebox.cli.app import JSON_OPTION, app, emit_json, out
from servebox.errors import InputError


@app.command()
def doctor(
    log: str = typer.Option(None, "--log", help="A log file to triage ('-' for stdin)."),
    journal: str = typer.Option(
        None, "--journal", help="A systemd unit whose journal to triage (journalctl -u UNIT)."
    ),
    env: bool = typer.Option(False, "--env", help="Probe this machine/unit for what a JIT engine needs."),
    cache_dir: list[str] = typer.Option(None, "--cache-dir", help="A cache directory to probe (repeatable)."),
    port: int = typer.Option(None, "--port", help="A port the engine will bind."),
    memlock_gib: float = typer.Option(
        1.0, "--memlock-need-gib", help="Pinned memory the engine needs (KV spill, UVA)."
    ),
    max_bytes: int = typer.Option(
        None, "--max-bytes", min=1, help="Read at most this many bytes (for endless input: a FIFO, a device)."
    ),
    as_json: bool = JSON_OPTION,
) -> None:
    """Name the root cause of a failure from a log or journal, and probe the environment."""
    from servebox.doctor import probes as probe_mod
    from servebox.doctor.triage import triage_stream
    from servebox.report.doctor_view import show_probes, show_triage

    if not (log or journal or env):
        raise InputError("doctor", None, "give --log FILE, --journal UNIT or --env")
    report: dict = {}
    failed = False
    if log or journal:
        if journal:
            import subprocess

            try:
                proc = subprocess.Popen(
                    ["journalctl", "-u", journal, "-o", "short-iso", "--no-pager"],
                    stdout=subprocess.PIPE,
                    text=True,
                    errors="replace",
                )
            except OSError as exc:
                raise InputError("--journal", None, f"cannot run journalctl: {exc}") from None
            result = triage_stream(proc.stdout, f"journal of {journal}", max_bytes)
            proc.kill()
            proc.wait()
        elif log == "-":
            result = triage_stream(sys.stdin, "stdin", max_bytes)
        else:
            try:
                handle = open(log, "rb")  # noqa: SIM115
            except OSError as exc:
                raise InputError(log, None, f"cannot read: {exc.strerror or exc}") from None
            with handle:
                result = triage_stream(handle, log, max_bytes)
        report["triage"] = result.model_dump(mode="json")
        failed |= result.fatal
        if not as_json:
            show_triage(result, out)
    if env:
        dirs = [Path(d) for d in cache_dir] if cache_dir else probe_mod.default_cache_dirs()
        results = probe_mod.run_probes(dirs, port, memlock_need=int(memlock_gib * 2**30))
        report["probes"] = [p.model_dump(mode="json") for p in results]
        failed |= any(p.status == "fail" for p in results)
        if not as_json:
            show_probes(results, out)
    if as_json:
        emit_json(report)
    if failed:
        raise typer.Exit(1)
