"""Draw the fresh-360 GPU cases: THINGS THAT HAPPEN TO A RUNNING GPU SERVER, ROUND 3: a re-draw of fresh-327's universe
(tools/gpu_fresh327_draw.py EVENTS and MODELS, imported unchanged) with a new seed, the (event, class) pairs fresh-327
drew and the cases fresh-288 drew left out. A HEALTHY small model served (a published config.json cut to 2 layers;
real vLLM 0.26.0 `vllm serve`, torch 2.11+cu130, one H100 80GB (or H200), SM90; dummy weights, --skip-tokenizer-init,
token-id prompts), then ONE DRAWN EVENT once the server logged "Application startup complete". Sampled, not chosen.

Usage: python3 tools/gpu_fresh360_draw.py                  writes tools/gpu-fresh360-cases.json and prints the draw
       python3 tools/gpu_fresh360_draw.py --draw-only      prints the draw and the memory / time figures
       python3 tools/gpu_fresh360_draw.py --models DIR     writes DIR/<name>/config.json (config.json only, a few KB)
Run (the last device call, after the bundle's part calls; the cases file, gpu_serve_requests.py, gpu_serve_drive.py
and gpu_fresh151_go.sh copied into .gpu/run, the model folders into .gpu/models):
  bash .gpu/run/gpu_fresh151_go.sh 545 LASTPART gpu_serve_requests.py .gpu/run/gpu-fresh360-cases.json LEFT 8 0.95
       ORDER   (the twelve case names in the file's "order", printed by this tool)
(gpu_serve_requests.py CASES TOTAL_S PARALLEL MEM_CAP CASE...: cases start in the order given while the running cases'
"mem" plus the next one's stays within MEM_CAP, at most PARALLEL at once; a case not started by TOTAL_S - its "need" is
skipped.) The driver is used UNCHANGED: every class of fresh-327's universe runs on the steps fresh-327 added
(hog_after, disconnect) and the older ones (post / get / sleep / signal / wait_exit); no new step is needed.

SOURCES. fresh-327's universe as its tool states it (its sources: vLLM 0.26.0's own source from the kit's wheel). Read
again here, from the kit's wheel /work/main/.gpu/build/vllm-0.26.0-cp38-abi3-manylinux_2_28_x86_64.whl unzipped into
/tmp/gpu360: renderers/params.py TokenizeParams.__post_init__ ("max_tokens=N cannot be greater than
max_model_len=max_total_tokens=4096. Please request fewer output tokens.", checked for any int: 2^31 and 10^20 alike)
and _token_len_check (a prompt longer than max_input_tokens = 4096 - max_tokens: "This model's maximum context length
is 4096 tokens. However, you requested M output tokens and your prompt contains [at least ]N input tokens, for a total
of [at least ]T tokens. ..."; the "at least " qualifier when N == max_input_tokens + 1, as for 4096 ids with
max_tokens 1); entrypoints/openai/completion/protocol.py build_tok_params (max_output_tokens = max_tokens or 0, max_tokens
default 16); v1/engine/async_llm.py check_health (only `if self.errored`: /health answers 200 while the EngineCore is
stopped); v1/engine/core_client.py ("[shutdown] MPClient: engine core exited unexpectedly; starting cleanup", which
fresh-327's e03 showed on the device). The fresh-327 and fresh-288 batch HEADERS in the manifest (what happened on the
device: all 8 of fresh-327 side by side were ready in 113-161 s; the identical-prompt bursts were shared by the prefix
cache, so fresh-327's e07 and fresh-288's e10 never preempted; SIGKILL of the EngineCore ends in the API server's
'engine core exited unexpectedly' and an exit by itself; a co-tenant after the start leaves nothing in vLLM's log).
Not read: doctor, its knowledge patterns, tests/test_doctor*, any batch's logs.

EARLIER GPU MAKERS (their universes only): fresh-327 (this universe; drew E2 api-server-30s-mid-request, E1
fits-1GiB-idle, E3 during-burst-of-16, E7 max-tokens-4086-fills-context, E5 one-stream-closed-after-2s, E6
prompt-100000-ids, E4 seqs-4-kv-6144-tokens-12x(1024+1024), E5 plain-request-client-gone-after-1s); fresh-288 (its own
universe R01-R14, drew R10 stop-engine-core-15s-mid-request, R09 SIGTERM-twice-mid-request, R06
capture-sizes-1-2-load-24, R02 valid, R03 logprobs-minus1, R05 best-of-4, R08 SIGTERM-mid-request, R14 no-env, R01
prompt-4080-max-tokens-32, R07 gemma-priority-policy-256MiB, R13 prefix-caching-off, R04 prompt-logprobs-21: none of
them is a class of this universe (fresh-327 avoided them), so leaving them out removes nothing, checked below by
FRESH288_DRAWN against the class names); fresh-21 / fresh-302 (their events fresh-327 listed and avoided); fresh-348 /
fresh-349 (start-time settings; their headers: a TOTAL too short for a third wave lost cases, so this batch is two
waves).

BASE (fresh-327's): `vllm serve .gpu/models/<folder> --skip-tokenizer-init --load-format dummy --max-model-len 4096
--kv-cache-memory-bytes 1073741824 --gpu-memory-utilization 0.08`; a class's flags are appended and REPLACE the base's
(the preemption classes' --kv-cache-memory-bytes). Requests: POST /v1/completions with token ids (prompt_len N = ids
1000..1000+N-1), "model" the folder path. Folders f360-<model key> <- tests/fixtures/checkpoints/<fixture> with
num_hidden_layers 2 (the same configs as fresh-327's f327- folders, under this batch's names).
MEMORY BOUND BY CONSTRUCTION (fresh-327's): every class has a fixed KV budget (1 GiB, or the preemption class's few
MiB), so real use is ~5.6 GB < 0.08 x 79.2 GiB; a co-tenant that fits adds its G GiB ("mem" 0.08 + G/80 + 0.004 <=
0.109); the 160 GiB co-tenant fails in its own allocation and holds nothing. Every case <= 0.109: any 8 <= 0.88 < 0.95.
TIME (two waves): "timeout" 160 (to be ready), "need" 200. ORDER, a rule fixed before the draw: the cases sorted by
their steps' upper bound, longest first (ties in draw order): the 8 longest start together (wave 1), the 4 shortest
start as the first of wave 1 end (wave 2). step_secs() bounds a case's steps; the tool prints the worst end with a
130 s cold start and with the 160 s timeout; both must be <= 450 s of engine time (the driver's TOTAL ~490 s LEFT of 545
after a ~35-55 s setup).

THE UNIVERSE: fresh-327's 7 EVENT conditions x their 21 classes, less the 8 (event, class) pairs fresh-327 drew: 13 pairs
left (E1 2, E2 2, E3 2, E4 2, E5 1, E6 2, E7 2), and the MODEL condition (2 classes). Steps, flags and EXPECT of each
class are fresh-327's, written before its draw.
THE DRAW: r = random.Random(2360); pairs = r.sample(sorted(the 13 pairs left), 12); then per pair in that order: model
= r.choice(sorted(MODELS)). Cases e01..e12 in draw order. Nothing is redrawn.
THE DRAW GAVE: DRAW_GAVE below (filled after --draw-only printed the draw once, before the cases file was written and
before anything ran; nothing but DRAW_GAVE, EXPECTED_DRAWN and this paragraph changed after it). EXPECTED for the drawn
twelve: EXPECTED_DRAWN below (also each case's "expect_drawn"), written before anything ran.
"""

