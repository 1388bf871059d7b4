"""fresh-505: an unseen made-here batch, llama-server (the real b11434, .llama-cpp/bin/llama-server): OLD GROUND, NEW
DRAW, round 21 -- fresh-487's procedure (the representative re-draw over the condition spaces earlier llama-server
makers defined, which fresh-300, 310, 317, 323, 332, 334, 346, 356, 362, 368, 373, 387, 403, 406, 421, 436, 453, 463,
475 and 487 made) repeated with SEED 2505, N = 10, ports 27010-27019, work folder /tmp/fresh505, and fresh-487's own
kept triples joining the already-made set. No new condition or class: every (tool, condition, value class) comes from
an earlier maker's own CONDITIONS dict; only the concrete value inside the drawn class is this tool's.

IMPORTED, NOT COPIED (batch.md step 2): tools/doctor_corpus_fresh487.py is loaded by path (corpus_tools.load) and
used unchanged: its draws(seed, n) loop (fresh-475's loop, parametrised by fresh-487) and already_made(); through it
fresh-475's load-once loader, Case, post, CHAT, F240_CHAT and make(), and fresh-300's pool() / made(). What could not
be reused without copying, and is wrapped here instead (neither fresh-487's nor fresh-475's file is edited):
  - fresh-487's already_made() lists the batches up to fresh-475 (fresh-487 was not made yet): it is wrapped so that
    fresh-487's own kept triples (its draws() with its own seed 2487, computed before the wrap) join the set; the
    wrapper is installed as fresh-487's module global already_made, which its draws() reads. (The corpus_tools
    pool_after / draw_distinct_conditions helpers do not fit this procedure: it draws (tool, condition, class)
    triples over fresh-300's 36 tools, not (condition, value) pairs of one tool, so fresh-487's own loop is reused.)
  - fresh-475's make() reads its module globals WORK / RUN / PORT / URL_PORT / DEAD / LREPO: they are pointed at this
    batch before any case is made (as fresh-487 did; its cgroup prefix 'fresh475-' left: no drawn case makes one).
  - fresh-475's make() sends every call it does not know itself through its module global _ask_with: a wrapper
    installed there adds two user steps fresh-274's drawn class needs (fresh-274's own ("file", "replace-text") and
    ("wait", 7) steps): "REPLACE" (the GGUF deleted and a text file written in its place, shown as the shell line
    that does it) and "WAIT" (shown as `$ sleep N`); every other call goes to corpus_tools._ask_with unchanged.
  - fresh-282's removed-quant GGUF (its make_model("qtype:31"): blk.0.ffn_down.weight's type field set to 31) is
    made by fresh-282's own make_model (WORK pointed at /tmp/fresh505) and handed to make() as a blob file.
The drawn tools' constants are taken from their modules (loaded through fresh-475's loader), not copied: fresh-284's
KEY and chat(), fresh-266's UNGUARDED_LOOP and chat(), fresh-261's WEATHER and chat(), fresh-259's NO_MARKER_TMPL and
chat(), fresh-274's chat() body and its replace-text line.

READ: common.md, batch.md, the brief; fresh-487's manifest batch header (up to the lead's measurement block) and its
first [[case]]; tools/doctor_corpus_fresh487.py (whole) and fresh-475's make() / Case / loader; of the drawn tools
(fresh-284 282 266 272 261 259 274 201 240) the CONDITIONS / CASES entry of the drawn class and the constants /
helpers it names, never their logs; llama.cpp b11434's source (fresh-475's unpacked sdist under /tmp/fresh475/src,
read only): common/arg.cpp (-sm, -dt, --sleep-idle-seconds), tools/server/server-common.cpp (tools / tool_choice
without jinja), common/chat.cpp (common_chat_templates_init; the no-jinja apply path 'this custom template is not
supported'), tools/server/server-context.cpp (load_model's template init, handle_sleeping_state's 'failed to reload
model after sleeping', GET /lora-adapters' invocation string), tools/server/server-task.cpp (the lora list's JSON),
src/llama-adapter.cpp (the aLoRA invocation tokens read unchecked), common/jinja/runtime.cpp (a for over an undefined
name is skipped), common/common.cpp (common_token_to_piece); the family list (ids.py) and the whole causes of the ids
predicted.

PROCEDURE (fixed and committed, with `--draws` output, before any case ran): r = random.Random(2505); until 10 triples
are kept: tool = r.choice(sorted pool) (uniform over fresh-300's 36), condition = r.choice(list(its llama-server
conditions)), value class = r.choice(that condition's classes). A triple is drawn anew (the next draw of the same
stream) when it repeats a kept triple, when its (condition, value class) is one that tool's own batch already made
(fresh-300's made()), or when fresh-300, 310, 317, 323, 332, 334, 346, 356, 362, 368, 373, 387, 403, 406, 421, 436,
453, 463, 475 or 487 kept it. `--draws` prints the kept triples, the concrete value and what is expected (written
BEFORE any case ran), and every triple drawn anew with the reason (tools/doctor_corpus_fresh505_draw.txt), run TWICE
with PYTHONHASHSEED=0 and compared byte for byte. Nothing is redrawn after a run; a case that could not be made is
said so in the manifest header, not replaced.

PREDICTIONS: each draw's `expected` in KEY (printed by --draws).

RUN ORDER (fixed before any case ran, RUN_ORDER): the expected failures first, the expected healthy ones last.

Base command (fresh-475's make(), unchanged): llama-server -m /tmp/fresh505/tiny-f32.gguf (corpus_tools.tiny_gguf)
--host 127.0.0.1 --port 27010 -c 512 plus the case's one condition, in the case's folder D under /tmp/fresh505/run,
HF_HOME its own hf/. Ports 27010-27019 (27010 the server; 27011 and 27019 reserved, unused).
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh505.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import contextlib
import io
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus_tools  # noqa: E402
from corpus_tools import tiny_gguf  # noqa: E402

with contextlib.redirect_stdout(io.StringIO()):
    F487 = corpus_tools.load("fresh487_maker", "doctor_corpus_fresh487.py")
    F475 = F487.F475  # from here corpus_tools.load is fresh-475's load-once loader
    F201 = F475.load("fresh201_maker", "doctor_corpus_fresh201.py")
    F259 = F475.load("fresh259_maker", "doctor_corpus_fresh259.py")
    F261 = F475.load("fresh261_maker", "doctor_corpus_fresh261.py")
    F266 = F475.load("fresh266_maker", "doctor_corpus_fresh266.py")
    F274 = F475.load("fresh274_maker", "doctor_corpus_fresh274.py")
    F282 = F475.load("fresh282_maker", "doctor_corpus_fresh282.py")
    F284 = F475.load("fresh284_maker", "doctor_corpus_fresh284.py")

Case, post, CHAT, F240_CHAT = F475.Case, F475.post, F475.CHAT, F475.F240_CHAT

WORK = Path("/tmp/fresh505")
RUN = WORK / "run"
OUT = F475.OUT
PORT = 27010
URL_PORT = 27011  # reserved (fresh-475's -mu file server port), unused
DEAD = 27019  # reserved (a port nothing listens on), unused
SEED = 2505
N = 10

_ALREADY_BEFORE_487 = F487.already_made
_KEPT_487: list = []


def already_made() -> dict[int, list]:
    """fresh-487's already-made set (up to fresh-475) plus fresh-487's own kept triples (its seed 2487)."""
    prev = _ALREADY_BEFORE_487()
    prev[487] = list(_KEPT_487)
    return prev


def draws(seed: int = SEED, n: int = N):
    """(kept triples, drawn-anew (triple, reason)): fresh-487's draws() with this batch's seed, N and fresh-487 joining
    the already-made set (its own draw computed first, with its own seed, before the wrapper is installed)."""
    if not _KEPT_487:
        _KEPT_487.extend(F487.draws()[0])
    F487.already_made = already_made
    return F487.draws(seed, n)


_PLAIN_ASK = corpus_tools._ask_with


def ask_or_step(port: int, method: str, path: str, body, headers: dict, after: float) -> str:
    """fresh-475's make() sends each call here: fresh-274's two user steps, else corpus_tools' request unchanged."""
    if method == "REPLACE":  # fresh-274's replace-text: the GGUF deleted, a text file written in its place
        Path(path).unlink()
        Path(path).write_text(body)
        return f"$ rm {path} && echo {body.strip()!r} > {path}\n"
    if method == "WAIT":  # fresh-274's ("wait", S)
        time.sleep(body)
        return f"$ sleep {body}\n"
    return _PLAIN_ASK(port, method, path, body, headers, after)


