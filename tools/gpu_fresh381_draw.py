"""Draw the fresh-381 GPU cases: THINGS THAT HAPPEN TO A RUNNING GPU SERVER, A NEW POOL. fresh-327's universe
(tools/gpu_fresh327_draw.py EVENTS: co-tenants after the start, SIGSTOP/SIGCONT, SIGKILL of the EngineCore,
preemption under a small KV budget, disconnecting clients, prompts over the context, huge max_tokens) is used up by
fresh-327, fresh-360 and fresh-380. This tool writes a NEW pool of events, every (event, value class) pair new (none is
a pair of fresh-327's EVENTS; checked by an assert below): what a user or the world does to a HEALTHY served model --
requests at the edges of the OpenAI API that the server validates, requests that need the tokenizer the server was
started without, endpoints a client probes, a requested shutdown, more concurrent requests than --max-num-seqs, a
second server on the same port. A HEALTHY small model served (fresh-327's MODELS, imported unchanged: a published
config.json cut to 2 layers; real vLLM 0.26.0 `vllm serve`, torch 2.11+cu130, one H100 80GB (or H200), SM90; dummy
weights, --skip-tokenizer-init, token-id prompts), then ONE DRAWN EVENT once the server logged "Application startup
complete". Sampled, not chosen.

Usage: python3 tools/gpu_fresh381_draw.py                  writes tools/gpu-fresh381-cases.json and prints the draw
       python3 tools/gpu_fresh381_draw.py --draw-only      prints the draw and the memory / time figures
       python3 tools/gpu_fresh381_draw.py --models DIR     writes DIR/<name>/config.json (config.json only, a few KB)
Run (the last device call, after the bundle's part calls; the cases file, gpu_serve_requests.py, gpu_serve_drive.py
and gpu_fresh151_go.sh copied into .gpu/run, the model folders into .gpu/models):
  bash .gpu/run/gpu_fresh151_go.sh 545 LASTPART gpu_serve_requests.py .gpu/run/gpu-fresh381-cases.json LEFT 8 0.95
       ORDER   (the twelve case names in the file's "order", printed by this tool)
(gpu_serve_requests.py CASES TOTAL_S PARALLEL MEM_CAP CASE...: cases start in the order given while the running cases'
"mem" plus the next one's stays within MEM_CAP, at most PARALLEL at once; a case not started by TOTAL_S - its "need" is
skipped.) The driver is used UNCHANGED: every class runs on its existing steps (post / get / sleep / signal to "api" /
wait_exit / start_twin with same_port); no new step is needed. Requests with explicit token ids pass "prompt" (a list)
in the body, which the driver sends as it is; "prompt_len" N becomes ids 1000..1000+N-1.

SOURCES. vLLM 0.26.0's own source, read from the kit's wheel /work/main/.gpu/build/vllm-0.26.0-cp38-abi3-manylinux_2_28_
x86_64.whl unzipped into /tmp/gpu381 (line numbers of that wheel's files):
  sampling_params.py SamplingParams._verify_args (n 510-519, presence_penalty 521, repetition_penalty 529-537,
    temperature 539-556, top_p 557, top_k 563-566, max_tokens 573-578, min_tokens 579-587, logprobs 588-593,
    prompt_logprobs 594-603, stop 611-617), _verify_greedy_sampling 625-627 (called at 493-497 when temperature < eps),
    from_optional 395-413 (logit_bias keys to int: "logit_bias contains key(s) that cannot be converted to integer
    token IDs"), verify -> _validate_logprobs 758-803 (logprob_token_ids out of vocab), _validate_logit_bias 817-836
    ("token_id(s) [...] in logit_bias contain out-of-vocab token ids. Vocabulary size: V"), _validate_structured_outputs
    906-930 ("Structured outputs requires a tokenizer so it can't be used with 'skip_tokenizer_init'"),
    update_from_tokenizer 659-697 (bad_words turned into ids ONLY here);
  v1/engine/input_processor.py 82-100 (_validate_params -> params.verify, in the API server process: a ValueError is a
    400), 326-328 (update_from_tokenizer only `if self.tokenizer is not None`: bad_words silently dropped without a
    tokenizer), 467-484 (the prompt-id vocabulary check runs only `if prompt_ids and tokenizer is not None`: with
    --skip-tokenizer-init a prompt id beyond the vocabulary reaches the GPU);
  model_executor/layers/vocab_parallel_embedding.py 472-486 (at TP 1 no mask: the ids go straight to the embedding);
  v1/engine/detokenizer.py 49-58 and output_processor.py 223-233 (no tokenizer: an IncrementalDetokenizer that never
    sees text, so stop STRINGS never match);
  entrypoints/openai/completion/protocol.py (CompletionRequest fields 45-130; build_tok_params 238-250; to_sampling_params
    288-376; check_logprobs 446-480: "`prompt_logprobs` are not available when `stream=True`." raised in a pydantic
    before-validator, so a RequestValidationError: 400 "1 validation error: ...");
  entrypoints/openai/completion/serving.py 136-139 (stream + beam search), 160-180 (get_max_tokens then
    to_sampling_params), entrypoints/serve/utils/api_utils.py get_max_tokens 170-206 (min of the values not None: a
    max_tokens of 0 or -1 passes through);
  renderers/online_renderer.py 236-238 ("suffix is not currently supported"), renderers/base.py 156-160 ("Tokenizer not
    available when `skip_tokenizer_init=True`") reached by a text prompt (551-562), by echo (needs_detokenization,
    564-569) and by the chat template; renderers/params.py 200-240 (TokenizeParams: a negative max_output_tokens passes);
  entrypoints/serve/tokenize/serving.py / api_router.py 36-92 (/tokenize: preprocess -> the 400 above; /detokenize:
    any exception re-raised as HTTPException 500 with the message as detail);
  entrypoints/openai/api_server.py 221-270 (the pooling routers, /v1/embeddings among them, are registered only for a
    pooling task: a generative model answers 404), 573-588 + 616-640 (setup_server binds the port BEFORE the engine is
    built, SO_REUSEADDR only: a second server on a listening port fails at once), entrypoints/serve/engine/serving.py 64
    ("The model `X` does not exist." 404); entrypoints/serve/utils/error_response.py 16-80 and server_utils.py 382-530
    (ValueError / TypeError / VLLMValidationError -> 400, RequestValidationError -> 400, NotImplementedError -> 501);
  entrypoints/launcher.py 95-160 (SIGINT and SIGTERM both set the shutdown event: "[shutdown] API server: shutdown
    triggered", "stopping engine client mode=abort|drain timeout=Ns", then the HTTP server is cancelled and
    "port N is used by process ... launched with command:" is logged if the port still shows a holder), v1/engine/
    core.py 1423-1466 ("[shutdown] EngineCore: start mode=...", "aborting in-flight requests count=N" or "draining
    in-flight requests count=N timeout=Ns"), engine/arg_utils.py 1604 (--shutdown-timeout, default 0 = abort).
  Model vocabularies (config.json fixtures): llama-3.1-8b-instruct 128256, qwen2.5-7b-instruct 152064.
Not read: doctor, its knowledge patterns, tests/test_doctor*, any batch's logs.

EARLIER GPU MAKERS (their universes only): fresh-327 (EVENTS E1-E7, all 21 pairs now drawn by fresh-327/360/380: none
reused here, assert below); fresh-288 (its own universe R01-R14; it DREW logprobs-minus1 (400 over max 20),
best-of-4, prompt-logprobs-21, SIGTERM to the EngineCore mid-request, SIGTERM twice to the API server, a 4080+32
prompt, SIGSTOP of the EngineCore 15 s ...: none of those classes is in this pool: the logprobs class here is -2 (a
different check: "must be non-negative or -1"), the signals here go to the API server once (idle, SIGINT mid-stream,
SIGTERM with --shutdown-timeout drain)); fresh-21 (SIGTERM to the API server mid-request with the default abort,
ctrl-C to the group: not here); fresh-348/349/360 headers (a TOTAL too short for a third wave lost cases: two waves).

BASE (fresh-327's, imported): `vllm serve .gpu/models/f381-<model key> --skip-tokenizer-init --load-format dummy
--max-model-len 4096 --kv-cache-memory-bytes 1073741824 --gpu-memory-utilization 0.08`; a class's flags are appended
(--max-num-seqs, --shutdown-timeout: none replaces a base flag). Requests: POST /v1/completions with token ids, "model"
the folder path. Folders f381-<model key> <- tests/fixtures/checkpoints/<fixture> with num_hidden_layers 2 (the same
configs as fresh-327's f327- folders, under this batch's names).
MEMORY BOUND BY CONSTRUCTION (fresh-327's): a fixed 1 GiB KV budget (profiling skipped, a neighbour cannot move it), so
real use ~5.6 GB < 0.08 x 79.2 GiB; the one twin class asks 0.16 (a twin that, against the source, bound the port and
loaded would hold another 0.08). Any 8 cases <= 0.16 + 7 x 0.08 = 0.72 < 0.95.
TIME (two waves, fresh-360's rule): "timeout" 160 (to be ready), "need" 200. ORDER, fixed before the draw: the cases
sorted by their steps' upper bound, longest first (ties in draw order): the 8 longest start together (wave 1), the 4
shortest start as the first of wave 1 end (wave 2). step_secs() bounds a case's steps (sleeps, wait_exit, a twin's
wait, 2 s a sync request); the tool prints the worst end with a 130 s cold start and with the 160 s timeout; both must
be <= 450 s (asserted).

THE POOL: 10 EVENT conditions (P01-P10) x their value classes, 33 (event, class) pairs; every class's steps, flags and
EXPECT (from the source cited in it) written before the draw and before anything ran; and the MODEL condition (M:
fresh-327's 2 classes). A "refused" class runs [short request, the event's request, short request] so the log shows the
server up before and after.
THE DRAW: r = random.Random(2381); pairs = r.sample(sorted(all 33 pairs), 12); then per pair in that order: model =
r.choice(sorted(MODELS)). Cases e01..e12 in draw order. Nothing is redrawn.
THE DRAW GAVE: DRAW_GAVE below (filled after --draw-only printed the draw once, before the cases file was written and
before anything ran; nothing but DRAW_GAVE, EXPECTED_DRAWN and this paragraph changed after it). EXPECTED for the drawn
twelve: EXPECTED_DRAWN below (also each case's "expect_drawn"), written before anything ran.
"""

