"""Restarts accounted whatever triggers them, the start limit, the same-cause stop, phase-based give-up
and what Supervisor.status() reports, with the stand-in llama-server (tests/engine/fake_llama_server.py:
these need many fast starts, and a real engine takes minutes per start here). The real engines'
versions of these faults are in test_real_engine.py and test_real_llamacpp.py."""

from __future__ import annotations

import os
import signal
import time
from datetime import datetime

import httpx

from servebox.deploy.spec import Spec
from servebox.serve.supervisor import Supervisor
from tests.engine import harness
from tests.engine.harness import Router
from tests.replay_server import free_port
from tests.test_supervisor import ask, fake_binary

NO_KV = (
    "ValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization` "
    "when initializing the engine."
)


def fake_model(tmp_path, name="m", **extra) -> dict:
    return {
        "name": name,
        "checkpoint": f"/models/{name}.gguf",
        "engine": "llama.cpp",
        "binary": fake_binary(tmp_path),
        "port": free_port(),
        "cold_start_s": 20,
        **extra,
    }


def supervisor(tmp_path, *models, **kw) -> Supervisor:
    options = {"poll_s": 0.3, "window_s": 3.0, "backoff_s": 0.05, **kw}
    return Supervisor(Spec.model_validate({"models": list(models)}), tmp_path / "state", **options)


def wait_for(condition, timeout_s=120.0, step_s=0.1):
    """Generous by default: a condition that holds arrives late on a loaded machine, never wrong."""
    return harness.wait_for(condition, timeout_s, step_s)


def polls_past_the_window(st, frozen_at: float, incident: dict) -> int:
    """How many polls began after the freeze plus the window, up to the one that declared the hang:
    the rule "within the window plus two polls", counted in polls so a slow machine cannot fake it."""
    declared_at = incident["metrics"]["at"]
    return len([t for t in st.polls if frozen_at + st.watcher.window_s <= t <= declared_at])


def test_crash_on_every_request_reaches_the_start_limit(tmp_path):
    # expected, written first: limit 3 -> deaths 1-3 restart (restarts_total 3), death 4 gives up;
    # every death is one incident whether a request or the watcher noticed it; then 503 at once
    sup = supervisor(tmp_path, fake_model(tmp_path, env={"FAKE_CRASH_ON_REQUEST": "1"}), restart_limit=3)
    try:
        sup.start_eager()
        sup.run_watch()
        st = sup.engines["m"]
        with Router(sup) as router:
            codes = []  # a router may answer 503 (Retry-After) while the engine restarts: keep asking
            deadline = time.monotonic() + 90
            while time.monotonic() < deadline and not st.failed:
                codes.append(ask(router.url, "m").status_code)
                if codes[-1] == 503:
                    time.sleep(0.2)
            assert st.failed and st.verdict.state == "failed", (codes, st.verdict)
            incidents = sup.incidents()
            assert [i["action"].split(" (")[0] for i in incidents] == [
                "restart after 0.05 s",
                "restart after 0.1 s",
                "restart after 0.2 s",
                "gave up",
            ]
            assert "start limit" in incidents[-1]["action"] and st.policy.total == 3
            assert all(i["state"] == "dead" and i["start"] == n + 1 for n, i in enumerate(incidents))
            starts, incidents = st.process.starts, len(sup.incidents())
            r = ask(router.url, "m")  # refused at once: no start tried (counted, not timed)
            assert r.status_code == 503 and st.process.starts == starts and len(sup.incidents()) == incidents
            assert not st.process.alive()
    finally:
        sup.stop_all()


def test_a_request_racing_the_give_up_does_not_start_the_engine_again(tmp_path):
    """ensure_running checks `failed` before it takes the engine's lock; a request that passed that check
    while on_death was giving up then found a dead, accounted process and launched it again (a fresh-clone CI
    run read verdict 'starting' after the give-up). Replayed without timing: the launch it reaches must refuse."""
    sup = supervisor(tmp_path, fake_model(tmp_path, env={"FAKE_FAIL_AT_START": NO_KV}), restart_limit=5)
    try:
        sup.start_eager()
        st = sup.engines["m"]
        assert st.failed and st.verdict.state == "failed"
        starts = st.process.starts
        sup._launch(st, "request")  # what ensure_running's locked branch calls
        assert st.process.starts == starts and st.verdict.state == "failed" and not st.process.alive()
    finally:
        sup.stop_all()


def test_a_poll_in_flight_when_the_engine_is_given_up_keeps_the_give_up(tmp_path):
    """A fresh-clone CI run read verdict 'dead' with `failed` set: the watcher's poll began before a request's
    on_death gave up and wrote its 'dead' over 'failed' afterwards. Replayed without timing: the give-up
    lands inside the poll's decide, and the verdict must stay 'failed'."""
    from servebox.serve.watch import Verdict

    sup = supervisor(tmp_path, fake_model(tmp_path))
    try:
        sup.start_eager()
        st = sup.engines["m"]
        decide = st.watcher.decide

        def give_up_during_the_poll(snap, log):
            with st.lock:
                st.verdict, st.failed = Verdict("failed", "gave up (start limit)"), True
            return Verdict("dead", "the engine process is gone")

        st.watcher.decide = give_up_during_the_poll
        assert sup.check(st).state == "failed" and st.verdict.state == "failed"
        st.watcher.decide = decide
    finally:
        sup.stop_all()


