"""Draw the fresh-380 GPU cases: THINGS THAT HAPPEN TO A RUNNING GPU SERVER, ROUND 4: a re-draw of fresh-327's universe
(tools/gpu_fresh327_draw.py EVENTS and MODELS, imported unchanged) as tools/gpu_fresh360_draw.py (round 3) did, with a
new seed, the (event, class) pairs fresh-327 AND fresh-360 drew and the cases fresh-288 drew left out. A HEALTHY small
model served (a published config.json cut to 2 layers; real vLLM 0.26.0 `vllm serve`, torch 2.11+cu130, one H100 80GB
(or H200), SM90; dummy weights, --skip-tokenizer-init, token-id prompts), then ONE DRAWN EVENT once the server logged
"Application startup complete". Sampled, not chosen.

THE UNIVERSE LEFT IS ONE PAIR, so this batch is ONE case, not 12 (said here, before the draw): fresh-327's 7 EVENT
conditions hold 21 (event, class) pairs; fresh-327 drew 8 and fresh-360 drew 12 of the 13 it left (its DRAW_GAVE: "The
one pair not drawn: E6 prompt-4096-max-tokens-1"); 21 - 8 - 12 = 1 pair left: E6 a request over the context
(--max-model-len 4096) x prompt-4096-max-tokens-1. pairs_left() computes it from the two cases files and asserts it.
Nothing is added to make up the number (no new class is written after the universe was fixed; a new universe would be a
new batch, not round 4 of this one).

Usage: python3 tools/gpu_fresh380_draw.py                  writes tools/gpu-fresh380-cases.json and prints the draw
       python3 tools/gpu_fresh380_draw.py --draw-only      prints the draw and the memory / time figures
       python3 tools/gpu_fresh380_draw.py --models DIR     writes DIR/<name>/config.json (config.json only, a few KB)
Run (the last device call, after the bundle's part calls; the cases file, gpu_serve_requests.py, gpu_serve_drive.py
and gpu_fresh151_go.sh copied into .gpu/run, the model folder into .gpu/models; the driver is used UNCHANGED: the case's
steps are three plain POSTs):
  bash .gpu/run/gpu_fresh151_go.sh 545 LASTPART gpu_serve_requests.py .gpu/run/gpu-fresh380-cases.json LEFT 8 0.95 e01
(one case: it fits beside any other batch's cases on a warm machine, mem 0.08; its whole run ~40-130 s of cold start
+ ~6 s of requests.)

SOURCES. fresh-327's universe as its tool states it; tools/gpu_fresh360_draw.py (round 3: its procedure, its step_secs
and schedule, imported) and tools/gpu-fresh327-cases.json / tools/gpu-fresh360-cases.json ('event' / 'class' fields);
the fresh-360 batch HEADER in the manifest (on the device all 12 came up in 40-145 s; its e09, a 4097-id prompt with
the default 16 output tokens, was refused 400 word for word as vLLM's TokenizeParams text says); vLLM 0.26.0's own
source from the kit's wheel (/work/main/.gpu/build/vllm-0.26.0-cp38-abi3-manylinux_2_28_x86_64.whl, unzipped into
/tmp/gpu379): renderers/params.py TokenizeParams._token_len_check (max_input_tokens = max_model_len - max_tokens =
4095; a prompt of len > 4095 refused with "This model's maximum context length is 4096 tokens. However, you requested
M output tokens and your prompt contains [at least ]N input tokens, for a total of [at least ]T tokens. Please reduce
the length of the input prompt or the number of requested output tokens."; the "at least " qualifier when N ==
max_input_tokens + 1, i.e. exactly here: 4096 ids with max_tokens 1). Not read: doctor, its knowledge patterns,
tests/test_doctor*, any batch's logs.

EARLIER GPU MAKERS (their universes only): fresh-327 and fresh-360 (this universe; their 20 drawn pairs are the SKIP),
fresh-288 (another universe, R01-R14; none of its class names is a class here, checked by FRESH288_DRAWN as fresh-360
did), fresh-21 / fresh-302 (events fresh-327 listed and avoided).

BASE (fresh-327's): `vllm serve .gpu/models/f380-<model key> --skip-tokenizer-init --load-format dummy --max-model-len
4096 --kv-cache-memory-bytes 1073741824 --gpu-memory-utilization 0.08`. Requests: POST /v1/completions with token ids
(prompt_len N = ids 1000..1000+N-1), "model" the folder path. The folder <- tests/fixtures/checkpoints/<fixture> with
num_hidden_layers 2 (the same config as fresh-327's / fresh-360's folders, under this batch's name).
MEMORY: fixed 1 GiB KV budget, real use ~5.6 GB < 0.08 of an 80 GB card ("mem" 0.08).
TIME: "timeout" 160 (to be ready), "need" 200 (fresh-360's); the steps <= 6 s; one wave.

THE DRAW (fixed before it ran): r = random.Random(2380); pairs = r.sample(pairs_left(), min(12, len(pairs_left())))
(= the one pair); then per pair in that order: model = r.choice(sorted(MODELS)). Case e01. Nothing is redrawn.
THE DRAW GAVE: DRAW_GAVE below (filled after --draw-only printed the draw once, before the cases file was written and
before anything ran; nothing but DRAW_GAVE, EXPECTED_DRAWN and this paragraph changed after it).
EXPECTED for the drawn case: EXPECTED_DRAWN below (also the case's "expect_drawn"), written before anything ran.
"""

import json
import os
import random
import sys

