"""Families learnt or widened by after33k from fresh-166's misses (vLLM 0.32's structured-output refusals), each on a
wording other than its corpus log's. Every message below was raised here (stop 33) by 0.32's own validators
(sampling_params.py StructuredOutputsParams / _validate_structured_outputs, v1/structured_output/backend_*.py's
validate_*) on the request shown in its comment, or copied from that source where it needs a tokenizer or model kind
this machine does not have; the ImportError chain is lm-format-enforcer 0.11.3's integrations/vllm.py under 0.32."""

from __future__ import annotations

import json

from tests.doctor_text import family_tests, run, top_cause


def vllm_400(message: str) -> str:
    """The access line and reply of a vLLM 0.32 server refusing one request (the body as the server sends it)."""
    body = {"error": {"message": message, "type": "BadRequestError", "param": None, "code": 400}}
    return (
        'INFO:     127.0.0.1:41844 - "POST /v1/chat/completions HTTP/1.1" 400 Bad Request\n'
        f"HTTP/1.1 400 Bad Request\n{json.dumps(body, ensure_ascii=False, separators=(',', ':'))}\n"
    )


def openai_400(message: str) -> str:
    """The same refusal as openai-python prints it."""
    return (
        f"openai.BadRequestError: Error code: 400 - {{'object': 'error', 'message': {message!r}, "
        "'type': 'BadRequestError', 'param': None, 'code': 400}\n"
    )


# guidance (llguidance), regex "(ab": the same fault class as the corpus log's bad repeat range, another error
_GUIDANCE_UNCLOSED = vllm_400(
    'Grammar error: at 1(8): invalid regex "(ab" (in regex): regex parse error:\n    (ab\n    ^\n'
    "error: unclosed group\n   1 | start: /(ab/\n              ^\n"
)
# guidance, Lark grammar "start: foo" (a rule never defined) and 'start: "x' (an unterminated string)
_GUIDANCE_UNKNOWN_NAME = vllm_400(
    'Grammar error: at 1(8): unknown name: "foo"\n   1 | start: foo\n              ^\n'
)
_GUIDANCE_LEXER = openai_400('Grammar error: 1(10): lexer error\n   1 | start: "x\n                ^\n')
# utils.py compile_regex_with_timeout (any backend), and guidance's structural_tag check
_REGEX_TIMEOUT = vllm_400(
    "Regex compilation timed out after 5s. The pattern may be too complex or contain constructs that cause "
    "exponential state-space explosion (e.g. nested quantifiers). Pattern: (a+)+b"
)
_TRIGGER = vllm_400("Trigger <fn=get> not found in triggers ['<function=']")
# outlines and lm-format-enforcer: a constraint kind the backend does not do (grammar)
_OUTLINES_GRAMMAR = vllm_400("Outlines structured outputs backend does not support grammar specifications")
_LMFE_GRAMMAR = openai_400(
    "LM Format Enforcer structured outputs backend does not support grammar specifications"
)
# outlines' validate_regex_is_buildable, regex "(?=a)b" and "(a)\1"
_OUTLINES_LOOKAHEAD = vllm_400(
    "Regex uses unsupported feature for structured outputs: Look-Around assertion are unsupported.. Only basic "
    "matching constructs are supported—lookarounds, backreferences, and unicode boundaries are not."
)
_OUTLINES_BACKREF = openai_400(
    "Regex uses unsupported feature for structured outputs: Backreferences are unsupported.. Only basic matching "
    "constructs are supported—lookarounds, backreferences, and unicode boundaries are not."
)
# _validate_structured_outputs' content checks: grammar "   ", choice [], a NUL in a regex; and structured_outputs {}
_BLANK_GRAMMAR = vllm_400("structured_outputs.grammar cannot be an empty string")
_EMPTY_CHOICE = vllm_400("Choice '[]' cannot be an empty list")
_NO_CONSTRAINT = openai_400(
    "You must use one kind of structured outputs constraint but none are specified: {'json': None, 'regex': None, "
    "'choice': None, 'grammar': None, 'json_object': None, 'disable_any_whitespace': False}"
)
_NUL_REGEX = vllm_400("structured_outputs.regex must not contain a NUL character ('\\x00')")
# refusals by tokenizer or model kind (sampling_params.py, copied: they need a Mistral / slow tokenizer or a DLM)
_LMFE_MISTRAL = vllm_400(
    "Mistral tokenizer is not supported for the 'lm-format-enforcer' structured output backend. Please use "
    "['xgrammar', 'outlines'] backends or tokenizer_mode='hf' instead."
)
_GUIDANCE_NON_TEKKEN = openai_400(
    "Non-tekken Mistral tokenizers are not supported for the 'guidance' structured output backend. Please either use "
    "a more recent Mistral model, the ['xgrammar', 'outlines'] backends or tokenizer_mode='hf' instead."
)
_AUTO_NONE = vllm_400(
    "No compatible structured output backend was found for this request. XGrammar rejected the constraint, and "
    "Guidance does not support this tokenizer. Configure a fast tokenizer or select a compatible backend explicitly."
)
_DIFFUSION = vllm_400(
    "Structured outputs are not yet supported for diffusion language models. Remove the structured output "
    "constraint (e.g. `response_format`, `structured_outputs`) from the request."
)

