"""What the scored batch fresh-271 (vLLM's API server layer, two settings combined) taught after scoring, with the
neighbourhood of each miss in vLLM 0.32's launchers (cli_args.py, launcher.py, app.py, entry.py) and uvicorn / ssl.

- uds-replaces-host-port: --uds binds only the UNIX socket ('Starting vLLM server on unix:PATH'), so a TCP client's
  ECONNREFUSED (Python's, curl's, Node's forms) is that; a refusal where the server listens on TCP stays generic.
- fastapi-docs-disabled: --disable-fastapi-docs (app.py: openapi_url/docs_url/redoc_url None): /openapi.json, /docs,
  /redoc answer 404; a 404 on those routes without the flag, or on another route with it, is not this.
- tls-client-cert-required: --ssl-cert-reqs 2 (ssl.CERT_REQUIRED) without a client certificate: the server drops the
  TLS connection (httpx 'Server disconnected without sending a response', curl/ssl 'tlsv13 alert certificate
  required', TLS 1.2's handshake failure, an untrusted client certificate's 'unknown ca'); without the setting the
  same words are not this.
- server-up: vLLM's own 'Starting vLLM server on %s' counts as the server up, so a log whose uvicorn INFO lines were
  hidden (--uvicorn-log-level warning) and that the operator stopped after a served request is healthy, not a stop
  that ended the start.
Messages marked 'rendered' are the source's format string filled with a value; the others are as a log showed them.
"""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

ARGS = "(APIServer pid=7) INFO 12-05 10:00:00 [api_utils.py:286] non-default args: {{{args}, 'model': 'm'}}\n"
UP_UDS = (
    "(APIServer pid=7) INFO 12-05 10:00:30 [entry.py:140] Starting vLLM server on unix:/run/vllm/api.sock\n"
)
UP_TCP = (
    "(APIServer pid=7) INFO 12-05 10:00:30 [entry.py:140] Starting vLLM server on {scheme}://0.0.0.0:8000\n"
)
UVICORN_UP = "INFO:     Started server process [7]\nINFO:     Waiting for application startup.\nINFO:     Application startup complete.\n"

CASES = [
    # --uds with curl over TCP (curl's exit 7; rendered)
    (
        "uds-replaces-host-port",
        ARGS.format(args="'host': '0.0.0.0', 'port': 8000, 'uds': '/run/vllm/api.sock'")
        + UP_UDS
        + UVICORN_UP
        + "curl: (7) Failed to connect to localhost port 8000 after 0 ms: Couldn't connect to server\n",
    ),
    # ... a Node client (undici's ECONNREFUSED)
    (
        "uds-replaces-host-port",
        UP_UDS
        + UVICORN_UP
        + "TypeError: fetch failed\n  [cause]: Error: connect ECONNREFUSED 127.0.0.1:8000\n",
    ),
    # --disable-fastapi-docs, the Swagger page and ReDoc (uvicorn's access line; rendered)
    (
        "fastapi-docs-disabled",
        ARGS.format(args="'disable_fastapi_docs': True")
        + UP_TCP.format(scheme="http")
        + UVICORN_UP
        + 'INFO:     10.0.0.5:51234 - "GET /docs HTTP/1.1" 404 Not Found\n',
    ),
    (
        "fastapi-docs-disabled",
        ARGS.format(args="'disable_fastapi_docs': True")
        + UVICORN_UP
        + 'INFO:     10.0.0.5:51234 - "GET /redoc HTTP/1.1" 404 Not Found\n',
    ),
    # --ssl-cert-reqs 2, curl without --cert (OpenSSL 3's TLS 1.3 alert; rendered)
    (
        "tls-client-cert-required",
        ARGS.format(args="'ssl_keyfile': 'k.pem', 'ssl_certfile': 'c.pem', 'ssl_cert_reqs': 2")
        + UP_TCP.format(scheme="https")
        + UVICORN_UP
        + "curl: (56) OpenSSL SSL_read: error:0A00045C:SSL routines::tlsv13 alert certificate required, errno 0\n",
    ),
    # ... a Python client with a certificate from a CA the server does not trust (ssl's alert; rendered)
    (
        "tls-client-cert-required",
        "$ vllm serve m --ssl-keyfile k.pem --ssl-certfile c.pem --ssl-cert-reqs 2\n"
        + UP_TCP.format(scheme="https")
        + UVICORN_UP
        + "ssl.SSLError: [SSL: TLSV1_ALERT_UNKNOWN_CA] tlsv1 alert unknown ca (_ssl.c:2580)\n",
    ),
]