def point_make_here() -> None:
    """fresh-475's make() reads its module globals: point them at this batch (its file is left as it is)."""
    F475.WORK, F475.RUN, F475.PORT, F475.URL_PORT, F475.DEAD = WORK, RUN, PORT, URL_PORT, DEAD
    F475.LREPO = "fresh505/micro-llama-GGUF"
    F475._ask_with = ask_or_step
    F282.WORK = WORK  # fresh-282's make_model builds from tiny_gguf(WORK)


@contextlib.contextmanager
def numpy_arrays_as_lists():
    """fresh-240's write_lora hands GGUFWriter.add_array a numpy uint32 array, which this gguf-py refuses ('Invalid
    GGUF metadata array, expecting sequence'; found when draw 10's first attempt stopped before its server started):
    while a case writes its adapter, such an array is written as the list of its ints with sub-type UINT32, the same
    bytes (a uint32 array) fresh-240 meant. fresh-240's file is not edited."""
    import gguf
    import numpy as np

    plain = gguf.GGUFWriter.add_array

    def add_array(self, key, val):
        if isinstance(val, np.ndarray) and val.dtype == np.uint32:
            if len(val):
                self.add_key_value(
                    key, [int(v) for v in val], gguf.GGUFValueType.ARRAY, gguf.GGUFValueType.UINT32
                )
            return
        plain(self, key, val)

    gguf.GGUFWriter.add_array = add_array
    try:
        yield
    finally:
        gguf.GGUFWriter.add_array = plain


