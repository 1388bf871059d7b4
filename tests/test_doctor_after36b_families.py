"""What the scored batch fresh-222 (tokenizers on both engines, 2nd round) taught after scoring, with the neighbourhood
of each miss's check in vLLM 0.32's own source.

- chat-template-invalid: the start-up warm-up (renderers/base.py: one user message, no system) refused by the
  template's raise_exception() with a conversation-SHAPE complaint that message cannot deserve (system role,
  alternation, system position, allowed roles): the template raises whatever the conversation, so it ranks above
  chat-template-rejects-request. A warm-up refusal naming a request field (reasoning_effort) stays the request's.
- skip-tokenizer-init-needs-tokenizer: vLLM 0.32's refusals of each path that needs the tokenizer
  --skip-tokenizer-init never loaded (renderers/base.py get_tokenizer as an error body, 'Unable to get tokenizer
  because `skip_tokenizer_init=True`', text prompts, multimodal processors, output_mode, generative scoring); the
  warm-up's caught WARNING alone stays healthy.
Messages marked 'rendered' are the source's format string filled with a value; the others are as a log showed them.
"""

from __future__ import annotations

from tests.doctor_text import assert_named, family_tests

REPLY = '{{"error":{{"message":"{msg}","type":"BadRequestError","param":{param},"code":400}}}}\n'
W = "(APIServer pid=7) WARNING 12-05 10:00:00 [base.py:380] "
FLAG = "(APIServer pid=7) INFO 12-05 10:00:00 [api_utils.py:286] non-default args: {'skip_tokenizer_init': True}\n"


def warmup(error: str) -> str:
    """vLLM 0.32's caught warm-up failure as its logger prints it (rendered; the traceback's last frames)."""
    return (
        f"(APIServer pid=7) WARNING 12-05 10:00:00 [hf.py:839] Chat template rejected the request: {error}\n"
        f"{W}Chat template warmup failed\n{W}Traceback (most recent call last):\n"
        f'{W}  File "/venv/lib/python3.12/site-packages/transformers/utils/chat_template_utils.py", line 485, '
        "in raise_exception\n"
        f"{W}    raise jinja2.exceptions.TemplateError(message)\n"
        f"{W}jinja2.exceptions.TemplateError: {error}\n"
        f"{W}vllm.exceptions.VLLMValidationError: {error}\n"
        "(APIServer pid=7) INFO 12-05 10:00:01 [entry.py:140] Starting vLLM server on http://0.0.0.0:8000\n"
    )


def refused(error: str) -> str:
    """A chat request refused afterwards with the template's words (the access log and the client's reply)."""
    return (
        f"(APIServer pid=7) WARNING 12-05 10:00:05 [hf.py:839] Chat template rejected the request: {error}\n"
        'INFO:     127.0.0.1:40280 - "POST /v1/chat/completions HTTP/1.1" 400 Bad Request\n'
        "HTTP/1.1 400 Bad Request\n" + REPLY.format(msg=error, param="null")
    )


TOK_WARMUP = (
    f"{W}Chat template warmup failed\n{W}Traceback (most recent call last):\n"
    f'{W}  File "/venv/lib/python3.12/site-packages/vllm/renderers/base.py", line 217, in get_tokenizer\n'
    f'{W}    raise ValueError("Tokenizer not available when `skip_tokenizer_init=True`")\n'
    f"{W}ValueError: Tokenizer not available when `skip_tokenizer_init=True`\n"
    "(APIServer pid=7) INFO 12-05 10:00:01 [entry.py:140] Starting vLLM server on http://0.0.0.0:8000\n"
)

ALTERNATE = "Conversation roles must alternate user/assistant/user/assistant/..."

