"""`servebox up`, `down`, `watch`: the engines behind one router, and their states."""

from __future__ import annotations

import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import typer

from servebox.cli.app import JSON_OPTION, app, emit_json, err, out
from servebox.cli.dirs import usable_directory
from servebox.errors import InputError

STATE_DIR_OPTION = typer.Option(
    Path(".servebox"), "--state-dir", help="Logs, pid records, state and incidents."
)


# `watch` exits 1 when an engine ends its run dead or given up; hung is not down (a hang is cured by a
# restart, and up's view shows it as it happens)
DOWN = ("dead", "failed")


def stamp(text: str) -> None:
    """One progress line with an ISO time: readable in a terminal, a pipe, nohup.out or the journal."""
    now = datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
    err.print(f"{now} {text}", markup=False, highlight=False, soft_wrap=True)


def refuse(lines: list[str], advice: str) -> None:
    for line in lines:
        err.print(f"servebox: {line}", markup=False, highlight=False, soft_wrap=True)
    err.print(f"servebox: {advice}", markup=False, highlight=False, soft_wrap=True)
    raise typer.Exit(1)


@app.command()
def up(
    spec_path: Path = typer.Argument(..., metavar="SPEC", help="The deployment spec (TOML)."),
    state_dir: Path = STATE_DIR_OPTION,
    poll_s: float = typer.Option(2.0, "--poll-s", min=0.1, help="Seconds between watch polls."),
    window_s: float = typer.Option(
        30.0, "--window-s", min=1.0, help="No progress (or no answer) for this long is a hang."
    ),
    probe: bool = typer.Option(False, "--probe", help="Also send a one-token request each poll."),
    restart_limit: int = typer.Option(
        5, "--restart-limit", min=0, help="Restarts allowed in 600 s, then give up (0: never restart)."
    ),
    all_nodes_here: bool = typer.Option(
        False,
        "--all-nodes-here",
        help="Run every node of a multi-node model on this machine (head at 127.0.0.1), whatever the "
        "hosts' addresses; without it, only nodes whose host is this machine (a loopback address or "
        "its name) are run here.",
    ),
) -> None:
    """Run the spec's engines behind one OpenAI-compatible router, watch them, restart the sick ones.
    A model with `nodes`: its head and the nodes on this machine run here, each watched; a node that
    ends is the engine's death (an incident naming the node), then a restart of every node."""
    import signal

    import uvicorn

    from servebox.deploy.spec import load_spec
    from servebox.serve.router import build_app
    from servebox.serve.runstate import RunState, busy_ports
    from servebox.serve.supervisor import Supervisor

    spec = load_spec(spec_path)
    usable_directory(state_dir, "--state-dir")
    _executables_exist(spec, spec_path, all_nodes_here)
    host, port = spec.router.listen_host, spec.router.listen_port  # validated by the spec ([IPv6]:port too)
    # the address alone (any port) before anything is written or started: the port is taken below, after the
    # checks that name who holds it
    _bind_router(spec_path, spec.router.listen, host, 0).close()
    state_dir.mkdir(parents=True, exist_ok=True)
    run = RunState(state_dir)
    other = run.running_up()
    if other is not None:
        refuse(
            [f"servebox up already runs with {state_dir} (pid {other.pid})"], "stop it first: servebox down"
        )
    for line in run.clean_stale():
        stamp(line)
    ports = {m.port: f"engine {m.name}" for m in spec.models if not m.own_unit}
    ports |= {m.master_port: f"{m.name}'s master port" for m in spec.models if len(m.nodes) > 1}
    ports[int(port)] = "the router"
    held = busy_ports(ports)
    if held:
        refuse(held, "nothing was started: free these ports or change them in the spec")
    try:
        sup = Supervisor(
            spec,
            state_dir,
            poll_s=poll_s,
            window_s=window_s,
            probe=probe,
            on_event=stamp,
            restart_limit=restart_limit,
            all_nodes_here=all_nodes_here,
        )
    except ValueError as exc:  # a multi-node layout up cannot run (Ray nodes)
        refuse([str(exc)], "nothing was started: use multi_node_backend = 'mp' to run it with servebox up")
    for line in sup.notes:
        stamp(line)
    router_socket = _bind_router(spec_path, spec.router.listen, host, int(port))
    run.claim(spec.router.listen)
    try:
        for st in sup.engines.values():
            if st.process is None:
                stamp(
                    f"{st.model.name}: run by systemd (run_as_unit = true): proxied to port {st.model.port}"
                )
        sup.start_eager(wait=False)  # in the background: the router listens at once
        sup.run_watch()
        stamp(f"router on http://{spec.router.listen}/v1 (models: {', '.join(sup.engines)})")
        # uvicorn shuts down gracefully on SIGTERM and then re-raises it: exit through `finally` so the
        # engines are stopped and the pid record removed, instead of dying by the default handler.
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        config = uvicorn.Config(build_app(sup, spec.router.api_keys), log_level="warning")
        uvicorn.Server(config).run(sockets=[router_socket])
    finally:
        router_socket.close()
        sup.stop_all()
        run.release()
        stamp("servebox up stopped; its engines are stopped")


