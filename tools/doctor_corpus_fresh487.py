"""fresh-487: an unseen made-here batch, llama-server (the real b11434, .llama-cpp/bin/llama-server): OLD GROUND, NEW
DRAW, round 20 -- fresh-475's procedure (the representative re-draw over the condition spaces earlier llama-server
makers defined, which fresh-300, 310, 317, 323, 332, 334, 346, 356, 362, 368, 373, 387, 403, 406, 421, 436, 453, 463
and 475 made) repeated with SEED 2487, N = 10, ports 26770-26779, work folder /tmp/fresh487, and fresh-475's own kept
triples joining the already-made set. No new condition or class: every (tool, condition, value class) comes from an
earlier maker's own CONDITIONS dict; only the concrete value inside the drawn class is this tool's.

IMPORTED, NOT COPIED (batch.md step 2, stop 53): tools/doctor_corpus_fresh475.py is loaded by path
(corpus_tools.load) and used unchanged: its load-once loader (which it installs as corpus_tools.load), its Case, post,
CHAT, F240_CHAT, make(), and through it fresh-300's pool() / made() and the earlier makers' draws(). What could not be
reused without copying, and is wrapped here instead (fresh-475's file is NOT edited):
  - fresh-475's draws() bakes its SEED, N and its already-made batches into the function: draws() here is the same
    loop, parametrised (seed, n, the already-made batches), over the same modules fresh-475 loaded (F475.F300 ..
    F475.F463) plus fresh-475's own draws() (computed with fresh-475's own seed 2475, its module left as it is).
  - make() reads fresh-475's module globals WORK, RUN, PORT, URL_PORT, DEAD and LREPO: they are pointed at this batch
    (/tmp/fresh487, /tmp/fresh487/run, 26770, 26771, 26779, fresh487/micro-llama-GGUF) before any case is made. (Its
    cgroup child prefix 'fresh475-' is left: no drawn case makes a cgroup.)
  - fresh-475's KEY / RUN_ORDER / main() are its own draws': KEY, RUN_ORDER and main() here are this batch's.
The drawn tools' constants are taken from their own modules (loaded through fresh-475's loader), not copied:
fresh-250's SHARED, fresh-259's UNCLOSED_TMPL, fresh-261's USER and WEATHER, fresh-276's CHATML.

READ: common.md, batch.md, the brief; fresh-475's manifest batch header (up to the lead's measurement block) and its
first [[case]]; tools/doctor_corpus_fresh475.py (whole) and its draw file; tools/corpus_tools.py's load(); of the
drawn tools (fresh-235 211 213 250 259 222 261 276 217) the CONDITIONS / CASES entry of the drawn class and the
constants / helpers it names (fresh-213's gguf_file and meta list, fresh-222's okv-* flags, fresh-250's SHARED and
cmpl(), fresh-259's chat() and UNCLOSED_TMPL and its Case defaults, fresh-261's USER / WEATHER / chat(), fresh-276's
CHATML and its shell= lines, fresh-211's ssl entry, fresh-217's quoted-path entry), never their logs; llama.cpp
b11434's source (fresh-475's unpacked sdist under /tmp/fresh475/src, read only): common/arg.cpp (read_file,
--chat-template-file, --override-kv, --ssl-*, the 'error while handling argument' path), common/common.cpp
(string_parse_kv_override), tools/server/server-http.cpp (init_listener without SSL), tools/server/server-context.cpp
(the embeddings handler's empty input, cache_reuse, the chat template init failure), common/chat.cpp
(common_chat_templates_init: the tool_use template as the default), src/llama-model-loader.cpp (override type
validation, get_kv's wrong type), src/llama-model.cpp ('invalid n_rot'); the family list (ids.py) and the whole causes
of the ids predicted.

PROCEDURE (fixed and committed, with `--draws` output, before any case ran): r = random.Random(2487); until 10 triples
are kept: tool = r.choice(sorted pool) (uniform over fresh-300's 36), condition = r.choice(list(its llama-server
conditions)), value class = r.choice(that condition's classes). A triple is drawn anew (the next draw of the same
stream) when it repeats a kept triple, when its (condition, value class) is one that tool's own batch already made
(fresh-300's made()), or when fresh-300, 310, 317, 323, 332, 334, 346, 356, 362, 368, 373, 387, 403, 406, 421, 436,
453, 463 or 475 kept it. `--draws` prints the kept triples, the concrete value and what is expected (written BEFORE any
case ran), and every triple drawn anew with the reason (tools/doctor_corpus_fresh487_draw.txt), run TWICE with
PYTHONHASHSEED=0 and compared byte for byte. Nothing is redrawn after a run; a case that could not be made is said so
in the manifest header, not replaced.

PREDICTIONS: each draw's `expected` in KEY (printed by --draws).

RUN ORDER (fixed before any case ran, RUN_ORDER): the expected failures first, the expected healthy ones last.

Base command (fresh-475's make(), unchanged): llama-server -m /tmp/fresh487/tiny-f32.gguf (corpus_tools.tiny_gguf)
--host 127.0.0.1 --port 26770 -c 512 plus the case's one condition, in the case's folder D under /tmp/fresh487/run,
HF_HOME its own hf/. Ports 26770-26779 (26770 the server; 26771 and 26779 reserved, unused).
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh487.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import contextlib
import io
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus_tools  # noqa: E402
from corpus_tools import tiny_gguf  # noqa: E402

with contextlib.redirect_stdout(io.StringIO()):
    F475 = corpus_tools.load("fresh475_maker", "doctor_corpus_fresh475.py")
    # from here corpus_tools.load is fresh-475's load-once loader
    F250 = F475.load("fresh250_maker", "doctor_corpus_fresh250.py")
    F259 = F475.load("fresh259_maker", "doctor_corpus_fresh259.py")
    F261 = F475.load("fresh261_maker", "doctor_corpus_fresh261.py")
    F276 = F475.load("fresh276_maker", "doctor_corpus_fresh276.py")

Case, post, CHAT, F240_CHAT = F475.Case, F475.post, F475.CHAT, F475.F240_CHAT

WORK = Path("/tmp/fresh487")
RUN = WORK / "run"
OUT = F475.OUT
PORT = 26770
URL_PORT = 26771  # reserved (fresh-475's -mu file server port), unused
DEAD = 26779  # reserved (a port nothing listens on), unused
SEED = 2487
N = 10
# the batches whose kept triples are "already made": fresh-475's list, then fresh-475 itself
PREV = (300, 310, 317, 323, 332, 334, 346, 356, 362, 368, 373, 387, 403, 406, 421, 436, 453, 463)


def point_make_here() -> None:
    """fresh-475's make() reads its module globals: point them at this batch (its file is left as it is)."""
    F475.WORK, F475.RUN, F475.PORT, F475.URL_PORT, F475.DEAD = WORK, RUN, PORT, URL_PORT, DEAD
    F475.LREPO = "fresh487/micro-llama-GGUF"