def q4_0_4_4_gguf() -> bytes:
    """fresh-282's make_model('qtype:31'): the tiny GGUF with blk.0.ffn_down.weight's type field set to 31."""
    with tempfile.TemporaryDirectory(dir=WORK) as tmp:
        return F282.make_model("qtype:31", Path(tmp)).read_bytes()


# ---- the cases: one per kept draw -----------------------------------------------------------------------------------

C284 = "--api-key vs the request's key header (server-http.cpp middleware_validate_api_key)"
C282 = "a tensor in a quant type this build removed"
C266 = "--chat-template-kwargs vs a template using the kwarg unguarded (the start-up renders pass no kwargs)"
C272T = "-ot: a tensor pattern with a buffer type"
C261 = "tools / tool_choice with --no-jinja (chat)"
C259 = "tokenizer.chat_template odd, with --no-jinja / --chat-template NAME"
C272S = "-ngl with --split-mode / --main-gpu on the CPU-only build"
C274 = "the GGUF removed or replaced while --sleep-idle-seconds unloads the model"
C201 = "-dt / --defrag-thold"
C240 = "aLoRA invocation tokens outside the vocabulary"
REPLACED = "this file was replaced while the server ran\n"  # fresh-274's replace-text content
ID274 = "fresh505-llama-gguf-replaced-text-sleep-idle"

