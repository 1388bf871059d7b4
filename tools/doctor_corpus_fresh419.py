"""fresh-419: an unseen made-here batch: A FAILURE (OR NONE) AFTER A LONG HEALTHY RUN, ROUND 5, llama-server only: a
re-draw over the condition space of tools/doctor_corpus_fresh383.py (the real llama-server b11434, .llama-cpp/bin, on
corpus_tools.tiny_gguf's tiny GGUF), by tools/doctor_corpus_fresh409.py's procedure (itself fresh-389's / fresh-385's),
copied, with every draw from the llama-server space (fresh-409's header says the vLLM pairs are used up: 24 pairs, all
made by fresh-382/385/389/409).

CONDITIONS, LENGTHS and TRAFFIC are fresh-383's own, imported unchanged (written there from llama.cpp b11434's server
sources before they ran). Read for this batch: tools/doctor_corpus_fresh383.py, 385.py, 389.py and 409.py (docstrings,
CONDITIONS, draw procedures, makers), fresh-409's draw file, the manifest HEADER of fresh-409 (not its entries, not its
logs), tools/corpus_tools.py.

Procedure (fresh-409's, copied; fixed and committed with `--draws` output, run twice with PYTHONHASHSEED=0 and
compared, before any case ran): r = random.Random(2419); 8 cases, every one from the llama-server space; for each:
condition = r.choice(list(CONDITIONS)), value = r.choice(CONDITIONS[condition]); the pair is drawn anew when fresh-383,
fresh-385, fresh-389 or fresh-409 already KEPT it (made it into a case; fresh-409 made all five of its llama draws) or
this batch already kept it; once kept, length = r.choice(LENGTHS), traffic = r.choice(TRAFFIC), from the same stream.
A draw with no pair left is recorded 'NONE LEFT' and makes no case (fresh-409's rule). Nothing is redrawn after a run;
a case that could not be made is said so, not replaced.

Running: one engine at a time, in its own process group, killed by group. Port 25920 (engine); 25921 reserved; nothing
else of 25920-25929. Work dir /tmp/fresh419. Cases call fresh383.run_case unchanged (PORT 25920, WORK
/tmp/fresh419/llama; base `llama-server -m models/tiny-f32.gguf --host 127.0.0.1 --port 25920 -c 512` plus the
condition's flags), its middle cut marked by fresh385.marked (the start through `listening on` plus ~45 KB of traffic
and the last ~45 KB of the healthy phase kept, a `# ... N lines ... cut here ...` line where the cut is). run_case
already holds an event for every pair of fresh-383's space, so no event maker is written here. Logs:
tests/fixtures/doctor-corpus/fresh419-llama-<slug>.log, each < 200 KB.
Result of the draw (committed before any case ran): the llama space holds 30 pairs and 27 were already made, so only
3 remained: draws 1-3 made cases, draws 4-8 are NONE LEFT (no case): this batch has 3 cases, not 8. Seen in the run,
left as it is (run_case unchanged): draw 2's child cgroup read its usage as 0 (cgroup v1 keeps a moved process's
charges in its old cgroup), so the limit written was 0, not a quarter of the usage.
Usage (repository root): .venv/bin/python tools/doctor_corpus_fresh419.py [--draws | K ...]
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import doctor_corpus_fresh383 as l383  # noqa: E402
import doctor_corpus_fresh409 as f409  # noqa: E402

SEED = 2419
N = 8
CONDITIONS, LENGTHS, TRAFFIC = l383.CONDITIONS, l383.LENGTHS, l383.TRAFFIC
ENGINE = "llama"


def made_before() -> set[tuple[str, str, str]]:
    """(engine, condition, value) pairs fresh-382, 383, 385, 389 and 409 kept (made into cases)."""
    out = f409.made_before()
    out |= {(e, c, v) for e, c, v, _, _ in f409.draws()[0] if c != "NONE LEFT"}
    return out


def draws():
    r = random.Random(SEED)
    before = made_before()
    kept: list[tuple[str, str, str, str, str]] = []
    redrawn: list[tuple[str, str, str, str]] = []
    for _k in range(1, N + 1):
        left = [(ENGINE, c, v) for c in CONDITIONS for v in CONDITIONS[c]]
        if all(p in before or any(p == kp[:3] for kp in kept) for p in left):
            kept.append((ENGINE, "NONE LEFT", "every llama pair already made or kept: no case", "", ""))
            continue
        while True:
            c = r.choice(list(CONDITIONS))
            v = r.choice(CONDITIONS[c])
            if (ENGINE, c, v) in before:
                redrawn.append((ENGINE, c, v, "made by fresh-382/383/385/389/409"))
            elif any((ENGINE, c, v) == kp[:3] for kp in kept):
                redrawn.append((ENGINE, c, v, "kept by this batch"))
            else:
                break
        kept.append((ENGINE, c, v, r.choice(LENGTHS), r.choice(TRAFFIC)))
    return kept, redrawn


def main() -> None:
    kept, redrawn = draws()
    if sys.argv[1:2] == ["--draws"]:
        for k, (e, c, v, ln, tr) in enumerate(kept, 1):
            print(f"draw {k} ({e}): {c} | {v} | {ln} | {tr}")
        for e, c, v, why in redrawn:
            print(f"drawn anew ({e}): {c} | {v} | {why}")
        return
    wanted = {int(a) for a in sys.argv[1:]}
    for k, (_e, c, v, ln, tr) in enumerate(kept, 1):
        if wanted and k not in wanted:
            continue
        if c == "NONE LEFT":
            print(f"draw {k}: NONE LEFT, no case", flush=True)
            continue
        make_llama(k, c, v, ln, tr)  # the case maker, added after the draw


# ---- case maker and expected outcomes (added after the draw was committed, before any case ran) ----


import json  # noqa: E402
import shutil  # noqa: E402
import time  # noqa: E402

import doctor_corpus_fresh385 as f385  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "doctor-corpus"
WORK = Path("/tmp/fresh419")
PORT = 25920

# Expected outcome of each draw, written from llama.cpp b11434's sources BEFORE the case ran (the manifest's `expected`
# is written from what the log then shows, before doctor ever runs on it).
EXPECTED_BEFORE = {
    1: "n_predict -1 on a 512-token context, context shift off (the default): process_token stops the slot when the "
    "prompt plus the generation reach n_ctx (truncated = true, stop_type 'limit'; its line is SLT_DBG, not shown at "
    "the default verbosity), the reply is a 200; pre_decode's 'context shift is disabled' error should never be "
    "reached; the tiny model may also stop at an end-of-generation token first -> none (nothing fails)",
    2: "memory.limit_in_bytes set to a quarter of the server's usage (cgroup v1): the kernel reclaims what it can (the "
    "GGUF's mapped pages are page cache, reclaimable); if it cannot reach the limit the write fails with EBUSY "
    "('Device or resource busy') and nothing changes (-> none); if it is set, the next allocation past it makes the "
    "memory cgroup's OOM killer SIGKILL the server (exit 137, no server line) -> an OOM-killed / killed-from-outside "
    "family",
    3: "SIGSTOP to the server, never continued: the server prints nothing more, the clients' requests read-time-out "
    "(httpx ReadTimeout after 10 s), /health also times out; run_case's clean-up stop sends SIGTERM, then SIGCONT + "
    "SIGKILL after 20 s (the SIGTERM pending on a stopped process acts at SIGCONT: the server may log its orderly "
    "exit) -> the server hung (frozen from outside); the log cannot say SIGSTOP: known_miss likely",
}

SLUGS = {
    1: "n-predict-unbounded-at-context-limit",
    2: "cgroup-memory-limit-far-below-usage",
    3: "sigstop-never-continued-clients-time-out",
}


def make_llama(
    k: int, cond: str, value: str, length: str, traffic: str
) -> None:  # fresh409's, its names here
    l383.PORT = PORT
    l383.WORK = WORK / "llama"
    l383.WORK.mkdir(parents=True, exist_ok=True)
    gguf = l383.WORK / "tiny-f32.gguf"
    if not gguf.exists():
        shutil.copy("/tmp/fresh317/tiny-f32.gguf", gguf)
    t = time.monotonic()
    text, notes = l383.run_case(k, cond, value, length, traffic)
    text = f385.marked(text, notes.get("cut"))
    name = f"fresh419-llama-{SLUGS[k]}.log"
    (OUT / name).write_text(text)
    print(
        f"draw {k}: {name}: {len(text.encode())} bytes, {len(text.splitlines())} lines, "
        f"{time.monotonic() - t:.0f} s, notes {json.dumps(notes)[:600]}",
        flush=True,
    )


if __name__ == "__main__":
    main()
