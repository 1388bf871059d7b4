"""Draw the fresh-327 GPU cases: THINGS THAT HAPPEN TO A RUNNING GPU SERVER: the deployment's "why did the engine die /
has it hung" weeks (/work/shared/seed/DIGEST.md: tokens stop while num_requests_running stays up, an EngineDeadError
after minutes, another process on the card, requests at the edge of the context): a HEALTHY small model served (a
published config.json cut to 2 layers; real vLLM 0.26.0 `vllm serve`, torch 2.11+cu130, one H100 80GB (or H200),
SM90; dummy weights, --skip-tokenizer-init, token-id prompts), then ONE DRAWN EVENT once the server logged
"Application startup complete". Sampled, not chosen.

Usage: python3 tools/gpu_fresh327_draw.py                  writes tools/gpu-fresh327-cases.json and prints the draw
       python3 tools/gpu_fresh327_draw.py --draw-only      prints the draw and the memory / time figures
       python3 tools/gpu_fresh327_draw.py --models DIR     writes DIR/<name>/config.json (config.json only, a few KB)
Run (the last device call, after the bundle's part calls; the cases file, gpu_serve_requests.py (with this batch's
two new steps), gpu_serve_drive.py and gpu_fresh151_go.sh copied into .gpu/run, the model folders into .gpu/models):
  bash .gpu/run/gpu_fresh151_go.sh 330 p3 gpu_serve_requests.py .gpu/run/gpu-fresh327-cases.json LEFT 8 0.95
       e01 e02 e03 e04 e05 e06 e07 e08
(gpu_serve_requests.py CASES TOTAL_S PARALLEL MEM_CAP CASE...: cases start in the order given while the running cases'
"mem" plus the next one's stays within MEM_CAP, at most PARALLEL at once: here all 8 start together.)

DRIVER: tools/gpu_serve_requests.py's existing steps (post / get / sleep / signal to "engine_core" (the process whose
command line carries vLLM's setproctitle "EngineCore", else the API server's children) or "api" / wait_exit) plus two
steps added for this batch in the smallest way (old steps unchanged), tested on the CPU with a stand-in `vllm serve`
by tools/gpu_serve_requests_check.py (all checks pass, commit dd0146b1):
  {"hog_after": {"gib": G}}: the existing "hog" co-tenant (a torch process allocating G GiB on cuda and holding it)
    started AFTER the server is ready, while requests flow; its lines are noted in CASE.client.txt, it is killed at
    the end;
  {"disconnect": PATH, "body": {...}, "after": s}: a POST on a raw socket, the reply read for s seconds, then the
    socket closed (a client killed mid-reply); notes the status line and the bytes read.

SOURCES. vLLM 0.26.0's own source, read from the kit's wheel (/work/main/.gpu/build/vllm-0.26.0-cp38-abi3-
manylinux_2_28_x86_64.whl, unzipped into /tmp/gpu327): renderers/params.py TokenizeParams.__post_init__ ("max_tokens=N
cannot be greater than max_model_len=max_total_tokens=4096. Please request fewer output tokens.") and
_token_len_check ("This model's maximum context length is 4096 tokens. However, you requested M output tokens and your
prompt contains N input tokens, for a total of T tokens."); entrypoints/openai/completion/protocol.py (max_tokens
default 16, int with no bound, build_tok_params); entrypoints/serve/utils/api_utils.py with_cancellation (a handler
cancelled when the client disconnects; a StreamingResponse listens for the disconnect itself); v1/engine/async_llm.py
abort ("Aborted request(s) ..." only when requests are logged) and check_health (only `if self.errored`: /health does
not ping the EngineCore, so a STOPPED core still answers 200); envs.py (VLLM_ENGINE_ITERATION_TIMEOUT_S is defined
but used nowhere in v1; VLLM_EXECUTE_MODEL_TIMEOUT_SECONDS only in the multiproc executor, not at TP 1: no watchdog
notices a stopped core); v1/utils.py ("Engine core process ... died unexpectedly.") and v1/engine/core_client.py
(EngineDeadError); v1/metrics/loggers.py ("Preemptions: %d" in the periodic stats line); v1/engine/core.py /
utils/system_utils.py set_process_title ("VLLM::EngineCore..." as the process title, which the driver finds).
Fixtures: tests/fixtures/checkpoints/llama-3.1-8b-instruct (vocab 128256, hidden 4096, 8 KV heads x 128: 4 KiB a token
a layer) and qwen2.5-7b-instruct (vocab 152064, hidden 3584, 4 KV heads x 128: 2 KiB a token a layer). Not read:
doctor, its knowledge, tests/test_doctor*, any earlier batch's logs.

EARLIER GPU MAKERS (their universes only: tools/gpu_fresh*_draw.py docstrings and tools/gpu-fresh*-cases.json 'setting'
/ 'draw' fields; fresh-288/292/302/319 are the latest): fresh-21 DREW SIGKILL to the EngineCore mid-request (plain,
llama), SIGTERM to the API server mid-request, ctrl-C to the group, a 6000-token prompt over 4096, max_tokens 8192
over 4096 (gemma); fresh-288 DREW SIGSTOP/SIGCONT of the EngineCore for 15 s mid-request (gemma), two SIGTERMs to the
API server, SIGTERM to the EngineCore mid-request, preemption under load with the priority policy in 256 MiB (gemma),
a 4080-token prompt + 32; fresh-302 DREW a co-tenant holding 8 GiB BEFORE the start, floods of 65536-token prompts
over 32768, 262145 over 262144, the 96,299-token prompt, 64 x 4096 with 256 batched tokens; fresh-319 start-time
quantization only. AVOIDED HERE: every one of those (event, class) pairs: the co-tenant here comes AFTER the start;
the stops are 75 s idle / never continued / the API server's; the SIGKILLs are idle / mid-stream / mid-burst;
preemption by --max-num-seqs and a small fixed KV budget on dense cut models (FCFS); the over-context and max_tokens
values are new; a disconnecting client is new.

BASE: `vllm serve .gpu/models/<folder> --skip-tokenizer-init --load-format dummy --max-model-len 4096
--kv-cache-memory-bytes 1073741824 --gpu-memory-utilization U`; a class's flags are appended and REPLACE the base's
(the preemption classes' --kv-cache-memory-bytes). Requests: POST /v1/completions with token ids (the driver's
prompt_len N = ids 1000..1000+N-1), "model" the folder path. No --enforce-eager.
MODELS (M condition; device folder <- tests/fixtures/checkpoints/<fixture>, config.json with num_hidden_layers 2):
  f327-llama-3.1-8b-instruct-2l: 1.05 B embedding + lm_head + 2 x 218 M = ~3.0 GB bf16; 8 KiB of KV a token; U 0.08;
  f327-qwen2.5-7b-instruct-2l: 1.09 B + 2 x 233 M = ~3.1 GB; 4 KiB of KV a token; U 0.08.
MEMORY BOUND BY CONSTRUCTION: every case has a fixed KV budget (1 GiB, or the preemption class's few MiB: profiling
skipped, a neighbour cannot move it), so real use is weights ~3.1 GB + KV <= 1.07 GB + CUDA context ~0.5 GB + graphs
~0.3 GB + activations ~0.6 GB = ~5.6 GB < 0.08 x 79.2 GiB = 6.3 GiB; a co-tenant that FITS adds its G GiB (1 or 2:
"mem" 0.08 + G/80 rounded up, <= 0.11); one that does NOT fit (160 GiB, more than an H100's 79.2 or an H200's 139.8
GiB) fails in its own cudaMalloc and holds nothing. Every case <= 0.11, the eight <= 0.88 < 0.95: all start together.
TIME: "timeout" 160 (to be ready), "need" 150. 0.26's cold start with 8 starting together: 60-130 s; every class's
steps are bounded (their sleeps, wait_exit, a hog's <= 90 s wait; requests that may hang are sent in the background)
at <= 85 s, + 2 s linger: every case ends by ~130 + 85 + 2 + 8 (staggered starts) = 225 s <= 260 s of the ~290 s LEFT.

THE UNIVERSE: 7 EVENT conditions (E1-E7) x their classes, and 1 MODEL condition (M: 2 classes); every class's steps,
flags and EXPECT written before the draw and before anything ran.
THE DRAW: r = random.Random(2327); events = r.sample(sorted(EVENTS), 7) + [r.choice(sorted(EVENTS))] (every event
once, one twice); then per case in that order: its class = r.choice(its classes not drawn yet, sorted); model =
r.choice(sorted(MODELS)). Cases e01..e08 in draw order; "order" = draw order. Nothing is redrawn.
THE DRAW GAVE (printed by --draw-only once, before the cases file was written; nothing but EXPECTED_DRAWN and this
paragraph changed after it): every event once, E5 (the disconnecting client) twice: e01 E2 api-server-30s-mid-request
(qwen2.5), e02 E1 fits-1GiB-idle (llama), e03 E3 during-burst-of-16 (qwen2.5), e04 E7 max-tokens-4086-fills-context
(llama), e05 E5 one-stream-closed-after-2s (qwen2.5), e06 E6 prompt-100000-ids (qwen2.5), e07 E4
seqs-4-kv-6144-tokens-12x(1024+1024) (llama), e08 E5 plain-request-client-gone-after-1s (llama). Two model folders;
mem 0.08 each (e02 0.097), 0.657 in all: the 8 start together; steps <= 55 s, so all end by ~195 s at 130 s starts.
So the drawn batch is mostly HEALTHY servers with alarming moments (e01, e02, e04, e05, e07, e08), one refused request
(e06) and one dead engine (e03); the co-tenant drawn is the one that fits (none of the "does not fit" class).
EXPECTED for the drawn eight: EXPECTED_DRAWN below (also each case's "expect_drawn"), before anything ran.
"""