# lm-format-enforcer 0.11.3 under vLLM 0.32: the first part of the chain alone, as the EngineCore logs it
_E = "(EngineCore pid=77) ERROR 12-05 05:00:00 [core.py:2056] "
_LMFE_CHAIN_FIRST = (
    f"{_E}Traceback (most recent call last):\n"
    f'{_E}  File "/srv/venv/lib/python3.12/site-packages/lmformatenforcer/integrations/vllm.py", line 4, in <module>\n'
    f"{_E}    from vllm.transformers_utils.tokenizer import MistralTokenizer\n"
    f"{_E}ModuleNotFoundError: No module named 'vllm.transformers_utils.tokenizer'\n"
    'INFO:     127.0.0.1:35596 - "POST /v1/completions HTTP/1.1" 500 Internal Server Error\n'
)
# a vLLM whose module exists but no longer holds the name
_LMFE_NAME_GONE = (
    "Traceback (most recent call last):\n"
    '  File "/home/u/.venv/lib/python3.12/site-packages/lmformatenforcer/integrations/vllm.py", line 4, in <module>\n'
    "    from vllm.transformers_utils.tokenizer import MistralTokenizer\n"
    "ImportError: cannot import name 'MistralTokenizer' from 'vllm.transformers_utils.tokenizer'"
    " (/home/u/.venv/lib/python3.12/site-packages/vllm/transformers_utils/tokenizer.py)\n"
)
# a source checkout of lm-format-enforcer (pip install -e): no site-packages in the frame's path
_LMFE_EDITABLE = _LMFE_CHAIN_FIRST.replace(
    "/srv/venv/lib/python3.12/site-packages/lmformatenforcer",
    "/home/u/src/lm-format-enforcer/lmformatenforcer",
)
# near miss: the user's own script importing the module 0.32 lacks (not a backend's integration)
_USER_SCRIPT = (
    "Traceback (most recent call last):\n"
    '  File "/home/u/app/serve.py", line 3, in <module>\n'
    "    from vllm.transformers_utils.tokenizer import get_tokenizer\n"
    "ModuleNotFoundError: No module named 'vllm.transformers_utils.tokenizer'\n"
)