import json
import os
import random
import sys

from gpu_draw_models import write_models  # the script's folder is on sys.path when run
from gpu_fresh327_draw import BASE, EVENTS, MODELS

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_JSON = os.path.join(HERE, "gpu-fresh381-cases.json")
FIXTURES = os.path.join(HERE, "..", "tests", "fixtures", "checkpoints")
SEED = 2381
N = 12
TIMEOUT, NEED = 160, 200
PARALLEL, CAP = 8, 0.95
FOLDER = ".gpu/models/f381-"
VOCAB = {"llama-3.1-8b-instruct-2l": 128256, "qwen2.5-7b-instruct-2l": 152064}  # config.json vocab_size
TWIN_MEM = 0.16


def comp(prompt_len=50, max_tokens=16, bg=False, **kw):
    s = {"post": "/v1/completions", "body": {"model": "MODEL", "prompt_len": prompt_len, "max_tokens": max_tokens,
                                             **kw}}  # fmt: skip
    if bg:
        s["bg"] = True
    return s


def ids(prompt, max_tokens=16):
    """A completion whose prompt is the given token-id list, sent as it is."""
    return {"post": "/v1/completions", "body": {"model": "MODEL", "prompt": prompt, "max_tokens": max_tokens}}


SHORT = comp()


def refused(step):
    return [SHORT, step, SHORT]


