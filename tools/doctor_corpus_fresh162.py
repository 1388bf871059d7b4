"""The 162nd fresh batch of doctor's corpus (batch "fresh-162", made here): CONSTRAINED OUTPUT AND TOOLS IN
llama-server, a SECOND round after fresh-155, on conditions no earlier maker drew: one thing of a kind drawn at random,
on the real llama-server 11434.0.0 (.llama-cpp/bin/llama-server, the tiny F32 GGUF of tests/engine/make_tiny_gguf.py of
tests/engine/make_tiny_model.py's model, made anew in /tmp/fresh162).

What was drawn from: CONDITIONS, the places this build reads a constraint or a tool that fresh-155's CONDITIONS did not
hold or whose values it did not draw: llama-grammar.cpp's other parse errors (a rule with no '::=', an unknown escape, a
repetition operator with nothing before it, an unterminated character class), common/json-schema-to-grammar.cpp's
features (string formats, regex patterns, $ref forms, additionalProperties, minItems/maxItems, enum/const of odd
types), response_format shapes, tools with --jinja (common/chat*.cpp: tool shapes, tool_choice values,
parallel_tool_calls, messages with tool_calls and tool roles out of order, reasoning_format, chat_template_kwargs), and
--json-schema / --json-schema-file at start; each with the wrong things that apply to it and "healthy" for about 1 in 4
of its values.

Earlier makers checked (their draw lists / drawn keys only, not their cases or logs): fresh-155 (CONDITIONS and its 14
drawn keys: /completion grammar unclosed quote, chat tools function without name, chat grammar + json_schema, json-schema-
file unbalanced pattern, --grammar-file healthy, /completion grammar + json_schema, /completion json_schema healthy, chat
tool_choice auto healthy, chat json_schema unresolved $ref, --grammar undefined rule, chat grammar healthy, chat
response_format unresolved $ref, --json-schema healthy, /completion grammar_lazy with no triggers), fresh-108 (chat tools
of type code_interpreter, chat reasoning_format unknown), fresh-138 (--grammar-file unreadable), fresh-140 (/completion
grammar with an unclosed group, chat tools with --no-jinja), and by the manifest's file names fresh-38 (tool_choice
required on a template with no tools), fresh-78 (chat_template_kwargs enable_thinking false, a tool message with no
preceding tool call, --reasoning-format deepseek healthy, reasoning with a template that has no thinking), fresh-101 (an
unclosed Jinja template), fresh-131 (--no-jinja with --reasoning-format), fresh-148 (--grammar valid, --tools get_info),
fresh-153 (a draft server with a json_schema request). None of those is a value here: no unclosed quote / undefined rule /
missing root / left recursion / {m,n} / unclosed group, no unresolved $ref, no grammar + json_schema together, no tool
without a name or of a non-function type, no tool_choice auto / required, no unknown reasoning_format value, no
enable_thinking, no tool message with no call before it, no --no-jinja.

Procedure (fixed and committed before any case ran): corpus_tools.draw_distinct_conditions(2162, CONDITIONS, 14):
r = random.Random(2162), condition = r.choice(list(CONDITIONS)), value = r.choice(its values); a condition drawn before
is drawn anew. CONCRETE (below, written after `--draws` printed the draw, committed before any case ran) gives each kept
draw's server flags, files and requests. Each case: `llama-server -m TINY --port 19621 -c 512 FLAGS`, waited for until
/health answers or it exits (120 s); if it answered, the case's request(s), then SIGTERM to its process group (SIGKILL
after 20 s). Case log = `$ ` and the command, the server's whole stdout+stderr, then per request a `# request: METHOD
PATH BODY` line and the reply's status line and first 600 bytes (or `# request: (none: ...)`). One server at a time.
Ports 19620-19639.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh162.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

from corpus_tools import draw_distinct_conditions, maker_main, use_ports  # tools/ is on sys.path

PORT = 19621
use_ports(19620, "/tmp/fresh162/tiny-f32.gguf")

REPO = Path(__file__).resolve().parent.parent
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
WORK = Path("/tmp/fresh162")
TINY_GGUF = WORK / "tiny-f32.gguf"
TINY_DIR = WORK / "tiny"

GBNF_OTHER = [
    "a rule with no ::=",
    "an unknown escape",
    "a repetition operator with nothing before it",
    "an unterminated character class",
]
CONDITIONS = {
    "POST /completion grammar, another parse error": [*GBNF_OTHER, "healthy (classes, ranges, alternation)"],
    "POST /v1/chat/completions grammar, another parse error": [*GBNF_OTHER, "healthy (nested groups, ?)"],
    "--grammar at start, another parse error": GBNF_OTHER,  # its healthy value fresh-148 drew
    "json_schema string format": [
        "a format the converter does not know (email)",
        "format on a non-string type",
        "healthy (date-time)",
    ],
    "json_schema pattern": [
        "a lookahead (?=...)",
        "a backreference \\1",
        "a pattern not anchored ^...$",
        "healthy (anchored)",
    ],
    "json_schema $ref form": [
        "a remote https $ref",
        "a $ref to #/definitions/...",
        "a $ref to another file",
        "healthy (recursive $ref into $defs)",
    ],
    "json_schema additionalProperties": [
        "additionalProperties a string",
        "additionalProperties false with a required key not in properties",
        "healthy (a schema)",
    ],
    "json_schema minItems / maxItems": [
        "minItems above maxItems",
        "maxItems far above the repetition limit",
        "minItems negative",
        "healthy",
    ],
    "json_schema enum / const of odd types": [
        "an empty enum",
        "an enum of objects",
        "const an array",
        "healthy (enum of null, number, string)",
    ],
    "POST /v1/chat/completions response_format shape": [
        "response_format a bare string",
        "type json_schema with the schema at the top level, not under json_schema",
        "type json_object with a schema",
        "healthy (type text)",
    ],
    "POST /v1/chat/completions tools shape (--jinja)": [
        "tools an object, not an array",
        "function.parameters a string",
        "two tools of the same name",
        "healthy (no parameters)",
    ],
    "POST /v1/chat/completions tool_choice value (--jinja)": [
        "an unknown string (any)",
        "an object naming a function (OpenAI's shape)",
        "a number",
        "healthy (none)",
    ],
    "POST /v1/chat/completions parallel_tool_calls (--jinja)": [
        "a string",
        "true with no tools",
        "healthy (true with tools)",
    ],
    "messages with tool_calls / tool roles (--jinja)": [
        "tool_calls arguments an object, not a JSON string",
        "a tool message with no tool_call_id",
        "a tool_call with no function name",
        "healthy (a call, then its result)",
    ],
    "reasoning_format in the request (--jinja)": [
        "a number",
        "an empty string",
        "healthy (none)",
    ],
    "chat_template_kwargs (--jinja)": [
        "in the request, a string",
        "in the request, an array",
        "--chat-template-kwargs at start a JSON array",
        "healthy (an unknown key)",
    ],
    "--json-schema at start, another feature": [
        "minItems above maxItems",
        "a JSON array, not a schema",
        "a remote $ref",
        "healthy (additionalProperties false)",
    ],
    "--json-schema-file at start, another feature": [
        "a $ref to another file",
        "a string format unknown (hostname)",
        "healthy (nested $defs)",
    ],
}


def draws():
    """The kept draws: 14 (condition, value); and every draw made anew with its reason."""
    return draw_distinct_conditions(2162, CONDITIONS, 14)


def main() -> None:
    if sys.argv[1:2] == ["--draws"]:
        n = sum(len(v) for v in CONDITIONS.values())
        healthy_share = sum(sum("healthy" in x for x in v) / len(v) for v in CONDITIONS.values()) / len(
            CONDITIONS
        )
        print(f"{len(CONDITIONS)} conditions, {n} values, mean healthy share {healthy_share:.2f}")
    maker_main(draws, lambda h, tiny, _timeout: makers(h), str(TINY_DIR))


# ---- each kept draw's concrete inputs (written after `--draws` printed the draw, committed before any case ran) ----
CHAT = "/v1/chat/completions"
HI = [{"role": "user", "content": "Is the sky blue? Answer yes or no."}]
WEATHER = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "The weather in a city",
        "parameters": {
            "type": "object",
            "properties": {"city": {"type": "string"}},
            "required": ["city"],
        },
    },
}
WEATHER_ASKED = [{"role": "user", "content": "What is the weather in Paris?"}]


def chat(**extra) -> tuple[str, str, dict]:
    return ("POST", CHAT, {"messages": HI, "max_tokens": 8, **extra})


def completion(**extra) -> tuple[str, str, dict]:
    return ("POST", "/completion", {"prompt": "Is the sky blue?", "n_predict": 8, **extra})


def schema_format(schema: dict) -> dict:
    return {"type": "json_schema", "json_schema": {"name": "answer", "schema": schema}}


FILES: dict[str, str] = {
    "order.schema.json": json.dumps(
        {
            "$defs": {
                "item": {
                    "type": "object",
                    "properties": {"sku": {"type": "string"}, "size": {"$ref": "#/$defs/size"}},
                    "required": ["sku"],
                },
                "size": {"type": "string", "enum": ["S", "M", "L"]},
            },
            "type": "object",
            "properties": {"items": {"type": "array", "items": {"$ref": "#/$defs/item"}}},
            "required": ["items"],
        },
        indent=2,
    )
    + "\n",
}
CONCRETE: dict[str, tuple[list[str], list[tuple[str, str, dict]]]] = {
    # 1 --json-schema-file at start | healthy (nested $defs)
    "fresh162-llama-json-schema-file-nested-defs-healthy": (
        ["--json-schema-file", str(WORK / "order.schema.json")],
        [completion()],
    ),
    # 2 messages with tool_calls / tool roles | healthy (a call, then its result)
    "fresh162-llama-chat-tool-call-then-result-healthy": (
        ["--jinja"],
        [
            (
                "POST",
                CHAT,
                {
                    "messages": [
                        *WEATHER_ASKED,
                        {
                            "role": "assistant",
                            "content": None,
                            "tool_calls": [
                                {
                                    "id": "call_1",
                                    "type": "function",
                                    "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'},
                                }
                            ],
                        },
                        {
                            "role": "tool",
                            "tool_call_id": "call_1",
                            "content": '{"temp_c": 18, "sky": "clear"}',
                        },
                    ],
                    "tools": [WEATHER],
                    "max_tokens": 8,
                },
            )
        ],
    ),
    # 3 json_schema enum / const of odd types | an enum of objects (on /completion)
    "fresh162-llama-completion-json-schema-enum-of-objects": (
        [],
        [completion(json_schema={"enum": [{"size": "S"}, {"size": "L", "extra": [1, 2]}]})],
    ),
    # 4 json_schema $ref form | a $ref to #/definitions/... (chat response_format)
    "fresh162-llama-chat-json-schema-ref-definitions": (
        [],
        [
            chat(
                response_format=schema_format(
                    {
                        "definitions": {"answer": {"type": "string", "enum": ["yes", "no"]}},
                        "type": "object",
                        "properties": {"answer": {"$ref": "#/definitions/answer"}},
                        "required": ["answer"],
                    }
                )
            )
        ],
    ),
    # 5 tools shape | healthy (no parameters)
    "fresh162-llama-chat-tool-without-parameters-healthy": (
        ["--jinja"],
        [
            chat(
                tools=[
                    {
                        "type": "function",
                        "function": {"name": "get_time", "description": "The current time"},
                    }
                ]
            )
        ],
    ),
    # 6 response_format shape | type json_schema with the schema at the top level, not under json_schema
    "fresh162-llama-chat-response-format-schema-not-nested": (
        [],
        [
            chat(
                response_format={
                    "type": "json_schema",
                    "schema": {
                        "type": "object",
                        "properties": {"answer": {"type": "string", "enum": ["yes", "no"]}},
                        "required": ["answer"],
                    },
                }
            )
        ],
    ),
    # 7 json_schema pattern | a pattern not anchored ^...$ (on /completion)
    "fresh162-llama-completion-json-schema-unanchored-pattern": (
        [],
        [completion(json_schema={"type": "string", "pattern": "[a-z]+-[0-9]{3}"})],
    ),
    # 8 chat_template_kwargs | healthy (an unknown key)
    "fresh162-llama-chat-template-kwargs-unknown-key-healthy": (
        ["--jinja"],
        [chat(chat_template_kwargs={"verbose_mode": True})],
    ),
    # 9 chat grammar | healthy (nested groups, ?)
    "fresh162-llama-chat-grammar-nested-groups-healthy": (
        [],
        [chat(grammar='root ::= ("yes" | "no") ("!" | ("." " "?))?')],
    ),
    # 10 json_schema string format | healthy (date-time) (chat response_format)
    "fresh162-llama-chat-json-schema-date-time-healthy": (
        [],
        [
            chat(
                response_format=schema_format(
                    {
                        "type": "object",
                        "properties": {"when": {"type": "string", "format": "date-time"}},
                        "required": ["when"],
                    }
                )
            )
        ],
    ),
    # 11 --json-schema at start | a JSON array, not a schema
    "fresh162-llama-json-schema-array-not-schema": (
        ["--json-schema", '[{"type": "string"}, {"type": "integer"}]'],
        [completion()],
    ),
    # 12 /completion grammar | an unterminated character class
    "fresh162-llama-completion-grammar-unterminated-class": (
        [],
        [completion(grammar="root ::= [a-z")],
    ),
    # 13 tool_choice | an unknown string (any)
    "fresh162-llama-chat-tool-choice-any": (
        ["--jinja"],
        [
            (
                "POST",
                CHAT,
                {"messages": WEATHER_ASKED, "tools": [WEATHER], "tool_choice": "any", "max_tokens": 8},
            )
        ],
    ),
    # 14 minItems / maxItems | maxItems far above the repetition limit (chat response_format)
    "fresh162-llama-chat-json-schema-max-items-100000": (
        [],
        [
            chat(
                response_format=schema_format(
                    {"type": "array", "items": {"type": "integer"}, "minItems": 1, "maxItems": 100000}
                )
            )
        ],
    ),
}


def healthy(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as r:
            return r.status == 200
    except (urllib.error.URLError, OSError):
        return False


def send(port: int, method: str, path: str, body) -> str:
    """One request as a user would paste it, and the reply's status line and first 600 bytes."""
    data = json.dumps(body)
    head = f"# request: {method} {path} {data}\n"
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=data.encode(),
        method=method,
        headers={"Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            return head + f"HTTP/1.1 {r.status} {r.reason}\n" + r.read()[:600].decode("utf-8", "replace")
    except urllib.error.HTTPError as e:
        return head + f"HTTP/1.1 {e.code} {e.reason}\n" + e.read()[:600].decode("utf-8", "replace")
    except (urllib.error.URLError, OSError) as e:
        return head + f"{type(e).__name__}: {e}"


def serve(flags: list[str], requests: list[tuple[str, str, dict]]) -> str:
    """llama-server -m TINY with FLAGS: until /health answers or it exits (120 s), the requests, SIGTERM (SIGKILL
    after 20 s). `$ ` and the command, the server's whole output, then each request and its reply."""
    WORK.mkdir(parents=True, exist_ok=True)
    for name, text in FILES.items():
        (WORK / name).write_text(text)
    argv = [LLAMA, "-m", str(TINY_GGUF), "--port", str(PORT), "-c", "512", *flags]
    env = {k: v for k, v in os.environ.items() if not k.startswith("LLAMA_")}
    replies: list[str] = []
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
        deadline = time.monotonic() + 120
        up = False
        while proc.poll() is None and time.monotonic() < deadline:
            if healthy(PORT):
                up = True
                break
            time.sleep(0.5)
        if up:
            replies = [send(PORT, *req) for req in requests]
        time.sleep(1)  # let the server log the request's end
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        log.seek(0)
        text = log.read().decode("utf-8", "replace")
    if not up:
        why = (
            f"the server exited with {proc.returncode}"
            if proc.returncode is not None
            else "it never answered"
        )
        replies = [f"# request: (none: {why})"]
    shown = " ".join(a if a and " " not in a and '"' not in a else "'" + a + "'" for a in argv)
    return f"$ {shown}\n{text.rstrip()}\n" + "\n".join(r.rstrip() for r in replies) + "\n"


def makers(h) -> dict:
    """One maker per kept draw, in draw order."""
    return {case_id: (lambda spec=spec: serve(*spec)) for case_id, spec in CONCRETE.items()}


if __name__ == "__main__":
    main()