def already_made() -> dict[int, list]:
    """Each earlier round's kept triples: the modules fresh-475 loaded, and fresh-475's own draw (seed 2475)."""
    prev = {b: getattr(F475, f"F{b}").draws()[0] for b in PREV}
    prev[475] = F475.draws()[0]
    return prev


def draws(seed: int = SEED, n: int = N):
    """(kept triples, drawn-anew (triple, reason)): fresh-475's draws() loop with the seed, N and already-made set
    as parameters."""
    p = F475.F300.pool()
    tools = sorted(p)
    prev = already_made()
    r = random.Random(seed)
    kept: list[tuple[int, str, str]] = []
    redrawn: list[tuple[tuple[int, str, str], str]] = []
    cache: dict[int, set] = {}
    while len(kept) < n:
        t = r.choice(tools)
        cond = r.choice(list(p[t]))
        cls = r.choice(p[t][cond])
        triple = (t, cond, cls)
        if triple in kept:
            redrawn.append((triple, "triple drawn before"))
            continue
        if t not in cache:
            cache[t] = F475.F300.made(t)
        if (cond, cls) in cache[t]:
            redrawn.append((triple, f"made by fresh-{t}"))
            continue
        by = [b for b, k in prev.items() if triple in k]
        if by:
            redrawn.append((triple, f"kept by fresh-{by[0]}"))
            continue
        kept.append(triple)
    return kept, redrawn


