"""A stopped process in the engine's tree is a hang, whatever /health says (fresh-369 draw 4: vLLM's
API server answered /health 200 over a SIGSTOPped EngineCore and `up` said "idle" for ever). With real
processes: a parent and its `sleep` child, the child stopped and resumed; and under the supervisor, the
stand-in engine's child stopped behind a live /health: one hung incident naming it, then a restart."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import httpx
import pytest

from servebox.serve.proctree import descendants, read_stat, stopped_in_trees
from servebox.serve.watch import Snapshot, Watcher
from tests.engine.harness import wait_for
from tests.test_lifecycle import fake_model, supervisor

PARENT = "import subprocess, sys; subprocess.Popen(['sleep', '60']).wait()"


def snap(t, **kw):
    return Snapshot(at=t, **{"alive": True, "health_ok": True, "metrics_ok": True, **kw})


@pytest.fixture
def parent_and_child():
    parent = subprocess.Popen([sys.executable, "-c", PARENT], start_new_session=True)
    try:
        # the child is ready once it has exec'd sleep: until then it is the forked python (a busy CI machine saw it)
        assert wait_for(lambda: _exec_done(parent.pid), 30, 0.05), "no sleep child"
        (child,) = descendants(parent.pid)
        yield parent.pid, child
    finally:
        os.killpg(parent.pid, signal.SIGCONT)
        os.killpg(parent.pid, signal.SIGKILL)
        parent.wait()


def _exec_done(parent: int) -> bool:
    kids = descendants(parent)
    return len(kids) == 1 and (proc := read_stat(kids[0])) is not None and proc.comm == "sleep"


def state(pid: int) -> str | None:
    proc = read_stat(pid)
    return proc.state if proc else None


def test_a_stopped_child_is_hung_after_the_grace_and_healthy_once_resumed(parent_and_child):
    parent, child = parent_and_child
    w = Watcher(window_s=30, stopped_grace_s=2)
    assert stopped_in_trees([parent]) == {}
    assert w.decide(snap(0, stopped=stopped_in_trees([parent]))).state == "idle"
    os.kill(child, signal.SIGSTOP)
    assert wait_for(lambda: state(child) == "T", 30, 0.05)
    stopped = stopped_in_trees([parent])
    assert stopped == {child: "sleep"}  # the child, not its running parent
    assert w.decide(snap(1, stopped=stopped)).state == "idle"  # first sight: within the grace
    v = w.decide(snap(3, stopped=stopped_in_trees([parent])))  # /health 200 all along
    assert v.state == "hung" and f"engine process {child} (sleep) is stopped (SIGSTOP?) for 2 s" in v.reason
    os.kill(child, signal.SIGCONT)
    assert wait_for(lambda: state(child) not in ("T", "t"), 30, 0.05)
    assert w.decide(snap(4, stopped=stopped_in_trees([parent]))).state == "idle"
    os.kill(child, signal.SIGSTOP)  # stopped again later: the grace counts from this sight, not the first
    assert wait_for(lambda: state(child) == "T", 30, 0.05)
    assert w.decide(snap(10, stopped=stopped_in_trees([parent]))).state == "idle"


def test_a_stopped_root_counts_and_a_start_is_not_exempt(parent_and_child):
    parent, _ = parent_and_child
    os.kill(parent, signal.SIGSTOP)
    assert wait_for(lambda: state(parent) == "T", 30, 0.05)
    w = Watcher(stopped_grace_s=1)
    w.decide(snap(0, health_ok=False, stopped=stopped_in_trees([parent])))
    assert w.decide(snap(1, health_ok=False, stopped=stopped_in_trees([parent]))).state == "hung"
    w.reset()  # a new start forgets the old start's stopped processes
    assert w.decide(snap(2, health_ok=False, stopped=stopped_in_trees([parent]))).state == "starting"


def test_silence_without_a_stopped_process_is_still_hung_after_the_window():
    # a stuck event loop (no process stopped): /health connects and never answers
    w = Watcher(window_s=10)
    assert w.decide(snap(0)).state == "idle"
    assert w.decide(snap(5, health_ok=False, health_timed_out=True)).state == "degraded"
    v = w.decide(snap(11, health_ok=False, health_timed_out=True))
    assert v.state == "hung" and "no answer from /health for 11 s" in v.reason


def test_the_supervisor_restarts_an_engine_whose_child_is_stopped_behind_a_live_health(tmp_path):
    sup = supervisor(tmp_path, fake_model(tmp_path, env={"FAKE_CHILD": "1"}), window_s=60.0, poll_s=0.3)
    try:
        sup.start_eager()
        sup.run_watch()
        st = sup.engines["m"]
        first = st.process.pid
        assert wait_for(lambda: descendants(first), 30, 0.05)
        child = descendants(first)[0]
        os.kill(child, signal.SIGSTOP)
        stopped_at = time.monotonic()
        assert httpx.get(f"{st.process.base_url}/health", timeout=10).status_code == 200
        assert wait_for(sup.incidents, 60, 0.1), sup.status()
        incident = sup.incidents()[0]
        assert incident["state"] == "hung" and incident["pid"] == first
        assert f"engine process {child} (sleep) is stopped" in incident["reason"]
        assert incident["metrics"]["health_ok"] and incident["action"].startswith("restart")
        # far inside the 60 s window: the poll that first saw it, the next (the grace is one poll), one spare
        assert len([t for t in st.polls if stopped_at <= t <= incident["metrics"]["at"]]) <= 3
        assert wait_for(lambda: st.process.pid != first and st.verdict.state == "idle", 60)
        assert not any(p == child for p in descendants(st.process.pid))
    finally:
        sup.stop_all()