def test_the_same_diagnosis_twice_stops_the_restart_loop(tmp_path):
    sup = supervisor(tmp_path, fake_model(tmp_path, env={"FAKE_FAIL_AT_START": NO_KV}), restart_limit=5)
    try:
        sup.start_eager()  # waits until ready or given up
        st = sup.engines["m"]
        assert st.failed and st.verdict.state == "failed"
        incidents = sup.incidents()
        assert len(incidents) == 2 and st.policy.total == 1  # one restart, then the same cause: stop
        assert incidents[0]["action"].startswith("restart")
        assert incidents[1]["action"] == "gave up (same cause twice in a row: no-memory-for-cache-blocks)"
        assert "nothing is left for the KV cache" in incidents[1]["cause"]
        assert "same cause twice" in st.verdict.reason and "fix it" in st.verdict.reason
        status = sup.status()["m"]
        assert status["state"] == "failed" and status["last_incident"]["cause"] == incidents[1]["cause"]
    finally:
        sup.stop_all()


def test_phase_progress_resets_the_give_up_clock(tmp_path):
    # each phase takes 3 s against a 6 s budget: 9 s in all, ready (3x a constant would not tell);
    # a start that stops logging progress is given up 6 s after its last phase, with that phase named.
    # Phases are seen at polls: 3 s of slack absorb a poll a loaded machine delays
    phases = "build: 1 (fake),llama_model_load: loading model,llama_kv_cache: size = 1 MiB"
    moving = fake_model(tmp_path, "moving", cold_start_s=6, env={"FAKE_PHASES": phases, "FAKE_PHASE_S": "3"})
    stuck = fake_model(
        tmp_path,
        "stuck",
        cold_start_s=6,
        env={"FAKE_PHASES": "build: 1 (fake),llama_model_load: loading model", "FAKE_STUCK": "1"},
    )
    sup = supervisor(tmp_path, moving, stuck, restart_limit=0)
    try:
        sup.start_eager()
        assert sup.engines["moving"].verdict.state == "idle", sup.incidents()
        times = sup.status()["moving"]["phase_times_s"]  # measured from the log, per phase
        assert list(times)[1:4] == ["importing", "loading weights", "kv cache"], times
        # each phase lasted 3 s or more; seen at polls, its measure is short by at most the longest poll gap
        polls = list(sup.engines["moving"].polls)
        gap = max((b - a for a, b in zip(polls, polls[1:], strict=False)), default=0.0)
        assert all(times[p] >= 3.0 - gap - 0.1 for p in ("importing", "loading weights")), (times, gap)
        assert sup.engines["stuck"].verdict.state == "failed"
        (incident,) = sup.incidents()
        assert incident["model"] == "stuck" and incident["state"] == "dead"
        assert "no start-up progress" in incident["reason"] and "'loading weights'" in incident["reason"]
    finally:
        sup.stop_all()


def test_status_reports_phase_uptime_restarts_and_the_last_incident(tmp_path):
    sup = supervisor(tmp_path, fake_model(tmp_path), restart_limit=3)
    try:
        sup.start_eager()
        sup.run_watch()
        st = sup.engines["m"]
        s = sup.status()["m"]
        assert s["state"] == "idle" and s["phase"] == "ready" and s["managed"] and not s["systemd"]
        assert datetime.fromisoformat(s["started_at"]) <= datetime.fromisoformat(s["ready_at"])
        assert s["uptime_s"] >= 0 and s["restarts"] == 0 and s["last_incident"] is None
        first = st.process.pid
        os.killpg(first, signal.SIGKILL)
        assert wait_for(lambda: st.process.pid != first and st.verdict.state == "idle")
        s = sup.status()["m"]
        assert s["restarts"] == 1 and s["restarts_total"] == 1 and s["incidents"] == 1
        last = s["last_incident"]
        assert last["state"] == "dead" and last["action"].startswith("restart") and last["cause"]
        assert datetime.fromisoformat(last["time"]).tzinfo is not None  # ISO, not epoch seconds
        assert "diagnosis" in last and "metrics" not in last
        # the state file `watch` reads is the same view, written atomically
        assert wait_for(lambda: sup.snapshot()["engines"]["m"]["restarts_total"] == 1)
    finally:
        sup.stop_all()


def test_a_frozen_engine_is_hung_within_the_window_plus_two_polls_then_restarted(tmp_path):
    sup = supervisor(tmp_path, fake_model(tmp_path), window_s=3.0, poll_s=0.5)
    try:
        sup.start_eager()
        sup.run_watch()
        st = sup.engines["m"]
        frozen = st.process.pid
        os.kill(frozen, signal.SIGSTOP)  # the whole process: /health cannot answer
        stopped_at = time.monotonic()
        assert wait_for(lambda: sup.incidents(), timeout_s=60)
        incident = sup.incidents()[0]
        # the kernel says it first (state T, proctree.py); a silent /health without a stopped process (a stuck
        # event loop) is test_watch_stopped_tree's silence test
        assert incident["state"] == "hung" and f"engine process {frozen} " in incident["reason"]
        assert "is stopped (SIGSTOP?)" in incident["reason"]
        assert polls_past_the_window(st, stopped_at, incident) <= 2  # counted in polls, not seconds
        assert wait_for(lambda: st.process.pid != frozen and st.verdict.state == "idle")
        assert httpx.get(f"{st.process.base_url}/health", timeout=5).status_code == 200
    finally:
        sup.stop_all()