import json
import os
import random
import sys

from gpu_draw_models import write_models  # the script's folder is on sys.path when run

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_JSON = os.path.join(HERE, "gpu-fresh327-cases.json")
FIXTURES = os.path.join(HERE, "..", "tests", "fixtures", "checkpoints")
SEED = 2327
N = 8
GIB = 1073741824
BASE = ["--skip-tokenizer-init", "--load-format", "dummy", "--max-model-len", "4096", "--kv-cache-memory-bytes",
        str(GIB)]  # fmt: skip
TIMEOUT, NEED = 160, 150
# model key -> (fixture, edit, U, KV bytes a token (2 layers, bf16))
MODELS = {
    "llama-3.1-8b-instruct-2l": (
        "llama-3.1-8b-instruct",
        {"num_hidden_layers": 2},
        0.08,
        2 * 2 * 8 * 128 * 2,
    ),
    "qwen2.5-7b-instruct-2l": ("qwen2.5-7b-instruct", {"num_hidden_layers": 2}, 0.08, 2 * 2 * 4 * 128 * 2),
}


def comp(prompt_len=50, max_tokens=16, bg=False, **kw):
    s = {
        "post": "/v1/completions",
        "body": {"model": "MODEL", "prompt_len": prompt_len, "max_tokens": max_tokens, **kw},
    }
    if bg:
        s["bg"] = True
    return s