import json
import os
import random
import sys

from gpu_draw_models import write_models  # the script's folder is on sys.path when run
from gpu_fresh327_draw import BASE, EVENTS, MODELS, fill

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_JSON = os.path.join(HERE, "gpu-fresh360-cases.json")
FIXTURES = os.path.join(HERE, "..", "tests", "fixtures", "checkpoints")
SEED = 2360
N = 12
TIMEOUT, NEED = 160, 200
PARALLEL, CAP = 8, 0.95
FOLDER = ".gpu/models/f360-"

FRESH327_DRAWN = {  # tools/gpu-fresh327-cases.json's (event, class) of e01..e08
    ("E2 SIGSTOP / SIGCONT (a paused process)", "api-server-30s-mid-request"),
    ("E1 a co-tenant process allocates GPU memory AFTER the server is ready (hog_after)", "fits-1GiB-idle"),
    ("E3 SIGKILL of the EngineCore (OOM killer, kill -9)", "during-burst-of-16"),
    ("E7 a request with a huge max_tokens", "max-tokens-4086-fills-context"),
    ("E5 a client that disconnects mid-reply", "one-stream-closed-after-2s"),
    ("E6 a request over the context (--max-model-len 4096)", "prompt-100000-ids"),
    (
        "E4 a burst beyond --max-num-seqs with a small KV budget (preemption)",
        "seqs-4-kv-6144-tokens-12x(1024+1024)",
    ),
    ("E5 a client that disconnects mid-reply", "plain-request-client-gone-after-1s"),
}
FRESH288_DRAWN = {  # tools/gpu-fresh288-cases.json's classes of e01..e12 (another universe: no class name shared)
    "stop-engine-core-15s-mid-request", "SIGTERM-twice-mid-request", "capture-sizes-1-2-load-24", "valid",
    "logprobs-minus1", "best-of-4", "SIGTERM-mid-request", "no-env", "prompt-4080-max-tokens-32",
    "gemma-priority-policy-256MiB", "prefix-caching-off", "prompt-logprobs-21",
}  # fmt: skip

