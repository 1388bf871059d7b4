"""What the measured batches fresh-454, fresh-456 and fresh-452 taught (learn50b). Every wording is rendered from the
engine's or library's own source with other models, paths, ports, fields and routes than the corpus logs':

- batch-input-line-invalid: a 'body.FIELD' error under 'validation error for BatchRequestInput' is run-batch's own parse
  of its -i line (launchers/run_batch.py check_type_for_url), not a server's 400 to a client.
- peer-connection-refused: vllm bench serve's 'Initial test run failed ... Error: Traceback' (benchmarks/serve.py,
  lib/ready_checker.py) only wraps the traceback printed inside it (exceptions.toml).
- request-field-wrong-type: a bare 400 beside a shown request body whose top-level field is of a JSON kind the API
  never takes (sent_shape.py; vLLM 0.32 ChatCompletionRequest in pydantic's lax mode).
- hub-cache-ref-broken: the offline 'no cached snapshot folder' beside a cache listing showing the asked repo's ref and
  a snapshot holding files (hub_ref_listing.py; huggingface_hub 2.4 _snapshot_download.py reads the ref unstripped).
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

# ---- run-batch: a body field refused while reading the -i file
RUN_BATCH = (
    "$ vllm run-batch -i jobs/night.jsonl -o jobs/night.out.jsonl --model Qwen/Qwen2.5-1.5B-Instruct\n"
    "(MainProcess pid=4410) INFO 03-02 10:11:12 [run_batch.py:828] Reading batch from jobs/night.jsonl...\n"
    "Traceback (most recent call last):\n"
    '  File "/opt/venv/lib/python3.12/site-packages/vllm/entrypoints/launchers/run_batch.py", line 838, in run_batch\n'
    "    request = BatchRequestInput.model_validate_json(request_json)\n"
    '  File "/opt/venv/lib/python3.12/site-packages/pydantic/main.py", line 847, in model_validate_json\n'
    "    return cls.__pydantic_validator__.validate_json(\n"
    "pydantic_core._pydantic_core.ValidationError: 1 validation error for BatchRequestInput\n"
    "{loc}\n"
    "  {reason}\n"
    "    For further information visit https://errors.pydantic.dev/2.14/v/{kind}\n"
    "# exit: 1\n"
)
BATCH_TEMPERATURE = RUN_BATCH.format(
    loc="body.temperature",
    reason="Input should be a valid number, unable to parse string as a number [type=float_parsing, "
    "input_value='warm', input_type=str]",
    kind="float_parsing",
)
BATCH_TOOLS_OBJECT = RUN_BATCH.format(
    loc="body.tools",
    reason="Input should be a valid list [type=list_type, input_value={'type': 'function', 'fu...}, input_type=dict]",
    kind="list_type",
)
# a server's own 400 for the same field, relayed by the openai client: no run-batch, the request's family
SERVER_TOOLS_OBJECT = (
    '(APIServer pid=9) INFO:     10.0.0.5:41234 - "POST /v1/chat/completions HTTP/1.1" 400 Bad Request\n'
    "openai.BadRequestError: Error code: 400 - {'error': {'message': \"1 validation error:\\n  {'type': 'list_type', "
    "'loc': 'body.tools', 'msg': 'Input should be a valid list', 'input': {'type': 'function'}}\", 'type': "
    "'Bad Request', 'param': 'body.tools', 'code': 400}}\n"
)

# ---- bench serve's ready check giving up on a refused connection (ready_checker.wait_for_endpoint, serve.py:884)
BENCH = (
    "$ vllm bench serve --backend openai-chat --endpoint /v1/chat/completions --model Qwen/Qwen2.5-1.5B-Instruct "
    "--port 8011 --ready-check-timeout-sec 120 --dataset-name random --num-prompts 50\n"
    "Starting initial single prompt test run...\n"
    "Waiting for endpoint to become up in 120 seconds\n"
    "(MainProcess pid=77) WARNING 03-02 10:12:01 [ready_checker.py:71] Endpoint is not ready. "
    "Error='{last}'\n"
    "Traceback (most recent call last):\n"
    '  File "/opt/venv/lib/python3.12/site-packages/vllm/benchmarks/serve.py", line 884, in benchmark\n'
    "    raise ValueError(\n"
    "ValueError: Initial test run failed - Please make sure benchmark arguments are correctly specified. "
    "Error: Traceback (most recent call last):\n"
    '  File "/usr/lib/python3.12/asyncio/selector_events.py", line 674, in _sock_connect_cb\n'
    "    raise OSError(err, f'Connect call failed {{address}}')\n"
    "{inner}"
    "\nThe above exception was the direct cause of the following exception:\n\n"
    "Traceback (most recent call last):\n"
    '  File "/opt/venv/lib/python3.12/site-packages/vllm/benchmarks/lib/endpoint_request_func.py", line 331, in '
    "async_request_openai_chat_completions\n"
    "    async with session.post(url=api_url, json=payload, headers=headers) as response:\n"
    "{last}\n\n"
)
REFUSED_8011 = BENCH.format(
    inner="ConnectionRefusedError: [Errno 111] Connect call failed ('127.0.0.1', 8011)\n",
    last="aiohttp.client_exceptions.ClientConnectorError: Cannot connect to host 127.0.0.1:8011 ssl:default "
    "[Connect call failed ('127.0.0.1', 8011)]",
)
# the same wrapper around a server that answered and then dropped the connection: not a refusal
DISCONNECTED = BENCH.format(
    inner="ConnectionResetError: [Errno 104] Connection reset by peer\n",
    last="aiohttp.client_exceptions.ServerDisconnectedError: Server disconnected",
)

# ---- a client's bare 400 beside the body it sent
ACCESS_400 = 'INFO:     127.0.0.1:51122 - "POST {route} HTTP/1.1" 400 Bad Request\n'
REQUESTS_SCRIPT = (
    ACCESS_400.format(route="/v1/chat/completions")
    + "$ cat ask.py\nimport requests\n"
    + 'resp = requests.post("http://localhost:8000/v1/chat/completions", json={body}, timeout=30)\n'
    + "resp.raise_for_status()\n$ python ask.py\nTraceback (most recent call last):\n"
    + '  File "/home/me/ask.py", line 3, in <module>\n    resp.raise_for_status()\n'
    + '  File "/home/me/.local/lib/python3.12/site-packages/requests/models.py", line 1024, in raise_for_status\n'
    + "    raise HTTPError(http_error_msg, response=self)\n"
    + "requests.exceptions.HTTPError: 400 Client Error: Bad Request for url: http://localhost:8000/v1/chat/completions\n"
)
MAX_TOKENS_LIST = REQUESTS_SCRIPT.format(
    body='{"model": "qwen", "messages": [{"role": "user", "content": "hi"}], "max_tokens": [64]}'
)
CURL_TEMPERATURE_WORD = (
    "$ curl -sS http://127.0.0.1:9000/v1/completions -H 'Content-Type: application/json' "
    """-d '{"model": "m", "prompt": "Once upon", "temperature": "warm"}'\n"""
    + ACCESS_400.format(route="/v1/completions")
)
# pydantic's lax mode takes '64' for an integer: this body proves nothing, the 400 stays unexplained
MAX_TOKENS_NUMERIC_STRING = REQUESTS_SCRIPT.format(
    body='{"model": "qwen", "messages": [{"role": "user", "content": "hi"}], "max_tokens": "64"}'
)
# a tool's JSON schema names a property "temperature": an object there is no request field
TOOL_SCHEMA_TEMPERATURE = REQUESTS_SCRIPT.format(
    body='{"model": "qwen", "messages": [{"role": "user", "content": "hi"}], "tools": [{"type": "function", '
    '"function": {"name": "set", "parameters": {"type": "object", "properties": {"temperature": {"type": '
    '"number"}}}}}]}'
)
# the same misshapen body answered 200 (a server that takes one message object): no refusal to explain
MESSAGES_OBJECT_ANSWERED = (
    'r = httpx.post("http://127.0.0.1:8080/v1/chat/completions", json={"model": "m", "messages": {"role": "user", '
    '"content": "hi"}})\n'
    'INFO:     127.0.0.1:40000 - "POST /v1/chat/completions HTTP/1.1" 200 OK\n'
)

# ---- the offline hub lookup beside a listing of the cache
HUB = (
    "$ export HF_HUB_OFFLINE=1\n{env}"
    "$ find {listed} -path '*Qwen*'\n{listing}"
    "$ vllm serve Qwen/Qwen2.5-0.5B-Instruct --max-model-len 2048\n"
    "(APIServer pid=4411) INFO 03-02 10:11:12 [api_utils.py:286] non-default args: {{'model_tag': "
    "'Qwen/Qwen2.5-0.5B-Instruct', 'model': 'Qwen/Qwen2.5-0.5B-Instruct', 'max_model_len': 2048}}\n"
    "Traceback (most recent call last):\n"
    '  File "/opt/venv/lib/python3.12/site-packages/vllm/transformers_utils/repo_utils.py", line 301, in '
    "get_model_path\n    return hf_api().snapshot_download(\n"
    '  File "/opt/venv/lib/python3.12/site-packages/huggingface_hub/_snapshot_download.py", line 382, in '
    "snapshot_download\n    raise LocalEntryNotFoundError(\n"
    "huggingface_hub.errors.LocalEntryNotFoundError: Cannot find an appropriate cached snapshot folder for the "
    "specified revision on the local disk and outgoing traffic has been disabled. To enable repo look-ups and "
    "downloads online, pass 'local_files_only=False' as input.\n"
)
SHA = "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c"


def listing(root: str, repo: str = "models--Qwen--Qwen2.5-0.5B-Instruct") -> str:
    base = f"{root}/{repo}"
    files = ("config.json", "model.safetensors", "tokenizer.json")
    return "".join(
        [f"{base}\n{base}/snapshots\n{base}/snapshots/{SHA}\n"]
        + [f"{base}/snapshots/{SHA}/{f}\n" for f in files]
        + [f"{base}/refs\n{base}/refs/main\n{base}/blobs\n"]
    )


DEFAULT_CACHE = "/root/.cache/huggingface/hub"
REF_BROKEN = HUB.format(env="", listed=DEFAULT_CACHE, listing=listing(DEFAULT_CACHE))
NO_LISTING = HUB.format(env="", listed=DEFAULT_CACHE, listing="")
OTHER_REPO_LISTED = HUB.format(
    env="", listed=DEFAULT_CACHE, listing=listing(DEFAULT_CACHE, "models--Qwen--Qwen2.5-7B-Instruct")
)
# HF_HUB_CACHE one level too shallow: the repo is cached under /data/hf/hub, the process reads /data/hf
CACHE_TOO_SHALLOW = HUB.format(
    env="$ export HF_HUB_CACHE=/data/hf\n", listed="/data/hf", listing=listing("/data/hf/hub")
)

test_names_the_cause, test_near_miss_not_confident = family_tests(
    [
        ("batch-input-line-invalid", BATCH_TEMPERATURE),
        ("batch-input-line-invalid", BATCH_TOOLS_OBJECT),
        ("peer-connection-refused", REFUSED_8011),
        ("request-field-wrong-type", MAX_TOKENS_LIST),
        ("request-field-wrong-type", CURL_TEMPERATURE_WORD),
        ("hub-cache-ref-broken", REF_BROKEN),
    ],
    [
        ("batch-input-line-invalid", SERVER_TOOLS_OBJECT),
        ("peer-connection-refused", DISCONNECTED),
        ("request-field-wrong-type", MAX_TOKENS_NUMERIC_STRING),
        ("request-field-wrong-type", TOOL_SCHEMA_TEMPERATURE),
        ("request-field-wrong-type", MESSAGES_OBJECT_ANSWERED),
        ("hub-cache-ref-broken", NO_LISTING),
        ("hub-cache-ref-broken", OTHER_REPO_LISTED),
        ("hub-cache-ref-broken", CACHE_TOO_SHALLOW),
    ],
)


def test_bench_wrapper_is_not_the_root():
    """The ValueError only carries the test request's traceback: no uncaught-exception for it."""
    assert all(d.id != "uncaught-exception" for d in run(REFUSED_8011).diagnoses)


def test_shape_names_the_field_and_explains_the_client_error():
    result = run(MAX_TOKENS_LIST)
    top = top_cause(result)
    assert "`max_tokens`" in top.cause and "a list" in top.cause
    assert all(d.id != "uncaught-exception" for d in result.diagnoses)


def test_unexplained_400_stays_bare():
    ids = [d.id for d in run(MAX_TOKENS_NUMERIC_STRING).diagnoses]
    assert "request-field-wrong-type" not in ids


def test_hub_reading_without_listing_stays_offline():
    for log in (NO_LISTING, OTHER_REPO_LISTED, CACHE_TOO_SHALLOW):
        assert top_cause(run(log)).id == "hub-offline"


def test_ref_broken_names_the_snapshot():
    top = top_cause(run(REF_BROKEN))
    assert SHA in top.fix and "refs/main" in top.fix
