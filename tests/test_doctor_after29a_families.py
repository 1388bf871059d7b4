"""What the scored batches fresh-70 (public vLLM threads) and fresh-71 (the proxy chain in front of the engines)
taught after they were scored: each miss's family added or widened by the class of its wording, and one general
mechanism (an exception relayed inside an HTTP error body counts as raised).

Each log is written in ANOTHER wording than its corpus log (another version, program, proxy or class name, from the
programs' sources or a train-side thread), so the test checks the class of wording, not the one line it was learnt
from; the near misses check what must not match.
"""

from __future__ import annotations

from servebox.doctor.structure import ExceptionLine
from tests.doctor_text import family_tests, run, top_cause

CASES = [
    # vllm-internal-module-moved (fresh-70's kserve case): vLLM 0.20's renamed serving classes
    # (vllm/entrypoints/pooling/embed/serving.py `class ServingEmbedding(PoolingServing)`), here ServingChat read by a
    # framework written for OpenAIServingChat, relayed in a client's print of the 500 body
    (
        "vllm-internal-module-moved",
        "openai.InternalServerError: Error code: 500 - {'error': \"AttributeError: 'ServingChat' object has no "
        "attribute 'create_chat_completion'\"}\n",
    ),
    # transformers-version-mismatch (fresh-70's GLM-4.1V 'tokenizer'): vllm#19833 (train, round 11), Qwen2.5-Omni under
    # a development transformers, and the other signature skew, an argument the installed processor lacks
    (
        "transformers-version-mismatch",
        '  File "/usr/lib/python3.10/site-packages/transformers/processing_utils.py", line 1014, in from_args_and_dict\n'
        "    processor = cls(*args, **valid_kwargs)\n"
        "TypeError: Qwen2_5OmniProcessor.__init__() got multiple values for argument 'image_processor'\n",
    ),
    (
        "transformers-version-mismatch",
        "TypeError: Qwen2VLProcessor.__init__() got an unexpected keyword argument 'video_processor'\n",
    ),
    # engine-predates-model-config-format (fresh-70's Llama 3.1 in config.py): the same KeyError from old vLLM's
    # rotary_embedding.py get_rope, and transformers < 4.43's refusal of the same rope_type dict
    # (LlamaConfig._rope_scaling_validation)
    (
        "engine-predates-model-config-format",
        '  File "/opt/venv/lib/python3.10/site-packages/vllm/model_executor/layers/rotary_embedding.py", line 714, in get_rope\n'
        '    scaling_type = rope_scaling["type"]\n'
        "KeyError: 'type'\n",
    ),
    (
        "engine-predates-model-config-format",
        "ValueError: `rope_scaling` must be a dictionary with two fields, `type` and `factor`, got {'factor': 8.0, "
        "'low_freq_factor': 1.0, 'high_freq_factor': 4.0, 'original_max_position_embeddings': 8192, "
        "'rope_type': 'llama3'}\n",
    ),
    # vllm-no-platform-detected (fresh-70's Jetson, Python 3.12): Python 3.10's wording of the same unbound `mem`
    (
        "vllm-no-platform-detected",
        '  File "/usr/local/lib/python3.10/dist-packages/vllm/utils.py", line 812, in current_memory_usage\n'
        "    return mem\n"
        "UnboundLocalError: local variable 'mem' referenced before assignment\n",
    ),
    # reverse-proxy-read-timeout (fresh-71's nginx '... while reading upstream' on a stream): nginx's form before the
    # first byte (ngx_http_upstream.c), a Go proxy's (Caddy, Traefik: net/http's ResponseHeaderTimeout), Cloudflare's 524
    (
        "reverse-proxy-read-timeout",
        "2025/03/02 11:40:13 [error] 31#31: *88 upstream timed out (110: Connection timed out) while reading response "
        'header from upstream, client: 172.18.0.1, server: llm.local, request: "POST /v1/chat/completions HTTP/1.1", '
        'upstream: "http://172.18.0.3:8000/v1/chat/completions", host: "llm.local"\n',
    ),
    (
        "reverse-proxy-read-timeout",
        '{"level":"error","ts":1740915613.2,"logger":"http.log.error","msg":"net/http: timeout awaiting response '
        'headers","request":{"method":"POST","uri":"/v1/completions"},"status":502}\n',
    ),
    ("reverse-proxy-read-timeout", "openai.APIStatusError: Error code: 524 - A timeout occurred\n"),
    # openai-compatible-client-api-key-unset (fresh-71's LiteLLM hosted_vllm without api_key): openai-python's own
    # refusal (openai/_client.py) when a script points it at a local vLLM without a key
    (
        "openai-compatible-client-api-key-unset",
        "openai.OpenAIError: The api_key client option must be set either by passing api_key to the client or by "
        "setting the OPENAI_API_KEY environment variable\n",
    ),
    # client-provider-defect (fresh-71's Continue 'toLowerCase'): V8's other property, and Safari's wording
    (
        "client-provider-defect",
        "[Extension Host] Error handling webview message: TypeError: Cannot read properties of undefined (reading "
        "'content')\n",
    ),
    ("client-provider-defect", "TypeError: undefined is not an object (evaluating 'choice.delta.content')\n"),
]

