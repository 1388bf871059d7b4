"""What the measured batches fresh-373 and fresh-375 taught at first contact (learn45b), with each miss's
neighbourhood in the engine's source.

- llamacpp-enable-thinking-kwarg-string (new): llama.cpp b11434 server-common.cpp oaicompat_chat_params_parse's
  'invalid type for "enable_thinking" (expected boolean, got string)' where the SERVER's default kwargs carry the
  string (common/arg.cpp --chat-template-kwargs, env LLAMA_ARG_CHAT_TEMPLATE_KWARGS) and no request body the log shows
  sent enable_thinking; request-field-wrong-type keeps the words where the request sent it.
- gpu-memory-utilization-above-one: vLLM 0.32 config/cache.py gpu_memory_utilization Field(gt=0, le=1), pydantic's
  less_than_equal under 'N validation error(s) for CacheConfig' (the field's line above) and in errors()' form.
- gpu-memory-utilization-not-positive (new): the same field's gt=0.
Messages are the source's format strings rendered with other values than the corpus logs' (marked 'rendered').
"""

from __future__ import annotations

from tests.doctor_text import family_tests

REFUSED = (
    '0.01.204.311 W srv    operator(): got exception: {"error":{"code":400,"message":"invalid type for '
    '\\"enable_thinking\\" (expected boolean, got string)","type":"invalid_request_error"}}\n'
)
DEPRECATED = (
    "0.00.000.512 W Setting 'enable_thinking' via --chat-template-kwargs is deprecated. "
    "Use --reasoning on / --reasoning off instead.\n"
)


def chat(body: str, route: str = "/v1/chat/completions") -> str:
    """A request as the corpus shows one, and llama-server's refusal of it (rendered)."""
    return (
        f"# request: POST http://127.0.0.1:8080{route} {body}\nHTTP/1.1 400 Bad Request\n"
        '{"error":{"code":400,"message":"invalid type for \\"enable_thinking\\" (expected boolean, got string)",'
        '"type":"invalid_request_error"}}\n'
    )


HELLO = '{"messages": [{"role": "user", "content": "hi"}]}'


def pydantic(config: str, field: str, line: str, prefix: str = "") -> str:
    """vLLM's create_engine_config refusal as pydantic prints it (rendered from its message templates)."""
    return "".join(
        f"{prefix}{text}\n"
        for text in (
            "Traceback (most recent call last):",
            '  File "/opt/venv/lib/python3.12/site-packages/vllm/engine/arg_utils.py", line 1702, in create_engine_config',
            f"pydantic_core._pydantic_core.ValidationError: 1 validation error for {config}",
            field,
            f"  {line}",
            f"    For further information visit https://errors.pydantic.dev/2.12/v/{line.split('[type=')[1].split(',')[0]}",
        )
    )


CASES = [
    # a systemd unit's ExecStart=, the JSON inside double quotes (escaped), "False" capitalised; journal lines below
    (
        "llamacpp-enable-thinking-kwarg-string",
        'ExecStart=/usr/local/bin/llama-server -m /srv/models/qwen3-4b.gguf --port 8080 --chat-template-kwargs "{\\"'
        'enable_thinking\\": \\"False\\"}"\n' + DEPRECATED + REFUSED + REFUSED,
    ),
    # the env form in a docker run, the refusal of /apply-template (the same parse), a body without enable_thinking
    (
        "llamacpp-enable-thinking-kwarg-string",
        '$ docker run -p 8080:8080 -e LLAMA_ARG_CHAT_TEMPLATE_KWARGS=\'{"enable_thinking":"no"}\' '
        "ghcr.io/ggml-org/llama.cpp:server -m /models/m.gguf\n" + DEPRECATED + chat(HELLO, "/apply-template"),
    ),
    # a router preset's key (models.ini), the child's refusal relayed
    (
        "llamacpp-enable-thinking-kwarg-string",
        '[qwen3]\nmodel = /srv/models/qwen3-4b.gguf\nchat-template-kwargs = {"enable_thinking": "false"}\n'
        + REFUSED,
    ),
    # the flag alone, before any chat met it: every chat will be refused
    (
        "llamacpp-enable-thinking-kwarg-string",
        '$ llama-server -m m.gguf --chat-template-kwargs=\'{"enable_thinking": "true", "foo": 1}\'\n'
        + DEPRECATED
        + "main: server is listening on http://127.0.0.1:8080\n",
    ),
    # the request sent the string itself: the request's field, even where the flag holds one too
    (
        "request-field-wrong-type",
        "$ llama-server -m m.gguf --chat-template-kwargs '{\"enable_thinking\": false}'\n"
        + DEPRECATED
        + chat('{"messages": [], "chat_template_kwargs": {"enable_thinking": "false"}}'),
    ),
    (
        "request-field-wrong-type",
        '$ llama-server -m m.gguf --chat-template-kwargs \'{"enable_thinking": "false"}\'\n'
        + chat('{"messages": [], "chat_template_kwargs": {"enable_thinking": "true"}}'),
    ),
    # 0.32's CacheConfig le=1, a percentage, under the API server's prefix (rendered)
    (
        "gpu-memory-utilization-above-one",
        pydantic(
            "CacheConfig",
            "gpu_memory_utilization",
            "Input should be less than or equal to 1 [type=less_than_equal, input_value=90.0, input_type=float]",
            "(APIServer pid=4242) ",
        ),
    ),
    # errors()' form, as a wrapper prints it
    (
        "gpu-memory-utilization-above-one",
        "ValueError: [{'type': 'less_than_equal', 'loc': ('gpu_memory_utilization',), 'msg': 'Input should be less "
        "than or equal to 1', 'input': 1.05, 'ctx': {'le': 1.0}}]\n",
    ),
    # gt=0: a negative (rendered), and errors()' form of 0
    (
        "gpu-memory-utilization-not-positive",
        pydantic(
            "CacheConfig",
            "gpu_memory_utilization",
            "Input should be greater than 0 [type=greater_than, input_value=-0.5, input_type=float]",
        ),
    ),
    (
        "gpu-memory-utilization-not-positive",
        "ValueError: [{'type': 'greater_than', 'loc': ('gpu_memory_utilization',), 'msg': 'Input should be greater "
        "than 0', 'input': 0, 'ctx': {'gt': 0.0}}]\n",
    ),
]

NEAR_MISSES = [
    # the flag's boolean (only deprecated), the request's string: the request's field, not the flag's
    (
        "llamacpp-enable-thinking-kwarg-string",
        "$ llama-server -m m.gguf --chat-template-kwargs '{\"enable_thinking\": false}'\n"
        + DEPRECATED
        + chat('{"messages": [], "chat_template_kwargs": {"enable_thinking": "false"}}'),
    ),
    # vLLM's --default-chat-template-kwargs is another server's flag (and another refusal)
    (
        "llamacpp-enable-thinking-kwarg-string",
        '$ vllm serve Qwen/Qwen3-0.6B --default-chat-template-kwargs \'{"enable_thinking": "false"}\'\n',
    ),
    # the same pydantic bound on another config's field (ObservabilityConfig.kv_cache_metrics_sample, gt=0, le=1)
    (
        "gpu-memory-utilization-above-one",
        pydantic(
            "ObservabilityConfig",
            "kv_cache_metrics_sample",
            "Input should be less than or equal to 1 [type=less_than_equal, input_value=1.5, input_type=float]",
        ),
    ),
    (
        "gpu-memory-utilization-not-positive",
        pydantic(
            "ObservabilityConfig",
            "kv_cache_metrics_sample",
            "Input should be greater than 0 [type=greater_than, input_value=0.0, input_type=float]",
        ),
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)
