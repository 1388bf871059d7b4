"""What the scored batch fresh-270 (llama-server b11434's HTTP layer, two settings combined) taught after scoring, with
the neighbourhood of each miss's check in llama.cpp b11434's tools/server/server-http.cpp and common/arg.cpp.

- llamacpp-port-0-multiple-hosts: server_http_context::init's '--port 0 is not supported with multiple TCP addresses'.
- llamacpp-http-listener-failed: its sibling in start(), "couldn't start HTTP listener on %s" and the listener thread's
  'listener on %s stopped unexpectedly'.
- llamacpp-api-prefix-malformed: a 404 'File Not Found' where --api-prefix lacks its leading '/' or ends in '/'.
- llamacpp-server-read-timeout-slow-client: cpp-httplib's empty 400 where -to / --timeout is short.
Messages marked 'rendered' are the source's format string filled with a value; the others are as a log showed them.
"""

from __future__ import annotations

from tests.doctor_text import family_tests

NOT_FOUND = '{"error":{"message":"File Not Found","type":"not_found_error","code":404}}\n'
EMPTY_400 = "HTTP/1.0 400 Bad Request\nServer: llama.cpp\nConnection: close\nContent-Length: 0\n"

CASES = [
    # init's refusal with the port given through the environment and a third address (rendered, SRV_ERR's prefix)
    (
        "llamacpp-port-0-multiple-hosts",
        "$ LLAMA_ARG_PORT=0 llama-server -m model.gguf --host 0.0.0.0,::,/run/llama.sock\n"
        "0.00.002.001 E srv          init: --port 0 is not supported with multiple TCP addresses\n"
        "0.00.002.004 E srv  llama_server: failed to initialize HTTP server\n",
    ),
    # start()'s listener that never ran, on a unix socket (rendered)
    (
        "llamacpp-http-listener-failed",
        "$ llama-server -m model.gguf --host /run/llama/llama.sock\n"
        "0.00.031.200 E srv         start: couldn't start HTTP listener on unix:///run/llama/llama.sock\n"
        "0.00.031.210 E srv  llama_server: exiting due to HTTP server error\n",
    ),
    # ... and one that stopped while serving (rendered)
    (
        "llamacpp-http-listener-failed",
        "0.00.500.000 I srv  llama_server: listening on http://0.0.0.0:8080\n"
        "1.20.000.000 E srv    operator(): listener on http://0.0.0.0:8080 stopped unexpectedly\n",
    ),
    # a trailing slash, set through the environment, the server's own trace line (rendered: 'done request: %s %s %s %d')
    (
        "llamacpp-api-prefix-malformed",
        "$ LLAMA_ARG_API_PREFIX=/llm/ llama-server -m model.gguf --port 8080 -lv 4\n"
        "0.00.300.000 I srv  llama_server: listening on http://127.0.0.1:8080\n"
        "0.02.000.000 T srv   log_server_r: done request: POST /llm/v1/completions 127.0.0.1 404\n",
    ),
    # no leading slash, '=' form, a GET of the models list
    (
        "llamacpp-api-prefix-malformed",
        "$ llama-server -m model.gguf --api-prefix=v2\n# request: GET http://127.0.0.1:8080/v2/v1/models\n"
        "HTTP/1.1 404 Not Found\n" + NOT_FOUND,
    ),
    # --timeout's long form, curl -i's HTTP/1.0 reply
    (
        "llamacpp-server-read-timeout-slow-client",
        "$ llama-server -m model.gguf --port 8080 --timeout 30\n"
        "0.00.300.000 I srv  llama_server: listening on http://127.0.0.1:8080\n" + EMPTY_400,
    ),
]

NEAR_MISSES = [
    # a well-formed prefix: the client left it out (a 404 that is not this family's)
    (
        "llamacpp-api-prefix-malformed",
        "$ llama-server -m model.gguf --api-prefix /api\n# request: POST http://127.0.0.1:8080/v1/chat/completions\n"
        "HTTP/1.1 404 Not Found\n" + NOT_FOUND,
    ),
    # the usage text names --api-prefix PREFIX; a 404 elsewhere in the log is not a malformed prefix
    (
        "llamacpp-api-prefix-malformed",
        "--api-prefix PREFIX                     prefix path the server serves from, without the trailing slash\n"
        "HTTP/1.1 404 Not Found\n" + NOT_FOUND,
    ),
    # the default timeout (600 s): an empty 400 is a malformed request, not a slow client
    (
        "llamacpp-server-read-timeout-slow-client",
        "$ llama-server -m model.gguf --port 8080\n" + EMPTY_400,
    ),
    # ... nor where the timeout was raised past the default
    (
        "llamacpp-server-read-timeout-slow-client",
        "$ llama-server -m model.gguf --port 8080 -to 3600\n" + EMPTY_400,
    ),
    # a short timeout, but llama-server's own 400 with its JSON reason (not the empty one)
    (
        "llamacpp-server-read-timeout-slow-client",
        "$ llama-server -m model.gguf -to 5\nHTTP/1.1 400 Bad Request\nContent-Length: 87\n"
        '{"error":{"code":400,"message":"\'messages\' is required","type":"invalid_request_error"}}\n',
    ),
    # start()'s bind failure is the sibling family's, not the listener's
    (
        "llamacpp-http-listener-failed",
        "0.00.014.866 E srv         start: couldn't bind HTTP server socket, hostname: 0.0.0.0, port: 8080\n",
    ),
    # one TCP address with --port 0 is fine: a later bind failure is not this family's
    (
        "llamacpp-port-0-multiple-hosts",
        "$ llama-server -m model.gguf --host 127.0.0.1 --port 0\n"
        "0.00.014.866 E srv         start: couldn't bind HTTP server socket, hostname: 127.0.0.1, port: 0\n",
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)