NEAR_MISSES = [
    # nginx could not connect at all: the engine is down or on another port, not slow
    (
        "reverse-proxy-read-timeout",
        "2025/03/02 11:40:13 [error] 31#31: *88 upstream timed out (110: Connection timed out) while connecting to "
        'upstream, client: 172.18.0.1, upstream: "http://172.18.0.3:8000/v1/chat/completions"\n',
    ),
    # a bare 504 page or LiteLLM's own timeout is only a hint
    ("reverse-proxy-read-timeout", "<html><head><title>504 Gateway Time-out</title></head>\n"),
    (
        "reverse-proxy-read-timeout",
        "litellm.APIConnectionError: OllamaException - litellm.Timeout: Connection timed out after 600.0 seconds.\n",
    ),
    # LiteLLM's connection error is also an unreachable api_base: never confident
    (
        "openai-compatible-client-api-key-unset",
        "litellm.APIError: APIError: Hosted_vllmException - Connection error.\n",
    ),
    # another SDK's key (Stainless SDKs share the wording) is not the OpenAI-compatible client's
    (
        "openai-compatible-client-api-key-unset",
        "lithic.LithicError: The api_key client option must be set either by passing api_key to the client or by "
        "setting the LITHIC_API_KEY environment variable\n",
    ),
    # any other KeyError: 'type' (a request dict, a tool call) without the old vLLM's rope_scaling line
    (
        "engine-predates-model-config-format",
        '  File "/app/server.py", line 88, in handle\n    kind = message["type"]\nKeyError: \'type\'\n',
    ),
    # a rope_scaling source line with another KeyError is not the old format's
    (
        "engine-predates-model-config-format",
        "    scaling_type = rope_scaling[\"type\"]\nKeyError: 'factor'\n",
    ),
    # EngineArgs' unexpected argument stays vllm-internal-module-moved's, not transformers'
    (
        "transformers-version-mismatch",
        "TypeError: AsyncEngineArgs.__init__() got an unexpected keyword argument 'limit_mm_per_prompt'\n",
    ),
    # an unbound local of another name or function is a plain bug
    (
        "vllm-no-platform-detected",
        '  File "/app/vllm/utils.py", line 90, in parse\n    return out\n'
        "UnboundLocalError: cannot access local variable 'out' where it is not associated with a value\n",
    ),
]

test_the_family_names_the_cause, test_a_near_miss_is_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_an_exception_in_an_error_body_counts_as_raised():
    """kserve's handler formats the body as 'Type : message' (fresh-70); FastAPI's 'detail' and a client's print of
    a Python-repr body carry the same: each is the server's exception, the root, even with no entry for it."""
    for line in (
        "{\"error\":\"AttributeError : 'ServingEmbedding' object has no attribute 'create_embedding'\"}",
        '{"detail": "ValueError: invalid literal for int() with base 10: \'x\'"}',
        "openai.InternalServerError: Error code: 500 - {'error': 'KeyError: 42', 'code': 500}",
    ):
        result = run(line + "\n")
        assert result.exception is not None, line
        assert result.exception.type in ("AttributeError", "ValueError", "KeyError"), result.exception
        assert result.exception.line == 1


def test_the_relayed_exception_is_read_before_the_clients():
    """The client's InternalServerError is about the response; the server's KeyError inside it is the root."""
    result = run("openai.InternalServerError: Error code: 500 - {'error': 'KeyError: 42'}\n")
    assert result.exception is not None and result.exception.type == "KeyError"
    assert result.exception.message == "42"


def test_an_error_body_without_an_exception_is_not_one():
    """vLLM's own ErrorResponse and a 401 body carry messages, not exceptions: nothing is raised from them."""
    assert (
        ExceptionLine.relayed('{"object":"error","message":"The model `x` does not exist.","code":404}')
        is None
    )
    assert ExceptionLine.relayed('{"error": "Unauthorized"}') is None
    result = run('{"error":{"message":"Unauthorized","type":"invalid_request_error","code":401}}\n')
    assert result.exception is None
    top = top_cause(result)
    assert top is None or top.id != "uncaught-exception"


def test_escaped_quotes_in_a_json_body_are_read():
    exc = ExceptionLine.relayed('{"error": "ValueError: model \\"qwen\\" is not loaded"}')
    assert exc is not None and exc.type == "ValueError" and exc.message == 'model "qwen" is not loaded'
