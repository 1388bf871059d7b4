"""What learn55b learnt from fresh-522 (vLLM's other API surfaces), on logs written here from the engines' own wordings
(vLLM 0.32's FastAPI/uvicorn answers, llama.cpp b11434's cpp-httplib routing, curl 7.88 / httpx / requests / aiohttp /
openai-python as run here), not copies of the batch's log.

- request-method-not-allowed (new, knowledge/requests.toml): fresh522-vllm-04-messages-count-tokens-get, a GET to the
  POST-only /v1/messages/count_tokens, read as no failure (its 405 matched no family: request-refused-no-reason reads
  POST lines only). vLLM registers each API route for one method; Starlette answers any other 405 with 'allow:' and
  FastAPI's {"detail":"Method Not Allowed"}. The by_value table (vLLM 0.32's routes) names the method the route takes.
- llamacpp-route-wrong-method (new, knowledge/llama-cpp.toml): llama-server answers the same mistake 404 'File Not
  Found' (cpp-httplib dispatches among one method's handlers only), logging nothing: it counts below the request's
  own line (curl with its method and URL).
- method_retried.retried_aside: a 405 whose route then answered a POST with success was put right: nothing failed.
"""

from __future__ import annotations

import pytest

from tests.doctor_text import answer_ids, run, top_cause

NOT_ALLOWED = "request-method-not-allowed"
LLAMA_WRONG = "llamacpp-route-wrong-method"

VLLM_HEAD = (
    "$ vllm serve Qwen/Qwen2.5-0.5B-Instruct --port 8000\n"
    "(APIServer pid=4101) INFO 03-02 10:00:01 [api_server.py:1880] vLLM API server version 0.32.0\n"
    "(APIServer pid=4101) INFO 03-02 10:01:20 [launcher.py:186] Available routes are:\n"
    "(APIServer pid=4101) INFO 03-02 10:01:20 [launcher.py:195] Route: /health, Methods: GET\n"
    "(APIServer pid=4101) INFO 03-02 10:01:20 [launcher.py:195] Route: /v1/models, Methods: GET\n"
    "(APIServer pid=4101) INFO 03-02 10:01:20 [launcher.py:195] Route: /v1/chat/completions, Methods: POST\n"
    "(APIServer pid=4101) INFO 03-02 10:01:20 [launcher.py:195] Route: /v1/messages, Methods: POST\n"
    "INFO:     Started server process [4101]\n"
    "INFO:     Application startup complete.\n"
)
LLAMA_HEAD = (
    "$ llama-server -m /srv/models/qwen-0.5b-q8.gguf --port 8088\n"
    "0.00.402.911 I srv  llama_server: model loaded\n"
    "0.00.402.950 I srv  llama_server: listening on http://127.0.0.1:8088\n"
)

VLLM_CASES = [
    # uvicorn's access line: a GET to a POST route (the route's method from the table)
    ('INFO:     127.0.0.1:51590 - "GET /v1/chat/completions HTTP/1.1" 405 Method Not Allowed\n', "POST"),
    # the inverse: a POST to a GET route, and a load balancer's HEAD health check
    ('INFO:     10.0.0.9:40112 - "POST /v1/models HTTP/1.1" 405 Method Not Allowed\n', "GET"),
    ('INFO:     10.0.0.4:33012 - "HEAD /health HTTP/1.1" 405 Method Not Allowed\n', "GET"),
    # curl -i's view only (its allow: header)
    (
        "$ curl -sS -i http://127.0.0.1:8000/v1/messages\nHTTP/1.1 405 Method Not Allowed\nserver: uvicorn\n"
        'allow: POST\ncontent-type: application/json\n\n{"detail":"Method Not Allowed"}\n',
        "405",
    ),
    # curl --fail
    ("$ curl -fsS http://127.0.0.1:8000/tokenize\ncurl: (22) The requested URL returned error: 405\n", "405"),
    # httpx's and requests' raise_for_status, aiohttp's ClientResponseError
    (
        "httpx.HTTPStatusError: Client error '405 Method Not Allowed' for url "
        "'http://127.0.0.1:8000/v1/embeddings'\n",
        "POST",
    ),
    (
        "requests.exceptions.HTTPError: 405 Client Error: Method Not Allowed for url: "
        "http://127.0.0.1:8000/v1/models\n",
        "GET",
    ),
    (
        "aiohttp.client_exceptions.ClientResponseError: 405, message='Method Not Allowed', "
        "url='http://127.0.0.1:8000/v1/completions'\n",
        "POST",
    ),
    # openai-python: 405 has no class of its own (APIStatusError)
    ("openai.APIStatusError: Error code: 405 - {'detail': 'Method Not Allowed'}\n", "405"),
]


