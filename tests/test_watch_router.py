"""The watcher's verdicts on synthetic snapshots, and the router against a replaying upstream:
routing, streaming without buffering, 404/503/401, disconnect cancelling the upstream, /metrics."""

from __future__ import annotations

import asyncio
import threading

import httpx

from servebox.deploy.spec import Spec
from servebox.serve.supervisor import Supervisor
from servebox.serve.watch import Snapshot, Verdict, Watcher, parse_metrics
from tests.engine.harness import Router, wait_for
from tests.replay_server import ReplayServer

__all__ = ["Router"]  # other test files import the router from here; it lives in tests/engine/harness.py

VLLM_METRICS = """# TYPE vllm:num_requests_running gauge
vllm:num_requests_running{engine="0",model_name="m"} 2.0
# TYPE vllm:generation_tokens counter
vllm:generation_tokens_total{engine="0",model_name="m"} 3529.0
vllm:generation_tokens_created{engine="0",model_name="m"} 1.7e9
# TYPE vllm:request_success counter
vllm:request_success_total{engine="0",finished_reason="stop",model_name="m"} 5.0
vllm:request_success_total{engine="0",finished_reason="length",model_name="m"} 2.0
# TYPE vllm:kv_cache_usage_perc gauge
vllm:kv_cache_usage_perc{engine="0",model_name="m"} 0.41
"""


def test_parse_vllm_metrics():
    m = parse_metrics(VLLM_METRICS)
    assert m == {"running": 2.0, "generation_tokens": 3529.0, "success": 7.0, "kv_usage": 0.41}


def snap(t, **kw):
    base = {"alive": True, "health_ok": True, "metrics_ok": True}
    return Snapshot(at=t, **{**base, **kw})


def test_hang_is_declared_after_the_window_not_before():
    w = Watcher(window_s=10)
    assert w.decide(snap(0, running=2, generation_tokens=100)).state == "busy"
    assert w.decide(snap(5, running=2, generation_tokens=3529)).state == "busy"  # progress
    assert w.decide(snap(10, running=2, generation_tokens=3529)).state == "busy"
    assert w.decide(snap(14, running=2, generation_tokens=3529)).state == "busy"  # 9 s frozen < window
    v = w.decide(snap(16, running=2, generation_tokens=3529))  # 11 s frozen: the digest's hang
    assert v.state == "hung" and "2 request(s) in flight" in v.reason
    assert (
        w.decide(snap(17, running=0, generation_tokens=3529)).state == "idle"
    )  # nothing in flight is not a hang


def test_dead_and_degraded_and_starting():
    w = Watcher(window_s=10, cold_start_s=100)
    assert w.decide(snap(0, health_ok=False)).state == "starting"
    assert w.decide(snap(1)).state == "idle"
    assert w.decide(snap(2, health_ok=False)).state == "degraded"
    w.decide(snap(3, health_ok=False))
    assert w.decide(snap(4, health_ok=False)).state == "dead"
    assert Watcher().decide(snap(0, alive=False)).state == "dead"
    assert (
        Watcher().decide(snap(0), log_tail="vllm.v1.engine.exceptions.EngineDeadError: ...").state == "dead"
    )
    w2 = Watcher(window_s=10)
    w2.decide(snap(0, generation_tokens=500, success=9))
    assert w2.decide(snap(1, generation_tokens=3, success=0)).state == "dead"  # counters reset underneath
    w3 = Watcher(window_s=10)
    w3.decide(snap(0, running=4, preemptions=0, generation_tokens=1))
    assert w3.decide(snap(2, running=4, preemptions=3, generation_tokens=9)).state == "degraded"
    assert Watcher().decide(snap(0, probe_ok=False)).state == "hung"


def passthrough_spec(port: int, name: str = "m") -> Spec:
    return Spec.model_validate(
        {"models": [{"name": name, "checkpoint": "/x", "port": port, "run_as_unit": True}]}
    )


