"""The router hardened (issue 14, items 4 and 6), over real HTTP on loopback: body limit, JSON errors,
keys, credentials, the fresh-connection retry, loading/hung engines refused with Retry-After, error events
instead of a bare [DONE], IPv6, and /tokenize and per-model /metrics proxied. Upstreams are the replaying
server and tests/router_upstreams.py (behaviours a real engine cannot show on demand; the real
llama-server shows the mid-stream death in tests/test_status_page.py)."""

from __future__ import annotations

import gc
import json
import socket
import sys
import time

import httpx
import pytest

from servebox.deploy.spec import Spec
from servebox.serve.router import parse_listen
from servebox.serve.supervisor import Supervisor
from servebox.serve.watch import Verdict
from tests.replay_server import ReplayServer, free_port
from tests.router_upstreams import RawUpstream
from tests.test_watch_router import Router, passthrough_spec


def passthrough(port: int, tmp_path, state: str = "idle") -> Supervisor:
    sup = Supervisor(passthrough_spec(port), tmp_path)
    sup.engines["m"].verdict = Verdict(state, "test")
    return sup


def chat(content: str = "ok", stream: bool = False, **extra) -> dict:
    return {"model": "m", "messages": [{"role": "user", "content": content}], "stream": stream, **extra}


def openai_error(r: httpx.Response, status: int) -> dict:
    assert r.status_code == status, r.text
    err = r.json()["error"]
    assert {"message", "type", "code"} <= set(err) and err["message"]
    return err


def sse(r: httpx.Response) -> list[str]:
    return [line[5:].strip() for line in r.iter_lines() if line.startswith("data:")]


MALFORMED = [
    b"",  # empty
    b"{not json",  # syntax
    b"[1, 2]",  # not an object
    b'"model"',  # a string
    b"\xff\xfe{}",  # not UTF-8
    b"[" * 100_000 + b"]" * 100_000,  # nested beyond the parser's recursion limit
    b'{"model": ["m"]}',  # model not a string (was an unhashable-key 500)
    b'{"model": {"a": 1}}',
    b'{"messages": []}',  # no model
    b'{"model": "m", "n": ' + b"9" * 5000 + b"}",  # an integer beyond Python's digit limit
]


def test_malformed_bodies_are_400_in_openai_shape(tmp_path):
    with ReplayServer() as upstream, Router(passthrough(upstream.port, tmp_path)) as router:
        for body in MALFORMED:
            r = httpx.post(
                f"{router.url}/v1/chat/completions",
                content=body,
                headers={"content-type": "application/json"},
            )
            err = openai_error(r, 400)
            assert err["type"] == "invalid_request_error", body[:40]
        assert openai_error(httpx.get(f"{router.url}/v1/chat/completions"), 405)["code"] == "bad_method"
        assert openai_error(httpx.get(f"{router.url}/nowhere"), 404)["code"] == "not_found"


def test_body_limit_413_while_reading(tmp_path):
    with (
        ReplayServer() as upstream,
        Router(passthrough(upstream.port, tmp_path), max_body_bytes=64 * 1024) as router,
    ):
        ok = httpx.post(f"{router.url}/v1/chat/completions", json=chat("x" * 1000))
        assert ok.status_code == 200
        big = json.dumps(chat("x" * 200_000)).encode()
        assert openai_error(httpx.post(f"{router.url}/v1/chat/completions", content=big), 413)["code"] == (
            "request_too_large"
        )

        # no content-length (chunked): the limit is enforced as the bytes arrive, before the body ends
        def endless():
            yield b'{"model": "m", "messages": [{"role": "user", "content": "'
            for _ in range(10_000):  # would be 640 MiB: the router answers long before
                yield b"x" * 65536

        r = httpx.post(f"{router.url}/v1/chat/completions", content=endless(), timeout=60)
        assert openai_error(r, 413)["code"] == "request_too_large"
        assert upstream.requests and all(len(json.dumps(b)) < 64 * 1024 for b in upstream.requests)
        # a model name is echoed back cut short, whatever its size
        r = httpx.post(f"{router.url}/v1/chat/completions", json={"model": "z" * 60_000, "messages": []})
        assert openai_error(r, 404)["code"] == "model_not_found" and len(r.content) < 1000


