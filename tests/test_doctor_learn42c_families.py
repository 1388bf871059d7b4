"""What the scored batch fresh-313 (vLLM 0.32's offline batch runner, run_batch) taught after scoring, with the
neighbourhood of each miss in the libraries that print it.

- peer-connection-refused: aiohttp 3.14's ClientConnectorError ('Cannot connect to host {host}:{port} ssl:{ssl}
  [{strerror}]', client_exceptions.py; 'Cannot connect to unix socket {path} ...') where asyncio's sock_connect made
  the OSError ('Connect call failed {address}', selector_events.py) or aiohappyeyeballs joined several ('Multiple
  exceptions: ...'): the errno-carrying chained line anywhere, the bracket alone for a loopback host, a hint elsewhere.
- peer-connection-timed-out / network-unreachable: the same asyncio wording with their errno (110; 101/113).
- batch-line-stream-not-supported (new): run_batch's run_request row 'Request must not be sent in stream mode' (0.32,
  status 400 in the output file), and the ValueError older runners raised with it.
- root_exception.root_of: an exception whose text a symptom's wording matches points back even when the entry's few
  evidence lines were spent on the same refusal logged before it (the upload retried five times).
Messages are the sources' format strings rendered with other values than the corpus logs' (rendered, not run).
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

AIOHTTP_CHAIN = (
    "Traceback (most recent call last):\n"
    '  File "/usr/lib/python3.11/site-packages/aiohttp/connector.py", line 1345, in _wrap_create_connection\n'
    "    sock = await aiohappyeyeballs.start_connection(\n"
    "{errno_line}\n"
    "\n"
    "The above exception was the direct cause of the following exception:\n"
    "\n"
    "Traceback (most recent call last):\n"
    '  File "/srv/app/client.py", line 41, in fetch\n'
    "    async with session.get(url) as resp:\n"
    "aiohttp.client_exceptions.ClientConnectorError: Cannot connect to host {host} ssl:default [{bracket}]\n"
)


def upload_retried(host: str, address: str, attempts: int = 5) -> str:
    """vLLM 0.32 run_batch's upload_data: an ERROR line per failed PUT, then the Exception that ends the run, chained
    from the ConnectionRefusedError (rendered: another port, another number of retries than the corpus log's)."""
    msg = f"Cannot connect to host {host} ssl:default [Connect call failed {address}]"
    lines = [
        f"(MainProcess pid=812) ERROR 03-02 11:0{i}:00 [run_batch.py:408] Failed to upload data (attempt {i}). "
        f"Error message: {msg}."
        for i in range(1, attempts)
    ]
    return (
        "(MainProcess pid=812) INFO 03-02 11:00:00 [run_batch.py:449] Writing outputs to memory buffer\n"
        + "\n".join(lines)
        + "\nTraceback (most recent call last):\n"
        + '  File "/usr/lib/python3.11/asyncio/selector_events.py", line 674, in _sock_connect_cb\n'
        + "    raise OSError(err, f'Connect call failed {address}')\n"
        + f"ConnectionRefusedError: [Errno 111] Connect call failed {address}\n\n"
        + "The above exception was the direct cause of the following exception:\n\n"
        + "Traceback (most recent call last):\n"
        + '  File "/usr/lib/python3.11/site-packages/vllm/entrypoints/launchers/run_batch.py", line 396, in upload_data\n'
        + f"aiohttp.client_exceptions.ClientConnectorError: {msg}\n\n"
        + "The above exception was the direct cause of the following exception:\n\n"
        + "Traceback (most recent call last):\n"
        + '  File "/usr/lib/python3.11/site-packages/vllm/entrypoints/launchers/run_batch.py", line 416, in upload_data\n'
        + f"Exception: Failed to upload data (attempt {attempts}). Error message: {msg}.\n"
    )


def batch_run(row: str) -> str:
    """A run_batch run that exited 0, its output file's rows pasted under it as the user shows them."""
    return (
        "$ python -m vllm.entrypoints.openai.run_batch -i prompts.jsonl -o out.jsonl --model Qwen/Qwen2.5-0.5B-Instruct\n"
        "(MainProcess pid=4410) INFO 03-02 11:00:00 [run_batch.py:828] Reading batch from prompts.jsonl...\n"
        "Running batch: 100% Completed | 40/40 [00:09<00:00,  4.31req/s]\n"
        "(MainProcess pid=4410) INFO 03-02 11:00:09 [run_batch.py:457] Writing outputs to local file out.jsonl\n"
        f"$ grep -v '\"status_code\":200' out.jsonl\n{row}\n"
    )


STREAM_ROW = (
    '{{"id":"vllm-0b6d2e4f1a9c4e57","custom_id":"{cid}","response":{{"status_code":400,'
    '"request_id":"vllm-batch-5e1f0c2b7a6d4c11","body":null}},"error":"Request must not be sent in stream mode"}}'
)

CASES = [
    # aiohappyeyeballs' joined refusals of localhost's two addresses (impl.py 'Multiple exceptions: ...', same errno)
    (
        "peer-connection-refused",
        AIOHTTP_CHAIN.format(
            errno_line="ConnectionRefusedError: [Errno 111] Multiple exceptions: [Errno 111] Connect call failed "
            "('::1', 11434, 0, 0), [Errno 111] Connect call failed ('127.0.0.1', 11434)",
            host="localhost:11434",
            bracket="Multiple exceptions: [Errno 111] Connect call failed ('::1', 11434, 0, 0), [Errno 111] Connect "
            "call failed ('127.0.0.1', 11434)",
        ),
    ),
    # the same refusal on macOS (ECONNREFUSED 61), a remote host: the chained errno line decides
    (
        "peer-connection-refused",
        AIOHTTP_CHAIN.format(
            errno_line="ConnectionRefusedError: [Errno 61] Connect call failed ('10.0.4.12', 8000)",
            host="10.0.4.12:8000",
            bracket="Connect call failed ('10.0.4.12', 8000)",
        ),
    ),
    # only the wrapper's line pasted, a loopback host (IPv6): nothing there can be unreachable
    (
        "peer-connection-refused",
        "aiohttp.client_exceptions.ClientConnectorError: Cannot connect to host ::1:9000 ssl:default "
        "[Connect call failed ('::1', 9000, 0, 0)]\n",
    ),
    # ... and vLLM's run_batch ERROR line alone for -o http://127.0.0.1:9100/out.jsonl
    (
        "peer-connection-refused",
        "(MainProcess pid=812) ERROR 03-02 11:01:00 [run_batch.py:408] Failed to upload data (attempt 3). Error "
        "message: Cannot connect to host 127.0.0.1:9100 ssl:default [Connect call failed ('127.0.0.1', 9100)].\n",
    ),
    # the upload retried 4 times before the raise: the chained refusal is past the entry's evidence lines
    ("peer-connection-refused", upload_retried("127.0.0.1:9100", "('127.0.0.1', 9100)")),
    # an SSLContext passed as ssl= prints its repr in the ssl: field; a unix socket connector's own wording
    (
        "peer-connection-refused",
        "aiohttp.client_exceptions.ClientConnectorError: Cannot connect to host 10.0.0.5:8443 "
        "ssl:<ssl.SSLContext object at 0x7f3a2c1e8d40> [Connection refused]\n",
    ),
    (
        "peer-connection-refused",
        "aiohttp.client_exceptions.UnixClientConnectorError: Cannot connect to unix socket /run/llm/llm.sock "
        "ssl:default [Connection refused]\n",
    ),
    # Windows' proactor: ERROR_CONNECTION_REFUSED's text
    (
        "peer-connection-refused",
        "ConnectionRefusedError: [WinError 1225] The remote computer refused the network connection\n",
    ),
    # asyncio's wording with the other errnos: a connect that timed out, a host with no route
    (
        "peer-connection-timed-out",
        AIOHTTP_CHAIN.format(
            errno_line="TimeoutError: [Errno 110] Connect call failed ('10.20.0.7', 8000)",
            host="10.20.0.7:8000",
            bracket="Connect call failed ('10.20.0.7', 8000)",
        ),
    ),
    (
        "network-unreachable",
        AIOHTTP_CHAIN.format(
            errno_line="OSError: [Errno 113] Connect call failed ('192.168.7.50', 11434)",
            host="192.168.7.50:11434",
            bracket="Connect call failed ('192.168.7.50', 11434)",
        ),
    ),
    # run_batch 0.32's row for a stream line (another id), and the same row pretty-printed by jq
    ("batch-line-stream-not-supported", batch_run(STREAM_ROW.format(cid="faq-0031"))),
    (
        "batch-line-stream-not-supported",
        batch_run(
            '{\n  "custom_id": "summary-9",\n  "response": {\n    "status_code": 400,\n    "body": null\n  },\n'
            '  "error": "Request must not be sent in stream mode"\n}'
        ),
    ),
    # older runners (entrypoints/openai/run_batch.py run_request, vLLM 0.4-0.5) raised it and stopped the run
    (
        "batch-line-stream-not-supported",
        "Traceback (most recent call last):\n"
        '  File "/opt/venv/lib/python3.10/site-packages/vllm/entrypoints/openai/run_batch.py", line 61, in '
        "run_request\n"
        '    raise ValueError("Request must not be sent in stream mode")\n'
        "ValueError: Request must not be sent in stream mode\n",
    ),
]

NEAR_MISSES = [
    # asyncio's wording for a connect that timed out is not a refusal
    ("peer-connection-refused", "TimeoutError: [Errno 110] Connect call failed ('10.20.0.7', 8000)\n"),
    # a batch row refusing another stream-related field is that refusal's, not the stream line's
    (
        "batch-line-stream-not-supported",
        batch_run(
            '{"id":"vllm-1","custom_id":"q-4","response":{"status_code":400,"request_id":"vllm-batch-2","body":null},'
            '"error":{"error":{"message":"`prompt_logprobs` are not available when `stream=True`.",'
            '"type":"BadRequestError","param":"prompt_logprobs","code":400}}}'
        ),
    ),
    # a healthy run's row: nothing refused
    (
        "batch-line-stream-not-supported",
        batch_run(
            '{"id":"vllm-1","custom_id":"q-5","response":{"status_code":200,"request_id":"vllm-batch-3","body":'
            '{"object":"chat.completion","choices":[{"message":{"content":"stream mode is off"}}]}},"error":null}'
        ),
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_remote_connect_call_failed_is_only_a_hint():
    """'Cannot connect to host H:P ... [Connect call failed ...]' alone, H not loopback: refused, unreachable or timed
    out cannot be told, so refused stands only as a hint below 0.70 with its own cause."""
    top = top_cause(
        run(
            "aiohttp.client_exceptions.ClientConnectorError: Cannot connect to host api.internal.example:443 "
            "ssl:default [Connect call failed ('10.9.8.7', 443)]\n"
        )
    )
    assert top is not None and top.id == "peer-connection-refused" and top.confidence < 0.7, top
    assert "hides the reason" in top.cause and "api.internal.example:443" in top.cause


def test_timed_out_connect_call_is_not_refused():
    top = top_cause(run("TimeoutError: [Errno 110] Connect call failed ('10.20.0.7', 8000)\n"))
    assert top is not None and top.id == "peer-connection-timed-out", top
