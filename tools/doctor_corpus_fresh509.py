"""fresh-509: an unseen made-here batch: A FAILURE (OR NONE) AFTER A LONG HEALTHY RUN, ROUND 6, both engines: fresh-501's
procedure (fresh-409's draws(): case k on vLLM for k odd, llama for k even; condition, then value, drawn anew when
already made or kept) repeated with seed 2509, N = 10, ports 27050 (engine) / 27051 (reserved), work dir /tmp/fresh509.

Imported, not copied (batch.md step 2): fresh-501's draws() (itself fresh-409's, wrapped), made_before(), ENGINES,
make_vllm (fresh-409's make_vllm with fresh-382's Journal / Traffic / probe / trimmed), vev_core_signal, run_llama and
llama_event. Their constants are module globals baked into them (SEED, N, ENGINES, made_before; PORT, WORK, SRC,
VLLM_EVENTS, SLUGS, llama_event), so each call here sets fresh-501's globals for the call and puts them back; no
predecessor file was edited. fresh-501's make_vllm names its log fresh501-vllm-NN-<slug>; it is renamed at once to
fresh509-vllm-NN-<slug> (the slugs are new, so no fresh-501 file can be clobbered: checked before the call).

Already made: fresh-501's made_before() (fresh-382/383/385/389/409/419's kept pairs) plus fresh-501's 10 kept draws.
The pool ran short (checked before the draw, printed by `--pool`): of every pair of both engines only two are left
(vLLM 'SIGSEGV to the EngineCore pid', llama 'a /completion prompt longer than -c 512'), so N = 10 would give 8 x NONE
LEFT. batch.md: add NEW classes (from the engines' own source) BEFORE the draw. Five new classes per engine, each
added to a USED-UP condition of its theme (what ends or degrades a server that has served well for a while), the pool
built by corpus_tools.pool_after (which checks the used-up rule): vLLM 0.32 -- api_server / uvicorn handle SIGINT and
SIGTERM, EngineCore (v1/engine/core.py run_engine_core) installs a SIGTERM / SIGINT handler that raises SystemExit,
'"auto" tool choice requires --enable-auto-tool-choice' (serving_chat / protocol validation), a text-only model given
an image part; llama.cpp b11434 -- server.cpp handles SIGINT / SIGTERM only; signal(7): SIGILL / SIGTRAP / SIGQUIT
dump core, SIGUSR1 terminates.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh509.py [--pool | --draws | K ...]
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus_tools  # noqa: E402
import doctor_corpus_fresh382 as v382  # noqa: E402
import doctor_corpus_fresh383 as l383  # noqa: E402
import doctor_corpus_fresh501 as f501  # noqa: E402

SEED = 2509
N = 10

# NEW classes (the pool of both engines is used up but for one pair each), each for a used-up condition of its engine.
VLLM_NEW = {
    "the API server process SIGKILLed": [
        "kill -9 of the whole process group (API server and EngineCore) while traffic runs",
    ],
    "the EngineCore child SIGTERMed (someone kills it by pid)": [
        "SIGINT to the EngineCore pid while traffic runs",
    ],
    "the API server asked to stop (an operator's stop or deploy)": [
        "SIGTERM to the whole process group while traffic runs (a stop that signals every process)",
    ],
    "requests the server refuses after a long run (it survives)": [
        "chat requests with tools and tool_choice 'auto' (started without --enable-auto-tool-choice)",
    ],
    "bad requests after a long run (the engine survives)": [
        "chat requests with an image part (the model is text-only)",
    ],
}
LLAMA_NEW = {
    "server stopped by SIGTERM": ["SIGINT (Ctrl-C) while requests are in flight"],
    "server crashes by a fatal signal": ["SIGILL delivered to the server"],
    "server killed by another fatal signal": [
        "SIGTRAP delivered to the server (a stray breakpoint trap)",
        "SIGUSR1 delivered to the server (it has no handler for it)",
    ],
    "server hung up (SIGHUP) or quit (SIGQUIT)": ["SIGQUIT while requests are in flight"],
}
NEW = {"vllm": VLLM_NEW, "llama": LLAMA_NEW}


def made_before() -> set[tuple[str, str, str]]:
    """(engine, condition, value) pairs fresh-382/383/385/389/409/419 and fresh-501 kept (made into cases)."""
    out = f501.made_before()
    out |= {(e, c, v) for e, c, v, _, _ in f501.draws()[0] if c != "NONE LEFT"}
    return out


BEFORE = made_before()


def pools() -> tuple[dict, dict]:
    """ENGINES with the new classes (checked by corpus_tools.pool_after) and each engine's pool left to draw."""
    engines, left = {}, {}
    for e, (conds, lengths, traffic) in f501.ENGINES.items():
        already = {(c, v) for ee, c, v in BEFORE if ee == e}
        merged, pool = corpus_tools.pool_after(conds, already, NEW[e])
        engines[e], left[e] = (merged, lengths, traffic), pool
    return engines, left


ENGINES, POOL = pools()


def draws():
    """fresh-501's draws() (fresh-409's) with this batch's SEED, N, ENGINES and already-made set, put back after."""
    names = ("SEED", "N", "ENGINES", "made_before")
    saved = [getattr(f501, a) for a in names]
    f501.SEED, f501.N, f501.ENGINES, f501.made_before = SEED, N, ENGINES, lambda: BEFORE
    try:
        kept, redrawn = f501.draws()
    finally:
        for a, v in zip(names, saved):
            setattr(f501, a, v)
    why = {"made by fresh-382/383/385/389/409/419": "made by fresh-382/383/385/389/409/419/501"}
    return kept, [(e, c, v, why.get(w, w)) for e, c, v, w in redrawn]


def main() -> None:
    if sys.argv[1:2] == ["--pool"]:
        for e, pool in POOL.items():
            for c, vs in pool.items():
                print(f"pool ({e}): {c} | {' / '.join(vs)}")
        return
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for k, (e, c, v, ln, tr) in enumerate(kept, 1):
            print(f"draw {k} ({e}): {c} | {v} | {ln} | {tr}")
        for e, c, v, why in redrawn:
            print(f"drawn anew ({e}): {c} | {v} | {why}")
        return
    wanted = [int(a) for a in sys.argv[1:]] or list(RUN_ORDER)
    # the engines must get the default actions of the signals drawn (fresh-501's harness fault: nohup / a background
    # job of a non-interactive shell ignore SIGHUP / SIGQUIT / SIGINT, and children inherit that)
    for sig in (signal.SIGHUP, signal.SIGQUIT, signal.SIGINT):
        signal.signal(sig, signal.SIG_DFL)
    prepare()
    for k in wanted:
        e, c, v, ln, tr = kept[k - 1]
        if c == "NONE LEFT":
            print(f"draw {k}: NONE LEFT, no case", flush=True)
            continue
        globals()["make_" + e](k, c, v, ln, tr)  # the case makers, added after the draw


# ---- case makers and expected outcomes (added after the draw was committed, before any case ran) ----

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
WORK = Path("/tmp/fresh509")
PORT = 27050
SRC = WORK / "src"


def prepare() -> None:
    """The tiny model and GGUF, made fresh here once (corpus_tools.tiny_model / tiny_gguf)."""
    corpus_tools.tiny_gguf(SRC)


if __name__ == "__main__":
    main()
