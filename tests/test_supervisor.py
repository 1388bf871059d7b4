"""The supervisor's process handling with llama.cpp-style managed engines (a stand-in server, since
llama.cpp is not built here): on-demand start through the router, exclusive-group swap, TTL stop;
and `servebox up` / `servebox down` as real processes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx

from servebox.deploy.spec import Spec
from servebox.serve.supervisor import Supervisor
from tests.engine.harness import Router, http_ok, wait_for
from tests.replay_server import ReplayServer, free_port

FAKE = Path(__file__).resolve().parent / "engine" / "fake_llama_server.py"


def fake_binary(tmp_path: Path) -> str:
    script = tmp_path / "llama-server"
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{FAKE}" "$@"\n')
    script.chmod(0o755)
    return str(script)


def ask(router_url: str, model: str) -> httpx.Response:
    return httpx.post(
        f"{router_url}/v1/chat/completions",
        timeout=60,
        json={"model": model, "messages": [{"role": "user", "content": "who?"}], "stream": False},
    )


def test_on_demand_start_group_swap_and_ttl(tmp_path):
    binary = fake_binary(tmp_path)
    models = [
        {
            "name": name,
            "checkpoint": f"/models/{name}.gguf",
            "engine": "llama.cpp",
            "binary": binary,
            "port": free_port(),
            "group": "gpu",
            "ttl_s": 3,
            "cold_start_s": 20,
        }
        for name in ("alpha", "beta")
    ]
    sup = Supervisor(Spec.model_validate({"models": models}), tmp_path / "state", poll_s=0.5, window_s=5)
    try:
        sup.start_eager()  # both have a TTL: nothing starts before a request
        assert not any(st.process.alive() for st in sup.engines.values())
        sup.run_watch()
        with Router(sup) as router:
            # who answered proves who ran (an alive() check right after could race the 3 s TTL on a
            # loaded machine); the swapped-out member must be gone whatever the timing
            r = ask(router.url, "alpha")
            assert r.status_code == 200 and "alpha" in r.text and not sup.engines["beta"].process.alive()
            r = ask(router.url, "beta")  # same exclusive group: alpha is swapped out
            assert r.status_code == 200 and "beta" in r.text
            assert not sup.engines["alpha"].process.alive()
            assert wait_for(lambda: not sup.engines["beta"].process.alive(), 90, 0.3)
            assert (
                not sup.engines["beta"].process.alive() and sup.engines["beta"].verdict.state == "stopped"
            )  # ttl
            assert ask(router.url, "beta").status_code == 200  # and it comes back on the next request
    finally:
        sup.stop_all()


def test_dead_engine_is_restarted_then_given_up(tmp_path):
    binary = fake_binary(tmp_path)
    model = {
        "name": "gamma",
        "checkpoint": "/m.gguf",
        "engine": "llama.cpp",
        "binary": binary,
        "port": free_port(),
        "cold_start_s": 20,
    }
    sup = Supervisor(
        Spec.model_validate({"models": [model]}),
        tmp_path / "state",
        poll_s=0.3,
        backoff_s=0.2,
        restart_limit=2,
    )
    try:
        sup.start_eager()
        sup.run_watch()
        st = sup.engines["gamma"]
        for _ in range(3):
            assert wait_for(lambda: (st.process.alive() and st.verdict.state == "idle") or st.failed, 120)
            if st.failed:
                break
            killed = st.process.pid
            os.killpg(killed, 9)  # SIGKILL: a death
            # noticed: restarted or given up
            assert wait_for(lambda k=killed: st.process.pid != k or st.failed, 120)
        assert wait_for(lambda: st.failed, 120)
        incidents = sup.incidents()
        assert [i["state"] for i in incidents][:2] == ["dead", "dead"]
        assert incidents[0]["action"].startswith("restart") and incidents[-1]["action"].startswith(
            "gave up (start limit"
        )
        assert sup.engines["gamma"].verdict.state == "failed"
    finally:
        sup.stop_all()


def test_up_and_down_as_processes(tmp_path):
    with ReplayServer({"": ("", "Answer: up", "stop")}) as upstream:
        port = free_port()
        spec = tmp_path / "spec.toml"
        spec.write_text(
            f'[router]\nlisten = "127.0.0.1:{port}"\n\n[[models]]\nname = "m"\ncheckpoint = "/x"\nport = {upstream.port}\n'
            "run_as_unit = true\n"
        )
        state = tmp_path / "state"
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "servebox.cli",
                "up",
                str(spec),
                "--state-dir",
                str(state),
                "--poll-s",
                "0.5",
            ],
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            assert http_ok(f"http://127.0.0.1:{port}/v1/models", 180, proc), (
                proc.stderr and proc.stderr.read()
            )
            assert ask(f"http://127.0.0.1:{port}", "m").status_code == 200
            assert (state / "up.json").exists()
            down = subprocess.run(
                [sys.executable, "-m", "servebox.cli", "down", "--state-dir", str(state)],
                capture_output=True,
                text=True,
                timeout=60,
            )
            assert down.returncode == 0, down.stderr
            assert proc.wait(timeout=30) is not None and not (state / "up.json").exists()
        finally:
            if proc.poll() is None:
                proc.kill()
            proc.wait()