DRAW_GAVE = (  # filled after --draw-only printed the draw once (the tool committed before it, 090a0b54)
    "e01 E4 seqs-32-kv-8192-tokens-48x(500+1500) (qwen2.5), e02 E2 engine-core-never-continued (qwen2.5), e03 E7 "
    "max-tokens-2^31 (qwen2.5), e04 E3 idle-then-request (llama), e05 E5 eight-streams-closed-together-after-3s "
    "(qwen2.5), e06 E1 fits-2GiB-under-load (llama), e07 E1 over-card-160GiB-under-load (qwen2.5), e08 E3 mid-stream "
    "(qwen2.5), e09 E6 prompt-4097-default-max-tokens (llama), e10 E4 seqs-2-kv-4608-tokens-6x(2000+2000) (llama), "
    "e11 E7 max-tokens-10^20 (llama), e12 E2 engine-core-75s-idle-request-while-stopped (qwen2.5). The one pair not "
    "drawn: E6 prompt-4096-max-tokens-1. mem 0.08 each (e06 0.109); any 8 <= 0.669. order e12 e02 e01 e10 e04 e08 e06 "
    "e07 | e05 e03 e09 e11: worst end 318 s at 130 s cold starts, 378 s at the 160 s timeout (<= 450). So 12 servers "
    "expected up: 7 healthy with alarming moments (e01, e05, e06, e07, e10, e12; e12 a 75 s stall), one HUNG engine "
    "(e02), two dead engines (e04, e08), three refused requests (e03, e09, e11)."
)
EXPECTED_DRAWN = {  # written after --draw-only printed the draw, before anything ran (0.26's source as cited above)
    "e01": "healthy under load (qwen2.5 cut, --max-num-seqs 32, a 32 MiB = 8192-token KV budget = 512 blocks, 48 x "
    "500+1500 identical prompts): the 500-token prompt shared by the prefix cache, but 32 running sequences growing to "
    "1500 tokens each need far more than 512 blocks: 'Preemptions: N' in the INFO stats lines (loggers.py prints it "
    "only when N > 0 in the interval), 'GPU KV cache usage' near 100%, requests waiting; many or all 48 answered 200 "
    "within the 55 s (expected none: load, not a failure)",
    "e02": "a HUNG server (qwen2.5 cut): the EngineCore SIGSTOPped 3 s into a 3000-token request and never continued; "
    "/health answered 200 (check_health reads only 'errored'); the running request and a new one never answered (their "
    "120 s client timeout outlasts the case: no client line for them); the log ends with one INFO stats line at 0.0 "
    "generation tokens/s and a stale 'Running: 1 reqs' (the next idle intervals go to DEBUG), then nothing: no error "
    "line; the driver SIGKILLs it",
    "e03": "a refused request (qwen2.5 cut): 400 'max_tokens=2147483648 cannot be greater than "
    "max_model_len=max_total_tokens=4096. Please request fewer output tokens.' (in the client line; the log has only "
    "the access line '400 Bad Request'); the short requests before and after 200; the server up",
    "e04": "a dead engine (llama cut): the idle EngineCore SIGKILLed; the API server logs '[shutdown] MPClient: engine "
    "core exited unexpectedly; starting cleanup' (EngineDeadError lines possible), shuts down and exits by itself "
    "(rc 0 as fresh-327's e03); the request sent 3 s later fails: 500 EngineDeadError, or connection refused if the "
    "server is already gone",
    "e05": "healthy (qwen2.5 cut): eight 3000-token streams, each closed by its client after 3 s, aborted without a "
    "log line (requests not logged); a stats line may show 'Running: 8 reqs'; a later request 200 (expected none)",
    "e06": "healthy (llama cut): a 2 GiB co-tenant started 2 s into a 3000-token request; the driver's note quotes it "
    "('co-tenant pid N holds 2.0 GiB on cuda: free X of 79.18 GiB | HOG READY'); nothing of it in vLLM's log; the "
    "short request 200 (the long one may finish 200 within the 5 s or not) (expected none)",
    "e07": "healthy server (qwen2.5 cut): the 160 GiB CO-TENANT fails in its own allocation (torch.OutOfMemoryError "
    "'CUDA out of memory. Tried to allocate 160.00 GiB ...' in the driver's note quoting the hog's last lines, rc 1); "
    "vLLM's log shows nothing of it; the short request 200 (expected none for the server's log)",
    "e08": "a dead engine (qwen2.5 cut): the EngineCore SIGKILLed 3 s into a streamed 3000-token request; the API "
    "server logs '[shutdown] MPClient: engine core exited unexpectedly; starting cleanup' and EngineDeadError / "
    "'AsyncLLM output_handler failed', the stream ends (the client line: 200 with the first data chunks, or an "
    "IncompleteRead), the server exits by itself",
    "e09": "a refused request (llama cut): 4097 prompt ids with the default 16 output tokens: 400 'This model's "
    "maximum context length is 4096 tokens. However, you requested 16 output tokens and your prompt contains 4097 "
    "input tokens, for a total of 4113 tokens. Please reduce the length ...' (client line); short requests 200; up",
    "e10": "healthy under load (llama cut, --max-num-seqs 2, a 36 MiB = 4608-token KV budget = 288 blocks, 6 x "
    "2000+2000): two running need 125 prompt blocks (shared or not) + 2 x 125 generated > 288: 'Preemptions: N' in "
    "the stats lines, KV usage near 100%, 4 waiting; the 6 answered 200 within the 55 s (expected none)",
    "e11": "a refused request (llama cut): 400 'max_tokens=100000000000000000000 cannot be greater than "
    "max_model_len=max_total_tokens=4096. Please request fewer output tokens.' (pydantic int has no bound; the "
    "TokenizeParams check comes first); short requests 200; up",
    "e12": "healthy after a stall (qwen2.5 cut): the idle EngineCore SIGSTOPped, a 16-token request sent 1 s later "
    "waits ~75 s (no watchdog at TP 1, /health would say 200) and is answered 200 after SIGCONT; the log shows no "
    "line during the stop (idle intervals go to DEBUG), then one stats line; no error line (expected none)",
}  # fmt: skip


