"""Families learnt or widened by after33h from fresh-162/163's misses, each on a wording other than its corpus log's:
pydantic's errors from vLLM 0.32's own ChatCompletionRequest / ResponsesRequest (validated here, stop 33), the real 0.32
parser registries refusing a plugin's class (run here against ToolParserManager / ReasoningParserManager), and the real
llama-server 11434 warning on schema patterns it cannot convert (run here, /completion with json_schema)."""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

_VLLM_400 = '{{"error":{{"message":"{n} validation errors:\\n  {errs}","type":"Bad Request","param":"{param}","code":400}}}}\n'

# ChatCompletionRequest.model_validate on tools [{"type": "bogus"}] (0.32's flattened loc)
_CHAT_TOOL_BOGUS = _VLLM_400.format(
    n=2,
    param="body.tools.0.type",
    errs="{'type': 'literal_error', 'loc': 'body.tools.0.type', 'msg': \\\"Input should be 'function'\\\", 'input':"
    " 'bogus', 'ctx': {'expected': \\\"'function'\\\"}}\\n  {'type': 'missing', 'loc': 'body.tools.0.function', 'msg':"
    " 'Field required', 'input': '<dict of 1 items>'}",
)
# the same refusal as vLLM before 0.32 sent it (the errors list, tuple locs), through the openai client
_OPENAI_TOOL_CUSTOM = (
    "openai.BadRequestError: Error code: 400 - {'object': 'error', 'message': \"[{'type': 'literal_error', 'loc':"
    " ('body', 'tools', 0, 'type'), 'msg': \\\"Input should be 'function'\\\", 'input': 'custom'}, {'type': 'missing',"
    " 'loc': ('body', 'tools', 0, 'function'), 'msg': 'Field required', 'input': {'type': 'custom', 'name': 'x'}}]\","
    " 'type': 'BadRequestError', 'param': None, 'code': 400}\n"
)
# ChatCompletionRequest on tools [{"type": "function"}]: the function tool truly lacks `function`
_CHAT_TOOL_NO_FUNCTION = _VLLM_400.format(
    n=1,
    param="body.tools.0.function",
    errs="{'type': 'missing', 'loc': 'body.tools.0.function', 'msg': 'Field required', 'input': '<dict of 1 items>'}",
).replace("1 validation errors", "1 validation error")
# ResponsesRequest on tools [{"type": "function"}] (no name): the tool union's other members refuse the type
_RESPONSES_TOOL_NO_NAME = _VLLM_400.format(
    n=3,
    param="body.tools.0.FunctionTool.name",
    errs="{'type': 'missing', 'loc': 'body.tools.0.FunctionTool.name', 'msg': 'Field required', 'input': '<dict of 1"
    " items>'}\\n  {'type': 'literal_error', 'loc': 'body.tools.0.FileSearchTool.type', 'msg': \\\"Input should be"
    " 'file_search'\\\", 'input': 'function'}\\n  {'type': 'literal_error', 'loc': 'body.tools.0.ComputerTool.type',"
    " 'msg': \\\"Input should be 'computer'\\\", 'input': 'function'}",
)

_API = "(APIServer pid=4242) "
# ToolParserManager.import_tool_parser on a plugin calling register_module(name=..., module=C) with C not a ToolParser
_EAGER_TOOL_PLUGIN = (
    f"{_API}ERROR 12-05 04:20:11 [import_utils.py:95] Failed to load module 'my_parser' from /srv/my_parser.py.\n"
    f"{_API}ERROR 12-05 04:20:11 [import_utils.py:95] Traceback (most recent call last):\n"
    f'{_API}ERROR 12-05 04:20:11 [import_utils.py:95]   File "/srv/my_parser.py", line 4, in <module>\n'
    f'{_API}ERROR 12-05 04:20:11 [import_utils.py:95]     ToolParserManager.register_module(name="mine",'
    " module=MyParser)\n"
    f"{_API}ERROR 12-05 04:20:11 [import_utils.py:95] TypeError: module must be subclass of ToolParser, but got"
    " <class 'type'>\n"
    "Traceback (most recent call last):\n"
    '  File "/venv/lib/python3.12/site-packages/vllm/parser/parser_manager.py", line 51, in get_tool_parser\n'
    "    raise TypeError(\n"
    "TypeError: Error: --enable-auto-tool-choice requires tool_parser:'mine' which has not been registered\n"
)
# ReasoningParserManager: the @register_module("tiny_think") decorator on a class that is not a ReasoningParser
_LAZY_REASONING_PLUGIN = (
    f"{_API}ERROR 12-05 04:21:02 [abs_reasoning_parsers.py:271] Failed to import lazy reasoning parser 'tiny_think'"
    " from notreason_lazy: TinyReasoner in notreason_lazy is not a ReasoningParser subclass.\n"
    "Traceback (most recent call last):\n"
    '  File "/venv/lib/python3.12/site-packages/vllm/parser/parser_manager.py", line 73, in get_reasoning_parser\n'
    "TypeError: reasoning_parser_name='tiny_think' has not been registered\n"
)
# 0.32's lookup with no plugin at all: a name no parser was registered under
_NO_PLUGIN_LOOKUP = (
    "Traceback (most recent call last):\n"
    '  File "/venv/lib/python3.12/site-packages/vllm/parser/parser_manager.py", line 51, in get_tool_parser\n'
    "TypeError: Error: --enable-auto-tool-choice requires tool_parser:'hermes2' which has not been registered\n"
)