CASES = [
    # Llama-2 / Mistral's alternation check raised on the warm-up's lone user message (rendered), a request alike
    ("chat-template-invalid", warmup(ALTERNATE) + refused(ALTERNATE)),
    # Mistral v0.3's wording, the warm-up only (the server came up, no request yet: still the template's fault)
    (
        "chat-template-invalid",
        warmup(
            "After the optional system message, conversation roles must alternate user/assistant/user/assistant/..."
        ),
    ),
    # Mistral's allowed-roles check (rendered) raised at the warm-up, then a request with a system message
    (
        "chat-template-invalid",
        warmup(
            "Only user, assistant and tool roles are supported, with the exception of an initial optional system message!"
        )
        + refused(
            "Only user, assistant and tool roles are supported, with the exception of an initial optional system message!"
        ),
    ),
    # renderers/base.py get_tokenizer as the reply of /tokenize under --skip-tokenizer-init (rendered)
    (
        "skip-tokenizer-init-needs-tokenizer",
        FLAG
        + TOK_WARMUP
        + 'INFO:     127.0.0.1:5 - "POST /tokenize HTTP/1.1" 400 Bad Request\nHTTP/1.1 400 Bad Request\n'
        + REPLY.format(msg="Tokenizer not available when `skip_tokenizer_init=True`", param="null"),
    ),
    # ... as the openai client raises it (Python repr of the body)
    (
        "skip-tokenizer-init-needs-tokenizer",
        "openai.BadRequestError: Error code: 400 - {'error': {'message': 'Tokenizer not available when "
        "`skip_tokenizer_init=True`', 'type': 'BadRequestError', 'param': None, 'code': 400}}\n",
    ),
    # completion/serving.py logprobs as text (rendered, VLLMValidationError with its parameter)
    (
        "skip-tokenizer-init-needs-tokenizer",
        REPLY.format(
            msg="Unable to get tokenizer because `skip_tokenizer_init=True` (parameter=skip_tokenizer_init, "
            "value=True)",
            param='"skip_tokenizer_init"',
        ),
    ),
    # multimodal/processing/context.py: a text prompt to a multimodal model (rendered)
    (
        "skip-tokenizer-init-needs-tokenizer",
        'Traceback (most recent call last):\n  File "/home/me/run.py", line 9, in <module>\n'
        "ValueError: You cannot pass text prompts when `skip_tokenizer_init=True`\n",
    ),
    # multimodal/processing/processor.py (rendered with a processor class name)
    (
        "skip-tokenizer-init-needs-tokenizer",
        "(EngineCore pid=9) ValueError: Qwen2VLMultiModalProcessor requires a tokenizer and cannot be initialized "
        "when `skip_tokenizer_init=True`. Disable `--skip-tokenizer-init`.\n",
    ),
    # scale_out/token_in_token_out/serving.py (rendered)
    (
        "skip-tokenizer-init-needs-tokenizer",
        REPLY.format(
            msg="output_mode='text' requires a tokenizer, but this server does not load one (--tokens-only or "
            "--skip-tokenizer-init). Send the request to a server that loads a tokenizer, or use output_mode='tokens'.",
            param="null",
        ),
    ),
    # generate/generative_scoring/serving.py, with the flag shown at start (rendered)
    (
        "skip-tokenizer-init-needs-tokenizer",
        FLAG
        + REPLY.format(
            msg="Tokenizer not available. Cannot process generative scoring request.", param="null"
        ),
    ),
]

NEAR_MISSES = [
    # a shape complaint only at request time (no warm-up failure): the request's shape, not the template
    ("chat-template-invalid", refused("System role not supported")),
    # the warm-up refused for a request FIELD it never sends (fresh-171's shape): the request's, not the template
    (
        "chat-template-invalid",
        warmup("reasoning_effort is required: one of low, medium, high")
        + refused("reasoning_effort is required: one of low, medium, high"),
    ),
    # the warm-up's caught WARNING under --skip-tokenizer-init, then healthy token-id requests: no failure
    (
        "skip-tokenizer-init-needs-tokenizer",
        FLAG + TOK_WARMUP + 'INFO:     127.0.0.1:5 - "POST /v1/completions HTTP/1.1" 200 OK\n',
    ),
    # structured outputs' own refusal under the flag is structured-outputs-need-tokenizer's
    (
        "skip-tokenizer-init-needs-tokenizer",
        REPLY.format(
            msg="Structured outputs requires a tokenizer so it can't be used with 'skip_tokenizer_init'",
            param="null",
        ),
    ),
    # generative scoring's refusal without the flag in sight: not this cause by itself
    (
        "skip-tokenizer-init-needs-tokenizer",
        REPLY.format(msg="Tokenizer not available. Cannot process generative scoring request.", param="null"),
    ),
]

test_families_name_the_cause, test_near_misses_are_not_named_confidently = family_tests(CASES, NEAR_MISSES)


def test_request_time_shape_complaint_stays_the_requests():
    """Without the warm-up's refusal, 'System role not supported' is the request's system message."""
    assert_named("chat-template-rejects-request", refused("System role not supported"))


def test_warmup_field_refusal_stays_the_requests():
    """A warm-up refused for reasoning_effort (a field the warm-up never sends) is the request's to supply."""
    msg = "reasoning_effort is required: one of low, medium, high"
    assert_named("chat-template-rejects-request", warmup(msg) + refused(msg))


def test_structured_outputs_refusal_keeps_its_family():
    """The flag's structured-outputs refusal has its own family and fix (send no response_format)."""
    assert_named(
        "structured-outputs-need-tokenizer",
        REPLY.format(
            msg="Structured outputs requires a tokenizer so it can't be used with 'skip_tokenizer_init'",
            param="null",
        ),
    )
