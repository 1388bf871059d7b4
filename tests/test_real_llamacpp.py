"""Against real llama.cpp (llama-server built from source by tools/llama-cpp.sh) serving a tiny GGUF:
servebox inspects the file and supervises the server as a managed engine behind the router; a SIGKILL
under traffic is one incident (diagnosed) and one restart, and a frozen process (SIGSTOP of the whole
server) is declared hung within the window plus two polls, then restarted. Tokens are counted from
the server's `usage`, never from SSE chunks. Marked `engine`; skipped, saying why, where llama-server
is not built."""

from __future__ import annotations

import json
import os
import signal
import threading
import time

import httpx
import pytest

from servebox.checkpoint.facts import inspect_checkpoint
from tests.conftest import llama_server
from tests.engine.harness import Router, llama_spec, supervised, wait_for
from tests.test_lifecycle import polls_past_the_window

pytestmark = pytest.mark.engine


@pytest.fixture
def binary():
    path = llama_server()
    if path is None:
        pytest.skip("llama-server not built (run tools/llama-cpp.sh, or set SERVEBOX_LLAMA_SERVER)")
    return path


@pytest.fixture
def llama(binary, tiny_gguf, tmp_path):
    """A supervisor running the real llama-server, watched (poll 0.5 s, window 5 s); stopped in `finally`."""
    spec = llama_spec(binary, tiny_gguf, {"ctx-size": 512, "threads": 1, "metrics": True})
    with supervised(spec, tmp_path / "state", poll_s=0.5, window_s=5, backoff_s=0.5) as sup:
        yield sup


def body(stream=True, max_tokens=8):
    return {
        "model": "tiny-gguf",
        "messages": [{"role": "user", "content": "hello"}],
        "max_tokens": max_tokens,
        "ignore_eos": True,
        "stream": stream,
        **({"stream_options": {"include_usage": True}} if stream else {}),
    }


def back(st, old_pid, timeout_s=180):
    return bool(wait_for(lambda: st.process.pid != old_pid and st.verdict.state == "idle", timeout_s))


def test_llama_server_behind_the_router_and_a_sigkill_under_traffic(llama, tiny_gguf):
    facts = inspect_checkpoint(str(tiny_gguf))
    assert facts.gguf.architecture == "llama" and facts.gguf.head_count_kv == 2
    sup, st = llama, llama.engines["tiny-gguf"]
    with Router(sup) as router:
        usage = None
        with httpx.stream("POST", f"{router.url}/v1/chat/completions", json=body(), timeout=60) as r:
            assert r.status_code == 200
            for line in r.iter_lines():
                if line.startswith("data:") and line != "data: [DONE]":
                    usage = json.loads(line[5:]).get("usage") or usage
        assert usage and usage["completion_tokens"] == 8  # from the server's count, not the chunks

        stop = threading.Event()
        codes: list[int] = []

        def traffic():  # requests keep coming through the kill and the restart
            while not stop.is_set():
                try:
                    r = httpx.post(f"{router.url}/v1/chat/completions", json=body(False, 64), timeout=60)
                    codes.append(r.status_code)
                except httpx.HTTPError:
                    codes.append(0)

        workers = [threading.Thread(target=traffic, daemon=True) for _ in range(3)]
        for w in workers:
            w.start()
        try:
            assert wait_for(lambda: codes.count(200) >= 3, 120, 0.1), codes  # traffic flows before the kill
            first_pid = st.process.pid
            os.killpg(first_pid, signal.SIGKILL)
            assert back(st, first_pid), (st.verdict, sup.incidents())
            served_after = len(codes)
            wait_for(lambda: codes[served_after:].count(200) >= 3, 120, 0.1)
        finally:
            stop.set()
            for w in workers:
                w.join(timeout=60)
        incidents = sup.incidents()
        assert len(incidents) == 1, incidents  # one death: one incident, whoever noticed it first
        incident = incidents[0]
        assert incident["state"] == "dead" and incident["pid"] == first_pid
        assert incident["action"].startswith("restart") and incident["diagnosis"]["source"]
        assert sup.status()["tiny-gguf"]["restarts_total"] == 1
        assert codes[served_after:].count(200) >= 3  # and traffic flows again


def test_a_frozen_llama_server_is_hung_within_the_window_plus_two_polls(llama):
    sup, st = llama, llama.engines["tiny-gguf"]
    frozen = st.process.pid
    os.kill(frozen, signal.SIGSTOP)
    stopped_at = time.monotonic()
    wait_for(sup.incidents, 180, 0.1)
    declared = time.monotonic() - stopped_at
    incidents = sup.incidents()
    assert incidents and incidents[0]["state"] == "hung", incidents
    assert (
        f"engine process {frozen} " in incidents[0]["reason"]
    )  # stopped (state T): the kernel says it first
    print(
        f"llama-server frozen: hung declared {declared:.1f} s after SIGSTOP (measured; window {st.watcher.window_s} s)"
    )
    assert polls_past_the_window(st, stopped_at, incidents[0]) <= 2  # in polls: no wall-clock bound
    assert back(st, frozen)
    r = httpx.post(f"{st.process.base_url}/v1/chat/completions", json=body(False), timeout=60)
    assert r.status_code == 200 and r.json()["usage"]["completion_tokens"] == 8