# ---- the cases: one per kept draw -----------------------------------------------------------------------------------

C235 = "embeddings routes, server started with --embedding"
C211 = "--ssl-key-file / --ssl-cert-file"
C213 = "GGUF llama.attention.head_count"
C250 = "--cache-prompt / --no-cache-prompt"
C259K = "--override-kv TYPE:VALUE against llama.context_length of another GGUF type"
C222 = "--override-kv value not parsed"
C261 = "tools with a template lacking tool support (--jinja)"
C276 = "a deleted working directory with a relative path option"
C217 = "-m a path no shell expanded or split"
C259T = "tokenizer.chat_template.tool_use written, with --jinja / --no-jinja / --chat-template"
SAY_HI = {
    "messages": [{"role": "user", "content": "Say hi"}],
    "max_tokens": 8,
}  # fresh-213's / fresh-222's request

KEY = {
    (235, C235, "POST /v1/embeddings input an empty list"): Case(
        "fresh487-llama-embeddings-empty-input-list",
        ["--embedding"],
        [post("/v1/embeddings", {"input": []})],
        concrete="the base command with --embedding; POST /v1/embeddings {input: []} (fresh-235's entry)",
        expected="the embeddings handler takes the empty array as a list of prompts (it holds no number), "
        "tokenizes none, and refuses: 400 '\"input\" must not be empty' (invalid_request_error); the server stays "
        "up: request-prompt-empty",
    ),
    (211, C211, "both given, to this build without SSL"): Case(
        "fresh487-llama-ssl-files-build-without-ssl",
        ["--ssl-key-file", "{d}/server.key", "--ssl-cert-file", "{d}/server.crt"],
        [post(CHAT, F240_CHAT)],
        texts={"server.key": "-----BEGIN PRIVATE KEY-----\n", "server.crt": "-----BEGIN CERTIFICATE-----\n"},
        concrete="D/server.key and D/server.crt (one PEM header line each, fresh-211's files); the base command with "
        "--ssl-key-file D/server.key --ssl-cert-file D/server.crt (fresh-211's entry)",
        expected="this CPU build has no CPPHTTPLIB_OPENSSL_SUPPORT: init_listener logs 'the server is built without "
        "SSL support', then 'failed to initialize HTTP server', exit 1 before the model loads (no request "
        "answered): llamacpp-feature-not-in-build",
    ),
    (213, C213, 'head-count-8 ;; {"meta": {"head_count": 8}}'): Case(
        "fresh487-llama-gguf-head-count-8",
        [],
        [post(CHAT, SAY_HI)],
        gguf={"llama.attention.head_count": ("UINT32", 8)},
        concrete="-m a copy of the tiny GGUF with llama.attention.head_count 8 (it has 4 heads of 64 over a 256 "
        "embedding, rope.dimension_count 64, head_count_kv 2: fresh-213's meta edit as fresh-475 made it, "
        "gguf_new_metadata); the base command; a chat 'Say hi' (fresh-213's request)",
        expected="load_hparams computes the head size 256 / 8 = 32 and refuses the llama rope dimension 64: 'error "
        "loading model hyperparameters: invalid n_rot: 64, expected 32' (likely twice: the fit probe, then the "
        "load), 'failed to load model', exit 1: llamacpp-tensor-mismatch (a judgement call: metadata edited by hand "
        "that no longer matches the tensors; llamacpp-gguf-metadata-missing was the alternative)",
    ),
    (250, C250, "--no-cache-prompt --cache-reuse 16, two requests sharing a prefix"): Case(
        "fresh487-llama-no-cache-prompt-cache-reuse",
        ["--no-cache-prompt", "--cache-reuse", "16"],
        [
            post("/completion", {"prompt": F250.SHARED + "Q: one?", "n_predict": 16}),
            post("/completion", {"prompt": F250.SHARED + "Q: two?", "n_predict": 16}),
        ],
        concrete="the base command with --no-cache-prompt --cache-reuse 16; two POST /completion (n_predict 16) "
        "whose prompts share fresh-250's SHARED prefix, 'Q: one?' then 'Q: two?' (fresh-250's entry)",
        expected="the tiny Llama's cache can shift, so cache_reuse stays on; with prompt caching off each request "
        "is processed whole; both answer 200 and nothing is refused: none",
    ),
    (259, C259K, "context_length FLOAT32 2048.0, --override-kv llama.context_length=float:2048"): Case(
        "fresh487-llama-ctxlen-float-override-float",
        ["--override-kv", "llama.context_length=float:2048"],
        [post(CHAT, F240_CHAT)],
        gguf={"llama.context_length": ("FLOAT32", 2048.0)},
        concrete="-m a copy of the tiny GGUF with llama.context_length written as FLOAT32 2048.0; the base command "
        "with --override-kv llama.context_length=float:2048 (fresh-259's entry); a chat 'Hello'",
        expected="the override is a float where the loader reads an integer: 'Warning: Bad metadata override type "
        "for key 'llama.context_length', expected int but got float', so it falls back to the file's key and "
        "throws 'key llama.context_length has wrong type f32 but expected type u32' ('error loading model "
        "hyperparameters'), 'failed to load model', exit 1: llamacpp-gguf-metadata-missing (the GGUF mistypes a "
        "key; the override of the wrong type cannot mend it)",
    ),
    (222, C222, "okv-no-type ;; --override-kv tokenizer.ggml.add_bos_token=false"): Case(
        "fresh487-llama-override-kv-no-type",
        ["--override-kv", "tokenizer.ggml.add_bos_token=false"],
        [post(CHAT, SAY_HI)],
        concrete="the base command with --override-kv tokenizer.ggml.add_bos_token=false (no TYPE: fresh-222's "
        "okv-no-type)",
        expected="string_parse_kv_override finds no int:/float:/bool:/str: prefix: 'invalid type for KV override "
        "'tokenizer.ggml.add_bos_token=false'', then 'error while handling argument \"--override-kv\": error: "
        "Invalid type for KV override: ...' with the flag's usage, exit 1 before the model loads: "
        "llamacpp-invalid-argument",
    ),
    (261, C261, "tools, tool_choice 'none', the model's own template (healthy)"): Case(
        "fresh487-llama-tools-none-own-template",
        [],
        [
            post(
                CHAT,
                {"messages": [F261.USER], "max_tokens": 8, "tools": [F261.WEATHER], "tool_choice": "none"},
            )
        ],
        concrete="the base command (jinja on by default, the tiny GGUF's own template, which never reads tools); a "
        "chat 'What is the weather in Paris?' with tools [get_weather] and tool_choice 'none' (fresh-261's entry)",
        expected="tool_choice none asks for no tool call; the template renders the messages and the chat answers "
        "200 with text: none",
    ),
    (276, C276, "flag: --chat-template-file chatml.jinja"): Case(
        "fresh487-llama-cwd-deleted-chat-template-relative",
        ["--jinja", "--chat-template-file", "chatml.jinja"],
        [post(CHAT, F240_CHAT)],
        mkdirs=["work"],
        texts={"work/chatml.jinja": F276.CHATML + "\n"},
        setup=["cd {d}/work", "rm -r {d}/work"],
        concrete="mkdir D/work, D/work/chatml.jinja = fresh-276's CHATML; `cd D/work && rm -r D/work`, then from "
        "that deleted folder the base command with --jinja --chat-template-file chatml.jinja (fresh-276's entry; "
        "run in a private mount namespace as fresh-475's setup lines are)",
        expected="read_file opens 'chatml.jinja' relative to the deleted working folder and fails: 'error while "
        "handling argument \"--chat-template-file\": error: failed to open file 'chatml.jinja'' with the flag's "
        "usage, exit 1 before the model loads: llamacpp-arg-file-unreadable",
    ),
    (217, C217, "a path with a space, quoted (healthy)"): Case(
        "fresh487-llama-model-space-quoted",
        ["-m", "{d}/my models/tiny.gguf"],
        [post(CHAT, F240_CHAT)],
        model=False,
        copies=["my models/tiny.gguf"],
        concrete="D/my models/tiny.gguf = a copy of the tiny GGUF; the base command with -m 'D/my models/tiny.gguf' "
        "(quoted: one argument; fresh-217's entry); a chat 'Hello'",
        expected="the path reaches llama-server whole; the model loads and the chat answers 200: none",
    ),
    (259, C259T, "default template removed, tool_use an unclosed Jinja, no option, a chat"): Case(
        "fresh487-llama-tool-use-unclosed-no-default",
        [],
        [post(CHAT, F240_CHAT)],
        gguf={"tokenizer.chat_template.tool_use": ("STRING", F259.UNCLOSED_TMPL)},
        remove=("tokenizer.chat_template",),
        concrete="-m a copy of the tiny GGUF without tokenizer.chat_template and with tokenizer.chat_template."
        "tool_use = fresh-259's UNCLOSED_TMPL ('{% for m in messages %}{{ m['content'] }}', no endfor); the base "
        "command; a chat 'Hello' (fresh-259's entry)",
        expected="common_chat_templates_init takes the tool_use template as the default when the default is "
        "missing, and its parse fails: 'common_chat_templates_init: error: ...', 'failed to initialize chat "
        "template', then load_model's 'chat template parsing error: ...' and its --no-jinja advice; the server "
        "exits 1 after the model loaded (no request answered): chat-template-invalid",
    ),
}

