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
before anything ran; nothing but DRAW_GAVE, EXPECTED_DRAWN and this paragraph changed after it). In short: seven
refused requests on healthy servers, three healthy servers, one requested shutdown, one twin refused at its bind.
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

DRAW_GAVE = (  # filled after --draw-only printed the draw once (the tool committed before it, a618a55f)
    "e01 P07 models-metrics-health-version (qwen2.5), e02 P05 text-prompt (llama), e03 P06 stop-strings (llama), e04 "
    "P04 logit-bias-key-not-an-int (llama), e05 P10 twin-same-port (qwen2.5), e06 P01 top-p-0 (qwen2.5), e07 P08 "
    "SIGTERM-idle (qwen2.5), e08 P09 seqs-1-burst-8-streams-(100+1000) (qwen2.5), e09 P02 max-tokens-0 (llama), e10 "
    "P05 chat-completion (qwen2.5), e11 P07 embeddings-on-generative (qwen2.5), e12 P05 response-format-json-object "
    "(llama). The twin drawn (e05, mem 0.16): any 8 <= 0.72. order e05 e07 e08 e01 e02 e04 e06 e09 | e10 e11 e12 "
    "e03: worst end 282 s at 130 s cold starts, 342 s at the 160 s timeout (<= 450). So: seven refused requests on "
    "healthy servers (e02, e04, e06, e09, e10, e11 (404), e12), three healthy servers (e01 probes, e03 stop strings "
    "silently unmatched, e08 a queue behind --max-num-seqs 1), one requested shutdown (e07), one twin refused at its "
    "bind while the case's server serves on (e05)."
)
EXPECTED_DRAWN = {  # written after --draw-only printed the draw, before anything ran (0.26's source as fresh-381 cites)
    "e01": "healthy (qwen2.5 cut): GET /v1/models, /metrics, /health, /version all 200 (/version '0.26.0'), then the "
    "short completion 200; access lines only (expected none)",
    "e02": "a refused request (llama cut): the text prompt must be tokenized on a --skip-tokenizer-init server: 400 "
    "'Tokenizer not available when `skip_tokenizer_init=True`' (renderers/base.py 156-160 via 551-562; access line "
    "'400 Bad Request'); the short requests before and after 200; up",
    "e03": "healthy (llama cut): 200 with finish_reason 'length' after all 64 tokens: without a tokenizer the stop "
    "strings never match (detokenizer.py 56-58), silently; no log line about it (expected none)",
    "e04": "a refused request (llama cut): 400 \"logit_bias contains key(s) that cannot be converted to integer token "
    "IDs: ['hello']\" (SamplingParams.from_optional, sampling_params.py 406-411, VLLMValidationError param "
    "logit_bias); short requests 200; up",
    "e05": "the case's own server (qwen2.5 cut) serves on: its log healthy, the short request 200 (expected none for "
    "it); the TWIN (same args, same port; its log CASE.twin.log) fails at once in setup_server's bind (api_server.py "
    "~586, SO_REUSEADDR does not allow a second listener): 'OSError: [Errno 98] Address already in use' with the "
    "traceback, rc 1, before any engine or GPU memory (the twin log's cause: the port already taken by another "
    "server)",
    "e06": "a refused request (qwen2.5 cut): 400 'top_p must be in (0, 1], got 0.0.' (sampling_params.py 557-558, "
    "param top_p); short requests 200; up",
    "e07": "a requested shutdown of an idle server (qwen2.5 cut; docker stop): after the short request 200, SIGTERM "
    "to the API server: '[shutdown] API server: shutdown triggered', 'stopping engine client mode=abort timeout=0s', "
    "'[shutdown] EngineCore: start mode=abort timeout=0s', 'engine client stopped', 'signalling HTTP server "
    "shutdown', possibly 'port N is used by process ...', uvicorn's 'Shutting down' lines; the server exits by itself "
    "rc 0 within the 40 s (expected none: asked for, nothing broke)",
    "e08": "healthy under load (qwen2.5 cut, --max-num-seqs 1): 8 streams of 1000 tokens, one running at a time, the "
    "stats lines show 'Running: 1 reqs, Waiting: N reqs' falling; each stream seconds on 2 layers, all 8 done 200 "
    "within the 40 s (a late one would still be 200, not an error), the short request after 200; no preemption (1 "
    "GiB of KV holds 8 x 1100 tokens) (expected none)",
    "e09": "a refused request (llama cut): 400 'max_tokens must be at least 1, got 0.' (get_max_tokens passes the 0 "
    "through, api_utils.py 170-206; SamplingParams._verify_args, sampling_params.py 573-575, param max_tokens); short "
    "requests 200; up",
    "e10": "a refused request (qwen2.5 cut): POST /v1/chat/completions needs the chat template applied by the "
    "tokenizer: 400 'Tokenizer not available when `skip_tokenizer_init=True`' (renderers/base.py 159), or another "
    "400 naming the missing tokenizer / chat template; short requests 200; up",
    "e11": "a refused request (qwen2.5 cut): POST /v1/embeddings answers 404 {'detail': 'Not Found'}: the pooling "
    "routers are registered only for a pooling task (api_server.py 267-270); access line '404 Not Found'; short "
    "requests 200; up",
    "e12": "a refused request (llama cut): response_format json_object on a tokenizer-less server: 400 \"Structured "
    "outputs requires a tokenizer so it can't be used with 'skip_tokenizer_init'\" (sampling_params.py 927-929); "
    "short requests 200; up",
}  # fmt: skip


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