def post(path, body):
    return {"post": path, "body": {"model": "MODEL", **body}}


def sig(name):
    return {"signal": name, "to": "api"}


def burst(n, prompt_len, max_tokens, **kw):
    return [comp(prompt_len, max_tokens, True, ignore_eos=True, **kw) for _ in range(n)]


TOK = "400 'Tokenizer not available when `skip_tokenizer_init=True`' (renderers/base.py 159)"
UP = "; the short requests before and after 200; the server up"

# POOL: condition -> class -> {"steps", "flags"?, "mem"?, "expect" ({vocab} = the drawn model's vocabulary size)}
POOL = {
    "P01 a sampling parameter outside its range (SamplingParams._verify_args)": {
        "temperature-3": {"steps": refused(comp(temperature=3.0)),
                          "expect": "400 'temperature must be in [0, 2], got 3.0.' (sampling_params.py 551)" + UP},
        "top-p-0": {"steps": refused(comp(top_p=0.0)),
                    "expect": "400 'top_p must be in (0, 1], got 0.0.' (sampling_params.py 557)" + UP},
        "top-k-minus-5": {"steps": refused(comp(top_k=-5)),
                          "expect": "400 'top_k must be 0 (disable), or at least 1, got -5.' (564)" + UP},
        "repetition-penalty-0": {"steps": refused(comp(repetition_penalty=0.0)),
                                 "expect": "400 'repetition_penalty must be greater than zero, got 0.0.' (534)" + UP},
        "n-2-temperature-0": {"steps": refused(comp(n=2, temperature=0.0)),
                              "expect": "400 'n must be 1 when using greedy sampling, got 2.' (627)" + UP},
        "min-tokens-32-max-tokens-16": {"steps": refused(comp(min_tokens=32)),
                                        "expect": "400 'min_tokens must be less than or equal to max_tokens=16, got "
                                                  "32.' (584)" + UP},
    },
    "P02 max_tokens at zero or below": {
        "max-tokens-0": {"steps": refused(comp(max_tokens=0)),
                         "expect": "400 'max_tokens must be at least 1, got 0.' (sampling_params.py 574; "
                                   "get_max_tokens passes the 0 through)" + UP},
        "max-tokens-minus-1": {"steps": refused(comp(max_tokens=-1)),
                               "expect": "400 'max_tokens must be at least 1, got -1.' (574; TokenizeParams lets a "
                                         "negative max_output_tokens pass)" + UP},
    },
    "P03 logprobs fields the server refuses": {
        "logprobs-minus-2": {"steps": refused(comp(logprobs=-2)),
                             "expect": "400 'logprobs must be non-negative or -1, got -2.' (589)" + UP},
        "prompt-logprobs-with-stream": {"steps": refused(comp(prompt_logprobs=1, stream=True)),
                                        "expect": "400 '1 validation error: ... `prompt_logprobs` are not available "
                                                  "when `stream=True`.' (protocol.py 472-476, a RequestValidationError)"
                                                  + UP},
        "logprob-token-ids-beyond-vocab": {"steps": refused(comp(logprobs=1, logprob_token_ids=[200000])),
                                           "expect": "400 'token_id(s) [200000] in logprob_token_ids contain "
                                                     "out-of-vocab token ids. Vocabulary size: {vocab}' (789)" + UP},
    },
    "P04 token ids outside the vocabulary": {
        "logit-bias-id-200000": {"steps": refused(comp(logit_bias={"200000": 5.0})),
                                 "expect": "400 'token_id(s) [200000] in logit_bias contain out-of-vocab token ids. "
                                           "Vocabulary size: {vocab}' (_validate_logit_bias)" + UP},
        "logit-bias-key-not-an-int": {"steps": refused(comp(logit_bias={"hello": 1.0})),
                                      "expect": "400 \"logit_bias contains key(s) that cannot be converted to "
                                                "integer token IDs: ['hello']\" (sampling_params.py 407)" + UP},
        "prompt-id-200000": {"steps": [SHORT, ids(list(range(1000, 1049)) + [200000]), {"sleep": 5}, SHORT],
                             "expect": "UNKNOWN from the source: without a tokenizer the vocabulary check is skipped "
                                       "(input_processor.py 467) and at TP 1 the id goes unmasked to the embedding: "
                                       "either 200 (the row read from memory past the embedding table: garbage, no "
                                       "error) or a CUDA error in the EngineCore (device-side assert 'index out of "
                                       "bounds' or an illegal memory access) -> EngineDeadError, the short request "
                                       "after fails and the server exits"},
        "prompt-id-2^31-1": {"steps": [SHORT, ids(list(range(1000, 1049)) + [2**31 - 1]), {"sleep": 5}, SHORT,
                                       {"wait_exit": 30}],
                             "expect": "the id 2147483647 reaches the embedding unchecked (input_processor.py 467, "
                                       "TP 1 unmasked): an index ~2^31 rows past the table: a CUDA error in the "
                                       "EngineCore (illegal memory access, or a device-side assert 'index out of "
                                       "bounds' from the compiled gather) -> EngineCore dies, the API server logs "
                                       "EngineDeadError / 'engine core exited unexpectedly', the request 500 or cut, "
                                       "the server exits by itself; a 200 would mean the id was clamped somewhere"},
    },
    "P05 a request that needs the tokenizer the server was started without (--skip-tokenizer-init)": {
        "text-prompt": {"steps": refused(post("/v1/completions", {"prompt": "Hello, my name is", "max_tokens": 16})),
                        "expect": TOK + " (a text prompt must be tokenized, base.py 551-562)" + UP},
        "echo-true": {"steps": refused(comp(echo=True)),
                      "expect": TOK + " (echo sets needs_detokenization: the prompt ids are decoded, base.py 564-569)"
                                + UP},
        "chat-completion": {"steps": refused(post("/v1/chat/completions", {"messages": [{"role": "user", "content":
                                                                                          "Hello"}],
                                                                           "max_tokens": 16})),
                            "expect": TOK + " (the chat template is applied by the tokenizer), or another 400 about "
                                            "the missing chat template" + UP},
        "response-format-json-object": {"steps": refused(comp(response_format={"type": "json_object"})),
                                        "expect": "400 \"Structured outputs requires a tokenizer so it can't be used "
                                                  "with 'skip_tokenizer_init'\" (sampling_params.py 927-929)" + UP},
        "tokenize-text": {"steps": refused(post("/tokenize", {"prompt": "Hello world"})),
                          "expect": TOK + " from /tokenize (preprocess_completion)" + UP},
        "detokenize-ids": {"steps": refused(post("/detokenize", {"tokens": [1000, 1001, 1002]})),
                           "expect": "500 {'detail': 'Tokenizer not available when `skip_tokenizer_init=True`'} "
                                     "(tokenize/api_router.py 79-82 re-raises any exception as HTTPException 500)"
                                     + UP},
    },
    "P06 a request field the tokenizer-less server silently drops": {
        "stop-strings": {"steps": [comp(50, 64, stop=["\n", ".", " the"]), SHORT],
                         "expect": "healthy: 200 with finish_reason 'length' after all 64 tokens: without a "
                                   "tokenizer the detokenizer sees no text (detokenizer.py 56-58), so stop strings "
                                   "never match; no log line (expected none)"},
        "bad-words": {"steps": [comp(50, 32, bad_words=["hello", "world"]), SHORT],
                      "expect": "healthy: 200; bad_words are turned into ids only by update_from_tokenizer, which is "
                                "skipped without a tokenizer (input_processor.py 327): silently no effect; no log line "
                                "(expected none)"},
    },
    "P07 endpoints a client probes": {
        "embeddings-on-generative": {"steps": refused(post("/v1/embeddings", {"input": [1000, 1001, 1002]})),
                                     "expect": "404 {'detail': 'Not Found'}: the pooling routers are registered only "
                                               "for a pooling task (api_server.py 267-270)" + UP},
        "wrong-model-name": {"steps": [SHORT, {"post": "/v1/completions", "body": {"model": "gpt-4o", "prompt_len":
                                                                                      50, "max_tokens": 16}}, SHORT],
                             "expect": "404 'The model `gpt-4o` does not exist.' (serve/engine/serving.py 64)" + UP},
        "models-metrics-health-version": {"steps": [{"get": "/v1/models"}, {"get": "/metrics"}, {"get": "/health"},
                                                    {"get": "/version"}, SHORT],
                                          "expect": "healthy: all 200 (/v1/models lists the folder path as the id, "
                                                    "max_model_len 4096; /metrics Prometheus text; /version "
                                                    "0.26.0); access lines only (expected none)"},
        "suffix": {"steps": refused(comp(suffix="}")),
                   "expect": "400 'suffix is not currently supported' (online_renderer.py 237-238)" + UP},
    },
    "P08 a signal to the API server (a requested shutdown)": {
        "SIGTERM-idle": {"steps": [SHORT, sig("SIGTERM"), {"wait_exit": 40}],
                         "expect": "a requested shutdown (docker stop), nothing wrong: '[shutdown] API server: "
                                   "shutdown triggered', 'stopping engine client mode=abort timeout=0s', EngineCore "
                                   "'[shutdown] EngineCore: start mode=abort timeout=0s', 'engine client stopped', "
                                   "'signalling HTTP server shutdown', possibly 'port N is used by process ...' "
                                   "(launcher.py 140-147), the server exits by itself rc 0 (expected none)"},
        "SIGINT-mid-stream": {"steps": [comp(100, 3000, True, ignore_eos=True, stream=True), {"sleep": 3},
                                        sig("SIGINT"), {"wait_exit": 40}],
                              "expect": "a requested shutdown (ctrl-C to the API server alone) mid-stream: the same "
                                        "shutdown lines as SIGTERM (launcher.py 106), '[shutdown] EngineCore: aborting "
                                        "in-flight requests count=1', the stream ends early, the server exits by "
                                        "itself (expected none: nothing broke)"},
        "SIGTERM-drain-shutdown-timeout-30": {
            "flags": ["--shutdown-timeout", "30"],
            "steps": [comp(100, 3000, True, ignore_eos=True), {"sleep": 3}, sig("SIGTERM"), {"wait_exit": 45}],
            "expect": "a requested shutdown in drain mode: 'stopping engine client mode=drain timeout=30s', "
                      "'[shutdown] EngineCore: draining in-flight requests count=1 timeout=30s', the 3000-token request "
                      "finishes 200 (seconds on 2 layers), 'request processing complete; starting resource teardown', "
                      "the server exits by itself (expected none)"},
    },
    "P09 more concurrent requests than --max-num-seqs (the KV cache ample)": {
        "seqs-2-burst-24x(50+200)": {"flags": ["--max-num-seqs", "2"],
                                     "steps": [*burst(24, 50, 200), {"sleep": 25}, SHORT],
                                     "expect": "healthy under load: 2 running, the rest waiting ('Waiting: N reqs' in "
                                               "the stats lines), all 24 answered 200 within the 25 s; no "
                                               "preemption (1 GiB of KV) (expected none)"},
        "seqs-1-burst-8-streams-(100+1000)": {"flags": ["--max-num-seqs", "1"],
                                              "steps": [*burst(8, 100, 1000, stream=True), {"sleep": 40}, SHORT],
                                              "expect": "healthy under load: one stream at a time, 7 waiting; all 8 "
                                                        "answered 200 (a few s each on 2 layers) (expected none)"},
    },
    "P10 a second vllm serve on the same port (twin)": {
        "twin-same-port": {"mem": TWIN_MEM,
                           "steps": [{"start_twin": ["TWINARGS"], "same_port": True, "wait": 60}, SHORT],
                           "expect": "the case's own server serves on (its log healthy, the request 200); the TWIN's "
                                     "log (CASE.twin.log) ends at once in setup_server's bind: 'OSError: [Errno 98] "
                                     "Address already in use' (api_server.py 586: SO_REUSEADDR does not allow a second "
                                     "listener), before any engine or GPU memory"},
    },
}  # fmt: skip

