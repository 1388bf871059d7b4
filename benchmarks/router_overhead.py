"""The router's overhead, measured against the same upstream in one run (target: under 2 ms added at
the median, and at least 95% of direct streaming throughput).

Two upstream speeds: 1 ms per streamed token (faster than any engine these machines run), and no
delay at all, which measures the relay's own ceiling rather than anything an engine would ask of it.
The upstream is the replaying OpenAI-compatible server of the tests (starlette/uvicorn) in its own
process; the router is the real `servebox up` with that upstream as a passthrough model, in its own
process; the client runs here. Each measurement alternates direct and routed requests so both see
the same machine state.
Run: python benchmarks/router_overhead.py [requests]
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
from tests.replay_server import free_port  # noqa: E402

UPSTREAM = """
import sys, time
sys.path.insert(0, {repo!r})
from tests.replay_server import ReplayServer
server = ReplayServer({{"long": ("", "x" * 20000, "stop")}}, chunk_chars=4, token_delay_s={delay})
server.port = {port}; server.url = f"http://127.0.0.1:{port}/v1"
import uvicorn
server.server.config.port = {port}
server.server.run()
"""


def start_up(spec: Path, state_dir: str) -> subprocess.Popen:
    """`servebox up SPEC` as its own process (the router and its engines), quiet on stderr."""
    return subprocess.Popen(
        [sys.executable, "-m", "servebox.cli", "up", str(spec), "--state-dir", state_dir, "--poll-s", "5"],
        stderr=subprocess.DEVNULL,
        env={**os.environ},
    )


def wait_http(url: str, timeout_s: float = 60) -> None:
    deadline = time.time() + timeout_s
    while time.time() < deadline:
        try:
            if httpx.get(url, timeout=2).status_code < 500:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"{url} did not come up")


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * (len(ordered) - 1)))]


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 400
    for delay in (
        0.001,
        0.0,
    ):  # 1,000 tokens/s (faster than any engine here), then no delay at all (the relay's own ceiling)
        measure(n, delay)


def measure(n: int, delay: float) -> None:
    up_port, router_port = free_port(), free_port()
    with tempfile.TemporaryDirectory() as tmp:
        spec = Path(tmp) / "spec.toml"
        spec.write_text(
            f'[router]\nlisten = "127.0.0.1:{router_port}"\n\n[[models]]\nname = "m"\ncheckpoint = "/none"\n'
            f"port = {up_port}\nrun_as_unit = true\n"
        )
        upstream = subprocess.Popen(
            [sys.executable, "-c", UPSTREAM.format(repo=str(REPO), port=up_port, delay=delay)]
        )
        router = start_up(spec, f"{tmp}/state")
        try:
            wait_http(f"http://127.0.0.1:{up_port}/health")
            wait_http(f"http://127.0.0.1:{router_port}/v1/models")
            direct, routed = f"http://127.0.0.1:{up_port}", f"http://127.0.0.1:{router_port}"
            small = {
                "model": "m",
                "messages": [{"role": "user", "content": "hi"}],
                "max_tokens": 1,
                "stream": False,
            }
            lat = {"direct": [], "router": []}
            with httpx.Client(timeout=30) as client:
                for base in (direct, routed):  # warm both paths
                    for _ in range(20):
                        client.post(f"{base}/v1/chat/completions", json=small)
                for _ in range(n):
                    for name, base in (("direct", direct), ("router", routed)):
                        t = time.perf_counter()
                        r = client.post(f"{base}/v1/chat/completions", json=small)
                        lat[name].append(time.perf_counter() - t)
                        assert r.status_code == 200
                streams = {"direct": [], "router": []}
                long_body = {"model": "m", "messages": [{"role": "user", "content": "long"}], "stream": True}
                for _ in range(3):
                    for name, base in (("direct", direct), ("router", routed)):
                        t, chunks = time.perf_counter(), 0
                        with client.stream("POST", f"{base}/v1/chat/completions", json=long_body) as r:
                            for line in r.iter_lines():
                                chunks += line.startswith("data:")
                        streams[name].append(chunks / (time.perf_counter() - t))
        finally:
            router.terminate()
            upstream.terminate()
            router.wait(20)
            upstream.wait(20)
    added50 = (statistics.median(lat["router"]) - statistics.median(lat["direct"])) * 1000
    added99 = (pct(lat["router"], 0.99) - pct(lat["direct"], 0.99)) * 1000
    ratio = statistics.median(streams["router"]) / statistics.median(streams["direct"])
    print(
        json.dumps(
            {
                "requests": n,
                "upstream_token_delay_s": delay,
                "direct_p50_ms": statistics.median(lat["direct"]) * 1000,
                "router_p50_ms": statistics.median(lat["router"]) * 1000,
                "added_p50_ms": added50,
                "added_p99_ms": added99,
                "direct_chunks_per_s": statistics.median(streams["direct"]),
                "router_chunks_per_s": statistics.median(streams["router"]),
                "streaming_ratio": ratio,
            },
            indent=1,
        )
    )
    print(
        f"upstream token delay {delay * 1000:g} ms: router adds {added50:.2f} ms at p50 (target < 2), {added99:.2f} ms at p99; "
        f"streams at {100 * ratio:.1f}% of direct (target >= 95%)"
    )


if __name__ == "__main__":
    main()
