"""What the scored batch fresh-229 (chat templates on vLLM, 3rd round) taught after scoring, with the neighbourhood of
each miss in vLLM 0.32's chat renderer (renderers/hf.py, renderers/chat_utils.py) and transformers' apply_chat_template.

- request-prompt-empty: a chat with an empty messages list; transformers refuses it before any template runs (vLLM's
  hf.py labels it 'Chat template rejected the request'), and its siblings (vLLM's Cohere route, mistral_common).
- chat-template-content-type-mismatch: jinja2's UndefinedError of a content-form mismatch (a part's field read off a
  string content, a string method called on a parts list), as --chat-template-content-format string against a
  parts-reading template raises it at the warm-up and on every request.
- chat-content-part-type-unknown: the same parser's refusals of a part with no 'type' or a non-string one.
Messages marked 'rendered' are the source's format string filled with a value; the others are as a log showed them.
"""

from __future__ import annotations

from tests.doctor_text import family_tests

REPLY = '{{"error":{{"message":"{msg}","type":"BadRequestError","param":{param},"code":400}}}}\n'
REQ = '# request: POST http://127.0.0.1:8000/v1/chat/completions {{"model": "m", "messages": {messages}}}\n'
HF = "(APIServer pid=7) WARNING 12-05 10:00:00 [hf.py:839] Chat template rejected the request: {msg}\n"
ACCESS = 'INFO:     127.0.0.1:5000 - "POST /v1/chat/completions HTTP/1.1" 400 Bad Request\n'
WARMUP = (
    "(APIServer pid=7) WARNING 12-05 10:00:00 [base.py:380] Chat template warmup failed\n"
    "(APIServer pid=7) WARNING 12-05 10:00:00 [base.py:380] Traceback (most recent call last):\n"
    '(APIServer pid=7) WARNING 12-05 10:00:00 [base.py:380]   File "<template>", line 1, in top-level template code\n'
    "(APIServer pid=7) WARNING 12-05 10:00:00 [base.py:380] jinja2.exceptions.UndefinedError: {msg}\n"
)
FORMAT_WARNING = (
    "(APIServer pid=7) WARNING 12-05 10:00:00 [hf.py:654] You specified `--chat-template-content-format {given}` "
    "which is different from the detected format '{detected}'. If our automatic detection is incorrect, please "
    "consider opening a GitHub issue so that we can improve it: https://github.com/vllm-project/vllm/issues/new/choose\n"
)

CASES = [
    # an empty chat as the client sees it (the reply body alone, no server log)
    (
        "request-prompt-empty",
        REQ.format(messages="[]")
        + "HTTP/1.1 400 Bad Request\n"
        + REPLY.format(
            msg="Cannot apply chat template to an empty conversation. Provide at least one message.",
            param="null",
        ),
    ),
    # ... through the openai client in a script (transformers' ValueError relayed)
    (
        "request-prompt-empty",
        "openai.BadRequestError: Error code: 400 - {'error': {'message': 'Cannot apply chat template to an empty "
        "conversation. Provide at least one message.', 'type': 'BadRequestError', 'param': None, 'code': 400}}\n",
    ),
    # vLLM 0.32's Cohere route (entrypoints/cohere/protocol.py; rendered, with VLLMValidationError's parameter suffix)
    (
        "request-prompt-empty",
        "# request: POST http://127.0.0.1:8000/v2/chat {}\nHTTP/1.1 400 Bad Request\n"
        + REPLY.format(
            msg="messages must contain at least one message (parameter=messages)", param='"messages"'
        ),
    ),
    # mistral_common's validator under --tokenizer-mode mistral (rendered)
    (
        "request-prompt-empty",
        "mistral_common.exceptions.InvalidMessageStructureException: Conversation must have at least one message\n"
        + ACCESS,
    ),
    # the reverse form mismatch: a text-joining template given a parts list (--chat-template-content-format openai
    # forced on it; jinja2's message rendered with the sandbox)
    (
        "chat-template-content-type-mismatch",
        FORMAT_WARNING.format(given="openai", detected="string")
        + WARMUP.format(msg="'list object' has no attribute 'strip'")
        + HF.format(msg="'list object' has no attribute 'strip'")
        + ACCESS,
    ),
    # a parts-reading template reading 'type' off a string content (rendered with the sandbox), request only
    (
        "chat-template-content-type-mismatch",
        HF.format(msg="'str object' has no attribute 'type'")
        + ACCESS
        + REQ.format(messages='[{"role": "user", "content": "hi"}]')
        + "HTTP/1.1 400 Bad Request\n"
        + REPLY.format(msg="'str object' has no attribute 'type'", param="null"),
    ),
    # the content-part parser's siblings (renderers/chat_utils.py; rendered)
    (
        "chat-content-part-type-unknown",
        "HTTP/1.1 400 Bad Request\n"
        + REPLY.format(msg="Missing 'type' field in multimodal part.", param='"type"'),
    ),
    (
        "chat-content-part-type-unknown",
        "HTTP/1.1 400 Bad Request\n"
        + REPLY.format(msg="Invalid 'type' field in multimodal part.", param='"type"'),
    ),
]

NEAR_MISSES = [
    # an empty COMPLETION prompt stays request-prompt-empty's, but a chat whose template raises on a shape is not
    (
        "request-prompt-empty",
        HF.format(msg="Conversation roles must alternate user/assistant/user/assistant/...") + ACCESS,
    ),
    # a missing attribute that is no content part's field: a broken template, not a content-form mismatch
    (
        "chat-template-content-type-mismatch",
        WARMUP.format(msg="'dict object' has no attribute 'tool_calls'")
        + HF.format(msg="'dict object' has no attribute 'tool_calls'")
        + ACCESS,
    ),
    # a string method on a string is no error; an unknown filter on content is a broken template
    (
        "chat-template-content-type-mismatch",
        "jinja2.exceptions.TemplateAssertionError: No filter named 'strip_parts'.\n"
        + HF.format(msg="No filter named 'strip_parts'.")
        + ACCESS,
    ),
    # a skipped empty part is a WARNING only (the request goes on): no content-part refusal
    (
        "chat-content-part-type-unknown",
        "(APIServer pid=7) WARNING 12-05 10:00:00 [chat_utils.py:1931] Skipping multimodal part "
        "'{'type': 'text'}' (type: 'text') with empty / unparsable content.\n"
        'INFO:     127.0.0.1:5000 - "POST /v1/chat/completions HTTP/1.1" 200 OK\n',
    ),
]

test_names_the_cause, test_near_miss_not_confident = family_tests(CASES, NEAR_MISSES)