def test_keys_cover_everything_but_health_and_credentials_stay_home(tmp_path):
    with RawUpstream() as upstream, Router(passthrough(upstream.port, tmp_path), keys=["secret"]) as router:
        health = httpx.get(f"{router.url}/health")
        assert health.status_code == 200 and health.json() == {"status": "ok"}  # nothing private
        for path in (
            "/servebox/status",
            "/metrics",
            "/v1/models",
            "/servebox/requests",
            "/servebox/engines/m/log",
        ):
            assert openai_error(httpx.get(f"{router.url}{path}"), 401)["code"] == "invalid_api_key", path
            assert httpx.get(f"{router.url}{path}", headers={"x-api-key": "wrong"}).status_code == 401
        assert httpx.get(f"{router.url}/ui").status_code == 401  # the login form, no data
        assert httpx.post(f"{router.url}/servebox/engines/m/stop").status_code == 401
        status = httpx.get(f"{router.url}/servebox/status", headers={"Authorization": "Bearer secret"})
        assert status.status_code == 200 and "m" in status.json()["engines"]
        for creds in ({"Authorization": "Bearer secret"}, {"x-api-key": "secret"}):
            r = httpx.post(
                f"{router.url}/v1/chat/completions", json=chat(), headers={**creds, "cookie": "a=b"}
            )
            assert r.status_code == 200
        assert len(upstream.headers) == 2
        for seen in upstream.headers:
            assert not {"authorization", "x-api-key", "cookie"} & set(seen), seen


def test_page_login_sets_a_cookie_and_buttons_need_the_ui_header(tmp_path):
    with RawUpstream() as upstream, Router(passthrough(upstream.port, tmp_path), keys=["secret"]) as router:
        with httpx.Client(base_url=router.url) as client:
            assert client.post("/ui/login", data={"key": "nope"}).status_code == 401
            r = client.post("/ui/login", data={"key": "secret"})
            assert r.status_code == 303 and "servebox_ui" in client.cookies
            assert client.get("/ui").status_code == 200 and "servebox" in client.get("/ui").text
            assert client.get("/servebox/status").status_code == 200
            # a cross-site form would carry the cookie but cannot add the header
            assert client.post("/servebox/engines/m/stop").status_code == 401
            r = client.post("/servebox/engines/m/stop", headers={"x-servebox-ui": "1"})
            assert openai_error(r, 409)["code"] == "not_managed"  # a passthrough upstream has no process


def test_a_closed_keepalive_connection_is_retried_once_on_a_fresh_one(tmp_path):
    with RawUpstream(close_second=True) as upstream, Router(passthrough(upstream.port, tmp_path)) as router:
        # a connection's second request is met by a close: each reuse of a pooled connection fails once
        for _ in range(6):
            assert httpx.post(f"{router.url}/v1/chat/completions", json=chat()).status_code == 200
        metrics = httpx.get(f"{router.url}/metrics").text
        retries = float(metrics.split("servebox_router_upstream_retries ")[-1].split()[0])
        assert retries >= 2 and len(upstream.headers) == 6


def test_a_dying_stream_ends_with_an_error_event_and_no_done(tmp_path):
    with RawUpstream() as upstream, Router(passthrough(upstream.port, tmp_path)) as router:
        url = f"{router.url}/v1/chat/completions"
        with httpx.stream("POST", url, json=chat("ok", stream=True)) as r:
            events = sse(r)
        assert events[-1] == "[DONE]" and '"finish_reason": "stop"' in events[-2]
        assert not any('"usage"' in e for e in events)  # asked for by the router, not by this client
        with httpx.stream(
            "POST", url, json=chat("ok", stream=True, stream_options={"include_usage": True})
        ) as r:
            assert any('"usage"' in e for e in sse(r))
        for mode, code in (("drop", "engine_died"), ("nofinish", "stream_incomplete")):
            with httpx.stream("POST", url, json=chat(mode, stream=True)) as r:
                events = sse(r)
            assert "[DONE]" not in events, mode
            assert json.loads(events[-1])["error"]["code"] == code
            assert json.loads(events[0])["choices"][0]["delta"]["content"] == "Hel"  # what came is kept
        outcomes = [q["outcome"] for q in httpx.get(f"{router.url}/servebox/requests").json()["requests"]]
        assert outcomes == ["engine died", "engine died", "ok", "ok"]


