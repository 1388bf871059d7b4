"""`servebox up`, `down` and `watch` as real processes around the stand-in llama-server
(tests/engine/fake_llama_server.py, for fast starts): engines die with a killed `up`, the next `up`
cleans the stale record and reclaims what the dead one left, ports held by others are refused
before anything starts, `down` never signals a reused PID, and `watch` shows the running `up`'s view."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

from servebox.serve.procs import ProcessId
from tests.engine.harness import http_ok, wait_for
from tests.replay_server import free_port
from tests.test_supervisor import ask, fake_binary

CLI = [sys.executable, "-m", "servebox.cli"]


def write_spec(tmp_path: Path, engine_port: int | None = None, env: str = "") -> tuple[Path, int]:
    router_port = free_port()
    spec = tmp_path / "spec.toml"
    spec.write_text(
        f'[router]\nlisten = "127.0.0.1:{router_port}"\n\n[[models]]\nname = "m"\ncheckpoint = "/m.gguf"\n'
        f'engine = "llama.cpp"\nbinary = "{fake_binary(tmp_path)}"\nport = {engine_port or free_port()}\n'
        f"cold_start_s = 30\n{env}"
    )
    return spec, router_port


class Up:
    """`servebox up` in a subprocess; ended by PID in __exit__ whatever happened."""

    def __init__(self, spec: Path, state: Path, *extra: str):
        self.log = state.parent / f"up-{time.monotonic_ns()}.log"
        self.argv = [*CLI, "up", str(spec), "--state-dir", str(state), "--poll-s", "0.5", *extra]
        self.state = state

    def __enter__(self) -> Up:
        with self.log.open("w") as handle:
            self.proc = subprocess.Popen(self.argv, stdout=handle, stderr=subprocess.STDOUT)
        return self

    def __exit__(self, *exc) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
        try:
            self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()

    def text(self) -> str:
        return self.log.read_text()

    def ready(self, router_port: int, timeout_s: float = 180) -> bool:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline and self.proc.poll() is None:
            try:
                if ask(f"http://127.0.0.1:{router_port}", "m").status_code == 200:
                    return True
            except httpx.HTTPError:
                pass
            time.sleep(0.3)
        return False

    def engines(self) -> dict:
        return json.loads((self.state / "engines.json").read_text())


def gone(pid: int, timeout_s: float = 60) -> bool:
    return bool(wait_for(lambda: ProcessId.of(pid) is None, timeout_s, 0.1))


def end(*identities: ProcessId | None) -> None:
    """SIGKILL each recorded process that is still the very one recorded (never a reused PID)."""
    for identity in identities:
        if identity is not None and identity.alive():
            os.kill(identity.pid, signal.SIGKILL)


def test_engines_die_with_a_killed_up_and_the_next_up_cleans_the_stale_record(tmp_path):
    spec, router_port = write_spec(tmp_path, env='env = { FAKE_CHILD = "1" }\n')
    state = tmp_path / "state"
    engine = child = None
    try:
        with Up(spec, state) as first:
            assert first.ready(router_port), first.text()
            engine = ProcessId.of(first.engines()["m"]["pid"])
            log = (state / "logs" / "m.log").read_text()
            # the engine's own child (vLLM's EngineCore)
            child = ProcessId.of(int(log.split("fake: child pid ")[1].split()[0]))
            assert engine is not None and child is not None
            first.proc.kill()  # SIGKILL: no finally, no cleanup
            first.proc.wait()
            assert gone(engine.pid), "the engine outlived its up (no parent-death signal)"
            assert gone(child.pid), "the engine's child outlived its up (its group was not ended)"
    finally:
        end(engine, child)  # should the product have failed: nothing outlives the test
    assert (state / "up.json").exists()  # stale: left by the crash
    with Up(spec, state) as second:
        assert second.ready(router_port), second.text()
        assert "removed a stale" in second.text()
        assert json.loads((state / "up.json").read_text())["pid"] == second.proc.pid


def test_a_new_up_ends_the_engines_a_dead_up_left_and_refuses_foreign_ports(tmp_path):
    engine_port = free_port()
    spec, router_port = write_spec(tmp_path, engine_port)
    state = tmp_path / "state"
    state.mkdir()
    # an orphan as a dead `up` leaves it when the engine outlived it: its own session, recorded by identity
    orphan = subprocess.Popen(
        [fake_binary(tmp_path), "--port", str(engine_port), "--alias", "m"], start_new_session=True
    )
    foreign = None
    try:
        assert http_ok(f"http://127.0.0.1:{engine_port}/health", 120, orphan), "the orphan never served"
        (state / "engines.json").write_text(
            json.dumps({"m": {**ProcessId.of(orphan.pid).to_dict(), "port": engine_port}})
        )
        (state / "up.json").write_text(json.dumps({"pid": 999999, "start_ticks": 1, "cmdline": "gone"}))
        with Up(spec, state) as up:
            assert up.ready(router_port), up.text()
            assert f"ended the engine a previous run left (pid {orphan.pid}, port {engine_port})" in up.text()
            assert orphan.wait(timeout=60) is not None
        # a port held by something servebox did not start: refused, one line, nothing started
        foreign = subprocess.Popen(
            [sys.executable, "-m", "http.server", str(engine_port), "--bind", "127.0.0.1"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        assert http_ok(f"http://127.0.0.1:{engine_port}/", 120, foreign), "the foreign server never served"
        refused = subprocess.run(
            [*CLI, "up", str(spec), "--state-dir", str(state)], capture_output=True, text=True, timeout=60
        )
        assert refused.returncode == 1, refused.stderr
        assert f"port {engine_port} (engine m) is held by pid {foreign.pid}" in refused.stderr
        assert "Traceback" not in refused.stderr
        assert not (state / "up.json").exists() and foreign.poll() is None
    finally:
        for proc in (orphan, foreign):
            if proc is not None and proc.poll() is None:
                proc.kill()
                proc.wait()


def test_down_never_signals_a_reused_pid(tmp_path):
    state = tmp_path / "state"
    state.mkdir()
    bystander = subprocess.Popen(["sleep", "300"])
    try:
        me = ProcessId.of(bystander.pid)
        # the record names the bystander's PID but another process's start time: a reused PID
        (state / "up.json").write_text(json.dumps({**me.to_dict(), "start_ticks": me.start_ticks - 1}))
        down = subprocess.run(
            [*CLI, "down", "--state-dir", str(state)], capture_output=True, text=True, timeout=60
        )
        assert down.returncode == 0, down.stderr
        assert "was not running: stale record cleaned" in down.stdout
        time.sleep(0.5)
        assert bystander.poll() is None and not (state / "up.json").exists()
    finally:
        bystander.kill()
        bystander.wait()


def test_watch_shows_what_up_sees_and_both_call_a_frozen_engine_hung(tmp_path):
    # pieces 0.3 s apart: a stream stays open long enough to be seen in flight through the router
    spec, router_port = write_spec(tmp_path, env='env = { FAKE_TOKEN_DELAY_S = "0.3" }\n')
    state = tmp_path / "state"
    with Up(spec, state, "--window-s", "3") as up:
        assert up.ready(router_port), up.text()

        def watch() -> dict:
            r = subprocess.run(
                [*CLI, "watch", str(spec), "--state-dir", str(state), "--json"],
                capture_output=True,
                text=True,
                timeout=60,
            )
            assert r.returncode == 0, r.stderr
            return json.loads(r.stdout)

        # the ready check's request has ended: idle (nothing in flight) at a later poll
        assert wait_for(lambda: watch()["engines"]["m"]["state"] == "idle", 120), watch()
        second = subprocess.run(
            [*CLI, "up", str(spec), "--state-dir", str(state)], capture_output=True, text=True, timeout=60
        )  # a second up on the same state dir: refused, the first one untouched
        assert second.returncode == 1 and f"already runs with {state} (pid {up.proc.pid})" in second.stderr
        seen = watch()
        assert seen["source"].startswith(f"servebox up (pid {up.proc.pid})")
        assert seen["engines"]["m"]["state"] == "idle" and seen["engines"]["m"]["inflight"] == 0
        request = {"model": "m", "messages": [{"role": "user", "content": "?"}], "stream": True}
        with httpx.stream("POST", f"http://127.0.0.1:{router_port}/v1/chat/completions", json=request) as r:
            lines = r.iter_lines()  # held: a dropped iterator closes the response (a disconnect)
            next(lines)  # the stream is open: the router counts it in flight
            deadline, seen = time.monotonic() + 120, {}  # inflight and state come from separate polls
            while time.monotonic() < deadline and (seen.get("inflight"), seen.get("state")) != (1, "busy"):
                seen = watch()["engines"]["m"]
            assert seen["inflight"] == 1 and seen["state"] == "busy", seen
            for _ in lines:
                pass
        engine = up.engines()["m"]["pid"]
        os.kill(engine, signal.SIGSTOP)
        try:
            assert wait_for(lambda: "INCIDENT hung" in up.text(), 120, 0.3), up.text()
            # the console line comes first; the state file's incident count is a separate write (CI under load
            # read state 'hung' with 0 incidents once): wait for the same view to carry it
            seen = (
                wait_for(lambda: (e := watch()["engines"]["m"])["incidents"] >= 1 and e, 60)
                or watch()["engines"]["m"]
            )
            # the same view: hung, then restarting because of the hang, then back
            assert seen["state"] in ("hung", "restarting", "starting", "idle") and seen["incidents"] == 1
            assert seen["last_incident"]["state"] == "hung"
        finally:
            try:
                os.kill(engine, signal.SIGCONT)
            except ProcessLookupError:
                pass
        down = subprocess.run(
            [*CLI, "down", "--state-dir", str(state)], capture_output=True, text=True, timeout=90
        )
        assert down.returncode == 0 and f"stopped servebox up (pid {up.proc.pid})" in down.stdout
        assert up.proc.wait(timeout=30) == 0 and gone(engine)
        assert not (state / "up.json").exists()


def test_watch_alone_calls_a_frozen_engine_hung(tmp_path):
    """No `up` with this state dir: watch polls the engine itself, with the same rules."""
    engine_port = free_port()
    spec, _ = write_spec(tmp_path, engine_port)
    engine = subprocess.Popen([fake_binary(tmp_path), "--port", str(engine_port), "--alias", "m"])
    try:
        assert http_ok(f"http://127.0.0.1:{engine_port}/health", 120, engine), "the engine never served"
        os.kill(engine.pid, signal.SIGSTOP)
        r = subprocess.run(
            [*CLI, "watch", str(spec), "--state-dir", str(tmp_path / "none"), "--count", "3"]
            + ["--interval-s", "0.5", "--window-s", "2"],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert r.returncode == 0, r.stderr
        assert "watching alone" in r.stdout
        assert r.stdout.strip().splitlines()[-1].startswith("m: hung (no answer from /health"), r.stdout
    finally:
        engine.kill()
        engine.wait()


def test_up_with_a_bad_listen_address_is_bad_input_and_touches_nothing(tmp_path, run_cli):
    spec = tmp_path / "spec.toml"
    spec.write_text(
        '[router]\nlisten = "nowhere"\n\n[[models]]\nname = "m"\ncheckpoint = "/x"\nport = 24050\n'
    )
    result = run_cli("up", spec, "--state-dir", tmp_path / "state")
    assert result.code == 2 and "router.listen" in result.err and len(result.err.strip().splitlines()) == 1
    assert not (tmp_path / "state").exists()


def test_watch_says_when_ups_state_file_went_stale():
    from servebox.cli.serve import age

    assert age({"updated": "2020-01-01T00:00:00Z", "poll_s": 2}).startswith(" (not rewritten for ")
    fresh = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    assert age({"updated": fresh, "poll_s": 2}) == ""