# the real llama-server 11434 (stop 33), POST /completion with json_schema patterns it has no grammar for
_LLAMA_SERVED = "0.00.866.033 I srv  llama_server: listening on http://127.0.0.1:19741\n{warning}\n" + (
    "0.01.144.942 I slot launch_slot_: id  3 | task 0 | processing task, is_child = 0\n"
    "0.01.293.607 I slot      release: id  3 | task 0 | stop processing: n_tokens = 4, truncated = 0\n"
    "HTTP/1.1 200 OK\n"
)
_W = "WARNING: JSON schema conversion was incomplete: "
_LOOKAHEAD = _LLAMA_SERVED.format(
    warning=_W + "pattern ^(?!foo)[a-z]+$ is not supported (unsupported group syntax), accepting any string"
)
_ESCAPE = _LLAMA_SERVED.format(
    warning=_W + "pattern ^\\d{3}-\\w+$ is not supported (unsupported escape: \\d), accepting any string"
)
# builds of 2024-25 (json-schema-to-grammar.cpp's (?...) group warning)
_OLD_BUILD = _LLAMA_SERVED.format(warning=_W + "Unsupported pattern syntax")
# an older build refusing the unanchored pattern (an error, not a warning): the refusal keeps the family's full figure
_REFUSED = (
    'srv  log_server_r: response: {"error":{"code":400,"message":"\\"json_schema\\": JSON schema conversion failed:\\n'
    'Pattern must start with \'^\' and end with \'$\'","type":"invalid_request_error"}}\n'
)

CASES = [
    ("request-field-value-not-allowed", _CHAT_TOOL_BOGUS),
    ("request-field-value-not-allowed", _OPENAI_TOOL_CUSTOM),
    ("request-field-missing", _CHAT_TOOL_NO_FUNCTION),
    ("parser-plugin-class-not-parser", _EAGER_TOOL_PLUGIN),
    ("parser-plugin-class-not-parser", _LAZY_REASONING_PLUGIN),
    ("parser-unknown", _NO_PLUGIN_LOOKUP),
    ("request-json-schema-invalid", _LOOKAHEAD),
    ("request-json-schema-invalid", _ESCAPE),
    ("request-json-schema-invalid", _OLD_BUILD),
    ("request-json-schema-invalid", _REFUSED),
]

NEAR_MISSES = [
    # a member-wise union's literal_errors on the other members' type name no cause
    ("request-field-value-not-allowed", _RESPONSES_TOOL_NO_NAME),
    # the function tool truly lacking `function` is not a value outside a set
    ("request-field-value-not-allowed", _CHAT_TOOL_NO_FUNCTION),
    # no plugin: the lookup's unknown name is not a plugin's class
    ("parser-plugin-class-not-parser", _NO_PLUGIN_LOOKUP),
]

test_names_the_cause, test_near_miss_not_confident = family_tests(CASES, NEAR_MISSES)


def test_plugin_lookup_is_not_the_answer_after_the_class_refusal() -> None:
    """The start's 'has not been registered' is the plugin class's consequence, not a parser name to fix."""
    top = top_cause(run(_EAGER_TOOL_PLUGIN))
    assert top is not None and top.id == "parser-plugin-class-not-parser" and "ToolParser" in top.cause


def test_served_unconstrained_schema_is_a_hint_saying_served() -> None:
    """The warning's request ran (HTTP 200): below confident, and its text says served, not refused."""
    top = top_cause(run(_LOOKAHEAD))
    assert top is not None and top.confidence < 0.70
    assert "served" in top.cause and "unsupported group syntax" in top.cause


def test_refused_schema_keeps_its_full_figure() -> None:
    """Near miss of the hint: a refusal ('JSON schema conversion failed') stays the family's confident reading."""
    top = top_cause(run(_REFUSED))
    assert top is not None and top.id == "request-json-schema-invalid" and top.confidence >= 0.70
