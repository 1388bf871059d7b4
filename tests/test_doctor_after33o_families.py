"""Families widened by after33o from fresh-175's misses (vLLM 0.32's structured outputs, second round), each on a
wording other than its corpus log's. The pydantic error lists were produced here (stop 33) by 0.32's own
ChatCompletionRequest on the response_format shown in each comment, flattened as 0.32's validation handler sends
them (loc 'body.' + the path, the function-wrap step left out); the structural_tag messages are
entrypoints/generate/base/protocol.py's; llguidance's 'Unimplemented keys' is the reply fresh-175's draw 13 got."""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause
from tests.test_doctor_after33k_families import openai_400, vllm_400


def pydantic_400(*errors: str) -> str:
    """vLLM 0.32's 400 for a request body pydantic refused: 'N validation errors:' and one dict per line."""
    return vllm_400(f"{len(errors)} validation errors:\n  " + "\n  ".join(errors))


def _struct_tag_members(value: str) -> list[str]:
    """The structural_tag members' errors for a response_format whose type is `value` (0.32's union)."""
    literal = (
        f"{{'type': 'literal_error', 'loc': 'body.response_format.type', 'msg': \"Input should be 'structural_tag'\", "
        f"'input': '{value}', 'ctx': {{'expected': \"'structural_tag'\"}}}}"
    )
    missing = "{{'type': 'missing', 'loc': 'body.response_format.{0}', 'msg': 'Field required', 'input': '<dict of 2 items>'}}"
    return [
        literal,
        missing.format("format"),
        literal,
        missing.format("structures"),
        missing.format("triggers"),
    ]


# response_format {"type": "json_schema", "json_schema": "not-a-dict"}: model_type on the member the type chose
_JSON_SCHEMA_A_STRING = pydantic_400(
    "{'type': 'model_type', 'loc': 'body.response_format.json_schema', 'msg': 'Input should be a valid dictionary or "
    "instance of JsonSchemaResponseFormat', 'input': 'not-a-dict'}",
    *_struct_tag_members("json_schema"),
)
# response_format {"type": "json_object", "json_schema": {"name": "out", "schema": [1]}}: another type value, the same rule
_JSON_OBJECT_SCHEMA_A_LIST = pydantic_400(
    "{'type': 'dict_type', 'loc': 'body.response_format.json_schema.schema', 'msg': 'Input should be a valid "
    "dictionary', 'input': '<list of 1 items>'}",
    *_struct_tag_members("json_object"),
)
# near miss: response_format {"type": "jsonschema", ...}: a type no member takes, only literals and missings
_TYPE_NO_MEMBER_TAKES = pydantic_400(
    "{'type': 'literal_error', 'loc': 'body.response_format.type', 'msg': \"Input should be 'text', 'json_object' or "
    "'json_schema'\", 'input': 'jsonschema', 'ctx': {'expected': \"'text', 'json_object' or 'json_schema'\"}}",
    *_struct_tag_members("jsonschema"),
)

CASES = [
    ("request-field-wrong-type", _JSON_SCHEMA_A_STRING),
    ("request-field-wrong-type", _JSON_OBJECT_SCHEMA_A_LIST),
    ("request-field-value-not-allowed", _TYPE_NO_MEMBER_TAKES),
    # protocol.py's OpenAI-layer structural-tag check, as openai-python prints it and as the server sends it
    ("request-grammar-invalid", openai_400("Invalid response_format structural_tag specification.")),
    ("request-grammar-invalid", vllm_400("Invalid structured_outputs structural_tag specification.")),
    # llguidance: a JSON-schema keyword the backend does not implement (two keys, through openai-python)
    (
        "structured-output-schema-unsupported",
        openai_400('Grammar error: Unimplemented keys: ["uniqueItems", "contains"]'),
    ),
    # a blank structural_tag is refused by sampling_params.py's content check before any backend: a structural tag that
    #   compiles to nothing, the grammar family's (learn38j, s38, moved it from request-field-value-not-allowed)
    (
        "request-grammar-invalid",
        vllm_400("structured_outputs.structural_tag cannot be an empty string"),
    ),
]

NEAR_MISSES = [
    # the union rule must not leave value-not-allowed on the member's own wrong type
    ("request-field-value-not-allowed", _JSON_SCHEMA_A_STRING),
    ("request-field-value-not-allowed", _JSON_OBJECT_SCHEMA_A_LIST),
    # an unimplemented keyword is not a schema that is wrong, nor a grammar that does not parse
    ("request-json-schema-invalid", vllm_400('Grammar error: Unimplemented keys: ["contains"]')),
    ("request-grammar-invalid", vllm_400('Grammar error: Unimplemented keys: ["contains"]')),
    # a structural tag the request did not send is not named from a bare 'specification' word
    ("request-grammar-invalid", vllm_400("Invalid response_format specification.")),
]

test_names_the_cause, test_near_miss_not_confident = family_tests(CASES, NEAR_MISSES)


def test_unimplemented_key_named_in_cause() -> None:
    top = top_cause(run(vllm_400('Grammar error: Unimplemented keys: ["contains"]')))
    assert top is not None and top.id == "structured-output-schema-unsupported" and "(contains;" in top.cause
