"""Families learnt or widened by after33n from fresh-172's misses (vLLM 0.32's pooling request checks, an unquoted
--pooler-config, Matryoshka dimensions, a sentence-transformers modules.json of the wrong shape), each on a wording
other than its corpus log's. The refusals are 0.32's own texts (entrypoints/pooling/**, pooling_params.py,
transformers_utils/config.py), with the request named in each comment; the pydantic error dicts are what 0.32's
pydantic raised here (stop 33) for EmbeddingCompletionRequest(truncate_prompt_tokens=-7), with the 'body.' prefix the
server's 400 body gives a field; the 0.8-0.10 Matryoshka wording is as vLLM's docs quote it."""

from __future__ import annotations

import json

from tests.doctor_text import family_tests, run, top_cause


def vllm_400(message: str, path: str = "/v1/embeddings") -> str:
    """The access line and reply of a vLLM 0.32 server refusing one request (the body as the server sends it)."""
    body = {"error": {"message": message, "type": "BadRequestError", "param": None, "code": 400}}
    return (
        f'INFO:     127.0.0.1:41844 - "POST {path} HTTP/1.1" 400 Bad Request\n'
        f"HTTP/1.1 400 Bad Request\n{json.dumps(body, ensure_ascii=False, separators=(',', ':'))}\n"
    )


# /rerank top_n -1 (scoring/protocol.py top_n: Field(ge=0)): pydantic 2's range error on a body field
_RERANK_TOP_N = vllm_400(
    "1 validation error:\n  {'type': 'greater_than_equal', 'loc': 'body.top_n', 'msg': 'Input should be greater than"
    " or equal to 0', 'input': -1, 'ctx': {'ge': 0}}",
    "/rerank",
)
# FastAPI's own 422 (JSON form) for a chat request's stream_interval 0 (Field(ge=1))
_STREAM_INTERVAL_422 = (
    'INFO:     127.0.0.1:41844 - "POST /v1/chat/completions HTTP/1.1" 422 Unprocessable Entity\n'
    '{"detail":[{"type":"greater_than_equal","loc":["body","stream_interval"],"msg":"Input should be greater than or'
    ' equal to 1","input":0,"ctx":{"ge":1}}]}\n'
)
# /score max_tokens_per_query -3 (scoring/io_processor.py _validate_token_limit)
_SCORE_NEGATIVE = vllm_400("max_tokens_per_query must be a non-negative integer", "/score")
# /rerank max_tokens_per_query 8192 at --max-model-len 8192
_RERANK_QUERY_LIMIT = vllm_400(
    "max_tokens_per_query (8192) must be less than max_model_len (8192).", "/rerank"
)
# /pooling task 'embed' on a classify model, and a task the model has but the server was started for another
_POOLING_EMBED_ON_CLASSIFY = vllm_400(
    "Unsupported task: 'embed' Supported tasks: ['classify', 'token_classify'] (parameter=task)", "/pooling"
)
_POOLING_SWITCH_TASK = vllm_400(
    "Try switching the model's pooling_task via --pooler-config.task token_embed. (parameter=task)",
    "/pooling",
)
# the offline LLM.encode's wording (entrypoints/pooling/offline.py)
_OFFLINE_SWITCH_TASK = (
    'ValueError: Try switching the model\'s pooling_task via `PoolerConfig(task="token_classify")`\n'
)
# near miss: the same words raised at START by config/model.py (a --pooler-config task --convert's model lacks)
_START_TASK_CONFLICT = (
    '  File "/opt/venv/lib/python3.12/site-packages/vllm/config/model.py", line 1916, in get_pooling_task\n'
    "    raise RuntimeError(\n"
    "RuntimeError: Unsupported task: 'classify' Supported tasks: ['embed', 'token_embed']\n"
)
# a removed request parameter other than normalize: the same check's wording as an openai client prints it
_REMOVED_PARAM = (
    "openai.BadRequestError: Error code: 400 - {'object': 'error', 'message': 'Parameter `normalize` was removed; "
    "use `use_activation` instead. (parameter=normalize)', 'type': 'BadRequestError', 'param': 'normalize', "
    "'code': 400}\n"
)
# the request-time Matryoshka refusals (pooling_params.py) and vLLM 0.8-0.10's wording
_MRL_REQUEST = vllm_400(
    "Model '/models/bge-m3' does not support Matryoshka embeddings; dimensions must be unset (received dimensions=512)."
)
_MRL_RANGE = vllm_400("Model 'jina-v3' only supports dimensions in range [1, 1024], got 2048.")
_MRL_LISTED = vllm_400("Model 'nomic' only supports Matryoshka dimensions [64, 128, 256, 512, 768], got 100.")
_MRL_OLD = (
    '{"object":"error","message":"Model \\"BAAI/bge-m3\\" does not support matryoshka representation, changing output'
    ' dimensions will lead to poor results.","type":"BadRequestError","param":null,"code":400}\n'
)
# an unquoted --structured-outputs-config as vLLM 0.32's pydantic flag parsing relays it (another flag, another key)
_UNQUOTED_FLAG = (
    "api_server.py: error: argument --structured-outputs-config: 1 validation error for StructuredOutputsConfig\n"
    "  Invalid JSON: key must be a string at line 1 column 2 [type=json_invalid, input_value='{backend: xgrammar}',"
    " input_type=str]\n"
)
# near miss: the key quoted, only the value bare: not stripped quotes
_BARE_VALUE_ONLY = (
    "api_server.py: error: argument --pooler-config: 1 validation error for PoolerConfig\n"
    "  Invalid JSON: expected value at line 1 column 18 [type=json_invalid, input_value='{\"pooling_type\": MEAN}',"
    " input_type=str]\n"
)
# modules.json as a list of names (the same loop indexing a string), vLLM 0.10's frame
_ST_LIST_OF_NAMES = (
    "INFO 09-01 10:00:00 [config.py:700] Found sentence-transformers modules configuration.\n"
    "Traceback (most recent call last):\n"
    '  File "/opt/venv/lib/python3.12/site-packages/vllm/transformers_utils/config.py", line 702, in'
    " get_pooling_config\n"
    "    (item for item in modules_dict if item[\"type\"] == 'sentence_transformers.models.Pooling'),\n"
    "TypeError: string indices must be integers, not 'str'\n"
)
# near miss: the same TypeError elsewhere in config.py (not the modules.json loop)
_OTHER_TYPEERROR = (
    "Traceback (most recent call last):\n"
    '  File "/opt/venv/lib/python3.12/site-packages/vllm/transformers_utils/config.py", line 310, in get_config\n'
    '    model_type = config_dict["architectures"]["name"]\n'
    "TypeError: string indices must be integers, not 'str'\n"
)

