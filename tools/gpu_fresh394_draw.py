"""Draw the fresh-394 GPU cases: THINGS THAT HAPPEN TO A RUNNING GPU SERVER, ROUND 2: a RE-DRAW over fresh-381's POOL
(tools/gpu_fresh381_draw.py: 10 event conditions P01-P10, 33 (event, value class) pairs, every class's steps, flags
and EXPECT written by gpu381 before its draw), IMPORTED unchanged, with a new seed and every (event, class) pair that
fresh-381 drew skipped. A HEALTHY small model served (fresh-327's MODELS: a published config.json cut to 2 layers;
real vLLM 0.26.0 `vllm serve`, torch 2.11+cu130, one H100 80GB (or H200), SM90; dummy weights, --skip-tokenizer-init,
token-id prompts), then ONE DRAWN EVENT once the server logged "Application startup complete". Sampled, not chosen.

Usage: python3 tools/gpu_fresh394_draw.py                  writes tools/gpu-fresh394-cases.json and prints the draw
       python3 tools/gpu_fresh394_draw.py --draw-only      prints the draw and the memory / time figures, writes nothing
       python3 tools/gpu_fresh394_draw.py --models DIR     writes DIR/<name>/config.json (config.json only, a few KB)
Run (the last device call, after the bundle's part calls; LASTPART is the bundle's last part; the cases file,
gpu_serve_requests.py, gpu_serve_drive.py and gpu_fresh151_go.sh copied into .gpu/run, the model folders into
.gpu/models; the driver is used UNCHANGED: every class runs on the steps fresh-381 wrote for it (post / get / sleep /
signal to "api" / wait_exit / start_twin with same_port)):
  bash .gpu/run/gpu_fresh151_go.sh 545 LASTPART gpu_serve_requests.py .gpu/run/gpu-fresh394-cases.json LEFT 8 0.95
       <the file's "order">

SOURCES READ for this draw: tools/gpu_fresh381_draw.py (the pool, its BASE, step_secs, schedule and the vLLM 0.26.0
source lines its classes cite), tools/gpu-fresh381-cases.json (its 'event' / 'class' fields: the SKIP),
tools/gpu_fresh327_draw.py (BASE, MODELS), tools/gpu_serve_requests.py (the start rule, deadlines, the steps). vLLM
0.26.0's own source from the kit's wheel (unzipped into /tmp/gpu393) for the EXPECTED below, as cited there. Not read:
doctor, its knowledge, tests/test_doctor*, any batch's logs.
EARLIER GPU MAKERS: as fresh-381's docstring lists (fresh-327's EVENTS, used up by fresh-327/360/380; fresh-288;
fresh-21; the fresh-348/349/360 headers: two waves), plus fresh-381 itself: its twelve pairs are the SKIP below.

SKIP (fixed before the draw, read from the cases file by skipped()): the 12 (event, class) pairs fresh-381 drew.
LEFT: the pool's other 21 pairs (asserted), so no fresh-381 case comes again, and no class it ran.
THE DRAW (fixed before it ran, fresh-381's rule on what is left): r = random.Random(2394); pairs = r.sample(LEFT, 12)
(LEFT sorted); then per pair in that order: model = r.choice(sorted(MODELS)). Cases e01..e12 in draw order. Nothing is
redrawn; a case that cannot be made is said so, not replaced. 12 <= 21: no new class is needed.

BASE (fresh-381's = fresh-327's): `vllm serve .gpu/models/f394-<model key> --skip-tokenizer-init --load-format dummy
--max-model-len 4096 --kv-cache-memory-bytes 1073741824 --gpu-memory-utilization 0.08` + a class's flags
(--max-num-seqs, --shutdown-timeout). Folders f394-<model key> (the same configs as fresh-381's f381- folders, under
this batch's names: a warm device's f381 folders are never reused).
MEMORY BOUND BY CONSTRUCTION (fresh-381's): a fixed 1 GiB KV budget; mem 0.08 a case, 0.16 for the twin class; any 8
<= 0.16 + 7 x 0.08 = 0.72 < 0.95 (asserted on the drawn mems).
TIME (two waves, fresh-381's rule): "timeout" 160 (to be ready), "need" 200; "order" = the cases sorted by their steps'
upper bound, longest first (ties in draw order); the tool prints the worst end with a 130 s cold start and with the
160 s timeout; both must be <= 450 s (asserted).

THE DRAW GAVE: DRAW_GAVE below (filled after --draw-only printed the draw once, before the cases file was written and
before anything ran; nothing but DRAW_GAVE, EXPECTED_DRAWN and this paragraph changed after it).
EXPECTED for the drawn twelve: EXPECTED_DRAWN below (also each case's "expect_drawn"), written after the draw was
printed and before anything ran.
"""

