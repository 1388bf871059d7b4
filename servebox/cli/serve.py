"""`servebox up`, `down`, `watch`: the engines behind one router, and their states."""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from servebox.cli.app import JSON_OPTION, app, emit_json, err, out
from servebox.errors import InputError


@app.command()
def up(
    spec_path: Path = typer.Argument(..., metavar="SPEC", help="The deployment spec (TOML)."),
    state_dir: Path = typer.Option(Path(".servebox"), "--state-dir", help="Logs, pid file and incidents."),
    poll_s: float = typer.Option(2.0, "--poll-s", help="Seconds between watch polls."),
    window_s: float = typer.Option(
        30.0, "--window-s", help="No progress for this long with requests in flight is a hang."
    ),
    probe: bool = typer.Option(False, "--probe", help="Also send a one-token request each poll."),
) -> None:
    """Run the spec's engines behind one OpenAI-compatible router, watch them, restart the sick ones."""
    import json as _json
    import os
    import signal

    import uvicorn

    from servebox.deploy.spec import load_spec
    from servebox.serve.router import build_app
    from servebox.serve.supervisor import Supervisor

    spec = load_spec(spec_path)
    host, _, port = spec.router.listen.rpartition(":")
    state_dir.mkdir(parents=True, exist_ok=True)
    sup = Supervisor(
        spec,
        state_dir,
        poll_s=poll_s,
        window_s=window_s,
        probe=probe,
        on_event=lambda t: (
            live["status"].update(f"[bold]{t}[/bold]") if live else err.print(f"[dim]watch[/dim] {t}")
        ),
    )
    live: dict = {}
    (state_dir / "up.json").write_text(_json.dumps({"pid": os.getpid(), "listen": spec.router.listen}))
    try:
        # a live line with each engine's start-up phase (importing, loading weights, profiling, compiling, kv cache, ready)
        with err.status("starting engines ...") as status:
            live["status"] = status
            sup.start_eager(wait=True)
        live.clear()
        for name, state in sup.status().items():
            err.print(f"{name}: {state['state']} ({state['reason']})")
        sup.run_watch()
        err.print(f"router on http://{spec.router.listen}/v1 (models: {', '.join(sup.engines)})")
        # uvicorn shuts down gracefully on SIGTERM and then re-raises it: exit through `finally` so the
        # engines are stopped and the pid record removed, instead of dying by the default handler.
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        uvicorn.run(
            build_app(sup, spec.router.api_keys),
            host=host or "127.0.0.1",
            port=int(port),
            log_level="warning",
        )
    finally:
        sup.stop_all()
        (state_dir / "up.json").unlink(missing_ok=True)


@app.command()
def down(
    state_dir: Path = typer.Option(Path(".servebox"), "--state-dir", help="The state directory `up` used."),
) -> None:
    """Stop what `servebox up` started: the router (which stops its engines), by the pid it recorded."""
    import json as _json
    import os
    import signal
    import time as _time

    record = state_dir / "up.json"
    if not record.exists():
        raise InputError(str(record), None, "nothing recorded: is servebox up running with this --state-dir?")
    pid = _json.loads(record.read_text())["pid"]
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        record.unlink(missing_ok=True)
        out.print(f"pid {pid} was not running")
        return
    for _ in range(120):
        if not record.exists():
            break
        _time.sleep(0.5)
    out.print(f"stopped servebox up (pid {pid})")


@app.command()
def watch(
    spec_path: Path = typer.Argument(
        ..., metavar="SPEC", help="The deployment spec (TOML): the engines to watch, by port."
    ),
    interval_s: float = typer.Option(2.0, "--interval-s"),
    window_s: float = typer.Option(30.0, "--window-s"),
    count: int = typer.Option(1, "--count", help="Polls before exiting (0: forever)."),
    probe: bool = typer.Option(False, "--probe"),
    as_json: bool = JSON_OPTION,
) -> None:
    """Poll each engine's /health and /metrics and print its state (idle, busy, hung, dead, degraded, starting)."""
    import time as _time

    from servebox.deploy.spec import load_spec
    from servebox.serve.watch import Watcher, poll

    spec = load_spec(spec_path)
    watchers = {m.name: Watcher(window_s=window_s, cold_start_s=m.cold_start_s * 3) for m in spec.models}
    n = 0
    while True:
        n += 1
        states = {}
        for m in spec.models:
            v = watchers[m.name].decide(
                poll(f"http://127.0.0.1:{m.port}", True, probe_model=m.name if probe else None)
            )
            states[m.name] = {
                "state": v.state,
                "reason": v.reason,
                "running": v.snapshot.get("running"),
                "generation_tokens": v.snapshot.get("generation_tokens"),
            }
        if as_json:
            emit_json(states)
        else:
            for name, s in states.items():
                out.print(f"{name}: {s['state']} ({s['reason']})")
        if count and n >= count:
            break
        _time.sleep(interval_s)