def test_router_routes_streams_and_refuses(tmp_path):
    # no buffering, proven by causality rather than by timing arrivals (a loaded machine bunches them):
    # the upstream sends one piece and holds the rest until the client has seen that piece
    gate = threading.Event()
    with ReplayServer(
        {"hi": ("thinking", "hello there, this streams in pieces", "stop")}, gate=gate
    ) as upstream:
        sup = Supervisor(passthrough_spec(upstream.port), tmp_path)
        sup.engines["m"].verdict = Verdict("idle", "test")
        with Router(sup) as router:
            models = httpx.get(f"{router.url}/v1/models").json()
            assert [m["id"] for m in models["data"]] == ["m"]
            events = []
            body = {"model": "m", "messages": [{"role": "user", "content": "hi"}], "stream": True}
            with httpx.stream("POST", f"{router.url}/v1/chat/completions", json=body, timeout=300) as r:
                assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
                for line in r.iter_lines():
                    if line.startswith("data:"):
                        events.append(line)
                        gate.set()  # the first piece reached the client while the upstream held the rest
            assert not upstream.gate_timed_out, "the router held the first piece until the upstream ended"
            assert len(events) > 5 and events[-1] == "data: [DONE]"
            unknown = httpx.post(f"{router.url}/v1/chat/completions", json={"model": "nope", "messages": []})
            assert unknown.status_code == 404 and unknown.json()["error"]["models"] == ["m"]
            sup.engines["m"].verdict = Verdict("hung", "no tokens for 40 s")
            down = httpx.post(f"{router.url}/v1/chat/completions", json=body)
            assert down.status_code == 503 and "hung" in down.json()["error"]["message"]
            metrics = httpx.get(f"{router.url}/metrics").text
            assert 'servebox_engine_state{model="m",state="hung"} 1.0' in metrics
            assert httpx.get(f"{router.url}/health").status_code == 503


def test_client_disconnect_cancels_the_upstream(tmp_path):
    with ReplayServer({"long": ("", "x" * 4000, "stop")}, token_delay_s=0.02, chunk_chars=4) as upstream:
        sup = Supervisor(passthrough_spec(upstream.port), tmp_path)
        sup.engines["m"].verdict = Verdict("idle", "test")
        with Router(sup) as router:

            async def partial():
                async with httpx.AsyncClient() as client:
                    async with client.stream(
                        "POST",
                        f"{router.url}/v1/chat/completions",
                        timeout=30,
                        json={
                            "model": "m",
                            "messages": [{"role": "user", "content": "long"}],
                            "stream": True,
                        },
                    ) as r:
                        async for _ in r.aiter_lines():
                            if upstream.running:
                                break

            asyncio.run(partial())
            # the upstream generator is closed long before its 1000 chunks (20 s of them) are out
            assert wait_for(lambda: upstream.running == 0, 15, 0.05), upstream.running


def test_api_keys(tmp_path):
    with ReplayServer() as upstream:
        sup = Supervisor(passthrough_spec(upstream.port), tmp_path)
        sup.engines["m"].verdict = Verdict("idle", "test")
        with Router(sup, keys=["secret"]) as router:
            body = {"model": "m", "messages": [{"role": "user", "content": "x"}]}
            assert httpx.post(f"{router.url}/v1/chat/completions", json=body).status_code == 401
            ok = httpx.post(
                f"{router.url}/v1/chat/completions", json=body, headers={"Authorization": "Bearer secret"}
            )
            assert ok.status_code == 200


def test_requests_open_in_the_router_count_as_in_flight():
    # frozen before the engine core scheduled them: the engine's gauges say 0, the router holds 3 open
    w = Watcher(window_s=5)
    assert w.decide(snap(0, router_inflight=3, router_relayed=10)).state == "busy"
    assert w.decide(snap(3, router_inflight=3, router_relayed=10)).state == "busy"
    assert w.decide(snap(6, router_inflight=3, router_relayed=10)).state == "hung"
    w2 = Watcher(window_s=5)
    for t in range(0, 12, 2):  # chunks keep flowing: busy, never hung
        assert w2.decide(snap(t, router_inflight=1, router_relayed=t * 10)).state == "busy"
