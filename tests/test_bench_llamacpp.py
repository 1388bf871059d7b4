"""bench against the real llama-server (built by tools/llama-cpp.sh) serving the tiny GGUF.

Why 8 of 16 requests failed (and the exit code was 0) in the new-user walk, two causes found:
1. llama-server answers `Keep-Alive: timeout=5, max=100` and then closes the connection after every
   streamed response; a client that takes that connection from its pool at once fails to write the
   next request ("ClientOSError: Can not write request body"): a client-side failure, the server never
   saw the request. The client now sends such a request again on a fresh connection and counts it.
2. Requests the server cannot hold: its slots share one KV cache of --ctx-size tokens; when it fills
   llama-server sends "Context size has been exceeded." as an `error` event inside an HTTP 200 stream
   (the old client counted it a success), and a prompt longer than a slot's context is refused with
   HTTP 400. Those are real failures: exit 1, the reason printed.
Which concurrent requests overflow a shared cache depends on timing, so the test makes half the
requests impossible by their own length (a prompt longer than the one slot's 256 tokens): exactly
8 of 16 fail whatever the machine's load. Marked `engine`; skipped, saying why, without llama-server."""

from __future__ import annotations

import asyncio
import json
import subprocess

import httpx
import pytest

from servebox.measure.bench import synthetic_prompt
from servebox.measure.client import make_client
from tests.conftest import llama_server
from tests.engine.harness import http_ok
from tests.replay_server import free_port

pytestmark = pytest.mark.engine


@pytest.fixture
def server(tiny_gguf, tmp_path):
    binary = llama_server()
    if binary is None:
        pytest.skip("llama-server not built (run tools/llama-cpp.sh, or set SERVEBOX_LLAMA_SERVER)")
    port = free_port()
    log = (tmp_path / "llama.log").open("w")
    cmd = [binary, "-m", str(tiny_gguf), "--host", "127.0.0.1", "--port", str(port)]
    cmd += ["--ctx-size", "256", "--parallel", "1", "--threads", "2", "--metrics"]
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
    try:
        if not http_ok(f"http://127.0.0.1:{port}/health", 240, proc):
            pytest.fail(
                f"llama-server did not become healthy: {(tmp_path / 'llama.log').read_text()[-2000:]}"
            )
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.kill()
        proc.wait()
        log.close()


def test_bench_against_llama_server(run_cli, server, tmp_path):
    one = run_cli(
        "bench",
        "--base-url",
        server,
        "--model",
        "tiny",
        "--num-prompts",
        "3",
        "--max-concurrency",
        "1",
        "--random-input-len",
        "100",
        "--random-output-len",
        "16",
        "--json",
    )
    assert one.code == 0, one.out + one.err
    level = one.json()["levels"][0]
    assert level["errors"] == 0 and level["engine"]["running_max"] is not None  # llama-server's own gauges

    async def prompt_text() -> str:
        async with make_client(2, 30) as client:
            return (await synthetic_prompt(client, f"{server}/v1", "tiny", 100))[0]

    text = asyncio.run(prompt_text())
    body = {"model": "tiny", "messages": [{"role": "user", "content": text}], "max_tokens": 1}
    usage = httpx.post(f"{server}/v1/chat/completions", json=body, timeout=60).json()["usage"]
    assert level["prompt_tokens_mean"] == usage["prompt_tokens"]  # what the server counted, template included
    assert one.json()["prompt_source"] == "server tokenizer (/tokenize)"  # llama.cpp's /tokenize was read

    prompts = tmp_path / "prompts.jsonl"
    short, long = "say hello", " ".join(["the quick brown fox jumps over the lazy dog"] * 60)
    prompts.write_text("".join(json.dumps({"prompt": p}) + "\n" for p in (short, long)))
    many = run_cli(
        "bench",
        "--base-url",
        server,
        "--model",
        "tiny",
        "--prompts",
        prompts,
        "--num-prompts",
        "16",
        "--max-concurrency",
        "2",
        "--random-output-len",
        "8",
        "--json",
    )
    assert many.code == 1 and "8 of 16 requests failed" in many.err
    level = many.json()["levels"][0]
    assert (
        level["errors"] == 8
        and len(level["error_samples"]) == 1
        and level["error_samples"][0].startswith("8x HTTP 400: ")
    )
    shown = run_cli(
        "bench",
        "--base-url",
        server,
        "--model",
        "tiny",
        "--prompts",
        prompts,
        "--num-prompts",
        "2",
        "--random-output-len",
        "8",
    )
    assert shown.code == 1 and "error: 1x HTTP 400: " in shown.out and "[red]" not in shown.out + shown.err