DRAW_GAVE = (  # filled after --draw-only printed the draw once (the tool committed before it, 4cdba0aa)
    "e01 P04 prompt-id-200000 (llama), e02 P02 max-tokens-minus-1 (llama), e03 P07 wrong-model-name (llama), e04 P04 "
    "logit-bias-id-200000 (qwen2.5), e05 P04 prompt-id-2^31-1 (llama), e06 P01 min-tokens-32-max-tokens-16 (qwen2.5), "
    "e07 P05 detokenize-ids (llama), e08 P06 bad-words (qwen2.5), e09 P01 repetition-penalty-0 (llama), e10 P03 "
    "prompt-logprobs-with-stream (llama), e11 P08 SIGINT-mid-stream (qwen2.5), e12 P01 temperature-3 (qwen2.5). No twin "
    "drawn: mem 0.08 each, any 8 <= 0.64. order e11 e05 e01 e02 e03 e04 e06 e07 | e09 e10 e12 e08: worst end 281 s at "
    "130 s cold starts, 341 s at the 160 s timeout (<= 450). So 12 servers expected up: eight refused requests (e02, "
    "e03, e04, e06, e07 (a 500), e09, e10, e12) on healthy servers, one healthy server silently ignoring a field (e08), "
    "one requested shutdown (e11), one prompt id just past the vocabulary (e01: garbage 200 or a CUDA error, unknown "
    "from the source) and one far past it (e05: a CUDA error expected, the engine dead)."
)
EXPECTED_DRAWN = {  # written after --draw-only printed the draw, before anything ran (0.26's source as cited above)
    "e01": "UNKNOWN between two outcomes (llama cut, vocab 128256): a 50-id prompt ending in 200000 passes the API "
    "(no tokenizer: input_processor.py 469 skips the vocabulary check) and reaches the unmasked TP-1 embedding 71,744 "
    "rows (~588 MB) past its table: most likely 200 with garbage tokens and no error line (the read lands in other "
    "allocated memory; expected none), else a CUDA error in the EngineCore ('an illegal memory access was encountered' "
    "or a device-side assert 'index out of bounds') -> 'EngineCore encountered a fatal error', EngineDeadError, the "
    "request 500, the later short request 500 / refused, the server exits (the cause then: a prompt token id beyond "
    "the vocabulary on a --skip-tokenizer-init server)",
    "e02": "a refused request (llama cut): 400 'max_tokens must be at least 1, got -1.' (BadRequestError, param "
    "max_tokens; in the client line; the log has only the access line '400 Bad Request'); short requests 200; up",
    "e03": "a refused request (llama cut): 404 'The model `gpt-4o` does not exist.' (NotFoundError; access line "
    "'404 Not Found'); short requests 200; up",
    "e04": "a refused request (qwen2.5 cut): 400 'token_id(s) [200000] in logit_bias contain out-of-vocab token ids. "
    "Vocabulary size: 152064' (param logit_bias); short requests 200; up",
    "e05": "a dead engine (llama cut): the prompt id 2147483647 passes the API unchecked (input_processor.py 469, no "
    "tokenizer) and indexes the TP-1 embedding ~17.6 TB past its table: a CUDA error in the EngineCore ('CUDA error: "
    "an illegal memory access was encountered', or 'device-side assert triggered' if the compiled gather asserts its "
    "bounds), 'EngineCore encountered a fatal error' with the traceback, the API server's EngineDeadError / 'engine "
    "core exited unexpectedly', the request 500 ('EngineCore encountered an issue...') or cut, the short request after "
    "500 or refused, the server exits by itself within the 30 s. The cause: a prompt token id far beyond the "
    "vocabulary sent to a --skip-tokenizer-init server (no id check without a tokenizer)",
    "e06": "a refused request (qwen2.5 cut): 400 'min_tokens must be less than or equal to max_tokens=16, got 32.' "
    "(a plain ValueError: BadRequestError, no param); short requests 200; up",
    "e07": "a refused request (llama cut): /detokenize answers 500 {'error': {'message': 'Tokenizer not available when "
    "`skip_tokenizer_init=True`', 'type': 'Internal Server Error', 'code': 500}} (tokenize/api_router.py 79-82: any "
    "exception re-raised as HTTPException 500); access line '500 Internal Server Error', no traceback (log_error_stack "
    "off); short requests 200; up",
    "e08": "healthy (qwen2.5 cut): bad_words ['hello', 'world'] silently ignored (turned into ids only with a "
    "tokenizer): 200 with 32 tokens; short request 200; no warning line (expected none)",
    "e09": "a refused request (llama cut): 400 'repetition_penalty must be greater than zero, got 0.0.' (ValueError); "
    "short requests 200; up",
    "e10": "a refused request (llama cut): 400 from the request model's before-validator: '1 validation error: ... "
    "Value error, `prompt_logprobs` are not available when `stream=True`.' (RequestValidationError, param "
    "prompt_logprobs); short requests 200; up",
    "e11": "a requested shutdown mid-stream (qwen2.5 cut): SIGINT to the API server 3 s into a 3000-token stream: "
    "'[shutdown] API server: shutdown triggered', 'stopping engine client mode=abort timeout=0s', '[shutdown] "
    "EngineCore: start mode=abort timeout=0s', 'aborting in-flight requests count=1', 'request processing complete; "
    "starting resource teardown', 'engine client stopped', 'signalling HTTP server shutdown', possibly 'port N is used "
    "by process ...' and uvicorn's shutdown lines; the stream ends early (client line 200 with a cut body); the server "
    "exits by itself rc 0 within the 40 s (expected none: asked for, nothing broke)",
    "e12": "a refused request (qwen2.5 cut): 400 'temperature must be in [0, 2], got 3.0.' (param temperature); short "
    "requests 200; up",
}  # fmt: skip


