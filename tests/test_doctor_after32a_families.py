"""Families learnt by after32a from fresh-128 (a failure as the client sees it) and fresh-130, each in a wording
other than its corpus log's: made here with the real clients of .venv-vllm (openai 3.60, httpx 0.29, requests 2.34)
against a real llama-server 11434 or python -m http.server, or from the library's own source where named."""

from __future__ import annotations

from tests.doctor_text import family_tests, run

_DIRECT = "\nThe above exception was the direct cause of the following exception:\n\nTraceback (most recent call last):\n"
_FRAME = '  File "/srv/app/chat.py", line 4, in <module>\n    resp = client.chat.completions.create(\n'

# openai over the original httpx (not httpx2 as in the corpus log), connection refused: the constant-message wrapper
# steps aside for the chained root (exceptions.toml's symptom rule for APIConnectionError 'Connection error.')
OPENAI_REFUSED = (
    "Traceback (most recent call last):\n"
    '  File "/venv/lib/python3.12/site-packages/httpx/_transports/default.py", line 101, in map_httpcore_exceptions\n'
    "    yield\n"
    "httpx.ConnectError: [Errno 111] Connection refused\n"
    + _DIRECT
    + _FRAME
    + '  File "/venv/lib/python3.12/site-packages/openai/_base_client.py", line 1002, in request\n'
    "    raise APIConnectionError(request=request) from err\n"
    "openai.APIConnectionError: Connection error.\n"
)
# httpcore/_sync/http11.py's 'Server disconnected without sending a response.' under the same wrapper
OPENAI_DISCONNECTED = OPENAI_REFUSED.replace(
    "httpx.ConnectError: [Errno 111] Connection refused",
    "httpx.RemoteProtocolError: Server disconnected without sending a response.",
)

CASES = [
    ("peer-connection-refused", OPENAI_REFUSED),
    ("peer-connection-reset", OPENAI_DISCONNECTED),
    # made here: requests streaming from llama-server, which was SIGKILLed after the first chunk
    (
        "peer-connection-reset",
        "Traceback (most recent call last):\n"
        "urllib3.exceptions.ProtocolError: Response ended prematurely\n\n"
        "During handling of the above exception, another exception occurred:\n\n"
        "Traceback (most recent call last):\n"
        '  File "/tmp/k.py", line 4, in <module>\n    for i, line in enumerate(r.iter_lines()):\n'
        "requests.exceptions.ChunkedEncodingError: Response ended prematurely\n",
    ),
    # made here: httpx.post without a key to llama-server --api-key, then raise_for_status()
    (
        "api-key-missing",
        "Traceback (most recent call last):\n"
        '  File "/tmp/c.py", line 7, in <module>\n    r.raise_for_status()\n'
        "httpx.HTTPStatusError: Client error '401 Unauthorized' for url 'http://127.0.0.1:18700/v1/chat/completions'\n"
        "For more information check: https://developer.mozilla.org/en-US/docs/Web/HTTP/Status/401\n",
    ),
    # openai against vLLM --api-key (vLLM's body is {"error": "Unauthorized"}; openai prints the parsed dict)
    (
        "api-key-missing",
        "Traceback (most recent call last):\n"
        + _FRAME
        + "openai.AuthenticationError: Error code: 401 - {'error': 'Unauthorized'}\n",
    ),
    # made here: curl -d '{"prompt":"hi","n_cmpl":0}' to llama-server 11434's /completion
    (
        "request-sampling-param-out-of-range",
        '{"error":{"code":400,"message":"Field \'n_cmpl\': Value must be between 1 <= value <= 4, but got 0",'
        '"type":"invalid_request_error"}}\n',
    ),
    # made here: requests.get('https://127.0.0.1:18701/...') to python -m http.server (plain HTTP)
    (
        "https-client-on-plain-http-server",
        "Traceback (most recent call last):\n"
        '  File "/tmp/t.py", line 2, in <module>\n    requests.get("https://127.0.0.1:18701/v1/models", timeout=5)\n'
        "requests.exceptions.SSLError: HTTPSConnectionPool(host='127.0.0.1', port=18701): Max retries exceeded with "
        "url: /v1/models (Caused by SSLError(SSLError(1, '[SSL: WRONG_VERSION_NUMBER] wrong version number "
        "(_ssl.c:1006)')))\n",
    ),
    # made here: curl https:// to the same plain-HTTP port
    (
        "https-client-on-plain-http-server",
        "$ curl -sS https://127.0.0.1:18701/v1/models\n"
        "curl: (35) OpenSSL/3.0.19: error:0A00010B:SSL routines::wrong version number\n",
    ),
    # made here: AsyncOpenAI(stream=True) read as a completion
    (
        "client-stream-read-as-completion",
        "Traceback (most recent call last):\n"
        '  File "/tmp/c.py", line 24, in m\n    print(r.usage)\n          ^^^^^^^\n'
        "AttributeError: 'AsyncStream' object has no attribute 'usage'\n",
    ),
    # Ray's own exception for a closed compiled-graph channel, in a worker (ray/experimental/channel)
    (
        "ray-compiled-graph-channel-closed",
        "ERROR 06-16 10:59:13 [core.py:505] ray.exceptions.RayChannelError: System error: Channel closed.\n",
    ),
]