def _bind_router(spec_path: Path, listen: str, host: str, port: int):
    """The router's socket, bound before any engine starts: an address this machine does not have (or a port it
    may not take) is the spec's error, one line naming router.listen, exit 2, with nothing started; uvicorn used to
    bind only after the engines had started and ended `up` with its own error and exit 3."""
    import errno
    import socket

    address = host.strip("[]") or "127.0.0.1"
    family = socket.AF_INET6 if ":" in address else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((address, port))
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:  # taken since busy_ports looked
            refuse(
                [f"port {port} (the router) is taken"], "nothing was started: free it or change router.listen"
            )
        why = " (not an address of this machine)" if exc.errno == errno.EADDRNOTAVAIL else ""
        raise InputError(
            spec_path, "router.listen", f"cannot listen on {listen}: {exc.strerror}{why}"
        ) from None
    sock.set_inheritable(False)
    return sock


def _executables_exist(spec, spec_path: Path, all_nodes_here: bool) -> None:
    """Every engine up starts must have its program (a missing llama-server crashed up with a traceback):
    one line naming the spec and the key, exit 2, before anything is written or started."""
    from servebox.deploy.systemd import engine_argv
    from servebox.deploy.verify import executable_here

    for model in spec.models:
        if model.own_unit or (len(model.nodes) > 1 and not all_nodes_here):
            continue  # systemd runs it, or its head may be another host (the supervisor decides that)
        program = engine_argv(model)[0]
        if not executable_here(program):
            key = "binary" if model.engine == "llama.cpp" else "venv"
            raise InputError(
                str(spec_path),
                f"models[{model.name}].{key}",
                f"no executable at {program}: nothing was started",
            )


@app.command()
def down(state_dir: Path = STATE_DIR_OPTION) -> None:
    """Stop what `servebox up` started: the router (which stops its engines), by the process it recorded
    (pid, start time and command line must match: a reused pid is never signalled)."""
    import os
    import signal

    from servebox.serve.runstate import RunState

    run = RunState(usable_directory(state_dir, "--state-dir"))
    if not run.up_path.exists():
        raise InputError(
            str(run.up_path), None, "nothing recorded: is servebox up running with this --state-dir?"
        )
    target = run.running_up()
    if target is None:
        lines = run.clean_stale()
        out.print(f"servebox up (pid {run.recorded_pid()}) was not running: stale record cleaned")
        for line in lines:
            out.print(line, markup=False)
        return
    os.kill(target.pid, signal.SIGTERM)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and target.alive():
        time.sleep(0.3)
    if target.alive():
        err.print(f"servebox up (pid {target.pid}) did not stop in 90 s: SIGKILL (its engines die with it)")
        os.kill(target.pid, signal.SIGKILL)
    for line in run.clean_stale():
        out.print(line, markup=False)
    out.print(f"stopped servebox up (pid {target.pid})")