SHORT = comp()
LONG_BG = comp(100, 3000, True, ignore_eos=True)


def sig(name, to):
    return {"signal": name, "to": to}


def burst(n, prompt_len, max_tokens):
    return [comp(prompt_len, max_tokens, True, ignore_eos=True) for _ in range(n)]


def disc(after, stream, prompt_len=100, max_tokens=3000, bg=False):
    body = {"model": "MODEL", "prompt_len": prompt_len, "max_tokens": max_tokens, "ignore_eos": True}
    if stream:
        body["stream"] = True
    s = {"disconnect": "/v1/completions", "body": body, "after": after}
    if bg:
        s["bg"] = True
    return s


# EVENTS: condition -> class -> {"steps", "flags" (KV budget given in TOKENS as ("KVTOK", n)), "hog" GiB that fits,
# "expect"}
EVENTS = {
    "E1 a co-tenant process allocates GPU memory AFTER the server is ready (hog_after)": {
        "fits-1GiB-idle": {"steps": [{"hog_after": {"gib": 1}}, SHORT, {"sleep": 2}], "hog": 1,
                           "expect": "healthy: the co-tenant holds 1 GiB (noted); the server, whose KV pool and "
                                     "graphs were allocated before ready, answers 200; nothing in its log"},
        "fits-2GiB-under-load": {"steps": [LONG_BG, {"sleep": 2}, {"hog_after": {"gib": 2}}, SHORT, {"sleep": 5}],
                                 "hog": 2, "expect": "healthy as fits-1GiB-idle, with a 3000-token request running "
                                                     "while the co-tenant allocates"},
        "over-card-160GiB-under-load": {"steps": [LONG_BG, {"sleep": 2}, {"hog_after": {"gib": 160}}, SHORT,
                                                  {"sleep": 5}],
                                        "expect": "healthy server: the CO-TENANT fails (torch.OutOfMemoryError "
                                                  "'CUDA out of memory. Tried to allocate 160.00 GiB', only in the "
                                                  "note / hog log); the server never sees it, answers 200"},
    },
    "E2 SIGSTOP / SIGCONT (a paused process)": {
        "engine-core-75s-idle-request-while-stopped": {
            "steps": [sig("SIGSTOP", "engine_core"), {"sleep": 1}, comp(bg=True), {"sleep": 75},
                      sig("SIGCONT", "engine_core"), {"sleep": 8}],
            "expect": "healthy after the pause: the request waits ~75 s (no watchdog at TP 1: "
                      "VLLM_ENGINE_ITERATION_TIMEOUT_S unused in v1) and is answered 200 after SIGCONT; no error "
                      "line, maybe a gap in the stats lines"},
        "engine-core-never-continued": {
            "steps": [LONG_BG, {"sleep": 3}, sig("SIGSTOP", "engine_core"), {"sleep": 5},
                      {"get": "/health", "bg": True}, comp(bg=True), {"sleep": 50}],
            "expect": "a HUNG server: /health 200 (check_health only reads 'errored'), the running and the new "
                      "request never answered; the log ends with stats lines (Running: 1-2 reqs, 0 tokens/s) or "
                      "nothing; no error line: the driver kills it"},
        "api-server-30s-mid-request": {
            "steps": [LONG_BG, {"sleep": 3}, sig("SIGSTOP", "api"), {"sleep": 30}, sig("SIGCONT", "api"),
                      {"sleep": 10}, SHORT],
            "expect": "healthy: the API server paused 30 s, the EngineCore goes on; after SIGCONT the long request "
                      "and a new one are answered 200"},
    },
    "E3 SIGKILL of the EngineCore (OOM killer, kill -9)": {
        "idle-then-request": {
            "steps": [sig("SIGKILL", "engine_core"), {"sleep": 3}, comp(bg=True), {"wait_exit": 40}],
            "expect": "the API server notices the dead core ('Engine core process ... died unexpectedly' / "
                      "EngineDeadError), the request fails (500 or connection closed) and the server exits"},
        "mid-stream": {
            "steps": [comp(100, 3000, True, ignore_eos=True, stream=True), {"sleep": 3},
                      sig("SIGKILL", "engine_core"), {"wait_exit": 40}],
            "expect": "as idle-then-request, the stream cut (an error event or a closed connection)"},
        "during-burst-of-16": {
            "steps": [*burst(16, 500, 2000), {"sleep": 3}, sig("SIGKILL", "engine_core"), {"wait_exit": 40}],
            "expect": "as idle-then-request, 16 requests failed at once (EngineDeadError per request)"},
    },
    "E4 a burst beyond --max-num-seqs with a small KV budget (preemption)": {
        "seqs-4-kv-6144-tokens-12x(1024+1024)": {
            "flags": ["--max-num-seqs", "4", "--kv-cache-memory-bytes", ("KVTOK", 6144)],
            "steps": [*burst(12, 1024, 1024), {"sleep": 55}],
            "expect": "healthy under load: 8 waiting, 4 running needing 8192 > 6144 tokens: preemptions "
                      "('Preemptions: N' in stats lines, KV cache usage near 100%); requests answered 200 as they end"},
        "seqs-2-kv-4608-tokens-6x(2000+2000)": {
            "flags": ["--max-num-seqs", "2", "--kv-cache-memory-bytes", ("KVTOK", 4608)],
            "steps": [*burst(6, 2000, 2000), {"sleep": 55}],
            "expect": "healthy under load, as seqs-4 (2 x 4000 > 4608 tokens: one preempted in turn)"},
        "seqs-32-kv-8192-tokens-48x(500+1500)": {
            "flags": ["--max-num-seqs", "32", "--kv-cache-memory-bytes", ("KVTOK", 8192)],
            "steps": [*burst(48, 500, 1500), {"sleep": 55}],
            "expect": "healthy under heavy load: 32 x 2000 >> 8192 tokens: many preemptions, requests waiting; "
                      "not all 48 answered before the driver ends the case"},
    },
    "E5 a client that disconnects mid-reply": {
        "one-stream-closed-after-2s": {
            "steps": [disc(2, True), {"sleep": 3}, SHORT],
            "expect": "healthy: the stream's request aborted (no log line unless requests are logged), a later "
                      "request 200"},
        "plain-request-client-gone-after-1s": {
            "steps": [disc(1, False), {"sleep": 3}, SHORT],
            "expect": "healthy: with_cancellation cancels the handler and the request is aborted; a later 200"},
        "eight-streams-closed-together-after-3s": {
            "steps": [*[disc(3, True, bg=True) for _ in range(8)], {"sleep": 5}, SHORT],
            "expect": "healthy: eight aborts, a later 200"},
    },
    "E6 a request over the context (--max-model-len 4096)": {
        "prompt-4096-max-tokens-1": {
            "steps": [SHORT, comp(4096, 1), SHORT],
            "expect": "400 'This model's maximum context length is 4096 tokens. However, you requested 1 output "
                      "tokens and your prompt contains 4096 input tokens, for a total of 4097 tokens.'; server up"},
        "prompt-100000-ids": {
            "steps": [SHORT, comp(100000, 16), SHORT],
            "expect": "400 as prompt-4096 with 100000 input tokens (a ~0.6 MB JSON body); server up"},
        "prompt-4097-default-max-tokens": {
            "steps": [SHORT, {"post": "/v1/completions", "body": {"model": "MODEL", "prompt_len": 4097}}, SHORT],
            "expect": "400 with the default 16 output tokens ('for a total of 4113 tokens'); server up"},
    },
    "E7 a request with a huge max_tokens": {
        "max-tokens-2^31": {
            "steps": [SHORT, comp(50, 2**31), SHORT],
            "expect": "400 'max_tokens=2147483648 cannot be greater than max_model_len=max_total_tokens=4096. "
                      "Please request fewer output tokens.'; server up"},
        "max-tokens-10^20": {
            "steps": [SHORT, comp(50, 10**20), SHORT],
            "expect": "400 as max-tokens-2^31 (an int without bound in the request model), or a 400/500 from an "
                      "int64 field downstream (unknown); server up"},
        "max-tokens-4086-fills-context": {
            "steps": [comp(10, 4086, True, ignore_eos=True), {"sleep": 40}, SHORT],
            "expect": "healthy: a 4086-token generation filling the context, answered 200 (a few seconds on 2 "
                      "layers)"},
    },
}  # fmt: skip

