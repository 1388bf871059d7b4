"""Against real llama.cpp (llama-server built from source by tools/llama-cpp.sh) serving a tiny GGUF:
servebox inspects the file, supervises the server as a managed engine behind the router, and restarts
it after a SIGKILL. Marked `engine`; skipped, saying why, where llama-server is not built."""

from __future__ import annotations

import os
import signal
import time

import httpx
import pytest

from servebox.checkpoint.facts import inspect_checkpoint
from servebox.deploy.spec import Spec
from servebox.serve.supervisor import Supervisor
from tests.conftest import llama_server
from tests.replay_server import free_port
from tests.test_watch_router import Router

pytestmark = pytest.mark.engine


@pytest.fixture
def binary():
    path = llama_server()
    if path is None:
        pytest.skip("llama-server not built (run tools/llama-cpp.sh, or set SERVEBOX_LLAMA_SERVER)")
    return path


def test_llama_server_behind_the_router_and_restarted(binary, tiny_gguf, tmp_path):
    facts = inspect_checkpoint(str(tiny_gguf))
    assert facts.gguf.architecture == "llama" and facts.gguf.head_count_kv == 2
    spec = Spec.model_validate(
        {
            "models": [
                {
                    "name": "tiny-gguf",
                    "checkpoint": str(tiny_gguf),
                    "engine": "llama.cpp",
                    "binary": binary,
                    "port": free_port(),
                    "cold_start_s": 60,
                    "flags": {"ctx-size": 512, "threads": 2, "metrics": True},
                }
            ]
        }
    )
    sup = Supervisor(spec, tmp_path / "state", poll_s=0.5, window_s=5, backoff_s=0.5)
    try:
        sup.start_eager()
        st = sup.engines["tiny-gguf"]
        assert st.verdict.state == "idle", st.process.log_tail(30)
        sup.run_watch()
        with Router(sup) as router:
            body = {
                "model": "tiny-gguf",
                "messages": [{"role": "user", "content": "hello"}],
                "max_tokens": 8,
                "stream": True,
            }
            chunks = 0
            with httpx.stream("POST", f"{router.url}/v1/chat/completions", json=body, timeout=60) as r:
                assert r.status_code == 200
                for line in r.iter_lines():
                    chunks += line.startswith("data:")
            assert chunks >= 2
            first_pid = st.process.pid
            os.killpg(first_pid, signal.SIGKILL)
            deadline = time.time() + 60
            while time.time() < deadline and not (st.process.pid != first_pid and st.verdict.state == "idle"):
                time.sleep(0.3)
            assert st.process.pid != first_pid and st.verdict.state == "idle", sup.incidents()
            assert sup.incidents()[0]["state"] == "dead"
            r = httpx.post(f"{router.url}/v1/chat/completions", json={**body, "stream": False}, timeout=60)
            assert r.status_code == 200
    finally:
        sup.stop_all()