@pytest.mark.parametrize(("tail", "word"), VLLM_CASES)
def test_a_method_the_route_does_not_take_is_named(tail, word):
    log = VLLM_HEAD + tail
    top = top_cause(run(log))
    assert top is not None and top.id == NOT_ALLOWED, answer_ids(log)
    assert top.confidence >= 0.7
    assert word in top.cause + top.fix


def test_the_route_table_names_the_method_the_route_takes():
    log = (
        VLLM_HEAD
        + 'INFO:     127.0.0.1:51590 - "GET /v1/messages/count_tokens HTTP/1.1" 405 Method Not Allowed\n'
    )
    top = top_cause(run(log))
    assert top is not None and top.id == NOT_ALLOWED
    assert "GET /v1/messages/count_tokens" in top.cause and "for POST only" in top.cause
    assert "with POST" in top.fix


LLAMA_CASES = [
    ("$ curl -sS http://127.0.0.1:8088/v1/chat/completions\n", "GET", "POST"),
    ("$ curl -sS -X POST http://127.0.0.1:8088/health\n", "POST", "GET"),
    ("$ curl -sS -d '{\"a\": 1}' http://127.0.0.1:8088/v1/models\n", "POST", "GET"),
    ("$ curl -s -X DELETE http://127.0.0.1:8088/slots\n", "DELETE", "GET"),
]
FILE_NOT_FOUND = '{"error":{"message":"File Not Found","type":"not_found_error","code":404}}\n'


@pytest.mark.parametrize(("request_line", "sent", "takes"), LLAMA_CASES)
def test_llama_server_answers_a_wrong_method_404(request_line, sent, takes):
    log = LLAMA_HEAD + "# second terminal:\n" + request_line + FILE_NOT_FOUND
    top = top_cause(run(log))
    assert top is not None and top.id == LLAMA_WRONG, answer_ids(log)
    assert f"sent {sent}" in top.cause and f"for {takes} only" in top.cause


def test_a_405_put_right_by_a_post_is_no_failure():
    """The client retried with POST and got 200: nothing failed."""
    log = (
        VLLM_HEAD
        + 'INFO:     127.0.0.1:51590 - "GET /v1/messages/count_tokens HTTP/1.1" 405 Method Not Allowed\n'
        + 'INFO:     127.0.0.1:51594 - "POST /v1/messages/count_tokens HTTP/1.1" 200 OK\n'
    )
    assert NOT_ALLOWED not in answer_ids(log)
    top = top_cause(run(log))
    assert top is None or top.confidence < 0.7


def test_a_405_then_another_route_answered_stays():
    """A POST answered on another route does not put the 405 right."""
    log = (
        VLLM_HEAD
        + 'INFO:     127.0.0.1:51590 - "GET /v1/messages/count_tokens HTTP/1.1" 405 Method Not Allowed\n'
        + 'INFO:     127.0.0.1:51594 - "POST /v1/chat/completions HTTP/1.1" 200 OK\n'
    )
    top = top_cause(run(log))
    assert top is not None and top.id == NOT_ALLOWED


NEAR_MISSES = [
    # a 404 on an unknown route is no method mismatch
    VLLM_HEAD + 'INFO:     127.0.0.1:51590 - "GET /v1/count_tokens HTTP/1.1" 404 Not Found\n',
    # a CORS preflight refused is its own family
    VLLM_HEAD + 'INFO:     127.0.0.1:51590 - "OPTIONS /v1/models HTTP/1.1" 405 Method Not Allowed\n',
    # healthy answers
    VLLM_HEAD + 'INFO:     127.0.0.1:51590 - "POST /v1/messages/count_tokens HTTP/1.1" 200 OK\n',
    # llama-server: a plain GET to a GET route, a POST with a body to a POST route, then an unrelated 404
    LLAMA_HEAD + "$ curl -sS http://127.0.0.1:8088/health\n" + FILE_NOT_FOUND,
    LLAMA_HEAD
    + "$ curl -sS -X POST -d @body.json http://127.0.0.1:8088/v1/chat/completions\n"
    + FILE_NOT_FOUND,
    # llama-server's 404 with no request line to read
    LLAMA_HEAD + FILE_NOT_FOUND,
]


@pytest.mark.parametrize("log", NEAR_MISSES)
def test_near_misses_are_not_a_wrong_method(log):
    ids = answer_ids(log)
    assert NOT_ALLOWED not in ids and LLAMA_WRONG not in ids, ids


def test_a_cors_preflight_405_stays_cors():
    log = NEAR_MISSES[1]
    top = top_cause(run(log))
    assert top is not None and top.id == "server-cors-preflight-refused", answer_ids(log)
