"""fresh-526: an unseen made-here batch, llama-server (the real b11434, .llama-cpp/bin/llama-server): OLD GROUND, NEW
DRAW, round 22 -- fresh-505's procedure (= fresh-487's = fresh-475's: the representative re-draw over the condition
spaces earlier llama-server makers defined, which fresh-300, 310, 317, 323, 332, 334, 346, 356, 362, 368, 373, 387,
403, 406, 421, 436, 453, 463, 475, 487 and 505 made) repeated with SEED 2526, N = 10, ports 27300-27309, work folder
/tmp/fresh526, and fresh-505's own kept triples joining the already-made set. No new condition or class: every (tool,
condition, value class) comes from an earlier maker's own CONDITIONS dict; only the concrete value inside the drawn
class is this tool's.

IMPORTED, NOT COPIED (batch.md step 2): tools/doctor_corpus_fresh505.py is loaded by path (corpus_tools.load) and
used unchanged: its draws(seed, n) (fresh-487's loop with fresh-487's kept triples added), its point_make_here-style
globals, ask_or_step and numpy_arrays_as_lists; through it fresh-475's load-once loader, Case, post, CHAT, F240_CHAT
and make(), and fresh-300's pool() / made(). What could not be reused without copying is wrapped here (no earlier
file is edited):
  - fresh-505's already_made() stops at fresh-487: it is wrapped so that fresh-505's own kept triples (its draws()
    with its own seed 2505, computed before the wrap) join the set; the wrapper is installed as fresh-505's module
    global already_made, which its draws() installs into fresh-487 (the corpus_tools pool_after /
    draw_distinct_conditions helpers do not fit this procedure: it draws (tool, condition, class) triples over
    fresh-300's 36 tools, so the predecessors' own loop is reused).
  - fresh-475's make() reads its module globals WORK / RUN / PORT / URL_PORT / DEAD / LREPO / _ask_with: they are
    pointed at this batch (fresh-505's ask_or_step kept as _ask_with; fresh-505's own point_make_here is not called,
    its constants are its batch's).
  - two drawn classes are fresh-207's (a server restarted by a shell line; a supervisor wrapper): fresh-475's make()
    has no restart nor wrapper, so fresh-207's own make(cond, value) and setup() are used, with its module globals
    PORT / WORK / BIN / RUN pointed at this batch and its case's shell line (which has fresh-207's port 21021 baked in
    at import) given this batch's port while the case is made (wrapped in made_by_207, fresh-207's CASES restored).
  - fresh-268's drawn class (a preset option in the [*] section, the router's -c 512) has no maker in fresh-268's
    file (its makers() are its own 12 draws): it is made by fresh-475's make() as fresh-387 made its router case
    (model=False, copies, texts). The router's model instance listens on a port the OS gives it
    (common_http_get_free_port): not one of this batch's, and not one this tool chooses.

READ: common.md, batch.md, the brief; fresh-505's manifest batch header (up to the lead's measurement block) and its
first [[case]]; tools/doctor_corpus_fresh505.py (whole) and its draw file (compared, not read through); fresh-487's
draws(); fresh-475's loader, Case and make(); of the drawn tools (fresh-233 211 240 201 207 268 234) the CONDITIONS /
SPECS / CASES entry of the drawn class and the helpers it names (fresh-207's CASES, make(), setup(), SVC_RUN; fresh-268's
CONDITIONS and makers()), never their logs; llama.cpp b11434's source (fresh-475's unpacked sdist under
/tmp/fresh475/src, read only): common/arg.cpp (--api-key-file, -fa, --samplers, -ngl, --load-mode),
common/common.cpp (common_control_vector_load_one, common_init_from_params' control-vector step),
common/sampling.cpp (common_sampler_types_from_names), common/preset.cpp (preset options kept as strings),
tools/server/server-models.cpp (the child's port and args), tools/server/server-schema.cpp ('stop'),
src/llama-sampler.cpp (the logit-bias backend sampler), ggml/src/ggml-cpu/ops.cpp (set_rows' bound assert); the
family list (ids.py) and ids.py --cases for the neighbours.

PROCEDURE (fixed and committed, with `--draws` output, before any case ran): fresh-505's, with r =
random.Random(2526); until 10 triples are kept: tool = r.choice(sorted pool) (uniform over fresh-300's 36), condition
= r.choice(list(its llama-server conditions)), value class = r.choice(that condition's classes). A triple is drawn
anew when it repeats a kept triple, when its (condition, value class) is one that tool's own batch already made
(fresh-300's made()), or when fresh-300 ... 487 or 505 kept it. `--draws` prints the kept triples, the concrete value
and what is expected (written BEFORE any case ran), and every triple drawn anew with the reason
(tools/doctor_corpus_fresh526_draw.txt), run TWICE with PYTHONHASHSEED=0 and compared byte for byte. Nothing is
redrawn after a run; a case that could not be made is said so in the manifest header, not replaced.

PREDICTIONS: each draw's `expected` in KEY (printed by --draws). RUN ORDER (fixed before any case ran, RUN_ORDER):
the expected failures first, the expected healthy ones last.

Base command (fresh-475's make(), unchanged): llama-server -m /tmp/fresh526/tiny-f32.gguf (corpus_tools.tiny_gguf)
--host 127.0.0.1 --port 27300 -c 512 plus the case's one condition, in the case's folder D under /tmp/fresh526/run,
HF_HOME its own hf/; fresh-207's cases: its own shell lines (-c 4096, --port 27300) in /tmp/fresh526/run/<its id>.
Ports 27300-27309 (27300 the servers; 27301 and 27309 reserved, unused).
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh526.py [--draws | CASE_ID ...]
"""