EXPECTED_DRAWN = {  # written after --draw-only printed the draw, before anything ran (0.26's source as cited above)
    "e01": "healthy: the API server stopped 30 s mid-request (qwen2.5 cut), the EngineCore runs on; after SIGCONT the "
    "3000-token request and a short one answered 200; no error line (expected none)",
    "e02": "healthy: a 1 GiB co-tenant starts after ready (llama cut); the server answers 200; the co-tenant's line "
    "only in the driver's note (expected none)",
    "e03": "the EngineCore SIGKILLed 3 s into a burst of 16 requests (qwen2.5 cut): 'Engine core process ... died "
    "unexpectedly' / EngineDeadError, the 16 fail, the API server shuts down and exits by itself",
    "e04": "healthy: a 10-token prompt with max_tokens 4086 (exactly the 4096 context) generates to the end, 200; a "
    "short request 200 (expected none)",
    "e05": "healthy: a stream closed by its client after 2 s (qwen2.5 cut), aborted without a log line (requests "
    "not logged); a later request 200 (expected none)",
    "e06": "a 100000-token prompt: 400 'This model's maximum context length is 4096 tokens. However, you requested "
    "16 output tokens and your prompt contains 100000 input tokens, for a total of 100016 tokens.'; the server up, "
    "the short requests 200",
    "e07": "healthy under load (llama cut, --max-num-seqs 4, a 48 MiB = 6144-token KV budget, 12 x 1024+1024): "
    "requests waiting, KV usage ~100%, 'Preemptions: N' > 0 in the stats lines; some requests answered 200 before "
    "the case ends (expected none: load, not a failure)",
    "e08": "healthy: a plain request whose client goes after 1 s (llama cut): with_cancellation aborts it without a "
    "log line; a later request 200 (expected none)",
}  # fmt: skip


