"""Families the lead added in stop 29 from the engines' and routers' own sources, each tested on a wording other than
the one the entry was written from (a client's rendering, another release's capitalisation), and a near miss.
"""

from __future__ import annotations

from tests.doctor_text import family_tests

ROUTER_400 = (
    '{"error":{"code":400,"message":"model name is missing from the request","type":"invalid_request_error"}}'
)

CASES = [
    # request-model-name-missing: llama-server's router refusal as the openai client raises it (GET-less scraper too)
    (
        "request-model-name-missing",
        "openai.BadRequestError: Error code: 400 - {'error': {'code': 400, 'message': 'model name is missing from "
        "the request', 'type': 'invalid_request_error'}}\n",
    ),
    ("request-model-name-missing", "$ curl -s http://127.0.0.1:8080/metrics\n" + ROUTER_400 + "\n"),
    # llama-swap's refusal: current releases (sendErrorResponse) and older ones (http.Error, capitalised)
    (
        "request-model-name-missing",
        '[INFO] Request 10.0.0.5 "POST /v1/chat/completions HTTP/1.1" 400 30 "Go-http-client/1.1" 95us\n'
        "HTTP/1.1 400 Bad Request\nMissing or invalid 'model' key\n",
    ),
]

NEAR_MISSES = [
    # llama-swap's other 400s: a body that is not JSON is not a missing model
    ("request-model-name-missing", "HTTP/1.1 400 Bad Request\nInvalid JSON\n"),
    # a model named but not listed is another refusal (model-name-not-served)
    (
        "request-model-name-missing",
        '{"error":{"code":400,"message":"model \'qwen3\' not found","type":"invalid_request_error"}}\n',
    ),
]

test_the_family_names_the_cause, test_a_near_miss_is_not_named_confidently = family_tests(CASES, NEAR_MISSES)