def pairs_left():
    every = [(e, c) for e in sorted(EVENTS) for c in sorted(EVENTS[e])]
    assert FRESH327_DRAWN <= set(every), "fresh-327's drawn pairs are in its universe"
    left = [p for p in every if p not in FRESH327_DRAWN and p[1] not in FRESH288_DRAWN]
    assert len(left) == 21 - 8 == 13, len(left)
    return left


def draw_classes():
    r = random.Random(SEED)
    pairs = r.sample(pairs_left(), N)
    return [(e, cls, r.choice(sorted(MODELS))) for e, cls in pairs]


def step_secs(steps):
    """An upper bound of a case's steps: sleeps, wait_exit, a hog's 20 s (its 90 s wait is for a hog that hangs; on the
    device fresh-327's took ~10 s), sync requests ~2 s each (<= 16 tokens or a 400), a sync disconnect's `after`."""
    t = 0.0
    for s in steps:
        t += s.get("sleep", 0) + s.get("wait_exit", 0) + (20 if "hog_after" in s else 0)
        t += s.get("after", 0) if "disconnect" in s and not s.get("bg") else 0
        t += 2 if ("post" in s or "get" in s) and not s.get("bg") else 0
    return t


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


def schedule(cases, cold):
    """The driver's start order and each case's worst end (s from the driver's start) if every cold start takes COLD
    s: the order's first PARALLEL start 1 s apart; each later one when the earliest running one ends (memory never
    binds: every case <= 0.109)."""
    order = sorted(cases, key=lambda k: -cases[k]["steps_bound_s"])  # stable: ties in draw order
    ends, out = [], {}
    for j, k in enumerate(order):
        start = j * 1.0 if j < PARALLEL else sorted(ends)[j - PARALLEL]
        end = start + cold + cases[k]["steps_bound_s"] + cases[k].get("linger", 2)
        ends.append(end)
        out[k] = (start, end)
    return order, out