def all_pairs():
    pairs = [(e, c) for e in sorted(POOL) for c in sorted(POOL[e])]
    old = {(e, c) for e in EVENTS for c in EVENTS[e]}
    assert not old & set(pairs) and not {c for _, c in old} & {c for _, c in pairs}, "a fresh-327 pair reused"
    assert len(pairs) >= 16, len(pairs)
    return pairs


def draw_classes():
    r = random.Random(SEED)
    pairs = r.sample(all_pairs(), N)
    return [(e, cls, r.choice(sorted(MODELS))) for e, cls in pairs]


def fill(x, model, args):
    if isinstance(x, dict):
        return {k: fill(v, model, args) for k, v in x.items()}
    if isinstance(x, list):
        return args if x == ["TWINARGS"] else [fill(v, model, args) for v in x]
    return model if x == "MODEL" else x


def step_secs(steps):
    """An upper bound of a case's steps: sleeps, wait_exit, a twin's wait, sync requests ~2 s each (<= 16 tokens, a
    400 / 404, or the 64-token stop-strings request)."""
    t = 0.0
    for s in steps:
        t += s.get("sleep", 0) + s.get("wait_exit", 0) + (s.get("wait", 150) if "start_twin" in s else 0)
        t += 2 if ("post" in s or "get" in s) and not s.get("bg") else 0
    return t


