"""fresh-421: an unseen made-here batch, llama-server (the real b11434, .llama-cpp/bin/llama-server): OLD GROUND, NEW
DRAW, round 15 -- the same representative re-draw over the condition spaces earlier llama-server makers defined that
tools/doctor_corpus_fresh300.py, fresh310.py, fresh317.py, fresh323.py, fresh332.py, fresh334.py, fresh346.py,
fresh356.py, fresh362.py, fresh368.py, fresh373.py, fresh387.py, fresh403.py and fresh406.py made, with a new seed
(2421) and N = 10: tools/doctor_corpus_fresh406.py's procedure (its load-once loader load() / _draws_once, its Case and
make()) copied exactly. No new condition is written here: every (tool, condition, value class) comes from an earlier
maker's own CONDITIONS dict; only the concrete value inside the drawn class is this tool's.

READ: tools/doctor_corpus_fresh406.py (whole: this file is it with the seed, the ports, the work folder, the hub
repository name, fresh-406 joining the already-made set, the KEY entries, no EXTRA, and one small make() extension:
Case.blobs, binary files of the case folder shown by `$ ls -l`) and fresh-406's manifest batch header; of the drawn
tools (fresh-201 215 205 270 255 217 232 247 200) their CONDITIONS and the entry of the drawn class (fresh-201's
-ub 2147483648 case() and cmpl()/PROMPT; fresh-215's eos-100000 edit and its chat 'Say hi'; fresh-205's
mu-offline-not-cached value and its DEAD port; fresh-270's -to 1 class; fresh-255's -sm '' and --rope-freq-base inf
Cases and cmpl(); fresh-217's -md safetensors Case; fresh-232's ctl-im-end edit and chat_of; fresh-247's
reasoning_budget_end_tags WT entry and cmpl(); fresh-200's chat_template_kwargs Case and chat()/HELLO), never their
logs; the family list (ids.py).

THE TOOLS DRAWN FROM: fresh-300's 36 (its pool() and made(), imported from its file unchanged). fresh-300, 310, 317,
323, 332, 334, 346, 356, 362, 368, 373, 387, 403 and 406 have no condition space of their own; their kept triples
join the "already made" set.

PROCEDURE (fixed and committed, with `--draws` output, before any case ran): r = random.Random(2421); until 10 triples
are kept: tool = r.choice(sorted pool) (uniform over the 36), condition = r.choice(list(its llama-server conditions)),
value class = r.choice(that condition's classes). A triple is drawn anew (the next draw of the same stream) when it
repeats a kept triple, when its (condition, value class) is one that tool's own batch already made (fresh-300's made()),
or when fresh-300, 310, 317, 323, 332, 334, 346, 356, 362, 368, 373, 387, 403 or 406 kept it. `--draws` prints the kept
triples, the concrete value and what is expected (written BEFORE any case ran), and every triple drawn anew with the
reason (tools/doctor_corpus_fresh421_draw.txt). `--draws` was run TWICE with PYTHONHASHSEED=0 and the two outputs
were compared byte for byte (the draw file is that output). Nothing is redrawn after a run; a case that could not be
made is said so in the manifest header, not replaced.

PREDICTIONS (each draw's `expected`, printed by --draws; written before any case ran): draws 1 (-ub past int) and
5 (-sm '') refused by arg.cpp at parse, exit 1: llamacpp-invalid-argument; draw 3 (-mu alone with --offline) starts
the router, not the offline cache lookup: llamacpp-model-url-alone-starts-router; draw 7 (-md a safetensors file)
fails at the draft's load: llamacpp-draft-model-incompatible; draw 9 (reasoning_budget_end_tags a string) warned and
defaulted, 200: llamacpp-request-field-defaulted; draws 2 (eos id 100000: a warning), 4 (-to 1), 6 (rope base inf),
8 (token 500 '<|im_end|>': a warning) and 10 (add_generation_prompt false) answer 200: none.

SPEED: as fresh-406 (each tool file loaded once, each loaded tool's draws() run once); the kept triples it computes for
fresh-406 equal the `draw K:` lines of tools/doctor_corpus_fresh406_draw.txt.

Base command: llama-server -m /tmp/fresh421/tiny-f32.gguf (corpus_tools.tiny_gguf; or the case's edited copy
D/model.gguf) --host 127.0.0.1 --port 25940 -c 512 plus the case's one condition, in the case's folder D under
/tmp/fresh421/run, environment corpus_tools.engine_env without LLAMA_ARG_*, HF_* / LLAMA_CACHE / MODEL_ENDPOINT /
XDG_CACHE_HOME, with HF_HOME = the case's own hf/ folder, then the case's variables. Ports 25940-25949 (25940 the
server, 25941 kept for a file server, unused here, 25949 the dead port of the -mu case). Log = `$ ` / `# ` lines of
what was made (an edited GGUF, a file shown by ls -l), `$ ` and the command, the server's whole stdout+stderr, then
per request `# request: ...` with the reply's status line and first 1000 bytes (or the client's exception), and
`# exit status: N` of the server. One server at a time, a start bound of 120 s.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh421.py [--draws | CASE_ID ...]
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

WORK = Path("/tmp/fresh421")
RUN = WORK / "run"
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PORT = 25940
URL_PORT = 25941  # the -mu case's file server
SEED = 2421
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

LREPO = "fresh421/micro-llama-GGUF"
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
DEAD = 25949  # a port of this maker's range nothing listens on (fresh-205's DEAD, moved into 25940-25949)


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


KEY = {
    (201, "-ub 2147483648 (beyond int)"): Case(
        "fresh421-llama-ubatch-beyond-int",
        ["-ub", "2147483648"],
        [post("/completion", {"prompt": F201_PROMPT, "n_predict": 8})],
        concrete="the base command with -ub 2147483648 (fresh-201's entry); POST /completion (fresh-201's cmpl())",
        expected="arg.cpp reads -ub with std::stoi, which throws out_of_range past INT_MAX; common_params_parse "
        "turns it into 'error while handling argument \"-ub\": stoi', usage, exit 1, no server: "
        "llamacpp-invalid-argument",
    ),
    (215, "eos-100000"): Case(
        "fresh421-llama-eos-token-id-100000",
        [],
        [chat(user("Say hi"))],
        gguf={"tokenizer.ggml.eos_token_id": ("UINT32", 100000)},
        concrete="-m a copy of the tiny GGUF with tokenizer.ggml.eos_token_id 100000 (1024 tokens; fresh-215's "
        "entry); the base command; a chat 'Say hi' (fresh-215's request)",
        expected="llama-vocab.cpp checks each special id against the vocabulary: 'bad special token: "
        "'tokenizer.ggml.eos_token_id' = 100000, using default id ...' (a warning), the model loads and the chat "
        "answers 200: none",
    ),
    (205, "mu-offline-not-cached"): Case(
        "fresh421-llama-model-url-offline-not-cached",
        ["-mu", f"http://127.0.0.1:{DEAD}/micro-llama-F32.gguf", "--offline"],
        [chat()],
        model=False,
        concrete=f"llama-server -mu http://127.0.0.1:{DEAD}/micro-llama-F32.gguf --offline (no -m; nothing listens "
        "on that port; the case's own empty HF_HOME; fresh-205's entry with this batch's dead port); a chat",
        expected="b11434 decides single-model vs router from -m / -hf / -dr only, so -mu alone starts the router "
        "(no models), the -mu file is never looked up and the offline cache miss is never met; the chat is "
        "refused (no model): llamacpp-model-url-alone-starts-router",
    ),
    (270, "-to 1 with a chat asking max_tokens 400"): Case(
        "fresh421-llama-timeout-1-chat-400-tokens",
        ["-to", "1"],
        [chat(max_tokens=400)],
        concrete="the base command with -to 1; a chat 'Say hello.' with max_tokens 400 (fresh-270's entry)",
        expected="-to sets cpp-httplib's socket read / write timeouts, not a bound on the handler; the non-streamed "
        "answer is written after generation (the tiny model makes 400 tokens in well under a second anyway); "
        "the chat answers 200: none",
    ),
    (255, "'' (empty): 'invalid value'"): Case(
        "fresh421-llama-split-mode-empty",
        ["-sm", ""],
        [post("/completion", {"prompt": "Hello, my name is", "n_predict": 16})],
        concrete="the base command with -sm '' (an empty value, as an unset shell variable gives; fresh-255's "
        "entry); POST /completion (fresh-255's cmpl())",
        expected="arg.cpp's -sm handler knows none / layer / row (/ tensor) and throws 'invalid value' for '': "
        "'error while handling argument \"-sm\": invalid value', exit 1, no server: llamacpp-invalid-argument",
    ),
    (255, "inf"): Case(
        "fresh421-llama-rope-freq-base-inf",
        ["--rope-freq-base", "inf"],
        [post("/completion", {"prompt": "Hello, my name is", "n_predict": 16})],
        concrete="the base command with --rope-freq-base inf (fresh-255's entry); POST /completion (fresh-255's "
        "cmpl())",
        expected="std::stof('inf') is +inf without an exception; the context prints freq_base = inf and RoPE's "
        "theta is inf ** (-2i/d) = 0 past the first pair, so positions are lost but nothing is NaN; the "
        "completion answers 200 with words: none (a value nothing checks, no failure seen)",
    ),
    (217, "a safetensors file, not a GGUF"): Case(
        "fresh421-llama-draft-model-safetensors",
        ["-md", "{d}/draft/model.safetensors"],
        [chat()],
        blobs={"draft/model.safetensors": safetensors_bytes},
        concrete="the base command with -md D/draft/model.safetensors (a valid safetensors file of two F32 "
        "Llama-named tensors, 512 KiB; fresh-217's class with a real safetensors file rather than its JSON "
        "stand-in); a chat",
        expected="the main model loads; the draft is read with gguf_init_from_file, which meets the safetensors "
        "header length where the 'GGUF' magic should be ('invalid magic characters'), the draft fails to load "
        "and the server exits 1: llamacpp-draft-model-incompatible",
    ),
    (232, "ctl-im-end"): Case(
        "fresh421-llama-token-500-im-end-normal",
        [],
        [chat(user("Say hi"))],
        gguf={"tokenizer.ggml.tokens": ("ARRAY", replaced_token(500, "<|im_end|>"))},
        concrete="-m a copy of the tiny GGUF with token 500's text replaced by '<|im_end|>' (its type left NORMAL; "
        "fresh-232's entry); the base command; a chat 'Say hi' (fresh-232's request)",
        expected="llama-vocab.cpp's EOG scan takes '<|im_end|>' as an end token and warns 'control-looking token: "
        "500 '<|im_end|>' was not control-type; this is probably a bug in the model. its type will be "
        "overridden'; the chat answers 200 (it may stop early): none",
    ),
    (247, "a wrong type"): Case(
        "fresh421-llama-reasoning-budget-end-tags-string",
        [],
        [post("/completion", {"prompt": "Hello", "n_predict": 8, "reasoning_budget_end_tags": "</think>"})],
        concrete='the base command; POST /completion {"prompt": "Hello", "n_predict": 8, '
        '"reasoning_budget_end_tags": "</think>"} (a string where a list of strings is read; fresh-247\'s entry)',
        expected="the server reads the field through json_value with a list default: a wrong type is logged "
        "('Wrong type supplied for parameter ...') and the default used; the completion answers 200: "
        "llamacpp-request-field-defaulted",
    ),
    (200, "{'add_generation_prompt': false} (healthy)"): Case(
        "fresh421-llama-chat-template-kwargs-no-generation-prompt",
        [],
        [chat(user("Hello"), chat_template_kwargs={"add_generation_prompt": False})],
        concrete='the base command; a chat "Hello" with chat_template_kwargs {"add_generation_prompt": false} '
        "(fresh-200's entry)",
        expected="the template is rendered without the assistant prefix (the kwarg overrides the server's own "
        "add_generation_prompt or is ignored); the model continues the user turn; the chat answers 200: none",
    ),
}


EXTRA: dict = {}


def case_of(triple: tuple[int, str, str]) -> Case:
    t, _, cls = triple
    for (kt, key), c in KEY.items():
        if kt == t and (key == cls or cls.startswith(key + " ;;") or cls.startswith(key + ";")):
            return c
    raise KeyError(triple)


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
