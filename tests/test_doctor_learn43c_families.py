"""What the measured batch fresh-343 (llama-server b11434's operator endpoints and slots) taught: its first-contact
misses, learnt in general form from b11434's tools/server and common/arg.cpp source.

- llamacpp-api-key-file-crlf (new): --api-key-file read with std::getline keeps a CRLF file's '\\r' in the key, so the
  right key gets server-http.cpp's 401 'Invalid API Key'; counted only where the log shows the CR (a printf/echo with
  \\r into a file, file(1)'s 'with CRLF line terminators', cat -A's '^M$') above the 401, with --api-key-file on.
- request-prompt-token-id-out-of-vocab (widened): /detokenize checks no id; llama_vocab's id_to_token.at() throws and
  the route answers 500 with libstdc++'s 'vector::_M_range_check: __n (which is N) >= this->size() (which is V)'
  (MSVC: 'invalid vector subscript'), counted where the log shows a /detokenize request.
- llamacpp-metrics-scraped-with-post (new): /metrics is a GET route; a POST is httplib's 404, rewritten to
  'File Not Found', counted below the request's own POST .../metrics line (or the trace's 'done request: POST /metrics').
Logs are written here, the engine's lines rendered from the source's format strings (not the corpus logs' wording).
"""

from __future__ import annotations

from tests.doctor_text import family_tests

UNAUTHORIZED = (
    "0.01.204.331 W srv    operator(): unauthorized: Invalid API Key\n"
    "HTTP/1.1 401 Unauthorized\n"
    '{"error":{"message":"Invalid API Key","type":"authentication_error","code":401}}\n'
)
NOT_FOUND = '{"error":{"message":"File Not Found","type":"not_found_error","code":404}}\n'


def serve(flags: str) -> str:
    return (
        f"$ llama-server -m /srv/models/qwen2.5-0.5b-q8_0.gguf --host 0.0.0.0 --port 8080 {flags}\n"
        "0.00.412.020 I srv  llama_server: listening on http://0.0.0.0:8080\n"
    )


def range_check(path: str, body: str, n: int, size: int) -> str:
    """A request with the route's 500 (ex_wrapper's format_error_response of the std::out_of_range, rendered)."""
    message = f"vector::_M_range_check: __n (which is {n}) >= this->size() (which is {size})"
    return (
        serve("-c 4096")
        + f'0.02.100.000 W srv    operator(): got exception: {{"error":{{"code":500,"message":"{message}","type":"server_error"}}}}\n'
        + f"# request: POST http://127.0.0.1:8080{path} {body}\nHTTP/1.1 500 Internal Server Error\n"
        + f'{{"error":{{"code":500,"message":"{message}","type":"server_error"}}}}\n'
    )