def make_case(i, e, cls, mkey):
    fixture, edit, util, _ = MODELS[mkey]
    k = POOL[e][cls]
    model = FOLDER + mkey
    args = [model, *BASE, "--gpu-memory-utilization", str(util), *k.get("flags", [])]
    steps = fill(k["steps"], model, args)
    c = {"args": args, "env": {}, "timeout": TIMEOUT, "need": NEED, "mem": k.get("mem", util), "steps": steps,
         "setting": f"{e} x M {mkey}", "class": cls, "event": e, "model_key": mkey, "fixture": fixture,
         "config_edit": edit, "expect": k["expect"].replace("{vocab}", str(VOCAB[mkey])),
         "steps_bound_s": step_secs(steps), "draw": f"draw {i}: {e}: {cls}; M: {mkey}"}  # fmt: skip
    if f"e{i:02d}" in EXPECTED_DRAWN:
        c["expect_drawn"] = EXPECTED_DRAWN[f"e{i:02d}"]
    return c


def schedule(cases, cold):
    """fresh-360's: the driver's start order and each case's worst end (s from the driver's start) if every cold start
    takes COLD s: the order's first PARALLEL start 1 s apart; each later one when the earliest running one ends (memory
    never binds: any 8 <= 0.72)."""
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
        "fresh-381 doctor-corpus cases (tools/gpu_fresh381_draw.py wrote this file; tools/gpu_serve_requests.py runs "
        "them on real vLLM 0.26.0 'vllm serve', one H100 or H200, at most 8 side by side within 0.95, in 'order': "
        "two waves). Drawn, not chosen: see the draw script's docstring. 'models': python3 tools/gpu_fresh381_draw.py "
        "--models .gpu/models."
    )
    return {"why": why, "seed": SEED, "universe": len(all_pairs()), "order": order, "models": models,
            "cases": cases}  # fmt: skip


def report(out):
    cases = out["cases"]
    for k, c in cases.items():
        print(k, c["draw"], "|", " ".join(c["args"][c["args"].index("--gpu-memory-utilization") + 2 :]), "| mem",
              c["mem"], "| steps <=", c["steps_bound_s"], "s")  # fmt: skip
    mems = sorted((c["mem"] for c in cases.values()), reverse=True)
    print(
        "pool pairs:", len(all_pairs()), "; mem: max", mems[0], "; any 8 <=", round(sum(mems[:PARALLEL]), 3)
    )
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
