"""The router under load to a real llama-server: its resident memory over 2,000 streamed requests (it
must stay flat: bounded request log, no leaked upstream connections) and the failures, with the first
batch's RSS as the baseline in the same run. The router is the real `servebox up` in its own process with
llama-server (tools/llama-cpp.sh) as a passthrough upstream, serving the tiny GGUF the tests use; the
client (aiohttp, 50 connections) runs here. Then a stream's longest wait for a chunk, alone and while a
256 MiB body (refused with 413 while it arrives) and a 30 MiB one (parsed off the event loop) are sent by
other processes, alternated over 3 rounds (the baseline is the stream alone), and the router's RSS around them.
Run: python benchmarks/router_load.py [requests] [--gguf PATH]   (default 2000; builds the GGUF if absent)
"""

from __future__ import annotations

import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
from benchmarks.router_overhead import start_up, wait_http  # noqa: E402
from tests.conftest import llama_server, vllm_python  # noqa: E402
from tests.replay_server import free_port  # noqa: E402
from tests.test_router_load import load  # noqa: E402

BATCH = 200
ROUNDS = 3


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for {pid}")


def tiny_gguf(work: Path) -> Path:
    """The tests' tiny Llama as a GGUF (needs the vLLM venv's python for the tokenizer files)."""
    model = work / "tiny"
    subprocess.run([vllm_python(), str(REPO / "tests/engine/make_tiny_model.py"), str(model)], check=True)
    out = work / "tiny.gguf"
    subprocess.run(
        [
            sys.executable,
            str(REPO / "tests/engine/make_tiny_gguf.py"),
            str(model / "tokenizer.json"),
            str(out),
        ],
        check=True,
    )
    return out