CASES = [
    ("request-grammar-invalid", _GUIDANCE_UNCLOSED),
    ("request-grammar-invalid", _GUIDANCE_UNKNOWN_NAME),
    ("request-grammar-invalid", _GUIDANCE_LEXER),
    ("request-grammar-invalid", _REGEX_TIMEOUT),
    ("request-grammar-invalid", _TRIGGER),
    ("structured-output-schema-unsupported", _OUTLINES_GRAMMAR),
    ("structured-output-schema-unsupported", _LMFE_GRAMMAR),
    ("structured-output-schema-unsupported", _OUTLINES_LOOKAHEAD),
    ("structured-output-schema-unsupported", _OUTLINES_BACKREF),
    # learn38j (s38): a blank grammar and an empty choice list compile to nothing: the grammar family's
    ("request-grammar-invalid", _BLANK_GRAMMAR),
    ("request-grammar-invalid", _EMPTY_CHOICE),
    # after36i: no constraint is the zero half of StructuredOutputsParams' one count (exactly one), so the
    # constraints family's, no longer a value outside a set
    ("request-structured-output-constraints-conflict", _NO_CONSTRAINT),
    # learn38j (s38, fresh-267's expected): a NUL in a regex is a regex the converter cannot take
    ("request-grammar-invalid", _NUL_REGEX),
    ("structured-output-backend-tokenizer-unsupported", _LMFE_MISTRAL),
    ("structured-output-backend-tokenizer-unsupported", _GUIDANCE_NON_TEKKEN),
    ("structured-output-backend-tokenizer-unsupported", _AUTO_NONE),
    ("structured-output-backend-tokenizer-unsupported", _DIFFUSION),
    ("structured-output-backend-too-old-for-vllm", _LMFE_CHAIN_FIRST),
    ("structured-output-backend-too-old-for-vllm", _LMFE_NAME_GONE),
    ("structured-output-backend-too-old-for-vllm", _LMFE_EDITABLE),
    # near misses named by their own family
    # llguidance's unimplemented keyword: a keyword the backend lacks (after33o moved it here)
    ("structured-output-schema-unsupported", vllm_400('Grammar error: Unimplemented keys: ["uniqueItems"]')),
    (
        "request-structured-output-constraints-conflict",
        vllm_400("You can only use one kind of structured outputs constraint but multiple are specified: {}"),
    ),
    (
        "structured-outputs-need-tokenizer",
        vllm_400("Structured outputs requires a tokenizer so it can't be used with 'skip_tokenizer_init'"),
    ),
]

NEAR_MISSES = [
    # llguidance's JSON-schema error has no position: the schema's family, not the grammar's
    ("request-grammar-invalid", vllm_400('Grammar error: Unimplemented keys: ["uniqueItems"]')),
    # lm-format-enforcer refusing speculative decoding (a server setting, not a constraint kind)
    (
        "structured-output-schema-unsupported",
        "ValueError: LM Format Enforcer backend does not support speculative tokens\n",
    ),
    # two constraints is not a value outside a set
    (
        "request-field-value-not-allowed",
        vllm_400("You can only use one kind of structured outputs constraint but multiple are specified: {}"),
    ),
    # skip_tokenizer_init is not a backend/tokenizer mismatch
    (
        "structured-output-backend-tokenizer-unsupported",
        vllm_400("Structured outputs requires a tokenizer so it can't be used with 'skip_tokenizer_init'"),
    ),
    ("structured-output-backend-too-old-for-vllm", _USER_SCRIPT),
]

test_names_the_cause, test_near_miss_not_confident = family_tests(CASES, NEAR_MISSES)


def test_constraint_kind_names_backend_and_kind() -> None:
    """The widened cause says which backend lacks which constraint kind."""
    top = top_cause(run(_OUTLINES_GRAMMAR))
    assert top is not None and "Outlines backend" in top.cause and "(grammar;" in top.cause


def test_json_object_false_names_the_field() -> None:
    top = top_cause(
        run(vllm_400("structured_outputs.json_object must be True if set; omit structured_outputs"))
    )
    assert top is not None and top.id == "request-field-value-not-allowed"
    assert "structured_outputs.json_object" in top.cause and "(True)" in top.cause