from __future__ import annotations

import contextlib
import io
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus_tools  # noqa: E402
from corpus_tools import tiny_gguf  # noqa: E402

with contextlib.redirect_stdout(io.StringIO()):
    F505 = corpus_tools.load("fresh505_maker", "doctor_corpus_fresh505.py")
    F475 = F505.F475  # from here corpus_tools.load is fresh-475's load-once loader
    F207 = F475.load("fresh207_maker", "doctor_corpus_fresh207.py")
    F233 = F475.load("fresh233_maker", "doctor_corpus_fresh233.py")

Case, post, CHAT, F240_CHAT = F475.Case, F475.post, F475.CHAT, F475.F240_CHAT

WORK = Path("/tmp/fresh526")
RUN = WORK / "run"
OUT = F475.OUT
PORT = 27300
URL_PORT = 27301  # reserved (fresh-475's -mu file server port), unused
DEAD = 27309  # reserved (a port nothing listens on), unused
SEED = 2526
N = 10

_ALREADY_BEFORE_505 = F505.already_made
_KEPT_505: list = []


def already_made() -> dict[int, list]:
    """fresh-505's already-made set (up to fresh-487) plus fresh-505's own kept triples (its seed 2505)."""
    prev = _ALREADY_BEFORE_505()
    prev[505] = list(_KEPT_505)
    return prev


def draws(seed: int = SEED, n: int = N):
    """(kept triples, drawn-anew (triple, reason)): fresh-505's draws() with this batch's seed and N, fresh-505
    joining the already-made set (its own draw computed first, with its own seed, before the wrapper is installed)."""
    if not _KEPT_505:
        _KEPT_505.extend(F505.draws()[0])
    F505.already_made = already_made
    return F505.draws(seed, n)


def point_make_here() -> None:
    """fresh-475's make() and fresh-207's make() read their module globals: point them at this batch."""
    F475.WORK, F475.RUN, F475.PORT, F475.URL_PORT, F475.DEAD = WORK, RUN, PORT, URL_PORT, DEAD
    F475.LREPO = "fresh526/micro-llama-GGUF"
    F475._ask_with = F505.ask_or_step
    F207.PORT, F207.WORK, F207.BIN, F207.RUN = PORT, WORK, WORK / "bin", RUN