def draw():
    cases = {f"e{i:02d}": make_case(i, *d) for i, d in enumerate(draw_classes(), 1)}
    order, _ = schedule(cases, 130)
    models = {
        c["args"][0].split("/")[-1]: {"fixture": c["fixture"], "edit": c["config_edit"]}
        for c in cases.values()
    }
    why = (
        "fresh-360 doctor-corpus cases (tools/gpu_fresh360_draw.py wrote this file; tools/gpu_serve_requests.py runs "
        "them on real vLLM 0.26.0 'vllm serve', one H100 or H200, at most 8 side by side within 0.95, in 'order': "
        "two waves). Drawn, not chosen: see the draw script's docstring. 'models': python3 tools/gpu_fresh360_draw.py "
        "--models .gpu/models."
    )
    return {"why": why, "seed": SEED, "universe": len(pairs_left()), "order": order, "models": models,
            "cases": cases}  # fmt: skip


def report(out):
    cases = out["cases"]
    for k, c in cases.items():
        print(k, c["draw"], "|", " ".join(c["args"][c["args"].index("--gpu-memory-utilization") + 2 :]), "| mem",
              c["mem"], "| steps <=", c["steps_bound_s"], "s")  # fmt: skip
    mems = sorted((c["mem"] for c in cases.values()), reverse=True)
    print("mem: max", mems[0], "; any 8 <=", round(sum(mems[:PARALLEL]), 3), "(cap", CAP, ")")
    assert sum(mems[:PARALLEL]) <= CAP
    for cold in (130, TIMEOUT):
        order, sched = schedule(cases, cold)
        worst = max(e for _, e in sched.values())
        print(
            f"cold start {cold} s: worst end {worst:.0f} s;",
            " ".join(f"{k}@{sched[k][0]:.0f}" for k in order),
        )
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