KEY = {
    (284, C284, "another server's key as Bearer"): Case(
        "fresh505-llama-api-key-other-bearer",
        ["--api-key", F284.KEY],
        [F284.chat({"Authorization": "Bearer sk-openai-1234"})],
        concrete=f"the base command with --api-key {F284.KEY}; a chat 'Say hello.' sent with Authorization: Bearer "
        "sk-openai-1234 (fresh-284's entry: another server's key)",
        expected="the key middleware compares the Bearer token with the server's key and refuses it: 401 'Invalid "
        "API Key' (authentication_error); the server stays up: api-key-missing",
    ),
    (282, C282, "Q4_0_4_4 (type 31, the old ARM repack)"): Case(
        "fresh505-llama-qtype-q4-0-4-4",
        ["-m", "{d}/model.gguf"],
        [post(CHAT, F240_CHAT)],
        model=False,
        blobs={"model.gguf": q4_0_4_4_gguf},
        concrete="D/model.gguf = a copy of the tiny GGUF with blk.0.ffn_down.weight's ggml type field set to 31 "
        "(Q4_0_4_4; fresh-282's make_model('qtype:31')); the base command with -m D/model.gguf; a chat 'Hello'",
        expected="gguf.cpp reads type 31 (TYPE_Q4_0_4_4 REMOVED, block size 0) and refuses the tensor (its removed "
        "type / block-size error), gguf_init fails, 'failed to load model', exit 1 before any request: "
        "gguf-tensor-type-removed",
    ),
    (
        266,
        C266,
        "GGUF template looping over documents_list unguarded, --chat-template-kwargs giving it",
    ): Case(
        "fresh505-llama-gguf-unguarded-kwarg-loop",
        ["--chat-template-kwargs", '{"documents_list": ["Paris is sunny today."]}'],
        [post(*F266.chat())],
        gguf={"tokenizer.chat_template": ("STRING", F266.UNGUARDED_LOOP)},
        concrete="-m a copy of the tiny GGUF whose tokenizer.chat_template is fresh-266's UNGUARDED_LOOP ('{% for d "
        "in documents_list %}...' then ChatML); the base command with --chat-template-kwargs "
        "'{\"documents_list\": [\"Paris is sunny today.\"]}'; a chat 'What is the weather in Paris?'",
        expected="common/jinja skips a for over an undefined name (runtime.cpp: 'For loop iterable is undefined, "
        "skipping loop'), so the start-up renders without kwargs pass; the chat renders the document and answers "
        "200: none",
    ),
    (272, C272T, "nomatch_xyz=CPU (matches no tensor, healthy)"): Case(
        "fresh505-llama-ot-nomatch-cpu",
        ["-ot", "nomatch_xyz=CPU"],
        [post(CHAT, F240_CHAT)],
        concrete="the base command with -ot nomatch_xyz=CPU (fresh-272's entry); a chat 'Hello'",
        expected="the pattern parses and the CPU buffer type exists; it matches no tensor, so nothing moves; the "
        "model loads and the chat answers 200: none",
    ),
    (261, C261, "tools with tool_choice 'none'"): Case(
        "fresh505-llama-no-jinja-tools-choice-none",
        ["--no-jinja"],
        [post(*F261.chat(tools=[F261.WEATHER], tool_choice="none"))],
        concrete="the base command with --no-jinja; a chat 'What is the weather in Paris?' with tools "
        "[get_weather] and tool_choice 'none' (fresh-261's entry)",
        expected="oaicompat_chat_params_parse without jinja refuses a request with tools before it looks at "
        "tool_choice: an error reply 'tools param requires --jinja flag' (400 invalid_request_error, or 500); the "
        "server stays up: llamacpp-tools-need-jinja",
    ),
    (259, C259, "a Jinja template with no known marker, --no-jinja, a chat"): Case(
        "fresh505-llama-template-no-marker-no-jinja",
        ["--no-jinja"],
        [post(*F259.chat())],
        gguf={"tokenizer.chat_template": ("STRING", F259.NO_MARKER_TMPL)},
        concrete="-m a copy of the tiny GGUF whose tokenizer.chat_template is fresh-259's NO_MARKER_TMPL ('{% for m "
        "in messages %}{{ m['role'] }}: ...', no marker llama_chat_detect_template knows); the base command with "
        "--no-jinja; a chat 'Hello' (fresh-259's entry)",
        expected="the server starts (the example render is only traced); the chat's legacy apply finds no known "
        "template: an error reply 'this custom template is not supported, try using --jinja' (500 or 400); the "
        "server stays up: llamacpp-chat-template-needs-jinja",
    ),
    (272, C272S, "-ngl 99 -sm tensor-parallel"): Case(
        "fresh505-llama-ngl-99-sm-tensor-parallel",
        ["-ngl", "99", "-sm", "tensor-parallel"],
        [post(CHAT, F240_CHAT)],
        concrete="the base command with -ngl 99 -sm tensor-parallel (fresh-272's entry)",
        expected="-sm takes none / layer / row / tensor: 'error while handling argument \"-sm\": invalid value' "
        "with the flag's usage, exit 1 before the model loads: llamacpp-invalid-argument",
    ),
    (274, C274, "a text file in its place"): Case(
        ID274,
        ["-m", "{d}/model.gguf", "--sleep-idle-seconds", "3"],
        [
            ("REPLACE", str(RUN / ID274 / "model.gguf"), REPLACED, {}),
            ("WAIT", "", 7, {}),
            post(CHAT, F274.chat()),
        ],
        model=False,
        copies=["model.gguf"],
        concrete="D/model.gguf = a copy of the tiny GGUF; the base command with -m D/model.gguf "
        "--sleep-idle-seconds 3; once healthy, the GGUF deleted and a text file written at its path (fresh-274's "
        "replace-text), 7 s (the server sleeps: model unloaded), then a chat 'Hello, who are you?' (fresh-274's "
        "entry)",
        expected="the chat wakes the server, which reloads -m's path: gguf_init 'invalid magic characters' "
        "(the text file), 'failed to load model', then 'failed to reload model after sleeping' (GGML_ABORT): the "
        "server aborts (exit 134, SIGABRT), the chat gets no reply: llamacpp-bad-gguf",
    ),
    (201, C201, "-dt 0.1 (deprecated, ignored), healthy"): Case(
        "fresh505-llama-defrag-thold-deprecated",
        ["-dt", "0.1"],
        [post(CHAT, F240_CHAT)],
        concrete="the base command with -dt 0.1 (fresh-201's entry); a chat 'Hello'",
        expected="'DEPRECATED: --defrag-thold is deprecated and no longer necessary to specify', then the server "
        "serves; the chat answers 200: none",
    ),
    (240, C240, "[4294967295] (a -1 stored as uint32), GET /lora-adapters"): Case(
        "fresh505-llama-alora-minus-one-get",
        ["--lora", "{d}/alora.gguf"],
        [("GET", "/lora-adapters", None, {})],
        lora={"alora.gguf": "alora-minus-one"},
        concrete="D/alora.gguf = fresh-240's write_lora alora-minus-one (a LoRA on blk.0.attn_q.weight with "
        "adapter.alora.invocation_tokens [4294967295]); the base command with --lora D/alora.gguf; GET "
        "/lora-adapters (fresh-240's entry)",
        expected="llama-adapter.cpp copies the invocation tokens unchecked (-1), the adapter loads and the server "
        "serves; GET /lora-adapters turns each token into its piece, token_get_attr's id_to_token.at(-1) throws "
        "std::out_of_range in the server loop: 'terminate called ...', abort (exit 134), the GET gets no reply: "
        "new:lora-alora-invocation-token-out-of-vocab (a judgement call: the adapter loaded, so "
        "llamacpp-lora-load-failed's 'could not load' does not hold whole; it is the alternative)",
    ),
}

# the run order, fixed before any case ran: the expected failures first, the expected healthy ones last.
RUN_ORDER = [
    "fresh505-llama-ngl-99-sm-tensor-parallel",
    "fresh505-llama-qtype-q4-0-4-4",
    "fresh505-llama-no-jinja-tools-choice-none",
    "fresh505-llama-template-no-marker-no-jinja",
    "fresh505-llama-api-key-other-bearer",
    ID274,
    "fresh505-llama-alora-minus-one-get",
    "fresh505-llama-gguf-unguarded-kwarg-loop",
    "fresh505-llama-ot-nomatch-cpu",
    "fresh505-llama-defrag-thold-deprecated",
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
        with numpy_arrays_as_lists() if c.lora else contextlib.nullcontext():
            text = F475.make(c, tiny)
        (OUT / f"{c.id}.log").write_text(text.rstrip() + "\n")
        print(f"{c.id}: {len(text.splitlines())} lines, {time.monotonic() - start:.0f} s", flush=True)


if __name__ == "__main__":
    main()
