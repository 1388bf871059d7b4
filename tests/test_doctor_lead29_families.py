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

# argparse relaying pydantic (vLLM 0.26's -cc / --speculative-config): the reason sits on the lines below argparse's
# 'N validation error for X' line, and an entry that reads the reason names the cause (fresh-79's two misses, written
# here with other flags and values)
ARGPARSE_PYDANTIC = (
    "usage: vllm serve [model_tag] [options]\n"
    "main.py serve: error: argument --{flag}: 1 validation error for {config}\n"
    "{reason}\n"
    "    For further information visit https://errors.pydantic.dev/2.14/v/{kind}\n"
)
CASES += [
    (
        "cli-invalid-json",
        ARGPARSE_PYDANTIC.format(
            flag="speculative-config/-sc",
            config="SpeculativeConfig",
            reason="  Invalid JSON: key must be a string at line 1 column 2 [type=json_invalid, "
            "input_value=\"{method: 'ngram'}\", input_type=str]",
            kind="json_invalid",
        ),
    ),
    (
        "compilation-config-invalid",
        ARGPARSE_PYDANTIC.format(
            flag="compilation-config/-cc",
            config="CompilationConfig",
            reason="mode\n  Value error, Invalid compilation mode: 5. Valid modes are: NONE, STOCK_TORCH_COMPILE, "
            "DYNAMO_TRACE_ONCE, VLLM_COMPILE [type=value_error, input_value=5, input_type=int]",
            kind="value_error",
        ),
    ),
]

# middleware-import-failed (fresh-95's --middleware json.Middleware): the other refusals of vLLM 0.32's
# entrypoints/serve/middleware/register.py loop, as its traceback shows them
MIDDLEWARE_FRAME = (
    '  File "/opt/vllm/lib/python3.12/site-packages/vllm/entrypoints/serve/middleware/register.py", line 66, '
    "in init_entrypoints_middleware\n"
)
CASES += [
    (
        "middleware-import-failed",
        MIDDLEWARE_FRAME
        + "    imported = getattr(importlib.import_module(module_path), object_name)\n"
        + "ModuleNotFoundError: No module named 'myorg_auth'\n",
    ),
    (
        "middleware-import-failed",
        MIDDLEWARE_FRAME + "    module_path, object_name = middleware.rsplit('.', 1)\n"
        "ValueError: not enough values to unpack (expected 2, got 1)\n",
    ),
    (
        "middleware-import-failed",
        "ValueError: Invalid middleware myorg.auth.TOKEN. Must be a function or a class.\n",
    ),
]

NEAR_MISSES = [
    # the same AttributeError with no middleware frame is another program's import
    (
        "middleware-import-failed",
        "  File \"/app/run.py\", line 3, in <module>\nAttributeError: module 'json' has no attribute 'Middleware'\n",
    ),
    # an Invalid JSON body refused by a server (a request, not a flag) is not a flag's JSON
    (
        "cli-invalid-json",
        '{"detail":[{"type":"json_invalid","loc":["body",12],"msg":"JSON decode error","input":{},'
        '"ctx":{"error":"Expecting value"}}]}\n'
        "Invalid JSON: expected value at line 1 column 13 [type=json_invalid, input_value='{\"model\": x}', "
        "input_type=str]\n",
    ),
    # llama-swap's other 400s: a body that is not JSON is not a missing model
    ("request-model-name-missing", "HTTP/1.1 400 Bad Request\nInvalid JSON\n"),
    # a model named but not listed is another refusal (model-name-not-served)
    (
        "request-model-name-missing",
        '{"error":{"code":400,"message":"model \'qwen3\' not found","type":"invalid_request_error"}}\n',
    ),
]

test_the_family_names_the_cause, test_a_near_miss_is_not_named_confidently = family_tests(CASES, NEAR_MISSES)