def made_by_207(cond: str, value: str, cid: str) -> str:
    """fresh-207's own make() for its drawn class, its shell line given this batch's port (fresh-207 baked its port
    21021 into the line at import); the case folder renamed to this batch's id. fresh-207's CASES is restored."""
    spec = F207.CASES[(cond, value)]
    line = spec["line"]
    spec["line"] = line.replace("--port 21021", f"--port {PORT}")
    plain_id = F207.case_id
    F207.case_id = lambda _c, _v: cid
    try:
        F207.setup()
        return F207.make(cond, value)
    finally:
        spec["line"] = line
        F207.case_id = plain_id


# ---- the cases: one per kept draw -----------------------------------------------------------------------------------

C233S = "(request) stop a list holding a number"
C211 = "--api-key-file"
C240 = "control vector direction tensor not 1-D"
C201 = "--flash-attn other words"
C207U = "the model made unreadable while serving, then the server restarted (as nobody)"
C268 = "preset section option with a router global option"
C233P = "(cli) --samplers separated by commas or spaces, not ';'"
C207W = "a systemd-run-like wrapper's runtime limit"
C234 = "LLAMA_ARG_LOAD_MODE"
C233L = "(cli) --logit-bias a token beyond the vocabulary (with or without --backend-sampling)"
V207U = "chmod 000 models/ (the model's folder), then SIGTERM and the line's restart"
V207W = "svc-run --runtime-max-sec 10 --kill-signal SIGKILL; a request before and one after"
ID207U = "fresh526-llama-models-folder-chmod-000-restart-nobody"
ID207W = "fresh526-llama-svc-run-runtime-max-sigkill"
LCOMP_HELLO = {"prompt": "hello", "n_predict": 8}  # fresh-233's body_of(LCOMP)