CASES = [
    ("request-sampling-param-out-of-range", _RERANK_TOP_N),
    ("request-sampling-param-out-of-range", _STREAM_INTERVAL_422),
    ("request-sampling-param-out-of-range", _SCORE_NEGATIVE),
    ("request-truncation-above-context", _RERANK_QUERY_LIMIT),
    ("pooling-api-needs-convert", _POOLING_EMBED_ON_CLASSIFY),
    ("pooling-api-needs-convert", _POOLING_SWITCH_TASK),
    ("pooling-api-needs-convert", _OFFLINE_SWITCH_TASK),
    ("request-field-unknown-to-server", _REMOVED_PARAM),
    ("matryoshka-dimensions-unsupported", _MRL_REQUEST),
    ("matryoshka-dimensions-unsupported", _MRL_RANGE),
    ("matryoshka-dimensions-unsupported", _MRL_LISTED),
    ("matryoshka-dimensions-unsupported", _MRL_OLD),
    ("cli-invalid-json", _UNQUOTED_FLAG),  # after34t: no shell or unit in the log, the value as typed
    ("cli-invalid-json", _BARE_VALUE_ONLY),
    ("st-modules-json-not-a-list", _ST_LIST_OF_NAMES),
]

NEAR_MISSES = [
    # an engine config's bound (no 'body' in the loc) is a flag's, not a request's
    (
        "request-sampling-param-out-of-range",
        "pydantic_core._pydantic_core.ValidationError: 1 validation error for SchedulerConfig\n"
        "  {'type': 'greater_than_equal', 'loc': ('max_num_seqs',), 'msg': 'Input should be greater than or equal to"
        " 1', 'input': 0, 'ctx': {'ge': 1}}\n",
    ),
    # /pooling takes no dimensions for any model: not a Matryoshka refusal
    (
        "matryoshka-dimensions-unsupported",
        vllm_400("dimensions is currently not supported (parameter=dimensions)"),
    ),
    ("json-arg-quotes-stripped", _BARE_VALUE_ONLY),
    ("pooling-api-needs-convert", _START_TASK_CONFLICT),
    ("st-modules-json-not-a-list", _OTHER_TYPEERROR),
]

test_names_the_cause, test_near_miss_not_confident = family_tests(CASES, NEAR_MISSES)


def test_removed_parameter_names_its_replacement() -> None:
    top = top_cause(run(_REMOVED_PARAM))
    assert top is not None and "'normalize'" in top.cause and "use_activation" in top.cause


def test_pooling_task_names_the_task() -> None:
    top = top_cause(run(_POOLING_EMBED_ON_CLASSIFY))
    assert top is not None and "for embed" in top.cause and "'classify'" in top.cause
