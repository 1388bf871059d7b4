"""What the measured batch fresh-517 (vLLM 0.32's Responses and Anthropic Messages APIs) taught learn54f.

- A 400 whose message is pydantic's error list over a UNION (the Responses API's text.format, tools, input items and
  their content parts; chat's message params) is read by the member the client meant (meant_member.py): a member whose
  `type` (or `role`) literal refuses the value sent was not meant; the member whose discriminator raised nothing was,
  and its error is the cause (json_schema without its name, Chat Completions' nested function tool sent to
  /v1/responses: request-field-missing); where every member refuses the type sent, that type is the fault (a content
  part typed 'image_url' or 'text' on /v1/responses: chat-content-part-type-unknown; text.format type 'json':
  request-field-value-not-allowed). fresh-517's draw 8 had been a confident wrong (the first literal_error read).
- tool-choice-needs-parser on /v1/responses for a named or "required" tool_choice too (responses_tools.py): without a
  --tool-call-parser the route neither refuses nor forces the call (fresh-517's draw 3, doctor none at first contact).
The logs are written here from vLLM 0.32's own models and handler (responses/protocol.py ResponsesRequest validated,
entrypoints/serve/exception_handling/handlers/validation.py's message form), with other values than the batch's.
"""

from __future__ import annotations

import json

from servebox.doctor.meant_member import errors, meant_error
from tests.doctor_text import run, top_cause

START = (
    "(APIServer pid=7310) INFO 03-14 09:12:40 [api_utils.py:286] non-default args: {{'model_tag': 'Qwen/Qwen3-4B',"
    " 'port': 8011{extra}}}\n"
    "(APIServer pid=7310) INFO 03-14 09:13:55 [api_server.py:612] Starting vLLM server on http://0.0.0.0:8011\n"
)


def entry(kind: str, loc: str, msg: str, sent: str, expected: str = "") -> str:
    """One error as vLLM 0.32's handler prints it: str() of pydantic's dict, loc dotted."""
    err = {"type": kind, "loc": loc, "msg": msg, "input": sent}
    if expected:
        err["ctx"] = {"expected": expected}
    return str(err)


def refused(*entries: str, count: int | None = None, route: str = "/v1/responses") -> str:
    """A served start, the access line of a 400, and the reply body curl printed."""
    n = count or len(entries)
    message = f"{n} validation {'error' if n == 1 else 'errors'}:\n" + "\n".join(f"  {e}" for e in entries)
    if n > len(entries):
        message += f"\n  ...and {n - len(entries)} more errors"
    body = {"error": {"message": message, "type": "Bad Request", "param": None, "code": 400}}
    return (
        START.format(extra="")
        + f'INFO:     10.1.4.7:51230 - "POST {route} HTTP/1.1" 400 Bad Request\n'
        + "HTTP/1.1 400 Bad Request\ncontent-type: application/json\n\n"
        + json.dumps(body, separators=(",", ":"))
        + "\n"
    )


def literal(loc: str, value: str, sent: str) -> str:
    return entry("literal_error", loc, f"Input should be '{value}'", sent, f"'{value}'")


FMT = "body.text.format."
NO_NAME = refused(
    literal(FMT + "ResponseFormatText.type", "text", "json_schema"),
    entry("missing", FMT + "ResponseFormatTextJSONSchemaConfig.name", "Field required", "<dict of 3 items>"),
    literal(FMT + "ResponseFormatJSONObject.type", "json_object", "json_schema"),
)
TOOL = "body.tools.1."
NESTED_TOOL = refused(
    entry("missing", TOOL + "FunctionTool.name", "Field required", "<dict of 2 items>"),
    literal(TOOL + "FileSearchTool.type", "file_search", "function"),
    entry("missing", TOOL + "FileSearchTool.vector_store_ids", "Field required", "<dict of 2 items>"),
    literal(TOOL + "ComputerTool.type", "computer", "function"),
    count=26,
)
PART = "body.input.0.EasyInputMessageParam.content.0."
IMAGE_URL_PART = refused(
    entry("string_type", "body.input", "Input should be a valid string", "<list of 1 items>"),
    entry(
        "string_type",
        "body.input.0.EasyInputMessageParam.content",
        "Input should be a valid string",
        "<list>",
    ),
    entry("missing", PART + "ResponseInputTextParam.text", "Field required", "<dict of 2 items>"),
    literal(PART + "ResponseInputTextParam.type", "input_text", "image_url"),
    entry("missing", PART + "ResponseInputImageParam.detail", "Field required", "<dict of 2 items>"),
    literal(PART + "ResponseInputImageParam.type", "input_image", "image_url"),
    literal(PART + "ResponseInputFileParam.type", "input_file", "image_url"),
    count=247,
)
UNKNOWN_FORMAT = refused(
    literal(FMT + "ResponseFormatText.type", "text", "json"),
    entry("missing", FMT + "ResponseFormatTextJSONSchemaConfig.name", "Field required", "<dict of 1 items>"),
    entry(
        "missing", FMT + "ResponseFormatTextJSONSchemaConfig.schema", "Field required", "<dict of 1 items>"
    ),
    literal(FMT + "ResponseFormatTextJSONSchemaConfig.type", "json_schema", "json"),
    literal(FMT + "ResponseFormatJSONObject.type", "json_object", "json"),
)
EFFORT = refused(
    entry(
        "literal_error",
        "body.reasoning.effort",
        "Input should be 'none', 'minimal', 'low', 'medium', 'high', 'xhigh' or 'max'",
        "ultra",
        "'none', 'minimal', 'low', 'medium', 'high', 'xhigh' or 'max'",
    )
)
# vLLM before 0.32 sent str(exc.errors()): a tuple loc, the openai client relaying it
OLD_TUPLE = (
    "openai.BadRequestError: Error code: 400 - {'object': 'error', 'message': \"[{'type': 'missing', 'loc': ('body',"
    " 'tools', 0, 'FunctionTool', 'name'), 'msg': 'Field required', 'input': {'type': 'function'}}, {'type':"
    " 'literal_error', 'loc': ('body', 'tools', 0, 'FileSearchTool', 'type'), 'msg': \\\"Input should be"
    " 'file_search'\\\", 'input': 'function'}]\", 'type': 'BadRequestError', 'param': None, 'code': 400}\n"
)


