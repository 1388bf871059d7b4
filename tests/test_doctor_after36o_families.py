"""What the scored batch fresh-238 (vLLM 0.32's other API surfaces, 2nd round) taught after scoring, with the
neighbourhood of each miss's check in vLLM 0.32's own source.

- profiler-not-configured: a bare 404 on /start_profile or /stop_profile, routes serve/profile/api_router.py registers
  only when --profiler-config chooses a profiler; only with vLLM's start or FastAPI's no-route body in the log.
- responses-id-not-found: responses/serving.py _make_not_found_error (retrieve, cancel, previous_response_id) and the
  background stream's 'Unknown response_id'; endpoint-not-served-by-runner no longer takes such a 404.
- responses-cancel-not-background, responses-background-needs-store: cancel_responses' and
  _validate_create_responses_input's other refusals.
- route-needs-server-flag: /tokenizer_info (--enable-tokenizer-info-endpoint) and /fault_tolerance/* (--enable-fault-
  tolerance), the other routes 0.32 registers only under a start flag.
Messages marked 'rendered' are the source's format string filled with a value; the others are as a log showed them.
"""

from __future__ import annotations

from tests.doctor_text import assert_named, family_tests

START = "(APIServer pid=4242) INFO 12-05 10:00:00 [entry.py:136] Supported tasks: ['generate']\n"
REPLY = '{{"error":{{"message":"{msg}","type":"invalid_request_error","param":"{param}","code":{code}}}}}\n'


def access(method: str, path: str, code: str = "404 Not Found") -> str:
    return f'INFO:     127.0.0.1:50100 - "{method} {path} HTTP/1.1" {code}\n'


CASES = [
    # routes registered only under a start flag (serve/tokenize attach_router; routers.py fault tolerance; rendered)
    ("route-needs-server-flag", START + access("GET", "/tokenizer_info")),
    ("route-needs-server-flag", access("POST", "/fault_tolerance/apply") + '{"detail":"Not Found"}\n'),
    # /stop_profile, the sibling route of the same attach_router, after vLLM's start (rendered access line)
    ("profiler-not-configured", START + access("POST", "/stop_profile")),
    # /start_profile with only the client's view: FastAPI's no-route body (older release's start line absent)
    (
        "profiler-not-configured",
        access("POST", "/start_profile")
        + '# request: POST /start_profile\nHTTP/1.1 404 Not Found\n{"detail":"Not Found"}\n',
    ),
    # GET /v1/responses/{id}: retrieve_responses' not-found (rendered from _make_not_found_error)
    (
        "responses-id-not-found",
        START
        + access("GET", "/v1/responses/resp_abc123")
        + "HTTP/1.1 404 Not Found\n"
        + REPLY.format(msg="Response with id 'resp_abc123' not found.", param="response_id", code=404),
    ),
    # POST /v1/responses with previous_response_id naming an unknown id (same helper, the create route)
    (
        "responses-id-not-found",
        START
        + access("POST", "/v1/responses")
        + REPLY.format(msg="Response with id 'resp_prev42' not found.", param="response_id", code=404),
    ),
    # the background stream's event queue missing (rendered VLLMValidationError)
    (
        "responses-id-not-found",
        START
        + access("GET", "/v1/responses/resp_zz?stream=true", "400 Bad Request")
        + REPLY.format(msg="Unknown response_id: resp_zz", param="response_id", code=400),
    ),
    # cancel_responses on a finished response (rendered)
    (
        "responses-cancel-not-background",
        START
        + access("POST", "/v1/responses/resp_done/cancel", "400 Bad Request")
        + REPLY.format(msg="Cannot cancel a synchronous response.", param="response_id", code=400),
    ),
    # background=true without VLLM_ENABLE_RESPONSES_API_STORE (rendered)
    (
        "responses-background-needs-store",
        START
        + access("POST", "/v1/responses", "400 Bad Request")
        + REPLY.format(
            msg="This vLLM engine does not support `store=True` and therefore does not support the background mode. "
            "To enable these features, set the environment variable `VLLM_ENABLE_RESPONSES_API_STORE=1` when "
            "launching the vLLM server.",
            param="background",
            code=400,
        ),
    ),
]

NEAR_MISSES = [
    # /tokenize is always served: its 404 is a model name refused, never route-needs-server-flag's
    (
        "route-needs-server-flag",
        START
        + access("POST", "/tokenize")
        + '{"error":{"message":"The model `x` does not exist.","code":404}}\n',
    ),
    # a 404 on /start_profile with no sign of vLLM or FastAPI (another server's own route table): not the profiler's
    ("profiler-not-configured", access("POST", "/start_profile")),
    # a 404 on /start_profile_report (no such vLLM route at all): not the profiler's route
    ("profiler-not-configured", START + access("POST", "/start_profile_report")),
    # a served model name refused on /v1/responses: model-name-not-served's, not a stored id
    (
        "responses-id-not-found",
        START
        + access("POST", "/v1/responses")
        + '{"error":{"message":"The model `gpt-4o-mini` does not exist.","type":"NotFoundError","param":"model",'
        '"code":404}}\n',
    ),
    # vLLM's not-found body for a response id: never the missing-route family
    (
        "endpoint-not-served-by-runner",
        START
        + access("POST", "/v1/responses/resp_1/cancel")
        + REPLY.format(msg="Response with id 'resp_1' not found.", param="response_id", code=404),
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_responses_subpath_without_route_is_still_missing_route():
    """A pooling model has no /v1/responses/{id} at all: FastAPI's no-route body keeps it endpoint-not-served."""
    assert_named(
        "endpoint-not-served-by-runner",
        "(APIServer pid=1) INFO 12-05 10:00:00 [entry.py:136] Supported tasks: ['embed', 'token_embed']\n"
        + access("POST", "/v1/responses/resp_1/cancel")
        + '{"detail":"Not Found"}\n',
    )