# the run order, fixed before any case ran: the expected failures first, the expected healthy ones last.
RUN_ORDER = [
    "fresh487-llama-ssl-files-build-without-ssl",
    "fresh487-llama-override-kv-no-type",
    "fresh487-llama-cwd-deleted-chat-template-relative",
    "fresh487-llama-gguf-head-count-8",
    "fresh487-llama-ctxlen-float-override-float",
    "fresh487-llama-tool-use-unclosed-no-default",
    "fresh487-llama-embeddings-empty-input-list",
    "fresh487-llama-no-cache-prompt-cache-reuse",
    "fresh487-llama-tools-none-own-template",
    "fresh487-llama-model-space-quoted",
]


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        p = F475.F300.pool()
        print(
            f"pool: {len(p)} tools (fresh-300's), {sum(len(c) for c in p.values())} conditions, seed {SEED}"
        )
        for i, t in enumerate(kept, 1):
            c = KEY[t]
            print(f"draw {i}: {c.id}: fresh-{t[0]} | {t[1]} | {t[2]}")
            print(f"    concrete: {c.concrete}")
            print(f"    expected: {c.expected}")
        for t, why in redrawn:
            print(f"drawn anew ({why}): fresh-{t[0]} | {t[1]} | {t[2]}")
        return
    point_make_here()
    wanted = set(sys.argv[1:])
    WORK.mkdir(exist_ok=True)
    tiny = tiny_gguf(WORK)
    cases = sorted((KEY[t] for t in kept), key=lambda c: RUN_ORDER.index(c.id))
    for c in cases:
        if wanted and c.id not in wanted:
            continue
        start = time.monotonic()
        text = F475.make(c, tiny)
        (OUT / f"{c.id}.log").write_text(text.rstrip() + "\n")
        print(f"{c.id}: {len(text.splitlines())} lines, {time.monotonic() - start:.0f} s", flush=True)


if __name__ == "__main__":
    main()