CASES = [
    # file(1) names the CRLF ends of the key file the service then loads (a systemd unit's journal, rendered)
    (
        "llamacpp-api-key-file-crlf",
        "$ file /etc/llama/keys.txt\n/etc/llama/keys.txt: ASCII text, with CRLF line terminators\n"
        + serve("--api-key-file /etc/llama/keys.txt")
        + "# request: POST http://127.0.0.1:8080/v1/completions -H 'Authorization: Bearer team-key-42'\n"
        + UNAUTHORIZED,
    ),
    # cat -A shows the ^M; the file given through the environment (LLAMA_ARG_API_KEY_FILE)
    (
        "llamacpp-api-key-file-crlf",
        "$ cat -A keys.txt\nteam-key-42^M$\n$ LLAMA_ARG_API_KEY_FILE=keys.txt llama-server -m model.gguf --port 8080\n"
        "0.00.412.020 I srv  llama_server: listening on http://0.0.0.0:8080\n" + UNAUTHORIZED,
    ),
    # echo -e with a bare \r written to the file
    (
        "llamacpp-api-key-file-crlf",
        "$ echo -e 'team-key-42\\r' > /run/keys/llama\n"
        + serve("--api-key-file /run/keys/llama")
        + UNAUTHORIZED,
    ),
    # /detokenize with a negative id: the int32 wraps to a huge size_t in at() (rendered)
    (
        "request-prompt-token-id-out-of-vocab",
        range_check("/detokenize", '{"tokens": [-1, 15]}', 18446744073709551615, 151936),
    ),
    # ... an id of a bigger model's tokenizer
    (
        "request-prompt-token-id-out-of-vocab",
        range_check("/detokenize", '{"tokens": [151643]}', 151643, 32000),
    ),
    # a Windows build's MSVC wording of the same at()
    (
        "request-prompt-token-id-out-of-vocab",
        serve("-c 4096")
        + '# request: POST http://127.0.0.1:8080/detokenize {"tokens": [32000]}\nHTTP/1.1 500 Internal Server Error\n'
        + '{"error":{"code":500,"message":"invalid vector subscript","type":"server_error"}}\n',
    ),
    # curl -X POST to /metrics with a query (a scraper's misconfigured method)
    (
        "llamacpp-metrics-scraped-with-post",
        serve("--metrics") + "$ curl -s -X POST 'http://127.0.0.1:8080/metrics?model=qwen'\n" + NOT_FOUND,
    ),
    # the server's own trace line at -lv 4 (log_server_r, rendered), no body shown
    (
        "llamacpp-metrics-scraped-with-post",
        serve("--metrics -lv 4")
        + "0.05.000.120 T srv  log_server_r: done request: POST /metrics 10.0.0.7 404\n",
    ),
    # a proxy's access log in front of it
    (
        "llamacpp-metrics-scraped-with-post",
        serve("--metrics")
        + '10.0.0.9 - - [06/Dec/2026:08:00:00 +0000] "POST /metrics HTTP/1.1" 404 75\n'
        + NOT_FOUND,
    ),
]

NEAR_MISSES = [
    # --api-key-file and a 401 with no sign of a CR: the log cannot tell it from a wrong key (api-key-missing)
    (
        "llamacpp-api-key-file-crlf",
        serve("--api-key-file /etc/llama/keys.txt")
        + "# request: POST http://127.0.0.1:8080/v1/chat/completions -H 'Authorization: Bearer team-key-42'\n"
        + UNAUTHORIZED,
    ),
    # a CRLF key file, but the server was given --api-key itself: the file is not the server's key
    (
        "llamacpp-api-key-file-crlf",
        "$ printf 'team-key-42\\r\\n' > keys.txt\n" + serve("--api-key other-key") + UNAUTHORIZED,
    ),
    # a \r\n typed into a raw HTTP request piped to nc, not written to a file
    (
        "llamacpp-api-key-file-crlf",
        serve("--api-key-file keys.txt")
        + "$ printf 'GET /v1/models HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n' | nc 127.0.0.1 8080\n"
        + UNAUTHORIZED,
    ),
    # a range check on a chat (no /detokenize in the log): some other .at() in the engine
    (
        "request-prompt-token-id-out-of-vocab",
        range_check("/v1/chat/completions", '{"messages": []}', 3, 3),
    ),
    # vLLM's route list names /detokenize on every start: a C++ range check elsewhere in such a log is no token id's
    (
        "request-prompt-token-id-out-of-vocab",
        "(APIServer pid=1) INFO 12-06 08:00:00 [launcher.py:46] Route: /detokenize, Methods: POST\n"
        "terminate called after throwing an instance of 'std::out_of_range'\n"
        "  what():  vector::_M_range_check: __n (which is 4) >= this->size() (which is 4)\n",
    ),
    # a GET of a path the server lacks: a 404 for the path, not for the method
    (
        "llamacpp-metrics-scraped-with-post",
        serve("--metrics")
        + "# request: GET http://127.0.0.1:8080/metricz\nHTTP/1.1 404 Not Found\n"
        + NOT_FOUND,
    ),
    # a GET of /metrics without --metrics is the 501 naming the flag
    (
        "llamacpp-metrics-scraped-with-post",
        serve("")
        + "# request: GET http://127.0.0.1:8080/metrics\nHTTP/1.1 501 Not Implemented\n"
        + '{"error":{"code":501,"message":"This server does not support metrics endpoint. Start it with `--metrics`",'
        + '"type":"not_supported_error"}}\n',
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)