def main() -> None:
    args = sys.argv[1:]
    gguf = Path(args[args.index("--gguf") + 1]) if "--gguf" in args else None
    total = int(args[0]) if args and args[0].isdigit() else 2000
    binary = llama_server()
    if binary is None:
        sys.exit("llama-server not built: run tools/llama-cpp.sh")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        gguf = gguf or tiny_gguf(work)
        engine_port, router_port = free_port(), free_port()
        spec = work / "spec.toml"
        spec.write_text(
            f'[router]\nlisten = "127.0.0.1:{router_port}"\n\n[[models]]\nname = "tiny"\ncheckpoint = "{gguf}"\n'
            f'engine = "llama.cpp"\nbinary = "{binary}"\nport = {engine_port}\nrun_as_unit = true\n'
        )
        argv = [binary, "-m", str(gguf), "--port", str(engine_port), "--host", "127.0.0.1", "-c", "2048"]
        engine = subprocess.Popen(
            [*argv, "--parallel", "4", "--threads", "2", "--alias", "tiny"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        router = start_up(spec, f"{tmp}/state")
        try:
            wait_http(f"http://127.0.0.1:{engine_port}/health")
            wait_http(f"http://127.0.0.1:{router_port}/v1/models")
            routed = f"http://127.0.0.1:{router_port}"
            report = run(router.pid, routed, f"http://127.0.0.1:{engine_port}", total)
            report["big_bodies"] = asyncio.run(big_bodies(router.pid, routed))
        finally:
            for proc in (router, engine):
                proc.terminate()
                proc.wait(20)
    print(json.dumps(report, indent=1))
    big = report["big_bodies"]
    print(
        f"a stream's longest wait for a chunk (median of {big['rounds']}): {big['alone_max_gap_ms']:.0f} ms alone, "
        f"{big['with_big_bodies_max_gap_ms']:.0f} ms while a 256 MiB body (answered {big['codes'][0]}) and a "
        f"30 MiB body (answered {big['codes'][1]}) arrived; router RSS {big['rss_before_mib']:.0f} -> "
        f"{big['rss_after_mib']:.0f} MiB (measured)"
    )
    print(
        f"router RSS {report['rss_mib'][0]:.1f} MiB after the first {BATCH} requests, "
        f"{report['rss_mib'][-1]:.1f} MiB after {total} (ratio {report['rss_ratio']:.3f}, measured); "
        f"failed through the router: {report['router_failed']} of {total} "
        f"({report['retried_on_a_fresh_connection']} retried on a fresh connection); "
        f"direct: {report['direct_failed']} of {BATCH}"
    )


def run(router_pid: int, routed: str, direct: str, total: int) -> dict:
    rss, failures = [], []
    started = time.perf_counter()
    for _ in range(total // BATCH):
        failures += asyncio.run(load(f"{routed}/v1/chat/completions", "tiny", BATCH, 50))
        rss.append(rss_mib(router_pid))
    seconds = time.perf_counter() - started
    direct_failures = asyncio.run(load(f"{direct}/v1/chat/completions", "tiny", BATCH, 50))
    metrics = httpx.get(f"{routed}/metrics", timeout=10).text
    retried = [
        line.split()[-1]
        for line in metrics.splitlines()
        if line.startswith("servebox_router_upstream_retries ")
    ]
    return {
        "requests": total,
        "connections": 50,
        "rss_mib": rss,
        "rss_ratio": rss[-1] / rss[0],
        "router_failed": len(failures),
        "first_failures": failures[:3],
        "direct_failed": len(direct_failures),
        "retried_on_a_fresh_connection": float(retried[0]) if retried else None,
        "requests_per_s": total / seconds,
    }


async def longest_gap(session, url: str) -> float:
    """The longest wait of one 1000-token stream for its next chunk (the first one included), in ms."""
    body = {"model": "tiny", "messages": [{"role": "user", "content": "hi"}], "max_tokens": 1000}
    last, gap = time.perf_counter(), 0.0
    async with session.post(url, json={**body, "ignore_eos": True, "stream": True}) as r:
        async for _ in r.content.iter_any():
            now = time.perf_counter()
            gap, last = max(gap, now - last), now
    return gap * 1000


async def big_bodies(router_pid: int, routed: str) -> dict:
    """Bodies the router must refuse (256 MiB: 413 while reading) or read and parse off its event loop
    (30 MiB, naming no served model: 404 after parsing), sent while a stream flows; the stream alone first."""
    import aiohttp

    url = f"{routed}/v1/chat/completions"
    alone, loaded, codes = [], [], []
    before = rss_mib(router_pid)
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=300)) as session:
        for _ in range(ROUNDS):  # alternated, so both see the same machine (shared, noisy)
            alone.append(await longest_gap(session, url))
            loaded.append(await stalled(session, url, codes))
    return {
        "rounds": ROUNDS,
        "alone_max_gap_ms": statistics.median(alone),
        "with_big_bodies_max_gap_ms": statistics.median(loaded),
        "codes": codes[:2],
        "rss_before_mib": before,
        "rss_after_mib": rss_mib(router_pid),
    }


SENDER = """
import sys, httpx
size = int(sys.argv[2]) << 20
body = b'{"model": "nope", "messages": [{"role": "user", "content": "' + b"x" * size + b'"}]}'
try:
    print(httpx.post(sys.argv[1], content=body, headers={"content-type": "application/json"}, timeout=120).status_code)
except httpx.HTTPError as exc:  # the router may close a connection it refused mid-body
    print(type(exc).__name__)
"""


async def stalled(session, url: str, codes: list) -> float:
    """longest_gap while the two bodies arrive, sent by other processes (this one only reads the stream)."""

    async def post(mib: int) -> str:
        child = await asyncio.create_subprocess_exec(
            sys.executable, "-c", SENDER, url, str(mib), stdout=asyncio.subprocess.PIPE
        )
        out, _ = await child.communicate()
        return out.decode().strip()

    senders = [asyncio.ensure_future(post(mib)) for mib in (256, 30)]
    await asyncio.sleep(0.5)  # the children build their bodies, then send them while the stream runs
    gap = await longest_gap(session, url)
    codes += await asyncio.gather(*senders)
    return gap


if __name__ == "__main__":
    main()