KEY = {
    (233, C233S, "request-stop-list-number"): Case(
        "fresh526-llama-request-stop-list-number",
        [],
        [post("/completion", {**LCOMP_HELLO, **F233.SPECS["request-stop-list-number"]["body"]})],
        concrete='the base command; POST /completion {"prompt": "hello", "n_predict": 8, "stop": [13]} (fresh-233\'s '
        "SPECS entry: a token id where stop strings go)",
        expected="server-schema.cpp's 'stop' handler pushes each array item into antiprompt (a vector of strings): "
        "nlohmann json's conversion of the number 13 throws type_error.302 'type must be string, but is number'; the "
        "request is answered with an error (500 or 400) naming it, the server stays up: request-field-wrong-type "
        "(as fresh-233's chat case's label now)",
    ),
    (211, C211, "a folder (labelled healthy: no key read)"): Case(
        "fresh526-llama-api-key-file-a-folder",
        ["--api-key-file", "{d}/keys"],
        [post(CHAT, F240_CHAT)],
        mkdirs=["keys"],
        concrete="D/keys a folder (mkdir); the base command with --api-key-file D/keys (fresh-211's entry); a chat "
        "'Hello' sent without a key",
        expected="arg.cpp's std::ifstream opens a folder without failing on Linux, getline reads nothing, so no key "
        "is kept and no line says so; the server serves without a key and the chat answers 200: none (fresh-211's "
        "label for the class)",
    ),
    (240, C240, "direction.1 of numpy shape (256, 1) (a column)"): Case(
        "fresh526-llama-control-vector-column-256x1",
        ["--control-vector", "{d}/happy.gguf"],
        [post(CHAT, F240_CHAT)],
        lora={"happy.gguf": "cv-256x1"},
        concrete="D/happy.gguf = fresh-240's write_cvec cv-256x1 (a control-vector GGUF whose direction.1 tensor is "
        "numpy shape (256, 1), i.e. ggml ne [1, 256]); the base command with --control-vector D/happy.gguf; a chat "
        "'Hello'",
        expected="common_control_vector_load_one: ggml_n_dims is 2 -> 'invalid (non-1D) direction tensor shape in "
        "D/happy.gguf', 'skipping ... due to invalid direction tensors'; common_init_from_params returns before "
        "applying it with model and context made, so the server serves without the vector and the chat answers "
        "200: llamacpp-control-vector-unusable",
    ),
    (201, C201, "-fa enabled, healthy"): Case(
        "fresh526-llama-flash-attn-enabled",
        ["-fa", "enabled"],
        [post(CHAT, F240_CHAT)],
        concrete="the base command with -fa enabled (fresh-201's entry); a chat 'Hello'",
        expected="is_truthy takes 'enabled' (on / enabled / true / 1): flash attention on, the CPU backend runs it; "
        "the chat answers 200: none",
    ),
    (207, C207U, V207U): ("207", ID207U),
    (268, C268, "[*] n-gpu-layers = lots with the router's -c 512; chat to alpha"): Case(
        "fresh526-llama-router-preset-global-ngl-lots",
        ["--models-preset", "{d}/models.ini"],
        [F475.chat(F475.user("hello"), model="alpha")],
        model=False,
        copies=["models/alpha.gguf"],
        texts={
            "models.ini": "version = 1\n\n[*]\nn-gpu-layers = lots\n\n[alpha]\nmodel = {d}/models/alpha.gguf\n"
        },
        concrete="D/models/alpha.gguf a copy of the tiny GGUF; D/models.ini 'version = 1 / [*] / n-gpu-layers = "
        "lots / [alpha] / model = D/models/alpha.gguf'; llama-server (router: no -m) --models-preset D/models.ini "
        "with the router's -c 512 (the rest of the base command); a chat naming 'alpha'",
        expected="preset.cpp keeps a non-boolean option's value as its string ('lots', unchecked); the router starts; "
        "the chat spawns alpha's instance with --n-gpu-layers lots, whose argument parse throws std::stoi's "
        "invalid_argument: 'error while handling argument \"--n-gpu-layers\": stoi' (or the env form), the instance "
        "exits 1, the router reports the load failed and answers the chat with an error; the router serves on: "
        "llamacpp-invalid-argument",
    ),
    (233, C233P, "samplers-spaces"): Case(
        "fresh526-llama-samplers-spaces",
        list(F233.SPECS["samplers-spaces"]["flags"]),
        [post("/completion", LCOMP_HELLO)],
        concrete="the base command with --samplers 'top_k top_p temperature' (fresh-233's SPECS entry: spaces, not "
        "';'); POST /completion {prompt 'hello', n_predict 8}",
        expected="--samplers splits on ';' only: one name 'top_k top_p temperature', which "
        "common_sampler_types_from_names cannot match: \"unable to match sampler by name 'top_k top_p "
        "temperature'\", dropped (an empty chain: dist only); the server serves and the completion answers 200: "
        "none (a warning the server lived with, as fresh-223's samplers-greedy)",
    ),
    (207, C207W, V207W): ("207", ID207W),
    (234, C234, "LLAMA_ARG_LOAD_MODE=mlock"): Case(
        "fresh526-llama-env-load-mode-mlock",
        [],
        [post(CHAT, F240_CHAT)],
        env={"LLAMA_ARG_LOAD_MODE": "mlock"},
        concrete="LLAMA_ARG_LOAD_MODE=mlock exported (fresh-234's entry); the base command; a chat 'Hello'",
        expected="--load-mode's env takes mlock (LLAMA_LOAD_MODE_MLOCK); the 6.5 MB model is locked (root; or, "
        "were the lock refused, a 'failed to mlock' warning the server lives with); the chat answers 200: none",
    ),
    (233, C233L, "logit-bias-5000-backend-sampling"): Case(
        "fresh526-llama-logit-bias-5000-backend-sampling",
        list(F233.SPECS["logit-bias-5000-backend-sampling"]["flags"]),
        [post("/completion", LCOMP_HELLO)],
        concrete="the base command with --logit-bias 5000+2 --backend-sampling (token 5000 beyond the tiny "
        "vocabulary of 1024; fresh-233's SPECS entry); POST /completion {prompt 'hello', n_predict 8}",
        expected="arg.cpp takes TOKEN+BIAS unchecked; with --backend-sampling the logit-bias sampler runs in the "
        "graph: ggml_set_rows writes row 5000 of a 1024-row logits tensor and the CPU op's "
        "'GGML_ASSERT(i1 >= 0 && i1 < ne1) failed' aborts the server (exit 134, SIGABRT) at the completion's first "
        "sample (or warm-up), the completion gets no reply: llamacpp-assert (as fresh-223's mirostat -1; "
        "alternative: were the backend sampler not taken up, the CPU path skips id 5000 and answers 200: none)",
    ),
}