# made here: openai(timeout=0.5, max_retries=0) on a 1900-token answer from llama-server (the wrapper's chain, cut)
CASES.append(
    (
        "client-read-timeout",
        "Traceback (most recent call last):\n"
        "httpcore2.ReadTimeout: timed out\n"
        + _DIRECT
        + "httpx2.ReadTimeout: timed out\n"
        + _DIRECT
        + _FRAME
        + "openai.APITimeoutError: Request timed out.\n",
    )
)
# made here: requests.post(timeout=0.5) on the same answer; socket's bare TimeoutError is the first exception
CASES.append(
    (
        "client-read-timeout",
        "Traceback (most recent call last):\n"
        '  File "/usr/lib/python3.11/socket.py", line 706, in readinto\n    return self._sock.recv_into(b)\n'
        "TimeoutError: timed out\n"
        + _DIRECT
        + "urllib3.exceptions.ReadTimeoutError: HTTPConnectionPool(host='127.0.0.1', port=18700): Read timed out. "
        "(read timeout=0.5)\n\nDuring handling of the above exception, another exception occurred:\n\n"
        "Traceback (most recent call last):\n"
        "requests.exceptions.ReadTimeout: HTTPConnectionPool(host='127.0.0.1', port=18700): Read timed out. "
        "(read timeout=0.5)\n",
    )
)
# a server's own download keeps its reading: h11's cut body and httpx's read timeout in a hub download are the hub's
CASES.append(
    (
        "hub-download-interrupted",
        '  File "/venv/lib/python3.12/site-packages/huggingface_hub/file_download.py", line 412, in http_get\n'
        "httpx.RemoteProtocolError: peer closed connection without sending complete message body "
        "(received 1048576 bytes, expected 4976698672)\n",
    )
)

# made here: curl to llama-server 11434 within a second of its start, before the model was loaded
CASES.append(
    (
        "server-still-loading-model",
        '$ curl -s -d \'{"messages":[{"role":"user","content":"hi"}]}\' http://127.0.0.1:18702/v1/chat/completions\n'
        '{"error":{"message":"Loading model","type":"unavailable_error","code":503}}\n',
    )
)

NEAR_MISSES = [
    # another status: a 403 is not a missing key
    (
        "api-key-missing",
        "requests.exceptions.HTTPError: 403 Client Error: Forbidden for url: http://127.0.0.1:8000/v1/models\n",
    ),
    # a str where a completion was expected is openai-base-url-missing-v1's, not a stream read as a completion
    ("client-stream-read-as-completion", "AttributeError: 'str' object has no attribute 'choices'\n"),
    # another 503: a busy server is not one still loading
    (
        "server-still-loading-model",
        "openai.InternalServerError: Error code: 503 - {'error': {'message': 'Server busy', 'type': "
        "'unavailable_error', 'code': 503}}\n",
    ),
    (
        "client-stream-read-as-completion",
        "AttributeError: 'torch.cuda.Stream' object has no attribute 'usage'\n",
    ),
]

test_family_reads_other_wording, test_near_miss_is_not_confident = family_tests(CASES, NEAR_MISSES)


def test_handshake_timeout_is_only_a_hint() -> None:
    """Made here: httpx https:// to llama-server's plain-HTTP port; the server never answers the TLS hello, so the
    handshake times out, a wording a slow network to a real HTTPS host shares: named, but not confidently."""
    log = (
        "Traceback (most recent call last):\n"
        '  File "/venv/lib/python3.11/site-packages/httpx/_transports/default.py", line 118, in map_httpcore_exceptions\n'
        "    raise mapped_exc(message) from exc\n"
        "httpx.ConnectTimeout: _ssl.c:989: The handshake operation timed out\n"
    )
    top = run(log).diagnoses[0]
    assert top.id == "https-client-on-plain-http-server" and top.confidence < 0.7


def test_client_wrapper_steps_aside_for_its_chained_root() -> None:
    """The mechanism (exceptions.toml's symptom rule): openai's constant 'Connection error.' is not the root; the
    chained httpx exception is, even where no family knows it."""
    log = OPENAI_REFUSED.replace("[Errno 111] Connection refused", "[Errno 113] No route to host")
    result = run(log)
    assert result.exception is not None and result.exception.type == "httpx.ConnectError"


def test_wrapper_with_its_own_words_stays_the_root() -> None:
    """Near miss: an APIConnectionError whose message says something (litellm's) keeps its own reading."""
    log = (
        "Traceback (most recent call last):\n"
        '  File "/srv/app/main.py", line 9, in <module>\n    litellm.completion(model="ollama/x", messages=m)\n'
        "litellm.exceptions.APIConnectionError: litellm.APIConnectionError: OllamaException - model 'x' not found\n"
    )
    result = run(log)
    assert result.exception is not None and result.exception.type == "litellm.exceptions.APIConnectionError"