NEAR_MISSES = [
    # a refused TCP client where the server listens on TCP (nothing says unix:) is not --uds's
    (
        "uds-replaces-host-port",
        UP_TCP.format(scheme="http") + UVICORN_UP + "httpx.ConnectError: [Errno 111] Connection refused\n",
    ),
    # a 404 on /docs without the flag (a proxy, another app) is not the flag's
    ("fastapi-docs-disabled", UVICORN_UP + 'INFO:     10.0.0.5:51234 - "GET /docs HTTP/1.1" 404 Not Found\n'),
    # with the flag, a 404 on an API route is another cause
    (
        "fastapi-docs-disabled",
        ARGS.format(args="'disable_fastapi_docs': True")
        + UVICORN_UP
        + 'INFO:     10.0.0.5:51234 - "POST /v1/embeddings HTTP/1.1" 404 Not Found\n',
    ),
    # a dropped connection without --ssl-cert-reqs 2 (ssl_cert_reqs 1, CERT_OPTIONAL, lets a client without one in)
    (
        "tls-client-cert-required",
        ARGS.format(args="'ssl_cert_reqs': 1")
        + UVICORN_UP
        + "httpx.RemoteProtocolError: Server disconnected without sending a response.\n",
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_stop_after_served_request_with_uvicorn_lines_hidden_is_healthy():
    """--uvicorn-log-level warning hides 'Application startup complete'; vLLM's own start line says the server came
    up, so the operator's SIGTERM after a 200 (and the EngineDeadError it causes) is no cause."""
    log = (
        "2026-12-05 10:00:30,001 INFO vllm.entrypoints.launchers.api_server.entry: Starting vLLM server on "
        "http://0.0.0.0:8000\n"
        "2026-12-05 10:01:00,001 INFO vllm.v1.engine.core: [shutdown] EngineCore: trigger received signal=SIGTERM\n"
        "2026-12-05 10:01:00,002 INFO vllm.entrypoints.launchers.launcher: [shutdown] API server: shutdown triggered\n"
        "2026-12-05 10:01:00,003 ERROR vllm.v1.engine.async_llm: AsyncLLM output_handler failed.\n"
        "Traceback (most recent call last):\n"
        '  File "/x/vllm/v1/engine/core_client.py", line 1235, in get_output_async\n'
        "    raise self._format_exception(outputs) from None\n"
        "vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue. See stack trace (above) for "
        "the root cause.\n"
        "# request: POST http://127.0.0.1:8000/v1/chat/completions {}\nHTTP/1.1 200 OK\n"
    )
    top = top_cause(run(log))
    assert top is None or top.confidence < 0.3, (top.id, top.confidence)


def test_stop_mid_start_before_vllm_start_line_still_answers():
    """Without vLLM's start line (nor uvicorn's), a stop followed by the engine's death is still the stop mid-start."""
    log = (
        "(EngineCore pid=8) INFO 12-05 10:00:10 [core.py:1454] [shutdown] EngineCore: trigger received signal=SIGTERM\n"
        "(APIServer pid=7) ERROR 12-05 10:00:10 [async_llm.py:906] AsyncLLM output_handler failed.\n"
        "vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue. See stack trace (above) for "
        "the root cause.\n"
    )
    top = top_cause(run(log))
    assert top is not None and top.id == "shutdown-requested", top and top.id