EXPECT_207 = {
    ID207U: (
        "D/models/model.gguf a copy of the tiny GGUF (D mode 0777); fresh-207's line with this batch's port: "
        "`setpriv --reuid 65534 --regid 65534 --clear-groups llama-server -m models/model.gguf --port 27300 -c 4096; "
        'echo "exit status $?"` twice; once healthy (and 3 s), `chmod 000 models` and SIGTERM to the first server; '
        "two /completion requests (fresh-207's entry)",
        "the first server (nobody) serves, stops on SIGTERM (exit status 0); the restarted server, still nobody, "
        "cannot reach models/model.gguf through a folder it may not search: the model open fails (EACCES: 'failed "
        "to open ... Permission denied' or the model-path check failing), 'failed to load model', exit status 1; "
        "the requests after the stop get no reply: path-permission-denied (as fresh-207's gguf-v1's label now)",
    ),
    ID207W: (
        "fresh-207's svc-run (its own systemd-run-like bash supervisor) in PATH; `svc-run --unit llama-server "
        "--runtime-max-sec 10 --kill-signal SIGKILL -- llama-server -m model.gguf --port 27300 -c 4096; "
        'echo "exit status $?"`; a /completion once healthy, another 12 s later (fresh-207\'s entry)',
        "the first completion answers 200; at 10 s svc-run prints 'Service reached runtime time limit. Stopping.' "
        "and SIGKILLs the server (no shutdown lines), then 'Main process exited, code=killed, status=9/SIGKILL' and "
        "\"Failed with result 'timeout'.\", exit status 1; the second completion is refused (connection refused): "
        "systemd-result-timeout (as fresh-207's v1's label now)",
    ),
}

# the run order, fixed before any case ran: the expected failures first, the expected healthy ones last.
RUN_ORDER = [
    "fresh526-llama-logit-bias-5000-backend-sampling",
    ID207U,
    ID207W,
    "fresh526-llama-router-preset-global-ngl-lots",
    "fresh526-llama-request-stop-list-number",
    "fresh526-llama-control-vector-column-256x1",
    "fresh526-llama-api-key-file-a-folder",
    "fresh526-llama-flash-attn-enabled",
    "fresh526-llama-samplers-spaces",
    "fresh526-llama-env-load-mode-mlock",
]


def case_id(t: tuple) -> str:
    c = KEY[t]
    return c[1] if isinstance(c, tuple) else c.id


def shown(t: tuple) -> tuple[str, str]:
    """(concrete, expected) of a kept triple."""
    c = KEY[t]
    return EXPECT_207[c[1]] if isinstance(c, tuple) else (c.concrete, c.expected)


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        p = F475.F300.pool()
        print(
            f"pool: {len(p)} tools (fresh-300's), {sum(len(c) for c in p.values())} conditions, seed {SEED}"
        )
        for i, t in enumerate(kept, 1):
            concrete, expected = shown(t)
            print(f"draw {i}: {case_id(t)}: fresh-{t[0]} | {t[1]} | {t[2]}")
            print(f"    concrete: {concrete}")
            print(f"    expected: {expected}")
        for t, why in redrawn:
            print(f"drawn anew ({why}): fresh-{t[0]} | {t[1]} | {t[2]}")
        return
    point_make_here()
    wanted = set(sys.argv[1:])
    WORK.mkdir(exist_ok=True)
    tiny = tiny_gguf(WORK)
    for t in sorted(kept, key=lambda t: RUN_ORDER.index(case_id(t))):
        cid = case_id(t)
        if wanted and cid not in wanted:
            continue
        start = time.monotonic()
        c = KEY[t]
        if isinstance(c, tuple):
            text = made_by_207(t[1], t[2], cid)
        else:
            with F505.numpy_arrays_as_lists() if c.lora else contextlib.nullcontext():
                text = F475.make(c, tiny)
        (OUT / f"{cid}.log").write_text(text.rstrip() + "\n")
        print(f"{cid}: {len(text.splitlines())} lines, {time.monotonic() - start:.0f} s", flush=True)


if __name__ == "__main__":
    main()