import json
import os
import random
import sys

import gpu_fresh381_draw as R  # the script's folder is on sys.path when run
from gpu_draw_models import write_models

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_JSON = os.path.join(HERE, "gpu-fresh394-cases.json")
SEED = 2394
N = 12
FOLDER = ".gpu/models/f394-"


def skipped():
    with open(os.path.join(HERE, "gpu-fresh381-cases.json")) as f:
        cases = json.load(f)["cases"]
    assert len(cases) == 12, len(cases)
    s = {(c["event"], c["class"]) for c in cases.values()}
    assert len(s) == 12 and all(e in R.POOL and c in R.POOL[e] for e, c in s), s
    return s


SKIP = skipped()
LEFT = sorted(p for p in R.all_pairs() if p not in SKIP)
assert len(LEFT) == 21, len(LEFT)

DRAW_GAVE = "(filled after --draw-only printed the draw once)"
EXPECTED_DRAWN = {}  # written after --draw-only printed the draw, before anything ran


def draw_classes():
    r = random.Random(SEED)
    pairs = r.sample(LEFT, N)
    return [(e, cls, r.choice(sorted(R.MODELS))) for e, cls in pairs]


def make_case(i, e, cls, mkey):
    fixture, edit, util, _ = R.MODELS[mkey]
    k = R.POOL[e][cls]
    model = FOLDER + mkey
    args = [model, *R.BASE, "--gpu-memory-utilization", str(util), *k.get("flags", [])]
    steps = R.fill(k["steps"], model, args)
    c = {"args": args, "env": {}, "timeout": R.TIMEOUT, "need": R.NEED, "mem": k.get("mem", util), "steps": steps,
         "setting": f"{e} x M {mkey}", "class": cls, "event": e, "model_key": mkey, "fixture": fixture,
         "config_edit": edit, "expect": k["expect"].replace("{vocab}", str(R.VOCAB[mkey])),
         "steps_bound_s": R.step_secs(steps), "draw": f"draw {i}: {e}: {cls}; M: {mkey}"}  # fmt: skip
    if f"e{i:02d}" in EXPECTED_DRAWN:
        c["expect_drawn"] = EXPECTED_DRAWN[f"e{i:02d}"]
    return c


def draw():
    cases = {f"e{i:02d}": make_case(i, *d) for i, d in enumerate(draw_classes(), 1)}
    order, _ = R.schedule(cases, 130)
    models = {
        c["args"][0].split("/")[-1]: {"fixture": c["fixture"], "edit": c["config_edit"]}
        for c in cases.values()
    }
    why = (
        "fresh-394 doctor-corpus cases (tools/gpu_fresh394_draw.py wrote this file; tools/gpu_serve_requests.py runs "
        "them on real vLLM 0.26.0 'vllm serve', one H100 or H200, at most 8 side by side within 0.95, in 'order': "
        "two waves). A re-draw over fresh-381's pool, fresh-381's drawn pairs skipped: see the draw script's "
        "docstring. 'models': python3 tools/gpu_fresh394_draw.py --models .gpu/models."
    )
    return {"why": why, "seed": SEED, "universe": len(LEFT), "skip": sorted(map(list, SKIP)), "order": order,
            "models": models, "cases": cases}  # fmt: skip


if __name__ == "__main__" and sys.argv[1:2] == ["--models"]:
    with open(OUT_JSON) as f:
        write_models(json.load(f)["models"], sys.argv[2], R.FIXTURES)
    sys.exit(0)

if __name__ == "__main__":
    out = draw()
    if sys.argv[1:] != ["--draw-only"]:
        assert EXPECTED_DRAWN, "EXPECTED_DRAWN is written after --draw-only, before the cases file"
        with open(OUT_JSON, "w") as f:
            json.dump(out, f, indent=1)
            f.write("\n")
    print(len(SKIP), "pairs skipped;", len(LEFT), "left")
    R.report(out)