def top(text: str):
    d = top_cause(run(text))
    assert d is not None, text
    return d


def test_json_schema_format_without_name_is_the_missing_name_not_the_text_literal():
    d = top(NO_NAME)
    assert d.id == "request-field-missing" and "text.format.name" in d.cause
    assert '"name"' in d.fix and "json_schema" in d.fix


def test_chat_completions_tool_on_responses_is_the_function_tools_missing_name():
    d = top(NESTED_TOOL)
    assert d.id == "request-field-missing" and "tools.1.name" in d.cause and "flat" in d.fix


def test_the_older_tuple_loc_is_read_the_same_way():
    d = top(OLD_TUPLE)
    assert d.id == "request-field-missing" and "tools.0.name" in d.cause and "flat" in d.fix


def test_a_part_type_no_member_takes_is_the_content_part_family():
    d = top(IMAGE_URL_PART)
    assert d.id == "chat-content-part-type-unknown" and "image_url" in d.cause and "input_image" in d.cause


def test_a_format_type_no_member_takes_is_the_value_not_allowed():
    d = top(UNKNOWN_FORMAT)
    assert (
        d.id == "request-field-value-not-allowed"
        and "text.format.type" in d.cause
        and "json_schema" in d.cause
    )


# ---- near misses


def test_a_literal_on_a_field_that_is_no_union_stays_value_not_allowed():
    d = top(EFFORT)
    assert d.id == "request-field-value-not-allowed" and "reasoning.effort" in d.cause and d.confidence >= 0.7


def test_an_error_on_another_field_leaves_the_list_unread():
    found = errors(
        entry("missing", "body.tools.0.FunctionTool.name", "Field required", "<dict>")
        + literal("body.tools.0.FileSearchTool.type", "file_search", "function")
        + literal("body.truncation", "auto", "off")
    )
    assert len(found) == 3 and meant_error(found) is None


def test_the_only_member_left_being_the_last_read_of_a_cut_list_is_not_trusted():
    found = errors(
        literal("body.tools.0.FunctionTool.type", "function", "mcp")
        + entry("missing", "body.tools.0.FileSearchTool.vector_store_ids", "Field required", "<dict>")
    )
    assert meant_error(found, cut=True) is None
    assert meant_error(found, cut=False).path == ("tools", "0", "vector_store_ids")


def test_a_healthy_responses_reply_names_nothing():
    log = START.format(extra="") + 'INFO:     10.1.4.7:51230 - "POST /v1/responses HTTP/1.1" 200 OK\n'
    assert top_cause(run(log)) is None


# ---- a forced tool choice on /v1/responses without a parser

REPLY = (
    'INFO:     10.1.4.7:51230 - "POST /v1/responses HTTP/1.1" 200 OK\n'
    '{{"id":"resp_77","created_at":2,"incomplete_details":null,"instructions":null,"metadata":null,'
    '"model":"Qwen/Qwen3-4B","object":"response","output":[{output}],"parallel_tool_calls":true,"temperature":0.6,'
    '"tool_choice":{choice},"tools":[{{"name":"lookup_order","parameters":{{"type":"object"}},"strict":null,'
    '"type":"function","description":"Find an order"}}],"top_p":1.0,"status":"completed"}}\n'
)
TEXT = '{"id":"msg_9","content":[{"annotations":[],"text":"Order 12 ships Monday.","type":"output_text"}],"role":"assistant","type":"message"}'
CALL = '{"arguments":"{\\"id\\":12}","call_id":"call_9","name":"lookup_order","type":"function_call","id":"fc_9"}'
NAMED = '{"name":"lookup_order","type":"function"}'


def forced(choice: str = NAMED, extra: str = "", output: str = TEXT) -> str:
    return START.format(extra=extra) + REPLY.format(choice=choice, output=output)


def test_a_named_tool_choice_without_parser_on_responses_is_tool_choice_needs_parser():
    d = top(forced())
    assert d.id == "tool-choice-needs-parser" and "lookup_order" in d.cause and d.confidence < 0.7
    assert "--tool-call-parser" in d.fix


def test_required_without_parser_on_responses_is_tool_choice_needs_parser():
    assert top(forced(choice='"required"')).id == "tool-choice-needs-parser"


def test_a_named_choice_with_the_parser_flags_is_not_it():
    d = top_cause(run(forced(extra=", 'enable_auto_tool_choice': True, 'tool_call_parser': 'hermes'")))
    assert d is None or d.id != "tool-choice-needs-parser"


def test_a_named_choice_answered_with_its_call_is_not_it():
    d = top_cause(run(forced(output=CALL)))
    assert d is None or d.id != "tool-choice-needs-parser"


def test_a_response_models_own_refusal_is_no_requests_union():
    found = errors(
        "{'type': 'missing', 'loc': ('response', 'CreateChatCompletionResponse', 'choices', 0, 'message', 'refusal'),"
        " 'msg': 'Field required', 'input': {'role': 'assistant'}}"
    )
    assert found == [] and meant_error(found) is None