def draw_classes():
    r = random.Random(SEED)
    events = r.sample(sorted(EVENTS), 7) + [r.choice(sorted(EVENTS))]
    out, used = [], set()
    for e in events:
        cls = r.choice([c for c in sorted(EVENTS[e]) if (e, c) not in used])
        used.add((e, cls))
        out.append((e, cls, r.choice(sorted(MODELS))))
    return out


def fill(x, model, per_token):
    if isinstance(x, tuple) and x[0] == "KVTOK":
        return str(x[1] * per_token)
    if isinstance(x, dict):
        return {k: fill(v, model, per_token) for k, v in x.items()}
    if isinstance(x, list):
        return [fill(v, model, per_token) for v in x]
    return model if x == "MODEL" else x


def make_case(i, e, cls, mkey):
    fixture, edit, util, per_token = MODELS[mkey]
    k = EVENTS[e][cls]
    model = ".gpu/models/f327-" + mkey
    flags = fill(k.get("flags", []), model, per_token)
    base = list(BASE)
    for f in [f for f in flags if f.startswith("-")]:
        if f in base:
            j = base.index(f)
            del base[j : j + 2]
    mem = round(util + (k["hog"] / 80 + 0.004 if "hog" in k else 0), 3)
    args = [model, *base, "--gpu-memory-utilization", str(util), *flags]
    c = {"args": args, "env": {}, "timeout": TIMEOUT, "need": NEED, "mem": mem,
         "steps": fill(k["steps"], model, per_token), "setting": f"{e} x M {mkey}", "class": cls, "event": e,
         "model_key": mkey, "fixture": fixture, "config_edit": edit, "expect": k["expect"],
         "draw": f"draw {i}: {e}: {cls}; M: {mkey}"}  # fmt: skip
    if f"e{i:02d}" in EXPECTED_DRAWN:
        c["expect_drawn"] = EXPECTED_DRAWN[f"e{i:02d}"]
    return c