from gpu_draw_models import write_models  # the script's folder is on sys.path when run
from gpu_fresh327_draw import BASE, EVENTS, MODELS, fill
from gpu_fresh360_draw import FRESH288_DRAWN, schedule, step_secs

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_JSON = os.path.join(HERE, "gpu-fresh380-cases.json")
FIXTURES = os.path.join(HERE, "..", "tests", "fixtures", "checkpoints")
SEED = 2380
N = 12
TIMEOUT, NEED = 160, 200
PARALLEL, CAP = 8, 0.95
FOLDER = ".gpu/models/f380-"

DRAW_GAVE = (  # filled after --draw-only printed the draw once (the tool committed before it, 65aecead)
    "e01 E6 prompt-4096-max-tokens-1 (llama-3.1-8b-instruct-2l): steps a 50-id request (16 tokens), the 4096-id "
    "request with max_tokens 1, a 50-id request; mem 0.08; steps <= 6 s; worst end 138 s at a 130 s cold start, 168 s "
    "at the 160 s timeout. One case (the universe's last pair)."
)
EXPECTED_DRAWN = {  # written after --draw-only printed the draw, before anything ran (0.26's source as cited above)
    "e01": "healthy server, one refused request (llama cut): the first and last 50-id requests 200; the 4096-id "
    "request with max_tokens 1 is refused 400 by TokenizeParams._token_len_check (max_input_tokens 4096 - 1 = 4095 < "
    "4096; token_count == max_input_tokens + 1, so the 'at least ' qualifier): 'This model's maximum context length is "
    "4096 tokens. However, you requested 1 output tokens and your prompt contains at least 4096 input tokens, for a "
    "total of at least 4097 tokens. Please reduce the length of the input prompt or the number of requested output "
    "tokens.' in the client line; vLLM's own log has only the access line '400 Bad Request' for it (as fresh-360 e09); "
    "no error line, the server up to the end (expected none for the server: a client's over-long prompt)",
}  # fmt: skip


def drawn_before():
    d = set()
    for n in (327, 360):
        with open(os.path.join(HERE, f"gpu-fresh{n}-cases.json")) as f:
            d |= {(c["event"], c["class"]) for c in json.load(f)["cases"].values()}
    return d


def pairs_left():
    every = [(e, c) for e in sorted(EVENTS) for c in sorted(EVENTS[e])]
    before = drawn_before()
    assert len(every) == 21 and len(before) == 20 and before <= set(every), (len(every), len(before))
    left = [p for p in every if p not in before and p[1] not in FRESH288_DRAWN]
    assert len(left) == 1, left
    return left


def draw_classes():
    r = random.Random(SEED)
    left = pairs_left()
    pairs = r.sample(left, min(N, len(left)))
    return [(e, cls, r.choice(sorted(MODELS))) for e, cls in pairs]


def make_case(i, e, cls, mkey):
    fixture, edit, util, per_token = MODELS[mkey]
    k = EVENTS[e][cls]
    model = FOLDER + mkey
    flags = fill(k.get("flags", []), model, per_token)
    base = list(BASE)
    for f in [f for f in flags if f.startswith("-")]:
        if f in base:
            j = base.index(f)
            del base[j : j + 2]
    mem = round(util + (k["hog"] / 80 + 0.004 if "hog" in k else 0), 3)
    steps = fill(k["steps"], model, per_token)
    c = {"args": [model, *base, "--gpu-memory-utilization", str(util), *flags], "env": {}, "timeout": TIMEOUT,
         "need": NEED, "mem": mem, "steps": steps, "setting": f"{e} x M {mkey}", "class": cls, "event": e,
         "model_key": mkey, "fixture": fixture, "config_edit": edit, "expect": k["expect"],
         "steps_bound_s": step_secs(steps), "draw": f"draw {i}: {e}: {cls}; M: {mkey}"}  # fmt: skip
    if f"e{i:02d}" in EXPECTED_DRAWN:
        c["expect_drawn"] = EXPECTED_DRAWN[f"e{i:02d}"]
    return c


def draw():
    cases = {f"e{i:02d}": make_case(i, *d) for i, d in enumerate(draw_classes(), 1)}
    order, _ = schedule(cases, 130)
    models = {
        c["args"][0].split("/")[-1]: {"fixture": c["fixture"], "edit": c["config_edit"]}
        for c in cases.values()
    }
    why = (
        "fresh-380 doctor-corpus cases (tools/gpu_fresh380_draw.py wrote this file; tools/gpu_serve_requests.py runs "
        "them on real vLLM 0.26.0 'vllm serve', one H100 or H200). ONE case: the universe left after fresh-327 and "
        "fresh-360 holds one pair. Drawn, not chosen: see the draw script's docstring. 'models': python3 "
        "tools/gpu_fresh380_draw.py --models .gpu/models."
    )
    return {"why": why, "seed": SEED, "universe": len(pairs_left()), "order": order, "models": models,
            "cases": cases}  # fmt: skip


def report(out):
    cases = out["cases"]
    for k, c in cases.items():
        print(
            k, c["draw"], "|", " ".join(c["args"]), "| mem", c["mem"], "| steps <=", c["steps_bound_s"], "s"
        )
        print("   steps:", json.dumps(c["steps"]))
    for cold in (130, TIMEOUT):
        order, sched = schedule(cases, cold)
        worst = max(e for _, e in sched.values())
        print(f"cold start {cold} s: worst end {worst:.0f} s")
        assert worst <= 450, worst
    print("order:", " ".join(out["order"]))


if __name__ == "__main__" and sys.argv[1:2] == ["--models"]:
    with open(OUT_JSON) as f:
        write_models(json.load(f)["models"], sys.argv[2], FIXTURES)
    sys.exit(0)

if __name__ == "__main__":
    out = draw()
    if sys.argv[1:] != ["--draw-only"]:
        with open(OUT_JSON, "w") as f:
            json.dump(out, f, indent=1)
            f.write("\n")
    report(out)