def test_loading_and_down_engines_are_refused_with_retry_after(tmp_path):
    # a stand-in engine that logs a loading line and never listens (a real load takes minutes)
    binary = tmp_path / "llama-server"
    binary.write_text("#!/bin/sh\necho 'llama_model_load: loading model tensors'\nexec sleep 120\n")
    binary.chmod(0o755)
    spec = Spec.model_validate(
        {
            "models": [
                {
                    "name": "m",
                    "checkpoint": "/x.gguf",
                    "engine": "llama.cpp",
                    "binary": str(binary),
                    "port": free_port(),
                }
            ]
        }
    )
    sup = Supervisor(spec, tmp_path / "state")
    st = sup.engines["m"]
    try:
        sup.start_eager(wait=False)
        assert st.process.alive() and st.verdict.state == "starting"
        deadline = time.monotonic() + 10
        while "llama_model_load" not in st.process.log_tail(5) and time.monotonic() < deadline:
            time.sleep(0.05)
        with Router(sup) as router:
            r = httpx.post(f"{router.url}/v1/chat/completions", json=chat())
            err = openai_error(r, 503)
            assert err["code"] == "model_loading" and err["phase"] == "loading weights"
            assert int(r.headers["retry-after"]) >= 1
            st.verdict = Verdict("hung", "no tokens for 40 s")
            err = openai_error(httpx.post(f"{router.url}/v1/chat/completions", json=chat()), 503)
            assert err["code"] == "engine_down" and "hung" in err["message"]
    finally:
        sup.stop_all()


def test_ipv6_listen(tmp_path):
    if not socket.has_ipv6:
        pytest.skip("no IPv6 on this machine")
    assert parse_listen("[::1]:8080") == ("::1", 8080) and parse_listen("0.0.0.0:80") == ("0.0.0.0", 80)
    with ReplayServer() as upstream, Router(passthrough(upstream.port, tmp_path), host="::1") as router:
        assert router.url.startswith("http://[::1]:")
        assert httpx.post(f"{router.url}/v1/chat/completions", json=chat()).status_code == 200


def test_tokenize_and_engine_metrics_through_the_router(tmp_path):
    with ReplayServer() as upstream, Router(passthrough(upstream.port, tmp_path)) as router:
        body = {"model": "m", "prompt": "one two three"}
        direct = httpx.post(f"http://127.0.0.1:{upstream.port}/tokenize", json=body).json()
        assert httpx.post(f"{router.url}/tokenize", json=body).json() == direct
        assert httpx.post(f"{router.url}/tokenize", json={"prompt": "a b"}).json()["count"] == 2  # one model
        for path in ("/metrics?model=m", "/servebox/engines/m/metrics"):
            text = httpx.get(f"{router.url}{path}").text
            assert "vllm:num_requests_running" in text and "servebox_engine_state" not in text
        assert "servebox_engine_state" in httpx.get(f"{router.url}/metrics").text
        assert openai_error(httpx.get(f"{router.url}/metrics?model=zz"), 404)["code"] == "model_not_found"


def test_stream_guard_reassembles_events_across_chunks():
    from servebox.serve.router.relay import StreamGuard

    finish = b'data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\r\n\r\n'
    usage = b'data: {"choices":[],"usage":{"prompt_tokens":4,"completion_tokens":9}}\r\n\r\n'
    stream = (
        b'data: {"choices":[{"index":0,"delta":{"content":"a"}}]}\r\n\r\n'
        + finish
        + usage
        + b"data: [DONE]\r\n\r\n"
    )
    guard = StreamGuard(hide_usage=True)
    out = b"".join(guard.feed(stream[i : i + 1]) for i in range(len(stream)))  # one byte at a time
    tail, outcome = guard.end(None)
    assert out.endswith(finish) and b"usage" not in out and b"[DONE]" not in out
    assert tail == b"data: [DONE]\n\n" and outcome == "ok" and guard.usage["completion_tokens"] == 9


def test_raw_upstream_ends_its_idle_keepalive_connections(monkeypatch):
    """The test upstream closes connections still open when it stops, so no coroutine of it is collected
    unfinished later (that showed as pytest's unraisable-exception warning in a whole-suite run)."""
    unraisable = []
    monkeypatch.setattr(sys, "unraisablehook", unraisable.append)
    with RawUpstream() as upstream:
        client = socket.create_connection(("127.0.0.1", upstream.port))
        deadline = time.monotonic() + 10
        while upstream.connections == 0 and time.monotonic() < deadline:
            time.sleep(0.01)
    client.close()
    upstream = None
    gc.collect()
    assert unraisable == []