def age(snapshot: dict) -> str:
    """A warning when up's state file stopped being rewritten (its watch loop is stuck), else nothing."""
    try:
        written = datetime.fromisoformat(snapshot["updated"].replace("Z", "+00:00"))
    except (KeyError, AttributeError, ValueError):
        return " (no time in the state file)"
    old = (datetime.now(UTC) - written).total_seconds()
    limit = max(10.0, 5 * float(snapshot.get("poll_s") or 2.0))
    return f" (not rewritten for {old:.0f} s: up's watch loop may be stuck)" if old > limit else ""


def history(status: dict) -> str:
    """Restarts and the last incident, when the view comes from `up` (watching alone has neither)."""
    if "restarts_total" not in status:
        return ""
    text = f"; {status['restarts_total']} restart(s)"
    last = status.get("last_incident")
    if last:
        cause = last.get("cause") or ""
        known = cause and not cause.startswith("no known cause")  # else the reason says more (a lost node)
        text += f"; last incident {last['time']}: {last['state']}, {cause if known else last['reason']}"
    return text


@app.command()
def watch(
    spec_path: Path = typer.Argument(
        ..., metavar="SPEC", help="The deployment spec (TOML): the engines to watch, by port."
    ),
    state_dir: Path = STATE_DIR_OPTION,
    interval_s: float = typer.Option(2.0, "--interval-s", min=0.1),
    window_s: float = typer.Option(30.0, "--window-s", min=1.0),
    count: int = typer.Option(1, "--count", min=0, help="Polls before exiting (0: forever)."),
    probe: bool = typer.Option(False, "--probe"),
    as_json: bool = JSON_OPTION,
) -> None:
    """Each engine's state (starting, idle, busy, degraded, hung, dead, restarting, failed). While
    `servebox up` runs with --state-dir, this is what its supervisor sees (one view, with the requests
    its router holds); otherwise it polls each engine's /health and /metrics itself. Exits 1 when an
    engine is dead or failed (given up) at the last poll, so a script or a probe can act on it."""
    from servebox.deploy.spec import load_spec
    from servebox.serve.runstate import RunState, read_json
    from servebox.serve.watch import Watcher, poll

    spec = load_spec(spec_path)
    run = RunState(usable_directory(state_dir, "--state-dir"))
    watchers = {m.name: Watcher(window_s=window_s, cold_start_s=m.cold_start_s) for m in spec.models}
    n = 0
    while True:
        n += 1
        shared = run.running_up()
        snapshot = read_json(run.state_path) if shared else None
        if isinstance(snapshot, dict) and isinstance(snapshot.get("engines"), dict):
            source = f"servebox up (pid {shared.pid}), state of {snapshot.get('updated')}{age(snapshot)}"
            states = snapshot["engines"]
        else:
            source = "watching alone (no servebox up with this --state-dir)"
            states = {}
            for m in spec.models:
                snap = poll(
                    f"http://127.0.0.1:{m.port}",
                    True,
                    timeout_s=max(2.0, interval_s),
                    probe_model=m.name if probe else None,
                )
                v = watchers[m.name].decide(snap)
                states[m.name] = {
                    "state": v.state,
                    "reason": v.reason,
                    "running": v.snapshot.get("running"),
                    "generation_tokens": v.snapshot.get("generation_tokens"),
                }
        if as_json:
            emit_json({"source": source, "engines": states})
        else:
            out.print(f"[dim]{source}[/dim]")
            for name, s in states.items():
                out.print(f"{name}: {s['state']} ({s['reason']}){history(s)}", markup=False, soft_wrap=True)
        if count and n >= count:
            break
        time.sleep(interval_s)
    not_serving = sorted(name for name, s in states.items() if s.get("state") in DOWN)
    if not_serving:
        err.print(f"servebox: not serving: {', '.join(not_serving)}", markup=False, highlight=False)
        raise typer.Exit(1)