def draw():
    cases = {f"e{i:02d}": make_case(i, *d) for i, d in enumerate(draw_classes(), 1)}
    models = {
        c["args"][0].split("/")[-1]: {"fixture": c["fixture"], "edit": c["config_edit"]}
        for c in cases.values()
    }
    why = (
        "fresh-327 doctor-corpus cases (tools/gpu_fresh327_draw.py wrote this file; tools/gpu_serve_requests.py runs "
        "them on real vLLM 0.26.0 'vllm serve', one H100 or H200, all 8 side by side within 0.95). Drawn, not chosen: "
        "see the draw script's docstring. 'models': python3 tools/gpu_fresh327_draw.py --models .gpu/models."
    )
    return {"why": why, "seed": SEED, "universe": len(EVENTS) + 1, "order": list(cases), "models": models,
            "cases": cases}  # fmt: skip


def step_secs(c):
    """An upper bound of a case's steps: sleeps, wait_exit, a hog's 90 s wait (its real ~10-20 s), sync requests
    ~2 s each (plain requests of <= 16 tokens or 400s)."""
    t = 0.0
    for s in c["steps"]:
        t += s.get("sleep", 0) + s.get("wait_exit", 0) + (20 if "hog_after" in s else 0)
        t += s.get("after", 0) if "disconnect" in s and not s.get("bg") else 0
        t += 2 if ("post" in s or "get" in s) and not s.get("bg") else 0
    return t


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
    for k, c in out["cases"].items():
        print(k, c["draw"], "|", " ".join(c["args"][1:]), "| mem", c["mem"], "| steps <=", step_secs(c), "s")
    print("mem in all", round(sum(c["mem"] for c in out["cases"].values()), 3), "; max", max(
        c["mem"] for c in out["cases"].values()), "; models", list(out["models"]))  # fmt: skip
    print(
        "worst end (130 s start + 8 s stagger + steps + 2):",
        max(140 + step_secs(c) for c in out["cases"].values()),
    )
    print("order:", " ".join(out["order"]))
